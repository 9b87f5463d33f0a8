"""One SSH session channel (:class:`Session`): a PTY shell that runs the game App
on the shared event loop, and its farewell."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from typing import TYPE_CHECKING, Any

import asyncssh

from protocol.contract import Identity, LobbyClient
from protocol.i18n import Lang
from server.metrics import refused
from server.ratelog import WARNINGS
from server.ssh.apphost import RETIRE_WAIT_MAX, prepare_app
from server.ssh.messages import lang_from_env, message
from server.sshdriver import SessionTerminal

if TYPE_CHECKING:
    from textual.app import App

    from server.ssh.auth import Connection

log = logging.getLogger("throneroom.ssh")


class Session(asyncssh.SSHServerSession[bytes]):
    """One SSH session channel: a PTY shell runs the game App."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.server = connection.server
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.has_pty = False
        self.size = (80, 24)
        self.terminal: SessionTerminal | None = None
        self.app: App[Any] | None = None
        self.lobby: LobbyClient | None = None
        self.identity: Identity | None = None
        self.task: asyncio.Task[None] | None = None
        self.farewell = ""
        self.lang: Lang = "en"
        self.lost = False
        self.started_at = time.monotonic()
        self._drawing = False  # opened, first frame not written yet (ThroneServer.drawing_starts)

    # -- asyncssh callbacks ----------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan
        chan.set_write_buffer_limits(high=256 * 1024, low=64 * 1024)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.has_pty = True
        self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        WARNINGS.log(log, logging.INFO, "exec", "refused exec request from %s: %r", self.connection.peer, command[:80])
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        WARNINGS.log(log, logging.INFO, "subsystem", "refused subsystem %r from %s", subsystem[:40], self.connection.peer)
        return False

    def session_started(self) -> None:
        chan = self.chan
        assert chan is not None
        env = chan.get_environment()
        self.lang = lang_from_env(env) or "en"
        decision = self.connection.decide(env)
        if isinstance(decision, str):  # said first, terminal or not: "ssh -t" with a refused name was no help
            log.info("refused %r from %s: %s", self.connection.raw_user[:40], self.connection.peer, decision.splitlines()[0])
            self._close_with(decision)
            return
        if not self.has_pty:
            hint = self.server.connect_hint(self.connection._conn(), decision.name)
            self._close_with(message("no-pty", self.lang, hint=hint.replace("ssh ", "ssh -t ", 1)))
            return
        if len(self.server.sessions) >= self.server.config.limits.max_sessions:
            WARNINGS.warn(log, "server-full", "server full: refused %r from %s", decision.name, self.connection.peer)
            refused("full")
            self._close_with(message("full", self.lang))
            return
        self.identity = decision
        self.lang = decision.lang
        # The terminal exists from now on, so keys typed while the App starts are kept.
        self.terminal = SessionTerminal(chan.write, self.size, self.server.config.limits)
        self.terminal.on_first_frame = self._first_frame
        self.terminal.on_flood = self._flooded
        self.server.sessions.add(self)
        self.server.opened += 1
        self._drawing = True
        self.server.drawing_starts()
        self.server.active_names[decision.name.casefold()] += 1
        self.task = asyncio.create_task(self._run(), name=f"session {decision.name}")

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if self.terminal is not None:
            self.terminal.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width, height)
        if self.terminal is not None:
            self.terminal.resize(width, height)

    def pause_writing(self) -> None:
        if self.terminal is not None:
            self.terminal.pause_writing()

    def resume_writing(self) -> None:
        if self.terminal is not None:
            self.terminal.resume_writing()

    def break_received(self, msec: int) -> bool:
        return False

    def eof_received(self) -> bool:
        self.end()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        if self.terminal is not None:
            self.terminal.close()
        self.end()
        self.connection.session_closed()

    # -- running the App -------------------------------------------------------

    def end(self, farewell: str = "", **values: object) -> None:
        """Ask the App to exit; the ``farewell`` message (a key of ``ssh.*`` key of the catalogue)
        is printed after the terminal is restored."""
        if farewell and not self.farewell:
            self.farewell = message(farewell, self._current_lang(), **values)
        app = self.app
        if app is not None:
            app.exit()  # also stops an App that is still starting
        elif self.task is not None and not self.task.done():
            self.task.cancel()

    async def _run(self) -> None:
        identity = self.identity
        assert identity is not None and self.chan is not None
        name = identity.name
        crashed = False
        log.info(
            "session start: %s%s from %s (%dx%d)",
            name, " (guest)" if identity.guest else "", self.connection.peer, *self.size,
        )
        try:
            terminal = self.terminal
            assert terminal is not None
            self.lobby = self.server.hub.connect(identity)
            if hasattr(self.lobby, "ender"):  # the hub may end it: a ban, an admin's kick
                self.lobby.ender = lambda key, values: self.end(key, **values)
            app = self.app = self.server.apps.new_app(self.lobby, terminal.driver_class)
            prepare_app(app, self.server.apps)
            await app.run_async(size=terminal.size)
            error = getattr(app, "_exception", None)
            if error is not None or (app.return_code or 0) != 0:
                crashed = True
                if isinstance(error, BaseException):
                    log.error(
                        "session %s crashed", name,
                        exc_info=(type(error), error, error.__traceback__),
                    )
                else:
                    log.error("session %s ended with return code %s", name, app.return_code)
        except asyncio.CancelledError:
            pass
        except Exception:
            crashed = True
            log.exception("session %s failed", name)
        finally:
            self._finish(crashed)

    def _flooded(self) -> None:
        seconds = self.server.config.limits.input_flood_timeout
        log.warning("session %s: input flood for %.0f s from %s: closed",
                    self.identity.name if self.identity else "?", seconds, self.connection.peer)
        self.end("flood", seconds=f"{seconds:g}")

    def _first_frame(self) -> None:
        self._drawn()
        ms = (time.monotonic() - self.started_at) * 1000
        log.info("session %s: first frame %.0f ms after the session opened", self.identity.name if self.identity else "?", ms)

    def _drawn(self) -> None:
        """The first frame was written, or the session ended before it was."""
        if self._drawing:
            self._drawing = False
            self.server.drawing_ends()

    def _finish(self, crashed: bool) -> None:
        self._drawn()
        identity = self.identity
        name = identity.name if identity else "?"
        lang = self._current_lang()
        if self.terminal is not None:
            self.terminal.close()  # the App is gone: nothing more goes through it
        if self.lobby is not None:
            try:
                self.server.hub.disconnect(self.lobby)
            except Exception:
                log.exception("hub.disconnect failed for %s", name)
            self.lobby = None
        counted = self in self.server.sessions  # counted in server.opened
        if counted:
            self.server.sessions.discard(self)
            folded = name.casefold()
            self.server.active_names[folded] -= 1
            if self.server.active_names[folded] <= 0:
                del self.server.active_names[folded]
        app = self.app
        if app is not None:
            self.app = None
            # its widgets freed by reference counting, not left for a full collection
            # (held weakly meanwhile: a full collection may free it first)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + self.server.retire_after + RETIRE_WAIT_MAX
            loop.call_later(self.server.retire_after, self.server._take_apart, weakref.ref(app), name, deadline)
        elif counted:
            self.server.retired += 1  # no App: nothing to take apart
        text = self.farewell
        if crashed and not text:
            text = message("crashed", lang)
        log.info("session end: %s after %.0fs%s", name, time.monotonic() - self.started_at, " (crashed)" if crashed else "")
        self._close_with(text, status=1 if crashed else 0)

    def _current_lang(self) -> Lang:
        """The player's language now (they may have switched inside the App)."""
        lobby = self.lobby
        if lobby is not None:
            with contextlib.suppress(Exception):
                return lobby.identity.lang
        return self.lang

    def _close_with(self, text: str, status: int = 1) -> None:
        chan = self.chan
        if chan is None or self.lost:
            return
        try:
            if text:
                chan.write(("\r\n" + text + "\r\n").encode("utf-8", "replace"))
            chan.exit(status)
        except Exception:  # the channel went away meanwhile
            log.debug("channel closed before the farewell", exc_info=True)
