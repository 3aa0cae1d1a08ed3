"""Equivalence (TOST) read off a comparison's interval: against statsmodels' TOST, consistent with the interval,
adjusted as p_adjusted is, and one estimate against a target."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import special
from statsmodels.stats.weightstats import DescrStatsW

import stats_mtbias as smb
from stats_mtbias.errors import UsageError
from stats_mtbias.significance.equivalence import tost_from_interval
from stats_mtbias.significance.multitest import adjust_pvalues


def paired_frame(rng, n: int, pa: float, pb: float, systems=("a", "b")) -> pd.DataFrame:
    a, b = rng.random(n) < pa, rng.random(n) < pb
    items = np.arange(n)
    return pd.DataFrame(
        {
            "item": np.r_[items, items],
            "system": [systems[0]] * n + [systems[1]] * n,
            "gender": np.r_[np.where(a, "female", "male"), np.where(b, "female", "male")],
        }
    ), a.astype(float) - b.astype(float)


@pytest.mark.parametrize("margin", [0.05, 0.1, 0.3])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_wald_interval_is_statsmodels_ztost(margin, seed):
    """A Wald interval mean ± z·se gives statsmodels' z-TOST p-value (DescrStatsW.ztost_mean) to 1e-10."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0.02 * seed, 0.2, size=40 + 30 * seed)
    d = DescrStatsW(x)
    z = special.ndtri(0.975)
    out = tost_from_interval(d.mean, d.mean - z * d.std_mean, d.mean + z * d.std_mean, margin, level=0.95)
    p, (_, p_low), (_, p_high) = d.ztost_mean(-margin, margin)
    assert float(out["p_equivalent"]) == pytest.approx(p, abs=1e-10)
    assert float(out["p_lower"]) == pytest.approx(p_low, abs=1e-10)
    assert float(out["p_upper"]) == pytest.approx(p_high, abs=1e-10)


@pytest.mark.parametrize("seed, pa, pb", [(0, 0.4, 0.5), (1, 0.5, 0.5), (2, 0.05, 0.02)])
def test_rates_compare_is_statsmodels_ztost_of_item_differences(seed, pa, pb):
    """rates(ci="analytic") compares with a cluster-robust normal interval: its p_equivalent is statsmodels' z-TOST
    of the item differences (one output per item), to 1e-8."""
    frame, diff = paired_frame(np.random.default_rng(seed), 80, pa, pb)
    cmp = smb.rates(frame, ci="analytic").compare(margin=0.1, correction="none").set_index("metric")
    expected = DescrStatsW(diff).ztost_mean(-0.1, 0.1)[0]
    assert cmp.loc["female", "diff"] == pytest.approx(diff.mean(), abs=1e-12)
    assert cmp.loc["female", "p_equivalent"] == pytest.approx(expected, abs=1e-8)
    assert cmp.loc["female", "p_equivalent_adjusted"] == pytest.approx(expected, abs=1e-8)


def test_equivalent_is_the_1_minus_2alpha_interval_inside_the_margins():
    """Equivalent ⇔ p_equivalent < α ⇔ the (1 − 2α) interval inside (−δ, δ), for asymmetric intervals too; and
    the (1 − 2α) interval of a symmetric one is the level-(1 − 2α) Wald interval."""
    rng = np.random.default_rng(3)
    diff = rng.uniform(-0.1, 0.1, 500)
    low = diff - rng.uniform(0.0, 0.1, 500)
    high = diff + rng.uniform(0.0, 0.1, 500)
    for alpha in (0.05, 0.1):
        out = tost_from_interval(diff, low, high, 0.08, level=0.9, alpha=alpha)
        inside = (out["eq_low"] > -0.08) & (out["eq_high"] < 0.08)
        assert np.array_equal(out["p_equivalent"] < alpha, inside)
        assert 0 < inside.sum() < 500
    z = special.ndtri(0.975)
    sym = tost_from_interval(0.0, -z * 0.1, z * 0.1, 0.5, level=0.95, alpha=0.05)
    assert float(sym["eq_high"]) == pytest.approx(special.ndtri(0.95) * 0.1, abs=1e-12)
    # At the level of the interval (α = (1 − level) / 2) the (1 − 2α) interval is the reported one.
    out = tost_from_interval(diff, low, high, 0.08, level=0.9, alpha=0.05)
    assert np.allclose(out["eq_low"], low) and np.allclose(out["eq_high"], high)


def test_non_inferiority_is_one_of_the_two_tests():
    """alternative="greater" is the test of H0: Δ ≤ −δ alone, "less" of H0: Δ ≥ δ alone (statsmodels' one-sided
    z-tests at the margins)."""
    x = np.random.default_rng(4).normal(0.03, 0.3, 60)
    d = DescrStatsW(x)
    z = special.ndtri(0.975)
    ci = (d.mean, d.mean - z * d.std_mean, d.mean + z * d.std_mean)
    greater = tost_from_interval(*ci, 0.05, alternative="greater")["p_equivalent"]
    less = tost_from_interval(*ci, 0.05, alternative="less")["p_equivalent"]
    assert float(greater) == pytest.approx(d.ztest_mean(-0.05, alternative="larger")[1], abs=1e-10)
    assert float(less) == pytest.approx(d.ztest_mean(0.05, alternative="smaller")[1], abs=1e-10)


def test_degenerate_and_missing_intervals():
    """A side of width 0 rejects exactly when the margin lies beyond the estimate; no interval: NaN, never shown."""
    out = tost_from_interval([0.0, 0.2, np.nan], [0.0, 0.2, np.nan], [0.0, 0.2, np.nan], 0.1)
    assert out["p_equivalent"][0] == 0.0 and out["p_equivalent"][1] == 1.0 and np.isnan(out["p_equivalent"][2])


def test_equivalence_columns_adjusted_within_the_families():
    """p_equivalent_adjusted is the result's correction within the same families as p_adjusted; the verdict reads
    the adjusted p-values."""
    rng = np.random.default_rng(5)
    frames = [paired_frame(rng, 120, p, p - 0.02, systems=(f"s{i}", "ref"))[0] for i, p in enumerate((0.3, 0.5, 0.7))]
    ref = frames[0][frames[0]["system"] == "ref"]
    frame = pd.concat([ref] + [f[f["system"] != "ref"] for f in frames], ignore_index=True)
    res = smb.rates(frame, ci="analytic", correction="holm")
    cmp = res.compare(margin=0.15)
    for _, fam in cmp.groupby("family"):
        assert np.allclose(fam["p_equivalent_adjusted"], adjust_pvalues(fam["p_equivalent"].to_numpy(), "holm"))
    assert (cmp["equivalent"] == (cmp["p_equivalent_adjusted"] < 0.05)).all()
    differs = (cmp["p_adjusted"] < 0.05) & ~cmp["equivalent"]
    assert (cmp.loc[differs, "verdict"] == "differs").all()
    assert set(cmp["verdict"]) <= {"equivalent", "not shown", "differs"}
    every = res.compare(margin=0.15, family="all")
    assert np.allclose(every["p_equivalent_adjusted"], adjust_pvalues(every["p_equivalent"].to_numpy(), "holm"))
    plain = res.compare()
    assert "p_equivalent" not in plain and list(plain.columns) == list(cmp.columns[: len(plain.columns)])


def test_equivalence_of_one_estimate_against_a_target():
    """res.equivalence: the estimate's own interval, centred at the target (0.5: parity); the same as comparing the
    centred interval with tost_from_interval."""
    frame, _ = paired_frame(np.random.default_rng(6), 300, 0.52, 0.7)
    res = smb.rates(frame, ci="analytic")
    eq = res.equivalence("female", margin=0.05, target=0.5).set_index("system")
    row = res.table.query("metric == 'female'").set_index("system")
    for system in ("a", "b"):
        t = tost_from_interval(
            row.loc[system, "estimate"] - 0.5, row.loc[system, "ci_low"] - 0.5, row.loc[system, "ci_high"] - 0.5, 0.05
        )
        assert eq.loc[system, "p_equivalent"] == pytest.approx(float(t["p_equivalent"]), abs=1e-12)
        assert eq.loc[system, "eq_low"] == pytest.approx(float(t["eq_low"]) + 0.5, abs=1e-12)
    assert eq.loc["b", "verdict"] == "differs"  # 0.7 female: its interval excludes parity
    assert np.allclose(eq["p_equivalent_adjusted"], adjust_pvalues(eq["p_equivalent"].to_numpy(), res.correction))


@pytest.mark.parametrize("margin", [0, -0.1, float("nan"), "0.1", True])
def test_bad_margin_is_refused_by_name(margin):
    frame, _ = paired_frame(np.random.default_rng(7), 30, 0.5, 0.5)
    res = smb.rates(frame, ci="analytic")
    with pytest.raises(UsageError, match="margin"):
        res.compare(margin=margin)
    with pytest.raises(UsageError, match="alternative"):
        res.compare(margin=0.1, alternative="both")
    with pytest.raises(UsageError, match="no metric"):
        res.equivalence("delta_g", margin=0.1)
