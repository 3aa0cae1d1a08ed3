"""The report's layering (issue 32): rendering below the API, the project's report above it, no study internals.

- ``stats_mtbias/report/`` renders any result: it may import the result type, the
  figures, files, versions and provenance, never the facade, the API, the studies,
  the datasets or planning beyond its closed forms (nor significance beyond the floor of p-values).
- ``stats_mtbias/reporting/`` (the full report) and ``analyses/`` are clients of the
  public API: ``stats_mtbias`` itself, ``stats_mtbias.report`` for rendering, and the
  foundation's errors and argument checks.
- Nothing reads a private study object: a result is its public table, frames and provenance.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "stats_mtbias"

# significance.pvalues: the floor every p-value is shown against (`< 1e-300`).
REPORT_ALLOWED = (
    "stats_mtbias.report",
    "stats_mtbias.result",
    "stats_mtbias.plotting",
    "stats_mtbias._files",
    "stats_mtbias._version",
    "stats_mtbias.provenance",
    "stats_mtbias.errors",
    "stats_mtbias._validation",
    "stats_mtbias.planning.closed",
    "stats_mtbias._data",
    "stats_mtbias.significance.pvalues",
)
CLIENT_ALLOWED = (
    "stats_mtbias",
    "stats_mtbias.report",
    "stats_mtbias.reporting",
    "stats_mtbias.errors",
    "stats_mtbias._validation",
    "stats_mtbias._files",
)


def _imports(path: Path) -> list[str]:
    """Every stats_mtbias module `path` imports (``from stats_mtbias import x`` counts as ``stats_mtbias.x``
    when x is a submodule, as the facade otherwise)."""
    tree = ast.parse(path.read_text("utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("stats_mtbias")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("stats_mtbias"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                is_module = (PACKAGE.parent / Path(*sub.split("."))).with_suffix(".py").exists() or (
                    PACKAGE.parent / Path(*sub.split("."))
                ).is_dir()
                found.append(sub if is_module else node.module)
    return found


def _allowed(module: str, allowed: tuple[str, ...]) -> bool:
    return any(module == a or module.startswith(a + ".") for a in allowed)


def _files(*folders: Path) -> list[Path]:
    return sorted(p for folder in folders for p in folder.rglob("*.py"))


@pytest.mark.parametrize("path", _files(PACKAGE / "report"), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_report_renders_below_the_api(path):
    bad = [m for m in _imports(path) if not _allowed(m, REPORT_ALLOWED)]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}: rendering must not reach above stats_mtbias.result"


@pytest.mark.parametrize("path", _files(PACKAGE / "reporting", ROOT / "analyses"), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_full_report_uses_only_the_public_api(path):
    bad = [m for m in _imports(path) if not _allowed(m, CLIENT_ALLOWED) or m.startswith("stats_mtbias.studies")]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}: use stats_mtbias's public functions and stats_mtbias.report"


@pytest.mark.parametrize(
    "path", _files(PACKAGE / "report", PACKAGE / "reporting", ROOT / "analyses"), ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_no_private_study_object_is_read(path):
    tree = ast.parse(path.read_text("utf-8"))
    reads = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "details"]
    assert not reads, f"{path.relative_to(ROOT)} reads .details on line(s) {reads}: use the result's frames"


def test_nothing_below_the_api_imports_the_full_report():
    users = [
        p.relative_to(ROOT).as_posix()
        for p in _files(PACKAGE)
        if "reporting" not in p.parts and any(m.startswith("stats_mtbias.reporting") for m in _imports(p))
    ]
    # The command line (above the API) may call it; nothing else in the package does.
    assert set(users) <= {"stats_mtbias/cli.py"} | {u for u in users if u.startswith("stats_mtbias/cli/")}
