"""The Kill the Overlord table: the screen a seat (or a spectator) plays on.

Found by :func:`tui.tables.table_screen_for` for game id ``"overlord"``.

Layout (top to bottom): a header line (round, phase, coronation threshold,
countdown); the seats in order (role and rank, gold, hand size, the order's
holder, execution tokens, connection) beside your hand (each card's effect in
words and, while you may play it, the seats it reaches); the order's path
this phase; a prompt of up to four lines (the open decision or window, the
same text for everyone asked; your options; the choice being made); the log,
the last role exchange step by step, or the result, beside the room chat;
the key bar.

Keyboard first: a key per legal action kind (:data:`~tui.overlord.pick.KIND_KEYS`),
then a card or seat by number or arrows, Enter sends, Escape backs out.
Clicking a seat or a card starts or completes a choice. Only actions in
``room.legal()`` are offered, and only what the player confirms is sent.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal

from engine.overlord.notation import Action
from engine.overlord.views import Event, OverlordView, SeatView
from protocol.contract import RoomClient, SeatInfo, WhyNote, seat_index, seat_number
from protocol.i18n import Lang, game_title, level_name
from tui.overlord.help import OverlordHelp
from tui.overlord.pick import KIND_KEYS, KIND_ORDER, Picker, Value, kind_for_key, parse_legal
from tui.overlord.widgets import HandPanel, SeatsPanel
from tui.overlord.words import (
    Namer,
    card_str,
    describe,
    describe_action,
    effect_str,
    event_text,
    fee_note,
    outcome_reason,
    restated,
    revolt_note,
    role_str,
)
from tui.table_common import CHOICE_GAP, GameTableScreen, choice_window, picker_head
from tui.text import MEASURE, clip, fit_head
from tui.widgets import ChatPanel, KeyBar, LineStatic, PaneBox, TailLog

LETTERS = sorted(set(KIND_KEYS.values()))
PANES = ("log", "exchange", "result")
KEY_EVENTS = frozenset({"execute", "actor", "revolt", "revolution", "uprising-resolves", "game-over", "exchange"})
"""Log events that change the game (a death, the ruler's role moving, the game's end): they stand
out in the log and show in the banner above it."""
_RESULT_KINDS = frozenset({"execute", "actor", "revolution", "uprising-resolves", "order-phase-end", "game-over"})
"""The log lines that say how a round ended (its result, with the role exchange)."""
# the prompt kinds the status line names (``ov.win.<kind>``); the rest read as a plain decision
_WINDOW_KINDS = frozenset({
    "plead", "retaliate", "coercion", "conspire", "victimize", "captain", "truant", "substitute", "advisor",
    "levy", "name", "show", "gift",
})
# of those, the ones that ask one seat: its actor, or its target (``ov.win.<kind>.you`` for that seat)
_ACTOR_ASKED = frozenset({"truant", "substitute", "levy", "name", "show", "gift"})
_TARGET_ASKED = frozenset({"coercion", "victimize", "captain"})


def pad(text: str, width: int) -> str:
    """``text`` cut or padded to ``width`` terminal cells (CJK counts 2)."""
    return set_cell_size(text, width)


NAME_MIN = 6
"""A seat row's name column is cut no shorter than this before the state column goes."""
NAME_SHORT = 5
"""Names are cut to this before roles are cut further ("bob *", "Bot 1" whole)."""
NAME_LEAST = 3
ROLE_LEAST = 5
"""The role column at its shortest: a letter or two of the role and its rank ("Ad… 7")."""
STATE_MIN = 4


def seat_columns(
    room: int, name_full: int, role_full: int, state_needs: list[int], role_least: int
) -> tuple[int, int, int]:
    """Widths of a seat row's name, role and state columns (0: no state
    column) in ``room`` cells, what is left beside the seat's mark and number,
    its gold and hand, which are never cut (gold is how the game is won).
    ``state_needs``: the state column's widths, whole first, then with the
    game's marks alone (who holds the order, who is dead). Names shorten
    first, then who plays a seat, then the state column goes (the mark
    column still shows who holds the order), and last names and roles shorten
    as far as ``NAME_LEAST`` and ``role_least``."""
    tries = [(need, NAME_MIN, role_full) for need in state_needs]
    tries += [(0, NAME_MIN, role_full), (0, NAME_SHORT, role_least), (0, NAME_LEAST, role_least)]
    for state_w, name_min, role_min in tries:
        name_min = min(name_min, name_full)
        both = room - 1 - (1 + state_w if state_w else 0)  # name and role, a space between them
        role_w = min(role_full, both - name_min)
        if role_w >= role_min:
            return min(name_full, both - role_w), role_w, state_w
    return min(name_full, NAME_LEAST), role_least, 0


def short_role(name: str, rank: int, width: int) -> str:
    """A role and its rank in ``width`` cells: the name cut, the rank whole."""
    text = f"{name} {rank}"
    if cell_len(text) <= width:
        return text
    return clip(name, max(1, width - 1 - len(str(rank)))) + f" {rank}"


@functools.lru_cache(maxsize=512)
def _effect_lines(card: str, lang: Lang, width: int) -> int:
    """How many lines a card's effect wraps to at ``width`` (every update of every screen asks)."""
    return len(Text(effect_str(card, lang)).wrap(MEASURE, width))


class Table(GameTableScreen[Picker]):
    """A seat's (or a spectator's) Kill the Overlord table."""

    CSS_PATH = "table.tcss"
    PREFIX = "ov"
    COUNTDOWN_ID = "ov-countdown"
    COUNTDOWN_TEXT = "ov.countdown"
    HOME = SeatsPanel
    AUTO_FOCUS = "SeatsPanel"  # focused as composed: focusing it after the first frame drew the screen again
    PANES = PANES
    KIND_KEYS = KIND_KEYS
    HELP_KEY = ("F1", "overlord_help", "key.help")

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(k, f"key('{k}')", show=False) for k in LETTERS),
        Binding("left", "key('left')", show=False),  # in a levy: a gold back; elsewhere as up
        Binding("right", "key('right')", show=False),  # in a levy: a gold more; elsewhere as down
        Binding("f1", "overlord_help", show=False),
    ]

    def __init__(self, room: RoomClient) -> None:
        super().__init__(room)
        self.ov: OverlordView | None = None
        self.by_kind: dict[str, list[Action]] = {}
        self._log_viewer: int | None = -1
        self._log_last = -1  # the last event number written to the log
        self._result_shown = False

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Horizontal(id="ov-top"):
            yield LineStatic("", id="ov-head", markup=False)
            yield LineStatic("", id="ov-countdown", markup=False)
        with Horizontal(id="ov-mid"):
            yield SeatsPanel(id="ov-seats")
            yield HandPanel(id="ov-hand")
        yield LineStatic("", id="ov-path", markup=False)
        yield LineStatic("", id="ov-prompt", markup=False, pack=(" · ",), fit=True)
        with Horizontal(id="ov-bottom"):
            with PaneBox(id="ov-pane-box"):
                yield LineStatic("", id="ov-pane-title", markup=False)
                yield TailLog(id="ov-log", max_lines=2000, wrap=True, markup=False, min_width=10)
            yield ChatPanel(id="ov-chat")
        yield KeyBar()

    def namer(self) -> Namer:
        viewer = None if self.watching or self.ov is None else self.ov.me
        return Namer(self.names, viewer, self.lang)

    # --------------------------------------------------------------- refresh
    def apply_lang(self) -> None:
        self._log_viewer = -1  # re-phrase the log
        super().apply_lang()

    def update_table(self) -> None:
        snap = self.snap
        assert snap is not None
        view = self.room.view()
        self.names = self.seat_names(snap)
        if not isinstance(view, OverlordView):
            self.ov = None
            self._update("#ov-head", Text(self.tr("ov.no_view")))
            return
        self.ov = view
        self._size_mid(view)
        self.legal = [] if self.watching or snap.state != "playing" else self.room.legal()
        self.by_kind = parse_legal(self.legal)
        self._keep_picker()
        pr = view.prompt
        decision = (view.round, view.phase, view.transfers, pr.kind if pr else None, pr.actor if pr else None, tuple(pr.owed) if pr else ())
        if decision != self._decision:
            self._decision = decision
            self.message = Text("")  # "Sent: ..." belongs to the decision it answered
        self.note_timeout()
        if view.outcome is not None and not self._result_shown:
            self._result_shown = True
            self.pane = "result"
        self._render_all()

    def _size_mid(self, view: OverlordView) -> None:
        """The seats/hand band: the seats, or the hand with its effects when the
        screen is tall enough (each effect as many lines as it wraps to at the
        panel's width: at 120x40 the fourth card's went unsaid above 15 empty
        lines of log)."""
        # the panel's width, or before its first layout what table.tcss makes it (40%, 32-56, padding 1):
        # a guess that wrapped the effects otherwise changed the band's height a frame later
        known = self.query_one(HandPanel).content_size.width
        width = max(10, (known or min(56, max(32, self.app.size.width * 40 // 100)) - 2) - 2)
        hand = 1 + sum(1 + _effect_lines(c, self.lang, width) for c in view.hand or [])
        hand += 2 * sum(1 for sv in view.seats if sv.shown is not None)
        # (as many lines as with no state column: its marks are said below the seats then)
        info = len(self._info_lines(view, self.namer(), self.query_one(SeatsPanel).content_size.width or 46, marked=False))
        want = max(view.players + 1 + info, min(hand, self.app.size.height - 16))
        mid = self.query_one("#ov-mid")
        if mid.styles.height is None or mid.styles.height.value != want:
            mid.styles.height = want

    def on_resize(self) -> None:
        if self.ov is not None:
            self._size_mid(self.ov)
            self.call_after_refresh(self._render_all)

    def on_sized(self) -> None:
        super().on_sized()
        if self.ov is not None:  # made at a provisional width
            self._render_head(self.ov)
            self._render_seats(self.ov)
            self._render_hand(self.ov)

    def on_lines_panel_resized(self, event: SeatsPanel.Resized) -> None:
        event.stop()
        if self.ov is not None:
            self._render_seats(self.ov)
            self._render_hand(self.ov)

    def _render_all(self) -> None:
        ov = self.ov
        if ov is None or self.covered():
            return
        self._render_head(ov)
        self._render_seats(ov)
        self._render_hand(ov)
        self._render_path(ov)
        self._render_prompt(ov)
        self._render_pane(ov)
        self.query_one(ChatPanel).set_lines(self.room.chat_lines())
        self._tick()
        self.refresh_keys()

    # ------------------------------------------------------------------ head
    def _render_head(self, ov: OverlordView) -> None:
        namer = self.namer()
        parts = [
            game_title("overlord", self.lang, short=True),
            self.tr("ov.head.round", n=ov.round, of=ov.round_limit),
        ]
        if namer.viewer is None:
            parts.append(self.tr("ov.head.watching"))
        else:
            parts.append(self.tr("ov.head.you", who=self.tr("ov.seat", name=namer.name(namer.viewer), n=seat_number(namer.viewer))))
        parts += [self.tr(f"ov.phase.{ov.phase}"), self.tr("ov.head.crown", gold=ov.coronation)]  # these go first when narrow
        head = fit_head(parts, self.query_one("#ov-head").size.width)
        self._update("#ov-head", Text(head, no_wrap=True, overflow="ellipsis", end=""))

    # ----------------------------------------------------------------- seats
    def _seat_state(self, sv: SeatView, info: SeatInfo | None, ov: OverlordView, *, whole: bool = True) -> str:
        """The seat's state column: the game's marks (won, executed, holds the
        order), then with ``whole`` who plays it (a bot, away, the room's autoplay)."""
        parts: list[str] = []
        if ov.outcome is not None and ov.outcome.winner == sv.seat:
            parts.append(self.tr("ov.state.winner"))
        if not sv.alive:
            parts.append(self.tr("ov.state.dead", token=sv.token if sv.token is not None else "?"))
        elif sv.holds_order:
            parts.append(self.tr("ov.state.order"))
        if info is not None and info.left:  # whole or not: whether its player is still at the table
            parts.append(self.tr("ov.state.left"))
        elif info is not None and info.kind == "human" and info.away:
            parts.append(self.tr("ov.state.standin"))
        elif info is not None and whole:
            if info.kind == "bot":
                parts.append(self.tr("ov.state.bot"))
                if info.level is not None:
                    parts.append(level_name(info.level, self.lang))
            elif info.kind == "human" and info.autoplay:
                parts.append(self.tr("ov.state.auto"))
            elif info.kind == "human" and not info.connected:
                parts.append(self.tr("ov.state.offline"))
        return " ".join(parts)

    def _info_lines(self, ov: OverlordView, namer: Namer, width: int, *, marked: bool = True) -> list[str]:
        """The deck, the discard, the centre's roles, a ban, an uprising: " · "
        between them, a new line where the next one would not fit (the uprising
        was cut to "暴動：B…" beside the centre's roles). Without ``marked`` (the
        seat rows have no state column) also the seats a stand-in bot plays and
        those whose players left the match: every screen shows them."""
        parts = [self.tr("ov.info", deck=ov.deck_size, discard=len(ov.discard))]
        seats = self.snap.seats if self.snap is not None and not marked and ov.phase != "over" else []
        for key, seated in (("ov.info.standin", [s.index for s in seats if s.away]),
                            ("ov.info.left", [s.index for s in seats if s.left])):
            if seated:
                parts.append(self.tr(key, names=self.tr("punct.list").join(namer.seat(i) for i in seated)))
        if ov.centre:
            parts.append(self.tr("ov.info.centre", roles=self.tr("punct.list").join(role_str(r, self.lang) for r in ov.centre)))
        over = ov.phase == "over"  # a ban or an uprising of the last round is nothing now (it stayed on the result)
        if ov.banned and not over:
            parts.append(self.tr("ov.info.banned", card=card_str(ov.banned, self.lang)))
        if ov.uprising_by is not None and not over:
            parts.append(self.tr("ov.info.uprising", by=namer.seat(ov.uprising_by), named=namer.seat(ov.uprising_named)))
        lines = [parts[0]]
        for part in parts[1:]:
            if cell_len(lines[-1]) + 3 + cell_len(part) <= width:
                lines[-1] += " · " + part
            else:
                lines.append(part)
        return lines

    def _render_seats(self, ov: OverlordView) -> None:
        namer = self.namer()
        seats_info = self.snap.seats if self.snap is not None else []
        width = self.query_one(SeatsPanel).content_size.width or 46
        roles = {sv.seat: f"{role_str(sv.role, self.lang)} {sv.rank}" for sv in ov.seats}
        role_w = max(cell_len(self.tr("ov.col.role")), *(cell_len(r) for r in roles.values()))  # "Tax Collector 5": 15
        names = {sv.seat: namer.name(sv.seat) for sv in ov.seats}
        longest = max(cell_len(self.tr("ov.col.name")), *(cell_len(n) + 2 * (i == namer.viewer) for i, n in names.items()))
        gold_h, hand_h = self.tr("ov.col.gold"), self.tr("ov.col.hand")
        gold_w = hand_w = max(4, cell_len(gold_h), cell_len(hand_h))
        if 4 + min(6, longest) + 1 + role_w + 1 + gold_w + 1 + hand_w > width:  # narrow: keep the numbers whole
            gold_h, hand_h = self.tr("ov.col.gold_short"), self.tr("ov.col.hand_short")
            gold_w = max(cell_len(gold_h), *(len(str(sv.gold)) for sv in ov.seats))
            hand_w = max(cell_len(hand_h), *(len(str(sv.hand_size)) for sv in ov.seats))
        infos = {sv.seat: seats_info[sv.seat] if sv.seat < len(seats_info) else None for sv in ov.seats}
        states = {sv.seat: self._seat_state(sv, infos[sv.seat], ov) for sv in ov.seats}
        marks = {sv.seat: self._seat_state(sv, infos[sv.seat], ov, whole=False) for sv in ov.seats}
        name_w, role_w, state_w = seat_columns(
            width - 4 - 1 - gold_w - 1 - hand_w,
            min(14, longest),
            role_w,
            [max(STATE_MIN, cell_len(self.tr("ov.col.state")), *(cell_len(v) for v in states.values())),
             max(STATE_MIN, *(cell_len(v) for v in marks.values()))],
            min(ROLE_LEAST, role_w),
        )
        state = state_w > 0  # else no state column: the mark column says who holds the order, who is dead
        if state_w and any(cell_len(v) > state_w for v in states.values()):
            states = marks  # who plays a seat goes before the order's mark is cut ("◆order b…")
        p = self.picker
        cands = p.seat_candidates() if p is not None else set()
        current = p.current() if p is not None and p.step in ("seat", "levy") else None
        head = Text(
            "  # " + pad(self.tr("ov.col.name"), name_w) + " " + pad(self.tr("ov.col.role"), role_w)
            + " " + pad(gold_h, gold_w) + " " + pad(hand_h, hand_w) + (" " + self.tr("ov.col.state") if state else ""),
            style="dim", no_wrap=True, overflow="ellipsis", end="",
        )
        lines: list[Text] = [head]
        values: list[object] = [None]
        for sv in ov.seats:
            i = sv.seat
            mark = "▶" if sv.holds_order and sv.alive else ("♔" if sv.is_ruler and ov.phase != "over" else " ")
            if not sv.alive and not state:
                mark = "†"
            name = names[i] if i != namer.viewer else clip(names[i], name_w - 2) + " *"  # the mark kept when cut
            role = short_role(role_str(sv.role, self.lang), sv.rank, role_w)
            line = Text(no_wrap=True, overflow="ellipsis", end="")
            line.append(f"{mark} {seat_number(i)} ")
            line.append(pad(name, name_w), style="bold" if i == namer.viewer else "")
            line.append(" " + pad(role, role_w), style="bold" if sv.is_ruler else "")
            line.append(" " + pad(str(sv.gold), gold_w) + " " + pad(str(sv.hand_size), hand_w))
            if state:
                line.append(" " + states[i])
            if p is not None and p.step == "seat":
                if i == current:
                    line.stylize("reverse")
                elif i in cands:
                    line.stylize("underline")
                else:
                    line.stylize("dim")
            elif not sv.alive:
                line.stylize("dim")
            lines.append(line)
            values.append(i)
        for fact in self._info_lines(ov, namer, width, marked=state):
            lines.append(Text(fact, style="dim", no_wrap=True, overflow="ellipsis", end=""))
            values.append(None)
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        self.query_one(SeatsPanel).set_lines(lines, values)

    # ------------------------------------------------------------------ hand
    def _play_targets(self) -> dict[str, list[int]]:
        """Seats each card reaches now, from the legal actions (holder's turn)."""
        out: dict[str, list[int]] = {}
        for a in self.by_kind.get("play", []):
            if a.card is None:
                continue
            seats = out.setdefault(a.card, [])
            if a.seat is not None and a.seat not in seats:
                seats.append(a.seat)
        return out

    def _render_hand(self, ov: OverlordView) -> None:
        namer = self.namer()
        panel = self.query_one(HandPanel)
        width = panel.content_size.width or 34
        rows = panel.content_size.height or 9
        lines: list[Text] = []
        values: list[object] = []
        shown: list[Text] = []  # hands the Soothsayer made public (wrapped: every card matters)
        for sv in ov.seats:
            if sv.shown is not None:
                cards = " ".join(card_str(c, self.lang) for c in sv.shown.cards) or self.tr("ov.hand.empty")
                text = self.tr("ov.hand.shown", who=namer.seat(sv.seat), cards=cards)
                text += " " + self.tr("ov.hand.stale") if sv.shown.stale else ""
                shown.extend(Text(text, style="italic").wrap(self.app.console, max(10, width)))
        if ov.hand is None or ov.me is None:
            lines.append(Text(self.tr("ov.hand.watching"), style="dim", end=""))
            values.append(None)
        else:
            me = ov.seats[ov.me]
            limit = me.hand_limit
            title = (
                self.tr("ov.hand.title", n=len(ov.hand), limit=limit)
                if limit is not None
                else self.tr("ov.hand.title_nolimit", n=len(ov.hand))
            )
            lines.append(Text(title, style="bold", no_wrap=True, overflow="ellipsis", end=""))
            values.append(None)
            if not ov.hand:
                lines.append(Text(self.tr("ov.hand.empty"), style="dim", end=""))
                values.append(None)
            targets = self._play_targets()
            reactive = {a.verb for kind in ("retaliate", "plead") for a in self.by_kind.get(kind, [])}
            card_kinds = {a.card for kind in ("give_card", "discard", "give", "substitute", "outlaw") for a in self.by_kind.get(kind, [])}
            turn = ov.prompt is not None and ov.prompt.kind == "turn" and ov.me in ov.prompt.owed
            # the card, then its effect in words while there is room (playable cards first)
            spare = rows - 1 - len(ov.hand) - (1 if not ov.hand else 0) - len(shown)
            useful = [c for c in ov.hand if c in targets or c in reactive or c in card_kinds]
            explain: dict[str, list[Text]] = {}
            for c in [*useful, *ov.hand]:
                if c in explain or spare <= 0:
                    continue
                wrapped = list(Text(effect_str(c, self.lang)).wrap(self.app.console, max(10, width - 2)))
                kept = wrapped[: max(1, min(len(wrapped), spare))]
                if len(kept) < len(wrapped):  # cut short: its last line says so
                    last = kept[-1] + wrapped[len(kept)]
                    last.truncate(max(10, width - 2), overflow="ellipsis")
                    kept[-1] = last
                explain[c] = kept
                spare -= len(explain[c])
            p = self.picker
            current = p.current() if p is not None and p.step == "card" else None
            pcands = p.candidates() if p is not None and p.step == "card" else []
            for n, c in enumerate(ov.hand, 1):
                line = Text(no_wrap=True, overflow="ellipsis", end="")
                line.append(f"{n} ")
                line.append(card_str(c, self.lang), style="bold")
                if c in targets:
                    tg = targets[c]
                    line.append(" " + (self.tr("ov.hand.targets", seats=" ".join(str(seat_number(s)) for s in tg)) if tg else self.tr("ov.hand.now")))
                elif c in reactive:
                    line.append(" " + self.tr("ov.hand.now"))
                elif c in card_kinds:  # to discard or give, not to play
                    line.append(" " + self.tr("ov.hand.pick"))
                elif turn:
                    why = "ov.hand.banned" if c == ov.banned else "ov.hand.not_now"  # (the Bureaucrat's ban said nothing)
                    line.append(" " + self.tr(why), style="dim")
                if p is not None and p.step == "card":
                    if c == current:
                        line.stylize("reverse")
                    elif c not in pcands:
                        line.stylize("dim")
                lines.append(line)
                values.append(c)
                for eline in explain.pop(c, []):  # once per card name
                    eline.stylize("dim italic")
                    lines.append(Text("  ", end="") + eline)
                    values.append(c)
            if len(lines) + len(shown) < rows:
                role = ov.seats[ov.me]
                lines.append(
                    Text(
                        self.tr("ov.hand.role", role=role_str(role.role, self.lang), rank=role.rank, income=role.income),
                        style="dim", no_wrap=True, overflow="ellipsis", end="",
                    )
                )
                values.append(None)
        for sline in shown:
            lines.append(sline)
            values.append(None)
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        panel.set_lines(lines, values)

    # ------------------------------------------------------------------ path
    def _render_path(self, ov: OverlordView) -> None:
        namer = self.namer()
        path = self.query_one("#ov-path")
        if path.display != (ov.outcome is None):  # over: its row goes to the result below
            path.display = ov.outcome is None
        if not ov.path or ov.phase != "order":
            if ov.phase == "order":
                self._update("#ov-path", Text(self.tr("ov.path.none"), style="dim", end=""))
            else:
                self._update("#ov-path", Text("", end=""))
            return
        steps: list[str] = []
        for st in ov.path:
            how = card_str(st.card, self.lang) if st.card else self.tr(f"ov.path.how.{st.how}")
            steps.append(f"={how}⇒ {namer.name(st.seat)}")
        width = self.query_one("#ov-path").size.width or 78
        head = self.tr("ov.path") + self.tr("punct.colon")  # "Order: ", "指示物："
        body = " ".join(steps)
        while cell_len(head + body) > width and len(steps) > 1:
            steps.pop(0)
            body = "… " + " ".join(steps)
        self._update("#ov-path", Text(head + body, no_wrap=True, overflow="ellipsis", end=""))

    # ---------------------------------------------------------------- prompt
    def _render_prompt(self, ov: OverlordView) -> None:
        namer = self.namer()
        me = namer.viewer
        lines: list[Text] = [self._status_line(ov, namer, me)]
        pr = ov.prompt
        if ov.outcome is not None:  # the game's (the match's) result: who won, with what, everyone's gold
            lines.append(self._standings_line(ov, namer))
            if self.is_host:
                lines.append(Text(self.tr("ov.status.over_host"), end=""))
            elif self.watching:
                lines.append(Text(self.tr("ov.status.over_watching"), end=""))
            else:  # what comes next, and what this player can do now (issue 44 item 6)
                lines.append(Text("■ " + self.tr("ov.status.over_wait"), style="bold", end=""))
                lines.append(Text(self.tr("ov.status.over_you"), end=""))
        if self.picker is not None:
            lines.extend(self._picker_lines(namer))
        elif pr is not None and me is not None and self.nothing_to_answer():  # the room passes for it (K-ORD-11)
            lines.append(Text(self.tr("ov.win.nothing"), style="dim", end=""))
        elif pr is not None and me is not None and len(pr.asked) > 1:
            # a window: the same text for every seat asked; options only for what it holds
            kept = self.answer_kept(me in pr.asked, me not in pr.owed)
            if me in pr.asked and me in pr.owed and not kept:
                lines.append(self._options_line(self._kinds()))
            elif me in pr.asked:
                lines.append(Text(self.tr("ov.win.answered_quick" if self.quick_windows else "ov.win.answered"), style="dim", end=""))
            else:
                lines.append(Text(self.tr("ov.win.not_asked"), style="dim", end=""))
        elif self._kinds() and me is not None:
            lines.append(self._options_line(self._kinds()))
        if self.message.plain:
            lines.append(self.message)
        self.fit_prompt("#ov-prompt", len(lines), over=ov.outcome is not None)
        self._update("#ov-prompt", Text("\n", end="").join(lines[:4]))  # fitted by the widget

    def _options_line(self, kinds: list[str]) -> Text:
        out = Text(self.tr("ov.pick.options") + " ", style="bold", end="")
        for k in kinds:
            out.append(f" {KIND_KEYS[k]} ", style="reverse bold")
            out.append(" " + self.tr(self._kind_label(k)) + "  ")
        return out

    def _status_line(self, ov: OverlordView, namer: Namer, me: int | None) -> Text:
        if ov.outcome is not None:
            o = ov.outcome
            return Text(
                self.tr("ov.status.over", who=namer.seat(o.winner), gold=o.gold[o.winner]),
                style="bold reverse", end="",
            )
        pr = ov.prompt
        if me is not None and not ov.seats[me].alive and (pr is None or me not in pr.asked):
            return Text(self.tr("ov.status.dead", token=ov.seats[me].token), style="bold", end="")
        if pr is None:
            return Text(self.tr("ov.status.idle"), style="dim", end="")
        mine = me is not None and me in pr.owed and not self.nothing_to_answer() and not self.answer_kept(me in pr.asked, False)
        actor = namer.seat(pr.actor)
        if pr.kind == "turn":
            if mine:
                only_die = set(self.by_kind) == {"die"}  # no card, no role to pass it with
                return Text(self.tr("ov.status.your_turn_die" if only_die else "ov.status.your_turn"), style="bold reverse", end="")
            return Text(self.tr("ov.status.turn_of", who=actor), end="")
        if pr.kind == "command":
            if mine:
                return Text(self.tr("ov.status.command"), style="bold reverse", end="")
            return Text(self.tr("ov.status.command_of", who=actor), end="")
        target = namer.seat(pr.target) if pr.target is not None else ""
        card = card_str(pr.card, self.lang) if pr.card else ""
        key = f"ov.win.{pr.kind}" if pr.kind in _WINDOW_KINDS else "ov.win.other"
        asked = pr.actor if pr.kind in _ACTOR_ASKED else pr.target if pr.kind in _TARGET_ASKED else None
        if mine and asked == me:
            key += ".you"  # "You may draw a card (Truant).": the one seat asked reads its own call
        to = ""
        if pr.kind == "retaliate" and pr.target is not None:  # Plead Guilty takes the order from its target
            to = self.tr("ov.win.from" if pr.card == "plead-guilty" else "ov.win.to", target=target)
        text = Text(self.tr(key, actor=actor, target=target, card=card, to=to, kind=pr.kind), style="bold", end="")
        if len(pr.asked) > 1 and not self.quick_windows:  # K-ORD-11: quick windows never say who still owes
            text.append("  · " + self.tr("ov.win.waiting", n=len(pr.owed), of=len(pr.asked)), style="")
        if mine:
            text.stylize("reverse")
        return text

    def _picker_lines(self, namer: Namer) -> list[Text]:
        p = self.picker
        assert p is not None
        if p.step != "confirm":
            to = self._conspire_to() if p.kind == "give" else None
            what = p.note or (
                self.tr("ov.pick.what.card_to", to=namer.seat(to)) if to is not None else self.tr(f"ov.pick.what.{p.step}")
            )
            keys = self.tr("ov.pick.confirm" if p.step == "levy" else "ov.pick.keys")  # a levy's keys are its what
            head = picker_head(self.tr(self._kind_label(p.kind)), what, keys, self.lang)
        else:
            head = picker_head(self.tr(self._kind_label(p.kind)), "", self.tr("ov.pick.confirm"), self.lang)
        lines = [head]
        if p.step != "confirm":
            choice = Text(no_wrap=True, overflow="ellipsis", end="")
            cands = p.candidates()
            labels = [self._cand_label(p.step, c, n, namer) for n, c in enumerate(cands, 1)]
            width = self.query_one("#ov-prompt").content_size.width or 80
            start, end = choice_window(labels, p.cursor, width)  # the one picked stays in view
            choice.append(" " + ("… " if start else ""))
            for n in range(start, end):
                choice.append(CHOICE_GAP if n > start else "")
                choice.append(labels[n], style="reverse bold" if cands[n] == p.current() else "")
            choice.append(" …" if end < len(labels) else "")
            lines.append(choice)
        preview = p.preview()
        if preview is not None:
            said = describe_action(preview, namer, self.lang)
            if self.ov is not None:  # what it costs or brings that the words of the action do not say
                notes = (fee_note(preview, self.ov, self.lang), revolt_note(preview, self.ov, self.lang))
                said += "".join(f" · {note}" for note in notes if note)
            lines.append(Text("⏎ " + said, style="italic", no_wrap=True, overflow="ellipsis", end=""))
        return lines

    def _conspire_to(self) -> int | None:
        """K-CARD-CONSPIRE: the player a card given on now goes to, the next
        living one from this seat in the Conspire's direction ("Give on: which
        card?" did not say to whom)."""
        ov = self.ov
        if ov is None or ov.me is None or ov.prompt is None or ov.prompt.kind != "conspire":
            return None
        said = next((e for e in reversed(ov.log) if e.kind == "conspire"), None)
        direction = said.params.get("direction") if said is not None else None
        if direction not in ("left", "right"):
            return None
        step, n = (1 if direction == "left" else -1), len(ov.seats)
        seat = ov.me
        for _ in range(n - 1):
            seat = (seat + step) % n
            if ov.seats[seat].alive:
                return seat
        return None

    def _why_not(self, p: Picker, n: int) -> str:
        """Why the number ``n`` picks nothing, where it can be said better than
        "2 is not a choice now": the card it numbers, banned or not playable
        now; the player's own seat. ``""``: nothing better to say."""
        ov = self.ov
        if ov is None:
            return ""
        if p.step == "card" and p.hand and 1 <= n <= len(p.hand):
            card = p.hand[n - 1]
            key = "ov.pick.banned" if card == ov.banned else "ov.pick.card_not_now"
            return self.tr(key, card=card_str(card, self.lang))
        if p.step == "seat" and seat_index(n) == ov.me:
            return self.tr("ov.pick.not_you")
        return ""

    def _cand_label(self, step: str, c: Value, n: int, namer: Namer) -> str:
        if step == "seat":
            return f"{seat_number(c)}={namer.name(c)}" if isinstance(c, int) else "—"
        if step == "card":
            p = self.picker
            if p is not None and p.hand and c in p.hand:
                n = p.hand.index(str(c)) + 1  # the number the hand panel shows
            return f"{n}={card_str(str(c), self.lang)}" if c is not None else f"{n}=—"
        if step == "direction":
            return f"{n}={self.tr('ov.dir.' + str(c))}"
        if step == "levy" and isinstance(c, int):  # a seat, and the gold taken from it so far
            p = self.picker
            gold = p.split.get(c, 0) if p is not None else 0
            return f"{seat_number(c)}={namer.name(c)}" + (f" +{gold}" if gold else "")
        return str(c)

    def _kinds(self) -> list[str]:
        return [k for k in KIND_ORDER if k in self.by_kind]

    def _kind_label(self, kind: str) -> str:
        """A pass to a decision that asks one seat (the Merchant's gift, the Truant's draw...)
        is "略過" (skip) in Chinese: "不回應" (no answer) is for the windows that ask many."""
        pr = self.ov.prompt if self.ov is not None else None
        if kind == "pass" and pr is not None and pr.kind in _ACTOR_ASKED:
            return "ov.key.skip"
        return super()._kind_label(kind)

    # ------------------------------------------------------------------ panes
    def _render_pane(self, ov: OverlordView) -> None:
        namer = self.namer()
        log = self.query_one("#ov-log", TailLog)
        self._render_log(ov, namer, log)
        pane = self.pane if self.pane != "result" or ov.outcome is not None else "log"
        title = Text(self.tr("ov.pane.title", pane=self.tr(f"ov.pane.{pane}")), style="bold", end="")
        self._update("#ov-pane-title", self._log_title(title, log) if pane == "log" else self._with_banner(title))
        if pane == "exchange":
            self._show_sheet(pane, self._exchange_text(ov.log, namer))
        elif pane == "result":
            self._show_sheet(pane, self._result_text(ov, Namer(self.result_names() or self.names, namer.viewer, self.lang)))
        else:
            self._show_sheet(None)

    def _exchange_text(self, events: list[Event], namer: Namer) -> Text:
        """The last role exchange, step by step (from the exchange events)."""
        last: list[Event] = []
        rnd = 0
        for ev in events:
            if ev.kind in ("exchange", "no-exchange"):
                if ev.round != rnd:
                    last, rnd = [], ev.round
                last.append(ev)
        if not last:
            return Text(self.tr("ov.exchange.none"), style="dim", end="")
        out = Text(self.tr("ov.exchange.title", n=rnd) + "\n", style="bold", end="")
        for i, ev in enumerate(last, 1):
            if ev.kind == "no-exchange":
                out.append(self.tr("ov.log.no-exchange") + "\n")
                continue
            p = ev.params
            seat = p.get("seat")
            who = namer.seat(seat if isinstance(seat, int) else None)
            took = role_str(str(p.get("took")), self.lang)
            if p.get("gave") is None:
                out.append(self.tr("ov.exchange.dead", i=i, who=who, took=took) + "\n")
            else:
                out.append(self.tr("ov.exchange.took", i=i, who=who, took=took, gave=role_str(str(p.get("gave")), self.lang)) + "\n")
        return out

    def _standings_line(self, ov: OverlordView, namer: Namer) -> Text:
        """Every seat's place by gold, the winner first (K-END-1, K-END-2)."""
        o = ov.outcome
        if o is None:
            return Text("", end="")
        order = sorted(range(len(o.gold)), key=lambda s: (s != o.winner, -o.gold[s], -ov.seats[s].rank))
        colon = self.tr("punct.colon").strip()  # "Bot 4: 6", not "Bot 4 6"
        items = [f"{i}. {namer.name(s)}{colon}{o.gold[s]}" for i, s in enumerate(order, 1)]
        # "by gold" alone read wrong under a winner with less gold (the last one alive: "1. alice:13 · 2. Bot 4:15")
        key = "ov.status.standings" if o.gold[o.winner] == max(o.gold) else "ov.status.standings.winner"
        return Text(self.tr(key, list=" · ".join(items)), style="bold", end="")

    # ---------------------------------------------------- results, whole log
    # A game is one match: its end is the result that stays. Its rounds flow on
    # by rule (K-RND-6, K-RND-7) and score nothing; each one's executions and
    # role exchange can be looked at again (F4).
    def live_result(self) -> int | None:
        ov = self.ov
        return ov.round if ov is not None and ov.outcome is not None else None

    def result_numbers(self) -> list[int]:
        ov = self.ov
        if ov is None:
            return []
        return list(range(1, ov.round + (1 if ov.outcome is not None else 0)))

    def result_title(self, number: int) -> str:
        ov = self.ov
        if ov is not None and ov.outcome is not None and number == ov.round:
            return self.tr("ov.results.game")
        return self.tr("ov.results.round", n=number)

    def result_body(self, number: int, width: int | None = None) -> Text:
        ov = self.ov
        out = Text(end="")
        if ov is None:
            return out
        namer = self.namer()
        if ov.outcome is not None and number == ov.round:
            out.append_text(self._result_text(ov, namer))
            out.append("\n\n")
        events = [ev for ev in self.room.round_log(number) if isinstance(ev, Event)]
        decisive = [ev for ev in events if ev.kind in _RESULT_KINDS and not restated(ev, namer.viewer)]
        if decisive:
            out.append(self.tr("ov.results.what", n=number) + "\n", style="bold underline")
            for ev in decisive:
                out.append_text(self._log_line(ev, namer))
                out.append("\n")
            out.append("\n")
        out.append_text(self._exchange_text(events, namer))
        return out

    def full_log(self) -> list[Text]:
        ov = self.ov
        if ov is None:
            return []
        namer = self.namer()
        make = self._log_item(namer)
        notes = self.why_notes()
        lines: list[Text] = []
        for number in range(1, ov.round + 1):
            events = [ev for ev in self.room.round_log(number) if isinstance(ev, Event)]
            if not events or events[0].kind != "round":
                lines.append(Text(self.tr("ov.log.round", n=number), style="bold"))
            items = self.with_why(number, events, 0, set(), notes)
            lines.extend(make(item) for item in items if isinstance(item, WhyNote) or not restated(item, namer.viewer))
        return lines

    def _result_text(self, ov: OverlordView, namer: Namer) -> Text:
        o = ov.outcome
        if o is None:
            return Text("")
        out = Text(
            self.tr("ov.result.title", who=namer.seat(o.winner), reason=outcome_reason(o, self.lang)) + "\n",
            style="bold", end="",
        )
        # the winner first (the ruler left alone can win with the least gold), then most gold
        order = sorted(range(len(o.gold)), key=lambda s: (s != o.winner, -o.gold[s], -ov.seats[s].rank))
        who_w = max(cell_len(namer.seat(s)) for s in order)
        roles = {s: f"{role_str(ov.seats[s].role, self.lang)} {ov.seats[s].rank}" for s in order}
        role_w = max(cell_len(r) for r in roles.values())
        for s in order:  # a CJK-aligned gold table
            out.append(
                self.tr(
                    "ov.result.row", mark="★" if s == o.winner else " ", who=pad(namer.seat(s), who_w),
                    role=pad(roles[s], role_w), gold=f"{o.gold[s]:>3}",
                ) + "\n"
            )
        left = self.left_line(namer.seat)
        if left is not None:
            out.append_text(left)
            out.append("\n")
        out.append(self.tr(
            "ov.result.again_host" if self.is_host else "ov.result.again_watch" if self.watching else "ov.result.again_wait"
        ), style="bold")
        return out

    def _render_log(self, ov: OverlordView, namer: Namer, log: TailLog) -> None:
        anew = self._log_viewer != namer.viewer
        if anew:
            log.clear()
            self._log_viewer = namer.viewer
            self._log_last = -1
            self._why_written = set()
            self._round_counts = {}
            # drawn anew: the rounds before the view's (it holds the last two)
            first = ov.log[0].round if ov.log else ov.round
            earlier = [ev for number in range(1, first) for ev in self.room.round_log(number) if isinstance(ev, Event)]
            self._write_log(log, earlier, namer)
        fresh = [ev for ev in ov.log if ev.n > self._log_last]
        self._write_log(log, fresh, namer)
        if not anew:
            self.note_events([self._log_line(ev, namer) for ev in fresh if ev.kind in KEY_EVENTS and not restated(ev, namer.viewer)])

    _round_counts: dict[int, int]  # events of each round written to the log (before restated ones are left out)

    def _with_why(self, fresh: list[Event], counts: dict[int, int], written: set[int]) -> list[Event | WhyNote]:
        """``fresh`` with this seat's why-lines after the events they follow
        (``counts``: each round's events before ``fresh``, updated)."""
        notes = self.why_notes()
        out: list[Event | WhyNote] = []
        by_round: dict[int, list[Event]] = {}
        for ev in fresh:
            by_round.setdefault(ev.round, []).append(ev)
        for number, events in by_round.items():
            start = counts.get(number, 0)
            out.extend(self.with_why(number, [*([events[0]] * start), *events], start, written, notes))
            counts[number] = start + len(events)
        return out

    def _write_log(self, log: TailLog, fresh: list[Event], namer: Namer) -> None:
        if fresh and self._log_last == -1 and fresh[0].kind != "round":
            log.write(Text(self.tr("ov.log.round", n=fresh[0].round), style="bold"))
        if self._why_written is None:
            self._why_written, self._round_counts = set(), {}
        items = self._with_why(fresh, self._round_counts, self._why_written)
        shown = [item for item in items if isinstance(item, WhyNote) or not restated(item, namer.viewer)]
        self.write_events(log, shown, namer.viewer, self._log_item(namer))
        if fresh:
            self._log_last = fresh[-1].n

    def _log_item(self, namer: Namer) -> Callable[[Event | WhyNote], Text]:
        return lambda item: self.why_line(item) if isinstance(item, WhyNote) else self._log_line(item, namer)

    def _log_line(self, ev: Event, namer: Namer) -> Text:
        line = event_text(ev, namer, self.lang)
        if ev.kind in ("draw", "reshuffle", "deck-refilled"):
            line.stylize("dim")
        if ev.kind in KEY_EVENTS:  # it changed the game: it stands out (the log's lines keep their width)
            line.stylize("bold")
        return line

    # ------------------------------------------------------------------- keys
    def kind_for_key(self, key: str) -> str | None:
        return kind_for_key(key, self.by_kind)

    def action_key(self, key: str) -> None:
        p = self.picker
        if p is None:
            kind = kind_for_key(key, self.by_kind)
            if kind is None:
                self._host_key(key)  # p or o after the match
                return
            self._start(kind, self.by_kind[kind], by_key=True)
            return
        if self.enter_after_refusal(p, key):
            pass
        elif key == "enter":
            text = p.advance()
            if text is not None:
                self._send(text)
                return
            if p.step == "levy":  # nothing taken yet
                p.note = self.tr("ov.pick.levy_empty")
        elif key in ("left", "right") and p.step == "levy":
            cur = p.current()
            if isinstance(cur, int) and not p.levy_change(cur, 1 if key == "right" else -1) and key == "right":
                p.note = self._levy_refused(p, cur)
        elif key in ("up", "left"):
            p.move(-1)
        elif key in ("down", "right"):
            p.move(1)
        elif key.isdigit() and p.step == "levy":
            more = p.levy_more(seat_index(int(key)))
            if more is None:
                self.refuse_number(p, key, p.step)
            elif not more:
                p.note = self._levy_refused(p, seat_index(int(key)))
        elif key.isdigit():
            if not p.type_digit(key):  # a number that is no choice now
                self.refuse_number(p, key, p.step)
                p.note = self._why_not(p, int(key)) or p.note
        else:
            kind = kind_for_key(key, self.by_kind)
            if kind is not None and kind != p.kind:  # another kind: start over with it
                self.picker = None
                self._start(kind, self.by_kind[kind], by_key=True)
                return
        self._redraw_choice()

    def _levy_refused(self, p: Picker, seat: int) -> str:
        """Why a seat gives no more gold to the levy: it is at its most, or that seat's purse is empty."""
        if p.levy_at_most():
            return self.tr("ov.pick.levy_full")
        return self.tr("ov.pick.levy_purse", who=self.namer().seat(seat))

    def _start(self, kind: str, actions: list[Action], *, by_key: bool = False) -> None:
        """``by_key``: a key started it, so a card is asked by the hand's numbers
        (a click on a card or a seat has chosen already)."""
        hand = tuple(self.ov.hand or ()) if by_key and self.ov is not None else ()
        self.picker = Picker.start(kind, actions, hand)
        self.message = Text("")
        self._redraw_choice()

    def _redraw_choice(self) -> None:
        if self.ov is not None:
            self._render_seats(self.ov)
            self._render_hand(self.ov)
            self._render_prompt(self.ov)
        self.refresh_keys()

    def _describe_sent(self, text: str) -> str:
        return describe(text, self.namer(), self.lang)

    def _keep_picker(self) -> None:
        """After a change: keep a choice in progress if its actions are still legal."""
        p = self.picker
        if p is None:
            return
        acts = self.by_kind.get(p.kind)
        if not acts or any(a not in acts for a in p.actions):
            self.picker = None

    # ---------------------------------------------------------------- mouse
    def on_seats_panel_seat_clicked(self, event: SeatsPanel.SeatClicked) -> None:
        event.stop()
        p = self.picker
        if p is not None and p.step == "confirm" and (a := p.action()) is not None and a.seat == event.seat:
            self.action_key("enter")  # a second click on the chosen seat sends
            return
        if p is not None and p.step == "seat":
            if p.current() == event.seat:
                self.action_key("enter")
                return
            p.select(event.seat)
            self._redraw_choice()
            return
        kinds = [k for k in self._kinds() if any(a.seat == event.seat for a in self.by_kind[k])]
        namer = self.namer()
        if len(kinds) == 1:
            self._start(kinds[0], [a for a in self.by_kind[kinds[0]] if a.seat == event.seat])
            return
        if kinds:
            keys = self.tr("punct.list").join(f"{KIND_KEYS[k]} {self.tr(self._kind_label(k))}" for k in kinds)
            self.message = Text(self.tr("ov.pick.hint_seat", who=namer.seat(event.seat), keys=keys), end="")
        else:
            self.message = Text(self.tr("ov.status.click_none", who=namer.seat(event.seat)), style="dim", end="")
        self._redraw_choice()

    def on_hand_panel_card_clicked(self, event: HandPanel.CardClicked) -> None:
        event.stop()
        p = self.picker
        if p is not None and p.step == "confirm" and (a := p.action()) is not None and a.card == event.card:
            self.action_key("enter")  # a second click on the chosen card sends
            return
        if p is not None and p.step == "card":
            if p.current() == event.card:
                self.action_key("enter")
                return
            p.select(event.card)
            self._redraw_choice()
            return
        kinds = [
            k for k in self._kinds()
            if any(a.card == event.card or (k in ("retaliate", "plead") and a.verb == event.card) for a in self.by_kind[k])
        ]
        if kinds:
            k = kinds[0]
            acts = [a for a in self.by_kind[k] if a.card == event.card] or self.by_kind[k]
            self._start(k, acts)
            return
        self.message = Text(self.tr("ov.status.click_card_none"), style="dim", end="")
        self._redraw_choice()

    # ------------------------------------------------------------ other keys
    def _pane_order(self) -> list[str]:
        return [p for p in PANES if p != "result" or (self.ov is not None and self.ov.outcome is not None)]

    def _render_current_pane(self) -> None:
        if self.ov is not None:
            self._render_pane(self.ov)

    def action_overlord_help(self) -> None:
        self.app.push_screen(OverlordHelp(self.ov))
