"""Intervals for differences of two proportions: paired (same items) and independent samples.

Paired data are the 2×2 table of two systems scored on the same ``n`` items::

                     second right   second wrong
    first right          n11            n10
    first wrong          n01            n00

with difference ``Δ = p1 − p2 = (n10 − n01) / n``. Independent samples are
``x1/n1 − x2/n2``.

Every interval is vectorised (counts broadcast against each other, and against
``level``), lies in [−1, 1], and is returned as an
:class:`~stats_mtbias.significance.effect_sizes.EffectSize` ``(estimate, low,
high, method)``. Except for the reference ``"wald"`` intervals, which collapse
to a point when the estimated variance is 0 (that is their known failure), no
interval is a point, also at 0/n and n/n.

Paired methods (``paired_difference_interval``):

- ``"newcombe"`` — Newcombe (1998b, Stat Med 17:2635, method 10): the Wilson
  limits ``l_i, u_i`` of both margins combined by square-and-add with the
  corrected correlation ``φ*``::

      L = Δ − √((p1 − l1)² − 2 φ* (p1 − l1)(u2 − p2) + (u2 − p2)²)
      U = Δ + √((u1 − p1)² − 2 φ* (u1 − p1)(p2 − l2) + (p2 − l2)²)

  with ``A = n11 n00 − n10 n01`` and ``M`` the product of the four margins:
  ``φ* = (A − n/2)/√M`` if ``A > n/2``, ``0`` if ``0 ≤ A ≤ n/2``, ``A/√M`` if
  ``A < 0``, and ``φ* = 0`` when a margin is empty (Newcombe's text;
  Fagerland, Lydersen & Laake 2017, §8.5; R ``contingencytables``,
  ``biostatUZH``). Without the correction (plain φ) it is Newcombe's method 8.
- ``"tango"`` — Tango (1998, Stat Med 17:891) asymptotic score interval:
  ``{Δ : |T(Δ)| ≤ z}`` with ``T(Δ) = (n10 − n01 − nΔ) / √(n (2 π̃01 + Δ(1 − Δ)))``
  and ``π̃01`` the closed-form restricted maximum-likelihood estimate of
  ``π01`` given ``Δ`` (the root of ``2n π² + B π + C``,
  ``B = −n10 − n01 + (2n − n10 + n01)Δ``, ``C = −n01 Δ(1 − Δ)``). The limits
  are found by vectorised bisection (``T`` decreases in ``Δ``). ``T(0)`` is
  the asymptotic McNemar statistic ``(n10 − n01)/√(n10 + n01)``.
- ``"agresti-min"`` — Agresti & Min (2005, Stat Med 24:729): the Wald interval
  of the table with 1/2 added to each cell (``ñ = n + 2``).
- ``"bonett-price"`` — Bonett & Price (2012, J Educ Behav Stat 37:479): Wald
  with Laplace estimates ``π̃10 = (n10 + 1)/(n + 2)``, ``π̃01 = (n01 + 1)/(n + 2)``
  and ``SE = √((π̃10 + π̃01 − (π̃10 − π̃01)²)/(n + 2))``; recommended (with
  Tango and Newcombe) by Fagerland, Lydersen & Laake (2014, Stat Med 33:2850).
- ``"wald"`` — ``Δ ± z √(n10 + n01 − (n10 − n01)²/n)/n``, for reference.

Independent methods (``difference_interval``):

- ``"miettinen-nurminen"`` (default) — Miettinen & Nurminen (1985, Stat Med
  4:213) score interval ``{Δ : |p1 − p2 − Δ| ≤ z √V(Δ)}``,
  ``V(Δ) = (p̃1(1 − p̃1)/n1 + p̃2(1 − p̃2)/n2) · N/(N − 1)``, with the
  closed-form restricted MLE ``p̃2 = p̃1 − Δ`` of Farrington & Manning (1990);
  its test at Δ = 0 is :func:`stats_mtbias.significance.mcnemar.difference_test`.
- ``"newcombe"`` — Newcombe (1998a, Stat Med 17:873, method 10), hybrid score
  from the two Wilson intervals.
- ``"agresti-caffo"`` — Agresti & Caffo (2000): Wald after adding one success
  and one failure to each sample.
- ``"wald"`` — for reference.

:func:`pvalue_from_interval` turns any of these interval families into the
p-value of the test that belongs to it (the largest level whose interval
excludes the null value), so that a test and an interval can always come from
one method.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import special

from stats_mtbias._validation import check_choice
from stats_mtbias.errors import UsageError
from stats_mtbias.uncertainty.intervals import EffectSize

__all__ = [
    "INDEPENDENT_METHODS",
    "PAIRED_METHODS",
    "difference_interval",
    "paired_difference_interval",
    "pvalue_from_interval",
]

PAIRED_METHODS = ("newcombe", "tango", "agresti-min", "bonett-price", "wald")
INDEPENDENT_METHODS = ("miettinen-nurminen", "newcombe", "agresti-caffo", "wald")

_PAIRED_NAMES = {
    "newcombe": "Newcombe square-and-add, corrected phi (paired, method 10)",
    "tango": "Tango asymptotic score (paired)",
    "agresti-min": "Agresti-Min adjusted Wald (paired)",
    "bonett-price": "Bonett-Price adjusted Wald (paired)",
    "wald": "Wald (paired)",
}
_INDEPENDENT_NAMES = {
    "miettinen-nurminen": "Miettinen-Nurminen asymptotic score (independent)",
    "newcombe": "Newcombe hybrid score (independent, method 10)",
    "agresti-caffo": "Agresti-Caffo adjusted Wald (independent)",
    "wald": "Wald (independent)",
}
# Bisection steps: the bracket [-1, 1] (or [0, _Z_MAX]) shrinks below double precision.
_STEPS = 64
_Z_MAX = 38.0  # 2 Φ(−38) ≈ 6e-316: smaller p-values underflow to 0 anyway.


# ----------------------------------------------------------------------------- validation
def _levels(level) -> np.ndarray:
    """`level` as a float array with every value in (0, 1)."""
    try:
        value = np.asarray(level, dtype=float)
    except (TypeError, ValueError):
        raise UsageError(f"`level` must be a number in (0, 1); got {level!r}.") from None
    if not np.all((value > 0.0) & (value < 1.0)):
        raise UsageError(f"`level` must be in (0, 1); got {level!r}.")
    return value


def _counts(names: tuple[str, ...], values) -> list[np.ndarray]:
    arrays = []
    for name, v in zip(names, values, strict=True):
        try:
            a = np.asarray(v, dtype=float)
        except (TypeError, ValueError):
            raise UsageError(f"`{name}` must be a count or an array of counts; got {v!r}.") from None
        if not np.all(np.isfinite(a)) or np.any(a < 0):
            raise UsageError(f"`{name}` must be finite and non-negative; got {v!r}.")
        arrays.append(a)
    try:
        return list(np.broadcast_arrays(*arrays))
    except ValueError:
        shapes = ", ".join(f"{n}{a.shape}" for n, a in zip(names, arrays, strict=True))
        raise UsageError(f"the counts do not broadcast together: {shapes}.") from None


def _paired_counts(n11, n10, n01, n00):
    a, b, c, d = _counts(("n11", "n10", "n01", "n00"), (n11, n10, n01, n00))
    n = a + b + c + d
    if np.any(n == 0):
        raise UsageError("the paired table is empty (`n11 + n10 + n01 + n00` is 0).")
    return a, b, c, d, n


def _independent_counts(x1, n1, x2, n2):
    x1, n1, x2, n2 = _counts(("x1", "n1", "x2", "n2"), (x1, n1, x2, n2))
    for x, n, xn, nn in ((x1, n1, "x1", "n1"), (x2, n2, "x2", "n2")):
        if np.any(n == 0):
            raise UsageError(f"`{nn}` must be positive.")
        if np.any(x > n):
            raise UsageError(f"`{xn}` must not exceed `{nn}`.")
    return x1, n1, x2, n2


def _z(level: np.ndarray) -> np.ndarray:
    """Two-sided normal critical value; accurate also for a level close to 1."""
    return -special.ndtri((1.0 - level) / 2.0)


# ----------------------------------------------------------------------------- building blocks
def _wilson(k, n, z):
    """Wilson score limits of k/n at critical value z (exact ends at k = 0 and k = n)."""
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0))
    return low, high


def _bisect_decreasing(f, target, shape, lo=-1.0, hi=1.0):
    """x in [lo, hi] with f(x) = target for f decreasing, elementwise (clamps to the ends)."""
    lo = np.full(shape, lo, dtype=float)
    hi = np.full(shape, hi, dtype=float)
    for _ in range(_STEPS):
        mid = 0.5 * (lo + hi)
        above = f(mid) > target
        lo = np.where(above, mid, lo)
        hi = np.where(above, hi, mid)
    return 0.5 * (lo + hi)


def _score_limits(f, z, shape):
    """(low, high) with f(low) = z and f(high) = −z for a decreasing score statistic f.

    One elementwise bisection over both targets: each limit is what its own bisection gives, at half the calls.
    """
    targets = np.stack([np.broadcast_to(z, shape), np.broadcast_to(-z, shape)])
    low, high = _bisect_decreasing(f, targets, (2, *shape))
    return low, high


def _ratio(num, var):
    """num/√var, with 0/0 = 0 and x/0 = ±inf (a point mass away from the hypothesised value)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t = num / np.sqrt(np.where(var > 0, var, 1.0))
    return np.where(var > 0, t, np.where(num > 0, np.inf, np.where(num < 0, -np.inf, 0.0)))


def _newcombe_phi(a, b, c, d, n):
    """Newcombe's corrected phi (method 10): A = ad − bc shrunk by n/2 towards 0 when positive."""
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    cross = a * d - b * c
    corrected = np.where(cross > n / 2, cross - n / 2, np.where(cross >= 0, 0.0, cross))
    with np.errstate(divide="ignore", invalid="ignore"):
        phi = corrected / np.sqrt(np.where(margins > 0, margins, 1.0))
    return np.where(margins > 0, phi, 0.0)


def _tango_statistic(b, c, n, delta):
    """Tango's score statistic T(Δ) for H0: π10 − π01 = Δ (decreasing in Δ)."""
    qa = 2 * n
    qb = -b - c + (2 * n - b + c) * delta
    qc = -c * delta * (1 - delta)
    root = np.sqrt(np.maximum(qb * qb - 4 * qa * qc, 0.0))
    # The larger root of qa π² + qb π + qc, without cancellation (qc <= 0, so it is >= 0).
    with np.errstate(divide="ignore", invalid="ignore"):
        pi01 = np.where(qb <= 0, (-qb + root) / (2 * qa), -2 * qc / np.where(qb + root > 0, qb + root, 1.0))
    var = n * (2 * pi01 + delta * (1 - delta))
    return _ratio(b - c - n * delta, var)


def _paired_limits(a, b, c, d, n, z, method):
    """(low, high) of a paired method at critical values z (arrays broadcast)."""
    if method == "wald":
        centre = (b - c) / n
        se = np.sqrt(np.maximum(b + c - (b - c) ** 2 / n, 0.0)) / n
        low, high = centre - z * se, centre + z * se
    elif method == "agresti-min":
        bt, ct, nt = b + 0.5, c + 0.5, n + 2.0
        centre = (bt - ct) / nt
        se = np.sqrt(bt + ct - (bt - ct) ** 2 / nt) / nt
        low, high = centre - z * se, centre + z * se
    elif method == "bonett-price":
        p10, p01, nt = (b + 1) / (n + 2), (c + 1) / (n + 2), n + 2.0
        centre = p10 - p01
        se = np.sqrt((p10 + p01 - centre**2) / nt)
        low, high = centre - z * se, centre + z * se
    elif method == "newcombe":
        p1, p2 = (a + b) / n, (a + c) / n
        l1, u1 = _wilson(a + b, n, z)
        l2, u2 = _wilson(a + c, n, z)
        phi = _newcombe_phi(a, b, c, d, n)
        dl1, du1, dl2, du2 = p1 - l1, u1 - p1, p2 - l2, u2 - p2
        diff = p1 - p2
        low = diff - np.sqrt(np.maximum(dl1**2 - 2 * phi * dl1 * du2 + du2**2, 0.0))
        high = diff + np.sqrt(np.maximum(du1**2 - 2 * phi * du1 * dl2 + dl2**2, 0.0))
    else:  # tango
        shape = np.broadcast_shapes(np.shape(b), np.shape(z))
        low, high = _score_limits(lambda x: _tango_statistic(b, c, n, x), z, shape)
    return np.clip(low, -1.0, 1.0), np.clip(high, -1.0, 1.0)


def _farrington_manning(p1, p2, n1, n2, delta):
    """Restricted MLE (p̃1, p̃2) with p̃1 − p̃2 = Δ (Farrington & Manning 1990, closed form)."""
    theta = n2 / n1
    a = 1 + theta
    b = -(1 + theta + p1 + theta * p2 + delta * (theta + 2))
    c = delta * delta + delta * (2 * p1 + theta + 1) + p1 + theta * p2
    d = -p1 * delta * (1 + delta)
    v = b**3 / (27 * a**3) - b * c / (6 * a * a) + d / (2 * a)
    u = np.where(v < 0, -1.0, 1.0) * np.sqrt(np.maximum(b * b / (9 * a * a) - c / (3 * a), 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        cos_arg = np.where(u != 0, v / np.where(u != 0, u, 1.0) ** 3, 0.0)
    w = (np.pi + np.arccos(np.clip(cos_arg, -1.0, 1.0))) / 3
    pt1 = 2 * u * np.cos(w) - b / (3 * a)
    pt1 = np.clip(pt1, np.maximum(0.0, delta), np.minimum(1.0, 1.0 + delta))
    # At Δ = 0 the root is the pooled proportion: take it exactly (the test is this statistic at 0).
    pt1 = np.where(delta == 0, (n1 * p1 + n2 * p2) / (n1 + n2), pt1)
    return pt1, pt1 - delta


def _mn_statistic(x1, n1, x2, n2, delta):
    """Miettinen–Nurminen score statistic for H0: p1 − p2 = Δ (decreasing in Δ)."""
    p1, p2 = x1 / n1, x2 / n2
    pt1, pt2 = _farrington_manning(p1, p2, n1, n2, delta)
    big_n = n1 + n2
    var = (pt1 * (1 - pt1) / n1 + pt2 * (1 - pt2) / n2) * big_n / (big_n - 1)
    return _ratio(p1 - p2 - delta, var)


def _independent_limits(x1, n1, x2, n2, z, method):
    p1, p2 = x1 / n1, x2 / n2
    if method == "wald":
        se = np.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
        low, high = p1 - p2 - z * se, p1 - p2 + z * se
    elif method == "agresti-caffo":
        q1, q2 = (x1 + 1) / (n1 + 2), (x2 + 1) / (n2 + 2)
        se = np.sqrt(q1 * (1 - q1) / (n1 + 2) + q2 * (1 - q2) / (n2 + 2))
        low, high = q1 - q2 - z * se, q1 - q2 + z * se
    elif method == "newcombe":
        l1, u1 = _wilson(x1, n1, z)
        l2, u2 = _wilson(x2, n2, z)
        diff = p1 - p2
        low = diff - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
        high = diff + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    else:  # miettinen-nurminen
        shape = np.broadcast_shapes(np.shape(x1), np.shape(z))
        low, high = _score_limits(lambda x: _mn_statistic(x1, n1, x2, n2, x), z, shape)
    return np.clip(low, -1.0, 1.0), np.clip(high, -1.0, 1.0)


# ----------------------------------------------------------------------------- public intervals
def paired_difference_interval(n11, n10, n01, n00, *, level: float | np.ndarray = 0.95, method: str = "newcombe") -> EffectSize:
    """Interval for ``p1 − p2`` of two systems scored on the same items.

    Parameters
    ----------
    n11, n10, n01, n00 : array-like
        Counts of the paired 2×2 table: both right, first only, second only,
        neither (they broadcast against each other and against `level`).
    level : float or array-like, default 0.95
        Confidence level(s) in (0, 1).
    method : {"newcombe", "tango", "agresti-min", "bonett-price", "wald"}
        See the module docstring for formulas and references.

    Returns
    -------
    EffectSize
        ``estimate = (n10 − n01)/n`` and the limits ``low``, ``high`` (arrays of
        the broadcast shape), and the method's name.

    Raises
    ------
    UsageError
        (a ``ValueError``) naming the bad argument: negative or non-finite
        counts, an empty table, a level outside (0, 1), an unknown method.

    Examples
    --------
    Complete response before and after consolidation therapy (Cavo et al. 2012,
    the example of Fagerland, Lydersen & Laake 2017, chapter 8):

    >>> ci = paired_difference_interval(59, 6, 16, 80)
    >>> print(f"{ci.estimate:.4f} [{ci.low:.4f}, {ci.high:.4f}]")
    -0.0621 [-0.1186, -0.0046]
    >>> ci = paired_difference_interval(59, 6, 16, 80, method="tango")
    >>> print(f"[{ci.low:.4f}, {ci.high:.4f}]")
    [-0.1240, -0.0054]

    Arrays broadcast; a table without disagreement still gets an interval:

    >>> ci = paired_difference_interval([30, 0], [0, 0], [0, 0], [0, 30], method="tango")
    >>> ci.low.round(4), ci.high.round(4)
    (array([-0.1135, -0.1135]), array([0.1135, 0.1135]))
    """
    check_choice(method, PAIRED_METHODS, "method")
    a, b, c, d, n = _paired_counts(n11, n10, n01, n00)
    z = _z(_levels(level))
    low, high = _paired_limits(a, b, c, d, n, z, method)
    estimate = np.broadcast_to((b - c) / n, low.shape)
    return EffectSize(_out(estimate), _out(low), _out(high), _PAIRED_NAMES[method])


def difference_interval(x1, n1, x2, n2, *, level: float | np.ndarray = 0.95, method: str = "miettinen-nurminen") -> EffectSize:
    """Interval for ``x1/n1 − x2/n2`` of two independent samples.

    Parameters
    ----------
    x1, n1, x2, n2 : array-like
        Successes and sizes of the two samples (broadcast).
    level : float or array-like, default 0.95
        Confidence level(s) in (0, 1).
    method : {"miettinen-nurminen", "newcombe", "agresti-caffo", "wald"}
        The default is the interval whose test is
        :func:`~stats_mtbias.significance.mcnemar.difference_test`'s default,
        so the two always agree.

    Returns
    -------
    EffectSize

    Examples
    --------
    Newcombe's (1998a) example (a), 56/70 against 48/80:

    >>> ci = difference_interval(56, 70, 48, 80)
    >>> print(f"{ci.estimate:.4f} [{ci.low:.4f}, {ci.high:.4f}]")
    0.2000 [0.0528, 0.3382]
    >>> ci = difference_interval(56, 70, 48, 80, method="newcombe")
    >>> print(f"[{ci.low:.4f}, {ci.high:.4f}]")
    [0.0524, 0.3339]

    At 10/10 against 0/20 the score interval is no point:

    >>> ci = difference_interval(10, 10, 0, 20)
    >>> print(f"[{ci.low:.4f}, {ci.high:.4f}]")
    [0.7156, 1.0000]
    """
    check_choice(method, INDEPENDENT_METHODS, "method")
    x1, n1, x2, n2 = _independent_counts(x1, n1, x2, n2)
    z = _z(_levels(level))
    low, high = _independent_limits(x1, n1, x2, n2, z, method)
    estimate = np.broadcast_to(x1 / n1 - x2 / n2, low.shape)
    return EffectSize(_out(estimate), _out(low), _out(high), _INDEPENDENT_NAMES[method])


def _out(a: np.ndarray):
    """0-d results as numpy floats (so that scalars print and compare as numbers)."""
    a = np.asarray(a, dtype=float)
    return a[()] if a.ndim == 0 else a.copy()


# ----------------------------------------------------------------------------- test from an interval
def _invert_in_z(limits: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], shape, null: float = 0.0):
    """Smallest critical value z* whose interval contains `null` (vectorised bisection on z).

    ``limits(z)`` gives (low, high) for an array of critical values; the
    intervals must widen with z. Returns z* in [0, _Z_MAX]; the two-sided
    p-value of the test that belongs to the interval is ``2 Φ(−z*)``.
    """

    def excluded(z):
        low, high = limits(z)
        return (low > null) | (high < null)

    lo = np.zeros(shape)  # excludes at lo (or lo = 0)
    hi = np.full(shape, _Z_MAX)
    for _ in range(_STEPS):
        mid = 0.5 * (lo + hi)
        out = excluded(mid)
        lo = np.where(out, mid, lo)
        hi = np.where(out, hi, mid)
    # If the null is inside even the z -> 0 interval, z* = 0 and p = 1.
    inside_at_zero = ~excluded(np.full(shape, 1e-12))
    return np.where(inside_at_zero, 0.0, hi)


def pvalue_from_interval(
    interval_fn: Callable[..., EffectSize], *args, null: float = 0.0, tol: float = 1e-12, **kwargs
) -> np.ndarray:
    """Two-sided p-value of the test that belongs to an interval family: ``1 − sup{level : null ∉ CI}``.

    The interval is computed at many levels at once (vectorised bisection on
    the level), so ``interval_fn`` must accept an array ``level`` that
    broadcasts with its other arguments, and its intervals must widen as the
    level grows (true of every interval here). Then, for every level,
    ``null`` lies outside the interval exactly when ``p < 1 − level`` (up to
    `tol` on the level).

    Parameters
    ----------
    interval_fn : callable
        ``interval_fn(*args, level=..., **kwargs)`` returning an object with
        ``low`` and ``high`` (e.g. :func:`paired_difference_interval`).
    *args, **kwargs
        Passed on to `interval_fn`.
    null : float, default 0
        The hypothesised value.
    tol : float, default 1e-12
        Precision of the level. A level is a float below 1, so p-values below
        about 1e-15 cannot be told apart this way and come out as about 1e-16;
        :func:`stats_mtbias.significance.mcnemar.paired_difference_test` and
        ``difference_test`` invert their intervals on the critical value
        instead, without that floor.

    Returns
    -------
    numpy.ndarray or float
        p-values, 1 where the null is inside every interval.

    Examples
    --------
    >>> p = pvalue_from_interval(paired_difference_interval, 59, 6, 16, 80, method="newcombe")
    >>> print(f"{p:.4f}")
    0.0340
    >>> ci = paired_difference_interval(59, 6, 16, 80, level=1 - p + 1e-9, method="newcombe")
    >>> bool(abs(ci.high) < 1e-8)
    True
    """
    if not 0 < tol < 0.1:
        raise UsageError(f"`tol` must be in (0, 0.1); got {tol!r}.")
    probe = interval_fn(*args, **kwargs)
    shape = np.shape(probe.low)
    steps = int(np.ceil(np.log2(1.0 / tol)))

    def excluded(level):
        ci = interval_fn(*args, level=level, **kwargs)
        return (np.asarray(ci.low) > null) | (np.asarray(ci.high) < null)

    tiny = 1e-300
    lo = np.full(shape, tiny)  # levels at which the null is excluded (or the smallest level)
    hi = np.full(shape, 1.0 - np.finfo(float).epsneg)
    ever = excluded(lo)
    always = excluded(hi)
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        out = excluded(mid)
        lo = np.where(out, mid, lo)
        hi = np.where(out, hi, mid)
    p = np.where(ever, 1.0 - lo, 1.0)
    p = np.where(always, np.finfo(float).epsneg, p)
    return _out(p)
