"""ChatPanel can be filled before its children are mounted (a table screen
sets its placeholder in on_mount: that used to crash a session with
NoMatches at match start, now and then, under load)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Input

from protocol.contract import ChatLine
from tui.widgets import ChatPanel, TailLog


class EarlyFill(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.panel = ChatPanel(id="chat")

    def compose(self) -> ComposeResult:
        yield self.panel


async def test_chat_panel_filled_before_mount() -> None:
    app = EarlyFill()
    panel = app.panel
    # before the app (and so the panel's children) exist at all
    panel.set_placeholder("say [b]something[/b]")
    async with app.run_test(size=(60, 12)) as pilot:
        panel.set_lines([ChatLine(at=1.0, name="[/b]", text="hi [red]x[/red]")], lang="en")
        await pilot.pause()
        assert panel.query_one(Input).placeholder == "say [b]something[/b]"
        log = panel.query_one(TailLog)
        text = "\n".join(strip.text for strip in log.lines)
        assert "[/b]" in text and "[red]x[/red]" in text


async def test_a_focused_chat_line_does_not_blink() -> None:
    """A blinking cursor is a repaint and a frame every 0.5 s per focused field
    in every session: the chat line's cursor stays steady and visible."""
    app = EarlyFill()
    async with app.run_test(size=(60, 12)) as pilot:
        field = app.panel.query_one(Input)
        field.focus()
        await pilot.pause()
        assert field.has_focus
        shown = []
        for _ in range(8):
            await pilot.pause(0.2)
            shown.append(field._cursor_visible)
        assert shown == [True] * 8


def test_a_chat_line_uses_the_readers_colon() -> None:
    """A Chinese screen writes "pb李：你好" with the full-width colon its other lines use."""
    from protocol.contract import ChatLine
    from tui.widgets import chat_text

    line = ChatLine(at=0.0, name="pb李", text="你好，各位 [b]")
    assert chat_text(line, "zh").plain.endswith(" pb李：你好，各位 [b]")
    assert chat_text(line, "en").plain.endswith(" pb李: 你好，各位 [b]")
