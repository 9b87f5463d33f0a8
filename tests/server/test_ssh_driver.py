"""The Textual driver over an SSH channel (server/sshdriver.py), without SSH:
a SessionTerminal with an in-memory ``write`` runs a small real App."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import weakref
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static

from server.config import LimitsSection
from server.ratelog import WARNINGS, RateLimitedLog
from server.sshdriver import (
    ALT_SCREEN_OFF,
    ALT_SCREEN_ON,
    CURSOR_HIDE,
    CURSOR_SHOW,
    FOCUS_ON,
    MOUSE_ON,
    PARSE_SLICE,
    PASTE_ON,
    SYNC_QUERY,
    Pasted,
    PasteFilter,
    Piece,
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
        self.resizes: list[tuple[int, int]] = []

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

    def on_resize(self, event: events.Resize) -> None:
        self.resizes.append((event.size.width, event.size.height))


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


def _joined(pieces: list[Piece]) -> str:
    """A PasteFilter's output as one string, each paste as <P:text>."""
    return "".join(f"<P:{p.text}>" if isinstance(p, Pasted) else p for p in pieces)


def test_the_paste_filter_finds_its_markers_split_anywhere() -> None:
    paste_max = LimitsSection().paste_max
    S, E = "\x1b[200~", "\x1b[201~"
    stream = "ab\x1b[A" + S + "p\x1b[1mq" + E + "c\x1b" + S + "r" + E
    want = "ab\x1b[A" + S + E + "<P:pq>c\x1b" + S + E + "<P:r>"
    for cut in range(len(stream) + 1):
        for cut2 in range(cut, len(stream) + 1):
            f = PasteFilter(paste_max)
            parts = [stream[:cut], stream[cut:cut2], stream[cut2:]]
            assert "".join(_joined(f.feed(p)) for p in parts) == want, (cut, cut2)
    f = PasteFilter(paste_max)  # outside a paste nothing waits: a lone Escape key goes straight on
    assert f.feed("\x1b") == ["\x1b"] and f.feed("[200~") == ["[200~" + E]  # (a start marker, split)
    assert _joined(f.feed("\x1b[1mz" + E)) == "<P:z>"
    f = PasteFilter(paste_max)  # a paste without end is held, at most paste_max of it
    assert _joined(f.feed(S + "x" * (3 * paste_max))) == S + E
    assert _joined(f.feed("y" + E)) == "<P:" + "x" * paste_max + ">"
    # a byte at a time: each input looked at once (joining the held paste on
    # every input made a 64 K paste sent that way cost billions of steps)
    f = PasteFilter(paste_max)
    stream = S + "z" * (paste_max + 100) + E + "q"
    assert "".join(_joined(f.feed(ch)) for ch in stream) == S + E + "<P:" + "z" * paste_max + ">q"
    f = PasteFilter(paste_max)  # exactly paste_max, its marker a byte at a time: nothing of the paste lost
    stream = S + "w" * paste_max + E
    assert "".join(_joined(f.feed(ch)) for ch in stream) == S + E + "<P:" + "w" * paste_max + ">"


def test_a_paste_whose_end_marker_was_dropped_still_ends() -> None:
    """Issue 45 finding 3: the input budget dropped a long paste's end marker and
    every later key went into the paste. Dropped input still counts for markers."""
    S, E = "\x1b[200~", "\x1b[201~"
    f = PasteFilter(10)
    assert _joined(f.feed(S + "abc")) == S + E
    assert _joined(f.skip("lots more" + E[:3])) == ""  # dropped; the marker split across inputs
    assert _joined(f.skip(E[3:] + "typed after")) == "<P:abc>"
    assert not f.open
    assert f.feed("k") == ["k"]
    # a start in dropped input, its end in kept input: the paste is read from there
    assert _joined(f.skip("xx" + S + "gone")) == ""
    assert f.open
    assert _joined(f.feed("kept" + E + "j")) == "<P:kept>j"
    # a whole paste dropped: nothing opens
    assert _joined(f.skip(S + "all" + E + "z")) == "" and not f.open


def test_a_paste_whose_end_never_comes_expires_with_what_it_has() -> None:
    f = PasteFilter(10)
    f.feed("\x1b[200~" + "p" * 30)
    assert _joined(f.expire()) == "<P:" + "p" * 10 + ">"
    assert not f.open and f.feed("k") == ["k"]
    assert f.expire() == []


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


async def test_each_session_gets_a_driver_of_its_own_terminal() -> None:
    a = SessionTerminal(lambda _b: None, (90, 28))
    b = SessionTerminal(lambda _b: None)
    app = App[None]()
    driver = a.driver_class(app, debug=False, mouse=True, size=None)  # as Textual's App makes it
    assert isinstance(driver, SSHDriver)
    assert driver._term is a and b.driver_class(app)._term is b
    assert driver._size == (90, 28)


def test_a_terminal_is_freed_by_reference_counting() -> None:
    """Issue 45, memory over an evening: each session's terminal made a class of
    its own, and a class is a reference cycle (with its ``__mro__``): the
    terminal, with the input and counters it held, stayed until a full
    collection of the server's whole heap (~11 objects a session)."""
    gc.disable()
    try:
        term = SessionTerminal(lambda _b: None)
        made = term.driver_class
        gone = weakref.ref(term)
        del term, made
        assert gone() is None
    finally:
        gc.enable()


def test_a_closed_terminal_no_longer_holds_its_session() -> None:
    """Issue 45, memory over an evening: the session's callbacks on its terminal
    (its writer, first frame, flood) made a cycle with the session that holds
    the terminal, its App and channel with it, that only a full collection of
    the server's heap freed; closed, the terminal lets go of them, and the
    session is freed by reference counting."""

    class Session:
        def __init__(self) -> None:
            self.terminal = SessionTerminal(self.write)
            self.terminal.on_first_frame = self.drawn
            self.terminal.on_flood = self.drawn

        def write(self, data: bytes) -> None:
            pass

        def drawn(self) -> None:
            pass

    gc.disable()
    try:
        session = Session()
        gone = weakref.ref(session)
        session.terminal.close()
        session.terminal.write("late frame")  # dropped: the terminal is closed
        del session
        assert gone() is None
    finally:
        gc.enable()


def test_input_flood_is_capped() -> None:
    INPUT_BURST = LimitsSection().input_burst
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


# -- hostile input (issue 45, finding 1) ------------------------------------------


@pytest.fixture
async def small() -> AsyncIterator[Running]:
    """A session whose limits clamp sizes to 100x30."""
    out = bytearray()
    term = SessionTerminal(out.extend, (80, 24), LimitsSection(max_cols=100, max_rows=30, resize_interval=0.2))
    app = RecorderApp(term.driver_class)
    task = asyncio.create_task(app.run_async(size=term.size))
    await until(lambda: app.is_running and "constant-label" in out.decode("utf-8", "replace"))
    yield Running(out, term, app, task)
    if not task.done():
        app.exit()
        await asyncio.wait_for(task, 5)


async def test_an_in_band_resize_goes_through_the_same_clamp_as_a_window_change(small: Running) -> None:
    """``ESC[48;rows;cols;ph;pwt`` typed into a terminal skipped the clamp window
    changes get: 20000x20000 froze every session for seconds."""
    small.term.feed(b"\x1b[48;120;400;2400;4000t")
    await until(lambda: bool(small.app.resizes))
    await asyncio.sleep(0.3)
    assert tuple(small.app.size) == (100, 30)
    assert small.term.size == (100, 30)
    small.term.resize(5000, 5000)  # and a window change: the same clamp
    await until(lambda: small.app.resizes[-1] == (100, 30) and len(small.app.resizes) >= 1)
    assert max(w for w, _ in small.app.resizes) <= 100 and max(h for _, h in small.app.resizes) <= 30


async def test_a_zero_pixel_size_then_mouse_reports_log_no_traceback(
    small: Running, caplog: pytest.LogCaptureFixture
) -> None:
    """A zero pixel size made Textual's parser divide each later mouse report by
    zero: a traceback per report (7,624 in 10 s). Reports stay in cells."""
    caplog.set_level(logging.DEBUG)
    small.term.feed(b"\x1b[48;20;60;0;0t" + b"\x1b[<0;5;2M\x1b[<0;5;2m" * 50)
    await until(lambda: len(small.app.clicks) >= 50)
    assert small.app.clicks[0] == (4, 1)
    assert "Traceback" not in caplog.text and "ZeroDivision" not in caplog.text


async def test_input_the_parser_chokes_on_is_one_warning_per_interval_with_a_count(
    running: Running, caplog: pytest.LogCaptureFixture
) -> None:
    """``ESC[99999999u`` (a code point past Unicode) raised in Textual's parser;
    each one logged a traceback. Now: one warning line, no traceback, and the
    session still reads keys."""
    caplog.set_level(logging.DEBUG)
    saved = WARNINGS.interval
    WARNINGS.interval = 3600.0
    WARNINGS._kinds.pop("parse-error", None)
    try:
        for _ in range(40):
            running.term.feed(b"\x1b[99999999u")
        running.term.feed(b"k")
        await until(lambda: ("k", "k") in running.app.keys)
    finally:
        WARNINGS.interval = saved
    lines = [r for r in caplog.records if "parser could not read" in r.getMessage()]
    assert len(lines) == 1
    assert "Traceback" not in caplog.text and not any(r.exc_info for r in caplog.records)


def test_a_rate_limited_warning_says_how_many_were_left_out(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    warnings = RateLimitedLog(10.0, clock=lambda: now[0])
    logger = logging.getLogger("test.ratelog")
    caplog.set_level(logging.WARNING, logger="test.ratelog")
    written = [warnings.warn(logger, "kind", "bad %s", i) for i in range(5)]
    assert written == [True, False, False, False, False]
    now[0] = 11.0
    assert warnings.warn(logger, "kind", "bad %s", 5)
    assert warnings.warn(logger, "other", "another kind")  # counted per kind
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ["bad 0", "bad 5 (4 more like it in the last 11 s)", "another kind"]


async def test_resizes_in_a_burst_are_coalesced_into_the_last(small: Running) -> None:
    """Each resize redraws the whole screen: a client sending window changes in a
    loop must not make the server draw each one."""
    before = len(small.app.resizes)
    for i in range(60):
        small.term.resize(40 + i, 20)
    await until(lambda: small.app.resizes[-1:] == [(99, 20)])
    await asyncio.sleep(0.3)
    assert len(small.app.resizes) - before <= 3
    assert tuple(small.app.size) == (99, 20)


def test_a_frame_over_the_byte_cap_is_dropped_and_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    WARNINGS._kinds.pop("frame-bytes", None)
    sent: list[bytes] = []
    term = SessionTerminal(sent.append, (80, 24), LimitsSection(max_frame_bytes=64 * 1024))
    term.write("x" * (64 * 1024))
    for _ in range(5):
        term.write("y" * (64 * 1024 + 1))
    assert [len(b) for b in sent] == [64 * 1024]
    assert term.oversized_frames == 5
    assert sum("max_frame_bytes" in r.getMessage() for r in caplog.records) == 1


# -- floods and pastes (issue 45, findings 2 and 3) -------------------------------


@pytest.fixture
async def queued() -> AsyncIterator[Running]:
    """A session with a short input queue and a short paste timeout."""
    out = bytearray()
    limits = LimitsSection(input_queue=32, paste_timeout=0.3, input_flood_timeout=0)
    term = SessionTerminal(out.extend, (80, 24), limits)
    app = RecorderApp(term.driver_class)
    task = asyncio.create_task(app.run_async(size=term.size))
    await until(lambda: app.is_running and "constant-label" in out.decode("utf-8", "replace"))
    yield Running(out, term, app, task)
    if not task.done():
        app.exit()
        await asyncio.wait_for(task, 5)


def _driver(r: Running) -> SSHDriver:
    driver = r.app._driver
    assert isinstance(driver, SSHDriver)
    return driver


async def test_a_paste_over_the_input_burst_ends_and_later_keys_arrive(running: Running) -> None:
    """Finding 3: a paste over ~128 KB left the session deaf (the budget dropped
    its end marker, and every later key went into the paste)."""
    burst = running.term.limits.input_burst
    running.term.feed(b"\x1b[200~" + b"x" * (burst + 70_000) + b"\x1b[201~")
    running.term.feed(b"k")  # over the budget too, right away: dropped
    await until(lambda: bool(running.app.pastes))
    assert running.app.pastes == ["x" * running.term.limits.paste_max]
    await asyncio.sleep(0.3)  # the budget refills
    running.term.feed(b"k")
    await until(lambda: ("k", "k") in running.app.keys)


async def test_a_paste_whose_end_never_comes_ends_after_the_timeout(queued: Running) -> None:
    queued.term.feed(b"\x1b[200~half a paste")
    await until(lambda: bool(queued.app.pastes), timeout=3)
    assert queued.app.pastes == ["half a paste"]
    queued.term.feed(b"k")
    await until(lambda: ("k", "k") in queued.app.keys)


async def test_long_csi_parameters_do_not_become_a_key_each(queued: Running) -> None:
    """Finding 2: ``ESC[`` and 100,000 digits became ~100,000 keys."""
    queued.term.feed(b"\x1b[" + b"1" * 60_000)
    queued.term.feed(b"1" * 40_000 + b"u")
    await asyncio.sleep(0.2)
    queued.term.feed(b"k")
    await until(lambda: ("k", "k") in queued.app.keys)
    assert len(queued.app.keys) < 40


async def test_a_mouse_report_flood_stays_bounded_and_does_not_backlog_input(queued: Running) -> None:
    """Finding 2: keys and mouse reports queued faster than the App read them
    (RSS 131 -> 750 MB over a minute; 40k mouse reports backlogged input for
    minutes). The queue, the text held for the parser and the time to drain
    them are bounded; the excess is dropped."""
    driver = _driver(queued)
    limits = queued.term.limits
    peak = [0, 0]
    for _ in range(20):
        queued.term.feed(b"\x1b[<0;5;2M\x1b[<0;5;2m" * 200)  # 400 reports a packet
        peak[0] = max(peak[0], len(driver._inbox))
        peak[1] = max(peak[1], driver._unparsed_chars)
        await asyncio.sleep(0.01)
    assert queued.term.dropped_input > 0
    assert peak[0] <= limits.input_queue + 2 * PARSE_SLICE
    assert peak[1] <= 4 * limits.input_queue + 2 * limits.paste_max
    await until(lambda: not driver._inbox and not driver._unparsed, timeout=10)
    queued.term.feed(b"k")
    await until(lambda: ("k", "k") in queued.app.keys, timeout=2)


async def test_input_dropped_for_the_flood_timeout_calls_on_flood() -> None:
    """A sustained flood ends the session (the server says why: see test_ssh_server)."""
    limits = LimitsSection(input_rate=1024, input_burst=4096, input_flood_timeout=0.3)
    term = SessionTerminal(lambda _b: None, (80, 24), limits)
    flooded: list[bool] = []
    term.on_flood = lambda: flooded.append(True)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 1.0
    while loop.time() < deadline and not flooded:
        term.feed(b"y" * 2048)
        await asyncio.sleep(0.02)
    assert flooded == [True]
    quiet = SessionTerminal(lambda _b: None, (80, 24), limits)  # a paste over the burst, once: no flood
    quiet.on_flood = lambda: flooded.append(False)
    quiet.feed(b"z" * 8192)
    await asyncio.sleep(0.4)
    quiet.feed(b"z")
    assert flooded == [True]


async def test_typed_text_over_the_held_bound_keeps_what_fits(queued: Running) -> None:
    """A terminal without bracketed paste sends a paste as typed text: what fits
    of it (four times ``input_queue`` characters) is kept, the rest dropped."""
    queued.term.feed(b"a" * 500)
    room = 4 * queued.term.limits.input_queue
    await until(lambda: len(queued.app.keys) >= room)
    await asyncio.sleep(0.2)
    assert len(queued.app.keys) == room
    assert queued.term.dropped_input == 500 - room
