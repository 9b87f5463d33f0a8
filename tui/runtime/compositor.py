"""A Textual compositor that repaints each changed region on its own.

Textual's ``Compositor.render_partial_update`` draws one crop that surrounds
*all* regions changed since the last frame: a countdown in the top line and
a key echoed in the chat line at the bottom make it visit every widget on
the screen. With many sessions per process that is most of a frame's cost
(measured with ``./manage bench screens``). :class:`RegionCompositor` renders
each changed region's own crop (regions of the same columns on touching rows
are one), drawing only the widgets whose regions meet it, into one table of
chops for the lines they touch, so a frame costs what changed. Only the partial
update differs; full repaints, layout and the terminal output are Textual's
own, except that its layout method is rebuilt to leave no reference cycles
(:func:`_acyclic`). If the Textual internals it relies on are missing
(another Textual version), screens keep the stock compositor.
"""

from __future__ import annotations
import __future__

import ast
import inspect
import logging
import textwrap
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, cast

from rich.cells import get_character_cell_size
from rich.console import Console
from rich.control import Control
from textual.geometry import Region
from textual.strip import Strip

from tui.runtime.textual_source import private_imports

with private_imports(__name__):
    from textual._compositor import ChopsUpdate, Compositor

MAX_CROPS = 8
"""More changed regions than this in one frame: one surrounding crop (Textual's way)."""

log = logging.getLogger("throneroom.compositor")


def _acyclic(method: Callable[..., Any]) -> Callable[..., Any] | None:
    """``method`` (a function with one recursive inner function) compiled from
    its own source with that inner function deleted before the final return.

    Textual's ``Compositor._arrange_root`` places widgets with a nested
    ``add_widget`` that calls itself, so the function is kept alive by its own
    closure cell, and with it the whole map it built: every layout of every
    screen left ~50 objects of cyclic garbage (all of the cyclic garbage of
    play at 150 sessions, ~1,100 objects a second, counted with
    ``./manage bench screens --garbage 10``) that only the collector frees.
    Deleting the name clears the cell and the map is freed by reference
    counting. None (keep Textual's) when the source is not what that expects."""
    try:
        lines, first = inspect.getsourcelines(method)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError):
        return None
    func = tree.body[0] if len(tree.body) == 1 else None
    if not isinstance(func, ast.FunctionDef) or func.decorator_list or not func.body:
        return None
    inner = [node.name for node in func.body if isinstance(node, ast.FunctionDef)]
    if len(inner) != 1 or not isinstance(func.body[-1], ast.Return):
        return None
    func.body.insert(len(func.body) - 1, ast.Delete(targets=[ast.Name(id=inner[0], ctx=ast.Del())]))
    ast.fix_missing_locations(tree)
    ast.increment_lineno(tree, first - 1)
    module = inspect.getmodule(method)
    namespace: dict[str, Any] = dict(vars(module)) if module is not None else {}
    flags = __future__.annotations.compiler_flag
    try:
        exec(compile(tree, inspect.getfile(method), "exec", flags=flags, dont_inherit=True), namespace)
    except Exception:  # another Textual: keep its own method
        log.exception("cannot rebuild %s; keeping it as it is", method.__qualname__)
        return None
    rebuilt = namespace.get(func.name)
    return rebuilt if callable(rebuilt) else None


_ARRANGE_ROOT = _acyclic(Compositor._arrange_root)


class AcyclicCompositor(Compositor):
    """Textual's compositor, with the layout method that leaves no reference
    cycles (:func:`_acyclic`). Dialogs have it: drawn over the screen below,
    they keep Textual's own repaints; each of their layouts left the map of
    their widgets for the collector (with players opening dialogs, most of
    the cyclic garbage of a busy server: ~12,000 map entries at a full
    collection 35 s into a run of 18 players doing random things)."""

    if _ARRANGE_ROOT is not None:
        _arrange_root = _ARRANGE_ROOT

    def _render_chops(self, crop: Region, is_rendered_line: Callable[[int], bool]) -> Sequence[Mapping[int, Strip]]:
        """Textual's, but a widget's line fills the free chops it spans as runs
        (:func:`_fill_free`): Textual divided it at every cut below it, and a
        double-width character across a cut became two blanks (Chinese in a
        toast over the edge between two panes: "房主把  請出了那個房間", Textual
        issue 6357)."""
        chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in self.cuts]
        for y, strip, render_x, final_cuts in self._widget_lines(crop, is_rendered_line):
            _fill_free(chops[y], final_cuts, 0, len(final_cuts) - 1, strip, render_x)
        return cast("Sequence[Mapping[int, Strip]]", chops)

    def _widget_lines(
        self, crop: Region, rendered: Callable[[int], bool] | None = None
    ) -> Iterator[tuple[int, Strip, int, list[int]]]:
        """Each line of a widget drawn in ``crop``, front to back (``rendered``:
        of the rows it accepts only): its row, its strip, the column the strip
        starts at, and the cuts of the row it spans."""
        cuts = self.cuts
        for region, clip, strips in self._get_renders(crop):
            render_region = region.intersection(clip)
            render_x = render_region.x
            first_cut, last_cut = render_region.column_span
            for y, strip in zip(render_region.line_range, strips, strict=False):
                if rendered is None or rendered(y):
                    yield y, strip, render_x, [cut for cut in cuts[y] if last_cut >= cut >= first_cut]

    def render_partial_update(self) -> ChopsUpdate | None:
        """Textual's, written as :class:`ExactChopsUpdate` writes it: a dialog
        that shrank (the new-room dialog's game switched) uncovers rows written
        up to its old edge, and Textual cut a double-width character there in
        half (two blank cells in a Chinese lobby until the next whole redraw)."""
        update = super().render_partial_update()
        if type(update) is ChopsUpdate:
            return ExactChopsUpdate(update.chops, update.spans, update.chop_ends)
        return update


class RegionCompositor(AcyclicCompositor):
    """See the module docstring."""

    def render_partial_update(self) -> ChopsUpdate | None:
        update_regions = _stacked(self._dirty_regions)
        if len(update_regions) <= 1 or len(update_regions) > MAX_CROPS:
            return super().render_partial_update()
        dirty = set(self._dirty_regions)  # again, should a crop have to fall back to one around all
        self._dirty_regions.clear()
        screen_region = self.size.region
        spans = list(self._regions_to_spans(update_regions))
        cuts = self.cuts
        # one chop table for all the crops, made only for the lines they touch
        chops: list[dict[int, Strip | None]] = [_UNTOUCHED] * len(cuts)
        for y in {y for y, _, _ in spans}:
            chops[y] = dict.fromkeys(cuts[y][:-1])
        drawn = False
        for region in update_regions:
            crop = region.intersection(screen_region)
            if not crop:
                continue
            drawn = True
            x1, x2 = crop.column_span
            for y, strip, render_x, final_cuts in self._widget_lines(crop):
                # only this crop's chops (beside it on its lines the widgets in
                # front were not drawn): those that end after x1 and start before x2
                n = len(final_cuts) - 1
                lo = max(bisect_right(final_cuts, x1) - 1, 0)
                hi = min(bisect_left(final_cuts, x2), n)
                if (lo > 0 and not _starts_a_cell(strip, final_cuts[lo] - render_x)) or (
                    hi < n and not _starts_a_cell(strip, final_cuts[hi] - render_x)
                ):
                    # a double-width character across the crop's edge (a toast's
                    # Chinese over a changed pane): one crop around it all draws it whole
                    self._dirty_regions.update(dirty)
                    return super().render_partial_update()
                _fill_free(chops[y], final_cuts, lo, hi, strip, render_x)
        if not drawn:
            return None
        chop_ends = [cut_set[1:] for cut_set in cuts]
        return ExactChopsUpdate(chops, spans, chop_ends)

    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        """Textual's, but a widget is drawn only if its own region meets the crop
        (Textual checks the clip, which for most widgets is the whole screen),
        only its rows inside the crop (Textual draws the whole widget), and not
        at all when the widgets in front of it already cover its part of the
        crop (a container behind its children: the compositor keeps the front
        strip of every chop, so what it would draw is never shown)."""
        if crop is None:
            yield from super()._get_renders(crop)
            return
        overlaps = crop.overlaps
        top, bottom, left, right = crop.y, crop.bottom, crop.x, crop.right
        covered: dict[int, list[tuple[int, int]]] = {}  # row -> merged spans of the crop drawn so far
        for widget, (region, clip) in self.visible_widgets.items():  # front to back
            if not (overlaps(clip) and overlaps(region)):
                continue
            x, y, width, height = region.intersection(clip)
            y1, y2 = max(y, top), min(y + height, bottom)
            if not width or y2 <= y1:
                continue
            c1, c2 = max(x, left), min(x + width, right)  # its columns inside the crop
            if c2 <= c1 or all(_within(covered.get(row), c1, c2) for row in range(y1, y2)):
                continue
            for row in range(y1, y2):
                covered[row] = _merge(covered.get(row), c1, c2)
            part = Region(x, y1, width, y2 - y1)
            yield part, clip, widget.render_lines(Region(x - region.x, y1 - region.y, width, y2 - y1))


class ExactChopsUpdate(ChopsUpdate):
    """Textual's update of changed spans, but a chop that starts left of a
    span is cut at the span's first column: Textual writes it from the chop's
    start, so a change of a bordered widget's right edge alone wrote the whole
    line again (the lobby's panes, their focus colour at each Tab: ~5 KB for
    two one-cell columns and two lines). A span that starts or ends inside a
    double-width character takes the whole character (Textual cut it in
    half at a span's end)."""

    def render_segments(self, console: Console) -> str:
        sequences: list[str] = []
        append = sequences.append
        move_to = Control.move_to
        chops = self.chops
        last_y = self.spans[-1][0]
        for y, x1, x2 in self.spans:
            for x, strip in chops[y].items():
                if strip is None:
                    continue
                end = x + strip.cell_length  # a run of chops is one strip (_fill_free)
                if x >= x2 or end <= x1:  # (the empty ones of a run among them)
                    continue
                if x < x1 or end > x2:
                    # the span's columns, widened to whole characters where a span
                    # ends inside a wide one (half of one shows as a broken character)
                    start, stop = max(x, x1), min(end, x2)
                    if not _starts_a_cell(strip, start - x):
                        start -= 1
                    if stop < end and not _starts_a_cell(strip, stop - x):
                        stop += 1
                    strip = strip.crop(start - x, stop - x)
                    x = start
                append(move_to(x, y).segment.text)
                append(strip.render(console))
            if y != last_y:
                append("\n")
        return "".join(sequences)


def _fill_free(line: dict[int, Strip | None], cuts: list[int], lo: int, hi: int, strip: Strip, x0: int) -> None:
    """Fill the free chops among ``cuts[lo:hi]`` of ``line`` (chop ``i`` spans
    ``cuts[i]`` to ``cuts[i + 1]``) with ``strip``, a widget's line drawn from
    column ``x0``; front to back, a chop already filled keeps what a widget in
    front put there. Free chops side by side are one run: its first chop gets
    the run's whole piece, the others an empty strip, so that a double-width
    character across a cut between them is not cut into two blanks."""
    get = line.get
    width = strip.cell_length
    i = lo
    while i < hi:
        if get(cuts[i], _FILLED) is not None:
            i += 1
            continue
        j = i + 1
        while j < hi and get(cuts[j], _FILLED) is None:
            j += 1
        start, stop = cuts[i] - x0, cuts[j] - x0
        line[cuts[i]] = strip if start == 0 and stop >= width else strip.crop(start, stop)
        for k in range(i + 1, j):
            line[cuts[k]] = _RUN
        i = j


def _starts_a_cell(strip: Strip, offset: int) -> bool:
    """Whether a character of ``strip`` starts at cell ``offset`` (not the
    right half of a double-width one)."""
    at = 0
    for segment in strip:
        if segment.control:
            continue
        for char in segment.text:
            if at >= offset:
                return at == offset
            at += get_character_cell_size(char)
    return at == offset


def _stacked(regions: Iterable[Region]) -> list[Region]:
    """``regions`` with those of the same columns on touching rows made one
    (a seat ring's changed rows, each refreshed on its own, are one crop)."""
    out: list[Region] = []
    for region in sorted(regions, key=lambda r: (r.x, r.width, r.y)):
        if out:
            last = out[-1]
            if last.x == region.x and last.width == region.width and region.y <= last.bottom:
                out[-1] = Region(last.x, last.y, last.width, max(last.bottom, region.bottom) - last.y)
                continue
        out.append(region)
    return out


_UNTOUCHED: dict[int, Strip | None] = {}
"""The chops of a line no crop touches (never read: not in the update's spans)."""
_FILLED = Strip([])
"""Stands for a chop that is not on the line (a cut no chop starts at)."""
_RUN = Strip([])
"""A chop drawn by the strip of the chop that starts its run (:func:`_fill_free`)."""


def _within(spans: list[tuple[int, int]] | None, x1: int, x2: int) -> bool:
    """Whether [x1, x2) lies inside one of the merged ``spans``."""
    return spans is not None and any(a <= x1 and x2 <= b for a, b in spans)


def _merge(spans: list[tuple[int, int]] | None, x1: int, x2: int) -> list[tuple[int, int]]:
    """``spans`` (sorted, disjoint, not touching) with [x1, x2) added."""
    out: list[tuple[int, int]] = []
    for a, b in spans or ():
        if b < x1 or a > x2:
            out.append((a, b))
        else:
            x1, x2 = min(a, x1), max(b, x2)
    out.append((x1, x2))
    out.sort()
    return out


_NEEDED = ("_dirty_regions", "_regions_to_spans", "_render_chops", "_get_renders", "visible_widgets", "cuts", "size")


def available() -> bool:
    """Whether this Textual's compositor has what :class:`RegionCompositor` builds on."""
    probe = Compositor()
    return all(hasattr(probe, name) for name in _NEEDED)


def compositor() -> Compositor:
    """A :class:`RegionCompositor` if this Textual has what it needs, else Textual's own."""
    return RegionCompositor() if available() else Compositor()
