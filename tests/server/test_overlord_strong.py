"""The strong Kill the Overlord bot in a room (issue 48): its own order-phase
decisions are searched in the server's thinking pool from the seat's view as JSON
(never the engine's state), and the game plays on."""

from __future__ import annotations

from dataclasses import replace

from games import until

from engine.api import GameSpec
from engine.registry import games
from protocol.contract import Identity, RoomSettings
from server.storage import Storage


def with_strong_overlord() -> dict[str, GameSpec]:
    """The registry with the Overlord strong level offered (benchmarked before it is)."""
    specs = dict(games())
    search = specs["overlord"].search
    assert search is not None
    specs["overlord"] = replace(specs["overlord"], search=replace(search, offered=True))
    return specs


async def test_strong_overlord_seats_search_in_the_thinking_pool() -> None:
    from server.hub import Hub
    from server.thinking import Thinker

    thinker = Thinker(workers=1)
    asked: list[tuple[str, list[str], str]] = []
    real = thinker.decide

    async def counted(game: str, view_json: str, legal: list[str], seed: str, budget: float) -> str:
        answer = await real(game, view_json, legal, seed, budget)
        asked.append((view_json, legal, answer))
        return answer

    thinker.decide = counted  # type: ignore[method-assign]
    h = Hub(Storage(":memory:"), host_fingerprint="SHA256:x", bot_delay=0.05, intermission=0.0, thinker=thinker,
            games=with_strong_overlord())
    await h.start()
    try:
        a = h.connect(Identity(name="alice")).create_room(
            RoomSettings(game="overlord", seats=4, bot_level="strong", bot_delay=0.05, turn_timer=0, window_timer=0)
        )
        a.start()
        room = h.rooms[a.room_id]
        assert [s.level for s in room.snapshot().seats][1:] == ["strong"] * 3
        a.leave()  # a stand-in (normal) plays alice's seat out
        await until(lambda: len(asked) >= 4 or room.state == "finished", timeout=60.0)
        assert len(asked) >= 4
        for view_json, legal, answer in asked:
            assert '"me":' in view_json and '"hand":' in view_json  # a seat's view, never the engine's state
            assert answer in legal
    finally:
        await h.stop()
        thinker.close()
