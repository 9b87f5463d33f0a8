"""Whether a piece of Textual is the code a patch here was written against.

tui/runtime/dispatch.py, tui/runtime/screenof.py and tui/runtime/callbacks.py replace a Textual
function with one that does the same for less; each is installed only when
the original's source still hashes to what it was written for (a Textual
upgrade that changed it keeps Textual's own)."""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import version
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


class TextualChanged(ImportError):
    """A private module or name of Textual or Rich that code here imports is gone."""


@contextmanager
def private_imports(module: str) -> Iterator[None]:
    """Around ``module``'s imports of Textual's or Rich's private parts
    (``textual._compositor``, ``rich._wrap`` ...), which no release promises to
    keep: if one is gone, the error names the patch that needs it and the
    versions installed, instead of a bare ImportError from deep in a start-up."""
    try:
        yield
    except ImportError as exc:
        raise TextualChanged(
            f"{module} (a Textual patch, see tui/runtime/patches.py) cannot import a private part of "
            f"Textual {version('textual')} / Rich {version('rich')}: {exc}. Install the Textual "
            "pinned in pyproject.toml, or update the patch and run tests/tui/test_patches.py."
        ) from exc
