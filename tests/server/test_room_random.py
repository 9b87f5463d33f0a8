"""Random sessions against the room runtime: whatever screens send (good
actions, garbage, old and future versions), the log always rebuilds the table,
the version only grows, and refused actions change nothing."""

from __future__ import annotations

import random

import pytest
from games import COUNT_SPEC, CountOptions, ticks

from protocol.contract import ClientError, Identity, RoomSettings
from server.hub import Hub
from server.storage import Storage


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_random_clients_keep_the_log_and_table_in_step(seed: int, strict: bool) -> None:
    """Strict and quick windows (S-REACT-5): in quick ones an answer may bring the
    room's own passes and answers kept back with it, logged the same way."""
    rng = random.Random(seed)
    hub = Hub(
        Storage(":memory:"),
        host_fingerprint="SHA256:t",
        bot_delay=0.0,
        intermission=0.0,
        games={"count": COUNT_SPEC},
        time_scale=0.001,
    )
    await hub.start()
    try:
        host = hub.connect(Identity(name="p0")).create_room(
            RoomSettings(
                game="count", seats=4, window_timer=0, turn_timer=0, strict_windows=strict,
                options={"rounds": 5, "target": 30},
            )
        )
        clients = [host]
        for i in (1, 2):
            rc = hub.connect(Identity(name=f"p{i}")).join(host.room_id)
            rc.set_ready(True)
            clients.append(rc)
        host.start()  # seat 3 is a bot
        room = host.room
        last_version = room.version
        refused = accepted = 0
        for _ in range(400):
            if room.state != "playing":
                break
            c = rng.choice(clients)
            snap = c.snapshot()
            legal = c.legal()
            roll = rng.random()
            if roll < 0.5 and legal:
                text, version = rng.choice(legal), snap.version
            elif roll < 0.65:
                text, version = rng.choice(["add 9", "", "pass pass", "bell 3", "\x1b[2J", "x" * 500]), snap.version
            elif roll < 0.8:
                text, version = rng.choice(legal or ["add 1"]), snap.version - rng.randint(1, 5)
            elif roll < 0.85:
                text, version = rng.choice(legal or ["add 1"]), snap.version + 1
            else:
                await ticks(rng.randint(1, 3))  # let the bot play
                continue
            before_seq, before_view = room.seq, room.view(None)
            try:
                c.act(text, version)
            except ClientError as err:
                refused += 1
                assert err.code in ("stale", "illegal")
                assert room.seq == before_seq and room.view(None) == before_view
            else:
                accepted += 1
                assert room.seq == before_seq + 1 if strict else room.seq >= before_seq
            assert room.version >= last_version
            last_version = room.version
            # the log rebuilds the table exactly
            table = room.table
            assert table is not None
            replay = COUNT_SPEC.new_table(4, room.seed, CountOptions.model_validate(room.settings.options))
            for e in hub.storage.match_log(room.match_id or 0):
                if e.kind == "next-round":
                    replay.next_round()
                else:
                    assert e.seat is not None
                    replay.play(e.seat, e.text)
            assert replay.view(None) == table.view(None)
            assert [replay.view(s) for s in range(4)] == [table.view(s) for s in range(4)]
        assert accepted > 20 and refused > 20
    finally:
        await hub.stop()
