"""Callbacks' parameter counts kept per function (tui/runtime/callbacks.py) equal
Textual's for every kind of callable, and a partial (what ``call_later``
makes of every callback) is counted without ``inspect.signature``."""

from __future__ import annotations

import functools
import inspect
from functools import partial
from typing import Any

import pytest
import textual._callback as textual_callback

from tui.runtime import callbacks


def plain(a: int, b: int, c: int = 0) -> None: ...


def star(*args: Any) -> None: ...


class Thing:
    def method(self, a: int) -> None: ...

    def star(self, *args: Any) -> None: ...

    @classmethod
    def klass(cls, a: int, b: int) -> None: ...

    @staticmethod
    def static(a: int) -> None: ...

    def __call__(self, a: int, b: int) -> None: ...


def test_installed_for_this_textual() -> None:
    assert callbacks.compatible()
    assert callbacks.install()
    assert textual_callback._count_parameters is callbacks._count_parameters


def test_the_same_counts_as_textual() -> None:
    thing = Thing()
    cases: list[Any] = [
        plain, star, thing.method, thing.star, Thing.klass, thing.klass, Thing.static, thing, Thing,
        lambda: None, lambda x, y: None, print, len,
    ]
    def outer(n: int) -> Any:
        def inner(a: int, *rest: Any) -> None: ...

        return inner

    @functools.wraps(plain)
    def wrapper(*args: Any) -> None: ...

    cases += [outer(1), outer(2), wrapper]
    for func in cases:
        for _ in range(2):  # the second time from the kept count
            assert callbacks._count_parameters(func) == len(inspect.signature(func).parameters), func
        made = partial(func)
        assert textual_callback.count_parameters(made) == len(inspect.signature(func).parameters), func


def test_a_partial_is_counted_without_signature(monkeypatch: pytest.MonkeyPatch) -> None:
    callbacks.install()
    thing = Thing()
    textual_callback.count_parameters(partial(thing.method))  # counted once

    def no_signature(*args: Any, **kw: Any) -> Any:
        raise AssertionError("signature() called")

    monkeypatch.setattr(textual_callback, "signature", no_signature)
    for _ in range(3):
        assert textual_callback.count_parameters(partial(Thing().method)) == 1
        assert textual_callback.count_parameters(partial(thing.method, 5)) == 0
