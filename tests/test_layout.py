"""The tests mirror the package (issue 45, item 5): one test module per module, speed a marker, not a directory.

The tests of ``stats_mtbias/<sub>/<module>.py`` (or of the package ``<module>/``) are in
``tests/<sub>/test_<module>.py``, or ``tests/<sub>/test_<module>_<aspect>.py`` when an aspect has a file of its
own; a private module ``_io.py`` is tested in ``test_io.py``. Suites that cut across modules keep their
directories. docs/testing.md describes the layout.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
PACKAGE = ROOT / "stats_mtbias"
# Suites that cut across modules: the API and the command line end to end, the report, coverage and size by
# simulation, published values, faults, mutation testing, contracts, the documentation, and the Bayesian models'
# recovery by simulation (build, fit and derived quantities together).
CROSS_CUTTING = {"api", "cli", "report", "statistical", "reference", "faults", "mutation", "contract", "docs", "models"}
# Checks of the whole package (its import layers, its formatting, its wheel) and of this layout.
PACKAGE_WIDE = {"test_layers.py", "test_style.py", "test_packaging.py", "test_layout.py", "test_imports.py", "test_vocabulary.py"}


def mirrored_module(test: Path, tests: Path = TESTS, package: Path = PACKAGE) -> Path | None:
    """The module or subpackage of ``package`` that ``test`` (a ``test_*.py`` under ``tests``) mirrors, or None.

    The name after ``test_`` is the module's, or the module's followed by ``_<aspect>``: the shortest prefix that
    names a module wins. Beside the package's modules, a test of the tests' own helper (``tests/x.py``) sits
    beside it as ``tests/test_x.py``.
    """
    relative = test.parent.relative_to(tests)
    words = test.stem.removeprefix("test_").split("_")
    for k in range(1, len(words) + 1):
        name = "_".join(words[:k])
        for candidate in (name, "_" + name):
            for found in (package / relative / f"{candidate}.py", package / relative / candidate / "__init__.py"):
                if found.is_file():
                    return found
        if (test.parent / f"{name}.py").is_file():
            return test.parent / f"{name}.py"
    return None


def _test_files() -> list[Path]:
    return sorted(
        p for p in TESTS.rglob("test_*.py") if p.relative_to(TESTS).parts[0] not in CROSS_CUTTING and "__pycache__" not in p.parts
    )


def test_there_is_no_directory_by_speed_or_by_kind():
    assert not (TESTS / "slow").exists() and not (TESTS / "unit").exists()


def test_every_test_directory_mirrors_a_package_directory():
    directories = {p.parent for p in _test_files() if p.parent != TESTS}
    assert directories, "no test module found outside the cross-cutting suites"
    missing = [str(d.relative_to(TESTS)) for d in directories if not (PACKAGE / d.relative_to(TESTS)).is_dir()]
    assert missing == [], f"tests/<dir> without stats_mtbias/<dir>: {missing}"


def test_every_test_module_mirrors_a_module():
    files = [p for p in _test_files() if not (p.parent == TESTS and p.name in PACKAGE_WIDE)]
    assert len(files) > 40
    orphans = [str(p.relative_to(ROOT)) for p in files if mirrored_module(p) is None]
    assert orphans == [], f"test modules that mirror no module of stats_mtbias (name them test_<module>[_aspect]): {orphans}"


def test_every_test_directory_is_a_package():
    # Test modules of different directories share names (tests/api/test_agreement.py, tests/significance/test_agreement.py):
    # pytest imports them apart only as packages.
    directories = {p.parent for p in TESTS.rglob("test_*.py") if "__pycache__" not in p.parts}
    assert [str(d) for d in directories if not (d / "__init__.py").is_file()] == []


@pytest.mark.parametrize(
    ("test", "module"),
    [
        ("studies/test_rates.py", "studies/rates.py"),
        ("studies/test_rates_family.py", "studies/rates.py"),  # an aspect
        ("studies/test_common.py", "studies/_common.py"),  # a private module
        ("studies/test_winomt.py", "studies/winomt/__init__.py"),  # a subpackage
        ("studies/winomt/test_analysis.py", "studies/winomt/analysis.py"),
        ("test_power_group_pilot.py", "power.py"),
        ("studies/test_nothing.py", None),
        ("significance/test_rates.py", None),  # rates is a module of studies/, not of significance/
        ("test_ratesx.py", None),
    ],
)
def test_the_module_a_test_mirrors(tmp_path, test, module):
    package, tests = tmp_path / "pkg", tmp_path / "tests"
    for path in ("studies/rates.py", "studies/_common.py", "studies/winomt/__init__.py", "studies/winomt/analysis.py"):
        (package / path).parent.mkdir(parents=True, exist_ok=True)
        (package / path).touch()
    (package / "significance").mkdir()
    (package / "power.py").touch()
    found = mirrored_module(tests / test, tests, package)
    assert found == (None if module is None else package / module)
