"""Leak test over screens (issue 4, S-VIEW-1, S-VIEW-3): a whole bot-played match,
every seat's table screen (and a spectator's) rendered after changes, and no
card shown that the seat's view does not know.

Two checks per rendered screen:

* the whole screen shows a card value (``[Guard]``, ``<奴隸>``, ... in either
  language, full or short) only if the view mentions that card somewhere
  (own card, face-up cards, notes, the seat's log, round end, past rounds);
* each seat box shows a card only if the view shows that seat's card
  (``SeatView.card``) or holds a note on that seat -- and never any other card.

The match is played once by the engine's bots; its actions are then replayed
for each observer, rendering after every change for two seats and the
spectator, and after every 4th change for the others (time).
"""

from __future__ import annotations

import pytest
from fakes import screen_text, settle
from sultans_fakes import SultansClient, SultansLobby, SultansRoom

from engine.sultans.views import MatchView
from tui.app import ThroneApp
from tui.screens.round_results import RoundResults
from tui.sultans.render import known_cards_of_view
from tui.sultans.ring import TableRing
from tui.sultans.table import Table
from tui.sultans.words import all_card_strings
from tui.widgets import TailLog

CARDS = ["sultan", "guard", "assassin", "slave", "slave-driver", "belly-dancer", "vizier", "fortune-teller"]
FORMS = {card: all_card_strings(card) for card in CARDS}
PLAYERS = 9
SEED = 14  # 119 actions over 3 rounds; a round won by killing the Sultan


def shown(text: str) -> set[str]:
    return {card for card, forms in FORMS.items() if any(f in text for f in forms)}


def record_match() -> list[tuple[int, str]]:
    """Play a whole match with bots; -1 marks a next-round deal."""
    room = SultansRoom(PLAYERS, humans=(), seed=SEED, rounds=3)
    script: list[tuple[int, str]] = []
    while not room.match.is_over():
        before = len(room.acts)
        room.run_bots()
        script.extend(room.acts[before:])
        if room.match.between_rounds():
            room.match.next_round()
            script.append((-1, "next"))
    return script


SCRIPT = record_match()


def check(app: ThroneApp, room: SultansRoom, seat: int | None) -> None:
    view = room.match.view(seat)
    assert isinstance(view, MatchView)
    known = known_cards_of_view(view)
    text = screen_text(app)
    leaked = shown(text) - known
    assert not leaked, f"seat {seat} sees {leaked} at turn {view.round.turns_played}:\n{text}"
    if isinstance(app.screen, RoundResults):  # a round's result over the table: all of it, not just what shows
        sheet = app.screen.query_one(TailLog).sheet
        assert sheet is not None and not shown(sheet.plain) - known, f"seat {seat}'s round result: {sheet.plain}"
    table = app.screen
    if not isinstance(table, Table):
        return  # a round's result over the table (checked above): the table is drawn again when back on top
    ring = table.query_one(TableRing)
    rv = view.round
    notes = {n.seat: n.card for n in rv.notes}
    for sv, box in zip(rv.seats, ring.boxes, strict=True):
        box_text = "".join(line.plain for line in box.lines)
        allowed = {c for c in (sv.card, notes.get(sv.index)) if c}
        assert shown(box_text) <= allowed, f"seat {seat} sees {shown(box_text)} on seat {sv.index}: {box_text!r}"
    if seat is None and rv.phase != "over":
        assert rv.your_card is None


# every screen of three viewers (slow) and every fourth of the others
@pytest.mark.parametrize(
    ("seat", "every"),
    [*(pytest.param(seat, 1, marks=pytest.mark.slow) for seat in (0, 5, None)), (1, 4), (2, 4), (3, 4), (4, 4), (6, 4), (7, 4), (8, 4)])
async def test_no_screen_shows_a_card_its_view_does_not_know(seat: int | None, every: int) -> None:
    assert len(SCRIPT) > 60
    room = SultansRoom(PLAYERS, humans=(), seed=SEED, rounds=3)
    name = room.names[seat] if seat is not None else "zoe"
    client = SultansClient(room, seat, name)
    app = ThroneApp(SultansLobby(None, name, "zh" if seat in (3, None) else "en"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.enter_room(client, watching=seat is None)
        await settle(pilot)
        assert isinstance(app.screen, Table)
        check(app, room, seat)
        for k, (actor, text) in enumerate(SCRIPT):
            if actor == -1:
                room.next_round()
            else:
                room.play(actor, text)
            if k % every == 0 or k == len(SCRIPT) - 1:
                await pilot.pause()
                check(app, room, seat)
        assert room.match.is_over()
        await settle(pilot)
        check(app, room, seat)
        assert "★" in screen_text(app)  # the match result is on screen at the end
