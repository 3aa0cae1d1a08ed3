"""The PPI++ estimator (:mod:`stats_mtbias.uncertainty.ppi`) against ppi_py's published implementation."""

from __future__ import annotations

import numpy as np
import pytest

from stats_mtbias.uncertainty.ppi import ppi_ratio

# Labels Y and the judge's Yhat on 20 labelled items, the judge on 30 unlabelled ones.
Y = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1], float)
YHAT = np.array([1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 0, 1], float)
YHAT_U = np.array([1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1], float)
# Published reference: ppi_py 0.2.3 (pip install ppi-python into /work/venv-ppi), on the arrays above:
#   ppi_mean_pointestimate(Y, YHAT, YHAT_U)          -> 0.55586648
#   ppi_mean_ci(Y, YHAT, YHAT_U, alpha=0.05)         -> (0.36252924, 0.74920371)
#   ppi_mean_pointestimate(Y, YHAT, YHAT_U, lam=1)   -> 0.56666667
#   ppi_mean_ci(Y, YHAT, YHAT_U, alpha=0.05, lam=1)  -> (0.30236071, 0.83097263)
PPI_PY_TUNED = (0.55586648, 0.36252924, 0.74920371)
PPI_PY_PLAIN = (0.56666667, 0.30236071, 0.83097263)


def _mean_case(**kwargs):
    y = np.concatenate([Y, np.zeros(len(YHAT_U))])
    f = np.concatenate([YHAT, YHAT_U])
    lab = np.arange(len(y)) < len(Y)
    return ppi_ratio(y[None], np.ones((1, len(y))), f[None], np.ones((1, len(y))), lab, ~lab, level=0.95, **kwargs)


@pytest.mark.parametrize(("lam", "expected"), [(None, PPI_PY_TUNED), (1.0, PPI_PY_PLAIN)])
def test_mean_matches_ppi_py(lam, expected):
    r = _mean_case(lam=lam, floor=False)
    assert (float(r.estimate), float(r.low), float(r.high)) == pytest.approx(expected, abs=1e-8)


def test_tuned_lambda_is_ppi_py_formula():
    """λ̂ = cov_L(Y, f) / ((1 + n/N) var(f over all)), by hand (ppi_py's _calc_lhat_glm, clipped)."""
    n, big = len(Y), len(YHAT_U)
    cov = np.mean((Y - Y.mean()) * (YHAT - YHAT.mean()))
    lam = cov / ((1 + n / big) * np.var(np.concatenate([YHAT, YHAT_U]), ddof=1))
    assert float(_mean_case(floor=False).lam) == pytest.approx(np.clip(lam, 0, 1), abs=1e-12)


def test_ratio_by_hand():
    """A share of identified outputs: PPI of the numerator over PPI of the denominator, with the delta-method SE."""
    rng = np.random.default_rng(3)
    k = 60
    den_f = (rng.random(k) < 0.8).astype(float)
    num_f = den_f * (rng.random(k) < 0.4)
    den_y, num_y = den_f.copy(), num_f.copy()
    flip = rng.random(k) < 0.2
    num_y[flip & (den_y > 0)] = 1 - num_y[flip & (den_y > 0)]
    lab = np.arange(k) < 25
    r = ppi_ratio(num_y[None], den_y[None], num_f[None], den_f[None], lab, ~lab, lam=0.7, floor=False)
    mu, ml = (~lab).sum(), lab.sum()
    top = 0.7 * num_f[~lab].mean() + (num_y - 0.7 * num_f)[lab].mean()
    bottom = 0.7 * den_f[~lab].mean() + (den_y - 0.7 * den_f)[lab].mean()
    theta = top / bottom
    psi_y, psi_f = (num_y - theta * den_y) / bottom, (num_f - theta * den_f) / bottom
    se = np.sqrt(np.var(0.7 * psi_f[~lab]) / mu + np.var(psi_y[lab] - 0.7 * psi_f[lab]) / ml)
    assert float(r.estimate) == pytest.approx(theta, abs=1e-12)
    assert float(r.se) == pytest.approx(se, abs=1e-12)
    assert float(r.naive) == pytest.approx(num_f.sum() / den_f.sum(), abs=1e-12)


def test_vectorised_over_replicates_equals_one_by_one():
    rng = np.random.default_rng(5)
    f = (rng.random((4, 1, 50)) < 0.3).astype(float)
    y = np.where(rng.random((4, 1, 50)) < 0.1, 1 - f, f)
    lab = rng.random((4, 50)) < 0.3
    one = np.ones_like(f)
    together = ppi_ratio(y, one, f, one, lab, ~lab)
    for r in range(4):
        alone = ppi_ratio(y[r], one[r], f[r], one[r], lab[r], ~lab[r])
        assert float(together.estimate[r]) == pytest.approx(float(alone.estimate), abs=1e-12)
        assert float(together.se[r]) == pytest.approx(float(alone.se), abs=1e-12)


def test_few_disagreements_floor_widens():
    """A judge that never disagrees with 20 labels gets no zero rectifier variance (the Wilson-centre floor)."""
    f = np.r_[np.ones(10), np.zeros(10), np.ones(15), np.zeros(35)]
    lab = np.arange(70) < 20
    one = np.ones_like(f)
    plain = ppi_ratio(f[None], one[None], f[None], one[None], lab, ~lab, lam=1.0, floor=False)
    floored = ppi_ratio(f[None], one[None], f[None], one[None], lab, ~lab, lam=1.0)
    assert bool(floored.floored) and int(floored.disagreements) == 0
    z = 1.959963984540054
    expected = np.sqrt(float(plain.se) ** 2 + (z**2 / 2) / (20 + z**2) / 20)
    assert float(floored.se) == pytest.approx(expected, rel=1e-9)


def test_overlapping_samples_refused():
    one = np.ones((1, 3))
    with pytest.raises(ValueError, match="both labelled and unlabelled"):
        ppi_ratio(one, one, one, one, np.array([True, True, False]), np.array([False, True, True]))


@pytest.mark.parametrize(
    ("rate", "discordance", "n", "items"), [(0.3, 0.1, 100, 800), (0.5, 0.2, 60, 600), (0.1, 0.04, 200, 1000)]
)
def test_share_variance_against_simulation(rate, discordance, n, items):
    """The planning variance (:func:`ppi_share_variance`) is the corrected share's variance: the SD of 2,000
    simulated corrections within 6% of its square root (MC error of an SD from 2,000 draws: 1.6%)."""
    from stats_mtbias.uncertainty.ppi import ppi_share_variance

    rng = np.random.default_rng(17)
    reps = 2000
    y = (rng.random((reps, items)) < rate).astype(float)
    # The judge errs on a share `discordance` of the items, in both directions at rates that keep its share at `rate`.
    flip_up = rng.random((reps, items)) < discordance / (2 * (1 - rate))
    flip_down = rng.random((reps, items)) < discordance / (2 * rate)
    f = np.where(y == 1, np.where(flip_down, 0.0, 1.0), np.where(flip_up, 1.0, 0.0))
    lab = np.zeros((reps, items), dtype=bool)
    lab[:, :n] = True
    one = np.ones_like(y)
    r = ppi_ratio(y[:, None], one[:, None], f[:, None], one[:, None], lab, ~lab, floor=False)
    predicted = float(np.sqrt(ppi_share_variance(n, rate=rate, discordance=discordance, items=items)))
    assert float(np.std(r.estimate)) == pytest.approx(predicted, rel=0.06)
    assert float(np.median(r.se)) == pytest.approx(predicted, rel=0.06)
