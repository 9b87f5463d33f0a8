"""``throneroom`` command line: ``throneroom serve [--host H] [--port P] ...``.

Run ``throneroom serve --help`` for the flags; everything else lives in the
config file (``deploy/throneroom.toml`` lists every setting and its default).
The server prints ``throneroom: listening on HOST:PORT`` once it accepts
connections (scripts and tests wait for that line) and stops cleanly on
SIGINT/SIGTERM: sessions are told, terminals restored, the database closed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.metadata
import logging
import os
import signal
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from server import ops
from server.config import Config, ConfigError, load_config, with_overrides

if TYPE_CHECKING:
    from textual.app import App
    from textual.driver import Driver

    from protocol.contract import LobbyClient
    from server.ssh import AppHost

log = logging.getLogger("throneroom")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="throneroom", description="A self-hosted SSH game host for palace-intrigue party games."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the SSH game host")
    ops.add_commands(sub)
    serve.add_argument("--host", help="address to listen on (default 0.0.0.0)")
    serve.add_argument("--port", type=int, help="TCP port (default 2222; 0 picks a free port)")
    serve.add_argument("--keys", type=Path, help="host key folder (default keys/)")
    serve.add_argument("--db", type=Path, help="SQLite database (default data/throneroom.db)")
    serve.add_argument("--config", type=Path, help="TOML config file (see deploy/throneroom.toml)")
    serve.add_argument(
        "--bot-delay", type=float, help="seconds a bot thinks before acting, give or take 30%% (default 1; 0 for tests)"
    )
    return parser


def _version() -> str:
    try:
        return importlib.metadata.version("throneroom")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout without installing
        return "unknown"


def setup_logging(config: Config, stream: TextIO | None = None) -> None:
    """Log to the real stderr (never to ``sys.stderr``, which sessions redirect)."""
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    handlers: list[logging.Handler] = [logging.StreamHandler(stream or sys.__stderr__)]
    if config.server.log_file is not None:
        config.server.log_file.parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(config.server.log_file, encoding="utf-8"))
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        handler.setFormatter(fmt)
        root.addHandler(handler)
    root.setLevel(config.server.log_level)
    # asyncssh logs every packet-level event at INFO; keep its warnings only.
    logging.getLogger("asyncssh").setLevel(
        logging.DEBUG if config.server.log_level == "DEBUG" else logging.WARNING
    )


def _say(text: str) -> None:
    """A line for the operator on the real stdout (printing is captured later)."""
    out = sys.__stdout__
    if out is not None:
        out.write(text + "\n")
        out.flush()


def app_host() -> AppHost:
    """The screens the SSH server runs: the one place ``server`` imports ``tui``
    (``tests/test_layers.py`` keeps it so). Textual's patches are installed here,
    once per process (``tui.runtime.patches`` lists each and why), before any
    App of these screens exists; the App itself installs none."""
    import tui.runtime
    from server.ssh import AppHost
    from tui.app import ThroneApp
    from tui.runtime import retire
    from tui.runtime.sharedcss import share_styles
    from tui.turns import TURNS

    tui.runtime.install()

    def new_app(lobby: LobbyClient, driver_class: type[Driver]) -> App[Any]:
        return ThroneApp(lobby, driver_class=driver_class, turns=TURNS)

    return AppHost(new_app=new_app, share_styles=share_styles, take_apart=retire.take_apart, retire_after=retire.RETIRE_AFTER)


async def serve(config: Config) -> int:
    # Textual reads its environment when first imported: fix the colour system
    # for the whole process before that (styles cache escape codes per process).
    os.environ["TEXTUAL_COLOR_SYSTEM"] = config.server.color_system
    # Import the screens now, not during the first player's login, and patch
    # Textual once for the whole process (app_host says how).
    apps = app_host()
    from server.club import Club
    from server.health import HealthMonitor
    from server.heap import HeapKeeper
    from server.hostkey import HostKeyError, fingerprint, load_or_create
    from server.hub import Hub
    from server.ops import RESTORE_HELP
    from server.ssh import ThroneServer, capture_process_output
    from server.storage import DatabaseCorrupt, DatabaseReadOnly, Storage, StorageError
    from server.thinking import Thinker

    try:
        key, created = load_or_create(config.host_key_path)
    except HostKeyError as exc:
        log.error("%s", exc)
        return 2
    fp = fingerprint(key)
    if created:
        _say(f"throneroom: generated host key {config.host_key_path}")
    _say(f"throneroom: host key fingerprint {fp}")
    log.info("host key %s %s", config.host_key_path, fp)

    config.server.db_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        storage = Storage(config.server.db_path, synchronous=config.storage.synchronous)
    except (sqlite3.Error, StorageError) as exc:
        log.error("cannot open the database %s: %s", config.server.db_path, exc)
        _say(f"throneroom: cannot open the database {config.server.db_path}: {exc}")
        _say(f"throneroom: {RESTORE_HELP}" if isinstance(exc, DatabaseCorrupt) else
             "throneroom: `throneroom check` says what is wrong; deploy/README.md says how to restore a backup")
        return 2
    if config.storage.check_at_start:
        try:
            storage.check()
        except (DatabaseCorrupt, DatabaseReadOnly) as exc:
            storage.close()
            log.error("%s", exc)
            _say(f"throneroom: {exc}")
            if isinstance(exc, DatabaseCorrupt):
                _say(f"throneroom: {RESTORE_HELP}")
            return 2
    rooms = config.rooms
    hub = Hub(
        storage,
        host_fingerprint=fp,
        bot_delay=rooms.bot_delay,
        grace_period=rooms.grace_period,
        intermission=rooms.intermission,
        away_after=rooms.away_after,
        club=Club(storage, config_admins=config.players.admins),
        members_only=config.players.members == "invite",
        storage_retry=config.storage.retry_interval,
        thinker=Thinker(),
        spam=config.spam,
        netblock=config.limits.netblock,
    )
    heap = HeapKeeper(retired=lambda: server.retired, opened=lambda: server.opened)
    server = ThroneServer(config, hub=hub, storage=storage, host_key=key, apps=apps, heap=heap)
    hub.drawing = lambda: server.drawing > 0  # who came and went waits for the first screens (Hub.drawing)
    health = HealthMonitor()
    stop_metrics: Callable[[], None] | None = None
    stop = asyncio.Event()
    stopped_by: list[str] = []

    def stopping(sig: signal.Signals) -> None:
        if not stop.is_set():
            stopped_by.append(sig.name)
        stop.set()

    loop = asyncio.get_running_loop()
    signals = stop_signals()
    for sig in signals:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stopping, sig)
    try:
        await hub.start()
        assert hub.thinker is not None
        hub.thinker.warm()  # the strong bots' workers start now, not at a table's first search
        warm = await server.warm_up()
        if warm is not None:
            log.info("warmed up: a lobby drawn in %.0f ms", warm * 1000)
        heap.start()  # collects and freezes what start-up made: before the first player, not during
        try:
            port = await server.start()
        except OSError as exc:
            log.error("cannot listen on %s:%s: %s", config.server.host, config.server.port, exc)
            return 2
        host = config.server.host
        _say(f"throneroom: listening on {host}:{port}")
        shown = "localhost" if host in ("0.0.0.0", "::", "127.0.0.1", "") else host
        _say(f"throneroom: players connect with: ssh -p {port} yourname@{shown}")
        log.info("listening on %s:%s", host, port)
        capture_process_output()
        health.start()
        if config.metrics.enabled:
            from server.metrics import start_endpoint

            try:
                stop_metrics, metrics_port = start_endpoint(
                    config.metrics.host, config.metrics.port, lambda: hub.last_status
                )
            except OSError as exc:
                log.error("cannot serve metrics on %s:%s: %s", config.metrics.host, config.metrics.port, exc)
            else:
                _say(f"throneroom: metrics on http://{config.metrics.host}:{metrics_port}/metrics")
        await stop.wait()
        log.info("shutting down (%s)", ", ".join(stopped_by) or "stop requested")
    finally:
        await health.stop()
        if stop_metrics is not None:
            stop_metrics()
        await heap.stop()
        hub.begin_stop()
        await server.stop()
        await hub.stop()
        if hub.thinker is not None:
            hub.thinker.close()
        storage.close()
        log.info("stopped")
        _ignore_stop_signals(loop, signals)
    return 0


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
"""What stops the server (the first one), once its stop is under way ignored."""

TERMINAL_SIGNALS = (signal.SIGINT, signal.SIGHUP)
"""The terminal's: a server started to ignore them (``nohup``, ``&`` in a script) goes on ignoring them."""


def stop_signals() -> tuple[signal.Signals, ...]:
    """The signals that stop this server: ``STOP_SIGNALS`` but the terminal's
    ones this process was started to ignore (SIGHUP under ``nohup``, SIGINT in
    a background job), which must go on not stopping it."""
    return tuple(
        sig for sig in STOP_SIGNALS
        if sig not in TERMINAL_SIGNALS or signal.getsignal(sig) != signal.SIG_IGN
    )


def _ignore_stop_signals(loop: asyncio.AbstractEventLoop, signals: tuple[signal.Signals, ...]) -> None:
    """From here on a second SIGTERM or Ctrl-C changes nothing: everything is
    saved and closed. The loop would put the default handlers back as it
    closes, and a signal in the interpreter's last moments (an operator's
    second Ctrl-C, a supervisor repeating its SIGTERM) would kill the process
    with it instead of the exit code 0 of a clean stop."""
    signal.pthread_sigmask(signal.SIG_BLOCK, signals)  # none lands between the two handlers
    try:
        for sig in signals:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)  # so that closing the loop leaves ours
                signal.signal(sig, signal.SIG_IGN)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, signals)  # what came meanwhile: ignored


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command != "serve":
            return ops.run(args, with_overrides(load_config(args.config), db_path=args.db))
        config = with_overrides(
            load_config(args.config),
            host=args.host,
            port=args.port,
            keys_dir=args.keys,
            db_path=args.db,
            bot_delay=args.bot_delay,
        )
    except ConfigError as exc:
        print(f"throneroom: {exc}", file=sys.stderr)
        return 2
    setup_logging(config)
    try:
        return asyncio.run(serve(config))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
