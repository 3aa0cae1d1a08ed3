"""Prediction-powered inference: a share read by a judge, corrected by people's labels of a random subset.

The judge (a reader, an LLM) reads every item; people label a random subset of the items (the validation sample).
The estimand is what people would say of every item. Prediction-powered inference (Angelopoulos, Bates, Fannjiang,
Jordan & Zrnic 2023, *Science* 382: 669) estimates it by the judge's figure over the unlabelled items, rectified by
the judge's error on the labelled ones; PPI++ (Angelopoulos, Duchi & Zrnic 2023, arXiv:2311.01453) scales the
judge's part by a power-tuning weight ``λ`` in [0, 1] (0: the labels alone, the classical estimate; 1: plain PPI),
chosen to minimise the variance. This module follows ``ppi_py``'s ``ppi_mean_ci`` (its ``_calc_lhat_glm`` with
``clip=True``): for a mean, with ``f`` the judge's value and ``Y`` the label,

.. math::

    \\hat\\theta_\\lambda = \\overline{\\lambda f}_U + \\overline{(Y - \\lambda f)}_L, \\qquad
    \\widehat{\\mathrm{var}} = \\frac{\\mathrm{var}_U(\\lambda f)}{N} + \\frac{\\mathrm{var}_L(Y - \\lambda f)}{n},

``U`` the ``N`` unlabelled items, ``L`` the ``n`` labelled ones (the two parts independent),
``λ̂ = cov_L(Y, f) / ((1 + n/N) var_{L∪U}(f))`` clipped to [0, 1].

The package's figures are ratios (a share of the *identified* outputs; an accuracy over the items of a gold
gender) and differences of ratios (the accuracy gap; two systems on the same items), so the estimand here is
``Σ_j c_j E[num_j] / E[den_j]``: each ratio is the PPI estimate of its numerator over that of its denominator (the
same ``λ``, the Z-estimator ``E[num − θ den] = 0`` of ppi_py's M-estimation), its variance the PPI variance of the
linearised values ``Σ_j c_j (num_j − θ_j den_j) / D_j``. With one part and ``den ≡ 1`` it is ``ppi_mean_ci``.

Few disagreements: where the judge and the labels disagree on at most ``FEW_EVENTS`` labelled items, or fewer
than ``MIN_LABELLED`` items are labelled, the rectifier's sample variance is unreliable (0 where they never
disagree, though the judge errs on the unlabelled items too); its variance is then at least the Wilson centre of
the disagreement rate, ``(d + z²/2) / (n + z²)``, times the largest disagreement (a score-interval floor, as the
package's Wilson intervals have; checked by ``tests/statistical/test_coverage_ppi.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

from stats_mtbias.uncertainty.analytic import FEW_EVENTS

MIN_LABELLED = 30  # fewer labelled items than this: the rectifier's variance gets the disagreement floor


@dataclass(frozen=True)
class PPIResult:
    """A prediction-powered estimate, arrays over the leading axes of the inputs.

    Attributes
    ----------
    estimate, low, high, se : numpy.ndarray
        The corrected estimate, its normal interval and standard error.
    naive : numpy.ndarray
        The judge's figure over every item (labelled and unlabelled), uncorrected.
    lam : numpy.ndarray
        The power-tuning weight used (0: the labels alone; 1: plain PPI).
    n_labelled, n_unlabelled : numpy.ndarray
        Labelled and unlabelled items counted.
    disagreements : numpy.ndarray
        Labelled items where the judge's value differs from the label's.
    floored : numpy.ndarray
        Where the rectifier's variance was floored (few disagreements or few labels).
    """

    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    se: np.ndarray
    naive: np.ndarray
    lam: np.ndarray
    n_labelled: np.ndarray
    n_unlabelled: np.ndarray
    disagreements: np.ndarray
    floored: np.ndarray


def _mean(x: np.ndarray, w: np.ndarray, n: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return (x * w).sum(axis=-1) / n


def _ratios(num_y, den_y, num_f, den_f, lab, unl, n, m, lam):
    """θ_j and D_j ``(..., parts)`` at weight `lam` ``(...)``."""
    lam = lam[..., None]
    top = lam * _mean(num_f, unl[..., None, :], m[..., None]) + _mean(
        num_y - lam[..., None] * num_f, lab[..., None, :], n[..., None]
    )
    bottom = lam * _mean(den_f, unl[..., None, :], m[..., None]) + _mean(
        den_y - lam[..., None] * den_f, lab[..., None, :], n[..., None]
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        return top / bottom, bottom


def _influences(num_y, den_y, num_f, den_f, theta, bottom, coef):
    """Linearised values ``Σ_j c_j (num_j − θ_j den_j) / D_j`` of the labels and of the judge, ``(..., items)``."""
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = (coef / bottom)[..., None]
        psi_y = np.nan_to_num((scale * (num_y - theta[..., None] * den_y)).sum(axis=-2))
        psi_f = np.nan_to_num((scale * (num_f - theta[..., None] * den_f)).sum(axis=-2))
    return psi_y, psi_f


def _var(x: np.ndarray, w: np.ndarray, n: np.ndarray, ddof: int = 0) -> np.ndarray:
    centre = _mean(x, w, n)[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (((x - centre) ** 2) * w).sum(axis=-1) / (n - ddof)


def ppi_ratio(
    num_y,
    den_y,
    num_f,
    den_f,
    labelled,
    unlabelled,
    *,
    coef=None,
    level: float = 0.95,
    lam=None,
    floor: bool = True,
    share=False,
) -> PPIResult:
    """The PPI++ estimate and interval of ``Σ_j c_j E[num_j] / E[den_j]`` from labelled and judged items.

    Parameters
    ----------
    num_y, den_y : array_like, shape ``(..., parts, items)``
        The labels' numerator and denominator per item (read where `labelled` only).
    num_f, den_f : array_like, shape ``(..., parts, items)``
        The judge's, per item (every item in `labelled` or `unlabelled`).
    labelled, unlabelled : array_like of bool, shape ``(..., items)``
        The validation sample (a random sample of the items) and the rest; disjoint.
    coef : array_like, shape ``(parts,)``, optional
        The weights of the parts (default: one part, weight 1).
    level : float
        Confidence level of the normal interval.
    lam : float or array_like, optional
        The power-tuning weight; default: estimated (ppi_py's clipped ``λ̂``).
    floor : bool
        Floor the rectifier's variance where the labels are few or rarely disagree with the judge (the module's
        docstring); False gives ppi_py's interval exactly.
    share : bool or array_like of bool
        The estimand is a share in [0, 1] (broadcast against the estimate): the interval is the normal one on the
        logit scale (the delta method),
        which keeps the skew of a share near 0 or 1 (the normal interval's upper bound there is too low, missing
        above twice as often); a corrected share of 0 or 1 keeps the normal interval, clipped.

    Returns
    -------
    PPIResult

    Examples
    --------
    A judge that reads every item's gender; people labelled four of them (one misread):

    >>> y = np.array([[1.0, 0, 1, 1, 0, 0, 0, 0, 0, 0]])
    >>> f = np.array([[1.0, 0, 1, 0, 1, 1, 0, 0, 1, 0]])
    >>> lab = np.arange(10) < 4
    >>> r = ppi_ratio(y, np.ones_like(y), f, np.ones_like(f), lab, ~lab, lam=1.0)
    >>> float(r.naive), float(r.estimate)  # judge 5/10; unlabelled 3/6 + (3 - 2)/4 rectified
    (0.5, 0.75)
    >>> int(r.disagreements), bool(r.floored)
    (1, True)
    """
    num_y, den_y, num_f, den_f = (np.asarray(a, dtype=float) for a in (num_y, den_y, num_f, den_f))
    lab, unl = np.asarray(labelled, dtype=bool), np.asarray(unlabelled, dtype=bool)
    if np.any(lab & unl):
        raise ValueError("an item is both labelled and unlabelled; the two samples must be disjoint")
    coef = np.ones(num_y.shape[-2]) if coef is None else np.asarray(coef, dtype=float)
    labw, unlw = lab.astype(float), unl.astype(float)
    n, m = labw.sum(axis=-1), unlw.sum(axis=-1)
    shape = np.broadcast_shapes(n.shape, num_y.shape[:-2], num_f.shape[:-2])
    n, m = np.broadcast_to(n, shape), np.broadcast_to(m, shape)
    if lam is None:
        theta, bottom = _ratios(num_y, den_y, num_f, den_f, labw, unlw, n, m, np.ones(shape))
        psi_y, psi_f = _influences(num_y, den_y, num_f, den_f, theta, bottom, coef)
        both = labw + unlw
        cov = _mean((psi_y - _mean(psi_y, labw, n)[..., None]) * (psi_f - _mean(psi_f, labw, n)[..., None]), labw, n)
        with np.errstate(invalid="ignore", divide="ignore"):
            lam = cov / ((1 + n / np.where(m > 0, m, np.inf)) * _var(psi_f, both, n + m, ddof=1))
        lam = np.clip(np.nan_to_num(lam, nan=0.0, posinf=1.0, neginf=0.0), 0.0, 1.0)
    lam = np.broadcast_to(np.asarray(lam, dtype=float), shape)
    theta, bottom = _ratios(num_y, den_y, num_f, den_f, labw, unlw, n, m, lam)
    estimate = (coef * theta).sum(axis=-1)
    psi_y, psi_f = _influences(num_y, den_y, num_f, den_f, theta, bottom, coef)
    rect = psi_y - lam[..., None] * psi_f
    var_rect = _var(rect, labw, n)
    # Few disagreements: a rectifier variance of (nearly) 0 says nothing of the unlabelled items' errors.
    gap = np.abs(psi_y - psi_f) * labw
    disagreements = (gap > 1e-9).sum(axis=-1)
    z = special.ndtri(0.5 + level / 2)
    floored = ((disagreements <= FEW_EVENTS) | (n < MIN_LABELLED)) & floor
    largest = np.where(disagreements > 0, gap.max(axis=-1, initial=0.0), np.abs(coef / np.abs(bottom)).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        wilson = (disagreements + z**2 / 2) / (n + z**2) * largest**2
        var_judge = np.where(m > 0, lam**2 * _var(psi_f, unlw, m), 0.0)
        variance = (
            np.nan_to_num(var_judge / np.where(m > 0, m, 1.0)) + np.where(floored, np.maximum(var_rect, wilson), var_rect) / n
        )
    se = np.sqrt(variance)
    # The judge alone over every item (the uncorrected figure): λ = 1, nothing rectified.
    every = labw + unlw
    naive_theta = _mean(num_f, every[..., None, :], (n + m)[..., None]) / _mean(den_f, every[..., None, :], (n + m)[..., None])
    naive = (coef * naive_theta).sum(axis=-1)
    low, high = estimate - z * se, estimate + z * se
    share = np.asarray(share, dtype=bool)
    if share.any():
        inside = (estimate > 0) & (estimate < 1) & share
        with np.errstate(invalid="ignore", divide="ignore"):
            centre = special.logit(np.where(inside, estimate, 0.5))
            half = z * se / np.where(inside, estimate * (1 - estimate), 1.0)
        low = np.where(inside, special.expit(centre - half), np.where(share, np.clip(low, 0.0, 1.0), low))
        high = np.where(inside, special.expit(centre + half), np.where(share, np.clip(high, 0.0, 1.0), high))
    return PPIResult(estimate, low, high, se, naive, lam, n, m, disagreements, floored)


def ppi_share_variance(n_labelled, *, rate: float, discordance: float, items: float | None = None) -> np.ndarray:
    """The variance of a PPI++ corrected share (the tuned ``λ``) with `n_labelled` labels, for planning.

    A share near `rate` read by a judge that disagrees with people on a share `discordance` of the items (``1 −
    agreement``; both read one output per item), the judge reading `items` items in all (None: as many as wanted):
    with ``v = rate (1 − rate)``, ``cov(Y, f) = v − discordance / 2``, ``N = items − n`` unlabelled items,

    ``λ = cov / ((1 + n / N) v)`` in [0, 1] and ``var = λ² v / N + (v − 2 λ cov + λ² v) / n``.

    Examples
    --------
    A judge that never errs: the labels add nothing, the judge's own variance remains (400 items, 0.3):

    >>> round(float(ppi_share_variance(100, rate=0.3, discordance=0.0, items=400)) * 400 / (0.3 * 0.7), 12)
    1.0
    >>> round(float(ppi_share_variance(100, rate=0.3, discordance=0.42)), 6)  # a judge of no use: labels alone
    0.0021
    """
    n = np.asarray(n_labelled, dtype=float)
    v = rate * (1 - rate)
    cov = v - discordance / 2
    rest = np.inf if items is None else np.asarray(items, dtype=float) - n
    with np.errstate(invalid="ignore", divide="ignore"):
        lam = np.clip(cov / ((1 + n / rest) * v), 0.0, 1.0) if v > 0 else np.zeros_like(n)
        judge = np.where(np.isinf(rest), 0.0, lam**2 * v / rest)
        return judge + (v - 2 * lam * cov + lam**2 * v) / n
