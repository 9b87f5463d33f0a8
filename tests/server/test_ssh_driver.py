"""The Textual driver over an SSH channel (server/sshdriver.py), without SSH:
a SessionTerminal with an in-memory ``write`` runs a small real App."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static

from server.sshdriver import (
    ALT_SCREEN_OFF,
    ALT_SCREEN_ON,
    CURSOR_HIDE,
    CURSOR_SHOW,
    FOCUS_ON,
    MOUSE_ON,
    PASTE_ON,
    SYNC_QUERY,
    SessionTerminal,
    SSHDriver,
)


class RecorderApp(App[None]):
    """Records what reaches it."""

    def __init__(self, driver_class: type[SSHDriver]) -> None:
        super().__init__(driver_class=driver_class)
        self.keys: list[tuple[str, str | None]] = []
        self.pastes: list[str] = []
        self.clicks: list[tuple[int, int]] = []
        self.focus_events: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("constant-label", id="constant")
        yield Static("first", id="changing")

    def on_key(self, event: events.Key) -> None:
        self.keys.append((event.key, event.character))

    def on_paste(self, event: events.Paste) -> None:
        self.pastes.append(event.text)

    def on_click(self, event: events.Click) -> None:
        self.clicks.append((event.screen_x, event.screen_y))

    def on_app_focus(self, event: events.AppFocus) -> None:
        self.focus_events.append("focus")

    def on_app_blur(self, event: events.AppBlur) -> None:
        self.focus_events.append("blur")


async def until(cond: Callable[[], bool], timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not cond():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


class Running:
    def __init__(self, out: bytearray, term: SessionTerminal, app: RecorderApp, task: asyncio.Task[Any]) -> None:
        self.out = out
        self.term = term
        self.app = app
        self.task = task

    def text(self) -> str:
        return self.out.decode("utf-8", "replace")


@pytest.fixture
async def running() -> AsyncIterator[Running]:
    out = bytearray()
    term = SessionTerminal(out.extend, (80, 24))
    app = RecorderApp(term.driver_class)
    task = asyncio.create_task(app.run_async(size=term.size))
    await until(lambda: app.is_running and "constant-label" in out.decode("utf-8", "replace"))
    yield Running(out, term, app, task)
    if not task.done():
        app.exit()
        await asyncio.wait_for(task, 5)


async def test_start_sets_terminal_modes_and_stop_restores(running: Running) -> None:
    text = running.text()
    for seq in (ALT_SCREEN_ON, CURSOR_HIDE, PASTE_ON, FOCUS_ON, MOUSE_ON):
        assert seq in text
    assert "\x1b[?1003h" not in text  # no any-motion mouse tracking
    assert "\x1b[?1002h" not in text
    running.app.exit()
    await asyncio.wait_for(running.task, 5)
    tail = running.text()[len(text):]
    assert ALT_SCREEN_OFF in tail and CURSOR_SHOW in tail
    assert "\x1b[?2004l" in tail and "\x1b[?1000l" in tail


async def test_app_gets_the_session_size_not_the_server_terminal(running: Running) -> None:
    assert tuple(running.app.size) == (80, 24)


async def test_plain_and_cjk_input_even_split_mid_character(running: Running) -> None:
    data = "a你好".encode()
    running.term.feed(data[:2])  # 'a' plus the first byte of 你
    running.term.feed(data[2:5])
    running.term.feed(data[5:])
    await until(lambda: len(running.app.keys) >= 3)
    assert [c for _, c in running.app.keys[:3]] == ["a", "你", "好"]


async def test_invalid_utf8_becomes_replacement_character(running: Running) -> None:
    running.term.feed(b"\xff")
    await until(lambda: bool(running.app.keys))
    assert running.app.keys[0][1] == "\ufffd"


async def test_lone_escape_is_delivered_by_the_timer(running: Running) -> None:
    running.term.feed(b"\x1b")
    await until(lambda: bool(running.app.keys), timeout=2)
    assert running.app.keys == [("escape", "\x1b")]


async def test_arrows_enter_and_ctrl_keys(running: Running) -> None:
    running.term.feed(b"\x1b[A\x1b[B\r\x03")
    await until(lambda: len(running.app.keys) >= 4)
    assert [k for k, _ in running.app.keys] == ["up", "down", "enter", "ctrl+c"]


async def test_bracketed_paste(running: Running) -> None:
    running.term.feed(b"\x1b[200~hello \xe4\xb8\x96\xe7\x95\x8c\n2nd\x1b[201~")
    await until(lambda: bool(running.app.pastes))
    assert running.app.pastes == ["hello 世界\n2nd"]
    assert running.app.keys == []  # pasted text is not typed


async def test_a_paste_with_escapes_arrives_whole_and_in_order(running: Running) -> None:
    """Textual's parser read the ESC inside a paste as a sequence that never
    ended and typed the rest ahead of the paste: the chat got "^[31mBB^[0mCCAA"."""
    running.term.feed(b"\x1b[200~AA\x1b[31mBB\x1b[0mCC\x1b]52;c;eA==\x07DD\x1b\x1b[201~x")
    await until(lambda: bool(running.app.pastes) and bool(running.app.keys))
    assert running.app.pastes == ["AABBCCDD"]
    assert [k for k, _ in running.app.keys] == ["x"]  # typed after the paste; nothing of it typed


def test_the_paste_filter_finds_its_markers_split_anywhere() -> None:
    from server.sshdriver import PASTE_MAX, PasteFilter

    stream = "ab\x1b[A\x1b[200~p\x1b[1mq\x1b[201~c\x1b\x1b[200~r\x1b[201~"
    want = "ab\x1b[A\x1b[200~pq\x1b[201~c\x1b\x1b[200~r\x1b[201~"
    for cut in range(len(stream) + 1):
        for cut2 in range(cut, len(stream) + 1):
            f = PasteFilter()
            parts = [stream[:cut], stream[cut:cut2], stream[cut2:]]
            assert "".join(f.feed(p) for p in parts) == want, (cut, cut2)
    f = PasteFilter()  # outside a paste nothing waits: a lone Escape key goes straight on
    assert f.feed("\x1b") == "\x1b" and f.feed("[200~") == "[200~"  # (a start marker, split)
    assert f.feed("\x1b[1mz\x1b[201~") == "z\x1b[201~"
    f = PasteFilter()  # a paste without end is held, at most PASTE_MAX of it
    assert f.feed("\x1b[200~" + "x" * (3 * PASTE_MAX)) == "\x1b[200~"
    assert f.feed("y\x1b[201~") == "x" * PASTE_MAX + "\x1b[201~"
    # a byte at a time: each input looked at once (joining the held paste on
    # every input made a 64 K paste sent that way cost billions of steps)
    f = PasteFilter()
    stream = "\x1b[200~" + "z" * (PASTE_MAX + 100) + "\x1b[201~q"
    assert "".join(f.feed(ch) for ch in stream) == "\x1b[200~" + "z" * PASTE_MAX + "\x1b[201~q"
    f = PasteFilter()  # exactly PASTE_MAX, its marker a byte at a time: nothing of the paste lost
    stream = "\x1b[200~" + "w" * PASTE_MAX + "\x1b[201~"
    assert "".join(f.feed(ch) for ch in stream) == stream


async def test_mouse_click_and_focus_reports(running: Running) -> None:
    running.term.feed(b"\x1b[<0;5;2M\x1b[<0;5;2m\x1b[I\x1b[O")
    await until(lambda: bool(running.app.clicks) and len(running.app.focus_events) == 2)
    assert running.app.clicks == [(4, 1)]
    assert running.app.focus_events == ["focus", "blur"]


async def test_window_change_resizes_the_app(running: Running) -> None:
    running.term.resize(120, 40)
    await until(lambda: tuple(running.app.size) == (120, 40))
    running.term.resize(0, 0)  # nonsense from a client: fall back, do not crash
    await until(lambda: tuple(running.app.size) == (80, 24))


async def test_input_before_the_driver_starts_is_kept() -> None:
    out = bytearray()
    term = SessionTerminal(out.extend, (80, 24))
    term.feed(b"xy")
    app = RecorderApp(term.driver_class)
    task = asyncio.create_task(app.run_async(size=term.size))
    try:
        await until(lambda: len(app.keys) >= 2)
        assert [c for _, c in app.keys] == ["x", "y"]
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)


async def test_back_pressure_drops_frames_then_repaints_everything(running: Running) -> None:
    term, app, out = running.term, running.app, running.out
    term.pause_writing()
    before = len(out)
    app.query_one("#changing", Static).update("second")
    await until(lambda: term.dropped_frames > 0)
    await asyncio.sleep(0.1)
    assert len(out) == before  # nothing written while paused
    term.resume_writing()
    await until(lambda: "second" in out[before:].decode("utf-8", "replace"))
    repaint = out[before:].decode("utf-8", "replace")
    # a full repaint, not only the widget that changed
    assert "constant-label" in repaint
    assert term.dropped_frames == 0


async def test_writes_stop_when_the_channel_breaks() -> None:
    calls: list[bytes] = []

    def write(data: bytes) -> None:
        calls.append(data)
        if len(calls) > 3:
            raise BrokenPipeError

    term = SessionTerminal(write, (80, 24))
    app = RecorderApp(term.driver_class)
    task = asyncio.create_task(app.run_async(size=term.size))
    await until(lambda: term.closed)
    n = len(calls)
    app.exit()
    await asyncio.wait_for(task, 5)
    assert len(calls) == n  # no further attempts once broken
    assert task.done() and task.exception() is None


async def test_close_releases_the_parser(running: Running) -> None:
    driver = running.app._driver
    assert isinstance(driver, SSHDriver)
    running.app.exit()
    await asyncio.wait_for(running.task, 5)
    assert driver._parser is None
    running.term.feed(b"late input")  # after the App is gone: ignored, no error
    assert running.app.keys == []


def test_each_session_gets_its_own_driver_class() -> None:
    a = SessionTerminal(lambda _b: None)
    b = SessionTerminal(lambda _b: None)
    assert a.driver_class is not b.driver_class
    assert a.driver_class.terminal is a and b.driver_class.terminal is b
    assert issubclass(a.driver_class, SSHDriver)


def test_input_flood_is_capped() -> None:
    from server.sshdriver import INPUT_BURST

    term = SessionTerminal(lambda _b: None)
    term.feed(b"x" * (10 * INPUT_BURST))  # before the App starts: kept, but capped
    kept = sum(len(chunk) for chunk in term._pending_input)
    assert kept <= INPUT_BURST
    assert term.dropped_input >= 9 * INPUT_BURST
    term.feed(b"more")  # the budget refills with time; right away nothing is left
    assert sum(len(chunk) for chunk in term._pending_input) <= INPUT_BURST + 4


async def test_normal_typing_and_a_long_paste_get_through(running: Running) -> None:
    text = "長" * 20_000  # 60 KB of UTF-8 in one paste
    running.term.feed(b"\x1b[200~" + text.encode() + b"\x1b[201~")
    await until(lambda: bool(running.app.pastes))
    assert running.app.pastes == [text]
    assert running.term.dropped_input == 0


class ThreeFields(App[None]):
    def __init__(self, driver_class: type[SSHDriver]) -> None:
        super().__init__(driver_class=driver_class)

    def compose(self) -> ComposeResult:
        from textual.widgets import Input

        yield Input(id="a")
        yield Input(id="b")
        yield Input(id="c", type="integer")


async def test_keys_in_one_packet_follow_the_focus_they_move() -> None:
    """Fast typing over a laggy link arrives as one packet: ``Tab Tab BS 8``
    must edit the third field, not the one the Tabs left (Textual alone would
    forward every key to the widget focused when they were posted)."""
    from textual.widgets import Input

    out = bytearray()
    term = SessionTerminal(out.extend, (80, 24))
    app = ThreeFields(term.driver_class)
    task = asyncio.create_task(app.run_async(size=term.size))
    await until(lambda: app.is_running and app.focused is not None)
    term.feed(b"\t\t\x7f8\t\tx9")
    await until(lambda: app.query_one("#b", Input).value == "x9")
    assert [w.value for w in app.query(Input)] == ["", "x9", "8"]
    app.exit()
    await asyncio.wait_for(task, 5)


async def test_first_frame_is_reported_after_the_screen_is_written_not_the_set_up() -> None:
    """``on_first_frame`` (the server logs the time to it; the warm-up waits for
    it) comes once the App's first frame is written: the writes before it only
    set the terminal up (modes, the pointer's shape: ``ESC ] 22``); once only."""
    out = bytearray()
    seen: list[str] = []
    term = SessionTerminal(out.extend, (80, 24))
    term.on_first_frame = lambda: seen.append(out.decode("utf-8", "replace"))
    app = RecorderApp(term.driver_class)
    task = asyncio.create_task(app.run_async(size=term.size))
    try:
        await until(lambda: bool(seen))
        assert "constant-label" in seen[0] and "first" in seen[0]  # the frame was written before the call
        assert ALT_SCREEN_ON in seen[0]
        app.query_one("#changing", Static).update("second")
        await until(lambda: "second" in out.decode("utf-8", "replace"))
        assert len(seen) == 1
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)


@contextlib.asynccontextmanager
async def each_write() -> AsyncIterator[tuple[list[bytes], SessionTerminal, RecorderApp]]:
    """A running app whose terminal keeps each write (each is an SSH packet)."""
    writes: list[bytes] = []
    term = SessionTerminal(writes.append, (80, 24))
    app = RecorderApp(term.driver_class)
    task = asyncio.create_task(app.run_async(size=term.size))
    try:
        yield writes, term, app
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)


async def test_the_terminal_is_set_up_in_one_write() -> None:
    """Each write is an SSH packet: the modes go in one."""
    async with each_write() as (writes, _term, _app):
        await until(lambda: any(b"constant-label" in w for w in writes))
        first = writes[0].decode()
        for seq in (ALT_SCREEN_ON, CURSOR_HIDE, MOUSE_ON, PASTE_ON, FOCUS_ON, SYNC_QUERY):
            assert seq in first


async def test_a_synchronised_frame_is_one_write() -> None:
    """A terminal that supports synchronised output (kitty, WezTerm, iTerm2,
    foot, Windows Terminal...) gets each frame as Textual's three writes
    (start, text, end); they leave as one, so one SSH packet per frame."""
    async with each_write() as (writes, term, app):
        await until(lambda: any(b"first" in w for w in writes))
        assert not app._sync_available
        term.feed(b"\x1b[?2026;2$y")  # DECRPM: mode 2026 supported
        await until(lambda: app._sync_available)
        before = len(writes)
        app.query_one("#changing", Static).update("second")
        await until(lambda: any(b"second" in w for w in writes[before:]))
        await asyncio.sleep(0.05)
        frames = [w for w in writes[before:] if b"second" in w]
        assert frames
        for frame in frames:
            assert frame.startswith(b"\x1b[?2026h") and frame.endswith(b"\x1b[?2026l")
        assert all(w.count(b"\x1b[?2026h") == w.count(b"\x1b[?2026l") == 1 for w in writes[before:])
