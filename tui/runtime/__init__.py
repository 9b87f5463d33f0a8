"""How Textual runs here: many players' sessions in one process.

Textual is written for one App per process; this host runs hundreds. The
modules here change how it runs for that: patches of Textual's and Rich's
internals (:mod:`tui.runtime.patches` lists each with what it fixes and the
measurement behind it), parsed CSS shared by every App (``sharedcss``), a
compositor that repaints each changed region on its own (``compositor``), and
the taking apart of an ended session's widgets (``retire``).

:func:`install` applies the patches once per process. The composition root
calls it (``server.cli.app_host``) before any App exists; an App never does, so
the screens' own tests install them in their conftest, as the server would.
"""

from tui.runtime.patches import PATCHES, Patch, install

__all__ = ["PATCHES", "Patch", "install"]
