"""Issue 49, item 3: the WinoMT cases that were silent or "a bug" are warnings or clear errors, and flagged rows
carry their flag into the result's table and the report."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.cli import main
from stats_mtbias.datasets import winomt as winomt_data
from stats_mtbias.datasets.registry import open_store
from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.studies.winomt import reading


@pytest.fixture
def no_reading(monkeypatch):
    """The reader replaced by 'male' everywhere: these tests are about what is said of a file, not its readings."""
    monkeypatch.setattr(reading, "read_pairs", lambda sources, *args, **kwargs: np.full(len(sources), "male", object))
    monkeypatch.setattr(reading, "shipped_alignments", lambda *args, **kwargs: None)
    monkeypatch.setattr(reading, "bitext", lambda *args, **kwargs: None)


def _shipped_lines(data_dir, language="pt", n=400):
    return (data_dir / f"winomt/translations/google/en-{language}.txt").read_text("utf-8").splitlines()[:n]


def _judge(data_dir, path, language="pt"):
    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = reading.judge(store, "mine", language, items, path=path)
    return table, [str(w.message) for w in caught if issubclass(w.category, DataQualityWarning)]


@pytest.mark.parametrize("shift", [-3, -1, 1, 2, 5])
def test_a_slipped_translation_column_is_flagged_before_it_is_read(data_dir, tmp_path, no_reading, shift):
    lines = [line.partition(" ||| ") for line in _shipped_lines(data_dir)]
    sources, outputs = [s for s, _, _ in lines], [t for _, _, t in lines]
    moved = [""] * shift + outputs[:-shift] if shift > 0 else outputs[-shift:] + [""] * -shift
    path = tmp_path / "en-pt.txt"
    path.write_text("\n".join(f"{s} ||| {t}" for s, t in zip(sources, moved, strict=True)) + "\n", "utf-8")
    table, said = _judge(data_dir, path)
    assert table.attrs["line_check"] == f"outputs look shifted by {shift:+d} line(s) against their sources: check the file"
    assert any(m.startswith(f"mine/pt ({path}): outputs look shifted by {shift:+d}") for m in said)
    in_order = tmp_path / "ok" / "en-pt.txt"
    in_order.parent.mkdir()
    in_order.write_text("\n".join(_shipped_lines(data_dir)) + "\n", "utf-8")
    table, said = _judge(data_dir, in_order)
    assert table.attrs["line_check"] == "" and not [m for m in said if "shifted" in m]


def test_repeated_sources_and_a_file_in_another_language_are_said(data_dir, tmp_path, no_reading):
    lines = _shipped_lines(data_dir, n=300)
    repeats = [f"{line.partition(' ||| ')[0]} ||| Outra tradução {i}" for i, line in enumerate(lines[:40])]
    path = tmp_path / "en-pt.txt"
    path.write_text("\n".join(lines + repeats) + "\n", "utf-8")
    table, said = _judge(data_dir, path)
    repeated = [m for m in said if "repeat a source already translated" in m]
    assert len(repeated) == 1 and repeated[0].startswith(f"mine/pt ({path}): 40 line(s)")
    assert "line 301 (source first on line 1)" in repeated[0] and "and 35 more" in repeated[0]
    russian = tmp_path / "ru" / "en-pt.txt"
    russian.parent.mkdir()
    russian.write_text("\n".join(_shipped_lines(data_dir, "ru", 300)) + "\n", "utf-8")
    table, said = _judge(data_dir, russian)
    assert table.attrs["line_check"].endswith("of its lines are in ru, not pt: the wrong file or language?")
    in_file = table[table["reason"] != "missing"]
    assert len(in_file) == 300 and (in_file["reason"] == "wrong_language").mean() > 0.5


def test_corrected_without_labels_names_what_is_needed(data_dir, capsys):
    assert (
        main(
            ["winomt", "--data-dir", str(data_dir), "--languages", "pt", "--systems", "google", "--corrected", "--n-boot", "100"]
        )
        == 64
    )
    err = capsys.readouterr().err
    assert "needs human labels of the translations, and none are shipped for pt" in err
    assert "--annotations FILE" in err and "a bug" not in err


def test_judgements_in_any_language_beside_shipped_systems(data_dir, tmp_path, capsys):
    path = tmp_path / "lt.csv"
    pd.DataFrame(
        {"item": range(3888), "system": "mine", "language": "lt", "gender": np.where(np.arange(3888) % 3, "male", "female")}
    ).to_csv(path, index=False)
    assert (
        main(
            [
                "winomt",
                "--data-dir",
                str(data_dir),
                "--systems",
                "google",
                "--judgements",
                str(path),
                "--no-adjectives",
                "--n-boot",
                "100",
                "--format",
                "csv",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.splitlines()[1].startswith("mine,lt,3888,")
    result = smb.winomt(["google"], judgements=path, data_dir=data_dir, adjectives=False, n_boot=100, rng=0)
    assert result.systems == ["mine"] and "google/lt: no shipped translations (and no reader), skipped" in result.notes


def test_a_folder_of_unreadable_languages_names_its_files(data_dir, tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "en-lv.txt").write_text("\n".join(_shipped_lines(data_dir, "es", 30)) + "\n", "utf-8")
    assert (
        main(["winomt", "--data-dir", str(data_dir), "--translations", str(folder), "--system", "mine", "--n-boot", "100"]) == 65
    )
    err = capsys.readouterr().err
    assert "no file in a language WinoMT can read: skipped en-lv.txt (lv)" in err


@pytest.mark.slow
def test_a_shifted_file_end_to_end_is_flagged_in_every_view_and_the_report(data_dir, tmp_path, capsys):
    pytest.importorskip("thot")
    lines = [line.partition(" ||| ") for line in _shipped_lines(data_dir, n=3888)]
    path = tmp_path / "en-pt.txt"
    outputs = [*(t for _, _, t in lines[1:]), ""]
    path.write_text("\n".join(f"{s} ||| {t}" for (s, _, _), t in zip(lines, outputs, strict=True)) + "\n", "utf-8")
    args = [
        "winomt",
        "--data-dir",
        str(data_dir),
        "--translations",
        str(path),
        "--system",
        "mine",
        "--languages",
        "pt",
        "--n-boot",
        "100",
    ]
    assert main([*args, "--strict"]) == 65
    assert "mine/pt" in capsys.readouterr().err
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = smb.winomt(translations={"mine": path}, languages=["pt"], data_dir=data_dir, n_boot=100, rng=0)
    flags = set(result.table["flag"])
    assert flags == {"outputs look shifted by -1 line(s) against their sources: check the file"}
    smb.report([result], out=tmp_path / "report", formats=["md"])
    text = (tmp_path / "report" / "report.md").read_text("utf-8")
    assert "mine ⚠" in text and "⚠ mine: pt: outputs look shifted by -1 line(s)" in text


def test_readings_beside_translations_that_slipped_are_flagged(data_dir, tmp_path):
    lines = [line.partition(" ||| ") for line in _shipped_lines(data_dir, "es", 3888)]
    translations = [t for _, _, t in lines]
    frame = pd.DataFrame(
        {"item": range(len(lines)), "system": "mine", "language": "es", "gender": "male", "translation": translations}
    )
    path = tmp_path / "readings.csv"
    frame.assign(translation=["", *translations[:-1]]).to_csv(path, index=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        slipped = smb.winomt(judgements=path, data_dir=data_dir, adjectives=False, n_boot=100, rng=0)
        frame.to_csv(path, index=False)
        in_order = smb.winomt(judgements=path, data_dir=data_dir, adjectives=False, n_boot=100, rng=0)
    assert set(slipped.table["flag"]) == {"outputs look shifted by +1 line(s) against their sources: check the file"}
    assert "flag" not in in_order.table
    assert sum(f"mine/es ({path}): outputs look shifted by +1" in str(w.message) for w in caught) == 1
