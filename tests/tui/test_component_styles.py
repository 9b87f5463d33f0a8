"""The parts of a widget (``COMPONENT_CLASSES``: a DataTable's cursor and
header, an Input's cursor...) keep their style nodes across restyles
(tui/component_styles.py) and get the very rules Textual's own way gives."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from fakes import FakeHub, settle
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.widgets import DataTable

from tui import component_styles
from tui.app import ThroneApp
from tui.client import RoomSettings


def textual_rules(app: ThroneApp, widget: DOMNode, component: str) -> dict[str, Any]:
    """The rules Textual's own way gives ``component`` of ``widget`` now: a new
    node with that class, attached to the widget, styled by the stylesheet."""
    part = DOMNode(classes=component)
    part._attach(widget)
    app.stylesheet.apply(part, animate=False)
    rules = dict(part.styles.base._rules)
    part._detach()
    return rules


def parts(app: ThroneApp) -> dict[tuple[int, str], DOMNode]:
    """Every styled part of every widget on the screen, by (widget id, class)."""
    found: dict[tuple[int, str], DOMNode] = {}
    for widget in [app.screen, *app.screen.walk_children()]:
        for component, styles in widget._component_styles.items():
            assert styles.node is not None
            found[(id(widget), component)] = styles.node
    return found


def assert_rules_as_textual_gives(app: ThroneApp) -> None:
    for widget in [app.screen, *app.screen.walk_children()]:
        for component, styles in widget._component_styles.items():
            assert dict(styles.base._rules) == textual_rules(app, widget, component), (type(widget), component)


async def test_parts_keep_their_nodes_and_get_textuals_rules_across_focus_changes(hub: FakeHub) -> None:
    hub.lobby("bob").create_room(RoomSettings(name="Bob's table", seats=6))
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#rooms", DataTable)
        assert table.has_focus and table._component_styles
        assert_rules_as_textual_gives(app)
        focused_cursor = dict(table._component_styles["datatable--cursor"].base._rules)
        before = parts(app)
        await pilot.press("t")  # the chat line takes the focus: both are restyled
        await settle(pilot)
        assert not table.has_focus
        assert_rules_as_textual_gives(app)
        assert dict(table._component_styles["datatable--cursor"].base._rules) != focused_cursor
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            await pilot.press("escape")  # back: restyled again
            await settle(pilot)
            assert table.has_focus
            gc.collect()
            thrown_away = [o for o in gc.garbage if type(o) is DOMNode]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        assert_rules_as_textual_gives(app)
        assert dict(table._component_styles["datatable--cursor"].base._rules) == focused_cursor
        after = parts(app)
        assert all(after[key] is node for key, node in before.items() if key in after)  # the same nodes
        assert not thrown_away  # and none left for the collector (Textual's way: a set per restyle)


async def test_the_screen_is_drawn_as_with_textuals_own_way(monkeypatch: pytest.MonkeyPatch) -> None:
    async def shots() -> list[str]:
        hub = FakeHub()
        hub.lobby("bob").create_room(RoomSettings(name="Bob's table", seats=6))
        app = ThroneApp(hub.lobby("alice"))
        out = []
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            out.append(app.export_screenshot())
            await pilot.press("t")
            await settle(pilot)
            out.append(app.export_screenshot())
            await pilot.press("escape")
            await settle(pilot)
            out.append(app.export_screenshot())
        return out

    ours = await shots()
    monkeypatch.setattr(Stylesheet, "_process_component_classes", component_styles._TEXTUAL_PROCESS)
    monkeypatch.setattr(component_styles, "install", lambda: True)
    theirs = await shots()
    assert Stylesheet._process_component_classes is component_styles._TEXTUAL_PROCESS
    assert theirs == ours
    assert ours[1] != ours[0] and ours[2] == ours[0]  # the focus moved there and back, visibly


def test_install_is_idempotent_and_refuses_another_method(monkeypatch: pytest.MonkeyPatch) -> None:
    assert component_styles.install()
    assert Stylesheet._process_component_classes is component_styles._process_component_classes
    assert component_styles.install()
    monkeypatch.setattr(Stylesheet, "_process_component_classes", lambda self, node: None)
    assert not component_styles.install()  # a Textual whose method differs keeps its own
