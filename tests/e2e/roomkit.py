"""Helpers for the room / reconnect / restart end-to-end tests (an extension of
``harness.py``): drive the lobby's dialogs like a user, read the truth of a
running match from the server's SQLite log, and compare table screens.

The truth: the tests open the server's database read-only-ish (SQLite WAL
allows a reader beside the server), take the unfinished match's seed and
action log and replay it with the real engine. Screens are then checked
against that truth (own card, round number, who is asked), so the tests work
whatever table screen a game uses (the plain table or a game's own table).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import Client, HarnessError, ServerProcess

from engine.api import GameTable
from engine.registry import games
from protocol.i18n import t
from server.storage import LogEntry, Storage

CLEAR_FIELD = ("\x01", "\x0b")
"""ctrl+a (start of the input) then ctrl+k (delete to the end): empties an Input."""


# -- driving the screens ------------------------------------------------------


def keys(client: Client, *names: str, pause: float = 0.12) -> None:
    """Press keys one at a time, letting the screen settle after each (forms
    move focus between keys; a human is never faster than ~10 keys/s here)."""
    for name in names:
        client.press(name)
        client.settle(quiet=pause, timeout=2.0)


def create_room(
    client: Client,
    *,
    name: str,
    seats: int = 5,
    rounds: int = 5,
    turn_timer: int = 0,
    window_timer: int = 0,
    bot_delay: str = "0",
) -> None:
    """From the lobby: ``c``, fill the create-room dialog field by field, Enter.

    Fields in focus order: room name, seats, rounds, turn timer, reaction
    timer, bot delay (the dialog's Game select stays on its first game, Sultans).
    Waits for the waiting room (its seat count line).
    """
    client.press("c")
    client.wait_for("Room name")  # the dialog's own label (the lobby's key bar says "New room" too)
    client.settle(quiet=0.2, timeout=2.0)
    client.type_text(name)
    client.settle(quiet=0.1, timeout=2.0)
    for value in (seats, rounds, turn_timer, window_timer, bot_delay):
        keys(client, "tab", *CLEAR_FIELD)
        client.type_text(str(value))
        client.settle(quiet=0.1, timeout=2.0)
    client.press("enter")
    client.wait_for(f"Seats 1/{seats}")


def add_bots(client: Client, count: int, seats: int, taken: int = 1) -> None:
    """In the waiting room, as host: ``a`` adds a bot to the first empty seat."""
    for _ in range(count):
        keys(client, "a")
    client.wait_for(f"Seats {taken + count}/{seats}")


# -- the truth from the database ---------------------------------------------


@dataclass
class Truth:
    """An unfinished match, replayed from the server's database."""

    match_id: int
    seats: list[str]  # display names by seat ("" for bots)
    log: list[LogEntry]
    table: GameTable

    def view(self, seat: int) -> Any:
        return self.table.view(seat)

    def pending(self) -> set[int]:
        return self.table.pending()

    def round_number(self) -> int:
        return int(self.view(0).round_number)

    def own_card(self, seat: int) -> str | None:
        card = self.view(seat).round.your_card
        return None if card is None else str(card)

    def asks_only(self, seat: int) -> bool:
        """Only ``seat`` decides, and it may pass: a reaction (window, detention...)
        that runs on the room's reaction timer -- with that timer off the whole
        table rests until the seat answers. The other seats still asked may only
        pass: in quick windows (S-REACT-5) the room passes for them when the window
        closes, so the log has their passes only then. ``seat`` itself has a real
        choice: were ``pass`` its only answer, the room would pass for it too when
        the window's minimum time is up, and the table would move on."""
        pending = self.pending()
        return (
            seat in pending
            and "pass" in self.table.legal(seat)
            and self.table.answers(seat) != ["pass"]
            and all(self.table.answers(other) == ["pass"] for other in pending - {seat})
        )

    def window_on(self, seat: int) -> bool:
        """A reaction window is open and waits for ``seat``."""
        rv = self.view(seat).round
        return bool(rv.phase == "window" and seat in self.table.pending())


def read_truth(server: ServerProcess) -> Truth | None:
    """The newest unfinished match in the server's database, replayed; None if none."""
    if not server.db_path.exists():
        return None
    storage = Storage(server.db_path)
    try:
        matches = storage.unfinished_matches()
    finally:
        storage.close()
    if not matches:
        return None
    match = matches[-1]
    spec = games()[match.game]
    table = spec.new_table(len(match.seats), match.seed, spec.options_model.model_validate(match.options))
    for entry in match.log:
        if entry.kind == "next-round":
            table.next_round()
        else:
            assert entry.seat is not None
            table.play(entry.seat, entry.text)
    return Truth(match.id, [s.name for s in match.seats], list(match.log), table)


def wait_truth(
    server: ServerProcess,
    predicate: Callable[[Truth], bool],
    timeout: float,
    what: str,
    client: Client | None = None,
    play_again: bool = False,
) -> Truth:
    """Poll the database until its replayed match satisfies ``predicate``
    (pumping ``client``'s screen meanwhile, shown if it never does).

    With ``play_again``, ``client`` is the room's host: a match that ends
    before ``predicate`` holds (whether a reaction ever asks a given seat
    depends on the deal) is followed by another, the host pressing ``p``."""
    deadline = time.monotonic() + timeout
    last: Truth | None = None
    while time.monotonic() < deadline:
        last = read_truth(server)
        if last is not None and predicate(last):
            return last
        if play_again and client is not None and last is None and "play again" in client.text():
            client.press("p")
            client.settle(quiet=0.3, timeout=3.0)
        if client is not None:
            client.pump(0.1)
        else:
            time.sleep(0.1)
    entries = len(last.log) if last is not None else "no match"
    shown = client.dump() if client is not None else server.log_tail()
    raise HarnessError(f"{what} not reached within {timeout}s (log: {entries})\n{shown}")


def start_match(client: Client, server: ServerProcess, timeout: float = 10.0) -> Truth:
    """The host presses ``s`` in the waiting room; the match is in the database."""
    client.press("s")
    return wait_truth(server, lambda t: True, timeout, "the match to start", client)


# -- reading table screens ----------------------------------------------------


def card_on_screen(text: str, card: str) -> bool:
    """``card`` (engine value, e.g. ``slave-driver``) shown as the viewer's own card:
    after "Your card", as the value (``slave-driver``) or its English name
    (``Slave Driver``), brackets allowed."""
    name = re.escape(card.replace("-", " "))
    flat = text.lower().replace("-", " ")
    return re.search(r"your card[\s:]*[\[<(]?" + name + r"\b", flat) is not None


def round_on_screen(text: str, number: int) -> bool:
    return re.search(rf"\bRound\s+{number}\b", text) is not None


def shows_match(client: Client, truth: Truth, seat: int) -> bool:
    """The client's screen shows the match of ``truth`` from ``seat``: the round
    number and the seat's own card."""
    text = client.text()
    card = truth.own_card(seat)
    return round_on_screen(text, truth.round_number()) and card is not None and card_on_screen(text, card)


def wait_table(client: Client, server: ServerProcess, seat: int, timeout: float = 15.0) -> Truth:
    """Wait until the client's screen agrees with the database's match (read
    again on every try, so a match still moving converges once it waits)."""
    deadline = time.monotonic() + timeout
    while True:
        truth = read_truth(server)
        if truth is not None and shows_match(client, truth, seat):
            return truth
        if time.monotonic() > deadline:
            own = truth.own_card(seat) if truth is not None else None
            rnd = truth.round_number() if truth is not None else None
            raise HarnessError(
                f"table never showed round {rnd} and own card {own!r} within {timeout}s\n{client.dump()}"
            )
        client.pump(0.1)


_CLOCK = re.compile(r"\b\d{1,2}:\d{2}\b")
_SPLIT = re.compile(r"[│┃║|]+|\s{2,}")


_BOXED = re.compile(r"^\s*[│┃║╭╰]")
# what a screen says of its own session (the room played a timeout for it before the
# restart: a new session has no such past), not of the match
_SESSION_NOTES = {t("table.timed_out", lang) for lang in ("en", "zh")}


def screen_cells(client: Client) -> set[str]:
    """The text pieces of the screen's rows outside bordered panes (the seats,
    the own card, the prompt, the header and key bar), split at wide gaps, minus
    countdowns and clock times. Bordered panes (log, chat, results) are left out:
    which of them a table shows is the screen's own state, not the match's."""
    cells: set[str] = set()
    for line in client.lines():
        if _BOXED.match(line):
            continue
        for piece in _SPLIT.split(line):
            piece = piece.strip(" ╭╮╰╯─━═▀▄█▁▔")
            if not piece or _CLOCK.search(piece) or re.search(r"\d+\s*s\b|⏱", piece) or piece in _SESSION_NOTES:
                continue
            cells.add(piece)
    return cells


def settle_screen(client: Client, quiet: float = 0.6, timeout: float = 5.0) -> None:
    client.settle(quiet=quiet, timeout=timeout)


def log_tail_has(path: Path, text: str) -> bool:
    try:
        return text in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def assert_no_traceback(server: ServerProcess) -> None:
    """The server log has no traceback (a crashed session or task); shows it if it has."""
    text = server.log_text()
    at = text.find("Traceback")
    if at >= 0:
        start = text.rfind("\n", 0, max(0, at - 300)) + 1
        raise AssertionError("traceback in the server log:\n" + text[start : at + 4000])
