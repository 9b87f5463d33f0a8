"""Cards, sides and the role table of Sultans of Karaya (S-DECK-1, S-SIDE-1).

Card ids are the lower-case names used in notation, deals and views:
``sultan``, ``guard``, ``assassin``, ``slave``, ``slave-driver``,
``belly-dancer``, ``vizier``, ``fortune-teller``.

Inside the engine a card is a small int (the constants below) so that the
hot path never compares strings; :data:`CARD_NAMES` maps back.
"""

from __future__ import annotations

from typing import Literal, get_args

CardName = Literal[
    "sultan",
    "guard",
    "assassin",
    "slave",
    "slave-driver",
    "belly-dancer",
    "vizier",
    "fortune-teller",
]
"""A card id as it appears in deals, notation-adjacent text and views."""

Side = Literal["loyalists", "rebels"]
"""A side of the round: the Loyalists (Sultan, Guards) or the Rebels (Assassins, Slaves)."""

SULTAN = 0
GUARD = 1
ASSASSIN = 2
SLAVE = 3
DRIVER = 4
DANCER = 5
VIZIER = 6
TELLER = 7

CARD_NAMES: tuple[CardName, ...] = get_args(CardName)
"""Index = internal card int."""

CARD_IDS: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}

NEUTRALS: tuple[int, ...] = (DRIVER, DANCER, VIZIER, TELLER)
"""The four neutral cards (S-DECK-2); a round uses a random subset."""

LOYALISTS = 0
REBELS = 1
SIDE_NAMES: tuple[Side, ...] = ("loyalists", "rebels")
SIDE_IDS: dict[str, int] = {"loyalists": LOYALISTS, "rebels": REBELS}

# players -> (sultans, guards, assassins, slaves, neutrals)   (S-DECK-1)
ROLE_TABLE: dict[int, tuple[int, int, int, int, int]] = {
    5: (1, 1, 1, 3, 0),
    6: (1, 1, 1, 3, 1),
    7: (1, 1, 1, 3, 2),
    8: (1, 2, 2, 3, 1),
    9: (1, 2, 2, 3, 2),
    10: (1, 2, 2, 3, 3),
    11: (1, 2, 2, 4, 3),
    12: (1, 3, 3, 4, 2),
    13: (1, 3, 3, 4, 3),
    14: (1, 3, 3, 4, 4),
    15: (1, 3, 3, 5, 4),
}

MIN_PLAYERS = 5
MAX_PLAYERS = 15


def card_id(name: str) -> int:
    """The internal int of a card name (case-insensitive); ``ValueError`` if unknown."""
    try:
        return CARD_IDS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown card {name!r}; expected one of {', '.join(CARD_NAMES)}") from None


def base_deck(players: int) -> list[int]:
    """The fixed part of the deck for ``players`` (no neutrals), S-DECK-1."""
    if players not in ROLE_TABLE:
        raise ValueError(f"Sultans of Karaya is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    sultans, guards, assassins, slaves, _ = ROLE_TABLE[players]
    return [SULTAN] * sultans + [GUARD] * guards + [ASSASSIN] * assassins + [SLAVE] * slaves


def neutral_count(players: int) -> int:
    """How many random neutrals join the deck for ``players`` (S-DECK-1)."""
    if players not in ROLE_TABLE:
        raise ValueError(f"Sultans of Karaya is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    return ROLE_TABLE[players][4]


def side_of(card: int, revealed: bool, declared: int = -1) -> int:
    """The side a card is on right now (S-SIDE-1, S-DRV-1, S-DNC-1, S-VIZ-1).

    Returns ``LOYALISTS``, ``REBELS`` or ``-1`` (no side: a hidden Vizier,
    any Fortune Teller, a revealed Vizier that declared nothing).
    """
    if card in (SULTAN, GUARD):
        return LOYALISTS
    if card in (ASSASSIN, SLAVE):
        return REBELS
    if card == DRIVER:
        return LOYALISTS if revealed else REBELS
    if card == DANCER:
        return REBELS if revealed else LOYALISTS
    if card == VIZIER:
        return declared if revealed else -1
    return -1
