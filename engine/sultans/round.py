"""One round (deal) of Sultans of Karaya: every rule of ``docs/rules/sultans.md``.

The state is plain Python (lists of ints/bools, bitmasks) for speed; pydantic
models are built only at the boundary (:meth:`Round.view`, :meth:`Round.outcome`).
Seats are ``0..n-1`` clockwise; *location* ``n`` is the spare.

Flow. ``phase`` is one of:

* ``TURN``    -- ``player`` chooses Peek, Swap/Hide or an Action (S-TURN-2).
  ``player`` is the active seat, or a Slave Driver taking an extra turn.
* ``FORCED``  -- ``forced`` (manipulated by a Vizier) must use an Action (S-VIZ-2).
* ``PREDICT`` -- the Fortune Teller's second step (S-FTL-2).
* ``WINDOW``  -- a Block/Join window or a detention prompt is open (S-REACT-2).
* ``OVER``    -- the round has ended.

When a step is fully resolved, :meth:`_end_step` ends the current turn (or
plays an owed extra turn) and :meth:`_advance` steps turn order (S-TURN-5).

Rulings this module makes where the rules are silent (each has a test in
``tests/sultans/test_rules_*.py``):

* Wins are checked once when the round is created (an explicit test deal
  with no Assassin and fewer than three free Slaves is won by the Loyalists
  at once, S-WIN-2 "at that instant").
* Timeout turn default (S-TIME-1): "the first hidden seat clockwise" is
  counted from the seat after the timed-out seat.
* S-VIEW-2 "every seat that was a legal partner" of a secret swap is taken
  as every living, hidden, non-detained seat other than the hider, less the
  seats an open swap's ban keeps it from (public); bans from secret swaps are
  private, so those seats stay candidates (using them would leak who took
  whose card).
* A card that turns face up (revealed or dead) replaces the notes anyone
  kept on its seat with what all now see (S-VIEW-1): a stale note, or a
  failed capture's "not a Slave", is not shown beside the face-up card.
* A failed capture's public "not a Slave" (S-VIEW-2) is noted on the seat
  only where it adds to the note kept there (one note a seat): a card noted
  there that is not the Slave stays, fresh (it says more) or stale (stale
  notes are kept); a note of a Slave there (refuted) or an older "not a
  Slave" gives way to it. The log has the failed capture either way.
* A seat forced by the Vizier is exhausted as soon as it plays its forced
  Action (so a manipulated Slave Driver's extra turns are played exhausted).
  Exhaustion and the Fortune Teller's forced hide end only with the seat's
  next *regular* turn (played or skipped); extra turns end only swap-back
  bans (S-DRV-2). A Slave Driver may thus hide in an extra turn and stay
  exhausted (hidden) until its next regular turn.
* If a claim of the throne leaves a forced seat with no legal Action (only a
  forced Slave Driver whose one hidden target was the Sultan), revealing
  was the whole effect: it is exhausted and the Vizier's turn ends.
* Joining a revolt needs a hidden Slave (S-SLV-2); an already revealed free
  Slave counts for S-SLV-3 without joining.
* A hidden Sultan may claim at the start of (or during) its own turn and then
  still take that turn; the crown then lies before itself and fires one
  full circle later (S-SUL-3).
* When the Sultan dies the crown goes back to the centre (the round is over
  anyway, S-WIN-1).
* Notes: a seat's notes about its own seat are dropped (it knows its card);
  a new peek/foresee of a seat replaces the older note on that seat.
* Spectators never see private log lines, also after the round; at round
  end they see every card and every card's trail (S-VIEW-3).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any, NoReturn, TypeVar

from pydantic import BaseModel

from engine.sultans.actions import Action, format_action, parse_action
from engine.sultans.cards import (
    ASSASSIN,
    CARD_NAMES,
    DANCER,
    DRIVER,
    GUARD,
    LOYALISTS,
    NEUTRALS,
    REBELS,
    SIDE_NAMES,
    SLAVE,
    SULTAN,
    TELLER,
    VIZIER,
    base_deck,
    card_id,
    neutral_count,
)
from engine.sultans.errors import IllegalMove, NotationError
from engine.sultans.views import (
    CardStep,
    CardTrail,
    EndReason,
    Event,
    Note,
    NoteHow,
    Outcome,
    RoundView,
    SeatView,
    WindowView,
)

PH_TURN = 0
PH_FORCED = 1
PH_PREDICT = 2
PH_WINDOW = 3
PH_OVER = 4
_PHASE_NAMES = ("turn", "forced", "predict", "window", "over")

W_BLOCK = 0
W_JOIN = 1
W_DETAIN = 2
_WINDOW_NAMES = ("block", "join", "detention")

_SEAT_VIEWS: dict[tuple[Any, ...], SeatView] = {}
"""Seat views by their fields: a seat looks the same to every viewer but its
owner (and often from one change to the next), so the views of one state share
those objects instead of each making fifteen (a screen can then tell an
unchanged seat by identity). Immutable; emptied when it grows past
:data:`_SEAT_VIEWS_MAX` (~1.5 KB an entry; a busy host's live seats are a
few hundred)."""
_SEAT_VIEWS_MAX = 2048


def _seat_view(*fields: Any) -> SeatView:
    """The :class:`SeatView` with these fields (in declaration order, see
    :meth:`Round.view`), made once while it is in :data:`_SEAT_VIEWS`."""
    view = _SEAT_VIEWS.get(fields)
    if view is None:
        if len(_SEAT_VIEWS) >= _SEAT_VIEWS_MAX:
            _SEAT_VIEWS.clear()
        (index, alive, revealed, card, detained, captured, exhausted, crown, declared, prediction, foreseen,
         must_hide, active, playing, forced, pending) = fields
        view = _SEAT_VIEWS[fields] = SeatView(
            index=index,
            alive=alive,
            revealed=revealed,
            card=card,
            detained=detained,
            captured=captured,
            exhausted=exhausted,
            crown=crown,
            declared=declared,
            prediction=prediction,
            foreseen=foreseen,
            must_hide=must_hide,
            active=active,
            playing=playing,
            forced=forced,
            pending=pending,
        )
    return view

_NOTE_VIEWS: dict[tuple[Any, ...], Note] = {}
"""Notes by their fields, as :data:`_SEAT_VIEWS` (a note stays the same from one
view to the next until its card moves); emptied past :data:`_NOTE_VIEWS_MAX`."""
_NOTE_VIEWS_MAX = 4096


def _note_view(loc: int | None, card: int, negated: bool, turn: int, how: NoteHow, stale: bool, stale_turn: int | None) -> Note:
    """The :class:`Note` on ``loc`` (``None``: the spare) with these fields (a notebook
    entry, :data:`NoteL`), made once while it is in :data:`_NOTE_VIEWS`."""
    key = (loc, card, negated, turn, how, stale, stale_turn)
    note = _NOTE_VIEWS.get(key)
    if note is None:
        if len(_NOTE_VIEWS) >= _NOTE_VIEWS_MAX:
            _NOTE_VIEWS.clear()
        note = _NOTE_VIEWS[key] = Note(
            seat=loc, card=CARD_NAMES[card], negated=negated, turn=turn, how=how, stale=stale, stale_turn=stale_turn
        )
    return note


_M = TypeVar("_M", bound=BaseModel)


def _built(model: type[_M], **fields: Any) -> _M:
    """A view (or a round's outcome) made from the engine's own state, every field given
    with its model's type (what validation would check it is, by construction): built
    without validating it, as ``model_construct`` does (a view is made for every decision
    of a search's rollouts, an outcome at the end of each)."""
    view = model.__new__(model)
    object.__setattr__(view, "__dict__", fields)
    object.__setattr__(view, "__pydantic_fields_set__", set(fields))
    object.__setattr__(view, "__pydantic_extra__", None)
    object.__setattr__(view, "__pydantic_private__", None)
    return view


# internal op codes (legal map values)
_ACTION_EVENTS = frozenset({"execute", "detain", "assassinate", "revolt", "capture", "dance", "manipulate", "foresee"})
"""The log kinds that say which Action a seat used (the line a forced seat's exhaustion follows)."""

OP_PEEK = 0
OP_SWAP = 1
OP_HIDE = 2
OP_EXECUTE = 3
OP_DETAIN = 4
OP_ASSASSINATE = 5
OP_REVOLT = 6
OP_CAPTURE = 7
OP_DANCE = 8
OP_MANIPULATE = 9
OP_FORESEE = 10
OP_PREDICT = 11
OP_BLOCK = 12
OP_JOIN = 13
OP_REFUSE = 14
OP_CLAIM = 15
OP_PASS = 16

Op = tuple[int, int, int, tuple[int, ...]]  # (code, target/location, side, seats)

_S = [str(i) for i in range(64)]
_PEEK = ["peek " + s for s in _S]
_SWAP = ["swap " + s for s in _S]
_HIDESWAP = ["hide swap " + s for s in _S]
_EXECUTE = ["execute " + s for s in _S]
_DETAIN = ["detain " + s for s in _S]
_ASSASSINATE = ["assassinate " + s for s in _S]
_CAPTURE = ["capture " + s for s in _S]
_MANIP = [["manipulate loyalists " + s for s in _S], ["manipulate rebels " + s for s in _S]]

_OP_CLAIM: Op = (OP_CLAIM, -1, -1, ())
_OP_PASS: Op = (OP_PASS, -1, -1, ())
_OP_HIDE: Op = (OP_HIDE, -1, -1, ())
# the ops of a turn's moves by location (the legal moves are listed after every change)
_OP_PEEKS: list[Op] = [(OP_PEEK, t, -1, ()) for t in range(64)]
_OP_SWAPS: list[Op] = [(OP_SWAP, t, -1, ()) for t in range(64)]
_OP_HIDES: list[Op] = [(OP_HIDE, t, -1, ()) for t in range(64)]

# event tuple layout: (turn, kind, seat, target, spare, seats, cards, card, side, cause, extra, audience)
EvT = tuple[
    int, str, int | None, int | None, bool, tuple[int, ...], tuple[int, ...], int, int, str | None, bool, tuple[int, ...] | None
]

# note layout (mutable list): [card, negated, turn, how, stale, stale_turn]
NoteL = list[Any]


class Round:
    """One deal of Sultans of Karaya, from ``Round.new`` (explicit deal) or ``Round.random``."""

    __slots__ = (
        "_cache",
        "_events",
        "_exhaust_after",
        "_outcome",
        "_seat_cache",
        "_seen",
        "active",
        "alive",
        "answers",
        "asked",
        "bans",
        "captured",
        "card",
        "crown",
        "declared",
        "detained",
        "exhausted",
        "extra",
        "extra_owed",
        "first",
        "forced",
        "foreseen",
        "log",
        "must_hide",
        "n",
        "notebook",
        "notes",
        "open_bans",
        "phase",
        "pid",
        "player",
        "points",
        "prediction",
        "predictor",
        "reason",
        "revealed",
        "snap_exh",
        "snap_hide",
        "trails",
        "turn_limit",
        "turns_played",
        "w_actor",
        "w_kind",
        "w_target",
        "waiting",
        "winner",
    )

    # ------------------------------------------------------------------ setup

    def __init__(self, cards: Sequence[int], spare: int, first: int, turn_limit: int = 200, notebook: bool = True) -> None:
        n = len(cards)
        if n < 3:
            raise ValueError(f"a round needs at least 3 seats, got {n}")
        if not 0 <= first < n:
            raise ValueError(f"first seat {first} is not a seat of {n}")
        if turn_limit < 1:
            raise ValueError("turn_limit must be positive")
        self.n = n
        self.card: list[int] = [*cards, spare]
        self.pid: list[int] = list(range(n + 1))
        self.trails: list[list[tuple[int, int]]] = [[(0, i)] for i in range(n + 1)]
        self.alive = [True] * n
        self.revealed = [False] * n
        self.detained = [False] * n
        self.captured = [False] * n
        self.exhausted = [False] * n
        self.must_hide = [False] * n
        self.bans = [0] * n
        self.open_bans = [0] * n  # the part of ``bans`` everyone knows (open swaps)
        self.crown = -1
        self.declared = [-1] * n
        self.prediction = [-1] * n
        self.foreseen: list[tuple[int, ...]] = [()] * n
        self.first = first
        self.active = (first - 1) % n
        self.player = self.active
        self.extra = False
        self.extra_owed = -1
        self.forced = -1
        self.predictor = -1
        self.phase = PH_TURN
        self.w_kind = -1
        self.w_actor = -1
        self.w_target = -1
        self.asked: tuple[int, ...] = ()
        self.waiting: set[int] = set()
        self.answers: dict[int, int] = {}
        self.turns_played = 0
        self.turn_limit = turn_limit
        self.snap_exh = False
        self.snap_hide = False
        self.winner = -1
        self.reason: EndReason | None = None
        self.points: list[int] = [0] * n
        self.log: list[EvT] = []
        self.notes: list[dict[int, NoteL]] = [{} for _ in range(n + 1)]
        self.notebook = notebook
        self._cache: dict[int, dict[str, Op]] = {}
        self._seat_cache: tuple[dict[int, dict[str, Op]], list[tuple[Any, ...]], list[SeatView]] | None = None
        self._exhaust_after = -1  # a forced seat: log its exhaustion after its Action's own line
        self._events: list[Event] = []
        self._seen: dict[int, tuple[int, list[Event]]] = {}
        self._outcome: Outcome | None = None
        self._ev("round-start", first, seats=tuple(range(n)))
        for s in range(n):
            self._ev("deal", s, card=self.card[s], audience=(s,))
        self._check_wins()
        if self.phase != PH_OVER:
            self._advance()

    @classmethod
    def new(
        cls,
        deal: Sequence[str],
        spare: str,
        first: int = 0,
        turn_limit: int = 200,
        notebook: bool = True,
    ) -> Round:
        """A round from an explicit deal: seat ``i`` gets ``deal[i]`` (not checked
        against the role table, S-DECK-2), ``spare`` is the spare card."""
        return cls([card_id(c) for c in deal], card_id(spare), first, turn_limit, notebook)

    @classmethod
    def random(
        cls,
        players: int,
        seed: int | str,
        first: int | None = None,
        turn_limit: int = 200,
        notebook: bool = True,
    ) -> Round:
        """A round dealt by ``random.Random(seed)``: the role table (S-DECK-1),
        random unseen neutrals (S-DECK-2), a shuffled deal and spare (S-DECK-3),
        and a random first seat unless ``first`` is given (S-TURN-1)."""
        rng = random.Random(seed)
        deck = base_deck(players) + rng.sample(NEUTRALS, neutral_count(players))
        rng.shuffle(deck)
        if first is None:
            first = rng.randrange(players)
        return cls(deck[:players], deck[players], first, turn_limit, notebook)

    @classmethod
    def from_view(cls, view: RoundView, cards: Sequence[int]) -> Round:
        """A round in the state ``view`` shows, with ``cards`` (seat 0..n-1, then the
        spare; card ids) where the view hides them: a search bot's sample of what
        its seat cannot see. Only what the view says is used (public state, the
        viewer's own swap bans); the others' bans, notes and logs start empty.
        Only the viewer's own regular turn is supported (``ValueError`` otherwise)."""
        n = view.players
        me = view.viewer
        if me is None or view.phase != "turn" or view.extra_turn or view.playing != me or view.active != me:
            raise ValueError("a round can be made from a seat's view at the start of its own regular turn only")
        if len(cards) != n + 1:
            raise ValueError(f"{n + 1} cards needed (the seats and the spare), not {len(cards)}")
        r = cls.__new__(cls)
        seats = view.seats
        r.n = n
        r.card = list(cards)
        r.pid = list(range(n + 1))
        r.trails = [[(0, i)] for i in range(n + 1)]
        r.alive = [sv.alive for sv in seats]
        r.revealed = [sv.revealed and sv.alive for sv in seats]
        r.detained = [sv.detained for sv in seats]
        r.captured = [sv.captured for sv in seats]
        r.exhausted = [sv.exhausted for sv in seats]
        r.must_hide = [sv.must_hide for sv in seats]
        r.bans = [0] * n
        for t in view.your_bans:
            r.bans[me] |= 1 << t
        r.open_bans = [0] * n
        r.crown = -1 if view.crown is None else view.crown
        r.declared = [SIDE_NAMES.index(sv.declared) if sv.declared is not None else -1 for sv in seats]
        r.prediction = [SIDE_NAMES.index(sv.prediction) if sv.prediction is not None else -1 for sv in seats]
        r.foreseen = [tuple(sv.foreseen) for sv in seats]
        r.first = view.first
        r.active = me
        r.player = me
        r.extra = False
        r.extra_owed = -1
        r.forced = -1
        r.predictor = -1
        r.phase = PH_TURN
        r.w_kind = r.w_actor = r.w_target = -1
        r.asked = ()
        r.waiting = set()
        r.answers = {}
        r.turns_played = view.turns_played
        r.turn_limit = view.turn_limit
        r.snap_exh = r.exhausted[me]
        r.snap_hide = r.must_hide[me]
        r.winner = -1
        r.reason = None
        r.points = [0] * n
        r.log = []
        r.notes = [{} for _ in range(n + 1)]
        r.notebook = view.notebook
        r._cache = {}
        r._seat_cache = None
        r._exhaust_after = -1
        r._events = []
        r._seen = {}
        r._outcome = None
        return r

    # --------------------------------------------------------------- queries

    @property
    def players(self) -> int:
        return self.n

    @property
    def turn(self) -> int | None:
        """The active seat (S-TURN-6), or ``None`` once the round is over."""
        return None if self.phase == PH_OVER else self.active

    @property
    def over(self) -> bool:
        return self.phase == PH_OVER

    def pending(self) -> set[int]:
        """The seats that must answer now (never depends on who could react, S-REACT-2)."""
        ph = self.phase
        if ph == PH_TURN:
            return {self.player}
        if ph == PH_WINDOW:
            return set(self.waiting)
        if ph == PH_FORCED:
            return {self.forced}
        if ph == PH_PREDICT:
            return {self.predictor}
        return set()

    def legal(self, seat: int) -> list[str]:
        """Every legal action of ``seat`` now, canonical notation, canonical order.

        Claim the Throne (S-SUL-2) is included for a hidden Sultan's holder at
        any time, without that seat being pending."""
        return list(self._legal_map(seat))

    def outcome(self) -> Outcome | None:
        """``None`` while the round goes on, else the :class:`Outcome`."""
        if self.phase != PH_OVER:
            return None
        if self._outcome is None:
            n = self.n
            assert self.reason is not None
            self._outcome = _built(
                Outcome,
                winner=SIDE_NAMES[self.winner] if self.winner >= 0 else None,
                reason=self.reason,
                points={s: self.points[s] for s in range(n)},
                cards=tuple(CARD_NAMES[c] for c in self.card[:n]),
                spare=CARD_NAMES[self.card[n]],
                revealed=tuple(self.revealed),
                alive=tuple(self.alive),
                trails=self._trails(),
                turns=self.turns_played,
            )
        return self._outcome

    # ------------------------------------------------------------- adjacency

    def _left(self, s: int) -> int:
        """Nearest living seat clockwise (seat i+1 side) of ``s`` (S-SEAT-1)."""
        n, alive = self.n, self.alive
        t = (s + 1) % n
        while not alive[t]:
            t = (t + 1) % n
        return t

    def _right(self, s: int) -> int:
        n, alive = self.n, self.alive
        t = (s - 1) % n
        while not alive[t]:
            t = (t - 1) % n
        return t

    def adjacent(self, a: int, b: int) -> bool:
        """``a`` and ``b`` are distinct living seats next to each other, skipping dead seats."""
        if a == b or not self.alive[a] or not self.alive[b]:
            return False
        return self._left(a) == b or self._right(a) == b

    def _dancer_blocks(self, g: int) -> bool:
        """S-GRD-4: a revealed, living, non-detained Belly Dancer is adjacent to ``g``."""
        card, rev, det = self.card, self.revealed, self.detained
        for t in (self._left(g), self._right(g)):
            if t != g and card[t] == DANCER and rev[t] and not det[t]:
                return True
        return False

    def _can_block(self, g: int) -> bool:
        """S-GRD-2, S-GRD-4, S-REACT-3 for the open Block window."""
        if self.card[g] != GUARD or not self.alive[g] or self.detained[g] or self.captured[g]:
            return False
        if self._dancer_blocks(g):
            return False
        a, t = self.w_actor, self.w_target
        if self.adjacent(g, a):
            return True
        return g != t and self.adjacent(g, t)

    # ----------------------------------------------------------------- legal

    def _legal_map(self, seat: int) -> dict[str, Op]:
        m = self._cache.get(seat)
        if m is not None:
            return m
        m = {}
        if 0 <= seat < self.n and self.phase != PH_OVER:
            ph = self.phase
            if ph == PH_TURN:
                if seat == self.player:
                    self._turn_options(seat, m)
            elif ph == PH_WINDOW:
                if seat in self.waiting:
                    m["pass"] = _OP_PASS
                    k = self.w_kind
                    if k == W_BLOCK:
                        if self._can_block(seat):
                            m["block"] = (OP_BLOCK, -1, -1, ())
                    elif k == W_JOIN:
                        c = self.card[seat]
                        if c == SLAVE and not self.revealed[seat] and not self.detained[seat] and not self.captured[seat]:
                            m["join"] = (OP_JOIN, -1, -1, ())
                    elif self.card[seat] in (SULTAN, GUARD):
                        m["refuse"] = (OP_REFUSE, -1, -1, ())
            elif ph == PH_FORCED:
                if seat == self.forced:
                    self._action_options(seat, m)
            elif seat == self.predictor:
                m["predict loyalists"] = (OP_PREDICT, -1, LOYALISTS, ())
                m["predict rebels"] = (OP_PREDICT, -1, REBELS, ())
            if self.card[seat] == SULTAN and self.alive[seat] and not self.revealed[seat]:
                m["claim"] = _OP_CLAIM
        self._cache[seat] = m
        return m

    def _turn_options(self, p: int, m: dict[str, Op]) -> None:
        n, alive, rev, det = self.n, self.alive, self.revealed, self.detained
        mh = self.must_hide[p]
        if not mh:
            for t in range(n):
                if t != p and alive[t] and not rev[t]:
                    m[_PEEK[t]] = _OP_PEEKS[t]
        bans = self.bans[p]
        partners = [t for t in range(n) if t != p and alive[t] and not rev[t] and not det[t] and not (bans >> t) & 1]
        if not rev[p]:
            for t in partners:
                m[_SWAP[t]] = _OP_SWAPS[t]
            m["swap spare"] = _OP_SWAPS[n]
        else:
            m["hide"] = _OP_HIDE
            for t in partners:
                m[_HIDESWAP[t]] = _OP_HIDES[t]
            m["hide swap spare"] = _OP_HIDES[n]
        if not mh and not self.exhausted[p]:
            self._action_options(p, m)

    def _action_options(self, p: int, m: dict[str, Op]) -> None:
        """The Actions of the card at ``p`` (S-SUL-1 ... S-FTL-2)."""
        n, alive, rev, card = self.n, self.alive, self.revealed, self.card
        c = card[p]
        if c == SULTAN:
            for t in range(n):
                if t != p and alive[t] and rev[t] and card[t] in (ASSASSIN, SLAVE):
                    m[_EXECUTE[t]] = (OP_EXECUTE, t, -1, ())
        elif c == GUARD:
            if not self._dancer_blocks(p):
                det = self.detained
                for t in range(n):
                    if t != p and alive[t] and not det[t]:
                        m[_DETAIN[t]] = (OP_DETAIN, t, -1, ())
        elif c == ASSASSIN:
            for t in range(n):
                if t != p and alive[t]:
                    m[_ASSASSINATE[t]] = (OP_ASSASSINATE, t, -1, ())
        elif c == SLAVE:
            m["revolt"] = (OP_REVOLT, -1, -1, ())
        elif c == DRIVER:
            cap = self.captured
            for t in range(n):
                if t != p and alive[t] and (not rev[t] or (card[t] == SLAVE and not cap[t])):
                    m[_CAPTURE[t]] = (OP_CAPTURE, t, -1, ())
        elif c == DANCER:
            if not rev[p]:
                m["dance"] = (OP_DANCE, -1, -1, ())
        elif c == VIZIER:
            det = self.detained
            targets = [t for t in range(n) if t != p and alive[t] and not rev[t] and not det[t]]
            if targets:
                d = self.declared[p] if rev[p] else -1
                for side in (LOYALISTS, REBELS):
                    if d >= 0 and side != d:
                        continue
                    names = _MANIP[side]
                    for t in targets:
                        m[names[t]] = (OP_MANIPULATE, t, side, ())
        elif c == TELLER:
            hidden = [t for t in range(n) if t != p and alive[t] and not rev[t]]
            k = min(3, len(hidden))
            for combo in combinations(hidden, k):
                m[" ".join(["foresee", *(_S[t] for t in combo)])] = (OP_FORESEE, -1, -1, combo)

    # ------------------------------------------------------------------ play

    def play(self, seat: int, text: str) -> None:
        """Apply ``text`` for ``seat``; raise an ``IllegalAction`` subclass and change
        nothing if it is malformed or not legal now."""
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalMove(f"seat {seat!r} is not a seat of this {self.n}-seat round", code="bad-seat", text=str(text), seat=None)
        if self.phase == PH_OVER:
            raise IllegalMove(f"seat {seat}: {text!r}: the round is over", code="round-over", text=str(text), seat=seat)
        if not isinstance(text, str):
            raise NotationError(f"seat {seat}: {text!r} is not a string", text=str(text), seat=seat)
        m = self._legal_map(seat)
        op = m.get(text)
        if op is None:
            try:
                canon = format_action(parse_action(text))
            except NotationError as e:
                raise NotationError(f"seat {seat}: {e}", text=str(text), seat=seat) from None
            op = m.get(canon)
            if op is None:
                self._reject(seat, text, canon, m)
        self._cache = {}
        self._apply(seat, op)

    def apply(self, seat: int, action: Action) -> None:
        """Apply a structured :class:`Action` (same as ``play(seat, format_action(action))``)."""
        self.play(seat, format_action(action))

    def _reject(self, seat: int, text: str, canon: str, m: dict[str, Op]) -> NoReturn:
        word = canon.split()[0]
        others = [a for a in m if a != "claim"]
        if not m:
            waiting = sorted(self.pending())
            raise IllegalMove(
                f"seat {seat}: {text!r}: nothing to do now (waiting for seat(s) {', '.join(map(str, waiting))})",
                code="not-pending",
                text=text,
                seat=seat,
            )
        if word == "claim":
            why = "only a seat holding the hidden Sultan may claim"
        elif not others:
            why = "you are not asked now; only 'claim' is open to you"
        else:
            why = self._why(seat, word)
        shown = others[:12]
        more = "" if len(others) <= 12 else f" (+{len(others) - 12} more)"
        raise IllegalMove(
            f"seat {seat}: {text!r} is not legal now: {why}; legal: {', '.join(shown)}{more}",
            code="illegal",
            text=text,
            seat=seat,
        )

    def _why(self, seat: int, word: str) -> str:
        ph = self.phase
        if ph == PH_WINDOW:
            return f"a {_WINDOW_NAMES[self.w_kind]} window is open; answer it"
        if ph == PH_PREDICT:
            return "the Fortune Teller must now predict a side"
        if ph == PH_FORCED:
            return "a forced seat may only use an Action of its card"
        if word in ("pass", "block", "join", "refuse"):
            return "no window is open; it is your turn"
        if self.must_hide[seat] and word not in ("hide",):
            return "the Fortune Teller must Swap/Hide on this turn"
        if word == "hide" and not self.revealed[seat]:
            return "a hidden seat cannot hide (swap instead)"
        if word == "swap" and self.revealed[seat]:
            return "a revealed seat hides (optionally swapping) instead of swapping"
        if word in ("execute", "detain", "assassinate", "revolt", "capture", "dance", "manipulate", "foresee"):
            if self.exhausted[seat]:
                return "an exhausted seat may not use an Action this turn"
            return "no such Action for your card and that target"
        return "that target is not allowed"

    # ----------------------------------------------------------------- apply

    def _apply(self, seat: int, op: Op) -> None:
        code = op[0]
        if code == OP_CLAIM:
            self._claim(seat)
            return
        ph = self.phase
        if ph == PH_WINDOW:
            self._answer(seat, code)
            return
        if ph == PH_PREDICT:
            self.prediction[seat] = op[2]
            self._ev("predict", seat, side=op[2])
            self._check_wins()
            self._end_step()
            return
        if code == OP_PEEK:
            t = op[1]
            self._ev("peek", seat, target=t)
            self._ev("peek-result", seat, target=t, card=self.card[t], audience=(seat,))
            self._note(seat, t, self.card[t], "peek")
            self._end_step()
        elif code == OP_SWAP:
            self._open_swap(seat, op[1])
            self._check_wins()
            self._end_step()
        elif code == OP_HIDE:
            self._hide(seat, op[1])
            self._check_wins()
            self._end_step()
        else:
            self._act(seat, op, ph == PH_FORCED)

    def _act(self, p: int, op: Op, forced: bool) -> None:
        """Use an Action (S-ACT-1): reveal first, then the effect."""
        if forced:
            self.forced = -1
            self.phase = PH_TURN
            self.exhausted[p] = True  # at once (S-VIZ-2); logged after the Action it plays (_ev)
            self._exhaust_after = p
        try:
            self._act_effect(p, op)
        finally:
            self._exhaust_after = -1

    def _act_effect(self, p: int, op: Op) -> None:
        code, t = op[0], op[1]
        if not self.revealed[p]:
            self._reveal(p, "action")
            self._check_wins()
            if self.phase == PH_OVER:
                return
        if code == OP_EXECUTE:
            self._ev("execute", p, target=t)
            self._kill(t, "executed")
            self._check_wins()
            self._end_step()
        elif code == OP_DETAIN:
            self._ev("detain", p, target=t)
            self._open_window(W_DETAIN, p, t, (t,))
        elif code == OP_ASSASSINATE:
            self._ev("assassinate", p, target=t)
            self._open_window(W_BLOCK, p, t, tuple(s for s in range(self.n) if s != p and self.alive[s]))
        elif code == OP_REVOLT:
            self._ev("revolt", p)
            self._check_wins()
            if self.phase == PH_OVER:
                return
            self._open_window(W_JOIN, p, -1, tuple(s for s in range(self.n) if s != p and self.alive[s]))
        elif code == OP_CAPTURE:
            self._ev("capture", p, target=t)
            if self.revealed[t]:
                self.captured[t] = True
                self._ev("captured", p, target=t)
                self._check_wins()
            elif self.card[t] == SLAVE:
                self._reveal(t, "captured")
                self.captured[t] = True
                self._ev("captured", p, target=t)
                self._check_wins()
                if self.phase != PH_OVER:
                    self.extra_owed = p
                    self._ev("extra-turn", p)
            else:
                self._ev("not-slave", p, target=t)
                for v in range(self.n + 1):
                    kept = self.notes[v].get(t)
                    if kept is not None and not kept[1] and kept[0] != SLAVE:
                        continue  # a card noted there that is not the Slave says more (fresh) or is kept (stale)
                    self._note(v, t, SLAVE, "not-slave", negated=True)
            self._end_step()
        elif code == OP_DANCE:
            self._ev("dance", p)
            self._check_wins()
            self._end_step()
        elif code == OP_MANIPULATE:
            self.declared[p] = op[2]
            self._ev("manipulate", p, target=t, side=op[2])
            self._reveal(t, "manipulated")
            self._check_wins()
            if self.phase == PH_OVER:
                return
            fm: dict[str, Op] = {}
            self._action_options(t, fm)
            if fm:
                self.forced = t
                self.phase = PH_FORCED
                self._ev("forced", t)
            else:
                self.exhausted[t] = True
                self._ev("exhausted", t)
                self._end_step()
        elif code == OP_FORESEE:
            seats = op[3]
            self.foreseen[p] = seats
            self.prediction[p] = -1
            self.must_hide[p] = True
            self._ev("foresee", p, seats=seats)
            self._ev("foresee-result", p, seats=seats, cards=tuple(self.card[s] for s in seats), audience=(p,))
            for s in seats:
                self._note(p, s, self.card[s], "foresee")
            self.predictor = p
            self.phase = PH_PREDICT
        else:  # pragma: no cover - legal map never holds anything else here
            raise AssertionError(f"unexpected op {op!r}")

    def _claim(self, s: int) -> None:
        """S-SUL-2: reveal the hidden Sultan; the crown goes before the active seat."""
        self._ev("claim", s)
        self._reveal(s, "claim")
        self._check_wins()
        if self.phase == PH_FORCED:
            fm: dict[str, Op] = {}
            self._action_options(self.forced, fm)
            if not fm:
                f = self.forced
                self.forced = -1
                self.phase = PH_TURN
                self.exhausted[f] = True
                self._ev("exhausted", f)
                self._end_step()

    def _reveal(self, s: int, cause: str) -> None:
        self.revealed[s] = True
        c = self.card[s]
        self._ev("reveal", s, card=c, cause=cause)
        self._seen_face_up(s, c)
        if c == SULTAN:  # S-SUL-3: claim, Execute, refuse, manipulated
            self.crown = self.active
            self._ev("crown", None, target=self.active)

    def _kill(self, s: int, cause: str) -> None:
        """S-DIE-1."""
        self.alive[s] = False
        self.revealed[s] = True
        self.detained[s] = False
        self.captured[s] = False
        self.exhausted[s] = False
        self.must_hide[s] = False
        c = self.card[s]
        self._ev("death", s, card=c, cause=cause)
        self._seen_face_up(s, c)
        if c == SULTAN:  # S-SUL-3: the crown returns to the centre; S-WIN-1
            if self.crown >= 0:
                self.crown = -1
                self._ev("crown", None, target=None, cause="sultan-died")
            self._end(REBELS, "sultan-killed")
            return
        if c == DRIVER:
            self._release("driver-died")

    def _release(self, cause: str) -> None:
        """S-DRV-3: every captive is freed."""
        freed = tuple(s for s in range(self.n) if self.captured[s])
        if freed:
            for s in freed:
                self.captured[s] = False
            self._ev("release", None, seats=freed, cause=cause)

    def _open_swap(self, p: int, loc: int) -> None:
        """S-SWAP-1: a hidden seat swaps openly with a seat or the spare."""
        n = self.n
        old_p, old_l = self.card[p], self.card[loc]
        self._move(p, loc)
        spare = loc == n
        self._ev("swap", p, target=None if spare else loc, spare=spare)
        self._ev("new-card", p, card=old_l, audience=(p,))
        if not spare:
            self.bans[loc] |= 1 << p  # S-SWAP-3
            self.open_bans[loc] |= 1 << p
            self._ev("new-card", loc, card=old_p, audience=(loc,))
        # S-VIEW-2: notes move with the cards, for everyone
        for v in range(n + 1):
            notes = self.notes[v]
            a, b = notes.pop(p, None), notes.pop(loc, None)
            if a is not None:
                notes[loc] = a
            if b is not None:
                notes[p] = b
        self._note(p, loc, old_p, "swap")
        self.notes[p].pop(p, None)
        if not spare:
            self._note(loc, p, old_l, "swap")
            self.notes[loc].pop(loc, None)

    def _hide(self, p: int, loc: int) -> None:
        """S-SWAP-2: a revealed seat hides, optionally swapping in secret."""
        n = self.n
        c = self.card[p]
        self.revealed[p] = False
        self.declared[p] = -1
        self.prediction[p] = -1
        self.foreseen[p] = ()
        self._ev("hide", p)  # before what follows from it (the crown, captives)
        if c == SULTAN and self.crown >= 0:
            self.crown = -1
            self._ev("crown", None, target=None, cause="sultan-hid")
        if c == DRIVER:
            self._release("driver-hid")
        turn = self.turns_played
        for v in range(n + 1):
            if v != p:
                self._note(v, p, c, "revealed")
        # the legal partners as everyone can tell them: an open swap's ban is public
        # (a secret swap's is not, so those seats stay candidates)
        public_bans = self.open_bans[p]
        candidates = [
            t for t in range(n)
            if t != p and self.alive[t] and not self.revealed[t] and not self.detained[t] and not (public_bans >> t) & 1
        ]
        knows: tuple[int, ...] = (p,)
        if loc >= 0:
            old_l = self.card[loc]
            self._move(p, loc)
            spare = loc == n
            aud = (p,) if spare else (min(p, loc), max(p, loc))
            self._ev("hide-swap", p, target=None if spare else loc, spare=spare, audience=aud)
            self._ev("new-card", p, card=old_l, audience=(p,))
            self._note(p, loc, c, "hide-swap")
            self.notes[p].pop(p, None)
            if not spare:
                self.bans[loc] |= 1 << p  # S-SWAP-3
                self._ev("new-card", loc, card=c, audience=(loc,))
                self._note(loc, p, old_l, "hide-swap")
                self.notes[loc].pop(loc, None)
                knows = aud
        # S-VIEW-2: everyone who does not know the partner marks what may have moved
        for v in range(n + 1):
            if v in knows:
                continue
            notes = self.notes[v]
            if not notes:
                continue
            for loc2 in (p, n, *candidates):
                note = notes.get(loc2)
                if note is not None and not note[4]:
                    note[4] = True
                    note[5] = turn

    def _move(self, a: int, b: int) -> None:
        card, pid = self.card, self.pid
        card[a], card[b] = card[b], card[a]
        pid[a], pid[b] = pid[b], pid[a]
        turn = self.turns_played
        self.trails[pid[a]].append((turn, a))
        self.trails[pid[b]].append((turn, b))

    # --------------------------------------------------------------- windows

    def _open_window(self, kind: int, actor: int, target: int, asked: tuple[int, ...]) -> None:
        """S-REACT-2: ask every seat in ``asked`` (never chosen by who could react)."""
        self.w_kind = kind
        self.w_actor = actor
        self.w_target = target
        self.asked = asked
        self.waiting = set(asked)
        self.answers = {}
        self.phase = PH_WINDOW
        self._ev("window", actor, target=None if target < 0 else target, seats=asked, cause=_WINDOW_NAMES[kind])
        if not asked:
            self._resolve_window()

    def _answer(self, seat: int, code: int) -> None:
        word = {OP_PASS: "pass", OP_BLOCK: "block", OP_JOIN: "join", OP_REFUSE: "refuse"}[code]
        if code == OP_PASS and self.w_kind == W_DETAIN:
            word = "accept"  # a detention's target who does not refuse accepts it (S-GRD-3)
        self.answers[seat] = code
        self.waiting.discard(seat)
        self._ev("answer", seat, cause=word, audience=(seat,))
        if not self.waiting:
            self._resolve_window()

    def _resolve_window(self) -> None:
        """S-REACT-4: resolve once the last asked seat has answered; then check wins once."""
        kind, a, t = self.w_kind, self.w_actor, self.w_target
        answers = self.answers
        self.phase = PH_TURN
        self.asked = ()
        self.waiting = set()
        self.answers = {}
        self.w_kind = -1
        if kind == W_BLOCK:
            n = self.n
            blocker = -1
            for k in range(1, n + 1):  # first blocker clockwise from the Assassin's left
                s = (a + k) % n
                if answers.get(s) == OP_BLOCK:
                    blocker = s
                    break
            if blocker >= 0:
                if not self.revealed[blocker]:
                    self._reveal(blocker, "block")
                self._ev("block", blocker, target=a)
                # S-GRD-2: one Guard blocks; each other who answered block is told why
                # theirs was not used, and that their card stays as it was (to them alone)
                for s in sorted(answers):
                    if s != blocker and answers[s] == OP_BLOCK:
                        cause = "revealed" if self.revealed[s] else "hidden"
                        self._ev("block-unused", s, target=blocker, cause=cause, audience=(s,))
                self._kill(a, "blocked")
            else:
                self._kill(t, "assassinated")
        elif kind == W_JOIN:
            joiners = tuple(s for s in sorted(answers) if answers[s] == OP_JOIN)
            for s in joiners:
                self._reveal(s, "join")
            self._ev("join", a, seats=joiners)
        else:
            if answers.get(t) == OP_REFUSE:
                if not self.revealed[t]:
                    self._reveal(t, "refuse")
                self._ev("refuse", t)
            else:
                self.detained[t] = True
                self._ev("detained", t)
        if self.phase == PH_OVER:
            return
        self._check_wins()
        self._end_step()

    # ---------------------------------------------------------------- turns

    def _end_step(self) -> None:
        """The current step is fully resolved: end the turn (or play an owed extra turn)."""
        if self.phase == PH_OVER:
            return
        p = self.player
        self.bans[p] = 0  # S-SWAP-3 / S-DRV-2: the ban ends at the end of p's turn
        self.open_bans[p] = 0
        if not self.extra:
            a = self.active
            if self.snap_exh:
                self.exhausted[a] = False
                self.snap_exh = False
            if self.snap_hide:
                self.must_hide[a] = False
                self.snap_hide = False
        self.forced = -1
        self.predictor = -1
        self.phase = PH_TURN
        if self.extra_owed >= 0:  # S-DRV-2: an extra turn at once
            d = self.extra_owed
            self.extra_owed = -1
            self.player = d
            self.extra = True
            self.turns_played += 1
            self._ev("turn", d, extra=True)
            return
        self._advance()

    def _advance(self) -> None:
        """S-TURN-5: step turn order clockwise until a seat's turn starts or the round ends."""
        n = self.n
        s = self.active
        self.extra = False
        for _ in range(4 * n + 4):
            s = (s + 1) % n
            self.active = s
            self.player = s
            if self.crown == s:  # (1) the crown fires (S-SUL-3); it is only out while the Sultan is alive and revealed
                self._end(LOYALISTS, "crown")
                return
            if self.turns_played >= self.turn_limit:  # S-WIN-4
                self._end(-1, "turn-limit")
                return
            if not self.alive[s]:
                continue
            if self.detained[s]:  # (2) S-TURN-3 / S-TURN-4
                self.detained[s] = False
                self.exhausted[s] = False
                self.must_hide[s] = False
                self.bans[s] = 0
                self.open_bans[s] = 0
                self._ev("skip", s, cause="detained")
                self._check_wins()
                if self.phase == PH_OVER:
                    return
                continue
            if self.captured[s]:
                self.exhausted[s] = False
                self.must_hide[s] = False
                self.bans[s] = 0
                self.open_bans[s] = 0
                self._ev("skip", s, cause="captured")
                continue
            self.turns_played += 1
            self.phase = PH_TURN
            self.snap_exh = self.exhausted[s]
            self.snap_hide = self.must_hide[s]
            self._ev("turn", s)
            return
        raise AssertionError("no seat can play")  # pragma: no cover - S-TURN-5 guarantees a player

    # ------------------------------------------------------------------ wins

    def _check_wins(self) -> None:
        """S-WIN-3, after the Sultan-killed check done in :meth:`_kill`:
        revolution (S-SLV-3), then no Assassins and fewer than three free Slaves (S-WIN-2)."""
        if self.phase == PH_OVER:
            return
        n, card, alive, rev, det, cap = self.n, self.card, self.alive, self.revealed, self.detained, self.captured
        ring = [s for s in range(n) if alive[s]]
        m = len(ring)
        if m >= 3:
            ok = [card[s] == SLAVE and rev[s] and not det[s] and not cap[s] for s in ring]
            if sum(ok) >= 3:
                for i in range(m):
                    if ok[i] and ok[i - 1] and ok[(i + 1) % m]:
                        self._end(REBELS, "revolution")
                        return
        if card[n] == ASSASSIN:
            return
        free = 1 if card[n] == SLAVE else 0
        for s in ring:
            c = card[s]
            if c == ASSASSIN:
                return
            if c == SLAVE and not det[s] and not cap[s]:
                free += 1
        if free < 3:
            self._end(LOYALISTS, "no-rebels")

    def _end(self, winner: int, reason: EndReason) -> None:
        self.phase = PH_OVER
        self.winner = winner
        self.reason = reason
        self.forced = -1
        self.predictor = -1
        self.waiting = set()
        self.asked = ()
        self.extra_owed = -1
        self._cache = {}
        if winner >= 0:
            self._ev("win", None, side=winner, cause=reason)
            self.points = self._score(winner)
        else:
            self._ev("turn-limit", None, cause=reason)
            self.points = [0] * self.n
        n = self.n
        self._ev("round-end", None, seats=tuple(range(n)), cards=tuple(self.card[:n]), card=self.card[n])

    def _score(self, w: int) -> list[int]:
        """S-SCORE-1 (and S-VIZ-1 for a hidden Vizier)."""
        n, card, alive, rev = self.n, self.card, self.alive, self.revealed
        pts = [0] * n
        viz = -1
        for s in range(n):
            if not alive[s]:
                continue
            c, r = card[s], rev[s]
            if c in (SULTAN, GUARD):
                side = LOYALISTS
            elif c in (ASSASSIN, SLAVE):
                side = REBELS
            elif c == DRIVER:
                side = LOYALISTS if r else REBELS
            elif c == DANCER:
                side = REBELS if r else LOYALISTS
            elif c == VIZIER:
                if not r:
                    viz = s
                    continue
                pts[s] = 2 if self.declared[s] == w else 0
                continue
            else:  # Fortune Teller
                pts[s] = 2 if r and self.prediction[s] == w else 0
                continue
            if side == w:
                pts[s] = 2 if r else 1
        if viz >= 0 and (pts[self._left(viz)] == 2 or pts[self._right(viz)] == 2):
            pts[viz] = 1
        return pts

    # --------------------------------------------------------------- timeout

    def timeout_action(self, seat: int) -> str:
        """S-TIME-1: the fixed default played when ``seat`` times out."""
        if seat not in self.pending():
            raise IllegalMove(f"seat {seat} is not pending; nothing to time out", code="not-pending", seat=seat)
        m = self._legal_map(seat)
        ph = self.phase
        if ph == PH_WINDOW:
            return "pass"
        if ph == PH_PREDICT:
            return "predict loyalists"
        if ph == PH_FORCED:
            return next(a for a in m if a != "claim")
        n = self.n
        for k in range(1, n):
            t = (seat + k) % n
            if _PEEK[t] in m:
                return _PEEK[t]
        return "hide" if self.revealed[seat] else "swap spare"

    # ----------------------------------------------------------------- notes

    def _note(self, v: int, loc: int, card: int, how: NoteHow, negated: bool = False) -> None:
        self.notes[v][loc] = [card, negated, self.turns_played, how, False, None]

    def _seen_face_up(self, s: int, card: int) -> None:
        """Seat ``s``'s card is face up: a note anyone kept on it (stale, or a
        "not a Slave") is now what everyone sees (S-VIEW-1), not a guess."""
        for v in range(self.n + 1):
            if v != s and s in self.notes[v]:
                self._note(v, s, card, "revealed")

    # ------------------------------------------------------------------- log

    def _ev(
        self,
        kind: str,
        seat: int | None,
        *,
        target: int | None = None,
        spare: bool = False,
        seats: tuple[int, ...] = (),
        cards: tuple[int, ...] = (),
        card: int = -1,
        side: int = -1,
        cause: str | None = None,
        extra: bool = False,
        audience: tuple[int, ...] | None = None,
    ) -> None:
        self.log.append((self.turns_played, kind, seat, target, spare, seats, cards, card, side, cause, extra, audience))
        if seat == self._exhaust_after and kind in _ACTION_EVENTS:  # S-VIZ-2: "it is then exhausted"
            self._exhaust_after = -1
            self._ev("exhausted", seat)

    def _event(self, i: int) -> Event:
        ev = self._events
        while len(ev) <= i:
            t = self.log[len(ev)]
            ev.append(
                Event(
                    turn=t[0],
                    kind=t[1],
                    seat=t[2],
                    target=t[3],
                    spare=t[4],
                    seats=t[5],
                    cards=tuple(CARD_NAMES[c] for c in t[6]),
                    card=CARD_NAMES[t[7]] if t[7] >= 0 else None,
                    side=SIDE_NAMES[t[8]] if t[8] >= 0 else None,
                    cause=t[9],
                    extra=t[10],
                    audience=t[11],
                    private=t[11] is not None,
                )
            )
        return ev[i]

    def events(self, seat: int | None) -> list[Event]:
        """The log as ``seat`` may see it (``None``: public events only), S-VIEW-4."""
        key = -1 if seat is None else seat
        done, out = self._seen.get(key, (0, []))
        log = self.log
        for i in range(done, len(log)):
            aud = log[i][11]
            if aud is None or (seat is not None and seat in aud):
                out.append(self._event(i))
        self._seen[key] = (len(log), out)
        return list(out)

    def full_log(self) -> list[Event]:
        """Every event with its audience (server side only; never send to a screen)."""
        return [self._event(i) for i in range(len(self.log))]

    # ------------------------------------------------------------------ view

    def _trails(self) -> tuple[CardTrail, ...]:
        n = self.n
        out = []
        for p in range(n + 1):
            # the physical card p started at location p; its type is where it is now
            loc = self.pid.index(p)
            out.append(
                _built(
                    CardTrail,
                    card=CARD_NAMES[self.card[loc]],
                    steps=tuple(_built(CardStep, turn=t, seat=None if loc2 == n else loc2) for t, loc2 in self.trails[p]),
                )
            )
        return tuple(out)

    def _public_seats(self, over: bool, ph: int, pend: set[int]) -> tuple[list[tuple[Any, ...]], list[SeatView]]:
        """Every seat's fields (in :func:`_seat_view`'s order) and view as any viewer but
        its owner sees it: a hidden card is ``None``."""
        active = -1 if over else self.active
        playing = -1 if over or ph == PH_WINDOW else self.player
        crown, forced = self.crown, self.forced
        fields_list: list[tuple[Any, ...]] = []
        public: list[SeatView] = []
        for i, (alive, rev, c, det, cap, exh, dec, pred, fore, hide) in enumerate(zip(
            self.alive, self.revealed, self.card, self.detained, self.captured, self.exhausted,
            self.declared, self.prediction, self.foreseen, self.must_hide, strict=False,  # card: the spare last
        )):
            fields = (
                i,
                alive,
                rev,
                CARD_NAMES[c] if rev or over else None,
                det,
                cap,
                exh,
                crown == i,
                SIDE_NAMES[dec] if rev and dec >= 0 else None,
                SIDE_NAMES[pred] if rev and pred >= 0 else None,
                fore if rev else (),
                hide,
                active == i,
                playing == i,
                forced == i,
                i in pend,
            )
            fields_list.append(fields)
            sv = _SEAT_VIEWS.get(fields)
            public.append(sv if sv is not None else _seat_view(*fields))
        return fields_list, public

    def view(self, seat: int | None, *, quick: bool = False, log: bool = True) -> RoundView:
        """Everything ``seat`` may know (``None``: a spectator), nothing more (S-VIEW-1..4).

        ``quick`` (S-REACT-5): in an open window, who still owes an answer is
        shown for the viewer alone (its own seat), never for the others.
        ``log=False`` leaves the log out (a search's rollouts: the bots do not read it)."""
        n = self.n
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < n):
            raise IllegalMove(f"seat {seat!r} is not a seat of this {n}-seat round", code="bad-seat")
        over = self.phase == PH_OVER
        pend = self.pending()
        ph = self.phase
        if quick and ph == PH_WINDOW:
            pend = pend & {seat}
        # the seats as everyone sees them, kept for this state: ``_cache`` (the legal moves)
        # is a new dict after every change, so a kept list is for this state if it came
        # with the current one (a room views every seat after each action, a search's
        # rollouts the Sultan's and the player's)
        kept = self._seat_cache
        if kept is not None and kept[0] is self._cache and not (quick and ph == PH_WINDOW):
            fields_list, public = kept[1], kept[2]
        else:
            fields_list, public = self._public_seats(over, ph, pend)
            if not (quick and ph == PH_WINDOW):
                self._seat_cache = (self._cache, fields_list, public)
        seats = public
        if seat is not None and not (self.revealed[seat] or over):
            # the viewer sees its own card
            fields = fields_list[seat]
            seats = list(public)
            seats[seat] = _seat_view(*fields[:3], CARD_NAMES[self.card[seat]], *fields[4:])
        window = None
        if ph == PH_WINDOW:
            ans = self.answers.get(seat) if seat is not None else None
            window = WindowView(
                kind=_WINDOW_NAMES[self.w_kind],
                actor=self.w_actor,
                target=self.w_target if self.w_target >= 0 else None,
                asked=tuple(sorted(self.asked)),
                waiting=tuple(sorted(set(self.waiting) & pend)),
                answered=ans is not None,
                your_answer={OP_PASS: "pass", OP_BLOCK: "block", OP_JOIN: "join", OP_REFUSE: "refuse"}[ans] if ans is not None else None,
            )
        nv = self.notes[n if seat is None else seat]
        notes = tuple(_note_view(None if loc == n else loc, *x) for loc, x in sorted(nv.items()))
        return _built(
            RoundView,
            viewer=seat,
            players=n,
            first=self.first,
            seats=tuple(seats),
            your_card=CARD_NAMES[self.card[seat]] if seat is not None else None,
            your_bans=tuple(t for t in range(n) if (self.bans[seat] >> t) & 1) if seat is not None and self.bans[seat] else (),
            spare_card=CARD_NAMES[self.card[n]] if over else None,
            crown=self.crown if self.crown >= 0 else None,
            phase=_PHASE_NAMES[ph],
            active=None if over else self.active,
            playing=None if over or ph == PH_WINDOW else self.player,
            extra_turn=not over and self.extra,
            forced=self.forced if self.forced >= 0 else None,
            window=window,
            pending=tuple(sorted(pend)),
            legal=tuple(self.legal(seat)) if seat is not None else (),
            notes=notes,
            notebook=self.notebook,
            turns_played=self.turns_played,
            turn_limit=self.turn_limit,
            log=tuple(self.events(seat)) if log else (),
            outcome=self.outcome(),
        )

    # ------------------------------------------------------------ inspection

    def cards(self) -> list[str]:
        """Every seat's card (server/test use only; never show to a player)."""
        return [CARD_NAMES[c] for c in self.card[: self.n]]

    def spare(self) -> str:
        """The spare's card (server/test use only)."""
        return CARD_NAMES[self.card[self.n]]
