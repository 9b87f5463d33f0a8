"""Sultans of Karaya on the screens (:mod:`tui.games`): its catalogue, help,
the settings line's parts and the dialog's match mode (S-MATCH-1: a number of
rounds, or first to N points), turn limit (S-WIN-4) and notebook (S-VIEW-2)."""

from __future__ import annotations

from engine.sultans.options import FIRST_TO_CAP, SultansOptions
from engine.sultans.spec import SPEC
from protocol.contract import RoomSettings
from protocol.i18n import Lang, t
from tui.games import GameUI, SummaryParts, Switch
from tui.sultans.catalogue import SULTANS_EN, SULTANS_ZH

DEFAULTS = SultansOptions()


def summary(settings: RoomSettings, lang: Lang) -> SummaryParts:
    """The match's length after the seats; turn limit and notebook after the
    bots. Options missing from ``settings.options`` are the engine's defaults
    (the dialog leaves them out)."""
    parts = SummaryParts()
    rounds, first_to = settings.options.get("rounds"), settings.options.get("first_to")
    if isinstance(first_to, int):
        parts.head.append(t("summary.first_to_one" if first_to == 1 else "summary.first_to", lang, n=first_to, cap=FIRST_TO_CAP))
    elif isinstance(rounds, int):
        parts.head.append(t("summary.rounds_one" if rounds == 1 else "summary.rounds", lang, n=rounds))
    limit = settings.options.get("turn_limit")
    parts.tail.append(t("summary.turn_limit", lang, n=limit if isinstance(limit, int) else DEFAULTS.turn_limit))
    notebook = settings.options.get("notebook", DEFAULTS.notebook) is not False
    parts.tail.append(t("summary.notebook_on" if notebook else "summary.notebook_off", lang))
    return parts


UI = GameUI(
    spec=SPEC,
    en=SULTANS_EN,
    zh=SULTANS_ZH,
    lead=("rounds",),
    rest=("match", "first_to", "turn_limit", "notebook"),
    switch=Switch("match", ("rounds", "first_to")),
    facts={"cap": FIRST_TO_CAP},
    summary=summary,
    table="tui.sultans.table:Table",
)
