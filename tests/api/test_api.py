"""The public API: one shape for every study, users' systems beside shipped ones, frames and files alike."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import UsageError
from stats_mtbias.gender import GENDERS
from stats_mtbias.result import COMPARE_COLUMNS, TABLE_COLUMNS


@pytest.fixture(scope="module")
def google_tgbi_frame(data_dir):
    """Google's shipped TGBI outputs in the documented user format (item, set, translation)."""
    from stats_mtbias.datasets import tgbi as tgbi_data
    from stats_mtbias.datasets.registry import open_store

    outputs = tgbi_data.read_outputs(["google"], open_store(data_dir))
    return pd.DataFrame({"item": outputs["line"], "set": outputs["subset"].astype(str), "translation": outputs["translation"]})


def test_public_names():
    for name in ("tgbi", "winomt", "prates", "optimal", "rates", "model", "report", "StudyResult"):
        assert name in smb.__all__ and hasattr(smb, name)


def test_tgbi_user_copy_of_google_differs_by_zero(data_dir, google_tgbi_frame):
    res = smb.tgbi(systems=["google"], translations={"mine": google_tgbi_frame}, data_dir=data_dir, n_boot=300, rng=0)
    assert list(res.table.columns) == TABLE_COLUMNS
    cmp = res.compare()
    assert list(cmp.columns) == [*COMPARE_COLUMNS, "mde"]
    assert set(cmp["system_a"]) == {"google"} and set(cmp["system_b"]) == {"mine"}
    assert len(cmp) == 8  # seven sets and the index
    np.testing.assert_array_equal(cmp["diff"], 0.0)
    np.testing.assert_array_equal(cmp["p_value"], 1.0)
    np.testing.assert_array_equal(cmp["p_adjusted"], 1.0)
    # No comparison interval is a point (issue 45): agreeing on every item here is not agreeing everywhere; the
    # interval is symmetric about 0 (the two equal intervals combined without their correlation).
    assert (cmp["ci_low"] < 0).all() and (cmp["ci_high"] > 0).all()
    np.testing.assert_allclose(cmp["ci_low"], -cmp["ci_high"], rtol=1e-12)
    # The user's sha256 is in the provenance.
    assert any("DataFrame 'mine'" in key for key in res.provenance["data"])


def test_tgbi_frame_and_file_give_identical_tables(data_dir, google_tgbi_frame, tmp_path):
    path = tmp_path / "mine.csv"
    google_tgbi_frame.to_csv(path, index=False)
    from_file = smb.tgbi([], translations={"mine": path}, data_dir=data_dir, n_boot=200, rng=5)
    from_frame = smb.tgbi([], translations={"mine": google_tgbi_frame}, data_dir=data_dir, n_boot=200, rng=5)
    pd.testing.assert_frame_equal(from_file.table, from_frame.table)
    # The same digest whichever way the data came: the file is the frame's CSV.
    assert from_file.provenance["data"][str(path)] == next(
        v for k, v in from_frame.provenance["data"].items() if "DataFrame" in k
    )
    # And the shipped google gives the same numbers as the copy.
    shipped = smb.tgbi(["google"], data_dir=data_dir, n_boot=200, rng=5)
    np.testing.assert_allclose(shipped.table["estimate"], from_file.table["estimate"])


def test_tgbi_shares_are_fractions_and_index_is_mean(data_dir):
    res = smb.tgbi(["kakao"], data_dir=data_dir, n_boot=200, rng=1)
    t = res.table
    assert t["estimate"].between(0, 1).all()
    p_s = t[t["metric"] == "p_s"].set_index("subset")["estimate"]
    assert p_s["TGBI"] == pytest.approx(p_s.drop("TGBI").mean())
    with pytest.raises(UsageError, match="at least two systems"):
        res.compare()


def test_rng_int_and_generator_give_the_same_numbers(data_dir):
    a = smb.tgbi(["google"], data_dir=data_dir, n_boot=200, rng=7)
    b = smb.tgbi(["google"], data_dir=data_dir, n_boot=200, rng=np.random.default_rng(7))
    pd.testing.assert_frame_equal(a.table, b.table)
    with pytest.raises(UsageError, match="rng"):
        smb.tgbi(["google"], data_dir=data_dir, rng=None)
    with pytest.raises(UsageError, match="more than once"):
        smb.tgbi(["google", "google"], data_dir=data_dir)
    with pytest.raises(UsageError, match="both as a shipped system"):
        smb.tgbi(["google"], translations={"google": "x.csv"}, data_dir=data_dir)


def test_winomt_user_copy_of_google_differs_by_zero(data_dir):
    from stats_mtbias.datasets.registry import open_store

    shipped = open_store(data_dir).path("winomt/translations/google/en-es.txt")
    res = smb.winomt(["google"], translations={"mine": shipped}, n_boot=300, rng=0, data_dir=data_dir, adjectives=False)
    assert set(res.table["language"]) == {"es"}
    assert res.table["estimate"].between(-1, 1).all()
    acc = res.table[res.table["metric"] == "acc"].set_index("system")["estimate"]
    assert 0.3 < acc["google"] == acc["mine"] < 0.8
    cmp = res.compare()
    assert set(cmp["metric"]) == {"acc", "f1_male", "f1_female", "delta_g", "acc_pro", "acc_anti", "delta_s"}
    np.testing.assert_array_equal(cmp["diff"], 0.0)
    np.testing.assert_array_equal(cmp["p_value"], 1.0)
    # The same file as a frame of source/translation columns gives the same table.
    lines = shipped.read_text("utf-8").splitlines()
    frame = pd.DataFrame([line.split(" ||| ", 1) for line in lines], columns=["source", "translation"])
    again = smb.winomt(translations={"mine": frame}, languages=["es"], n_boot=300, rng=0, data_dir=data_dir)
    mine = res.table[res.table["system"] == "mine"].reset_index(drop=True)
    np.testing.assert_allclose(again.table["estimate"], mine["estimate"])


def test_winomt_refuses_unknown_languages_and_systems(data_dir):
    with pytest.raises(UsageError, match="supported: ar, cs, de, es"):
        smb.winomt(["google"], languages=["sv"], data_dir=data_dir)
    with pytest.raises(UsageError, match="not a shipped WinoMT system"):
        smb.winomt(["deepl"], languages=["es"], data_dir=data_dir)


def test_prates_and_optimal_take_frames(data_dir, tmp_path):
    frame = pd.DataFrame(
        {
            "item": ["nurse", "nurse", "engineer", "engineer", "teacher", "teacher"],
            "language": ["xx"] * 6,
            "system": ["a", "b"] * 3,
            "gender": ["female", "male", "male", "male", "female", "female"],
        }
    )
    res = smb.prates(frame, rng=0)
    # Two systems: a row each (issue 33: never pooled silently), and their paired comparison.
    female = res.table[(res.table["metric"] == "female") & (res.table["subset"] == "all")].set_index("system")
    assert female.loc["a", "estimate"] == pytest.approx(2 / 3) and female.loc["b", "estimate"] == pytest.approx(1 / 3)
    assert female.loc["a", "n"] == 3  # occupations
    pooled = smb.prates(frame, rng=0, pool=True)
    assert pooled.systems == ["a+b"] and any("pooled" in note for note in pooled.notes)
    assert pooled.table.query("metric == 'female' and subset == 'all'")["estimate"].iloc[0] == pytest.approx(3 / 6)
    cmp = res.compare()
    row = cmp[cmp["metric"] == "female"].iloc[0]
    assert row["diff"] == pytest.approx(2 / 3 - 1 / 3)
    path = tmp_path / "j.csv"
    frame.to_csv(path, index=False)
    pd.testing.assert_frame_equal(smb.prates(path, rng=0).table, res.table)
    ref = pd.DataFrame({"occupation": ["nurse", "engineer", "teacher"], "female_share": [0.9, 0.2, 0.75]})
    judg = pd.DataFrame({"occupation": ["nurse", "engineer", "teacher"], "gender": ["male", "male", "female"]})
    opt = smb.optimal(judg, reference=ref, n_boot=200, rng=0)
    b = opt.frames["occupations"].set_index("occupation")["b"]
    # Hand values: nurse f=.9 said "he": E_t = 90, E_0 = 10, B = 8; engineer and teacher chose the majority: 0.
    assert b["nurse"] == pytest.approx(8.0) and b["engineer"] == 0 and b["teacher"] == 0
    assert set(opt.table["metric"]) >= {"b", "minority"}


def test_rates_by_hand_and_comparisons():
    frame = pd.DataFrame(
        {
            "item": [1, 1, 2, 2, 3, 3, 4, 4],
            "system": ["a", "b"] * 4,
            "split": ["x", "x", "x", "x", "y", "y", "y", "y"],
            "gender": ["male", "female", "male", "male", "female", "F", "neutral", "?"],
        }
    )
    res = smb.rates(frame, by="split", n_boot=500, rng=0)
    t = res.table.set_index(["system", "subset", "metric"])["estimate"]
    assert t["a", "all", "female"] == pytest.approx(1 / 4)
    assert t["a", "all", "gap"] == pytest.approx(2 / 4 - 1 / 4)
    assert t["b", "all", "female"] == pytest.approx(2 / 3)  # the '?' is unknown: counted, not in n
    assert t["b", "y", "female"] == pytest.approx(1.0)
    est = res.frames["estimates"]
    assert est[(est["system"] == "b") & (est["group"] == "all")]["n_unknown"].iloc[0] == 1
    assert {"group_a", "group_b"} <= set(res.frames["group_differences"].columns)
    cmp = res.compare()
    assert len(cmp) == 3 * 4  # groups x, y, all times four metrics
    with pytest.raises(smb.DataError, match="line 3"):
        smb.rates(frame.assign(gender=["male", "purple", *frame["gender"][2:]]), n_boot=200, rng=0)


def _clustered(rng, k, m, p, rho, systems=1):
    """k items with m judgements each; item-level female probability ~ Beta with mean p and ICC rho."""
    a, b = p * (1 - rho) / rho, (1 - p) * (1 - rho) / rho
    q = rng.beta(a, b, size=k)
    female = rng.random((systems, k, m)) < q[None, :, None]
    return pd.DataFrame(
        {
            "system": np.repeat([f"s{s}" for s in range(systems)], k * m),
            "item": np.tile(np.repeat(np.arange(k), m), systems),
            "gender": np.where(female.ravel(), "female", "male"),
        }
    )


def _coverage(reps, k, m, p, rho, interval, seed):
    """Share of `reps` simulated evaluations whose interval for the female share covers p (fresh weights each time)."""
    from stats_mtbias.studies import rates as rates_study

    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(reps):
        frame = _clustered(rng, k, m, p, rho)
        # The validated table smb.rates builds (checked equal below), without re-parsing the frame each time.
        table = pd.DataFrame(
            {
                "system": frame["system"],
                "cluster": frame["item"].astype(str),
                "line": np.arange(len(frame)),
                "gender": pd.Categorical(frame["gender"], categories=GENDERS),
                "stratum": "all",
            }
        )
        est, _, _ = rates_study.analyse(table, n_boot=400, rng=rng, interval=interval)
        row = est[(est["metric"] == "female")].iloc[0]
        hits += row["ci_low"] <= p <= row["ci_high"]
    return hits / reps


def test_coverage_helper_matches_the_public_function():
    frame = _clustered(np.random.default_rng(3), 50, 4, 0.3, 0.2)
    from stats_mtbias.studies import rates as rates_study

    table = pd.DataFrame(
        {
            "system": frame["system"],
            "cluster": frame["item"].astype(str),
            "line": np.arange(len(frame)),
            "gender": pd.Categorical(frame["gender"], categories=GENDERS),
            "stratum": "all",
        }
    )
    est, _, _ = rates_study.analyse(table, n_boot=300, rng=9)
    public = smb.rates(frame, n_boot=300, rng=9).table
    np.testing.assert_allclose(est["ci_low"], public["ci_low"])
    np.testing.assert_allclose(est["estimate"], public["estimate"])


@pytest.mark.parametrize("interval", ["percentile", "score"])
def test_rates_coverage_with_clustered_items_fast(interval):
    # 150 simulated evaluations: Monte-Carlo SE about 0.018, so the band is wide here; the slow test is tight.
    cover = _coverage(150, k=80, m=5, p=0.3, rho=0.2, interval=interval, seed=11)
    assert 0.89 <= cover <= 0.99


@pytest.mark.slow
@pytest.mark.parametrize("interval", ["percentile", "score"])
@pytest.mark.parametrize(("k", "p"), [(100, 0.3), (400, 0.1)])
def test_rates_coverage_with_clustered_items(interval, k, p):
    # 1,000 evaluations: Monte-Carlo SE 0.007, the band [0.93, 0.97] is more than 2.5 SE either side of 0.95.
    cover = _coverage(1000, k=k, m=4, p=p, rho=0.15, interval=interval, seed=k)
    assert 0.93 <= cover <= 0.97, cover


def test_report_of_any_result(tmp_path):
    frame = _clustered(np.random.default_rng(0), 30, 3, 0.4, 0.1, systems=2)
    res = smb.rates(frame, n_boot=200, rng=0)
    out = tmp_path / "r"
    written = smb.report(res, out=out)
    names = {p.name for p in written}
    assert {"report.html", "report.md", "report.tex", "estimates.csv", "comparisons.csv"} <= names
    csv = pd.read_csv(out / "rates" / "estimates.csv")
    np.testing.assert_allclose(csv["estimate"], res.table["estimate"])
    assert "s0" in (out / "report.html").read_text("utf-8")
    # Every comparison the report shows carries its minimum detectable difference (80% power, α = 0.05).
    shown = pd.read_csv(out / "rates" / "comparisons.csv")
    z95, z80 = 1.959964, 0.841621
    np.testing.assert_allclose(shown["mde"], (z95 + z80) * (shown["ci_high"] - shown["ci_low"]) / (2 * z95), rtol=1e-6)


def test_rates_analytic_comparison_by_hand():
    # Two systems on the same 4 items, one judgement each: a female on items 0, 1; b on item 0 only.
    frame = pd.DataFrame(
        {
            "item": [0, 0, 1, 1, 2, 2, 3, 3],
            "system": ["a", "b"] * 4,
            "gender": ["female", "female", "female", "male", "male", "male", "male", "male"],
        }
    )
    cmp = smb.rates(frame, interval="score", rng=0).compare()
    row = cmp[cmp["metric"] == "female"].iloc[0]
    # diff = 1/2 - 1/4; per-item differences d_i = (0, 1, 0, 0)/4, centred: SE = sqrt(4/3 * sum((d - mean d)^2)).
    d = np.array([0, 1, 0, 0]) / 4
    se = np.sqrt(4 / 3 * np.sum((d - d.mean()) ** 2))
    assert row["diff"] == pytest.approx(0.25)
    assert row["ci_high"] - row["diff"] == pytest.approx(1.959964 * se, rel=1e-5)
    assert np.isfinite(cmp["p_value"]).all()


def _size(reps, k, p, rho, interval, seed):
    """Rejection rate at 0.05 of the paired comparison of two systems with the same item-level rates."""
    from stats_mtbias.studies import rates as rates_study

    rng = np.random.default_rng(seed)
    rejected = 0
    for _ in range(reps):
        frame = _clustered(rng, k, 3, p, rho, systems=2)
        table = pd.DataFrame(
            {
                "system": frame["system"],
                "cluster": frame["item"].astype(str),
                "line": np.arange(len(frame)),
                "gender": pd.Categorical(frame["gender"], categories=GENDERS),
                "stratum": "all",
            }
        )
        _, cmp, _ = rates_study.analyse(table, n_boot=400, rng=rng, interval=interval)
        rejected += cmp[cmp["metric"] == "female"]["p_value"].iloc[0] < 0.05
    return rejected / reps


@pytest.mark.parametrize("interval", ["percentile", "score"])
def test_rates_paired_comparison_size_fast(interval):
    # 200 simulated null evaluations: Monte-Carlo SE about 0.015 at 0.05; a test that never rejects fails too.
    assert 0.01 <= _size(200, k=100, p=0.3, rho=0.2, interval=interval, seed=3) <= 0.09


@pytest.mark.slow
@pytest.mark.parametrize("interval", ["percentile", "score"])
@pytest.mark.parametrize(("k", "p"), [(100, 0.3), (400, 0.05)])
def test_rates_paired_comparison_size(interval, k, p):
    # 1,000 null evaluations: Monte-Carlo SE 0.007; size must stay <= alpha + 0.01 plus 2 SE of simulation noise.
    assert _size(1000, k=k, p=p, rho=0.15, interval=interval, seed=k) <= 0.074
