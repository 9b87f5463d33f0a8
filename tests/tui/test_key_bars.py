"""Every key bar, on every kind of screen, at 80x24 and 60x20 in both
languages: a key shown has its label. The lobby's bar read " Enter Join  w
Watch  c New room  t   b   F1 Help  F2 中文  l Settings  q" at 80 columns,
and no key had a label at 60 (the tables' t, Tab, F1 and F2 went bare too)."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from screens_at import AFTER_A_MATCH, WITH_KEY_BARS, Lang

from protocol.i18n import t
from tui.screens.base import HostModal
from tui.widgets import KeyBar


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("where", list(WITH_KEY_BARS))
async def test_every_key_on_a_bar_has_its_label(where: str, lang: Lang, size: tuple[int, int]) -> None:
    async with WITH_KEY_BARS[where](lang, size) as (app, _pilot):
        bars = [bar for bar in app.screen.query(KeyBar) if bar.display]
        assert bars, where
        bar = bars[-1]
        plain = bar.plain()
        assert cell_len(plain.rstrip()) <= size[0] and "…" not in plain, plain
        assert bar.pairs and all(label for _key, label in bar.pairs), (where, plain)
        assert ("F2", t("key.lang", lang)) in bar.pairs, plain  # the other language's name, how its reader finds it
        if not isinstance(app.screen, HostModal):
            assert ("F1", t("key.help", lang)) in bar.pairs, plain  # the key that lists the rest


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("where", list(AFTER_A_MATCH))
async def test_the_hosts_keys_after_a_match_stay_on_the_bar(where: str, lang: Lang, size: tuple[int, int]) -> None:
    """At a match's end 80 columns showed t and Tab but lost o, F3 and F4: the
    host's p and o stay (at 60 columns too), and at 80 the results (F4); F1 lists
    the rest."""
    async with AFTER_A_MATCH[where](lang, size) as (app, _pilot):
        bar = [bar for bar in app.screen.query(KeyBar) if bar.display][-1]
        keys = [key for key, _label in bar.pairs]
        assert "p" in keys and "o" in keys and "Esc" in keys, bar.plain()
        if size[0] >= 80 and app.screen.check_action("results", ()):  # (a match with a finished round)
            assert "F4" in keys, bar.plain()
