"""TGBI (Cho et al. 2019): P_S per sentence set and the index over sets.

For a set S with shares p_w, p_m, p_n of female, male and neutral translations,

    P_S = sqrt(p_w * p_m + p_n),

and the index is the unweighted mean of P_S over the sets. All functions take
counts whose last axis is gender in GENDERS order (female, male, neutral, both,
unknown) and broadcast over any leading axes, so a point estimate and 10,000
bootstrap replicates are the same call.
"""

from __future__ import annotations

import numpy as np

from stats_mtbias.errors import UsageError
from stats_mtbias.schema import GENDERS

_F, _M, _N, _B, _U = range(len(GENDERS))
BOTH_RULES = ("neutral", "exclude")


def tgbi_counts(counts: np.ndarray, both: str = "neutral") -> np.ndarray:
    """Collapse GENDERS counts into (female, male, neutral) for TGBI.

    ``unknown`` is left out of the denominator (it is reported, not guessed).
    ``both`` (an output showing both genders) counts as neutral by default — it
    does not commit to one gender — or is left out with ``both="exclude"``.
    """
    counts = np.asarray(counts, dtype=float)
    if counts.shape[-1] != len(GENDERS):
        raise UsageError(f"the last axis of `counts` must have length {len(GENDERS)} (GENDERS)")
    if both not in BOTH_RULES:
        raise UsageError(f"`both` must be one of {BOTH_RULES}; got {both!r}.")
    neutral = counts[..., _N] + (counts[..., _B] if both == "neutral" else 0.0)
    return np.stack([counts[..., _F], counts[..., _M], neutral], axis=-1)


def tgbi_shares(counts: np.ndarray, both: str = "neutral") -> np.ndarray:
    """Shares (p_w, p_m, p_n) along the last axis; NaN where a set has no judgement."""
    fmn = tgbi_counts(counts, both)
    total = fmn.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, fmn / np.where(total > 0, total, 1.0), np.nan)


def p_s_from_shares(shares: np.ndarray) -> np.ndarray:
    """P_S = sqrt(p_w p_m + p_n) from shares along the last axis."""
    shares = np.asarray(shares, dtype=float)
    inner = shares[..., 0] * shares[..., 1] + shares[..., 2]
    # Rounding can push 1 - tiny below 0 or above 1; the estimand lives in [0, 1].
    return np.sqrt(np.clip(inner, 0.0, 1.0))


def p_s(counts: np.ndarray, both: str = "neutral") -> np.ndarray:
    """P_S of every set in `counts` (last axis GENDERS), broadcasting over the rest.

    Examples
    --------
    >>> float(p_s([0, 0, 10, 0, 0]))     # all neutral
    1.0
    >>> float(p_s([0, 10, 0, 0, 0]))     # all male
    0.0
    >>> float(p_s([5, 5, 0, 0, 0]))      # p_w = p_m = 0.5
    0.5
    """
    return p_s_from_shares(tgbi_shares(counts, both))


def tgbi_index(p_s_values: np.ndarray, axis: int = -1) -> np.ndarray:
    """The translation gender bias index: the unweighted mean of P_S over sets."""
    return np.mean(np.asarray(p_s_values, dtype=float), axis=axis)
