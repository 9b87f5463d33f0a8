"""Render any game's pydantic view generically, readably, and literally.

Used by the plain table screen, the fallback for games without their own
table. It walks the view's fields: plain values go in a summary grid,
nested models in titled grids, lists of models (seats, scores...) in tables,
logs as their last lines. Seat numbers are shown with the seat's name from
``RoomSnapshot.names``. Every string from the view is literal text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from typing import Any

from pydantic import BaseModel
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tui.i18n import Lang, field_label, t

LOG_FIELDS = {"log", "events", "history", "notes", "notebook", "messages", "private_log", "public_log"}
SEAT_FIELDS = {"seat", "index", "actor", "target", "active", "holder", "me", "my_seat", "by", "ruler", "partner", "killer", "pending"}
SEAT_LIST_FIELDS = {"winners", "targets", "pending", "seats_chosen", "chosen", "asked", "order_path"}
LOG_TAIL = 12


def is_seat_field(name: str) -> bool:
    return name in SEAT_FIELDS or name.endswith(("_seat", "_by"))


class ViewRenderer:
    """Turns a view into rich renderables for one language and seat names."""

    def __init__(self, names: Sequence[str], lang: Lang, me: int | None = None) -> None:
        self.names = list(names)
        self.lang = lang
        self.me = me

    # ------------------------------------------------------------- values
    def seat(self, index: int) -> str:
        if 0 <= index < len(self.names):
            name = self.names[index]
            mark = " ◀" if index == self.me else ""
            return f"{index} {name}{mark}" if name else str(index)
        return str(index)

    def value(self, name: str, value: Any) -> str:
        if value is None:
            return "—"
        if isinstance(value, bool):
            return t("yes" if value else "no", self.lang)
        if isinstance(value, Enum):
            return str(value.value)
        if isinstance(value, int):
            return self.seat(value) if is_seat_field(name) else str(value)
        if isinstance(value, float):
            return f"{value:g}"
        if isinstance(value, str):
            return value
        if isinstance(value, BaseModel):
            return self.compact(value)
        if isinstance(value, Mapping):
            return ", ".join(f"{self.key(name, k)}: {self.value(str(k), v)}" for k, v in value.items())
        if isinstance(value, Iterable):
            items = list(value)
            seatish = name in SEAT_LIST_FIELDS or name.endswith("_seats")
            return ", ".join(
                self.seat(v) if seatish and isinstance(v, int) and not isinstance(v, bool) else self.value("", v)
                for v in items
            ) or "—"
        return str(value)

    def key(self, field: str, key: object) -> str:
        if isinstance(key, int) and not isinstance(key, bool) and (
            field in ("scores", "points", "totals", "gold", "hands") or is_seat_field(field) or field == "seats"
        ):
            return self.seat(key)
        return str(key)

    def compact(self, model: BaseModel) -> str:
        parts = []
        for name, value in _fields(model):
            if value is None or value == [] or value == {}:
                continue
            parts.append(f"{field_label(name, self.lang)}={self.value(name, value)}")
        return " ".join(parts)

    # ------------------------------------------------------------ blocks
    def render(self, view: BaseModel) -> RenderableType:
        blocks: list[RenderableType] = []
        summary = Table.grid(padding=(0, 1))
        summary.add_column(style="bold", no_wrap=True)
        summary.add_column(ratio=1)
        later: list[RenderableType] = []
        for name, value in _fields(view):
            label = field_label(name, self.lang)
            if isinstance(value, BaseModel):
                later.append(self.model_block(label, value))
            elif isinstance(value, Mapping) and value and all(isinstance(v, BaseModel) for v in value.values()):
                later.append(self.rows_block(label, name, list(value.values())))
            elif isinstance(value, list | tuple) and value and all(isinstance(v, BaseModel) for v in value):
                if name in LOG_FIELDS:
                    later.append(self.log_block(label, [self.compact(v) for v in value]))
                else:
                    later.append(self.rows_block(label, name, list(value)))
            elif isinstance(value, list | tuple) and value and all(isinstance(v, list | tuple) for v in value):
                later.append(self.matrix_block(label, name, [list(v) for v in value]))
            elif isinstance(value, list | tuple) and value and name in LOG_FIELDS:
                later.append(self.log_block(label, [self.value("", v) for v in value]))
            else:
                summary.add_row(Text(label), Text(self.value(name, value)))
        if summary.row_count:
            blocks.append(summary)
        blocks.extend(later)
        return Group(*blocks)

    def model_block(self, label: str, model: BaseModel) -> RenderableType:
        grid = Table(title=Text(label), title_justify="left", title_style="bold", show_header=False, box=None, padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(ratio=1)
        for name, value in _fields(model):
            grid.add_row(Text(field_label(name, self.lang), style="dim"), Text(self.value(name, value)))
        return grid

    def rows_block(self, label: str, field: str, rows: list[BaseModel]) -> RenderableType:
        columns: list[str] = []
        for row in rows:
            for name, _value in _fields(row):
                if name not in columns:
                    columns.append(name)
        has_seat = any(is_seat_field(c) for c in columns)
        by_position = (field in ("seats", "players") or not has_seat) and len(rows) == len(self.names)
        if by_position:  # the seat column already shows the name
            columns = [c for c in columns if [getattr(r, c, None) for r in rows] != self.names]
        table = Table(
            title=Text(label), title_justify="left", title_style="bold", header_style="bold",
            padding=(0, 1), box=box.SIMPLE_HEAD, expand=False,
        )
        if by_position:
            table.add_column(Text(t("col.seat", self.lang)), no_wrap=True, overflow="ellipsis", min_width=6)
        for name in columns:
            table.add_column(Text(field_label(name, self.lang)), no_wrap=True, overflow="ellipsis")
        for i, row in enumerate(rows):
            data = dict(_fields(row))
            cells = [Text(self.value(c, data.get(c))) for c in columns]
            style = "bold" if by_position and i == self.me else ""
            if by_position:
                cells.insert(0, Text(self.seat(i)))
            table.add_row(*cells, style=style)
        return table

    def matrix_block(self, label: str, field: str, rows: list[list[Any]]) -> RenderableType:
        width = max(len(r) for r in rows)
        table = Table(title=Text(label), title_justify="left", title_style="bold", header_style="bold", padding=(0, 1), box=box.SIMPLE_HEAD)
        table.add_column(Text("#"), justify="right")
        for i in range(width):
            head = self.seat(i) if width == len(self.names) else str(i)
            table.add_column(Text(head), justify="right", overflow="fold")
        for n, row in enumerate(rows, 1):
            table.add_row(Text(str(n)), *(Text(self.value("", v)) for v in row))
        return table

    def log_block(self, label: str, lines: list[str]) -> RenderableType:
        tail = lines[-LOG_TAIL:]
        text = Text()
        if len(lines) > len(tail):
            text.append(f"… ({len(lines) - len(tail)})\n", style="dim")
        text.append("\n".join(tail))
        grid = Table(
            title=Text(label), title_justify="left", title_style="bold", show_header=False,
            box=None, padding=(0, 1), expand=True,
        )
        grid.add_column(ratio=1)
        grid.add_row(text)
        return grid


def _fields(model: BaseModel) -> list[tuple[str, Any]]:
    return [(name, getattr(model, name)) for name in type(model).model_fields]


def action_label(text: str, names: Sequence[str]) -> str:
    """An action in notation, with the names of the seats it mentions: ``peek 3 (Ann)``."""
    mentioned = []
    for token in text.split():
        if token.isdigit() and int(token) < len(names) and names[int(token)]:
            mentioned.append(names[int(token)])
    return f"{text}  ({', '.join(mentioned)})" if mentioned else text
