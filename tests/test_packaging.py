"""The package as a user installs it: every subpackage in the wheel, extras by need (a missing one named with the
command that installs it), the licence, and the wheel built, installed in a clean virtualenv and run from outside the
checkout (issue 48 item 5)."""

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
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


# ---------------------------------------------------------------- extras by need (issue 48 item 5)

CORE = {"numpy", "scipy", "pandas", "statsmodels", "pooch", "requests", "pyarrow"}
NEEDS = {"winomt", "models", "report", "dask"}


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_extras_are_named_by_need_and_all_installs_every_one():
    from stats_mtbias.errors import EXTRAS

    extras = _project()["optional-dependencies"]
    needs = set(extras) - {"dev", "docs", "all"}
    assert needs >= NEEDS
    assert set(EXTRAS) == needs, "stats_mtbias.errors.EXTRAS names each extra of pyproject.toml but dev, docs and all"
    (everything,) = extras["all"]
    name, _, listed = everything.partition("[")
    assert name == _project()["name"] and set(listed.rstrip("]").split(",")) == needs


def test_every_optional_import_is_named_with_its_extra():
    """Each import of a package beyond the core and the standard library, anywhere in stats_mtbias, is one that
    :data:`stats_mtbias.errors.EXTRAS` names, so that its absence is said with the extra that installs it."""
    import ast

    from stats_mtbias.errors import EXTRAS

    named = {m for modules in EXTRAS.values() for m in modules}
    found = {}
    for path in sorted((ROOT / "stats_mtbias").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                tops = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                tops = [(node.module or "").split(".")[0]]
            else:
                continue
            for top in tops:
                found.setdefault(top, f"{path.relative_to(ROOT)}:{node.lineno}")
    # Read by name through stats_mtbias._cache.heavy (a string, not an import statement).
    unnamed = {
        top: where
        for top, where in found.items()
        if top not in CORE | named | set(sys.stdlib_module_names) | {"stats_mtbias", "__future__"}
    }
    assert not unnamed, f"optional imports no extra names (add them to stats_mtbias.errors.EXTRAS): {unnamed}"


@pytest.fixture
def without(monkeypatch):
    """Make modules unimportable for one test, as a plain install without their extra leaves them."""

    def block(*names: str) -> None:
        for name in names:
            monkeypatch.setitem(sys.modules, name, None)

    return block


@pytest.mark.needs_data
def test_a_model_without_its_extra_names_the_models_extra(without):
    import stats_mtbias as smb

    without("pymc", "arviz", "nutpie", "pytensor", "pytensor.tensor")
    with pytest.raises(smb.DependencyError, match=r"pymc is not installed.*pip install 'stats-mtbias\[models\]'") as caught:
        smb.model("prates", cache=False)
    assert isinstance(caught.value, ImportError) and caught.value.name == "pymc"


@pytest.mark.needs_data
def test_winomt_reading_without_its_extra_names_the_winomt_extra(without, data_dir):
    import uuid

    import pandas as pd

    import stats_mtbias as smb

    without("thot", "thot.alignment")
    path = data_dir / "winomt" / "translations" / "sota" / "en-fr.txt"
    lines = path.read_text("utf-8").splitlines()[:3]
    frame = pd.DataFrame([line.split(" ||| ") for line in lines], columns=["source", "translation"])
    frame["translation"] += f" {uuid.uuid4().hex}"  # never a cached alignment
    with pytest.raises(smb.DependencyError, match=r"thot is not installed.*pip install 'stats-mtbias\[winomt\]'"):
        smb.read("winomt", {"fr": frame}, name="mine")


def test_a_report_without_its_extra_names_the_report_extra(without, monkeypatch, tmp_path):
    import pandas as pd

    import stats_mtbias as smb

    res = smb.rates(pd.DataFrame({"item": [1, 1], "system": ["a", "b"], "gender": ["male", "female"]}), ci="analytic")
    without("matplotlib", "matplotlib.figure", "jinja2")
    for module in ("stats_mtbias.plotting", "stats_mtbias.report.results"):  # imported afresh, as in a new process
        monkeypatch.delitem(sys.modules, module, raising=False)
        # `from stats_mtbias import plotting` finds the parent's attribute before sys.modules: remove it too.
        parent, _, child = module.rpartition(".")
        monkeypatch.delattr(sys.modules[parent], child, raising=False)
    with pytest.raises(smb.DependencyError, match=r"matplotlib is not installed.*pip install 'stats-mtbias\[report\]'"):
        smb.report(res, out=tmp_path / "report")
    assert not (tmp_path / "report").exists()


def test_the_command_line_says_which_extra_to_install_with_exit_69(without, capsys, tmp_path):
    from stats_mtbias.cli import main

    path = tmp_path / "j.csv"
    path.write_text("item,system,gender\n1,a,male\n1,b,female\n")
    without("dask", "dask.dataframe", "distributed")
    assert main(["rates", "--judgements", str(path), "--engine", "dask", "--ci", "analytic"]) == 69
    err = capsys.readouterr().err
    assert "pip install 'stats-mtbias[dask]'" in err and "a bug" not in err


def test_the_declared_licence_ships_as_a_file():
    project = _project()
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text("utf-8")
    assert text.startswith("MIT License") and "Copyright (c) 2026 stats_mtbias authors" in text


# ---------------------------------------------------------------- the wheel in a clean virtualenv

SMOKE = '''
"""The README's quick start on a core install (no extra), from outside the checkout."""
import os, sys
import numpy as np, pandas as pd
import stats_mtbias as smb

assert "site-packages" in smb.__file__, smb.__file__
rng = np.random.default_rng(0)
frame = pd.DataFrame({"item": np.repeat(np.arange(60), 2), "system": ["a", "b"] * 60,
                      "gender": rng.choice(["female", "male", "neutral"], 120)})
res = smb.rates(frame, n_boot=200, rng=0)
print(res.table.round(3).head(4).to_string(index=False))
print(res.signature)
assert smb.rates(frame, **smb.parse_signature(res.signature).kwargs()).signature == res.signature
labels = pd.DataFrame({"h": ["f", "m"] * 10, "l": ["f", "m", "m", "m"] * 5})
print(smb.agreement(labels, a="h", b="l").table.round(3).to_string(index=False))
print("power n:", smb.power("paired", discordance=0.2, difference=0.05).n)
if os.environ.get("MTBIAS_DATA"):
    mine = smb.read("tgbi", systems=["kakao"])[["item", "set", "translation"]]
    res = smb.tgbi(systems=["google"], translations={"mine": mine}, ci="bootstrap", n_boot=200, rng=0)
    print(res.table.query("subset == 'TGBI'")[["system", "estimate", "ci_low", "ci_high"]].round(3).to_string(index=False))
    print(res.signature)
    print(smb.prates().table.head(2).round(3).to_string(index=False))
    print(smb.optimal(n_boot=200).table.head(2).round(3).to_string(index=False))
try:
    smb.report([res], out="my-report")
except smb.DependencyError as exc:
    print("report:", exc)
else:
    sys.exit("smb.report ran without the report extra")
print("SMOKE OK")
'''
# What says that a package index cannot be reached (then the test is skipped, not failed).
OFFLINE = ("No matching distribution", "Could not find a version", "connection", "Network is unreachable", "timed out")


def _run(argv, *, cwd, env, timeout=600) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _clean_env() -> dict:
    """The environment without this checkout on the path and without a venv of ours: the install is all there is."""
    drop = {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE", "PYTHONWARNINGS"}
    return {k: v for k, v in os.environ.items() if k not in drop}


@pytest.mark.slow
def test_the_wheel_installs_in_a_clean_venv_and_runs_the_quick_start(tmp_path):
    """Build the sdist and the wheel from the tracked files (no warning), install the wheel with its core
    dependencies into a fresh virtualenv, and run the quick start from a directory outside the checkout.

    About 2 minutes (pip fetches the core's wheels, or takes them from its cache); skipped when no package index
    or wheel cache can be reached. Everything it makes is under its own tmp_path."""
    pytest.importorskip("build", reason="`build` is not installed (pip install -e '.[dev]')")
    env = _clean_env()
    src = tmp_path / "src"
    tracked = _run(["git", "ls-files", "-z"], cwd=ROOT, env=env)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout: the tracked files are unknown")
    for name in tracked.stdout.split("\0"):
        if name and (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    dist = tmp_path / "dist"
    built = _run([sys.executable, "-m", "build", "--outdir", str(dist), str(src)], cwd=tmp_path, env=env)
    if built.returncode != 0 and any(s.lower() in built.stdout.lower() + built.stderr.lower() for s in OFFLINE):
        pytest.skip(f"no package index reachable for the build backend: {built.stderr.strip().splitlines()[-1:]}")
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    warned = [line for line in (built.stdout + built.stderr).splitlines() if "warning" in line.lower()]
    assert not warned, "the build warns:\n" + "\n".join(warned)
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for needed in (
        "stats_mtbias/_data/manifest.json",
        "stats_mtbias/_data/sectors.csv",
        "stats_mtbias/_data/validation/agreement.csv",
        "stats_mtbias/_data/examples/own_outputs.csv",
        "stats_mtbias/report/templates/report.html.j2",
        "stats_mtbias/reporting/methods/tgbi.md.j2",
        "stats_mtbias/gender/targets/fr.py",
    ):
        assert needed in names, needed
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    with tarfile.open(sdist) as archive:
        inside = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    tracked_data = {n for n in tracked.stdout.split("\0") if n.startswith("data/") and not n.endswith(".py")}
    assert tracked_data <= inside and {"LICENSE", "CHANGELOG.md"} <= inside

    venv = tmp_path / "venv"
    made = _run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path, env=env)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    installed = _run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], cwd=tmp_path, env=env, timeout=900)
    if installed.returncode != 0 and any(s.lower() in installed.stderr.lower() for s in OFFLINE):
        pytest.skip(f"no package index or wheel cache reachable: {installed.stderr.strip().splitlines()[-1:]}")
    assert installed.returncode == 0, installed.stderr[-3000:]
    listed = _run([str(python), "-m", "pip", "list", "--format=freeze"], cwd=tmp_path, env=env).stdout.lower()
    for extra_only in ("matplotlib", "jinja2", "pymc", "spacy", "dask"):
        assert f"\n{extra_only}==" not in "\n" + listed, f"{extra_only} came with the core install"

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "smoke.py").write_text(SMOKE)
    ran = _run([str(python), "smoke.py"], cwd=outside, env={**env, "OMP_NUM_THREADS": "1"})
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "SMOKE OK" in ran.stdout and "pip install 'stats-mtbias[report]'" in ran.stdout
    assert "stats_mtbias:" in ran.stdout and "|study:rates|" in ran.stdout
    cli = _run([str(venv / "bin" / "stats-mtbias"), "--version"], cwd=outside, env=env)
    assert cli.returncode == 0 and cli.stdout.strip(), cli.stderr
