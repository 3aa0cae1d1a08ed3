"""Size of the Prates tests and coverage of their intervals, by simulation.

Datasets are simulated many at once; p-values and intervals of the package's
vectorised functions are computed on all of them. Tolerances follow the
Monte Carlo error of the number of replicates (e.g. 20,000 replicates give a
standard error of 0.0015 on a size of 0.05).
"""

import numpy as np
import pandas as pd
import pytest
from scipy import special

from stats_mtbias.significance.effect_sizes import difference_in_proportions, paired_difference_in_proportions
from stats_mtbias.significance.independence import independence_test
from stats_mtbias.significance.paired import paired_test, sign_test_pvalue
from stats_mtbias.uncertainty.analytic import design_effect, proportion_interval

ALPHA = 0.05


def _items(rng, reps, n_items, per_item, p, concentration=None):
    """Counts (reps, n_items, 3) of female/male/neutral; items' shares Dirichlet around p if clustered."""
    p = np.asarray(p, dtype=float)
    if concentration is None:
        shares = np.broadcast_to(p, (reps, n_items, 3))
    else:
        shares = rng.dirichlet(concentration * p, size=(reps, n_items))
    return rng.multinomial(per_item, shares)


@pytest.mark.parametrize("per_item, concentration", [(1, None), (6, 2.0)])
def test_sign_test_size_under_the_null(per_item, concentration):
    # H0: male and female equally likely (0.3 each, neutral 0.4); 80 items; one output
    # per item, or six correlated outputs (Bengali-like) summed per item.
    rng = np.random.default_rng(11)
    counts = _items(rng, 20_000, 80, per_item, [0.3, 0.3, 0.4], concentration)
    d = counts[..., 1] - counts[..., 0]
    p = sign_test_pvalue((d > 0).sum(-1), (d < 0).sum(-1))
    size = np.mean(p <= ALPHA)
    assert size <= ALPHA + 0.01
    assert size >= 0.03  # exact but not needlessly conservative at 80 items


def test_authors_t_test_size_under_the_null():
    rng = np.random.default_rng(12)
    counts = _items(rng, 3_000, 80, 1, [0.3, 0.3, 0.4])
    p = np.array([paired_test(c[:, 1], c[:, 0], method="ttest").pvalue for c in counts])
    assert np.mean(p <= ALPHA) <= ALPHA + 0.01


def test_sign_test_power_matches_its_exact_value():
    # 80 items with P(female, male, neutral) = (.2, .4, .4): the number of discordant items
    # K ~ Bin(80, .6), and given K the male-only count ~ Bin(K, 2/3).
    from scipy import stats

    rng = np.random.default_rng(13)
    counts = _items(rng, 20_000, 80, 1, [0.2, 0.4, 0.4])
    d = counts[..., 1] - counts[..., 0]
    simulated = np.mean(sign_test_pvalue((d > 0).sum(-1), (d < 0).sum(-1)) <= ALPHA)
    k = np.arange(81)
    # Smallest count c with P(Bin(k, 1/2) >= c) <= alpha, per k.
    c = np.array([np.argmax(stats.binom.sf(np.arange(kk + 2) - 1, kk, 0.5) <= ALPHA) if kk else 1 for kk in k])
    c = np.where([stats.binom.sf(ci - 1, kk, 0.5) <= ALPHA for ci, kk in zip(c, k)], c, k + 1)
    exact = np.sum(stats.binom.pmf(k, 80, 0.6) * stats.binom.sf(c - 1, k, 2 / 3))
    assert simulated == pytest.approx(exact, abs=0.01)
    assert exact > 0.6


@pytest.mark.parametrize("p", [0.003, 0.02, 0.1, 0.4])
def test_wilson_coverage_with_one_output_per_item(p):
    rng = np.random.default_rng(14)
    n = 300
    x = rng.binomial(n, p, size=40_000)
    ci = proportion_interval(x, n)
    assert np.mean((ci.low <= p) & (p <= ci.high)) >= 0.93


def test_design_effect_restores_coverage_with_clustered_outputs():
    # 150 items x 6 correlated outputs (Bengali-like): plain Wilson undercovers, the design effect fixes it.
    rng = np.random.default_rng(15)
    reps, n_items, m, p = 4_000, 150, 6, 0.2
    item_p = rng.beta(2 * p, 2 * (1 - p), size=(reps, n_items))
    x = rng.binomial(m, item_p)
    trials = np.full(n_items, m)
    deff = np.array([design_effect(row, trials) for row in x])
    total = x.sum(axis=1)
    naive = proportion_interval(total, n_items * m)
    adjusted = proportion_interval(total, n_items * m, deff=deff)
    cover = lambda ci: np.mean((ci.low <= p) & (p <= ci.high))  # noqa: E731
    assert cover(naive) < 0.85
    assert 0.93 <= cover(adjusted) <= 0.97


def test_newcombe_coverage_independent_and_paired():
    rng = np.random.default_rng(16)
    reps = 40_000
    for p1, p2, n1, n2 in [(0.05, 0.15, 60, 80), (0.5, 0.45, 40, 40), (0.01, 0.02, 200, 200)]:
        x1, x2 = rng.binomial(n1, p1, reps), rng.binomial(n2, p2, reps)
        ci = difference_in_proportions(x1, n1, x2, n2)
        assert np.mean((ci.low <= p1 - p2) & (p1 - p2 <= ci.high)) >= 0.93
    # Paired, exclusive outcomes (male vs female pronoun of the same output).
    for probs, n in [((0.6, 0.1, 0.3), 50), ((0.3, 0.3, 0.4), 120), ((0.9, 0.02, 0.08), 100)]:
        counts = rng.multinomial(n, probs, size=reps)
        ci = paired_difference_in_proportions(0, counts[:, 0], counts[:, 1], counts[:, 2])
        truth = probs[0] - probs[1]
        assert np.mean((ci.low <= truth) & (truth <= ci.high)) >= 0.93


def test_independence_tests_size():
    rng = np.random.default_rng(17)
    rows, cols = np.array([0.5, 0.3, 0.2]), np.array([0.25, 0.6, 0.15])
    tables = rng.multinomial(300, np.outer(rows, cols).ravel(), size=4_000).reshape(-1, 3, 3)
    for method in ("chi2", "g"):
        p = np.array([independence_test(t, method=method).pvalue for t in tables])
        assert np.mean(p <= ALPHA) <= ALPHA + 0.01
    # Sparse tables: the Monte Carlo exact test keeps its size.
    sparse = rng.multinomial(15, np.outer(rows, cols).ravel(), size=1_500).reshape(-1, 3, 3)
    gen = np.random.default_rng(18)
    p = []
    for t in sparse:
        if min((t.sum(0) > 0).sum(), (t.sum(1) > 0).sum()) < 2:
            continue
        p.append(independence_test(t, method="exact", rng=gen, n_resamples=199).pvalue)
    assert np.mean(np.array(p) <= ALPHA) <= ALPHA + 0.01


def test_calibration_slope_interval_coverage():
    """Cluster-robust intervals of the calibration GLM cover the true slope (22 categories)."""
    import warnings

    from stats_mtbias.studies.prates import calibration

    rng = np.random.default_rng(19)
    n_cat, per_cat, slope, intercept = 22, 25, 0.6, -1.2
    categories = np.repeat(np.arange(n_cat), per_cat)
    n_occ = categories.size
    covered = []
    for _ in range(150):
        ref = special.expit(rng.normal(0, 1.5, n_occ) + rng.normal(0, 1.0, n_cat)[categories])
        eta = intercept + slope * special.logit(np.clip(ref, 0.005, 0.995)) + rng.normal(0, 0.5, n_cat)[categories]
        female = rng.binomial(1, special.expit(eta))
        judgements = pd.DataFrame(
            {
                "system": "sim",
                "item": [f"job:{i}" for i in range(n_occ)],
                "occupation": [f"occ{i}" for i in range(n_occ)],
                "category": [f"cat{c}" for c in categories],
                "language": "Sim",
                "gender": np.where(female == 1, "female", "male"),
            }
        )
        bls = pd.DataFrame(
            {
                "occupation": judgements["occupation"],
                "category": judgements["category"],
                "female_share": ref,
                "category_female_share": 0.5,
                "line": np.arange(n_occ) + 2,
            }
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            row = calibration(judgements, bls).iloc[0]
        covered.append(row["slope_ci_low"] <= slope <= row["slope_ci_high"])
    assert np.mean(covered) >= 0.88
