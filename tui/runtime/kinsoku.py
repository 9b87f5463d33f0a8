"""Chinese line breaking: lines filled to the width, none starting with a closing mark.

Rich (``rich.text.Text.wrap``) and Textual (``textual.content.Content``) wrap
text with ``rich._wrap.divide_line``, which breaks only at spaces and folds a
"word" longer than a line. Chinese has no spaces, so a sentence is one word:
with a space before it (``領主（階級 8，收入 +6）：暗殺階段開始時…``) it leaves
the line it would have filled half empty and starts on the next; and where
it is folded, any character may start a line, ``，``, ``。`` or ``）``
included, and ``（`` may end one::

    領主（階級 8，收入
    +6）：暗殺階段開始時命令一名玩家持有指示物；持有者
    被處決後再次命令

Typesetting rules (禁則) allow a break between any two Chinese characters
(and at spaces), but never before a closing mark or after an opening one.
:func:`divide_line` does that for any text with a double-width character:
it fills each line, breaking at spaces and beside double-width characters
(a run of Latin letters or digits stays whole where it fits), then moves
each break that lands on such a mark back to the break before it, and
divides the rest again from there. A line is never emptied to do so (a run
of marks longer than a line keeps its break).

A seat number stays with the name before it, in both languages: a break
just before ``（3）`` or ``(3)`` (``(3, you)``, ``（3，你）``) moves back the
same way, so a line reads "付給" / "Bot 3（3） 1 元" and not "付給 Bot 3" /
"（3） 1 元", nor "attacks bob" / "(1)." Otherwise text without double-width
characters (English) gets exactly Rich's breaks. :func:`install` puts it in
place of the name both libraries call, once per process.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import rich.text
import textual.content
from rich.cells import cell_len, chop_cells, get_character_cell_size

from tui.runtime.textual_source import private_imports

with private_imports(__name__):
    from rich._loop import loop_last
    from rich._wrap import divide_line as _rich_divide_line
    from rich._wrap import words

NO_LINE_START = frozenset("，。、；：！？）」』》〉】〕﹞…‥·・～)]>")
"""Closing marks and pauses: never the first character of a line (the ASCII
ones too: a Sultans card is ``<刺客>``, ``[守衛]``, ``(占卜師)``)."""
NO_LINE_END = frozenset("（「『《〈【〔﹝([<")
"""Opening marks: never the last character of a line."""
SEAT_TAG = re.compile(r"(?:(?<=\s)[0-9]{1,2} ?)?[(（][0-9]{1,2}(?:, you|，你)?[)）]")
"""A seat's number after its name (``{name} ({n})``, ``{name}（{n}）``), with a
bot's number before it (``Bot 3 (3)``): no line starts in it."""


def _glued(text: str) -> list[tuple[int, int]]:
    return [match.span() for match in SEAT_TAG.finditer(text)]


def _in_glued(at: int, glued: list[tuple[int, int]]) -> bool:
    return any(a <= at < b for a, b in glued)


def _bad_break(text: str, at: int, glued: list[tuple[int, int]]) -> bool:
    return text[at] in NO_LINE_START or text[at - 1] in NO_LINE_END or _in_glued(at, glued)


def _wide(ch: str) -> bool:
    return get_character_cell_size(ch) == 2


def _pieces(text: str) -> list[tuple[int, str]]:
    """``text`` cut where a line may begin: at each word (Rich's, with its
    trailing spaces) and beside each double-width character in it."""
    out: list[tuple[int, str]] = []
    for start, _end, word in words(text):
        cut = start
        for i in range(start + 1, start + len(word.rstrip())):
            if _wide(text[i]) or _wide(text[i - 1]):
                out.append((cut, text[cut:i]))
                cut = i
        out.append((cut, text[cut : start + len(word)]))
    return out


def _fill(text: str, width: int, fold: bool) -> list[int]:
    """Rich's greedy line filling over :func:`_pieces` instead of words."""
    breaks: list[int] = []
    offset = 0
    for start, piece in _pieces(text):
        length = cell_len(piece.rstrip())
        if width - offset >= length:
            offset += cell_len(piece)
        elif length > width:  # a run without a break in it, longer than a line
            if fold:
                for last, line in loop_last(chop_cells(piece, width)):
                    if start:
                        breaks.append(start)
                    if last:
                        offset = cell_len(line)
                    else:
                        start += len(line)
            else:
                if start:
                    breaks.append(start)
                offset = cell_len(piece)
        elif offset and start:
            breaks.append(start)
            offset = cell_len(piece)
    return breaks


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """Rich's ``divide_line`` (offsets to break ``text`` at to fit ``width``
    cells); with double-width characters, the Chinese way, and never just
    before a seat number (see the module).
    A width under one cell is taken as one: Textual asks for 0 when a widget
    has no room left (a drop-down list on a terminal made very narrow), and
    Rich's folding divided by it."""
    width = max(width, 1)
    fill: Callable[[str], list[int]]
    cuts: Callable[[str], list[int]]
    if not any(_wide(ch) for ch in text):
        breaks = _rich_divide_line(text, width, fold=fold)
        glued = _glued(text)
        if not any(_in_glued(at, glued) for at in breaks):
            return breaks

        def fill(rest: str) -> list[int]:
            return _rich_divide_line(rest, width, fold=fold)

        def cuts(part: str) -> list[int]:
            return [start for start, _end, _word in words(part)]
    else:
        glued = _glued(text)

        def fill(rest: str) -> list[int]:
            return _fill(rest, width, fold)

        def cuts(part: str) -> list[int]:
            return [cut for cut, _piece in _pieces(part)]

    out: list[int] = []
    start = 0
    while True:
        rest = fill(text[start:])
        if not rest:
            return out
        at = start + rest[0]
        allowed = [start + cut for cut in cuts(text[start:at])]
        at = _moved_back(text, at, start, allowed, glued, fill)
        out.append(at)
        start = at


def _moved_back(
    text: str, at: int, start: int, allowed: list[int], glued: list[tuple[int, int]], fill: Callable[[str], list[int]]
) -> int:
    """The break at ``at``, or the last of the ``allowed`` ones before it (after
    ``start``) where a line may end if a line may not end at ``at``. A seat's
    tag is glued to its name only where the two fit one line: else the marks
    alone decide, as if no tag were there."""
    if not _bad_break(text, at, glued):
        return at
    tag_end = next((b for a, b in glued if a <= at < b), None)
    for moved in reversed(allowed):
        if moved <= start:
            break
        if not _bad_break(text, moved, glued):
            if tag_end is None:
                return moved
            after = fill(text[moved:])
            if not after or moved + after[0] >= tag_end:  # the name and its whole tag fit the next line
                return moved
            break
    return _moved_back(text, at, start, allowed, [], fill) if glued else at


def install() -> None:
    """Wrap with :func:`divide_line` in Rich's ``Text`` and Textual's ``Content`` (idempotent)."""
    rich.text.divide_line = divide_line  # type: ignore[attr-defined]
    textual.content.divide_line = divide_line  # type: ignore[attr-defined]
