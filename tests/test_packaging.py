"""The wheel ships every subpackage: the packages list of pyproject.toml against the source tree."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

tomllib = pytest.importorskip("tomllib") if sys.version_info >= (3, 11) else pytest.importorskip("tomli")


def test_every_subpackage_and_template_folder_is_listed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    source = ROOT / "stats_mtbias"
    found = {
        "stats_mtbias." + ".".join(d.relative_to(source).parts) if d != source else "stats_mtbias"
        for d in source.rglob("*")
        if d.is_dir() and d.name != "__pycache__" and any(d.glob("*.py"))
    }
    found.add("stats_mtbias")
    # Folders of data files (templates) are packages too, or setuptools warns and may leave them out.
    found |= {"stats_mtbias." + ".".join(d.relative_to(source).parts) for d in source.rglob("templates") if d.is_dir()}
    assert found - listed == set(), "missing from [tool.setuptools] packages"
    assert all(name in listed for name in config["package-data"])


def test_no_script_shadows_an_installed_module():
    # ``python benchmarks/x.py`` puts benchmarks/ first on sys.path: a script named like an installed
    # module (benchmarks/coverage.py did) replaces it for every library that imports it (numba → coverage).
    from importlib.metadata import packages_distributions

    # Libraries also probe for modules that may not be installed here (numba and pymc try coverage, jax, ...).
    probed = {"coverage", "IPython", "jax", "torch", "cupy", "numba", "pyarrow", "dask", "polars", "duckdb"}
    installed = set(packages_distributions()) | set(sys.stdlib_module_names) | probed
    for folder in ("benchmarks", "analyses", "tools"):
        names = {p.stem for p in (ROOT / folder).glob("*.py")} if (ROOT / folder).is_dir() else set()
        assert names & installed == set(), f"{folder}/ shadows installed modules"
