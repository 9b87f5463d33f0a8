"""The host's system chat lines carry a catalogue key and params (protocol.contract.ChatLine):
every player reads them in their own language, names stay literal, ``text``
stays the English rendering for logs and older screens."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from games import COUNT_SPEC, until
from hubs import settle

from engine.registry import games
from protocol.catalogue import EN, ZH
from protocol.contract import ChatLine, Identity, RoomSettings
from protocol.i18n import params_of, system_line, t
from server.hub import Hub
from server.storage import Storage
from tui.app import ThroneApp
from tui.widgets import ChatPanel, chat_text

ROOT = Path(__file__).resolve().parents[2]


def new_hub(**kw: object) -> Hub:
    return Hub(
        Storage(":memory:"),
        host_fingerprint="SHA256:test",
        bot_delay=0.0,
        grace_period=5.0,
        intermission=0.0,
        games={"count": COUNT_SPEC, "sultans": games()["sultans"]},
        time_scale=0.001,
        **kw,  # type: ignore[arg-type]
    )


def system_lines(lines: list[ChatLine]) -> list[ChatLine]:
    return [ln for ln in lines if ln.system]


def test_every_key_the_host_says_is_in_both_catalogues() -> None:
    used: set[str] = set()
    for path in [*sorted((ROOT / "server/room").glob("*.py")), ROOT / "server/hub.py"]:
        used |= set(re.findall(r'"(sys\.[a-z_]+)"', path.read_text(encoding="utf-8")))
    assert len(used) >= 12, used
    for key in used:
        assert key in EN and key in ZH, key
        assert params_of(EN[key]) == params_of(ZH[key]), key


async def test_waiting_room_lines_have_keys_and_read_in_chinese() -> None:
    hub = new_hub()
    await hub.start()
    try:
        alice = hub.connect(Identity(name="alice"))
        rc = alice.create_room(RoomSettings(game="sultans", seats=5, window_timer=0, turn_timer=0))
        bob = hub.connect(Identity(name="[b]bob{0}[/b]", lang="zh")).join(rc.room_id)  # markup-looking name
        carol = hub.connect(Identity(name="carol")).join(rc.room_id)
        rc.update_settings(rc.snapshot().settings.model_copy(update={"seats": 6, "window_timer": 12}))
        assert carol.my_seat is not None
        rc.kick(carol.my_seat)
        rc.leave()  # the host leaves a waiting room: bob hosts now
        lines = system_lines(bob.chat_lines())
        assert [(ln.key, ln.params) for ln in lines] == [
            ("sys.sat_down", {"name": "alice"}),
            ("sys.sat_down", {"name": "[b]bob{0}[/b]"}),
            ("sys.sat_down", {"name": "carol"}),
            ("sys.settings_changed_what", {"changes": "seats\nwindow_timer"}),  # what changed, said
            ("sys.kicked", {"name": "carol"}),
            ("sys.left", {"name": "alice"}),
            ("sys.new_host", {"name": "[b]bob{0}[/b]"}),
        ]
        # text: the English rendering, as before keys existed
        assert [ln.text for ln in lines] == [
            "alice sat down",
            "[b]bob{0}[/b] sat down",
            "carol sat down",
            "the host changed the settings: seats, reaction timer",
            "carol was removed by the host",
            "alice left",
            "[b]bob{0}[/b] is now the host",
        ]
        zh = [chat_text(ln, "zh").plain.split(" ", 1)[1] for ln in lines]  # minus the clock
        assert zh == [
            "* alice 入座了",
            "* [b]bob{0}[/b] 入座了",  # the name literally: no markup, no format field
            "* carol 入座了",
            "* 房主更改了設定：座位數、回應計時",
            "* carol 被房主請出房間",
            "* alice 離開了",
            "* [b]bob{0}[/b] 成為新房主",
        ]
        assert [chat_text(ln, "en").plain.split(" ", 1)[1] for ln in lines] == ["* " + ln.text for ln in lines]
        bob.start()
        begins = system_lines(bob.chat_lines())[-1]
        assert (begins.key, begins.params, begins.text) == (
            "sys.match_begins", {"game": "sultans"}, "a match of Sultans of Karaya begins"
        )
        assert system_line(begins.key or "", begins.params, "zh") == "《推翻蘇丹》比賽開始"
    finally:
        await hub.stop()


async def test_match_lines_autoplay_and_result() -> None:
    hub = new_hub()
    await hub.start()
    try:
        alice = hub.connect(Identity(name="alice"))
        rc = alice.create_room(RoomSettings(game="count", seats=2, window_timer=0, turn_timer=0, options={"rounds": 1}))
        watcher = hub.connect(Identity(name="zed", lang="zh")).watch(rc.room_id)
        rc.start()
        rc.leave()  # mid-match: a bot plays her seat, and the bots finish the match
        room = watcher.room
        await until(lambda: room.state == "finished")
        lines = system_lines(watcher.chat_lines())
        keys = [ln.key for ln in lines]
        assert keys[:4] == ["sys.sat_down", "sys.watching", "sys.match_begins", "sys.left_autoplay"]
        assert keys[-1] in ("sys.match_over", "sys.match_over_nobody")
        assert chat_text(lines[1], "zh").plain.endswith("* zed 在觀戰")  # the waiting room says who came to watch
        # a game the catalogue does not know: its line keeps the English text
        assert chat_text(lines[2], "zh").plain.endswith("* a match of Count to the Target begins")
        assert chat_text(lines[3], "zh").plain.endswith("* alice 離開了；由電腦代打他的座位")
        over = lines[-1]
        if over.key == "sys.match_over":
            names = over.params["names"].split("\n")
            assert over.text == f"the match is over; won by {', '.join(names)}"
            said = ["電腦 " + n[4:] if n.startswith("Bot ") else n for n in names]  # a bot as the tables name it
            assert chat_text(over, "zh").plain.endswith(f"* 比賽結束；獲勝者：{'、'.join(said)}")
    finally:
        await hub.stop()


def test_a_list_of_names_is_said_as_each_language_lists() -> None:
    """The winners of a match: "won by alice, bob"; "獲勝者：alice、bob" (it said
    "alice, bob" in Chinese too); a line from an older host (names joined by ", ")
    still shows as it was."""
    line = ChatLine(at=0.0, name="", text="the match is over; won by alice, bob", system=True,
                    key="sys.match_over", params={"names": "alice\nbob"})
    assert chat_text(line, "en").plain.endswith("* the match is over; won by alice, bob")
    assert chat_text(line, "zh").plain.endswith("* 比賽結束；獲勝者：alice、bob")
    old = ChatLine(at=0.0, name="", text="the match is over; won by alice, bob", system=True,
                   key="sys.match_over", params={"names": "alice, bob"})
    assert chat_text(old, "zh").plain.endswith("* 比賽結束；獲勝者：alice, bob")
    bots = ChatLine(at=0.0, name="", text="the match is over; won by Bot 2, alice", system=True,
                    key="sys.match_over", params={"names": "Bot 2\nalice"})
    assert chat_text(bots, "zh").plain.endswith("* 比賽結束；獲勝者：電腦 2、alice")  # a bot as the tables name it
    assert chat_text(bots, "en").plain.endswith("* the match is over; won by Bot 2, alice")


def test_unknown_keys_and_missing_params_fall_back_to_the_text() -> None:
    line = ChatLine(at=0.0, name="", text="something new happened", system=True, key="sys.from_a_newer_host")
    assert chat_text(line, "zh").plain.endswith("* something new happened")
    missing = ChatLine(at=0.0, name="", text="dave sat down", system=True, key="sys.sat_down")  # no params
    assert chat_text(missing, "zh").plain.endswith("* dave sat down")
    old = ChatLine(at=0.0, name="", text="an old line", system=True)  # no key at all (older host)
    assert chat_text(old, "zh").plain.endswith("* an old line")
    assert system_line("sys.sat_down", {"name": "dave"}, "zh") == t("sys.sat_down", "zh", name="dave") == "dave 入座了"


async def test_the_room_chat_follows_the_players_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """The waiting room's chat panel (the same ChatPanel as the lobby's and the
    Sultans and Overlord tables') says system lines in the player's language and
    says them again after F2."""
    monkeypatch.setattr(ThroneApp, "flush_interval", 0.0)
    hub = new_hub()
    await hub.start()
    try:
        host = hub.connect(Identity(name="alice"))
        rc = host.create_room(RoomSettings(game="sultans", seats=5, window_timer=0, turn_timer=0))
        hub.connect(Identity(name="bob")).join(rc.room_id)
        app = ThroneApp(hub.connect(Identity(name="carol", lang="zh")))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            app.enter_room(app.lobby.join(rc.room_id), watching=False)
            await settle(pilot)

            def chat() -> str:
                log = app.screen.query_one(ChatPanel).log_widget
                return "\n".join(strip.text for strip in log.lines)

            assert "bob 入座了" in chat() and "carol 入座了" in chat()
            assert "sat down" not in chat()
            await pilot.press("f2")
            await settle(pilot)
            assert "bob sat down" in chat() and "carol sat down" in chat()
            assert "入座" not in chat()
            assert chat().count("sat down") == 3  # written again, not twice
    finally:
        await hub.stop()
