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


def test_a_sample_is_scored_on_its_drawn_mutants_with_a_wilson_interval(tmp_path, capsys):
    mutants, folder = tmp_path / "mutants", tmp_path / "equivalent"
    folder.mkdir()
    # Drawn: 45 killed, 5 survived of which 1 is recorded equivalent, 1 never run; an undrawn survivor is ignored.
    codes = {f"stats_mtbias.a.x_f__mutmut_{i}": 1 for i in range(45)}
    codes |= {f"stats_mtbias.a.x_f__mutmut_{i}": 0 for i in range(45, 51)}
    codes["stats_mtbias.a.x_f__mutmut_51"] = None
    _meta(mutants, "stats_mtbias.a", codes)
    (folder / "a.toml").write_text('[[equivalent]]\nname = "stats_mtbias.a.x_f__mutmut_50"\nreason = "never binds"\n')
    drawn = [f"stats_mtbias.a.x_f__mutmut_{i}" for i in range(50)] + ["stats_mtbias.a.x_f__mutmut_51"]
    names = ", ".join(f'"{n}"' for n in drawn)
    sample = tmp_path / "sample.toml"
    sample.write_text(f'seed = 1\n[[module]]\npath = "stats_mtbias/a.py"\npopulation = 900\nnames = [{names}]\n')
    out_json = tmp_path / "s.json"
    args = ["--mutants", str(mutants), "--equivalent", str(folder), "--sample", str(sample), "--json", str(out_json)]
    assert report.main(args) == 0
    row = json.loads(out_json.read_text())["stats_mtbias.a"]
    assert (row["population"], row["drawn"], row["killed"], row["survived"], row["not checked"]) == (900, 51, 45, 5, 1)
    # 45 of 50: statsmodels' proportion_confint(45, 50, method="wilson") = (0.786398, 0.956524).
    assert row["score"] == pytest.approx(0.9)
    assert (row["low"], row["high"]) == pytest.approx((0.786398, 0.956524), abs=1e-6)
    out = capsys.readouterr().out
    assert "stats_mtbias.a.x_f__mutmut_49" in out and "x_f__mutmut_50\n" not in out
    assert report.main([*args, "--fail-under", "0.91"]) == 1


def test_the_draw_is_proportional_reproducible_and_without_replacement():
    from tests.mutation import sample

    pop = {"a": [f"a{i}" for i in range(2091)], "b": [f"b{i}" for i in range(1419)]}
    first, again = sample.draw(pop, 240, seed=45), sample.draw(pop, 240, seed=45)
    assert first == again and {k: len(v) for k, v in first.items()} == {"a": 143, "b": 97}
    assert all(len(set(v)) == len(v) and set(v) <= set(pop[k]) for k, v in first.items())
    assert sample.draw(pop, 240, seed=46) != first
    with pytest.raises(SystemExit, match="between 1 and the population size 3510"):
        sample.allocate({"a": 2091, "b": 1419}, 3511)
