"""Config loading (server/config.py), the host key (server/hostkey.py), CLI
flags and logging (server/cli.py)."""

from __future__ import annotations

import logging
import signal
import stat
from pathlib import Path

import asyncssh
import pytest

from server.cli import build_parser, main, setup_logging, stop_signals
from server.config import Config, ConfigError, ServerSection, load_config, with_overrides
from server.hostkey import HostKeyError, fingerprint, load_or_create
from server.ssh import LogStream, lang_from_env

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("ignored", [signal.SIGHUP, signal.SIGINT])
def test_the_terminal_signals_a_server_was_started_to_ignore_do_not_stop_it(ignored: signal.Signals) -> None:
    """SIGHUP under ``nohup``, SIGINT in a background job: left ignored. SIGTERM always stops.

    Both start from their defaults here: pytest itself may run with one of them
    ignored (the suite started as a background job of a script ignores SIGINT)."""
    terminal = (signal.SIGHUP, signal.SIGINT)
    before = {sig: signal.getsignal(sig) for sig in terminal}
    try:
        for sig in terminal:
            signal.signal(sig, signal.SIG_DFL)
        assert set(stop_signals()) == {signal.SIGTERM, signal.SIGINT, signal.SIGHUP}
        signal.signal(ignored, signal.SIG_IGN)
        assert set(stop_signals()) == {signal.SIGTERM, signal.SIGINT, signal.SIGHUP} - {ignored}
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
    before_term = signal.getsignal(signal.SIGTERM)
    try:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        assert signal.SIGTERM in stop_signals()
    finally:
        signal.signal(signal.SIGTERM, before_term)


def test_defaults_suit_a_club_host() -> None:
    config = Config()
    assert config.server.port == 2222
    assert config.server.host == "0.0.0.0"
    assert config.server.keys_dir == Path("keys")
    assert config.server.db_path == Path("data/throneroom.db")
    assert config.host_key_path == Path("keys/ssh_host_ed25519_key")
    assert config.players.allow_guests is True


def test_example_config_lists_every_setting_with_its_default() -> None:
    example = ROOT / "deploy" / "throneroom.toml"
    assert load_config(example) == Config()
    text = example.read_text(encoding="utf-8")
    for section, model in Config().model_dump().items():
        assert f"[{section}]" in text
        for key in model:
            assert f"{key} =" in text, f"{section}.{key} missing from {example}"


def test_partial_file_and_flag_overrides(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[server]\nport = 2022\n[limits]\nidle_timeout = 0\n[players]\nallow_guests = false\n')
    config = load_config(path)
    assert config.server.port == 2022 and config.limits.idle_timeout == 0
    assert not config.players.allow_guests
    assert config.limits.max_sessions == Config().limits.max_sessions
    over = with_overrides(config, port=0, host="127.0.0.1", keys_dir=tmp_path, bot_delay=0)
    assert (over.server.port, over.server.host, over.server.keys_dir) == (0, "127.0.0.1", tmp_path)
    assert over.rooms.bot_delay == 0
    assert not over.players.allow_guests  # untouched by flags


@pytest.mark.parametrize(
    "body, fragment",
    [
        ("[server]\nprot = 1\n", "server.prot"),  # a typo is an error, not a silent default
        ("[server]\nport = 70000\n", "server.port"),
        ("[limits]\nmax_sessions = 0\n", "limits.max_sessions"),
        ("[server\n", "not valid TOML"),
        ('[server]\ncolor_system = "rainbow"\n', "server.color_system"),
        ('[server]\nciphers = ["rot13"]\n', "unknown cipher rot13"),
        ("[server]\nciphers = []\n", "give at least one cipher"),
        ('[server]\nmacs = ["hmac-sha2-256", "crc32"]\n', "unknown MAC crc32"),
    ],
)
def test_bad_config_is_a_clear_error(tmp_path: Path, body: str, fragment: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(body)
    with pytest.raises(ConfigError, match=fragment.replace(".", r"\.")):
        load_config(path)


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "nope.toml")


def test_cli_reports_config_errors_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[rooms]\nbot_delay = -1\n")
    assert main(["serve", "--config", str(path)]) == 2
    assert "rooms.bot_delay" in capsys.readouterr().err


def test_cli_flags() -> None:
    args = build_parser().parse_args(
        ["serve", "--host", "::", "--port", "0", "--keys", "k", "--db", "d.db", "--bot-delay", "0"]
    )
    assert (args.host, args.port, args.keys, args.db, args.bot_delay) == ("::", 0, Path("k"), Path("d.db"), 0.0)


def test_host_key_is_made_once_with_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "ssh_host_ed25519_key"
    key, created = load_or_create(path)
    assert created
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert key.algorithm == b"ssh-ed25519"
    assert fingerprint(key).startswith("SHA256:")
    again, created_again = load_or_create(path)
    assert not created_again
    assert fingerprint(again) == fingerprint(key)
    pub = asyncssh.read_public_key(str(path) + ".pub")
    assert pub.get_fingerprint("sha256") == fingerprint(key)


def test_unreadable_host_key_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "ssh_host_ed25519_key"
    path.write_text("not a key")
    with pytest.raises(HostKeyError):
        load_or_create(path)


def test_log_stream_sends_lines_to_the_log(caplog: pytest.LogCaptureFixture) -> None:
    stream = LogStream(logging.getLogger("t.capture"), logging.INFO)
    with caplog.at_level(logging.INFO, logger="t.capture"):
        stream.write("hello ")
        stream.write("world\nsecond")
        assert [r.getMessage() for r in caplog.records] == ["hello world"]
        stream.flush()
        assert [r.getMessage() for r in caplog.records] == ["hello world", "second"]


def test_log_stream_that_logging_writes_back_into_does_not_recurse(monkeypatch: pytest.MonkeyPatch) -> None:
    # a logger with no handler anywhere: logging's last resort writes to sys.stderr,
    # which is the stream itself when an App runs (bench screens, no logging set up)
    import io

    logger = logging.getLogger("t.unhandled")
    logger.propagate = False
    real = io.StringIO()
    stream = LogStream(logger, logging.WARNING)
    monkeypatch.setattr(logging, "lastResort", logging._StderrHandler(logging.WARNING))  # type: ignore[attr-defined]
    monkeypatch.setattr("sys.stderr", stream)
    monkeypatch.setattr("sys.__stderr__", real)
    stream.write("a warning\n")
    assert real.getvalue() == "a warning\n"


def test_setup_logging_writes_to_the_given_stream_and_file(tmp_path: Path) -> None:
    import io

    out = io.StringIO()
    config = Config(server=ServerSection(log_file=tmp_path / "l.log"))
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        setup_logging(config, stream=out)
        logging.getLogger("throneroom.test").info("a line")
        for handler in root.handlers:
            handler.flush()
        assert "a line" in out.getvalue()
        assert "a line" in (tmp_path / "l.log").read_text()
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
            handler.close()
        for handler in saved[0]:
            root.addHandler(handler)
        root.setLevel(saved[1])


@pytest.mark.parametrize(
    "env, lang",
    [
        ({"LANG": "zh_TW.UTF-8"}, "zh"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "zh_HK.UTF-8"}, "zh"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, None),
    ],
)
def test_language_from_the_client_locale(env: dict[str, str], lang: str | None) -> None:
    assert lang_from_env(env) == lang
