"""Optimal-translator bias B: METHODS.md §2's worked examples through the API and the CLI, and hand computations."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import stats_mtbias as smb
from stats_mtbias.cli import main
from stats_mtbias.datasets.reference import read_reference, sector_map
from stats_mtbias.errors import DataError
from stats_mtbias.estimators.optimal import b_status, bias_b, e_0, e_probabilistic, e_t, survey_female_share
from stats_mtbias.studies import optimal


def test_worked_examples_estimators():
    # f = 0.73 translated "he": E_t = 73, E_0 = 27, B = 46 / 27 = 1.70.
    assert e_0(0.73) == pytest.approx(27.0)
    assert e_t(0.73, 0, 1) == pytest.approx(73.0)
    assert bias_b(0.73, e_t(0.73, 0, 1)) == pytest.approx(46 / 27)
    assert round(float(bias_b(0.73, 73.0)), 2) == 1.70
    # f = 0.58: "she" B = 0, "he" B = 16 / 42 = 0.38.
    assert bias_b(0.58, e_t(0.58, 1, 0)) == 0.0
    assert round(float(bias_b(0.58, e_t(0.58, 0, 1))), 2) == 0.38
    # Survey counts 170, 12, 7, 3, 4, 0: weighted 425, 18, 3.5, 1.5, 6, 0; masculinity 446.5 / 454.
    assert 1 - survey_female_share([170, 12, 7, 3, 4, 0]) == pytest.approx(446.5 / 454)
    assert round(1 - float(survey_female_share([170, 12, 7, 3, 4, 0])), 2) == 0.98


def test_edges_are_reported_not_divided_by_zero():
    assert e_0(0.5) == 50.0 and bias_b(0.5, e_t(0.5, 0, 1)) == 0.0 and bias_b(0.5, e_t(0.5, 1, 0)) == 0.0
    assert np.isnan(bias_b(0.0, e_t(0.0, 1, 0))) and np.isnan(bias_b(1.0, 0.0))
    f = np.array([0.0, 0.7, np.nan, 0.7])
    et = np.array([100.0, 70.0, 50.0, np.nan])
    assert list(b_status(f, et)) == ["undefined: E_0 = 0 (f is 0 or 1)", "ok", "no reference share", "no usable output"]
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        e_0(1.2)


def test_neutral_rule_and_sampled_translators():
    assert bias_b(0.73, e_t(0.73, 0, 0, 1)) == 0.0  # default: neutral is unbiased
    assert np.isnan(e_t(0.73, 0, 0, 1, neutral="exclude"))
    # A system sampled 4 times: 1 "she", 3 "he" at f = .73 -> E_t = (27 + 3 * 73) / 4 = 61.5.
    assert e_t(0.73, 1, 3) == pytest.approx(61.5)
    assert bias_b(0.73, 61.5) == pytest.approx((61.5 - 27) / 27)
    assert e_probabilistic(0.73) == pytest.approx(200 * 0.73 * 0.27)


@pytest.fixture
def files(tmp_path):
    ref = tmp_path / "ref.csv"
    ref.write_text(
        "occupation,female_share,weight,category\n"
        "surgeon,0.73,100,A\n"
        "clerk,0.58,50,B\n"
        "teller,0.58,30,B\n"
        "welder,0.30,200,C\n"
        "dancer,0.5,10,C\n"
        "mystery,,10,C\n",
        "utf-8",
    )
    judg = tmp_path / "judgements.csv"
    judg.write_text(
        "occupation,gender\nsurgeon,male\nclerk,female\nteller,male\nwelder,female\ndancer,male\nmystery,male\n", "utf-8"
    )
    return ref, judg


def test_worked_examples_through_the_api(files):
    ref, judg = files
    result = optimal.evaluate(reference=ref, judgements=judg, n_boot=200, rng=1)
    occ = result.frames["occupations"].set_index("occupation")
    assert occ.loc["surgeon", "b"] == pytest.approx(46 / 27)
    assert occ.loc["clerk", "b"] == 0.0 and occ.loc["teller", "b"] == pytest.approx(16 / 42)
    assert occ.loc["welder", "b"] == pytest.approx((70 - 30) / 30)
    assert occ.loc["dancer", "b"] == 0.0 and occ.loc["dancer", "e_0"] == 0.5
    assert np.isnan(occ.loc["mystery", "b"]) and occ.loc["mystery", "status"] == "no reference share"
    cats = result.frames["categories"].set_index("category")
    # Category B = mean of its occupations' B: (0 + 0.38) / 2 = 0.19.
    assert cats.loc["B", "b"] == pytest.approx(8 / 42) and round(cats.loc["B", "b"], 2) == 0.19
    assert cats.loc["C", "n"] == 2  # mystery has no B


def test_sector_b_and_headline_by_hand(files):
    ref, judg = files
    result = optimal.evaluate(reference=ref, judgements=judg, n_boot=500, rng=2)
    # Sectors default to the categories here. Female-dominated: surgeon (A) alone, clerk + teller (B):
    # weights = women = employed * f -> B's sector B = (0 * 29 + 0.381 * 17.4) / 46.4.
    sec = result.frames["sectors"].set_index(["sector", "dominated"])
    assert sec.loc[("B", "female"), "b"] == pytest.approx((16 / 42 * 30 * 0.58) / (50 * 0.58 + 30 * 0.58))
    assert sec.loc[("A", "female"), "b"] == pytest.approx(46 / 27)
    # Male-dominated: welder (f .3, said "she"), weight = men = 140; dancer (f .5) is in neither.
    assert sec.loc[("C", "male"), "b"] == pytest.approx(40 / 30) and sec.loc[("C", "male"), "n"] == 1
    assert all(sec["ci_low"] <= sec["b"] + 1e-12) and all(sec["b"] <= sec["ci_high"] + 1e-12)
    # The gamma interval of B's sector B by hand: one event s = B(teller) w / sum w, v = s², and the largest
    # further event the clerk (f .58, weight 29) could add, B_max = |1 - 2f| / min(f, 1 - f) = 16/42.
    s = (16 / 42) * 17.4 / 46.4
    largest = (16 / 42) * 29 / 46.4
    low = stats.gamma.ppf(0.025, s**2 / s**2, scale=s**2 / s)
    mean, var = s + largest, s**2 + largest**2
    high = stats.gamma.ppf(0.975, mean**2 / var, scale=var / mean)
    assert (sec.loc[("B", "female"), "ci_low"], sec.loc[("B", "female"), "ci_high"]) == pytest.approx((low, high))
    assert sec.loc[("B", "female"), "n_biased"] == 1 and sec.loc[("B", "female"), "top_share"] == 1.0  # the teller alone
    head = result.frames["headline"].iloc[0]
    # He/she outputs at f != .5 with a share: surgeon he (minority), clerk she, teller he (minority), welder she (minority).
    assert head["n"] == 4
    assert head["minority"] == pytest.approx(0.75)
    assert head["should_be_she"] == pytest.approx(2 / 3)
    assert head["he_given_female_dominated"] == pytest.approx(2 / 3)
    assert head["she_given_male_dominated"] == pytest.approx(1.0)
    assert head["n_biased"] == 3 and head["b_max"] == pytest.approx(46 / 27)
    assert head["b_median"] == pytest.approx(40 / 30)


def test_worked_examples_through_the_cli(files, capsys):
    ref, judg = files
    assert main(["optimal", "--reference", str(ref), "--judgements", str(judg), "--view", "occupations", "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    occupations = smb.optimal(judg, reference=ref).frames["occupations"]
    assert [list(r) for r in records] == [list(occupations.columns)] * 6  # the public frame, every column
    assert all(set(optimal.OCCUPATION_COLUMNS) <= set(r) for r in records)
    by_name = {r["occupation"]: r for r in records}
    assert by_name["surgeon"]["b"] == pytest.approx(1.7037, abs=1e-4) and by_name["surgeon"]["gender"] == "male"
    assert by_name["teller"]["b"] == pytest.approx(0.381, abs=1e-3) and by_name["mystery"]["b"] is None
    argv = [
        "optimal",
        "--reference",
        str(ref),
        "--judgements",
        str(judg),
        "--view",
        "categories",
        "--format",
        "json",
        "--n-boot",
        "300",
    ]
    assert main(argv) == 0
    cats = {r["category"]: r for r in json.loads(capsys.readouterr().out)}
    assert cats["B"]["b"] == pytest.approx(0.1905, abs=1e-4)
    assert main([*argv[:5], "--view", "sectors", "--format", "json", "--n-boot", "300"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert all(list(r) == ["system", "language", *optimal.SECTOR_COLUMNS] for r in records)
    assert {r["dominated"] for r in records} == {"female", "male"}


def test_survey_reference_through_the_cli(tmp_path, capsys):
    # METHODS.md §2: answers 170, 12, 7, 3, 4, 0 give masculinity 446.5 / 454 = 0.98.
    ref = tmp_path / "survey.csv"
    ref.write_text("occupation,answer_1,answer_2,answer_3,answer_4,answer_5,answer_6\nsoldier,170,12,7,3,4,0\n", "utf-8")
    judg = tmp_path / "j.csv"
    judg.write_text("occupation,gender\nsoldier,female\n", "utf-8")
    argv = ["optimal", "--reference", str(ref), "--judgements", str(judg), "--view", "occupations", "--format", "json"]
    assert main(argv) == 0
    (record,) = json.loads(capsys.readouterr().out)
    assert record["female_share"] == pytest.approx(1 - 446.5 / 454)
    assert round(1 - record["female_share"], 2) == 0.98
    # "she" for a 98%-masculine occupation: E_t = 98.3, E_0 = 1.65 -> B = (98.35 - 1.65) / 1.65.
    f = 7.5 / 454
    assert record["b"] == pytest.approx((100 * (1 - f) - 100 * f) / (100 * f))


def test_reference_reader(tmp_path):
    counts = tmp_path / "counts.csv"
    counts.write_text("occupation,n_female,n_total\nnurse,45,50\nwelder,2,40\n", "utf-8")
    ref = read_reference(counts)
    assert ref["female_share"].tolist() == [0.9, 0.05] and ref["n_total"].tolist() == [50, 40]
    pct = tmp_path / "pct.csv"
    pct.write_text("occupation,female_share\nnurse,90\n", "utf-8")
    with pytest.raises(DataError, match=r"pct\.csv, line 2: female_share 90 is outside \[0, 1\] \(percentages\?"):
        read_reference(pct)
    dup = tmp_path / "dup.csv"
    dup.write_text("occupation,female_share\nnurse,.9\nnurse,.8\n", "utf-8")
    with pytest.raises(DataError, match=r"line 3: occupation 'nurse' was already given on line 2"):
        read_reference(dup)
    bad = tmp_path / "bad.csv"
    bad.write_text("occupation,n_female,n_total\nnurse,60,50\n", "utf-8")
    with pytest.raises(DataError, match="line 2: counts"):
        read_reference(bad)
    nothing = tmp_path / "nothing.csv"
    nothing.write_text("occupation,weight\nnurse,3\n", "utf-8")
    with pytest.raises(DataError, match="needs a column 'female_share'"):
        read_reference(nothing)


def test_reference_counts_widen_the_interval(tmp_path):
    rng = np.random.default_rng(3)
    n_occ = 60
    f = rng.uniform(0.55, 0.95, n_occ)
    names = [f"job{i}" for i in range(n_occ)]
    says = np.where(rng.random(n_occ) < 0.5, "male", "female")
    pd.DataFrame({"occupation": names, "gender": says}).to_csv(tmp_path / "j.csv", index=False)
    shares = pd.DataFrame({"occupation": names, "female_share": f, "weight": 1.0, "sector": "S"})
    shares.to_csv(tmp_path / "fixed.csv", index=False)
    n_total = np.full(n_occ, 30)
    n_female = np.round(f * n_total)
    counted = pd.DataFrame({"occupation": names, "n_female": n_female, "n_total": n_total, "weight": 1.0, "sector": "S"})
    counted.to_csv(tmp_path / "counts.csv", index=False)
    shares.assign(female_share=n_female / n_total).to_csv(tmp_path / "same_shares.csv", index=False)
    fixed = optimal.evaluate(reference=tmp_path / "same_shares.csv", judgements=tmp_path / "j.csv", n_boot=2000, rng=4)
    carried = optimal.evaluate(reference=tmp_path / "counts.csv", judgements=tmp_path / "j.csv", n_boot=2000, rng=4)
    a = fixed.frames["sectors"].set_index("dominated").loc["female"]
    b = carried.frames["sectors"].set_index("dominated").loc["female"]
    assert a["b"] == pytest.approx(b["b"])  # same point estimate
    assert b["ci_high"] - b["ci_low"] > 1.1 * (a["ci_high"] - a["ci_low"])
    assert "redrawn per replicate" in carried.provenance["method"]


def test_sector_map_covers_every_bls_category():
    sectors = sector_map()
    assert len(sectors) == 22 and len(set(sectors.values())) == 7
    assert sectors["Healthcare support occupations"] == "Healthcare"


def test_gamma_interval_is_garwoods_with_equal_weights_and_never_a_point():
    x = np.arange(0, 30, dtype=float)
    low, high = optimal.gamma_bounds(x, x, np.ones_like(x), 0.95)
    assert low == pytest.approx(np.where(x > 0, stats.chi2.ppf(0.025, 2 * np.maximum(x, 1)) / 2, 0.0))
    assert high == pytest.approx(stats.chi2.ppf(0.975, 2 * x + 2) / 2)
    # No event yet: [0, 3.69 x the largest possible event], never a point; no possible event at all: [0, 0].
    low, high = optimal.gamma_bounds(np.array([0.0, 0.0]), np.array([0.0, 0.0]), np.array([0.5, 0.0]), 0.95)
    assert low.tolist() == [0.0, 0.0] and high == pytest.approx([0.5 * -np.log(0.025), 0.0])
    # Unequal weights: wider than the Poisson interval of the same total (the conservative side).
    w = np.array([0.1, 0.1, 2.0])
    low, high = optimal.gamma_bounds(w.sum(), np.sum(w**2), 2.0, 0.95)
    assert low < w.sum() < high and high - low > stats.chi2.ppf(0.975, 2 * 3 + 2) / 2 - stats.chi2.ppf(0.025, 6) / 2
