"""Kill the Overlord in words: names of seats, cards and roles, log lines, action previews.

Pure functions of a view's parts and the language; user-provided names are
always literal text (``rich.text.Text``), never markup.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from engine.overlord.notation import Action, OverlordIllegal, parse
from engine.overlord.views import Event, Outcome, OverlordView
from protocol.contract import seat_number
from protocol.i18n import Lang, has_key, t


def card_str(card: str, lang: Lang) -> str:
    """A card as a value: its name in brackets (``[Sidestep]``)."""
    key = f"ov.card.{card}"
    return f"[{t(key, lang) if has_key(key) else card}]"


def role_str(role: str, lang: Lang) -> str:
    key = f"ov.role.{role}"
    return t(key, lang) if has_key(key) else role


def effect_str(card: str, lang: Lang) -> str:
    key = f"ov.effect.{card}"
    return t(key, lang) if has_key(key) else ""


class Namer:
    """Names seats for one viewer: ``bob (2)``, ``alice (1, you)`` (a name, so that English verbs agree; the numbers players see)."""

    def __init__(self, names: list[str], viewer: int | None, lang: Lang) -> None:
        self.names = names
        self.viewer = viewer
        self.lang = lang

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) and self.names[seat] else f"#{seat_number(seat)}"

    def seat(self, seat: int | None) -> str:
        if seat is None:
            return t("ov.nobody", self.lang)
        if seat == self.viewer:
            return t("ov.you", self.lang, name=self.name(seat), n=seat_number(seat))
        return t("ov.seat", self.lang, name=self.name(seat), n=seat_number(seat))


def why_str(why: object, lang: Lang) -> str:
    w = str(why)
    if has_key(f"ov.why.{w}"):
        return t(f"ov.why.{w}", lang)
    # a card or a role is the cause, not what moved: "draws 1 ([Sidestep])" read as the card drawn
    if has_key(f"ov.card.{w}"):
        return t("ov.why.card", lang, card=card_str(w, lang))
    if has_key(f"ov.role.{w}"):
        return t("ov.why.role", lang, role=role_str(w, lang))
    return w


def _int(v: object) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


RESTATED_GOLD = frozenset({"gift", "pay"})
"""Gold moves that the line before already tells (the Merchant's gift, the Peasant's pass)."""


def restated(ev: Event, viewer: int | None = None) -> bool:
    """True for an event that another line of ``viewer``'s log tells already:
    the log leaves it out. A gold move the line before tells (a gift, a
    pass); a Coercion card given, to its giver and taker, whose next line
    names the card (they read "gives ... a card." and then "gives ... [Revolt].")."""
    if ev.kind == "give-card":
        return viewer is not None and viewer in (ev.params.get("src"), ev.params.get("dst"))
    return ev.kind == "gold" and ev.params.get("why") in RESTATED_GOLD


def reason_str(reason: str, tie: bool, lang: Lang) -> str:
    """Why the game ended; ``tie``: the most gold was tied and the higher rank won (K-END-2)."""
    return t(f"ov.reason.{reason}" + (".tie" if tie and reason == "round-limit" else ""), lang)


def outcome_reason(o: Outcome, lang: Lang) -> str:
    """:func:`reason_str` for a game's outcome (a tie: the winner's gold held by another too)."""
    return reason_str(o.reason, o.gold.count(o.gold[o.winner]) > 1, lang)


def event_text(ev: Event, namer: Namer, lang: Lang) -> Text:
    """One log event as a line of text (every name literal)."""
    p = ev.params
    k = ev.kind

    def who(key: str = "seat") -> str:
        return namer.seat(_int(p.get(key)))

    def card(key: str = "card") -> str:
        v = p.get(key)
        return card_str(str(v), lang) if isinstance(v, str) else ""

    def cards(key: str = "cards") -> str:
        v = p.get(key)
        return " ".join(card_str(str(c), lang) for c in v) if isinstance(v, list) else ""

    def tr(key: str, **kw: object) -> Text:
        return Text(t(key, lang, **kw), end="")

    if k == "round":
        return Text(t("ov.log.round", lang, n=p.get("round")), style="bold", end="")
    if k == "gain":
        return tr("ov.log.gain", who=who(), gold=p.get("gold"), why=why_str(p.get("why"), lang))
    if k == "gold":
        dst = _int(p.get("dst"))
        return tr(
            "ov.log.gold", src=who("src"), dst=namer.seat(dst) if dst is not None else t("ov.treasury", lang),
            gold=p.get("gold"), why=why_str(p.get("why"), lang),
        )
    if k in ("deck-refilled", "reshuffle"):
        return tr(f"ov.log.{k}", cards=p.get("cards"))
    if k == "draw":
        key = "ov.log.draw_none" if p.get("count") == 0 else "ov.log.draw"  # a full hand, or no cards left
        return tr(key, who=who(), count=p.get("count"), why=why_str(p.get("why"), lang))
    if k == "drew":
        return tr("ov.log.drew", cards=cards())
    if k == "discard":
        return tr("ov.log.discard", who=who(), card=card(), why=why_str(p.get("why"), lang))
    if k == "game-over":
        return Text(
            t("ov.log.game-over", lang, who=who("winner"), reason=reason_str(str(p.get("why")), bool(p.get("tie")), lang)),
            style="bold", end="",
        )
    if k == "levy":
        payers, amounts = p.get("payers"), p.get("amounts")
        if isinstance(payers, list) and isinstance(amounts, list) and payers:
            parts = levy_parts(zip((_int(s) for s in payers), amounts, strict=False), namer)
            return tr("ov.log.levy", who=who(), parts=parts)
        return tr("ov.log.levy_none", who=who())
    if k == "name":
        return tr("ov.log.name", who=who(), card=card()) if p.get("card") else tr("ov.log.name_none", who=who())
    if k == "show":
        if p.get("target") is None:
            return tr("ov.log.show_none", who=who())
        return tr("ov.log.show", who=who(), target=who("target"), cards=cards() or t("ov.hand.empty", lang))
    if k == "order-phase":
        return Text(t("ov.log.order-phase", lang), style="bold", end="")
    if k == "order-phase-end":
        return tr("ov.log.order-phase-end", why=why_str(p.get("why"), lang))
    if k == "gift":
        return tr("ov.log.gift", who=who(), target=who("target")) if p.get("target") is not None else tr(
            "ov.log.gift_none", who=who()
        )
    if k in ("command", "pay", "uprising"):
        return tr(f"ov.log.{k}", who=who(), target=who("target" if k != "uprising" else "named"))
    if k == "truant-pass" or k == "die" or k == "revenge-none":
        return tr(f"ov.log.{k}", who=who())
    if k == "order":
        return Text(t("ov.log.order", lang, dst=who("dst")), style="bold", end="")
    if k == "play":
        if p.get("target") is not None:
            # Plead Guilty takes the order from its target: "→" reads as giving it (K-ORD-5)
            key = "ov.log.plead_from" if p.get("card") == "plead-guilty" else "ov.log.play_to"
            return tr(key, who=who(), card=card(), target=who("target"))
        return tr("ov.log.play", who=who(), card=card())
    role = p.get("role")
    if k == "protected" and isinstance(role, str):  # a role's power: the Captain's, the Tax Collector's
        return tr("ov.log.protected_role", who=who(), why=t("ov.why.role", lang, role=role_str(role, lang)))
    if k in ("cancelled", "fizzled", "protected"):
        return tr(f"ov.log.{k}", who=who(), card=card())
    if k == "no-exchange":
        return tr("ov.log.no-exchange")
    if k == "no-discard":
        return tr("ov.log.no-discard", who=who(), why=why_str(p.get("why"), lang))
    if k == "substitute":
        return tr("ov.log.substitute", who=who(), card=card(), returned=card("returned"))
    if k == "discard-pass":
        return tr("ov.log.discard-pass", who=who(), card=card(), target=who("target"))
    if k == "choose-gold":
        key = "ov.log.choose-gold.auto" if p.get("auto") else "ov.log.choose-gold"  # auto: a Knight, or no card
        return tr(key, who=who(), card=card_str("coercion", lang))
    if k == "give-card":
        return tr("ov.log.give-card", src=who("src"), dst=who("dst"))
    if k in ("gave-card", "passed-card"):
        return Text(t(f"ov.log.{k}", lang, src=who("src"), dst=who("dst"), card=card()), style="italic", end="")
    if k == "revolt":
        return tr("ov.log.revolt" if p.get("swapped") else "ov.log.revolt_no", who=who(), target=who("target"))
    if k == "conspire":
        return tr("ov.log.conspire", dir=t(f"ov.dir.{p.get('direction')}", lang))
    if k == "advisor-ignores":
        return tr("ov.log.advisor-ignores", who=who(), card=card())
    if k == "revolution":
        roles, dealt = p.get("roles"), p.get("dealt")
        if not isinstance(roles, list) or not isinstance(dealt, list) or not dealt:
            return Text(t("ov.log.revolution", lang), style="bold", end="")
        got = t("punct.list", lang).join(
            t("ov.log.revolution_got", lang, who=namer.seat(s), role=role_str(str(roles[s]), lang))
            for s in dealt if isinstance(s, int) and 0 <= s < len(roles)
        )  # roles are public: who now holds which, for the exchange that follows
        return Text(t("ov.log.revolution_dealt", lang, got=got), style="bold", end="")
    if k == "uprising-resolves":
        victim = _int(p.get("victim"))
        if victim is None:
            return tr("ov.log.uprising-resolves_none")
        return tr("ov.log.uprising-resolves", victim=namer.seat(victim))
    if k == "execute":
        killer = _int(p.get("killer"))
        return Text(
            t(
                "ov.log.execute", lang, who=who(), token=p.get("token"), role=role_str(str(p.get("role")), lang),
                killer=namer.seat(killer) if killer is not None else t("ov.nobody", lang),
            ),
            style="bold", end="",
        )
    if k == "actor":
        return tr("ov.log.actor", who=who(), role=role_str(str(p.get("role")), lang), victim=who("victim"))
    if k == "exchange":
        gave = p.get("gave")
        if gave is None:
            return tr("ov.log.exchange_dead", who=who(), took=role_str(str(p.get("took")), lang))
        return tr("ov.log.exchange", who=who(), took=role_str(str(p.get("took")), lang), gave=role_str(str(gave), lang))
    return tr("ov.log.other", kind=k)


def levy_parts(levy: Iterable[tuple[int | None, object]], namer: Namer) -> str:
    """The gold a levy takes from each seat: "2 from bob (1), 1 from carol (2)"."""
    return t("punct.list", namer.lang).join(t("ov.levy.part", namer.lang, who=namer.seat(s), gold=g) for s, g in levy)


def describe(text: str, namer: Namer, lang: Lang) -> str:
    """What an action in notation will do, in words."""
    try:
        a = parse(text)
    except OverlordIllegal:
        return text
    return describe_action(a, namer, lang)


_NO_TRANSFER = frozenset({"martyrdom", "revenge", "revolution"})
"""Cards that name no seat to pass the order to (K-ORD-3's desperation cards)."""


def fee_note(a: Action, view: OverlordView, lang: Lang) -> str:
    """K-XROLE-TAXCOLLECTOR: what passing the order to the Tax Collector costs
    the player about to do it (a command, a card, a role's pass), said before
    Enter: the fee was only seen in the log afterwards. ``""``: no fee."""
    me, to = view.me, a.seat
    if me is None or to is None or not 0 <= to < len(view.seats) or to == me:
        return ""
    passes = a.verb in ("order", "pay", "discard-pass") or (a.verb == "play" and a.card not in _NO_TRANSFER)
    if not passes or view.seats[to].role != "taxcollector" or view.seats[me].role == "knight":
        return ""
    return t("ov.pick.fee", lang, gold=view.tax_fee)


def revolt_note(a: Action, view: OverlordView, lang: Lang) -> str:
    """K-CARD-REVOLT, K-ROLE-GENERAL: whether the Revolt about to be played
    swaps roles (the General's swaps only with a rank 1 away; the line did not
    say which). ``""``: not a Revolt with a target."""
    me, to = view.me, a.seat
    if a.verb != "play" or a.card != "revolt" or me is None or to is None or not 0 <= to < len(view.seats):
        return ""
    mine, theirs = view.seats[me], view.seats[to]
    swaps = mine.role != "general" or abs(mine.rank - theirs.rank) == 1
    return t("ov.pick.revolt_swap" if swaps else "ov.pick.revolt_keep", lang)


def describe_action(a: Action, namer: Namer, lang: Lang) -> str:
    v = a.verb
    card = card_str(a.card, lang) if a.card else ""
    target = namer.seat(a.seat) if a.seat is not None else ""
    if v == "play":
        if a.card in ("retaliate", "plead-guilty"):
            return t(f"ov.do.{a.card}", lang, card=card)
        if a.direction is not None:
            return t("ov.do.play_dir", lang, card=card, target=target, dir=t(f"ov.dir.{a.direction}", lang))
        if a.seat is not None:
            return t("ov.do.play_to", lang, card=card, target=target)
        return t("ov.do.play", lang, card=card)
    if v in ("retaliate", "plead-guilty"):
        return t(f"ov.do.{v}", lang, card=card_str(v, lang))
    if v == "levy":
        if not a.levy:
            return t("ov.do.levy_none", lang)
        return t("ov.do.levy", lang, parts=levy_parts(a.levy, namer))
    key = f"ov.do.{v}"
    if has_key(key):
        return t(key, lang, card=card, target=target)
    return str(a)
