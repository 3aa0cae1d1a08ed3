"""A user's mistake is never "a bug" (issue 49, item 6): a usage error (64) or a data error naming the file and line (65).

Before: ``stats-mtbias tgbi --systems ''`` exited 1 with "a bug: please report it" (a plain ValueError), an empty
system cell of a judgements file became a nameless system (rates), or one named after the file (prates, optimal), or
a KeyError (WinoMT, whose items then had no system in common).
"""

from __future__ import annotations

import pytest

from stats_mtbias.cli import main


def _run(capsys, *argv) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


def test_tgbi_without_any_system_is_a_usage_error_saying_what_to_give(capsys, tmp_path):
    # Said before any file is read: no data directory is needed to be told what to give.
    code, err = _run(capsys, "tgbi", "--systems", "", "--data-dir", tmp_path)
    assert code == 64, err
    assert "a bug" not in err
    assert "no system to evaluate" in err and "--systems" in err and "--translations" in err and "--outputs" in err


def test_tgbi_api_without_any_system_is_a_usage_error():
    import stats_mtbias as smb

    with pytest.raises(smb.UsageError, match="no system to evaluate"):
        smb.tgbi([])


def _write(path, text: str):
    path.write_text(text, "utf-8")
    return path


# One rule for every reader of a user's judgements: a system column that is there is filled on every row.
BLANK_SYSTEM = {
    "rates": ("system,item,gender\na,1,female\n,2,male\nb,1,male\nb,2,female\n", ["rates", "--n-boot", "100"]),
    "tgbi": ("system,set,item,translation\na,formal,1,He is kind.\n,formal,2,She is kind.\n", ["tgbi", "--n-boot", "100"]),
    "prates": ("item,language,gender,system\nNurse,Malay,female,a\nDoctor,Malay,male,\n", ["prates"]),
    "winomt": ("item,system,language,gender\n0,a,es,male\n1,,es,female\n", ["winomt", "--no-adjectives", "--n-boot", "100"]),
    "optimal": ("occupation,gender,system\nnurse,female,a\ndoctor,male,\n", ["optimal", "--n-boot", "100"]),
}


@pytest.mark.parametrize("study", list(BLANK_SYSTEM))
def test_an_empty_system_cell_is_a_data_error_naming_file_and_line(study, tmp_path, capsys, data_dir):
    text, argv = BLANK_SYSTEM[study]
    path = _write(tmp_path / f"{study}.csv", text)
    option = "--outputs" if study == "tgbi" else "--judgements"
    code, err = _run(capsys, *argv, option, path, "--data-dir", data_dir)
    assert code == 65, err
    assert f"{path}, line 3: column 'system' is empty" in err


def test_an_empty_cluster_cell_of_rates_is_a_data_error(tmp_path, capsys):
    path = _write(tmp_path / "j.csv", "system,item,gender\na,1,female\na,,male\n")
    code, err = _run(capsys, "rates", "--judgements", path, "--n-boot", "100")
    assert code == 65, err
    assert f"{path}, line 3: column 'item' is empty" in err


def test_a_file_without_a_system_column_is_still_one_system(tmp_path, capsys):
    path = _write(tmp_path / "mine.csv", "item,gender\n1,female\n2,male\n")
    code, err = _run(capsys, "rates", "--judgements", path, "--system-column", "", "--interval", "score", "--format", "json")
    assert code == 0, err


def test_winomt_systems_without_a_shared_item_are_a_data_error(tmp_path, capsys, data_dir):
    path = _write(tmp_path / "r.csv", "item,system,language,gender\n0,a,es,male\n1,b,es,female\n")
    code, err = _run(capsys, "winomt", "--judgements", path, "--no-adjectives", "--n-boot", "100", "--data-dir", data_dir)
    assert code == 65, err
    assert "a bug" not in err
    assert "es: the systems a, b translated no WinoMT item in common" in err and "--missing wrong" in err
