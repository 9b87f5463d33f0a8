"""The Sultans of Karaya and Kill the Overlord tables' chat says the host's
system lines (protocol.contract.ChatLine key + params) in the player's language,
names literal, and again in the other language after F2."""

from __future__ import annotations

import time

import pytest
from fakes import settle
from overlord_fakes import OverlordClient, OverlordLobby, OverlordRoom
from sultans_fakes import SultansClient, SultansLobby, SultansRoom

from engine.overlord import Game
from protocol.contract import ChatLine
from tui.app import ThroneApp
from tui.widgets import ChatPanel


def lines() -> list[ChatLine]:
    now = time.time()
    return [
        ChatLine(at=now, name="", text="a match of Sultans of Karaya begins", system=True,
                 key="sys.match_begins", params={"game": "sultans"}),
        ChatLine(at=now, name="", text="[i]eve[/i] is away; a bot plays their seat", system=True,
                 key="sys.away_autoplay", params={"name": "[i]eve[/i]"}),
        ChatLine(at=now, name="bob", text="hi all", system=False),
    ]


def chat(app: ThroneApp) -> str:
    """The chat pane's text without any white space (lines wrap in a narrow pane)."""
    return "".join("".join(strip.text for strip in app.screen.query_one(ChatPanel).log_widget.lines).split())


def flat(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("game", ["sultans", "overlord"])
async def test_table_chat_system_lines_in_the_players_language(game: str) -> None:
    lobby: SultansLobby | OverlordLobby
    if game == "sultans":
        sroom = SultansRoom(5, humans=(0,))
        sroom.chat.extend(lines())
        lobby = SultansLobby(SultansClient(sroom, 0, sroom.names[0]), sroom.names[0], "zh")
    else:
        oroom = OverlordRoom(Game.random(4, 3), humans=(0,))
        oroom.chat.extend(lines())
        lobby = OverlordLobby(OverlordClient(oroom, 0, oroom.names[0]), oroom.names[0], "zh")
    app = ThroneApp(lobby)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.lang == "zh"
        text = chat(app)
        assert flat("* 《推翻蘇丹》比賽開始") in text and flat("* [i]eve[/i] 暫時離線；由電腦代打他的座位") in text
        assert flat("bob：hi all") in text  # players' lines are theirs, untranslated (the colon the reader's)
        await pilot.press("f2")
        await settle(pilot)
        text = chat(app)
        assert flat("a match of Sultans of Karaya begins") in text
        assert flat("[i]eve[/i] is away; a bot plays their seat") in text
        assert "推翻蘇丹" not in text and text.count(flat("bob: hi all")) == 1 and flat("bob：hi all") not in text
