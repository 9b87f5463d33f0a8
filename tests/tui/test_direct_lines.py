"""DirectLines keeps its style (rich_style, background) until a style of the
widget or of an ancestor changes; the lines drawn then follow the change. Its
repaints reach the screen directly; a TailLog shows a sheet in its place."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.geometry import Region

from tui.app import shared_filter
from tui.widgets import LineStatic, TailLog


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


class LogHolder(App[None]):
    CSS = "#log { height: 5; } #other { height: 1; }"

    def compose(self) -> ComposeResult:
        yield TailLog(id="log")
        yield LineStatic("other", id="other", markup=False)


def shown(app: App[None]) -> list[str]:
    log = app.query_one("#log", TailLog)
    return [strip.text.rstrip() for strip in log.render_lines(Region(0, 0, log.size.width, 5))]


async def test_a_sheet_shows_in_the_log_s_place_from_its_top_without_a_layout() -> None:
    app = LogHolder()
    async with app.run_test(size=(30, 8)) as pilot:
        await pilot.pause()
        log = app.query_one("#log", TailLog)
        for i in range(8):
            log.write(f"log line {i}")
        await pilot.pause()
        assert shown(app)[-1].startswith("log line 7")  # the log follows its end
        layouts: list[object] = []
        original = app.screen._refresh_layout

        def counting(*args: object, **kw: object) -> None:
            layouts.append(args)
            original(*args, **kw)  # type: ignore[arg-type]

        app.screen._refresh_layout = counting  # type: ignore[method-assign]
        log.show_sheet(Text("\n".join(f"sheet row {i}" for i in range(9))), from_top=True)
        await pilot.pause()
        assert shown(app)[0].startswith("sheet row 0")
        assert "log line" not in " ".join(shown(app))
        log.write("log line 8")  # the log keeps its lines underneath
        log.action_scroll_page(1)
        await pilot.pause()
        assert shown(app)[0].startswith("sheet row 4")  # a page is the height less one line
        log.show_sheet(Text("\n".join(f"sheet row {i}" for i in range(9))))  # same text: kept where it was
        await pilot.pause()
        assert shown(app)[0].startswith("sheet row 4")
        log.show_sheet(None)
        await pilot.pause()
        assert shown(app)[-1].startswith("log line 8")
        assert layouts == []  # switching repainted the log only


async def test_a_plain_repaint_marks_the_widget_on_its_screen_directly() -> None:
    """ScreenRepaint: no Prompt to the widget, no Update or Prompt message to
    the screen (its update timer is started directly)."""
    from textual import messages

    app = LogHolder()
    async with app.run_test(size=(30, 8)) as pilot:
        await pilot.pause()
        other = app.query_one("#other", LineStatic)
        posted: list[object] = []
        original = app.screen.post_message

        def spy(message: Any) -> bool:
            posted.append(message)
            return original(message)

        app.screen.post_message = spy  # type: ignore[method-assign]
        other.update("changed", layout=False)
        assert other in app.screen._dirty_widgets
        assert not other._repaint_required
        assert not any(isinstance(m, (messages.Update, messages.Prompt)) for m in posted)
        await pilot.pause()
        assert app.screen._compositor.render_strips()[5].text.startswith("changed")
        # a change of size still goes Textual's way (a layout)
        other.update("changed again", layout=True)
        assert other._layout_required and other not in app.screen._dirty_widgets
        await pilot.pause()
        assert app.screen._compositor.render_strips()[5].text.startswith("changed again")


async def test_a_scrolling_log_filters_only_its_new_line() -> None:
    """A log that moved up a line shows the same lines on other rows: each is
    drawn (padded, filtered) once, not again on its new row."""
    from textual.strip import Strip

    app = LogHolder()
    async with app.run_test(size=(30, 8)) as pilot:
        log = app.query_one("#log", TailLog)
        for i in range(8):
            log.write(f"log line {i}")
        await pilot.pause()
        crop = Region(0, 0, log.outer_size.width, log.outer_size.height)
        before = [s.text for s in log.render_lines(crop)]
        filtered: list[str] = []
        original = Strip.apply_filter

        def counting(self: Strip, *args: Any) -> Strip:
            filtered.append(self.text)
            return original(self, *args)

        Strip.apply_filter = counting  # type: ignore[method-assign, assignment]
        try:
            log.write("log line 8")
            after = [s.text for s in log.render_lines(crop)]
        finally:
            Strip.apply_filter = original  # type: ignore[method-assign]
        assert [row[:-1] for row in after[:-1]] == [row[:-1] for row in before[1:]]  # moved up (the last
        assert after[-1].startswith("log line 8")  # column is the scroll bar, whose thumb moves)
        moved_thumb = sum(a[-1] != b[-1] for a, b in zip(after[:-1], before[1:], strict=True))
        assert len(filtered) <= 1 + moved_thumb < len(after)  # the new line and the rows the thumb left or reached


async def test_a_line_written_with_a_share_key_is_wrapped_once_for_every_log(monkeypatch: Any) -> None:
    """TailLog.write(..., share=key): the logs of two sessions showing the same
    line (a room's spectators) take it wrapped from the first; without the
    key, with another one, or at another width, it is wrapped for the log;
    every log shows the line the same way."""
    wrapped: list[int] = []
    original = TailLog._wrap

    def counting(self: TailLog, text: Text, width: int, *, wrap: bool) -> Any:
        wrapped.append(width)
        return original(self, text, width, wrap=wrap)

    monkeypatch.setattr(TailLog, "_wrap", counting)
    key, other = object(), object()
    text = Text("a long line about a seat that swapped cards twice, wrapped " * 2, style="bold")
    shown_lines: list[list[str]] = []
    for width, share in ((40, key), (40, key), (40, other), (40, None), (30, key)):
        app = LogHolder()
        async with app.run_test(size=(width, 10)) as pilot:
            await pilot.pause()
            log = app.query_one(TailLog)
            wrapped.clear()
            log.write(text, share=share)
            await pilot.pause()
            assert len(log.lines) >= 2
            shown_lines.append([strip.text for strip in log.lines])
            assert len(wrapped) == (0 if len(shown_lines) == 2 else 1), (width, share)
    assert shown_lines[0] == shown_lines[1] == shown_lines[2] == shown_lines[3] != shown_lines[4]


def test_lines_that_fit_are_drawn_as_rich_wraps_them() -> None:
    """Text whose lines all fit is drawn without Rich's wrapping (tui/widgets/direct.py,
    ``_fitting_lines``): the same cells and styles as Rich's way, for random texts
    (styles on the whole text and on parts, CJK, emoji, blank lines, spaces at
    either end); text that does not fit, ends in a newline or is justified takes
    Rich's way."""
    import io
    import random

    from rich.console import Console

    from tui.widgets.direct import _fitting_lines, _rich_lines

    console = Console(file=io.StringIO(), width=200, color_system="truecolor")
    words = ["Sultan", "蘇丹", "回合", "turn", "14/200", "👍", "·", " ", "  ", "a", "[Guard]", "<Slave>"]
    styles = ["", "bold", "dim", "bold red", "reverse", "italic underline"]
    rng = random.Random(7)

    def cells(strips: list[Any]) -> list[list[tuple[str, Any]]]:
        return [[(ch, seg.style or None) for seg in strip for ch in seg.text] for strip in strips]

    fast_ones = 0
    for _ in range(400):
        text = Text(style=rng.choice(styles), end="")
        for _ in range(rng.randint(0, 12)):
            text.append(rng.choice(words) + rng.choice(["", " ", "\n"]), style=rng.choice(styles))
        width = rng.randint(4, 60)
        fast = _fitting_lines(console, text, width)
        slow = _rich_lines(console, text, width, wrap=True)
        if fast is not None:
            fast_ones += 1
            assert cells(fast) == cells(slow), repr(text)
    assert fast_ones > 100  # most took the quick way
    assert _fitting_lines(console, Text("x" * 30), 20) is None  # too wide: wrapped by Rich
    assert _fitting_lines(console, Text("ab\n"), 20) is None
    assert _fitting_lines(console, Text("ab", justify="center"), 20) is None


async def test_logs_in_two_sessions_join_and_filter_a_shared_line_once() -> None:
    """A line that the logs of several sessions share (written with a share key,
    as a room's spectators' logs are) is joined with its scroll mark and
    filtered once for all of them: the second session's log shows the same
    rows without filtering any (each session filtered each row again before)."""
    from textual.strip import Strip

    keys = [object() for _ in range(3)]
    texts = [Text(f"shared line {i}", style="bold") for i in range(3)]
    filtered: list[str] = []
    original = Strip.apply_filter

    def counting(self: Strip, *args: Any) -> Strip:
        filtered.append(self.text)
        return original(self, *args)

    rows: list[list[Strip]] = []
    counts: list[int] = []
    Strip.apply_filter = counting  # type: ignore[method-assign, assignment]
    try:
        for _session in range(2):
            app = LogHolder()
            app._filters = [shared_filter(f) for f in app._filters]  # as ThroneApp's
            async with app.run_test(size=(30, 8)) as pilot:
                await pilot.pause()
                log = app.query_one("#log", TailLog)
                filtered.clear()
                for key, text in zip(keys, texts, strict=True):
                    log.write(text, share=key)
                await pilot.pause()
                counts.append(sum(row.startswith("shared line") for row in filtered))
                rows.append(log.render_lines(Region(0, 0, log.outer_size.width, log.outer_size.height)))
    finally:
        Strip.apply_filter = original  # type: ignore[method-assign]
    assert counts[0] == 3 and counts[1] == 0
    assert [row.text for row in rows[0]] == [row.text for row in rows[1]]
    assert [row.text.rstrip() for row in rows[1]][:3] == ["shared line 0", "shared line 1", "shared line 2"]
    assert all(a is b for a, b in zip(rows[0], rows[1], strict=True))  # the very same strips


async def test_lines_written_without_a_refresh_show_after_one_refresh() -> None:
    """``write(..., refresh=False)`` (a table writes an action's lines so, then
    refreshes the log once) marks nothing; the one refresh shows them all."""
    app = LogHolder()
    async with app.run_test(size=(30, 8)) as pilot:
        log = app.query_one("#log", TailLog)
        await pilot.pause()
        calls: list[int] = []
        original = TailLog.refresh

        def counting(self: TailLog, *args: Any, **kw: Any) -> Any:
            calls.append(1)
            return original(self, *args, **kw)

        TailLog.refresh = counting  # type: ignore[method-assign, assignment]
        try:
            for i in range(3):
                log.write(f"batch line {i}", refresh=False)
            assert calls == [] and log not in app.screen._dirty_widgets
            log.refresh()
            assert log in app.screen._dirty_widgets  # marked on its screen for the next frame
            await pilot.pause()
        finally:
            TailLog.refresh = original  # type: ignore[method-assign]
        rows = [strip.text for strip in app.screen._compositor.render_strips()]
        shown = [row.rstrip(" │┃") for row in rows]
        assert shown[:3] == ["batch line 0", "batch line 1", "batch line 2"], shown


async def test_a_resized_log_wraps_its_lines_again_to_its_new_width() -> None:
    """The lines were wrapped once, to the width they were written at: a narrower
    terminal cut their ends off ("20:54 * the match i"), a wider one left them in
    a narrow column. Now a width change wraps every line written again; a log
    scrolled back keeps the same line at its top, and max_lines still holds."""
    words = "the match is over; won by bob after five rounds"
    app = LogHolder()
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.pause()
        log = app.query_one("#log", TailLog)
        log.max_lines = 16
        log.write(words)
        log.write(Text("second line", style="bold"), share=("shared", 1))
        await pilot.pause()
        assert [line for line in shown(app) if line] == [words, "second line"]
        await pilot.resize_terminal(24, 8)
        await pilot.pause()
        narrow = shown(app)
        assert " ".join(" ".join(narrow).split()).endswith(words + " second line"), narrow  # nothing cut off
        assert all(len(line) <= 23 for line in narrow)
        await pilot.resize_terminal(60, 8)
        await pilot.pause()
        assert [line for line in shown(app) if line] == [words, "second line"]  # one line again
        assert any(seg.style is not None and seg.style.bold for seg in log.lines[-1])  # its style kept
        for i in range(10):
            log.write(f"line {i} " + "x " * 20)
        await pilot.pause()
        assert len(log.lines) == 12
        log.action_scroll_home()
        log.action_scroll_lines(5)
        await pilot.pause()
        top = shown(app)[0]
        assert top.startswith("line 3 ")
        await pilot.resize_terminal(30, 8)
        await pilot.pause()
        assert len(log.lines) == 16  # two lines each now: max_lines dropped the oldest
        assert shown(app)[0].split()[:2] == top.split()[:2]  # scrolled back: the same line on top
        log.action_scroll_end()
        await pilot.pause()
        assert shown(app)[-1].startswith("x ")  # the newest line's wrapped end


async def test_only_the_newest_writes_are_wrapped_again(monkeypatch: Any) -> None:
    """A log keeps what its newest REWRAP_WRITES writes were (a table's 2,000
    lines of text held ~2 MB a session); older lines keep their wrapping, and
    max_lines drops them first."""
    import tui.widgets.taillog

    monkeypatch.setattr(tui.widgets.taillog, "REWRAP_WRITES", 3)
    app = LogHolder()
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.pause()
        log = app.query_one("#log", TailLog)
        log.max_lines = 9
        for i in range(6):
            log.write(f"write {i} " + "y " * 15)  # one line at 60, two at 30
        await pilot.pause()
        await pilot.resize_terminal(30, 8)
        await pilot.pause()
        texts = [strip.text.rstrip() for strip in log.lines]
        assert [t.split()[:2] for t in texts[:3]] == [["write", "0"], ["write", "1"], ["write", "2"]]  # as they were
        assert len(texts) == 9 and all(len(t) <= 29 for t in texts[3:])
        assert [t.split()[:2] for t in texts[3::2]] == [["write", "3"], ["write", "4"], ["write", "5"]]
        log.write("write 6")
        assert [t.text.split()[:2] for t in log.lines[:1]] == [["write", "1"]]  # the oldest dropped first
        await pilot.resize_terminal(60, 8)
        await pilot.pause()
        texts = [strip.text.rstrip() for strip in log.lines]
        heads = [" ".join(t.split()[:2]) for t in texts]
        # write 3 left the newest three with write 6: kept in its two lines; 4, 5 and 6 one line each again
        assert heads == ["write 1", "write 2", "write 3", "y y", "write 4", "write 5", "write 6"], texts


class PromptHolder(App[None]):
    CSS = "#prompt { height: 4; width: 30; }"

    def compose(self) -> ComposeResult:
        yield LineStatic("", id="prompt", markup=False, pack=(" · ",), fit=True)


async def test_a_fitted_prompt_cuts_the_fewest_lines_the_longest_first() -> None:
    """A prompt box of 4 rows with a status line, a long hint and a choice list of
    two rows each: the hint is cut to one row and the choices keep both (every line
    was cut, so a Foresee's "Chosen 0/3" after the seats was never seen at 80 columns)."""
    app = PromptHolder()
    async with app.run_test(size=(40, 6)) as pilot:
        line = app.query_one("#prompt", LineStatic)
        line.update(Text("Your turn.\nForesee: pick 3 seats, numbers or arrows\n1=ann 2=bob 3=cyd 4=dee Chosen 0/3"))
        await pilot.pause()
        rows = [line.render_line(y).text.rstrip() for y in range(4)]
        assert rows[0] == "Your turn."
        assert rows[1].endswith("…") and rows[1].startswith("Foresee: pick 3")
        assert rows[2:] == ["1=ann 2=bob 3=cyd 4=dee Chosen", "0/3"]
        line.update(Text("a b c d e f g h i j k l m n o p q r s t u v w x y z " * 2 + "\n" + "x y z " * 12 + "\nend"))
        await pilot.pause()
        rows = [line.render_line(y).text.rstrip() for y in range(4)]
        assert rows[0].endswith("…") and rows[1].endswith("…") and rows[2:] == ["end", ""]  # the longest, then the next


def test_the_wrapped_texts_kept_process_wide_are_bounded_in_lines() -> None:
    """``wrapped_strips`` keeps at most ``STRIP_CACHE_SIZE`` lines in all, the
    most recently used, however many lines each text has (it kept that many
    texts: an evening's multi-line result sheets grew the server's memory)."""
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from tui.widgets import direct

    holder: Any = SimpleNamespace(app=SimpleNamespace(console=Console(file=io.StringIO(), width=200)))
    texts = [Text(f"sheet {i}\nsecond line\nthird line") for i in range(direct.STRIP_CACHE_SIZE // 2)]
    direct._wrapped.clear()
    try:
        made = [direct.wrapped_strips(holder, text, 40) for text in texts]
        assert all(len(lines) == 3 for lines in made)
        assert direct.wrapped_strips(holder, texts[-1], 40) is made[-1]  # the newest are kept
        assert direct.wrapped_strips(holder, texts[0], 40) is not made[0]  # the oldest were let go
        kept = sum(direct.wrapped_strips(holder, text, 40) is lines for text, lines in zip(texts[-100:], made[-100:], strict=True))
        assert kept == 100
        assert len(direct._wrapped) * 3 <= direct.STRIP_CACHE_SIZE
    finally:
        direct._wrapped.clear()
