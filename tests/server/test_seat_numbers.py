"""Seat numbers the host puts in its messages are the screens' and the
notation's: numbered from 0 (the waiting room lists seat 0 first; the table
and actions such as ``peek 2`` use the same numbers)."""

from __future__ import annotations

import pytest
from games import COUNT_SPEC

from server.hub import Hub
from server.storage import Storage
from tui.client import ClientError, Identity, RoomSettings
from tui.i18n import error_text


async def test_host_messages_number_seats_from_zero() -> None:
    hub = Hub(Storage(":memory:"), host_fingerprint="SHA256:test", bot_delay=0.0, games={"count": COUNT_SPEC})
    await hub.start()
    try:
        rc = hub.connect(Identity(name="alice")).create_room(RoomSettings(game="count", seats=3))
        bob = hub.connect(Identity(name="bob")).join(rc.room_id)
        assert [s.index for s in rc.snapshot().seats] == [0, 1, 2]  # what the waiting room shows
        assert bob.my_seat == 1
        with pytest.raises(ClientError) as err:
            rc.remove_bot(2)
        assert (err.value.code, str(err.value)) == ("bad-seat", "seat 2 has no bot")
        assert error_text(err.value, "en") == "Seat 2 has no bot."
        with pytest.raises(ClientError) as err:
            rc.kick(2)
        assert str(err.value) == "seat 2 has no player"
        with pytest.raises(ClientError) as err:
            rc.add_bot(1)  # bob sits there
        assert (err.value.code, str(err.value)) == ("seat-taken", "seat 1 is taken")
        with pytest.raises(ClientError) as err:
            bob.take_seat(0)
        assert str(err.value) == "seat 0 is taken"
        with pytest.raises(ClientError) as err:
            rc.add_bot(3)
        assert str(err.value) == "there is no seat 3 (seats 0-2)"
        rc.add_bot(2)
        assert rc.snapshot().seats[2].kind == "bot"
        rc.kick(1)  # bob, by the number the screen shows
        assert rc.snapshot().seats[1].kind == "empty"
    finally:
        await hub.stop()
