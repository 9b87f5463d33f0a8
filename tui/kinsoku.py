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
of marks longer than a line keeps its break). Text without double-width
characters (English) gets exactly Rich's breaks. :func:`install` puts it in
place of the name both libraries call, once per process.
"""

from __future__ import annotations

import rich.text
import textual.content
from rich._loop import loop_last
from rich._wrap import divide_line as _rich_divide_line
from rich._wrap import words
from rich.cells import cell_len, chop_cells, get_character_cell_size

NO_LINE_START = frozenset("，。、；：！？）」』》〉】〕﹞…‥·・～")
"""Closing marks and pauses: never the first character of a line."""
NO_LINE_END = frozenset("（「『《〈【〔﹝")
"""Opening marks: never the last character of a line."""


def _bad_break(text: str, at: int) -> bool:
    return text[at] in NO_LINE_START or text[at - 1] in NO_LINE_END


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
    cells); with double-width characters, the Chinese way (see the module).
    A width under one cell is taken as one: Textual asks for 0 when a widget
    has no room left (a drop-down list on a terminal made very narrow), and
    Rich's folding divided by it."""
    width = max(width, 1)
    if not any(_wide(ch) for ch in text):
        return _rich_divide_line(text, width, fold=fold)
    out: list[int] = []
    start = 0
    while True:
        rest = _fill(text[start:], width, fold)
        if not rest:
            return out
        at = start + rest[0]
        allowed = [start + cut for cut, _piece in _pieces(text[start:at])]
        for moved in reversed(allowed):
            if moved <= start or not _bad_break(text, at):
                break
            if not _bad_break(text, moved):
                at = moved
                break
        out.append(at)
        start = at


def install() -> None:
    """Wrap with :func:`divide_line` in Rich's ``Text`` and Textual's ``Content`` (idempotent)."""
    rich.text.divide_line = divide_line  # type: ignore[attr-defined]
    textual.content.divide_line = divide_line  # type: ignore[attr-defined]
