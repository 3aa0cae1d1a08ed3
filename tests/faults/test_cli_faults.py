"""Every case of issue 18 from the command line: a clear message and the right exit code, or a correct result."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from stats_mtbias.cli import main


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "stats_mtbias.cli", *args], capture_output=True, text=True, env=env)


def test_2_ambiguous_reference_is_refused_and_consistent_one_accepted(tmp_path, capsys):
    ref = tmp_path / "ref.csv"
    ref.write_text("occupation,female_share,n_female,n_total\nnurse,0.9,30,100\n", "utf-8")
    judgements = tmp_path / "j.csv"
    judgements.write_text("occupation,gender\nnurse,female\nnurse,male\n", "utf-8")
    assert main(["optimal", "--reference", str(ref), "--judgements", str(judgements), "--n-boot", "100"]) == 65
    err = capsys.readouterr().err
    assert "ref.csv, line 2: female_share 0.9 disagrees with n_female/n_total = 30/100" in err
    ref.write_text("occupation,female_share,n_female,n_total\nnurse,0.3,30,100\n", "utf-8")
    assert (
        main(
            [
                "optimal",
                "--reference",
                str(ref),
                "--judgements",
                str(judgements),
                "--n-boot",
                "100",
                "--view",
                "occupations",
                "--format",
                "json",
            ]
        )
        == 0
    )


def _wino_judgements(path, systems: dict[str, int]):
    rows = []
    for system, n_items in systems.items():
        rows += [(i, system, "es", "male") for i in range(n_items)]
    pd.DataFrame(rows, columns=["item", "system", "language", "gender"]).to_csv(path, index=False)


def test_3_winomt_missing_items_are_counted_and_comparisons_use_shared_items(tmp_path, capsys, data_dir):
    readings = tmp_path / "r.csv"
    _wino_judgements(readings, {"full": 3888, "part": 200})
    assert (
        main(
            [
                "winomt",
                "--data-dir",
                str(data_dir),
                "--judgements",
                str(readings),
                "--n-boot",
                "100",
                "--format",
                "json",
                "--no-adjectives",
            ]
        )
        == 0
    )
    out = capsys.readouterr()
    records = json.loads(out.out)
    assert {r["system"]: r["n"] for r in records} == {"full": 200, "part": 200}
    assert "part/es" in out.err and "200 of 3,888 items translated (5.1%)" in out.err
    # An empty translation file: refused, naming the system, not "Acc 0 [0, 0]" with exit 0.
    empty = tmp_path / "en-es.txt"
    empty.write_text("", "utf-8")
    assert (
        main(
            [
                "winomt",
                "--data-dir",
                str(data_dir),
                "--systems",
                "",
                "--translations",
                str(empty),
                "--system",
                "mine",
                "--n-boot",
                "100",
                "--no-adjectives",
            ]
        )
        == 65
    )
    assert "en-es.txt: mine/es: no WinoMT item is translated" in capsys.readouterr().err


def test_4_prates_names_without_category_that_the_reference_lists_twice_are_refused(tmp_path, capsys, data_dir):
    mine = tmp_path / "mine.csv"
    mine.write_text("item,language,gender\nCafeteria attendant,Malay,male\nNurse,Malay,female\n", "utf-8")
    assert main(["prates", "--data-dir", str(data_dir), "--judgements", str(mine), "--view", "reference"]) == 65
    err = capsys.readouterr().err
    assert "mine.csv, line 2: occupation 'Cafeteria attendant' has 2 rows in the reference" in err
    assert "give the column 'category'" in err


def test_5_out_equal_to_an_input_is_refused_and_the_input_kept(tmp_path, capsys, data_dir):
    mine = tmp_path / "mine.csv"
    text = "item,set,translation\n1,positive,She is kind\n"
    mine.write_text(text, "utf-8")
    assert (
        main(
            [
                "tgbi",
                "--data-dir",
                str(data_dir),
                "--systems",
                "",
                "--translations",
                str(mine),
                "--out",
                str(mine),
                "--n-boot",
                "100",
            ]
        )
        == 64
    )
    assert "would overwrite the input" in capsys.readouterr().err
    assert mine.read_text("utf-8") == text


def test_6_repeated_blocks_in_users_outputs_are_kept_unless_asked(tmp_path, capsys, data_dir):
    rows = ["item,set,translation"] + [f"{i},formal,He is a person." for i in range(1, 497)]
    mine = tmp_path / "mine.csv"
    mine.write_text("\n".join(rows) + "\n", "utf-8")
    base = [
        "tgbi",
        "--data-dir",
        str(data_dir),
        "--systems",
        "",
        "--translations",
        str(mine),
        "--system",
        "me",
        "--n-boot",
        "100",
        "--format",
        "json",
    ]
    assert main(base) == 0
    out = capsys.readouterr()
    formal = next(r for r in json.loads(out.out) if r["subset"] == "formal")
    assert formal["n"] == 496 and "kept as they are" in out.err
    assert main([*base, "--repeated-blocks", "all"]) == 0
    formal = next(r for r in json.loads(capsys.readouterr().out) if r["subset"] == "formal")
    assert formal["n"] < 100


def test_7_an_unusable_cache_is_refused_before_the_work(tmp_path, data_dir):
    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("x")
    env = {**__import__("os").environ, "MTBIAS_CACHE": str(blocker)}
    proc = _cli("winomt", "--data-dir", str(data_dir), "--systems", "google", "--languages", "es", env=env)
    assert proc.returncode == 64 and "Traceback" not in proc.stderr
    assert f"the cache (MTBIAS_CACHE or the user cache directory) {blocker} is not a writable directory" in proc.stderr


def test_8_one_system_compare_and_duplicate_systems(tmp_path, capsys, data_dir):
    readings = tmp_path / "r.csv"
    _wino_judgements(readings, {"only": 3888})
    assert (
        main(
            [
                "winomt",
                "--data-dir",
                str(data_dir),
                "--judgements",
                str(readings),
                "--compare",
                "--n-boot",
                "100",
                "--no-adjectives",
            ]
        )
        == 64
    )
    assert "--compare needs at least two systems" in capsys.readouterr().err
    assert main(["winomt", "--data-dir", str(data_dir), "--systems", "google,google"]) == 64
    assert "google more than once" in capsys.readouterr().err


def test_9_broken_pipe_n_boot_minimum_ignored_flags_and_strict(tmp_path, capsys, data_dir):
    proc = subprocess.run(
        f"{sys.executable} -m stats_mtbias.cli prates --data-dir {data_dir} --view tests | head -1",
        shell=True,
        capture_output=True,
        text=True,
    )
    assert proc.stdout.count("\n") == 1 and "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr
    with pytest.raises(SystemExit) as exc:
        main(["tgbi", "--n-boot", "1"])
    assert exc.value.code == 64 and "at least 100 resamples" in capsys.readouterr().err
    assert (
        main(
            [
                "tgbi",
                "--data-dir",
                str(data_dir),
                "--systems",
                "kakao",
                "--n-boot",
                "100",
                "--correction",
                "bh",
                "--format",
                "json",
            ]
        )
        == 0
    )
    assert "--correction has no effect here: it applies only with --compare" in capsys.readouterr().err
    unknown = tmp_path / "unknown.csv"
    unknown.write_text("item,language,gender\nnurse,Malay,?\nwelder,Malay,?\n", "utf-8")
    args = ["prates", "--data-dir", str(data_dir), "--judgements", str(unknown), "--format", "json"]
    assert main(args) == 0
    assert "rest on no judged output (n = 0)" in capsys.readouterr().err
    assert main([*args, "--strict"]) == 65
    assert "--strict" in capsys.readouterr().err


def test_10_shipped_prates_resubmitted_as_csv_gives_the_shipped_numbers(tmp_path, capsys, data_dir):
    from stats_mtbias.datasets import prates as prates_data
    from stats_mtbias.datasets.registry import open_store

    shipped = prates_data.read_judgements(open_store(data_dir))
    frame = shipped[["occupation", "category", "language", "variant", "gender"]].rename(columns={"occupation": "item"})
    path = tmp_path / "shipped.csv"
    frame.astype(str).to_csv(path, index=False)
    assert main(["prates", "--data-dir", str(data_dir), "--judgements", str(path), "--format", "json"]) == 0
    mine = json.loads(capsys.readouterr().out)
    assert main(["prates", "--data-dir", str(data_dir), "--format", "json"]) == 0
    ref = json.loads(capsys.readouterr().out)
    key = lambda r: r["language"]  # noqa: E731
    assert [(r["language"], r["n"], r["female"]) for r in sorted(mine, key=key)] == [
        (r["language"], r["n"], r["female"]) for r in sorted(ref, key=key)
    ]


def test_7_a_download_cache_that_is_a_file_is_refused_before_the_work(tmp_path):
    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("x")
    env = {k: v for k, v in __import__("os").environ.items() if k != "MTBIAS_DATA"}
    env["MTBIAS_CACHE"] = str(blocker)
    proc = _cli("tgbi", "--n-boot", "100", env=env)
    assert proc.returncode == 64 and "Traceback" not in proc.stderr
    assert "the download cache (MTBIAS_CACHE or the user cache directory)" in proc.stderr
