"""The Kill the Overlord table never shows a card its seat does not know (K-VIEW-1).

A whole game is played by the engine's bots; then, for every seat and for a
spectator, the same game is replayed behind that seat's screen, and after every
change (every ``STEP``-th action in the long games) the screen is checked: each
card shown (card values are always bracketed, ``[Sidestep]``) must be one the
seat's own view knows -- its hand, the discard pile, cards on the table, hands
the Soothsayer showed, cards named in the events it saw (public plays and
discards, its own draws, cards it gave or received). The private hands of the
other seats must not appear otherwise. Now and then the seat opens its help
(F1), which must name (bracketed) exactly the seat's own hand.
"""

from __future__ import annotations

import pytest
from fakes import screen_text, settle
from overlord_fakes import OverlordClient, OverlordLobby, OverlordRoom

from engine.overlord import Game, OverlordView
from engine.overlord.bots import make_bot
from tui.app import ThroneApp
from tui.overlord.catalogue import CARDS_EN
from tui.overlord.help import OverlordHelp
from tui.overlord.table import Table
from tui.overlord.words import card_str

ALL = list(CARDS_EN)


def known_cards(v: OverlordView) -> set[str]:
    """Every card the view names: what this seat may know."""
    out: set[str] = set(v.hand or []) | set(v.discard) | {c.card for c in v.chain}
    if v.banned:
        out.add(v.banned)
    if v.prompt is not None and v.prompt.card:
        out.add(v.prompt.card)
    for sv in v.seats:
        if sv.shown is not None:
            out.update(sv.shown.cards)
    for ev in [*v.log, *v.notes]:
        for key in ("card", "returned"):
            c = ev.params.get(key)
            if isinstance(c, str):
                out.add(c)
        cards = ev.params.get("cards")
        if isinstance(cards, list):
            out.update(str(c) for c in cards)
    return out


def shown_cards(text: str) -> set[str]:
    return {c for c in ALL if card_str(c, "en") in text or card_str(c, "zh") in text}


def bot_game(players: int, seed: int, rounds: int, expansion: tuple[int, ...] = ()) -> tuple[Game, list[tuple[int, str]]]:
    g = Game.random(players, seed, expansion_ranks=expansion, round_limit=rounds)
    bots = {s: make_bot(s, "heuristic" if s % 2 else "random", seed + s) for s in range(players)}
    acts: list[tuple[int, str]] = []
    while g.outcome() is None and len(acts) < 3000:
        seat = sorted(g.pending())[0]
        a = bots[seat].act(g.view(seat), g.legal(seat), True) or g.timeout_action(seat)
        g.play(seat, a)
        acts.append((seat, a))
    assert g.outcome() is not None
    return g, acts


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "seed", "rounds", "expansion"),
    [(5, 11, 2, ()), (6, 4, 2, (6, 4, 3))],  # base roles; Soothsayer, Bureaucrat, Merchant
)
async def test_no_screen_shows_a_card_its_seat_does_not_know(
    players: int, seed: int, rounds: int, expansion: tuple[int, ...]
) -> None:
    done, acts = bot_game(players, seed, rounds, expansion)
    step = max(1, len(acts) // 24)  # a dense sample: about 24 screens per viewer
    leaks_possible = helps = 0
    for viewer in [*range(players), None]:
        g = Game.random(players, seed, expansion_ranks=expansion, round_limit=rounds)
        room = OverlordRoom(g, humans=tuple(range(players)))
        name = room.names[viewer] if viewer is not None else "zoe"
        client = OverlordClient(room, viewer, name)
        app = ThroneApp(OverlordLobby(client, name, "en" if viewer != 1 else "zh"))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            if viewer is None:
                app.enter_room(client, watching=True)
                await settle(pilot)
            assert isinstance(app.screen, Table)
            for i, (seat, action) in enumerate(acts):
                room.play(seat, action)
                if i % step and i != len(acts) - 1:
                    continue
                await settle(pilot)
                view = g.view(viewer)
                text = screen_text(app)
                known = known_cards(view)
                shown = shown_cards(text)
                assert shown <= known, (viewer, i, shown - known, text)
                # the other seats' private cards this viewer does not know stay off the screen
                private = {c for s in range(players) if s != viewer for c in g.hands[s]} - known
                leaks_possible += len(private)
                assert not (shown & private)
                if (i // step) % 6 == 3:  # now and then the help (F1), which names the seat's own hand
                    await pilot.press("f1")
                    await settle(pilot)
                    assert isinstance(app.screen, OverlordHelp)
                    in_help = shown_cards(app.screen.text.plain)
                    assert in_help == set(view.hand or []), (viewer, i, in_help)
                    helps += 1
                    await pilot.press("escape")
                    await settle(pilot)
        assert g.outcome() == done.outcome()
    assert leaks_possible > 0  # the check had hidden cards to catch
    assert helps >= 2 * (players + 1)
