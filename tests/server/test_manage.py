"""The README's commands (``./manage``): what they install, in a copy of the
script with a stand-in ``.venv`` (its python and throneroom only record how
they were called)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _project(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "manage", tmp_path / "manage")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(ROOT / "requirements", tmp_path / "requirements")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("python", "throneroom"):
        tool = bin_dir / name
        tool.write_text(f'#!/bin/sh\necho "{name} $*" >> "$(dirname "$0")/../calls"\n')
        tool.chmod(0o755)
    return tmp_path


def _run(project: Path, *args: str) -> tuple[list[str], str]:
    done = subprocess.run(
        ["./manage", *args], cwd=project, capture_output=True, text=True, timeout=60, check=True
    )
    calls = project / ".venv" / "calls"
    lines = calls.read_text().splitlines() if calls.exists() else []
    calls.unlink(missing_ok=True)
    return lines, done.stderr


def _stamps(project: Path) -> list[str]:
    return sorted(p.name.rsplit("-", 1)[1] for p in (project / ".venv").glob(".stamp-*"))


def test_serve_installs_once_and_then_starts_the_server(tmp_path: Path) -> None:
    project = _project(tmp_path)
    calls, err = _run(project, "serve", "--port", "2299")
    assert "installing throneroom (run)" in err
    # every package from the hashed lock, then the project itself with no resolving
    assert "python -m pip install -q --require-hashes -r requirements/run.lock" in calls
    assert calls.index("python -m pip install -q --no-deps -e .") > calls.index(
        "python -m pip install -q --require-hashes -r requirements/run.lock"
    )
    assert calls[-1] == "throneroom serve --port 2299"
    assert _stamps(project) == ["run"]
    calls, err = _run(project, "serve")
    assert calls == ["throneroom serve"] and "installing" not in err


def test_serve_after_test_does_not_install_again(tmp_path: Path) -> None:
    # the dev install has everything the server needs: switching between the
    # README's two commands reinstalled the project each time
    project = _project(tmp_path)
    _run(project, "bench", "x")  # the dev install, as ./manage test makes it
    assert _stamps(project) == ["dev"]
    calls, err = _run(project, "serve")
    assert calls == ["throneroom serve"] and "installing" not in err
    assert _stamps(project) == ["dev"]
    calls, err = _run(project, "bench", "x")
    assert "installing" not in err


def test_a_changed_lock_installs_again(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _run(project, "serve")
    with (project / "requirements" / "run.lock").open("a") as lock:
        lock.write("# upgraded\n")
    calls, err = _run(project, "serve")
    assert "installing throneroom (run)" in err
    assert "python -m pip install -q --require-hashes -r requirements/run.lock" in calls


def test_the_locks_pin_what_pyproject_declares() -> None:
    """Each lock pins every package exactly, with hashes, and agrees with the exact pins of
    pyproject.toml (Textual is pinned because tui/ patches its internals)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    exact = {
        dep.split("==")[0].lower(): dep.split("==")[1]
        for dep in project["project"]["dependencies"]
        if "==" in dep
    }
    assert "textual" in exact
    for name in ("run", "dev"):
        text = (ROOT / "requirements" / f"{name}.lock").read_text()
        pins = dict(
            line.split(" ")[0].split("==")
            for line in text.splitlines()
            if line and not line[0].isspace() and not line.startswith("#")
        )
        for package, version in exact.items():
            assert pins[package] == version, (name, package)
        assert "rich" in pins
        assert text.count("--hash=sha256:") >= len(pins)


def test_test_leaves_the_slow_tests_to_test_slow_and_unit_leaves_the_end_to_end_tests_too(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    for tool in ("ruff", "mypy"):
        stub = project / ".venv" / "bin" / tool
        stub.write_text(f'#!/bin/sh\necho "{tool} $*" >> "$(dirname "$0")/../calls"\n')
        stub.chmod(0o755)
    calls, _ = _run(project, "test", "tests/sultans", "-x")
    assert calls[-3:-1] == ["ruff check .", "mypy "]
    # four workers, the end-to-end tests kept together on one
    assert calls[-1] == "python -m pytest -q -n 4 --dist loadgroup -m not slow tests/sultans -x"
    calls, _ = _run(project, "test-slow")
    assert calls == ["python -m pytest -q -n 4 --dist loadgroup -m slow"]
    calls, _ = _run(project, "unit")
    assert calls[-1] == "python -m pytest -q -n 4 -m not e2e and not slow"
