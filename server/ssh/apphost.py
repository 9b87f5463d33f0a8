"""The screens a session runs, as the SSH server hosts them: the :class:`AppHost`
the composition root gives, each App's preparation (shared output streams and
styles, tracebacks without locals, lazy tasks), and when an ended App is taken apart."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO, cast

import rich.traceback
from rich.console import Console

from protocol.contract import LobbyClient

if TYPE_CHECKING:
    from textual.app import App
    from textual.driver import Driver


app_log = logging.getLogger("throneroom.app")

RETIRE_WAIT_MAX = 30.0
"""Seconds an ended session's App waits at most, beyond ``retire_after``, for
the sessions drawing their first screen (``ThroneServer._take_apart``)."""
RETIRE_RETRY = 0.5


AppFactory = Callable[[LobbyClient, "type[Driver]"], "App[Any]"]


@dataclass(frozen=True)
class AppHost:
    """What the SSH server needs of the screens, given by the composition root
    (:func:`server.cli.app_host`) so that ``server`` imports no screen module."""

    new_app: AppFactory  # the App one session runs, for its lobby client and terminal driver
    share_styles: Callable[[App[Any]], None]  # one parsed stylesheet for every session's App
    take_apart: Callable[[App[Any]], object]  # frees an ended session's App (its reference cycles)
    retire_after: float  # seconds from a session's end to taking its App apart


# -- process-wide output capture ----------------------------------------------


class LogStream(io.TextIOBase):
    """A text stream that sends each complete line to a logger."""

    def __init__(self, logger: logging.Logger, level: int) -> None:
        super().__init__()
        self._logger = logger
        self._level = level
        self._buf = ""
        self._writing = False

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        if self._writing:
            # logging wrote back into this stream (no handler configured: its last
            # resort writes to sys.stderr, which is this stream): to the real one
            if sys.__stderr__ is not None:
                sys.__stderr__.write(text)
            return len(text)
        self._writing = True
        try:
            self._write(text)
        finally:
            self._writing = False
        return len(text)

    def _write(self, text: str) -> None:
        self._buf += text
        if "\n" in self._buf:
            *lines, self._buf = self._buf.split("\n")
            for line in lines:
                if line.strip():
                    self._logger.log(self._level, "%s", line.rstrip())
        if len(self._buf) > 8192:
            self.flush()

    def flush(self) -> None:
        if self._buf.strip():
            self._logger.log(self._level, "%s", self._buf.rstrip())
        self._buf = ""


_shared_stdout = LogStream(app_log, logging.INFO)
_shared_stderr = LogStream(app_log, logging.WARNING)


def capture_process_output() -> None:
    """Route ``print`` and stray stderr writes of every session to the log.

    Textual swaps ``sys.stdout``/``sys.stderr`` around each App's message
    loop; overlapping Apps would leave them pointing at a dead App's capture.
    Every App is given the same two streams instead (see :func:`prepare_app`),
    and the process starts with them installed, so every swap is a no-op.
    Logging handlers must write to ``sys.__stderr__``.
    """
    sys.stdout = cast(TextIO, _shared_stdout)
    sys.stderr = cast(TextIO, _shared_stderr)


def keep_tasks_lazy(loop: asyncio.AbstractEventLoop) -> None:
    """Keep ``asyncio.eager_task_factory`` off the shared event loop.

    On Python 3.12 and later Textual's ``App.run_async`` makes the running
    loop's task factory eager, for the whole loop: every session, room and
    timer of the server. An eager task runs its first step inside
    ``create_task``, so a room that starts its timer or bot task in its own
    context (``context=``, already entered) failed with "cannot enter
    context", and asyncio's record of the current task went wrong for every
    session after it: a server on Python 3.13 hung at the first match. Tasks
    here are started lazily, as on 3.11; Textual does not need eager ones."""
    eager = getattr(asyncio, "eager_task_factory", None)
    if eager is None or getattr(loop, "_throneroom_lazy", False):
        return
    setter = loop.set_task_factory

    def set_task_factory(factory: Any) -> None:
        if factory is not eager:
            setter(factory)

    loop.set_task_factory = set_task_factory  # type: ignore[method-assign]
    loop._throneroom_lazy = True  # type: ignore[attr-defined]
    if loop.get_task_factory() is eager:
        setter(None)


def prepare_app(app: App[Any], apps: AppHost) -> None:
    """Share the process-wide output streams, parsed CSS and style matches; error
    output to the log, a crash's traceback without locals (:func:`tracebacks_without_locals`);
    the running loop's tasks stay lazy (:func:`keep_tasks_lazy`)."""
    with contextlib.suppress(RuntimeError):  # no loop running yet: nothing to guard (the server calls this on its loop)
        keep_tasks_lazy(asyncio.get_running_loop())
    apps.share_styles(app)
    app._capture_stdout = _shared_stdout  # type: ignore[assignment]
    app._capture_stderr = _shared_stderr  # type: ignore[assignment]
    app.error_console = Console(
        file=cast(TextIO, LogStream(app_log, logging.DEBUG)),
        width=120,
        color_system=None,
        force_terminal=False,
        markup=False,
        highlight=False,
    )
    fatal_error = app._fatal_error

    def fatal_error_without_locals() -> None:
        with tracebacks_without_locals():
            fatal_error()

    app._fatal_error = fatal_error_without_locals  # type: ignore[method-assign]


@contextlib.contextmanager
def tracebacks_without_locals() -> Iterator[None]:
    """Rich tracebacks made meanwhile leave out the frames' local variables.

    Textual renders a crashed App's traceback with its locals (the error
    console: the server log at DEBUG); a session's locals hold its seat's
    view, private to that seat, and whoever reads the log may be a player.
    The server's own record of the crash (``session ... crashed``) is a
    plain traceback without locals."""
    original = rich.traceback.Traceback

    class Plain(original):  # type: ignore[valid-type,misc]
        def __init__(self, *args: Any, **kw: Any) -> None:
            kw["show_locals"] = False
            super().__init__(*args, **kw)

    rich.traceback.Traceback = Plain  # type: ignore[misc]
    try:
        yield
    finally:
        rich.traceback.Traceback = original  # type: ignore[misc]
