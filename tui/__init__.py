"""The screens: a Textual app per SSH session, fed only by :mod:`protocol`.

Importing any screen module first registers the screens of every game the
engine's registry offers (:func:`tui.games.load_games`): their catalogues
join the core one (:func:`protocol.i18n.add_catalogue`), so ``t`` finds
their words wherever a screen asks.
"""

from tui.games import load_games

load_games()
