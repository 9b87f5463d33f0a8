"""Every change this project makes to Textual's and Rich's behaviour, in one list.

Many sessions share one process (docs/ARCHITECTURE.md, "Textual patches"), so a few
of Textual's internals are replaced with ones that do the same for less, or that
close a crash seen over ssh. Each entry says what it fixes and how that was measured;
:func:`install` (``tui.runtime.install``) applies them all, once per process, from the
composition root (``server.cli.app_host``); the screens' tests install them in their
conftest, as the server would.

Textual is pinned exactly in ``pyproject.toml``. A patch whose target changed keeps
Textual's own code and reports itself inactive here: ``tests/tui/test_patches.py``
fails then, so an upgrade of the pin is a deliberate review, never a silent slowdown.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from tui.runtime import (
    callbacks,
    compositor,
    dispatch,
    kinsoku,
    retire,
    screenof,
    strips,
    stylescache,
)
from tui.runtime.optionlists import guard_option_lists
from tui.runtime.widgetmounts import guard_widget_mounts

log = logging.getLogger("throneroom.patches")


def _always(install: Callable[[], None]) -> Callable[[], bool]:
    """For a patch that needs no check of Textual's source (it wraps a public name)."""

    def run() -> bool:
        install()
        return True

    return run


@dataclass(frozen=True)
class Patch:
    name: str
    install: Callable[[], bool]  # True when active
    fixes: str
    measured: str


PATCHES: tuple[Patch, ...] = (
    Patch("strips", strips.install,
          "Strip builds seven memo caches per strip; made lazily here",
          "a third of the objects the collector walks per session (bench screens --census)"),
    Patch("dispatch", dispatch.install,
          "message handlers looked up by walking the class hierarchy on every message",
          "~5% of a login's CPU, ~2.5% of play (bench screens --profile)"),
    Patch("screenof", screenof.install,
          "DOMNode.screen walks parents through properties and re-imports Screen",
          "~4.5% of CPU while bots play (py-spy on bench screens --seated 5)"),
    Patch("callbacks", callbacks.install,
          "inspect.signature on every call_later callback",
          "~0.8% of CPU while bots play (py-spy on bench screens)"),
    Patch("stylescache", stylescache.install,
          "get_inner_outer's lru_cache keeps 1,024 dead widgets' styles alive",
          "~250 strips kept per closed help screen (bench screens --census)"),
    Patch("compositor", compositor.available,
          "a partial update repaints the crop around all changed regions",
          "most of a frame's cost with many sessions (bench screens)"),
    Patch("kinsoku", _always(kinsoku.install),
          "Chinese lines break only at spaces; a line may start with a closing mark",
          "rendering tests of the Chinese help (tests/tui)"),
    Patch("option_lists", _always(guard_option_lists),
          "Page Down in a drop-down with no room for it raised",
          "a session crash seen over ssh"),
    Patch("widget_mounts", _always(guard_widget_mounts),
          "a dialog closed before it mounted ran its mount handlers on removed widgets",
          "a session crash seen over ssh"),
    Patch("retire", _always(retire.install),
          "ended sessions' widgets wait in reference cycles for a full collection",
          "~13,000 objects left per session that played and left (bench screens --census)"),
)

_active: dict[str, bool] | None = None


def install() -> dict[str, bool]:
    """Apply every patch once per process; which are active (False: Textual's own kept)."""
    global _active
    if _active is None:
        _active = {patch.name: patch.install() for patch in PATCHES}
        off = [name for name, on in _active.items() if not on]
        if off:
            log.warning("Textual changed under these patches, its own code is used: %s", ", ".join(off))
    return dict(_active)
