"""Helpers for the Sultans scenario tests (tests/sultans/test_rules_*.py)."""

from __future__ import annotations

import json

from engine.sultans import Round


def deal(cards: str, spare: str = "slave", first: int = 0, **kw: int | bool) -> Round:
    """``deal("assassin guard slave sultan slave slave", "guard")``: seat i gets word i."""
    return Round.new(deal=cards.split(), spare=spare, first=first, **kw)  # type: ignore[arg-type]


def run(r: Round, *lines: str) -> None:
    """Play log lines ``"<seat>: <action>"`` in order."""
    for line in lines:
        seat, _, act = line.partition(":")
        r.play(int(seat), act.strip())


def answer(r: Round, answers: dict[int, str] | None = None) -> None:
    """Answer the open window: the given seats with their answer, everyone else ``pass``."""
    answers = answers or {}
    for s in sorted(r.pending()):
        if s not in answers:
            r.play(s, "pass")
    for s, a in sorted(answers.items()):
        r.play(s, a)


def snapshot(r: Round) -> str:
    """Everything observable from outside: all views, pending, legal, outcome."""
    n = r.players
    data = {
        "views": [r.view(s).model_dump(mode="json") for s in [None, *range(n)]],
        "pending": sorted(r.pending()),
        "legal": [r.legal(s) for s in range(n)],
        "turn": r.turn,
        "cards": r.cards(),
        "spare": r.spare(),
    }
    return json.dumps(data, sort_keys=True)


def kinds(r: Round, seat: int | None) -> list[str]:
    """Event kinds in ``seat``'s view of the log."""
    return [e.kind for e in r.view(seat).log]


def idle(r: Round, *seats: int) -> None:
    """Each seat in turn plays its timeout default (a peek, else swap spare / hide).

    Asserts that exactly that seat is pending first, so the tests also pin turn order."""
    for s in seats:
        assert r.pending() == {s}, f"expected seat {s} to be pending, got {sorted(r.pending())}"
        r.play(s, r.timeout_action(s))
