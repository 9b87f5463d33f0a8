"""Sultans of Karaya in words: cards, seats, events, notes and actions, in the
player's language, as ``rich.text.Text`` built from plain strings (names are
never parsed as markup).

Every card *value* shown anywhere on the table goes through :func:`card_text`
/ :func:`card_str`: the card's name in brackets that tell its side without
colour -- ``[Guard]`` Loyalist, ``<Slave>`` Rebel, ``(Vizier)`` Neutral -- and
coloured blue, red or green.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.text import Text

from engine.sultans.actions import Action, parse_action
from engine.sultans.cards import CARD_NAMES, CardName
from engine.sultans.views import Event, Note
from protocol.contract import seat_number
from protocol.i18n import Lang, has_key, t

Family = Literal["loyalists", "rebels", "neutral"]

FAMILY: dict[str, Family] = {
    "sultan": "loyalists",
    "guard": "loyalists",
    "assassin": "rebels",
    "slave": "rebels",
    "slave-driver": "neutral",
    "belly-dancer": "neutral",
    "vizier": "neutral",
    "fortune-teller": "neutral",
}
BRACKETS: dict[Family, tuple[str, str]] = {"loyalists": ("[", "]"), "rebels": ("<", ">"), "neutral": ("(", ")")}
STYLE: dict[str, str] = {"loyalists": "bold blue", "rebels": "bold red", "neutral": "bold green"}
SIDE_STYLE: dict[str, str] = {"loyalists": "bold blue", "rebels": "bold red"}


def card_str(card: str, lang: Lang, *, short: bool = False) -> str:
    """``[Guard]`` / ``<Slave>`` / ``(Vizier)``: a card as text, side told by its brackets."""
    fam = FAMILY.get(card, "neutral")
    left, right = BRACKETS[fam]
    name = t(f"sk.short.{card}" if short else f"sk.card.{card}", lang)
    return f"{left}{name}{right}"


def card_text(card: str, lang: Lang, *, short: bool = False, dim: bool = False) -> Text:
    style = STYLE.get(FAMILY.get(card, "neutral"), "")
    if dim:
        style = style.replace("bold ", "") + " italic"
    return Text(card_str(card, lang, short=short), style=style, end="")


def all_card_strings(card: str) -> list[str]:
    """Every way a card value can appear on the table (both languages, full and short)."""
    return sorted({card_str(card, lang, short=short) for lang in ("en", "zh") for short in (False, True)})


def side_name(side: str | None, lang: Lang) -> str:
    return t(f"sk.side.{side}", lang) if side else t("sk.side.none", lang)


def side_text(side: str | None, lang: Lang) -> Text:
    return Text(side_name(side, lang), style=SIDE_STYLE.get(side or "", ""), end="")


def current_side(card: str, revealed: bool, declared: str | None) -> str | None:
    """The side a card is on now (S-SIDE-1, S-DRV-1, S-DNC-1, S-VIZ-1); None = no side."""
    fam = FAMILY.get(card, "neutral")
    if fam != "neutral":
        return fam
    if card == "slave-driver":
        return "loyalists" if revealed else "rebels"
    if card == "belly-dancer":
        return "rebels" if revealed else "loyalists"
    if card == "vizier":
        return declared if revealed else None
    return None


class Namer:
    """Seat references for one viewer: ``alice (3)``, ``bob (4, you)`` (a name, so that English verbs agree), ``the spare``;
    the numbers are the ones players see (:func:`protocol.contract.seat_number`)."""

    def __init__(self, names: Sequence[str], viewer: int | None, lang: Lang) -> None:
        self.names = list(names)
        self.viewer = viewer
        self.lang = lang

    def name(self, seat: int) -> str:
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return f"#{seat_number(seat)}"

    def seat(self, seat: int | None, *, spare: bool = False) -> str:
        if seat is None or spare:
            return t("sk.the_spare", self.lang)
        if seat == self.viewer:
            return t("sk.seat_you", self.lang, name=self.name(seat), n=seat_number(seat))
        return t("sk.seat", self.lang, name=self.name(seat), n=seat_number(seat))

    def seats(self, seats: Sequence[int]) -> str:
        if not seats:
            return t("sk.nobody", self.lang)
        return t("punct.list", self.lang).join(self.seat(s) for s in seats)


def _colour_cards(text: str, cards: Sequence[str], lang: Lang, style: str = "") -> Text:
    out = Text(text, style=style, end="")
    for card in set(cards):
        for form in (card_str(card, lang), card_str(card, lang, short=True)):
            out.highlight_words([form], STYLE[FAMILY.get(card, "neutral")])
    return out


def event_text(ev: Event, namer: Namer, lang: Lang) -> Text:
    """One log event in words (private ones are marked by the caller)."""
    k = ev.kind
    p: dict[str, object] = {}
    cards: list[str] = []
    if ev.seat is not None:
        p["who"] = namer.seat(ev.seat)
    p["target"] = namer.seat(ev.target, spare=ev.spare)
    if ev.card is not None:
        p["card"] = card_str(ev.card, lang)
        cards.append(ev.card)
    p["side"] = side_name(ev.side, lang)
    p["seats"] = namer.seats(ev.seats)
    p["n"] = len(ev.seats)
    key = f"sk.ev.{k}"
    if k == "turn":  # the viewer's own: "Your turn." (not "bob (1, you)'s turn.")
        yours = namer.viewer is not None and ev.seat == namer.viewer
        key = "sk.ev.turn" + ("_extra" if ev.extra else "") + ("_you" if yours else "")
    elif k == "skip":
        key = f"sk.ev.skip.{ev.cause or 'detained'}"
    elif k == "reveal":
        p["cause"] = t(f"sk.cause.{ev.cause}", lang) if ev.cause and ev.cause != "action" else ""
    elif k == "crown" and ev.target is None:
        key = "sk.ev.crown_back"
    elif k == "death":
        p["cause"] = t(f"sk.death.{ev.cause or 'assassinated'}", lang)
    elif k == "window":
        key = f"sk.ev.window.{ev.cause or 'block'}"
    elif k == "answer":
        p["answer"] = t(f"sk.answer.{ev.cause or 'pass'}", lang)
    elif k == "block-unused":
        key = f"sk.ev.block-unused.{ev.cause or 'hidden'}"
    elif k == "join" and not ev.seats:
        key = "sk.ev.join_none"
    elif k == "foresee-result":
        p["pairs"] = t("punct.list", lang).join(f"{namer.seat(s)} = {card_str(c, lang)}" for s, c in zip(ev.seats, ev.cards, strict=False))
        cards.extend(ev.cards)
    elif k == "win":
        p["reason"] = t(f"sk.reason.{ev.cause}", lang) if ev.cause else ""
    elif k == "round-end":
        cards.extend(ev.cards)
    return _colour_cards(t(key, lang, **p), cards, lang)


def note_text(note: Note, namer: Namer, lang: Lang) -> Text:
    where = namer.seat(note.seat)
    card = t("sk.notes.not", lang, card=card_str(note.card, lang)) if note.negated else card_str(note.card, lang)
    line = t("sk.notes.line", lang, where=where, card=card, how=t(f"sk.how.{note.how}", lang), turn=note.turn)
    text = _colour_cards(line, [note.card], lang, style="dim" if note.stale else "")
    text.append("  ")
    if note.stale:
        text.append("?? " + t("sk.notes.stale", lang, turn=note.stale_turn if note.stale_turn is not None else note.turn), style="italic")
    else:
        text.append("✓ " + t("sk.notes.fresh", lang), style="")
    return text


def describe(action: str | Action, namer: Namer, lang: Lang, *, face_up: bool = False) -> str:
    """What ``action`` will do, in plain words; ``face_up``: by a seat whose card
    is revealed already ("Detain bob (1)", not "Reveal and detain")."""
    a = parse_action(action) if isinstance(action, str) else action
    k = a.kind
    if face_up and has_key(f"sk.do.{k}.open"):
        return _describe_open(a, namer, lang)
    target = namer.seat(a.target, spare=a.spare) if (a.target is not None or a.spare) else ""
    if k == "swap":
        return t("sk.do.swap_spare" if a.spare else "sk.do.swap", lang, target=target)
    if k == "hide":
        if a.spare:
            return t("sk.do.hide_swap_spare", lang)
        if a.target is not None:
            return t("sk.do.hide_swap", lang, target=target)
        return t("sk.do.hide", lang)
    if k == "manipulate" or k == "predict":
        return t(f"sk.do.{k}", lang, side=side_name(a.side, lang), target=target)
    if k == "foresee":
        return t("sk.do.foresee", lang, targets=namer.seats(a.seats))
    return t(f"sk.do.{k}", lang, target=target)


def card_rules(card: str, lang: Lang) -> str:
    return t(f"sk.rules.{card}", lang)


ALL_CARDS: tuple[CardName, ...] = CARD_NAMES


def _describe_open(a: Action, namer: Namer, lang: Lang) -> str:
    target = namer.seat(a.target) if a.target is not None else ""
    if a.kind == "manipulate":
        return t("sk.do.manipulate.open", lang, side=side_name(a.side, lang), target=target)
    if a.kind == "foresee":
        return t("sk.do.foresee.open", lang, targets=namer.seats(a.seats))
    return t(f"sk.do.{a.kind}.open", lang, target=target)
