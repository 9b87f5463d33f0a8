"""Cleaning of text that players type and other players will see.

Pure functions:

* :func:`clean_text` -- chat lines, room names and other free text: terminal
  escape sequences (CSI, OSC, DCS/SOS/PM/APC, two-byte ESC sequences, their
  8-bit C1 forms) are removed *with their payload*, then every remaining
  control character (C0, C1, DEL), format character (bidi embeddings,
  overrides and isolates, zero-width characters, soft hyphen...), surrogate
  and line/paragraph separator goes; whitespace runs become one space;
  combining marks are capped per base character (no "zalgo" towers); the
  result is cut to ``limit`` characters.
* :func:`clean_name` -- player names: the same cleaning, NFKC-normalised
  (full-width Latin becomes ASCII), spaces become ``_``, then only letters,
  digits, combining marks and ``- _ .`` are kept, and the result is cut to :data:`NAME_MAX`. An empty
  result means "no usable name"; callers refuse it.
* :func:`lookalike_name` -- a clean name that could pass for another's at a
  glance (two alphabets mixed, or Latin look-alikes of another alphabet);
  callers refuse it.
* :func:`name_skeleton` -- what a name looks like (Unicode UTS #39 skeleton,
  from the confusables data of the ``confusable_homoglyphs`` package, with
  marks and case dropped): two names with one skeleton could pass for each
  other (``alice``, ``a1ice``, ``ɑlice``, ``alicé``).

Neither function makes text safe for Textual *markup*: screens must render
player text as plain text (``rich.text.Text`` / ``markup=False``). Names are
markup-free anyway because brackets are not name characters.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import re
import unicodedata

NAME_MAX = 20
"""Longest player name, in characters."""

TEXT_MAX = 300
"""Default cap for chat lines."""

MAX_MARKS = 2
"""Combining marks kept after one base character."""

# Escape sequences, 7-bit and 8-bit forms. String sequences (OSC, DCS, SOS, PM,
# APC) run to BEL or ST (ESC \ or 0x9c); an unterminated one runs to the end of
# the text, as a terminal would swallow it.
_ESCAPES = re.compile(
    r"""
    (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])   # OSC / DCS / SOS / PM / APC introducer
        .*?(?:\x07|\x1b\\|\x9c|$)             # ... payload up to a terminator
    | (?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?   # CSI params, intermediates, final
    | \x1b[\x20-\x2f]*[\x30-\x7e]?            # other ESC sequences (ESC c, ESC ( B, ESC 7 ...)
    """,
    re.VERBOSE | re.DOTALL,
)

_REMOVED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
_REMOVED_CHARS = frozenset(
    [chr(c) for c in range(0xFE00, 0xFE10)]  # variation selectors (VS16: "⚔️" as a wide emoji)
    + [chr(c) for c in range(0xE0100, 0xE01F0)]  # (their supplement)
    + [chr(c) for c in range(0x1F3FB, 0x1F400)]  # skin tones, drawn into the emoji before them
    + ["\u20e3"]  # the keycap drawn round the digit before it ("1⃣")
)
"""Characters a terminal draws into the one before it, one cell wider than the
screen's layout measures it (or as one glyph where it measures two): a chat
line with "⚔️" pushed a border one cell out of line on every screen that
showed it. Without them the character is drawn as it is measured."""
_SPACE_CATEGORIES = frozenset({"Zs", "Zl", "Zp"})
_NAME_PUNCT = frozenset("-_.")


def strip_escapes(text: str) -> str:
    """Remove terminal escape sequences, payload included."""
    return _ESCAPES.sub("", text)


def _clean_chars(text: str) -> str:
    """Drop control/format characters, fold whitespace, cap combining marks."""
    out: list[str] = []
    marks = 0
    for ch in text:
        cat = "Zs" if ch in "\t\n\r\v\f" else unicodedata.category(ch)
        if cat in _REMOVED_CATEGORIES or ch in _REMOVED_CHARS:
            continue
        if cat in _SPACE_CATEGORIES:
            if out and out[-1] != " ":
                out.append(" ")
            marks = 0
            continue
        if cat[0] == "M":
            # a mark needs a base character and at most MAX_MARKS per base
            if not out or out[-1] == " " or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        out.append(ch)
    return "".join(out).strip(" ")


def _cap(text: str, limit: int) -> str:
    if limit <= 0:
        return ""
    if len(text) <= limit:
        return text
    return text[:limit].rstrip(" ")


def clean_text(text: str, limit: int = TEXT_MAX) -> str:
    """Clean free text (chat, room names) for display to others; cap at ``limit`` chars."""
    return _cap(_clean_chars(strip_escapes(text)), limit)


def _name_chars(text: str) -> str:
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFKC", _clean_chars(text)):
        c = "_" if ch == " " else ch
        cat = unicodedata.category(c)
        if cat[0] in "LN" or c in _NAME_PUNCT:
            marks = 0
            out.append(c)
        elif cat[0] == "M" and out and out[-1] not in _NAME_PUNCT and marks < MAX_MARKS:
            marks += 1
            out.append(c)
    return "".join(out).strip("-_.")[:NAME_MAX].rstrip("-_.")


def clean_name(text: str) -> str:
    """Clean a player name; ``""`` when nothing usable is left."""
    name = _name_chars(strip_escapes(text))
    # normalising can compose or decompose characters; repeat to a fixed point
    for _ in range(4):
        again = _name_chars(name)
        if again == name:
            break
        name = again
    return name


# Letters of other alphabets drawn like Latin ones in common terminal fonts
# (after Unicode's confusables.txt, the letters that matter at a glance).
_LATIN_LOOKALIKES = frozenset(
    "АВЕКМНОРСТХУІЈЅҮԚԜаеорсухіјѕһԁԛԝӏү"  # Cyrillic
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορυ"  # Greek
)
_EAST_ASIAN = frozenset({"CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "HANGUL", "BOPOMOFO", "IDEOGRAPHIC"})


def _script(ch: str) -> str:
    """The writing system of one name character, from its Unicode name: ``""``
    for what every script shares (ASCII digits, ``- _ .``, marks), ``"CJK"`` for
    the East Asian scripts that mix with each other and with one alphabet."""
    if ch in _NAME_PUNCT or "0" <= ch <= "9" or unicodedata.category(ch)[0] == "M":
        return ""
    word = unicodedata.name(ch, "?").split(" ", 1)[0]
    return "CJK" if word in _EAST_ASIAN else word


def lookalike_name(name: str) -> bool:
    """True when ``name`` could pass for another player's at a glance: it mixes
    two alphabets (``bellа`` with a Cyrillic ``а``; Latin with Han and kana is
    fine, as Chinese and Japanese names are written), or it is written all in
    letters of another alphabet that look Latin (Cyrillic ``рор`` for ``pop``).
    Such names are refused, like a name another key owns."""
    scripts = {_script(ch) for ch in name} - {"", "CJK"}
    if len(scripts) > 1:
        return True
    if scripts and scripts != {"LATIN"}:
        letters = [ch for ch in name if _script(ch) not in ("", "CJK")]
        return all(ch in _LATIN_LOOKALIKES for ch in letters)
    return False


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (UTS #39 confusables.txt).

    The package keeps the data as an undirected graph: a source character is
    linked to its one prototype, a prototype to all its sources (no two
    prototypes are linked), so a character's prototype is its neighbour unless
    it has several (it is one); of two characters linked only to each other, a
    string of several characters is the prototype (sources are single), else
    the smaller stands for both. Right-to-left characters come wrapped in
    left-to-right marks, which are dropped."""
    path = importlib.resources.files("confusable_homoglyphs") / "confusables.json"
    graph: dict[str, list[dict[str, str]]] = json.loads(path.read_text(encoding="utf-8"))

    def bare(text: str) -> str:
        return text.replace("\u200e", "")

    degree = {bare(k): len(v) for k, v in graph.items()}
    out: dict[str, str] = {}
    for key, links in graph.items():
        ch = bare(key)
        if len(ch) != 1 or len(links) != 1:
            continue  # a prototype (several sources, or several characters)
        other = bare(links[0]["c"])
        if degree.get(other, 0) > 1 or len(other) > 1 or other < ch:
            out[ch] = other
    return out


def _skeleton_pass(text: str) -> str:
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return "".join(ch for ch in unicodedata.normalize("NFD", mapped) if unicodedata.category(ch)[0] != "M")


def name_skeleton(name: str) -> str:
    """What ``name`` looks like: its UTS #39 skeleton (every character replaced
    by the prototype it could pass for: ``1``, ``I`` and ``ǀ`` by ``l``, ``ɑ`` by
    ``a``, ``ı`` by ``i``), with combining marks dropped (``é`` passes for ``e``
    at a glance, and a dot over a dotless ``ı`` for an ``i``) and case folded,
    then mapped again (folding can make new look-alikes). Names with one
    skeleton could pass for each other; a key-owned name protects its skeleton."""
    return _skeleton_pass(_skeleton_pass(name).casefold())


def is_valid_name(text: str) -> bool:
    """True when ``text`` is already a clean, non-empty name."""
    return bool(text) and clean_name(text) == text
