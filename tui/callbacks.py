"""Parameter counts of callbacks, found once per function.

Textual calls every callback (``call_later``, ``call_after_refresh``, timers,
watchers) through ``_invoke``, which counts the callback's parameters to pass
it only as many as it takes. The count is kept on the callable, but
``call_later`` wraps each callback in a new ``functools.partial``, so it was
worked out again, with ``inspect.signature``, every time: each host change
poked into a session (``tui.app.Coalesced``), each mount and each focus
(~0.8% of the CPU while bots play, py-spy on ``./manage bench screens``).

Here the count of a plain function or of a bound method's function is kept
per function (weakly), so a partial of either costs a dictionary lookup;
other callables (objects with ``__call__``, classes) are counted as Textual
does. :func:`install` applies it only if Textual's ``_count_parameters`` is
the one this was written against.
"""

from __future__ import annotations

import types
import weakref
from collections.abc import Callable
from typing import Any

import textual._callback as textual_callback

from tui.textual_source import same_source

TEXTUAL_SOURCE_SHA = {"count_parameters": "1cfb1fbb", "_count_parameters": "645475a9"}
"""The first digits of the SHA-256 of the Textual functions this relies on."""

_ORIGINAL = textual_callback._count_parameters
_COUNTS: weakref.WeakKeyDictionary[Callable[..., Any], int] = weakref.WeakKeyDictionary()
"""Functions' counts."""
_BOUND_COUNTS: weakref.WeakKeyDictionary[Callable[..., Any], int] = weakref.WeakKeyDictionary()
"""Counts of methods bound to an object, by their function (the same for every object)."""


def _count_parameters(func: Callable[..., Any]) -> int:
    """What Textual's ``_count_parameters`` returns (``len(signature(func).parameters)``)."""
    if type(func) is types.FunctionType:
        count = _COUNTS.get(func)
        if count is None:
            count = _COUNTS[func] = _ORIGINAL(func)
        return count
    if type(func) is types.MethodType and type(func.__func__) is types.FunctionType:
        count = _BOUND_COUNTS.get(func.__func__)
        if count is None:
            count = _BOUND_COUNTS[func.__func__] = _ORIGINAL(func)
        return count
    return _ORIGINAL(func)


def compatible() -> bool:
    """Whether Textual's counting is the one this reproduces."""
    return same_source(textual_callback.count_parameters, TEXTUAL_SOURCE_SHA["count_parameters"]) and same_source(
        _ORIGINAL, TEXTUAL_SOURCE_SHA["_count_parameters"]
    )


def install() -> bool:
    """Count once per function (once per process); False if Textual's code differs."""
    if textual_callback._count_parameters is _count_parameters:
        return True
    if not compatible():
        return False
    textual_callback._count_parameters = _count_parameters
    return True
