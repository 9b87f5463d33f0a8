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
from bisect import bisect_right
from collections.abc import Callable, Iterable
from typing import Any

from rich.cells import get_character_cell_size
from rich.console import Console
from rich.control import Control
from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip

MAX_CROPS = 8
"""More changed regions than this in one frame: one surrounding crop (Textual's way)."""

log = logging.getLogger(__name__)


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
            for part, clip, strips in self._get_renders(crop):
                render_region = part.intersection(clip)
                render_x = render_region.x
                first_cut, last_cut = render_region.column_span
                for y, strip in zip(render_region.line_range, strips, strict=False):
                    line, line_cuts = chops[y], cuts[y]
                    final_cuts = [cut for cut in line_cuts if last_cut >= cut >= first_cut]
                    if len(final_cuts) > 1:
                        pieces: Iterable[Strip] = strip.divide([cut - render_x for cut in final_cuts[1:]])
                    else:
                        pieces = (strip,)
                    # front to back, the first strip of a chop wins; only this crop's
                    # chops (beside it on its lines the widgets in front were not drawn)
                    for cut, piece in zip(final_cuts, pieces, strict=False):
                        if cut < x2 and line.get(cut, _FILLED) is None and _chop_end(line_cuts, cut) > x1:
                            line[cut] = piece
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
        chops, chop_ends = self.chops, self.chop_ends
        last_y = self.spans[-1][0]
        for y, x1, x2 in self.spans:
            for end, (x, strip) in zip(chop_ends[y], chops[y].items(), strict=False):
                if strip is None or x >= x2 or end <= x1:
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


def _chop_end(line_cuts: list[int], cut: int) -> int:
    """Where the chop that starts at ``cut`` ends (the next cut)."""
    return line_cuts[bisect_right(line_cuts, cut)]


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


def compositor() -> Compositor:
    """A :class:`RegionCompositor` if this Textual has what it needs, else Textual's own."""
    needed = ("_dirty_regions", "_regions_to_spans", "_render_chops", "_get_renders", "visible_widgets", "cuts", "size")
    probe = Compositor()
    if all(hasattr(probe, name) for name in needed):
        return RegionCompositor()
    return probe

