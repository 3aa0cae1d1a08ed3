"""The metric protocol and its engine (:mod:`stats_mtbias.stats.metrics`): every declared metric's estimate by hand,
its analytic interval by hand (the rates study's rule), and a metric declared in a test getting estimates, intervals,
paired comparisons and a power simulation with no other edit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats

from stats_mtbias.errors import UsageError
from stats_mtbias.planning.simulate import PairedDesign, simulate
from stats_mtbias.schema import GENDERS
from stats_mtbias.stats.metrics import GOLD_CELLS, RATES, Metric, MetricSet
from stats_mtbias.studies import _shares

CELLS = (*GENDERS, *GOLD_CELLS)
Z = special.ndtri(0.975)


def _cube(rows: list[dict[str, float]]) -> np.ndarray:
    """``(clusters, 1 system, 1 group, cells)`` from one dict of named cells per cluster."""
    out = np.zeros((len(rows), 1, 1, len(CELLS)))
    for i, row in enumerate(rows):
        for cell, n in row.items():
            out[i, 0, 0, CELLS.index(cell)] = n
    return out


# Four items with gold genders: per item the outputs (gender cells) and per gold gender correct/identified/unknown.
ITEMS = [
    {"female": 2, "male": 1, "unknown": 1, "correct:female": 2, "identified:female": 3, "unknown:female": 1},
    {"male": 3, "correct:male": 3, "identified:male": 3},
    {"female": 1, "male": 1, "neutral": 1, "both": 1, "correct:neutral": 2, "identified:neutral": 4},
    {"female": 1, "male": 2, "correct:male": 2, "identified:male": 3, "unknown:male": 0},
]


def _wilson(x: float, n: float, z: float = Z) -> tuple[float, float]:
    p = x / n
    centre, half = (p + z**2 / (2 * n)) / (1 + z**2 / n), z / (1 + z**2 / n) * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    return centre - half, centre + half


def test_every_declared_metric_is_its_ratio_by_hand():
    engine = MetricSet(RATES, CELLS)
    estimate = engine.estimate(_cube(ITEMS))[0, 0]
    # Identified outputs: 3 + 3 + 4 + 3 = 13; female 2+1+1 = 4, male 1+3+1+2 = 7, neutral/both 2.
    by_hand = {
        "female": 4 / 13,
        "male": 7 / 13,
        "neutral": 2 / 13,
        "gap": 3 / 13,
        "accuracy": (2 + 3 + 2 + 2) / 13,
        "accuracy_female": 2 / 3,
        "accuracy_male": 5 / 6,
        "accuracy_gap": 5 / 6 - 2 / 3,
    }
    assert engine.names == tuple(by_hand)
    np.testing.assert_allclose(estimate, list(by_hand.values()), rtol=0, atol=1e-15)
    # Without gold cells the accuracies are not fed, and the shares are the same.
    shares = MetricSet(RATES, GENDERS)
    assert shares.names == ("female", "male", "neutral", "gap")
    np.testing.assert_allclose(shares.estimate(_cube(ITEMS)[..., :5])[0, 0], estimate[:4], rtol=0, atol=1e-15)
    # The counts each metric rests on: identified and unknown cells.
    totals = _cube(ITEMS).sum(axis=0)[0, 0]
    assert (totals @ engine.identified.T).tolist() == [13, 13, 13, 13, 13, 3, 6, 9]
    assert (totals @ engine.unknown.T).tolist() == [1, 1, 1, 1, 1, 1, 0, 1]


def test_a_gap_of_one_denominator_is_a_signed_ratio_and_of_two_a_difference():
    engine = MetricSet(RATES, CELLS)
    gap, accuracy_gap = engine.index("gap"), engine.index("accuracy_gap")
    assert not engine.apart[gap] and engine.apart[accuracy_gap]
    assert engine.num[gap].tolist()[:5] == [-1, 1, 0, 0, 0] and engine.den[gap].tolist()[:5] == [1, 1, 1, 1, 0]
    assert engine.reach.tolist() == [1, 1, 1, 2, 1, 1, 1, 2]
    # Vectorised over replicates, cells on any axis.
    totals = _cube(ITEMS).sum(axis=0)[0]  # (1 group, cells)
    reps = np.stack([totals, 2 * totals, totals])  # (3, 1, cells)
    out = engine.statistic(np.moveaxis(reps, -1, 0), axis=0)
    assert out.shape == (3, 1, len(engine))
    np.testing.assert_allclose(out[1], out[0], rtol=0, atol=1e-15)


def test_the_analytic_intervals_are_the_rules_by_hand():
    """Wilson on the design-effect sample (floored at 1) for a share, cluster-robust normal for the gap, the MOVER of
    the two accuracies with their cluster-robust correlation for the accuracy gap."""
    rng = np.random.default_rng(3)
    rows = []
    for _ in range(40):
        f, m = rng.integers(0, 4, size=2)
        rows.append({"female": f, "male": m, "unknown": int(rng.integers(0, 2))})
    counts = _cube(rows)
    engine = MetricSet(RATES, GENDERS)
    counts = counts[..., :5]
    estimate = engine.estimate(counts)
    low, high, few = engine.score_bounds(counts, estimate, np.zeros(len(rows), int), None, 0.95)
    f = counts[:, 0, 0, 0]
    n = counts[:, 0, 0, :4].sum(axis=1)
    p = f.sum() / n.sum()
    u = (f - p * n) / n.sum()
    k = len(u)
    var = k / (k - 1) * np.sum((u - u.mean()) ** 2)
    deff = max(var / (p * (1 - p) / n.sum()), 1.0)
    lo, hi = _wilson(f.sum() / deff, n.sum() / deff)
    assert (low[0, 0, 0], high[0, 0, 0]) == pytest.approx((lo, hi), abs=1e-12)
    assert not few[0, 0, 0]
    g = counts[:, 0, 0, 1] - f
    theta = g.sum() / n.sum()
    ug = (g - theta * n) / n.sum()
    se = np.sqrt(k / (k - 1) * np.sum((ug - ug.mean()) ** 2))
    assert (low[0, 0, 3], high[0, 0, 3]) == pytest.approx((theta - Z * se, theta + Z * se), abs=1e-12)

    # The accuracy gap: gold female and gold male items apart (correlation 0), so the MOVER is Newcombe's; each
    # accuracy's design effect is k/(k − 1) = 80/79 (the robust variance over all 80 clusters, half of them empty for it).
    gold = _cube(
        [{"correct:female": 1, "identified:female": 1, "female": 1}] * 28
        + [{"identified:female": 1, "male": 1}] * 12
        + [{"correct:male": 1, "identified:male": 1, "male": 1}] * 16
        + [{"identified:male": 1, "female": 1}] * 24
    )
    engine = MetricSet(RATES, CELLS)
    estimate = engine.estimate(gold)
    low, high, _ = engine.score_bounds(gold, estimate, np.zeros(len(gold), int), None, 0.95)
    deff = 80 / 79
    (lf, hf), (lm, hm) = _wilson(28 / deff, 40 / deff), _wilson(16 / deff, 40 / deff)
    k = engine.index("accuracy_female")
    assert (low[0, 0, k], high[0, 0, k]) == pytest.approx((lf, hf), abs=1e-12)
    d = 16 / 40 - 28 / 40
    by_hand = (d - np.hypot(16 / 40 - lm, hf - 28 / 40), d + np.hypot(hm - 16 / 40, 28 / 40 - lf))
    k = engine.index("accuracy_gap")
    assert (low[0, 0, k], high[0, 0, k]) == pytest.approx(by_hand, abs=1e-12)


def test_few_events_are_read_where_declared():
    engine = MetricSet(RATES, CELLS)
    few = engine.few_counts(_cube(ITEMS).sum(axis=0))[0, 0]
    # Every accuracy has at most ten right or wrong outputs here; the shares declare no raw-count rule.
    assert few.tolist() == [False] * 4 + [True] * 4


def test_a_declaration_is_checked():
    with pytest.raises(UsageError, match="numerator and a denominator"):
        Metric("empty")
    with pytest.raises(UsageError, match="not declared"):
        MetricSet([Metric("gap", parts=("male", "female"))], CELLS)
    with pytest.raises(UsageError, match="metrics here are"):
        MetricSet(RATES, GENDERS).index("accuracy")


# The hypothetical metric of the report: one declaration, nothing else edited.
FEMALE_OF_GENDERED = Metric(
    "female_of_gendered", {"female": 1}, ("female", "male"), unknown=("neutral", "both", "unknown"), description="f/(f+m)"
)


def _two_systems(n: int = 120, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    a = rng.choice(["female", "male", "neutral"], size=n, p=[0.3, 0.6, 0.1])
    b = np.where(rng.random(n) < 0.2, rng.choice(["female", "male"], size=n), a)
    return pd.DataFrame(
        {
            "system": ["a"] * n + ["b"] * n,
            "cluster": [f"i{i}" for i in range(n)] * 2,
            "stratum": "all",
            "gender": pd.Categorical([*a, *b], categories=GENDERS),
            "n": 1,
            "line": np.arange(2 * n) + 2,
        }
    )


def test_a_declared_metric_gets_estimates_intervals_and_comparisons():
    table = _two_systems()
    metrics = (*RATES, FEMALE_OF_GENDERED)
    for interval in ("score", "percentile"):
        estimates, comparisons, _ = _shares.analyse(table, metrics=metrics, interval=interval, n_boot=200, rng=1)
        est = estimates.set_index(["system", "metric"])
        assert set(est.index.get_level_values("metric")) == {"female", "male", "neutral", "gap", "female_of_gendered"}
        for system in ("a", "b"):
            part = table[table["system"] == system]["gender"].astype(str)
            f, m = (part == "female").sum(), (part == "male").sum()
            row = est.loc[(system, "female_of_gendered")]
            assert row["estimate"] == pytest.approx(f / (f + m), abs=1e-15)
            assert row["ci_low"] < row["estimate"] < row["ci_high"]
            assert (row["n_outputs"], row["n_unknown"]) == (f + m, len(part) - f - m)
        diff = comparisons.set_index("metric").loc["female_of_gendered"]
        by_hand = est.loc[("a", "female_of_gendered"), "estimate"] - est.loc[("b", "female_of_gendered"), "estimate"]
        assert diff["diff"] == pytest.approx(by_hand, abs=1e-15)
        assert diff["ci_low"] < diff["diff"] < diff["ci_high"] and 0 <= diff["p_value"] <= 1
        # The shares already declared keep their numbers when a metric is added.
        alone, alone_cmp, _ = _shares.analyse(table, interval=interval, n_boot=200, rng=1)
        pd.testing.assert_frame_equal(
            estimates[estimates["metric"] != "female_of_gendered"].reset_index(drop=True), alone.reset_index(drop=True)
        )
        if interval == "score":
            pd.testing.assert_frame_equal(
                comparisons[comparisons["metric"] != "female_of_gendered"]
                .drop(columns=["p_adjusted", "family"])
                .reset_index(drop=True),
                alone_cmp.drop(columns=["p_adjusted", "family"]).reset_index(drop=True),
            )


def test_a_declared_metric_gets_a_power_simulation():
    """The engine's statistic is the power pilot's: at no true difference the Wald test on 120 items rejects at about
    its size (400 simulations: SE 0.011 at 0.05, so at most 0.05 + 4 SE), and a difference of 0.3 nearly always."""
    table = _two_systems(seed=2)
    counts, systems, labels, strata, _ = _shares.design_arrays(table, [])
    engine = MetricSet((*RATES, FEMALE_OF_GENDERED), CELLS[: counts.shape[-1]])
    design = PairedDesign(counts, engine.statistic, (labels.index("all"), engine.index("female_of_gendered")), strata)
    f = [(table[table["system"] == s]["gender"].astype(str)) for s in systems]
    by_hand = [(g == "female").sum() / g.isin(["female", "male"]).sum() for g in f]
    assert design.observed == pytest.approx(by_hand[0] - by_hand[1], abs=1e-15)
    sim = simulate(design, 120, n_sim=400, rng=0, test="wald")
    size = float(sim.power([0.0])[0])
    assert size < 0.05 + 4 * np.sqrt(0.05 * 0.95 / 400)
    assert float(sim.power([0.3])[0]) > 0.9


def test_the_wilson_helper_is_scipy_free_but_right():
    # The hand Wilson above against statsmodels' formula through scipy's normal quantile (a guard on the guard).
    lo, hi = _wilson(9, 20)
    assert (round(lo, 4), round(hi, 4)) == (0.2582, 0.6579)
    assert stats.norm.ppf(0.975) == pytest.approx(Z)


@pytest.mark.parametrize("samples", [False, True])
def test_the_worst_case_rule_is_prates_design_effect(samples):
    """The engine's ``worst_case`` design effect (Prates' rates, the optimal headline) is, share by share, the scalar
    rule of :func:`~stats_mtbias.uncertainty.analytic.design_effect` (and with samples
    :func:`~stats_mtbias.stats.proportions.sample_design_effect`): over 300 random groups of items — one output each,
    several, averaged samples, rare and absent shares."""
    from stats_mtbias.stats.proportions import sample_design_effect
    from stats_mtbias.uncertainty.analytic import design_effect

    rng = np.random.default_rng(11)
    engine = MetricSet(RATES[:3], GENDERS)
    checked = 0
    for _ in range(300):
        n_items = int(rng.integers(1, 40))
        per = rng.choice([1, 1, 2, 6])
        p = rng.choice([0.0, 0.01, 0.05, 0.3, 0.5])
        cube = np.zeros((n_items, 1, 1, 5))
        female = rng.binomial(per, p, size=n_items).astype(float)
        cube[:, 0, 0, 0], cube[:, 0, 0, 1] = female, per - female
        cube[:, 0, 0, 4] = rng.integers(0, 2, size=n_items)
        if samples:  # items' means over samples: fractional counts
            cube[:, 0, 0, :2] = np.round(cube[:, 0, 0, :2] / rng.choice([1, 2, 3], size=(n_items, 1)), 12)
        estimate = engine.estimate(cube)
        deff, _ = engine.design_effects(cube, estimate, np.zeros(n_items, int), None, samples=samples, worst_case=True)
        rule = sample_design_effect if samples else design_effect
        m = cube[:, 0, 0, :4].sum(axis=1)
        for k, g in enumerate(("female", "male")):
            assert deff[0, 0, k] == pytest.approx(rule(cube[:, 0, 0, k], m), rel=1e-12), (n_items, per, p, g)
            checked += 1
    assert checked == 600


def test_a_paired_gap_difference_spans_two():
    """Two systems all male on 5 items: without neutral outputs the gap is 2·male − 1, so the comparison of gaps is
    twice the comparison of male shares (±1.4756) — it was clipped at ±1 while a difference of two gaps spans ±2."""
    n = 5
    table = pd.DataFrame(
        {
            "system": ["a"] * n + ["b"] * n,
            "cluster": [f"i{i}" for i in range(n)] * 2,
            "stratum": "all",
            "gender": pd.Categorical(["male"] * 2 * n, categories=GENDERS),
            "n": 1,
            "line": np.arange(2 * n) + 2,
        }
    )
    _, comparisons, _ = _shares.analyse(table, interval="score", n_boot=1, rng=0)
    cmp = comparisons.set_index("metric")
    assert cmp.loc["male", "ci_high"] == pytest.approx(0.7378, abs=1e-4)
    assert cmp.loc["gap", "ci_low"] == pytest.approx(2 * cmp.loc["male", "ci_low"], abs=1e-12)
    assert cmp.loc["gap", "ci_high"] == pytest.approx(2 * cmp.loc["male", "ci_high"], abs=1e-12)


def test_a_gap_interval_stays_within_minus_one_and_one():
    """On 4 clusters the gap's cluster-robust Wald interval overruns 1 (θ + z·se ≈ 1.24, by hand below): the bound is
    clipped to 1, the other bound is θ − z·se unchanged. The accuracy gap (the MOVER of its parts) keeps to [−1, 1] too."""
    rows = [{"male": 6}, {"male": 6}, {"male": 5}, {"female": 4, "male": 1}]
    counts = _cube(rows)[..., : len(GENDERS)]
    engine = MetricSet(RATES, GENDERS)
    estimate = engine.estimate(counts)
    low, high, _ = engine.score_bounds(counts, estimate, np.zeros(len(rows), int), None, 0.95)
    n, g = counts[:, 0, 0, :4].sum(axis=1), counts[:, 0, 0, 1] - counts[:, 0, 0, 0]
    theta = g.sum() / n.sum()
    u = (g - theta * n) / n.sum()
    se = np.sqrt(4 / 3 * np.sum((u - u.mean()) ** 2))
    assert theta + Z * se > 1.2
    k = engine.index("gap")
    assert (low[0, 0, k], high[0, 0, k]) == pytest.approx((theta - Z * se, 1.0), abs=1e-12)

    gold = _cube(
        [{"correct:male": 3, "identified:male": 3, "male": 3}] * 3
        + [{"identified:female": 3, "male": 3}] * 2
        + [{"identified:female": 1, "correct:female": 1, "female": 1}]
    )
    engine = MetricSet(RATES, CELLS)
    estimate = engine.estimate(gold)
    low, high, _ = engine.score_bounds(gold, estimate, np.zeros(len(gold), int), None, 0.95)
    k = engine.index("accuracy_gap")
    assert estimate[0, 0, k] == pytest.approx(1 - 1 / 7)
    assert -1 <= low[0, 0, k] < estimate[0, 0, k] < high[0, 0, k] <= 1
