"""How pytest-xdist shares the tests out (``./manage test``: ``-n 2 --dist loadgroup``).

Every end-to-end test (``tests/e2e``) goes to ONE worker, one at a time: they
time what they read on the screen, and two servers with their ssh clients at
once made them miss their waits. The other tests are shared out one by one, so
the other worker (and this one, once the end-to-end tests are done) takes them.
pytest-xdist's own ``xdist_group`` mark does not group on pytest 9.2 (it renames
``item._nodeid``, which pytest no longer reads), so the group is made here from
the test's path.
"""

from __future__ import annotations

from typing import Any

import pytest

E2E_PREFIX = "tests/e2e/"
E2E_GROUP = "e2e"


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
