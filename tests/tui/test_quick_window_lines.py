"""Pilot tests of a quick window's line (S-REACT-5, K-ORD-11) on both tables, at
80x24 and 60x20, in English and Chinese: a seat the room passes for shows no
prompt, only "nothing to answer" (and the countdown); no screen counts who
still owes an answer; strict windows keep the count."""

from __future__ import annotations

from typing import Literal

import pytest
from fakes import screen_text
from overlord_fakes import OverlordRoom
from sultans_fakes import SultansRoom
from test_overlord_table import new_game
from test_overlord_table import prompt as ov_prompt
from test_overlord_table import table as ov_table
from test_sultans_table import DEAL_A, box
from test_sultans_table import prompt as sk_prompt
from test_sultans_table import table as sk_table

from protocol.i18n import t

Lang = Literal["en", "zh"]
SIZES = [(80, 24), (60, 20)]
NOTHING = {"en": "Nothing to answer", "zh": "你沒有可以回應的"}
COUNTS = ("waiting for", "還在等", "to answer", "人要回應")


def no_count(text: str) -> bool:
    text = text.replace(NOTHING["en"], "")
    return not any(c in text for c in COUNTS)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_sultans_seat_with_nothing_to_answer_sees_no_prompt(size: tuple[int, int], lang: Lang) -> None:
    """S-REACT-5: bob (1) attacks dave (3); carol (2) holds a Slave, so the room passes
    for her: her window line says what the window is about and that she has nothing
    to answer, with the countdown; no options, no count."""
    room = SultansRoom(5, deal=DEAL_A, first=1, humans=(0, 2), deadline_in=20)
    room.play(1, "assassinate 3")
    room.passed_for = {2}
    async with sk_table(room, 2, size=size, lang=lang) as (app, pilot, client):
        text, screen = sk_prompt(app), screen_text(app)
        assert NOTHING[lang] in text
        assert t("sk.key.pass", lang) not in text and "Your options" not in text and "你的選擇" not in text
        assert no_count(text)
        assert "⏱" in screen
        assert "●" not in box(app, 2)  # her seat is not marked as owing an answer
        assert "●" not in box(app, 0) and "●" not in box(app, 4)  # nor anyone else's (who owes is nobody's business)
        await pilot.press("o", "enter")  # her pass key does nothing: the room answers
        await pilot.pause(0.1)
        assert client.sent == []


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_sultans_seat_with_a_choice_sees_its_options_and_no_count(size: tuple[int, int], lang: Lang) -> None:
    """S-REACT-5: alice (0, a Guard next to the Assassin) may block: she is asked, and
    her screen does not say how many still owe an answer."""
    room = SultansRoom(5, deal=DEAL_A, first=1, humans=(0, 2), deadline_in=20)
    room.play(1, "assassinate 3")
    room.passed_for = {2, 3, 4}
    async with sk_table(room, 0, size=size, lang=lang) as (app, _pilot, _client):
        text = sk_prompt(app)
        assert t("sk.key.block", lang) in text and NOTHING[lang] not in text
        assert no_count(text)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_overlord_seat_with_nothing_to_answer_sees_no_prompt(size: tuple[int, int], lang: Lang) -> None:
    """K-ORD-11: a Plead Guilty window; dave (3) holds no Plead Guilty, so the room
    passes for him: "nothing to answer", no options, no "n/m to answer"."""
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    g.play(0, "order 1")
    room = OverlordRoom(g, humans=(2, 3), deadline_in=20)
    room.passed_for = {0, 3}
    async with ov_table(room, 3, size=size, lang=lang) as (app, pilot, client):
        text = ov_prompt(app)
        assert NOTHING[lang] in text
        assert no_count(text)
        assert "⏱" in screen_text(app)
        await pilot.press("n", "enter")
        await pilot.pause(0.1)
        assert client.sent == []
    async with ov_table(room, 2, size=size, lang=lang) as (app, _pilot, _client):
        text = ov_prompt(app)  # carol holds the card: asked, and no count either
        assert NOTHING[lang] not in text and t("ov.key.plead", lang) in text
        assert no_count(text)


async def test_strict_windows_keep_the_count() -> None:
    """S-REACT-2 as written (strict windows): the count of who still owes stays."""
    room = SultansRoom(5, deal=DEAL_A, first=1, humans=(0, 2), deadline_in=20, strict=True)
    room.play(1, "assassinate 3")
    async with sk_table(room, 2, size=(80, 24)) as (app, _pilot, _client):
        assert "waiting for 4 of 4" in sk_prompt(app) and NOTHING["en"] not in sk_prompt(app)
