"""Pilot tests of the Kill the Overlord table (issue 5): one test per screen state,
with real engine games (``Game.new`` with explicit roles, hands and deck) behind
a fake room client.

Card values always appear bracketed (``[Sidestep]``, ``[閃避]``), so "the screen
shows a card" is checked by looking for those forms.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Literal

import pytest
from fakes import screen_text, settle
from overlord_fakes import NAMES, OverlordClient, OverlordLobby, OverlordRoom
from rich.cells import cell_len
from table_fakes import host_changes_settings, open_table
from textual.pilot import Pilot
from textual.widgets import Static

from engine.overlord import Game
from engine.overlord.rules import load_ruleset
from protocol.i18n import t
from tui.app import ThroneApp
from tui.overlord.catalogue import CARDS_EN
from tui.overlord.help import OverlordHelp
from tui.overlord.table import Table
from tui.overlord.widgets import HandPanel, SeatsPanel
from tui.overlord.words import card_str
from tui.tables import table_screen_for
from tui.widgets import TailLog

SIZES = [(80, 24), (120, 40)]
Lang = Literal["en", "zh"]
ALL_CARDS = list(CARDS_EN)
ROLES4 = ["overlord", "captain", "squire", "peasant"]
ROLES5 = ["overlord", "captain", "squire", "peasant", "general"]
# a deck without reaction cards, so that windows hold only what the hands hold
QUIET_DECK = ["victimize"] * 5 + ["capitalize"] * 4 + ["extortion"] * 3 + ["sidestep"] * 4 + ["make-an-example"] * 4


def sheet_of(app: Any, log_id: str) -> str:
    """The sheet (notes, exchange, result) the table's log pane shows now."""
    sheet = app.screen.query_one(log_id, TailLog).sheet
    assert sheet is not None, "the pane shows the log, not a sheet"
    return sheet.plain


def new_game(
    roles: Sequence[str] = ROLES4,
    hands: Sequence[Sequence[str]] | None = None,
    *,
    deck: Sequence[str] = QUIET_DECK,
    gold: Sequence[int] | None = None,
    round_limit: int = 30,
) -> Game:
    return Game.new(
        roles=list(roles), hands=hands, gold=gold, deck=list(deck), seed=1, round_limit=round_limit
    )


def pass_all(g: Game, *, but: Sequence[int] = ()) -> None:
    """Every pending seat (except ``but``) answers ``pass`` (or its first option if it must choose)."""
    for s in sorted(g.pending()):
        if s not in but:
            legal = g.legal(s)
            g.play(s, "pass" if "pass" in legal else legal[0])


def table(
    room: OverlordRoom,
    seat: int | None,
    *,
    size: tuple[int, int] = (80, 24),
    lang: Lang = "en",
) -> AbstractAsyncContextManager[tuple[ThroneApp, Pilot[None], OverlordClient]]:
    return open_table(room, seat, OverlordClient, OverlordLobby, Table, size=size, lang=lang)


def prompt(app: ThroneApp) -> str:
    return str(app.screen.query_one("#ov-prompt", Static).render())


def status(app: ThroneApp) -> str:
    return prompt(app).splitlines()[0]


def hand(app: ThroneApp) -> str:
    return str(app.screen.query_one(HandPanel).render())


def seats(app: ThroneApp) -> str:
    return str(app.screen.query_one(SeatsPanel).render())


def log_text(app: ThroneApp) -> str:
    """The whole log pane (also the lines scrolled out of view)."""
    log = app.screen.query_one("#ov-log", TailLog)
    return "\n".join(strip.text for strip in log.lines)


def cards_on(text: str, lang: Lang = "en") -> set[str]:
    return {c for c in ALL_CARDS if card_str(c, lang) in text}


def test_the_table_is_registered_for_overlord() -> None:
    assert table_screen_for("overlord") is Table


@pytest.mark.parametrize("size", [(100, 18), (60, 12)])
async def test_a_short_terminal_still_shows_the_key_bar(size: tuple[int, int]) -> None:
    # the table needed 22 rows laid out in full: on fewer the screen scrolled and
    # its key bar was below the terminal's last row; the prompt stays too
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0,), deadline_in=20)
    async with table(room, 0, size=size) as (app, _pilot, _client):
        from tui.widgets import KeyBar

        bar = app.screen.query_one(KeyBar)
        assert bar.region.y == size[1] - 1 and bar.region.width == size[0]
        assert " F1 " in screen_text(app).splitlines()[-1]
        assert "Your options" in screen_text(app)


# ------------------------------------------------------------ the ruler's command
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_rulers_command_offers_only_the_order_key(size: tuple[int, int], lang: Lang) -> None:
    """K-ORD-1: the ruler gives the order with no card; the screen offers exactly that."""
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0,), deadline_in=20)
    async with table(room, 0, size=size, lang=lang) as (app, pilot, client):
        text = screen_text(app)
        for name in ("alice", "bob", "carol", "dave"):
            assert name in text
        if lang == "en":
            assert "Give the order to a player." in text
            assert "Overlord 8" in text and "Captain 5" in text and "Squire 3" in text
            assert " o  Order" in text
            assert "Play card" not in text and "Die" not in text
            assert "Round 1/30" in text
        else:
            assert "把指示物交給一位玩家。" in text and "領主 8" in text and "命令" in text
        assert "⏱" in text  # the countdown of snapshot.deadline
        assert cards_on(text, lang) <= set(g.hands[0])  # own hand only (K-VIEW-1)
        assert cards_on(hand(app), lang) == set(g.hands[0])
        await pilot.press("o")
        await settle(pilot)
        assert client.sent == []  # a key alone never plays
        await pilot.press("3")  # carol, seat 3 as shown (2 in the notation)
        await settle(pilot)
        if lang == "en":
            assert "give the order to carol (3)" in prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent == [("order 2", 1)]
        assert room.acts[-1] == (0, "order 2")
        assert g.holder == 2


async def test_arrows_pick_and_escape_backs_out_of_a_choice() -> None:
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0) as (app, pilot, client):
        await pilot.press("o", "down", "down")
        await settle(pilot)
        assert "give the order to dave (4)" in prompt(app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, Table)  # Escape left the choice, not the table
        assert "Order:" not in prompt(app).splitlines()[1]
        assert client.sent == []


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_typing_in_the_chat_line_plays_nothing_and_the_bar_says_so(lang: Lang) -> None:
    """While the chat line has the cursor the bar drops the game's keys (o
    would type there) and Esc reads "Back to the game", not "Leave"; after
    Esc the order key is back (the bar was drawn before Textual moved the
    focus, so it showed the opposite)."""
    from tui.widgets import KeyBar

    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, size=(100, 30), lang=lang) as (app, pilot, client):
        order, back = t("ov.key.order", lang), "Esc  " + t("ov.key.chat_done", lang)
        assert order in app.screen.query_one(KeyBar).plain()
        await pilot.press("t")
        await settle(pilot)
        bar = app.screen.query_one(KeyBar).plain()
        send = "⏎  " + t("ov.key.chat_send", lang)  # how to send was not on the bar
        assert order not in bar and back in bar and send in bar, bar
        await pilot.press("o", "2", "enter")
        await settle(pilot)
        assert client.sent == []
        assert room.chat[-1].text == "o2"
        await pilot.press("h", "i")
        await app.screen.run_action("chat_send")  # the bar's ⏎, clicked
        await settle(pilot)
        assert room.chat[-1].text == "hi" and client.sent == []
        await pilot.press("escape")
        await settle(pilot)
        bar = app.screen.query_one(KeyBar).plain()
        assert order in bar and back not in bar, bar


async def test_clicking_a_seat_starts_the_order_and_a_second_click_sends() -> None:
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, size=(100, 30)) as (app, pilot, client):
        panel = app.screen.query_one(SeatsPanel)
        row = panel.values.index(3)
        await pilot.click(SeatsPanel, offset=(4, row))
        await settle(pilot)
        assert "give the order to dave (4)" in prompt(app)
        assert client.sent == []
        await pilot.click(SeatsPanel, offset=(4, row))
        await settle(pilot)
        assert client.sent == [("order 3", 1)]


# ------------------------------------------------- holding the order, with shields
def captain_holds() -> Game:
    g = new_game(hands=[["capitalize"], ["sidestep", "coercion"], ["extortion"], ["extortion"]])
    g.play(0, "order 1")
    pass_all(g)  # the Plead Guilty window
    return g


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_holding_the_order_with_shields_shows_targets_per_card(size: tuple[int, int], lang: Lang) -> None:
    g = captain_holds()
    assert g.pending() == {1}
    room = OverlordRoom(g, humans=(1,), deadline_in=30)
    async with table(room, 1, size=size, lang=lang) as (app, pilot, client):
        h = hand(app)
        targets: dict[str, list[str]] = {}  # the seats each card reaches, from legal()
        for a in g.legal(1):
            w = a.split()
            if w[0] == "play" and w[2] not in targets.setdefault(w[1], []):
                targets[w[1]].append(w[2])
        lines = h.splitlines()
        assert set(targets) == {"sidestep", "victimize", "coercion"}
        for card, seats_ in targets.items():
            line = next(ln for ln in lines if card_str(card, lang) in ln)
            assert line.split("→", 1)[1].split() == [str(int(x) + 1) for x in seats_]  # as players number seats
        text = screen_text(app)
        if lang == "en":
            assert "You hold the order" in text
            assert " c  Play card" in text and " d  Die" in text
            assert "Order: =command⇒ bob" in text  # the path this phase
            assert "◆order" in seats(app)
            assert "Order to a player 1-2" in h  # the effect in words
        else:
            assert "你持有指示物" in text and "打牌" in text and "死亡" in text
            assert "指示物：=命令⇒ bob" in text  # the path, no space after the full-width colon
            assert "◆持令" in seats(app)
        await pilot.press("c")
        await settle(pilot)
        assert client.sent == []
        await pilot.press("2")  # the second card in the choice
        await settle(pilot)
        await pilot.press("enter")  # card chosen; now the seat
        await settle(pilot)
        second = g.view(1).hand
        assert second is not None
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent and client.sent[-1][0].startswith("play ")
        assert room.acts[-1][0] == 1


async def test_clicking_a_card_starts_playing_it() -> None:
    g = captain_holds()
    room = OverlordRoom(g, humans=(1,))
    async with table(room, 1, size=(100, 30)) as (app, pilot, client):
        panel = app.screen.query_one(HandPanel)
        row = panel.values.index("coercion")
        await pilot.click(HandPanel, offset=(3, row))
        await settle(pilot)
        p = prompt(app)
        assert "Play card:" in p and "to whom?" in p
        assert "[Coercion]" in p  # the preview names the card being played
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert client.sent[-1][0].startswith("play coercion ")


# ------------------------------------------------------- a desperation-only hand
async def test_desperation_only_hand_offers_desperation_cards_and_die() -> None:
    """K-ORD-3 (c): no shield card at all, so desperation cards are playable."""
    g = new_game(
        hands=[["capitalize"], ["martyrdom", "revenge", "uprising", "retaliate"], ["extortion"], ["extortion"]],
    )
    g.play(0, "order 1")
    pass_all(g)
    legal = g.legal(1)
    assert "play martyrdom" in legal and "die" in legal
    room = OverlordRoom(g, humans=(1,))
    async with table(room, 1) as (app, pilot, client):
        text = screen_text(app)
        assert " c  Play card" in text and " d  Die" in text
        h = hand(app)
        assert "[Martyrdom] can play now" in h and "[Revenge] can play now" in h
        assert "[Retaliate] not playable now" in h
        await pilot.press("d")
        await settle(pilot)
        assert "die: you are executed" in prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent == [("die", 1)]


# -------------------------------------------------------- the Plead Guilty window
@pytest.mark.parametrize("size", SIZES)
async def test_plead_window_same_screen_for_who_has_the_card_and_who_does_not(size: tuple[int, int]) -> None:
    """K-ORD-5: everyone but the holder is asked; the options differ, nothing else."""
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    g.play(0, "order 1")
    assert g.prompt() is not None and g.prompt().kind == "plead"  # type: ignore[union-attr]
    room = OverlordRoom(g, humans=(2, 3), deadline_in=20, strict=True)
    shots: dict[int, tuple[str, str, str]] = {}
    for seat in (2, 3):
        async with table(room, seat, size=size) as (app, pilot, client):
            lines = prompt(app).splitlines()
            shots[seat] = (lines[0], lines[1], str(app.screen.query_one("#ov-path", Static).render()))
            if seat == 3:
                await pilot.press("g")  # no Plead Guilty key for a seat without the card
                await settle(pilot)
                assert client.sent == []
    assert shots[2][0] == shots[3][0]  # the same prompt for all asked
    assert "Plead Guilty window: bob (2) holds the order." in shots[2][0]
    assert "3/3 to answer" in shots[2][0]
    assert shots[2][2] == shots[3][2]
    assert " g  Plead guilty" in shots[2][1] and " n  Pass" in shots[2][1]
    assert " g " not in shots[3][1] and " n  Pass" in shots[3][1]


async def test_o_passes_too_as_in_sultans_unless_it_gives_the_order() -> None:
    """Sultans of Karaya's pass key (o) passes in Kill the Overlord too when no
    legal kind has it: a club playing both games pressed o in a window here."""
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    g.play(0, "order 1")
    room = OverlordRoom(g, humans=(3,), deadline_in=20)
    async with table(room, 3) as (_app, pilot, client):
        await pilot.press("o", "enter")
        await settle(pilot)
        assert client.sent == [("pass", 1)]
    from tui.overlord.pick import kind_for_key

    assert kind_for_key("o", {"order": [], "pass": []}) == "order"


async def test_plead_guilty_is_answered_only_by_keys_and_then_shows_answered() -> None:
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    g.play(0, "order 1")
    room = OverlordRoom(g, humans=(3,), deadline_in=20, strict=True)
    async with table(room, 3) as (app, pilot, client):
        await pilot.pause(0.3)
        assert client.sent == []  # never auto-answered
        await pilot.press("n", "enter")
        await settle(pilot)
        assert client.sent == [("pass", 1)]
        assert "You answered; waiting for the others." in prompt(app)
        assert "2/3 to answer" in status(app)


async def test_plead_window_in_chinese() -> None:
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    g.play(0, "order 1")
    room = OverlordRoom(g, humans=(2,))
    async with table(room, 2, lang="zh") as (app, pilot, _client):
        p = prompt(app)
        assert "認罪時機：bob（2）持有指示物。" in p
        assert "你：carol（3）" in screen_text(app)  # the header names the seat as the log does
        assert " g  認罪" in p and " n  不回應" in p
        await pilot.press("g")
        await settle(pilot)
        assert prompt(app).splitlines()[1].startswith("認罪：")  # full-width, as every Chinese colon (it said "認罪:")


# ------------------------------------------------------------ the Retaliate window
async def test_retaliate_window_names_the_card_and_offers_retaliate_to_its_holder() -> None:
    g = new_game(hands=[["retaliate"], ["sidestep", "coercion"], ["extortion"], ["extortion"]])
    g.play(0, "order 1")
    pass_all(g)
    g.play(1, "play sidestep 0")
    pr = g.prompt()
    assert pr is not None and pr.kind == "retaliate"
    room = OverlordRoom(g, humans=(0, 2))
    async with table(room, 0) as (app, pilot, client):
        p = prompt(app)
        assert "bob (2) plays [Sidestep] → alice (1, you): Retaliate window." in p
        assert " r  Retaliate" in p and " n  Pass" in p
        await pilot.press("r")
        await settle(pilot)
        assert "cancel the card" in prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent == [("retaliate", 1)]
    async with table(room, 2) as (app, _pilot, _client):
        p = prompt(app)
        assert "Retaliate window" in p and " r " not in p.splitlines()[1]


# ---------------------------------------------------------------- Coercion choice
async def test_coercion_target_chooses_card_or_gold() -> None:
    g = new_game(hands=[["capitalize"], ["coercion"], ["extortion", "victimize"], ["extortion"]])
    g.play(0, "order 1")
    pass_all(g)
    g.play(1, "play coercion 2")
    pass_all(g)  # the Retaliate window
    pr = g.prompt()
    assert pr is not None and pr.kind == "coercion" and g.pending() == {2}
    room = OverlordRoom(g, humans=(2,))
    async with table(room, 2) as (app, pilot, client):
        p = prompt(app)
        assert "You choose: give bob (2) a card, or bob (2) takes 2 gold from the treasury." in p
        assert " k  Give a card" in p and " m  They take gold" in p
        await pilot.press("k")
        await settle(pilot)
        assert "which card?" in prompt(app)
        await pilot.press("down")
        await settle(pilot)
        assert "⏎ give [" in prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent[-1][0].startswith("choose card ")
        # bob is the Captain: then the receiver discards a card of its choice (K-ROLE-CAPTAIN)
        # no brackets inside brackets: "(the Captain bob (2) gave the order)" read as one aside
        assert "You discard a card: bob (2) gave you the order as Captain." in prompt(app)  # Captain when he played
        assert " x  Discard" in prompt(app)
        h = hand(app)  # a card to discard is one to pick, not to play (it said "can play now")
        assert "can play now" not in h and "can pick now" in h
    # the giver now sees the card he received in his notes and log; nobody else does
    given = client.sent[-1][0].split()[-1]
    async with table(room, 1) as (app, _pilot, _client):
        assert card_str(given, "en") in screen_text(app)
    async with table(room, 3) as (app, _pilot, _client):
        log = screen_text(app)
        assert "bob (2) gives" not in log


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_choice_to_confirm_reads_key_colon_keys(lang: Lang) -> None:
    """The line above a one-step choice: "They take gold: Enter sends · Esc back";
    in Chinese "讓他拿錢：Enter 送出 · Esc 返回" (it had a space too many in English
    and two after the full-width colon)."""
    g = new_game(hands=[["capitalize"], ["coercion"], ["extortion", "victimize"], ["extortion"]])
    g.play(0, "order 1")
    pass_all(g)
    g.play(1, "play coercion 2")
    pass_all(g)
    room = OverlordRoom(g, humans=(2,))
    async with table(room, 2, lang=lang) as (app, pilot, client):
        await pilot.press("m")
        await settle(pilot)
        want = "They take gold: Enter sends · Esc back" if lang == "en" else "讓他拿錢：Enter 送出 · Esc 返回"
        assert want in prompt(app).splitlines()
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent[-1][0] == "choose gold"


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_victim_is_told_why_without_brackets_in_brackets(lang: Lang) -> None:
    """K-CARD-VICTIMIZE: the target's prompt said "棄 1 張牌（bob（2） 的迫害）";
    now "你棄 1 張牌：bob（2）打出了 [迫害]。": to the seat asked, in the second person
    ("You discard a card", it said "carol (3, you) discards a card"); the others read its name."""
    g = new_game(hands=[["capitalize"], ["victimize"], ["extortion", "sidestep"], ["extortion", "sidestep"]])
    g.play(0, "order 1")
    pass_all(g)
    play = next(a for a in g.legal(1) if a.startswith("play victimize"))
    g.play(1, play)
    pass_all(g)  # the Retaliate window
    target = int(play.split()[-1])
    assert g.pending() == {target}
    room = OverlordRoom(g, humans=(target,))
    async with table(room, target, lang=lang) as (app, _pilot, _client):
        want = "You discard a card: bob (2) played [Victimize]." if lang == "en" else "你棄 1 張牌：bob（2）打出了 [迫害]。"
        assert want in prompt(app), prompt(app)
    async with table(room, 0, lang=lang) as (app, _pilot, _client):
        who = t("ov.seat", lang, name=NAMES[target], n=target + 1)
        want = f"{who} discards a card: bob (2) played [Victimize]." if lang == "en" else f"{who}棄 1 張牌：bob（2）打出了 [迫害]。"
        assert want in prompt(app), prompt(app)


# --------------------------------------------------------------- dead / executed
async def test_executed_seat_shows_its_token_and_waits() -> None:
    g = new_game(hands=[["capitalize"], ["sidestep"], ["extortion"], ["extortion"]])
    g.play(0, "order 1")
    pass_all(g)
    g.play(1, "die")
    room = OverlordRoom(g, humans=(1,))
    async with table(room, 1, size=(100, 40)) as (app, _pilot, _client):
        text = screen_text(app)
        assert "You were executed (token 1)" in text
        row = next(ln for ln in seats(app).splitlines() if " 2 bob" in ln)
        assert "†1" in row
        assert "bob (2, you) is executed (token 1, Captain); killer: alice (1)." in log_text(app)
        assert "Centre: Captain" in seats(app)


# ------------------------------------------------------------- the role exchange
def exchange_game(round_limit: int = 30) -> Game:
    """Round 1: the ruler commands bob, bob sidesteps back to the ruler, the ruler dies."""
    g = new_game(hands=[["capitalize"], ["sidestep"], ["extortion"], ["extortion"]], round_limit=round_limit)
    g.play(0, "order 1")
    pass_all(g)
    g.play(1, "play sidestep 0")
    while not (g.pending() == {0} and "die" in g.legal(0)):
        pass_all(g)  # Retaliate window, the Captain's discard, Plead Guilty window
    g.play(0, "die")
    return g


async def test_role_exchange_step_by_step() -> None:
    """K-RND-6: survivors by rank take the best centre role, then the executed."""
    g = exchange_game()
    assert g.round == 2 and g.roles == ["peasant", "overlord", "captain", "squire"]
    room = OverlordRoom(g, humans=(2,))
    async with table(room, 2, size=(100, 30)) as (app, pilot, _client):
        assert "Exchange: bob (2) takes Overlord, leaves Captain." in log_text(app)
        await pilot.press("tab")
        await settle(pilot)
        text = screen_text(app)
        assert "Role exchange after round 1, step by step:" in text
        lines = [ln.strip() for ln in text.splitlines()]
        steps = [ln for ln in lines if ln[:3] in ("1. ", "2. ", "3. ", "4. ")]
        assert steps == [
            "1. bob (2) gives up Captain and takes Overlord",
            "2. carol (3, you) gives up Squire and takes Captain",
            "3. dave (4) gives up Peasant and takes Squire",
            "4. alice (1) (executed) takes Peasant",
        ]
        assert "Round 2/30" in text


async def test_role_exchange_in_chinese() -> None:
    g = exchange_game()
    room = OverlordRoom(g, humans=(2,))
    async with table(room, 2, size=(100, 30), lang="zh") as (app, pilot, _client):
        await pilot.press("tab")
        await settle(pilot)
        text = screen_text(app)
        assert "第 1 局後的交換角色" in text
        assert "交換角色（Tab）" in text  # the pane's title (it said "交換角色  (Tab)")
        assert "bob（2）放下船長，拿取領主" in text


# ------------------------------------------------------------------- game end
def alice_left_alone(gold: list[int]) -> Game:
    """alice (0) rules and orders each other seat to its death in turn (K-ORD-8)."""
    g = new_game(gold=gold)
    for target in (1, 2, 3):
        g.play(0, f"order {target}")
        pass_all(g, but=(target,))
        g.play(target, "die")
        while g.pending() and not any(a.startswith("order") for a in g.legal(0)):
            pass_all(g)
    return g


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_result_puts_the_winner_first_even_with_less_gold(lang: Lang) -> None:
    """K-ORD-8: the ruler left alone wins; bob's 20 gold came first above the
    winner's 5 (seen over ssh). The winner heads the table, the rest by gold."""
    g = alice_left_alone(gold=[5, 20, 5, 5])
    out = g.outcome()
    assert out is not None and out.winner == 0 and out.reason == "last-alive"
    room = OverlordRoom(g, humans=(2,))
    async with table(room, 2, size=(100, 30), lang=lang) as (app, _pilot, _client):
        rows = [ln for ln in sheet_of(app, "#ov-log").splitlines()[1:] if "(" in ln or "（" in ln]
        assert rows[0].startswith("★ alice") and rows[1].lstrip().startswith("bob"), rows
        assert [int(ln.split()[-2]) for ln in rows] == [5, 20, 5, 5]


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_standings_line_says_the_winner_comes_first_when_not_by_gold(lang: Lang, size: tuple[int, int]) -> None:
    """K-ORD-8: alice, left alone with 5 gold, won; the line read "Standings by gold:
    1. alice:5 · 2. bob:20" (seen over ssh as "1. alice:13 · 2. Bot 4:15"). It says
    the winner comes first, then the gold; a winner with the most gold keeps "by gold"."""
    g = alice_left_alone(gold=[5, 20, 5, 5])
    out = g.outcome()
    assert out is not None and out.winner == 0 and out.gold[0] < max(out.gold)
    room = OverlordRoom(g, humans=(2,))
    async with table(room, 2, size=size, lang=lang) as (app, _pilot, _client):
        text = screen_text(app)
        label = t("ov.status.standings.winner", lang, list="")
        assert label in text and t("ov.status.standings", lang, list="") not in text, text
    by_gold = exchange_game(round_limit=1).outcome()
    assert by_gold is not None and by_gold.gold[by_gold.winner] == max(by_gold.gold)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_game_end_shows_winner_reason_and_gold_table(lang: Lang) -> None:
    """K-END-2: after the last round, the most gold wins."""
    g = exchange_game(round_limit=1)
    out = g.outcome()
    assert out is not None and out.reason == "round-limit"
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, lang=lang) as (app, _pilot, _client):
        text = screen_text(app)
        winner = room.names[out.winner]
        if lang == "en":
            tied = out.gold.count(out.gold[out.winner]) > 1  # (K-END-2: then the higher rank won)
            reason = "round limit, tied on gold: the higher rank wins" if tied else "round limit, most gold"
            gold = out.gold[out.winner]
            assert f"★ GAME WINNER: {winner} ({out.winner + 1}), {gold} gold" in text  # issue 44 item 7
            assert f"{winner} ({out.winner + 1}) wins: round limit" in text and reason.split()[-1] in text
            assert "Standings by gold: 1. " in text
            assert f"1. {winner}:{gold}" in text  # each seat's gold apart from its name (Bot 4:6, not Bot 4 6)
            assert "Result" in text
            assert f"★ {winner} ({out.winner + 1})" in text
            assert "p: play again with the same seats · o: change the" in text  # alice hosts
        else:
            assert "遊戲贏家" in text and "局數上限" in text and f"金幣排名：1. {winner}：{out.gold[out.winner]}" in text
            assert f"★ {winner}（{out.winner + 1}）" in text
        result = sheet_of(app, "#ov-log")
        rows = [ln for ln in result.splitlines() if "(" in ln or "（" in ln][1:]
        assert len(rows) == 4  # the gold table: one row per seat, most gold first
        golds = [int(ln.split()[-2]) for ln in rows]
        assert golds == sorted(out.gold, reverse=True)
        for s, gold in enumerate(out.gold):
            n = s + 1  # the seat's number as shown
            row = next(ln for ln in rows if any(f in ln for f in (f"({n})", f"({n}, you)", f"（{n}）")))
            assert row.split()[-2] == str(gold)
        assert "★" in seats(app)


async def test_game_end_play_again_is_the_hosts() -> None:
    g = exchange_game(round_limit=1)
    room = OverlordRoom(g, humans=(0, 1))
    async with table(room, 1) as (app, pilot, client):
        text = screen_text(app)  # what comes next, what this player can do (issue 44 item 6)
        assert "The host may play again or change the settings." in text
        assert "Stay for the next game, or Esc: back to the lobby." in text
        await pilot.press("p", "o")
        await settle(pilot)
        assert client.again == 0 and client.reopened == 0
        assert " o Settings" not in screen_text(app)
    async with table(room, 0) as (app, pilot, client):
        assert " o Settings" in screen_text(app).splitlines()[-1]
        await pilot.press("p")
        await settle(pilot)
        assert client.again == 1
        await host_changes_settings(app, pilot, client)  # o is also the order's key: after the match, the settings


# ------------------------------------------------------------------ spectator
@pytest.mark.parametrize("size", SIZES)
async def test_spectator_sees_no_hand_and_no_options(size: tuple[int, int]) -> None:
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    g.play(0, "order 1")
    room = OverlordRoom(g, humans=(0,))
    async with table(room, None, size=size) as (app, pilot, client):
        text = screen_text(app)
        assert "Watching" in text and "hands are hidden" in text
        assert "Your options" not in text
        assert cards_on(text) == set()  # nothing played yet: no card is public
        assert "Plead Guilty window: bob (2) holds the order." in text  # the same public prompt
        await pilot.press("n")
        await settle(pilot)
        assert client.sent == []


# ------------------------------------------------------------ chat and names
async def test_names_and_chat_are_literal_never_markup() -> None:
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0,), names=["alice", "[/b]x[red]", "carol", "dave"])
    async with table(room, 0) as (app, pilot, _client):
        assert "[/b]x[red]" in seats(app)
        await pilot.press("t")
        await pilot.press(*"[b]hi")
        await pilot.press("enter")
        await settle(pilot)
        assert "[b]hi" in screen_text(app)


async def test_language_switch_rephrases_the_table() -> None:
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0) as (app, pilot, _client):
        assert "Give the order to a player." in screen_text(app)
        await pilot.press("f2")
        await settle(pilot)
        text = screen_text(app)
        assert "把指示物交給一位玩家。" in text and "抽" in text


async def test_refused_action_is_shown_translated() -> None:
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0) as (app, pilot, client):
        await pilot.press("o")
        room.version += 1  # someone else acted first: this screen's version is stale
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent and "Refused" in prompt(app)


async def test_eight_players_fit_at_80x24_with_the_log_visible() -> None:
    roles = ["overlord", "advisor", "general", "captain", "knight", "squire", "peasant", "truant"]
    g = new_game(roles=roles, hands=[["capitalize"]] * 8, deck=QUIET_DECK * 2)
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0) as (app, _pilot, _client):
        s = seats(app)
        for i, name in enumerate(room.names):
            assert f"{i + 1} {name}" in s
        text = screen_text(app)
        assert "Log" in text and "Give the order" in text
        assert app.screen.query_one("#ov-log").size.height >= 3


# ------------------------------------------------- expansion roles' prompts
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_levy_is_put_together_seat_by_seat(lang: Lang) -> None:
    """K-XROLE-TYRANT: at 6-8 seats the levy's splits were a flat line of ~70
    ("1=1 from Bot 5 (5)  2=2 from Bot 5 (5) ..."), cut at the screen's edge.
    Now each seat is a choice: its number (or →) takes a gold more from it, ←
    gives one back; only a legal split can be made, and Enter sends it."""
    g = new_game(roles=["tyrant", "soothsayer", "merchant", "bureaucrat"], gold=[5, 1, 5, 5])
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, size=(120, 30), lang=lang) as (app, pilot, client):
        await pilot.press("l")
        await settle(pilot)
        lines = prompt(app).splitlines()
        head = next(line for line in lines if line.startswith(("Levy", "徵收")))
        assert t("ov.pick.what.levy", lang) in head
        assert lines[lines.index(head) + 1] == " 2=bob  3=carol  4=dave", lines
        await pilot.press("enter")  # nothing taken yet: said, nothing sent
        await settle(pilot)
        assert not client.sent and t("ov.pick.levy_empty", lang) in prompt(app)
        await pilot.press("4", "4", "2")
        await settle(pilot)
        lines = prompt(app).splitlines()
        assert " 2=bob +1  3=carol  4=dave +2" in lines, lines
        parts = t("punct.list", lang).join(
            t("ov.levy.part", lang, who=who, gold=gold) for who, gold in (("bob (2)" if lang == "en" else "bob（2）", 1),
                                                                           ("dave (4)" if lang == "en" else "dave（4）", 2))
        )
        assert lines[-1] == "⏎ " + t("ov.do.levy", lang, parts=parts), lines
        await pilot.press("right")  # bob has no more gold
        await settle(pilot)
        assert t("ov.pick.levy_purse", lang, who="bob (2)" if lang == "en" else "bob（2）") in prompt(app)
        await pilot.press("3", "3")  # a fifth gold is more than the levy takes: said, nothing changes
        await settle(pilot)
        assert " 2=bob +1  3=carol +1  4=dave +2" in prompt(app).splitlines()
        assert t("ov.pick.levy_full", lang) in prompt(app)  # which of the two, said
        await pilot.press("left", "4", "4")  # carol's back; dave's third gold makes 4, a fourth is more: kept, said
        await settle(pilot)
        assert " 2=bob +1  3=carol  4=dave +3" in prompt(app).splitlines()
        assert t("ov.pick.levy_full", lang) in prompt(app)
        await pilot.press("left", "enter")  # 3 from dave, one given back: 2
        await settle(pilot)
        assert client.sent[-1][0] == "levy 1:1 3:2"
        said = "alice (1, you) levies: 1 from bob (2), 2 from dave (4)." if lang == "en" else "你（1）徵收：bob（2）1 元、dave（4）2 元。"
        assert said in log_text(app)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "bob (2) asks nobody to show their hand."),
    ("zh", "bob（2）沒有要人展示手牌。"),
])
async def test_a_soothsayer_who_passes_is_said_plainly(lang: Lang, said: str) -> None:
    """K-XROLE-SOOTHSAYER: passing read "bob (2) has no one show a hand." (seen over ssh)."""
    g = new_game(roles=["tyrant", "soothsayer", "merchant", "bureaucrat"])
    while "show 2" not in g.legal(1):  # the Tyrant and anyone asked before the Soothsayer pass
        asked = next(s for s in range(4) if g.legal(s))
        g.play(asked, "pass")
    g.play(1, "pass")
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, size=(100, 30), lang=lang) as (app, _pilot, _client):
        assert said in log_text(app)


async def test_expansion_prompts_levy_name_show_gift_by_keys() -> None:
    """K-XROLE-TYRANT, -BUREAUCRAT, -SOOTHSAYER, -MERCHANT: each asks its role alone, by keys."""
    g = new_game(
        roles=["tyrant", "soothsayer", "merchant", "bureaucrat"],
        hands=[["capitalize"], ["sidestep"], ["extortion"], ["victimize"]],
    )
    room = OverlordRoom(g, humans=(0, 1, 2, 3))
    async with table(room, 0, size=(100, 30)) as (app, pilot, client):
        p = prompt(app)
        assert "You may levy up to 4 gold (Tyrant)." in p and " l  Levy" in p and " n  Pass" in p
        await pilot.press("l", "4")  # a gold from dave, seat 4 as shown (3 in the notation)
        await settle(pilot)
        assert "⏎ levy 1 from dave (4)" in prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent[-1][0] == "levy 3:1"
    async with table(room, 3, size=(100, 30)) as (app, pilot, client):
        p = prompt(app)
        assert "You may name a card to ban this round (Bureaucrat)." in p
        await pilot.press("b", "2")
        await settle(pilot)
        assert "⏎ ban [Victimize] this round" in prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent[-1][0] == "name victimize"
        assert "Banned: [Victimize]" in seats(app)
    async with table(room, 1, size=(100, 30)) as (app, pilot, client):
        assert "You may make a player show their hand (Soothsayer)." in prompt(app)
        await pilot.press("e", "3", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "show 2"
    shown = list(g.hands[2])
    async with table(room, 0, size=(100, 30)) as (app, _pilot, _client):
        h = " ".join(hand(app).split())
        assert "carol (3) showed: " + " ".join(card_str(c, "en") for c in shown) in h  # public now
    async with table(room, 2, size=(100, 30)) as (app, pilot, client):
        assert "You may give 2 gold to a player and draw 2 (Merchant)." in prompt(app)
        await pilot.press("f", "1", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "gift 0"
        assert "carol (3, you) gives alice (1) 2 gold." in log_text(app)
        assert "Merchant's gift" not in log_text(app)  # the gift's gold line is not told twice


async def test_the_bureaucrat_names_the_tenth_card_and_beyond_by_two_digits() -> None:
    """K-XROLE-BUREAUCRAT: a card to ban is any of the game's cards, numbered
    past 9, but a digit picked one choice: "1" "0" said "0 is not a choice
    now" and "1" "2" picked the 2nd. Two digits make a number of two now."""
    g = new_game(
        roles=["tyrant", "soothsayer", "merchant", "bureaucrat"],
        hands=[["capitalize"], ["sidestep"], ["extortion"], ["victimize"]],
    )
    g.play(0, "pass")  # the Tyrant levies nothing: the Bureaucrat is asked
    room = OverlordRoom(g, humans=(0, 1, 2, 3))
    async with table(room, 3, size=(100, 30)) as (app, pilot, client):
        await pilot.press("b")
        await settle(pilot)
        names = app.screen.picker.candidates()
        assert len(names) >= 12, names
        for keys, at in ((("1", "2"), 12), (("1", "0"), 10), (("1",), 1), (("9", "9"), 9), (("2", "1"), 1)):
            await pilot.press(*keys)
            await settle(pilot)
            assert app.screen.picker.current() == names[at - 1], keys
            assert f"⏎ ban {card_str(str(names[at - 1]), 'en')} this round" in prompt(app), (keys, prompt(app))
            await pilot.press("left", "right")  # an arrow ends a number: the next digit starts one
        # the choices line keeps the one picked in view (at 100 columns it showed 1-6 only)
        await pilot.press("1", "3")
        await settle(pilot)
        line = prompt(app).splitlines()[2]
        assert line.startswith(" … ") and f"13={card_str(str(names[12]), 'en')}" in line, line
        await pilot.press("1", "1", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == f"name {names[10]}"


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_passing_the_order_to_the_tax_collector_says_the_fee_before_enter(lang: Lang) -> None:
    """K-XROLE-TAXCOLLECTOR: "⏎ give the order to bob (2)" said nothing of
    the 2 gold it cost; the log said so afterwards. The line says it now, for a
    command and a card, and not for the Knight, who never pays."""
    fee = t("ov.pick.fee", lang, gold=2)
    g = new_game(roles=["overlord", "taxcollector", "squire", "peasant"])
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, size=(100, 30), lang=lang) as (app, pilot, client):
        await pilot.press("o", "3")
        await settle(pilot)
        assert fee not in prompt(app)  # carol is no Tax Collector
        await pilot.press("2")
        await settle(pilot)
        assert prompt(app).splitlines()[-1].endswith(" · " + fee), prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent[-1][0] == "order 1"
    for giver, pays in (("squire", True), ("knight", False)):
        g = new_game(roles=["overlord", giver, "taxcollector", "peasant"],
                     hands=[["capitalize"], ["victimize"], ["extortion"], ["extortion"]], deck=[])
        g.play(0, "order 1")
        pass_all(g)
        room = OverlordRoom(g, humans=(1,))
        async with table(room, 1, size=(100, 30), lang=lang) as (app, pilot, client):
            await pilot.press("c", "1", "enter", "3")
            await settle(pilot)
            assert (fee in prompt(app)) == pays, (giver, prompt(app))
            await pilot.press("enter")
            await settle(pilot)
            assert client.sent[-1][0] == "play victimize 2"
        pass_all(g)
        assert (g.view(1).seats[1].gold == 3) == pays  # what the engine took is what was said


async def test_a_ban_and_an_uprising_are_not_shown_once_the_game_is_over() -> None:
    """K-XROLE-BUREAUCRAT, K-CARD-UPRISING: "Banned: [Sidestep]" and the
    uprising's line stayed on the game's result."""
    from tui.overlord.words import Namer

    g = new_game()
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, size=(100, 30)) as (app, _pilot, _client):
        view = g.view(0).model_copy(update={"banned": "sidestep", "uprising_by": 1, "uprising_named": 2})
        namer = Namer(["alice", "bob", "carol", "dave"], 0, "en")
        playing = " ".join(app.screen._info_lines(view, namer, 100))
        assert "Banned: [Sidestep]" in playing and "bob (2)" in playing
        over = " ".join(app.screen._info_lines(view.model_copy(update={"phase": "over"}), namer, 100))
        assert "Banned" not in over and "bob" not in over and "Deck" in over


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_tall_terminal_shows_every_card_s_effect_whole(lang: Lang) -> None:
    """At 120x40 the fourth card's effect was left out (and others cut with
    "…") while 15 lines of log below stood empty: the band of seats and hand
    grows to what the hand's effects wrap to, as far as the screen allows."""
    from tui.overlord.words import effect_str

    cards = ["sidestep", "capitalize", "extortion", "plead-guilty"]
    g = new_game(roles=["knight", "squire", "captain", "general", "truant", "advisor", "peasant", "overlord"],
                 hands=[cards, [], [], [], [], [], [], []], deck=[])
    room = OverlordRoom(g, humans=(0,), names=["alice", *[f"Bot {i}" for i in range(1, 8)]])
    async with table(room, 0, size=(120, 40), lang=lang) as (app, _pilot, _client):
        shown = "".join(hand(app).split())  # (a wrapped Chinese line has no space to put back)
        assert "…" not in shown, hand(app)
        for card in cards:
            assert "".join(effect_str(card, lang).split()) in shown, (card, hand(app))


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_number_that_picks_nothing_says_why(lang: Lang) -> None:
    """K-XROLE-BUREAUCRAT: a banned card's number said "1 is not a choice
    now", and the hand said "not playable now", never that it was banned
    (the player's own seat: test_a_number_that_is_no_choice_says_so...)."""
    g = new_game(roles=["tyrant", "soothsayer", "merchant", "bureaucrat"],
                 hands=[["extortion"], ["capitalize"], ["extortion"], ["victimize"]], deck=["sidestep"] * 12)
    g.play(0, "pass")
    g.play(3, "name sidestep")  # bob draws two of them after the ban
    while 0 not in g.pending():
        pass_all(g)
    g.play(0, "order 1")
    pass_all(g)
    assert g.hands[1] == ["sidestep", "sidestep", "capitalize"]
    room = OverlordRoom(g, humans=(1,))
    async with table(room, 1, size=(100, 30), lang=lang) as (app, pilot, client):
        assert hand(app).count(t("ov.hand.banned", lang)) == 2, hand(app)
        await pilot.press("c", "1")
        await settle(pilot)
        assert t("ov.pick.banned", lang, card=card_str("sidestep", lang)) in prompt(app), prompt(app)
        assert client.sent == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_help_s_signs_name_the_order_s_steps_as_the_path_shows_them(lang: Lang) -> None:
    """K-ORD-5, K-CARD-UPRISING: the help said the path shows "pleaded" and
    "uprising"; a step with a card shows the card's name ("[Plead Guilty]"),
    as the help says now (naming no card: a spectator's help names none)."""
    legend = t("ov.help.legend", lang)
    for how in ("command", "pay", "discard-pass"):  # the steps without a card
        assert t(f"ov.path.how.{how}", lang) in legend
    assert ("the name of the card played" if lang == "en" else "打出的牌名") in legend
    for how in ("plead-guilty", "uprising"):  # always with their card, shown by its name
        assert t(f"ov.path.how.{how}", lang) + ("," if lang == "en" else "、") not in legend
        assert t(f"ov.path.how.{how}", lang) + ("." if lang == "en" else "。") not in legend


@pytest.mark.parametrize(("target", "swaps"), [(2, True), (3, False)])
async def test_the_general_s_revolt_says_before_enter_whether_roles_swap(target: int, swaps: bool) -> None:
    """K-ROLE-GENERAL, K-CARD-REVOLT: the General may Revolt against anyone,
    but roles swap only with a rank 1 away; "⏎ play [Revolt] → dave (4)" did
    not say which."""
    roles = ["overlord", "general", "captain", "squire", "peasant"]
    g = new_game(roles=roles, hands=[["capitalize"], ["revolt"], ["extortion"], ["extortion"], ["extortion"]], deck=[])
    g.play(0, "order 1")
    pass_all(g)
    room = OverlordRoom(g, humans=(1,))
    async with table(room, 1, size=(100, 30)) as (app, pilot, client):
        await pilot.press("c", "1", "enter", str(target + 1))  # the seat's number as shown
        await settle(pilot)
        said = t("ov.pick.revolt_swap" if swaps else "ov.pick.revolt_keep", "en")
        assert prompt(app).splitlines()[-1].endswith(" · " + said), prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent[-1][0] == f"play revolt {target}"
    pass_all(g)
    assert (g.roles[1] == roles[target]) == swaps  # the engine did as the line said


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_pass_paid_for_is_one_log_line(lang: Lang) -> None:
    """K-ROLE-PEASANT: the Peasant pays 1 gold to pass the order; the log says so once (the
    engine's gold event repeats the pass, and is left out), while the gold column moves."""
    g = new_game(gold=[5, 5, 5, 5])
    g.play(0, "order 3")
    pass_all(g)
    pay = next(a for a in g.legal(3) if a.startswith("pay "))
    to = int(pay.split()[1])
    g.play(3, pay)
    assert g.gold[3] == 4 and g.gold[to] == 6
    room = OverlordRoom(g, humans=(0,))
    async with table(room, None, lang=lang) as (app, _pilot, _client):
        log = log_text(app)
        names = ["alice", "bob", "carol", "dave"]
        if lang == "en":
            assert f"dave (4) pays {names[to]} ({to + 1}) 1 gold to pass the order." in log
            assert "Peasant's pass" not in log
        else:
            assert t("ov.why.pay", "zh") not in log and "付給" in log
        assert log.count("1 gold" if lang == "en" else "1 元") == 1


async def test_general_conspire_asks_the_direction() -> None:
    """K-ROLE-GENERAL: with Conspire he names the direction (``play conspire 3 left``)."""
    g = new_game(roles=ROLES5, hands=[["capitalize"], ["extortion"], ["extortion"], ["extortion"], ["conspire"]])
    g.play(0, "order 4")
    pass_all(g)
    conspire = [a for a in g.legal(4) if a.startswith("play conspire")]
    assert any(a.endswith((" left", " right")) for a in conspire)
    room = OverlordRoom(g, humans=(4,))
    async with table(room, 4, size=(100, 30)) as (app, pilot, client):
        panel = app.screen.query_one(HandPanel)
        row = panel.values.index("conspire")
        await pilot.click(HandPanel, offset=(3, row))
        await settle(pilot)
        await pilot.press("enter")  # the first seat offered
        await settle(pilot)
        p = prompt(app)
        if "which way?" in p:
            await pilot.press("2")
            await settle(pilot)
            assert "cards go" in prompt(app)
            await pilot.press("enter")
            await settle(pilot)
        assert client.sent[-1][0] in conspire


async def test_conspire_asks_every_holder_of_a_card_to_give_one_on() -> None:
    """K-CARD-CONSPIRE: everyone holding a card secretly picks one; the same prompt for all."""
    g = new_game(hands=[["capitalize"], ["conspire", "sidestep"], ["extortion"], ["extortion", "victimize"]])
    g.play(0, "order 1")
    pass_all(g)
    g.play(1, "play conspire 2")
    pass_all(g)  # the Retaliate window
    pr = g.prompt()
    assert pr is not None and pr.kind == "conspire" and len(pr.seats) > 1
    room = OverlordRoom(g, humans=(1, 3))
    texts: dict[int, str] = {}
    receiver = {3: "alice (1)", 1: "carol (3)"}  # the next living player leftwards, bob's way to carol
    for seat in (3, 1):
        async with table(room, seat, size=(100, 30)) as (app, pilot, client):
            texts[seat] = status(app)
            assert " v  Give on" in prompt(app)
            await pilot.press("v")
            await settle(pilot)
            # each is told whom the card goes to (it said "which card?")
            assert f"which card for {receiver[seat]}?" in prompt(app), prompt(app)
            await pilot.press("enter")
            await settle(pilot)
            assert client.sent[-1][0].startswith("give ")
    pass_all(g)
    moved = {e.params["src"]: e.params["dst"] for e in g.events if e.kind == "passed-card"}
    assert moved[3] == 0 and moved[1] == 2  # as the prompts said
    assert texts[1].split("·")[0] == texts[3].split("·")[0]
    assert texts[3].startswith("Conspire: every player holding a card gives one on.")


async def test_seats_show_connection_state() -> None:
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0, 1, 2))
    room.seats[1].connected = False
    room.seats[2].autoplay = True
    async with table(room, 0) as (app, _pilot, _client):
        rows = {ln[2]: ln for ln in seats(app).splitlines()[1:5]}
        assert rows["2"].rstrip().endswith("offline")  # ("away" is a seat a stand-in bot plays)
        assert rows["3"].rstrip().endswith("auto")
        assert rows["4"].rstrip().endswith("bot")
        assert not rows["1"].rstrip().endswith(("offline", "auto", "bot"))


async def test_truant_may_draw_when_the_giver_holds_more_cards() -> None:
    """K-ROLE-TRUANT: given the order by a player holding more cards, he may draw 1 (``draw``/``pass``)."""
    roles = ["overlord", "general", "captain", "knight", "squire", "peasant", "truant"]
    hands = [["capitalize"] * 4, ["sidestep"], ["extortion"], ["extortion"], ["victimize"], ["victimize"], []]
    g = new_game(roles=roles, hands=hands, deck=QUIET_DECK * 2)
    g.play(0, "order 6")
    pr = g.prompt()
    assert pr is not None and pr.kind == "truant" and g.pending() == {6}
    room = OverlordRoom(g, humans=(6, 2))
    async with table(room, 2) as (app, _pilot, _client):
        p = prompt(app)
        assert "grace (7) may draw a card (Truant)." in p and "Your options" not in p
    async with table(room, 6) as (app, pilot, client):
        p = prompt(app)
        assert "You may draw a card (Truant)." in p and " w  Draw" in p and " n  Pass" in p
        await pilot.press("w", "enter")
        await settle(pilot)
        assert client.sent[-1][0] == "draw"
        assert "grace (7, you) draws 1 (the Truant's power)." in log_text(app)


async def test_a_decision_for_one_seat_is_skipped_not_left_unanswered_in_chinese() -> None:
    """K-ROLE-TRUANT: in Chinese a pass was "不回應" (no answer) everywhere; a
    decision only one seat is asked (the Truant's draw) now reads "略過" (skip),
    in the options, the key bar and the picker; a window that asks many keeps
    "不回應" (K-ORD-5, tested with the Plead Guilty window above)."""
    roles = ["overlord", "general", "captain", "knight", "squire", "peasant", "truant"]
    hands = [["capitalize"] * 4, ["sidestep"], ["extortion"], ["extortion"], ["victimize"], ["victimize"], []]
    g = new_game(roles=roles, hands=hands, deck=QUIET_DECK * 2)
    g.play(0, "order 6")
    room = OverlordRoom(g, humans=(6,))
    async with table(room, 6, lang="zh") as (app, pilot, _client):
        p = prompt(app)
        assert "你可以抽 1 張牌（懶惰鬼）。" in p and " n  略過" in p and "不回應" not in p, p
        assert "略過" in screen_text(app).splitlines()[-1]  # the key bar
        await pilot.press("n")
        await settle(pilot)
        assert prompt(app).splitlines()[1].startswith("略過"), prompt(app)



async def test_log_lines_of_shared_events_are_made_and_wrapped_once_for_every_spectator(monkeypatch: Any) -> None:
    """The same event objects (a room's spectators share one view object: the
    room caches its views per version) are phrased and wrapped once for all
    the screens that show them; each screen still shows every line; another
    language phrases them again."""
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    g.play(0, "order 1")
    room = OverlordRoom(g, humans=(0,))
    view = room.view(None)
    wrapped: list[int] = []
    original_wrap = TailLog._wrap

    def counting_wrap(self: TailLog, text: Any, width: int, *, wrap: bool) -> Any:
        wrapped.append(width)
        return original_wrap(self, text, width, wrap=wrap)

    phrased: list[int] = []
    original_line = Table._log_line

    def counting_line(self: Table, ev: Any, namer: Any) -> Any:
        phrased.append(id(ev))
        return original_line(self, ev, namer)

    monkeypatch.setattr(TailLog, "_wrap", counting_wrap)
    monkeypatch.setattr(Table, "_log_line", counting_line)
    counts: list[tuple[int, int]] = []
    shown: list[list[str]] = []
    for lang in ("en", "en", "zh"):
        wrapped.clear()
        phrased.clear()
        async with table(room, None, lang=lang) as (app, _pilot, _client):
            log = app.screen.query_one("#ov-log", TailLog)
            shown.append([strip.text.rstrip(" │┃") for strip in log.lines])
            counts.append((len(phrased), len(wrapped)))
    events = len(view.log)  # type: ignore[attr-defined]
    assert events >= 2
    assert counts[0][0] == events and counts[0][1] >= events  # the first screen phrases and wraps them
    assert counts[1] == (0, 0)  # the second takes both from the first
    assert counts[2][0] == events  # Chinese: phrased again
    assert shown[0] == shown[1] != shown[2]
    assert len(shown[1]) >= events


# ------------------------------------------------------------ help (F1)
def help_text(app: ThroneApp) -> str:
    assert isinstance(app.screen, OverlordHelp)
    return app.screen.text.plain


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_help_shows_your_role_and_hand_with_their_rules_and_every_role_at_the_table(lang: Lang) -> None:
    # K-ROLE-1 (each role's rank, income and ability), K-SET-4 (roles public, hands hidden)
    g = captain_holds()
    room = OverlordRoom(g, humans=(1,))
    async with table(room, 1, lang=lang) as (app, pilot, client):
        await pilot.press("f1")
        await settle(pilot)
        text = help_text(app)
        v = g.view(1)
        me = v.seats[1]
        assert me.role == "captain"
        assert t("ov.help.your_role", lang, role=t("ov.role.captain", lang), rank=5, income="+3") in text
        assert t("ov.rolerule.captain", lang) in text
        assert v.hand
        for card in v.hand:  # each card once, with how many and its effect
            count = v.hand.count(card)
            assert f"{card_str(card, lang)}{f' ×{count}' if count > 1 else ''} {t(f'ov.effect.{card}', lang)}" in text
        assert cards_on(text, lang) == set(v.hand)  # no other card is named as held
        for sv in v.seats:  # every role at the table, with its rank and income
            head = t("ov.help.role_line", lang, role=t(f"ov.role.{sv.role}", lang), rank=sv.rank,
                     income=f"{sv.income:+d}" if sv.income else "0")
            assert head + t(f"ov.rolerule.{sv.role}", lang) in text
        assert t("ov.role.overlord", lang) + (" (rank 8, income +6)" if lang == "en" else "（階級 8，收入 +6）") in text
        symbols = {c.token: c.symbol for c in load_ruleset().cards}
        for card in ALL_CARDS:  # the plot cards, named unbracketed, with their symbol
            name = t("ov.help.card_symbol", lang, card=t(f"ov.card.{card}", lang), symbol=t(f"ov.symbol.{symbols[card]}", lang))
            assert name + t("punct.colon", lang) + t(f"ov.effect.{card}", lang) in text
        assert f"c {t('ov.key.play', lang)}" in text and f"g {t('ov.key.plead', lang)}" in text
        assert ("Keys at this table" if lang == "en" else "牌桌按鍵") in text
        assert t("table.help.leave", lang) in text  # a bot plays the seat meanwhile
        assert ("the room plays the default" if lang == "en" else "系統代出預設動作") in text  # K-TIME-1
        bottom = screen_text(app).splitlines()[-1]
        assert ("Close" if lang == "en" else "關閉") in bottom
        await pilot.press("c")  # the table's keys do nothing under the help
        await settle(pilot)
        assert isinstance(app.screen, OverlordHelp)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, Table)
        assert client.sent == []


async def test_help_for_a_spectator_names_no_hand_and_follows_a_language_switch() -> None:
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    g.play(0, "order 1")
    room = OverlordRoom(g, humans=(0,))
    async with table(room, None) as (app, pilot, _client):
        await pilot.press("f1")
        await settle(pilot)
        text = help_text(app)
        assert "You are watching" in text and "Your hand" not in text
        # no keys to play with and no seat to keep (it said "your seat stays yours")
        assert "Escape stops watching." in text and "your seat" not in text and "Enter sends" not in text
        assert "p play again" not in text and f"c {t('ov.key.play', 'en')}" not in text
        assert cards_on(text) == set()
        assert t("ov.rolerule.peasant", "en") in text  # roles are public
        await pilot.press("f2")
        await settle(pilot)
        text = help_text(app)
        assert "觀戰中" in text and t("ov.rolerule.peasant", "zh") in text
        assert cards_on(text, "zh") == set()
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, Table)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_full_hand_draws_no_card_in_words(lang: Lang) -> None:
    # K-RND-2: min(2, limit - hand size), at least 0: a hand at its limit draws nothing
    g = new_game(hands=[["capitalize"] * 4, ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, lang=lang) as (app, _pilot, _client):
        log = log_text(app)
        if lang == "en":
            assert "alice (1, you) draws no card (the round's draw)." in log
            assert "bob (2) draws 2 (the round's draw)." in log
            assert "draws 0" not in log
        else:
            assert "你（1）沒有抽牌（每局抽牌）。" in log
            assert "抽 0 張" not in log


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_cut_effect_ends_with_an_ellipsis_and_chinese_lines_break_properly(lang: Lang) -> None:
    # a full hand on a small terminal: the effects get the rows that are left, cut short
    g = new_game(hands=[["victimize", "extortion", "sidestep", "retaliate"], [], [], []])
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, lang=lang) as (app, _pilot, _client):
        panel = app.screen.query_one(HandPanel)
        effects = [line.plain.strip() for line in panel.lines[1:] if line.plain.startswith("  ")]
        assert effects, [line.plain for line in panel.lines]
        cut = [ln for ln in effects if ln.endswith("…")]
        assert cut, effects  # 4 cards and their effects do not fit in 24 rows
        whole = "".join(t(f"ov.effect.{c}", lang) for c in g.hands[0])
        for ln in cut:
            assert ln[:-1].rstrip() in whole.replace(" ", "") or ln[:-1].rstrip() in whole
        if lang == "zh":
            assert not any(ln[0] in "，。、；：！？）" for ln in effects), effects


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_every_role_shows_its_rank_however_long_its_name(size: tuple[int, int]) -> None:
    # the role column was 13 cells: "Tax Collector 5" lost its rank
    roles = ["overlord", "taxcollector", "executioner", "soothsayer", "peasant"]
    g = new_game(roles=roles, hands=[[], [], [], [], []], gold=[11, 12, 13, 14, 15])  # no gold reads as a rank
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, size=size) as (app, _pilot, _client):
        text = seats(app)
        for seat, role in enumerate(roles):
            line = next(ln for ln in text.splitlines() if f" {seat + 1} " in ln[:4])
            assert f"{t(f'ov.role.{role}', 'en')} {g.rank(seat)}" in line, line


@pytest.mark.parametrize(("lang", "size"), [("zh", (80, 24)), ("en", (100, 30))])
async def test_the_name_column_is_no_wider_than_the_names(lang: Lang, size: tuple[int, int]) -> None:
    """At 80x24 in Chinese the role column is narrow, and the name column took
    the 14 cells left over: a bot holding the order showed "◆持令  …" for
    "◆持令 電腦". Names of 5 cells now leave the state its whole width."""
    roles = ["overlord", "taxcollector", "executioner", "soothsayer", "peasant"]
    g = new_game(roles=roles, hands=[["capitalize"], ["sidestep"], ["sidestep"], [], []])
    pass_all(g)  # the Soothsayer's show
    g.play(0, "order 3")
    assert g.view(0).seats[3].holds_order
    room = OverlordRoom(g, humans=(0,), names=["alice", "bob", "carol", "dave", "erin"])
    async with table(room, 0, size=size, lang=lang) as (app, _pilot, _client):
        row = next(ln for ln in seats(app).splitlines() if ln.startswith("▶ 4 "))
        want = "◆order bot" if lang == "en" else "◆持令 電腦"
        assert row.rstrip().endswith(want), row
        assert "…" not in row


class _UprisingRoom(OverlordRoom):
    """A real game whose views also show two roles in the centre and an Uprising."""

    def view(self, seat: int | None) -> Any:
        return super().view(seat).model_copy(
            update={"centre": ["captain", "general"], "uprising_by": 1, "uprising_named": 2}
        )


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_table_facts_take_a_second_line_rather_than_lose_the_uprising(lang: Lang) -> None:
    """K-CARD-UPRISING: at 80x24 the line under the seats said "… · 中央：護衛、將軍 ·
    暴動：B…": who named whom was cut. What does not fit goes on a line of its own."""
    g = new_game(roles=["overlord", "taxcollector", "executioner", "soothsayer", "peasant"])
    room = _UprisingRoom(g, humans=(0,), names=["alice", "bob", "carol", "dave", "erin"])
    async with table(room, 0, size=(80, 24), lang=lang) as (app, _pilot, _client):
        rows = seats(app).splitlines()
        uprising = "Uprising: bob (2) named carol (3)" if lang == "en" else "暴動：bob（2）指定 carol（3）"
        centre = "Centre: Captain, General" if lang == "en" else "中央：船長、將軍"
        assert any(centre in row for row in rows), rows
        assert any(row.strip() == uprising for row in rows), rows
        assert not any("…" in row for row in rows), rows
        assert "Log" in screen_text(app) or "紀錄" in screen_text(app)  # the log pane still shows


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_narrow_table_keeps_every_seat_s_gold_and_hand(lang: Lang) -> None:
    """At 60 columns the seats' Gold column was cut to "Gol…" and every gold to
    "5  …": short headers ("$", "H") and columns as wide as their numbers keep
    them, and a state column with no room is left out rather than cut."""
    roles = ["knight", "squire", "captain", "general", "truant", "advisor", "peasant", "overlord"]
    g = new_game(roles=roles, hands=[["sidestep"], [], [], [], [], [], [], []], gold=[5, 12, 3, 7, 0, 9, 11, 4])
    room = OverlordRoom(g, humans=(0,), names=["bob", *[f"Bot {i + 1}" for i in range(1, 8)]])
    async with table(room, 0, size=(60, 20), lang=lang) as (app, _pilot, _client):
        rows = seats(app).splitlines()
        for seat in range(8):
            row = next(r for r in rows if r[2:4] == f"{seat + 1} ")
            assert "…" not in row, row
            role = f"{t(f'ov.role.{roles[seat]}', lang)} {g.rank(seat)}"
            tail = row.split(role, 1)[1].split()
            assert tail[:2] == [str(g.view(0).seats[seat].gold), str(g.view(0).seats[seat].hand_size)], row


async def test_a_narrow_header_drops_whole_parts_and_grows_back() -> None:
    """At 60 columns the header said "crown at 4…" (40 read as 4): whole parts
    go, then "…"; widened, the header shows them all again. Narrow, the game's
    name goes first and which seat is yours stays (it was cut off)."""
    g = new_game()
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, size=(60, 20)) as (app, pilot, _client):
        head = str(app.screen.query_one("#ov-head", Static).render()).strip()
        assert head.endswith("· …") and "crown at 4…" not in head, head
        assert "You: alice (1)" in head and not head.startswith("Overlord"), head
        await pilot.resize_terminal(120, 30)
        await settle(pilot)
        head = str(app.screen.query_one("#ov-head", Static).render()).strip()
        assert head.startswith("Overlord") and head.endswith("crown at 40"), head
        assert "You: alice (1)" in head


@pytest.mark.parametrize("viewer", [0, 2])
async def test_your_own_seat_keeps_its_mark_when_the_name_is_cut(viewer: int) -> None:
    """At 60 columns the name column is 6 cells: "alice *" lost its "*", and
    nothing on screen said which seat was yours."""
    g = new_game()
    room = OverlordRoom(g, humans=(viewer,))
    async with table(room, viewer, size=(60, 20)) as (app, _pilot, _client):
        rows = [line for line in seats(app).splitlines() if line[2:4] == f"{viewer + 1} "]
        assert len(rows) == 1 and " *" in rows[0], seats(app)
        others = [line for line in seats(app).splitlines()[1:] if line[2:3].isdigit() and line[2:4] != f"{viewer + 1} "]
        assert others and not any(" *" in line for line in others)


async def test_a_log_scrolled_back_says_so_in_its_title() -> None:
    """As at the Sultans table: PageUp marks the log's title, End clears it."""
    from textual.widgets import Static

    from tui.widgets import TailLog

    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0,))
    room.play(0, "order 2")
    room.run_bots()
    async with table(room, 0, size=(80, 24)) as (app, pilot, _client):
        log = app.screen.query_one("#ov-log", TailLog)
        title = app.screen.query_one("#ov-pane-title", Static)
        mark = t("table.log_back", "en")
        assert len(log.lines) > log.content_size.height, len(log.lines)
        await pilot.press("pageup")
        await settle(pilot)
        assert mark in str(title.render())
        await pilot.press("end")
        await settle(pilot)
        assert mark not in str(title.render()) and not log.scrolled_back


@pytest.mark.parametrize("cards", [["revenge", "uprising"], ["revenge"]])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_cards_are_picked_by_the_numbers_the_hand_shows(lang: Lang, cards: list[str]) -> None:
    """K-ORD-3: playing a card when holding the order. The hand panel numbers
    the hand 1..n, but the card step numbered only the playable cards
    ("1=[Revenge] 2=[Riot]" beside a panel's "2 [Revenge]", "3 [Riot]"), and
    with one playable card it was skipped, so the digit meant for the card
    picked a seat: "c 1 Enter" gave the order to seat 1. Both go by the
    panel's numbers now."""
    # no shield in hand: the desperation cards are playable (K-ORD-3), the reactions never
    g = new_game(hands=[["capitalize"], cards, ["extortion"], ["extortion"]], deck=["plead-guilty"] * 10 + ["retaliate"] * 10)
    g.play(0, "order 1")
    pass_all(g)
    room = OverlordRoom(g, humans=(1,))
    async with table(room, 1, size=(100, 30), lang=lang) as (app, pilot, client):
        mine = list(app.screen.ov.hand or [])
        playable = sorted({a.split()[1] for a in g.legal(1) if a.startswith("play ")})
        assert playable == sorted(cards) and mine.index(cards[0]) > 0, (mine, playable)  # unplayable cards first
        for card in playable:  # each by its number in the hand, as the panel shows it
            n = mine.index(card) + 1
            assert f"{n} {card_str(card, lang)}" in hand(app)
            await pilot.press("c")
            await settle(pilot)
            assert f"{n}={card_str(card, lang)}" in prompt(app), prompt(app)
            assert f"{mine.index('plead-guilty') + 1}=" not in prompt(app)  # not playable: not offered
            await pilot.press(str(n))
            await settle(pilot)
            assert client.sent == [] and card_str(card, lang) in prompt(app).splitlines()[-1], prompt(app)  # ⏎ line
            await pilot.press("escape")
            await settle(pilot)
        card = "revenge"  # a desperation card with no seat to name
        await pilot.press("c", str(mine.index(card) + 1), "enter")
        await settle(pilot)
        assert client.sent and client.sent[-1][0] == f"play {card}", (prompt(app), mine)  # no seat: sent


async def test_a_single_card_in_hand_is_still_asked_for_by_its_number() -> None:
    """K-ORD-3: with one card in hand the card step was skipped, so "c 1 Enter
    5 Enter" (card 1, to seat 5) gave the order to seat 1, as a play-tester
    holding only [Coercion] found; with two cards the same keys meant card 1."""
    g = new_game(hands=[["capitalize"], ["sidestep"], ["extortion"], ["extortion"]], deck=[])  # no round draw
    g.play(0, "order 1")
    pass_all(g)
    room = OverlordRoom(g, humans=(1,))
    async with table(room, 1, size=(100, 30)) as (app, pilot, client):
        assert list(app.screen.ov.hand or []) == ["sidestep"]
        plays = [a for a in g.legal(1) if a.startswith("play sidestep ")]
        target = plays[-1].split()[-1]
        await pilot.press("c")
        await settle(pilot)
        assert f"1={card_str('sidestep', 'en')}" in prompt(app), prompt(app)
        await pilot.press("1", "enter")
        await settle(pilot)
        assert client.sent == []  # the card chosen: now the seat
        await pilot.press(str(int(target) + 1), "enter")  # the seat's number as shown
        await settle(pilot)
        assert client.sent and client.sent[-1][0] == f"play sidestep {target}", (client.sent, plays)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_plead_guilty_window_says_the_order_is_taken(lang: Lang) -> None:
    """K-ORD-5: the Retaliate window after a Plead Guilty read "carol (3)
    plays [Plead Guilty] → bob (2)", the arrow of giving the order."""
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    g.play(0, "order 1")
    assert "plead-guilty" in g.legal(2)
    g.play(2, "plead-guilty")
    pass_all(g)  # the others do not plead: carol's is played
    room = OverlordRoom(g, humans=(3,))
    async with table(room, 3, size=(100, 30), lang=lang) as (app, _pilot, _client):
        want = ("carol (3) plays [Plead Guilty], taking the order from bob (2): Retaliate window."
                if lang == "en" else "carol（3）打出 [認罪]，從 bob（2）手上拿走指示物：報復時機。")
        assert want in prompt(app), prompt(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_holder_who_can_only_die_is_not_told_to_pass_it_on(lang: Lang) -> None:
    """K-ORD-3: with no shield, no desperation card and no role to pass it
    with, dying is the one choice; the line said "pass it on, or die"."""
    g = new_game(hands=[["capitalize"], ["plead-guilty"], ["extortion"], ["extortion"]], deck=["retaliate"] * 20)
    g.play(0, "order 1")
    pass_all(g)
    assert g.legal(1) == ["die"], g.legal(1)
    room = OverlordRoom(g, humans=(1,))
    async with table(room, 1, size=(100, 30), lang=lang) as (app, _pilot, _client):
        assert t("ov.status.your_turn_die", lang) in prompt(app) and t("ov.status.your_turn", lang) not in prompt(app)
    g2 = new_game(hands=[["capitalize"], ["sidestep"], ["extortion"], ["extortion"]])
    g2.play(0, "order 1")
    pass_all(g2)
    async with table(OverlordRoom(g2, humans=(1,)), 1, size=(100, 30), lang=lang) as (app, _pilot, _client):
        assert t("ov.status.your_turn", lang) in prompt(app)


def test_the_coercion_gold_line_says_who_takes_it_and_from_where() -> None:
    """K-CARD-COERCION: "Bot 3（3）讓對方拿 2 元。" left 對方 and the gold's source unsaid."""
    from engine.overlord.views import Event
    from tui.overlord.words import Namer, event_text

    ev = Event(n=1, round=1, kind="choose-gold", params={"seat": 2})
    names = ["alice", "bob", "Bot 3", "dave"]
    assert event_text(ev, Namer(names, None, "zh"), "zh").plain == "Bot 3（3）讓打出 [強迫] 的人從國庫拿 2 元。"
    assert event_text(ev, Namer(names, None, "en"), "en").plain == "Bot 3 (3) lets the player of [Coercion] take 2 gold from the treasury."
    # a receiver with no card (or the Knight) is not asked (H3): the line does not say it chose
    auto = Event(n=2, round=1, kind="choose-gold", params={"seat": 2, "auto": True})
    assert event_text(auto, Namer(names, None, "zh"), "zh").plain == "Bot 3（3）不必選擇：打出 [強迫] 的人從國庫拿 2 元。"
    assert event_text(auto, Namer(names, None, "en"), "en").plain == (
        "Bot 3 (3) is not asked to choose: the player of [Coercion] takes 2 gold from the treasury."
    )


def test_the_revolution_line_says_who_was_dealt_which_role() -> None:
    """K-CARD-REVOLUTION, K-VIEW-1 (roles are public): "Roles are dealt again" alone left
    the exchange lines that follow it impossible to follow from the log."""
    from engine.overlord.views import Event
    from tui.overlord.words import Namer, event_text

    names = ["alice", "bob", "Bot 2", "dave"]
    roles = ["peasant", "overlord", "knight", "squire"]
    ev = Event(n=1, round=2, kind="revolution", params={"seat": 1, "roles": roles, "dealt": [0, 1, 3]})
    assert event_text(ev, Namer(names, None, "en"), "en").plain == (
        "Revolution! Roles are dealt again: alice (1) gets Peasant, bob (2) gets Overlord, dave (4) gets Squire."
    )
    assert event_text(ev, Namer(names, None, "zh"), "zh").plain == "革命！角色重新分配：alice（1）成為農夫、bob（2）成為領主、dave（4）成為護衛。"


async def test_the_exchange_pane_says_a_round_with_nobody_executed_moved_no_role() -> None:
    """K-CARD-REVOLUTION / K-RND-6: a Revolution before any execution ends the
    phase; the exchange moves nothing, and the pane said the last exchange of
    some earlier round (or "No role exchange yet") as if it had been skipped."""
    g = new_game(
        roles=["overlord", "peasant", "squire", "knight"],
        hands=[["sidestep"] * 4, ["revolution", "retaliate", "retaliate", "retaliate"], ["sidestep"] * 2, ["sidestep"] * 4],
        gold=[5, 0, 5, 5],
    )
    g.play(0, "order 1")
    while 1 not in g.pending() or not any(a.startswith("play revolution") for a in g.legal(1)):
        pass_all(g)
    g.play(1, "play revolution")
    while g.round == 1:
        pass_all(g)
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, size=(100, 30)) as (app, pilot, _client):
        await pilot.press("tab")  # the exchange pane
        await settle(pilot)
        sheet = sheet_of(app, "#ov-log")
        assert t("ov.exchange.title", "en", n=1) in sheet and t("ov.log.no-exchange", "en") in sheet, sheet


async def test_an_eight_seat_result_shows_every_row_at_80x24() -> None:
    """The result pane showed 5 of 8 rows under three blank rows the prompt kept
    for a game that asks nothing more."""
    roles = ["overlord", "advisor", "general", "captain", "knight", "squire", "peasant", "truant"]
    g = Game.new(roles=roles, seed=2, round_limit=3)
    room = OverlordRoom(g, humans=())
    while g.outcome() is None and room.bot_step():
        pass
    assert g.outcome() is not None
    async with table(room, 0, size=(80, 24)) as (app, _pilot, _client):
        text = screen_text(app)
        rows = [line for line in text.splitlines() if " gold " in line]
        assert len(rows) == 8, text


async def test_a_log_drawn_anew_keeps_the_earlier_rounds() -> None:
    """The view holds the last two rounds' events; a log drawn anew (F2, a return
    to the table) fetches the rounds before them, so nothing seen is lost."""
    g = Game.new(roles=[*ROLES5, "knight"], seed=1, round_limit=30)  # (bots play it to round 10)
    room = OverlordRoom(g, humans=())
    while g.round < 4 and room.bot_step():
        pass
    assert g.round == 4 and g.view(None).log[0].round == 3
    async with table(room, None, size=(120, 40)) as (app, pilot, _client):
        rows = [strip.text for strip in app.screen.query_one("#ov-log", TailLog).lines]
        assert any("Round 1" in row for row in rows) and any("Round 2" in row for row in rows)
        await pilot.press("f2")
        await settle(pilot)
        rows = [strip.text for strip in app.screen.query_one("#ov-log", TailLog).lines]
        assert any("第 1 局" in row for row in rows) and any("第 3 局" in row for row in rows), rows[:5]


@pytest.mark.parametrize(("lang", "said"), [("en", "if the Overlord has 30 gold he is crowned"), ("zh", "若領主有 30 元就加冕獲勝")])
async def test_help_says_the_rooms_coronation(lang: Lang, said: str) -> None:
    """K-RND-4: a room that chose 30 gold; the table's help said 40 whatever the room chose."""
    g = Game.new(roles=ROLES4, hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]],
                 deck=QUIET_DECK, seed=1, coronation=30)
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, lang=lang) as (app, pilot, _client):
        await pilot.press("f1")
        await settle(pilot)
        text = help_text(app)
        assert said in text and said.replace("30", "40") not in text


async def test_a_timeout_played_for_you_is_said_in_the_prompt() -> None:
    """K-TIME-1: the log says "alice (1) chooses to die." of a default the room played;
    the prompt says the time ran out and the room played it."""
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0,))
    made = room.snapshot
    counts = [0, 0, 0, 0]
    room.snapshot = lambda: made().model_copy(update={"timeouts": list(counts)})  # type: ignore[method-assign]
    async with table(room, 0, lang="zh") as (app, pilot, _client):
        assert t("table.timed_out", "zh") not in prompt(app)
        counts[0] = 1
        room.changed()
        await settle(pilot)
        assert t("table.timed_out", "zh") in prompt(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_number_that_is_no_choice_says_so_and_enter_does_not_send_another(lang: Lang) -> None:
    """The ruler types 0 (itself) for the order: nothing happened on screen, and
    Enter then gave the order to the seat highlighted (2)."""
    g = new_game(hands=[["capitalize"], ["sidestep"], ["plead-guilty"], ["extortion"]])
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, lang=lang) as (app, pilot, client):
        await pilot.press("o", "1")  # alice's own seat
        await settle(pilot)
        assert t("ov.pick.not_you", lang) in prompt(app), prompt(app)  # (it said "1 is not a choice now")
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent == [] and t("pick.enter_again", lang) in prompt(app), prompt(app)
        await pilot.press("3", "enter")  # a choice: sent as ever
        await settle(pilot)
        assert [text for text, _ in client.sent] == ["order 2"]



async def _sent_by(keys: Sequence[str], hands: list[list[str]], lang: Lang, size: tuple[int, int]) -> tuple[str, str]:
    """What seat 1 sends with ``keys`` then Enter, and the prompt before that
    Enter; a key "#card" is that card's number in the hand panel."""
    g = new_game(roles=["overlord", "squire", "captain", "peasant"], hands=hands, deck=[])
    g.play(0, "order 1")
    pass_all(g)
    room = OverlordRoom(g, humans=(1,))
    async with table(room, 1, size=size, lang=lang) as (app, pilot, client):
        mine = list(app.screen.ov.hand or [])
        keys = [str(mine.index(k[1:]) + 1) if k.startswith("#") else k for k in keys]
        await pilot.press(*keys)
        await settle(pilot)
        before = prompt(app)
        assert t("pick.not_a_choice", lang, n=keys[-1]) not in before, (keys, before)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent, (keys, before)
        return client.sent[-1][0], before


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_card_s_number_then_the_target_s_needs_no_enter_between(lang: Lang, size: tuple[int, int]) -> None:
    """K-CARD-VICTIMIZE played by keys: "c 2 3" said "3 is not a choice now"
    (the card step wanted its own Enter); a card's whole number now answers
    the card step, and the next digit is the target's, as after Enter."""
    hands = [["capitalize"], ["extortion", "victimize"], ["extortion"], ["extortion"]]
    for card in ("victimize", "extortion"):
        with_enter, _ = await _sent_by(["c", f"#{card}", "enter", "3"], hands, lang, size)
        assert with_enter.startswith(f"play {card} ")
        without, _ = await _sent_by(["c", f"#{card}", "3"], hands, lang, size)
        assert without == with_enter


async def test_a_hand_of_ten_or_more_still_takes_two_digit_card_numbers() -> None:
    """K-CARD-VICTIMIZE with 11 cards in hand: "1" may begin 10 or 11, so
    "c 1 1 3" is card 11 to the target 3, and "c 1 3" is card 1 (there is no
    card 13) to the target 3. A card with one target left takes no target
    digit: the next digit picks another card, as before."""
    size: tuple[int, int] = (100, 30)
    hands = [["capitalize"], ["extortion"] * 10 + ["victimize"], ["extortion"], ["extortion"]]
    for keys in (["c", "1", "1"], ["c", "1"]):
        sent, _ = await _sent_by([*keys, "3"], hands, "en", size)
        ref, _ = await _sent_by([*keys, "enter", "3"], hands, "en", size)
        assert sent == ref and len(sent.split()) == 3, (keys, sent)
    g = new_game(hands=[["capitalize"], ["capitalize", "victimize"], ["extortion"], ["extortion"]], deck=[])
    g.play(0, "order 1")
    pass_all(g)
    assert [a for a in g.legal(1) if "capitalize" in a] == ["play capitalize 3"]  # one target only
    async with table(OverlordRoom(g, humans=(1,)), 1, size=size) as (app, pilot, _client):
        mine = list(app.screen.ov.hand or [])
        await pilot.press("c", str(mine.index("capitalize") + 1), str(mine.index("victimize") + 1))
        await settle(pilot)
        assert app.screen.picker.step == "card" and app.screen.picker.current() == "victimize"


def _seat_rows(app: ThroneApp) -> dict[int, str]:
    panel = app.screen.query_one(SeatsPanel)
    return {v: line.plain for line, v in zip(panel.lines, panel.values, strict=True) if isinstance(v, int)}


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_every_seat_row_shows_its_gold_hand_and_the_order_whole(lang: Lang, size: tuple[int, int]) -> None:
    """K-END-1, K-END-2 (gold decides the game): at 60x20 a table with a Tax Collector and
    a long name cut every row after the role ("0 bob *  Advisor 7     …"); at
    80x24 the order's mark was cut ("◆order b…"). Names, roles and who plays a
    seat shorten; gold, hand size and the order's mark never do."""
    roles = ["overlord", "taxcollector", "squire", "peasant", "general", "advisor", "knight", "truant"]
    g = new_game(roles, gold=[12, 5, 5, 5, 5, 5, 5, 5])
    g.play(0, "order 1")
    pass_all(g)
    names = ["bob", "Bot 1", "carolinethegrt", "dave", "Bot 4", "Bot 5", "Bot 6", "Bot 7"]
    room = OverlordRoom(g, humans=(0, 2, 3), names=names)
    async with table(room, 0, size=size, lang=lang) as (app, _pilot, _client):
        panel = app.screen.query_one(SeatsPanel)
        rows = _seat_rows(app)
        head = panel.lines[0].plain
        view = g.view(0)
        assert len(rows) == 8
        for sv in view.seats:
            row = rows[sv.seat]
            assert cell_len(row) <= panel.content_size.width, row
            assert re.search(rf"\s{sv.gold}\s+{sv.hand_size}(\s|$)", row), (sv.seat, row)
            assert "…" not in row.split(f" {sv.gold} ")[-1], row  # nothing after the role is cut
        holder = next(sv.seat for sv in view.seats if sv.holds_order)
        assert rows[holder].lstrip().startswith("▶"), rows[holder]
        if t("ov.col.state", lang) in head:
            assert t("ov.state.order", lang) in rows[holder], rows[holder]
        if size == (80, 24):  # room for the state column: the order is said in words too
            assert t("ov.col.state", lang) in head and t("ov.state.order", lang) in rows[holder]
        # an executed seat keeps its mark where there is no state column
        seats = [sv.model_copy(update={"alive": False, "token": 1}) if sv.seat == 3 else sv for sv in view.seats]
        app.screen._render_seats(view.model_copy(update={"seats": seats}))
        dead = _seat_rows(app)[3]
        assert t("ov.state.dead", lang, token=1) in dead or dead.lstrip().startswith("†"), dead


def test_seat_columns_give_way_in_order() -> None:
    """Names shorten first, then who plays a seat, then the state column goes;
    roles are cut last, their rank kept."""
    from tui.overlord.table import seat_columns, short_role

    assert seat_columns(40, 14, 15, [10, 6], 5) == (13, 15, 10)  # everything whole but the long name
    assert seat_columns(30, 14, 15, [10, 6], 5) == (7, 15, 6)  # the marks alone
    assert seat_columns(24, 14, 15, [10, 6], 5) == (8, 15, 0)  # no state column
    assert seat_columns(17, 14, 15, [10, 6], 5) == (5, 11, 0)  # roles cut
    assert short_role("Tax Collector", 5, 11) == "Tax Coll… 5"
    assert short_role("懶惰鬼", 1, 6) == "懶… 1"
    assert short_role("Advisor", 7, 15) == "Advisor 7"


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_seats_are_numbered_from_1_in_the_list_the_prompt_and_by_keys(size: tuple[int, int], lang: Lang) -> None:
    """Issue 43: seat numbers start at 1. The seat list numbers alice 1 and
    dave 4; typing 4 gives dave the order (``order 3`` in the notation, which
    counts from 0), and 1, the Overlord's own seat, is said to be no choice."""
    g = new_game()
    room = OverlordRoom(g, humans=(0,))
    async with table(room, 0, size=size, lang=lang) as (app, pilot, client):
        rows = seats(app).splitlines()
        assert any(row[2:].startswith("1 ali") for row in rows), rows  # (cut at 60 columns)
        assert any(row[2:].startswith("4 dave") for row in rows), rows
        await pilot.press("o", "1")
        await settle(pilot)
        assert t("ov.pick.not_you", lang) in prompt(app), prompt(app)
        await pilot.press("4")
        await settle(pilot)
        assert "2=bob" in prompt(app) and "4=dave" in prompt(app), prompt(app)
        assert ("dave (4)" if lang == "en" else "dave（4）") in prompt(app), prompt(app)
        await pilot.press("enter")
        await settle(pilot)
        assert client.sent == [("order 3", 1)]


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_help_says_what_the_next_book_card_of_an_uprising_is(size: tuple[int, int], lang: Lang) -> None:
    """Issue 44 item 14, K-CARD-UPRISING: Uprising's "the next book card
    discarded" left the reader to guess which cards are books and what counts
    as discarding. Each card says its symbol (from the rule set), and the help
    names the book cards and says what resolves an Uprising."""
    books = [c.token for c in load_ruleset().cards if c.symbol == "book"]
    assert books and "retaliate" in books and "uprising" in books
    room = OverlordRoom(new_game(), humans=(0,))
    async with table(room, 0, size=size, lang=lang) as (app, pilot, _client):
        await pilot.press("f1")
        await settle(pilot)
        text = help_text(app)
        assert t("ov.help.uprising_title", lang) in text
        names = t("punct.list", lang).join(t(f"ov.card.{b}", lang) for b in books)
        assert t("ov.help.uprising", lang, books=names) in text
        book, shield = t("ov.symbol.book", lang), t("ov.symbol.shield", lang)
        assert t("ov.help.card_symbol", lang, card=t("ov.card.retaliate", lang), symbol=book) in text
        assert t("ov.help.card_symbol", lang, card=t("ov.card.sidestep", lang), symbol=shield) in text


def test_the_fee_said_is_the_one_the_view_carries() -> None:
    """K-XROLE-TAXCOLLECTOR: the fee comes in the seat's view (the rule set's),
    the screen copies no amount of its own."""
    from engine.overlord.notation import parse
    from tui.overlord.words import fee_note

    g = new_game(roles=["overlord", "taxcollector", "squire", "peasant"])
    view = g.view(0)
    assert view.tax_fee == g.rules.tax_fee
    dearer = view.model_copy(update={"tax_fee": 7})
    assert fee_note(parse("order 1"), dearer, "en") == t("ov.pick.fee", "en", gold=7)
