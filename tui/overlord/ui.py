"""Kill the Overlord on the screens (:mod:`tui.games`): its catalogue, help,
the settings line's parts and the dialog's expansion roles and coronation
amounts, read from the room's rule set (K-XROLE-1, K-RND-4, K-END-2)."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from engine.overlord.rules import load_ruleset
from engine.overlord.spec import SPEC
from protocol.contract import RoomSettings
from protocol.i18n import Lang, t
from tui.games import GameUI, SummaryParts
from tui.overlord.catalogue import OVERLORD_EN, OVERLORD_ZH

HOUSE = "house"  # (OverlordOptions.ruleset's default: a room that names none plays it)


def ruleset_of(options: Mapping[str, object]) -> str:
    return str(options.get("ruleset") or HOUSE)


@functools.lru_cache(maxsize=32)
def _expansion_roles(ruleset: str, seats: int) -> dict[int, str]:
    """K-XROLE-1: rank -> the expansion role that can replace it, for the ranks
    in play at ``seats`` (empty when the rule set has no such table)."""
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
    try:
        rs = load_ruleset(ruleset)
    except ValueError:
        return []
    base = {rs.role(r).rank: r for r in rs.role_sets.get(seats, [])}
    return [(r.rank, r.id, base.get(r.rank)) for r in sorted(rs.roles, key=lambda r: -r.rank) if r.expansion]


def coronations(options: Mapping[str, object]) -> list[int]:
    """K-RND-4: the gold the Overlord is crowned at, the rule set's, or its shorter option."""
    try:
        rs = load_ruleset(ruleset_of(options))
    except ValueError:
        rs = load_ruleset(HOUSE)
    return [rs.coronation, rs.coronation_alternative]


def expansion_note(raw: str, seats: int, options: Mapping[str, object], lang: Lang) -> str:
    """Under the expansion ranks: every expansion role of the rule set by name,
    its rank, the base role it replaces at this many seats (or that no role of
    its rank plays there), ticked when its rank is typed (issue 44 item 14:
    "1 5 8" assumed the host knew which rank is which role)."""
    picked = {int(r) for r in raw.replace(",", " ").split() if r.isdigit()}
    items = []
    for rank, role, base in expansion_choices(ruleset_of(options), seats):
        mark = "[X]" if rank in picked else "[ ]"
        name = t(f"ov.role.{role}", lang)
        if base is None:
            items.append(t("expansion.item_out", lang, mark=mark, rank=rank, role=name, n=seats))
        else:
            items.append(t("expansion.item", lang, mark=mark, rank=rank, role=name, base=t(f"ov.role.{base}", lang)))
    return " · ".join(items)


def _expansion_summary(seats: int, ruleset: str, ranks: list[object], lang: Lang) -> list[str]:
    """The expansion roles a room plays with, by name; the ranks picked that
    have no role at this many seats said apart (K-XROLE-1: "only for ranks in
    play at that player count")."""
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


def summary(settings: RoomSettings, lang: Lang) -> SummaryParts:
    """Round limit and coronation after the seats; the expansion roles last
    (two lines cut the timers off a long one at 80 columns)."""
    parts = SummaryParts()
    limit, crown = settings.options.get("round_limit"), settings.options.get("coronation")
    ranks = settings.options.get("expansion_ranks")
    if isinstance(limit, int):
        parts.head.append(t("summary.round_limit_one" if limit == 1 else "summary.round_limit", lang, n=limit))
    if isinstance(crown, int):
        parts.head.append(t("summary.coronation", lang, n=crown))
    if isinstance(ranks, list) and ranks:
        parts.last.extend(_expansion_summary(settings.seats, ruleset_of(settings.options), ranks, lang))
    return parts


def help_text(lang: Lang) -> str:
    """The rules summary of the lobby's help: a room's coronation is its option (K-RND-4)."""
    n, alt = coronations({})
    return t("help.game.overlord", lang, crown=t("help.game.crown_either", lang, n=n, alt=alt))


UI = GameUI(
    spec=SPEC,
    en=OVERLORD_EN,
    zh=OVERLORD_ZH,
    lead=("round_limit", "coronation", "expansion_ranks"),
    rest=(),
    choices={"coronation": coronations},
    notes={"expansion_ranks": expansion_note},
    summary=summary,
    help=help_text,
    table="tui.overlord.table:Table",
)
