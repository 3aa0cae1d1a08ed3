"""McNemar's tests, and the tests that belong to the difference intervals.

:func:`mcnemar_test` tests ``p1 = p2`` for paired data from the discordant
counts ``n10`` (first system right only) and ``n01`` (second only); under H0
``n10 ~ Bin(n10 + n01, 1/2)`` given ``n10 + n01``:

- ``"exact"``: the conditional binomial test; two-sided ``min(1, 2 min(P(X ≤ n10), P(X ≥ n10)))``.
- ``"mid-p"`` (default): Fagerland, Lydersen & Laake (2013, BMC Med Res
  Methodol 13:91): the exact p-value less the probability of the observed
  ``n10`` (one-sided: less half of it); two-sided ``1 − P(X = n10)/2`` when
  ``n10 = n01``. It kept the nominal level in all 9,595 scenarios of their
  study while being almost as powerful as the asymptotic test.
- ``"asymptotic"``: ``z = (n10 − n01)/√(n10 + n01)`` (McNemar without continuity
  correction; the score test, so also Tango's test at Δ = 0).
- ``"asymptotic-cc"``: Edwards' continuity correction, ``(|n10 − n01| − 1)/√(n10 + n01)``.

With no discordant pair (``n10 + n01 = 0``) every p-value is 1.

:func:`paired_difference_test` and :func:`difference_test` give the test that
belongs to each interval of :mod:`stats_mtbias.uncertainty.differences`, so
that for every method and level ``"the interval excludes 0"`` ⇔ ``"p < 1 − level"``:

==================  ====================================================================
interval method     its test
==================  ====================================================================
tango               Tango's score test at Δ = 0, which is the asymptotic McNemar test
miettinen-nurminen  the Miettinen–Nurminen score test at Δ = 0 (pooled variance × N/(N−1))
wald, agresti-min,  the Wald z of the same (adjusted) centre and standard error,
bonett-price,       ``2 Φ(−|centre|/SE)``: the interval is ``centre ± z SE``
agresti-caffo
newcombe            the interval inverted on its critical value: ``2 Φ(−z*)`` with z*
                    the smallest critical value whose interval reaches 0 (vectorised
                    bisection; no floor on the p-value besides underflow near 1e-308)
==================  ====================================================================
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from stats_mtbias._defaults import ALTERNATIVES
from stats_mtbias._validation import check_choice
from stats_mtbias.errors import UsageError
from stats_mtbias.uncertainty import differences as _d

__all__ = [
    "MCNEMAR_METHODS",
    "ProportionTestResult",
    "difference_test",
    "mcnemar_test",
    "paired_difference_test",
]

MCNEMAR_METHODS = ("mid-p", "exact", "asymptotic", "asymptotic-cc")


@dataclass(frozen=True)
class ProportionTestResult:
    """A test of two proportions: its statistic, p-value, method and alternative (arrays broadcast).

    ``statistic`` is ``n10`` for the exact and mid-p tests and a standard
    normal deviate otherwise (for an interval inverted on its critical value,
    the signed critical value at which the interval reaches 0).
    """

    statistic: np.ndarray
    pvalue: np.ndarray
    method: str
    alternative: str = "two-sided"


def mcnemar_test(n10, n01, *, method: str = "mid-p", alternative: str = "two-sided") -> ProportionTestResult:
    """McNemar's test of ``p1 = p2`` from the discordant counts of a paired 2×2 table (vectorised).

    Parameters
    ----------
    n10, n01 : array-like of int
        Items the first system gets right and the second wrong, and the reverse.
    method : {"mid-p", "exact", "asymptotic", "asymptotic-cc"}
        See the module docstring.
    alternative : {"two-sided", "less", "greater"}
        ``"greater"``: the first system is the more accurate (``n10`` large),
        as in :func:`scipy.stats.binomtest` with ``k = n10``.

    Returns
    -------
    ProportionTestResult

    Examples
    --------
    Cavo et al. (2012), the example of Fagerland, Lydersen & Laake (2017, ch. 8):

    >>> for m in ("mid-p", "exact", "asymptotic", "asymptotic-cc"):
    ...     print(m, f"{mcnemar_test(6, 16, method=m).pvalue:.6f}")
    mid-p 0.034690
    exact 0.052479
    asymptotic 0.033006
    asymptotic-cc 0.055009
    >>> mcnemar_test([0, 3], [0, 0], method="exact", alternative="greater").pvalue
    array([1.   , 0.125])
    """
    check_choice(method, MCNEMAR_METHODS, "method")
    check_choice(alternative, ALTERNATIVES, "alternative")
    b, c = _d._counts(("n10", "n01"), (n10, n01))
    m = b + c
    none = m == 0
    m_safe = np.where(none, 1.0, m)
    if method in ("exact", "mid-p"):
        if np.any(b != np.round(b)) or np.any(c != np.round(c)):
            raise UsageError(f"`n10` and `n01` must be whole numbers for method={method!r}.")
        pmf = stats.binom.pmf(b, m_safe, 0.5)
        lower = stats.binom.cdf(b, m_safe, 0.5)  # P(X <= n10)
        upper = stats.binom.sf(b - 1, m_safe, 0.5)  # P(X >= n10)
        if method == "mid-p":
            lower, upper = lower - pmf / 2, upper - pmf / 2
        if alternative == "less":
            p = lower
        elif alternative == "greater":
            p = upper
        elif method == "exact":
            p = np.minimum(1.0, 2 * np.minimum(lower, upper))
        else:  # Fagerland et al.: exact two-sided minus the point probability; 1 − pmf/2 at n10 = n01
            p = np.where(b == c, 1 - pmf / 2, 2 * np.minimum(lower, upper))
        statistic = b
    else:
        diff = b - c
        root = np.sqrt(m_safe)
        if method == "asymptotic":
            z = diff / root
            z_less = z_greater = z
        else:
            z = np.sign(diff) * np.maximum(np.abs(diff) - 1, 0.0) / root
            z_greater, z_less = (diff - 1) / root, (diff + 1) / root
        if alternative == "less":
            p = special.ndtr(z_less)
        elif alternative == "greater":
            p = special.ndtr(-z_greater)
        else:
            p = 2 * special.ndtr(-np.abs(z))
        statistic = np.where(none, 0.0, z)
    p = np.where(none, 1.0, np.clip(p, 0.0, 1.0))
    return ProportionTestResult(_d._out(statistic), _d._out(p), f"McNemar {method}", alternative)


def _wald_type(centre, se):
    """Statistic and two-sided p of an interval centre ± z·se: 0 is outside exactly when p < 1 − level."""
    z = _d._ratio(centre, se * se)
    return z, 2 * special.ndtr(-np.abs(z))


def paired_difference_test(n11, n10, n01, n00, *, method: str = "newcombe") -> ProportionTestResult:
    """Two-sided test of ``p1 = p2`` (paired) that belongs to a paired interval method.

    For every level, ``paired_difference_interval(..., level=level, method=m)``
    excludes 0 exactly when ``paired_difference_test(..., method=m).pvalue < 1 − level``
    (for ``"newcombe"``, up to the bisection's precision of about 1e-15 in the
    critical value).

    Parameters
    ----------
    n11, n10, n01, n00 : array-like
        The paired 2×2 table (see
        :func:`~stats_mtbias.uncertainty.differences.paired_difference_interval`).
    method : {"newcombe", "tango", "agresti-min", "bonett-price", "wald"}
        The interval method whose test is wanted; ``"tango"`` gives the
        asymptotic McNemar test.

    Returns
    -------
    ProportionTestResult

    Examples
    --------
    >>> r = paired_difference_test(59, 6, 16, 80, method="tango")
    >>> print(f"{r.statistic:.3f} {r.pvalue:.6f}")
    -2.132 0.033006
    >>> print(f"{paired_difference_test(59, 6, 16, 80).pvalue:.4f}")
    0.0340

    p-values are not floored (no resampling): 3,888 items, 40 against 160
    discordant:

    >>> print(f"{paired_difference_test(3000, 40, 160, 688, method='tango').pvalue:.2e}")
    2.15e-17
    """
    check_choice(method, _d.PAIRED_METHODS, "method")
    a, b, c, d, n = _d._paired_counts(n11, n10, n01, n00)
    if method == "tango":
        z = _d._tango_statistic(b, c, n, np.zeros_like(b))
        p = 2 * special.ndtr(-np.abs(z))
    elif method == "wald":
        z, p = _wald_type((b - c) / n, np.sqrt(np.maximum(b + c - (b - c) ** 2 / n, 0.0)) / n)
    elif method == "agresti-min":
        bt, ct, nt = b + 0.5, c + 0.5, n + 2.0
        z, p = _wald_type((bt - ct) / nt, np.sqrt(bt + ct - (bt - ct) ** 2 / nt) / nt)
    elif method == "bonett-price":
        p10, p01 = (b + 1) / (n + 2), (c + 1) / (n + 2)
        z, p = _wald_type(p10 - p01, np.sqrt((p10 + p01 - (p10 - p01) ** 2) / (n + 2)))
    else:
        z_star = _d._invert_in_z(lambda zz: _d._paired_limits(a, b, c, d, n, zz, "newcombe"), np.shape(b))
        z, p = np.sign(b - c) * z_star, 2 * special.ndtr(-z_star)
    return ProportionTestResult(_d._out(z), _d._out(np.clip(p, 0.0, 1.0)), f"test of the {method} interval")


def difference_test(x1, n1, x2, n2, *, method: str = "miettinen-nurminen") -> ProportionTestResult:
    """Two-sided test of ``p1 = p2`` (independent samples) that belongs to an interval method.

    The default is the Miettinen–Nurminen score test
    ``(p1 − p2)/√(p̄(1 − p̄)(1/n1 + 1/n2) N/(N − 1))``, whose inversion is
    :func:`~stats_mtbias.uncertainty.differences.difference_interval`'s default.

    Parameters
    ----------
    x1, n1, x2, n2 : array-like
        Successes and sizes of the two samples.
    method : {"miettinen-nurminen", "newcombe", "agresti-caffo", "wald"}

    Returns
    -------
    ProportionTestResult

    Examples
    --------
    >>> r = difference_test(0, 16, 15, 72)
    >>> print(f"{r.statistic:.3f} {r.pvalue:.4f}")
    -1.993 0.0462
    >>> bool(difference_test(0, 16, 15, 72, method="newcombe").pvalue > 0.05)
    True
    """
    check_choice(method, _d.INDEPENDENT_METHODS, "method")
    x1, n1, x2, n2 = _d._independent_counts(x1, n1, x2, n2)
    p1, p2 = x1 / n1, x2 / n2
    if method == "miettinen-nurminen":
        z = _d._mn_statistic(x1, n1, x2, n2, np.zeros_like(x1))
        p = 2 * special.ndtr(-np.abs(z))
    elif method == "wald":
        z, p = _wald_type(p1 - p2, np.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2))
    elif method == "agresti-caffo":
        q1, q2 = (x1 + 1) / (n1 + 2), (x2 + 1) / (n2 + 2)
        z, p = _wald_type(q1 - q2, np.sqrt(q1 * (1 - q1) / (n1 + 2) + q2 * (1 - q2) / (n2 + 2)))
    else:
        z_star = _d._invert_in_z(lambda zz: _d._independent_limits(x1, n1, x2, n2, zz, "newcombe"), np.shape(x1))
        z, p = np.sign(p1 - p2) * z_star, 2 * special.ndtr(-z_star)
    return ProportionTestResult(_d._out(z), _d._out(np.clip(p, 0.0, 1.0)), f"test of the {method} interval")
