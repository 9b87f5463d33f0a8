"""The whole suite's hooks (the scheduler is in sharing.py)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from sharing import make_scheduler, yield_to_end_to_end


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own choice of scheduler
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    return make_scheduler(config, log)


def pytest_runtest_setup(item: pytest.Item) -> None:
    yield_to_end_to_end(item.config, item.nodeid, os.environ.get("PYTEST_XDIST_WORKER"))
