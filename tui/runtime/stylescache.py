"""Widgets' inner and outer background styles cached by colour, not by widget.

Textual's ``StylesCache.get_inner_outer`` is an ``lru_cache(1024)`` on a method:
its key holds the widget's ``StylesCache`` (``self``), so the cache keeps the
last 1,024 of them alive, each with the lines it last drew, after their widgets
are gone (every dialog, help or table a player opened and closed: ~250 strips
a help), and with many sessions' widgets taking turns in 1,024 places it
mostly misses. Its result depends on the two colours only; here it is cached
by them. :func:`install` applies it only if Textual's function is the one this
was written against.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from textual.color import Color
from textual.style import Style

from tui.runtime.textual_source import private_imports, same_source

with private_imports(__name__):
    from textual._styles_cache import StylesCache

TEXTUAL_SOURCE_SHA = "d2509f3e"
"""The first digits of the SHA-256 of ``StylesCache.get_inner_outer``'s source."""

_ORIGINAL: Any = StylesCache.__dict__["get_inner_outer"]


@lru_cache(1024)
def inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    """Textual's ``get_inner_outer``: the inner and outer background styles."""
    return (
        Style(background=base_background + background),
        Style(background=base_background),
    )


def _get_inner_outer(self: StylesCache, base_background: Color, background: Color) -> tuple[Style, Style]:
    return inner_outer(base_background, background)


def compatible() -> bool:
    """Whether Textual's function is the one this reproduces."""
    return same_source(getattr(_ORIGINAL, "__wrapped__", None), TEXTUAL_SOURCE_SHA)


def install() -> bool:
    """Cache by colour (installed once per process); False if Textual's code differs."""
    if StylesCache.__dict__.get("get_inner_outer") is _get_inner_outer:
        return True
    if not compatible():
        return False
    StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign,assignment]
    _ORIGINAL.cache_clear()  # let go of the widgets' caches it held
    return True
