"""Squatting (issue 45 finding 7): one key claimed 200 names in 0.9 s, and a
guest who started a long bot match and left held that name for the whole
match, across restarts."""

from __future__ import annotations

import contextlib
from dataclasses import replace

import asyncssh
from games import until
from hubs import new_hub
from test_ssh_server import HelloApp, RecordingHub, connect, open_tty

from protocol.contract import Identity, RoomSettings
from server.cli import app_host
from server.config import Config, PlayersSection, ServerSection
from server.ssh import ThroneServer
from server.storage import Storage


async def _server(storage: Storage, players: PlayersSection) -> ThroneServer:
    server = ThroneServer(
        Config(server=ServerSection(host="127.0.0.1", port=0), players=players),
        hub=RecordingHub(), storage=storage, host_key=asyncssh.generate_private_key("ssh-ed25519"),
        apps=replace(app_host(), new_app=HelloApp),
    )
    await server.start()
    return server


async def _login(port: int, name: str, key: asyncssh.SSHKey) -> str:
    conn, _ = await connect(port, name, key)
    async with conn:
        return await _first_screen(conn)


async def _first_screen(conn: asyncssh.SSHClientConnection) -> str:
    screen = await open_tty(conn)
    with contextlib.suppress(AssertionError):  # a refusal closes the session before any "hello"
        await screen.wait_for("hello ", timeout=5)
    return screen.raw.decode("utf-8", "replace")


async def test_one_key_owns_at_most_names_per_key_names() -> None:
    """players.names_per_key (3): a key's fourth name is refused, saying which it owns."""
    st = Storage(":memory:")
    server = await _server(st, PlayersSection(names_per_key=3, name_claims_per_hour=100))
    key = asyncssh.generate_private_key("ssh-ed25519")
    fp = key.get_fingerprint("sha256")
    try:
        for name in ("squat1", "squat2", "squat3"):
            assert f"hello {name} guest=False" in await _login(server.port, name, key)
        out = await _login(server.port, "squat4", key)
        assert "This SSH key owns 3 names already" in out and "squat1, squat2, squat3" in out, out
        assert f"ssh -p {server.port} squat1@127.0.0.1" in out
        assert st.key_owner("squat4") is None and st.names_of(fp) == ["squat1", "squat2", "squat3"]
        assert "hello squat2 guest=False" in await _login(server.port, "squat2", key)  # its own names still work
    finally:
        await server.stop()


async def test_one_key_claims_at_most_name_claims_per_hour_names_an_hour() -> None:
    """players.name_claims_per_hour: claims beyond it in an hour are refused (a
    name an admin freed does not give the key a claim back at once)."""
    st = Storage(":memory:")
    server = await _server(st, PlayersSection(names_per_key=10, name_claims_per_hour=2))
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        for name in ("rate1", "rate2"):
            assert f"hello {name} guest=False" in await _login(server.port, name, key)
        out = await _login(server.port, "rate3", key)
        assert "has taken 2 new names in the last hour" in out, out
        assert st.key_owner("rate3") is None
        st.connection.execute("UPDATE identities SET claimed=claimed-3601")  # an hour later
        assert "hello rate3 guest=False" in await _login(server.port, "rate3", key)
    finally:
        await server.stop()


async def test_a_guest_s_hold_on_a_name_ends_with_the_grace_period_after_they_leave() -> None:
    """A guest started a bot match and left: the name stayed held for the whole
    match (a key could not claim it). After the grace period a bot plays the seat
    to the end, marked left (kept over a restart), and the name is free; a key
    taking it does not find the guest's seat."""
    st = Storage(":memory:")
    hub = new_hub(st, bot_delay=20.0)  # grace 5 s of room time (5 ms), bots 20 ms a move
    await hub.start()
    try:
        bob = Identity(name="bob", guest=True)
        rc = hub.connect(bob).create_room(RoomSettings(game="count", seats=3, options={"rounds": 5, "target": 40}))
        rc.start()
        room = hub.rooms[rc.room_id]
        assert hub.guest_seated("bob")
        rc.leave()  # Escape: a bot plays the seat while bob is away
        await until(lambda: not hub.guest_seated("bob"))
        assert room.state == "playing" and room.seat_of("bob") is None
        assert room.seats[0].kind == "bot" and room.seats[0].left == "bob"
        assert any(line.key == "sys.guest_gone" for line in room.chat)
        assert room.match_id is not None
        [stored] = [m for m in st.unfinished_matches() if m.id == room.match_id]
        assert stored.seats[0].left  # a restart brings the seat back as left, not held
        assert hub.connect(Identity(name="bob", key_fingerprint="SHA256:bob")).identity.name == "bob"
        assert room.seat_of("bob") is None
    finally:
        await hub.stop()


async def test_a_keyed_player_who_leaves_keeps_the_seat_for_the_match() -> None:
    """Only a guest's hold ends: a key's seat is theirs to come back to."""
    hub = new_hub(bot_delay=20.0)
    await hub.start()
    try:
        rc = hub.connect(Identity(name="carol", key_fingerprint="SHA256:c")).create_room(
            RoomSettings(game="count", seats=3, options={"rounds": 5, "target": 40})
        )
        rc.start()
        room = hub.rooms[rc.room_id]
        rc.leave()
        await until(lambda: room.seq >= 3)
        assert room.seat_of("carol") == 0 and room.seats[0].autoplay
    finally:
        await hub.stop()
