"""Whether a piece of Textual is the code a patch here was written against.

tui/dispatch.py, tui/screenof.py and tui/callbacks.py replace a Textual
function with one that does the same for less; each is installed only when
the original's source still hashes to what it was written for (a Textual
upgrade that changed it keeps Textual's own)."""

from __future__ import annotations

import hashlib
import inspect
from typing import Any


def source_digest(function: Any) -> str:
    """The SHA-256 (hex) of ``function``'s source; "" when there is none."""
    try:
        source = inspect.getsource(function)
    except (OSError, TypeError):
        return ""
    return hashlib.sha256(source.encode()).hexdigest()


def same_source(function: Any, prefix: str) -> bool:
    """Whether ``function``'s source hashes to a digest starting with ``prefix``."""
    return bool(prefix) and source_digest(function).startswith(prefix)
