"""The lobby offers Kill the Overlord and the create-room dialog its options
(K-XROLE-1 expansion ranks, K-RND-4 coronation 40/30, K-END-2 round limit)."""

from __future__ import annotations

import re

import pytest
from fakes import FakeHub, open_new_room_dialog, screen_text, settle, settle_in_chinese
from textual.widgets import Input, Select

from engine.overlord.spec import OverlordOptions
from engine.registry import games
from protocol.contract import RoomSettings
from protocol.i18n import Lang, t
from tui.app import ThroneApp
from tui.overlord.ui import expansion_choices
from tui.screens.room import RoomScreen
from tui.summary import settings_summary


def test_the_host_offers_kill_the_overlord() -> None:
    spec = games()["overlord"]
    assert (spec.title, spec.min_players, spec.max_players) == ("Kill the Overlord", 4, 8)


async def test_create_room_dialog_offers_overlord_options_and_sends_them(hub: FakeHub) -> None:
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_room_dialog(app, pilot)
        assert not dialog.query_one("#row-round_limit").display  # Sultans first: no Overlord rows
        dialog.query_one("#game", Select).value = "overlord"
        await settle(pilot)
        text = screen_text(app)
        assert "Kill the Overlord" in text
        assert "Round limit" in text and "Coronation gold" in text and "40 (the rules)" in text
        assert "Expansion roles (ranks)" in text
        crowns = dialog.query_one("#coronation", Select)  # K-RND-4: 40, or the option 30; no other amount
        assert [str(c) for _label, c in crowns._options] == ["40", "30"]
        assert not dialog.query_one("#row-rounds").display
        assert dialog.query_one("#seats", Input).value == "5"  # kept within 4-8
        dialog.query_one("#seats", Input).value = "6"
        dialog.query_one("#round_limit", Input).value = "3"
        crowns.value = "30"
        dialog.query_one("#expansion_ranks", Input).value = "9"
        dialog.query_one("#bot_delay", Input).value = "0"
        await settle(pilot)
        dialog.query_one("#ok").scroll_visible(animate=False)  # the list of expansion roles made the dialog taller
        await settle(pilot)
        await pilot.click("#ok")
        await settle(pilot)
        assert app.screen is dialog  # rank 9 does not exist
        assert "Expansion roles (ranks): a number from 1 to 8" in screen_text(app)
        dialog.query_one("#expansion_ranks", Input).value = "6, 3 6"
        await pilot.pause(0.3)  # the button ignores a second press while it still shows the first
        dialog.query_one("#ok").scroll_visible(animate=False)
        await settle(pilot)
        await pilot.click("#ok")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        room = next(r for r in hub.rooms.values() if r.host == "alice")
        assert room.settings.game == "overlord" and room.settings.seats == 6
        assert room.settings.options == {"round_limit": 3, "coronation": 30, "expansion_ranks": [3, 6]}
        o = OverlordOptions.model_validate(room.settings.options)  # what the host's spec reads
        assert (o.round_limit, o.coronation, o.expansion_ranks) == (3, 30, [3, 6])
        text = screen_text(app)  # the waiting room shows the options
        assert "at most 3 rounds" in text and "crowned at 30 gold" in text and "expansion roles: Soothsayer, Merchant" in text


async def test_create_room_dialog_in_chinese_names_the_overlord_options(hub: FakeHub) -> None:
    lobby = hub.lobby("alice")
    lobby.set_lang("zh")
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_in_chinese(app, pilot)
        dialog = await open_new_room_dialog(app, pilot)
        dialog.query_one("#game", Select).value = "overlord"
        await settle(pilot)
        text = screen_text(app)
        assert "刺殺領主" in text and "局數上限" in text and "加冕金額" in text and "擴充角色（階級）" in text
        assert "40（規則）" in text


def test_a_limit_of_one_round_reads_in_the_singular() -> None:
    """The header said "6 seats · at most 1 rounds"."""
    from protocol.contract import RoomSettings
    from tui.summary import settings_summary

    one = RoomSettings(game="overlord", seats=6, options={"round_limit": 1})
    assert "at most 1 round" in settings_summary(one, "en") and "1 rounds" not in settings_summary(one, "en")
    two = RoomSettings(game="overlord", seats=6, options={"round_limit": 2})
    assert "at most 2 rounds" in settings_summary(two, "en")


def test_the_header_names_the_expansion_roles_in_play_and_the_ranks_that_are_not() -> None:
    """K-XROLE-1: expansion roles replace base roles "only for ranks in play at
    that player count". The header said "expansion roles at ranks 6 7" at 4
    seats, where neither rank is dealt; it names the roles that are, by name."""
    from protocol.contract import RoomSettings
    from tui.summary import settings_summary

    six = RoomSettings(game="overlord", seats=6, options={"expansion_ranks": [3, 6]})
    assert "expansion roles: Soothsayer, Merchant" in settings_summary(six, "en")
    assert "擴充角色：預言家、商人" in settings_summary(six, "zh")
    four = RoomSettings(game="overlord", seats=4, options={"expansion_ranks": [3, 6, 7]})  # K-SET-2: 8 5 3 2
    text = settings_summary(four, "en")
    assert "expansion roles: Merchant" in text and "ranks 6 7 not in play at 4 seats" in text
    assert "Soothsayer" not in text and "Executioner" not in text
    none = RoomSettings(game="overlord", seats=4, options={"expansion_ranks": [6]})
    assert "rank 6 not in play at 4 seats" in settings_summary(none, "en")
    assert "expansion roles:" not in settings_summary(none, "en")
    assert "4 人局不含階級 6" in settings_summary(none, "zh")
    eight = RoomSettings(game="overlord", seats=8, options={"expansion_ranks": [8, 1]})
    assert "expansion roles: Tyrant, Outlaw" in settings_summary(eight, "en")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_dialog_names_each_expansion_role_its_rank_and_the_role_it_replaces(
    hub: FakeHub, lang: Lang, size: tuple[int, int]
) -> None:
    """Issue 44 item 14, K-XROLE-1: "Expansion role ranks e.g. 1 5 8" assumed
    the host knew which rank is which role. Under the field every expansion
    role of the rule set is named with its rank and the base role it replaces
    at the seats chosen (or that no role of its rank plays there), ticked as
    its rank is typed, and the list follows the seat count."""
    lobby = hub.lobby("alice", lang=lang)
    app = ThroneApp(lobby)
    async with app.run_test(size=size) as pilot:
        if lang == "zh":
            await settle_in_chinese(app, pilot)
        dialog = await open_new_room_dialog(app, pilot)
        dialog.query_one("#game", Select).value = "overlord"
        await settle(pilot)
        dialog.query_one("#expansion_ranks", Input).focus()  # a short terminal scrolls the dialog to it
        dialog.query_one("#expansion_ranks", Input).value = "8 1"
        await settle(pilot)

        def items(seats: int, picked: set[int]) -> list[str]:
            out = []
            for rank, role, base in expansion_choices("house", seats):
                mark = "[X]" if rank in picked else "[ ]"
                name = t(f"ov.role.{role}", lang)
                if base is None:
                    out.append(t("expansion.item_out", lang, mark=mark, rank=rank, role=name, n=seats))
                else:
                    out.append(t("expansion.item", lang, mark=mark, rank=rank, role=name, base=t(f"ov.role.{base}", lang)))
            return out

        five = items(5, {8, 1})
        assert len(five) == 8 and five[0].startswith("[X] 8 ")  # the house rule set's eight, highest first
        assert ("Tyrant for the Overlord" if lang == "en" else "暴君取代領主") in five[0]
        plain = str(dialog.query_one("#expansion_ranks-note").render())
        text = " ".join(screen_text(app).split())
        for item in five:
            assert " ".join(item.split()) in text or item in plain, (item, text)
        dialog.query_one("#seats", Input).value = "8"  # every rank in play: each replaces a base role
        await settle(pilot)
        eight = items(8, {8, 1})
        assert all("(" not in item and "（" not in item for item in eight), eight
        text = " ".join(screen_text(app).split())
        assert " ".join(eight[-1].split()) in text, text  # the Outlaw for the Truant, ticked



@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seats", [5, 8])
async def test_the_waiting_room_at_60x20_shows_every_setting_and_every_seat(hub: FakeHub, lang: Lang, seats: int) -> None:
    """A Kill the Overlord room with per-seat bot levels and expansion roles
    (K-XROLE-1) needs four lines of settings at 60 columns: none is cut (the note
    that rank 7 is not in play at 5 seats came last and was lost), and an 8-seat
    room full of bots still shows every seat."""
    lobby = hub.lobby("alice", lang=lang)
    ranks = [7] if seats == 5 else [8, 1]
    lobby.create_room(RoomSettings(game="overlord", seats=seats, bot_levels={1: "easy"}, options={"expansion_ranks": ranks, "round_limit": 3, "coronation": 40}))
    app = ThroneApp(lobby)
    async with app.run_test(size=(60, 20)) as pilot:
        if lang == "zh":
            await settle_in_chinese(app, pilot)
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        for _ in range(seats - 1):
            await pilot.press("a")
        await settle(pilot)
        [room] = hub.rooms.values()
        text = screen_text(app).splitlines()
        below_title = " · ".join(line.strip() for line in text[1:5])  # the settings' four lines under the title
        parts = settings_summary(room.settings, app.lang).split(" · ")
        assert below_title.split(" · ")[: len(parts)] == parts
        rows = [line for line in screen_text(app).splitlines() if re.match(r"│\s+▶?\d\s", line)]
        assert len(rows) == seats
