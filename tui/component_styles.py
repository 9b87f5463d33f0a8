"""Styling a widget's parts without making throw-away nodes each time.

Textual styles the parts of a widget that are not widgets (a ``DataTable``'s
header, cursor and rows, an ``Input``'s cursor and placeholder, a screen's
selection: its ``COMPONENT_CLASSES``) through one small ``DOMNode`` per
part, attached to the widget, that the stylesheet is applied to. Textual
makes those nodes anew every time the stylesheet is applied to the widget:
when it is mounted, and again on every focus, hover or class change. Each is
~60 objects the garbage collector tracks, in reference cycles (a node and its
styles refer to each other), so the old ones wait for the collector. A login
left ~1,100 such objects (nearly all from the lobby's ``DataTable``, styled
at mount and again when it takes the focus); with many sessions in one
process that is what the full collections then walk and free.

:func:`install` replaces ``Stylesheet._process_component_classes`` with one
that applies the stylesheet again to the part nodes the widget already has
(new ones only for parts it has none for yet). The rules a part gets are
the same (``replace_rules`` resets what no rule sets any more), and the widget
is refreshed when any part's rules changed, as Textual does.
"""

from __future__ import annotations

from typing import Any

from textual.css.styles import RenderStyles
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

_TEXTUAL_PROCESS = Stylesheet._process_component_classes


def _process_component_classes(self: Stylesheet, node: DOMNode) -> None:
    component_classes = node._get_component_classes()
    if not component_classes:
        return
    styles_map = node._component_styles
    refresh_node = False
    styled: dict[str, RenderStyles] = {}
    for component in sorted(component_classes):
        old = styles_map.get(component)
        part = old.node if old is not None else None
        if part is None or part._parent is not node or part.classes != frozenset((component,)):
            part = DOMNode(classes=component)
            part._attach(node)
            self.apply(part, animate=False)
            refresh_node = refresh_node or old != part.styles
        else:
            before: dict[str, Any] = dict(part.styles.base._rules)
            self.apply(part, animate=False)
            refresh_node = refresh_node or before != part.styles.base._rules
        styled[component] = part.styles
    styles_map.clear()
    styles_map.update(styled)
    if refresh_node:
        node.refresh()


def install() -> bool:
    """Reuse part nodes (once per process); False if Textual's method is not the
    one this was written against."""
    current = Stylesheet._process_component_classes
    if current is _process_component_classes:
        return True
    if current is not _TEXTUAL_PROCESS or not hasattr(DOMNode(), "_component_styles"):
        return False
    Stylesheet._process_component_classes = _process_component_classes  # type: ignore[method-assign]
    return True
