"""The mutation report's bookkeeping: equivalents recorded per module, survivors listed, the score."""

from __future__ import annotations

import json

import pytest

from tests.mutation import report


def _meta(root, module: str, codes: dict) -> None:
    path = root / (module.replace(".", "/") + ".py.meta")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"exit_code_by_key": codes}), "utf-8")


def test_equivalents_from_a_folder_count_apart_from_survivors(tmp_path, capsys):
    mutants, folder = tmp_path / "mutants", tmp_path / "equivalent"
    folder.mkdir()
    _meta(
        mutants,
        "stats_mtbias.a",
        {
            "stats_mtbias.a.x_f__mutmut_1": 1,
            "stats_mtbias.a.x_f__mutmut_2": 0,
            "stats_mtbias.a.x_f__mutmut_3": 0,
            "stats_mtbias.a.x_f__mutmut_4": 33,
        },
    )
    (folder / "a.toml").write_text('[[equivalent]]\nname = "stats_mtbias.a.x_f__mutmut_3"\nreason = "a guard that never binds"\n')
    assert report.main(["--mutants", str(mutants), "--equivalent", str(folder), "--fail-under", "0.5"]) == 0
    out = capsys.readouterr().out
    # 1 killed, 1 survived, 1 equivalent, 1 without a test: score 1 / (1 + 1).
    assert "stats_mtbias.a.x_f__mutmut_2" in out and "stats_mtbias.a.x_f__mutmut_3" not in out.split("surviving")[1]
    assert " 50.0%" in out
    assert report.main(["--mutants", str(mutants), "--equivalent", str(folder), "--fail-under", "0.6"]) == 1


@pytest.mark.parametrize(
    "body",
    [
        '[[equivalent]]\nname = "m"\nreason = ""\n',
        '[[equivalent]]\nname = "m"\nreason = "r"\n[[equivalent]]\nname = "m"\nreason = "s"\n',
    ],
)
def test_an_equivalent_without_a_reason_or_recorded_twice_is_an_error(tmp_path, body):
    (tmp_path / "x.toml").write_text(body)
    with pytest.raises(SystemExit, match=r"without a reason|twice"):
        report.equivalents(tmp_path)
