"""Closed-form power, sample size and minimum detectable effects.

Three designs have a formula:

- **Paired binary outcomes** (two systems judged right/wrong, or male/female, on
  the same items): McNemar's test. With discordance ψ = p10 + p01 (the share of
  items on which the two outcomes differ) and difference δ = p10 − p01, Connor
  (1987) gives the items needed for power 1 − β at two-sided level α

      n = (z_{1−α/2} √ψ + z_{1−β} √(ψ − δ²))² / δ²,

  e.g. ψ = 0.2, δ = 0.05 → n = 626. Because the package runs McNemar's *exact*
  test, :func:`paired_power_exact` also gives that test's exact power by
  enumerating the discordant count and its split (no simulation error).
- **One rate** (a female share, an accuracy): the expected Wilson half-width at
  the rate, or the score test against a reference value (e.g. parity 0.5).
  Clustered data (several outputs per prompt or occupation) enter through the
  design effect ``deff = 1 + (m − 1) ρ`` (``m`` outputs per cluster, ``ρ`` the
  intra-cluster correlation): ``n`` outputs carry the information of ``n / deff``
  independent ones.
- **Any asymptotically normal estimate** with a known standard error at a pilot
  size: the standard error scales as ``1/√n``, so the minimum detectable effect
  is ``(z_{1−α/2} + z_{1−β}) · SE(n)``. This is what the report uses to turn a
  comparison's interval into "no difference larger than X could be detected".

All functions are vectorised over their numeric arguments (numpy broadcasting).
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, special, stats

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_level, check_number
from stats_mtbias.errors import UsageError

# One vocabulary for every test of the package (scipy's): a one-sided plan names its direction, and the planned
# difference (a − b) must lie in it. "one-sided" (before 0.2) is read as the difference's own direction.
ALTERNATIVES = _defaults.ALTERNATIVES


def check_alternative(alternative: str, difference: float | None = None) -> str:
    """`alternative` in :data:`ALTERNATIVES`; the old ``"one-sided"`` becomes the difference's direction, with a warning."""
    import warnings

    if alternative == "one-sided":
        warnings.warn(
            "alternative='one-sided' is deprecated: say 'greater' (a > b) or 'less' (a < b); read as the "
            "direction of `difference`.",
            FutureWarning,
            stacklevel=3,
        )
        return "less" if difference is not None and difference < 0 else "greater"
    return check_choice(alternative, ALTERNATIVES, "alternative")


# Every float parameter is checked by one helper before any work (NaN passes every comparison, and would give an
# answer such as n = -9.2e18): finite, and in its range.


def _check_alpha(alpha: float) -> float:
    return check_number(alpha, "alpha", low=0, high=1, low_open=True, high_open=True, hint="the level of the test")


def _check_power(power: float) -> float:
    return check_number(power, "power", low=0, high=1, low_open=True, high_open=True, hint="the target power")


def _check_size(n, name: str = "n") -> np.ndarray:
    """Sizes: finite and positive (a size may be fractional here: effective sizes, curves)."""
    return check_number(n, name, low=0, low_open=True, hint="a number of items")


def _check_difference(difference, name: str = "difference") -> np.ndarray:
    return check_number(difference, name, hint="a difference of shares, e.g. 0.02 for 2 points")


def _check_se(se, name: str = "se", *, zero: bool = False) -> np.ndarray:
    return check_number(se, name, low=0, low_open=not zero, hint="a standard error")


def _check_deff(deff) -> np.ndarray:
    return check_number(deff, "deff", low=0, low_open=True, hint="a design effect")


def z_alpha(alpha: float, alternative: str = "two-sided") -> float:
    """Critical value of the normal test: ``z_{1−α/2}`` (two-sided) or ``z_{1−α}``."""
    alternative = check_alternative(alternative)
    alpha = _check_alpha(alpha)
    return float(special.ndtri(1.0 - (alpha / 2.0 if alternative == "two-sided" else alpha)))


def design_effect(cluster_size=1.0, icc=0.0) -> np.ndarray:
    """Kish's design effect ``1 + (m − 1) ρ`` of clusters of ``m`` outputs with intra-cluster correlation ``ρ``.

    Examples
    --------
    >>> float(design_effect(5, 0.1))
    1.4
    """
    m = np.asarray(check_number(cluster_size, "cluster_size", low=1, hint="outputs per cluster"))
    rho = np.asarray(check_number(icc, "icc", low=0, high=1, hint="the intra-cluster correlation"))
    return 1.0 + (m - 1.0) * rho


# ---------------------------------------------------------------- paired binary outcomes


def _check_paired(difference, discordance):
    d = np.abs(np.asarray(_check_difference(difference), float))
    psi = np.asarray(
        check_number(
            discordance, "discordance", low=0, high=1, low_open=True, hint="the share of items where the two outcomes differ"
        )
    )
    if np.any(d > psi):  # |δ| = ψ is a plan: one outcome never better (p01 = 0)
        raise UsageError("|`difference`| must be at most `discordance`: p10 − p01 cannot exceed p10 + p01.")
    return d, psi


def paired_sample_size(
    difference, discordance, *, alpha: float = _defaults.ALPHA, power: float = _defaults.POWER, alternative: str = "two-sided"
) -> np.ndarray:
    """Items for McNemar's test to detect ``difference`` with ``power`` (Connor 1987).

    Parameters
    ----------
    difference : float or array
        δ = p10 − p01: the difference of the two proportions (e.g. 0.05 for 5 points of accuracy).
    discordance : float or array
        ψ = p10 + p01: the share of items on which the two outcomes differ.
    alpha : float
        Level of the test.
    power : float
        Target power 1 − β.
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    numpy.ndarray of int
        Items, rounded up.

    Examples
    --------
    >>> int(paired_sample_size(0.05, 0.2))
    626
    """
    d, psi = _check_paired(difference, discordance)
    if np.any(d == 0):
        raise UsageError("`difference` must be non-zero: no sample size detects a difference of 0.")
    za, zb = z_alpha(alpha, alternative), float(special.ndtri(_check_power(power)))
    n = (za * np.sqrt(psi) + zb * np.sqrt(psi - d**2)) ** 2 / d**2
    return np.ceil(n - 1e-9).astype(int)


def paired_power(n, difference, discordance, *, alpha: float = _defaults.ALPHA, alternative: str = "two-sided") -> np.ndarray:
    """Power of McNemar's test with ``n`` items (Connor's normal approximation, both tails when two-sided).

    Examples
    --------
    >>> round(float(paired_power(626, 0.05, 0.2)), 3)
    0.8
    """
    d, psi = _check_paired(difference, discordance)
    n = np.asarray(check_number(n, "n", low=0, hint="a number of items"))
    za = z_alpha(alpha, alternative)
    sd = np.sqrt(psi - d**2)
    with np.errstate(divide="ignore", invalid="ignore"):  # ψ = |δ| = 1: sd 0, every item one way (z = ±inf or 0/0)
        power = special.ndtr((d * np.sqrt(n) - za * np.sqrt(psi)) / sd)
        if alternative == "two-sided":
            power = power + special.ndtr((-d * np.sqrt(n) - za * np.sqrt(psi)) / sd)
        # sd 0: the test rejects if the difference is beyond the critical value (d = |δ| >= 0: the other tail never).
        certain = (d * np.sqrt(n) > za * np.sqrt(psi)).astype(float)
    return np.where(sd > 0, power, certain)


def paired_mde(
    n, discordance, *, alpha: float = _defaults.ALPHA, power: float = _defaults.POWER, alternative: str = "two-sided"
) -> np.ndarray:
    """Smallest difference ``|p10 − p01|`` McNemar's test detects with ``power`` on ``n`` items (NaN if none below ψ).

    Examples
    --------
    >>> round(float(paired_mde(626, 0.2)), 4)
    0.05
    """
    power = _check_power(power)
    _check_alpha(alpha)
    _check_paired(0.0, discordance)
    n_arr, psi_arr = np.broadcast_arrays(np.asarray(_check_size(n), float), np.asarray(discordance, float))
    out = np.full(n_arr.shape, np.nan)
    for idx in np.ndindex(n_arr.shape):
        psi, size = float(psi_arr[idx]), float(n_arr[idx])
        top = psi * (1 - 1e-12)

        def f(d, size=size, psi=psi):
            return float(paired_power(size, d, psi, alpha=alpha, alternative=alternative)) - power

        if f(top) >= 0:
            out[idx] = optimize.brentq(f, 1e-12, top, xtol=1e-10)
    return out


PAIRED_TESTS = ("exact", "asymptotic")


def _rejection_region(m: np.ndarray, alpha: float, alternative: str, test: str) -> tuple[np.ndarray, np.ndarray]:
    """Per discordant count ``m``: the test rejects when ``k <= low`` or ``k >= high``.

    ``exact``: the sign test (McNemar's exact test) at ``alpha``; ``asymptotic``:
    McNemar's chi-square, ``|2k − m| / √m >= z``.
    """
    tail = alpha / 2.0 if alternative == "two-sided" else alpha
    if test == "exact":
        # Largest k with P(K <= k) <= tail under Bin(m, 1/2); -1 when none.
        q = stats.binom.ppf(tail, m, 0.5)
        low = np.where(stats.binom.cdf(q, m, 0.5) <= tail, q, q - 1)
    else:
        z = float(special.ndtri(1.0 - tail))
        low = np.floor((m - z * np.sqrt(m)) / 2.0 + 1e-9)
        low = np.where(m > 0, low, -1.0)
    high = m - low  # symmetric under 1/2
    if alternative != "two-sided":  # one-sided in the direction of the difference
        low = np.full_like(low, -1.0)
    return low, high


def _exact_power_one(size: int, d: float, psi: float, alpha: float, alternative: str, test: str) -> float:
    return float(_exact_powers(np.array([size]), d, psi, alpha, alternative, test)[0])


def _reject(top: int, d: float, psi: float, alpha: float, alternative: str, test: str) -> np.ndarray:
    """P(the test rejects | m discordant items) for m = 0..top: it does not depend on the number of items."""
    m = np.arange(top + 1, dtype=float)
    low, high = _rejection_region(m, alpha, alternative, test)
    pi = (psi + abs(d)) / (2.0 * psi)  # the rejection region faces the difference: only |δ| matters, as in Connor's
    return stats.binom.cdf(low, m, pi) + stats.binom.sf(high - 1, m, pi)


def _exact_powers(sizes: np.ndarray, d: float, psi: float, alpha: float, alternative: str, test: str) -> np.ndarray:
    """Exact power at each of ``sizes`` items: the rejection probability given m discordant items, weighted by
    each size's Bin(n, ψ) law of m."""
    sizes = np.asarray(sizes, dtype=int)
    reject = _reject(int(sizes.max()), d, psi, alpha, alternative, test)
    # Only the discordant counts within 12 SDs of the sizes' means carry probability (the rest < 1e-30).
    spread = 12 * np.sqrt(sizes.max() * psi * (1 - psi)) + 1
    m = np.arange(max(0, int(sizes.min() * psi - spread)), min(reject.size, int(sizes.max() * psi + spread) + 1))
    return stats.binom.pmf(m[None, :], sizes[:, None], psi) @ reject[m]


def _power_curve(top: int, d: float, psi: float, alpha: float, alternative: str, test: str) -> np.ndarray:
    """Exact power at every n = 0..top: the law of the discordant count grows one item at a time
    (``P_{n+1}(m) = (1 − ψ) P_n(m) + ψ P_n(m − 1)``), kept to the counts within 12 SDs of nψ (the rest holds
    less than 1e-30 of the probability), so O(top^1.5) in all."""
    reject = _reject(top, d, psi, alpha, alternative, test)
    law, first, out = np.ones(1), 0, np.empty(top + 1)  # law[i] = P(M_n = first + i)
    out[0] = reject[0]
    for n in range(1, top + 1):
        law = np.concatenate([law * (1 - psi), [0.0]]) + np.concatenate([[0.0], law * psi])
        spread = 12 * np.sqrt(n * psi * (1 - psi)) + 1
        keep_from, keep_to = max(first, int(n * psi - spread)), min(first + law.size, int(n * psi + spread) + 1)
        law, first = law[keep_from - first : keep_to - first], keep_from
        out[n] = law @ reject[first : first + law.size]
    return out


def _first_stable(power: np.ndarray, target: float) -> int | None:
    """The first n >= 1 whose power and that of every n of the next 5% (at least 2) reach ``target``; None if no n
    of the curve can be judged (its window runs past the end)."""
    below = np.concatenate([[0], np.cumsum(power < target)])  # below[k]: n < k with power under the target
    n = np.arange(1, power.size)
    end = n + 1 + np.maximum(2, (0.05 * n).astype(int))  # the window [n, end)
    judged = end <= power.size
    ok = judged & (below[np.minimum(end, power.size)] - below[n] == 0)
    return int(n[ok][0]) if ok.any() else None


def paired_power_exact(
    n, difference, discordance, *, alpha: float = _defaults.ALPHA, alternative: str = "two-sided", test: str = "exact"
) -> np.ndarray:
    """Power of McNemar's test with ``n`` items, computed exactly (no normal approximation, no simulation).

    The discordant count is M ~ Bin(n, ψ); given M = m, the items favouring the
    first outcome are K ~ Bin(m, (ψ + δ)/(2ψ)). The power sums the test's
    rejection region over both. ``test="exact"`` is the sign test the package
    runs; ``"asymptotic"`` McNemar's chi-square, the test Connor's formula
    approximates. One-sided: the tail in the direction of δ (``"less"`` plans δ < 0), so only ``abs(δ)`` matters.

    Examples
    --------
    >>> round(float(paired_power_exact(626, 0.05, 0.2)), 3)
    0.779
    >>> round(float(paired_power_exact(626, 0.05, 0.2, test="asymptotic")), 3)
    0.803
    """
    alpha = _check_alpha(alpha)
    alternative = check_alternative(alternative)
    check_choice(test, PAIRED_TESTS, "test")
    _check_paired(difference, discordance)
    shape = np.broadcast_shapes(np.shape(n), np.shape(difference), np.shape(discordance))
    sizes = np.asarray(n, float)
    bad = ~np.isfinite(sizes) | (sizes < 0) | (sizes != np.round(sizes))
    if np.any(bad):
        raise UsageError(
            f"`n` must be whole numbers of items, 0 or more; got {sizes[bad].ravel()[0]:g} ({int(np.sum(bad))} such)."
        )
    n_arr = np.broadcast_to(sizes.astype(np.int64), shape).ravel()
    d_arr = np.broadcast_to(np.abs(np.asarray(difference, float)), shape).ravel()  # only |δ| matters
    psi_arr = np.broadcast_to(np.asarray(discordance, float), shape).ravel()
    out = np.empty(n_arr.size)
    # One product per plan (δ, ψ) and block of sizes: the block's sizes share one rejection vector. A block is
    # neighbouring sizes whose pmf matrix (sizes x discordant counts spanned) stays under 2 million cells.
    plans, which = np.unique(np.stack([d_arr, psi_arr], axis=1), axis=0, return_inverse=True)
    for k, (d, psi) in enumerate(plans):
        members = np.flatnonzero(which.ravel() == k)
        members = members[np.argsort(n_arr[members], kind="stable")]
        start = 0
        while start < members.size:
            sizes = n_arr[members[start:]]
            cells = np.arange(1, sizes.size + 1) * (psi * (sizes - sizes[0]) + 24 * np.sqrt(sizes * psi * (1 - psi)) + 2)
            stop = start + max(1, int(np.searchsorted(cells, 2e6, side="right")))
            block = members[start:stop]
            out[block] = _exact_powers(n_arr[block], float(d), float(psi), alpha, alternative, test)
            start = stop
    return out.reshape(shape)


def paired_sample_size_exact(
    difference,
    discordance,
    *,
    alpha: float = _defaults.ALPHA,
    power: float = _defaults.POWER,
    alternative: str = "two-sided",
    test: str = "exact",
) -> int:
    """Smallest n from which McNemar's test (exact power) keeps at least ``power``.

    The power of a discrete test saw-tooths in n; the answer is the first n
    after which it does not fall below the target again within 5% of n, so a
    slightly larger evaluation never has less power. The exact power is
    computed at every n up to past Connor's n (one item at a time), so the
    answer is the first such n, not one a search happened to land on.

    Examples
    --------
    >>> paired_sample_size_exact(0.05, 0.2)
    658
    """
    power = _check_power(power)
    d, psi = (float(v) for v in _check_paired(difference, discordance))
    f = lambda k: _exact_power_one(int(k), d, psi, alpha, alternative, test)  # noqa: E731
    # hi: a size at or above the target, from Connor's n.
    hi = max(1, int(paired_sample_size(d, psi, alpha=alpha, power=power, alternative=alternative)))
    while f(hi) < power:
        hi *= 2
        if hi > 10_000_000:
            raise UsageError("McNemar's test does not reach that power below 10 million items.")
    # The power at every n up to past hi: the first stable n is read off the whole curve (a search from a guess
    # can land on a later crossing of the saw-tooth). hi itself may sit on a crossing that dips again: go further.
    top = hi
    while True:
        found = _first_stable(_power_curve(int(1.06 * top) + 3, d, psi, alpha, alternative, test), power)
        if found is not None:
            return found
        top *= 2


# ---------------------------------------------------------------- one rate


def _check_rate(rate, name: str = "rate") -> np.ndarray:
    return np.asarray(check_number(rate, name, low=0, high=1, hint="a share, not percent"))


def rate_half_width(n, rate, *, level: float = _defaults.LEVEL, deff=1.0) -> np.ndarray:
    """Half-width of the Wilson interval at an observed share ``rate`` on ``n`` outputs (effective ``n / deff``).

    Examples
    --------
    >>> round(float(rate_half_width(1000, 0.5)), 4)
    0.0309
    """
    p = _check_rate(rate)
    n_eff = np.asarray(_check_size(n), float) / np.asarray(_check_deff(deff), float)
    z = float(special.ndtri(0.5 + check_level(level) / 2.0))
    return z / (1.0 + z**2 / n_eff) * np.sqrt(p * (1 - p) / n_eff + z**2 / (4.0 * n_eff**2))


def rate_sample_size(half_width, rate, *, level: float = _defaults.LEVEL, deff=1.0) -> np.ndarray:
    """Outputs for a Wilson interval no wider than ``± half_width`` at the expected ``rate``.

    Examples
    --------
    >>> int(rate_sample_size(0.03, 0.5))
    1064
    """
    check_level(level)
    w_arr, p_arr, deff_arr = np.broadcast_arrays(
        np.asarray(
            check_number(half_width, "half_width", low=0, high=0.5, low_open=True, high_open=True, hint="a share, not percent")
        ),
        _check_rate(rate),
        np.asarray(_check_deff(deff)),
    )
    out = np.empty(w_arr.shape, dtype=int)
    for idx in np.ndindex(w_arr.shape):
        w, p, de = float(w_arr[idx]), float(p_arr[idx]), float(deff_arr[idx])

        def f(n, p=p, de=de, w=w):
            return float(rate_half_width(n, p, level=level, deff=de)) - w

        hi = 10.0
        while f(hi) > 0:
            hi *= 2
        out[idx] = int(np.ceil(optimize.brentq(f, 1e-6, hi, xtol=1e-9) - 1e-9))
    return out


def rate_power(n, rate, reference, *, alpha: float = _defaults.ALPHA, alternative: str = "two-sided", deff=1.0) -> np.ndarray:
    """Power of the score test of ``H0: share = reference`` when the true share is ``rate``.

    Examples
    --------
    >>> round(float(rate_power(194, 0.4, 0.5)), 3)
    0.8
    """
    p, p0 = _check_rate(rate), _check_rate(reference, "reference")
    n_eff = np.asarray(_check_size(n), float) / np.asarray(_check_deff(deff), float)
    za = z_alpha(alpha, alternative)
    sd0, sd1 = np.sqrt(p0 * (1 - p0)), np.sqrt(p * (1 - p))
    d = np.abs(p - p0)
    with np.errstate(divide="ignore", invalid="ignore"):
        power = special.ndtr((d * np.sqrt(n_eff) - za * sd0) / sd1)
        if alternative == "two-sided":
            power = power + special.ndtr((-d * np.sqrt(n_eff) - za * sd0) / sd1)
    return power


def rate_sample_size_test(
    rate, reference, *, alpha: float = _defaults.ALPHA, power: float = _defaults.POWER, alternative: str = "two-sided", deff=1.0
) -> np.ndarray:
    """Outputs for the score test against ``reference`` to detect the share ``rate`` with ``power``.

    ``n = deff · (z_α √(p0 q0) + z_β √(p q))² / (p − p0)²`` (one tail; two-sided α).

    Examples
    --------
    >>> int(rate_sample_size_test(0.4, 0.5))
    194
    """
    p, p0 = _check_rate(rate), _check_rate(reference, "reference")
    if np.any(p == p0):
        raise UsageError("`rate` must differ from `reference`: no sample size detects a difference of 0.")
    za, zb = z_alpha(alpha, alternative), float(special.ndtri(_check_power(power)))
    n = np.asarray(_check_deff(deff), float) * (za * np.sqrt(p0 * (1 - p0)) + zb * np.sqrt(p * (1 - p))) ** 2 / (p - p0) ** 2
    return np.ceil(n - 1e-9).astype(int)


# ---------------------------------------------------------------- any normal estimate


def normal_power(difference, se, *, alpha: float = _defaults.ALPHA, alternative: str = "two-sided") -> np.ndarray:
    """Power of the Wald test of a difference with standard error ``se`` (both tails when two-sided)."""
    d, se = np.abs(np.asarray(_check_difference(difference), float)), np.asarray(_check_se(se), float)
    za = z_alpha(alpha, alternative)
    with np.errstate(divide="ignore", invalid="ignore"):
        power = special.ndtr(d / se - za)
        if alternative == "two-sided":
            power = power + special.ndtr(-d / se - za)
    return power


def normal_mde(
    se, *, alpha: float = _defaults.ALPHA, power: float = _defaults.POWER, alternative: str = "two-sided"
) -> np.ndarray:
    """Minimum detectable difference ``(z_α + z_β) · se`` of a Wald test (the far tail, < α/2, ignored).

    Examples
    --------
    >>> round(float(normal_mde(1.0)), 3)
    2.802
    """
    return _mde(np.asarray(_check_se(se, zero=True), float), alpha, power, alternative)


def _mde(se: np.ndarray, alpha: float, power: float, alternative: str = "two-sided") -> np.ndarray:
    """:func:`normal_mde` of checked (or NaN: no interval) standard errors."""
    return (z_alpha(alpha, alternative) + float(special.ndtri(_check_power(power)))) * se


def normal_sample_size(
    difference, se, n, *, alpha: float = _defaults.ALPHA, power: float = _defaults.POWER, alternative: str = "two-sided"
) -> np.ndarray:
    """Size at which an estimate with standard error ``se`` on ``n`` units detects ``difference`` (SE ∝ 1/√n)."""
    d = np.abs(np.asarray(_check_difference(difference), float))
    if np.any(d == 0):
        raise UsageError("`difference` must be non-zero: no sample size detects a difference of 0.")
    k = (normal_mde(_check_se(se), alpha=alpha, power=power, alternative=alternative) / d) ** 2
    return np.ceil(np.asarray(_check_size(n), float) * k - 1e-9).astype(int)


def mde_from_interval(
    ci_low, ci_high, *, level: float = _defaults.LEVEL, alpha: float = _defaults.ALPHA, power: float = _defaults.POWER
) -> np.ndarray:
    """Minimum detectable difference (two-sided ``alpha``, ``power``) read off a comparison's interval.

    The interval's width gives the standard error ``(high − low) / (2 z_{(1+level)/2})``;
    the MDE is ``(z_{1−α/2} + z_{power})`` times it: the smallest true difference
    the same evaluation would have found with that power. For a 95% interval
    and 80% power it is 0.71 times the interval's width (2.80 / 3.92).

    Examples
    --------
    >>> round(float(mde_from_interval(-1.96, 1.96)), 3)
    2.802
    """
    z_level = float(special.ndtri(0.5 + check_level(level) / 2.0))
    se = (np.asarray(ci_high, float) - np.asarray(ci_low, float)) / (2.0 * z_level)
    return _mde(se, _check_alpha(alpha), power)  # an estimate without an interval (NaN) has no MDE


# ---------------------------------------------------------------- equivalence (TOST)


def tost_power(difference, se, margin, *, alpha: float = _defaults.ALPHA, alternative: str = "two-sided") -> np.ndarray:
    """Power of the two one-sided tests (TOST) of ``|Δ| < margin`` for an estimate with standard error ``se``.

    Two-sided (equivalence): ``Φ((δ − d)/se − z_{1−α}) + Φ((δ + d)/se − z_{1−α}) − 1``, at least 0 (the
    normal approximation, exact for a known ``se``); ``greater`` (non-inferiority, ``H0: Δ ≤ −δ``):
    ``Φ((d + δ)/se − z_{1−α})``; ``less`` (``H0: Δ ≥ δ``): ``Φ((δ − d)/se − z_{1−α})``.

    Examples
    --------
    A true difference of 0, a margin of 3 standard errors: each test rejects with Φ(3 − 1.645) = 0.9123.

    >>> round(float(tost_power(0.0, 1.0, 3.0)), 4)
    0.8246
    """
    d = np.asarray(_check_difference(difference), float)
    se = np.asarray(_check_se(se), float)
    margin = np.asarray(margin, float)
    alternative = check_alternative(alternative)
    z = float(special.ndtri(1.0 - _check_alpha(alpha)))
    with np.errstate(divide="ignore", invalid="ignore"):
        lower = special.ndtr((margin + d) / se - z)  # rejects H0: Δ ≤ −δ
        upper = special.ndtr((margin - d) / se - z)  # rejects H0: Δ ≥ δ
    if alternative == "greater":
        return lower
    if alternative == "less":
        return upper
    return np.maximum(lower + upper - 1.0, 0.0)


def tost_sample_size(
    difference,
    unit_sd,
    margin,
    *,
    alpha: float = _defaults.ALPHA,
    power: float = _defaults.POWER,
    alternative: str = "two-sided",
) -> int:
    """Smallest n with :func:`tost_power` ``>= power`` when the standard error is ``unit_sd / √n``.

    Examples
    --------
    Paired items whose difference has standard deviation 0.3, a true difference of 0 and a margin of 0.05:

    >>> tost_sample_size(0.0, 0.3, 0.05)
    309
    """
    d, margin = float(difference), float(margin)
    power = _check_power(power)
    outside = {"two-sided": abs(d) >= margin, "greater": d <= -margin, "less": d >= margin}[check_alternative(alternative)]
    if outside:
        raise UsageError(
            f"no sample size shows equivalence within ±{margin:g} of a true difference {d:g}: it must lie inside the margin."
        )
    unit_sd = float(unit_sd)

    def short(n: float) -> float:
        return float(tost_power(d, unit_sd / np.sqrt(n), margin, alpha=alpha, alternative=alternative)) - power

    top = 2.0
    while short(top) < 0:
        top *= 2.0
        if top > 1e15:
            raise UsageError("the planned equivalence needs more than 1e15 units: widen the margin.")
    n = optimize.brentq(short, top / 2.0 if top > 2 else 1.0, top, xtol=1e-6) if short(1.0) < 0 else 1.0
    size = max(1, int(np.ceil(n - 1e-9)))
    while short(size) < 0:  # the root rounded down by brentq's tolerance
        size += 1
    return size
