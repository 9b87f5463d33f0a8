"""The harness's own rules: e2e tests fail (not skip) under CI without ssh."""

from __future__ import annotations

import harness
import pytest


def test_missing_ssh_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shutil.which", lambda _tool: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="openssh-client"):
        harness.require_openssh()


def test_missing_ssh_skips_locally(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shutil.which", lambda _tool: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        harness.require_openssh()


def test_present_ssh_neither_skips_nor_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shutil.which", lambda tool: f"/usr/bin/{tool}")
    monkeypatch.setenv("CI", "true")
    harness.require_openssh()


def test_a_wide_character_cut_in_half_reads_as_a_blank() -> None:
    """Writing over the left half of a wide character leaves pyte an empty
    right half, on which its ``display`` fails; a terminal shows a blank."""
    import pyte

    screen = pyte.Screen(10, 2)
    pyte.ByteStream(screen).feed("ab中文cd".encode() + b"\x1b[1;3HX")
    client = harness.Client.__new__(harness.Client)  # only the screen is needed to read it
    client.screen = screen
    assert client.lines() == ["abX 文cd", ""]
