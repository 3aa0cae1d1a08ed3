"""Size of the Prates tests and coverage of their intervals, by simulation.

Datasets are simulated many at once; p-values and intervals of the package's
vectorised functions are computed on all of them. Bands are two-sided
(``_bands``): coverage 0.95 ± 3 Monte-Carlo SEs of 4,000 data sets with each
tail's miss rate in (0.005, 0.045) — a method 2 points off, or a one-sided one,
passes with probability < 0.10 —, up to the exact method's coverage where ten or
fewer events are expected; sizes ± 3 SE (the exact sign test's around its exact size).
"""

import numpy as np
import pandas as pd
import pytest
from scipy import special

from stats_mtbias.significance.effect_sizes import difference_in_proportions, paired_difference_in_proportions
from stats_mtbias.significance.independence import independence_test
from stats_mtbias.significance.paired import paired_test, sign_test_pvalue
from stats_mtbias.uncertainty.analytic import FEW_EVENTS, design_effect, proportion_interval

from . import _bands

ALPHA = 0.05
LEVEL = 0.95
REPS = 4_000  # coverage ± 3 SE and each tail apart: a method 2 points off, or a one-sided one, passes with p < 0.10


def _check_coverage(low, high, truth, label, exact=None):
    """Two-sided coverage and both tails; in a discrete regime (``exact`` given) the upper limit is the exact
    method's coverage + 3 SE, and each tail only has its upper limit (a tail can be empty there by nature)."""
    if exact is None:
        return _bands.check_interval(low, high, truth, LEVEL, label)
    low, high = np.asarray(low, float), np.asarray(high, float)
    below, above = float(np.mean(truth < low)), float(np.mean(truth > high))
    tail = (1 - LEVEL) / 2 * (1 + _bands.TAIL_SLACK)
    _bands.discrete_band(LEVEL, low.size, exact).check(1 - below - above, f"{label} (discrete: exact {exact:.4f})")
    print(f"{label}: misses below {below:.4f}, above {above:.4f} (discrete: each at most {tail:.3f})")
    assert below <= tail and above <= tail, (below, above)
    return {"coverage": 1 - below - above, "below": below, "above": above}


def _items(rng, reps, n_items, per_item, p, concentration=None):
    """Counts (reps, n_items, 3) of female/male/neutral; items' shares Dirichlet around p if clustered."""
    p = np.asarray(p, dtype=float)
    if concentration is None:
        shares = np.broadcast_to(p, (reps, n_items, 3))
    else:
        shares = rng.dirichlet(concentration * p, size=(reps, n_items))
    return rng.multinomial(per_item, shares)


def _sign_test_exact_size(discordant: float, items: int = 80) -> float:
    """Exact size of the two-sided sign test at the null: K ~ Bin(items, discordant), positives ~ Bin(K, 1/2).

    The two-sided p-value is doubled from the smaller tail (no package code), so the simulated size below is
    compared with the size the exact test has, not with 0.05 (a discrete test: its size is below alpha).
    """
    from scipy import stats

    size = 0.0
    for k in range(items + 1):
        x = np.arange(k + 1)
        p = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(x, k - x), k, 0.5))
        size += stats.binom.pmf(k, items, discordant) * (stats.binom.pmf(x, k, 0.5) @ (p <= ALPHA))
    return float(size)


def _discordant_share(per_item: int, concentration: float | None, p=(0.3, 0.3, 0.4)) -> float:
    """P(an item's male and female counts differ): multinomial, or Dirichlet-multinomial if clustered, enumerated."""
    from scipy import stats

    cells = [(f, m, per_item - f - m) for f in range(per_item + 1) for m in range(per_item + 1 - f)]
    if concentration is None:
        pmf = [stats.multinomial.pmf(c, per_item, p) for c in cells]
    else:
        pmf = [stats.dirichlet_multinomial.pmf(c, concentration * np.asarray(p), per_item) for c in cells]
    return float(sum(q for q, (f, m, _) in zip(pmf, cells, strict=True) if f != m))


@pytest.mark.parametrize("per_item, concentration", [(1, None), (6, 2.0)])
def test_sign_test_size_under_the_null(per_item, concentration):
    """The sign test's simulated size is its exact size ± 3 SE (20,000 reps), and that exact size is in [0.03, 0.05]."""
    # H0: male and female equally likely (0.3 each, neutral 0.4); 80 items; one output
    # per item, or six correlated outputs (Bengali-like) summed per item.
    rng = np.random.default_rng(11)
    reps = 20_000
    counts = _items(rng, reps, 80, per_item, [0.3, 0.3, 0.4], concentration)
    d = counts[..., 1] - counts[..., 0]
    p = sign_test_pvalue((d > 0).sum(-1), (d < 0).sum(-1))
    size = float(np.mean(p <= ALPHA))
    # A discrete (exact) test: the band is around its exact size (0.037 and 0.039 here), not 0.05 — the usual
    # size band [0.0454, 0.0546] does not apply to a test whose attainable sizes are below alpha.
    exact = _sign_test_exact_size(_discordant_share(per_item, concentration))
    assert 0.03 <= exact <= ALPHA  # exact but not needlessly conservative at 80 items
    _bands.band(exact, reps, label="size").check(size, f"sign test size, {per_item} per item (exact size {exact:.4f})")


def test_authors_t_test_size_under_the_null():
    """The authors' paired t test rejects 5% ± 3 SE of 3,000 null data sets (a test that never rejects fails)."""
    rng = np.random.default_rng(12)
    reps = 3_000
    counts = _items(rng, reps, 80, 1, [0.3, 0.3, 0.4])
    p = np.array([paired_test(c[:, 1], c[:, 0], method="ttest").pvalue for c in counts])
    _bands.size_band(ALPHA, reps).check(float(np.mean(p <= ALPHA)), "authors' paired t test at the null")


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
    """Wilson (Poisson ends) coverage of 300 outputs ± 3 SE with both tails; few events: up to Clopper–Pearson's."""
    rng = np.random.default_rng(14)
    n = 300
    x = rng.binomial(n, p, size=REPS)
    ci = proportion_interval(x, n)
    exact = _bands.clopper_pearson_coverage(n, p) if n * p <= FEW_EVENTS else None  # 0.9 and 6 events expected
    _check_coverage(ci.low, ci.high, p, f"Wilson p={p}, n={n}", exact)


def test_design_effect_restores_coverage_with_clustered_outputs():
    """150 items x 6 correlated outputs: the design-effect Wilson interval covers 0.95 ± 3 SE with both tails."""
    rng = np.random.default_rng(15)
    reps, n_items, m, p = REPS, 150, 6, 0.2
    item_p = rng.beta(2 * p, 2 * (1 - p), size=(reps, n_items))
    x = rng.binomial(m, item_p)
    trials = np.full(n_items, m)
    deff = np.array([design_effect(row, trials) for row in x])
    total = x.sum(axis=1)
    naive = proportion_interval(total, n_items * m)
    adjusted = proportion_interval(total, n_items * m, deff=deff)
    # Not a coverage claim: only shows that plain Wilson, ignoring the clustering, undercovers (one-sided).
    assert np.mean((naive.low <= p) & (p <= naive.high)) < 0.85
    _check_coverage(adjusted.low, adjusted.high, p, "Wilson with the design effect, 150 x 6 clustered")


def _exact_mover_cp_coverage(p1: float, p2: float, n1: int, n2: int) -> float:
    """Coverage of p1 − p2 by the exact method's analogue, every (x1, x2) enumerated: the two Clopper–Pearson
    intervals combined by square-and-add (MOVER), as Newcombe's interval combines the two Wilson ones."""
    from scipy import stats

    k1, k2 = np.arange(n1 + 1), np.arange(n2 + 1)
    out = []
    for n, k, q in ((n1, k1, p1), (n2, k2, p2)):
        with np.errstate(invalid="ignore"):
            low = np.where(k > 0, stats.beta.ppf(0.025, k, n - k + 1), 0.0)
            high = np.where(k < n, stats.beta.ppf(0.975, k + 1, n - k), 1.0)
        out.append((k / n, low, high, stats.binom.pmf(k, n, q)))
    (e1, l1, h1, w1), (e2, l2, h2, w2) = out
    e1, l1, h1, e2, l2, h2 = e1[:, None], l1[:, None], h1[:, None], e2[None], l2[None], h2[None]
    low = (e1 - e2) - np.sqrt((e1 - l1) ** 2 + (h2 - e2) ** 2)
    high = (e1 - e2) + np.sqrt((h1 - e1) ** 2 + (e2 - l2) ** 2)
    return float(w1 @ ((low <= p1 - p2) & (p1 - p2 <= high)) @ w2)


@pytest.mark.parametrize("p1, p2, n1, n2", [(0.05, 0.15, 60, 80), (0.5, 0.45, 40, 40), (0.01, 0.02, 200, 200)])
def test_newcombe_coverage_independent(p1, p2, n1, n2):
    """Newcombe's hybrid score interval covers p1 − p2 at 0.95 ± 3 SE with both tails (few events: up to exact)."""
    rng = np.random.default_rng(16)
    x1, x2 = rng.binomial(n1, p1, REPS), rng.binomial(n2, p2, REPS)
    ci = difference_in_proportions(x1, n1, x2, n2)
    few = min(n1 * p1, n2 * p2) <= FEW_EVENTS  # 2 and 4 events expected at (0.01, 0.02): a discrete regime
    exact = _exact_mover_cp_coverage(p1, p2, n1, n2) if few else None
    _check_coverage(ci.low, ci.high, p1 - p2, f"Newcombe independent {p1} − {p2} (n {n1}, {n2})", exact)


@pytest.mark.parametrize("probs, n", [((0.6, 0.1, 0.3), 50), ((0.3, 0.3, 0.4), 120), ((0.9, 0.02, 0.08), 100)])
def test_newcombe_coverage_paired(probs, n):
    """Newcombe's paired interval (exclusive outcomes: male vs female pronoun of one output): 0.95 ± 3 SE, both tails."""
    rng = np.random.default_rng(16)
    counts = rng.multinomial(n, probs, size=REPS)
    ci = paired_difference_in_proportions(0, counts[:, 0], counts[:, 1], counts[:, 2])
    _check_coverage(ci.low, ci.high, probs[0] - probs[1], f"Newcombe paired {probs[0]} − {probs[1]} (n {n})")


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
