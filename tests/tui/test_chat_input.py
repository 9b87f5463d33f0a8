"""The chat line draws its own line (tui.widgets.ChatInput.render_line, the
DirectRender path) and must look exactly as Textual's Input draws it through
its own pipeline: text, cursor, placeholder, padding, colours, wide (CJK)
characters and horizontal scrolling; typed keys show."""

from __future__ import annotations

import types

import pytest
from shown_cells import Cell, cells
from textual.app import App, ComposeResult
from textual.geometry import Offset, Region, Size
from textual.widget import Widget
from textual.widgets import Input
from textual.widgets.input import Selection

from tui.widgets import ChatInput, ChatPanel


class Holder(App[None]):
    def compose(self) -> ComposeResult:
        yield ChatPanel(id="chat")


def drawn_both_ways(field: ChatInput) -> tuple[list[list[Cell]], list[list[Cell]]]:
    crop = Region(0, 0, field.outer_size.width, field.outer_size.height)
    field._line_key = ()
    field._direct_key = ()
    ours = cells(field.render_lines(crop))
    assert field._direct_key  # drawn the direct way, not Textual's (a border or padding above would)
    field._styles_cache.clear()
    field.render_line = types.MethodType(Input.render_line, field)
    try:
        textual = cells(Widget.render_lines(field, crop))
    finally:
        del field.render_line
    return ours, textual


async def test_the_chat_line_looks_as_textual_draws_it() -> None:
    app = Holder()
    async with app.run_test(size=(40, 8)) as pilot:
        field = app.query_one(ChatInput)
        field.placeholder = "say something [b]literal[/b]"
        await pilot.pause()
        states: list[str] = []

        def check(label: str) -> None:
            ours, textual = drawn_both_ways(field)
            assert ours == textual, label
            states.append(label)

        check("empty, no focus: placeholder")
        field.focus()
        await pilot.pause()
        check("empty, focused: cursor on the placeholder")
        for key in "héllo":
            await pilot.press(key)
        await pilot.pause()
        assert field.value == "héllo"
        check("typed, cursor at the end")
        field.value = "héllo 世界 and more"
        field.cursor_position = 3
        await pilot.pause()
        check("cursor inside")
        field.value = "世界" * 30
        field.cursor_position = len(field.value)
        await pilot.pause()
        assert field.scroll_offset.x > 0
        check("wide characters scrolled to the end")
        field.cursor_position = 7
        await pilot.pause()
        check("wide characters, cursor back inside")
        field.selection = Selection(2, 9)
        await pilot.pause()
        check("a selection (Textual's own drawing)")
        field.value = "abc"
        field.cursor_position = 1
        app.set_focus(None)
        await pilot.pause()
        check("no focus: no cursor")
        field.placeholder = ""
        field.value = ""
        field.focus()
        await pilot.pause()
        check("empty placeholder, focused")
        assert len(states) == 9


async def test_a_line_is_drawn_again_only_when_it_changes() -> None:
    app = Holder()
    async with app.run_test(size=(40, 8)) as pilot:
        field = app.query_one(ChatInput)
        field.focus()
        await pilot.press("a")
        await pilot.pause()
        first = field.render_line(0)
        assert field.render_line(0) is first  # nothing changed: the same strip
        await pilot.press("b")
        await pilot.pause()
        second = field.render_line(0)
        assert second is not first and "ab" in second.text


class TwoFields(App[None]):
    """The chat line beside a plain Input of the same size and style."""

    CSS = "Input { width: 24; height: 1; border: none; padding: 0 1; }"

    def compose(self) -> ComposeResult:
        yield ChatInput(id="chat", max_length=30)  # the chat panel's has a limit too
        yield Input(id="plain", max_length=30)


LATIN = [*"héllo 世界", "left", "left", "backspace", "home", "x", "end", *"abcdefghijklmnopqrstuvwxyz", "home", "end",
         *["backspace"] * 20, "left", "delete", "home", "delete", *"ok"]
WIDE = [*"國王與蘇丹的宮廷陰謀遊戲", "left", *"在這裡", "end", *"一二", *["backspace"] * 6, "home", *"甲乙", "delete", "end",
        *["backspace"] * 3]
"""Wide characters: the line fills in fewer keys, and a cursor after a wide
character near the edge is where the edit in place must hand over to scrolling."""


@pytest.mark.parametrize(("keys", "final"), [(LATIN, "okhéllo世界a"), (WIDE, "甲乙王與蘇丹的宮廷")])
async def test_keys_leave_the_chat_line_as_they_leave_textual_s_input(keys: list[str], final: str) -> None:
    """The chat line repaints once per edit and skips the scroll check while
    its cursor is in view (ChatInput.replace/_watch_selection): after every
    key, its text, selection, scroll and the terminal cursor are what a plain
    Input gets from the same key; typing past the width scrolls, deleting
    comes back."""
    app = TwoFields()
    seen: list[list[tuple[str, Selection, Offset, int, Size]]] = []
    async with app.run_test(size=(40, 4)) as pilot:
        for field_id in ("chat", "plain"):
            field = app.query_one(f"#{field_id}", Input)
            field.focus()
            await pilot.pause()
            states: list[tuple[str, Selection, Offset, int, Size]] = []
            for key in keys:
                await pilot.press(key)
                states.append((field.value, field.selection, field.scroll_offset, field.cursor_screen_offset.x, field.virtual_size))
                if field_id == "chat" and field.scroll_offset.x == 0 and (len(states) < 2 or states[-2][2].x == 0):
                    # the terminal's cursor is the field's (when the line scrolls Textual sets it
                    # before scrolling, a key behind, in either field)
                    assert app.cursor_position == field.cursor_screen_offset, (key, len(states))
            seen.append(states)
    chat, plain = seen
    assert chat == plain
    assert any(state[2].x > 0 for state in chat)  # the line scrolled and came back
    assert chat[-1][0] == final  # (Latin: the limit, 30, refused the rest of the alphabet, in both)


async def test_keys_on_an_unscrolled_line_skip_textual_s_reactives(monkeypatch: pytest.MonkeyPatch) -> None:
    """Typing and deleting on a line that needs no scrolling is edited in place
    (ChatInput._edit_in_place), not through Textual's ``Input.replace`` and its
    reactives: only the first value, text over the length limit and a line that
    must scroll go Textual's way. (The chat panel's field has a length limit,
    which at first sent every key the slow way.)"""
    slow: list[str] = []
    original = Input.replace

    def counted(self: Input, text: str, start: int, end: int) -> None:
        slow.append(text)
        original(self, text, start, end)

    monkeypatch.setattr(Input, "replace", counted)
    app = TwoFields()
    async with app.run_test(size=(40, 4)) as pilot:
        field = app.query_one("#chat", ChatInput)
        field.focus()
        await pilot.pause()
        for key in [*"hello", "backspace", "backspace", "left", "delete", *"p!"]:
            await pilot.press(key)
        assert field.value == "hep!"
        assert slow == ["h"]  # the first value only
        for key in "abcdefghijklmnopqrstuvwxyz":  # past the width (scrolls), then over the limit (refused)
            await pilot.press(key)
        assert field.value == "hep!abcdefghijklmnopqrstuvwxyz"[:30]
        assert len(slow) > 1


async def test_a_paste_longer_than_the_room_left_is_cut_to_fit() -> None:
    """Textual's Input drops a paste whole when the text would pass its length
    limit (a long paste into the chat line vanished, with no sign); here the
    text is kept up to the limit, over SSH as in a test."""
    from textual import events

    app = TwoFields()
    async with app.run_test(size=(40, 4)) as pilot:
        field = app.query_one("#chat", ChatInput)
        field.focus()
        field.post_message(events.Paste("貼上" * 20 + "\nsecond line"))
        await pilot.pause()
        assert field.value == ("貼上" * 20)[:30]
        field.value = "abc"
        field.cursor_position = 1
        field.post_message(events.Paste("0123456789" * 5))
        await pilot.pause()
        assert field.value == "a" + ("0123456789" * 5)[:27] + "bc"
        field.value = "abcdef"
        field.selection = Selection(1, 5)  # pasting over a selection frees its room
        field.post_message(events.Paste("x" * 40))
        await pilot.pause()
        assert field.value == "a" + "x" * 28 + "f"
        field.value = "short"
        field.cursor_position = 5
        field.post_message(events.Paste(" and fits"))
        await pilot.pause()
        assert field.value == "short and fits"
        field.value = ""  # several lines: one, joined by spaces (Textual kept the first line only)
        field.post_message(events.Paste("one\n  two \r\n\nthree"))
        await pilot.pause()
        assert field.value == "one two three"
        plain = app.query_one("#plain", Input)  # Textual's own: the whole paste is refused
        plain.focus()
        plain.post_message(events.Paste("y" * 40))
        await pilot.pause()
        assert plain.value == ""


@pytest.mark.parametrize("focused", [False, True])
@pytest.mark.parametrize(
    "hint",
    ["Say something to everyone in the lobby (t)", "對大廳裡的所有人說話，也對觀眾說話（t）"],
)
async def test_a_placeholder_too_long_for_the_line_ends_in_an_ellipsis(hint: str, focused: bool) -> None:
    """A hint wider than the chat line was cut mid-word with no sign that more
    followed ("Say something to this room (t" in a narrow room's chat); it ends
    in "…" now, in whole cells (a Chinese hint too), and a hint that fits is
    drawn whole."""
    from rich.cells import cell_len

    app = TwoFields()
    async with app.run_test(size=(40, 4)) as pilot:
        field = app.query_one("#chat", ChatInput)
        if focused:
            field.focus()
        field.placeholder = hint
        await pilot.pause()
        room = field.content_region.width  # 22: the width of 24 less the padding
        crop = Region(0, 0, field.outer_size.width, field.outer_size.height)
        field._line_key = ()
        field._direct_key = ()
        shown = "".join(ch for ch, _ in cells(field.render_lines(crop))[0]).strip()
        assert shown.endswith("…")
        assert cell_len(shown) <= room
        assert hint.startswith(shown[:-1].rstrip())
        assert cell_len(shown) >= room - 1  # cut at the line's end, not before
        field.placeholder = "Say hi (t)"
        await pilot.pause()
        field._line_key = ()
        field._direct_key = ()
        shown = "".join(ch for ch, _ in cells(field.render_lines(crop))[0]).strip()
        assert shown == "Say hi (t)"
