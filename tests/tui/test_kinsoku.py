"""Chinese line breaking (tui/runtime/kinsoku.py): no line starts with a closing mark
or ends with an opening one, nor starts in a seat's number; English otherwise
wraps exactly as Rich wraps it."""

from __future__ import annotations

import re

import pytest
from rich._wrap import divide_line as rich_divide_line
from rich.console import Console
from rich.text import Text

from protocol.i18n import CATALOGUES, t
from tui.overlord import catalogue as overlord_catalogue
from tui.runtime import kinsoku
from tui.runtime.kinsoku import NO_LINE_END, NO_LINE_START, divide_line
from tui.sultans import catalogue as sultans_catalogue

GAME_CATALOGUES = (overlord_catalogue, sultans_catalogue)  # imported, their texts join the catalogue

EFFECT = "把指示物交給左邊1~2位的玩家；他棄1張牌（無牌則你拿他1元）。"


def parts(text: str, breaks: list[int]) -> list[str]:
    return [text[a:b] for a, b in zip([0, *breaks], [*breaks, len(text)], strict=True)]


def test_rich_alone_breaks_before_closing_marks() -> None:
    # what the module is for: Rich's own breaks of this effect text at 14 and 28 cells
    assert parts(EFFECT, rich_divide_line(EFFECT, 14))[2] == "；他棄1張牌（"
    assert parts(EFFECT, rich_divide_line(EFFECT, 28))[1:] == ["；他棄1張牌（無牌則你拿他1元", "）。"]


@pytest.mark.parametrize("width", range(6, 40))
def test_no_line_starts_with_a_closing_mark_or_ends_with_an_opening_one(width: int) -> None:
    lines = parts(EFFECT, divide_line(EFFECT, width))
    assert "".join(lines) == EFFECT
    assert all(line for line in lines)
    assert not any(line[0] in NO_LINE_START for line in lines), lines
    assert not any(line[-1] in NO_LINE_END for line in lines), lines
    assert all(Text(line).cell_len <= width for line in lines), lines


@pytest.mark.parametrize("width", [11, 13, 21, 34])
def test_every_chinese_catalogue_text_wraps_within_width(width: int) -> None:
    for key, template in CATALOGUES["zh"].items():
        if key.startswith("ssh."):  # the SSH server writes these to the terminal itself ("\r\n"): no screen wraps them
            continue
        text = re.sub(r"\{[a-z_]+\}", "甲乙", template)  # a name or a number in place of each parameter
        for line in text.split("\n"):
            lines = parts(line, divide_line(line, width))
            assert "".join(lines) == line
            assert not any(x[0] in NO_LINE_START for x in lines[1:]), (key, lines)
            assert not any(x[-1] in NO_LINE_END for x in lines[:-1]), (key, lines)
            if " " not in line:
                assert all(Text(x).cell_len <= width for x in lines), (key, lines)


def test_english_without_seat_numbers_wraps_exactly_as_rich_does() -> None:
    text = t("ov.effect.victimize", "en") + " (none: you take 1 of their gold). Order, then; again: fine!"
    for width in range(4, 60):
        assert divide_line(text, width) == rich_divide_line(text, width)


def test_a_run_of_marks_longer_than_a_line_keeps_richs_breaks() -> None:
    assert divide_line("。。。。。。", 2) == rich_divide_line("。。。。。。", 2)


def test_installed_rich_and_textual_wrap_with_it() -> None:
    kinsoku.install()
    console = Console(width=28)
    lines = Text(EFFECT).wrap(console, 28)
    assert [line.plain for line in lines] == parts(EFFECT, divide_line(EFFECT, 28))
    from textual.content import Content

    wrapped = Content(EFFECT).wrap(28)
    assert [line.plain.rstrip() for line in wrapped] == parts(EFFECT, divide_line(EFFECT, 28))


def test_a_chinese_sentence_after_a_space_fills_the_line_it_starts_on() -> None:
    # Rich takes a spaceless sentence for one word: it moves it whole to the next line
    text = "領主（階級 8，收入 +6）：" + t("ov.rolerule.overlord", "zh")
    assert parts(text, rich_divide_line(text, 40))[0] == "領主（階級 8，收入 "
    lines = parts(text, divide_line(text, 40))
    assert all(Text(line.rstrip()).cell_len >= 36 for line in lines[:-1]), lines
    assert all(Text(line.rstrip()).cell_len <= 40 for line in lines), lines
    assert lines[0].startswith("領主（階級 8，收入 +6）：")
    # Latin runs stay whole where they fit
    mixed = "Bot 2（2） 付給 Bot 3（3） 1 元來傳遞指示物。"
    assert parts(mixed, divide_line(mixed, 12)) == ["Bot 2（2） ", "付給 ", "Bot 3（3） 1 ", "元來傳遞指示", "物。"]


@pytest.mark.parametrize("width", range(8, 30))
def test_a_card_name_in_ascii_brackets_is_never_split_from_its_brackets(width: int) -> None:
    """A Sultans card in a Chinese line (``<刺客>``, ``[守衛]``, ``(占卜師)``): at 80
    columns a log line ended "角色是 <刺客" and the next began with ">"."""
    text = "回11 電腦 9（9）死亡（行刺被阻止）；角色是 <刺客>，他身邊的 [守衛] 與 (占卜師) 都看見了。"
    lines = parts(text, divide_line(text, width))
    assert "".join(lines) == text
    assert not any(line[0] in ")]>" for line in lines), lines
    assert not any(line.rstrip()[-1:] in "([<" for line in lines), lines


def test_a_seat_number_stays_with_its_name() -> None:
    """Rich broke "付給 Bot 3" / "（3） 1 元來" and "attacks bob" / "(1)."; a
    line never starts in a seat's tag, nor between a bot's name and its number."""
    mixed = "Bot 2（2） 付給 Bot 3（3） 1 元來傳遞指示物。"
    english = "⚠ Bot 3 (3) attacks bob (1, you)! carol (12) may block."
    assert parts(english, rich_divide_line(english, 9))[:2] == ["⚠ Bot 3 ", "(3) "]
    assert parts(english, rich_divide_line(english, 20))[1:] == ["bob (1, you)! carol ", "(12) may block."]
    assert parts(english, divide_line(english, 9))[:2] == ["⚠ ", "Bot 3 (3) "]
    assert parts(english, divide_line(english, 20)) == ["⚠ Bot 3 (3) attacks ", "bob (1, you)! ", "carol (12) may ", "block."]
    assert parts(mixed, divide_line(mixed, 12)) == ["Bot 2（2） ", "付給 ", "Bot 3（3） 1 ", "元來傳遞指示", "物。"]
    for text in (mixed, english, "你（3）攔下了刺殺 小明（12，你）。", "pays Bot 12 (12) 2 gold"):
        for width in range(14, 40):
            lines = parts(text, divide_line(text, width))
            assert all(Text(line.rstrip()).cell_len <= width for line in lines), (width, lines)
            assert not any(re.match(r"[0-9]* ?[(（][0-9]", line) for line in lines[1:]), (width, lines)
    # no room for the name and its tag on one line: the breaks are Rich's, or the marks' alone
    assert divide_line(english, 12) == rich_divide_line(english, 12)  # "attacks bob " / "(1, you)! "
    assert parts(mixed, divide_line(mixed, 9))[:2] == ["Bot 2", "（2） 付"]


@pytest.mark.parametrize("width", [0, -3])
@pytest.mark.parametrize("text", ["the Sultan is dead", "領主（階級 8，收入 +6）：每輪"])
def test_a_width_under_one_cell_is_taken_as_one(text: str, width: int) -> None:
    """Textual asks for a width of 0 when a widget has no room left (a drop-down
    list on a terminal made very narrow): Rich's folding divided by it and the
    session crashed (ValueError, seen over ssh)."""
    assert divide_line(text, width) == divide_line(text, 1)
