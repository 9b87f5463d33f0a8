"""Takes an ended session's widgets apart, so reference counting frees them.

A Textual widget lives in reference cycles (its styles, node lists, bindings,
signals and caches point back at it), so a session's screens, once gone, are
garbage only the cyclic collector finds. On the game host that collector is
kept off the live heap (``server.heap``): what the screens left waits in the
frozen heap until a full collection, which walks every open session's screens
too (seconds at a busy server), and a club where players come and go reached
one every minute or two. A session that made a room, played at its table,
went back to the lobby and read the help left ~13,000 objects for it (half
in the screens it popped, half in its App at the end).

Here every widget whose message loop ended (a removed widget, a popped
screen, all of them when the App closes) is noted in its App's
``retired_nodes`` (weakly: a full collection still frees them as before), and
:func:`take_apart` empties the attributes of those widgets and of the App
itself once the App has ended, which breaks the cycles. A widget removed
while its App runs (a round's result after every round, a dialog) has its
cycles broken ``RETIRE_AFTER`` seconds after by :func:`loosen`, which leaves
its attributes readable (something may still hold it). Only an App that has
ended is taken apart, a while after it ended (``server.ssh`` waits
``RETIRE_AFTER`` seconds, holding it weakly), so nothing of a live session is
touched and what was still queued for the ended App (a late refresh, a
timer's last tick) has run.

Textual's ``LRUCache`` keeps its entries in a ring of lists: a cache emptied
(Textual empties a widget's caches when it is removed) or dropped with its
owner left the ring, and whatever its entries held, for the collector too.
:func:`install` makes both unlink the ring. With both, the session above
left a quarter as much for the collector, what it made while still open
(``tests/server/test_retire.py`` counts it).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from contextvars import Context
from typing import Any

from textual.app import App
from textual.cache import LRUCache
from textual.dom import DOMNode
from textual.timer import Timer
from textual.visual import RichVisual
from textual.widget import Widget

from tui.runtime.textual_source import private_imports

with private_imports(__name__):
    from textual._context import active_app

log = logging.getLogger("throneroom.retire")

RETIRE_AFTER = 10.0
"""Seconds between an App's end and taking it apart."""

_ORIGINAL_EXIT = Widget._message_loop_exit


async def _message_loop_exit(self: Widget) -> None:
    await _ORIGINAL_EXIT(self)
    try:
        app = active_app.get()
    except LookupError:  # pragma: no cover - a widget's loop runs in its App's context
        return
    retired = getattr(app, "retired_nodes", None)
    if retired is None:
        return
    retired.add(self)
    if not isinstance(self, App) and getattr(app, "_running", False):
        # removed from a running App (a popped screen, a dismissed dialog): its
        # cycles are broken a while after, if it is still dead then (the call
        # in an empty context: the widget's own, kept by the handle, holds it)
        asyncio.get_running_loop().call_later(RETIRE_AFTER, _loosen_later, weakref.ref(self), context=Context())


def _loosen_later(ref: weakref.ref[Widget]) -> None:
    node = ref()
    if node is not None:
        try:
            loosen(node)
        except Exception:
            log.exception("loosen: %r", node)


def loosen(node: DOMNode) -> bool:
    """Break the reference cycles a removed widget lives in (its styles point
    back at it; a screen's compositor, layout caches, calls after its next
    refresh and timers at the screen, a Static's visual at the Static),
    leaving every attribute readable, so reference counting frees it once
    nothing else holds it. Only for a widget that has ended and is attached to
    nothing (False, left alone, otherwise)."""
    own = node.__dict__
    if own.get("_MessagePump__parent") is not None or own.get("_running", False) or not own.get("_closed", False):
        return False
    for part in [node, *own.get("_kept_components", {}).values()]:
        for key in ("_css_styles", "_inline_styles"):
            styles = part.__dict__.get(key)
            if styles is not None:
                styles.node = None
    for key in ("_layout_cache", "_layout_widgets", "_callbacks"):  # (a screen's layouts and calls still to do name it)
        cached = own.get(key)
        if isinstance(cached, (dict, list)):
            cached.clear()
    if isinstance(own.get("_Static__visual"), RichVisual):  # (it names its widget; made again if it is drawn)
        own["_Static__visual"] = None
    compositor = own.get("_compositor")
    if compositor is not None:
        own["_compositor"] = type(compositor)()  # an empty one: the screen is not drawn again
    for value in own.values():
        if isinstance(value, Timer):
            value.stop()
            value._callback = None
    return True


def _unlink(cache: LRUCache[Any, Any]) -> None:
    """Empty the links of Textual's ``LRUCache``: a ring of lists (each link
    points at the one before and after it), so a cache emptied or dropped with
    entries left its ring, and everything its entries held (widgets, box
    models, strips), for the collector."""
    links = getattr(cache, "_cache", None)
    if links:
        for link in links.values():
            link.clear()


def _clear_lru(self: LRUCache[Any, Any]) -> None:
    _unlink(self)
    self._cache.clear()
    self._full = False
    self._head = []


def install() -> None:
    """Once per process: every widget whose message loop ends is noted in its
    App's ``retired_nodes`` (Apps without that attribute are left alone), and
    Textual's ``LRUCache`` leaves no ring behind when it is cleared or freed."""
    Widget._message_loop_exit = _message_loop_exit  # type: ignore[method-assign]
    LRUCache.clear = _clear_lru  # type: ignore[method-assign]
    LRUCache.__del__ = _unlink  # type: ignore[attr-defined]


def take_apart(app: App[Any]) -> int:
    """Empty the attributes of ``app`` and of its retired widgets; the number of
    objects emptied. Only for an App that has ended: anything that still used
    them would fail."""
    if getattr(app, "_running", False):
        log.warning("take_apart: %r has not ended; left alone", app)
        return 0
    retired: weakref.WeakSet[Widget] | None = getattr(app, "retired_nodes", None)
    nodes: list[Any] = list(retired) if retired is not None else []
    nodes.append(app)
    # what else is the App's own and lives in cycles: each widget's virtual
    # nodes for its component classes (tui.runtime.sharedcss keeps them), the App's
    # stylesheet (its parse cache points back at it; the parsed rules it
    # shares with every App are kept by the class) and animator
    owned: list[Any] = []
    for node in nodes:
        owned.extend(node.__dict__.get("_kept_components", {}).values())
    sheet = app.__dict__.get("stylesheet")
    if sheet is not None:
        owned.append(sheet)
        owned.append(sheet.__dict__.get("_parse_cache"))
    owned.append(app.__dict__.get("_animator"))
    emptied = 0
    for obj in nodes + owned:
        if obj is not None and hasattr(obj, "__dict__"):
            obj.__dict__.clear()
            emptied += 1
    return emptied
