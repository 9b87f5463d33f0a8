"""deploy/throneroom.service (issue 45, what to build): a memory cap and the
hardening a service that faces the internet has, and paths it can write that
cover its database and host key."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "deploy" / "throneroom.service"


def _service() -> dict[str, list[str]]:
    """The [Service] section's settings (a key may come more than once)."""
    out: dict[str, list[str]] = {}
    section = ""
    for raw in UNIT.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]":
            key, _, value = line.partition("=")
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def test_the_unit_caps_memory_and_is_hardened() -> None:
    svc = _service()
    expected = {
        "NoNewPrivileges": "true",
        "ProtectSystem": "strict",
        "ProtectHome": "true",
        "PrivateTmp": "true",
        "PrivateDevices": "true",
        "ProtectKernelTunables": "true",
        "ProtectKernelModules": "true",
        "ProtectControlGroups": "true",
        "RestrictSUIDSGID": "true",
        "RestrictNamespaces": "true",
        "LockPersonality": "true",
        "SystemCallArchitectures": "native",
        "UMask": "0077",
    }
    for key, value in expected.items():
        assert svc.get(key) == [value], (key, svc.get(key))
    assert svc["MemoryMax"] and svc["MemoryMax"][-1][-1] in "MG"
    assert svc["CapabilityBoundingSet"] == [""]  # no capability at all (port 22: see its comment)
    assert set(svc["RestrictAddressFamilies"][0].split()) == {"AF_INET", "AF_INET6", "AF_UNIX"}
    assert "@system-service" in svc["SystemCallFilter"][0]


def test_the_unit_may_write_its_database_and_host_key_and_nothing_else_named() -> None:
    svc = _service()
    writable = [Path(p.lstrip("-")) for line in svc["ReadWritePaths"] for p in line.split()]
    args = shlex.split(svc["ExecStart"][0])
    for flag in ("--db", "--keys"):
        path = Path(args[args.index(flag) + 1])
        assert any(path == w or w in path.parents for w in writable), (flag, path, writable)
    assert Path("/") not in writable and Path("/etc") not in writable


def test_systemd_analyze_verify_finds_nothing_to_say(tmp_path: Path) -> None:
    """Where systemd-analyze is installed (the unit's ExecStart pointed at this
    checkout's manage, which /opt/throneroom would hold)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    copy = tmp_path / "throneroom.service"
    copy.write_text(UNIT.read_text(encoding="utf-8").replace("/opt/throneroom/manage", str(ROOT / "manage")), encoding="utf-8")
    run = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0 and run.stdout + run.stderr == "", run.stdout + run.stderr
