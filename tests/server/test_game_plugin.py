"""Games as plug-ins (tui.games): the counting game of the server tests gets a
settings form, help and a settings line from its options model and its own
catalogue alone (tests/server/count_ui.py), with no edit to shared code; and
every bound the settings dialog checks is its source's: each game's options
model, and protocol.contract for the room's timers."""

from __future__ import annotations

from collections.abc import Iterator

import count_ui
import pytest
from games import CountOptions
from hubs import new_hub, settle
from textual.widgets import Input, Select, Static

from engine.registry import games as registered_games
from protocol.contract import TIMER_MAX, Identity, RoomSettings
from protocol.i18n import Lang, has_key, t
from server.hub import Hub
from tui.app import ThroneApp
from tui.games import GameUI, game_ui, option_fields, register_game, unregister_game
from tui.screens.dialogs import RoomSettingsDialog
from tui.screens.help import HelpScreen
from tui.screens.room import RoomScreen
from tui.summary import settings_summary


@pytest.fixture
def count_screens() -> Iterator[GameUI]:
    register_game(count_ui.UI)
    yield count_ui.UI
    unregister_game("count")


def screen_text(app: ThroneApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def open_dialog(app: ThroneApp, pilot: object) -> RoomSettingsDialog:
    await settle(pilot)  # type: ignore[arg-type]
    await pilot.press("c")  # type: ignore[attr-defined]
    await settle(pilot)  # type: ignore[arg-type]
    assert isinstance(app.screen, RoomSettingsDialog)
    return app.screen


def error_of(dialog: RoomSettingsDialog) -> str:
    return str(dialog.query_one("#form-error", Static).content)


def test_the_form_fields_are_the_models() -> None:
    """Kinds, bounds and defaults come from the model's fields and their metadata."""
    fields = option_fields(CountOptions)
    assert [(f.name, f.kind, f.lo, f.hi, f.default) for f in fields.values()] == [
        ("rounds", "int", 1, 5, 2), ("target", "int", 5, 40, 12),
    ]
    overlord = option_fields(registered_games()["overlord"].options_model)
    assert "ruleset" not in overlord  # (a free string: no form field; the room's stays)
    assert (overlord["expansion_ranks"].kind, overlord["expansion_ranks"].lo, overlord["expansion_ranks"].hi) == ("ints", 1, 8)
    assert overlord["coronation"].optional and overlord["round_limit"].hi == 200
    sultans = option_fields(registered_games()["sultans"].options_model)
    assert sultans["notebook"].kind == "bool" and sultans["first_to"].optional


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_game_plugged_in_gets_a_form_help_and_a_summary(
    hub: Hub, count_screens: GameUI, lang: Lang, size: tuple[int, int]
) -> None:
    """The counting game offers its options in the dialog, labelled from its
    catalogue, checked against CountOptions' bounds, sent, and said in the
    waiting room's line; the lobby's help has its rules summary."""
    app = ThroneApp(hub.connect(Identity(name="alice", lang=lang)))
    async with app.run_test(size=size) as pilot:
        dialog = await open_dialog(app, pilot)
        assert dialog.query_one("#row-rounds").display and dialog.query_one("#row-target").display
        assert dialog.query_one("#row-between_rounds").display  # C-ROUNDS: its rounds wait for a result
        assert not dialog.query(".note")  # (no game here has a note)
        assert str(dialog.query_one("#lbl-rounds", Static).content) == t("count.opt.rounds", lang, lo=1, hi=5)
        target = dialog.query_one("#target", Input)
        assert target.value == "12" and target.placeholder == t("count.opt.target.hint", lang, lo=5, hi=40)
        dialog.query_one("#bot_delay", Input).value = "0"
        target.value = "41"
        target.focus()
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is dialog and not hub.rooms
        assert error_of(dialog) == t("form.range", lang, field=t("count.opt.target", lang), lo=5, hi=40)
        target.value = "20"
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot, 6)
        assert isinstance(app.screen, RoomScreen)
        [room] = hub.rooms.values()
        assert room.settings.game == "count" and room.settings.options == {"rounds": 2, "target": 20}  # (the host fills the default in)
        line = settings_summary(room.settings, lang)
        assert t("count.summary.target", lang, n=20) in line.split(" · ")
        assert t("count.summary.rounds", lang, n=2) in line.split(" · ")
        assert t("summary.between_rounds", lang, s=room.settings.between_rounds) in line.split(" · ")
    help_app = ThroneApp(hub.connect(Identity(name="bob", lang=lang)))
    async with help_app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        help_app.push_screen(HelpScreen())
        await settle(pilot)
        body = " ".join(help_app.screen.body().plain.split())
        assert t("help.game.count", lang) in body and t("game.count", lang) in body


def test_a_game_without_screens_gets_the_plain_defaults(hub: Hub) -> None:
    """Unregistered, the counting game has no words of its own: its title is the
    spec's, its settings line says its round count, its help says there is none."""
    assert game_ui("count") is None and not has_key("game.count")
    line = settings_summary(RoomSettings(game="count", seats=3, options={"rounds": 2, "target": 27}), "en")
    assert "2 rounds" in line.split(" · ") and "27" not in line


@pytest.mark.parametrize("game", ["sultans", "overlord", "count"])
async def test_the_dialog_checks_each_option_against_its_models_bounds(game: str, count_screens: GameUI) -> None:
    """Every whole-number option the form offers refuses one past either bound
    of its model and takes each bound (the first-to cap, S-MATCH-1; the turn
    limit, S-WIN-4; the round limit, K-END-2; the expansion ranks, K-XROLE-1)."""
    specs = {**registered_games(), "count": count_screens.spec}
    hub = new_hub(games={game: specs[game]})
    await hub.start()
    try:
        ui = game_ui(game)
        assert ui is not None
        app = ThroneApp(hub.connect(Identity(name="alice")))
        async with app.run_test(size=(100, 50)) as pilot:
            dialog = await open_dialog(app, pilot)
            checked = 0
            for name, f in ui.fields().items():
                if f.kind not in ("int", "ints") or f.lo is None or f.hi is None:
                    continue
                if ui.switch is not None and name in ui.switch.fields:
                    dialog.query_one(f"#{ui.switch.name}_mode", Select).value = name
                    await settle(pilot)
                field = dialog.query_one(f"#{name}", Input)
                assert dialog.query_one(f"#row-{name}").display
                for bad in (f.lo - 1, f.hi + 1):
                    field.value = str(bad)
                    with pytest.raises(ValueError):
                        dialog._collect()
                for good in (f.lo, f.hi):
                    field.value = str(good)
                    sent = dialog._collect().options
                    assert sent.get(name, f.default) in (good, [good])
                    ui.spec.options_model.model_validate(sent)  # what the host reads
                field.value = "" if f.kind == "ints" else str(f.default if f.default is not None else f.lo)
                checked += 1
            assert checked >= 2
    finally:
        await hub.stop()


@pytest.mark.parametrize("field", ["turn_timer", "window_timer"])
async def test_the_timers_bound_is_the_rooms(hub: Hub, field: str) -> None:
    """The dialog took a turn timer up to 3,600 s while the room cut it to 600:
    both hold it to protocol.contract.TIMER_MAX now; the room keeps the most."""
    app = ThroneApp(hub.connect(Identity(name="alice")))
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(app, pilot)
        box = dialog.query_one(f"#{field}", Input)
        box.value = str(TIMER_MAX + 1)
        with pytest.raises(ValueError, match=f"0 to {TIMER_MAX}"):
            dialog._collect()
        box.value = str(TIMER_MAX)
        settings = dialog._collect()
    rc = hub.connect(Identity(name="bob")).create_room(settings.model_copy(update={"game": "count", "seats": 3}))
    assert getattr(rc.snapshot().settings, field) == TIMER_MAX


@pytest.mark.parametrize("game", ["sultans", "overlord", "count"])
def test_each_games_catalogue_is_whole_in_both_languages(game: str, count_screens: GameUI) -> None:
    """A game's catalogue: the same keys with the same fields in English and
    Chinese, its title, and a label for every option its form shows."""
    from protocol.i18n import params_of

    ui = game_ui(game)
    assert ui is not None
    assert set(ui.en) == set(ui.zh)
    differ = {k for k in ui.en if params_of(ui.en[k]) != params_of(ui.zh[k])}
    assert differ <= {"sk.seat_you", "ov.you"}  # (the viewer's own seat: English names it, Chinese says 你)
    assert f"game.{game}" in ui.en and f"help.game.{game}" in ui.en
    lead, rest = ui.layout()
    for name in (*lead, *rest):
        assert f"{game}.opt.{name}" in ui.en, name


def test_the_games_words_load_without_textual() -> None:
    """The catalogues are data and the registry plain Python: every game's
    words, labels and option fields load without Textual or Rich (as the core
    catalogue in protocol/ does)."""
    import subprocess
    import sys

    code = (
        "import sys, tui.games\n"
        "from protocol.i18n import t\n"
        "assert [u.id for u in tui.games.game_uis()] == ['sultans', 'overlord']\n"
        "assert t('game.overlord', 'zh') == '刺殺領主' and t('sultans.opt.notebook', 'en') == 'Notebook'\n"
        "print(sorted(m for m in ('textual', 'rich', 'asyncssh') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"


def test_the_coronation_choices_are_the_rule_sets() -> None:
    """K-RND-4: the dialog offers the rule set's coronation and its shorter
    option, labelled by their place, whatever the amounts."""
    from engine.overlord.rules import load_ruleset
    from tui.overlord.ui import UI, coronations

    rs = load_ruleset("house")
    assert coronations({}) == [rs.coronation, rs.coronation_alternative]
    assert UI.choice_label("coronation", 50, 0, "en") == "50 (the rules)"
    assert UI.choice_label("coronation", 35, 1, "zh") == "35（較短的選項）"


def test_the_generic_screens_name_no_game() -> None:
    """Issue 46: the generic screen layer named both games (titles, help,
    summaries, option forms). No module of tui/ outside a game's own package
    holds a game's id as a string now: each game comes through tui.games."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "tui"
    ids = set(registered_games())
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] in ids:
            continue  # (a game's own screens)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                words = set(node.value.replace(".", " ").replace(":", " ").split())
                if len(node.value) < 60 and words & ids:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.value!r}")
    assert found == []
