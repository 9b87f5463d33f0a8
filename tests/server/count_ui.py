"""The counting game's screens (what ``tui/<game>/ui.py`` is to a real game):
its catalogue in both languages and nothing else. The settings dialog's
rows, the help's summary and the waiting room's line come from
:class:`tui.games.GameUI`'s defaults and the game's options model
(``CountOptions``, tests/server/games.py)."""

from __future__ import annotations

from games import COUNT_SPEC

from tui.games import GameUI

COUNT_EN = {
    "game.count": "Count to the Target",
    "game.short.count": "Count",
    "help.game.count": "Add 1, 2 or 3 to the total in turn; who reaches the target exactly scores 3 (C-TURN).",
    "count.opt.rounds": "Rounds ({lo}-{hi})",
    "count.opt.target": "Target",
    "count.opt.target.hint": "{lo} to {hi}",
    "count.summary.rounds": "{n} rounds",
    "count.summary.target": "count to {n}",
}
COUNT_ZH = {
    "game.count": "數到目標",
    "game.short.count": "數數",
    "help.game.count": "輪流把總數加 1、2 或 3；剛好數到目標的人得 3 分（C-TURN）。",
    "count.opt.rounds": "局數（{lo}-{hi}）",
    "count.opt.target": "目標",
    "count.opt.target.hint": "{lo} 到 {hi}",
    "count.summary.rounds": "{n} 局",
    "count.summary.target": "數到 {n}",
}

UI = GameUI(spec=COUNT_SPEC, en=COUNT_EN, zh=COUNT_ZH)
