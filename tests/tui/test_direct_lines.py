"""DirectLines keeps its style (rich_style, background) until a style of the
widget or of an ancestor changes; the lines drawn then follow the change."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.geometry import Region

from tui.widgets import LineStatic


class Holder(App[None]):
    CSS = "#box { background: red; } #line { height: 1; }"

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield LineStatic("a line", id="line", markup=False)


def background_of(line: LineStatic) -> str:
    strip = line.render_lines(Region(0, 0, line.size.width, 1))[0]
    styles = {seg.style.bgcolor.name if seg.style and seg.style.bgcolor else "" for seg in strip}
    return ",".join(sorted(styles))


async def test_the_style_is_kept_until_an_ancestor_changes() -> None:
    app = Holder()
    async with app.run_test(size=(30, 5)) as pilot:
        await pilot.pause()
        line = app.query_one("#line", LineStatic)
        first = background_of(line)
        kept = line._style
        background_of(line)
        assert line._style is kept  # nothing changed: not computed again
        app.query_one("#box", Vertical).styles.background = "blue"
        await pilot.pause()
        second = background_of(line)
        assert line._style is not kept and second != first  # the ancestor's new colour is drawn
        before = line._style
        line.styles.color = "yellow"
        await pilot.pause()
        background_of(line)
        assert line._style is not before and line._style[0].color is not None
        assert line._style[0].color.triplet == (255, 255, 0)  # the widget's own change too
