"""Allocation of clusters over strata and the simulation's argument checks, by hand and by invariants (mutation kills)."""

import numpy as np
import pytest

from stats_mtbias.errors import UsageError
from stats_mtbias.planning import simulate as sim


@pytest.mark.parametrize(
    ("n", "sizes", "expected"),
    [
        (10, [50, 30, 20], [5, 3, 2]),  # exact shares
        (10, [14, 33, 53], [2, 3, 5]),  # shares 1.4, 3.3, 5.3: the one left over goes to the largest remainder (0.4)
        (10, [1, 1, 1], [4, 3, 3]),  # equal remainders: the earlier stratum first
        (11, [1, 1, 1], [4, 4, 3]),
        (4, [1, 1, 1], [2, 1, 1]),
        (3, [1, 1, 1], [1, 1, 1]),  # exactly one per stratum is allowed
        (5, [100, 1, 1], [3, 1, 1]),  # the minimum of one per stratum comes out of the large one
        (6, [50, 30, 1, 1, 1], [2, 1, 1, 1, 1]),  # 3 left for shares 50:30 → 1.875, 1.125 → 2, 1
        (9, [50, 30, 1, 1, 1], [4, 2, 1, 1, 1]),  # 6 left for 50:30 → 3.75, 2.25 → 4, 2
    ],
)
def test_allocate_by_hand(n, sizes, expected):
    """Largest remainders with at least one cluster per stratum, worked by hand."""
    assert sim.allocate(n, sizes).tolist() == expected


def test_allocate_ties_go_to_the_earlier_strata_even_with_many_strata():
    """60 clusters over 40 equal strata: 1.5 each, the 20 extra go to the first 20 strata (stable order)."""
    assert sim.allocate(60, [1] * 40).tolist() == [2] * 20 + [1] * 20
    sizes = [3, 3, 3, 1] * 10  # shares 1.8 (×30) and 0.6 (×10): floor 1, the ten extra to the first ten big strata
    big = [i for i, s in enumerate(sizes) if s == 3]
    expected = [1] * 40
    for i in big[:10]:
        expected[i] = 2
    assert sim.allocate(50, sizes).tolist() == expected


def test_allocate_respects_the_quota_when_every_share_is_at_least_one():
    """Hamilton's quota: each stratum gets ⌊share⌋ or ⌈share⌉, and the total is n (random designs)."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        k = int(rng.integers(1, 30))
        sizes = rng.integers(1, 50, size=k).astype(float)
        lo = int(np.ceil(sizes.sum() / sizes.min()))  # every share at least one
        n = int(rng.integers(lo, lo + 500))
        share = sizes / sizes.sum() * n
        alloc = sim.allocate(n, sizes)
        assert alloc.sum() == n
        assert np.all(alloc >= np.floor(share)) and np.all(alloc <= np.ceil(share))
        # largest remainders: no stratum rounded down has a larger remainder than one rounded up
        up = alloc > np.floor(share)
        rem = share - np.floor(share)
        if up.any() and (~up).any():
            assert rem[up].min() >= rem[~up].max()


def test_allocate_with_tiny_strata_keeps_one_each_and_the_total():
    """Strata whose share is below one still get one cluster, and the total is n (random designs)."""
    rng = np.random.default_rng(4)
    for _ in range(200):
        k = int(rng.integers(2, 12))
        sizes = np.concatenate([rng.integers(1, 3, size=k - 1), [int(rng.integers(50, 500))]]).astype(float)
        n = int(rng.integers(k, 3 * k + 5))
        alloc = sim.allocate(n, sizes)
        assert alloc.sum() == n and alloc.min() >= 1
        assert alloc.dtype.kind == "i"
        # the big stratum takes everything beyond one per small stratum, up to its rounded share
        assert alloc[-1] <= max(1, int(np.ceil(sizes[-1] / sizes.sum() * n)))


def test_allocate_refuses_fewer_clusters_than_strata():
    """n below the number of strata cannot give one cluster each."""
    with pytest.raises(UsageError):
        sim.allocate(2, [1, 1, 1])


def _mean_statistic(totals):
    # Totals (r, 2, 2) of [sum of values, clusters] per system → the mean value per system, shape (r, 2, 1).
    return totals[..., :1] / totals[..., 1:]


def _design(a, b=None):
    """Clusters with value a_i (system a) and b_i (system b) in one stratum; the metric is the mean value."""
    a = np.asarray(a, float)
    b = a.copy() if b is None else np.asarray(b, float)
    ones = np.ones_like(a)
    counts = np.stack([np.stack([a, ones], axis=1), np.stack([b, ones], axis=1)], axis=1)  # (n, 2, 2)
    return sim.PairedDesign(counts, _mean_statistic, (0,), np.zeros(len(a), int))


def test_simulate_refuses_fewer_bootstrap_resamples_than_two_over_alpha():
    """The bootstrap test needs n_boot >= ⌈2/α⌉ (40 at α = 0.05, 10 at α = 0.2)."""
    design = _design([1, 0, 0, 1, 0] * 4, [0] * 20)
    with pytest.raises(UsageError):
        sim.simulate(design, 20, n_sim=10, rng=0, n_boot=10)
    with pytest.raises(UsageError):
        sim.simulate(design, 20, n_sim=10, rng=0, n_boot=39)
    assert sim.simulate(design, 20, n_sim=10, rng=0, n_boot=40).replicates.shape == (40, 10)
    assert sim.simulate(design, 20, n_sim=10, rng=0, n_boot=10, alpha=0.2).replicates.shape == (10, 10)


def test_two_sided_mde_takes_the_weaker_direction():
    """Wald, se = 1: half the evaluations at 0 and half at −3 reject for +δ only beyond 3 + z, so the MDE is 3 + 1.96."""
    design = _design([0.0, 1.0])  # a == b: the pilot's difference is 0, so the power at δ tests estimates + δ
    est = np.r_[np.zeros(50), np.full(50, -3.0)]
    simulation = sim.Simulation(design, 10, est, np.ones(100), None, "wald", 0.05, "two-sided")
    # −δ: 0 − δ and −3 − δ both reject once δ > 1.96; +δ: δ − 3 needs δ > 3 + 1.96. The minimum is the +δ side.
    assert simulation.mde(0.8) == pytest.approx(3.0 + 1.959964, abs=0.05)


@pytest.mark.parametrize("difference", [0.1, 0.15, 0.2, 0.3, 0.4])
def test_sample_size_refuses_a_power_that_does_not_grow_with_n(difference):
    """A 'less' test at a positive difference has power 0 at every n: a usage error whatever the round-off slope."""
    # Bug fixed: a flat power curve fits a slope of ±1e-16; a positive one passed the check and gave an OverflowError.
    design = _design([1, 0, 0, 1, 0, 0, 0, 0, 1, 0] * 4, [0] * 40)
    with pytest.raises(UsageError, match="does not grow"):
        sim.sample_size(design, difference, rng=0, n_sim=100, test="wald", alternative="less")


def test_sample_size_defaults_are_1000_evaluations_of_500_resamples():
    """The documented defaults: n_sim = 1000 simulated evaluations, each with the bootstrap test of n_boot = 500."""
    design = _design([1, 0, 0, 1, 0, 0, 0, 0, 1, 0] * 4, [0] * 40)
    n, final, trace = sim.sample_size(design, 0.2, rng=0)
    assert final.n_sim == 1000 and final.test == "bootstrap"
    assert final.replicates.shape == (500, 1000)
    assert final.n == n and n in dict(trace)


@pytest.mark.parametrize("test", ["wald", "bootstrap"])
def test_sample_size_of_a_difference_far_beyond_the_spread_needs_clusters_that_differ(test):
    """A difference far beyond the spread is detected wherever the clusters drawn differ at all; clusters all alike
    (spread 0) are no evidence and do not reject. With values 0/1 in shares .7/.3, P(n clusters not all alike) =
    1 − .3ⁿ − .7ⁿ: 0.42, 0.63, 0.74, 0.83 at n = 2..5, so the answer is 5 (or 6 where the fit lands there)."""
    # Bug fixed: clusters all alike counted as certain, so one cluster "detected" any difference (answer 1), and a
    # difference whose sizes all had power 1 failed with "does not grow".
    design = _design([1, 0, 0, 1, 0, 0, 0, 0, 1, 0] * 4, [0] * 40)
    n, final, trace = sim.sample_size(design, 5.0, rng=0, n_sim=2000, test=test, n_boot=100)
    exact = lambda k: 1 - 0.3**k - 0.7**k  # noqa: E731
    assert n in (5, 6) and final.n == n and n in dict(trace)
    assert float(final.power(5.0)[0]) == pytest.approx(exact(n), abs=3 * np.sqrt(0.2 / 2000))
    for size, power in trace:
        assert power == pytest.approx(exact(size), abs=4 * np.sqrt(0.25 / 2000)), size


def test_sample_size_when_every_guessed_size_has_the_power_looks_below_them():
    """Every size around the guess reaches the power: smaller sizes are tried (halving) until one falls short, and the
    answer lies between; its batch reaches the power and the batch just below (or the halved size) does not."""
    design = _design([1, 0, 0, 1, 0, 0, 0, 0, 1, 0] * 4, [0] * 40)
    n, final, trace = sim.sample_size(design, 0.5, rng=0, n_sim=200, test="wald")
    assert all(p >= 0.8 for _, p in trace[:4])  # this seed's four sizes around the guess (5 to 11) all reach it
    powers = dict(trace)
    assert float(final.power(0.5)[0]) >= 0.8 and final.n == n
    assert any(size < n and p < 0.8 for size, p in powers.items())  # a smaller size tried fell short
    assert min(powers) == 2  # halved down to two clusters per stratum


def test_sample_size_steps_past_a_fitted_n_whose_check_falls_short():
    """The fitted n's batch falls short (a Wald test on a dozen binary clusters is not smooth in n): the answer is
    the first size from there whose batch reaches the power, found between it and a larger size that did."""
    design = _design([1, 0, 0, 1, 0, 0, 0, 0, 1, 0] * 4, [0] * 40)
    n, final, trace = sim.sample_size(design, 0.3, rng=0, n_sim=200, test="wald")
    fitted = trace[4][0]  # after the four sizes around the guess
    assert trace[4][1] < 0.8 and n > fitted
    assert float(final.power(0.3)[0]) >= 0.8
    below = [p for size, p in trace if fitted <= size < n]
    assert below and max(below) < 0.8  # every size tried between the fitted n and the answer fell short
