"""The waiting room's settings summary: the room's settings, and each game's
own part of the line (:meth:`tui.games.GameUI.summary_parts`)."""

from __future__ import annotations

from engine.api import DEFAULT_BOT_LEVEL
from protocol.contract import RoomSettings
from protocol.i18n import Lang, bot_levels_summary, t
from tui.games import SummaryParts, game_ui


def settings_summary(settings: RoomSettings, lang: Lang) -> str:
    """The waiting room's line of settings: seats, the game's options, timers."""
    ui = game_ui(settings.game)
    if ui is not None:
        game = ui.summary_parts(settings, lang)
    else:  # a game the screens do not know: its round count, if it has one
        rounds = settings.options.get("rounds")
        game = SummaryParts(head=[t("summary.rounds_one" if rounds == 1 else "summary.rounds", lang, n=rounds)] if isinstance(rounds, int) else [])
    parts = [t("summary.seats", lang, n=settings.seats), *game.head]
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
    if ui is not None and ui.spec.round_results:  # a round's result waits for the players to go on
        parts.append(t("summary.between_rounds", lang, s=settings.between_rounds))
    return " · ".join(parts + game.tail + game.last)  # a private room says so in the room's title line (and shows its host the code)
