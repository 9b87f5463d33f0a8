"""S-VIEW-2 end to end: the room option turns the notebook off for purists.

The option goes from the room's settings through the real hub into the
engine's Match, comes back in every seat's view (``RoundView.notebook``), and
the Sultans table (the real screen, Textual pilot) then offers no notebook."""

from __future__ import annotations

import pytest
from hubs import close_results, settle

from engine.sultans import MatchView
from protocol.contract import Identity, RoomSettings
from server.hub import Hub
from server.storage import Storage
from tui.app import ThroneApp
from tui.sultans.table import Table as SultansTable


@pytest.fixture(autouse=True)
def immediate_flush(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ThroneApp, "flush_interval", 0.0)


@pytest.mark.parametrize("notebook", [True, False])
async def test_notebook_option_reaches_the_view_and_the_table(notebook: bool) -> None:
    # (alice's seat waits for her: with a short grace a bot played it and the round could end before her screen)
    hub = Hub(Storage(":memory:"), host_fingerprint="SHA256:x", bot_delay=0.0, intermission=0.0, time_scale=0.001,
              grace_period=1e6)
    await hub.start()
    try:
        first = hub.connect(Identity(name="alice"))
        options: dict[str, object] = {"rounds": 1} if notebook else {"rounds": 1, "notebook": False}
        rc = first.create_room(RoomSettings(game="sultans", seats=5, turn_timer=0, window_timer=0, options=options))
        assert rc.snapshot().settings.options["notebook"] is notebook  # normalised by the host
        rc.start()
        view = rc.view()
        assert isinstance(view, MatchView)
        assert view.round.notebook is notebook  # option -> Match -> view
        hub.disconnect(first)
        app = ThroneApp(hub.connect(Identity(name="alice")))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            # (the bots may end the round before her screen opens: its result then lies over the table)
            await close_results(app, pilot)
            assert isinstance(app.screen, SultansTable)  # straight back to her seat
            titles = []
            for _ in range(3):  # Tab cycles the log / notebook / last result pane
                await pilot.press("tab")
                await settle(pilot)
                titles.append(str(app.screen.query_one("#sk-pane-title").render()))
            assert any(title.startswith("Notebook") for title in titles) is notebook, titles  # "Notebook  (Tab)"
    finally:
        await hub.stop()
