"""Equivalence (TOST) and non-inferiority read off the interval a study reports.

An auditor's question is not "do the systems differ" but "is the difference
within ±δ": the two one-sided tests (TOST, Schuirmann 1987) of
``H0: Δ ≤ −δ`` and ``H0: Δ ≥ δ``, each at level α. Equivalence is shown at α
exactly when the (1 − 2α) interval lies inside (−δ, δ); the TOST p-value is the
larger of the two one-sided p-values, the smallest α at which it does.

One rule for every interval a study reports, so that the p-value and the
interval never disagree: each side of the reported interval at ``level`` is
read as a normal tail, its scale the half-width on that side over
``z_{(1+level)/2}``,

    s_lo = (diff − ci_low) / z,    s_hi = (ci_high − diff) / z,

and the one-sided tests at the margins use that side's scale:

    p_lo = 1 − Φ((diff + δ) / s_lo),    p_hi = 1 − Φ((δ − diff) / s_hi).

For a Wald interval (cluster-robust normal, linearised) this *is* the z-TOST on
the study's standard error (statsmodels' ``ztost``, checked to 1e-10). For an
asymmetric interval (score / MOVER, percentile bootstrap) it is that interval
continued to other levels with each side's own scale: the (1 − 2α) interval
``diff − z_{1−α} s_lo, diff + z_{1−α} s_hi`` is inside (−δ, δ) exactly when
``p_equivalent < α``, and its size at a true difference of ±δ is checked by
simulation (tests/statistical/test_equivalence_size.py). An interval of width 0
on a side is a point mass there: the test on that side rejects exactly when the
margin lies beyond the estimate.

Non-inferiority is one of the two tests: ``alternative="greater"`` shows
``Δ > −δ`` (a is not worse than b by δ or more, when larger is better),
``"less"`` shows ``Δ < δ`` (when smaller is better, e.g. a bias).
"""

from __future__ import annotations

import numpy as np
from scipy import special

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_level, check_number
from stats_mtbias.errors import UsageError

ALTERNATIVES = _defaults.ALTERNATIVES
VERDICTS = ("equivalent", "not shown", "differs")
EQUIVALENCE_COLUMNS = ["margin", "eq_low", "eq_high", "p_equivalent", "p_equivalent_adjusted", "equivalent", "verdict"]


def check_margin(margin) -> float:
    """A positive, finite margin δ (a share: 0.02 is 2 points)."""
    if isinstance(margin, bool) or not isinstance(margin, int | float | np.integer | np.floating):
        raise UsageError(f"`margin` must be a positive number (a share, e.g. 0.02 for ±2 points); got {margin!r}.")
    return check_number(margin, "margin", low=0, low_open=True, hint="a share, e.g. 0.02 for ±2 points")


def tost_from_interval(
    diff,
    ci_low,
    ci_high,
    margin: float,
    *,
    level: float = _defaults.LEVEL,
    alpha: float = _defaults.ALPHA,
    alternative: str = "two-sided",
) -> dict[str, np.ndarray]:
    """TOST p-values and the (1 − 2α) interval of differences reported with an interval at `level`.

    Parameters
    ----------
    diff, ci_low, ci_high : array_like
        The estimates and their interval at `level` (NaN: no interval; its p-value is NaN).
    margin : float
        The equivalence margin δ > 0: equivalence is ``−δ < Δ < δ``.
    level : float
        Level of the reported interval.
    alpha : float
        Level of each one-sided test; the interval returned is at ``1 − 2 alpha``.
    alternative : {"two-sided", "greater", "less"}
        ``two-sided``: equivalence (both tests); ``greater``: non-inferiority
        ``Δ > −δ``; ``less``: ``Δ < δ``.

    Returns
    -------
    dict
        ``p_equivalent`` (the larger one-sided p of those tested), ``p_lower``
        (``H0: Δ ≤ −δ``), ``p_upper`` (``H0: Δ ≥ δ``), ``eq_low``, ``eq_high``
        (the interval at ``1 − 2 alpha``).

    Examples
    --------
    A Wald interval of 0.01 ± 1.96 × 0.01 and a margin of 0.03: z = 4 and 2.

    >>> out = tost_from_interval(0.01, 0.01 - 0.0196, 0.01 + 0.0196, 0.03, level=0.95)
    >>> round(float(out["p_equivalent"]), 6), round(float(out["p_lower"]), 6)
    (0.022752, 3.2e-05)
    """
    margin = check_margin(margin)
    level = check_level(level)
    check_choice(alternative, ALTERNATIVES, "alternative")
    if not 0 < alpha < 0.5:
        raise UsageError(f"`alpha` must be in (0, 0.5) for a (1 − 2α) interval; got {alpha!r}.")
    d = np.asarray(diff, float)
    low, high = np.asarray(ci_low, float), np.asarray(ci_high, float)
    z = float(special.ndtri(0.5 + level / 2.0))
    s_lo, s_hi = (d - low) / z, (high - d) / z
    # An estimate outside its own interval (a corrected bootstrap can do that) has no side scales: the interval's
    # midpoint and half-width stand in for it, symmetric.
    odd = (s_lo < 0) | (s_hi < 0)
    if np.any(odd):
        mid, half = (low + high) / 2.0, (high - low) / (2.0 * z)
        d, s_lo, s_hi = np.where(odd, mid, d), np.where(odd, half, s_lo), np.where(odd, half, s_hi)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_lower = special.ndtr(-(d + margin) / s_lo)
        p_upper = special.ndtr(-(margin - d) / s_hi)
    # A side of width 0 is a point mass: (d + δ) / 0 is ±inf (rejects or not), 0 / 0 (estimate on the margin) is not shown.
    p_lower = np.where((s_lo == 0) & (d + margin == 0), 1.0, p_lower)
    p_upper = np.where((s_hi == 0) & (margin - d == 0), 1.0, p_upper)
    if alternative == "two-sided":
        p = np.fmax(p_lower, p_upper)
        p = np.where(np.isnan(p_lower) | np.isnan(p_upper), np.nan, p)
    else:
        p = p_lower if alternative == "greater" else p_upper
    z2 = float(special.ndtri(1.0 - alpha))
    return {
        "p_equivalent": p,
        "p_lower": p_lower,
        "p_upper": p_upper,
        "eq_low": d - z2 * s_lo,
        "eq_high": d + z2 * s_hi,
    }


def verdict(equivalent, differs, has_interval) -> np.ndarray:
    """The words beside a comparison: ``equivalent`` (within the margin), ``differs`` (the test of no difference
    rejects and equivalence is not shown), else ``not shown``; ``no interval`` where there is none.

    Examples
    --------
    >>> verdict([True, False, False, False], [False, True, False, False], [True, True, True, False]).tolist()
    ['equivalent', 'differs', 'not shown', 'no interval']
    """
    eq = np.asarray(equivalent, bool)
    out = np.where(eq, "equivalent", np.where(np.asarray(differs, bool), "differs", "not shown")).astype(object)
    out[~np.asarray(has_interval, bool)] = "no interval"
    return out
