"""The Sultans of Karaya table: the screen a seat (or a spectator) plays on.

Found by :func:`tui.tables.table_screen_for` for game id ``"sultans"``.

Layout (top to bottom): a header line with the round, turn and countdown;
the ring of seats with the spare, the crown and your card in the centre
(:mod:`tui.sultans.ring`); a prompt of three lines (whose turn / the open
reaction window, the choices, what the chosen action will do); the log,
notebook or result pane beside the room chat; the key bar.

Playing is keyboard first: a key per legal action kind (:data:`KIND_KEYS`),
then a seat by number or arrows, Enter sends, Escape backs out. Clicking a
seat picks it. Only actions in ``room.legal()`` are ever offered, and only
what the player confirms is sent (``act(text, snapshot.version)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.containers import Horizontal
from textual.widgets import Static

from engine.sultans.actions import Action
from engine.sultans.views import Event, MatchView, RoundView
from protocol.contract import RoomClient, WhyNote, seat_number
from protocol.i18n import game_title
from tui.sultans.help import SultansHelp
from tui.sultans.pick import KIND_KEYS, KIND_ORDER, Cand, Picker, kinds_for_key, parse_legal
from tui.sultans.render import (
    centre_lines,
    centre_rows,
    legend_lines,
    match_table,
    match_winner_line,
    notes_by_seat,
    round_result,
    seat_box_lines,
    standings_line,
)
from tui.sultans.ring import SeatBox, TableRing, ring_height
from tui.sultans.words import Namer, describe, event_text, note_text
from tui.table_common import CHOICE_GAP, GameTableScreen, picker_head
from tui.text import fit_head
from tui.widgets import ChatPanel, KeyBar, LineStatic, PaneBox, TailLog

_RING_CONTENT: LRUCache[tuple[object, ...], tuple[MatchView, list[SeatBox], list[Text]]] = LRUCache(256)
"""Seat boxes and centre lines by the view object they were made from (see Table._render_ring)."""
_RING_MOST = 24
"""The ring's most rows: a taller ring would only add blank rows around its seats."""

LETTERS = "psxdargnmflbjuco"
KEY_EVENTS = frozenset({"death", "reveal", "claim", "crown", "execute", "win", "turn-limit"})
"""Log events that change the game: they stand out in the log and show in the banner above it."""
PANES = ("log", "notes", "result")


class Table(GameTableScreen[Picker]):
    """A seat's (or a spectator's) Sultans of Karaya table."""

    CSS_PATH = "table.tcss"
    PREFIX = "sk"
    COUNTDOWN_ID = "sk-countdown"
    COUNTDOWN_TEXT = "sk.countdown"
    HOME = TableRing
    AUTO_FOCUS = "TableRing"  # focused as composed (see the Overlord table)
    PANES = PANES
    KIND_KEYS = KIND_KEYS
    HELP_KEY = ("F1", "sultans_help", "sk.key.help")

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(k, f"key('{k}')", show=False) for k in LETTERS),
        Binding("space", "key('space')", show=False),
        Binding("f1", "sultans_help", show=False),
    ]

    def __init__(self, room: RoomClient) -> None:
        super().__init__(room)
        self.mv: MatchView | None = None
        self.by_kind: dict[str, list[Action]] = {}
        self._log_key: tuple[int | None, int] | None = None  # (viewer, round) the log shows
        self._log_count = 0
        self._last_result: tuple[int, RoundView] | None = None
        self._shown_result_for: int | None = None
        self._notebook = True
        self._round_views: dict[int, RoundView] = {}
        self._ring_key: tuple[object, ...] | None = None  # what the ring's height was made for (see _size_ring)  # finished rounds' ends, as this seat saw them

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Horizontal(id="sk-top"):
            yield LineStatic("", id="sk-head", classes="head", markup=False)
            yield LineStatic("", id="sk-countdown", markup=False)
        yield TableRing(id="sk-ring")
        yield LineStatic("", id="sk-prompt", markup=False, pack=(" · ",), fit=True)
        with Horizontal(id="sk-bottom"):
            with PaneBox(id="sk-pane-box", classes="pane"):
                yield LineStatic("", id="sk-pane-title", classes="title", markup=False)
                yield TailLog(id="sk-log", max_lines=2000, wrap=True, markup=False, min_width=10)
            yield ChatPanel(id="sk-chat", classes="pane")
        yield KeyBar()

    # --------------------------------------------------------------- refresh
    def apply_lang(self) -> None:
        self._log_key = None  # re-phrase the log
        if self.mv is not None:  # its centre's lines wrap anew
            self._size_ring(len(self.mv.round.seats))
        super().apply_lang()

    def update_table(self) -> None:
        snap = self.snap
        assert snap is not None
        view = self.room.view()
        self.names = self.seat_names(snap)
        self._notebook = snap.settings.options.get("notebook", True) is not False
        if not isinstance(view, MatchView):
            self.mv = None
            self.query_one("#sk-head", Static).update(Text(self.tr("sk.no_view")), layout=False)
            return
        self.mv = view
        self._size_ring(len(view.round.seats))
        self._notebook = view.round.notebook  # the match's own option (S-VIEW-2), even if the settings changed since
        legal = [] if self.watching or snap.state != "playing" else self.room.legal()
        self.legal = legal
        self.by_kind = parse_legal(legal)
        self._keep_picker()
        rv = view.round
        w = rv.window
        decision = (view.round_number, rv.turns_played, rv.phase, w.actor if w else None, w.kind if w else None, rv.pending)
        if decision != self._decision:
            self._decision = decision
            self.message = Text("")  # "Sent: ..." belongs to the decision it answered
        self.note_timeout()
        if rv.phase != "over" and self.pane == "result" and self._shown_result_for is not None and self._shown_result_for < view.round_number:
            self._shown_result_for = view.round_number - 1
            self.pane = "log"  # a new round: back to its log (Tab shows the last result again)
        if rv.phase == "over":
            if self._last_result is None or self._last_result[0] != view.round_number:
                self._last_result = (view.round_number, rv)
            if self._shown_result_for != view.round_number:
                self._shown_result_for = view.round_number
                self.pane = "result"
        self._render_all()

    def _render_all(self) -> None:
        mv = self.mv
        if mv is None or self.covered():
            return
        self._render_head(mv)
        self._render_ring(mv)
        self._render_prompt(mv)
        self._render_pane(mv)
        self.query_one(ChatPanel).set_lines(self.room.chat_lines())
        self._tick()
        self.refresh_keys()

    def namer(self) -> Namer:
        viewer = None if self.watching else self.room.my_seat
        return Namer(self.names, viewer, self.lang)

    def _render_head(self, mv: MatchView) -> None:
        rv = mv.round
        namer = self.namer()
        parts = [game_title("sultans", self.lang, short=True)]
        if mv.first_to is not None:
            parts.append(self.tr("sk.head.round_first_to", n=mv.round_number, to=mv.first_to))
        else:
            parts.append(self.tr("sk.head.round", n=mv.round_number, of=mv.rounds or mv.max_rounds))
        parts.append(self.tr("sk.head.turn", n=rv.turns_played, limit=rv.turn_limit))
        if namer.viewer is None:
            parts.append(self.tr("sk.head.watching"))
        else:
            parts.append(self.tr("sk.head.you", seat=self.tr("sk.seat", name=namer.name(namer.viewer), n=seat_number(namer.viewer))))
            parts.append(self.tr("sk.head.score", points=mv.totals[namer.viewer]))
        head = Text(fit_head(parts, self.query_one("#sk-head").size.width), no_wrap=True, overflow="ellipsis", end="")
        self._update("#sk-head", head)

    def _size_ring(self, seats: int) -> None:
        """The ring as tall as its seats and a full centre need at this width (at
        most its old share, 3 of the 5 parts the bars and prompt leave); the log
        gets every other row. Set before the first layout, so the first frame is
        final, and again only when the size, the seat count or the language changes."""
        size = self.app.size
        key = (seats, size.width, size.height, self.lang, self.watching)
        if key == self._ring_key:
            return
        self._ring_key = key
        fixed = 0
        for node in (self.query_one("#sk-top"), self.query_one("#sk-prompt"), self.query_one(KeyBar)):
            h = node.styles.height
            fixed += int(h.value) if h is not None and h.is_cells else 1
        most = min(_RING_MOST, (size.height - fixed) * 3 // 5)
        lang, watching = self.lang, self.watching
        want = ring_height(seats, size.width, most, lambda width: centre_rows(lang, width, watching=watching))
        ring = self.query_one(TableRing)
        if ring.styles.height is None or ring.styles.height.value != want:
            ring.styles.height = want

    def _render_ring(self, mv: MatchView) -> None:
        namer = self.namer()
        ring = self.query_one(TableRing)
        lay = ring.current_layout() if ring.size.width else None
        width = lay.cell_w - 2 if lay else 14
        height = lay.cell_h if lay else 2
        room = (lay.centre[2] - 2, lay.centre[3]) if lay is not None and lay.has_centre else None
        seats = self.snap.seats if self.snap is not None else []
        keys = " ".join(f"{KIND_KEYS[k]} {self.tr(self._kind_label(k))}" for k in self._kinds())
        if self.picker is None:
            # the same view object (a room's spectators, one version) draws the same ring:
            # made once, the lists shared (never changed after: see _ring_content)
            memo_key = (
                id(mv), namer.viewer, tuple(self.names), self.lang, width, height, room, self._notebook, keys,
                tuple((s.kind, s.connected, s.autoplay, s.away, s.left) for s in seats), self.nothing_to_answer(),
            )
            hit = _RING_CONTENT.get(memo_key)
            if hit is not None and hit[0] is mv:
                boxes, centre = hit[1], hit[2]
            else:
                boxes, centre = self._ring_content(mv, namer, width, height, keys, room)
                _RING_CONTENT[memo_key] = (mv, boxes, centre)
        else:
            boxes, centre = self._ring_content(mv, namer, width, height, keys, room)
        if boxes != ring.boxes or centre != ring.centre:  # repaint only what changed
            ring.set_content(boxes, centre)

    def _ring_content(
        self, mv: MatchView, namer: Namer, width: int, height: int, keys: str, room: tuple[int, int] | None = None
    ) -> tuple[list[SeatBox], list[Text]]:
        """The seat boxes and the centre lines of the ring (new lists and texts:
        shared between screens when no picker is open, so never changed later)."""
        rv = mv.round
        notes = notes_by_seat(rv.notes) if self._notebook else {}
        seats = self.snap.seats if self.snap is not None else []
        cands: set[int] = self.picker.seat_candidates() if self.picker else set()
        current = self.picker.current() if self.picker else None
        chosen = set(self.picker.chosen) if self.picker else set()
        points = rv.outcome.points if rv.outcome is not None else None
        boxes: list[SeatBox] = []
        passed_for = self.nothing_to_answer()
        for seat in rv.seats:
            i = seat.index
            if passed_for and i == namer.viewer and seat.pending:  # the room answers for it: not marked as owing (S-REACT-5)
                seat = seat.model_copy(update={"pending": False})
            lines = seat_box_lines(
                seat,
                rv,
                seats[i] if i < len(seats) else None,
                namer,
                self.lang,
                note=notes.get(i),
                width=width,
                height=height,
                points=points.get(i) if points is not None else None,
            )
            style = ""
            if self.picker is not None and self.picker.step in ("target", "seats"):
                if i == current or i in chosen:
                    style = "reverse"
                elif i not in cands:
                    style = "dim"
            elif not seat.alive:
                style = "dim"
            boxes.append(SeatBox(lines, style))
        centre = centre_lines(mv, namer, self.lang, keys, notebook=self._notebook, room=room)
        centre += legend_lines(self.lang, watching=namer.viewer is None)
        if self.picker is not None and current == "spare":
            centre[0].stylize("reverse")
        return boxes, centre

    def _kinds(self) -> list[str]:
        return [k for k in KIND_ORDER if k in self.by_kind]

    _break_shown = ""

    def _tick(self) -> None:
        super()._tick()
        # the break's countdown ("Next round in 27 s") under the status line, which
        # is otherwise drawn when the room changes: it stood still beside the clock
        mv = self.mv
        if mv is None or mv.over or self._pruning or not self.between_rounds() or self.covered():
            return
        line = self.break_line().plain
        if line != self._break_shown:
            self._break_shown = line
            self._render_prompt(mv)

    # ----------------------------------------------------------------- prompt
    def _render_prompt(self, mv: MatchView) -> None:
        rv = mv.round
        namer = self.namer()
        me = namer.viewer
        lines: list[Text] = [self._status_line(mv, rv, namer, me)]
        if self.picker is not None and not mv.over and self._my_turn(rv, me):
            # "▶ Your turn: choose one thing to do." once a thing is chosen says nothing the
            # picker's head does not: its row goes to what Enter will do (cut at 80x24)
            lines = []
        if mv.over:
            lines = [match_winner_line(mv, namer, self.lang), standings_line(mv, namer, self.lang), *lines]
            if not self.is_host and not self.watching:
                lines.append(Text(self.tr("sk.status.match_over_you"), end=""))
        elif self.between_rounds():
            line = self.break_line()
            self._break_shown = line.plain
            lines.append(line)
        if self.picker is not None:
            lines.extend(self._picker_lines(namer))
        elif rv.phase == "window" and rv.window is not None and me is not None:
            w = rv.window
            if me in w.asked:
                if self.nothing_to_answer():  # the room passes for this seat (S-REACT-5): no prompt
                    lines.append(Text(self.tr("sk.win.nothing"), style="dim"))
                    if "claim" in self.by_kind:  # a claim is no answer (S-SUL-2): still there
                        lines.append(self._options_line([], ["claim"]))
                elif w.answered and w.your_answer:
                    lines.append(Text(self.tr("sk.win.answered", answer=self.tr(f"sk.answer.{w.your_answer}"))))
                elif self.answer_kept(True, w.answered):
                    lines.append(Text(self.tr("sk.win.kept")))
                else:
                    # a claim is never an answer (S-SUL-2), so it comes after them, set apart
                    lines.append(self._options_line([k for k in self._kinds() if k != "claim"],
                                                    ["claim"] if "claim" in self.by_kind else []))
            else:
                lines.append(Text(self.tr("sk.win.not_asked"), style="dim"))
        elif self._kinds() and me is not None:
            lines.append(self._options_line(self._kinds()))
        if self.message.plain:
            lines.append(self.message)
        self.fit_prompt("#sk-prompt", len(lines), over=mv.over)
        text = Text("\n", end="").join(lines[: self.PROMPT_ROWS])
        self._update("#sk-prompt", text)

    @staticmethod
    def _my_turn(rv: RoundView, me: int | None) -> bool:
        """This seat's own turn (its status line is "▶ Your turn: …", nothing else)."""
        who = rv.playing if rv.playing is not None else rv.active
        return rv.phase == "turn" and who is not None and who == me and me in rv.pending

    def _options_line(self, kinds: list[str], apart: Sequence[str] = ()) -> Text:
        out = Text(self.tr("sk.pick.options") + " ", style="bold", end="")
        for n, k in enumerate([*kinds, *apart]):
            if n == len(kinds) and n:
                out.append("· ", style="dim")
            out.append(f" {KIND_KEYS[k]} ", style="reverse bold")
            out.append(" " + self.tr(self._kind_label(k)) + "  ")
        return out

    def _status_line(self, mv: MatchView, rv: RoundView, namer: Namer, me: int | None) -> Text:
        if mv.over:
            key = "sk.status.match_over_host" if self.is_host else "sk.status.match_over"
            return Text("■ " + self.tr(key), style="bold")
        if rv.phase == "over":
            return Text("■ " + self.tr("sk.status.between", n=mv.round_number), style="bold")
        if rv.phase == "window" and rv.window is not None:
            w = rv.window
            key = f"sk.win.{w.kind}"
            if w.target is not None and w.target == me and w.kind in ("block", "detention"):
                key += ".you"  # "⚠ bob (1) detains you. You may refuse or accept."
                if w.kind == "detention" and me in w.waiting and "refuse" not in self.by_kind:
                    key += "_accept"  # S-GRD-3: only the Sultan or a Guard may refuse (the others' text stays)
            text = Text(
                self.tr(key, actor=namer.seat(w.actor), target=namer.seat(w.target) if w.target is not None else ""),
                style="bold",
                end="",
            )
            if self.quick_windows:  # S-REACT-5: what it is about, never who still owes an answer
                return text
            text.append("  · " + self.tr("sk.win.waiting", n=len(w.waiting), of=len(w.asked)), style="")
            return text
        who = rv.playing if rv.playing is not None else rv.active
        mine = who is not None and who == me and me in rv.pending
        if rv.phase == "forced" and rv.forced is not None:
            if rv.forced == me:
                return Text(self.tr("sk.status.forced"), style="bold reverse")
            return Text(self.tr("sk.status.forced_of", who=namer.seat(rv.forced)))
        if rv.phase == "predict":
            if mine:
                return Text(self.tr("sk.status.predict"), style="bold reverse")
            return Text(self.tr("sk.status.predict_of", who=namer.seat(who) if who is not None else ""))
        if mine:
            return Text(self.tr("sk.status.extra" if rv.extra_turn else "sk.status.your_turn"), style="bold reverse")
        return Text(self.tr("sk.status.turn_of", who=namer.seat(who) if who is not None else ""))

    def _picker_lines(self, namer: Namer) -> list[Text]:
        p = self.picker
        assert p is not None
        label = self.tr(self._kind_label(p.kind))
        if p.step == "side":
            what = self.tr("sk.pick.what.side")
        elif p.step == "seats":
            what = self.tr("sk.pick.what.seats", k=p.need)
        elif p.step == "target":
            cands = p.candidates()
            if p.kind == "hide":
                what = self.tr("sk.pick.what.hide")
            elif "spare" in cands:
                what = self.tr("sk.pick.what.seat_spare")
            else:
                what = self.tr("sk.pick.what.seat")
        else:
            what = ""
        if p.note:  # what the last key did not do, or waits for
            what = p.note
        lines: list[Text] = []
        # nothing to pick: no numbers; a side: its letters, not numbers
        keys = self.tr({"confirm": "sk.pick.confirm", "side": "sk.pick.keys_side"}.get(p.step, "sk.pick.keys"))
        lines.append(picker_head(label, what, keys, self.lang))
        choice = Text(end="")
        for c in p.candidates():
            shown = self._cand_label(c, namer)
            if not shown:  # "go": Enter, not a choice of its own
                continue
            sel = c == p.current()
            picked = isinstance(c, int) and c in p.chosen
            choice.append(CHOICE_GAP if choice else " ")
            choice.append(shown, style="reverse bold" if sel else ("bold underline" if picked else ""))
        if p.step == "seats":
            choice.append("  " + self.tr("sk.pick.chosen", n=len(p.chosen), k=p.need), style="bold")
        preview = p.preview()
        if p.step != "confirm":
            lines.append(choice)
        if preview is not None:
            lines.append(Text("⏎ " + self._describe(preview, namer), style="italic"))
        elif p.step == "side" and p.kind == "manipulate" and p.current() in ("loyalists", "rebels"):
            side = self.tr(f"sk.side.{p.current()}")  # the side's seats come next: say which side is chosen
            lines.append(Text("⏎ " + self.tr("sk.pick.side_then_seat", side=side), style="italic"))
        return lines

    def _step_back(self) -> bool:
        return self.picker is not None and self.picker.back()

    def _detention(self) -> bool:
        rv = self.mv.round if self.mv is not None else None
        return rv is not None and rv.window is not None and rv.window.kind == "detention"

    def _describe(self, text: str, namer: Namer) -> str:
        """What ``text`` will do; ``pass`` to a detention prompt accepts it."""
        if text == "pass" and self._detention():
            return self.tr("sk.do.accept")
        rv = self.mv.round if self.mv is not None else None
        me = namer.viewer
        face_up = rv is not None and me is not None and me < len(rv.seats) and rv.seats[me].revealed
        return describe(text, namer, self.lang, face_up=face_up)

    def _kind_label(self, kind: str) -> str:
        """A pass to a detention is named for what it does: "o Accept" (it said "o Pass")."""
        return "sk.key.accept" if kind == "pass" and self._detention() else super()._kind_label(kind)

    def _cand_label(self, c: Cand, namer: Namer) -> str:
        if c == "spare":
            return "s=" + self.tr("sk.the_spare")
        if c == "none":
            return "n=" + self.tr("sk.pick.no_swap")  # a letter: the digits are the seats' keys
        if c in ("loyalists", "rebels"):
            return f"{'l' if c == 'loyalists' else 'r'}={self.tr('sk.side.' + str(c))}"
        if c == "go":
            return ""
        assert isinstance(c, int)
        return f"{seat_number(c)}={namer.name(c)}"

    # ------------------------------------------------------------------ panes
    def _render_pane(self, mv: MatchView) -> None:
        namer = self.namer()
        log = self.query_one("#sk-log", TailLog)
        self._render_log(mv, namer, log)
        pane = self.pane
        if pane == "notes" and not self._notebook:
            pane = "log"
        title = {"log": "sk.pane.log", "notes": "sk.pane.notes", "result": "sk.pane.result"}[pane]
        named = Text(self.tr("sk.pane.title", pane=self.tr(title)))  # Tab: a narrow key bar leaves it out
        self._update("#sk-pane-title", self._log_title(named, log) if pane == "log" else self._with_banner(named))
        if pane == "notes":
            rv = mv.round
            if not rv.notes:
                body = Text(self.tr("sk.notes.empty"), style="dim")
            else:
                body = Text("\n", end="").join(note_text(n, namer, self.lang) for n in rv.notes)
            if rv.phase == "over":  # what one knew, kept; the truth is in the result
                body = Text.assemble((self.tr("sk.notes.round_over") + "\n", "italic"), body)
            self._show_sheet(pane, body)
        elif pane == "result":
            namer = Namer(self.result_names() or self.names, namer.viewer, self.lang)  # bots with their levels
            body = Text(end="")
            width = log.text_width() if log.content_size.width else None
            if mv.over:
                body.append_text(match_table(mv, namer, self.lang, width=width))
                body.append("\n")
                body.append(self.tr(self._again_key()) + "\n\n", style="bold")
            left = self.left_line(namer.seat)
            if mv.over and left is not None:
                body.append_text(left)
                body.append("\n\n")
            if self._last_result is not None:
                number, rv_over = self._last_result
                body.append_text(round_result(rv_over, number, namer, self.lang))
            if not mv.over and mv.history:  # mid-match: every round's points so far
                if self._last_result is not None:
                    body.append("\n")
                body.append_text(match_table(mv, namer, self.lang, title="sk.match.so_far", width=width))
            self._show_sheet(pane, body)
        else:
            self._show_sheet(None)

    def _render_log(self, mv: MatchView, namer: Namer, log: TailLog) -> None:
        rv = mv.round
        key = (namer.viewer, mv.round_number)
        events = rv.log
        notes = self.why_notes()

        def line(item: Event | WhyNote) -> Text:
            return self.why_line(item, "   ") if isinstance(item, WhyNote) else self._log_line(item, namer)

        def write(number: int, round_events: Sequence[Event], start: int) -> None:
            assert self._why_written is not None
            self.write_events(log, self.with_why(number, round_events, start, self._why_written, notes), namer.viewer, line)

        if self._log_key is None or self._log_key[0] != key[0] or (self._log_count > len(events) and self._log_key == key):
            log.clear()
            self._why_written = set()
            self._log_count = 0
            self._log_key = key
            for number in range(1, mv.round_number):  # drawn anew: the earlier rounds too
                log.write(self._round_rule(mv, number))
                write(number, self._round_log(number), 0)
        if self._log_key != key:  # a new round: keep the old one above a rule
            shown = self._log_key[1]  # with the lines of its end this screen did not get to see
            write(shown, self._round_log(shown), self._log_count)
            for number in range(shown + 1, mv.round_number):
                log.write(self._round_rule(mv, number))
                write(number, self._round_log(number), 0)
            self._log_key = key
            self._log_count = 0
        if self._log_count == 0:
            log.write(self._round_rule(mv, mv.round_number))
        fresh = events[self._log_count :]
        write(mv.round_number, events, self._log_count)
        if self._log_count or mv.round_number > 1 or len(fresh) < len(events):  # not the screen's first draw
            self.note_events([self._log_line(ev, namer) for ev in fresh if ev.kind in KEY_EVENTS])
        self._log_count = len(events)

    # ---------------------------------------------------- results, whole log
    def _again_key(self) -> str:
        """What comes after the match, for this screen: a spectator has no seat to keep."""
        return "sk.match.again_host" if self.is_host else "sk.match.again_watch" if self.watching else "sk.match.again_wait"

    def live_result(self) -> int | None:
        mv = self.mv
        if mv is None or not (mv.over or mv.round.phase == "over"):
            return None
        return mv.round_number

    def result_numbers(self) -> list[int]:
        return [r.number for r in self.mv.history] if self.mv is not None else []

    def result_title(self, number: int) -> str:
        mv = self.mv
        if mv is not None and mv.over and number == mv.round_number:
            return self.tr("sk.match.title")
        return self.tr("table.results.round", n=number)

    def _round_view(self, number: int) -> RoundView | None:
        """How round ``number`` ended for this seat (a finished round does not change)."""
        mv = self.mv
        if mv is not None and number == mv.round_number and mv.round.phase == "over":
            return mv.round
        made = self._round_views.get(number)
        if made is None:
            view = self.room.round_view(number)
            if isinstance(view, RoundView):
                made = self._round_views[number] = view
        return made

    def result_body(self, number: int, width: int | None = None) -> Text:
        """Who won round ``number`` and why, every card and where it went, the
        round's points and the totals after it; at the match's end its result
        first (its score table within ``width`` cells)."""
        mv = self.mv
        body = Text(end="")
        if mv is None:
            return body
        namer = self.namer()
        final = mv.over and number == mv.round_number
        if final:
            body.append_text(match_winner_line(mv, namer, self.lang))
            body.append("\n")
            body.append_text(standings_line(mv, namer, self.lang))
            body.append("\n\n")
            body.append_text(match_table(mv, namer, self.lang, width=width))
            body.append("\n")
            body.append(self.tr(self._again_key()) + "\n\n", style="bold")
        rv = self._round_view(number)
        if rv is not None:
            # the dialog's title names a round already; at the match's end it names the match
            body.append_text(round_result(rv, number, namer, self.lang, heading=final))
        if not final:
            played = mv.history[:number]
            totals = tuple(sum(r.points[s] for r in played) for s in range(mv.players))
            upto = mv.model_copy(update={"history": played, "totals": totals, "over": False, "winners": (), "tiebreak": None})
            body.append("\n")
            body.append_text(match_table(upto, namer, self.lang, title="sk.match.after", width=width, n=number))
        return body

    def full_log(self) -> list[Text]:
        mv = self.mv
        if mv is None:
            return []
        namer = self.namer()
        notes = self.why_notes()
        lines: list[Text] = []
        for number in range(1, mv.round_number + 1):
            lines.append(self._round_rule(mv, number))
            events = mv.round.log if number == mv.round_number else self._round_log(number)
            for item in self.with_why(number, events, 0, set(), notes):
                lines.append(self.why_line(item, "   ") if isinstance(item, WhyNote) else self._log_line(item, namer))
        return lines

    def starts_next(self, event: object) -> bool:
        return isinstance(event, Event) and event.kind in ("turn", "skip")

    def told_by(self, note: WhyNote, event: object) -> bool:
        # S-REACT-5: the room answered the seat's only answer; its why-line says so
        return note.key == "why.quick_pass" and isinstance(event, Event) and event.kind == "answer"

    def _round_log(self, number: int) -> list[Event]:
        return [ev for ev in self.room.round_log(number) if isinstance(ev, Event)]

    def _round_rule(self, mv: MatchView, number: int) -> Text:
        if mv.first_to is not None:  # no count of rounds to give: the cap of 15 is no plan
            return Text(f"── {self.tr('sk.log.round', n=number)} ──", style="bold")
        return Text(f"── {self.tr('sk.head.round', n=number, of=mv.rounds or mv.max_rounds)} ──", style="bold")

    def _log_line(self, ev: Event, namer: Namer) -> Text:
        line = Text(end="")
        line.append(self.tr("sk.log.turn", n=ev.turn) + " ", style="dim")
        if ev.private:
            line.append(self.tr("sk.log.private") + " ", style="bold magenta")
        body = event_text(ev, namer, self.lang)
        if ev.private:
            body.stylize("italic")
        if ev.kind in ("turn", "skip"):
            body.stylize("dim")
        if ev.kind in KEY_EVENTS:  # it changed the game: it stands out
            line.append("▶ ", style="bold")
            body.stylize("bold")
        line.append_text(body)
        return line

    # ------------------------------------------------------------------- keys
    def kind_for_key(self, key: str) -> str | None:
        return kinds_for_key(key, self.by_kind)

    def action_key(self, key: str) -> None:
        p = self.picker
        if p is None:
            kind = kinds_for_key(key, self.by_kind)
            if kind is None:
                self._host_key(key)  # p or o after the match
                return
            self.picker = Picker.start(kind, self.by_kind[kind])
            if kind == "predict" and key in ("l", "r"):
                self.picker.select("loyalists" if key == "l" else "rebels")
            self.message = Text("")
            self._redraw_choice()
            return
        seats = self.mv.players if self.mv is not None else 0
        if self.enter_after_refusal(p, key):
            pass
        elif key == "enter":
            text = p.advance()
            if text is not None:
                self._send(text)
                return
            if p.step == "seats" and len(p.chosen) < p.need:  # Enter on a seat already chosen: say what is missing
                p.note = self.tr("sk.pick.seats_left", n=p.need - len(p.chosen), k=p.need)
        elif key == "space" and p.step == "seats":
            cur = p.current()
            if isinstance(cur, int):
                p.toggle(cur)
        elif key == "up":
            p.move(-1)
        elif key == "down":
            p.move(1)
        elif key.isdigit():
            typed = p.digits + key
            picked = p.type_digit(key, seats)
            if p.digits:  # waiting for a second digit (seats 10 and up): say so
                p.note = self.tr("sk.pick.more_digit", d=p.digits)
            elif not picked:  # a number that is no choice now did nothing, silently
                self.refuse_number(p, typed, p.step)
        elif p.step == "side" and key in ("l", "r"):
            p.select("loyalists" if key == "l" else "rebels")
        elif p.step == "target" and key == "s" and "spare" in p.candidates():
            p.select("spare")
        elif p.step == "target" and key == "n" and "none" in p.candidates():
            p.select("none")
        else:
            kind = kinds_for_key(key, self.by_kind)
            if kind is not None and kind != p.kind:  # another kind: start over with it
                self.picker = None
                self.action_key(key)
                return
        self._redraw_choice()

    def _redraw_choice(self) -> None:
        if self.mv is not None:
            self._render_ring(self.mv)
            self._render_prompt(self.mv)
        self.refresh_keys()

    def _describe_sent(self, text: str) -> str:
        return self._describe(text, self.namer())

    def _keep_picker(self) -> None:
        p = self.picker
        if p is None:
            return
        acts = self.by_kind.get(p.kind)
        if not acts:
            self.picker = None
            return
        if acts != p.actions:
            cur = p.current()
            p.actions = acts
            if cur is None or not p.select(cur):
                p.cursor = 0
            p.chosen = [s for s in p.chosen if s in p.seat_candidates()]

    def on_sized(self) -> None:
        super().on_sized()
        if self.mv is not None:
            self._render_ring(self.mv)  # its seats were made at a provisional cell size
            self._render_head(self.mv)  # fitted to the width it has now
            self._render_pane(self.mv)  # its score table too

    def on_resize(self) -> None:
        if self.mv is not None:
            self._size_ring(len(self.mv.round.seats))
        self.call_after_refresh(self._refit_head)

    def _refit_head(self) -> None:
        if self.mv is not None:
            self._render_head(self.mv)
            self._render_pane(self.mv)

    # ---------------------------------------------------------------- mouse
    def on_table_ring_resized(self, event: TableRing.Resized) -> None:
        event.stop()
        if self.mv is not None:
            self._render_ring(self.mv)

    def on_table_ring_seat_clicked(self, event: TableRing.SeatClicked) -> None:
        event.stop()
        p = self.picker
        cand: Cand = "spare" if event.seat is None else event.seat
        if p is not None:
            if p.step == "seats" and isinstance(cand, int):
                if cand in p.seat_candidates():
                    p.select(cand)
                    p.toggle(cand)
            elif p.current() == cand:
                self.action_key("enter")
                return
            else:
                p.select(cand)
            self._redraw_choice()
            return
        namer = self.namer()
        kinds = [
            k
            for k in self._kinds()
            if any((a.target == event.seat and event.seat is not None) or (event.seat is None and a.spare) for a in self.by_kind[k])
        ]
        who = namer.seat(event.seat)
        if len(kinds) == 1:
            self.picker = Picker.start(kinds[0], self.by_kind[kinds[0]])
            if self.picker.step == "side":
                sides = [a.side for a in self.by_kind[kinds[0]] if a.target == event.seat and a.side]
                if sides:
                    self.picker.select(sides[0])
                    self.picker.advance()
            self.picker.select(cand)
            self.message = Text("")
        elif kinds:
            keys = self.tr("punct.list").join(f"{KIND_KEYS[k]} {self.tr(self._kind_label(k))}" for k in kinds)
            self.message = Text(self.tr("sk.pick.hint_seat", who=who, keys=keys))
        else:
            self.message = Text(self.tr("sk.status.click_none", who=who), style="dim")
        self._redraw_choice()

    # ------------------------------------------------------------ other keys
    def _pane_order(self) -> list[str]:
        """Log, the notebook if on, and the result once a round has ended (the
        last round's, when this screen saw it end, and the scores so far)."""
        mv = self.mv
        has_result = self._last_result is not None or (mv is not None and (mv.over or bool(mv.history)))
        return [p for p in PANES if (p != "notes" or self._notebook) and (p != "result" or has_result)]

    def _render_current_pane(self) -> None:
        if self.mv is not None:
            self._render_pane(self.mv)

    def action_sultans_help(self) -> None:
        card = None
        if self.mv is not None and not self.watching:
            card = self.mv.round.your_card
        self.app.push_screen(SultansHelp(card))
