"""A table screen whose nested panes are not mounted yet when it first draws
(seen under load: the Sultans log pane came after the screen's Mount and the
session crashed with NoMatches) draws again once they are, instead of crashing."""

from __future__ import annotations

from pathlib import Path

from fakes import screen_text
from sultans_fakes import SultansClient, SultansLobby, SultansRoom
from table_fakes import open_table
from textual.css.query import NoMatches

from tui.sultans.table import Table
from tui.tables import register_table, table_screen_for

DEAL = ["guard", "assassin", "slave", "sultan", "slave"]


class LatePanes(Table):
    """The first two draws find a pane missing, as when it mounts late."""

    CSS_PATH = str(Path(__file__).resolve().parents[2] / "tui" / "sultans" / "table.tcss")
    misses = 0

    def update_table(self) -> None:
        if LatePanes.misses < 2:
            LatePanes.misses += 1
            raise NoMatches("No nodes match '#sk-log' (not mounted yet)")
        super().update_table()


async def test_table_draws_again_when_a_pane_mounts_late() -> None:
    room = SultansRoom(5, deal=DEAL, first=0, humans=(0,))
    before = table_screen_for("sultans")
    register_table("sultans", LatePanes)
    try:
        async with open_table(room, 0, SultansClient, SultansLobby, LatePanes, size=(100, 30)) as (app, pilot, _):
            await pilot.pause(0.2)
            assert LatePanes.misses == 2
            assert "Your turn" in screen_text(app)
    finally:
        register_table("sultans", before)
