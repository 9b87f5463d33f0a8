"""Sanitising of names and chat (issue 3, Identities): control and escape
sequences, bidi overrides and format characters are removed, length capped,
and the result never carries markup-sensitive or terminal-sensitive bytes."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from server.sanitize import (
    NAME_MAX,
    clean_name,
    clean_text,
    is_valid_name,
    lookalike_name,
    name_skeleton,
    strip_escapes,
)


def _no_controls(text: str) -> bool:
    return all(unicodedata.category(ch) not in ("Cc", "Cf", "Cs") for ch in text)


def test_markup_name_is_cleaned_and_chat_keeps_it_literal() -> None:
    assert clean_name("[/b]") == "b"
    assert clean_name("[bold red]x[/]") == "bold_redx"
    # chat keeps brackets: screens must render it as plain text
    assert clean_text("[/b] hi [link=x]", 100) == "[/b] hi [link=x]"


def test_osc52_clipboard_write_is_removed_with_payload() -> None:
    hostile = "\x1b]52;c;ZWNobyBwd25lZA==\x07after"
    assert clean_text(hostile, 100) == "after"
    assert clean_name(hostile) == "after"
    # ST-terminated and unterminated forms
    assert clean_text("a\x1b]52;c;Zm9v\x1b\\b", 100) == "ab"
    assert clean_text("a\x1b]52;c;Zm9v", 100) == "a"
    # the bare prefix from the issue text
    assert clean_name("\x1b]52;") == ""


def test_csi_and_other_escapes() -> None:
    assert clean_text("\x1b[2J\x1b[31mred\x1b[0m", 100) == "red"
    assert clean_text("\x9b31mred", 100) == "red"  # 8-bit CSI
    assert clean_text("x\x1bPq#0;2;0;0;0\x1b\\y", 100) == "xy"  # DCS (sixel)
    assert clean_text("a\x1bcb\x1b(Bc", 100) == "abc"  # RIS, charset select
    assert clean_text("a\x1b", 100) == "a"
    assert strip_escapes("\x1b[?1049h") == ""


def test_bidi_overrides_and_zero_width_removed() -> None:
    # "alice" spoofed with a right-to-left override
    assert clean_name("ali\u202eecil\u202c") == "aliecil"
    for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u200b\u200d\ufeff\u00ad":
        assert clean_text(f"a{ch}b", 10) == "ab", repr(ch)


def test_whitespace_folded_and_newlines_gone() -> None:
    assert clean_text("  one\n\ntwo\r\nthree\tfour\u2028five  ", 100) == "one two three four five"
    assert clean_name("  big   bob ") == "big_bob"


def test_length_caps() -> None:
    assert len(clean_text("x" * 1000, 50)) == 50
    assert clean_text("abc", 0) == ""
    assert len(clean_name("n" * 100)) == NAME_MAX


def test_cjk_and_fullwidth() -> None:
    assert clean_name("王小明") == "王小明"
    assert clean_text("你好，世界", 100) == "你好，世界"
    assert clean_name("Ｂｏｂ") == "Bob"


def test_zalgo_marks_capped() -> None:
    assert len(clean_name("a" + "\u0301" * 50)) <= 3
    assert len(clean_name("\u0627" + "\u0651" * 50)) <= 3
    assert clean_text("\u0301\u0301x", 10) == "x"  # marks without a base


def test_empty_and_punctuation_only_names_are_unusable() -> None:
    for bad in ["", "   ", "\x1b[31m", "...", "[]", "\u202e", "!!"]:
        assert clean_name(bad) == ""
        assert not is_valid_name(bad)
    assert is_valid_name("alice")
    assert not is_valid_name("al ice")


def test_names_that_could_pass_for_another_s_are_lookalikes() -> None:
    """Issue 3, Identities: a Cyrillic "а" in "bellа" made a second "bella" in
    the online list and the chat. Two alphabets mixed, or a name of another
    alphabet written only in letters that look Latin, could pass for someone
    else; Chinese, Japanese and Korean mix with one alphabet, as names do."""
    for bad in ["bell\u0430", "\u0440\u043e\u0440", "\u0410\u0412\u0415", "\u039f\u03bf", "bob\u0661", "p\u03bfp", "\u0430\u03b1"]:
        assert is_valid_name(bad) and lookalike_name(bad), bad
    for good in ["bella", "\u0421\u0430\u0448\u0430", "\u041e\u043b\u044f", "\u039f\u03bb\u03b3\u03b1", "alice\u738b",
                 "\u738b\u5c0f\u660e", "\u3072\u308d\u3057_\u30ab\u30fc", "\ud55c\uad6d\uc5b4", "\u00e9mile",
                 "b\u00e9\u738b", "x_y.z-1", "\u05e9\u05dc\u05d5\u05dd"]:
        assert not lookalike_name(good), good


def test_names_that_could_pass_for_each_other_share_a_skeleton() -> None:
    """Issue 45 finding 6: UTS #39 skeletons (Unicode's confusables data, not a
    table of our own), marks and case aside."""
    looks = ["alice", "al\u0131\u0307ce", "\u0251lice", "a\u01c0ice", "aIice", "al\u0131ce", "a1ice", "alic\u00e9",
             "Alice", "\u0430lice"]
    assert {name_skeleton(n) for n in looks} == {"alice"}
    assert name_skeleton("rnary") == name_skeleton("mary")  # several characters for one
    distinct = ["alice", "alicia", "malice", "bob", "\u738b\u5c0f\u660e", "\u0421\u0430\u0448\u0430", "duc"]
    assert len({name_skeleton(n) for n in distinct}) == len(distinct)


@given(st.text())
def test_clean_text_never_leaves_controls(text: str) -> None:
    out = clean_text(text, 80)
    assert _no_controls(out)
    assert len(out) <= 80
    assert "\x1b" not in out
    assert clean_text(out, 80) == out  # idempotent


@given(st.text())
def test_clean_name_is_idempotent_and_safe(text: str) -> None:
    name = clean_name(text)
    assert _no_controls(name)
    assert len(name) <= NAME_MAX
    assert "[" not in name and "]" not in name and " " not in name
    assert clean_name(name) == name


def test_characters_a_terminal_draws_into_the_one_before_go() -> None:
    """Issue 3, Names and chat: a lobby line with "⚔️" (U+2694 U+FE0F) is drawn
    two cells wide by terminals and measured one by the screens: it pushed a
    border one cell out of line on every screen that showed it. Variation
    selectors, skin tones and the keycap go; the emoji stays."""
    from rich.cells import cell_len

    assert clean_text("🎉👑⚔️ ok") == "🎉👑⚔ ok"
    assert clean_text("👍🏽 yes") == "👍 yes"
    assert clean_text("1️⃣ first") == "1 first"
    assert clean_text("\u845b\U000e0100 name") == "\u845b name"  # an ideographic variation
    assert cell_len(clean_text("⚔️⚔️")) == 2
    assert clean_text("café e\u0301") == "café e\u0301"  # other marks stay
    assert clean_name("bob\ufe0f") == "bob"
