"""The generic view renderer: seat names, literal text, logs, real engine views."""

from __future__ import annotations

import pytest
from pydantic import BaseModel
from rich.console import Console

from tui.viewrender import ViewRenderer, action_label


class Seat(BaseModel):
    name: str
    card: str | None = None
    revealed: bool = False
    alive: bool = True


class Event(BaseModel):
    turn: int
    seat: int
    target: int | None = None
    kind: str


class View(BaseModel):
    viewer: int
    your_card: str
    crown: int | None
    seats: list[Seat]
    pending: list[int]
    totals: list[int]
    log: list[Event]
    scores: list[list[int]]


def render(view: BaseModel, names: list[str], lang: str = "en", me: int | None = 0, width: int = 100) -> str:
    console = Console(width=width, color_system=None, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(ViewRenderer(names, lang, me).render(view))  # type: ignore[arg-type]
    return console.export_text()


NAMES = ["[/b]", "[red]x[/red]", "王小明"]


def make_view(log_len: int = 3) -> View:
    return View(
        viewer=0,
        your_card="guard",
        crown=2,
        seats=[Seat(name=n, card="guard" if i == 0 else None, revealed=i == 2) for i, n in enumerate(NAMES)],
        pending=[1, 2],
        totals=[2, 0, 1],
        log=[Event(turn=i, seat=i % 3, target=(i + 1) % 3, kind="peek") for i in range(log_len)],
        scores=[[2, 0, 1]],
    )


def test_seat_numbers_carry_names_and_markup_stays_literal() -> None:
    text = render(make_view(), NAMES)
    assert "You are" in text and "1 [/b] ◀" in text  # seats as players number them, from 1
    assert "Crown" in text and "3 王小明" in text
    assert "2 [red]x[/red], 3 王小明" in text  # pending seats
    assert "[/b]: 2, [red]x[/red]: 0, 王小明: 1" in text  # totals per seat
    assert "Your card" in text and "guard" in text


def test_seats_table_folds_flags_and_drops_the_name_column() -> None:
    text = render(make_view(), NAMES)
    seat_lines = [ln for ln in text.splitlines() if "王小明" in ln and "Revealed" in ln]
    assert seat_lines  # "revealed" shown as a mark on the revealed seat only
    assert "Alive" not in text  # true for everyone: says nothing


def test_a_narrow_pane_gets_one_line_per_seat_instead_of_a_table() -> None:
    text = render(make_view(), NAMES, width=30)
    assert "· 1 [/b] ◀ · Card=guard" in text
    assert "· 3 王小明 · Revealed" in text
    assert "Seat  " not in text  # no table header


def test_log_shows_the_last_lines() -> None:
    text = render(make_view(log_len=30), NAMES)
    assert "… (+18)" in text
    assert "Turn=29" in text
    assert "Turn=17" not in text


def test_chinese_labels() -> None:
    text = render(make_view(), NAMES, lang="zh")
    assert "你的角色" in text
    assert "加冕牌" in text  # the seeds' word
    assert "座位" in text


def test_action_labels_name_the_seats() -> None:
    assert action_label("peek 1", NAMES) == "peek 1  ([red]x[/red])"
    assert action_label("foresee 0 2", NAMES) == "foresee 0 2  ([/b], 王小明)"
    assert action_label("peek 7", NAMES) == "peek 7"
    assert action_label("pass", NAMES) == "pass"


@pytest.mark.slow
@pytest.mark.parametrize("game", ["sultans", "overlord"])
def test_real_engine_views_render_for_every_seat_and_spectator(game: str) -> None:
    from engine.registry import games

    spec = games()[game]
    table = spec.new_table(6, 11, spec.options_model())
    bots = [spec.new_bot(seat, "heuristic", seat) for seat in range(6)]
    names = [f"P{i}" for i in range(6)]
    for _ in range(25):
        pending = sorted(table.pending())
        if not pending:
            if table.between_rounds():
                table.next_round()
                continue
            break
        seat = pending[0]
        action = bots[seat].act(table.view(seat), table.legal(seat), True)
        assert action is not None
        table.play(seat, action)
        for viewer in [*range(6), None]:
            assert "Seats" in render(table.view(viewer), names, me=viewer)
