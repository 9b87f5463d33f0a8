"""Style matching shared between the Apps of one process (tui/runtime/sharedcss.py):
every widget of every screen gets exactly the styles Textual gives it, also
when they come from another App's matches, and after focus moves."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fakes import FakeHub, settle
from sultans_fakes import SultansClient, SultansLobby, SultansRoom
from table_fakes import open_table
from test_sultans_table import DEAL_A
from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.layout import Layout

from protocol.contract import RoomSettings
from tui.app import ThroneApp
from tui.runtime import sharedcss
from tui.runtime.sharedcss import SharedCSSCache, forget, share_styles
from tui.screens.lobby import LobbyScreen
from tui.screens.room import RoomScreen
from tui.sultans.table import Table as SultansTable


@pytest.fixture(autouse=True)
def empty_tables() -> Iterator[None]:
    forget()
    yield
    forget()


@pytest.fixture
def matched(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many nodes were matched Textual's way (its ``apply`` ran in full)."""
    calls = [0]
    original = Stylesheet.apply

    def counted(self: Stylesheet, node: DOMNode, **kw: Any) -> None:
        calls[0] += 1
        original(self, node, **kw)

    monkeypatch.setattr(Stylesheet, "apply", counted)
    return calls


def _rules(styles: Any) -> dict[str, Any]:
    """A node's style rules (a layout by its name: each parse makes new ones)."""
    return {key: value.name if isinstance(value, Layout) else value for key, value in styles.base._rules.items()}


def styles_of(app: App[Any]) -> list[tuple[str, dict[str, Any], dict[str, dict[str, Any]]]]:
    """Every node of the current screen: its path, its style rules and those
    of its component classes."""
    found = []
    for node in app.screen.walk_children(with_self=True):
        path = "/".join(f"{type(n).__name__}#{n.id}.{'.'.join(sorted(n.classes))}" for n in node.ancestors_with_self)
        components = {name: _rules(styles) for name, styles in node._component_styles.items()}
        found.append((path, _rules(node.styles), components))
    return found


async def lobby_then_room(shared: bool) -> list[Any]:
    """What the lobby, the lobby with the chat line focused, and bob's room
    look like (styles and screen) to alice."""
    hub = FakeHub()
    hub.lobby("bob").create_room(RoomSettings(game="tokens", seats=3, options={"rounds": 1}))
    app = ThroneApp(hub.lobby("alice"))
    if shared:
        share_styles(app)
    seen: list[Any] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        seen += [styles_of(app), app.export_screenshot()]
        await pilot.press("t")  # the chat line takes the focus (:focus rules change)
        await settle(pilot)
        seen += [styles_of(app), app.export_screenshot()]
        await pilot.press("escape", "enter")  # back to the room list; join bob's room
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        seen += [styles_of(app), app.export_screenshot()]
    return seen


async def test_shared_matches_give_every_widget_textual_s_own_styles(matched: list[int]) -> None:
    plain = await lobby_then_room(shared=False)
    matched_alone = matched[0]
    matched[0] = 0
    first = await lobby_then_room(shared=True)  # fills the process-wide table
    matched[0] = 0
    second = await lobby_then_room(shared=True)  # gets its styles from it
    assert first == plain
    assert second == plain
    assert matched[0] < matched_alone / 10  # nearly every node came from the table


async def test_beyond_the_rule_lists_it_remembers_it_matches_textual_s_way(
    matched: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = await lobby_then_room(shared=False)
    monkeypatch.setattr(sharedcss, "MAX_RULE_LISTS", 0)
    matched[0] = 0
    assert await lobby_then_room(shared=True) == plain
    matched_first = matched[0]
    matched[0] = 0
    assert await lobby_then_room(shared=True) == plain
    assert matched[0] == matched_first > 0  # nothing remembered
    assert not sharedcss.SharedStylesheet._matches


async def test_a_table_screen_styled_from_shared_matches_looks_the_same() -> None:
    shots: list[tuple[Any, str]] = []
    for shared in (False, True, True):
        room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
        prepare: Callable[[ThroneApp], None] | None = share_styles if shared else None
        async with open_table(room, 0, SultansClient, SultansLobby, SultansTable, prepare=prepare) as (app, _p, _c):
            shots.append((styles_of(app), app.export_screenshot()))
    assert shots[1] == shots[0]
    assert shots[2] == shots[0]


def test_parsed_css_is_shared_per_set_of_variables() -> None:
    one, two, other = Stylesheet(variables={"a": "1"}), Stylesheet(variables={"a": "1"}), Stylesheet(variables={"a": "2"})
    caches = [SharedCSSCache(sheet) for sheet in (one, two, other)]
    caches[0]["key"] = ["rules"]
    assert caches[1]["key"] == ["rules"]
    with pytest.raises(KeyError):
        caches[2]["key"]
    one.set_variables({"a": "2"})  # Textual replaces the dict: the key follows
    with pytest.raises(KeyError):
        caches[0]["key"]
    caches[2]["key"] = ["other rules"]
    assert caches[0]["key"] == ["other rules"]


def test_css_variables_are_made_once_per_theme_and_are_textual_s() -> None:
    from textual.app import App as TextualApp

    hub = FakeHub()
    first, second = ThroneApp(hub.lobby("alice")), ThroneApp(hub.lobby("bob"))
    made = TextualApp.get_css_variables(first)  # Textual's own, for the same theme
    assert first.get_css_variables() == made == second.get_css_variables()
    assert first.theme_variables == made
    first.get_css_variables()["primary"] = "changed"  # a copy: the shared one is untouched
    assert second.get_css_variables()["primary"] == made["primary"]
    second.theme = "textual-light" if second.theme != "textual-light" else "nord"
    assert second.get_css_variables() == TextualApp.get_css_variables(second) != made


def test_themes_are_found_as_textual_finds_them() -> None:
    from textual.app import App as TextualApp
    from textual.theme import Theme

    app = ThroneApp(FakeHub().lobby("alice"))
    app.register_theme(Theme(name="club", primary="#112233"))
    for name in ("textual-dark", "nord", "club", "no-such-theme", "no-such-theme, nord", " nord ,club", ""):
        assert app.get_theme(name) is TextualApp.get_theme(app, name), name
    assert app.get_theme("club") is not None and app.get_theme("club").primary == "#112233"  # type: ignore[union-attr]
    app.unregister_theme("club")
    assert app.get_theme("club") is None
    assert app.current_theme is app.get_theme(app.theme)


class _Hot(App[None]):
    """An input whose cursor's colour follows a CSS class of the input, and a
    screen with CSS of its own (showing it reparses the stylesheet)."""

    CSS = """
    Input.hot > .input--cursor { background: red; }
    Input:focus.hot > .input--cursor { background: blue; }
    """

    def compose(self) -> Any:
        from textual.widgets import Input

        yield Input(id="field")


def _cursor(app: App[Any]) -> Any:
    from textual.widgets import Input

    return app.query_one("#field", Input).get_component_rich_style("input--cursor")


async def _cursor_styles(shared: bool, garbage: dict[str, list[str]] | None = None) -> list[Any]:
    """The input's cursor style plain, with ``hot``, focused, and back; with
    ``garbage``, the types of the objects left in reference cycles by styling
    it again (``"styled"``), and by showing and closing a screen with CSS of
    its own (``"screen"``: the closed screen is garbage, its stylesheet work
    should not be)."""
    import gc

    from textual.screen import Screen
    from textual.widgets import Input

    class Own(Screen[None]):
        CSS = "Own { background: green; }"

    def left() -> list[str]:
        gc.collect()
        found = [type(obj).__name__ for obj in gc.garbage]
        gc.garbage.clear()
        return found

    app = _Hot()
    if shared:
        share_styles(app)
    seen: list[Any] = []
    async with app.run_test(size=(40, 5)) as pilot:
        field = app.query_one("#field", Input)
        field.blur()
        await pilot.pause()
        seen.append(_cursor(app))
        if garbage is not None:
            gc.collect()
            gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for step in ("add", "focus", "blur", "remove", "add", "screen"):
                if step == "add":
                    field.add_class("hot")
                elif step == "remove":
                    field.remove_class("hot")
                elif step == "focus":
                    field.focus()
                elif step == "blur":
                    field.blur()
                else:
                    if garbage is not None:
                        garbage["styled"] = left()
                    await app.push_screen(Own())
                    await pilot.pause()
                    app.pop_screen()
                await pilot.pause()
                await pilot.pause()
                seen.append(_cursor(app))
        finally:
            if garbage is not None:
                garbage["screen"] = left()
                gc.set_debug(0)
    return seen


async def test_a_widget_styled_again_gets_textual_s_component_styles_and_leaves_no_cycles() -> None:
    """Its component classes keep their virtual nodes (Textual makes new ones
    at every apply, left in reference cycles), and a screen with CSS reparses
    without a cycle: play at a table makes no cyclic garbage for the collector
    (server/heap.py counts on it)."""
    plain = await _cursor_styles(shared=False)
    assert len({str(style.bgcolor) for style in plain}) == 3  # plain, red, blue: the rules take effect
    garbage: dict[str, list[str]] = {}
    assert await _cursor_styles(shared=True) == plain  # fills the shared table
    assert await _cursor_styles(shared=True, garbage=garbage) == plain
    assert "DOMNode" not in garbage["styled"]
    assert "SharedStylesheet" not in garbage["screen"]
    assert "SharedCSSCache" not in garbage["screen"]
