"""Message handlers looked up once per kind of widget and kind of message.

Textual finds the handlers of every message it dispatches by walking the
receiving widget's whole class hierarchy (``MessagePump._get_dispatch_methods``:
a ``ChatInput`` has 18 classes, each looked up for decorated handlers and
for two method names). With many sessions in one process that walk was ~5%
of a login's CPU and ~2.5% of play (``./manage bench screens --profile``).
The classes and their handlers do not change once defined, so the walk is
done once per (widget class, handler name, message class) and kept as a
plan: the handlers in the order Textual yields them, with their class and
selectors. Running a plan does what Textual does at each step (stop when a
handler prevented the default, skip a decorated handler already called,
match a decorated handler's selectors against the message), so the same
handlers run in the same order. (A handler added to a class after its
first message of a kind would not be seen; nothing here does that.)

:func:`install` applies it only if Textual's method is the one this was
written against (its source is checked); otherwise Textual's own is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from textual.css.match import match
from textual.message import Message
from textual.message_pump import MessagePump

from tui.runtime.textual_source import private_imports, same_source

with private_imports(__name__):
    from textual._on import OnNoWidget

Step = tuple[type, Callable[..., Any], dict[str, Any] | None, bool]
"""(class, function, selectors, decorated)."""

_PLANS: dict[tuple[type, str, type], tuple[Step, ...]] = {}

TEXTUAL_SOURCE_SHA = "42cf0aed"
"""The first digits of the SHA-256 of the Textual method this reproduces."""

_ORIGINAL = MessagePump._get_dispatch_methods


def plan_for(owner: type, method_name: str, message_type: type) -> tuple[Step, ...]:
    """The handlers a ``message_type`` message finds on an ``owner`` widget."""
    key = (owner, method_name, message_type)
    plan = _PLANS.get(key)
    if plan is None:
        message_mro = [kind for kind in message_type.__mro__ if issubclass(kind, Message)]
        steps: list[Step] = []
        for cls in owner.__mro__:
            decorated = cls.__dict__.get("_decorated_handlers")
            if decorated:
                for message_class in message_mro:
                    for method, selectors in decorated.get(message_class, []):
                        steps.append((cls, method, selectors, True))
            method = cls.__dict__.get(f"_{method_name}") or cls.__dict__.get(method_name)
            if method is not None and not getattr(method, "_textual_on", None):
                steps.append((cls, method, None, False))
        plan = _PLANS[key] = tuple(steps)
    return plan


def _get_dispatch_methods(self: MessagePump, method_name: str, message: Message) -> Iterator[tuple[type, Any]]:
    plan = plan_for(self.__class__, method_name, message.__class__)
    if not plan:
        return
    from textual.widget import Widget

    dispatched: set[Callable[..., Any]] = set()
    current: type | None = None
    for cls, method, selectors, decorated in plan:
        if cls is not current:  # Textual checks before each class of the hierarchy
            current = cls
            if message._no_default_action:
                return
        if not decorated:
            yield cls, method.__get__(self, cls)
            continue
        if method in dispatched:
            continue
        if not selectors:
            yield cls, method.__get__(self, cls)
            dispatched.add(method)
            continue
        if not message._sender:
            continue
        for attribute, selector in selectors.items():
            node = getattr(message, attribute)
            if node is None:
                break
            if not isinstance(node, Widget):
                raise OnNoWidget(f"on decorator can't match against {attribute!r} as it is not a widget.")
            if not match(selector, node):
                break
        else:
            yield cls, method.__get__(self, cls)
            dispatched.add(method)


def compatible() -> bool:
    """Whether Textual's method is the one this reproduces."""
    return same_source(_ORIGINAL, TEXTUAL_SOURCE_SHA)


def install() -> bool:
    """Use the plans (once per process); False if Textual's method differs."""
    if MessagePump._get_dispatch_methods is _get_dispatch_methods:
        return True
    if not compatible():
        return False
    MessagePump._get_dispatch_methods = _get_dispatch_methods  # type: ignore[method-assign]
    return True
