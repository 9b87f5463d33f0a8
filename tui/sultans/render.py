"""Pure rendering of a Sultans view into texts: seat boxes, the centre, the
round result and the match score table. No widgets here (tests call these
directly too); everything comes from the view and the room's names.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache

from rich.cells import cell_len
from rich.text import Text
from textual.cache import LRUCache

from engine.sultans.views import MatchView, Note, RoundView, SeatView
from protocol.contract import SeatInfo, seat_number
from protocol.i18n import Lang, level_name, t
from tui.sultans.catalogue import SULTANS_EN
from tui.sultans.ring import wrap_lines
from tui.sultans.words import Namer, card_str, card_text, current_side, side_name, side_text
from tui.text import fit

BACK = "▒▒▒▒▒▒"


def notes_by_seat(notes: Sequence[Note]) -> dict[int | None, Note]:
    return {n.seat: n for n in notes}


def winners_key(winners: Sequence[int]) -> str:
    """"Winner: …" for one seat, "Winners: …" for a tie."""
    return "sk.match.winners" if len(winners) > 1 else "sk.match.winner"


def side_letter(side: str | None, lang: Lang) -> str:
    return t(f"sk.side.letter.{side}", lang) if side else ""


_BOX_LINES: LRUCache[Hashable, tuple[SeatView, list[Text]]] = LRUCache(2048)
"""Seat box lines by the seat view's identity and the rest they depend on: the
engine gives every viewer the same object for a seat that looks the same to
them (engine/sultans/round.py, ``_seat_view``), so a seated player's ring makes
only its own box's lines; the seat is kept in the value, so an id is not reused."""


def seat_box_lines(
    seat: SeatView,
    rv: RoundView,
    info: SeatInfo | None,
    namer: Namer,
    lang: Lang,
    *,
    note: Note | None,
    width: int,
    height: int,
    points: int | None = None,
) -> list[Text]:
    """The lines of one seat box (``height`` 2-4 lines, ``width`` cells);
    shared between screens: never change the list or its texts."""
    i = seat.index
    key = (
        id(seat), rv.playing is None, rv.phase,
        None if info is None else (info.kind, info.autoplay, info.connected, info.away, info.left, info.level),
        namer.name(i), i == namer.viewer, lang, note, width, height, points,
    )
    hit = _BOX_LINES.get(key)
    if hit is not None and hit[0] is seat:
        return hit[1]
    short = width < 20
    marker = " "
    if seat.playing or (rv.playing is None and seat.active and not seat.pending):
        marker = "▶"  # whose turn it is, in a reaction window too (unless it must answer there)
    elif seat.pending:
        marker = "●"
    line1 = Text(end="")
    line1.append(marker, style="bold reverse" if marker == "▶" else "bold")
    line1.append(f"{seat_number(i):>2} ", style="bold")
    name = namer.name(i)
    line1.append(name, style="bold underline" if i == namer.viewer else "bold")
    conn = ""
    if info is not None:
        if info.left:  # its player left the match: a bot plays it out under their name
            conn = t("sk.tok.left", lang)
        elif info.kind == "bot":  # "電腦 2" says it already ("2 電腦 2 電腦")
            conn = "" if name == t("table.bot_name", lang, n=seat_number(i)) else t("sk.tok.bot", lang)
            if info.level is not None:  # how well it plays
                conn = f"{conn} {level_name(info.level, lang)}".strip()
        elif info.away:  # a stand-in bot plays it until its player presses a key
            conn = t("sk.tok.standin", lang)
        elif info.autoplay:
            conn = t("sk.tok.autoplay", lang)
        elif not info.connected:
            conn = t("sk.tok.away", lang)
    # line 2: the card (face up / your own / a note / a back) and token signs
    line2 = Text(end="")
    if not seat.alive:
        line2.append("✝", style="bold")
    if seat.card is not None and (seat.revealed or not seat.alive or rv.phase == "over"):
        line2.append_text(card_text(seat.card, lang, short=short))
    elif seat.card is not None:  # your own hidden card
        line2.append("▒", style="dim")
        line2.append_text(card_text(seat.card, lang, short=short))
    elif note is not None:
        line2.append("▒", style="dim")
        if note.negated:
            line2.append("¬", style="dim")
        line2.append_text(card_text(note.card, lang, short=True, dim=True))
        line2.append("??" if note.stale else "?", style="dim")
    else:
        line2.append(BACK[: 4 if short else 6], style="dim")
    if points is not None:  # a round's points before the signs: a narrow box cuts the end
        line2.append(f" +{points}", style="bold reverse" if points else "dim")
    signs = ""
    if seat.detained:
        signs += "#"
    if seat.captured:
        signs += "&"
    if seat.exhausted:
        signs += "~"
    if seat.crown:
        signs += "♛"
    if seat.declared:
        signs += (" " if signs else "") + "→" + side_letter(seat.declared, lang)
    if seat.prediction:
        signs += (" " if signs else "") + "=" + side_letter(seat.prediction, lang)
    if signs:
        line2.append(" " + signs, style="bold")
    words: list[str] = []
    if seat.detained:
        words.append(t("sk.tok.detained", lang))
    if seat.captured:
        words.append(t("sk.tok.captured", lang))
    if seat.exhausted:
        words.append(t("sk.tok.exhausted", lang))
    if seat.must_hide and seat.alive:
        words.append(t("sk.tok.must_hide", lang))
    if conn:
        words.append(conn)
    if height <= 2:
        if conn:
            line1.append(" " + conn, style="dim")
        lines = [line1, line2]
    else:
        lines = [line1, line2, Text(" · ".join(words), style="dim", end="")]
    if height >= 4:
        extra = Text(end="")
        if seat.declared:
            extra.append(t("sk.tok.declared", lang, side=side_name(seat.declared, lang)) + " ")
        if seat.prediction:
            extra.append(t("sk.tok.predicted", lang, side=side_name(seat.prediction, lang)))
        lines.append(extra)
    _BOX_LINES[key] = (seat, lines)
    return lines


def centre_lines(
    mv: MatchView, namer: Namer, lang: Lang, legal_keys: str, *, notebook: bool, room: tuple[int, int] | None = None
) -> list[Text]:
    """The ring's centre: the spare and the crown, a round's or match's end, and
    the viewer's card, its brief, its state and its keys now. ``room``: the
    centre's (width, rows); lines that would not fit give way, the brief first,
    then the long form of the card line, then the seat's states (the rows below
    were cut before)."""
    lines = _centre_lines(mv, namer, lang, legal_keys, notebook=notebook)
    if room is None or mv.round.your_card is None or mv.round.viewer is None:
        return lines
    width, rows = room

    def used() -> int:
        return sum(_rows(line.plain, width) for line in lines)

    brief = t(f"sk.brief.{mv.round.your_card}", lang)
    if used() > rows:
        lines = [line for line in lines if line.plain != brief]
    if used() > rows:
        title = t("sk.own.title", lang) + t("punct.colon", lang)
        rv = mv.round
        lines = [_you_line(rv, lang, short=True) if line.plain.startswith(title) else line for line in lines]
    if used() > rows:  # the seat's own box says these too (#, &, ~ and its words)
        states = {t(f"sk.status.{k}", lang) for k in ("detained", "captured", "exhausted")}
        lines = [line for line in lines if line.plain not in states]
    return lines


@lru_cache(maxsize=4096)
def _rows(plain: str, width: int) -> int:
    """How many rows the ring's centre wraps ``plain`` to (the style does not
    change where it breaks): made once per text and width for the process."""
    return len(wrap_lines([Text(plain)], width))


@lru_cache(maxsize=256)
def centre_rows(lang: Lang, width: int, *, watching: bool) -> int:
    """The rows a centre wraps to at ``width`` (the ring is made this tall:
    tui/sultans/table.py): the spare and crown, a round's end, the legend, and a
    player's card, its longest brief and its keys (a round's end has none) or a
    spectator's line. A seat's state is one more: then the brief gives way
    (:func:`centre_lines`), the seat's own box says the state too."""
    legend = sum(_rows(line.plain, width) for line in legend_lines(lang, watching=watching))
    if watching:
        return 2 + _rows(t("sk.own.spectator", lang), width) + legend
    brief = max(_rows(t(k, lang), width) for k in SULTANS_EN if k.startswith("sk.brief."))
    return 3 + brief + legend


def _you_line(rv: RoundView, lang: Lang, *, short: bool = False) -> Text:
    """The viewer's card, face up or down, and its side; ``short``: "You: (Teller) · …"."""
    assert rv.viewer is not None and rv.your_card is not None
    me = rv.seats[rv.viewer]
    you = Text(end="")
    you.append(t("sk.own.title_short" if short else "sk.own.title", lang) + t("punct.colon", lang), style="bold")
    you.append_text(card_text(rv.your_card, lang, short=short))
    if rv.phase != "over":  # (once over every card is shown: "face down" read as if it still were)
        you.append(" · " + t("sk.own.face_up" if me.revealed else "sk.own.face_down", lang))
    side = current_side(rv.your_card, me.revealed, me.declared)
    you.append(" · ")
    you.append_text(side_text(side, lang) if side else Text(t("sk.side.none", lang), end=""))
    return you


def _centre_lines(mv: MatchView, namer: Namer, lang: Lang, legal_keys: str, *, notebook: bool) -> list[Text]:
    """The centre of the ring: the spare, the crown, your card and what it can do."""
    rv = mv.round
    lines: list[Text] = []
    top = Text(end="")
    spare_note = notes_by_seat(rv.notes).get(None) if notebook else None
    if rv.spare_card is not None:
        top.append_text(Text(t("sk.spare", lang) + " ", end=""))
        top.append_text(card_text(rv.spare_card, lang))
    elif spare_note is not None:
        top.append(t("sk.spare", lang) + " ▒")
        top.append_text(card_text(spare_note.card, lang, short=True, dim=True))
        top.append("??" if spare_note.stale else "?", style="dim")
    else:
        top.append(t("sk.spare", lang) + " " + BACK, style="")
    top.append("   ")
    if rv.crown is not None:
        top.append(t("sk.centre.crown_at", lang, who=namer.seat(rv.crown)), style="bold")
    else:
        top.append(t("sk.centre.crown_centre", lang), style="dim")
    lines.append(top)
    o = rv.outcome
    if o is not None:  # once the match is over, named as its last round's (the match's result is the prompt's)
        reason = t(f"sk.reason.{o.reason}", lang)
        if o.winner is not None:
            said = t("sk.end.winner", lang, side=side_name(o.winner, lang), reason=reason)
        else:
            said = t("sk.end.nowinner", lang, reason=reason)
        if mv.over:
            said = t("sk.match.last_round", lang, n=mv.round_number, text=said)
        lines.append(Text("■ " + said, style="dim" if mv.over else "bold", end=""))
    viewer = rv.viewer
    if viewer is None or rv.your_card is None:
        lines.append(Text(t("sk.own.spectator", lang), style="italic", end=""))
        return lines
    me = rv.seats[viewer]
    lines.append(_you_line(rv, lang))
    lines.append(Text(t(f"sk.brief.{rv.your_card}", lang), style="italic", end=""))
    if not me.alive:
        lines.append(Text(t("sk.own.dead", lang), style="bold", end=""))
    elif rv.phase != "over":  # a round's marks end with it: no prison or tiredness is left to say
        if me.detained:
            lines.append(Text(t("sk.status.detained", lang), style="bold", end=""))
        if me.captured:
            lines.append(Text(t("sk.status.captured", lang), style="bold", end=""))
        if me.exhausted:
            lines.append(Text(t("sk.status.exhausted", lang), style="bold", end=""))
        if legal_keys:
            lines.append(Text(t("sk.own.now_keys", lang, keys=legal_keys), end=""))
        else:
            lines.append(Text(t("sk.own.nothing", lang), style="dim", end=""))
    return lines


def legend_lines(lang: Lang, *, watching: bool = False) -> list[Text]:
    """The signs of the ring; a spectator has no private lines, so not their sign."""
    keys = ("sk.legend", "sk.legend.tokens") if watching else ("sk.legend", "sk.legend.tokens", "sk.legend.private")
    return [Text(t(k, lang), style="dim", end="") for k in keys]


def _seat_key(seat: int | None) -> int:
    return 999 if seat is None else seat


def round_result(rv: RoundView, number: int, namer: Namer, lang: Lang, *, heading: bool = True) -> Text:
    """Round end: every card, who won and why, points per seat, where the cards went.
    ``heading=False`` where a title above already names the round (the results dialog)."""
    out = Text(end="")
    o = rv.outcome
    if heading:
        out.append(t("sk.end.title", lang, n=number) + "\n", style="bold underline")
    if o is None:
        return out
    reason = t(f"sk.reason.{o.reason}", lang)
    if o.winner is not None:
        line = Text(t("sk.end.winner", lang, side=side_name(o.winner, lang), reason=reason) + "\n", style="bold", end="")
        line.highlight_words([side_name(o.winner, lang)], "blue" if o.winner == "loyalists" else "red")
        out.append_text(line)
    else:
        out.append(t("sk.end.nowinner", lang, reason=reason) + "\n", style="bold")
    out.append(t("sk.end.points", lang) + "\n", style="underline")
    for s in range(rv.players):
        card = o.cards[s] if s < len(o.cards) else None
        alive = o.alive[s] if s < len(o.alive) else True
        revealed = o.revealed[s] if s < len(o.revealed) else False
        state = t("sk.end.dead" if not alive else ("sk.end.revealed" if revealed else "sk.end.hidden"), lang)
        pts = o.points.get(s, 0)
        out.append(f"{pts:>2} ", style="bold" if pts else "dim")
        out.append(namer.seat(s) + " ")
        if card is not None:
            out.append_text(card_text(card, lang))
        out.append(f" {state}\n", style="dim")
    if o.spare is not None:
        out.append("   " + t("sk.spare", lang) + " ")
        out.append_text(card_text(o.spare, lang))
        out.append("\n")
    out.append(t("sk.end.trails", lang) + "\n", style="underline")
    trails = sorted(o.trails, key=lambda tr: (tr.card != "sultan", tr.card, _seat_key(tr.steps[0].seat if tr.steps else None)))
    for tr in trails:
        out.append_text(card_text(tr.card, lang))
        out.append(t("punct.colon", lang))
        parts: list[str] = []
        for k, step in enumerate(tr.steps):
            where = namer.seat(step.seat)
            parts.append(where if k == 0 else t("sk.end.trail_step", lang, turn=step.turn, where=where))
        out.append(" → ".join(parts) + "\n")
    return out


def match_winner_line(mv: MatchView, namer: Namer, lang: Lang) -> Text:
    """The match's result in one line: who won it, with how many points (S-MATCH-1)."""
    total = max(mv.totals) if mv.totals else 0
    key = "sk.match.champions" if len(mv.winners) > 1 else "sk.match.champion"
    return Text(t(key, lang, names=namer.seats(mv.winners), total=total), style="bold reverse", end="")


def standings_line(mv: MatchView, namer: Namer, lang: Lang) -> Text:
    """Every seat's place and total, best first ("1. alice 7 · 2. Bot 2 5 · …");
    equal totals share a place, a winner of the tie-break first."""
    winners = set(mv.winners)
    order = sorted(range(mv.players), key=lambda s: (s not in winners, -mv.totals[s], s))
    items: list[str] = []
    place = 0
    for i, s in enumerate(order):
        earlier = order[i - 1] if i else None
        if earlier is None or mv.totals[earlier] != mv.totals[s] or (earlier in winners) != (s in winners):
            place = i + 1
        items.append(f"{place}. {namer.name(s)}{t('punct.colon', lang).strip()}{mv.totals[s]}")  # "Bot 4: 6"
    return Text(t("sk.match.standings", lang, list=" · ".join(items)), style="bold", end="")


MATCH_NAME_MIN = 8
"""Cells a name keeps in a narrow score table before earlier rounds give way."""


def match_table(
    mv: MatchView, namer: Namer, lang: Lang, title: str = "sk.match.title", *, width: int | None = None, **params: object
) -> Text:
    """The score table over the rounds played, winners and the tie-break
    explained once the match is over, its rows then in standing order
    (``title``: the table's heading key). Within ``width`` cells: names are cut
    first (to :data:`MATCH_NAME_MIN`), then the earliest rounds give way to
    "…" (a row never wraps: at 60x20 its total went to the next line)."""
    out = Text(end="")
    out.append(t(title, lang, **params) + "\n", style="bold underline")
    name_w = max([cell_len(namer.seat(s)) for s in range(mv.players)] + [4])
    name_w = min(name_w, 18)
    total = t("sk.match.total", lang)
    tail_w = 2 + max(3, cell_len(total))  # "  Total" over "    7"
    cols = [t("sk.match.round_col", lang, n=r.number) for r in mv.history]  # "R3", "3局"
    col_w = max([4, *(cell_len(c) + 1 for c in cols)])
    history = list(mv.history)
    gap = ""  # " …" where earlier rounds are left out
    if width is not None:
        room = width - 2 - tail_w
        if name_w + col_w * len(cols) > room:
            name_w = max(min(name_w, MATCH_NAME_MIN), room - col_w * len(cols))
        if name_w + col_w * len(cols) > room:
            gap = " …"
            keep = max(0, (room - name_w - len(gap)) // col_w)
            cols, history = cols[len(cols) - keep :] if keep else [], history[len(history) - keep :] if keep else []
    head = Text(" " * (name_w + 2) + gap, style="bold", end="")
    for col in cols:
        head.append(" " * (col_w - cell_len(col)) + col)
    head.append(" " * (tail_w - cell_len(total)) + total + "\n")
    out.append_text(head)
    winners = set(mv.winners)
    # once the match is over, its standing: winners first, then by total (the
    # rows a small pane shows are the ones that matter); before, seat order
    seats = sorted(range(mv.players), key=lambda s: (s not in winners, -mv.totals[s], s)) if mv.over else range(mv.players)
    for s in seats:
        star = "★" if s in winners else " "
        label = namer.seat(s)
        row = Text(f"{star} ", style="bold", end="")
        row.append(fit(label, name_w), style="bold" if s in winners else "")
        row.append(gap, style="dim")
        for r in history:
            p = r.points[s] if s < len(r.points) else 0
            row.append(f"{p:>{col_w}}", style="bold" if p == 2 else ("" if p else "dim"))
        row.append(f"{mv.totals[s]:>{tail_w}}\n", style="bold reverse" if s in winners else "bold")
        out.append_text(row)
    tb = mv.tiebreak
    if tb is not None:
        names = namer.seats(tb.winners)
        out.append(t(winners_key(tb.winners), lang, names=names) + "\n", style="bold")
        out.append(t(f"sk.tb.{tb.code}", lang, names=names, total=tb.total, round=tb.round if tb.round is not None else "") + "\n")
    return out


def known_cards_of_view(mv: MatchView) -> set[str]:
    """Every card value a seat's view mentions (for the leak tests)."""
    rv = mv.round
    out: set[str] = set()
    if rv.your_card:
        out.add(rv.your_card)
    if rv.spare_card:
        out.add(rv.spare_card)
    for s in rv.seats:
        if s.card:
            out.add(s.card)
    for n in rv.notes:
        out.add(n.card)
    for ev in rv.log:
        if ev.card:
            out.add(ev.card)
        out.update(ev.cards)
    if rv.outcome is not None:
        out.update(rv.outcome.cards)
        if rv.outcome.spare:
            out.add(rv.outcome.spare)
        out.update(tr.card for tr in rv.outcome.trails)
    for r in mv.history:
        out.update(r.cards)
        out.add(r.spare)
    return out


__all__ = [
    "card_str",
    "centre_lines",
    "known_cards_of_view",
    "match_table",
    "match_winner_line",
    "round_result",
    "seat_box_lines",
    "standings_line",
]
