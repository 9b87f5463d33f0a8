"""Seat numbers players see start at 1 (issue 43: "as at a real table"): the
host's messages and the waiting room number seats 1..n, while the host's API,
the views and the engines' notation keep indexing them from 0. The one
conversion is ``protocol.contract.seat_number`` / ``seat_index``."""

from __future__ import annotations

import pytest
from games import COUNT_SPEC

from protocol.contract import ClientError, Identity, RoomSettings, bot_name, seat_index, seat_number
from protocol.i18n import error_text, shown_name, system_line
from server.hub import Hub
from server.storage import Storage


def test_seat_number_and_index_are_inverse() -> None:
    assert [seat_number(i) for i in range(15)] == list(range(1, 16))
    assert all(seat_index(seat_number(i)) == i for i in range(15))


def test_bots_are_named_by_the_number_players_see() -> None:
    assert bot_name(0) == "Bot 1"
    assert shown_name(bot_name(2), "zh") == "電腦 3"


async def test_host_messages_number_seats_from_one() -> None:
    hub = Hub(Storage(":memory:"), host_fingerprint="SHA256:test", bot_delay=0.0, games={"count": COUNT_SPEC})
    await hub.start()
    try:
        rc = hub.connect(Identity(name="alice")).create_room(RoomSettings(game="count", seats=3))
        bob = hub.connect(Identity(name="bob")).join(rc.room_id)
        assert [s.index for s in rc.snapshot().seats] == [0, 1, 2]  # the API's indices; screens add 1
        assert bob.my_seat == 1
        with pytest.raises(ClientError) as err:
            rc.remove_bot(2)
        assert (err.value.code, str(err.value)) == ("bad-seat", "seat 3 has no bot")
        assert error_text(err.value, "en") == "Seat 3 has no bot."
        assert error_text(err.value, "zh") == "3 號座位上沒有電腦。"
        with pytest.raises(ClientError) as err:
            rc.kick(2)
        assert str(err.value) == "seat 3 has no player"
        with pytest.raises(ClientError) as err:
            rc.add_bot(1)  # bob sits there
        assert (err.value.code, str(err.value)) == ("seat-taken", "seat 2 is taken")
        with pytest.raises(ClientError) as err:
            bob.take_seat(0)
        assert str(err.value) == "seat 1 is taken"
        with pytest.raises(ClientError) as err:
            rc.add_bot(3)
        assert str(err.value) == "there is no seat 4 (seats 1-3)"
        assert error_text(err.value, "en") == "There is no seat 4."
        rc.add_bot(2)
        assert rc.snapshot().seats[2].kind == "bot"
        assert rc.snapshot().seats[2].name == "Bot 3"
        rc.remove_bot(2)
        bob.take_seat(2)  # the chat says where bob went, by the number the screens show
        moved = [line for line in rc.chat_lines() if line.key == "sys.moved"][-1]
        assert moved.text == "bob moved to seat 3"
        assert system_line("sys.moved", moved.params, "zh") == "bob 換到 3 號座位"
        rc.kick(2)
        assert rc.snapshot().seats[2].kind == "empty"
    finally:
        await hub.stop()
