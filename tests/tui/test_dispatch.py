"""Message handlers looked up once per kind of widget and message
(tui/runtime/dispatch.py) are the handlers Textual finds, in its order: naming
convention and @on handlers, selectors matched against the sender, a handler
that prevents the default stopping the classes above."""

from __future__ import annotations

import inspect
from typing import Any

from textual import events, on
from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.message import Message
from textual.message_pump import MessagePump
from textual.widget import Widget
from textual.widgets import Button, Input

from tui.runtime import dispatch
from tui.sultans.ring import TableRing
from tui.widgets import ChatInput, ChatPanel, KeyBar, LineStatic, RowList, TailLog


def handlers(method: Any, node: MessagePump, message: Message) -> list[tuple[type, Any]]:
    return [(cls, bound.__func__) for cls, bound in method(node, message.handler_name, message)]


class Base(Widget):
    called: list[str]

    def on_key(self, event: events.Key) -> None:
        self.called.append("base")


class Middle(Base):
    def _on_key(self, event: events.Key) -> None:  # type: ignore[override]
        self.called.append("middle")
        if event.key == "x":
            event.prevent_default()


class Top(Middle):
    @on(Button.Pressed, "#ok")
    def pressed_ok(self) -> None:
        self.called.append("ok")

    @on(Button.Pressed)
    def pressed_any(self) -> None:
        self.called.append("any")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.called.append("convention")


def test_the_plans_find_textual_s_handlers_in_its_order() -> None:
    assert dispatch.compatible()  # this Textual's method is the one reproduced
    original = dispatch._ORIGINAL
    ours = dispatch._get_dispatch_methods
    nodes: list[MessagePump] = [
        ChatInput(), ChatPanel(), RowList(), TailLog(), LineStatic("x"), KeyBar(), TableRing(), Input(), Top(),
    ]
    messages: list[Message] = [
        events.Key("a", "a"), events.Mount(), events.Focus(), events.Resize(Size(1, 1), Size(1, 1)),
        events.Click(None, 0, 0, 0, 0, 1, False, False, False), ChatPanel.Send(ChatPanel(), "hi"), TableRing.SeatClicked(1),
    ]
    compared = 0
    for node in nodes:
        for message in messages:
            assert handlers(ours, node, message) == handlers(original, node, message), (node, message)
            compared += 1
    assert compared == len(nodes) * len(messages)
    assert handlers(ours, Top(), events.Key("a", "a")) == [
        (Middle, Middle._on_key), (Base, Base.on_key), (Widget, Widget._on_key),
    ]


def call(handler: Any, message: Message) -> None:
    """As Textual's invoke does: with the message if the handler takes it."""
    params = len(inspect.signature(handler).parameters)
    handler(*[message][:params])


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Top(id="top")
        yield Button("ok", id="ok")
        yield Button("no", id="no")


async def test_selectors_and_prevent_default_as_textual_does() -> None:
    app = Host()
    async with app.run_test() as pilot:
        top = app.query_one(Top)
        for method in (dispatch._ORIGINAL, dispatch._get_dispatch_methods):
            runs: dict[str, list[str]] = {}
            for button_id in ("ok", "no"):
                top.called = []
                message = Button.Pressed(app.query_one(f"#{button_id}", Button))
                for _cls, handler in method(top, message.handler_name, message):
                    call(handler, message)
                runs[button_id] = top.called
            for key in ("x", "y"):
                top.called = []
                event = events.Key(key, key)
                for cls, handler in method(top, event.handler_name, event):
                    if cls is not Widget:  # Textual's own key handling needs a running screen
                        call(handler, event)
                runs[key] = top.called
            assert runs == {
                "ok": ["ok", "any", "convention"],
                "no": ["any", "convention"],
                "x": ["middle"],  # prevented: Base's handler is not called
                "y": ["middle", "base"],
            }
        await pilot.pause()


def test_installed_by_the_app() -> None:
    from tui.app import ThroneApp  # noqa: F401  (installs on the first App)

    assert dispatch.install()
    assert MessagePump._get_dispatch_methods is dispatch._get_dispatch_methods
