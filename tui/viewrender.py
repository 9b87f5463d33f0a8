"""Render any game's pydantic view generically, readably, and literally.

Used by the plain table screen, the fallback for games without their own
table. It walks the view's fields:

* plain values go in a summary grid; seat numbers are shown with the seat's
  name (``RoomSnapshot.names``), per-seat lists as ``name: value`` pairs;
* nested models become titled sections (recursively);
* lists of models (seats, round results...) become tables: one row each,
  true/false fields folded into one "marks" column of the true ones;
* logs (``log``, ``events``, ``notes``...) show their last lines.

Every string from the view is literal text, never markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from typing import Any

from pydantic import BaseModel
from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from protocol.contract import seat_number
from protocol.i18n import Lang, field_label, t

LOG_FIELDS = {"log", "events", "notes", "notebook", "messages", "private_log", "public_log"}
SEAT_FIELDS = {
    "seat", "index", "actor", "target", "active", "holder", "me", "my_seat", "by", "ruler",
    "partner", "killer", "viewer", "first", "crown", "playing", "forced", "giver", "receiver",
    "winner", "uprising_named", "src", "dst", "from", "to", "victim", "named",
}
SEAT_LIST_FIELDS = {
    "winners", "targets", "pending", "chosen", "asked", "waiting", "foreseen", "tied",
    "your_bans", "seats", "audience", "order_path", "alive_seats", "owed",
}
LOG_TAIL = 12


def is_seat_field(name: str) -> bool:
    return name in SEAT_FIELDS or name.endswith(("_seat", "_by"))


def is_seat_list(name: str) -> bool:
    return name in SEAT_LIST_FIELDS or name.endswith("_seats")


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, list | tuple | dict | str) and not value)


def _fields(model: BaseModel) -> list[tuple[str, Any]]:
    return [(name, getattr(model, name)) for name in type(model).model_fields]


def _is_models(value: Any) -> bool:
    return isinstance(value, list | tuple) and bool(value) and all(isinstance(v, BaseModel) for v in value)


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
            return f"{seat_number(index)} {name}{mark}" if name else str(seat_number(index))
        return str(seat_number(index))

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
            return ", ".join(f"{self.key(name, k)}: {self.value(str(k), v)}" for k, v in value.items()) or "—"
        if isinstance(value, Iterable):
            items = list(value)
            if not items:
                return "—"
            if is_seat_list(name) and all(isinstance(v, int) and not isinstance(v, bool) for v in items):
                return ", ".join(self.seat(v) for v in items)
            if len(items) == len(self.names) > 1 and not any(isinstance(v, BaseModel | list | tuple) for v in items):
                return ", ".join(f"{self.names[i] or i}: {self.value('', v)}" for i, v in enumerate(items))
            return ", ".join(self.value("", v) for v in items)
        return str(value)

    def key(self, field: str, key: object) -> str:
        if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(self.names):
            return self.names[key] or str(key)
        return str(key)

    def compact(self, model: BaseModel) -> str:
        parts = []
        for name, value in _fields(model):
            if _empty(value) or value is False:
                continue
            if value is True:
                parts.append(field_label(name, self.lang))
            else:
                parts.append(f"{field_label(name, self.lang)}={self.value(name, value)}")
        return " ".join(parts)

    # ------------------------------------------------------------ blocks
    def render(self, view: BaseModel, title: str | None = None) -> RenderableType:
        """The view: its plain values first (empty ones left out), then its
        tables, then nested parts, then logs."""
        summary = Table.grid(padding=(0, 1))
        summary.add_column(style="bold", no_wrap=True)
        summary.add_column(ratio=1)
        tables: list[RenderableType] = []
        nested: list[RenderableType] = []
        logs: list[RenderableType] = []
        for name, value in _fields(view):
            label = field_label(name, self.lang)
            if isinstance(value, BaseModel):
                nested.append(self.render(value, label))
            elif isinstance(value, Mapping) and value and all(isinstance(v, BaseModel) for v in value.values()):
                tables.append(self.rows_block(label, name, list(value.values())))
            elif _is_models(value):
                if name in LOG_FIELDS:
                    logs.append(self.log_block(label, [self.compact(v) for v in value]))
                else:
                    tables.append(self.rows_block(label, name, list(value)))
            elif isinstance(value, list | tuple) and value and all(isinstance(v, list | tuple) for v in value):
                tables.append(self.matrix_block(label, [list(v) for v in value]))
            elif isinstance(value, list | tuple) and value and name in LOG_FIELDS:
                logs.append(self.log_block(label, [self.value("", v) for v in value]))
            elif not _empty(value) and value is not False:
                summary.add_row(Text(label), Text(self.value(name, value)))
        blocks: list[RenderableType] = []
        if title is not None:
            blocks.append(Text(title, style="bold underline"))
        if summary.row_count:
            blocks.append(summary)
        return Group(*blocks, *tables, *nested, *logs)

    def rows_block(self, label: str, field: str, rows: list[BaseModel]) -> RenderableType:
        """A table of ``rows`` (one line each as a fallback when it is too wide)."""
        columns: list[str] = []
        for row in rows:
            for name, _value in _fields(row):
                if name not in columns:
                    columns.append(name)
        data = [dict(_fields(row)) for row in rows]
        has_seat = any(is_seat_field(c) for c in columns)
        by_position = (field in ("seats", "players") or not has_seat) and len(rows) == len(self.names)
        if by_position:  # the seat column already shows the number and the name
            numbers = list(range(len(rows)))
            columns = [
                c for c in columns
                if [d.get(c) for d in data] not in (self.names, numbers)
            ]
        flags = [c for c in columns if all(isinstance(d.get(c), bool) for d in data)]
        # a flag true for every row says nothing
        flags = [c for c in flags if not all(d.get(c) for d in data)]
        plain = [
            c for c in columns
            if c not in flags and not all(isinstance(d.get(c), bool) for d in data)
            and not all(_empty(d.get(c)) for d in data)
        ]
        table = Table(
            title=Text(label), title_justify="left", title_style="bold", header_style="bold",
            padding=(0, 1), box=box.SIMPLE_HEAD, expand=False,
        )
        if by_position:
            table.add_column(Text(t("col.seat", self.lang)), no_wrap=True, overflow="ellipsis", min_width=6)
        for name in plain:
            table.add_column(Text(field_label(name, self.lang)), no_wrap=True, overflow="ellipsis")
        marks = [
            ", ".join(field_label(c, self.lang) for c in flags if d.get(c)) for d in data
        ]
        show_marks = any(marks)
        if show_marks:
            table.add_column(Text(t("col.status", self.lang)), overflow="fold")
        lines = Text()
        lines.append(label + "\n", style="bold")
        for i, d in enumerate(data):
            cells = [Text(self.value(c, d.get(c))) for c in plain]
            if by_position:
                cells.insert(0, Text(self.seat(i)))
            if show_marks:
                cells.append(Text(marks[i]))
            table.add_row(*cells, style="bold" if by_position and i == self.me else "")
            # the same row as one line, for panes too narrow for the table
            parts = [self.seat(i)] if by_position else []
            parts += [f"{field_label(c, self.lang)}={self.value(c, d.get(c))}" for c in plain if not _empty(d.get(c))]
            if marks[i]:
                parts.append(marks[i])
            lines.append("· " + " · ".join(parts) + "\n", style="bold" if by_position and i == self.me else "")
        return _WidthAdaptive(table, lines)

    def matrix_block(self, label: str, rows: list[list[Any]]) -> RenderableType:
        width = max(len(r) for r in rows)
        table = Table(
            title=Text(label), title_justify="left", title_style="bold", header_style="bold",
            padding=(0, 1), box=box.SIMPLE_HEAD,
        )
        table.add_column(Text("#"), justify="right")
        for i in range(width):
            head = self.seat(i) if width == len(self.names) else str(i)  # (a matrix's other columns count from 0)
            table.add_column(Text(head), justify="right", overflow="ellipsis", no_wrap=True)
        for n, row in enumerate(rows, 1):
            table.add_row(Text(str(n)), *(Text(self.value("", v)) for v in row))
        return table

    def log_block(self, label: str, lines: list[str]) -> RenderableType:
        tail = lines[-LOG_TAIL:]
        text = Text()
        if len(lines) > len(tail):
            text.append(f"… (+{len(lines) - len(tail)})\n", style="dim")
        text.append("\n".join(tail))
        grid = Table(
            title=Text(label), title_justify="left", title_style="bold", show_header=False,
            box=None, padding=(0, 1), expand=True,
        )
        grid.add_column(ratio=1)
        grid.add_row(text)
        return grid


class _WidthAdaptive:
    """A table where it fits, else the same rows as wrapped lines."""

    def __init__(self, wide: Table, narrow: Text) -> None:
        self.wide = wide
        self.narrow = narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        needed = Measurement.get(console, options.update(width=10_000), self.wide).maximum
        yield self.wide if needed <= options.max_width else self.narrow

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.wide)


def action_label(text: str, names: Sequence[str]) -> str:
    """An action in notation, with the names of the seats it names: ``peek 3  (Ann)``.

    Both games' notations write seats as bare decimal numbers (S-NOTE-1, K-NOTE-1).
    """
    mentioned = []
    for token in text.split():
        if token.isdigit() and int(token) < len(names) and names[int(token)]:
            mentioned.append(names[int(token)])
    return f"{text}  ({', '.join(mentioned)})" if mentioned else text
