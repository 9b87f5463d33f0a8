"""The room runtime: one game table, its seats, spectators, chat, clock and bots.

A :class:`Room` is created and owned by :class:`server.hub.Hub`; screens reach it
only through :class:`RoomSession` objects (the ``protocol.contract.RoomClient``
implementation, one per SSH session per room).

How a change flows (``act`` from a screen, a bot, a timeout or an intermission):

1. check (version, seat, state); ``table.play`` validates and applies -- an
   illegal action raises and changes nothing, and nothing is logged;
2. the action is appended to the SQLite log (if that fails the table is rebuilt
   from seed + log, so memory never runs ahead of the disk);
3. the room version bumps, caches are dropped, the clock and the bots are told,
   and every attached session's listener is scheduled once (coalesced: at most
   one call per listener per event-loop iteration).

Time: reaction windows and turns get a deadline from the room's settings
(``window_timer`` when the table says its pending seats answer a reaction
window, ``GameTable.is_window``, else ``turn_timer``; 0 = no timer). A window keeps its deadline while
seats answer. At the deadline the room plays ``table.timeout_action(seat)`` for
each seat still pending; a player's seat whose own decisions timed out
``env.away_after`` times in a row is away (so is one the host hands over): a
stand-in bot plays it until its player presses a key (``come_back``) or acts.
Quick windows (S-REACT-5, K-ORD-11; ``strict_windows`` off): the room answers
``pass`` for each asked seat whose only answer (``GameTable.answers``) is pass,
when the window closes; a window closes no sooner than ``window_min`` after it
opened (an answer that would close it earlier is kept until then); views are
``view(seat, quick=True)``; bots answer within the minimum time; and an answer
the window goes on after is told to its own seat's screens alone.
Between rounds the result stays until every human at the table (connected,
not played by a bot) has pressed to go on (``go_on``), or the room's
``between_rounds`` seconds have passed (at most the server's ``intermission``,
when set); then it logs a ``next-round`` marker and deals. All sleeping goes through ``RoomEnv.sleep``
(``time_scale`` makes tests fast), and every task is created in the hub's
context (never inside a Textual app).

Stale actions: an action carries the room version its screen saw. A version
from the future is stale; an old version is stale when the acting seat's legal
actions changed since then (so two seats answering one window at the same
moment are both accepted, but a turn that moved on is refused).

The parts: :mod:`~server.room.runtime` (the :class:`Room`: its table, actions,
log and listeners), :mod:`~server.room.seats`, :mod:`~server.room.clock` and
:mod:`~server.room.bots` (its parts, on the state in :mod:`~server.room.state`),
:mod:`~server.room.settings`, :mod:`~server.room.chat`, :mod:`~server.room.env`
(what it needs from its hub) and :mod:`~server.room.session` (the screens' handle).
"""

from server.room.chat import chat_text, keep_said, require_unmuted
from server.room.env import Notifier, RoomEnv, call_listener
from server.room.runtime import Room
from server.room.session import RoomSession
from server.room.settings import check_levels, validate_settings
from server.room.state import Seat

__all__ = [
    "Notifier",
    "Room",
    "RoomEnv",
    "RoomSession",
    "Seat",
    "call_listener",
    "chat_text",
    "check_levels",
    "keep_said",
    "require_unmuted",
    "validate_settings",
]
