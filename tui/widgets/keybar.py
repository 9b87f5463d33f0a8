"""The key bar: one line of a screen's keys with their translated labels,
tightened group by group as the terminal narrows."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.cache import LRUCache

from protocol.i18n import Lang, t
from tui.widgets.linestatic import LineStatic

# (key as shown, action to run, catalogue key of its label)
KeySpec = tuple[str, str, str]


SPARE_ACTIONS = {"online"}
"""Keys the key bar leaves out first when it is too narrow: the screen says
them (the lobby's "+8 more (o)"). (The lobby's Settings, ``l``, was one, "F2
does the same"; it holds the bell too, and a newcomer at 80 columns never
found it: the chat's field and the leaderboard's title say their keys instead.)"""
ACTION_KEYS = "key(…)"
"""In a group of keys below: every ``key('x')`` action (a table's game actions)."""
ALL_BUT_LEAVE = "*"
"""In :data:`UNLABELLED_FIRST`: every key but the one that leaves the screen."""
DROPPED_FIRST: tuple[frozenset[str], ...] = (
    frozenset({"app.quit_app"}),
    frozenset({"leaders"}),
    frozenset({"pane"}),
    frozenset({"chat"}),
    frozenset({"match_log"}),
    frozenset({"standin"}),
    frozenset({"results"}),
    frozenset({"reopen"}),
    frozenset({"play_again"}),
)
"""Then keys left out whole, a group (by action, or by key for the function
keys) at a time, never shown without their label (the lobby's bar read
" t   b   F1 Help  F2 中文  l Settings  q"): each is said elsewhere too, and
F1 lists them all. q first (F1; Ctrl+C asks too); the leaderboard, a table's
Tab (its pane's title) and chat (the leaderboard's title and the chat's field
say their keys); a table's F3 (the whole log); the host's z for a stand-in (F1
says what it does); then F4 (the results: the match's opens by itself at its
end) and last a finished table's host keys, the longer first (its status line
says "Press p to play again, or o to change the settings"): at a match's end
80 columns lost o, F3 and F4 while t and Tab stayed."""
DROPPED_LAST: tuple[frozenset[str], ...] = (
    frozenset({ACTION_KEYS}),
    frozenset({"leave_match"}),
    frozenset({"add_bot", "remove", "options"}),
)
"""After that the bar packs its keys closer ("w Watch c New room"), then
leaves out the keys of the game's actions (the table's prompt line names
them), then a match's q (only F1 says what it does: a player needs to find how
to leave a match), then a waiting room's host keys (F1 lists them), so that its host
still sees Ready, Start and Leave. What is left of any screen's bar fits 60
columns with every label, in both languages."""
UNLABELLED_FIRST: tuple[frozenset[str], ...] = (
    frozenset({"F1"}),
    frozenset({"F2"}),
    frozenset({ALL_BUT_LEAVE}),
)
"""Under 60 columns (the player is told the terminal is too small) labels go
last of all: F1's, F2's, then every label but Leave's."""


def _in_group(group: frozenset[str], key: str, action: str) -> bool:
    return (
        action in group
        or key in group
        or (action.startswith("key(") and ACTION_KEYS in group)
        or (ALL_BUT_LEAVE in group and action != "back")
    )


BarStep = tuple[int, bool, frozenset[str], frozenset[str]]
"""One way to lay out a key bar: spacing (0 wide, 1 tight, 2 packed), whether
disabled keys are left out, the groups left out, the groups without labels."""


def _bar_steps() -> list[BarStep]:
    none: frozenset[str] = frozenset()
    spare = frozenset(SPARE_ACTIONS)
    steps: list[BarStep] = [(0, False, none, none), (1, False, none, none), (1, True, none, none), (1, True, spare, none)]
    dropped = spare
    for group in DROPPED_FIRST:
        dropped |= group
        steps.append((1, True, dropped, none))
    steps.append((2, True, dropped, none))
    for group in DROPPED_LAST:
        dropped |= group
        steps.append((2, True, dropped, none))
    unlabelled = none
    for group in UNLABELLED_FIRST:
        unlabelled |= group
        steps.append((2, True, dropped, unlabelled))
    return steps


BAR_STEPS = _bar_steps()
"""The key bar's layouts, the roomiest first (see :class:`KeyBar`)."""


LaidBar = tuple[Text, list[tuple[int, int, str]], tuple[tuple[str, str], ...]]
"""A key bar laid out: its text, where each action is, the keys with their labels."""
_BARS: LRUCache[Hashable, LaidBar] = LRUCache(256)
"""Key bars laid out, by their items and width (see KeyBar.show); never changed after."""


class KeyBar(LineStatic):
    """One line of ``key label`` pairs for the current screen, clickable.

    Only actions the screen allows right now (``check_action``) are shown;
    ones it reports as disabled (``None``) are shown dimmed. When the line is
    too narrow it tightens (:data:`BAR_STEPS`): less padding, then disabled
    items dropped and the keys that another key already offers left out
    (:data:`SPARE_ACTIONS`), then whole keys that the screen says elsewhere
    (:data:`DROPPED_FIRST`), packed closer, fewer keys again
    (:data:`DROPPED_LAST`), and only under 60 columns labels
    (:data:`UNLABELLED_FIRST`). Drawn as a :class:`LineStatic` (every screen
    has one, redrawn as its keys change).
    """

    DEFAULT_CSS = """
    KeyBar { height: 1; width: 1fr; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__("", markup=False, **kw)
        self._spans: list[tuple[int, int, str]] = []
        self._last: tuple[Any, list[KeySpec], Lang] | None = None
        self._shown = Text("")
        self.pairs: tuple[tuple[str, str], ...] = ()
        """The keys shown now, each with its label ("" where it has none)."""

    def show(self, node: Any, keys: list[KeySpec], lang: Lang) -> None:
        self._last = (node, keys, lang)
        items: list[tuple[str, str, str, bool]] = []  # key, label, action, enabled
        for key, action, label_key in keys:
            name = action.removeprefix("app.")
            target = node.app if action.startswith("app.") else node
            allowed = target.check_action(name, ())
            if allowed is False:
                continue
            items.append((key, t(label_key, lang), action, bool(allowed)))
        room = self.size.width or self.app.size.width
        bar_key = (tuple(items), room)
        laid = _BARS.get(bar_key)  # the same keys in every session at a table
        if laid is None:
            for step in BAR_STEPS:
                laid = self._layout(items, step)
                if laid[0].cell_len <= room:
                    break
            assert laid is not None
            _BARS[bar_key] = laid
        text, spans, self.pairs = laid
        self._spans = spans
        if text is not self._shown and text != self._shown:  # the same bar again: no repaint
            self._shown = text
            self.update(text, layout=False)

    @staticmethod
    def _layout(items: list[tuple[str, str, str, bool]], step: BarStep) -> LaidBar:
        spacing, drop_disabled, dropped, unlabelled = step
        text = Text(" " if spacing == 2 else "", no_wrap=True, overflow="ellipsis", end="")
        spans: list[tuple[int, int, str]] = []
        pairs: list[tuple[str, str]] = []
        x = text.cell_len
        for key, label, action, allowed in items:
            if (drop_disabled and not allowed) or _in_group(dropped, key, action):
                continue
            start = x
            key_part = key if spacing == 2 else f" {key} "
            if _in_group(unlabelled, key, action):
                label_part, label = " ", ""
            else:
                label_part = (f" {label}  ", f"{label} ", f" {label} ")[spacing]
            text.append(key_part, style="reverse bold" if allowed else "reverse dim")
            text.append(label_part, style="" if allowed else "dim")
            pairs.append((key, label))
            x += cell_len(key_part) + cell_len(label_part)
            if allowed:
                spans.append((start, x, action))
        return text, spans, tuple(pairs)

    def on_resize(self) -> None:
        if self._last is not None:
            self.show(*self._last)

    def on_unmount(self) -> None:
        self._last = None  # (it names the screen that holds the bar: a cycle left for the collector)

    def plain(self) -> str:
        """The bar as plain text (for tests and screen readers)."""
        return str(self.render())

    async def on_click(self, event: events.Click) -> None:
        for start, end, action in self._spans:
            if start <= event.x < end:
                event.stop()
                await self.app.run_action(action, self.screen)
                return
