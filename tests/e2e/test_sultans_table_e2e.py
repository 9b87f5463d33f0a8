"""End to end through the real OpenSSH client: the Sultans of Karaya table (issue 4).

* a player creates a room, bots fill the seats, and the player plays a whole
  match with the keyboard to the score table;
* two players in one room each see their own card and never the other's;
* a spectator's screen shows no hidden card.

The driver reads the table's prompt: on its turn it swaps with / hides to the
spare (``s s Enter``), in a window it passes (``o Enter``), and when only a
card action is allowed (manipulated, predicting) it takes the first offered
key and confirms, moving with the arrows when more must be chosen.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from harness import Client, ServerProcess

CONFIG = """
[rooms]
intermission = 0.5
"""

CARD_FORMS = {
    "sultan": ["[Sultan]", "[蘇丹]"],
    "guard": ["[Guard]", "[守衛]"],
    "assassin": ["<Assassin>", "<刺客>"],
    "slave": ["<Slave>", "<奴隸>"],
    "slave-driver": ["(Slave Driver)", "(Driver)", "(奴隸販子)", "(販子)"],
    "belly-dancer": ["(Belly Dancer)", "(Dancer)", "(肚皮舞孃)", "(舞孃)"],
    "vizier": ["(Vizier)", "(大官)"],
    "fortune-teller": ["(Fortune Teller)", "(Teller)", "(占卜師)", "(占卜)"],
}


def shown_cards(text: str) -> set[str]:
    return {card for card, forms in CARD_FORMS.items() if any(f in text for f in forms)}


def own_card(text: str) -> str | None:
    m = re.search(r"Your card: ([\[<(][^\]>)]+[\]>)])", text)
    if m is None:
        return None
    found = shown_cards(m.group(1))
    return next(iter(found)) if found else None


def set_field(c: Client, value: str) -> None:
    c.type_text("\x15")  # ctrl+u: clear the field
    c.settle(0.1)
    c.type_text(value)
    c.settle(0.1)


def create_room(c: Client, name: str, *, seats: int = 5, rounds: int = 1) -> None:
    c.press("c")
    c.wait_for("Room name")
    c.type_text(name)
    for value in (str(seats), str(rounds), "0", "30", "0"):  # seats, rounds, turn timer, reaction timer, bot delay
        c.press("tab")
        set_field(c, value)
    c.press("enter")
    c.wait_for("Seats")


def options_keys(text: str) -> list[str]:
    for line in text.splitlines():
        if "Your options:" in line:
            return re.findall(r"\s([a-z])\s\s\S", line.split("Your options:", 1)[1])
    return []


def play_step(c: Client) -> None:
    """Answer whatever the table asks of this seat now, with keys."""
    text = c.text()
    keys = options_keys(text)
    if not keys:
        return
    if ("s" in keys and "Your turn" in text) or ("Extra turn" in text and "s" in keys):
        c.press("s")
        c.settle(0.15)
        c.press("s", "enter")
    elif "o" in keys:
        c.press("o", "enter")
    else:
        c.press(keys[0])
        for _ in range(6):
            c.settle(0.15)
            c.press("enter")
            c.settle(0.15)
            if "Enter sends" not in c.text():
                break
            c.press("down")
    c.settle(0.2)


def test_a_player_plays_a_whole_match_with_bots_to_the_score_table(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path], tmp_path: Path
) -> None:
    (tmp_path / "server").mkdir(parents=True, exist_ok=True)  # the harness writes the config before creating it
    server = make_server(config=CONFIG)
    with server.client("alice", key=client_key("alice"), cols=80, rows=24) as c:
        c.wait_for(server.fingerprint)
        create_room(c, "E2E table", seats=5, rounds=5)  # a whole default match
        c.press("s")  # start: bots take the empty seats
        # the frame may arrive in several reads: wait for the whole card, not just its label
        c.wait_until(lambda c: own_card(c.text()) is not None, what="own card on the table")
        deadline = time.monotonic() + 300
        steps = 0
        while "Match result" not in c.text():
            assert time.monotonic() < deadline, c.dump()
            if options_keys(c.text()):
                steps += 1
            play_step(c)
            c.pump(0.1)
        assert steps > 0  # the player really played (turns and answers by keys)
        text = c.text()
        assert "Winners:" in text or "★" in text
        assert "Total" in text
        assert all(f"R{n}" in text for n in range(1, 6)), text  # five rounds in the score table
    assert "Traceback" not in server.log_text()


def box_card_line(text: str, name: str) -> str:
    """The card line of ``name``'s seat box on a screen (the line under its name)."""
    lines = text.splitlines()
    for i, line in enumerate(lines[:-1]):
        m = re.search(r"[ ▶●]\s?\d+ " + re.escape(name) + r"\b", line)
        if m:
            start = m.start()
            return lines[i + 1][start : start + 22].split("│")[0].strip()
    raise AssertionError(f"no seat box for {name}:\n{text}")


def hidden_card_shown(box_line: str) -> bool:
    """A face-down card shown with its name and no note mark: only one's own seat may look so."""
    m = re.match(r"▒([\[<(][^\]>)]+[\]>)])(\??)", box_line)
    return m is not None and bool(shown_cards(m.group(1))) and not m.group(2)


@contextmanager
def three_players(server: ServerProcess, client_key: Callable[[str], Path]) -> Iterator[tuple[Client, Client, Client]]:
    """alice, bob and carol logged in with their keys at 100x30."""
    with ExitStack() as stack:
        a, b, w = (
            stack.enter_context(server.client(name, key=client_key(name), cols=100, rows=30))
            for name in ("alice", "bob", "carol")
        )
        yield a, b, w


def join_ready(player: Client, host: Client, room: str) -> None:
    """``player`` joins ``room`` from the lobby and gets ready; ``host`` sees it."""
    player.wait_for(room)
    player.press("enter")  # join the highlighted room
    player.wait_for("not ready")
    player.settle(0.3)
    player.press("r")  # ready
    ready = re.compile(re.escape(player.user) + r" .*ready ✓")
    host.wait_until(lambda c: ready.search(c.text()) is not None, what=f"{player.user} is ready")


def test_two_players_see_only_their_own_card_and_a_spectator_no_hidden_card(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path], tmp_path: Path
) -> None:
    (tmp_path / "server").mkdir(parents=True, exist_ok=True)  # the harness writes the config before creating it
    server = make_server(config=CONFIG)
    with three_players(server, client_key) as (a, b, w):
        a.wait_for(server.fingerprint)
        create_room(a, "Pair table", seats=6, rounds=1)
        join_ready(b, a, "Pair table")
        w.wait_for("Pair table")
        w.press("w")  # watch
        w.settle(0.5)
        a.settle(0.5)
        a.press("s")
        a.wait_for("Your card")
        b.wait_for("Your card")
        w.wait_for("watching")
        for step in range(12):
            for c in (a, b, w):
                c.settle(0.3)
            ta, tb, tw = a.text(), b.text(), w.text()
            if "Match result" in ta or "Match result" in tb:  # the end opens over either table first
                break
            if "result" in ta.splitlines()[1] or "result" in tb.splitlines()[1]:
                continue  # a round's result over a table (its first lines): the cards are under it
            assert own_card(ta) is not None and own_card(tb) is not None, ta + "\n" + tb
            own_a = box_card_line(ta, "alice")
            assert hidden_card_shown(own_a) or not own_a.startswith("▒")  # one's own card, hidden or face up...
            assert not hidden_card_shown(box_card_line(ta, "bob"))  # ...never the other's
            assert hidden_card_shown(box_card_line(tb, "bob")) or not box_card_line(tb, "bob").startswith("▒")
            assert not hidden_card_shown(box_card_line(tb, "alice"))
            assert "Your card" not in tw  # the spectator holds nothing
            for name in ("alice", "bob"):
                line = box_card_line(tw, name)
                assert not hidden_card_shown(line), (step, name, tw)  # notes ("?") are public facts
            play_step(a)
            play_step(b)
    assert "Traceback" not in server.log_text()


def test_the_bell_rings_on_your_turn_unless_you_turned_it_off(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path], tmp_path: Path
) -> None:
    """The terminal's bell (BEL) reaches a player when the game waits for their
    decision; a player who turned it off in the settings (l) and a spectator
    get none (that the setting is kept with the key: tests/server/test_hub.py)."""
    (tmp_path / "server").mkdir(parents=True, exist_ok=True)  # the harness writes the config before creating it
    server = make_server(config=CONFIG)
    with three_players(server, client_key) as (a, b, w):
        b.wait_for(server.fingerprint)
        b.press("l")
        b.wait_for("Bell on your turn: on")
        b.press("down", "down", "enter")
        b.wait_for("Bell on your turn: off")
        b.press("escape")
        b.wait_gone("Bell on your turn")
        a.wait_for(server.fingerprint)
        create_room(a, "Bell table", seats=5, rounds=5)  # long enough for a turn of each
        join_ready(b, a, "Bell table")
        w.wait_for("Bell table")
        w.press("w")
        w.wait_for("Watching")
        a.wait_until(lambda c: "bob" in c.text() and "Watching: carol" in c.text(), what="bob seated, carol watching")
        before = (len(a.raw), len(b.raw), len(w.raw))
        a.press("s")
        a.wait_for("Your card")
        turns = {"alice": 0, "bob": 0}
        deadline = time.monotonic() + 120
        while min(turns.values()) == 0 and "Match result" not in a.text():
            assert time.monotonic() < deadline, a.dump() + b.dump()
            for name, c in (("alice", a), ("bob", b)):
                c.settle(0.2)
                if "▶ Your turn" in c.text():
                    turns[name] += 1
                play_step(c)
        w.settle(0.3)
        assert turns["alice"] and turns["bob"], turns
        osc = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")  # a BEL may also end an OSC sequence
        rang = [osc.sub(b"", bytes(c.raw[start:])) for c, start in zip((a, b, w), before, strict=True)]
        assert b"\x07" in rang[0]
        assert b"\x07" not in rang[1] and b"\x07" not in rang[2]
    assert "Traceback" not in server.log_text()


def test_a_rounds_result_stays_until_the_player_presses_enter(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path], tmp_path: Path
) -> None:
    """Issue 43: a round's result stays on the screen (the room's 30 s between
    rounds) until the one human at the table presses Enter; then the next round
    is dealt at once."""
    (tmp_path / "server").mkdir(parents=True, exist_ok=True)
    server = make_server(config="[rooms]\nbot_delay = 0\n")  # no server cap on the time between rounds
    with server.client("alice", key=client_key("alice"), cols=80, rows=24) as c:
        c.wait_for(server.fingerprint)
        create_room(c, "E2E results", seats=5, rounds=2)
        c.press("s")
        c.wait_until(lambda c: own_card(c.text()) is not None, what="own card on the table")
        deadline = time.monotonic() + 120
        while "Round 1 result" not in c.text():
            assert time.monotonic() < deadline, c.dump()
            play_step(c)
            c.pump(0.1)
        c.wait_for("Enter: go on")
        assert "Next round in" in c.text()
        c.settle(3.0)  # bots never wait: the result is still there
        text = c.text()
        assert "Round 1 result" in text and "Round 2/2" not in text, text
        c.press("enter")
        c.wait_for("Round 2/2")
        assert "Round 1 result" not in c.text().splitlines()[1]  # the result closed with the deal
    assert "Traceback" not in server.log_text()
