"""The import graph keeps the layers apart (docs/ARCHITECTURE.md):

- ``engine`` imports nothing of the host: no asyncio, asyncssh, Textual or
  Rich, no ``protocol``, ``server`` or ``tui``;
- ``protocol`` (the contract between screens and rooms) imports neither a
  framework nor a side: no asyncio, asyncssh, Textual, Rich, ``server`` or ``tui``;
- ``server`` imports ``tui`` only in its composition root (``server/cli.py``);
- ``tui`` never imports ``server``.

Every import counts, also one inside a function or under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN: dict[str, set[str]] = {
    "engine": {"asyncio", "asyncssh", "textual", "rich", "protocol", "server", "tui"},
    "protocol": {"asyncio", "asyncssh", "textual", "rich", "server", "tui"},
    "server": {"tui"},
    "tui": {"server"},
}
ALLOWED = {("server/cli.py", "tui")}  # the composition root builds the screens the SSH server runs


def imports_of(path: Path) -> set[str]:
    """The top-level packages ``path`` imports (absolute imports; relative ones stay inside)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def violations(package: str) -> list[str]:
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for top in sorted(imports_of(path) & FORBIDDEN[package]):
            if (rel, top) not in ALLOWED:
                found.append(f"{rel} imports {top}")
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_each_layer_imports_only_what_it_may(package: str) -> None:
    assert violations(package) == []


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    """(The check itself: a late import counts as much as one at the top.)"""
    module = tmp_path / "late.py"
    module.write_text("def f():\n    from tui.app import ThroneApp\n    import textual.app\n", encoding="utf-8")
    assert imports_of(module) == {"tui", "textual"}


def test_the_composition_root_is_the_one_server_module_that_builds_screens() -> None:
    assert "tui" in imports_of(ROOT / "server" / "cli.py")
