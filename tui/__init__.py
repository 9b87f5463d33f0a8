"""The screens: a Textual app per SSH session, fed only by :mod:`protocol`.

Importing any screen module first adds each game's table words to the
message catalogue (:func:`protocol.i18n.add_catalogue`), so ``t`` finds them
wherever a screen asks.
"""

from protocol.i18n import add_catalogue
from tui.overlord.catalogue import OVERLORD_EN, OVERLORD_ZH
from tui.sultans.catalogue import SULTANS_EN, SULTANS_ZH

add_catalogue(SULTANS_EN, SULTANS_ZH)
add_catalogue(OVERLORD_EN, OVERLORD_ZH)
