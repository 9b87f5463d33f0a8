"""A Textual :class:`~textual.driver.Driver` that runs an App over one SSH channel.

One :class:`SessionTerminal` per SSH session sits between the transport and
the App: the transport calls :meth:`SessionTerminal.feed` with raw input
bytes, :meth:`~SessionTerminal.resize` on window changes and
:meth:`~SessionTerminal.pause_writing` / :meth:`~SessionTerminal.resume_writing`
for flow control; the App writes through the driver to the terminal's
``write`` callback. The App builds its driver itself from what it is given as
its driver class: each session hands it one that binds the driver to that
session's terminal (:attr:`SessionTerminal.driver_class`).

Everything runs on the event loop's thread; parsed events are posted with
``app.post_message`` (no thread hops). Facts this relies on are written down
in ``docs/textual-over-ssh.md``.
"""

from __future__ import annotations

import asyncio
import codecs
import logging
import re
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, cast

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


def _nowhere(data: bytes) -> None:
    """A closed terminal's writer."""


@dataclass(frozen=True)
class Pasted:
    """A whole bracketed paste, its escape sequences taken out."""

    text: str


Piece = str | Pasted
"""What :class:`PasteFilter` passes on: text for Textual's parser, or a paste."""


class PasteFilter:
    """Takes bracketed pastes out of the input before Textual's parser sees it.
    The parser reads an ESC inside a paste as the start of a sequence that
    never ends, and sends the paste's rest as keys ahead of the paste itself:
    ``AA<ESC>[31mBB`` reached the chat as ``^[31mBBAA``; and it parses a
    paste a character at a time. A paste is held until its end marker and
    passed on as one :class:`Pasted`, its escape sequences dropped (as the
    chat drops them from typed text), at most ``paste_max`` of it. The
    parser gets the start marker with an end marker right after it (a marker
    may begin in one input and end in the next: the parser holds its first
    part), so its own paste mode never stays open. Each input is looked at
    once (a paste sent a byte per packet costs no more than one sent whole).

    Input dropped unread (over the session's budget) still counts for the
    markers (:meth:`skip`): a paste whose end marker was dropped ends there.
    A paste whose end never comes is ended by :meth:`expire`."""

    _EDGE = len(PASTE_END) - 1  # a marker's first part, at the end of one input

    def __init__(self, paste_max: int = 64 * 1024) -> None:
        self.paste_max = paste_max
        self._paste: list[str] | None = None  # the paste being read, or None outside one
        self._kept = 0  # characters in ``_paste``
        self._tail = ""  # the last input's last few characters: a marker's first part maybe
        self._tail_held = False  # ``_tail`` is the end of the held paste (not of dropped input)
        self.opened_at = 0.0
        """Monotonic time the open paste started."""

    @property
    def open(self) -> bool:
        """A paste has started and not ended yet."""
        return self._paste is not None

    def feed(self, text: str) -> list[Piece]:
        out: list[Piece] = []
        while text:
            seen = self._tail + text
            if self._paste is None:
                at = seen.find(PASTE_START)
                if at < 0:
                    out.append(text)
                    self._tail = seen[-self._EDGE:]
                    return out
                begin = max(0, at - len(self._tail))  # where the marker begins in ``text``
                cut = at + len(PASTE_START) - len(self._tail)  # where it ends
                if begin:
                    out.append(text[:begin])
                out.append(text[begin:cut] + PASTE_END)
                self._start()
            else:
                at = seen.find(PASTE_END)
                if at < 0:
                    self._hold(text)
                    self._tail = seen[-self._EDGE:]
                    self._tail_held = True
                    return out
                body = "".join(self._paste)
                if at < len(self._tail) and self._tail_held:  # the marker began in the last input: its first part was held
                    body = body[: len(body) - (len(self._tail) - at)]
                else:
                    body += text[: at - len(self._tail)]
                out.append(self._end(body))
                cut = at + len(PASTE_END) - len(self._tail)
            text = text[cut:]
            self._tail = ""
        return out

    def skip(self, text: str) -> list[Piece]:
        """``text`` was dropped unread: only the paste markers in it count. The
        open paste ends at an end marker in it (with what was kept of it); a
        start marker without an end after it opens a paste, read from here on."""
        out: list[Piece] = []
        seen = self._tail + text
        pos = 0
        if self._paste is not None:
            at = seen.find(PASTE_END)
            if at < 0:
                self._tail = seen[-self._EDGE:]
                self._tail_held = False
                return out
            body = "".join(self._paste)
            if at < len(self._tail) and self._tail_held:
                body = body[: len(body) - (len(self._tail) - at)]
            out.append(self._end(body))
            pos = at + len(PASTE_END)
        start = seen.rfind(PASTE_START, pos)
        if start >= 0 and seen.find(PASTE_END, start) < 0:
            self._start()
            pos = start + len(PASTE_START)
        self._tail = seen[max(pos, len(seen) - self._EDGE):]
        self._tail_held = False
        return out

    def expire(self) -> list[Piece]:
        """End the open paste with what it has (its end marker never came)."""
        if self._paste is None:
            return []
        body = "".join(self._paste)[: self._kept]
        self._tail = ""
        return [self._end(body)]

    def _start(self) -> None:
        self._paste, self._kept = [], 0
        self.opened_at = time.monotonic()

    def _end(self, body: str) -> Pasted:
        self._paste = None
        return Pasted(_strip_paste(body[: self.paste_max]))

    def _hold(self, text: str) -> None:
        """Keep what fits of a paste: paste_max and a marker's length more (so
        that taking a marker's first part back off leaves paste_max whole)."""
        assert self._paste is not None
        room = self.paste_max + len(PASTE_END) - self._kept
        if room > 0:
            self._paste.append(text[:room])
            self._kept += min(len(text), room)


CSI_PARAMS_MAX = 32
"""Parameter characters of one control sequence read at most (Textual's parser
gives up on a sequence at 32 characters and types it as keys)."""
_LONG_CSI = re.compile(rf"\x1b\[[0-?]{{{CSI_PARAMS_MAX},}}[ -/]*[@-~]?")
_CSI_REST = re.compile(r"([0-?]*)[ -/]*([@-~]?)")
_CSI_OPEN = re.compile(r"\x1b\[([0-?]*)\Z")


class CsiGuard:
    """Drops control sequences with more than :data:`CSI_PARAMS_MAX` parameter
    characters (``ESC[`` and 100,000 digits became 100,000 keys), also when one
    runs on over several inputs; a sequence cut at an input's end and finished
    in the next is tracked by its count. Everything else passes unchanged."""

    def __init__(self) -> None:
        self._params = -1  # parameter characters of a sequence open at the last input's end; -1: none

    def feed(self, text: str) -> str:
        if self._params >= 0:
            rest = _CSI_REST.match(text)
            assert rest is not None  # every part of the pattern may be empty
            params = self._params + len(rest.group(1))
            ended = bool(rest.group(2)) or rest.end() < len(text)
            if params > CSI_PARAMS_MAX:
                text = text[rest.end():]  # the overlong sequence's rest (its first part went on: the parser drops it)
            self._params = -1 if ended else params
            if not ended:
                return "" if params > CSI_PARAMS_MAX else text
        text = _LONG_CSI.sub(self._cut, text)
        if self._params < 0 and (open_at_end := _CSI_OPEN.search(text)) is not None:
            self._params = len(open_at_end.group(1))
        return text

    def _cut(self, match: re.Match[str]) -> str:
        if match.end() == len(match.string) and not "@" <= match.group()[-1] <= "~":
            self._params = CSI_PARAMS_MAX + 1  # runs on into the next input: dropped there too
        return ""


def _strip_paste(text: str) -> str:
    """A paste's text without escape sequences or stray ESCs (sanitize's rules)."""
    return strip_escapes(text).replace("\x1b", "").replace("\x00", "")

SETTLE_POLL = 0.002
"""Seconds between checks whether the App has finished with the previous input event."""
SETTLE_MAX = 0.25
"""Longest wait for the App to settle before the next input event is posted anyway."""

PARSE_SLICE = 64
"""Characters given to Textual's parser at a time, between checks of the App's
input queue (``limits.input_queue``): a flood is parsed only as fast as the
App reads it, never as one long stall of the shared event loop."""


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
        """Input dropped: bytes over the budget (``limits.input_rate``), characters
        the App did not read in time (``limits.input_queue``)."""
        self.on_flood: Callable[[], None] | None = None
        """Called once when input has been dropped for ``limits.input_flood_timeout`` seconds."""
        self._flood_since: float | None = None  # when the current run of dropped input began
        self._dropped_at = 0.0
        self._budget = float(self.limits.input_burst)
        self._budget_at = self.last_input
        self._pending_input: list[bytes] = []
        self._driver: SSHDriver | None = None

    @property
    def driver_class(self) -> type[SSHDriver]:
        """What to give the App as its ``driver_class``: it makes this session's
        driver. Not a class of its own per session (a class is a reference
        cycle with itself, which kept each ended session's terminal for a full
        collection of the whole heap): the App only calls it, as
        ``driver_class(app, debug=..., mouse=..., size=...)``."""
        return cast("type[SSHDriver]", partial(SSHDriver, terminal=self))

    # -- called by the transport ------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Input bytes from the client. Beyond the session's budget they are
        dropped: every session shares one event loop, and a client piping
        megabytes into its terminal must not starve the others."""
        limits = self.limits
        now = time.monotonic()
        self.last_input = now
        if self._flood_since is not None and now - self._dropped_at > 1.0:
            self._flood_since = None  # a second without drops ends the run
        self._budget = min(float(limits.input_burst), self._budget + (now - self._budget_at) * limits.input_rate)
        self._budget_at = now
        dropped = b""
        if len(data) > self._budget:
            allowed = int(self._budget)
            data, dropped = data[:allowed], data[allowed:]
            self.input_dropped(len(dropped), f"over {limits.input_rate} bytes/s")
        self._budget -= len(data)
        if self._driver is not None and self._driver.accepting_input:
            self._driver.feed(data, dropped)
        elif data and not self.closed:
            self._pending_input.append(data)

    def input_dropped(self, count: int, why: str) -> None:
        """``count`` bytes or characters of input were dropped (``why``). Input
        dropped for ``limits.input_flood_timeout`` seconds on end (no second
        without) calls :attr:`on_flood`."""
        now = time.monotonic()
        self.dropped_input += count
        self._dropped_at = now
        WARNINGS.warn(log, "input-dropped", "session input %s: dropping the excess", why)
        if self._flood_since is None:
            self._flood_since = now
        timeout = self.limits.input_flood_timeout
        if timeout > 0 and now - self._flood_since >= timeout and self.on_flood is not None:
            callback, self.on_flood = self.on_flood, None
            callback()

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
        # the session's callbacks point back at the session that holds this
        # terminal: a cycle (and the session's App and channel with it) that
        # only a full collection of the whole heap would free
        self._write = _nowhere
        self.on_first_frame = self.on_flood = None
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
    """Textual driver for one SSH session; the App gets it from its
    :class:`SessionTerminal`'s ``driver_class``."""

    def __init__(
        self,
        app: App[Any],
        *,
        terminal: SessionTerminal,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size or terminal.size)
        self._term = terminal
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._limits = self._term.limits
        self._paste = PasteFilter(self._limits.paste_max)
        self._csi = CsiGuard()
        self._paste_timer: asyncio.TimerHandle | None = None
        self._parser: XTermParser | None = None
        self._escape_timer: asyncio.TimerHandle | None = None
        # Input not parsed yet: parsed only while the App's queue has room.
        self._unparsed: deque[Piece] = deque()
        self._unparsed_chars = 0
        self._unparsed_at = 0  # characters of the first piece already parsed
        self._unparsed_pasted = 0  # of _unparsed_chars, those of pastes
        self._parse_soon = False
        self._input_enabled = False
        self._started = False
        # Input events wait here and reach the App one at a time (see _pump);
        # at most ``limits.input_queue`` (and one slice's events) at a time.
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
        if self._paste_timer is not None:
            self._paste_timer.cancel()
            self._paste_timer = None
        self._inbox.clear()
        self._unparsed.clear()
        self._unparsed_chars = self._unparsed_at = self._unparsed_pasted = 0
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

    def feed(self, data: bytes, dropped: bytes = b"") -> None:
        """Decode and parse input bytes; post the resulting events to the App.
        ``dropped`` came right after ``data`` and is over the session's budget:
        only the paste markers in it count."""
        parser = self._parser
        if parser is None or not self._input_enabled:
            return
        pieces = self._paste.feed(self._decode(data)) if data else []
        if dropped:  # decoded too (the decoder's state runs on), for the paste markers in it
            pieces += self._paste.skip(self._decode(dropped))
        self._hold(pieces)
        self._arm_paste_timer()
        self._parse()

    def _hold(self, pieces: list[Piece]) -> None:
        """Queue input for the parser. Typed text waits up to four times
        ``limits.input_queue`` characters (an event is a few characters: a key,
        a 12-character mouse report), pastes up to twice ``limits.paste_max``;
        what does not fit is dropped, so a flood never backlogs the session
        for more than a few seconds of what its App reads."""
        limits = self._limits
        dropped = 0
        for piece in pieces:
            if isinstance(piece, Pasted):
                size, room = len(piece.text), 2 * limits.paste_max - self._unparsed_pasted
            else:
                piece = self._csi.feed(piece)
                size, room = len(piece), 4 * limits.input_queue - (self._unparsed_chars - self._unparsed_pasted)
            if not size and not isinstance(piece, Pasted):
                continue
            if size > room and isinstance(piece, str) and room > 0:
                dropped += size - room  # typed text: what fits is kept (a paste is kept whole or not at all)
                piece, size = piece[:room], room
            elif size > room:
                dropped += size
                continue
            self._unparsed.append(piece)
            self._unparsed_chars += size
            if isinstance(piece, Pasted):
                self._unparsed_pasted += size
        if dropped:
            self._term.input_dropped(dropped, "faster than its screen reads it")

    def _parse(self) -> None:
        """Parse held input, a slice at a time, while the App's queue has room."""
        parser = self._parser
        queue = self._unparsed
        cap = self._limits.input_queue
        while queue and parser is not None and len(self._inbox) < cap:
            piece = queue[0]
            if isinstance(piece, Pasted):
                queue.popleft()
                self._unparsed_chars -= len(piece.text)
                self._unparsed_pasted -= len(piece.text)
                self._inbox.append(events.Paste(piece.text))
                continue
            at = self._unparsed_at
            text = piece[at : at + PARSE_SLICE]
            if at + len(text) >= len(piece):
                queue.popleft()
                self._unparsed_at = 0
            else:
                self._unparsed_at += len(text)
            self._unparsed_chars -= len(text)
            self._deliver(parser.feed(text))
            parser = self._parser  # a new one if that input broke the last
        self._arm_escape_timer()
        if self._pump_handle is None:
            self._pump()

    def _arm_paste_timer(self) -> None:
        """A paste whose end marker never comes ends after ``limits.paste_timeout``."""
        if self._paste.open and self._paste_timer is None:
            wait = self._paste.opened_at + self._limits.paste_timeout - time.monotonic()
            self._paste_timer = self._loop.call_later(max(0.0, wait), self._on_paste_timer)

    def _on_paste_timer(self) -> None:
        self._paste_timer = None
        if not self._input_enabled or not self._paste.open:
            return
        if time.monotonic() - self._paste.opened_at < self._limits.paste_timeout:
            self._arm_paste_timer()  # a later paste opened meanwhile
            return
        self._hold(self._paste.expire())
        self._parse()

    def _deliver(self, messages: Iterable[Message]) -> None:
        try:
            for message in messages:
                if isinstance(message, events.Resize):
                    self._in_band_resize(message)
                elif isinstance(message, events.Paste):
                    pass  # the parser's own (empty) paste: pastes come whole from the PasteFilter
                else:
                    self._inbox.append(message)
        except Exception as error:  # input Textual's parser chokes on: a warning, never a traceback
            WARNINGS.warn(
                log, "parse-error", "input the parser could not read (%s: %.80r): its state reset",
                type(error).__name__, str(error),
            )
            self._parser = XTermParser()

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
            if self._unparsed and len(self._inbox) < self._limits.input_queue // 2:
                self._parse_later()

    def _parse_later(self) -> None:
        """Parse more held input on the loop's next turn (not from inside the pump)."""
        if not self._parse_soon:
            self._parse_soon = True
            self._loop.call_soon(self._parse_held)

    def _parse_held(self) -> None:
        self._parse_soon = False
        if self._input_enabled:
            self._parse()

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
        if self._pump_handle is None:
            self._pump()

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
