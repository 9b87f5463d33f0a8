"""Round results that stay, every past round's result, the match's result and
the whole log (issue 43 "Round ends and events you can't miss"; issue 44 items 6
and 7), at 80x24 and 60x20 in both languages."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fakes import screen_text, settle
from overlord_fakes import OverlordClient, OverlordLobby, OverlordRoom
from sultans_fakes import SultansClient, SultansLobby, SultansRoom
from table_fakes import open_table
from test_overlord_table import exchange_game

import tui.table_common
from protocol.i18n import Lang, t
from tui.overlord.table import Table as OverlordTable
from tui.screens.lobby import LobbyScreen
from tui.screens.match_log import MatchLog
from tui.screens.round_results import RoundResults
from tui.sultans.table import Table as SultansTable
from tui.sultans.words import all_card_strings
from tui.widgets import TailLog

SIZES = [(80, 24), (60, 20)]
LANGS: list[Lang] = ["en", "zh"]
DEAL = ["sultan", "assassin", "slave", "guard", "slave"]


def sultans(rounds: int = 2, humans: tuple[int, ...] = (0, 2)) -> SultansRoom:
    """alice (0) holds the Sultan; bob (1) an Assassin and plays first; carol (2) is human too."""
    return SultansRoom(5, deal=DEAL, first=1, humans=humans, rounds=rounds)


def kill_the_sultan(room: SultansRoom) -> None:
    """bob kills alice's Sultan and nobody blocks: the round is over (S-WIN-1)."""
    room.play(1, "assassinate 0")
    for s in (0, 2, 3, 4):
        room.play(s, "pass")


def play_out_round(room: SultansRoom) -> None:
    """Every pending seat plays its timeout default until the round ends."""
    while not room.match.round.over:
        seat = sorted(room.match.pending())[0]
        room.play(seat, room.match.timeout_action(seat))


def body(app: Any) -> str:
    sheet = app.screen.query_one(TailLog).sheet
    assert sheet is not None
    return str(sheet.plain)


def at(app: Any, size: tuple[int, int], seat: int | None, lang: Lang, room: Any, **kw: Any) -> Any:
    return open_table(room, seat, SultansClient, SultansLobby, SultansTable, size=size, lang=lang, results=True, **kw)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_a_rounds_result_stays_until_every_human_went_on(size: tuple[int, int], lang: Lang) -> None:
    """S-WIN-1's round end: who won and why, every card and its trail, the round's
    points and the totals, over the table until carol and alice both pressed Enter."""
    room = sultans()
    async with at(None, size, 0, lang, room) as (app, pilot, client):
        kill_the_sultan(room)
        await settle(pilot)
        assert isinstance(app.screen, RoundResults)
        text = screen_text(app)
        assert t("table.results.round", lang, n=1) in text
        assert t("table.break.go_on", lang) in text and t("table.break.next_in", lang, s="")[:4] in text
        assert t("table.break.waiting", lang, names="carol") in text
        sheet = body(app)
        rebels = t("sk.side.rebels", lang)
        assert t("sk.end.winner", lang, side=rebels, reason=t("sk.reason.sultan-killed", lang)) in sheet
        assert t("sk.end.points", lang) in sheet and t("sk.end.trails", lang) in sheet
        assert t("sk.match.after", lang, n=1) in sheet  # the running totals
        await pilot.press("enter")
        await settle(pilot)
        assert client.gone_on == 1 and room.went_on == {0}
        assert isinstance(app.screen, RoundResults)  # still there: carol reads it
        text = screen_text(app)
        assert t("table.break.ready", lang) in text and t("table.break.go_on", lang) not in text
        room.go_on(2)  # the last human at the table: the next round is dealt
        await settle(pilot)
        assert not isinstance(app.screen, RoundResults) and room.match.round_number == 2
        assert app.screen.query_one("#sk-head").render().plain.count("2/2") == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_a_spectator_sees_the_result_but_does_not_hold_the_table(size: tuple[int, int], lang: Lang) -> None:
    room = sultans()
    async with at(None, size, None, lang, room) as (app, pilot, client):
        kill_the_sultan(room)
        await settle(pilot)
        assert isinstance(app.screen, RoundResults)
        text = screen_text(app)
        assert t("table.break.go_on", lang) not in text and t("table.break.waiting", lang, names="alice")[:3] in text
        await pilot.press("enter")
        await settle(pilot)
        assert client.gone_on == 0 and room.went_on == set()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_f4_reopens_every_past_rounds_result(size: tuple[int, int], lang: Lang) -> None:
    room = sultans(rounds=3)
    kill_the_sultan(room)
    room.next_round()
    play_out_round(room)
    room.next_round()
    async with at(None, size, 2, lang, room) as (app, pilot, _client):
        assert not isinstance(app.screen, RoundResults)  # round 3 is being played
        await pilot.press("f4")
        await settle(pilot)
        assert isinstance(app.screen, RoundResults) and app.screen.number == 2
        # the title names the round; its body does not say it again (seen over ssh: twice, one under the other)
        assert screen_text(app).count(t("table.results.round", lang, n=2)) == 1
        assert ("(2/2)" if lang == "en" else "（2/2）") in screen_text(app)  # which of the results, in the language's brackets
        assert t("sk.end.title", lang, n=2) not in body(app)
        assert t("sk.match.after", lang, n=2) in body(app)
        await pilot.press("left")
        await settle(pilot)
        assert app.screen.number == 1 and t("table.results.round", lang, n=1) in screen_text(app)
        sheet = body(app)
        assert t("sk.end.winner", lang, side=t("sk.side.rebels", lang), reason=t("sk.reason.sultan-killed", lang)) in sheet
        assert t("table.break.go_on", lang) not in screen_text(app)  # no round waits
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, SultansTable)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_the_match_result_is_unmistakable_and_says_what_comes_next(size: tuple[int, int], lang: Lang) -> None:
    """Issue 44 items 6 and 7: the match's winner with their total and the
    standings, apart from the last round's line; a player who is not the host is
    told what the host may do and what they can do now."""
    room = sultans(rounds=1)
    kill_the_sultan(room)
    mv = room.match.view(2)
    assert mv.over and mv.winners
    async with at(None, size, 2, lang, room) as (app, pilot, _client):
        assert isinstance(app.screen, RoundResults)
        assert t("sk.match.title", lang) in screen_text(app)
        sheet = body(app)
        total = max(mv.totals)
        names = "、" if lang == "zh" else ", "
        key = "sk.match.champions" if len(mv.winners) > 1 else "sk.match.champion"
        from tui.sultans.words import Namer

        winners = Namer(room.names, 2, lang).seats(mv.winners)
        assert t(key, lang, names=winners, total=total) in sheet
        assert t("sk.match.standings", lang, list="")[:3] in sheet and names  # the standings
        await pilot.press("escape")
        await settle(pilot)
        text = screen_text(app)
        assert t(key, lang, names=winners, total=total)[:20] in text  # the prompt's first line
        assert t("sk.status.match_over", lang) in text  # what comes next (item 6)
        assert t("sk.status.match_over_you", lang) in text  # what this player can do
        assert t("sk.match.last_round", lang, n=1, text="")[:6] in text  # the round's line, named as the last round's


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_the_whole_log_is_searchable(size: tuple[int, int], lang: Lang) -> None:
    room = sultans(rounds=2)
    kill_the_sultan(room)
    room.next_round()
    async with at(None, size, 0, lang, room) as (app, pilot, _client):
        await pilot.press("f3")
        await settle(pilot)
        log = app.screen
        assert isinstance(log, MatchLog)
        plain = [line.plain for line in log.lines]
        rule1 = t("sk.head.round", lang, n=1, of=2)
        assert any(rule1 in line for line in plain) and any(t("sk.head.round", lang, n=2, of=2) in line for line in plain)
        dealt = [i for i, line in enumerate(plain) if t("sk.log.private", lang) in line]
        assert len(dealt) >= 2  # this seat's private lines, in both rounds
        await pilot.press("slash")
        await settle(pilot)
        word = "bob"
        for ch in word:
            await pilot.press(ch)
        await pilot.press("enter")
        await settle(pilot)
        hits = [i for i, line in enumerate(plain) if word.casefold() in line.casefold()]
        assert log.hit == hits[-1]  # the newest first
        assert t("log.found", lang, text=word, i=1, n=len(hits)) in screen_text(app)
        await pilot.press("n")
        await settle(pilot)
        assert log.hit == (hits[-2] if len(hits) > 1 else hits[-1])
        await pilot.press("slash")
        for ch in "zzqx":
            await pilot.press(ch)
        await pilot.press("enter")
        await settle(pilot)
        assert t("log.not_found", lang, text="zzqx") in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, SultansTable)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_a_spectator_at_the_match_end_is_not_told_to_keep_a_seat(size: tuple[int, int], lang: Lang) -> None:
    """Issue 44 item 6 for a watcher (seen over ssh: carol, watching, read "Stay
    to keep your seat"): what comes next, in words for someone without a seat."""
    room = sultans(rounds=1)
    kill_the_sultan(room)
    async with at(None, size, None, lang, room) as (app, _pilot, _client):
        assert isinstance(app.screen, RoundResults)
        sheet = body(app)
        assert t("sk.match.again_watch", lang) in sheet and t("sk.match.again_wait", lang) not in sheet
    g = exchange_game(round_limit=2)
    while not g.is_over():
        seat = sorted(g.pending())[0]
        g.play(seat, g.timeout_action(seat))
    oroom = OverlordRoom(g, humans=(0, 1))
    async with open_table(oroom, None, OverlordClient, OverlordLobby, OverlordTable, size=size, lang=lang, results=True) as (
        app, _pilot, _client,
    ):
        assert isinstance(app.screen, RoundResults)
        sheet = body(app)
        assert t("ov.result.again_watch", lang) in sheet and t("ov.result.again_wait", lang) not in sheet


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_overlord_the_game_end_is_the_result_and_each_rounds_end_reopens(size: tuple[int, int], lang: Lang) -> None:
    """Kill the Overlord: a game is the match; its end (K-END-1, K-END-2) is the
    result that stays, and each round's executions and role exchange (K-RND-6)
    can be opened again."""
    g = exchange_game(round_limit=2)
    while not g.is_over():
        seat = sorted(g.pending())[0]
        g.play(seat, g.timeout_action(seat))
    room = OverlordRoom(g, humans=(0, 1))
    async with open_table(room, 1, OverlordClient, OverlordLobby, OverlordTable, size=size, lang=lang, results=True) as (
        app, pilot, _client,
    ):
        assert isinstance(app.screen, RoundResults) and app.screen.number == 2
        assert t("ov.results.game", lang) in screen_text(app)
        await pilot.press("left")
        await settle(pilot)
        assert app.screen.number == 1
        assert t("ov.results.round", lang, n=1) in screen_text(app)
        assert t("ov.exchange.title", lang, n=1) in body(app)
        await pilot.press("escape")
        await settle(pilot)
        text = screen_text(app)
        assert t("ov.status.over_wait", lang) in text and t("ov.status.over_you", lang) in text


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_a_death_stands_out_and_shows_above_the_log_for_a_few_seconds(
    size: tuple[int, int], lang: Lang, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-DIE-1's death is marked in the log (▶, bold) and shows on the pane's
    title row, then goes; a turn line is not marked."""
    import tui.table_common

    monkeypatch.setattr(tui.table_common, "BANNER_SECONDS", 2.0)
    room = sultans(rounds=2, humans=(2,))
    async with at(None, size, 2, lang, room) as (app, pilot, _client):
        title = app.screen.query_one("#sk-pane-title").render().plain  # type: ignore[attr-defined]
        assert "▶" not in title  # the screen's first draw: nothing is news
        room.play(1, "assassinate 0")  # the Assassin is revealed (S-REACT)
        await settle(pilot)
        title = app.screen.query_one("#sk-pane-title").render().plain  # type: ignore[attr-defined]
        assert "▶" in title and "bob" in title
        await pilot.pause(3.2)  # the banner's time, and a tick of the clock
        await settle(pilot)
        assert "▶" not in app.screen.query_one("#sk-pane-title").render().plain  # type: ignore[attr-defined]
        # (closing the round's result takes a loaded machine more than 2 s: the banner lasts longer now)
        monkeypatch.setattr(tui.table_common, "BANNER_SECONDS", 8.0)
        for s in (0, 3, 4):
            room.play(s, "pass")
        room.play(2, "pass")
        await close_results_only(app, pilot)
        title = app.screen.query_one("#sk-pane-title").render().plain  # type: ignore[attr-defined]
        assert "▶" in title  # the round's end (or the death before it), above the log
        rows = [strip.text for strip in app.screen.query_one("#sk-log", TailLog).lines]
        dies = [row for row in rows if t("sk.end.dead", lang) in row or "▶" in row]
        assert dies and all(row.split()[1] == "▶" for row in rows if "▶" in row)
        turn = t("sk.log.turn", lang, n=1)
        assert not any(row.startswith(turn) and "▶" in row and row.split()[-1].endswith("turn.") for row in rows)
        await pilot.pause(9.2)  # the banner's time, and a tick of the clock
        await settle(pilot)
        title = app.screen.query_one("#sk-pane-title").render().plain  # type: ignore[attr-defined]
        assert "▶" not in title


async def close_results_only(app: Any, pilot: Any) -> None:
    from table_fakes import close_results

    await close_results(app, pilot)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_why_lines_on_the_players_own_log(size: tuple[int, int], lang: Lang) -> None:
    """S-GRD-2: alice's block was not needed (carol blocked first, clockwise from
    the Assassin): her log says so and that her card stays hidden; the room's
    why-line for a timed-out answer follows the answer; carol's and a
    spectator's logs have neither."""
    from protocol.contract import WhyNote

    room = SultansRoom(5, deal=["guard", "assassin", "guard", "sultan", "slave"], first=1, humans=(0, 2), rounds=2)
    room.play(1, "assassinate 3")
    room.play(0, "block")
    room.play(2, "block")
    room.play(3, "pass")
    answered = len(room.match.round_log(1, 4))
    room.play(4, "pass")
    room.why[4] = [WhyNote(round=1, after=answered + 1, key="why.timeout_pass")]
    names = {0: "alice", 2: "carol", 4: "erin"}
    unused = t("sk.ev.block-unused.hidden", lang, target=t("sk.seat", lang, name="carol", n=3))  # seat 2, shown as 3
    for seat in (0, 2, None):
        async with at(None, size, seat, lang, room) as (app, pilot, _client):
            await close_results_only(app, pilot)
            await pilot.press("f3")
            await settle(pilot)
            plain = [line.plain for line in app.screen.lines]
            assert any(unused in line for line in plain) == (seat == 0), (seat, names.get(seat or 0))
            assert not any(t("why.timeout_pass", lang) in line for line in plain)
    room.seats[4].kind = "human"
    async with at(None, size, 4, lang, room) as (app, pilot, _client):
        await close_results_only(app, pilot)
        await pilot.press("f3")
        await settle(pilot)
        plain = [line.plain for line in app.screen.lines]
        at_line = next(i for i, line in enumerate(plain) if t("why.timeout_pass", lang) in line)
        assert t("sk.ev.answer", lang, answer=t("sk.answer.pass", lang)) in plain[at_line - 1]  # right after the answer
        await pilot.press("escape")
        await settle(pilot)
        rows = [strip.text for strip in app.screen.query_one("#sk-log", TailLog).lines]
        assert any(t("why.timeout_pass", lang)[:8] in row for row in rows)  # the pane too


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_q_on_a_round_result_does_what_its_key_bar_says(size: tuple[int, int], lang: Lang) -> None:
    """q closed an open round result while the player had read "q Leave match"
    on the table: the result's bar says q goes back to the table (as Esc), q does
    that and nothing more; on the table q then asks about leaving the match."""
    from tui.screens.dialogs import ConfirmDialog
    from tui.widgets import KeyBar

    room = sultans()
    async with at(None, size, 0, lang, room) as (app, pilot, _client):
        kill_the_sultan(room)
        await settle(pilot)
        assert isinstance(app.screen, RoundResults)
        bar = [b for b in app.screen.query(KeyBar) if b.display][-1]
        assert ("Esc/q", t("results.key.table", lang)) in bar.pairs, bar.plain()
        assert all(label for _key, label in bar.pairs) and "…" not in bar.plain(), bar.plain()
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, SultansTable) and room.went_on == set()
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        assert t("confirm.leave_match", lang)[:10] in screen_text(app)


@pytest.mark.parametrize("lang", LANGS)
async def test_the_hosts_p_and_o_are_on_the_game_results_key_bar(lang: Lang) -> None:
    """The game's result says "Press p to play again, o to change the settings" and
    both keys work there; its key bar named neither. At 80 columns the host's bar
    has them (at 60 the result's own line says them: tests/tui/test_key_bars.py);
    another player's has none."""
    from tui.widgets import KeyBar

    g = exchange_game(round_limit=2)
    while not g.is_over():
        seat = sorted(g.pending())[0]
        g.play(seat, g.timeout_action(seat))
    room = OverlordRoom(g, humans=(0, 1))
    for seat, host in ((0, True), (1, False)):
        async with open_table(room, seat, OverlordClient, OverlordLobby, OverlordTable, size=(80, 24), lang=lang,
                              results=True) as (app, _pilot, _client):
            assert isinstance(app.screen, RoundResults)
            pairs = [b for b in app.screen.query(KeyBar) if b.display][-1].pairs
            keys = {("p", t("key.play_again", lang)), ("o", t("key.reopen", lang))}
            assert (keys <= set(pairs)) == host, pairs
            assert ("Esc/q", t("results.key.table", lang)) in pairs


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_a_quick_pass_shows_the_why_line_alone(size: tuple[int, int], lang: Lang) -> None:
    """S-REACT-5: the room accepted bob's detention for him (his only answer): his
    log said "You answered: accept the detention." and then "You had nothing to
    answer: the room passed for you."; only the why-line stays, in the full log
    and the pane. carol's log and a spectator's are as without the note."""
    from protocol.contract import WhyNote

    room = SultansRoom(5, deal=["guard", "slave", "assassin", "sultan", "slave"], first=0, humans=(1, 2), rounds=2)
    room.play(0, "detain 1")
    room.play(1, "pass")
    answered = t("sk.ev.answer", lang, answer=t("sk.answer.accept", lang))
    why = t("why.quick_pass", lang)

    async def logs(seat: int | None) -> tuple[list[str], list[str]]:
        async with at(None, size, seat, lang, room) as (app, pilot, _client):
            pane = [strip.text for strip in app.screen.query_one("#sk-log", TailLog).lines]
            await pilot.press("f3")
            await settle(pilot)
            return [line.plain for line in app.screen.lines], pane

    bare = {seat: await logs(seat) for seat in (1, 2, None)}
    assert any(answered in line for line in bare[1][0])  # what the room's note replaces
    room.why[1] = [WhyNote(round=1, after=len(room.match.round_log(1, 1)), key="why.quick_pass")]
    full, pane = await logs(1)
    assert any(why in line for line in full), full
    assert not any(answered in line for line in full), full
    assert any(why[:8] in row for row in pane) and not any(answered[:12] in row for row in pane), pane
    assert [line for line in full if why not in line] == [line for line in bare[1][0] if answered not in line]
    for seat in (2, None):
        assert await logs(seat) == bare[seat]
        assert not any(why in line or answered in line for line in bare[seat][0])


async def test_a_why_line_follows_the_action_not_the_next_turns_first_line() -> None:
    """S-TIME-1's default (a peek) played for alice: her log's why-line comes
    after the peek and what she saw, before "bob's turn." that the same action
    brought."""
    from protocol.contract import WhyNote

    room = SultansRoom(5, deal=DEAL, first=0, humans=(0,), rounds=2)
    room.play(0, room.match.timeout_action(0))
    after = len(room.match.round_log(1, 0))
    assert room.match.round_log(1, 0)[-1].kind == "turn"
    room.why[0] = [WhyNote(round=1, after=after, key="why.timeout")]
    async with at(None, (80, 24), 0, "en", room) as (app, pilot, _client):
        await pilot.press("f3")
        await settle(pilot)
        plain = [line.plain for line in app.screen.lines]
        k = next(i for i, line in enumerate(plain) if t("why.timeout", "en") in line)
        assert "turn" in plain[k + 1] and "turn" not in plain[k - 1], plain[k - 1 : k + 2]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_the_hosts_p_and_o_work_in_the_game_result_as_it_says(size: tuple[int, int], lang: Lang) -> None:
    """The game's result tells the host "Press p to play again, o to change the
    settings": both keys do that from the result (they did nothing there)."""
    g = exchange_game(round_limit=2)
    while not g.is_over():
        seat = sorted(g.pending())[0]
        g.play(seat, g.timeout_action(seat))
    room = OverlordRoom(g, humans=(0, 1))
    async with open_table(room, 0, OverlordClient, OverlordLobby, OverlordTable, size=size, lang=lang, results=True) as (
        app, pilot, client,
    ):
        assert isinstance(app.screen, RoundResults)
        assert t("ov.result.again_host", lang) in body(app)
        await pilot.press("p")
        await settle(pilot)
        assert client.again == 1 and not isinstance(app.screen, RoundResults)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", ["sultans", "overlord"])
async def test_the_match_results_way_back_to_the_lobby_is_the_one_the_keys_take(
    game: str, size: tuple[int, int], lang: Lang
) -> None:
    """A seated player's match result said "press Esc to go back to the lobby",
    but Esc there goes back to the table (its key bar: "Esc/q Table"); the line
    says Esc at the table, and the two Escs do what it says."""
    if game == "sultans":
        room: Any = sultans(rounds=1)
        kill_the_sultan(room)
        opened = at(None, size, 2, lang, room)
        key, table = "sk.match.again_wait", SultansTable
    else:
        g = exchange_game(round_limit=2)
        while not g.is_over():
            seat = sorted(g.pending())[0]
            g.play(seat, g.timeout_action(seat))
        room = OverlordRoom(g, humans=(0, 1))
        opened = open_table(room, 1, OverlordClient, OverlordLobby, OverlordTable, size=size, lang=lang, results=True)
        key, table = "ov.result.again_wait", OverlordTable
    async with opened as (app, pilot, client):
        assert isinstance(app.screen, RoundResults)
        said = t(key, lang)
        assert said in body(app) and ("at the table" in said if lang == "en" else "在牌桌上按 Esc" in said)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, table) and client.listener is not None  # the first Esc: the table, in the room
        await pilot.press("escape")
        await settle(pilot)
        assert client.listener is None and isinstance(app.screen, LobbyScreen)  # the second: the lobby


async def test_a_rounds_result_draws_no_table_through_itself() -> None:
    """A round's end opens its result on every screen of the room at once, and
    its countdown redraws it each second: a translucent screen blended the table
    under it into every frame (7 ms each; 15 screens a room stalled the host for
    a second, `./manage bench load`). It is opaque, and so is the whole log."""
    room = sultans()
    async with at(None, (80, 24), 0, "en", room) as (app, pilot, _client):
        kill_the_sultan(room)
        await settle(pilot)
        assert isinstance(app.screen, RoundResults)
        assert app.screen.styles.background.a == 1
        await pilot.press("escape", "f3")
        await settle(pilot)
        assert isinstance(app.screen, MatchLog) and app.screen.styles.background.a == 1


async def test_a_result_is_made_once_when_it_opens_for_the_width_it_has(monkeypatch: pytest.MonkeyPatch) -> None:
    """It opens on every screen of a room at once: each made the result three
    times as it opened (once before it had a width, once after its layout, once
    at its first Resize)."""
    widths: list[int | None] = []
    made = SultansTable.result_body

    def counted(self: SultansTable, number: int, width: int | None = None) -> Any:
        widths.append(width)
        return made(self, number, width)

    monkeypatch.setattr(SultansTable, "result_body", counted)
    room = sultans()
    async with at(None, (80, 24), 0, "en", room) as (app, pilot, _client):
        kill_the_sultan(room)
        await settle(pilot)
        assert isinstance(app.screen, RoundResults)
        assert len(widths) == 1 and widths[0] is not None and widths[0] > 60
        assert t("sk.end.points", "en") in body(app)


async def test_a_session_that_ends_with_a_result_open_closes_without_an_error() -> None:
    """Textual closes a session's screens from the top: the result's widgets
    were gone while the table beneath still ticked and asked the result to
    draw its countdown (`./manage bench load`: every session of a room that
    had a result open when the players left "crashed", with a traceback)."""
    room = sultans()
    async with at(None, (80, 24), 0, "en", room) as (app, pilot, _client):
        kill_the_sultan(room)
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, RoundResults)
        await app._prune(dialog)  # as App._close_all does at the session's end
        assert not dialog.children
        table = app.screen_stack[-2]
        assert isinstance(table, SultansTable)
        table._tick()  # the table's countdown, still running
        dialog.show()


@pytest.mark.parametrize("lang", LANGS)
async def test_a_table_under_its_result_is_drawn_again_when_it_is_back_on_top(lang: Lang, monkeypatch: pytest.MonkeyPatch) -> None:
    """A round's end drew the table of every screen of the room (the round's
    cards, its log), then opened the result over each, and every change in
    the break drew the hidden table again (`./manage bench load`: a room's
    round end kept the host busy ~0.5 s, the actions of other rooms waited).
    The table under its result is not drawn; Esc shows it as the round ended,
    and the next round's deal shows on it once the result has gone."""
    drawn: list[str] = []
    draw = SultansTable._render_ring

    def counted(self: SultansTable, mv: Any) -> None:
        drawn.append(type(self.app.screen).__name__)
        draw(self, mv)

    monkeypatch.setattr(SultansTable, "_render_ring", counted)
    room = sultans()
    async with at(None, (80, 24), 0, lang, room) as (app, pilot, _client):
        drawn.clear()
        kill_the_sultan(room)
        await settle(pilot)
        assert isinstance(app.screen, RoundResults)
        room.go_on(2)  # a change in the break: carol went on
        await settle(pilot)
        assert drawn == []  # 5 passes, the end and carol: none drawn under the result
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, SultansTable) and drawn == ["Table"]
        text = screen_text(app)  # the round as it ended: who won, and dave's Guard, hidden until then
        rebels = t("sk.side.rebels", lang)
        assert t("sk.end.winner", lang, side=rebels, reason=t("sk.reason.sultan-killed", lang)) in text
        assert any(form in text for form in all_card_strings("guard"))
        await pilot.press("f4")
        await settle(pilot)
        assert isinstance(app.screen, RoundResults)
        await pilot.press("enter")  # alice goes on too: round 2 is dealt, its result closes
        await settle(pilot)
        assert not isinstance(app.screen, RoundResults) and room.match.round_number == 2
        assert app.screen.query_one("#sk-head").render().plain.count("2/2") == 1  # type: ignore[attr-defined]
        assert drawn[-1] == "Table"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
async def test_the_tables_break_line_counts_down_with_its_clock(
    size: tuple[int, int], lang: Lang, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Back at the table from a round's result (Esc), its "Next round in 27 s"
    stood still while the clock in its header counted down (by 5 s): the line
    is drawn again as its seconds change, and the clock gives the same."""
    room = sultans()
    async with at(None, size, 0, lang, room) as (app, pilot, _client):
        kill_the_sultan(room)
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        table = app.screen
        assert isinstance(table, SultansTable) and table.snap is not None and table.snap.deadline is not None
        left = round(table.snap.deadline - time.time())
        assert any(t("table.break.next_in", lang, s=s) in screen_text(app) for s in (left, left + 1))
        now = time.time()
        on = 7 if (left - 7) % 5 else 8  # seconds on, to a time the 5-s steps do not show
        monkeypatch.setattr(tui.table_common.time, "time", lambda: now + on)
        table._tick()  # the clock's next tick
        await settle(pilot)
        left = max(0, round(table.snap.deadline - now - on))
        text = screen_text(app)
        assert t("table.break.next_in", lang, s=left) in text
        assert t(table.COUNTDOWN_TEXT, lang, s=left) in text  # the header's clock: the same, to the second
