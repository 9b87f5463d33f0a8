"""An action the engine refuses reaches the player in their language: the host
passes the engine's reason (``IllegalAction.code``) with ``ClientError("illegal")``
and the catalogue says it (Traditional Chinese here; the English says the
engine's detail in parentheses, the Chinese leaves that English out). Other
refusals carry their values (names, seats) for the catalogue too."""

from __future__ import annotations

import pytest
from games import COUNT_SPEC, until
from hubs import settle

from engine.registry import games
from protocol.contract import ClientError, Identity, RoomSettings
from protocol.i18n import error_text
from server.hub import Hub
from server.room import RoomSession
from server.storage import Storage
from tui.app import ThroneApp
from tui.sultans.table import Table as SultansTable


def new_hub() -> Hub:
    return Hub(
        Storage(":memory:"),
        host_fingerprint="SHA256:test",
        bot_delay=0.0,
        intermission=0.0,
        games={"count": COUNT_SPEC, "sultans": games()["sultans"]},
        time_scale=0.001,
    )


def refusal(rc: RoomSession, text: str) -> ClientError:
    with pytest.raises(ClientError) as err:
        rc.act(text, rc.snapshot().version)
    return err.value


async def test_sultans_refusals_in_chinese() -> None:
    hub = new_hub()
    await hub.start()
    try:
        lobby = hub.connect(Identity(name="alice", lang="zh"))
        rc = lobby.create_room(RoomSettings(game="sultans", seats=5, turn_timer=0, window_timer=0))
        assert isinstance(rc, RoomSession)
        rc.start()  # four bots; with no timers the table waits for alice sooner or later
        await until(rc.pending)
        err = refusal(rc, "fly to the moon")
        assert (err.code, err.reason) == ("illegal", "parse")
        zh = error_text(err, "zh")
        assert zh == "這不是這個遊戲的動作。"
        assert error_text(err, "en") == f"That is not an action of this game ({err})."
        err = refusal(rc, "peek 0")  # well-formed, but never hers to play: she is seat 0
        assert (err.code, err.reason) == ("illegal", "illegal")
        assert error_text(err, "zh") == "現在不能這樣做。"
    finally:
        await hub.stop()


async def test_not_pending_in_chinese() -> None:
    hub = new_hub()
    await hub.start()
    try:
        rc = hub.connect(Identity(name="alice")).create_room(
            RoomSettings(game="count", seats=2, turn_timer=0, window_timer=0)
        )
        bob = hub.connect(Identity(name="bob", lang="zh")).join(rc.room_id)
        bob.set_ready(True)
        rc.start()
        waiting, idle = (rc, bob) if rc.pending() else (bob, rc)
        assert waiting.pending() and not idle.pending()
        err = refusal(idle, "add 1")
        assert (err.code, err.reason) == ("illegal", "not-pending")
        assert error_text(err, "zh") == "現在沒有需要你回應的事：請等輪到你或有人詢問你。"
        assert str(err) in error_text(err, "en")
    finally:
        await hub.stop()


def test_refusals_without_a_known_reason_keep_the_general_sentence() -> None:
    assert error_text(ClientError("illegal", "x"), "zh") == "現在不能這樣做：x"
    assert error_text(ClientError("illegal", "x", reason="from-a-newer-engine"), "zh") == "現在不能這樣做：x"
    assert error_text(ClientError("stale", "x", reason="parse"), "zh").startswith("你的動作送到前牌局已經變了")


async def test_the_sultans_table_shows_the_refusal_in_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ThroneApp, "flush_interval", 0.0)
    hub = new_hub()
    await hub.start()
    try:
        first = hub.connect(Identity(name="alice", lang="zh"))
        rc = first.create_room(RoomSettings(game="sultans", seats=5, turn_timer=0, window_timer=0))
        rc.start()
        await until(rc.pending)
        hub.disconnect(first)
        app = ThroneApp(hub.connect(Identity(name="alice", lang="zh")))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            table = app.screen
            assert isinstance(table, SultansTable)
            assert not table.play("fly to the moon")  # what a stale or mistyped action meets
            table.refresh_data()
            await settle(pilot)
            prompt = "".join(str(table.query_one("#sk-prompt").render()).split())
            assert "這不是這個遊戲的動作。" in prompt, prompt
    finally:
        await hub.stop()


async def test_room_refusals_name_their_players_and_seats_in_chinese() -> None:
    """The host's s with a player not ready said "還有人沒準備好：waiting for
    bob to be ready": the English detail inside the Chinese sentence."""
    hub = new_hub()
    await hub.start()
    try:
        rc = hub.connect(Identity(name="alice", lang="zh")).create_room(
            RoomSettings(game="count", seats=3, turn_timer=0, window_timer=0)
        )
        hub.connect(Identity(name="bob")).join(rc.room_id)
        with pytest.raises(ClientError) as two:
            hub.connect(Identity(name="carol")).join(rc.room_id)
            rc.start()
        assert error_text(two.value, "zh") == "還有人沒準備好：等 bob、carol。"  # a Chinese list
        assert error_text(two.value, "en") == "Not everyone is ready yet: waiting for bob, carol."
        rc.kick(2)
        refusals = []
        for call in (rc.start, lambda: rc.remove_bot(2), lambda: rc.kick(2), lambda: rc.kick(0), lambda: rc.kick(7)):
            with pytest.raises(ClientError) as err:
                call()
            refusals.append(err.value)
        assert [error_text(e, "zh") for e in refusals] == [
            "還有人沒準備好：等 bob。",
            "3 號座位上沒有電腦。",  # seat index 2: the third, as players number seats
            "3 號座位上沒有玩家。",
            "房主不能請自己離開：要離開房間請按 Escape。",
            "沒有 8 號座位。",
        ]
        assert error_text(refusals[0], "en") == "Not everyone is ready yet: waiting for bob."
    finally:
        await hub.stop()
