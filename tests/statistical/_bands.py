"""Two-sided acceptance bands for simulated coverage and size, and how often a wrong method passes them.

A coverage (or size) estimated from ``reps`` simulated data sets is a binomial
proportion with Monte-Carlo standard error ``√(c (1 − c) / reps)``. A band
``nominal ± k·SE`` (k = 3 by default) is what a sound method must meet; its
worth is how often a method that is *wrong* passes it anyway. For a method whose
true coverage is ``nominal ± off`` (``off`` = 2 points by default) that
probability is exact here (binomial sums, no normal approximation):
:func:`pass_probability`. A band is useful when it is at most 10% on both sides,
which needs about 2,500 replications at 95% — :func:`replications_for` finds
the smallest number.

Each tail of an interval is checked apart (nominal 2.5% each at 95%: an
interval that misses only on one side can have the right total coverage), in
``(1 ± 0.8) × 2.5%`` (:func:`tail_bands`); and the size of a test (nominal 5%, with a lower limit that a test which
never rejects fails).

Every test that uses a band prints a line (shown with ``pytest -rA`` or ``-s``)::

    BAND <label>: 0.9512 in [0.9369, 0.9631] (2,500 reps, nominal 0.95); off by 0.02 passes with p = 0.083
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

MAX_PASS = 0.10  # a method off by `off` may pass a band at most this often
OFF = 0.02  # "off by 2 points"
K_SE = 3.0  # half-width of a band in Monte-Carlo standard errors of the nominal


def mc_se(value: float, reps: int) -> float:
    """Monte-Carlo standard error of a proportion ``value`` estimated from ``reps`` replications."""
    return float(np.sqrt(value * (1.0 - value) / reps))


@dataclass(frozen=True)
class Band:
    """Acceptance band ``[low, high]`` for a proportion estimated from ``reps`` replications around ``nominal``."""

    nominal: float
    reps: int
    low: float
    high: float
    label: str = ""
    off: float = OFF  # how far off a wrong method is (2 points; a tail: its nominal, i.e. no misses or twice as many)
    wrong: tuple[float, float] | None = None  # the wrong methods' values, if not nominal ± off (a discrete band's)

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high

    def pass_probability(self, true: float) -> float:
        """P(the estimate from ``reps`` replications lands in the band) when the true value is ``true``."""
        return pass_probability(self.low, self.high, self.reps, true)

    def wrong_pass(self, off: float | None = None) -> float:
        """The larger pass probability of a method whose true value is ``nominal − off`` or ``nominal + off``."""
        off = self.off if off is None else off
        if self.wrong is not None:
            return max(self.pass_probability(v) for v in self.wrong)
        return max(self.pass_probability(max(self.nominal - off, 0.0)), self.pass_probability(min(self.nominal + off, 1.0)))

    def check(self, value: float, label: str | None = None, *, max_pass: float = MAX_PASS) -> str:
        """Assert ``value`` is in the band and that the band rejects a method off by ``off``; print and return the line."""
        wrong = self.wrong_pass()
        at = f"at {self.wrong[0]:.4f} or {self.wrong[1]:.4f}" if self.wrong else f"off by {self.off:.3g}"
        line = (
            f"BAND {label or self.label}: {value:.4f} in [{self.low:.4f}, {self.high:.4f}] ({self.reps:,} reps, "
            f"nominal {self.nominal:.3g}); a method {at} passes with p = {wrong:.3f}"
        )
        print(line)
        assert wrong <= max_pass, f"{line}: the band is too loose (more than {max_pass} for a method {at})"
        assert self.contains(value), line
        return line


def pass_probability(low: float, high: float, reps: int, true: float) -> float:
    """Exact P(low ≤ X / reps ≤ high) for X ~ Binomial(reps, true)."""
    hi = np.floor(high * reps + 1e-9)
    lo = np.ceil(low * reps - 1e-9)
    return float(stats.binom.cdf(hi, reps, true) - stats.binom.cdf(lo - 1, reps, true))


def band(nominal: float, reps: int, k: float = K_SE, label: str = "") -> Band:
    """``nominal ± k`` Monte-Carlo SEs (of the nominal), clipped to [0, 1]."""
    half = k * mc_se(nominal, reps)
    return Band(nominal, reps, max(0.0, nominal - half), min(1.0, nominal + half), label)


def coverage_band(level: float, reps: int, k: float = K_SE) -> Band:
    return band(level, reps, k, "coverage")


TAIL_SLACK = 0.8  # a tail's miss rate within (1 ± 0.8) × nominal: 0.005 to 0.045 at 95%, as in test_exact_differences


def tail_bands(level: float, reps: int) -> tuple[Band, Band]:
    """Bands of the two tails' miss rates (nominal ``(1 − level)/2`` each): below the lower end, above the upper.

    ``(1 ± 0.8) × nominal``: square-and-add (MOVER) intervals are known to miss more often on the side of 0
    (mesially; Newcombe 1998a, Fagerland et al. 2014) by up to about two points; what must fail is a one-sided
    interval, a tail with no misses or twice the nominal rate (the band's ``off`` is the nominal itself).
    At 4,000 replications either passes with probability below 0.10.
    """
    tail = (1.0 - level) / 2.0
    low, high = tail * (1 - TAIL_SLACK), tail * (1 + TAIL_SLACK)
    return Band(tail, reps, low, high, "miss below", off=tail), Band(tail, reps, low, high, "miss above", off=tail)


def size_band(alpha: float, reps: int, k: float = K_SE) -> Band:
    """Band of a test's rejection rate at the null: a test that never rejects (size 0) fails it."""
    b = band(alpha, reps, k, "size")
    assert b.low > 0, "too few replications: a test that never rejects would pass"
    return b


def replications_for(nominal: float, off: float = OFF, k: float = K_SE, max_pass: float = MAX_PASS) -> int:
    """Smallest ``reps`` (a multiple of 100) at which a ``k``-SE band passes a method off by ``off`` at most ``max_pass``."""
    reps = 100
    while band(nominal, reps, k).wrong_pass(off) > max_pass:
        reps += 100
    return reps


def check_interval(low, high, truth, level: float, label: str, *, k: float = K_SE) -> dict[str, float]:
    """Coverage and each tail's miss rate of simulated intervals against their bands (asserted and printed).

    ``truth`` broadcasts against ``low`` and ``high`` (one value per data set, or one for all).
    """
    low, high = np.asarray(low, float), np.asarray(high, float)
    reps = low.size
    below = float(np.mean(np.asarray(truth) < low))  # the interval lies above the truth
    above = float(np.mean(np.asarray(truth) > high))
    cover = 1.0 - below - above
    coverage_band(level, reps, k).check(cover, f"{label} coverage")
    lower_tail, upper_tail = tail_bands(level, reps)
    lower_tail.check(below, f"{label} misses with the truth below the interval")
    upper_tail.check(above, f"{label} misses with the truth above the interval")
    return {"coverage": cover, "below": below, "above": above}


def discrete_band(level: float, reps: int, exact: float, k: float = K_SE, label: str = "") -> Band:
    """A discrete regime's band: ``level − k SE`` up to the exact method's coverage ``exact`` + k SE (at least the usual).

    The wrong methods are one 2 points below the nominal and one 2 points above the exact method.
    """
    usual = band(level, reps, k)
    high = max(usual.high, exact + k * mc_se(exact, reps))
    return Band(level, reps, usual.low, min(high, 1.0), label, wrong=(level - OFF, min(exact + OFF, 1.0)))


def clopper_pearson_coverage(n: int, p: float, level: float = 0.95) -> float:
    """Exact coverage of the Clopper–Pearson interval for Binomial(n, p): the exact method's coverage at that count."""
    alpha = 1.0 - level

    def interval(k, size):  # written out from the beta quantiles, independent of the package's own
        with np.errstate(invalid="ignore"):
            low = np.where(k > 0, stats.beta.ppf(alpha / 2, k, size - k + 1), 0.0)
            return low, np.where(k < size, stats.beta.ppf(1 - alpha / 2, k + 1, size - k), 1.0)

    return enumerated_coverage(interval, n, p)[0]


def clopper_pearson_ceiling(n: int, rate: float, spread: float = 0.1, level: float = 0.95) -> float:
    """The exact method's coverage in a regime, not at one point: the largest Clopper–Pearson coverage over
    ``rate × (1 ± spread)``. Its coverage saw-tooths in the rate (0.962–0.991 within ± 10% of 3.5 events in
    496), so a method whose count is not the raw count (TGBI's g = p_w p_m + p_n) is compared with the exact
    method over the rates it could be mistaken for."""
    grid = np.linspace(rate * (1 - spread), min(rate * (1 + spread), 1.0), 201)
    return max(clopper_pearson_coverage(n, float(q), level) for q in grid)


def discrete_size_band(alpha: float, reps: int, exact: float, k: float = K_SE, label: str = "") -> Band:
    """A discrete test's size band: down to its exact size ``exact`` − k SE (at most the usual lower limit), up to
    ``alpha`` + k SE. An exact conditional test (a sign test) rejects less often than ``alpha`` by discreteness; the
    size it has is computed by enumeration. The wrong tests are one 2 points below ``exact`` and one 2 points above
    ``alpha``; a test that never rejects still fails (the lower limit stays above 0).
    """
    usual = size_band(alpha, reps, k)
    low = min(usual.low, exact - k * mc_se(exact, reps))
    assert low > 0, "too few replications: a test that never rejects would pass"
    return Band(alpha, reps, low, usual.high, label, wrong=(max(exact - OFF, 0.0), alpha + OFF))


# A method's own coverage, enumerated (no Monte-Carlo error) where its interval is a function of one binomial count.
METHOD_OFF = 0.015  # an approximate method's exact coverage may sit this far from the nominal (see check_method)


def enumerated_coverage(interval, n: int, p: float) -> tuple[float, float, float]:
    """Exact ``(coverage, below, above)`` of ``interval(k, n) -> (low, high)`` for k ~ Binomial(n, p), by enumeration."""
    k = np.arange(n + 1)
    low, high = (np.asarray(x, float) for x in interval(k, n))
    pmf = stats.binom.pmf(k, n, p)
    below, above = float(pmf @ (p < low)), float(pmf @ (p > high))
    return 1.0 - below - above, below, above


def method_band(reps: int, exact: float, k: float = K_SE, label: str = "") -> Band:
    """The simulation of a method whose exact coverage ``exact`` is known: ``exact ± k SE`` (its implementation, as
    simulated, is that method); a simulation 2 points from it passes with p <= 0.10 at 4,000 replications."""
    half = k * mc_se(exact, reps)
    return Band(
        exact, reps, max(0.0, exact - half), min(1.0, exact + half), label, wrong=(max(exact - OFF, 0.0), min(exact + OFF, 1.0))
    )


def check_method(exact: float, level: float, label: str, *, ceiling: float | None = None) -> str:
    """A method's exact coverage against the nominal, no Monte-Carlo error: within ``level ± METHOD_OFF``, up to the
    exact (Clopper–Pearson) method's coverage ``ceiling`` where that is higher (a discrete regime).

    ± 1.5 points: Wilson's coverage oscillates with p (Brown, Cai & DasGupta 2001); the package's female-rate
    interval's minimum over p in (0, 0.5] is 0.936–0.938 at 100, 300 and 1,018 outputs
    (``test_bands``), so a dip to 0.937 is that method, while a method 2 points off (0.93, or 0.97 where the exact
    method covers less) fails for certain.
    """
    high = max(level + METHOD_OFF, ceiling if ceiling is not None else 0.0)
    line = f"METHOD {label}: exact coverage {exact:.4f} in [{level - METHOD_OFF:.4f}, {high:.4f}] (enumerated)"
    print(line)
    assert level - METHOD_OFF <= exact <= high + 1e-9, line  # 1e-9: the same k's covered as the ceiling's, summed apart
    return line
