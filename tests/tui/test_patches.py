"""The Textual patches (tui.runtime.patches): all active on the pinned Textual, so an upgrade
that disables one fails here instead of quietly slowing the host down; installed by the
composition root, never by an App; their private imports of Textual and Rich guarded."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
import textwrap
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
import textual.content
from textual.strip import Strip

import tui.runtime
from tui.runtime import kinsoku, patches, strips
from tui.runtime.textual_source import TextualChanged, private_imports

ROOT = Path(__file__).resolve().parents[2]


def test_textual_is_the_pinned_version() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pinned = next(dep.split("==")[1] for dep in deps if dep.startswith("textual=="))
    assert version("textual") == pinned


def test_every_patch_is_active_on_the_pinned_textual() -> None:
    active = tui.runtime.install()
    assert set(active) == {patch.name for patch in patches.PATCHES}
    assert [name for name, on in active.items() if not on] == []


def test_install_is_once_and_really_patches() -> None:
    first = patches.install()
    assert patches.install() == first
    assert Strip.__init__ is strips._lazy_init
    assert textual.content.divide_line is kinsoku.divide_line  # type: ignore[attr-defined]


def test_each_patch_says_what_it_fixes_and_how_it_was_measured() -> None:
    for patch in patches.PATCHES:
        assert patch.fixes and patch.measured, patch.name


def test_the_composition_root_installs_them_and_an_app_does_not() -> None:
    """In a fresh process an App of the screens patches nothing; ``server.cli.app_host``
    (the composition root, which ``serve`` calls before anything else) patches Textual,
    every patch active."""
    code = textwrap.dedent("""
        import json
        from types import SimpleNamespace
        from textual.strip import Strip
        from tui.app import ThroneApp
        from tui.runtime import strips
        original = Strip.__init__
        ThroneApp(SimpleNamespace(identity=SimpleNamespace(lang="en", bell=False, ask_every=False)))
        assert Strip.__init__ is original, "an App installed the patches"
        from server.cli import app_host
        app_host()
        assert Strip.__init__ is strips._lazy_init, "app_host did not install the patches"
        import tui.runtime
        print(json.dumps(tui.runtime.install()))
    """)
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {patch.name: True for patch in patches.PATCHES}


def test_a_private_import_that_is_gone_names_the_patch() -> None:
    with pytest.raises(TextualChanged, match=r"tui\.runtime\.dispatch .*textual\._gone"):  # noqa: SIM117
        with private_imports("tui.runtime.dispatch"):
            importlib.import_module("textual._gone")


def _private(module: str) -> bool:
    return any(part.startswith("_") and part != "__future__" for part in module.split("."))


def test_every_private_import_of_a_patch_is_guarded() -> None:
    """Each import of a private module of Textual or Rich (``textual._compositor``) in
    tui/runtime/ sits in a ``with private_imports(__name__):`` block."""
    unguarded = []
    for path in sorted((ROOT / "tui" / "runtime").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.With) and any(
                isinstance(item.context_expr, ast.Call)
                and isinstance(item.context_expr.func, ast.Name)
                and item.context_expr.func.id == "private_imports"
                for item in node.items
            ):
                guarded.update(id(inner) for inner in ast.walk(node))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            else:
                continue
            if any(_private(m) for m in modules) and id(node) not in guarded:
                unguarded.append(f"{path.name}:{node.lineno}")
    assert unguarded == []
