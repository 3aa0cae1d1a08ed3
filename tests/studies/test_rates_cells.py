"""Every judgement its own cluster (``rates(cluster=None)``): counted by cell, the same statistics as a row each."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.uncertainty.bootstrap import BootstrapResult, _bca, cluster_bootstrap


def _frame(n: int, seed: int) -> pd.DataFrame:
    """n judgements of three systems in two splits and two strata, every label spelling and outcome."""
    rng = np.random.default_rng(seed)
    labels = np.array(["female", "male", "neutral", "both", "unknown", "F", "m", "?"])
    return pd.DataFrame(
        {
            "system": rng.choice(["a", "b", "c"], size=n),
            "split": rng.choice(["x", "y"], size=n),
            "half": rng.choice(["h1", "h2"], size=n, p=[0.3, 0.7]),
            "gender": labels[rng.choice(len(labels), size=n, p=[0.25, 0.35, 0.1, 0.05, 0.05, 0.08, 0.1, 0.02])],
        }
    )


def _per_row(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(row=np.arange(len(frame)))


@pytest.mark.parametrize("strata", [None, "half"])
def test_cells_give_the_analytic_numbers_of_a_row_each(strata):
    frame = _frame(900, 1)
    cells = smb.rates(frame, cluster=None, by="split", strata=strata, interval="score", rng=0)
    rows = smb.rates(_per_row(frame), cluster="row", by="split", strata=strata, interval="score", rng=0)
    # The count table holds cells, not rows, and accounts for every row.
    judged = cells.frames["judgements"]
    assert len(judged) < 3 * 2 * 2 * 5 + 1 and int(judged["n"].sum()) == 900
    assert len(rows.frames["judgements"]) == 900
    for column in ("estimate", "ci_low", "ci_high", "n"):
        np.testing.assert_allclose(cells.table[column], rows.table[column], rtol=1e-12, atol=1e-15)
    a, b = cells.compare(), rows.compare()
    assert len(a) == 3 * 3 * 4
    for column in ("diff", "ci_low", "ci_high", "p_value", "p_adjusted"):
        np.testing.assert_allclose(a[column], b[column], rtol=1e-10, atol=1e-15)


def test_cells_with_gold_give_the_analytic_accuracies_of_a_row_each():
    """The accuracies and their gap (MOVER coupled by the cluster-robust correlation, weighted by the cells'
    frequencies) are those of one row per judgement."""
    frame = _frame(900, 5)
    frame["gold"] = np.random.default_rng(6).choice(["female", "male", "neutral"], size=len(frame), p=[0.45, 0.45, 0.1])
    cells = smb.rates(frame, cluster=None, gold="gold", strata="half", ci="analytic", rng=0)
    rows = smb.rates(_per_row(frame), cluster="row", gold="gold", strata="half", ci="analytic", rng=0)
    assert {"accuracy", "accuracy_gap"} <= set(cells.table["metric"])
    for column in ("estimate", "ci_low", "ci_high", "n"):
        np.testing.assert_allclose(cells.table[column], rows.table[column], rtol=1e-12, atol=1e-15)


def test_cells_give_the_bootstrap_intervals_of_a_row_each():
    # Same distribution, different draws: the bounds agree to their Monte-Carlo error (about 4e-4 at 20,000).
    frame = _frame(600, 2)
    cells = smb.rates(frame, cluster=None, strata="half", n_boot=20_000, rng=3)
    rows = smb.rates(_per_row(frame), cluster="row", strata="half", n_boot=20_000, rng=4)
    np.testing.assert_array_equal(cells.table["estimate"], rows.table["estimate"])
    np.testing.assert_allclose(cells.table["ci_low"], rows.table["ci_low"], atol=0.004)
    np.testing.assert_allclose(cells.table["ci_high"], rows.table["ci_high"], atol=0.004)
    np.testing.assert_allclose(cells.compare()["ci_low"], rows.compare()["ci_low"], atol=0.005)


def test_frequency_bootstrap_has_the_row_bootstrap_variance():
    # Two strata of rows, 0/1 outcomes: the share's bootstrap variance is sum_h (N_h/N)^2 p_h(1-p_h)/N_h exactly.
    n_h, p_h = np.array([120, 380]), np.array([0.1, 0.45])
    ones = np.round(n_h * p_h).astype(int)
    data = np.array([[1.0], [0.0], [1.0], [0.0]])
    frequency = np.array([ones[0], n_h[0] - ones[0], ones[1], n_h[1] - ones[1]])
    strata = np.array([0, 0, 1, 1])
    n_boot = 40_000
    res = cluster_bootstrap(data, lambda t: t[:, 0] / n_h.sum(), frequency=frequency, strata=strata, n_boot=n_boot, rng=5)
    p = ones / n_h
    var = float(np.sum((n_h / n_h.sum()) ** 2 * p * (1 - p) / n_h))
    assert float(res.estimate) == pytest.approx(ones.sum() / n_h.sum())
    # Relative Monte-Carlo SE of a variance from 40,000 draws: sqrt(2/40000) = 0.7%.
    assert float(np.var(res.replicates, ddof=1)) == pytest.approx(var, rel=0.03)
    assert float(res.replicates.mean()) == pytest.approx(float(res.estimate), abs=4 * np.sqrt(var / n_boot))
    # Each stratum keeps its size in every replicate: the first stratum's draws alone sum to N_1.
    first = cluster_bootstrap(np.ones((2, 1)), lambda t: t[:, 0], frequency=frequency[:2], n_boot=50, rng=1)
    assert np.all(first.replicates == n_h[0])


def test_weighted_jackknife_is_the_expanded_one():
    rng = np.random.default_rng(6)
    data = rng.integers(0, 3, size=(7, 2)).astype(float)
    frequency = rng.integers(1, 5, size=7)

    def share(t):
        return t[:, 0] / t.sum(axis=1)

    res = cluster_bootstrap(data, share, frequency=frequency, n_boot=2000, rng=7, method="bca")
    expanded = np.repeat(data, frequency, axis=0)
    jack = share(expanded.sum(axis=0)[None] - expanded)
    np.testing.assert_allclose(np.repeat(res.jackknife, frequency), jack, rtol=1e-14)
    by_weights = res.confidence_interval()
    by_rows = _bca(res.estimate, res.replicates, jack, 0.025)
    np.testing.assert_allclose([by_weights.low, by_weights.high], [by_rows.low, by_rows.high], rtol=1e-12)
    # Unit weights are the unweighted formula, and a NaN jackknife value is left out as before.
    with_nan = np.array([0.2, np.nan, 0.5, 0.1])
    reps = np.random.default_rng(8).normal(0.3, 0.1, size=500)
    plain = BootstrapResult(np.float64(0.3), reps, with_nan, 0.95, "bca").confidence_interval()
    unit = BootstrapResult(np.float64(0.3), reps, with_nan, 0.95, "bca", jackknife_weights=np.ones(4)).confidence_interval()
    assert (plain.low, plain.high) == (unit.low, unit.high)


def test_frequency_must_be_positive_integers():
    with pytest.raises(ValueError, match="positive integer"):
        cluster_bootstrap(np.ones((2, 1)), lambda t: t[:, 0], frequency=np.array([1, 0]), n_boot=100, rng=0)
    with pytest.raises(ValueError, match="positive integer"):
        cluster_bootstrap(np.ones((2, 1)), lambda t: t[:, 0], frequency=np.array([1.5, 2.0]), n_boot=100, rng=0)


def test_a_parquet_of_many_rows_stays_a_table_of_cells(tmp_path):
    rng = np.random.default_rng(9)
    n = 300_000
    frame = pd.DataFrame(
        {
            "system": rng.choice(["a", "b"], size=n),
            "lang": rng.choice(["de", "fr", "es"], size=n),
            "gender": rng.choice(["female", "male", "neutral"], size=n, p=[0.3, 0.6, 0.1]),
        }
    )
    path = tmp_path / "j.parquet"
    frame.to_parquet(path)
    res = smb.rates(path, cluster=None, by="lang", interval="score", rng=0)
    assert len(res.frames["judgements"]) == 2 * 3 * 3 and int(res.frames["judgements"]["n"].sum()) == n
    t = res.table.set_index(["system", "subset", "metric"])["estimate"]
    want = frame[frame["system"] == "a"]["gender"].eq("female").mean()
    assert t["a", "all", "female"] == pytest.approx(want, rel=1e-12)


def _coverage(reps: int, n: int, p: float, ci: str, seed: int) -> float:
    rng = np.random.default_rng(seed)
    hits = 0
    limits = {}  # an analytic interval is a function of the count: one API run per count seen
    for _ in range(reps):
        female = rng.random(n) < p
        if ci != "analytic" or female.sum() not in limits:
            frame = pd.DataFrame({"system": "a", "gender": np.where(female, "female", "male")})
            est = smb.rates(
                frame, cluster=None, interval="score" if ci == "analytic" else "percentile", n_boot=400, rng=rng
            ).table
            row = est[est["metric"] == "female"].iloc[0]
            limits[female.sum()] = (row["ci_low"], row["ci_high"])
        low, high = limits[female.sum()]
        hits += low <= p <= high
    return hits / reps


@pytest.mark.parametrize("ci", ["bootstrap", "analytic"])
@pytest.mark.parametrize(("n", "p"), [(200, 0.3), (400, 0.05)])
def test_cells_coverage(ci, n, p):
    # 300 simulated evaluations: Monte-Carlo SE about 0.013; the band holds the percentile bootstrap's
    # known shortfall at 20 expected events (about 0.93) and Wilson's slight excess near 0.
    cover = _coverage(300, n, p, ci, seed=int(n * p * 10) + (ci == "analytic"))
    assert 0.90 <= cover <= 0.985, cover


def test_pilot_of_cells_expands_to_its_judgements():
    frame = pd.DataFrame({"system": "a", "gender": ["female"] * 120 + ["male"] * 280})
    pilot = smb.rates(frame, cluster=None, n_boot=100, rng=0)
    res = smb.power(pilot=pilot, metric="female", half_width=0.03, test="wald", n_sim=1000, rng=7)
    assert res.table["n_outputs"].iloc[0] == res.n  # one judgement per cluster
    assert res.n == pytest.approx(900, rel=0.08)  # Wilson/Wald: 1.96^2 * 0.21 / 0.03^2 = 896
