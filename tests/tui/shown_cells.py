"""What a terminal shows of drawn lines, cell by cell: for comparing a line
drawn directly with the same line drawn Textual's way (segment splits and
the colour of a blank's foreground differ, and nobody can see them)."""

from __future__ import annotations

from rich.style import Style
from textual.strip import Strip

Cell = tuple[str, object]


def shown(ch: str, style: Style | None) -> Cell:
    """A blank shows only its background (and reverse or underline); any other
    character its whole style."""
    if style is None:
        return (ch, None)
    if ch == " ":
        return (ch, (style.bgcolor, style.reverse, style.underline))
    return (ch, style)


def cells(strips: list[Strip]) -> list[list[Cell]]:
    """Each line as what is shown per character."""
    return [[shown(ch, seg.style) for seg in strip for ch in seg.text] for strip in strips]
