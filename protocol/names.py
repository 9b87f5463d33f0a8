"""Identity comparison for player names, one rule for rooms, storage and screens."""

from __future__ import annotations

import unicodedata


def name_key(name: str) -> str:
    """The identity a name stands for: NFKC-normalised and case-folded, so that
    ``Alice``/``alice`` (and ``Émile``/``émile``, full-width letters...) are one
    identity and can never belong to two keys. Rooms and screens compare names with it."""
    return unicodedata.normalize("NFKC", name).casefold()
