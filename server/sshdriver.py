"""A Textual :class:`~textual.driver.Driver` that runs an App over one SSH channel.

One :class:`SessionTerminal` per SSH session sits between the transport and
the App: the transport calls :meth:`SessionTerminal.feed` with raw input
bytes, :meth:`~SessionTerminal.resize` on window changes and
:meth:`~SessionTerminal.pause_writing` / :meth:`~SessionTerminal.resume_writing`
for flow control; the App writes through the driver to the terminal's
``write`` callback. The App builds its driver itself from a class, so each
session hands the App its own subclass (:attr:`SessionTerminal.driver_class`)
that knows the terminal.

Everything runs on the event loop's thread; parsed events are posted with
``app.post_message`` (no thread hops). Facts this relies on are written down
in ``docs/textual-over-ssh.md``.
"""

from __future__ import annotations

import asyncio
import codecs
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import constants, events
from textual._ansi_sequences import SYNC_END, SYNC_START
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from server.config import LimitsSection
from server.ratelog import WARNINGS
from server.sanitize import strip_escapes

if TYPE_CHECKING:
    from textual.app import App

log = logging.getLogger("throneroom.sshdriver")

# Terminal modes set on start and reset on stop.
ALT_SCREEN_ON = "\x1b[?1049h"
ALT_SCREEN_OFF = "\x1b[?1049l"
CURSOR_HIDE = "\x1b[?25l"
CURSOR_SHOW = "\x1b[?25h"
PASTE_ON = "\x1b[?2004h"
PASTE_OFF = "\x1b[?2004l"
FOCUS_ON = "\x1b[?1004h"
FOCUS_OFF = "\x1b[?1004l"
WRAP_OFF = "\x1b[?7l"
WRAP_ON = "\x1b[?7h"
# Clicks (and the wheel) only, SGR coordinates: no motion tracking, which costs a
# large share of a core per busy session.
MOUSE_ON = "\x1b[?1000h\x1b[?1006h"
MOUSE_OFF = "\x1b[?1000l\x1b[?1006l"
SYNC_QUERY = "\x1b[?2026$p"
"""Ask whether the terminal supports synchronised output (Textual uses it if so)."""
# Textual writes a frame as three writes when the terminal said yes: SYNC_START,
# the frame's text, SYNC_END (:meth:`SSHDriver.write` sends them as one).

DEFAULT_SIZE = (80, 24)

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
PASTE_MAX = 64 * 1024
"""Characters of one bracketed paste kept (a chat line takes a few hundred)."""


class PasteFilter:
    """Takes the escape characters out of a bracketed paste before Textual's
    parser sees it. The parser reads an ESC inside a paste as the start of a
    sequence that never ends, and sends the paste's rest as keys ahead of the
    paste itself: ``AA<ESC>[31mBB`` reached the chat as ``^[31mBBAA``. A paste
    is held until its end marker (Textual sends it whole then anyway); its
    escape sequences are dropped, as the chat drops them from typed text.
    Each input is looked at once (a paste sent a byte per packet costs no
    more than one sent whole), and at most PASTE_MAX of a paste is kept."""

    _EDGE = len(PASTE_END) - 1  # a marker's first part, at the end of one input

    def __init__(self) -> None:
        self._paste: list[str] | None = None  # the paste being read, or None outside one
        self._kept = 0  # characters in ``_paste``
        self._tail = ""  # the last input's last few characters: a marker's first part maybe

    def feed(self, text: str) -> str:
        out: list[str] = []
        while text:
            seen = self._tail + text
            if self._paste is None:
                at = seen.find(PASTE_START)
                if at < 0:
                    out.append(text)
                    self._tail = seen[-self._EDGE:]
                    return "".join(out)
                cut = at + len(PASTE_START) - len(self._tail)  # where the marker ends in ``text``
                out.append(text[:cut])
                self._paste, self._kept = [], 0
            else:
                at = seen.find(PASTE_END)
                if at < 0:
                    self._hold(text)
                    self._tail = seen[-self._EDGE:]
                    return "".join(out)
                body = "".join(self._paste)
                if at < len(self._tail):  # the marker began in the last input: its first part was held
                    body = body[: len(body) - (len(self._tail) - at)]
                else:
                    body += text[: at - len(self._tail)]
                out.append(_strip_paste(body[:PASTE_MAX]) + PASTE_END)
                cut = at + len(PASTE_END) - len(self._tail)
                self._paste = None
            text = text[cut:]
            self._tail = ""
        return "".join(out)

    def _hold(self, text: str) -> None:
        """Keep what fits of a paste: PASTE_MAX and a marker's length more (so
        that taking a marker's first part back off leaves PASTE_MAX whole)."""
        assert self._paste is not None
        room = PASTE_MAX + len(PASTE_END) - self._kept
        if room > 0:
            self._paste.append(text[:room])
            self._kept += min(len(text), room)


def _strip_paste(text: str) -> str:
    """A paste's text without escape sequences or stray ESCs (sanitize's rules)."""
    return strip_escapes(text).replace("\x1b", "")

SETTLE_POLL = 0.002
"""Seconds between checks whether the App has finished with the previous input event."""
SETTLE_MAX = 0.25
"""Longest wait for the App to settle before the next input event is posted anyway."""

INPUT_RATE = 32 * 1024
"""Input bytes per second a session may send, sustained (typing is a few bytes)."""
INPUT_BURST = 128 * 1024
"""Input bytes a session may send at once (a long paste). Beyond the budget
input is dropped: every session shares one event loop, and a client piping
megabytes into its terminal must not starve the others."""


def clamp_size(width: int, height: int, limits: LimitsSection) -> tuple[int, int]:
    """The one clamp for every size a client reports (window change, in-band
    resize): nonsense falls back to :data:`DEFAULT_SIZE`, the rest is capped at
    ``limits.max_cols`` x ``limits.max_rows``."""
    if width <= 0 or height <= 0:
        return DEFAULT_SIZE
    return min(width, limits.max_cols), min(height, limits.max_rows)


class SessionTerminal:
    """The terminal of one session as the App sees it.

    ``write`` sends bytes to the client (it may raise once the transport is
    gone; the terminal then stops writing). Input that arrives before the
    App has built its driver is kept and fed when the driver starts.
    """

    def __init__(
        self,
        write: Callable[[bytes], None],
        size: tuple[int, int] = DEFAULT_SIZE,
        limits: LimitsSection | None = None,
    ) -> None:
        self._write = write
        self.limits = limits if limits is not None else LimitsSection()
        self.size: tuple[int, int] = clamp_size(*size, self.limits)
        self._wanted_size = self.size  # the last size reported, applied by _apply_size
        self._resized_at = float("-inf")
        self._resize_timer: asyncio.TimerHandle | None = None
        self.oversized_frames = 0
        """Writes dropped for being over ``limits.max_frame_bytes``."""
        self.paused = False
        self.closed = False
        self.dropped_frames = 0
        """Writes dropped while the transport asked us to pause."""
        self.last_input = time.monotonic()
        self.bytes_written = 0
        self.on_first_frame: Callable[[], None] | None = None
        """Called once, when the App has written its first frame (see :meth:`frame_written`)."""
        self.dropped_input = 0
        """Input bytes dropped for exceeding the budget (:data:`INPUT_RATE`)."""
        self._budget = float(INPUT_BURST)
        self._budget_at = self.last_input
        self._pending_input: list[bytes] = []
        self._driver: SSHDriver | None = None
        self.driver_class: type[SSHDriver] = type(
            "SessionSSHDriver", (SSHDriver,), {"terminal": self}
        )
        """The Driver subclass to give the App (``App(driver_class=...)``)."""

    # -- called by the transport ------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Input bytes from the client."""
        now = time.monotonic()
        self.last_input = now
        self._budget = min(float(INPUT_BURST), self._budget + (now - self._budget_at) * INPUT_RATE)
        self._budget_at = now
        if len(data) > self._budget:
            allowed = int(self._budget)
            if not self.dropped_input:
                log.warning("session input over %d bytes/s: dropping the excess", INPUT_RATE)
            self.dropped_input += len(data) - allowed
            data = data[:allowed]
            if not data:
                return
        self._budget -= len(data)
        if self._driver is not None and self._driver.accepting_input:
            self._driver.feed(data)
        elif not self.closed:
            self._pending_input.append(data)

    def resize(self, width: int, height: int) -> None:
        """The client's window changed size (a window-change request, or an
        in-band report the driver read). Applied at once, unless the last
        resize was less than ``limits.resize_interval`` ago: then the last size
        reported meanwhile is applied when the interval is over."""
        self._wanted_size = clamp_size(width, height, self.limits)
        if self._resize_timer is not None:
            return
        wait = self._resized_at + self.limits.resize_interval - time.monotonic()
        if wait > 0:
            self._resize_timer = asyncio.get_running_loop().call_later(wait, self._apply_size)
        else:
            self._apply_size()

    def _apply_size(self) -> None:
        self._resize_timer = None
        self._resized_at = time.monotonic()
        self.size = self._wanted_size
        if self._driver is not None and not self.closed:
            self._driver.resize(*self.size)

    def pause_writing(self) -> None:
        """The transport's send buffer is full: drop frames until resumed."""
        self.paused = True

    def resume_writing(self) -> None:
        """The send buffer drained: repaint the whole screen."""
        if not self.paused:
            return
        self.paused = False
        if self._driver is not None and self.dropped_frames:
            self._driver.repaint()

    def close(self) -> None:
        """The transport is gone: stop writing and reading."""
        self.closed = True
        self._pending_input.clear()
        if self._resize_timer is not None:
            self._resize_timer.cancel()
            self._resize_timer = None

    # -- called by the driver ---------------------------------------------------

    def write(self, data: str, *, force: bool = False) -> None:
        """Send text to the client (dropped while paused, unless ``force``)."""
        if self.closed or not data:
            return
        if self.paused and not force:
            self.dropped_frames += 1
            return
        raw = data.encode("utf-8", "replace")
        if len(raw) > self.limits.max_frame_bytes:
            self.oversized_frames += 1
            WARNINGS.warn(
                log, "frame-bytes", "a frame of %d bytes dropped (limits.max_frame_bytes %d)",
                len(raw), self.limits.max_frame_bytes,
            )
            return
        try:
            self._write(raw)
        except Exception:  # the channel closed under us (BrokenPipeError and kin)
            self.closed = True
            return
        self.bytes_written += len(raw)

    def frame_written(self) -> None:
        """The App finished writing a frame (Textual flushes its driver after each
        one): the first time, call :attr:`on_first_frame`. The writes before the
        first frame only set the terminal up (modes, the pointer's shape)."""
        if self.on_first_frame is not None and not self.closed:
            callback, self.on_first_frame = self.on_first_frame, None
            callback()

    def attach(self, driver: SSHDriver) -> list[bytes]:
        self._driver = driver
        pending, self._pending_input = self._pending_input, []
        return pending

    def detach(self, driver: SSHDriver) -> None:
        if self._driver is driver:
            self._driver = None


class SSHDriver(Driver):
    """Textual driver for one SSH session; use a :class:`SessionTerminal`'s
    ``driver_class``, which binds the class to that session."""

    terminal: ClassVar[SessionTerminal]

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size or self.terminal.size)
        self._term = self.terminal
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._paste = PasteFilter()
        self._parser: XTermParser | None = None
        self._escape_timer: asyncio.TimerHandle | None = None
        self._input_enabled = False
        self._started = False
        # Input events wait here and reach the App one at a time (see _pump).
        self._inbox: deque[Message] = deque()
        self._pump_handle: asyncio.TimerHandle | None = None
        self._last_post = 0.0  # monotonic time the last input event was posted
        self._settled_checks = 0
        self._frame: list[str] | None = None  # a synchronised frame being written

    # -- Driver API ------------------------------------------------------------

    @property
    def can_suspend(self) -> bool:
        return False  # suspending would stop the whole server process

    @property
    def accepting_input(self) -> bool:
        return self._input_enabled

    def write(self, data: str) -> None:
        """Send ``data``; the parts of a synchronised frame (``SYNC_START``, the
        frame, ``SYNC_END``) go as one write: each write is an SSH packet, and a
        packet costs CPU to encrypt and sign whatever its size."""
        frame = self._frame
        if frame is not None:
            frame.append(data)
            if data == SYNC_END:
                self._send_frame()
        elif data == SYNC_START:
            self._frame = [data]
        else:
            self._term.write(data)

    def _send_frame(self) -> None:
        frame, self._frame = self._frame, None
        if frame:
            self._term.write("".join(frame))

    def flush(self) -> None:
        """Writes go straight to the channel, which buffers and sends; a flush ends a frame."""
        self._send_frame()  # a frame whose end did not come (Textual writes it in a ``finally``)
        self._term.frame_written()

    def start_application_mode(self) -> None:
        self._started = True
        self._parser = XTermParser()
        term = self._term
        # one write, one SSH packet (each costs CPU to seal and a send)
        setup = ALT_SCREEN_ON + CURSOR_HIDE + WRAP_OFF + (MOUSE_ON if self._mouse else "")
        term.write(setup + PASTE_ON + FOCUS_ON + SYNC_QUERY, force=True)
        pending = term.attach(self)
        self._input_enabled = True
        width, height = term.size
        if self._size != (width, height):
            self.resize(width, height)
        for chunk in pending:
            self.feed(chunk)

    def disable_input(self) -> None:
        self._input_enabled = False
        self._cancel_escape_timer()
        self._inbox.clear()
        if self._pump_handle is not None:
            self._pump_handle.cancel()
            self._pump_handle = None

    def stop_application_mode(self) -> None:
        self.disable_input()
        self._send_frame()
        if not self._started:
            return
        self._started = False
        restore = PASTE_OFF + FOCUS_OFF + (MOUSE_OFF if self._mouse else "")
        restore += WRAP_ON + ALT_SCREEN_OFF + CURSOR_SHOW
        self._term.write(restore, force=True)

    def close(self) -> None:
        """Release the parser (its caches would otherwise keep the App alive)."""
        self.disable_input()
        self._term.detach(self)
        parser, self._parser = self._parser, None
        if parser is not None:
            try:
                for _ in parser.feed(""):
                    pass
            except Exception:  # a half-read sequence at EOF; nothing to deliver
                pass
            parser._tokens.clear()
            # lru_cache on a method keys on ``self``: it pins every parser (and its App)
            XTermParser._parse_extended_key.cache_clear()

    # -- input -----------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Decode and parse input bytes; post the resulting events to the App."""
        parser = self._parser
        if parser is None or not self._input_enabled:
            return
        text = self._paste.feed(self._decode(data))
        if not text:
            return
        self._deliver(parser.feed(text))
        self._arm_escape_timer()

    def _deliver(self, messages: Iterable[Message]) -> None:
        try:
            for message in messages:
                if isinstance(message, events.Resize):
                    self._in_band_resize(message)
                else:
                    self._inbox.append(message)
        except Exception as error:  # input Textual's parser chokes on: a warning, never a traceback
            WARNINGS.warn(
                log, "parse-error", "input the parser could not read (%s: %.80r): its state reset",
                type(error).__name__, str(error),
            )
            self._parser = XTermParser()
        if self._pump_handle is None:
            self._pump()

    def _pump(self) -> None:
        """Post queued input events to the App, each only once the App has
        finished with the one before.

        Several keys often arrive in one SSH packet (fast typing, a laggy
        link). Posted together, Textual forwards them all to the widget that
        has focus *now*: in ``Tab Tab 8`` the ``8`` would land in the field the
        Tabs were leaving. So an event that follows another within SETTLE_MAX
        waits until the message queues of the App, the screen and the focused
        widget's chain are drained (at most until SETTLE_MAX after the previous
        one, so a busy App never stalls input; a lone key goes straight through).
        """
        self._pump_handle = None
        while self._inbox and self._input_enabled:
            if time.monotonic() - self._last_post < SETTLE_MAX:
                # Textual's queues keep no count of messages being handled, so
                # "settled" must be seen on two loop turns in a row.
                self._settled_checks = self._settled_checks + 1 if self._app_settled() else 0
                if self._settled_checks < 2:
                    self._pump_handle = self._loop.call_later(SETTLE_POLL, self._pump)
                    return
            self._settled_checks = 0
            self._last_post = time.monotonic()
            self.process_message(self._inbox.popleft())

    def _app_settled(self) -> bool:
        """True when nothing is queued along the path an input event takes:
        the focused widget, its ancestors, the screen, the App."""
        app = self._app
        pumps: list[Any] = [app]
        try:
            screen = app.screen
        except Exception:  # no screen yet
            screen = None
        if screen is not None:
            focused = screen.focused
            pumps.extend(focused.ancestors_with_self if focused is not None else (screen,))
        return all(p._message_queue.empty() and not p._next_callbacks for p in pumps)

    def _in_band_resize(self, event: events.Resize) -> None:
        """A size the client reported in band (``ESC[48;rows;cols;ph;pwt``): through
        the terminal's one clamp, as a window change. The parser also keeps the
        pixel size and from then on divides mouse coordinates by it (a zero pixel
        size made every later mouse report raise); the server never asks for
        pixel mouse reports (mode 1016), so coordinates stay cells."""
        parser = self._parser
        if parser is not None:
            parser.mouse_pixels = False
            parser.terminal_pixel_size = None
            parser.terminal_size = None
        self._term.resize(event.size.width, event.size.height)

    def _arm_escape_timer(self) -> None:
        """A lone Escape (or a cut-off sequence) is only reported when the
        parser is ticked after ESCDELAY: schedule that tick."""
        self._cancel_escape_timer()
        parser = self._parser
        if parser is None or getattr(parser, "_timeout_time", None) is None:
            return
        self._escape_timer = self._loop.call_later(
            constants.ESCAPE_DELAY + 0.005, self._on_escape_timer
        )

    def _on_escape_timer(self) -> None:
        self._escape_timer = None
        parser = self._parser
        if parser is None or not self._input_enabled:
            return
        self._deliver(parser.tick())
        self._arm_escape_timer()

    def _cancel_escape_timer(self) -> None:
        if self._escape_timer is not None:
            self._escape_timer.cancel()
            self._escape_timer = None

    def send_message(self, message: Message) -> None:
        """Post on the loop's own thread (the base class hops threads)."""
        self._app.post_message(message)

    # -- transport events ------------------------------------------------------

    def resize(self, width: int, height: int) -> None:
        self._size = (width, height)
        if self._input_enabled:
            size = Size(width, height)
            self._app.post_message(events.Resize(size, size))

    def repaint(self) -> None:
        """Repaint the whole screen (after frames were dropped)."""
        if not self._input_enabled:
            return
        self._term.dropped_frames = 0
        self._app.call_later(self._repaint_screen)

    def _repaint_screen(self) -> None:
        try:
            screen = self._app.screen
        except Exception:  # no screen yet or any more
            return
        screen.refresh()
