import csv
import io
import json
import subprocess
import sys
import warnings

import pytest

import stats_mtbias as smb
from stats_mtbias.cli import main

SETS = ["informal", "formal", "impolite", "polite", "negative", "positive", "occupation", "TGBI"]


def run_json(capsys, *args):
    assert main([*args, "--provenance"]) == 0
    out = capsys.readouterr()
    return json.loads(out.out), out.err


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def test_tgbi_json_records_are_the_estimates_frame(capsys, data_dir):
    records, err = run_json(
        capsys, "tgbi", "--data-dir", str(data_dir), "--n-boot", "200", "--format", "json", "--systems", "google,kakao"
    )
    frame = _quiet(smb.tgbi, ["google", "kakao"], data_dir=data_dir).frames["estimates"]
    assert [list(r) for r in records] == [list(frame.columns)] * 16
    assert [r["subset"] for r in records[:8]] == SETS
    assert [r["p_s"] for r in records] == pytest.approx(frame["p_s"].tolist())
    index = records[7]
    assert index["p_s"] == pytest.approx(sum(r["p_s"] for r in records[:7]) / 7)
    assert all(r["ci_low"] <= r["p_s"] <= r["ci_high"] <= 1 for r in records)
    provenance = json.loads(err.split("provenance: ", 1)[1])
    # The default intervals draw nothing: no resamples are recorded, and --n-boot is named as ignored.
    assert provenance["seed"] == 0 and provenance["n_boot"] is None
    assert "--n-boot has no effect here" in err.split("provenance: ", 1)[0]
    assert len(provenance["data"]) > 10


def test_tgbi_same_seed_same_numbers(capsys, data_dir):
    args = (
        "tgbi",
        "--data-dir",
        str(data_dir),
        "--n-boot",
        "300",
        "--format",
        "json",
        "--systems",
        "kakao",
        "--interval",
        "percentile",
        "--seed",
        "7",
    )
    first, _ = run_json(capsys, *args)
    second, _ = run_json(capsys, *args)
    third, _ = run_json(capsys, *args[:-1], "8")
    assert first == second
    assert [r["ci_low"] for r in first] != [r["ci_low"] for r in third]
    # The formal set (one output of 2,118 off 'he') keeps its score interval under the bootstrap: never a point.
    formal = next(r for r in first if r["subset"] == "formal")
    assert formal["ci_method"] == "score" and formal["ci_low"] < formal["p_s"] < formal["ci_high"]
    assert {r["ci_method"] for r in first if r["subset"] == "informal"} == {"bootstrap percentile"}
    # The default (score and MOVER) intervals do not depend on the seed.
    analytic = [run_json(capsys, *args[:-4], "--seed", seed)[0] for seed in ("7", "8")]
    assert analytic[0] == analytic[1]


def test_tgbi_compare_records_are_the_comparisons(capsys, data_dir):
    records, _ = run_json(capsys, "tgbi", "--data-dir", str(data_dir), "--format", "json", "--compare")
    frame = _quiet(smb.tgbi, data_dir=data_dir).compare()
    assert [list(r) for r in records] == [list(frame.columns)] * 24
    assert [r["diff"] for r in records] == pytest.approx(frame["diff"].tolist())
    assert all(r["p_adjusted"] >= r["p_value"] for r in records)
    assert {(r["system_a"], r["system_b"]) for r in records} == {("google", "papago"), ("google", "kakao"), ("papago", "kakao")}
    # The family in force: a column of every record, and a line under the table.
    assert {r["family"] for r in records if r["subset"] == "TGBI"} == {"ko / TGBI / p_s (3 comparisons)"}
    assert main(["tgbi", "--data-dir", str(data_dir), "--compare", "--family", "all", "--correction", "bh"]) == 0
    text = capsys.readouterr().out
    assert "p_adjusted: Benjamini–Hochberg within each family (all comparisons; 1 family of 24 comparisons" in text


def test_tgbi_user_csv_and_out_file(capsys, data_dir, tmp_path):
    f = tmp_path / "mine.csv"
    f.write_text("item,set,translation\n1,positive,She is kind\n2,positive,He is kind\n", "utf-8")
    out = tmp_path / "res.csv"
    argv = [
        "tgbi",
        "--data-dir",
        str(data_dir),
        "--systems",
        "",
        "--translations",
        str(f),
        "--system",
        "me",
        "--format",
        "csv",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    positive = next(r for r in rows if r["system"] == "me" and r["subset"] == "positive")
    assert positive["n_outputs"] == "2" and float(positive["p_s"]) == pytest.approx(0.5)  # a share, not 50
    assert json.loads((tmp_path / "res.csv.provenance.json").read_text())["options"]["systems"] == ["me"]


def test_bad_input_is_an_error_message_not_a_traceback(data_dir, tmp_path):
    f = tmp_path / "bad.csv"
    f.write_text("item,set,translation\n1,nope,She\n", "utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "stats_mtbias.cli", "tgbi", "--data-dir", str(data_dir), "--translations", str(f)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 65
    assert "Traceback" not in proc.stderr
    assert "bad.csv, line 2: set 'nope'" in proc.stderr


def test_missing_data_dir_file_exit_code(tmp_path):
    assert main(["tgbi", "--data-dir", str(tmp_path), "--n-boot", "100"]) == 66


def test_an_unexpected_error_is_one_line_exit_1(capsys, monkeypatch, data_dir):
    def broken(*args, **kwargs):
        raise KeyError("deep inside a library")

    monkeypatch.setattr(smb, "tgbi", broken)
    monkeypatch.delenv("MTBIAS_DEBUG", raising=False)
    assert main(["tgbi", "--data-dir", str(data_dir)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("stats-mtbias: error: unexpected KeyError") and "Traceback" not in err
    monkeypatch.setenv("MTBIAS_DEBUG", "1")
    with pytest.raises(KeyError):
        main(["tgbi", "--data-dir", str(data_dir)])


def test_prates_json_records_are_the_rates_frame(capsys, data_dir):
    records, err = run_json(
        capsys,
        "prates",
        "--data-dir",
        str(data_dir),
        "--format",
        "json",
        "--languages",
        "Hungarian,Japanese",
        "--by",
        "language,category",
    )
    frame = _quiet(smb.prates, data_dir=data_dir, languages=["Hungarian", "Japanese"], by="language,category")
    assert all(list(r) == list(frame.frames["rates"].columns) for r in records)
    assert len(records) == 2 * 23 and records[0]["category"] == "all"
    japanese = next(r for r in records if r["language"] == "Japanese" and r["category"] == "all")
    assert japanese["n_female"] == 0 and japanese["female_ci_low"] == 0 and 0 < japanese["female_ci_high"] < 1
    provenance = json.loads(err.split("provenance: ", 1)[1])
    assert "Holm over the 46 one-sided tests" in provenance["method"]


def test_prates_reference_view_and_errors(capsys, data_dir, tmp_path):
    records, _ = run_json(
        capsys, "prates", "--data-dir", str(data_dir), "--format", "json", "--view", "reference", "--languages", "Finnish"
    )
    assert [(r["language"], r["level"]) for r in records] == [
        ("all", "occupation"),
        ("all", "category"),
        ("Finnish", "occupation"),
        ("Finnish", "category"),
    ]
    assert records[0]["n"] + records[0]["n_excluded"] == 1019
    assert 0 < records[0]["translated"] < 1 and 0 < records[0]["reference"] < 1  # shares
    assert main(["prates", "--data-dir", str(data_dir), "--languages", "Klingon"]) == 64
    assert "'Klingon' is not in the data" in capsys.readouterr().err
    bad = tmp_path / "mine.csv"
    bad.write_text("item,language,gender\nnurse,Malay,Femal\n", "utf-8")
    assert main(["prates", "--judgements", str(bad)]) == 65
    assert "mine.csv, line 2: column 'gender': 'Femal' is not a gender" in capsys.readouterr().err


@pytest.mark.slow
def test_winomt_records_on_shipped_translations(capsys, data_dir):
    pytest.importorskip("thot")
    args = [
        "winomt",
        "--data-dir",
        str(data_dir),
        "--languages",
        "es",
        "--systems",
        "google",
        "--n-boot",
        "300",
        "--format",
        "json",
        "--no-adjectives",
    ]
    records, _err = run_json(capsys, *args)
    # A system that is not shipped is refused by name (it used to be skipped with a note).
    assert main(["winomt", "--data-dir", str(data_dir), "--languages", "es", "--systems", "google,nosuch"]) == 64
    assert "'nosuch' is not a shipped WinoMT system" in capsys.readouterr().err
    (google,) = records
    # The two items whose corrected sentences the shipped files lack: left out (missing=shared, coverage said) ...
    assert google["system"] == "google" and google["n"] == 3886 and google["coverage"] < 1
    for metric in ("acc", "delta_g", "delta_s"):
        assert google[f"{metric}_ci_low"] <= google[metric] <= google[f"{metric}_ci_high"]
    assert google["delta_g"] == pytest.approx(google["f1_male"] - google["f1_female"])
    assert 0 < google["acc"] < 1  # a share
    # ... or counted as wrong (the paper's rule).
    (wrong,), _ = run_json(capsys, *args, "--missing", "wrong")
    assert wrong["n"] == 3888 and wrong["acc"] < google["acc"]


@pytest.mark.slow
def test_winomt_users_own_translations_and_corrected_acc(capsys, data_dir, tmp_path):
    pytest.importorskip("thot")
    shipped = (data_dir / "winomt/translations/google/en-es.txt").read_text("utf-8").splitlines()
    mine = tmp_path / "mine.es.txt"
    mine.write_text("\n".join(shipped[:60]) + "\n", "utf-8")
    args = [
        "winomt",
        "--data-dir",
        str(data_dir),
        "--translations",
        str(mine),
        "--languages",
        "es",
        "--system",
        "mine",
        "--n-boot",
        "200",
        "--format",
        "json",
    ]
    (row,), err = run_json(capsys, *args)
    # One rule for untranslated items: the file's 60 items, its coverage said (and warned about).
    assert row["system"] == "mine" and row["language"] == "es" and row["n"] == 60
    assert row["coverage"] == pytest.approx(60 / 3888) and "mine/es" in err
    assert str(mine) in json.loads(err.split("provenance: ", 1)[1])["data"]
    (row,), _ = run_json(capsys, *args, "--missing", "wrong")
    assert row["n"] == 3888 and row["n_unknown"] >= 3828  # every item is accounted for
    records, _ = run_json(
        capsys,
        "winomt",
        "--data-dir",
        str(data_dir),
        "--languages",
        "es",
        "--systems",
        "google",
        "--corrected",
        "--n-boot",
        "500",
        "--format",
        "json",
    )
    (google,) = records
    expected = (
        google["acc"] * google["human_correct_given_auto_correct"]
        + (1 - google["acc"]) * google["human_correct_given_auto_wrong"]
    )
    assert google["acc_corrected"] == pytest.approx(expected)
    assert google["ci_low"] < google["acc_corrected"] < google["ci_high"] < 1
    assert google["n_labelled"] == 99


def test_winomt_translations_need_a_known_language(capsys, tmp_path, data_dir):
    mine = tmp_path / "mine.txt"
    mine.write_text("A ||| B\n", "utf-8")
    # Neither the file name (en-XX.txt) nor --languages tells the language.
    assert main(["winomt", "--data-dir", str(data_dir), "--translations", str(mine)]) == 64
    assert "cannot tell the target language" in capsys.readouterr().err
    assert main(["winomt", "--data-dir", str(data_dir), "--translations", str(mine), "--languages", "sv", "--system", "x"]) == 64
    err = capsys.readouterr().err
    assert "no gender reader for language 'sv'" in err and "supported: ar, cs, de, es, fr, he, it, nl, pl, pt, ru, uk" in err
    # A line that is not a WinoMT sentence is bad data, named by file and line.
    assert main(["winomt", "--data-dir", str(data_dir), "--translations", str(mine), "--languages", "es"]) == 65
    assert "mine.txt, line 1" in capsys.readouterr().err


def test_provenance_quiet_width_and_usage_exit(capsys, data_dir, monkeypatch):
    """The provenance only when asked (or in FILE.provenance.json), --quiet, tables fitted to COLUMNS, exit 64."""
    args = ["prates", "--data-dir", str(data_dir), "--languages", "Hungarian,Japanese"]
    assert main(args) == 0
    out = capsys.readouterr()
    assert "provenance" not in out.out and "provenance" not in out.err and "sha256" not in out.out
    assert main([*args, "--provenance"]) == 0
    assert "provenance:\n" in capsys.readouterr().out
    # Quiet: the table alone (the data-quality warning about duplicated names and the notes are not printed).
    assert main([*args, "--quiet", "--correction", "bh"]) == 0
    quiet = capsys.readouterr()
    assert quiet.err == "" and quiet.out.strip().splitlines()[0].split()[0] == "system"
    monkeypatch.setenv("COLUMNS", "80")
    assert main([*args, "--quiet"]) == 0
    assert max(len(line) for line in capsys.readouterr().out.splitlines()) <= 80
    with pytest.raises(SystemExit) as exc:
        main(["prates", "--by", "occupation"])
    assert exc.value.code == 64 and "invalid choice" in capsys.readouterr().err


def test_winomt_users_own_labels(capsys, data_dir, tmp_path):
    from tests.studies.test_winomt import _labelled_run

    _, readings, labels = _labelled_run(data_dir, tmp_path)
    records, _ = run_json(
        capsys,
        "winomt",
        "--data-dir",
        str(data_dir),
        "--judgements",
        str(readings),
        "--annotations",
        str(labels),
        "--n-boot",
        "200",
        "--format",
        "json",
    )
    assert [(r["annotator"], r["n_labelled"]) for r in records] == [("a", 15), ("b", 10)]
    assert records[0]["agreement"] == pytest.approx(8 / 15) and records[0]["kappa_ci_low"] < records[0]["kappa"]
    assert (
        main(
            [
                "winomt",
                "--data-dir",
                str(data_dir),
                "--judgements",
                str(readings),
                "--annotations",
                str(labels),
                "--n-boot",
                "200",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Between your annotators" in out and "Acc corrected with your labels" in out and "acc_corrected %" in out
    # The other views of the same run: between the annotators, and Acc corrected with their labels.
    between, _ = run_json(
        capsys,
        "winomt",
        "--data-dir",
        str(data_dir),
        "--judgements",
        str(readings),
        "--annotations",
        str(labels),
        "--n-boot",
        "200",
        "--format",
        "json",
        "--view",
        "annotators",
    )
    assert [(r["annotator_a"], r["annotator_b"], r["n_both"]) for r in between] == [("a", "b", 10)]
    corrected, _ = run_json(
        capsys,
        "winomt",
        "--data-dir",
        str(data_dir),
        "--judgements",
        str(readings),
        "--annotations",
        str(labels),
        "--n-boot",
        "200",
        "--format",
        "json",
        "--view",
        "corrected",
    )
    assert [r["system"] for r in corrected] == ["mine"] and 0 < corrected[0]["acc_corrected"] <= 1


@pytest.mark.slow
def test_winomt_explain_says_why_each_reading_is_unknown(capsys, data_dir, tmp_path):
    pytest.importorskip("thot")
    shipped = (data_dir / "winomt/translations/google/en-de.txt").read_text("utf-8").splitlines()
    mine = tmp_path / "en-de.txt"
    mine.write_text("\n".join(shipped[:400]) + "\n", "utf-8")
    records, _ = run_json(
        capsys,
        "winomt",
        "--data-dir",
        str(data_dir),
        "--translations",
        str(mine),
        "--system",
        "mine",
        "--explain",
        "--n-boot",
        "200",
        "--format",
        "json",
    )
    missing = [r for r in records if r["reason"] == "missing"]
    read = [r for r in records if r["reason"] == "no_reading"]
    assert len(missing) == 3888 - 400 and all(r["why"] == "no translation line" for r in missing)
    assert read and all(r["why"] and r["translation"] for r in read)
    # Every unread item says which of the reader's reasons it is.
    assert {r["why"].split(" (")[0].split(",")[0] for r in read} <= {
        "no gender marked on the words read",
        "no target word aligned to the entity",
        "nothing read from the aligned words",
    }
