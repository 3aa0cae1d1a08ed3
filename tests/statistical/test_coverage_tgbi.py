"""Coverage of the P_S intervals and size of the paired tests, by simulation.

Many datasets are simulated at once as an extra axis of one count array, so a
whole simulation is a few matrix products. Seeds are fixed: the figures below
are what these seeds give, and the bounds are what a sound 95% interval must
meet with 2,000 datasets (Monte Carlo SE ≈ 0.005).
"""

import numpy as np
import pytest

from stats_mtbias.estimators.tgbi import p_s
from stats_mtbias.uncertainty.analytic import p_s_interval, paired_difference_analytic
from stats_mtbias.uncertainty.bootstrap import bootstrap_pvalue, cluster_bootstrap, paired_permutation

from ._sim import clustered_sentences, iid_sentences, one_hot, true_p_s

M = 2000
REGULAR = [
    (0.02, 0.97, 0.01),  # near 0: P_S = 0.17
    (0.1, 0.89, 0.01),
    (0.3, 0.5, 0.2),
    (0.45, 0.45, 0.1),
    (0.01, 0.01, 0.98),  # near 1: P_S = 0.99
]


def coverage(ci, truth):
    return float(np.mean((ci.low <= truth) & (truth <= ci.high)))


@pytest.mark.parametrize("n", [496, 2118])
@pytest.mark.parametrize("p", REGULAR)
def test_coverage_iid(p, n):
    data = iid_sentences(p, n, M, np.random.default_rng(1))
    truth = true_p_s(p)
    analytic = coverage(p_s_interval(data), truth)
    boot = cluster_bootstrap(data, p_s, n_boot=1000, rng=2, method="bca")
    percentile = coverage(boot.confidence_interval(method="percentile"), truth)
    bca = coverage(boot.confidence_interval(method="bca"), truth)
    for name, value in (("analytic", analytic), ("percentile", percentile), ("bca", bca)):
        assert 0.93 <= value <= 0.97, f"{name} coverage {value} at p={p}, n={n}"


def test_coverage_at_the_boundary_small_set():
    # 496 sentences with 1 female and 2.5 neutral expected: the regime where the
    # percentile bootstrap and the delta method lose a little; BCa holds.
    p, n = (0.002, 0.993, 0.005), 496
    data = iid_sentences(p, n, M, np.random.default_rng(1))
    truth = true_p_s(p)
    boot = cluster_bootstrap(data, p_s, n_boot=1000, rng=2, method="bca")
    assert coverage(p_s_interval(data), truth) >= 0.92
    assert coverage(boot.confidence_interval(method="bca"), truth) >= 0.94
    assert coverage(boot.confidence_interval(method="percentile"), truth) >= 0.85


@pytest.mark.parametrize("p", [(0.1, 0.89, 0.01), (0.3, 0.5, 0.2)])
def test_coverage_clustered_items_and_the_design_effect(p):
    # 124 items x 4 correlated sentences (the size of TGBI's positive set).
    counts, labels = clustered_sentences(p, 124, 4, M, np.random.default_rng(3))
    truth = true_p_s(p)
    assert coverage(p_s_interval(counts), truth) >= 0.93
    boot = cluster_bootstrap(counts, p_s, n_boot=1000, rng=2)
    assert coverage(boot.confidence_interval(), truth) >= 0.92
    # Treating the 496 sentences as independent ignores the clustering and undercovers.
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
    alpha = 0.05
    a, b = _null_pairs(p, 200, M, np.random.default_rng(7))
    data = np.stack([a, b], axis=2)  # (items, m, 2, 5)
    boot = cluster_bootstrap(data, p_s, n_boot=1000, rng=8)
    p_boot = bootstrap_pvalue(boot.replicates[..., 0] - boot.replicates[..., 1])
    _, p_perm = paired_permutation(a, b, p_s, n_perm=1000, rng=9)
    _, p_delta = paired_difference_analytic(a[:, :, None], b[:, :, None])
    for name, pv in (("bootstrap", p_boot), ("permutation", p_perm), ("analytic", p_delta.ravel())):
        size = float(np.mean(pv <= alpha))
        assert size <= alpha + 0.01, f"{name} size {size}"
        assert size >= alpha - 0.02, f"{name} size {size} (too conservative to be useful)"


def test_paired_tests_have_power_against_a_real_difference():
    a, _ = _null_pairs((0.1, 0.89, 0.01), 200, 400, np.random.default_rng(11))
    b, _ = _null_pairs((0.2, 0.79, 0.01), 200, 400, np.random.default_rng(12))
    _, p_perm = paired_permutation(a, b, p_s, n_perm=500, rng=1)
    assert np.mean(p_perm <= 0.05) > 0.9
