"""What a seat (or a spectator) sees of Sultans of Karaya: pydantic models.

These models are the whole interface between the engine and screens/bots:
``Round.view(seat)`` returns a :class:`RoundView`, ``Match.view(seat)`` a
:class:`MatchView`. Everything here serialises to JSON and back
(``RoundView.model_validate_json(v.model_dump_json()) == v``). No English
prose is stored: events and reasons are codes, so screens phrase them in
any language.

Seats are numbered ``0..players-1`` clockwise (seat ``i+1`` is on the left of
seat ``i``). Wherever a location can be the spare, ``seat=None`` means the
spare (and a ``spare: bool`` field says so explicitly where both are possible).

Event kinds (:data:`EventKind`) and the fields each one uses
(``seat`` = the acting/subject seat, ``target`` = the other seat):

=================  ============================================================
kind               fields
=================  ============================================================
``round-start``    ``seat`` = first seat of the round, ``seats`` = all seats
``deal``           private: ``seat`` = you, ``card`` = the card you were dealt
``turn``           ``seat`` starts a turn; ``extra`` = it is a Slave Driver's
                   extra turn (S-DRV-2)
``skip``           ``seat``'s turn is skipped; ``cause`` = ``"detained"`` (the
                   prison token is removed) or ``"captured"``
``peek``           ``seat`` peeked at ``target``
``peek-result``    private to the peeker: ``target`` holds ``card``
``swap``           ``seat`` (hidden) swapped with ``target`` or the spare
                   (``spare`` = True)
``new-card``       private: ``seat`` (you) now holds ``card`` after a swap
``hide``           ``seat`` turned its card face down and may have swapped
``hide-swap``      private to the hider and its partner: ``seat`` hid and
                   swapped with ``target`` / the spare (``spare``)
``reveal``         ``seat`` turned ``card`` face up; ``cause`` = ``"action"``,
                   ``"claim"``, ``"refuse"``, ``"block"``, ``"join"``,
                   ``"manipulated"`` or ``"captured"``
``claim``          ``seat`` claimed the throne (Sultan revealed)
``crown``          the crown was put in front of ``target``; ``target`` None =
                   the crown went back to the centre (``cause`` =
                   ``"sultan-hid"`` or ``"sultan-died"``)
``execute``        ``seat`` (Sultan) executed ``target``
``death``          ``seat`` died, its ``card`` is face up; ``cause`` =
                   ``"executed"``, ``"assassinated"`` or ``"blocked"``
``detain``         ``seat`` (Guard) detains ``target``; the target is asked
``refuse``         ``seat`` refused detention
``detained``       ``seat`` got the prison token
``assassinate``    ``seat`` (Assassin) attacks ``target``; a Block window opens
``window``         a window opened: ``cause`` = ``"block"``, ``"join"`` or
                   ``"detention"``; ``seat`` = actor, ``target`` = its target,
                   ``seats`` = the seats asked
``answer``         private: you (``seat``) answered the open window with
                   ``cause`` (``"pass"``, ``"block"``, ``"join"``, ``"refuse"``;
                   ``"accept"``: passed on a detention of one's own)
``block``          ``seat`` (Guard) blocked the Assassin ``target``
``block-unused``   private: ``seat`` (you) answered block, but ``target``
                   blocked first (clockwise from the Assassin, S-GRD-2);
                   ``cause`` = ``"hidden"`` (your card stays hidden) or
                   ``"revealed"``
``revolt``         ``seat`` (Slave) called to revolt
``join``           ``seats`` joined the revolt (possibly none); public result
``capture``        ``seat`` (Slave Driver) tries to capture ``target``
``captured``       ``target`` got a capture token from ``seat``
``not-slave``      ``target`` (hidden) does not hold a Slave (failed capture)
``extra-turn``     ``seat`` (Slave Driver) takes an extra turn
``release``        the captives ``seats`` are freed; ``cause`` =
                   ``"driver-hid"`` or ``"driver-died"``
``dance``          ``seat`` (Belly Dancer) danced
``manipulate``     ``seat`` (Vizier) declared ``side`` and manipulated ``target``
``forced``         ``seat`` must now use an Action of its card
``exhausted``      ``seat`` got the exhaustion token
``foresee``        ``seat`` (Fortune Teller) chose ``seats``
``foresee-result`` private to the Fortune Teller: ``seats[i]`` holds ``cards[i]``
``predict``        ``seat`` (Fortune Teller) predicted ``side``
``win``            the round is won by ``side``; ``cause`` = an :data:`EndReason`
``turn-limit``     the turn limit was reached; the round ends with no winner
``round-end``      every card is shown: ``seats[i]`` held ``cards[i]``, the spare
                   held ``card``
=================  ============================================================
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.sultans.cards import CardName, Side

EventKind = Literal[
    "round-start",
    "deal",
    "turn",
    "skip",
    "peek",
    "peek-result",
    "swap",
    "new-card",
    "hide",
    "hide-swap",
    "reveal",
    "claim",
    "crown",
    "execute",
    "death",
    "detain",
    "refuse",
    "detained",
    "assassinate",
    "window",
    "answer",
    "block",
    "block-unused",
    "revolt",
    "join",
    "capture",
    "captured",
    "not-slave",
    "extra-turn",
    "release",
    "dance",
    "manipulate",
    "forced",
    "exhausted",
    "foresee",
    "foresee-result",
    "predict",
    "win",
    "turn-limit",
    "round-end",
]

EndReason = Literal["sultan-killed", "revolution", "no-rebels", "crown", "turn-limit"]
"""Why a round ended: the Sultan was assassinated (S-WIN-1); three adjacent free
revealed Slaves (S-SLV-3); no Assassin alive and fewer than three free Slaves
(S-WIN-2); the crown fired (S-SUL-3); the turn limit (S-WIN-4, no winner)."""

WindowKind = Literal["block", "join", "detention"]
Phase = Literal["turn", "forced", "predict", "window", "over"]
NoteHow = Literal["peek", "swap", "hide-swap", "foresee", "revealed", "not-slave", "dealt"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Event(_Model):
    """One line of the round log, as a given viewer may see it.

    - ``turn``: the turn number (turns played so far, regular and extra) when
      it happened; 0 before the first turn.
    - ``kind``: what happened (see the module docstring for every kind).
    - ``seat``, ``target``, ``spare``, ``seats``, ``cards``, ``card``,
      ``side``, ``cause``, ``extra``: parameters, used as the kind says.
    - ``audience``: ``None`` for a public event, else the seats that may see
      it (always including the viewer when shown in a view).
    - ``private``: ``True`` when ``audience`` is not ``None`` (convenience for
      screens that mark private lines).
    """

    turn: int
    kind: EventKind
    seat: int | None = None
    target: int | None = None
    spare: bool = False
    seats: tuple[int, ...] = ()
    cards: tuple[CardName, ...] = ()
    card: CardName | None = None
    side: Side | None = None
    cause: str | None = None
    extra: bool = False
    audience: tuple[int, ...] | None = None
    private: bool = False


class Note(_Model):
    """One thing a seat learned about a hidden card (the notebook, S-VIEW-2).

    - ``seat``: the seat the note is about; ``None`` = the spare.
    - ``card``: the card that was there when learned (or, with ``negated``,
      the card that was *not* there).
    - ``negated``: ``True`` for "not a ``card``" (a failed capture: not a Slave).
    - ``turn``: the turn number when it was learned (or last moved with an
      open swap).
    - ``how``: ``"peek"``, ``"swap"`` (an open swap you made or suffered, the
      note followed the cards), ``"hide-swap"`` (a secret swap you were part
      of), ``"foresee"``, ``"revealed"`` (the card was face up and then hid),
      ``"not-slave"`` (public failed capture), ``"dealt"``.
    - ``stale``: ``True`` once the card may have moved since (a secret swap
      the viewer could not follow). Stale notes are kept, never dropped.
    - ``stale_turn``: the turn it became stale (``None`` while fresh).
    """

    seat: int | None
    card: CardName
    negated: bool = False
    turn: int
    how: NoteHow
    stale: bool = False
    stale_turn: int | None = None


class SeatView(_Model):
    """One seat as the viewer sees it.

    - ``index``: the seat number.
    - ``alive``: ``False`` once killed (S-DIE-1).
    - ``revealed``: its card is face up (dead cards are face up too).
    - ``card``: the card if the viewer may see it now: face up, the viewer's
      own, or every card once the round is over; else ``None``.
    - ``detained``: it has the prison token (S-GRD-1).
    - ``captured``: it has a capture token (S-DRV-2).
    - ``exhausted``: it has the exhaustion token (S-VIZ-2).
    - ``crown``: the crown lies in front of it (S-SUL-3).
    - ``declared``: a revealed Vizier's declared side (S-VIZ-3), else ``None``.
    - ``prediction``: a revealed Fortune Teller's prediction (S-FTL-2), else ``None``.
    - ``foreseen``: the seats a revealed Fortune Teller chose (public).
    - ``must_hide``: a Fortune Teller whose next turn must be Swap/Hide (public).
    - ``active``: it is the active seat (S-TURN-6).
    - ``playing``: it is taking the current turn step (the active seat, or a
      Slave Driver in an extra turn).
    - ``forced``: it is the seat forced by a Vizier right now.
    - ``pending``: the engine waits for it now (public, S-REACT-3).
    """

    index: int
    alive: bool = True
    revealed: bool = False
    card: CardName | None = None
    detained: bool = False
    captured: bool = False
    exhausted: bool = False
    crown: bool = False
    declared: Side | None = None
    prediction: Side | None = None
    foreseen: tuple[int, ...] = ()
    must_hide: bool = False
    active: bool = False
    playing: bool = False
    forced: bool = False
    pending: bool = False


class WindowView(_Model):
    """The open reaction window or detention prompt (public).

    - ``kind``: ``"block"`` (after an assassination, S-ASN-2), ``"join"``
      (after a call to revolt, S-SLV-2), ``"detention"`` (the target decides,
      S-GRD-3).
    - ``actor``: the seat whose Action opened it (Assassin, Slave, Guard).
    - ``target``: the assassination/detention target; ``None`` for ``join``.
    - ``asked``: every seat asked (S-REACT-2), ascending.
    - ``waiting``: the asked seats that still owe an answer, ascending.
    - ``answered``: whether the viewer has already answered (its own answer is
      in ``your_answer``).
    - ``your_answer``: the viewer's own answer text, or ``None``.
    """

    kind: WindowKind
    actor: int
    target: int | None = None
    asked: tuple[int, ...] = ()
    waiting: tuple[int, ...] = ()
    answered: bool = False
    your_answer: str | None = None


class CardStep(_Model):
    """Where a card was from a turn on: ``seat`` (``None`` = the spare)."""

    turn: int
    seat: int | None


class CardTrail(_Model):
    """The history of one physical card during the round (shown at round end, S-VIEW-3)."""

    card: CardName
    steps: tuple[CardStep, ...]


class Outcome(_Model):
    """How a round ended (``Round.outcome()``; also inside views once over).

    - ``winner``: ``"loyalists"``, ``"rebels"`` or ``None`` (turn limit).
    - ``reason``: an :data:`EndReason`.
    - ``points``: seat -> points scored this round (S-SCORE-1); every seat present.
    - ``cards``: the card each seat held at the end (index = seat).
    - ``spare``: the spare's card at the end.
    - ``revealed``: which seats were face up at the end.
    - ``alive``: which seats were alive at the end.
    - ``trails``: for every physical card, where it went during the round.
    - ``turns``: turns played (regular and extra).
    """

    winner: Side | None
    reason: EndReason
    points: dict[int, int]
    cards: tuple[CardName, ...] = ()
    spare: CardName | None = None
    revealed: tuple[bool, ...] = ()
    alive: tuple[bool, ...] = ()
    trails: tuple[CardTrail, ...] = ()
    turns: int = 0


class RoundView(_Model):
    """Everything one seat (or a spectator, ``viewer=None``) may know about a round.

    - ``viewer``: the seat this view is for; ``None`` = spectator (public only
      until the round ends, S-VIEW-3).
    - ``players``: number of seats.
    - ``first``: the seat that started the round.
    - ``seats``: one :class:`SeatView` per seat.
    - ``your_card``: the viewer's own card (``None`` for spectators).
    - ``your_bans``: seats the viewer may not choose as a swap partner now
      (S-SWAP-3), ascending.
    - ``spare_card``: the spare's card, shown only once the round is over.
    - ``crown``: the seat the crown lies in front of, or ``None`` (centre).
    - ``phase``: ``"turn"`` (a seat chooses its turn), ``"forced"`` (a seat
      forced by the Vizier must use an Action), ``"predict"`` (the Fortune
      Teller's second step), ``"window"`` (a window/prompt is open), ``"over"``.
    - ``active``: the active seat (S-TURN-6), ``None`` once over.
    - ``playing``: the seat taking the current turn (differs from ``active``
      during a Slave Driver's extra turn inside a Vizier's turn).
    - ``extra_turn``: the current turn is a Slave Driver's extra turn.
    - ``forced``: the seat forced by a Vizier, or ``None``.
    - ``window``: the open window, or ``None``.
    - ``pending``: the seats the engine waits for (ascending).
    - ``legal``: the viewer's legal actions in canonical notation (may be
      non-empty while not pending: Claim the Throne).
    - ``notes``: what the viewer has learned (S-VIEW-2). Always filled (bots use
      it; it only restates the viewer's own log).
    - ``notebook``: the room's notebook option: whether screens should show
      ``notes`` as a notebook panel.
    - ``turns_played`` / ``turn_limit``: turns played so far (regular and
      extra) and the limit (S-WIN-4).
    - ``log``: the events this viewer may see, oldest first.
    - ``outcome``: the round's result once over, else ``None``.
    """

    viewer: int | None
    players: int
    first: int
    seats: tuple[SeatView, ...]
    your_card: CardName | None = None
    your_bans: tuple[int, ...] = ()
    spare_card: CardName | None = None
    crown: int | None = None
    phase: Phase
    active: int | None = None
    playing: int | None = None
    extra_turn: bool = False
    forced: int | None = None
    window: WindowView | None = None
    pending: tuple[int, ...] = ()
    legal: tuple[str, ...] = ()
    notes: tuple[Note, ...] = ()
    notebook: bool = True
    turns_played: int = 0
    turn_limit: int = 200
    log: tuple[Event, ...] = ()
    outcome: Outcome | None = None


class RoundResult(_Model):
    """One finished round in a match's history (all cards revealed, S-VIEW-3).

    - ``number``: 1-based round number.
    - ``first``: the seat that started it.
    - ``winner`` / ``reason`` / ``points``: as in :class:`Outcome`; ``points``
      is a list indexed by seat.
    - ``cards`` / ``spare``: every card at the end of the round.
    - ``turns``: turns played.
    """

    number: int
    first: int
    winner: Side | None
    reason: EndReason
    points: tuple[int, ...]
    cards: tuple[CardName, ...]
    spare: CardName
    turns: int


TieBreakCode = Literal["sole-highest", "latest-two", "shared-same-round", "shared-no-two"]


class TieBreak(_Model):
    """How the match winners were decided (S-MATCH-1), structured.

    - ``code``: ``"sole-highest"`` (one seat had the highest total),
      ``"latest-two"`` (tied on total; ``winners`` scored 2 points in the
      latest round among the tied seats), ``"shared-same-round"`` (tied, and
      their latest 2-point round is the same round), ``"shared-no-two"``
      (tied and none ever scored 2: they share).
    - ``tied``: the seats with the highest total (ascending).
    - ``winners``: the winning seats (ascending).
    - ``total``: the highest total.
    - ``round``: the deciding round number for ``latest-two`` /
      ``shared-same-round``, else ``None``.
    """

    code: TieBreakCode
    tied: tuple[int, ...]
    winners: tuple[int, ...]
    total: int
    round: int | None = None


class MatchView(_Model):
    """A seat's (or a spectator's) view of a whole match.

    - ``viewer``: as in :class:`RoundView`.
    - ``players``: number of seats.
    - ``round``: the current (or last) round's view.
    - ``round_number``: 1-based number of that round.
    - ``rounds``: the fixed number of rounds, or ``None`` in first-to-N mode.
    - ``first_to``: N in first-to-N mode, else ``None``.
    - ``max_rounds``: the most rounds the match can have (``rounds``, or 15).
    - ``totals``: points per seat so far.
    - ``history``: every finished round (cards revealed).
    - ``between_rounds``: a round ended and the next waits to be dealt.
    - ``over``: the match has ended.
    - ``winners``: the match winners once over (ascending), else empty.
    - ``tiebreak``: how the winners were decided, once over.
    """

    viewer: int | None
    players: int
    round: RoundView
    round_number: int
    rounds: int | None
    first_to: int | None = None
    max_rounds: int
    totals: tuple[int, ...]
    history: tuple[RoundResult, ...] = ()
    between_rounds: bool = False
    over: bool = False
    winners: tuple[int, ...] = ()
    tiebreak: TieBreak | None = Field(default=None)
