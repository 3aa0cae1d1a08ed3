"""The formatter owns the layout (issue 45): `ruff format` is clean and nothing keeps it away."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORMATTED = ["stats_mtbias", "tests", "benchmarks", "analyses", "tools", "docs", "conftest.py"]


def _python_files():
    for name in FORMATTED:
        path = ROOT / name
        yield from [path] if path.is_file() else sorted(path.rglob("*.py"))


def test_no_formatter_escapes():
    marker = "fmt: " + "skip"  # split so this file does not match itself
    hits = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in _python_files()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if marker in line or "fmt: " + "off" in line
    ]
    assert hits == []


@pytest.mark.skipif(
    shutil.which("ruff") is None and not (Path(sys.executable).parent / "ruff").exists(), reason="ruff not installed"
)
def test_ruff_format_is_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    done = subprocess.run([ruff, "format", "--check", *FORMATTED], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
