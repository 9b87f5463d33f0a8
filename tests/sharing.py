"""How pytest-xdist shares the tests out (``./manage test``: ``-n 2 --dist loadgroup``).

Every end-to-end test (``tests/e2e``) goes to ONE worker, one at a time: they
time what they read on the screen, and two servers with their ssh clients at
once made them miss their waits. The other tests are shared out one by one, so
the other workers (and this one, once the end-to-end tests are done) take them.
The screen tests mostly wait (Textual's pilot sleeps until the app is idle), so
there are more workers than cores; a worker running other tests runs niced, so
the end-to-end tests' server and ssh clients get the CPU when they need it.
pytest-xdist's own ``xdist_group`` mark does not group on pytest 9.2 (it renames
``item._nodeid``, which pytest no longer reads), so the group is made here from
the test's path.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

E2E_PREFIX = "tests/e2e/"
E2E_GROUP = "e2e"
NICE = 5
"""How much a worker running other tests yields to the one running the end-to-end tests."""


def scope_of(nodeid: str) -> str:
    """The unit of work a test belongs to: the end-to-end group, or the test alone."""
    return E2E_GROUP if nodeid.startswith(E2E_PREFIX) else nodeid


def make_scheduler(config: pytest.Config, log: Any) -> Any:
    """pytest-xdist's scheduler for ``--dist loadgroup`` (None: its own for the others)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class EndToEndTogether(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

    return EndToEndTogether(config, log)


def yield_to_end_to_end(config: pytest.Config, nodeid: str, worker: str | None) -> bool:
    """Before a test other than an end-to-end one in a ``loadgroup`` worker: nice
    the worker once (for good: the end-to-end group is the first unit a worker
    gets, so a worker never runs one after the other tests). True if it did."""
    if worker is None or nodeid.startswith(E2E_PREFIX) or config.getvalue("dist") != "loadgroup":
        return False
    if getattr(config, "_throneroom_niced", False):
        return False
    config._throneroom_niced = True  # type: ignore[attr-defined]
    os.nice(NICE)
    return True
