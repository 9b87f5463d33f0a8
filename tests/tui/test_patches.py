"""The Textual patches (tui.patches): all active on the pinned Textual, so an upgrade
that disables one fails here instead of quietly slowing the host down."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import textual.content
from textual.strip import Strip

from tui import kinsoku, patches, strips

ROOT = Path(__file__).resolve().parents[2]


def test_textual_is_the_pinned_version() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pinned = next(dep.split("==")[1] for dep in deps if dep.startswith("textual=="))
    assert version("textual") == pinned


def test_every_patch_is_active_on_the_pinned_textual() -> None:
    active = patches.install()
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
