"""The asyncssh server (server/ssh/) driven by a real asyncssh client on
127.0.0.1: names and key ownership, guests, refusals, limits, crash isolation,
teardown. Uses an in-memory storage, a recording hub and a tiny App, so only
the SSH layer is under test."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

import asyncssh
import pyte
import pytest
from asyncssh.mac import get_mac_algs
from textual import events
from textual.app import App, ComposeResult
from textual.driver import Driver
from textual.widgets import Static

from protocol.contract import Identity, LobbyClient
from server.cli import app_host
from server.config import Config, LimitsSection, PlayersSection, ServerSection
from server.heap import HeapKeeper
from server.ssh import Connection, ThroneServer
from server.ssh.apphost import RETIRE_RETRY
from server.storage import Storage

# -- fakes ----------------------------------------------------------------------


class MemoryStorage:
    def __init__(self) -> None:
        self.owners: dict[str, str] = {}
        self.langs: dict[str, str] = {}

    def claim_name(self, name: str, key_fingerprint: str, *, lookalikes: bool = True) -> bool:
        owner = self.owners.setdefault(name, key_fingerprint)
        return owner == key_fingerprint

    def key_owner(self, name: str) -> str | None:
        return self.owners.get(name)

    def lookalike_owner(self, name: str, key_fingerprint: str | None = None) -> str | None:
        return None  # the real Storage's look-alikes are tested with it

    def names_of(self, key_fingerprint: str) -> list[str]:
        return [name for name, fp in self.owners.items() if fp == key_fingerprint]

    def claims_since(self, key_fingerprint: str, since: float) -> int:
        return 0  # the real Storage's claim times are tested with it

    def get_lang(self, name: str) -> str | None:
        return self.langs.get(name)


class FakeLobby:
    def __init__(self, identity: Identity) -> None:
        self.identity = identity


class RecordingHub:
    def __init__(self) -> None:
        self.connected: list[Identity] = []
        self.live: list[FakeLobby] = []
        self.disconnected: list[str] = []
        self.guest_seats: set[str] = set()

    def connect(self, identity: Identity) -> LobbyClient:
        lobby = FakeLobby(identity)
        self.connected.append(identity)
        self.live.append(lobby)
        return lobby  # type: ignore[return-value]

    def disconnect(self, client: LobbyClient) -> None:
        assert isinstance(client, FakeLobby)
        self.live.remove(client)
        self.disconnected.append(client.identity.name)

    def guest_seated(self, name: str) -> bool:
        return name in self.guest_seats


class CrashError(RuntimeError):
    pass


class HelloApp(App[None]):
    """Shows who logged in and echoes typed characters."""

    def __init__(self, lobby: LobbyClient, driver_class: type[Driver]) -> None:
        super().__init__(driver_class=driver_class)
        self.lobby = lobby
        self.typed = ""

    def compose(self) -> ComposeResult:
        ident = self.lobby.identity
        yield Static(f"hello {ident.name} guest={ident.guest} lang={ident.lang}", id="hello")
        yield Static("typed:", id="echo")
        yield Static("", id="size")

    def on_mount(self) -> None:
        if self.lobby.identity.name == "crash":
            private_hand = ", ".join(["Side" + "step", "Plead" + "Guilty"])  # a local's value (not in the source)
            raise CrashError(f"boom in one session ({len(private_hand)})")
        if self.lobby.identity.name == "flood":
            self.frame = 0
            self.flood = self.set_interval(0.005, self._flood)

    def _flood(self) -> None:
        """A whole new screenful of text every tick."""
        self.frame += 1
        self.query_one("#hello", Static).update(f"frame{self.frame:06d} " * 700)

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isprintable():
            self.typed += event.character
            self.query_one("#echo", Static).update(f"typed:{self.typed}")
        if event.key == "q":
            self.exit()
        if event.key == "p":
            print(f"printed by {self.lobby.identity.name}")
        if event.key == "s" and self.lobby.identity.name == "flood":
            self.flood.stop()
            self.query_one("#hello", Static).update(f"stopped at frame{self.frame:06d} " * 3)

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#size", Static).update(f"size={event.size.width}x{event.size.height}")


# -- fixtures -------------------------------------------------------------------


class Harness:
    def __init__(self, server: ThroneServer, storage: MemoryStorage, hub: RecordingHub) -> None:
        self.server = server
        self.storage = storage
        self.hub = hub

    @property
    def port(self) -> int:
        return self.server.port


MakeServer = Callable[..., Any]


@pytest.fixture
async def make_server() -> AsyncIterator[Callable[..., Any]]:
    started: list[ThroneServer] = []

    async def make(
        *,
        limits: LimitsSection | None = None,
        allow_guests: bool = True,
        ciphers: tuple[str, ...] | None = None,
        heap: HeapKeeper | None = None,
        storage: Any = None,
        players: PlayersSection | None = None,
    ) -> Harness:
        config = Config(
            server=ServerSection(host="127.0.0.1", port=0, **({"ciphers": ciphers} if ciphers else {})),
            limits=limits or LimitsSection(),
            players=players or PlayersSection(allow_guests=allow_guests),
        )
        storage = storage if storage is not None else MemoryStorage()
        hub = RecordingHub()
        server = ThroneServer(
            config,
            hub=hub,
            storage=storage,
            host_key=asyncssh.generate_private_key("ssh-ed25519"),
            apps=replace(app_host(), new_app=HelloApp),
            heap=heap,
        )
        await server.start()
        started.append(server)
        return Harness(server, storage, hub)

    yield make
    for server in started:
        await server.stop()


@pytest.fixture
async def harness(make_server: Callable[..., Any]) -> Harness:
    h: Harness = await make_server()
    return h


KEY_A = asyncssh.generate_private_key("ssh-ed25519")
KEY_B = asyncssh.generate_private_key("ssh-ed25519")


class BannerClient(asyncssh.SSHClient):
    banners: list[str]

    def __init__(self) -> None:
        self.banners = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)

    def kbdint_auth_requested(self) -> str:
        return ""  # like OpenSSH: try keyboard-interactive after keys fail


async def connect(
    port: int, user: str, key: asyncssh.SSHKey | None = None, **kw: Any
) -> tuple[asyncssh.SSHClientConnection, BannerClient]:
    conn, client = await asyncssh.create_connection(
        BannerClient,
        "127.0.0.1",
        port,
        username=user,
        # None, not []: asyncssh loads the keys in ~/.ssh for an empty list, and a
        # keyless client would log in with the developer's own key
        client_keys=[key] if key is not None else None,
        known_hosts=None,
        agent_path=None,
        kbdint_auth=True,
        password_auth=False,
        gss_auth=False,
        **kw,
    )
    assert isinstance(client, BannerClient)
    return conn, client


class Screen:
    """A pyte screen fed from a client process."""

    def __init__(self, proc: asyncssh.SSHClientProcess[bytes], cols: int = 80, rows: int = 24) -> None:
        self.proc = proc
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, text: str, timeout: float = 10) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while text not in self.text() and text not in self.raw.decode("utf-8", "replace"):
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"{text!r} not on screen:\n{self.text()}")
            try:
                chunk = await asyncio.wait_for(self.proc.stdout.read(65536), remaining)
            except TimeoutError:
                continue
            if not chunk:
                if text in self.text() or text in self.raw.decode("utf-8", "replace"):
                    return
                raise AssertionError(f"session closed before {text!r}:\n{self.raw.decode('utf-8', 'replace')}")
            self.raw.extend(chunk)
            self.stream.feed(chunk)

    async def drain(self, timeout: float = 10) -> bytes:
        """Read until the session closes."""
        while True:
            chunk = await asyncio.wait_for(self.proc.stdout.read(65536), timeout)
            if not chunk:
                return bytes(self.raw)
            self.raw.extend(chunk)
            self.stream.feed(chunk)


async def open_tty(
    conn: asyncssh.SSHClientConnection, size: tuple[int, int] = (80, 24), **kw: Any
) -> Screen:
    proc = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None, **kw)
    return Screen(proc, *size)


async def until(cond: Callable[[], bool], timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not cond():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


# -- tests ----------------------------------------------------------------------


async def test_key_login_claims_the_name_and_runs_the_app(harness: Harness) -> None:
    conn, _ = await connect(harness.port, "alice", KEY_A)
    async with conn:
        screen = await open_tty(conn)
        await screen.wait_for("hello alice guest=False lang=en")
        assert harness.storage.key_owner("alice") == KEY_A.get_fingerprint("sha256")
        screen.proc.stdin.write("hi 世界".encode())
        await screen.wait_for("typed:hi 世界")
        screen.proc.stdin.write(b"q")
        await screen.drain()
    await until(lambda: harness.hub.disconnected == ["alice"])
    assert not harness.server.sessions


OPENSSH_CIPHERS = [
    "chacha20-poly1305@openssh.com", "aes128-ctr", "aes192-ctr", "aes256-ctr", "aes128-gcm@openssh.com", "aes256-gcm@openssh.com",
]
OPENSSH_MACS = [
    "umac-64-etm@openssh.com", "umac-128-etm@openssh.com", "hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com",
    "hmac-sha1-etm@openssh.com", "umac-64@openssh.com", "umac-128@openssh.com", "hmac-sha2-256", "hmac-sha2-512", "hmac-sha1",
]
"""OpenSSH's client offers these, in this order (``ssh_config(5)``); UMAC only
where asyncssh has it (it needs libnettle)."""
OPENSSH_MACS = [mac for mac in OPENSSH_MACS if mac.encode() in get_mac_algs()]


async def test_openssh_clients_get_aes_not_chacha20(harness: Harness) -> None:
    conn, _ = await connect(harness.port, "alice", KEY_A, encryption_algs=OPENSSH_CIPHERS, mac_algs=OPENSSH_MACS)
    async with conn:
        assert conn.get_extra_info("send_cipher") == "aes128-ctr"
        assert conn.get_extra_info("send_mac") == "hmac-sha2-256-etm@openssh.com"
        assert conn.get_extra_info("recv_cipher") == "aes128-ctr"
        screen = await open_tty(conn)
        await screen.wait_for("hello alice guest=False lang=en")
    conn, _ = await connect(harness.port, "bob", KEY_B, encryption_algs=["aes256-gcm@openssh.com"])
    async with conn:  # AES-GCM brings its own MAC
        assert conn.get_extra_info("send_cipher") == "aes256-gcm@openssh.com"
        screen = await open_tty(conn)
        await screen.wait_for("hello bob guest=False lang=en")


async def test_a_client_with_only_chacha20_is_refused_unless_the_config_offers_it(make_server: MakeServer) -> None:
    harness = await make_server()
    with pytest.raises(asyncssh.KeyExchangeFailed, match="encryption"):
        await connect(harness.port, "alice", KEY_A, encryption_algs=["chacha20-poly1305@openssh.com"])
    assert not harness.server.sessions
    chacha = await make_server(ciphers=("chacha20-poly1305@openssh.com", "aes128-ctr"))
    conn, _ = await connect(chacha.port, "alice", KEY_A, encryption_algs=OPENSSH_CIPHERS, mac_algs=OPENSSH_MACS)
    async with conn:
        assert conn.get_extra_info("send_cipher") == "chacha20-poly1305@openssh.com"
        screen = await open_tty(conn)
        await screen.wait_for("hello alice guest=False lang=en")


async def test_second_key_is_refused_for_an_owned_name_with_a_message(harness: Harness) -> None:
    harness.storage.claim_name("alice", KEY_A.get_fingerprint("sha256"))
    conn, client = await connect(harness.port, "alice", KEY_B)
    async with conn:
        screen = await open_tty(conn)
        out = (await screen.drain()).decode()
    # the banner says why and what to do; the session adds only what it did not say
    (banner,) = client.banners
    assert "belongs to another player's SSH key" in banner
    assert f"ssh -p {harness.port} othername@127.0.0.1" in banner
    assert "belongs to another" not in out and "othername" not in out
    assert "If the name 'alice' is yours, connect with the key you first used" in out
    assert harness.hub.connected == []  # never reached the lobby
    assert harness.storage.key_owner("alice") == KEY_A.get_fingerprint("sha256")


async def test_a_chinese_client_refused_for_an_owned_name_gets_the_whole_message_in_chinese(harness: Harness) -> None:
    harness.storage.claim_name("alice", KEY_A.get_fingerprint("sha256"))
    conn, client = await connect(harness.port, "alice", KEY_B)
    async with conn:
        out = (await (await open_tty(conn, env={"LANG": "zh_TW.UTF-8"})).drain()).decode()
    assert any("belongs to another" in b for b in client.banners)  # English: sent before the locale is known
    assert "名稱「alice」已屬於另一位玩家的 SSH 金鑰" in out and "othername" in out


async def test_owner_key_gets_in_after_a_wrong_key(harness: Harness) -> None:
    harness.storage.claim_name("alice", KEY_A.get_fingerprint("sha256"))
    conn, _ = await asyncssh.create_connection(
        BannerClient, "127.0.0.1", harness.port, username="alice",
        client_keys=[KEY_B, KEY_A], known_hosts=None, agent_path=None, kbdint_auth=False,
    )
    async with conn:
        screen = await open_tty(conn)
        await screen.wait_for("hello alice guest=False")


async def test_keyless_client_plays_as_guest(harness: Harness) -> None:
    conn, _ = await connect(harness.port, "bob")
    async with conn:
        screen = await open_tty(conn)
        await screen.wait_for("hello bob guest=True")
    assert harness.storage.key_owner("bob") is None  # guests claim nothing


async def test_guest_may_not_take_a_key_owned_name(harness: Harness) -> None:
    harness.storage.claim_name("alice", KEY_A.get_fingerprint("sha256"))
    conn, _ = await connect(harness.port, "alice")
    async with conn:
        out = (await (await open_tty(conn)).drain()).decode()
    assert "belongs to another player's SSH key" in out
    assert harness.hub.connected == []


async def test_guests_refused_when_the_config_says_so(make_server: MakeServer) -> None:
    h: Harness = await make_server(allow_guests=False)
    conn, _ = await connect(h.port, "bob")
    async with conn:
        out = (await (await open_tty(conn)).drain()).decode()
    assert "only admits players with an SSH key" in out
    assert "ssh-keygen" in out


async def test_two_guests_cannot_share_a_name_at_once(harness: Harness) -> None:
    conn1, _ = await connect(harness.port, "carol")
    async with conn1:
        first = await open_tty(conn1)
        await first.wait_for("hello carol")
        conn2, _ = await connect(harness.port, "carol")
        async with conn2:
            out = (await (await open_tty(conn2)).drain()).decode()
        assert "already playing as 'carol'" in out


async def test_hostile_and_empty_names(harness: Harness) -> None:
    # (asyncssh refuses user names with control or bidi characters at the
    # protocol level, on both ends; the OpenSSH end-to-end test sends them raw)
    conn, _ = await connect(harness.port, "]52;c;cHduZWQ=[/b]mallory")
    async with conn:
        screen = await open_tty(conn)
        await screen.wait_for("hello 52ccHduZWQbmallory guest=True")
    # the lobby tells the player the name it plays under, and what was asked (printable)
    assert harness.hub.connected[-1].asked_as == "]52;c;cHduZWQ=[/b]mallory"
    conn, _ = await connect(harness.port, "tidy_name", KEY_A)
    async with conn:
        await (await open_tty(conn)).wait_for("hello tidy_name")
    assert harness.hub.connected[-1].asked_as == ""  # a clean name is not remarked on
    conn, _ = await connect(harness.port, "[]!!")
    async with conn:
        out = (await (await open_tty(conn)).drain()).decode()
    assert "'[]!!' cannot be used as a player name" in out


async def test_a_name_that_could_pass_for_another_s_is_refused_and_never_claimed(harness: Harness) -> None:
    """Issue 3, Identities: "bellа" (a Cyrillic а) was let in beside "bella"
    and looked like her in the online list and the chat."""
    harness.storage.claim_name("bella", KEY_A.get_fingerprint("sha256"))
    for key in (KEY_B, None):  # with a key (told, not just denied), and as a guest
        conn, _ = await connect(harness.port, "bell\u0430", key)
        async with conn:
            out = (await (await open_tty(conn)).drain()).decode()
        assert "could pass for another player's name" in out, out
        assert f"ssh -p {harness.port} yourname@127.0.0.1" in out
    assert harness.storage.key_owner("bell\u0430") is None  # nothing was claimed
    assert harness.hub.connected == []
    conn, _ = await connect(harness.port, "\u0421\u0430\u0448\u0430", KEY_B)  # a Russian name is a name
    async with conn:
        await (await open_tty(conn)).wait_for("hello \u0421\u0430\u0448\u0430 guest=False")


LOOKALIKES_OF_ALICE = (
    "al\u0131\u0307ce",  # a dotless i with a dot above
    "\u0251lice",  # Latin alpha
    "a\u01c0ice",  # a dental click for the l
    "aIice",  # a capital I for the l
    "al\u0131ce",  # a dotless i
    "a1ice",  # a digit one for the l
    "alic\u00e9",  # an accent
)
"""Names issue 45 (finding 6) saw let in beside a key-owned ``alice``."""


async def test_a_name_that_looks_like_a_key_owned_one_is_refused_for_other_keys_and_guests(
    make_server: MakeServer,
) -> None:
    """Issue 45 finding 6: another key (and a guest) got in as ``a1ice``, ``ɑlice``,
    ``alicé``... beside ``alice``; the online list and chat showed them side by side.
    One UTS #39 skeleton with the owned name is refused, in both languages, and
    nothing is claimed; distinct names still get in."""
    storage = Storage(":memory:")
    h: Harness = await make_server(storage=storage)
    storage.claim_name("alice", KEY_A.get_fingerprint("sha256"))
    for name in LOOKALIKES_OF_ALICE:
        for key in (KEY_B, None):
            conn, _ = await connect(h.port, name, key)
            async with conn:
                out = (await (await open_tty(conn)).drain()).decode()
            assert f"The name '{name}' looks too much like 'alice'" in out, (name, key, out)
            assert f"ssh -p {h.port} othername@127.0.0.1" in out
            assert storage.key_owner(name) is None
    conn, _ = await connect(h.port, "a1ice", KEY_B)
    async with conn:
        out = (await (await open_tty(conn, env={"LANG": "zh_TW.UTF-8"})).drain()).decode()
    assert "名稱「a1ice」看起來跟「alice」太像了" in out
    assert h.hub.connected == []
    for name, key in (("alicia", KEY_B), ("malice", None), ("alex", KEY_B)):
        conn, _ = await connect(h.port, name, key)
        async with conn:
            await (await open_tty(conn)).wait_for(f"hello {name} guest={key is None}")
    conn, _ = await connect(h.port, "a1ice", KEY_A)  # the owner's own key may use a look-alike of its name
    async with conn:
        await (await open_tty(conn)).wait_for("hello a1ice guest=False")


async def test_look_alike_names_are_let_in_when_the_config_says_so(make_server: MakeServer) -> None:
    """players.protect_lookalikes = false: only the name itself is protected (issue 45 finding 6)."""
    storage = Storage(":memory:")
    h: Harness = await make_server(storage=storage, players=PlayersSection(protect_lookalikes=False))
    storage.claim_name("alice", KEY_A.get_fingerprint("sha256"))
    for key in (None, KEY_B):  # the guest first: the key then owns a1ice
        conn, _ = await connect(h.port, "a1ice", key)
        async with conn:
            await (await open_tty(conn)).wait_for(f"hello a1ice guest={key is None}")
    assert storage.key_owner("a1ice") == KEY_B.get_fingerprint("sha256")


async def test_language_from_client_env_and_stored_choice(harness: Harness) -> None:
    conn, _ = await connect(harness.port, "lin", KEY_A)
    async with conn:
        screen = await open_tty(conn, env={"LANG": "zh_TW.UTF-8"})
        await screen.wait_for("hello lin guest=False lang=zh")
    harness.storage.langs["lin"] = "en"  # an explicit choice wins over LANG
    conn, _ = await connect(harness.port, "lin", KEY_A)
    async with conn:
        screen = await open_tty(conn, env={"LANG": "zh_TW.UTF-8"})
        await screen.wait_for("hello lin guest=False lang=en")


async def test_no_pty_gets_one_clear_line(harness: Harness) -> None:
    conn, _ = await connect(harness.port, "dave", KEY_A)
    async with conn:
        result = await conn.run(term_type=None, encoding=None)
    stdout = result.stdout or b""
    out = stdout.decode() if isinstance(stdout, bytes) else stdout
    assert "needs a terminal" in out and "ssh -t" in out
    assert result.exit_status == 1
    assert harness.hub.connected == []


async def test_a_refused_name_without_a_pty_is_told_the_refusal_not_to_use_ssh_t(harness: Harness) -> None:
    """Without a PTY the session said "needs a terminal: ssh -t ... alice@...",
    a name this key may not use: the refusal comes first now."""
    harness.storage.claim_name("alice", KEY_A.get_fingerprint("sha256"))
    conn, _ = await connect(harness.port, "alice", KEY_B)
    async with conn:
        result = await conn.run(term_type=None, encoding=None)
    stdout = result.stdout or b""
    out = stdout.decode() if isinstance(stdout, bytes) else stdout
    assert "If the name 'alice' is yours" in out and "needs a terminal" not in out
    assert harness.hub.connected == []


async def test_exec_sftp_and_forwarding_are_refused(harness: Harness) -> None:
    conn, _ = await connect(harness.port, "eve", KEY_A)
    async with conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.run("cat /etc/passwd", check=True)
        with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
            await conn.start_sftp_client()
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", harness.port)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
    assert harness.hub.connected == []


async def test_window_change_reaches_the_app(harness: Harness) -> None:
    conn, _ = await connect(harness.port, "fay", KEY_A)
    async with conn:
        screen = await open_tty(conn, size=(100, 30))
        await screen.wait_for("size=100x30")
        screen.proc.change_terminal_size(120, 40)
        screen.screen.resize(40, 120)
        await screen.wait_for("size=120x40")


async def test_an_in_band_resize_over_ssh_is_clamped_like_a_window_change(make_server: MakeServer) -> None:
    """Issue 45 finding 1: ``printf '\\033[48;20000;20000;200000;200000t'`` into
    ``ssh -tt`` skipped the clamp (a 6 s freeze, ~2 GB); here at a bounded size."""
    h: Harness = await make_server(limits=LimitsSection(max_cols=90, max_rows=28))
    conn, _ = await connect(h.port, "gus", KEY_A)
    async with conn:
        screen = await open_tty(conn, size=(80, 24))
        await screen.wait_for("size=80x24")
        screen.proc.stdin.write(b"\x1b[48;300;900;0;0t")
        await screen.wait_for("size=90x28")
        screen.proc.change_terminal_size(2000, 2000)
        await asyncio.sleep(0.5)
        assert "size=900x300" not in screen.raw.decode("utf-8", "replace")
        assert all(s.terminal is None or s.terminal.size == (90, 28) for s in h.server.sessions)


async def test_crash_in_one_session_spares_the_others(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="throneroom.app")  # where Textual prints a crash
    conn1, _ = await connect(harness.port, "gina", KEY_A)
    async with conn1:
        ok = await open_tty(conn1)
        await ok.wait_for("hello gina")
        conn2, _ = await connect(harness.port, "crash", KEY_B)
        async with conn2:
            crashed = await open_tty(conn2)
            out = (await crashed.drain()).decode()
            assert "something went wrong" in out
            assert crashed.proc.exit_status == 1
        ok.proc.stdin.write(b"x")
        await ok.wait_for("typed:x")
    await until(lambda: sorted(harness.hub.disconnected) == ["crash", "gina"])
    crash_logs = [r for r in caplog.records if "session crash crashed" in r.getMessage()]
    assert crash_logs and crash_logs[0].exc_info is not None
    assert crash_logs[0].exc_info[0] is CrashError  # the traceback is in the server log
    # Textual's own rendering of it (the log at DEBUG) leaves the frames' locals out
    textual_traceback = "\n".join(r.getMessage() for r in caplog.records if r.name == "throneroom.app")
    assert "CrashError" in textual_traceback and "boom in one session" in textual_traceback
    assert "Sidestep" not in caplog.text and "PleadGuilty" not in caplog.text


async def test_print_in_a_session_goes_to_the_server_log(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="throneroom.app")
    conn, _ = await connect(harness.port, "pam", KEY_A)
    async with conn:
        screen = await open_tty(conn)
        await screen.wait_for("hello pam")
        screen.proc.stdin.write(b"p")
        await until(lambda: any("printed by pam" in r.getMessage() for r in caplog.records))
        await screen.wait_for("typed:p")
    assert "printed by pam" not in screen.raw.decode("utf-8", "replace")  # not on the player's screen


async def test_abrupt_disconnect_cleans_up(harness: Harness) -> None:
    conn, _ = await connect(harness.port, "hal", KEY_A)
    screen = await open_tty(conn)
    await screen.wait_for("hello hal")
    conn.abort()
    await until(lambda: harness.hub.disconnected == ["hal"] and not harness.server.sessions)
    assert not harness.hub.live
    await until(lambda: not harness.server.per_address)
    # and the server still serves
    conn, _ = await connect(harness.port, "hal", KEY_A)
    async with conn:
        await (await open_tty(conn)).wait_for("hello hal")


class RecordingKeeper(HeapKeeper):
    """Records each hold and release, and whether automatic collections ran after it."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[str, bool]] = []
        self.server: ThroneServer | None = None

    def hold(self) -> None:
        super().hold()
        self.events.append(("hold", gc.isenabled()))
        assert self.server is not None and self.server.drawing == 1  # held when the first starts drawing

    def release(self) -> None:
        super().release()
        self.events.append(("release", gc.isenabled()))


async def test_a_session_holds_the_automatic_collections_until_its_first_frame(
    make_server: MakeServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="throneroom.ssh")
    keeper = RecordingKeeper()
    h: Harness = await make_server(heap=keeper)
    keeper.server = h.server
    try:
        conn, _ = await connect(h.port, "ivy", KEY_A)
        async with conn:
            screen = await open_tty(conn)
            await screen.wait_for("hello ivy")
            assert keeper.events == [("hold", False), ("release", True)]
            assert gc.isenabled() and h.server.drawing == 0
            screen.proc.stdin.write(b"x")  # later frames hold nothing
            await screen.wait_for("typed:x")
            assert len(keeper.events) == 2
        # a session that ends before its first frame (its App crashes while mounting) lets go too
        conn, _ = await connect(h.port, "crash", KEY_B)
        async with conn:
            crashed = await open_tty(conn)
            await crashed.drain()
        await until(lambda: not h.server.sessions)
        assert keeper.events[2:] == [("hold", False), ("release", True)] and not keeper.held
        assert h.server.drawing == 0
        drawn = [r.getMessage() for r in caplog.records if "first frame" in r.getMessage()]
        assert len(drawn) == 1 and "ivy" in drawn[0]
    finally:
        gc.enable()


async def test_connections_per_address_limit(make_server: MakeServer) -> None:
    h: Harness = await make_server(limits=LimitsSection(max_per_address=2))
    c1, _ = await connect(h.port, "u1", KEY_A)
    c2, _ = await connect(h.port, "u2", KEY_A)
    try:
        with pytest.raises(asyncssh.DisconnectError, match="too many connections") as info:
            c3, _ = await connect(h.port, "u3", KEY_A)
            c3.close()
        assert info.value.code == asyncssh.DISC_TOO_MANY_CONNECTIONS
    finally:
        c1.close()
        c2.close()
    await until(lambda: not h.server.per_address)
    c4, _ = await connect(h.port, "u4", KEY_A)
    c4.close()


async def test_max_sessions(make_server: MakeServer) -> None:
    h: Harness = await make_server(limits=LimitsSection(max_sessions=1))
    conn1, _ = await connect(h.port, "ivy", KEY_A)
    async with conn1:
        await (await open_tty(conn1)).wait_for("hello ivy")
        conn2, _ = await connect(h.port, "jon", KEY_B)
        async with conn2:
            out = (await (await open_tty(conn2)).drain()).decode()
        assert "server is full" in out


async def test_idle_timeout_closes_a_silent_session(make_server: MakeServer) -> None:
    h: Harness = await make_server(limits=LimitsSection(idle_timeout=0.5))
    conn, _ = await connect(h.port, "kim", KEY_A)
    async with conn:
        screen = await open_tty(conn)
        out = (await screen.drain(timeout=10)).decode()
    assert "without a keypress" in out
    assert "\x1b[?1049l" in out  # terminal restored before the message


async def test_stop_closes_sessions_with_a_farewell(harness: Harness) -> None:
    conn, _ = await connect(harness.port, "lee", KEY_A)
    async with conn:
        screen = await open_tty(conn)
        await screen.wait_for("hello lee")
        await harness.server.stop()
        out = (await screen.drain()).decode()
    assert "shutting down" in out
    assert out.rfind("\x1b[?1049l") < out.rfind("shutting down")


async def test_stop_closes_connections_that_are_still_logging_in(make_server: MakeServer) -> None:
    # from Python 3.12 on, the listener's wait_closed waits for every connection:
    # one that never logged in kept a stopping server waiting (for its login grace)
    h: Harness = await make_server()
    reader, writer = await _silent_connection(h)
    try:
        await asyncio.wait_for(h.server.stop(), 10)
        await _until_eof(reader, 5)
    finally:
        writer.close()
    assert not h.server.connections


async def _silent_connection(h: Harness) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection that reads the server's banner and says nothing."""
    reader, writer = await asyncio.open_connection("127.0.0.1", h.port)
    banner = await asyncio.wait_for(reader.readline(), 5)
    assert banner.startswith(b"SSH-2.0-throneroom")
    return reader, writer


async def _until_eof(reader: asyncio.StreamReader, timeout: float) -> None:
    """Read until the server hangs up (at most ``timeout`` seconds)."""

    async def until_eof() -> None:
        while await reader.read(4096):
            pass

    await asyncio.wait_for(until_eof(), timeout)


async def test_login_grace_time_closes_a_silent_connection(make_server: MakeServer) -> None:
    h: Harness = await make_server(limits=LimitsSection(login_grace=0.5))
    reader, writer = await _silent_connection(h)
    try:
        await _until_eof(reader, 10)  # said nothing more: the server must hang up by itself
    finally:
        writer.close()
    await until(lambda: not h.server.per_address)


async def test_refusals_speak_the_client_language(harness: Harness) -> None:
    harness.storage.claim_name("alice", KEY_A.get_fingerprint("sha256"))
    conn, _ = await connect(harness.port, "alice", KEY_B)
    async with conn:
        out = (await (await open_tty(conn, env={"LANG": "zh_TW.UTF-8"})).drain()).decode()
    assert "已屬於另一位玩家的 SSH 金鑰" in out
    assert f"ssh -p {harness.port} othername@127.0.0.1" in out
    conn, _ = await connect(harness.port, "dave", KEY_A)
    async with conn:
        result = await conn.run(term_type=None, encoding=None, env={"LANG": "zh_TW.UTF-8"})
    stdout = result.stdout or b""
    assert "需要終端機" in (stdout.decode() if isinstance(stdout, bytes) else stdout)


def test_every_ssh_message_has_both_languages_with_the_same_fields() -> None:
    """The server's words outside the App are in the one catalogue (``ssh.*``)."""
    from protocol.catalogue import EN, ZH
    from protocol.i18n import params_of

    keys = [k for k in EN if k.startswith("ssh.")]
    assert {"ssh.no-pty", "ssh.owned", "ssh.owned-after-banner", "ssh.banned"} <= set(keys)
    for key in keys:
        if key == "ssh.owned-after-banner":  # the English one leaves out what the English banner said
            assert params_of(EN[key]) < params_of(ZH[key]), key
        else:
            assert params_of(EN[key]) == params_of(ZH[key]), key


async def test_a_client_that_stops_reading_gets_frames_dropped_then_a_full_repaint(
    harness: Harness,
) -> None:
    conn, _ = await connect(harness.port, "flood", KEY_A)
    async with conn:
        # a small SSH window: the server's send buffer fills quickly while we do not read
        screen = await open_tty(conn, size=(120, 40), window=32 * 1024)
        await until(lambda: len(harness.server.sessions) == 1)
        session = next(iter(harness.server.sessions))
        await until(lambda: session.terminal is not None and session.terminal.paused, timeout=20)
        terminal = session.terminal
        assert terminal is not None
        await until(lambda: terminal.dropped_frames > 20, timeout=20)
        buffered_when_paused = terminal.bytes_written
        await asyncio.sleep(0.3)
        assert terminal.bytes_written == buffered_when_paused  # nothing piles up while paused
        screen.proc.stdin.write(b"s")  # stop the flood, then read again
        await screen.wait_for("stopped at frame", timeout=20)
        await asyncio.sleep(0.3)
        while True:  # drain whatever else is in flight
            try:
                chunk = await asyncio.wait_for(screen.proc.stdout.read(65536), 0.5)
            except TimeoutError:
                break
            screen.stream.feed(chunk)
        text = screen.text()
        final = text.split("stopped at ")[1].split()[0]
        # the repaint replaced every stale line: no older frame is left on screen
        assert "frame" not in text.replace(f"stopped at {final}", "").replace(final, ""), text


async def test_a_closed_session_leaves_no_app_behind(harness: Harness) -> None:
    import gc
    import weakref

    conn, _ = await connect(harness.port, "wes", KEY_A)
    async with conn:
        screen = await open_tty(conn)
        await screen.wait_for("hello wes")
        screen.proc.stdin.write(b"\x1b[A\x1b[<0;3;3M\x1b[<0;3;3m")  # exercise the parser
        await screen.wait_for("hello wes")
        session = next(iter(harness.server.sessions))
        assert session.app is not None
        app_ref = weakref.ref(session.app)
        del session
    await until(lambda: not harness.server.sessions)
    await asyncio.sleep(0.1)
    gc.collect()
    assert app_ref() is None, gc.get_referrers(app_ref())


async def test_an_ended_session_s_app_is_taken_apart_and_a_live_one_is_not(harness: Harness) -> None:
    """tui.runtime.retire: a while after a session ends, its App's attributes are
    emptied (reference counting frees its widgets, no full collection
    needed); the session still open goes on as before. Only then does the
    session count as retired (server.heap's full collections wait for it)."""
    apps: dict[str, App[Any]] = {}
    factory = harness.server.apps.new_app

    def recording(lobby: LobbyClient, driver_class: type[Driver]) -> App[Any]:
        app = apps[lobby.identity.name] = factory(lobby, driver_class)
        return app

    harness.server.apps = replace(harness.server.apps, new_app=recording)
    harness.server.retire_after = 0.05
    stays, _ = await connect(harness.port, "stays", KEY_A)
    stays_screen = await open_tty(stays)
    await stays_screen.wait_for("hello stays")
    leaves, _ = await connect(harness.port, "leaves", KEY_B)
    screen = await open_tty(leaves)
    await screen.wait_for("hello leaves")
    assert harness.server.retired == 0
    screen.proc.stdin.write(b"q")
    await screen.drain()
    await until(lambda: not apps["leaves"].__dict__)
    assert harness.server.retired == 1
    assert apps["stays"].__dict__  # the live session is left whole
    stays_screen.proc.stdin.write(b"xy")
    await stays_screen.wait_for("typed:xy")
    # while a session draws its first screen, an ended one waits to be taken apart
    harness.server.drawing += 1  # as a login does until its first frame
    try:
        again, _ = await connect(harness.port, "leaves", KEY_B)
        screen = await open_tty(again)
        await screen.wait_for("hello leaves")
        first = apps["leaves"]
        screen.proc.stdin.write(b"q")
        await screen.drain()
        await asyncio.sleep(RETIRE_RETRY * 2)
        assert first.__dict__  # waits
        assert harness.server.retired == 1
    finally:
        harness.server.drawing -= 1
    await until(lambda: not first.__dict__)
    assert harness.server.retired == 2
    stays.close()
    leaves.close()
    again.close()


async def test_a_key_cannot_claim_the_name_a_guest_is_playing_as(harness: Harness) -> None:
    """A key may own a free name, but not one a guest plays as right now: it
    would have joined the guest's chat as the same name and sat in the guest's
    seat with the guest's card (room seats go by name)."""
    conn1, _ = await connect(harness.port, "dora")
    async with conn1:
        guest = await open_tty(conn1)
        await guest.wait_for("hello dora guest=True")
        conn2, _ = await connect(harness.port, "dora", KEY_A)
        async with conn2:
            out = (await (await open_tty(conn2)).drain()).decode()
        assert "already playing as 'dora'" in out
        assert harness.storage.key_owner("dora") is None
    assert [i.name for i in harness.hub.connected] == ["dora"]


async def test_a_key_cannot_claim_the_name_of_a_guest_seat_in_an_open_room(harness: Harness) -> None:
    harness.hub.guest_seats.add("erin")  # the guest left; the room keeps the seat (grace, or a bot plays it)
    conn, _ = await connect(harness.port, "erin", KEY_A)
    async with conn:
        out = (await (await open_tty(conn)).drain()).decode()
    assert "already playing as 'erin'" in out
    assert harness.storage.key_owner("erin") is None
    harness.hub.guest_seats.clear()  # the room closed: the name is free to own
    conn, _ = await connect(harness.port, "erin", KEY_A)
    async with conn:
        screen = await open_tty(conn)
        await screen.wait_for("hello erin guest=False")
    assert harness.storage.key_owner("erin") == KEY_A.get_fingerprint("sha256")


async def test_a_sustained_input_flood_ends_the_session_with_a_message(make_server: MakeServer) -> None:
    """Issue 45 finding 2: a key flood inside the input budget queued faster than
    the App read it, for as long as it went on. Input dropped for
    ``input_flood_timeout`` seconds closes the session, saying why."""
    h: Harness = await make_server(limits=LimitsSection(input_flood_timeout=0.5, input_queue=16))
    conn, _ = await connect(h.port, "flo", KEY_A)
    async with conn:
        screen = await open_tty(conn)
        await screen.wait_for("hello flo")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 5.0
        while loop.time() < deadline and not screen.proc.stdout.at_eof():
            screen.proc.stdin.write(b"\x1b[<0;5;2M\x1b[<0;5;2m" * 300)
            await asyncio.sleep(0.02)
            with contextlib.suppress(TimeoutError):
                chunk = await asyncio.wait_for(screen.proc.stdout.read(65536), 0.01)
                screen.raw.extend(chunk)
            if "faster than the game" in screen.raw.decode("utf-8", "replace"):
                break
        assert "faster than the game can read it for 0.5 s" in screen.raw.decode("utf-8", "replace")
    await until(lambda: not h.server.sessions)


async def test_one_connection_opens_at_most_sessions_per_connection(make_server: MakeServer) -> None:
    """Issue 45 finding 4: 25 session channels on one TCP connection filled
    ``max_sessions`` and got around ``max_per_address`` (sshd's MaxSessions)."""
    h: Harness = await make_server(limits=LimitsSection(sessions_per_connection=2))
    conn, _ = await connect(h.port, "mul", KEY_A)
    async with conn:
        first = await open_tty(conn)
        await first.wait_for("hello mul")
        await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        for _ in range(3):
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        assert len(h.server.sessions) <= 2
        first.proc.stdin.write(b"q")  # one ends: there is room for another
        await first.drain()
        await until(lambda: all(c.sessions_open < 2 for c in h.server.connections))
        third = await open_tty(conn)
        await third.wait_for("hello mul")


async def test_a_connection_without_a_session_is_closed_after_the_unused_timeout(make_server: MakeServer) -> None:
    """Issue 45 finding 4: ``ssh -N`` (no session) was never timed out."""
    h: Harness = await make_server(limits=LimitsSection(unused_connection_timeout=0.5))
    conn, _ = await connect(h.port, "nos", KEY_A)
    await asyncio.wait_for(conn.wait_closed(), 5)
    await until(lambda: not h.server.connections)
    conn2, _ = await connect(h.port, "yes", KEY_A)  # one with a session stays
    async with conn2:
        screen = await open_tty(conn2)
        await screen.wait_for("hello yes")
        await asyncio.sleep(1.0)
        assert len(h.server.connections) == 1


# -- before authentication (issue 45, finding 5) -----------------------------------


async def _refused_at_accept(port: int, source: str = "127.0.0.1") -> bool:
    """Whether a TCP connection is closed without the server's SSH version line."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        line = await asyncio.wait_for(reader.readline(), 5)
    except (ConnectionResetError, BrokenPipeError):
        line = b""
    finally:
        writer.close()
    return not line.startswith(b"SSH-2.0")


async def test_silent_sockets_from_an_address_do_not_lock_its_players_out(make_server: MakeServer) -> None:
    """50 silent sockets from one address locked a venue behind NAT out for the
    login grace ("too many connections from your address"). Pending connections
    have their own cap, refused at accept, and old ones yield to new ones."""
    h: Harness = await make_server(limits=LimitsSection(
        max_per_address=10, per_source_max_startups=5, startup_evict_after=0.3, penalty_min=60.0,
    ))
    silent = [await asyncio.open_connection("127.0.0.1", h.port) for _ in range(12)]
    try:
        assert len(h.server.gate.pending) <= 5
        assert h.server.gate.refused >= 7
        await asyncio.sleep(0.4)
        conn, _ = await connect(h.port, "venue", KEY_A)  # a player behind the same address
        async with conn:
            await (await open_tty(conn)).wait_for("hello venue")
    finally:
        for _reader, writer in silent:
            writer.close()


async def test_max_auth_tries_closes_a_connection_that_offers_key_after_key(make_server: MakeServer) -> None:
    """300 keys were tried on one connection; sshd's MaxAuthTries is 6."""
    h: Harness = await make_server(limits=LimitsSection(max_auth_tries=4))
    h.storage.claim_name("owned", KEY_A.get_fingerprint("sha256"))
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(8)]
    tried = 0
    validate = Connection.validate_public_key

    def counting(self: Connection, username: str, key: asyncssh.SSHKey) -> bool:
        nonlocal tried
        tried += 1
        return validate(self, username, key)

    Connection.validate_public_key = counting  # type: ignore[method-assign]
    try:
        with pytest.raises((asyncssh.DisconnectError, asyncssh.PermissionDenied)) as info:
            await asyncssh.connect("127.0.0.1", h.port, username="owned", client_keys=keys, known_hosts=None,
                                   agent_path=None, kbdint_auth=False, password_auth=False, gss_auth=False)
    finally:
        Connection.validate_public_key = validate  # type: ignore[method-assign]
    assert tried <= 4
    assert "too many authentication failures" in str(info.value)


async def test_a_hammering_source_is_refused_at_accept_and_others_get_in(make_server: MakeServer) -> None:
    """500 auth attempts/s from one source cost 70% of a core: a source whose
    connections end without logging in is penalised, then refused before any
    handshake; another address logs in meanwhile."""
    h: Harness = await make_server(limits=LimitsSection(penalty_noauth=2.0, penalty_min=5.0))
    for _ in range(3):  # each speaks SSH (its version line) and hangs up without authenticating
        reader, writer = await asyncio.open_connection("127.0.0.1", h.port)
        writer.write(b"SSH-2.0-hammer\r\n")
        assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"SSH-2.0")
        await asyncio.sleep(0.1)
        writer.close()
        await until(lambda: not h.server.gate.pending)
    assert await _refused_at_accept(h.port)
    conn, _ = await connect(h.port, "other", KEY_A, local_addr=("127.0.0.2", 0))
    async with conn:
        await (await open_tty(conn)).wait_for("hello other")


async def test_a_refused_connection_is_closed_before_asyncio_makes_a_transport(make_server: MakeServer) -> None:
    """Refused at accept means cheap: an asyncio transport is garbage in a
    reference cycle (6,000 refusals grew the server by 6 MB until a collection);
    the gate closes a refused socket before any transport or SSH byte exists."""
    import socket

    h: Harness = await make_server()
    h.server.gate.penalise("127.0.0.1", 600.0, "test")

    def transports() -> int:
        return sum(1 for o in gc.get_objects() if type(o).__name__ == "_SelectorSocketTransport")

    gc.collect()
    gc.disable()
    try:
        before = transports()
        for _ in range(30):  # plain sockets: the client side makes no transports either
            with socket.create_connection(("127.0.0.1", h.port)):
                pass
        await until(lambda: h.server.gate.refused >= 30)
        assert transports() - before < 5
    finally:
        gc.enable()
    assert await _refused_at_accept(h.port)
