"""Issue 49, item 1: nothing outside the declared outputs and cache is created, changed or removed.

Every command runs in a child process whose ``TMPDIR``, ``HOME``, ``XDG_CACHE_HOME`` and ``MTBIAS_CACHE`` point at
sentinel directories holding "other programs'" files; the data directory and the user's inputs are watched too.
After the runs, only ``out/`` (the outputs named on the command lines) and ``cache/`` (``MTBIAS_CACHE``) may differ.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OTHERS = ("tmp", "home", "xdg")  # what belongs to other programs


def _snapshot(root: Path, *, content: bool = True) -> dict[str, tuple]:
    """Every file and directory under `root`: its kind and content hash (or size and mtime, for the large data)."""
    found: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink() or not path.is_file():
            found[rel] = ("dir" if path.is_dir() else "other",)
        elif content:
            found[rel] = ("file", hashlib.sha256(path.read_bytes()).hexdigest())
        else:
            stat = path.stat()
            found[rel] = ("file", stat.st_size, stat.st_mtime_ns)
    return found


def _changes(before: dict, after: dict) -> list[str]:
    return (
        [f"created {p}" for p in after.keys() - before.keys()]
        + [f"removed {p}" for p in before.keys() - after.keys()]
        + [f"changed {p}" for p in before.keys() & after.keys() if before[p] != after[p]]
    )


@pytest.fixture
def sentinel(tmp_path):
    """Sentinel directories with other programs' files, the declared `out/` and `cache/`, and the user's inputs."""
    for name in OTHERS:
        (tmp_path / name / "other-program").mkdir(parents=True)
        (tmp_path / name / "other-program" / "state.txt").write_text(f"{name}: not yours\n", "utf-8")
        (tmp_path / name / "keep.me").write_text("another program's file\n", "utf-8")
    for name in ("out", "cache", "work"):
        (tmp_path / name).mkdir()
    work = tmp_path / "work"
    (work / "judgements.csv").write_text(
        "item,system,gender\n"
        + "".join(
            f"{i},{s},{g}\n"
            for i in range(1, 13)
            for s, g in (("a", "male" if i % 3 else "female"), ("b", "female" if i % 2 else "male"))
        ),
        "utf-8",
    )
    (work / "labels.csv").write_text("x,y\nmale,male\nfemale,male\nmale,female\nfemale,female\nmale,male\n", "utf-8")
    (work / "mapping.csv").write_text("male,male\nfemale,female\n", "utf-8")
    (work / "tgbi.csv").write_text("item,set,translation\n1,positive,She is kind.\n2,positive,He is kind.\n", "utf-8")
    (work / "wino.csv").write_text(
        "item,system,language,gender\n" + "".join(f"{i},mine,es,{'male' if i % 2 else 'female'}\n" for i in range(200)),
        "utf-8",
    )
    return tmp_path


# Each command with the exit code it must give: the refusals (64) are part of the check, since a refused run must
# leave nothing behind either (`model` once wrote font and warning caches into $HOME before refusing).
COMMANDS = [
    (["tgbi", "--n-boot", "100", "--format", "csv", "--out", "{out}/tgbi.csv"], 0),
    (
        [
            "tgbi",
            "--systems",
            "",
            "--translations",
            "{work}/tgbi.csv",
            "--system",
            "me",
            "--n-boot",
            "100",
            "--out",
            "{out}/tgbi-mine.json",
            "--format",
            "json",
        ],
        0,
    ),
    (
        [
            "winomt",
            "--judgements",
            "{work}/wino.csv",
            "--no-adjectives",
            "--n-boot",
            "100",
            "--out",
            "{out}/wino.csv",
            "--format",
            "csv",
        ],
        0,
    ),
    (["prates", "--n-boot", "100", "--out", "{out}/prates.txt"], 0),
    (["optimal", "--n-boot", "100", "--out", "{out}/optimal.txt"], 0),
    (["rates", "--judgements", "{work}/judgements.csv", "--n-boot", "100", "--out", "{out}/rates.txt"], 0),
    (["rates", "--judgements", "{work}/judgements.csv", "--compare", "--n-boot", "100", "--out", "/dev/null"], 0),
    (["agreement", "--labels", "{work}/labels.csv", "--a", "x", "--b", "y", "--out", "{out}/agreement.txt"], 0),
    (
        [
            "agreement",
            "--labels",
            "{work}/labels.csv",
            "--a",
            "x",
            "--b",
            "y",
            "--mapping",
            "{work}/mapping.csv",
            "--out",
            "{work}/mapping.csv",
        ],
        64,
    ),
    (["read", "tgbi", "--systems", "google", "--out", "{out}/read.csv"], 0),
    (["model", "--study", "winomt"], 64),  # the parser refuses the choice
    (["model", "--study", "prates", "--draws", "0"], 64),
    (["power", "rate", "--rate", "0.3", "--null", "0.2", "--n", "100", "--curve", "{out}/curve.png"], 0),
    (["power", "rate", "--rate", "nan", "--n", "100"], 64),
    (["data", "list"], 0),
    (["tgbi", "--n-boot", "100", "--out", "{data}/tgbi/output.csv"], 64),  # never into the data directory
    (["report", "--studies", "tgbi", "--n-boot", "100", "--out", "{out}/report", "--format", "md"], 0),
]

DRIVER = textwrap.dedent("""
    import json, sys, warnings
    from stats_mtbias.cli import main
    codes = []
    for argv in json.loads(sys.argv[1]):
        try:
            codes.append(main(argv))
        except SystemExit as exc:  # argparse's refusals
            codes.append(exc.code)
    # The API's report, and the docs' configuration (its exit handler runs when this process ends).
    import stats_mtbias as smb, runpy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = smb.rates(sys.argv[2], n_boot=100, rng=0)
    smb.report([result], out=sys.argv[3], formats=["md", "html"])
    runpy.run_path(sys.argv[4])
    print(json.dumps(codes))
""")


def _environment(root: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MPLCONFIGDIR", "NUMBA_CACHE_DIR", "PYTENSOR_FLAGS", "IPYTHONDIR", "JUPYTER_RUNTIME_DIR")
    }
    env.update(
        TMPDIR=str(root / "tmp"),
        HOME=str(root / "home"),
        XDG_CACHE_HOME=str(root / "xdg"),
        MTBIAS_CACHE=str(root / "cache"),
        COLUMNS="200",
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def test_every_command_the_report_and_the_docs_configuration_touch_only_their_outputs_and_cache(sentinel, data_dir):
    root, work = sentinel, sentinel / "work"
    fill = {"out": root / "out", "work": work, "data": data_dir}
    commands = [[part.format(**fill) for part in argv] for argv, _ in COMMANDS]
    watched = {name: root / name for name in (*OTHERS, "work")}
    before = {name: _snapshot(path) for name, path in watched.items()}
    data_before = _snapshot(data_dir, content=False)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            DRIVER,
            json.dumps(commands),
            str(work / "judgements.csv"),
            str(root / "out" / "api"),
            str(REPO / "docs" / "conf.py"),
        ],
        cwd=work,
        env=_environment(root),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    codes = json.loads(done.stdout.strip().splitlines()[-1])
    assert codes == [code for _, code in COMMANDS], done.stderr[-3000:] + str(codes)
    # The same subprocess for `python -m stats_mtbias.reporting` (what `make report` runs), one quick study.
    report = subprocess.run(
        [
            sys.executable,
            "-m",
            "stats_mtbias.reporting",
            "--studies",
            "tgbi",
            "--n-boot",
            "100",
            "--format",
            "md",
            "--out",
            str(root / "out" / "reporting"),
            "--no-progress",
        ],
        cwd=work,
        env=_environment(root),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert report.returncode == 0, report.stderr[-3000:]
    changed = {name: _changes(before[name], _snapshot(path)) for name, path in watched.items()}
    assert changed == {name: [] for name in watched}
    assert _changes(data_before, _snapshot(data_dir, content=False)) == []
    for name in OTHERS:  # the other programs' files are all there, unchanged
        assert (root / name / "keep.me").read_text("utf-8") == "another program's file\n"
    assert (root / "out" / "tgbi.csv").stat().st_size > 0 and (root / "out" / "api" / "report.md").exists()
    assert (root / "out" / "reporting" / "report.md").exists() and (root / "out" / "curve.png").exists()
    assert Path("/dev/null").is_char_device()
