"""Small text helpers: user-provided text is always literal, widths are cell widths.

Everything a player typed (names, chat, room names) reaches the screen through
:func:`literal`, a ``rich.text.Text`` that is never parsed as markup.
Alignment uses terminal cell widths (``rich.cells``), so CJK text lines up.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Sequence

from rich.cells import cell_len, set_cell_size
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.text import Text

MEASURE = Console(file=io.StringIO(), width=200, color_system=None)
"""A console that draws nothing, for wrapping and measuring text outside any
app (ring boxes, card effects): one for the process."""


def literal(text: str, style: str = "") -> Text:
    """``text`` as it is: brackets, backslashes and all, never markup."""
    return Text(text, style=style, no_wrap=False, end="")


def fit(text: str, width: int) -> str:
    """Pad or cut ``text`` to exactly ``width`` terminal cells (cut text ends in ``…``)."""
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return set_cell_size(text, width)
    return set_cell_size(text, width - 1) + "…"


def clip(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` terminal cells (cut text ends in ``…``)."""
    if cell_len(text) <= width:
        return text
    cut = set_cell_size(text, width - 1)
    if cell_len(text[: len(cut)]) > width - 1:  # a wide character cut in half: its padding space goes
        cut = cut[:-1]
    return cut + "…"


class NameFirst:
    """A Rich renderable: one line, a name (bold) and then ``rest``; at the
    width it is given the name is cut so that ``rest`` fits whole, never to
    fewer than ``keep`` cells (then the line's end goes, "…"). A room's head
    cut its name at 24 cells with half a 100-column line empty beside it."""

    def __init__(self, name: str, rest: Text, keep: int = 24) -> None:
        self.name = name
        self.rest = rest
        self.keep = keep

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        room = max(self.keep, options.max_width - self.rest.cell_len)
        line = Text.assemble((clip(self.name, room), "bold"), self.rest, no_wrap=True, overflow="ellipsis", end="")
        yield line


def cut_lines(text: Text, width: int) -> Text:
    """Each line of ``text`` cut to at most ``width`` cells (cut ones end in "…")."""
    lines = text.split("\n", allow_blank=True)
    for line in lines:
        line.truncate(width, overflow="ellipsis")
    return Text("\n", end="").join(lines)


def fit_parts(parts: Sequence[str], width: int, sep: str = " · ") -> str:
    """``parts`` joined by ``sep`` as far as whole parts fit in ``width`` cells,
    then "…": a header says "Round 1/30 · order phase · …", never "crown at 4…"
    (a number cut reads as another number). ``width`` 0 (not laid out yet):
    all of them."""
    whole = sep.join(parts)
    if width <= 0 or cell_len(whole) <= width:
        return whole
    shown = ""
    for part in parts:
        more = shown + sep + part if shown else part
        if cell_len(more + sep + "…") > width:
            break
        shown = more
    return (shown + sep + "…") if shown else clip(whole, width)


def fit_head(parts: Sequence[str], width: int) -> str:
    """A table's header line: every part when they fit in ``width`` cells; else
    without the first (the game's name, the least needed), as many whole parts
    as fit (at 60 columns "Overlord · Round 4/30 · order phase · …" had lost
    which seat is yours)."""
    whole = " · ".join(parts)
    if width <= 0 or cell_len(whole) <= width:
        return whole
    return fit_parts(parts[1:], width)


def clock(at: float) -> str:
    """``HH:MM`` in the server's local time, for chat lines."""
    return time.strftime("%H:%M", time.localtime(at))


def width(text: str) -> int:
    return cell_len(text)


def pack_items(text: Text, width: int, console: Console, sep: str = "  ") -> list[Text]:
    """``text`` wrapped to ``width`` cells between its items (the parts that
    ``sep`` separates), so that a line of signs or of settings breaks between
    two of them, never inside one ("? note  ?? note may be stale" does not
    leave "note may be stale" alone on the next line). An item wider than
    ``width`` is word-wrapped; a line starting with an item starts without
    the separator. Text without ``sep`` is word-wrapped as Rich does."""
    width = max(1, width)
    if cell_len(text.plain) <= width:
        return [text]
    if sep not in text.plain:
        return _word_wrap(text, width, console)
    lines: list[Text] = []
    line: Text | None = None
    used = 0
    gap = cell_len(sep)
    for item in text.split(sep, allow_blank=True):
        item.rstrip()
        size = cell_len(item.plain)
        if line is not None and used + gap + size <= width:
            line.append(sep)
            line.append_text(item)
            used += gap + size
            continue
        if line is not None:
            lines.append(line)
        stripped = len(item.plain) - len(item.plain.lstrip())
        if stripped:
            item = item[stripped:]
        size = cell_len(item.plain)
        if size > width:
            *whole, last = _word_wrap(item, width, console)
            lines.extend(whole)
            item, size = last, cell_len(last.plain)
        line, used = item, size
    if line is not None:
        lines.append(line)
    return lines


def _word_wrap(text: Text, width: int, console: Console) -> list[Text]:
    out: list[Text] = []
    for part in text.wrap(console, width):
        part.rstrip()
        part.end = ""
        out.append(part)
    return out or [Text(end="")]


class Packed:
    """A Rich renderable: each line of ``text`` wrapped to the width it is given
    between its items (:func:`pack_items`), by the first of ``seps`` it has
    (a help's list of keys, a legend of signs, a line of settings); a line
    with none of them is word-wrapped."""

    def __init__(self, text: Text, seps: tuple[str, ...] = (" · ", "  ")) -> None:
        self.text = text
        self.seps = seps

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.text.split("\n", allow_blank=True):
            sep = next((sep for sep in self.seps if sep in line.plain), self.seps[0])
            for part in pack_items(line, options.max_width, console, sep):
                part.end = "\n"
                part.no_wrap = True
                part.overflow = "ellipsis"
                yield part


def name_rows(names: Sequence[str], sep: str, width: int, rows: int, more: Callable[[int], str]) -> list[str]:
    """``names`` packed whole into at most ``rows`` lines of ``width`` cells, each
    line but the last ending in ``sep`` (trailing spaces dropped). When they do not
    all fit, the last line ends in ``more`` with the count left out ("+3"),
    never in half a name; a name wider than a line is clipped."""
    width = max(1, width)
    lines: list[list[str]] = [[]]
    for name in names:
        name = clip(name, max(2, width - cell_len(sep.rstrip())))
        line = lines[-1]
        if line and cell_len(sep.join([*line, name]) + sep.rstrip()) > width:
            lines.append([name])
        else:
            line.append(name)
    if len(lines) > rows:
        kept = lines[:rows]
        hidden = len(names) - sum(len(line) for line in kept)
        last = kept[-1]
        while last:
            tail = more(hidden)
            if cell_len(sep.join(last) + sep + tail) <= width:
                break
            last.pop()
            hidden += 1
        tail = more(hidden)
        kept[-1] = [*last, tail] if last else [tail]
        lines = kept
    out = [sep.join(line) for line in lines]
    return [(row + sep).rstrip() for row in out[:-1]] + out[-1:]


class NameRows:
    """A Rich renderable: :func:`name_rows` at the width it is given, literal."""

    def __init__(self, names: Sequence[str], sep: str, rows: int, more: Callable[[int], str]) -> None:
        self.names, self.sep, self.rows, self.more = list(names), sep, rows, more

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for row in name_rows(self.names, self.sep, options.max_width, self.rows, self.more):
            yield Segment(row)
            yield Segment.line()
