"""Pilot tests of the Sultans of Karaya table (issue 4): one test per screen state,
with real engine rounds (explicit deals, ``Round.new``) behind a fake room client.

Card values always appear bracketed (``[Guard]``, ``<Slave>``, ``(Vizier)``), so
"the screen shows a card" is checked by looking for those forms.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Literal

import pytest
from fakes import screen_text, settle
from rich.cells import cell_len
from rich.text import Text
from sultans_fakes import NAMES, SultansClient, SultansLobby, SultansRoom
from table_fakes import close_results, host_changes_settings, open_table
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Static

from protocol.i18n import t
from tui.app import ThroneApp
from tui.sultans.help import SultansHelp
from tui.sultans.ring import TableRing, ring_layout, wrap_lines
from tui.sultans.table import Table
from tui.sultans.words import Namer, card_str, describe, event_text
from tui.widgets import TailLog

SIZES = [(80, 24), (120, 40)]
Lang = Literal["en", "zh"]

# seat 0 Guard, 1 Assassin, 2 Slave, 3 Sultan, 4 Slave; spare Slave
DEAL_A = ["guard", "assassin", "slave", "sultan", "slave"]


def sheet_of(app: Any, log_id: str) -> str:
    """The sheet (notes, exchange, result) the table's log pane shows now."""
    sheet = app.screen.query_one(log_id, TailLog).sheet
    assert sheet is not None, "the pane shows the log, not a sheet"
    return sheet.plain


def table(
    room: SultansRoom,
    seat: int | None,
    *,
    size: tuple[int, int] = (80, 24),
    lang: Lang = "en",
) -> AbstractAsyncContextManager[tuple[ThroneApp, Pilot[None], SultansClient]]:
    return open_table(room, seat, SultansClient, SultansLobby, Table, size=size, lang=lang)


def prompt(app: ThroneApp) -> str:
    return str(app.screen.query_one("#sk-prompt", Static).render())


def box(app: ThroneApp, seat: int) -> str:
    """The plain text of one seat box on the ring."""
    return " ".join(line.plain for line in app.screen.query_one(TableRing).boxes[seat].lines)


def cards_on(text: str, cards: Sequence[str], lang: Lang = "en") -> set[str]:
    return {c for c in cards if card_str(c, lang) in text or card_str(c, lang, short=True) in text}


ALL = ["sultan", "guard", "assassin", "slave", "slave-driver", "belly-dancer", "vizier", "fortune-teller"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_your_turn_shows_your_card_and_only_legal_action_keys(size: tuple[int, int], lang: Lang) -> None:
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,), deadline_in=20)
    async with table(room, 0, size=size, lang=lang) as (app, pilot, client):
        text = screen_text(app)
        assert card_str("guard", lang) in text  # own card, always in view (S-VIEW-1)
        assert cards_on(text, ALL, lang) == {"guard"}  # nobody else's card
        if lang == "en":
            assert "Your turn" in text
            assert "Peek" in text and "Swap" in text and "Detain" in text
            assert "Execute" not in text and "Assassinate" not in text
            assert "Detain a seat" in text  # what the card does, in words
        else:
            assert "輪到你了" in text and "拘留" in text
        assert "alice" in text and "erin" in text
        assert "⏱" in text  # the countdown of snapshot.deadline
        # keyboard: d, a seat by number, Enter
        await pilot.press("d")
        await settle(pilot)
        assert client.sent == []  # a key alone never plays
        await pilot.press("4")
        await settle(pilot)
        if lang == "en":
            assert "Reveal and detain dave (4)" in prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent == [("detain 3", 1)]
        assert room.acts[-1] == (0, "detain 3")


async def test_escape_backs_out_and_arrows_pick_targets() -> None:
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0) as (app, pilot, client):
        await pilot.press("p")
        await settle(pilot)
        assert "Peek" in prompt(app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, Table)  # Escape left the picker, not the table
        assert "Peek:" not in prompt(app)
        await pilot.press("s", "down", "down")
        await settle(pilot)
        assert "Swap your card with dave (4)'s" in prompt(app)
        await pilot.press("s")  # s = the spare while picking a swap partner
        await settle(pilot)
        assert "swap it with the spare" in prompt(app) or "with the spare" in prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent[-1][0] == "swap spare"


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_pick_reads_key_colon_what_and_sets_the_choices_apart(lang: Lang) -> None:
    """S-PEEK-1 picked by keys: "Peek: pick a seat  number/arrows …" and the
    seats two spaces apart ("2=bob  3=carol"); in Chinese no space after "："
    ("調查：選一個座位", it was "調查： 選一個座位" and "2=bob 3=carol")."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0, lang=lang) as (app, pilot, _client):
        await pilot.press("p")
        await settle(pilot)
        lines = prompt(app).splitlines()
        head = "Peek: pick a seat  number/arrows pick" if lang == "en" else "調查：選一個座位  數字/方向鍵選擇"
        assert any(line.startswith(head) for line in lines), lines
        assert " 2=bob  3=carol  4=dave  5=erin" in lines, lines


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_what_enter_will_do_is_shown_whole_in_the_prompt_box(lang: Lang, size: tuple[int, int]) -> None:
    """The prompt box has PROMPT_ROWS rows: "▶ Your turn…", the pick's head, its
    choices and what Enter does (S-PEEK-1, S-SWAP-1) left that last line cut at
    80x24 ("…only you see the …"). Picking on one's own turn, the turn line
    gives its row to it; a head too long is cut instead."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0, size=size, lang=lang) as (app, pilot, _client):
        box_ = app.screen.query_one("#sk-prompt", Static)
        for key, kind in (("p", "peek"), ("s", "swap")):
            await pilot.press(key)
            await settle(pilot)
            region = box_.content_region
            rows = [line[region.x : region.right].rstrip() for line in screen_text(app).splitlines()[region.y : region.bottom]]
            preview = t(f"sk.do.{kind}", lang, target=t("sk.seat", lang, name="bob", n=2))
            shown = (" " if lang == "en" else "").join(row.strip() for row in rows)
            assert "⏎ " + preview in shown, rows
            assert not any(row.endswith("…") for row in rows[1:]) or rows[0].endswith("…"), rows
            await pilot.press("escape")
            await settle(pilot)


async def test_two_digit_seats_and_mouse_clicks_pick_seats() -> None:
    deal = ["guard", "assassin", "slave", "sultan", "slave", "slave", "guard", "assassin", "vizier", "slave", "guard", "assassin"]
    room = SultansRoom(12, deal=deal, spare="slave", first=0, humans=(0,))
    async with table(room, 0, size=(100, 30)) as (app, pilot, client):
        await pilot.press("p", "1", "2")  # two digits: seat 12
        await settle(pilot)
        assert "Look at lena (12)'s card" in prompt(app)
        await pilot.press("escape")
        ring = app.screen.query_one(TableRing)
        lay = ring.current_layout()
        bx, by = lay.boxes[4]
        # a click on seat 4 with no action chosen: only peek or swap can target it
        await pilot.press("p")
        await settle(pilot)
        offset = (bx + 2, by)
        await pilot.click(TableRing, offset=offset)
        await settle(pilot)
        assert "Look at erin (5)'s card" in prompt(app)
        await pilot.click(TableRing, offset=offset)  # a second click on the chosen seat sends
        await settle(pilot)
        assert client.sent[-1][0] == "peek 4"


async def test_someone_elses_turn_offers_nothing() -> None:
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0, 2))
    async with table(room, 2) as (app, pilot, client):
        text = screen_text(app)
        assert "alice (1) is playing" in text
        assert card_str("slave", "en") in text
        assert cards_on(text, ALL) == {"slave"}
        assert "Your options" not in text
        await pilot.press("p", "2", "enter")
        await settle(pilot)
        assert client.sent == []


async def window_screens(size: tuple[int, int]) -> tuple[str, str, str, str, SultansClient, SultansClient]:
    """Seat 1 (Assassin) attacks seat 3: seat 0 (Guard, next to the Assassin) can
    block, seat 2 (Slave) cannot. Both are asked (S-REACT-2)."""
    room = SultansRoom(5, deal=DEAL_A, first=1, humans=(0, 2), deadline_in=20, strict=True)
    room.play(1, "assassinate 3")
    async with table(room, 0, size=size) as (app0, pilot0, c0):
        p0, s0 = prompt(app0), screen_text(app0)
        await pilot0.pause(0.2)
        assert c0.sent == []  # nothing answered by itself
    async with table(room, 2, size=size) as (app2, pilot2, c2):
        p2, s2 = prompt(app2), screen_text(app2)
        await pilot2.pause(0.2)
        assert c2.sent == []
    return p0, s0, p2, s2, c0, c2


@pytest.mark.parametrize("size", SIZES)
async def test_reaction_window_same_prompt_for_who_can_and_cannot_react(size: tuple[int, int]) -> None:
    p0, s0, p2, s2, _c0, _c2 = await window_screens(size)
    assert "attacks dave (4)" in p0
    assert "waiting for 4 of 4" in p0
    lines0, lines2 = p0.splitlines(), p2.splitlines()
    assert lines0[0] == lines2[0]  # the same prompt for everyone asked
    assert "Block" in lines0[1] and "Pass" in lines0[1]  # the Guard sees its option inside it
    assert "Block" not in lines2[1] and "Pass" in lines2[1]
    assert lines0[2:] == lines2[2:]
    # apart from the options (and each one's own card), the screens are the same
    assert "⏱" in s0 and "⏱" in s2


@pytest.mark.parametrize(("lang", "width", "waiting"), [("en", 80, "waiting for 4 of 4"), ("zh", 64, "還在等 4/4 人")])
async def test_the_prompt_breaks_before_the_waiting_count_not_inside_it(lang: Lang, width: int, waiting: str) -> None:
    """A window's prompt too long for the line wrapped inside its last item
    ("· waiting for 4" / "of 4" at 80 columns); the count moves down whole."""
    room = SultansRoom(5, deal=DEAL_A, first=2, humans=(0, 4), deadline_in=20, strict=True)
    room.play(2, "revolt")
    async with table(room, 0, size=(width, 24), lang=lang) as (app, _pilot, _client):
        assert waiting in prompt(app)
        assert cell_len(prompt(app).splitlines()[0]) > width - 2  # it does wrap
        lines = [line.strip() for line in screen_text(app).splitlines()]
        assert waiting in lines  # alone on its line, whole, without a leading "·"


async def test_reaction_window_in_chinese() -> None:
    room = SultansRoom(5, deal=DEAL_A, first=1, humans=(0, 2), deadline_in=20, strict=True)
    room.play(1, "assassinate 3")
    async with table(room, 0, size=(120, 40), lang="zh") as (app, _pilot, client):
        text = prompt(app)
        assert "bob（2）行刺 dave（4）" in text and "還在等 4/4 人" in text
        assert "你是 alice（1）" in screen_text(app)  # the header names the seat as the log does
        assert "阻止" in text and "不回應" in text
        assert "⏱" in screen_text(app)
        assert client.sent == []


async def test_match_end_in_chinese() -> None:
    deal = ["sultan", "assassin", "slave", "guard", "slave"]
    room = SultansRoom(5, deal=deal, first=1, humans=(0,), rounds=1)
    room.play(1, "assassinate 0")
    for s in (0, 2, 3, 4):
        room.play(s, "pass")
    async with table(room, 0, size=(80, 24), lang="zh") as (app, pilot, _client):
        text = screen_text(app)
        assert "革命軍獲勝：蘇丹被殺" in text
        assert "比賽結果" in text
        assert "[蘇丹]" in text and "<刺客>" in text
        assert "得分最高" not in text  # the tie-break line is further down the result pane
        await pilot.press("pagedown")
        await settle(pilot)
        assert "得分最高" in screen_text(app)


async def test_reaction_answer_needs_a_key_and_enter() -> None:
    room = SultansRoom(5, deal=DEAL_A, first=1, humans=(0, 2))
    room.play(1, "assassinate 3")
    async with table(room, 0) as (app, pilot, client):
        await pilot.press("b")
        await settle(pilot)
        assert "Reveal and block the attack" in prompt(app)
        assert client.sent == []
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent[-1][0] == "block"
        assert "You answered: block" in prompt(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_narrow_prompt_keeps_the_choices_and_what_enter_does_in_view(lang: Lang) -> None:
    """S-GRD-1 (Detain) at 50 columns: the prompt box has four lines; the pick's
    first line wrapped to two and pushed what Enter does out of the box. Now,
    when the wrapped lines would not fit, the longest are cut to one with "…"
    (the turn line makes way for the pick on one's own turn)."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0, size=(50, 24), lang=lang) as (app, pilot, _client):
        await pilot.press("d")
        await settle(pilot)
        lines = screen_text(app).splitlines()
        head = next(i for i, line in enumerate(lines) if line.startswith(" " + t("sk.key.detain", lang)))
        shown = lines[head : head + 4]
        assert not lines[head - 1].startswith(" ▶ "), lines[head - 1]  # the pick says what this turn is doing
        assert shown[1].startswith("  2=bob  3=carol"), shown
        assert shown[2].startswith(" ⏎ "), shown
        assert shown[0].rstrip().endswith("…") or shown[3].rstrip().endswith("…"), shown  # cut, and says so


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_window_aimed_at_you_says_you(lang: Lang) -> None:
    """S-ASN-1, S-GRD-1 (Assassinate, Detain): the window's line reads to its target in the second
    person ("⚠ bob (2) attacks you!"; it said "attacks dave (4, you)"), and to the others by name."""
    room = SultansRoom(5, deal=DEAL_A, first=1, humans=(0, 3))
    room.play(1, "assassinate 3")
    async with table(room, 3, lang=lang) as (app, _pilot, _client):
        want = "⚠ bob (2) attacks you! Anyone" if lang == "en" else "⚠ bob（2）行刺你！可以阻止的人"
        assert want in prompt(app), prompt(app)
    async with table(room, 0, lang=lang) as (app, _pilot, _client):
        want = "⚠ bob (2) attacks dave (4)! Anyone" if lang == "en" else "⚠ bob（2）行刺 dave（4）！可以阻止的人"
        assert want in prompt(app), prompt(app)
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(2,))
    room.play(0, "detain 2")
    async with table(room, 2, lang=lang) as (app, _pilot, _client):
        # a Slave may only accept (S-GRD-3: the Sultan or a Guard refuses): it said "You may refuse or accept"
        want = ("⚠ alice (1) detains you: you skip your next turn (only the Sultan or a Guard may refuse)."
                if lang == "en" else "⚠ alice（1）拘留你：你的下個回合被跳過（只有蘇丹或守衛可以禁止）。")
        assert want in prompt(app), prompt(app)
        accept = " o  Accept" if lang == "en" else " o  接受拘留"  # a pass, named for what it does
        assert accept in prompt(app) and t("sk.key.pass", lang) not in prompt(app), prompt(app)
    async with table(room, 0, lang=lang) as (app, _pilot, _client):  # the others read the same as ever
        assert ("may refuse or accept" if lang == "en" else "可以禁止或接受拘留") in prompt(app), prompt(app)
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(3,))
    room.play(0, "detain 3")  # the Guard detains the Sultan, who may refuse
    async with table(room, 3, lang=lang) as (app, _pilot, _client):
        want = "⚠ alice (1) detains you. You may refuse or accept." if lang == "en" else "⚠ alice（1）拘留你。你可以禁止或接受拘留。"
        assert want in prompt(app), prompt(app)


async def test_detention_prompt_then_detained() -> None:
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(2,))
    room.play(0, "detain 2")
    async with table(room, 2) as (app, pilot, client):
        text = prompt(app)
        assert "detains you" in text
        assert " o  Accept" in text and "Pass" not in text and "Refuse" not in text  # a Slave cannot refuse
        await pilot.press("o", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "pass"
        text = screen_text(app)
        assert "You are in prison" in text
        assert "#" in box(app, 2)  # the prison sign on the seat box


async def test_n_passes_too_as_in_kill_the_overlord() -> None:
    """A club playing both games pressed Kill the Overlord's pass key (n) in a
    Sultans window: nothing happened. It passes here too, unless n is a
    kind of its own now (the Dancer's turn)."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(2,))
    room.play(0, "detain 2")
    async with table(room, 2) as (_app, pilot, client):
        await pilot.press("n", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "pass"
    from tui.sultans.pick import kinds_for_key

    assert kinds_for_key("n", {"dance": [], "pass": []}) == "dance"
    assert kinds_for_key("n", {"peek": []}) is None


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_detained_sultan_is_offered_the_claim_after_the_answers(lang: Lang) -> None:
    """S-SUL-2 / S-REACT-3: the hidden Sultan, detained, may refuse, accept
    or claim the throne; a claim is not an answer. "Your options" listed only
    "u Refuse  o Accept" while the line above read "Now: u Refuse o Accept
    c Claim throne"; the claim now follows the answers, set apart by "·"."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(3,))
    room.play(0, "detain 3")
    async with table(room, 3, lang=lang) as (app, pilot, client):
        line = next(x for x in prompt(app).splitlines() if x.startswith(t("sk.pick.options", lang)))
        refuse, accept, claim = (line.find(f" {k}  {t(label, lang)}") for k, label in
                                 (("u", "sk.key.refuse"), ("o", "sk.key.accept"), ("c", "sk.key.claim")))
        assert -1 < refuse < accept < line.index("·") < claim, line
        await pilot.press("c", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "claim"


async def test_captured_seat() -> None:
    deal = ["slave-driver", "slave", "guard", "sultan", "assassin"]
    room = SultansRoom(5, deal=deal, first=0, humans=(1,))
    room.play(0, "capture 1")
    async with table(room, 1) as (app, _pilot, _client):
        text = screen_text(app)
        assert "You are captured" in text
        assert "&" in box(app, 1)
        assert "(Driver)" in text or "(Slave Driver)" in text  # revealed by acting
        assert "earns an extra turn" in text or "extra turn" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_manipulate_says_the_side_chosen_and_escape_goes_back_to_it(lang: Lang) -> None:
    """S-VIZ-2: declare a side, then choose a seat. The side step had no ⏎
    line (only the highlight told the side chosen), and Escape at the seat
    dropped the whole choice instead of going back to the side."""
    deal = ["vizier", "guard", "slave", "sultan", "assassin"]
    room = SultansRoom(5, deal=deal, first=0, humans=(0,))
    async with table(room, 0, size=(100, 30), lang=lang) as (app, pilot, client):
        side = {s: t(f"sk.side.{s}", lang) for s in ("loyalists", "rebels")}
        await pilot.press("m")
        await settle(pilot)
        assert "⏎ " + t("sk.pick.side_then_seat", lang, side=side["loyalists"]) in prompt(app), prompt(app)
        # a side is picked by its letter or the arrows, not a number (the line said "number/arrows pick")
        assert t("sk.pick.keys_side", lang) in prompt(app) and t("sk.pick.keys", lang) not in prompt(app)
        await pilot.press("down")
        await settle(pilot)
        assert "⏎ " + t("sk.pick.side_then_seat", lang, side=side["rebels"]) in prompt(app), prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert t("sk.pick.what.seat", lang) in prompt(app) and t("sk.pick.keys", lang) in prompt(app)
        await pilot.press("escape")  # back to the side, the Rebels still chosen
        await settle(pilot)
        assert "⏎ " + t("sk.pick.side_then_seat", lang, side=side["rebels"]) in prompt(app), prompt(app)
        await pilot.press("escape")  # then out of the choice
        await settle(pilot)
        assert "⏎" not in prompt(app) and client.sent == []
        await pilot.press("m", "l", "enter", "3", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "manipulate loyalists 2"


async def test_manipulated_then_exhausted() -> None:
    deal = ["vizier", "guard", "slave", "sultan", "assassin"]
    room = SultansRoom(5, deal=deal, first=0, humans=(1,))
    room.play(0, "manipulate loyalists 1")
    async with table(room, 1) as (app, pilot, client):
        assert "You are manipulated" in prompt(app)
        assert "→L" in box(app, 0)  # the Vizier's declared side
        await pilot.press("d", "3", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "detain 2"
        room.play(2, "pass")
        await settle(pilot)
        text = screen_text(app)
        assert "You are exhausted" in text
        assert "~" in box(app, 1)


async def test_dead_seat() -> None:
    room = SultansRoom(5, deal=DEAL_A, first=1, humans=(0,))
    room.play(1, "assassinate 2")
    for s in (0, 2, 3, 4):
        room.play(s, "pass")
    async with table(room, 2) as (app, _pilot, _client):
        text = screen_text(app)
        assert "You are dead" in text
        assert "✝" in box(app, 2)


async def test_round_end_and_match_end() -> None:
    deal = ["sultan", "assassin", "slave", "guard", "slave"]
    room = SultansRoom(5, deal=deal, first=1, humans=(0, 2), rounds=1, host="carol")
    room.play(1, "peek 2")  # turn 1: seat 1 peeks; now seat 2
    room.play(2, "swap 1")  # seat 2 swaps with seat 1: the Assassin card moves to seat 2
    async with table(room, 0, size=(120, 40)) as (app, pilot, _client):
        room.play(3, "peek 4")
        room.play(4, "peek 3")
        room.play(0, "peek 1")
        room.play(1, "peek 3")
        room.play(2, "assassinate 0")  # the Assassin (now seat 2) kills the Sultan
        for s in (1, 3, 4):
            room.play(s, "pass")
        room.play(0, "pass")
        await close_results(app, pilot)
        assert room.match.is_over()
        text = screen_text(app)
        assert set(cards_on(text, ALL)) >= {"sultan", "assassin", "slave", "guard"}
        assert "Rebels win: the Sultan was killed" in text
        assert "Match result" in text
        # every card is shown once the round is over (S-VIEW-3): no own card line says "face down"
        from tui.sultans.render import _you_line

        hidden = room.match.view(4).round
        assert hidden.phase == "over" and not hidden.seats[4].revealed
        assert t("sk.own.face_down", "en") not in _you_line(hidden, "en").plain
        winners = room.match.view(0).winners
        # one winner: "Winner: …"; seats tied after the tiebreak: "Winners: …" (S-MATCH-1)
        assert ("Winners: " if len(winners) > 1 else "Winner: ") in text
        assert len(winners) > 1 or "Winners:" not in text
        assert "scored the most points" in text or "Tied on" in text
        assert "Where the cards went" in text or "R1" in text
        body = sheet_of(app, "#sk-log")
        assert "Where the cards went" in body
        assert "<Assassin>: bob (2) → t2 carol (3)" in body  # the trail of the moved card
        assert "+2" in text or "+1" in text  # points on the seat boxes
    async with table(room, 2, size=(80, 24)) as (app, pilot, client):
        assert "Press p to play again, or o to change the settings." in screen_text(app)  # whole at 80 columns
        from tui.widgets import KeyBar

        keybar = app.screen.query_one(KeyBar)  # the status line names p and o: F2 keeps its label
        bar = keybar.plain()
        assert " F2 中文" in bar and "Esc Leave" in bar and all(label for _k, label in keybar.pairs), bar
        await pilot.press("p")
        await settle(pilot)
        assert client.again == 1
        await host_changes_settings(app, pilot, client)  # o is also the pass's key: after the match, the settings


def two_rounds() -> SultansRoom:
    """alice (1) holds the Sultan in a match of two rounds; bob (2) holds an Assassin and plays first."""
    return SultansRoom(5, deal=["sultan", "assassin", "slave", "guard", "slave"], first=1, humans=(0,), rounds=2)


def kill_the_sultan(room: SultansRoom) -> None:
    """bob kills alice's Sultan and nobody blocks: the first round is over."""
    room.play(1, "assassinate 0")
    for s in (0, 2, 3, 4):
        room.play(s, "pass")


async def test_between_rounds_result_stays_reachable() -> None:
    room = two_rounds()
    async with table(room, 0, size=(120, 40)) as (app, pilot, _client):
        kill_the_sultan(room)
        await close_results(app, pilot)
        assert "Round 1 is over" in screen_text(app)
        assert "Round 1 result" in screen_text(app)
        room.next_round()
        room.run_bots()
        await settle(pilot)
        assert "Round 2/2" in screen_text(app)
        while "Round 1 result" not in screen_text(app):
            await pilot.press("tab")
            await settle(pilot)


def _log_rows(app: ThroneApp) -> list[str]:
    return [strip.text for strip in app.screen.query_one("#sk-log", TailLog).lines]


async def test_a_log_drawn_anew_keeps_the_earlier_rounds() -> None:
    """A language switch (F2) or a return to the table draws the log anew: the
    earlier rounds' lines, private ones too, come back with it (the log held only
    the current round after F2; what one had peeked at in round 1 was gone)."""
    room = two_rounds()
    async with table(room, 0, size=(120, 40)) as (app, pilot, _client):
        kill_the_sultan(room)
        room.next_round()
        room.run_bots()
        await settle(pilot)
        before = _log_rows(app)
        assert "── Round 1/2 ──" in before and "── Round 2/2 ──" in before
        assert sum("You were dealt" in row for row in before) == 2  # a private line each round
        # the screen drew nothing between round 1's end and round 2: its last lines come first
        assert any("the spare was" in row for row in before[: before.index("── Round 2/2 ──")])
        await pilot.press("f2")
        await settle(pilot)
        rows = _log_rows(app)
        assert "── 第 1/2 局 ──" in rows and "── 第 2/2 局 ──" in rows
        assert sum("你拿到" in row for row in rows) == 2
        await pilot.press("f2")
        await settle(pilot)
        assert _log_rows(app) == before
    async with table(room, 0, size=(120, 40)) as (app, pilot, _client):  # back at the table
        assert _log_rows(app) == before
    async with table(room, None, size=(120, 40)) as (app, pilot, _client):  # a spectator: public lines
        rows = _log_rows(app)
        assert "── Round 1/2 ──" in rows and not any("You were dealt" in row for row in rows)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_tab_reaches_the_result_pane_once_a_round_has_a_result(lang: Lang) -> None:
    """Before the first round's end Tab went log -> notes -> an empty "Result"
    pane that said "… is playing."; it now skips the result until there is one
    (as the Overlord table does), then shows it in the cycle."""
    room = two_rounds()
    async with table(room, 0, size=(120, 40), lang=lang) as (app, pilot, _client):
        seen = []
        for _ in range(4):
            await pilot.press("tab")
            await settle(pilot)
            seen.append(app.screen.pane)
        assert seen == ["notes", "log", "notes", "log"]
        kill_the_sultan(room)
        await close_results(app, pilot)
        assert app.screen.pane == "result"  # the round's end shows its result
        room.next_round()
        room.run_bots()
        await settle(pilot)
        assert app.screen.pane == "log"  # a new round: back to its log
        seen = []
        for _ in range(3):
            await pilot.press("tab")
            await settle(pilot)
            seen.append(app.screen.pane)
            if app.screen.pane == "result":
                sheet = sheet_of(app, "#sk-log")
                assert t("sk.end.title", lang, n=1) in sheet  # the round this screen saw end
                assert t("sk.match.so_far", lang) in sheet and t("sk.match.round_col", lang, n=1) in sheet  # and the scores so far
        assert seen == ["notes", "result", "log"]
    # a player who comes back in round 2 never saw round 1 end: the scores so far still show
    async with table(room, 0, size=(120, 40), lang=lang) as (app, pilot, _client):
        await pilot.press("tab", "tab")
        await settle(pilot)
        assert app.screen.pane == "result"
        sheet = sheet_of(app, "#sk-log")
        assert t("sk.match.so_far", lang) in sheet and t("sk.match.round_col", lang, n=1) in sheet
        assert t("sk.end.title", lang, n=1) not in sheet


@pytest.mark.parametrize("size", SIZES)
async def test_spectator_sees_only_public(size: tuple[int, int]) -> None:
    room = SultansRoom(5, deal=DEAL_A, first=1, humans=(0,))
    room.play(1, "peek 0")
    room.play(2, "revolt")  # the Slave reveals: public
    for s in (0, 1, 3, 4):
        room.play(s, "pass")
    async with table(room, None, size=size) as (app, pilot, client):
        text = screen_text(app)
        assert "watching" in text
        assert cards_on(text, ALL) == {"slave"}
        assert "Your card" not in text
        await pilot.press("p", "2", "enter")
        await settle(pilot)
        assert client.sent == []


async def test_notebook_shows_fresh_and_stale_notes() -> None:
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0, size=(120, 40)) as (app, pilot, _client):
        await pilot.press("p", "2", "enter")
        await settle(pilot)
        text = screen_text(app)
        assert "▒<Assassin>?" in text  # the note on seat 1's box
        assert "You saw: bob (2) holds <Assassin>" in text  # a private log line
        await pilot.press("tab")
        await settle(pilot)
        notes = sheet_of(app, "#sk-log")
        assert "bob (2) = <Assassin>" in notes and "fresh" in notes
        # bob reveals (acts), then hides and may swap in secret: the note goes stale (S-VIEW-2)
        room.play(1, "assassinate 3")
        for s in (0, 2, 3, 4):
            room.play(s, "pass")
        await settle(pilot)


async def test_stale_note_after_a_secret_swap() -> None:
    deal = ["guard", "slave", "assassin", "sultan", "slave"]
    room = SultansRoom(5, deal=deal, first=0, humans=(0,))
    async with table(room, 0, size=(120, 40)) as (app, pilot, _client):
        room.play(0, "peek 2")
        room.play(1, "revolt")
        for s in (0, 2, 3, 4):
            room.play(s, "pass")
        room.play(2, "peek 3")
        room.play(3, "peek 4")
        room.play(4, "peek 0")
        room.play(0, "peek 3")
        room.play(1, "hide swap 2")  # a revealed seat hides; others see only "hid and may have swapped"
        await settle(pilot)
        text = screen_text(app)
        assert "▒<Assassin>??" in text
        assert "bob (2) hid and may have swapped" in text
        await pilot.press("tab")
        await settle(pilot)
        notes = sheet_of(app, "#sk-log")
        assert "may have moved since turn" in notes


async def test_notebook_off() -> None:
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,), notebook=False)
    async with table(room, 0, size=(120, 40)) as (app, pilot, _client):
        await pilot.press("p", "2", "enter")
        await settle(pilot)
        assert "▒<Assassin>?" not in screen_text(app)
        for _ in range(3):
            await pilot.press("tab")
            await settle(pilot)
            assert "Notebook" not in screen_text(app)


async def test_hide_offers_a_secret_swap_or_none() -> None:
    deal = ["slave", "guard", "assassin", "sultan", "slave"]
    room = SultansRoom(5, deal=deal, first=0, humans=(0,))
    room.play(0, "revolt")
    for s in (1, 2, 3, 4):
        room.play(s, "pass")
    for s, a in ((1, "peek 2"), (2, "peek 3"), (3, "peek 4"), (4, "peek 1")):
        room.play(s, a)
    async with table(room, 0) as (app, pilot, client):
        await pilot.press("s")
        await settle(pilot)
        text = prompt(app)
        assert "n=no swap" in text and "s=the spare" in text and "0=" not in text
        assert "Turn your card face down and keep it" in text
        await pilot.press("3")
        await settle(pilot)
        assert "secretly swap it with carol (3)'s" in prompt(app)
        await pilot.press("n", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "hide"


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_one_picks_seat_1_when_hiding_and_n_is_no_swap(lang: Lang) -> None:
    """S-SWAP-2: a revealed seat hides with a secret swap or none. The prompt
    offered a number for no swap beside the seats' numbers, and that number
    picked a seat: a player who trusted the prompt made a swap they did not
    mean. No swap is n alone; 1 is alice's seat."""
    deal = ["guard", "slave", "assassin", "sultan", "slave"]
    moves = [(0, "peek 2"), (1, "revolt"), (2, "pass"), (3, "pass"), (4, "pass"), (0, "pass"),
             (2, "peek 3"), (3, "peek 4"), (4, "peek 0"), (0, "peek 3")]  # bob (2) revealed, his turn
    for keys, sent in ((("1", "enter"), "hide swap 0"), (("n", "enter"), "hide")):
        room = SultansRoom(5, deal=deal, first=0, humans=(1,))
        for seat, action in moves:
            room.play(seat, action)
        async with table(room, 1, lang=lang) as (app, pilot, client):
            await pilot.press("s")
            await settle(pilot)
            text = prompt(app)
            none = t("sk.pick.no_swap", lang)
            assert "n=" + none in text and "1=alice" in text and "1=" + none not in text, text
            assert "(n)" in text or "（n）" in text, text
            await pilot.press(*keys)
            await settle(pilot)
            assert client.sent[-1][0] == sent


async def test_claim_the_throne_is_a_key_only_the_sultans_holder_has() -> None:
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0, 3))
    async with table(room, 3) as (app, pilot, client):
        assert "Claim throne" in screen_text(app)  # not its turn, still there
        await pilot.press("c", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "claim"
        assert "[Sultan]" in box(app, 3)
        assert "♛" in "".join(box(app, s) for s in range(5))
    room2 = SultansRoom(5, deal=DEAL_A, first=0, humans=(0, 2))
    async with table(room2, 2) as (app, pilot, client):
        assert "Claim throne" not in screen_text(app)
        await pilot.press("c", "enter")
        await settle(pilot)
        assert client.sent == []


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_an_action_with_nothing_to_pick_offers_no_numbers(lang: Lang) -> None:
    """S-SUL-2: Claim the Throne has no target: its prompt reads "Claim throne: Enter sends
    · Esc back", not "number/arrows pick" (there is nothing to pick)."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0, 3))
    async with table(room, 3, lang=lang) as (app, pilot, client):
        await pilot.press("c")
        await settle(pilot)
        lines = prompt(app).splitlines()
        keys = t("sk.pick.confirm", lang)
        assert keys in ("Enter sends · Esc back", "Enter 送出 · Esc 返回")
        assert any(line.rstrip().endswith(keys) for line in lines), lines
        assert not any(t("sk.pick.keys", lang) in line for line in lines), lines
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent[-1][0] == "claim"


async def test_foresee_picks_three_seats_then_predicts() -> None:
    deal = ["fortune-teller", "guard", "slave", "sultan", "assassin", "slave"]
    room = SultansRoom(6, deal=deal, spare="slave", first=0, humans=(0,))
    async with table(room, 0, size=(120, 40)) as (app, pilot, client):
        await pilot.press("f", "2", "3")
        await settle(pilot)
        assert "Chosen 2/3" in prompt(app)
        sent = len(client.sent)
        await pilot.press("enter")  # on seat 2, chosen already: nothing to send, and it says why
        await settle(pilot)
        assert len(client.sent) == sent and t("sk.pick.seats_left", "en", n=1, k=3) in prompt(app)
        await pilot.press("5", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "foresee 1 2 4"
        assert "Predict which side wins" in screen_text(app)
        await pilot.press("r", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "predict rebels"
        assert "=R" in box(app, 0)


async def test_refused_action_is_shown_translated() -> None:
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0, lang="zh") as (app, pilot, client):
        room.version += 5  # the host moved on: our version is stale
        await pilot.press("p", "2", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "peek 1"
        assert "✗" in prompt(app)
        assert t("err.stale", "zh")[:6] in prompt(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_help_shows_your_card_rules_in_your_language(lang: Lang) -> None:
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0, lang=lang) as (app, pilot, _client):
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, SultansHelp)
        help_text = app.screen.text.plain
        if lang == "en":
            assert "Action Detain" in help_text and "Keys at this table" in help_text
        else:
            assert "行動〈拘留〉" in help_text and "牌桌按鍵" in help_text
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, Table)


@pytest.mark.parametrize("size", [(100, 32), (80, 24)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_help_lists_break_between_items(size: tuple[int, int], lang: Lang) -> None:
    """The help's lists of keys and signs wrap between two items, never inside
    one ("u" ended a line at 100 columns and "refuse" started the next)."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0, size=size, lang=lang) as (app, pilot, _client):
        await pilot.press("f1")
        await settle(pilot)
        shown = app.screen.query_one("#help-text", Static)
        lines = [strip.text.rstrip() for strip in shown.render_lines(Region(0, 0, *shown.size))]
        assert len(lines) > 20
        items = [
            item.strip(" .。")
            for key, sep in (("sk.help.keys", " · "), ("sk.legend", "  "), ("sk.legend.tokens", "  "))
            for line in t(key, lang, leave=t("table.help.leave", lang)).split("\n")
            if sep in line
            for item in line.split(sep)
        ]
        assert len(items) > 20
        for item in items:
            if cell_len(item) < size[0] - 6:
                assert any(item in line for line in lines), item


async def test_language_switch_rephrases_the_table() -> None:
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0) as (app, pilot, _client):
        assert "[Guard]" in screen_text(app)
        await pilot.press("f2")
        await settle(pilot)
        assert "[守衛]" in screen_text(app)
        assert "[Guard]" not in screen_text(app)


async def test_chat_beside_the_log_is_literal() -> None:
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0, size=(120, 40)) as (app, pilot, client):
        await pilot.press("t")
        await pilot.press(*"hi [b]all")
        await pilot.press("enter")
        await settle(pilot)
        assert room.chat[-1].text == "hi [b]all"
        assert "hi [b]all" in screen_text(app)
        await pilot.press("escape")  # back from the chat line to the table, still seated
        await pilot.press("p")
        await settle(pilot)
        assert "Peek" in prompt(app)
        assert client.sent == []


async def test_names_are_literal_never_markup() -> None:
    names = ["[/b]", "[bold red]x[/]", "carol", "dave", "erin"]
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,), names=names)
    async with table(room, 0) as (app, _pilot, _client):
        text = screen_text(app)
        assert "[/b]" in text and "[bold red]x[/]" in text


@pytest.mark.parametrize("seats", [5, 9, 15])
@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40)])
def test_every_seat_gets_a_box_that_fits(seats: int, size: tuple[int, int]) -> None:
    lay = ring_layout(seats, size[0], max(8, size[1] - 12))
    assert len(set(lay.boxes)) == seats
    assert all(x + lay.cell_w <= size[0] for x, _y in lay.boxes)
    assert lay.cell_w >= 14
    assert lay.has_centre


def test_box_lines_are_cut_once_and_lay_out_like_fresh_ones() -> None:
    """The ring's cells and rows are cached process-wide (tui/sultans/ring.py,
    ``_CELLS``, ``_ROW``): a changed box gets new cells and only its rows are
    made again (the others are the very same objects), and the rows are the
    same as rows made from empty caches."""
    from tui.sultans import ring
    from tui.sultans.ring import SeatBox
    from tui.widgets import text_key

    def clear() -> None:
        ring._CELLS.clear()
        ring._ROW.clear()
        ring._WRAPPED.clear()

    def lay_out(boxes: list[SeatBox]) -> list[Text]:
        widget = TableRing()
        widget.boxes, widget.centre = boxes, [Text("the centre")]
        keys = tuple((tuple(text_key(line) for line in b.lines), b.style) for b in boxes)
        return widget._lay_out_rows(ring_layout(9, 100, 18), 100, 18, keys)

    def shown(rows: list[Text]) -> list[str]:
        return [repr(text_key(row)) for row in rows]

    boxes = [SeatBox([Text(f"{i} player {i}", style="bold"), Text("▒[Guard] +1 and a long tail")]) for i in range(9)]
    clear()
    first_rows = lay_out(boxes)
    first = shown(first_rows)
    made = len(ring._CELLS)
    assert made == 9 + 1 + 1 + 1  # nine names, one shared card line, one empty third line, the centre
    changed = [*boxes[:3], SeatBox([boxes[3].lines[0], Text("<Slave> +2")]), *boxes[4:]]
    second_rows = lay_out(changed)
    second = shown(second_rows)
    assert len(ring._CELLS) == made + 1  # only the changed line was cut again
    assert sum(a != b for a, b in zip(first, second, strict=True)) == 1  # and one row differs
    assert sum(a is not b for a, b in zip(first_rows, second_rows, strict=True)) == 1  # the others reused
    assert any("<Slave> +2" in row for row in second)
    assert any("the centre" in row for row in first)
    selected = [*boxes[:5], SeatBox(boxes[5].lines, style="reverse"), *boxes[6:]]
    third = shown(lay_out(selected))
    fresh = []
    for each in (boxes, changed, selected):
        clear()
        fresh.append(shown(lay_out(each)))
    assert fresh == [first, second, third]
    assert third != first  # the selection's style is part of a cell


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_face_up_card_s_action_does_not_say_reveal(lang: Lang) -> None:
    """S-ACT: a revealed Guard detaining again read "Reveal and detain ..."
    (公開身分並拘留): its card is face up already."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    room.play(0, "detain 3")  # the Guard reveals to detain
    room.play(3, "pass")  # accepted: dave's next turn is skipped
    for seat, act in ((1, "peek 4"), (2, "peek 4"), (4, "peek 1")):
        room.play(seat, act)
    async with table(room, 0, lang=lang) as (app, pilot, _client):
        await pilot.press("d", "3")
        await settle(pilot)
        want = "⏎ Detain carol (3): their next turn" if lang == "en" else "⏎ 拘留 carol（3）：除非對方禁止"
        assert want in prompt(app), prompt(app)


def test_seat_box_lines_made_once_per_seat_view_and_viewer() -> None:
    """Seat box lines are shared by the identity of the engine's seat view (the
    same object for every viewer it looks the same to): the same seat gives the
    very same lines, its owner's box (underlined name, own card) and a changed
    seat give new ones equal to lines made from an empty cache."""
    from engine.sultans import Round
    from tui.sultans import render
    from tui.sultans.render import seat_box_lines
    from tui.widgets import text_key

    r = Round.new(DEAL_A, "slave", first=0)
    names = [f"P{i}" for i in range(5)]

    def box(viewer: int | None, seat: int) -> list[Text]:
        rv = r.view(viewer)
        return seat_box_lines(rv.seats[seat], rv, None, Namer(names, viewer, "en"), "en", note=None, width=20, height=3)

    def keys(lines: list[Text]) -> list[Any]:
        return [text_key(line) for line in lines]

    render._BOX_LINES.clear()
    spectator = box(None, 2)
    assert box(0, 2) is spectator and box(4, 2) is spectator
    own = box(2, 2)
    assert own is not spectator and "<Slave>" in own[1].plain and "Slave" not in spectator[1].plain
    assert any(span.style == "bold underline" for span in own[0].spans)
    playing = box(None, 0)
    assert playing[0].plain.startswith("▶")
    r.play(0, "peek 3")  # seat 0 has played: no longer the one taking its turn
    assert box(None, 0)[0].plain.startswith(" ") and box(None, 1)[0].plain.startswith("▶")
    made = [keys(box(v, s)) for v in (None, 0, 2) for s in range(5)]
    render._BOX_LINES.clear()
    assert [keys(box(v, s)) for v in (None, 0, 2) for s in range(5)] == made


async def test_fifteen_seats_fit_in_100x30_and_80x24() -> None:
    deal = ["sultan", "guard", "guard", "guard", "assassin", "assassin", "assassin", "slave", "slave", "slave", "slave", "slave", "vizier", "belly-dancer", "slave-driver"]
    for size in [(100, 30), (80, 24)]:
        room = SultansRoom(15, deal=deal, spare="fortune-teller", first=0, humans=(0,))
        async with table(room, 0, size=size) as (app, _pilot, _client):
            text = screen_text(app)
            for name in room.names:
                assert name[:6] in text, (name, size)
            assert "Your turn" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_number_that_picks_nothing_or_waits_for_a_second_digit_says_so(lang: Lang) -> None:
    """With 15 seats a first 1 waited for a second digit with nothing on screen,
    and a number that was no choice (your own seat) did nothing, silently."""
    deal = ["sultan", "guard", "guard", "guard", "assassin", "assassin", "assassin", "slave", "slave", "slave", "slave", "slave", "vizier", "belly-dancer", "slave-driver"]
    room = SultansRoom(15, deal=deal, spare="fortune-teller", first=0, humans=(0,))
    async with table(room, 0, size=(100, 30), lang=lang) as (app, pilot, client):
        await pilot.press("p", "1")
        await settle(pilot)
        assert t("sk.pick.more_digit", lang, d="1") in prompt(app), prompt(app)
        await pilot.press("4")  # seat 14 as shown: 13 in the notation
        await settle(pilot)
        assert t("sk.pick.more_digit", lang, d="1") not in prompt(app), prompt(app)
        assert "⏎ " + describe("peek 13", Namer(room.names, 0, lang), lang) in prompt(app), prompt(app)
        await pilot.press("0")  # no seat is 0
        await settle(pilot)
        assert t("pick.not_a_choice", lang, n="0") in prompt(app), prompt(app)
        await pilot.press("enter")  # meant for the 0: it would have sent the highlighted 13
        await settle(pilot)
        assert client.sent == [] and t("pick.enter_again", lang) in prompt(app), prompt(app)
        await pilot.press("enter")  # again: the highlighted one, knowingly
        await settle(pilot)
        assert client.sent == [("peek 13", 1)]


@pytest.mark.parametrize("size", [(100, 32), (90, 40)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_legend_breaks_between_signs_never_inside_one(size: tuple[int, int], lang: Lang) -> None:
    """The legend under the table wraps between its signs: every sign with its
    meaning stays on one line ("?? note may be stale" did not, at 100 columns)."""
    room = SultansRoom(5, deal=DEAL_A, first=1, humans=(0,))
    async with table(room, 0, size=size, lang=lang) as (app, _pilot, _client):
        text = screen_text(app)
        for key in ("sk.legend", "sk.legend.tokens"):
            for sign in t(key, lang).split("  "):
                assert sign in text, sign


def test_text_helpers_colour_by_side() -> None:
    assert card_str("guard", "en") == "[Guard]"
    assert card_str("slave", "zh") == "<奴隸>"
    assert card_str("vizier", "en", short=True) == "(Vizier)"
    assert isinstance(Text(card_str("slave-driver", "en", short=True)), Text)


async def test_an_action_s_log_lines_are_written_then_the_log_refreshed_once() -> None:
    """An action adds several log lines (the play, the next turn); the table
    writes them all, then refreshes the log once: each refresh marked the
    widget dirty on its screen again, in every session of the room."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0, 2))
    async with table(room, 2) as (app, pilot, _client):
        log = app.screen.query_one("#sk-log", TailLog)
        before = len(log.lines)
        calls: list[int] = []
        original = TailLog.refresh

        def counting(self: TailLog, *args: Any, **kw: Any) -> Any:
            if self is log:
                calls.append(len(self.lines))
            return original(self, *args, **kw)

        TailLog.refresh = counting  # type: ignore[method-assign, assignment]
        try:
            room.play(0, "peek 1")
            await settle(pilot)
        finally:
            TailLog.refresh = original  # type: ignore[method-assign]
        assert len(log.lines) >= before + 2  # the peek and the next turn
        assert calls == [len(log.lines)]  # once, after the last line
        text = screen_text(app)
        assert "alice (1) peeked at bob (2)." in text and "bob (2)'s turn." in text


@pytest.mark.parametrize(("lang", "mine", "theirs"), [
    ("en", "Your turn.", "alice (1)'s turn."),
    ("zh", "輪到你了。", "輪到 alice（1）。"),
])
async def test_the_log_says_your_turn_for_your_own(lang: Lang, mine: str, theirs: str) -> None:
    # "bob (2, you)'s turn." read oddly in bob's own log (seen over ssh)
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0, 1))
    room.play(0, "peek 2")
    async with table(room, 1, size=(100, 32), lang=lang) as (app, _pilot, _client):
        body = screen_text(app)
        assert theirs in body and mine in body
        assert "you)'s turn" not in body
    async with table(room, None, size=(100, 32), lang=lang) as (app, _pilot, _client):
        body = screen_text(app)
        assert theirs in body and mine not in body  # a spectator has no turn of its own


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_full_key_bar_keeps_f1_help_and_f2_saying_which_language_it_switches_to(lang: Lang) -> None:
    # a turn with three actions at 80 columns: the bar does not fit whole. A
    # newcomer in Chinese saw "F1" bare there, the one key that lists the rest,
    # while "t 聊天" kept its label (the chat's field names its key)
    room = SultansRoom(5, deal=["slave", "assassin", "guard", "sultan", "slave"], first=0, humans=(0,))
    async with table(room, 0, size=(80, 24), lang=lang) as (app, _pilot, _client):
        from tui.widgets import KeyBar

        bar = app.screen.query_one(KeyBar).plain()
        assert len(bar) <= 80
        assert " F2 " + t("key.lang", lang) in bar, bar  # how a reader of the other language finds it
        assert " F1 " + t("key.help", lang) in bar, bar
        for key in ("p", "s", "r"):  # the turn's three actions keep theirs
            assert f" {key}   " not in bar, bar


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_narrow_key_bar_still_shows_how_to_leave_the_table(lang: Lang) -> None:
    # three actions at 50 columns: the bar was cut at its end ("F1   F…": Esc and
    # its "leave" gone; 60 columns with a fourth action, seen over ssh); now the
    # actions are left out last (the prompt line names them)
    room = SultansRoom(5, deal=["slave", "assassin", "guard", "sultan", "slave"], first=0, humans=(0,))
    async with table(room, 0, size=(50, 24), lang=lang) as (app, _pilot, _client):
        from tui.widgets import KeyBar

        bar = app.screen.query_one(KeyBar).plain()
        assert cell_len(bar) <= 50, bar
        assert "Esc " + t("sk.key.leave", lang) in bar, bar
        assert "F1" in bar and "(Tab)" in screen_text(app).replace("（Tab）", "(Tab)"), bar  # Tab: the pane's title
        peek = t(app.screen._kind_label("peek"), lang)
        assert peek in screen_text(app)  # in the prompt line too: "Your options: p Peek ..."


async def test_the_key_bar_follows_the_chat_line_in_and_out() -> None:
    """t puts the cursor in the chat line: the bar drops the game's keys
    (they type there, also after a line is sent); Escape gives them back. The bar
    was drawn before the focus moved (Textual moves it a moment later), so it
    kept the game's keys while typing and lacked them after Escape."""
    from tui.widgets import KeyBar

    room = SultansRoom(5, deal=["slave", "assassin", "guard", "sultan", "slave"], first=0, humans=(0,))
    async with table(room, 0, size=(100, 30)) as (app, pilot, client):
        peek = t("sk.key.peek", "en")
        assert peek in app.screen.query_one(KeyBar).plain()
        await pilot.press("t")
        await settle(pilot)
        bar = app.screen.query_one(KeyBar).plain()
        assert peek not in bar and " t " not in bar and "Esc  Back to the game" in bar, bar  # not "Leave"
        await pilot.press("o", "k", "enter")  # a line sent: the cursor stays for the next one
        await settle(pilot)
        assert peek not in app.screen.query_one(KeyBar).plain()
        assert client.sent == []  # "ok" + Enter did not pass (o) and send
        await pilot.press("escape")
        await settle(pilot)
        assert peek in app.screen.query_one(KeyBar).plain()
        await pilot.press("t")
        await settle(pilot)
        app.screen.set_focus(None)  # the focus gone to nothing (a click on no widget): the keys again
        await settle(pilot)
        assert peek in app.screen.query_one(KeyBar).plain()
        await pilot.press("p", "2", "enter")  # the game's keys play again
        await settle(pilot)
        assert client.sent[-1][0] == "peek 1"


@pytest.mark.parametrize("size", [(100, 16), (60, 12)])
async def test_a_short_terminal_still_shows_the_key_bar(size: tuple[int, int]) -> None:
    # the table needed 18 rows laid out in full: on 16 the screen scrolled and
    # its key bar was below the terminal's last row (seen over ssh); now the ring
    # and the panes shrink first, and the prompt stays
    room = SultansRoom(5, deal=["slave", "assassin", "guard", "sultan", "slave"], first=0, humans=(0,))
    async with table(room, 0, size=size) as (app, _pilot, _client):
        from tui.widgets import KeyBar

        bar = app.screen.query_one(KeyBar)
        assert bar.region.y == size[1] - 1 and bar.region.width == size[0]
        assert " F1 " in screen_text(app).splitlines()[-1]
        assert "Your options" in screen_text(app)


def until_asked(room: SultansRoom, seat: int) -> None:
    """Bots play (and ``seat`` passes its optional reactions) until ``seat`` must decide."""
    for _ in range(200):
        room.run_bots(next_rounds=True)
        m = room.match
        if seat in m.pending() and "pass" not in m.legal(seat):
            return
        assert seat in m.pending(), "the match ended first"
        room.play(seat, "pass")
    raise AssertionError("never asked")


async def test_the_bell_rings_once_when_the_game_waits_for_your_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    # a turn rings the terminal's bell once; the table redrawn meanwhile (chat) rings no more;
    # the next turn rings again; a spectator never hears it, nor a player who turned it off
    rings: list[str] = []
    monkeypatch.setattr(ThroneApp, "bell", lambda self: rings.append(self.lobby.identity.name))
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,), rounds=5)
    async with table(room, 0) as (app, pilot, client):
        assert room.match.pending() == {0} and "pass" not in room.match.legal(0)
        assert rings == ["alice"]
        room.changed()  # something else changed: the same turn
        await settle(pilot)
        assert rings == ["alice"]
        await pilot.press("p", "2", "enter")  # peek: the turn passes on
        await settle(pilot)
        assert client.sent and 0 not in room.match.pending()
        until_asked(room, 0)
        await settle(pilot)
        assert rings == ["alice", "alice"]
    rings.clear()
    async with table(room, None) as (app, pilot, _client):
        await settle(pilot)
        assert rings == []
    async with table(room, 0) as (app, pilot, _client):
        assert rings == ["alice"]  # back at the table, still asked
        app.set_bell(False)
        room.play(0, room.match.legal(0)[0])
        until_asked(room, 0)
        await settle(pilot)
        assert rings == ["alice"]


async def test_a_narrow_header_drops_whole_parts_and_grows_back() -> None:
    """At 40 columns a header cut inside a part can show a wrong number ("score 1…"
    for 12): whole parts go, then "…"; widened, it shows them all again."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0, size=(40, 20)) as (app, pilot, _client):
        head = str(app.screen.query_one("#sk-head", Static).render()).strip()
        assert head.endswith("· …"), head
        await pilot.resize_terminal(120, 30)
        await settle(pilot)
        head = str(app.screen.query_one("#sk-head", Static).render()).strip()
        assert head.endswith("you are alice (1) · score 0"), head


@pytest.mark.parametrize("players", [5, 15])
async def test_a_tall_terminal_gives_its_rows_to_the_log(players: int) -> None:
    """At 100x60 the ring took three fifths of the rows and spread its seats
    apart over blank lines, leaving the log 20 lines; the ring now takes at most
    24 rows (every seat box and the centre still whole) and the log gets the rest."""
    room = SultansRoom(players, first=0, humans=(0,))
    async with table(room, 0, size=(100, 60)) as (app, _pilot, _client):
        assert app.query_one("#sk-ring").size.height <= 24
        assert app.query_one("#sk-log").size.height >= 25  # it had 19
        text = screen_text(app)
        for seat in range(players):
            assert NAMES[seat] in box(app, seat) and NAMES[seat] in text  # every seat's box drawn
        assert "Your card:" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_log_scrolled_back_says_so_and_end_brings_the_newest_back(lang: Lang) -> None:
    """PageUp scrolls the log back; new lines then do not show, and nothing
    on screen said so (a player read round 4's lines in round 5). The log's
    title now says it, and End (as Home, the first line) goes back to the
    newest line, which the log follows again."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(2, 4))
    room.play(0, "peek 1")
    room.play(1, "peek 2")
    async with table(room, 4, size=(80, 24), lang=lang) as (app, pilot, _client):
        log = app.screen.query_one("#sk-log", TailLog)
        title = app.screen.query_one("#sk-pane-title", Static)
        mark = t("table.log_back", lang)
        assert len(log.lines) > log.content_size.height
        assert mark not in str(title.render())
        await pilot.press("pageup")
        await settle(pilot)
        assert log.scrolled_back and mark in str(title.render())
        room.play(2, "peek 3")  # a line that does not show while scrolled back
        await settle(pilot)
        newest = log.lines[-1].text
        assert newest not in screen_text(app) and mark in str(title.render())
        await pilot.press("end")
        await settle(pilot)
        assert not log.scrolled_back and mark not in str(title.render())
        assert newest in screen_text(app)
        await pilot.press("home")
        await settle(pilot)
        assert log.scrolled_back and mark in str(title.render())
        await pilot.press("tab")  # another pane: the notes, not the log's mark
        await settle(pilot)
        assert mark not in str(title.render())


def test_the_match_table_names_its_rounds_in_the_reader_s_language() -> None:
    """S-MATCH-1: the rounds' columns read "R1 R2 ..." in the Chinese sheet too;
    now "1局 ... 10局", each column as wide as its longest label plus a space."""
    from rich.cells import cell_len

    from engine.sultans.match import Match
    from tui.sultans.render import match_table

    m = Match.new(players=5, seed=3, rounds=10)
    while not m.is_over():
        if m.pending():
            s = min(m.pending())
            m.play(s, m.legal(s)[-1])
        else:
            m.next_round()
    v = m.view(0)
    names = ["alice", "bob", "carol", "dave", "erin"]
    zh = match_table(v, Namer(names, 0, "zh"), "zh").plain.splitlines()
    assert " 9局 10局  總分" in zh[1], zh[1]
    assert "R1" not in "\n".join(zh)
    rows = [line for line in zh[2:7]]
    assert len({cell_len(line.rstrip()) for line in rows}) == 1, rows  # the columns line up
    head_end = cell_len(zh[1][: zh[1].index("10局") + 3])
    assert cell_len(rows[0].rstrip()[:-6]) == head_end, (rows[0], zh[1])  # round 10's points under "10局"
    en = match_table(v, Namer(names, 0, "en"), "en").plain.splitlines()
    assert "  R9 R10  Total" in en[1], en[1]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_match_score_table_keeps_each_row_on_one_line(lang: Lang, size: tuple[int, int]) -> None:
    """S-MATCH-1's score table after a 5-round match, in the result over the
    table and in the table's result pane: at 60x20 in Chinese its header's
    總分 and its rows' totals went to a line of their own. Names are cut first,
    then the earliest rounds give way to "…"; every row keeps its total."""
    room = SultansRoom(5, rounds=5, humans=(0,), names=["alice", "bob_the_builder", "carol", "dave", "erin"])
    m = room.match
    while not m.is_over():
        if m.pending():
            s = min(m.pending())
            m.play(s, m.legal(s)[-1])
        else:
            m.next_round()
    room.changed()
    totals = m.view(0).totals
    async with table(room, 0, size=size, lang=lang) as (app, pilot, _client):
        await close_results(app, pilot)
        while t("sk.pane.result", lang) not in screen_text(app):  # Tab: the log, the notes, the result
            await pilot.press("tab")
            await settle(pilot)
        for where in ("pane", "dialog"):
            lines = [[*re.split("[│█]", line), "", ""][1].rstrip(" ┃") for line in screen_text(app).splitlines()]
            head = next(i for i, line in enumerate(lines) if t("sk.match.total", lang) in line)
            assert lines[head].endswith(t("sk.match.total", lang)), (where, lines[head:])
            rows = []
            for inside in lines[head + 1 : head + 1 + len(totals)]:
                if not inside.strip():
                    break  # the pane's end
                rows.append(inside)
            assert rows and all(row.startswith((" ★", "   ")) for row in rows), (where, lines[head:])
            assert all(int(row.split()[-1]) in totals for row in rows), (where, rows)
            await pilot.press("f4")  # the match's result
            await settle(pilot)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_small_centre_keeps_the_card_line_and_the_keys_now(lang: Lang) -> None:
    """Nine seats at 80x24 leave the ring's centre three rows: the card's brief gives
    way and the card line shortens, so the face, the side and "Now:" stay (the card
    line wrapped and "Now: …" was cut off)."""
    deal = ["slave", "sultan", "guard", "assassin", "fortune-teller", "slave", "vizier", "slave-driver", "belly-dancer"]
    room = SultansRoom(9, deal=deal, first=4, humans=(4,))
    async with table(room, 4, size=(80, 24), lang=lang) as (app, _pilot, _client):
        text = screen_text(app)
        face = t("sk.own.face_down", lang)
        assert any(face in row and t("sk.side.none", lang) in row for row in text.splitlines()), text  # one row
        assert t("sk.brief.fortune-teller", lang) not in text
        assert t("sk.own.now_keys", lang, keys="")[:3] in text
    async with table(room, 4, size=(120, 40), lang=lang) as (app, _pilot, _client):
        text = screen_text(app)  # room enough: the long form and the brief
        assert t("sk.own.title", lang) + t("punct.colon", lang) in text and t("sk.brief.fortune-teller", lang) in text


async def test_a_spectator_is_not_told_of_private_lines_or_a_seat_of_its_own() -> None:
    """A spectator has no private lines and no seat: the ring's legend and the help
    said "◆ a private line: only you see it" and "(your seat stays yours)"."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, None, size=(120, 40)) as (app, pilot, _client):
        assert t("sk.legend.private", "en") not in screen_text(app)
        await pilot.press("f1")
        await settle(pilot)
        text = screen_text(app)
        assert "Escape stops watching." in text and "your seat stays yours" not in text
        assert "Nothing is played for you" not in text and "p play again" not in text  # no keys to play
    async with table(room, 0, size=(120, 40)) as (app, pilot, _client):
        assert t("sk.legend.private", "en") in screen_text(app)
        await pilot.press("f1")
        await settle(pilot)
        assert "your seat stays yours" in screen_text(app)


def test_detain_says_their_not_its() -> None:
    """A seat is a person: "their next turn is skipped unless they refuse"."""
    namer = Namer(NAMES[:5], 0, "en")
    assert describe("detain 2", namer, "en") == "Reveal and detain carol (3): their next turn is skipped unless they refuse."


def test_seat_boxes_keep_the_turn_marker_in_a_window_and_points_before_signs() -> None:
    """The active seat keeps its ▶ while a reaction window asks the others (it was
    blank, so nothing showed whose turn it was); a round's points come before the signs
    (a narrow box cut them), the signs are set apart ("♛ =L", not "♛=L") and the
    words of a box are separated ("must hide · bot")."""
    from engine.sultans import Round
    from protocol.contract import SeatInfo
    from tui.sultans.render import seat_box_lines

    r = Round.new(["sultan", "assassin", "slave", "guard", "slave"], "slave", first=1)
    r.play(1, "assassinate 0")
    rv = r.view(2)
    namer = Namer(NAMES[:5], 2, "en")
    boxes = {s.index: seat_box_lines(s, rv, None, namer, "en", note=None, width=20, height=3) for s in rv.seats}
    assert boxes[1][0].plain.startswith("▶") and boxes[2][0].plain.startswith("●")
    bot = SeatInfo(index=3, kind="bot", name="Bot 4", connected=True, ready=True)
    seat = rv.seats[3].model_copy(update={"must_hide": True, "crown": True, "prediction": "loyalists"})
    lines = seat_box_lines(seat, rv, bot, namer, "en", note=None, width=20, height=3, points=2)
    assert " +2 ♛ =L" in lines[1].plain and lines[2].plain == "must hide · bot"
    for lang in ("en", "zh"):  # a bot named as the host names bots says so once ("4 電腦 4 電腦")
        named = Namer([*NAMES[:3], t("table.bot_name", lang, n=4), *NAMES[4:5]], 2, lang)  # as the table shows it
        first = seat_box_lines(rv.seats[3], rv, bot, named, lang, note=None, width=20, height=3)
        assert t("sk.tok.bot", lang) not in " ".join(line.plain for line in first).replace(t("table.bot_name", lang, n=4), "")


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_timeout_played_for_you_is_said_in_the_prompt(lang: Lang) -> None:
    """S-TIME-1: the log says "You answered: pass." of a pass the room played when the
    time ran out; the prompt says the room played it, through the others' turns
    (it was gone at the next seat's turn, before one could read it), until the
    player sends an action again. Timeouts before the screen opened are not said."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    made = room.snapshot
    counts = [2, 0, 0, 0, 0]
    room.snapshot = lambda: made().model_copy(update={"timeouts": list(counts)})  # type: ignore[method-assign]
    async with table(room, 0, lang=lang) as (app, pilot, _client):
        assert t("table.timed_out", lang) not in prompt(app)  # the two before this screen
        counts[0] = 3
        room.changed()
        await settle(pilot)
        assert t("table.timed_out", lang) in prompt(app)
        room.changed()  # later versions, the same count: still said
        await settle(pilot)
        assert t("table.timed_out", lang) in prompt(app)
        await pilot.press("p", "2", "enter")  # the player acts: what it sent is said instead
        await settle(pilot)
        assert t("table.timed_out", lang) not in prompt(app) and room.acts[-1] == (0, "peek 1")
        counts[0] = 5
        room.changed()
        await settle(pilot)
        assert t("table.timed_out", lang) in prompt(app)
        over = room.snapshot
        room.snapshot = lambda: over().model_copy(update={"state": "finished"})  # type: ignore[method-assign]
        room.changed()  # the match ended (the default may have ended it): nothing more to say
        await settle(pilot)
        assert t("table.timed_out", lang) not in screen_text(app)
        room.snapshot = over  # type: ignore[method-assign]
    async with table(room, None, lang=lang) as (app, pilot, _client):
        counts[0] = 4
        room.changed()
        await settle(pilot)
        assert t("table.timed_out", lang) not in screen_text(app)  # a spectator is not told


async def test_a_small_centre_keeps_the_keys_now_of_a_detained_seat() -> None:
    """9 seats at 80x24, the viewer in prison: its state line gives way (its seat box
    shows # and "detained"), the card line and "Now: c Claim throne" stay."""
    deal = ["slave", "guard", "guard", "assassin", "sultan", "slave", "vizier", "slave-driver", "belly-dancer"]
    room = SultansRoom(9, deal=deal, first=2, humans=(4,))
    room.play(2, "detain 4")
    room.play(4, "pass")
    async with table(room, 4, size=(80, 24)) as (app, _pilot, _client):
        text = screen_text(app)
        assert "Now: c Claim throne" in text and t("sk.own.face_down", "en") in text
        assert t("sk.tok.detained", "en") in text and t("sk.status.detained", "en") not in text  # the seat box says it


async def test_the_notebook_at_round_end_says_its_notes_are_as_they_stood() -> None:
    """At round end every card is shown; a stale note beside it read as a mistake.
    The notebook says the notes are what one knew, and where the cards are shown."""
    room = two_rounds()
    async with table(room, 0, size=(120, 40)) as (app, pilot, _client):
        await pilot.press("p", "2", "enter")
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)
        assert t("sk.notes.round_over", "en") not in sheet_of(app, "#sk-log")
        while room.match.round.view(None).phase != "over":
            pending = sorted(room.match.pending())
            room.play(pending[0], room.match.timeout_action(pending[0]))
        room.run_bots()
        await close_results(app, pilot)
        while app.screen.pane != "notes":
            await pilot.press("tab")
            await settle(pilot)
        notes = sheet_of(app, "#sk-log")
        assert notes.startswith(t("sk.notes.round_over", "en")) and "bob (2) = <Assassin>" in notes


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_first_to_match_s_log_counts_rounds_without_a_planned_number(lang: Lang) -> None:
    """The top line of a first-to-4 match said "Round 1 · first to 4" while the
    log's rule said "Round 1/15": 15 is only the cap. A match of fixed rounds
    keeps "Round 1/2" in both."""
    first_to = SultansRoom(5, deal=DEAL_A, humans=(0,), first_to=4)
    async with table(first_to, 0, size=(120, 40), lang=lang) as (app, _pilot, _client):
        text = screen_text(app)
        assert f"── {t('sk.log.round', lang, n=1)} ──" in text, text
        assert "/15" not in text
    fixed = SultansRoom(5, deal=DEAL_A, humans=(0,), rounds=2)
    async with table(fixed, 0, size=(120, 40), lang=lang) as (app, _pilot, _client):
        assert f"── {t('sk.head.round', lang, n=1, of=2)} ──" in screen_text(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_accepted_detention_is_logged_with_the_key_s_word(lang: Lang) -> None:
    """The detained player pressed "o Accept" and read "You answered: pass.";
    the log now uses the word of the key (S-GRD-3)."""
    room = SultansRoom(5, deal=["guard", "slave", "assassin", "sultan", "slave"], first=0, humans=(1,))
    room.play(0, "detain 1")
    room.play(1, "pass")
    (answer,) = [ev for ev in room.view(1).round.log if ev.kind == "answer"]
    line = event_text(answer, Namer(room.names, 1, lang), lang).plain
    assert t("sk.answer.accept", lang) in line and t("sk.answer.pass", lang) not in line, line


async def test_a_round_s_end_leaves_no_prison_line_on_the_detained_player_s_screen() -> None:
    """The round (and match) ended with bob detained; under "The match is over"
    his screen still said he would skip his next turn (S-GRD-3: the mark is the
    round's)."""
    room = SultansRoom(5, deal=["assassin", "slave", "guard", "sultan", "slave"], first=2, humans=(1,), rounds=1)
    room.play(2, "detain 1")
    room.play(1, "pass")
    async with table(room, 1, size=(120, 40)) as (app, pilot, _client):
        assert t("sk.status.detained", "en") in screen_text(app)  # said while it holds
        for seat, act in [(3, "peek 4"), (4, "peek 3"), (0, "assassinate 3")]:
            room.play(seat, act)
        while room.match.pending():
            room.play(min(room.match.pending()), "pass")  # nobody blocks: the Sultan dies
        await settle(pilot)
        text = screen_text(app)
        assert room.match.is_over() and t("sk.status.detained", "en") not in text, text


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_hide_pick_s_keys_fit_whole_at_100_columns(lang: Lang) -> None:
    """The Hide pick's line ran past 100 columns and lost "Esc back"."""
    deal = ["fortune-teller", "slave", "sultan", "slave", "guard", "slave", "vizier", "slave-driver", "belly-dancer"]
    room = SultansRoom(9, deal=deal, spare="assassin", first=0, humans=(0,))
    room.play(0, "foresee 1 2 3")
    room.play(0, "predict rebels")
    room.run_bots()
    while not any(a.startswith("hide ") for a in room.match.legal(0)):
        if 0 in room.match.pending():
            room.play(0, "pass")
        room.run_bots()
    async with table(room, 0, size=(100, 30), lang=lang) as (app, pilot, _client):
        await pilot.press("s")
        await settle(pilot)
        what = t("sk.pick.what.hide", lang)
        (head,) = [line for line in screen_text(app).splitlines() if what in line]  # as the screen shows it
        assert head.rstrip().endswith(t("sk.pick.keys", lang)), head


async def test_a_match_s_end_at_80x24_shows_its_winners_first() -> None:
    """At 80x24 the result pane of 7 seats showed alice, bob and carol (seat
    order), the winners below the fold; the prompt kept blank rows too."""
    room = SultansRoom(7, humans=(), rounds=1)
    room.run_bots(next_rounds=True)
    mv = room.match.view(0)
    assert mv.over and mv.winners
    async with table(room, 0, size=(80, 24)) as (app, _pilot, _client):
        text = screen_text(app)
        for w in mv.winners:
            assert any(line.lstrip("│ ").startswith(f"★ {room.names[w]} ({w + 1})") for line in text.splitlines()), text


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_seats_are_numbered_from_1_on_the_ring_in_the_prompt_and_by_keys(size: tuple[int, int], lang: Lang) -> None:
    """Issue 43: seat numbers start at 1 as at a real table. The ring, the
    choices and the plain words number alice's seat 1; typing 5 picks erin,
    the fifth seat (``peek 4`` in the engine's notation, which counts from 0)."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0, size=size, lang=lang) as (app, pilot, client):
        assert box(app, 0).startswith("▶ 1 alice"), box(app, 0)
        assert box(app, 4).lstrip("▶● ").startswith("5 erin"), box(app, 4)
        await pilot.press("p")
        await settle(pilot)
        assert "2=bob" in prompt(app) and "5=erin" in prompt(app) and "0=" not in prompt(app), prompt(app)
        await pilot.press("5")
        await settle(pilot)
        assert ("erin (5)" if lang == "en" else "erin（5）") in prompt(app), prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent[-1][0] == "peek 4"
        log = " ".join(" ".join(strip.text.split()) for strip in app.screen.query_one("#sk-log", TailLog).lines)
        assert ("alice (1, you) peeked at erin (5)" if lang == "en" else "你（1）調查了 erin（5）") in log, log


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_help_says_what_tired_stops_and_which_guard_blocks(size: tuple[int, int], lang: Lang) -> None:
    """Issue 44 item 14; S-TURN-3 (an exhausted seat may not use an Action on
    its next turn; peek, swap and hide stay; reactions are unaffected),
    S-GRD-2 (an exhausted Guard still blocks), S-REACT-4 (the first blocker
    clockwise from the Assassin's left blocks): the help never said any of it."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with table(room, 0, size=size, lang=lang) as (app, pilot, _client):
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, SultansHelp)
        text = app.screen.text.plain
        assert t("sk.help.states_title", lang) in text and t("sk.help.states", lang) in text
        said = {
            "en": ("~tired (exhausted)", "may not use its card's Action", "a tired Guard still blocks",
                   "first of them clockwise from the Assassin's left"),
            "zh": ("~疲勞", "不能使用角色的「行動」", "疲勞的守衛仍可阻止刺客", "由刺客左手邊起順時針的第一位守衛阻止"),
        }[lang]
        assert all(s in text for s in said), text
        assert t("sk.tok.exhausted", lang) in text  # the sign the seat box shows, by the same word


def _check_ring_fits(app: ThroneApp, seats: int, *, watching: bool) -> None:
    """The ring shows every seat, keeps no blank centre rows beyond a round end's
    line (a spectator's) and every row the others leave is the log pane's."""
    screen = app.screen
    ring = screen.query_one(TableRing)
    lay = ring.current_layout()
    size = app.size
    for seat in range(seats):
        x, y = lay.boxes[seat]
        assert x + lay.cell_w <= size.width and y + lay.cell_h <= ring.size.height
        assert NAMES[seat] in box(app, seat)
    used = len(wrap_lines(ring.centre, lay.centre[2] - 2))
    assert lay.centre[3] - used <= (1 if watching else 0), (lay.centre, used)
    others = sum(screen.query_one(w).size.height for w in ("#sk-top", "#sk-ring", "#sk-prompt", "KeyBar"))
    bottom = screen.query_one("#sk-bottom")
    assert bottom.size.height == size.height - others
    pane = screen.query_one("#sk-pane-box")
    assert screen.query_one("#sk-log").size.height == pane.content_size.height - screen.query_one("#sk-pane-title").size.height


@pytest.mark.parametrize("size", [(120, 40), (100, 30), (80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seat", [0, None])
async def test_the_ring_is_as_tall_as_its_seats_need_and_the_log_gets_the_rest(
    size: tuple[int, int], lang: Lang, seat: int | None
) -> None:
    """At 120x40 the ring took a fixed share of the rows and its centre kept 4
    blank rows while the log showed 13 lines: the ring is now as tall as its
    seats and centre need at the screen's width (set before the first frame,
    again on a resize) and the log pane gets every other row."""
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,), deadline_in=20)
    async with table(room, seat, size=size, lang=lang) as (app, pilot, _client):
        _check_ring_fits(app, 5, watching=seat is None)
        if size == (80, 24):
            await pilot.resize_terminal(120, 40)
            await settle(pilot)
            _check_ring_fits(app, 5, watching=seat is None)
