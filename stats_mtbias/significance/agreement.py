"""Agreement between two labellings: raw agreement with its Wilson interval, and Cohen's κ with an interval."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.uncertainty.analytic import wilson_interval


def cohens_kappa(a: np.ndarray, b: np.ndarray) -> float:
    """Cohen's κ of two label sequences; NaN (with a warning saying why) where κ is undefined.

    κ = (p_o − p_e) / (1 − p_e) is undefined when chance agreement p_e is 1 —
    both raters used one and the same category for every item — and also for no
    item: then NaN, not 1 (perfect agreement on a single category says nothing
    about agreement beyond chance).

    Examples
    --------
    >>> round(cohens_kappa(np.array(["male", "female", "male"]), np.array(["male", "female", "female"])), 12)
    0.4
    """
    a, b = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
    if len(a) == 0:
        return float("nan")
    labels = sorted(set(a) | set(b))
    observed = np.mean(a == b)
    expected = sum(np.mean(a == x) * np.mean(b == x) for x in labels)
    if expected >= 1:
        warnings.warn(f"Cohen's kappa is undefined: both label sets use the one category {labels[0]!r} for all "
                      f"{len(a)} items (chance agreement is 1); kappa is NaN.", DataQualityWarning, stacklevel=2)  # fmt: skip
        return float("nan")
    return float((observed - expected) / (1 - expected))


def kappa_interval(a: np.ndarray, b: np.ndarray, level: float = 0.95) -> tuple[float, float, float]:
    """Cohen's κ with an interval that holds near κ = 1: ``(kappa, low, high)``, NaN where κ is undefined.

    κ = (p_o − p_e) / (1 − p_e). The Wald interval κ ± z·se (Fleiss, Cohen &
    Everitt 1969; statsmodels' ``inter_rater.cohens_kappa``) covered 0.41 at κ = .98
    on 30 items and 0.74 on 100: near perfect agreement the variance of p_o collapses.
    Here p_o gets Wilson's interval, mapped onto κ with p_e fixed, and the rest of
    the delta-method variance (from p_e, and its covariance with p_o) is added by
    MOVER: ``low = κ − √((κ − κ_low(p_o))² + z²·v_rest)``, likewise the upper end,
    clipped to [−1, 1]. Simulated coverage (``tests/statistical``): 0.935–0.97 for
    κ from .37 to .98 on 30–400 items, conservative (0.99) for low κ with skewed
    margins.

    Examples
    --------
    >>> a = np.array(["male"] * 45 + ["female"] * 55)
    >>> b = np.array(["male"] * 40 + ["female"] * 5 + ["male"] * 10 + ["female"] * 45)
    >>> [round(x, 3) for x in kappa_interval(a, b)]  # p_o = .85, p_e = .45·.5 + .55·.5 = .5: κ = .7
    [0.7, 0.534, 0.814]

    By hand: Wilson's interval of 85/100 is [.767, .907], i.e. κ in [.534, .814];
    here p_o carries all of κ's delta-method variance, so nothing is added.
    """
    from scipy.stats import norm
    from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa

    a, b = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
    kappa = cohens_kappa(a, b)
    if not np.isfinite(kappa):
        return kappa, np.nan, np.nan
    labels = sorted(set(a) | set(b))
    table = pd.crosstab(pd.Categorical(a, labels), pd.Categorical(b, labels), dropna=False).to_numpy(dtype=float)
    n, agree = len(a), int(np.trace(table))
    p_o = agree / n
    p_e = float((table.sum(axis=1) * table.sum(axis=0)).sum()) / n**2
    observed = wilson_interval(agree, n, level=level)
    k_low, k_high = (float(observed.low) - p_e) / (1 - p_e), (float(observed.high) - p_e) / (1 - p_e)
    rest = max(float(sm_kappa(table).var_kappa) - p_o * (1 - p_o) / n / (1 - p_e) ** 2, 0.0)
    z2 = float(norm.ppf((1 + level) / 2)) ** 2 * rest
    low = kappa - np.sqrt((kappa - k_low) ** 2 + z2)
    high = kappa + np.sqrt((k_high - kappa) ** 2 + z2)
    return kappa, max(-1.0, float(low)), min(1.0, float(high))


def agreement(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    """Share of equal labels with its Wilson interval, and Cohen's κ: ``agreement, ci_low, ci_high, kappa`` (NaN if empty)."""
    if len(a) == 0:
        return dict.fromkeys(["agreement", "ci_low", "ci_high", "kappa"], np.nan)
    agree = int(np.sum(a == b))
    ci = wilson_interval(agree, len(a))
    return {"agreement": agree / len(a), "ci_low": float(ci.low), "ci_high": float(ci.high), "kappa": cohens_kappa(a, b)}
