"""The message catalogue: every UI string in English and Traditional Chinese.

``t(key, lang, **params)`` looks a key up and fills ``str.format`` params.
Both catalogues must hold the same keys with the same params
(``tests/tui/test_i18n.py`` checks). User-provided text is never put into a
catalogue string as markup: screens render results as literal text.
"""

from __future__ import annotations

import functools
import string
import unicodedata
from collections.abc import Mapping
from typing import Literal

from protocol.catalogue import EN, ZH
from protocol.contract import ClientError, RoomSettings, SeatInfo, bot_name, seat_index, seat_number

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")

CATALOGUES: dict[Lang, dict[str, str]] = {"en": EN, "zh": ZH}


def add_catalogue(en: Mapping[str, str], zh: Mapping[str, str]) -> None:
    """Add a game's table keys (both languages) to the catalogue; a key the
    catalogue already has may not be redefined (two games would share a word)."""
    clash = (en.keys() | zh.keys()) & (EN.keys() | ZH.keys())
    if clash:
        raise ValueError(f"catalogue keys defined twice: {sorted(clash)[:5]}")
    EN.update(en)
    ZH.update(zh)


def drop_catalogue(en: Mapping[str, str], zh: Mapping[str, str]) -> None:
    """Take a game's keys (as :func:`add_catalogue` added them) out again."""
    for key in en.keys() | zh.keys():
        EN.pop(key, None)
        ZH.pop(key, None)


def has_key(key: str) -> bool:
    return key in EN


def t(key: str, lang: Lang = "en", /, **params: object) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in.

    A key missing in ``lang`` falls back to English, then to the key itself,
    so a gap shows up as text rather than a crash.
    """
    template = CATALOGUES.get(lang, EN).get(key) or EN.get(key) or key
    if not params:
        return template
    try:
        if lang == "zh" and template is ZH.get(key):
            return _fill_chinese(template, params)
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _joins(left: str, right: str) -> bool:
    """No space between these two characters in Chinese: both Chinese, or one
    a full-width bracket or stop (it carries its own space)."""
    if _wide(left) and _wide(right):
        return True
    return (_wide(left) and unicodedata.category(left)[0] == "P" and not right.isspace()) or (
        _wide(right) and unicodedata.category(right)[0] == "P" and not left.isspace()
    )


@functools.lru_cache(maxsize=4096)
def _pieces(template: str) -> tuple[tuple[str, str | None, str | None, str | None], ...]:
    return tuple(string.Formatter().parse(template))


def _fill_chinese(template: str, params: Mapping[str, object]) -> str:
    """``template.format(**params)``, but a space the template puts between
    Chinese and a param stays only where the param's text is not Chinese:
    "指示物到了 {dst}" says "指示物到了 alice（1）" and "指示物到了你（0）";
    "{who} 持有指示物" says "Bot 3（3）持有指示物", and "{src} 付給 {dst} {gold} 元"
    "國庫付給你（0）2 元" (a full-width bracket is its own space)."""
    out: list[str] = []
    for literal, field, spec, conv in _pieces(template):
        text = ""
        if field is not None:
            value = params[field] if field else ""
            if conv == "r":
                value = repr(value)
            elif conv == "s":
                value = str(value)
            text = format(value, spec or "")
        after = literal[1:2] or text[:1]  # what a leading space stands before
        if out and out[-1] and literal[:1] == " " and after and _joins(out[-1][-1], after):
            literal = literal[1:]  # "{who} 持有" after a value that ends in Chinese
        if text and literal[-1:] == " " and len(literal) > 1 and _joins(literal[-2], text[0]):
            literal = literal[:-1]  # "到了 {who}" before a value that starts in Chinese
        out.append(literal)
        out.append(text)
    return "".join(out)


def params_of(template: str) -> set[str]:
    """The ``str.format`` field names used in ``template``."""
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name}


def game_title(game: str, lang: Lang, *, short: bool = False, fallback: str = "") -> str:
    """A game's title in ``lang`` (``short`` for narrow columns); a game the
    catalogue does not know yet shows ``fallback`` (its English title) or its id."""
    key = f"game.short.{game}" if short else f"game.{game}"
    return t(key, lang) if has_key(key) else (fallback or game)


def room_title(name: str, host: str, lang: Lang) -> str:
    """A room's name as ``lang`` shows it: the name its host gave it, or,
    left unnamed, "alice's table" / "alice 的牌桌" in each reader's language."""
    return name or t("room.unnamed", lang, host=host)


NAMES_SEP = "\n"
"""Between the names of a system line's ``names`` param (no name has a line
break: names are cleaned of control characters)."""


def said_names(names: str, lang: Lang) -> str:
    """A ``names`` param (names apart by ``NAMES_SEP``) as ``lang`` lists them:
    "alice, bob"; "alice、bob"; a bot as :func:`shown_name` names it."""
    return t("punct.list", lang).join(shown_name(name, lang) for name in names.split(NAMES_SEP))


def said_changes(changes: str, lang: Lang) -> str:
    """A ``changes`` param (setting ids apart by ``NAMES_SEP``, ``changed.<id>``
    in the catalogue) as ``lang`` lists them: "seats, reaction timer"."""
    return t("punct.list", lang).join(t(f"changed.{c}", lang) for c in changes.split(NAMES_SEP))


def guest_marked(name: str, guest: bool, lang: Lang) -> str:
    """A player's name as lists show it: "(guest)" after a guest's (issue 3:
    keyless players are "shown as guests")."""
    return t("lobby.as_guest", lang, name=name) if guest else name


def shown_name(name: str, lang: Lang) -> str:
    """A seat's name as screens show it: a player's as it is, the host's bot
    ("Bot 2") in ``lang`` ("電腦 2"; a player's name has no space, so "Bot 2"
    is only ever a bot)."""
    number = name.partition(" ")[2]
    is_bot = number.isdigit() and name == bot_name(seat_index(int(number)))
    return t("table.bot_name", lang, n=number) if is_bot else name


def system_line(key: str, params: Mapping[str, str], lang: Lang) -> str | None:
    """A host system chat line (``ChatLine.key``/``params``) in ``lang``, or None
    when the catalogue cannot say it (an unknown key, a missing param, a game it
    does not know): the screen then shows the line's English ``text``.

    A ``game`` param is a game id and shows as the game's title; a ``title``
    with ``room_name`` and ``host`` is a room's title in ``lang``; every other
    param is put in literally (names are never markup: screens render the
    result as plain text)."""
    if not key.startswith("sys.") or not has_key(key):
        return None
    values: dict[str, object] = dict(params)
    if "names" in params:
        values["names"] = said_names(params["names"], lang)
    if "changes" in params:
        if not all(has_key(f"changed.{c}") for c in params["changes"].split(NAMES_SEP)):
            return None
        values["changes"] = said_changes(params["changes"], lang)
    if "title" in params and "room_name" in params and "host" in params:  # an unnamed room is "bob's table" / "bob 的牌桌"
        values["title"] = room_title(params["room_name"], params["host"], lang)
    game = params.get("game")
    if game is not None:
        if not has_key(f"game.{game}"):
            return None
        values["game"] = game_title(game, lang)
    if not params_of(EN[key]) <= values.keys():
        return None
    return t(key, lang, **values)


def field_label(name: str, lang: Lang) -> str:
    """A view field's label: translated when known, else the field name made readable."""
    key = f"view.{name}"
    if has_key(key):
        return t(key, lang)
    return name.replace("_", " ").capitalize()


def error_text(err: ClientError, lang: Lang) -> str:
    """A host refusal in the player's language (its English message when the code is new).

    A refusal with a ``reason`` the catalogue knows (``err.<code>.<reason>``,
    e.g. an illegal action the engine refused as ``not-pending``) says that
    reason; the English detail follows in parentheses."""
    key = f"err.{err.code}"
    reason = getattr(err, "reason", "")
    if reason and has_key(f"{key}.{reason}"):
        key = f"{key}.{reason}"
    elif not has_key(key):
        key = "err.other"
    params = dict(getattr(err, "params", {}))
    if "names" in params:  # a list of names, as system lines carry it (NAMES_SEP)
        params["names"] = said_names(params["names"], lang)
    return t(key, lang, **params, msg=str(err))


def level_name(level: str, lang: Lang) -> str:
    """A bot level (engine.api.BOT_LEVELS) in ``lang``: "strong", "強"."""
    return t(f"level.{level}", lang)


def bot_levels_summary(settings: RoomSettings, lang: Lang) -> str:
    """The room's bot levels: "bots normal (seat 2 strong, seat 4 easy)"."""
    out = t("summary.bot_level", lang, level=level_name(settings.bot_level, lang))
    seats = [
        t("summary.bot_seat", lang, n=seat_number(i), level=level_name(level, lang))
        for i, level in sorted(settings.bot_levels.items())
        if level != settings.bot_level
    ]
    return t("summary.bot_levels", lang, level=out, seats=t("punct.list", lang).join(seats)) if seats else out


def seat_shown(info: SeatInfo, name: str, lang: Lang) -> str:
    """A seat's name as seats and results show it: a bot's with its level
    ("Bot 2·strong", "電腦 2·強"), a player's as :func:`shown_name` has it."""
    shown = shown_name(name, lang)
    if info.kind == "bot" and info.level is not None and not info.left:  # (a left seat shows its player's name)
        return t("table.bot_level", lang, name=shown, level=level_name(info.level, lang))
    return shown
