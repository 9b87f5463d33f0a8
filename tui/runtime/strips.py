"""Textual strips that make their memo caches when first used, and no cycles.

Every ``textual.strip.Strip`` builds seven ``FIFOCache`` objects in its
constructor (crop, style, filter, divide, line length, crop-extend and
offsets results). Most strips use one or two of them or none, yet each empty
cache is an object the garbage collector tracks and about 130 bytes. With
many sessions in one process they were a third of every object the collector
walks (``./manage bench screens --census``: ~4,400 caches of ~14,300 tracked
objects per session), which made the full collections, and so the server's
pauses, long.

:func:`install` replaces the constructor with one that leaves those slots
unset and gives the class a ``__getattr__`` that makes a cache the first
time a slot is read (Python calls ``__getattr__`` when reading an unset
slot fails). What a strip computes and caches is unchanged, except that a
cache never keeps the strip itself (see :class:`_StripCache`: that made every
drawn strip a reference cycle). The patch is
applied only if ``Strip`` still has the constructor it was written against
(Textual 8.x); with any other, strips stay as Textual makes them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

CACHE_SIZES: dict[str, int] = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
"""Each lazy cache slot and its size, as Textual's ``Strip.__init__`` makes them."""

_OTHER_SLOTS = ("_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count")


class _StripCache(FIFOCache[Any, Any]):
    """A strip's memo cache that never keeps the strip itself.

    Textual's ``divide`` stores ``[self]`` when the cut is the whole strip, and
    ``crop_extend`` stores ``self`` when nothing needs cropping or padding: a
    strip that refers to itself is a reference cycle, freed only by the
    garbage collector. The compositor divides every line it draws, so every
    drawn strip became cyclic garbage (``./manage bench screens --garbage 5``:
    ~115,000 objects in 5 s at 150 sessions, behind 0.3-0.6 s young-generation
    collections). Such results are as cheap to recompute as to look up."""

    __slots__ = ("_owner",)

    def __init__(self, maxsize: int, owner: int) -> None:
        super().__init__(maxsize)
        self._owner = owner

    def set(self, key: Any, value: Any) -> None:
        if id(value) == self._owner or (type(value) is list and len(value) == 1 and id(value[0]) == self._owner):
            return
        super().set(key, value)

    __setitem__ = set


def _lazy_init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _make_cache(self: Strip, name: str) -> Any:
    size = CACHE_SIZES.get(name)
    if size is None:
        raise AttributeError(name)
    cache = _StripCache(size, id(self))
    setattr(self, name, cache)
    return cache


def compatible() -> bool:
    """Whether this Textual's ``Strip`` is the one the patch was written for."""
    slots = set(getattr(Strip, "__slots__", ()))
    if slots != set(CACHE_SIZES) | set(_OTHER_SLOTS) or "__getattr__" in vars(Strip):
        return False
    probe = Strip([])
    return all(
        isinstance(getattr(probe, name, None), FIFOCache) and getattr(probe, name)._maxsize == size
        for name, size in CACHE_SIZES.items()
    )


def install() -> bool:
    """Make strips' caches lazy (once per process); False if Textual's ``Strip`` differs."""
    if Strip.__init__ is _lazy_init:
        return True
    if not compatible():
        return False
    Strip.__init__ = _lazy_init  # type: ignore[method-assign]
    Strip.__getattr__ = _make_cache  # type: ignore[attr-defined]
    return True
