"""The house rules of the codebase itself: one logger tree, a runnable package, a
repo that stands alone (nothing cites files outside it)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "server", "tui")


def _sources() -> list[Path]:
    return [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]


def test_every_logger_is_in_the_throneroom_tree() -> None:
    """An operator filters the log by ``throneroom.*``: no module logs under its import path."""
    names: list[tuple[str, str]] = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "getLogger"
                and node.args
            ):
                arg = node.args[0]
                shown = arg.value if isinstance(arg, ast.Constant) else ast.unparse(arg)
                names.append((str(path.relative_to(ROOT)), str(shown)))
    assert names
    wrong = [
        (where, name)
        for where, name in names
        if not (name == "throneroom" or name.startswith("throneroom.") or name == "asyncssh")
    ]
    assert wrong == []


def test_python_m_server_and_version() -> None:
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-m", "server", "--version"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )
    assert re.fullmatch(r"throneroom \S+\n", done.stdout)


def test_nothing_cites_files_outside_the_repo() -> None:
    """Code, README and docs point only at files a fresh clone has."""
    cited = re.compile(r"(\.\./shared|(?<!docs/)rules/(sultans|overlord)\.md|(?<![\w/])notes/[\w-]+\.md|(?<![\w/.])design\.md)")
    texts = [*_sources(), ROOT / "README.md", *sorted((ROOT / "deploy").glob("*")),
             *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "tests").rglob("*.py"))]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in texts
        if path.is_file() and path != Path(__file__).resolve()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if cited.search(line)
    ]
    assert found == []


def _ids(text: str) -> set[str]:
    return set(re.findall(r"\b[SK]-[A-Z]+-[A-Z0-9]+\b", text))


def test_rule_ids_in_tests_point_at_the_rules_in_docs() -> None:
    """Every rule id a test names is a rule of docs/rules/, and every rule there is
    named by a test."""
    documented = _ids("".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "rules").glob("*.md")))
    named: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        if path != Path(__file__).resolve():
            named |= _ids(path.read_text(encoding="utf-8"))
    assert sorted(named - documented) == []
    assert sorted(documented - named) == []
