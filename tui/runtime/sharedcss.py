"""Style work shared by every App in one process (one App per SSH session).

Every session's App parses the same CSS and applies it to the same kinds of
widgets, and Textual repeats that work for each App: at a login, matching
the stylesheet's rules against each new widget (and against each of a
widget's component classes, a dozen for a DataTable) was about 40% of the
CPU of building the lobby (Textual's ``Stylesheet.apply`` timed in logins
without SSH, ``./manage bench screens``' sessions). Two things are shared:

* :class:`SharedCSSCache`: the parsed rule sets (Textual keeps a parse cache
  per stylesheet); keyed by the CSS variables, which are substituted while
  parsing.
* :class:`SharedStylesheet`: the outcome of matching the rules against a
  node. What Textual's ``Stylesheet.apply`` computes for a node depends only
  on the stylesheet's rule sets (which, parsed through the shared cache, are
  the same objects in every App) and on what its selectors can look at along
  the node's path from the App: each node's class, id, CSS classes and
  pseudo-classes (only those the candidate rules use, sibling-order and
  focus-within ones included: they are looked up on each node of the path).
  That is the key; the value is the rules map Textual gave the node and the
  flags it set. A node whose key was seen gets the same map without matching
  again; anything else goes Textual's way.

:func:`share_styles` puts both on an App before it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

MAX_RULE_LISTS = 32
"""Distinct rule lists (the order widgets' CSS was added in differs between
Apps) remembered; beyond this, new ones are matched Textual's way."""
MAX_MATCHES = 8192
"""Remembered outcomes; the table is emptied when it is full."""


class SharedCSSCache:
    """Stands in for a Stylesheet's private parse cache: every session's App
    parses the same CSS (app, screens, widgets' DEFAULT_CSS), so the parsed rule
    sets are made once per process and shared (less CPU at login, less memory
    per session). Keyed by the sheet's CSS variables as well, since variables
    are substituted while parsing; ``clear`` (Textual calls it when variables
    change) is therefore not needed. Textual replaces the variables dict when
    they change (never edits it), so its key is worked out once per dict."""

    _tables: ClassVar[dict[tuple[tuple[str, str], ...], dict[Any, Any]]] = {}
    MAX_ENTRIES: ClassVar[int] = 512

    def __init__(self, stylesheet: Stylesheet) -> None:
        self._stylesheet = stylesheet
        self._variables: dict[str, str] | None = None
        self._table_now: dict[Any, Any] = {}

    def _table(self) -> dict[Any, Any]:
        variables = self._stylesheet._variables
        if variables is not self._variables:
            key = tuple(sorted(variables.items()))
            self._table_now = self._tables.setdefault(key, {})
            self._variables = variables
        return self._table_now

    def __getitem__(self, key: Any) -> Any:
        return self._table()[key]

    def __setitem__(self, key: Any, rules: Any) -> None:
        table = self._table()
        if len(table) < self.MAX_ENTRIES:
            table[key] = rules

    def clear(self) -> None:
        pass


_Outcome = tuple[Any, bool, bool, bool, bool]  # rules map; hover, focus-within, order, odd/even flags


class SharedStylesheet(Stylesheet):
    """A Stylesheet whose ``apply`` reuses what any App of the process matched
    for a node in the same situation (see the module docstring)."""

    _rule_lists: ClassVar[dict[tuple[int, ...], int]] = {}
    _kept: ClassVar[list[list[RuleSet]]] = []  # the rule sets behind the ids above, kept alive
    _pseudo: ClassVar[dict[tuple[int, frozenset[str]], tuple[str, ...]]] = {}
    _matches: ClassVar[dict[tuple[Any, ...], _Outcome]] = {}

    _seen_rules: list[RuleSet] | None = None
    _seen_token = -1

    def _token(self) -> int:
        """A number naming this sheet's rule list (-1: too many to remember)."""
        rules = self.rules
        if rules is not self._seen_rules:
            ids = tuple(map(id, rules))
            token = self._rule_lists.get(ids)
            if token is None:
                if len(self._kept) >= MAX_RULE_LISTS:
                    token = -1
                else:
                    token = len(self._kept)
                    self._rule_lists[ids] = token
                    self._kept.append(list(rules))
            self._seen_rules, self._seen_token = rules, token
        return self._seen_token

    def _pseudo_classes(self, token: int, names: frozenset[str]) -> tuple[str, ...]:
        """The pseudo-classes used by the rules that may apply to a node with
        these selector names (its type, id, classes)."""
        key = (token, names)
        found = self._pseudo.get(key)
        if found is None:
            rules_map = self.rules_map
            used: set[str] = set()
            for name in rules_map.keys() & names:
                for rule in rules_map[name]:
                    used |= rule.pseudo_classes
            found = self._pseudo[key] = tuple(sorted(used))
        return found

    def reparse(self) -> None:
        """Textual's, but the fresh sheet it parses into shares the parsed CSS
        too: a screen with CSS of its own (the game tables) reparses when
        shown, which gave every session new rule sets for all of the CSS."""
        stylesheet = SharedStylesheet(variables=self._variables)
        # this sheet's own cache (the same variables): a new one would point back
        # at the fresh sheet, a reference cycle left for the collector
        stylesheet._parse_cache = self._parse_cache
        for read_from, (css, is_defaults, tie_breaker, scope) in self.source.items():
            stylesheet.add_source(
                css, read_from=read_from, is_default_css=is_defaults, tie_breaker=tie_breaker, scope=scope
            )
        try:
            stylesheet.parse()
        except Exception:
            self._invalid_css.update(stylesheet._invalid_css)
            raise
        self._rules = stylesheet.rules
        self._rules_map = None
        self.source = stylesheet.source
        self._require_parse = False

    _capturing: DOMNode | None = None  # the node whose rules replace_rules keeps
    _captured: Any = None

    def replace_rules(self, node: DOMNode, rules: Any, animate: bool = False) -> None:  # type: ignore[override]
        if node is self._capturing:
            self._captured = rules
        Stylesheet.replace_rules(node, rules, animate=animate)

    def apply(
        self,
        node: DOMNode,
        *,
        animate: bool = False,
        cache: dict[tuple[Any, ...], Any] | None = None,
    ) -> None:
        token = self._token()
        if token < 0:
            super().apply(node, animate=animate, cache=cache)
            return
        pseudo = self._pseudo_classes(token, frozenset(node._selector_names))
        key = (token, *[_situation(each, pseudo) for each in node.css_path_nodes])
        outcome = self._matches.get(key)
        if outcome is None:
            # Textual's way, keeping the rules it gives the node (none: it leaves
            # the node's styles as they are); its component classes come back here
            outer = self._capturing, self._captured
            self._capturing, self._captured = node, None
            try:
                super().apply(node, animate=animate)
                rules = self._captured
            finally:
                self._capturing, self._captured = outer
            if len(self._matches) >= MAX_MATCHES:
                self._matches.clear()
            self._matches[key] = (
                rules,
                node._has_hover_style,
                node._has_focus_within,
                node._has_order_style,
                node._has_odd_or_even,
            )
            return
        rules, node._has_hover_style, node._has_focus_within, node._has_order_style, node._has_odd_or_even = outcome
        if rules is not None:
            self.replace_rules(node, rules, animate=animate)
        self._process_component_classes(node)

    def _process_component_classes(self, node: DOMNode) -> None:
        """Textual's, but each component class keeps its virtual node: Textual
        makes new ones at every apply (a widget's CSS class or pseudo-class
        changed: a focus, a new screen), each ~50 objects in reference cycles
        that only a full collection frees (~250 objects per session that sat
        down to watch a table, more in a waiting room). The kept node is
        matched again and its styles change in place; the widget is refreshed
        when they changed, as Textual does."""
        component_classes = node._get_component_classes()
        if not component_classes:
            return
        kept: dict[str, DOMNode] | None = node.__dict__.get("_kept_components")
        if kept is None:
            kept = node.__dict__["_kept_components"] = {}
        styles = node._component_styles
        refresh_node = False
        for component in sorted(component_classes):
            virtual_node = kept.get(component)
            if virtual_node is None:
                virtual_node = kept[component] = DOMNode(classes=component)
                virtual_node._attach(node)
                self.apply(virtual_node, animate=False)
                refresh_node = refresh_node or styles.get(component) != virtual_node.styles
            else:
                before = virtual_node.styles._cache_key
                self.apply(virtual_node, animate=False)
                refresh_node = refresh_node or virtual_node.styles._cache_key != before or styles.get(component) is not virtual_node.styles
            styles[component] = virtual_node.styles
        if refresh_node:
            node.refresh()


def _situation(node: DOMNode, pseudo: tuple[str, ...]) -> tuple[Any, ...]:
    """What a selector can see of ``node``: its class, id, CSS classes and which
    of the ``pseudo`` classes it has now."""
    checks: dict[str, Callable[[Any], bool]] = node._PSEUDO_CLASSES
    return (
        type(node),
        node._id,
        frozenset(node._classes),
        tuple(bool((check := checks.get(name)) is not None and check(node)) for name in pseudo),
    )


def forget() -> None:
    """Empty the process-wide tables (tests)."""
    SharedCSSCache._tables.clear()
    for table in (SharedStylesheet._rule_lists, SharedStylesheet._kept, SharedStylesheet._pseudo, SharedStylesheet._matches):
        table.clear()


def share_styles(app: Any) -> None:
    """Make ``app`` (before it runs) use the process-wide parsed CSS and matches."""
    stylesheet = app.stylesheet
    stylesheet.__class__ = SharedStylesheet
    stylesheet._parse_cache = SharedCSSCache(stylesheet)
