"""The whole suite's hooks (the scheduler is in sharing.py)."""

from __future__ import annotations

from typing import Any

import pytest
from sharing import make_scheduler


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own choice of scheduler
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    return make_scheduler(config, log)
