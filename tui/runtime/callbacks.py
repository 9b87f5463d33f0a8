"""Parameter counts of callbacks, found once per function (per code object).

Textual calls every callback (``call_later``, ``call_after_refresh``, timers,
watchers) through ``_invoke``, which counts the callback's parameters to pass
it only as many as it takes. The count is kept on the callable, but
``call_later`` wraps each callback in a new ``functools.partial``, so it was
worked out again, with ``inspect.signature``, every time: each host change
poked into a session (``tui.app.Coalesced``), each mount and each focus
(~0.8% of the CPU while bots play, py-spy on ``./manage bench screens``).

Here the count of a plain function or a bound method is kept per code
object (a closure made anew each time, like the ones Textual mounts with, is
counted once too), so a partial of either costs a dictionary lookup; other
callables (objects with ``__call__``, classes, wrapped functions) are counted
as Textual does. :func:`install` applies it only if Textual's ``_count_parameters`` is
the one this was written against.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from tui.runtime.textual_source import private_imports, same_source

with private_imports(__name__):
    import textual._callback as textual_callback

TEXTUAL_SOURCE_SHA = {"count_parameters": "1cfb1fbb", "_count_parameters": "645475a9"}
"""The first digits of the SHA-256 of the Textual functions this relies on."""

_ORIGINAL = textual_callback._count_parameters
_COUNTS: dict[tuple[types.CodeType, bool], int] = {}
"""Counts by code object and whether bound: a function's parameters are its
code's (unless ``__wrapped__`` or ``__signature__`` say otherwise), the same for
every closure made from that code and every object a method is bound to."""


def _count_parameters(func: Callable[..., Any]) -> int:
    """What Textual's ``_count_parameters`` returns (``len(signature(func).parameters)``)."""
    target: Any = func
    bound = type(func) is types.MethodType
    if bound:
        target = func.__func__  # type: ignore[attr-defined]
    if type(target) is types.FunctionType and "__wrapped__" not in target.__dict__ and "__signature__" not in target.__dict__:
        key = (target.__code__, bound)
        count = _COUNTS.get(key)
        if count is None:
            count = _COUNTS[key] = _ORIGINAL(func)
        return count
    return _ORIGINAL(func)


def compatible() -> bool:
    """Whether Textual's counting is the one this reproduces."""
    return same_source(textual_callback.count_parameters, TEXTUAL_SOURCE_SHA["count_parameters"]) and same_source(
        _ORIGINAL, TEXTUAL_SOURCE_SHA["_count_parameters"]
    )


def install() -> bool:
    """Count once per code object (installed once per process); False if Textual's code differs."""
    if textual_callback._count_parameters is _count_parameters:
        return True
    if not compatible():
        return False
    textual_callback._count_parameters = _count_parameters
    return True
