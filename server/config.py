"""Server configuration: a typed model with documented defaults, loaded from TOML.

Every setting has a default that suits a club host, so no file is needed.
A config file (``throneroom serve --config FILE``) may set any subset; the
command-line flags ``--host --port --keys --db`` override the file. The file
``deploy/throneroom.toml`` lists every setting with its default.

Relative paths are taken relative to the directory the server is started in.
Unknown keys are errors (a typo must not silently fall back to a default).
"""

from __future__ import annotations

import ipaddress
import tomllib
from pathlib import Path
from typing import Literal

from asyncssh.encryption import get_encryption_algs
from asyncssh.mac import get_mac_algs
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from protocol.contract import AWAY_AFTER

CIPHERS = (
    "aes128-gcm@openssh.com",
    "aes256-gcm@openssh.com",
    "aes128-ctr",
    "aes192-ctr",
    "aes256-ctr",
)
"""The ciphers offered by default. Not chacha20-poly1305: the client picks, and
OpenSSH's client picks it first when offered, but in asyncssh it costs ~5 times
the CPU of AES per packet (two cipher set-ups and a Poly1305 key for each one;
AES-GCM and AES-CTR use the CPU's AES instructions), and a game server sends a
packet per frame to every screen. Every SSH client has AES-CTR (PuTTY since
2005, OpenSSH since 2002); OpenSSH's client picks ``aes128-ctr``."""

MACS = (
    "hmac-sha2-256-etm@openssh.com",
    "hmac-sha2-512-etm@openssh.com",
    "hmac-sha2-256",
    "hmac-sha2-512",
)
"""The MACs offered with AES-CTR (AES-GCM brings its own): SHA-2 only, encrypt-
then-MAC first. Not UMAC: it needs libnettle and costs more than HMAC-SHA-256
here."""


def _algorithms(kind: str, names: tuple[str, ...], supported: list[bytes]) -> tuple[str, ...]:
    """Check a list of SSH algorithm names against what asyncssh offers."""
    if not names:
        raise ValueError(f"give at least one {kind}")
    known = {alg.decode("ascii") for alg in supported}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(f"unknown {kind} {', '.join(unknown)}; this server knows {', '.join(sorted(known))}")
    return names


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ServerSection(_Section):
    host: str = "0.0.0.0"
    """Address to listen on (``0.0.0.0``: every IPv4 address; ``::`` for IPv6 too)."""
    port: int = Field(default=2222, ge=0, le=65535)
    """TCP port (0 picks a free port, useful for tests)."""
    keys_dir: Path = Path("keys")
    """Folder of the host key (``ssh_host_ed25519_key``, made on first start, mode 0600)."""
    db_path: Path = Path("data/throneroom.db")
    """SQLite database: identities, rooms, matches, action logs, results."""
    public_host: str = ""
    """Host name shown to players in hints like ``ssh -p 2222 name@HOST``;
    empty: the address the player connected to."""
    public_port: int = Field(default=0, ge=0, le=65535)
    """Port shown in those hints; 0: the listening port."""
    color_system: Literal["truecolor", "256", "standard"] = "truecolor"
    """Colours sent to every terminal (one choice per process; see deploy/README.md)."""
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_file: Path | None = None
    """Also append the log to this file (the log always goes to stderr)."""
    ciphers: tuple[str, ...] = CIPHERS
    """SSH ciphers offered; the client picks the first of its own list that is here
    (see :data:`CIPHERS` for why chacha20-poly1305 is not offered by default)."""
    macs: tuple[str, ...] = MACS
    """SSH MACs offered (used with the CTR ciphers; GCM has its own)."""

    @field_validator("ciphers")
    @classmethod
    def _known_ciphers(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        return _algorithms("cipher", names, get_encryption_algs())

    @field_validator("macs")
    @classmethod
    def _known_macs(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        return _algorithms("MAC", names, get_mac_algs())


class LimitsSection(_Section):
    max_sessions: int = Field(default=300, ge=1)
    """Players connected at once; more get a 'server is full' message."""
    max_per_address: int = Field(default=50, ge=1)
    """Open SSH connections from one IP address (a club behind one NAT counts as one address)."""
    login_grace: float = Field(default=30.0, gt=0)
    """Seconds a connection may take to authenticate."""
    idle_timeout: float = Field(default=3600.0, ge=0)
    """Seconds without a keystroke before a session is closed (0: never)."""
    keepalive_interval: float = Field(default=30.0, ge=0)
    """Seconds between SSH keepalives; dead connections are found this way (0: off)."""
    keepalive_count_max: int = Field(default=3, ge=1)
    """Unanswered keepalives before a connection is dropped."""
    max_startups: str = "30:30:100"
    """Connections not logged in yet, all sources together (sshd's MaxStartups
    ``start:rate:full``): beyond ``start`` a new one is refused with probability
    ``rate`` %, rising linearly to 100 % at ``full``; a single number N means N:100:N."""
    per_source_max_startups: int = Field(default=10, ge=1)
    """Connections not logged in yet from one source (see ``per_source_netblock``);
    logged-in players never count, so a venue behind one NAT is never locked out."""
    per_source_netblock: str = "32:64"
    """Prefix lengths ``IPv4:IPv6`` that make one source (an IPv6 user gets a /64)."""
    startup_evict_after: float = Field(default=1.0, gt=0)
    """At a cap, a connection silent this many seconds after it opened (no SSH
    version line; a client sends it at once), or not authenticating five times
    that long after, is closed to make room for a new one."""
    max_auth_tries: int = Field(default=6, ge=1)
    """Refused authentication attempts on one connection before it is closed (sshd's MaxAuthTries)."""
    penalty_noauth: float = Field(default=1.0, ge=0)
    """Penalty seconds a source gets for a connection that spoke SSH and ended
    without logging in (sshd's PerSourcePenalties; silent sockets add none)."""
    penalty_authfail: float = Field(default=5.0, ge=0)
    """... for one that ends with refused authentication attempts and no login."""
    penalty_grace: float = Field(default=10.0, ge=0)
    """... for one that ran out of ``login_grace``."""
    penalty_min: float = Field(default=15.0, gt=0)
    """A source whose penalty reaches this many seconds is refused at accept until it runs out."""
    penalty_max: float = Field(default=600.0, gt=0)
    """The longest a source's penalty runs ahead."""
    penalty_exempt: tuple[str, ...] = ()
    """Networks never penalised (CIDR, e.g. ``"192.0.2.0/24"``): a club's own NAT address, say."""
    sessions_per_connection: int = Field(default=2, ge=1)
    """Session channels open at once on one SSH connection (sshd's MaxSessions):
    more are refused, so one connection cannot fill ``max_sessions`` past
    ``max_per_address``."""
    unused_connection_timeout: float = Field(default=30.0, ge=0)
    """Seconds an authenticated connection may stay without a session (``ssh -N``)
    before it is closed (sshd's UnusedConnectionTimeout; 0: never)."""
    max_cols: int = Field(default=500, ge=20)
    """Widest terminal drawn, in columns: every size a client reports (window
    change, in-band resize) is clamped to it (a frame's cost grows with its cells)."""
    max_rows: int = Field(default=200, ge=10)
    """Tallest terminal drawn, in rows (clamped like :attr:`max_cols`)."""
    resize_interval: float = Field(default=0.2, ge=0)
    """Seconds between two resizes a session applies; the sizes reported meanwhile
    are coalesced into the last one (each resize redraws the whole screen)."""
    max_frame_bytes: int = Field(default=4 * 1024 * 1024, ge=64 * 1024)
    """Bytes one write to a terminal may have; a bigger frame is dropped (and logged)."""
    input_rate: int = Field(default=32 * 1024, ge=1024)
    """Input bytes per second a session may send, sustained (typing is a few bytes);
    beyond its budget input is dropped."""
    input_burst: int = Field(default=128 * 1024, ge=4096)
    """Input bytes a session may send at once (a long paste)."""
    input_queue: int = Field(default=256, ge=16)
    """Input events (keys, clicks, pastes) waiting for a session's App; input
    beyond is held unparsed (at most ``input_burst`` characters), then dropped."""
    input_flood_timeout: float = Field(default=10.0, ge=0)
    """Seconds a session may go on sending input that is dropped (over its budget,
    or faster than its App reads) before it is closed with a message (0: never)."""
    paste_max: int = Field(default=64 * 1024, ge=1024)
    """Characters of one bracketed paste kept (a chat line takes a few hundred)."""
    paste_timeout: float = Field(default=5.0, gt=0)
    """Seconds a bracketed paste may stay open: a paste whose end marker never
    comes ends then with what it has (every later key went into it)."""
    warn_interval: float = Field(default=60.0, ge=0)
    """Seconds between two log lines of one kind of warning a client can trigger
    (bad input, floods); the lines left out are counted in the next one."""


    @field_validator("max_startups")
    @classmethod
    def _startups_format(cls, text: str) -> str:
        _parse_startups(text)
        return text

    @field_validator("per_source_netblock")
    @classmethod
    def _netblock_format(cls, text: str) -> str:
        _parse_netblock(text)
        return text

    @field_validator("penalty_exempt")
    @classmethod
    def _exempt_networks(cls, nets: tuple[str, ...]) -> tuple[str, ...]:
        for net in nets:
            try:
                ipaddress.ip_network(net, strict=False)
            except ValueError as exc:
                raise ValueError(f"not a network: {net!r}") from exc
        return nets

    @property
    def startups(self) -> tuple[int, int, int]:
        """``max_startups`` as (start, rate %, full)."""
        return _parse_startups(self.max_startups)

    @property
    def netblock(self) -> tuple[int, int]:
        """``per_source_netblock`` as (IPv4 prefix, IPv6 prefix)."""
        return _parse_netblock(self.per_source_netblock)


def _parse_startups(text: str) -> tuple[int, int, int]:
    try:
        parts = [int(part) for part in text.split(":")]
    except ValueError:
        parts = []
    if len(parts) == 1 and parts[0] >= 1:
        return parts[0], 100, parts[0]
    if len(parts) != 3 or not (1 <= parts[0] <= parts[2] and 0 <= parts[1] <= 100):
        raise ValueError('give "start:rate:full" with 1 <= start <= full and rate 0-100, or one number')
    return parts[0], parts[1], parts[2]


def _parse_netblock(text: str) -> tuple[int, int]:
    try:
        v4, v6 = (int(part) for part in text.split(":"))
    except ValueError:
        raise ValueError('give "IPv4 prefix:IPv6 prefix", e.g. "32:64"') from None
    if not (1 <= v4 <= 32 and 1 <= v6 <= 128):
        raise ValueError("prefixes are 1-32 (IPv4) and 1-128 (IPv6)")
    return v4, v6


class PlayersSection(_Section):
    allow_guests: bool = True
    """Clients without an SSH key may play as guests (they cannot take a key-owned name)."""
    members: Literal["open", "invite"] = "open"
    """"invite": only member keys get in (an admin's invite code makes a key a member); no guests."""
    admins: tuple[str, ...] = ()
    """Key fingerprints (SHA256:...) of the club's admins; admins may add more in the app."""
    names_per_key: int = Field(default=3, ge=1)
    """Names one key may own; a key that owns as many is refused another (squatting)."""
    name_claims_per_hour: int = Field(default=3, ge=1)
    """New names one key may claim in an hour."""
    protect_lookalikes: bool = True
    """A key-owned name also protects every name that could pass for it (one Unicode
    UTS #39 skeleton, marks and case aside: ``a1ice``, ``ɑlice``, ``alicé`` for ``alice``)."""

    @field_validator("admins")
    @classmethod
    def _fingerprints(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for fp in value:
            if not fp.startswith("SHA256:"):
                raise ValueError(f"{fp!r} is not a key fingerprint (ssh-keygen -lf KEY.pub shows SHA256:...)")
        return value


class RoomsSection(_Section):
    bot_delay: float = Field(default=1.0, ge=0)
    """Seconds a bot 'thinks' before acting (0 in tests)."""
    grace_period: float = Field(default=60.0, ge=0)
    """Seconds a disconnected player's seat waits before a bot plays it."""
    intermission: float | None = Field(default=None, ge=0)
    """The longest, in seconds, any room shows a round's result before dealing the
    next, whatever its own "between rounds" setting (unset: the room's setting)."""
    away_after: int = Field(default=AWAY_AFTER, ge=1)
    """A player's own decisions in a row whose time ran out before a stand-in bot plays their seat (any key of theirs takes it back)."""


class SpamSection(_Section):
    """What one source (an IPv4 address, an IPv6 /64: ``limits.per_source_netblock``)
    may make others read or pay for, beyond each name's own chat limit (8 lines at
    once, then one every 1.5 s; a connection has one name)."""

    chat_per_source_burst: int = Field(default=12, ge=1)
    """Chat lines all the names of one source may send at once (lobby and rooms together)..."""
    chat_per_source_every: float = Field(default=1.0, gt=0)
    """...then one every this many seconds."""
    presence_line_every: float = Field(default=60.0, ge=0)
    """A room says "NAME is watching" for one name at most once in this many seconds."""
    presence_per_source_burst: int = Field(default=6, ge=1)
    """Such lines the names of one source may cause at once (in all rooms)..."""
    presence_per_source_every: float = Field(default=10.0, gt=0)
    """...then one every this many seconds; past that the watcher watches unannounced."""
    rooms_per_source: int = Field(default=5, ge=1)
    """Open rooms created from one source."""
    rooms_total: int = Field(default=200, ge=1)
    """Open rooms on the server."""


DEFAULT_SYNCHRONOUS: Literal["normal", "full"] = "full"
"""SQLite's ``synchronous`` for the database (one source: the config's default and
``server.storage.Storage``'s)."""


DEFAULT_STORAGE_RETRY = 5.0
"""Seconds before a match stopped by a failed write tries again (one source: the
config's default and ``server.room.RoomEnv``'s)."""


class StorageSection(_Section):
    synchronous: Literal["normal", "full"] = DEFAULT_SYNCHRONOUS
    """"full": every committed action is on the disk before the game goes on (a power
    cut loses nothing committed); "normal": faster, a power cut may lose the last
    commits (never corrupts)."""
    retry_interval: float = Field(default=DEFAULT_STORAGE_RETRY, gt=0)
    """Seconds before a match whose write failed (a full disk) tries again by itself."""
    check_at_start: bool = True
    """At start, check the database (SQLite's quick_check) and that it can be written:
    a corrupt or read-only database stops the server with what to do."""


class MetricsSection(_Section):
    enabled: bool = False
    """An HTTP endpoint with Prometheus metrics (players, rooms, actions/s, loop lag, memory, refusals by cause)."""
    host: str = "127.0.0.1"
    """Where it listens: keep it on the loopback (or a private network) and let Prometheus scrape it there."""
    port: int = Field(default=9464, ge=0, le=65535)


class Config(_Section):
    server: ServerSection = ServerSection()
    limits: LimitsSection = LimitsSection()
    players: PlayersSection = PlayersSection()
    rooms: RoomsSection = RoomsSection()
    storage: StorageSection = StorageSection()
    spam: SpamSection = SpamSection()
    metrics: MetricsSection = MetricsSection()

    @property
    def host_key_path(self) -> Path:
        return self.server.keys_dir / "ssh_host_ed25519_key"


class ConfigError(Exception):
    """The config file is missing, not TOML, or has a wrong key or value."""


def load_config(path: Path | None = None) -> Config:
    """Load ``path`` (TOML) over the defaults; ``None`` gives the defaults."""
    if path is None:
        return Config()
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from exc
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()
        )
        raise ConfigError(f"config file {path}: {problems}") from exc


def with_overrides(
    config: Config,
    *,
    host: str | None = None,
    port: int | None = None,
    keys_dir: Path | None = None,
    db_path: Path | None = None,
    bot_delay: float | None = None,
) -> Config:
    """Apply command-line flags on top of a loaded config."""
    server: dict[str, object] = {}
    if host is not None:
        server["host"] = host
    if port is not None:
        server["port"] = port
    if keys_dir is not None:
        server["keys_dir"] = keys_dir
    if db_path is not None:
        server["db_path"] = db_path
    rooms: dict[str, object] = {}
    if bot_delay is not None:
        rooms["bot_delay"] = bot_delay
    merged = config.model_dump()
    merged["server"].update(server)
    merged["rooms"].update(rooms)
    try:
        return Config.model_validate(merged)
    except ValidationError as exc:
        raise ConfigError(str(exc)) from exc
