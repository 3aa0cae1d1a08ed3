import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from stats_mtbias.errors import UsageError
from stats_mtbias.significance.multitest import adjust_pvalues
from stats_mtbias.uncertainty.analytic import (
    clopper_pearson_interval,
    jeffreys_interval,
    p_s_interval,
    wilson_interval,
)
from stats_mtbias.uncertainty.bootstrap import (
    bootstrap_pvalue,
    cluster_bootstrap,
    paired_permutation,
    resample_weights,
    weighted_sums,
)


def test_weights_keep_stratum_sizes_and_are_seeded():
    strata = np.array([0] * 7 + [1] * 3 + [2] * 5)
    for method in ("index", "multinomial"):
        w = resample_weights(500, strata=strata, rng=3, method=method)
        assert w.shape == (500, 15)
        assert (w[:, :7].sum(1) == 7).all() and (w[:, 7:10].sum(1) == 3).all() and (w[:, 10:].sum(1) == 5).all()
        assert np.array_equal(w, resample_weights(500, strata=strata, rng=3, method=method))
        assert not np.array_equal(w, resample_weights(500, strata=strata, rng=4, method=method))


@pytest.mark.parametrize("method", ["index", "multinomial"])
def test_every_cluster_is_drawn_binomially_within_its_stratum(method):
    """Each cluster's weight is Binomial(n_h, 1/n_h): mean 1, variance 1 − 1/n_h, its own pmf (every cluster, both paths).

    (The mean over all weights is 1 by construction; only each cluster's own distribution shows a cluster that is
    never drawn, e.g. an off-by-one that skips the last cluster of a stratum.)
    """
    # Shuffled strata (the gather path), one stratum contiguous (the offset path), a stratum of two.
    strata = np.concatenate([np.random.default_rng(0).permutation([0] * 7 + [1] * 3 + [2] * 5), [3] * 6, [4] * 2])
    reps = 20_000
    w = resample_weights(reps, strata=strata, rng=7, method=method)
    sizes = np.array([np.sum(strata == s) for s in strata])
    mean = w.mean(axis=0)
    var = w.var(axis=0)
    se = np.sqrt((1 - 1 / sizes) / reps)
    assert np.all(np.abs(mean - 1) < 5 * se), mean
    assert np.all(np.abs(var - (1 - 1 / sizes)) < 0.06), var
    for j in (0, 9, 14, len(strata) - 1):  # a cluster's weights against the binomial pmf (chi-square)
        n_h = sizes[j]
        observed = np.bincount(w[:, j], minlength=n_h + 1)[: n_h + 1]
        expected = stats.binom.pmf(np.arange(n_h + 1), n_h, 1 / n_h) * reps
        keep = expected > 5
        chi2 = np.sum((observed[keep] - expected[keep]) ** 2 / expected[keep])
        assert stats.chi2.sf(chi2, keep.sum() - 1) > 1e-4, (j, observed, expected.round())


def test_cluster_bootstrap_draws_every_cluster_of_every_stratum():
    """The fused path of cluster_bootstrap (blocks multiplied as drawn), not resample_weights: data = identity."""
    strata = np.array(["a"] * 5 + ["b"] * 3 + ["a"] * 2)
    eye = np.eye(len(strata))
    res = cluster_bootstrap(eye, lambda t: t, n_boot=20_000, rng=3, strata=strata)
    sizes = np.where(strata == "a", 7, 3)
    assert np.all(np.abs(res.replicates.mean(axis=0) - 1) < 5 * np.sqrt((1 - 1 / sizes) / 20_000))
    assert np.all(res.replicates[:, strata == "a"].sum(axis=1) == 7)
    freq = cluster_bootstrap(np.eye(3), lambda t: t, frequency=np.array([2, 1, 1]), n_boot=20_000, rng=4)
    # Four clusters, rows standing for 2, 1, 1 of them: each row's weight has mean frequency, variance f (1 − f/4) (4/4).
    np.testing.assert_allclose(freq.replicates.mean(axis=0), [2, 1, 1], atol=0.05)
    np.testing.assert_allclose(freq.replicates.var(axis=0), [2 * (1 - 2 / 4), 1 - 1 / 4, 1 - 1 / 4], atol=0.05)


def test_weights_are_the_same_in_every_dtype_and_across_blocks():
    # 700 replicates span several counting blocks; a shuffled (non-contiguous) stratum takes the gather path.
    strata = np.random.default_rng(0).permutation(np.array([0] * 40 + [1] * 9 + [2] * 30))
    ints = resample_weights(700, strata=strata, rng=5)
    floats = resample_weights(700, strata=strata, rng=5, dtype=np.float32)
    assert floats.dtype == np.float32 and np.array_equal(ints, floats)
    for label, size in ((0, 40), (1, 9), (2, 30)):
        assert (ints[:, strata == label].sum(axis=1) == size).all()
    # Rows from different blocks are not copies of each other.
    assert not np.array_equal(ints[:256], ints[256:512])
    data = np.random.default_rng(1).integers(0, 5, size=(79, 3)).astype(float)
    assert np.array_equal(weighted_sums(floats, data, integer_weights=True), ints.astype(float) @ data)


def test_randomness_must_be_explicit():
    with pytest.raises(UsageError, match="`rng`"):
        resample_weights(10, 5, rng=None)


def test_bootstrap_of_mean_matches_scipy():
    x = np.random.default_rng(0).exponential(size=60)
    data = np.stack([x, np.ones_like(x)], axis=1)  # sufficient statistics: sum, count

    def mean(totals):
        return totals[..., 0] / totals[..., 1]

    ours = cluster_bootstrap(data, mean, n_boot=20_000, rng=1, method="bca")
    theirs = stats.bootstrap((x,), np.mean, n_resamples=20_000, rng=1, method="BCa")
    assert ours.estimate == pytest.approx(x.mean())
    ci = ours.confidence_interval()
    assert ci.low == pytest.approx(theirs.confidence_interval.low, abs=0.02)
    assert ci.high == pytest.approx(theirs.confidence_interval.high, abs=0.02)
    assert ours.standard_error == pytest.approx(theirs.standard_error, rel=0.03)
    pct = ours.confidence_interval(method="percentile")
    assert pct.low == pytest.approx(np.quantile(ours.replicates, 0.025))


def test_bootstrap_pvalue_hand_computed():
    d = np.array([-1.0, 0.5, 1.0, 2.0, 3.0])  # 1 of 5 at or below 0
    assert bootstrap_pvalue(d) == pytest.approx(2 * (1 + 1) / 6)
    assert bootstrap_pvalue(-d) == pytest.approx(2 * (1 + 1) / 6)
    assert bootstrap_pvalue(np.zeros(9)) == 1.0


def test_permutation_detects_a_real_difference_and_not_an_identical_one():
    rng = np.random.default_rng(5)
    a = np.zeros((200, 5))
    a[np.arange(200), rng.choice(2, 200, p=[0.5, 0.5])] = 1
    b = np.zeros((200, 5))
    b[:, 1] = 1  # all male: P_S = 0
    from stats_mtbias.estimators.tgbi import p_s

    diff, p = paired_permutation(a, b, p_s, n_perm=2000, rng=1)
    assert diff == pytest.approx(float(p_s(a.sum(0))))
    assert p < 0.001
    _, p_same = paired_permutation(a, a, p_s, n_perm=500, rng=1)
    assert p_same == 1.0


def test_bootstrap_blocks_equal_the_weight_matrix():
    # cluster_bootstrap multiplies each block of weights as it is drawn, clusters laid out by stratum:
    # the same replicates as the whole weight matrix of resample_weights, with interleaved strata.
    gen = np.random.default_rng(2)
    strata = gen.choice(["pro:f", "pro:m", "anti:f", "anti:m"], size=301)
    counts = gen.integers(0, 3, size=(301, 2, 3)).astype(float)
    for data in (counts, counts * 0.37):  # integer counts (float32 products) and any real data

        def total(t):
            return t.reshape(len(t), -1)

        fused = cluster_bootstrap(data, total, n_boot=700, rng=11, strata=strata).replicates
        matrix = total(weighted_sums(resample_weights(700, strata=strata, rng=11), data))
        np.testing.assert_allclose(fused, matrix, rtol=1e-13, atol=0)
        if data is counts:
            assert np.array_equal(fused, matrix)


def test_permutation_p_value_matches_exact_enumeration():
    # Twelve discordant clusters among 400: all 2**12 swaps enumerated give the exact p-value.
    gen = np.random.default_rng(8)
    a = np.zeros((400, 2))
    a[np.arange(400), gen.integers(0, 2, 400)] = 1
    b = a.copy()
    flip = gen.choice(400, 12, replace=False)
    b[flip] = 1 - b[flip]

    def share(t):
        return t[..., 0] / t.sum(axis=-1)

    observed = share(a.sum(0)) - share(b.sum(0))
    change = (b - a)[flip]
    signs = (np.arange(2**12)[:, None] >> np.arange(12)) & 1
    moved = signs @ change
    exact_d = share(a.sum(0) + moved) - share(b.sum(0) - moved)
    exact = np.mean(np.abs(exact_d) >= abs(observed) - 1e-12)
    d, p = paired_permutation(a, b, share, n_perm=40_000, rng=3)
    assert d == pytest.approx(observed)
    assert abs(p - exact) < 4 * np.sqrt(exact * (1 - exact) / 40_000) + 1 / 40_000
    # Identical clusters are never drawn: adding 600 more changes nothing, to the last bit.
    same = gen.integers(0, 2, (600, 2)).astype(float)
    _, p_more = paired_permutation(np.vstack([a, same]), np.vstack([b, same]), share, n_perm=40_000, rng=3)
    assert p_more == p


@pytest.mark.parametrize("k", [0, 1, 17, 99, 100])
def test_proportion_intervals_match_statsmodels(k):
    for ours, name in ((wilson_interval, "wilson"), (jeffreys_interval, "jeffreys"), (clopper_pearson_interval, "beta")):
        ci = ours(k, 100, 0.9)
        low, high = proportion_confint(k, 100, alpha=0.1, method=name)
        if name == "jeffreys":
            # Brown, Cai & DasGupta (2001): the Jeffreys ends are 0 at k = 0 and 1 at k = n.
            low, high = (0.0 if k == 0 else low), (1.0 if k == 100 else high)
        assert float(ci.low) == pytest.approx(low, abs=1e-9)
        assert float(ci.high) == pytest.approx(high, abs=1e-9)


def test_proportion_interval_at_zero_is_not_degenerate():
    ci = wilson_interval(0, 496)
    assert ci.low == 0.0 and 0.005 < ci.high < 0.01


def test_p_s_interval_inside_unit_interval_even_when_degenerate():
    for counts in ([0, 496, 0, 0, 0], [0, 0, 496, 0, 0], [248, 248, 0, 0, 0], [1, 495, 0, 0, 0]):
        one_hot = np.zeros((496, 5))
        labels = np.repeat(np.arange(5), counts)
        one_hot[np.arange(496), labels] = 1
        ci = p_s_interval(one_hot)
        assert 0.0 <= ci.low < ci.high <= 1.0


def test_holm_and_bh_hand_computed():
    p = np.array([0.01, 0.04, 0.03, np.nan])
    # Holm: 0.01*3 = 0.03; 0.03*2 = 0.06; max(0.04*1, 0.06) = 0.06
    assert np.allclose(adjust_pvalues(p, "holm")[:3], [0.03, 0.06, 0.06])
    # BH: 0.04*3/3 = 0.04; 0.03*3/2 = 0.045 -> min(0.045, 0.04) = 0.04; 0.01*3 = 0.03
    assert np.allclose(adjust_pvalues(p, "bh")[:3], [0.03, 0.04, 0.04])
    assert np.isnan(adjust_pvalues(p, "holm")[3])
