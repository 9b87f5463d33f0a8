"""Base classes shared by every screen of the app.

A :class:`HostScreen` shows host state. The app calls :meth:`refresh_data`
(coalesced, at most a few times per second) after the host reports a change,
and :meth:`apply_lang` after the player switches language. Screens read the
host through ``self.throne.lobby`` / ``self.throne.room`` only.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar, cast

from rich.text import Text
from textual import _time, events, messages
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static
from textual.widgets._tooltip import Tooltip

from protocol.contract import ClientError
from protocol.i18n import Lang, t
from tui.runtime.compositor import AcyclicCompositor, compositor
from tui.turns import Turns
from tui.widgets import KeyBar, KeySpec, TailLog

if TYPE_CHECKING:
    from tui.app import ThroneApp


class Translatable:
    """Anything on the screen stack that re-renders its text on a language switch."""

    def apply_lang(self) -> None:
        raise NotImplementedError

    def switch_lang(self) -> None:
        """After a language switch: re-render (a dialog also its key bar)."""
        self.apply_lang()


class _ThroneMixin:
    app: Any
    live = False  # True once mounted: its widgets exist and may be updated
    _fresh = False  # mounted and filled, not shown yet (see HostScreen._on_screen_resume)
    _drawn_by_layout = False  # inside Textual's resume handler, after a layout drew it all
    _drawn_at = 0.0  # when a layout last drew the whole screen (see HostScreen._on_screen_resume)

    @property
    def throne(self) -> ThroneApp:
        return cast("ThroneApp", self.app)

    @property
    def lang(self) -> Lang:
        return self.throne.lang

    def tr(self, key: str, **params: object) -> str:
        return t(key, self.throne.lang, **params)

    def error(self, err: ClientError) -> None:
        self.throne.show_error(err)

    _focus_moving = False  # inside set_focus (see refresh)

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        self._focus_moving = True
        try:
            Screen.set_focus(cast("Screen[Any]", self), widget, scroll_visible, from_app_focus)
        finally:
            self._focus_moving = False

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        """Textual's, without the whole-screen repaint that moving the focus asks
        for (``Screen.focused`` is a reactive that repaints its screen): every
        Tab in the lobby, or between a dialog's fields, wrote the whole terminal
        again (~6.8 KB at 100x30). What the move changes draws itself: the
        widget that lost the focus and the one that got it repaint (their Blur
        and Focus), and so does every widget whose ``:focus-within`` style
        changed (``Screen._update_focus_styles``)."""
        if self._focus_moving and repaint and not (regions or layout or recompose):
            return self
        return cast("Self", Screen.refresh(cast("Screen[Any]", self), *regions, repaint=repaint, layout=layout, recompose=recompose))

    def _clear_tooltip(self) -> None:
        """Textual's, without its search for a tooltip that is not there: the app
        mounts none (tooltips are off), and Textual's lookup raised ``NoMatches``
        on every key and click, its message the ``repr`` of each of the screen's
        children (~1% of the CPU while bots play and players type)."""
        if any(type(child) is Tooltip for child in cast("Screen[Any]", self)._nodes):
            Screen._clear_tooltip(cast("Screen[Any]", self))


class HostScreen(_ThroneMixin, Translatable, Screen[None]):
    """A full screen showing host state, with a translated key bar."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._compositor = compositor()  # repaints what changed, not a crop around it all
        self._shown: dict[str, object] = {}  # what each widget shows now (see _changed)

    KEYS: ClassVar[list[KeySpec]] = []
    FIXED_LAYOUT: ClassVar[bool] = False
    """Every widget's size follows from the screen's size alone (no ``auto``
    sizes, nothing that scrolls): the layout that first draws the screen is
    final, and the second one Textual asks for (its widgets were sized) is
    skipped."""

    def _extend_compose(self, widgets: list[Widget]) -> None:
        """Textual adds a toast rack (and a tooltip) to every screen it composes:
        widgets that cost each session ~45 KB and ~370 tracked objects apiece.
        Here a screen gets its toast rack only when a notification comes
        (:meth:`ThroneApp._refresh_notifications`); tooltips are off app-wide."""

    def keybar(self) -> KeyBar:
        return self.query_one(KeyBar)

    def refresh_data(self) -> None:
        """Re-read what this screen shows from the host."""

    def _changed(self, key: str, shown: object) -> bool:
        """Whether the widget ``key`` stands for must change to show ``shown``
        (remembered as shown): updating a widget redraws it, and screens are
        refreshed after every change in their room or the lobby."""
        if self._shown.get(key) == shown:
            return False
        self._shown[key] = shown
        return True

    def _update(self, selector: str, content: Text | str, *, layout: bool = False) -> None:
        """Update the Static ``selector`` only when its content changed (by
        default without a re-layout: these widgets have a fixed size)."""
        if self._changed(selector, content):
            self.query_one(selector, Static).update(content, layout=layout)

    def refresh_keys(self) -> None:
        if self.live:
            self.keybar().show(self, self.KEYS, self.lang)

    def apply_lang(self) -> None:
        self.refresh_keys()
        self.refresh_data()

    # Textual calls the handler of every class along the MRO, the subclass's
    # first: a subclass's on_mount/on_screen_resume does its own part and must
    # not call super()'s (that ran the base's twice: two full refreshes).
    def on_mount(self) -> None:
        self.live = True
        self._fresh = True  # filled just now: the resume that shows it first need not fill it again
        self.apply_lang()

    def on_screen_suspend(self) -> None:
        self._fresh = False

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # One handler per class (Textual takes ``_on_x`` or ``on_x``): this one
        # does the host screen's part, then runs Textual's own with one change.
        if self._fresh:
            # Textual re-applies the stylesheet to every widget of a screen that
            # comes on top; a screen shown for the first time had it applied when
            # its widgets were mounted, a moment ago (about a tenth of a login's CPU).
            event.refresh_styles = False
        elif self.live:
            self.refresh_keys()
            self.refresh_data()
        self._fresh = False
        # Textual's handler lays out a screen shown at a new size and draws it
        # whole; sizing the widgets asked each of them (and the screen) to be
        # drawn again, and it asks for a repaint anyway: a second frame of the
        # whole screen (~10 KB to the terminal) a moment after the first. Those
        # requests are dropped when the layout drew it all just now. A layout
        # widgets ask for still happens (and draws what it changes).
        event.prevent_default()  # Textual's handler runs here, not after this one
        drawn = self._size != self.app.size and not self.app._batch_count
        self._drawn_by_layout = drawn
        try:
            Screen._on_screen_resume(self, event)
        finally:
            self._drawn_by_layout = False
        if drawn:
            self._drawn_at = _time.get_time()
            for widget in self.walk_children(Widget, with_self=False):
                widget._repaint_required = False
                # what the widget asked to have drawn before is drawn: left here, it
                # was the widget's next update (a pane's first change of focus
                # wrote the pane whole)
                widget._repaint_regions.clear()
                if self.FIXED_LAYOUT:
                    widget._layout_required = False
            self._repaint_required = False

    def _compositor_refresh(self) -> None:
        if self._drawn_by_layout:
            # the layout that shows the screen sized its widgets; what they show
            # that depends on their size is made now, so that the frame about to
            # be drawn shows it (its widgets' Resize events come after the frame:
            # a log's first lines, a table's seats at their real width were a
            # second frame, 0.8-4.3 KB, a moment after the first)
            self.on_sized()
        super()._compositor_refresh()

    def on_sized(self) -> None:
        """The widgets have their first size and nothing is drawn yet: make what
        depends on their size (override, calling this). Content only: a layout
        asked for here is dropped with the screen's other requests from before
        its first frame."""
        for log in self.query(TailLog):
            log.write_deferred()

    def _drop_if_drawn(self, message: messages.Layout | messages.Update) -> None:
        """A layout or repaint asked for before the screen was laid out and drawn
        whole is done: Textual's handler (next along the MRO) is skipped."""
        if message.time <= self._drawn_at:
            message.stop()
            message.prevent_default()

    async def _on_layout(self, message: messages.Layout) -> None:
        self._drop_if_drawn(message)

    async def _on_update(self, message: messages.Update) -> None:
        self._drop_if_drawn(message)

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if self._drawn_by_layout and not recompose:
            return self  # see _on_screen_resume
        if repaint and not regions and not recompose and self._drawn_at:
            # Textual's own bookkeeping asks for the whole screen to be drawn
            # again, right after it was drawn whole (~7 KB for every room and
            # table screen opened, for every player in the room): once the
            # widgets a new screen mounted are mounted (a layout and a repaint),
            # once the screen it replaced is gone (the same, through App.refresh),
            # and as it replaces that screen (a repaint, which the ScreenResume
            # posted with it does). A layout alone draws what it moved: Textual's
            # reflow marks the region of every widget that appeared, went or
            # changed place, and a widget whose content changed asks for its own
            # repaint.
            why = _textual_bookkeeping()
            if why == "replaced" and not layout:
                return self
            if why in ("mounted", "removed") and layout:
                repaint = False
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _on_timer_update(self) -> Awaitable[None] | None:  # type: ignore[override]
        return _update_in_turn(self)

    def _screen_resized(self, size: Size) -> None:
        """Textual lays a screen out again at every Resize event, also at one
        that leaves its size as it was: a new session's screen gets two of
        those right after its first layout (the App's start, and the screen's
        own size taking effect). A layout some widget asked for meanwhile is
        done by the screen's update timer, as any other."""
        if size == self._compositor.size:
            return
        super()._screen_resized(size)


def _update_in_turn(screen: HostScreen | HostModal[Any]) -> Awaitable[None] | None:
    """Textual's screen update (lay out, draw what changed, write it) as a
    job of the app's :class:`~tui.turns.Turns` when it has them (the SSH
    host: one room's change updates fifteen screens at once, and a key
    pressed meanwhile waits behind none of them). A frame that answers the
    player's own input goes before frames the host caused."""
    turns: Turns | None = getattr(screen.app, "turns", None)
    if turns is None:
        Screen._on_timer_update(screen)
        return None
    # Textual's timer awaits it: the next frame is not asked for before this one is drawn
    return turns.run(partial(Screen._on_timer_update, screen), urgent=screen.throne.answers_input())


def _textual_bookkeeping() -> str | None:
    """Which of Textual's whole-screen refreshes called :meth:`HostScreen.refresh`:
    "mounted" (``AwaitMount``, textual/widget.py), "removed" (``App.refresh`` from
    the ``post_mount`` of ``App._prune``), "replaced" (``App._replace_screen``), or
    None for anything else, also if a Textual release renames them (its own
    refresh then stays as it is)."""
    caller = sys._getframe(2)  # 0: this, 1: HostScreen.refresh, 2: its caller
    code = caller.f_code
    if code.co_filename == _WIDGET_FILE:
        return "mounted" if code.co_name == "await_mount" else None
    if code.co_filename != _APP_FILE:
        return None
    if code.co_name == "_replace_screen":
        return "replaced"
    above = caller.f_back
    if code.co_name == "refresh" and above is not None and above.f_code.co_name == "post_mount":
        return "removed" if above.f_code.co_filename == _APP_FILE else None
    return None


_WIDGET_FILE = sys.modules["textual.widget"].__file__
_APP_FILE = sys.modules["textual.app"].__file__


R = TypeVar("R")


class ChatKeys:
    """A screen's chat line and its key bar: ``t`` puts the cursor in the chat
    line, where the screen's letter keys type, so the bar then shows how to
    send and how to stop typing (:attr:`CHAT_KEYS` in the lobby and a waiting
    room, which kept showing Start, Remove... keys that only typed letters;
    a table builds its own). Mixed into a :class:`HostScreen` with a
    :class:`~tui.widgets.ChatPanel`."""

    CHAT_KEYS: ClassVar[list[KeySpec]] = [
        ("⏎", "chat_send", "key.chat_send"),
        ("Esc", "back", "key.chat_done"),
        ("F1", "app.help", "key.help"),
        ("F2", "app.toggle_lang", "key.lang"),
    ]

    def typing(self) -> bool:
        from tui.widgets import ChatInput

        return isinstance(cast(Screen[None], self).focused, ChatInput)

    def action_chat(self) -> None:
        from tui.widgets import ChatPanel

        cast(Screen[None], self).query_one(ChatPanel).input.focus()

    async def action_chat_send(self) -> None:
        """The key bar's ⏎ while typing: as Enter in the chat line."""
        from tui.widgets import ChatPanel

        await cast(Screen[None], self).query_one(ChatPanel).input.action_submit()

    _bar_typing = False  # the bar was drawn for the chat line

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The bar changes once the focus has moved into the chat line or out of
        it: Textual moves it a moment after ``focus()``, so a bar drawn beside
        that call showed the keys of the focus before (and a click into the
        chat line moves it too). Other moves leave it (a screen's first focus
        at every login drew it again)."""
        self._typing_changed()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._typing_changed()  # the focus gone to nothing: the screen's keys again

    def _typing_changed(self) -> None:
        typing = self.typing()
        if typing != self._bar_typing:
            self._bar_typing = typing
            cast(HostScreen, self).refresh_keys()


class HostModal(_ThroneMixin, Translatable, ModalScreen[R]):
    """A modal dialog that follows the player's language.

    A dialog with :attr:`KEYS` shows them in a key bar along the bottom of the
    terminal, over the key bar of the screen below (whose keys do not work
    while the dialog is open)."""

    KEYS: ClassVar[list[KeySpec]] = []
    BINDINGS: ClassVar[list[BindingType]] = [
        # a modal screen shuts out the app's bindings: the language switch works here too
        Binding("f2", "app.toggle_lang", show=False),
    ]

    _dismissed = False

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._compositor = AcyclicCompositor()  # its layouts leave no cycles (tui.runtime.compositor)

    def dismiss(self, result: R | None = None) -> AwaitComplete:
        """Close the dialog with ``result``: once, and only while it is on top.

        A second Enter that came before the first one's answer (a form submitted
        twice, a double click on a button) dismissed it again: its callback ran
        a second time and Textual popped the screen below it (the lobby:
        "Can't pop screen", the session ended)."""
        if self._dismissed or self.app.screen is not self:
            return AwaitComplete()
        self._dismissed = True
        return super().dismiss(result)

    def _on_timer_update(self) -> Awaitable[None] | None:  # type: ignore[override]
        return _update_in_turn(self)

    _frame_queued = False

    def _compositor_refresh(self) -> None:
        """Outside a turn (the layout when the dialog opens, or a resize), the
        frame is drawn in a turn of its own: a round's result opens on every
        screen of the room at the same moment, each a whole frame, and a key
        typed meanwhile on another screen waited behind all of them. A first
        frame the player did not ask for comes after the frames of actions in
        other rooms (``later``): they waited behind a room's fifteen."""
        turns: Turns | None = getattr(self.app, "turns", None)
        if turns is None or turns.running:
            self._draw_frame()
        elif not self._frame_queued:
            self._frame_queued = True
            urgent = self.throne.answers_input()
            turns.run(self._queued_frame, urgent=urgent, later=not urgent and not self._sized)

    def _queued_frame(self) -> None:
        self._frame_queued = False
        self._draw_frame()

    def _draw_frame(self) -> None:
        if not self._sized and self.is_mounted and self.size.width:
            self._sized = True
            self.on_sized()
        super()._compositor_refresh()

    _sized = False

    def on_sized(self) -> None:
        """The dialog is laid out and its first frame is about to be drawn:
        make what depends on its widgets' size (override, calling this), so
        that the first frame shows it. Content only: its key bar here."""
        self.show_keys()

    def on_mount(self) -> None:
        # runs after the dialog's own on_mount (Textual calls each class's handler)
        if self.KEYS:
            self.mount(KeyBar(id="dialog-keys"))
            self.call_after_refresh(self.show_keys)

    def show_keys(self) -> None:
        """Show :attr:`KEYS` in the player's language (again after a switch)."""
        bars = self.query("#dialog-keys")
        if bars:
            bars.first(KeyBar).show(self, [*self.KEYS, ("F2", "app.toggle_lang", "key.lang")], self.lang)

    def switch_lang(self) -> None:
        self.apply_lang()  # the dialogs' own, which leave the key bar alone
        self.show_keys()

    def apply_lang(self) -> None:
        """Dialogs re-render their labels; the default has none."""
