"""Exact coverage and size of the difference intervals and tests, by enumerating every table.

Paired data: all (n11, n10, n01, n00) with sum n (O(n³) tables) weighted by the
multinomial probabilities of (π11, π10, π01, π00). Independent samples: all
(x1, x2) weighted by two binomials. No Monte Carlo error: the coverage of an
interval is Σ P(table) · [low ≤ Δ ≤ high] summed over every table.

Intervals and p-values do not depend on the parameters, so they are computed
once per (n, method) and cached; each parameter point then costs one vector of
probabilities.

``python -m tests.statistical._exact`` prints the table of docs/methods-differences.md.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy import special, stats

from stats_mtbias.significance.mcnemar import difference_test, mcnemar_test, paired_difference_test
from stats_mtbias.uncertainty.differences import difference_interval, paired_difference_interval

PAIRED_METHODS = ("newcombe", "tango", "agresti-min", "bonett-price", "wald")
INDEPENDENT_METHODS = ("miettinen-nurminen", "newcombe", "agresti-caffo", "wald")


# ----------------------------------------------------------------------------- paired
@functools.lru_cache(maxsize=8)
def paired_tables(n: int) -> tuple[np.ndarray, ...]:
    """Every paired table of n items: arrays (n11, n10, n01, n00), each of length C(n+3, 3)."""
    b, c, a = np.meshgrid(np.arange(n + 1), np.arange(n + 1), np.arange(n + 1), indexing="ij")
    keep = a + b + c <= n
    a, b, c = a[keep], b[keep], c[keep]
    return a, b, c, n - a - b - c


def paired_probabilities(n: int, pi) -> np.ndarray:
    """Multinomial probabilities of every table of :func:`paired_tables` under pi = (π11, π10, π01, π00)."""
    cells = paired_tables(n)
    log_p = special.gammaln(n + 1)
    for k, p in zip(cells, pi, strict=True):
        log_p = log_p - special.gammaln(k + 1) + (k * np.log(p) if p > 0 else np.where(k == 0, 0.0, -np.inf))
    return np.exp(log_p)


@functools.lru_cache(maxsize=64)
def paired_intervals(n: int, method: str, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    ci = paired_difference_interval(*paired_tables(n), level=level, method=method)
    return ci.low, ci.high


@functools.lru_cache(maxsize=64)
def paired_pvalues(n: int, test: str) -> np.ndarray:
    """p-values of every table: ``test`` is a McNemar method or ``"interval:<method>"`` (the interval's own test)."""
    a, b, c, d = paired_tables(n)
    if test.startswith("interval:"):
        return paired_difference_test(a, b, c, d, method=test.split(":", 1)[1]).pvalue
    return mcnemar_test(b, c, method=test).pvalue


def paired_coverage(n: int, method: str, pi, level: float = 0.95) -> tuple[float, float, float]:
    """(coverage, P(Δ < low), P(Δ > high)) of a paired interval at pi, exactly."""
    low, high = paired_intervals(n, method, level)
    prob = paired_probabilities(n, pi)
    delta = pi[1] - pi[2]
    miss_low = float(prob @ (low > delta))  # the truth lies below the lower limit
    miss_high = float(prob @ (high < delta))  # the truth lies above the upper limit
    return 1.0 - miss_low - miss_high, miss_low, miss_high


def paired_size(n: int, test: str, pi, alpha: float = 0.05) -> float:
    """P(p < alpha) at pi (pi[1] = pi[2] for the size)."""
    return float(paired_probabilities(n, pi) @ (paired_pvalues(n, test) < alpha))


def paired_grid() -> list[tuple[float, float, float, float]]:
    """48 parameter points: π10, π01 ∈ {.01, .05, .15, .3}; the rest split 2/98, 50/50, 98/2 between π11 and π00.

    Covers accuracies near 0 (π11 small), near 1 (π00 small, e.g. accuracies .98/.98
    with π10 = π01 = .01) and in between, differences from −.29 to +.29 and 0.
    """
    points = []
    for p10 in (0.01, 0.05, 0.15, 0.3):
        for p01 in (0.01, 0.05, 0.15, 0.3):
            rest = 1 - p10 - p01
            for share in (0.02, 0.5, 0.98):
                points.append((rest * share, p10, p01, rest * (1 - share)))
    return points


def paired_null_grid() -> list[tuple[float, float, float, float]]:
    """24 points with Δ = 0: π10 = π01 ∈ {.005, .01, .02, .05, .1, .2, .3, .45}, the rest split as in the grid."""
    points = []
    for pd in (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.45):
        rest = 1 - 2 * pd
        for share in (0.02, 0.5, 0.98):
            points.append((rest * share, pd, pd, rest * (1 - share)))
    return points


def paired_disagreement(n: int, method: str, test: str, pi, alpha: float = 0.05) -> float:
    """P(the interval at 1 − alpha excludes 0 XOR the test gives p < alpha) at pi."""
    return float(paired_disagreements(n, (method,), test, [pi], alpha)[0, 0])


def paired_disagreements(n: int, methods, test: str, points, alpha: float = 0.05) -> np.ndarray:
    """:func:`paired_disagreement` for several methods and points (points × methods), one probability vector a point."""
    rejects = paired_pvalues(n, test) < alpha
    differ = []
    for method in methods:
        low, high = paired_intervals(n, method, 1 - alpha)
        differ.append(((low > 0) | (high < 0)) != rejects)
    differ = np.array(differ, dtype=float)
    return np.array([differ @ paired_probabilities(n, pi) for pi in points])


# ----------------------------------------------------------------------------- independent
@functools.lru_cache(maxsize=8)
def independent_tables(n1: int, n2: int) -> tuple[np.ndarray, np.ndarray]:
    x1, x2 = np.meshgrid(np.arange(n1 + 1), np.arange(n2 + 1), indexing="ij")
    return x1.ravel(), x2.ravel()


@functools.lru_cache(maxsize=64)
def independent_intervals(n1: int, n2: int, method: str, level: float = 0.95):
    x1, x2 = independent_tables(n1, n2)
    ci = difference_interval(x1, n1, x2, n2, level=level, method=method)
    return ci.low, ci.high


@functools.lru_cache(maxsize=64)
def independent_pvalues(n1: int, n2: int, method: str) -> np.ndarray:
    x1, x2 = independent_tables(n1, n2)
    return difference_test(x1, n1, x2, n2, method=method).pvalue


def independent_probabilities(n1: int, n2: int, p1: float, p2: float) -> np.ndarray:
    x1, x2 = independent_tables(n1, n2)
    return stats.binom.pmf(x1, n1, p1) * stats.binom.pmf(x2, n2, p2)


def independent_coverage(n1, n2, method, p1, p2, level=0.95, *, tail=None):
    """Exact coverage and misses (low, high) of an independent-difference interval. ``tail``: only the counts
    between each binomial's ``tail`` and ``1 − tail`` quantiles are enumerated (the rest, at most 4·tail of the
    probability, is left out): on large n a few thousand tables instead of millions."""
    if tail is None:
        low, high = independent_intervals(n1, n2, method, level)
        prob = independent_probabilities(n1, n2, p1, p2)
    else:
        k1 = np.arange(int(stats.binom.ppf(tail, n1, p1)), int(stats.binom.isf(tail, n1, p1)) + 1)
        k2 = np.arange(int(stats.binom.ppf(tail, n2, p2)), int(stats.binom.isf(tail, n2, p2)) + 1)
        x1, x2 = (g.ravel() for g in np.meshgrid(k1, k2, indexing="ij"))
        ci = difference_interval(x1, n1, x2, n2, level=level, method=method)
        low, high = ci.low, ci.high
        prob = stats.binom.pmf(x1, n1, p1) * stats.binom.pmf(x2, n2, p2)
    miss_low = float(prob @ (low > p1 - p2))
    miss_high = float(prob @ (high < p1 - p2))
    return 1.0 - miss_low - miss_high, miss_low, miss_high


def independent_size(n1, n2, method, p, alpha=0.05):
    return float(independent_probabilities(n1, n2, p, p) @ (independent_pvalues(n1, n2, method) < alpha))


INDEPENDENT_P = (0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99)


def independent_grid() -> list[tuple[float, float]]:
    """49 points (p1, p2) ∈ {.01, .05, .2, .5, .8, .95, .99}²."""
    return [(p1, p2) for p1 in INDEPENDENT_P for p2 in INDEPENDENT_P]


# ----------------------------------------------------------------------------- summary table
def summary(ns=(20, 50, 100)) -> str:
    """Markdown tables of the exact coverage (mean, min over the grid) and size (mean, max)."""
    lines = ["| paired interval | n | mean coverage | min coverage | mean mesial / distal miss | max size of its test |"]
    lines.append("|---|---|---|---|---|---|")
    grid = paired_grid()
    sign = np.array([np.sign(pi[1] - pi[2]) for pi in grid])
    for method in PAIRED_METHODS:
        for n in ns:
            cov = np.array([paired_coverage(n, method, pi) for pi in grid])
            mesial = np.where(sign > 0, cov[:, 2], cov[:, 1])[sign != 0].mean()
            distal = np.where(sign > 0, cov[:, 1], cov[:, 2])[sign != 0].mean()
            size = max(paired_size(n, f"interval:{method}", pi) for pi in paired_null_grid())
            lines.append(
                f"| {method} | {n} | {cov[:, 0].mean():.4f} | {cov[:, 0].min():.4f} | {mesial:.4f} / {distal:.4f} | {size:.4f} |"
            )
    lines += ["", "| paired test | n | mean size | max size |", "|---|---|---|---|"]
    for test in ("mid-p", "exact", "asymptotic", "asymptotic-cc"):
        for n in ns:
            sizes = np.array([paired_size(n, test, pi) for pi in paired_null_grid()])
            lines.append(f"| McNemar {test} | {n} | {sizes.mean():.4f} | {sizes.max():.4f} |")
    lines += ["", "| paired interval vs McNemar mid-p | n | mean P(disagree) | max P(disagree) |", "|---|---|---|---|"]
    for n in ns:
        dis = paired_disagreements(n, PAIRED_METHODS, "mid-p", paired_grid() + paired_null_grid())
        for j, method in enumerate(PAIRED_METHODS):
            lines.append(f"| {method} | {n} | {dis[:, j].mean():.4f} | {dis[:, j].max():.4f} |")
    lines += [
        "",
        "| independent interval | n1 = n2 | mean coverage | min coverage | mean mesial / distal miss | max size of its test |",
        "|---|---|---|---|---|---|",
    ]
    sign = np.array([np.sign(p1 - p2) for p1, p2 in independent_grid()])
    for method in INDEPENDENT_METHODS:
        for n in ns:
            cov = np.array([independent_coverage(n, n, method, p1, p2) for p1, p2 in independent_grid()])
            mesial = np.where(sign > 0, cov[:, 2], cov[:, 1])[sign != 0].mean()
            distal = np.where(sign > 0, cov[:, 1], cov[:, 2])[sign != 0].mean()
            size = max(independent_size(n, n, method, p) for p in INDEPENDENT_P)
            lines.append(
                f"| {method} | {n} | {cov[:, 0].mean():.4f} | {cov[:, 0].min():.4f} | {mesial:.4f} / {distal:.4f} | {size:.4f} |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary())
