"""The waiting room's settings summary and the option facts it says (the
games' rooms: Kill the Overlord's expansion roles, Sultans of Karaya's
first-to cap)."""

from __future__ import annotations

import functools

from engine.api import DEFAULT_BOT_LEVEL
from protocol.contract import RoomSettings
from protocol.i18n import Lang, bot_levels_summary, t

SULTANS_FIRST_TO_CAP = 15
"""S-MATCH-1: a first-to-N Sultans match ends after 15 rounds at most
(``engine.sultans.match.FIRST_TO_CAP``; a test keeps the two equal)."""


@functools.lru_cache(maxsize=32)
def _expansion_roles(ruleset: str, seats: int) -> dict[int, str]:
    """K-XROLE-1: rank -> the expansion role that can replace it, for the ranks
    in play at ``seats`` (empty when the rule set has no such table)."""
    from engine.overlord.rules import load_ruleset  # (only rooms of Kill the Overlord read it)

    try:
        rs = load_ruleset(ruleset)
        ranks = {rs.role(r).rank for r in rs.role_sets[seats]}
    except (KeyError, ValueError):
        return {}
    out: dict[int, str] = {}
    for rank in sorted(ranks, reverse=True):
        role = rs.expansion_for_rank(rank)
        if role is not None:
            out[rank] = role
    return out


def expansion_choices(ruleset: str, seats: int) -> list[tuple[int, str, str | None]]:
    """K-XROLE-1: every expansion role of the rule set, highest rank first, as
    (rank, role, the base role of that rank at ``seats``, or None when no role
    of that rank is in play there); empty for a rule set that cannot be read."""
    from engine.overlord.rules import load_ruleset  # (only rooms of Kill the Overlord read it)

    try:
        rs = load_ruleset(ruleset)
    except ValueError:
        return []
    base = {rs.role(r).rank: r for r in rs.role_sets.get(seats, [])}
    return [(r.rank, r.id, base.get(r.rank)) for r in sorted(rs.roles, key=lambda r: -r.rank) if r.expansion]


def _expansion_summary(seats: int, ruleset: str, ranks: list[object], lang: Lang) -> list[str]:
    """The expansion roles a room of Kill the Overlord plays with, by name; the
    ranks picked that have no role at this many seats said apart (K-XROLE-1:
    "only for ranks in play at that player count")."""
    roles = _expansion_roles(ruleset, seats)
    picked = sorted({r for r in ranks if isinstance(r, int)}, reverse=True)
    if not roles:  # (an unknown rule set: the ranks as picked)
        return [t("summary.expansion_ranks", lang, ranks=" ".join(str(r) for r in picked))]
    names = [t(f"ov.role.{roles[r]}", lang) for r in picked if r in roles]
    out = sorted(r for r in picked if r not in roles)
    parts = [t("summary.expansion", lang, roles=t("punct.list", lang).join(names))] if names else []
    if out:
        key = "summary.expansion_out_one" if len(out) == 1 else "summary.expansion_out"
        parts.append(t(key, lang, ranks=" ".join(str(r) for r in out), n=seats))
    return parts


def settings_summary(settings: RoomSettings, lang: Lang) -> str:
    """The waiting room's line of settings: seats, the game's options, timers.

    Sultans of Karaya options missing from ``settings.options`` are the
    engine's defaults (the create dialog leaves them out)."""
    parts = [t("summary.seats", lang, n=settings.seats)]
    rounds, first_to = settings.options.get("rounds"), settings.options.get("first_to")
    if settings.game == "sultans" and isinstance(first_to, int):
        parts.append(t("summary.first_to_one" if first_to == 1 else "summary.first_to", lang, n=first_to, cap=SULTANS_FIRST_TO_CAP))
    elif isinstance(rounds, int):
        parts.append(t("summary.rounds_one" if rounds == 1 else "summary.rounds", lang, n=rounds))
    expansion: list[str] = []  # said last: two lines cut the timers off a long one at 80 columns
    if settings.game == "overlord":  # Kill the Overlord's options (keys in tui/overlord/catalogue.py)
        limit, crown = settings.options.get("round_limit"), settings.options.get("coronation")
        ranks = settings.options.get("expansion_ranks")
        if isinstance(limit, int):
            parts.append(t("summary.round_limit_one" if limit == 1 else "summary.round_limit", lang, n=limit))
        if isinstance(crown, int):
            parts.append(t("summary.coronation", lang, n=crown))
        if isinstance(ranks, list) and ranks:
            expansion = _expansion_summary(settings.seats, str(settings.options.get("ruleset", "house")), ranks, lang)
    if settings.turn_timer:
        parts.append(t("summary.turn_timer", lang, s=settings.turn_timer))
    else:
        parts.append(t("summary.turn_timer_off", lang))
    if settings.window_timer:
        parts.append(t("summary.window_timer", lang, s=settings.window_timer))
    else:
        parts.append(t("summary.window_timer_off", lang))
    parts.append(t("summary.bot_delay", lang, s=f"{settings.bot_delay:g}"))
    if settings.strict_windows:  # S-REACT-5, K-ORD-11
        parts.append(t("summary.strict_windows", lang))
    else:
        parts.append(t("summary.quick_windows", lang, s=f"{settings.window_min:g}"))
    if settings.bot_level != DEFAULT_BOT_LEVEL or settings.bot_levels:  # (normal bots go unsaid)
        parts.append(bot_levels_summary(settings, lang))
    if settings.game == "sultans":  # turn limit (S-WIN-4) and notebook (S-VIEW-2)
        parts.append(t("summary.between_rounds", lang, s=settings.between_rounds))
        limit = settings.options.get("turn_limit")
        parts.append(t("summary.turn_limit", lang, n=limit if isinstance(limit, int) else 200))
        notebook = settings.options.get("notebook", True) is not False
        parts.append(t("summary.notebook_on" if notebook else "summary.notebook_off", lang))
    return " · ".join(parts + expansion)  # a private room says so in the room's title line (and shows its host the code)
