"""The optimal-translator bias B (Farkas & Németh), as pure vectorised functions.

For an occupation whose reference female share is ``f``, a translator that says
"she" errs on the ``100 (1 - f)`` points of men, one that says "he" on the
``100 f`` points of women. The optimal deterministic translator says the
majority gender::

    E_0 = 100 · min(f, 1 - f),    B = (E_t - E_0) / E_0

A system sampled several times per occupation (or a language with several
outputs, such as Bengali's pronoun variants) has the expected error of its
outputs: with female rate ``r`` among its he/she outputs,
``E_t = r · 100 (1 - f) + (1 - r) · 100 f``. The optimal *probabilistic*
translator says "she" with probability ``f`` and errs ``200 f (1 - f)``.

Neutral and both-gender outputs are not covered by the paper. The rule is a
stated option: ``"unbiased"`` (default) counts them as ``E_t = E_0``;
``"exclude"`` leaves them out (an occupation with only such outputs has no B).

B is undefined where ``E_0 = 0`` (f exactly 0 or 1): every function returns NaN
there, never a division by zero; :func:`b_status` says why a B is missing.
All functions broadcast, so replicate axes come for free.
"""

from __future__ import annotations

import numpy as np

from stats_mtbias._validation import check_choice
from stats_mtbias.errors import UsageError

NEUTRAL_RULES = ("unbiased", "exclude")
SURVEY_WEIGHTS = np.array([2.5, 1.5, 0.5, 0.5, 1.5, 2.5])


def _share(f) -> np.ndarray:
    f = np.asarray(f, dtype=float)
    if np.any((f < 0) | (f > 1)):
        raise UsageError("female shares must lie in [0, 1].")
    return f


def e_0(f) -> np.ndarray:
    """Error of the optimal deterministic translator, ``100 · min(f, 1 - f)``."""
    f = _share(f)
    return 100.0 * np.minimum(f, 1.0 - f)


def e_t(f, n_female, n_male, n_other=0, *, neutral: str = "unbiased") -> np.ndarray:
    """Expected error of a translator with the given outputs per occupation.

    Parameters
    ----------
    f : array-like
        Reference female share.
    n_female, n_male : array-like
        Outputs with "she" / "he" (1/0 for a deterministic translator).
    n_other : array-like
        Neutral or both-gender outputs.
    neutral : {"unbiased", "exclude"}
        Rule for `n_other`: error ``E_0`` each, or left out.

    Returns
    -------
    numpy.ndarray
        NaN where no output counts.
    """
    check_choice(neutral, NEUTRAL_RULES, "neutral")
    f = _share(f)
    nf, nm, no = (np.asarray(x, dtype=float) for x in (n_female, n_male, n_other))
    errors = nf * 100.0 * (1.0 - f) + nm * 100.0 * f
    total = nf + nm
    if neutral == "unbiased":
        errors = errors + no * e_0(f)
        total = total + no
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, errors / np.where(total > 0, total, 1.0), np.nan)


def bias_b(f, et) -> np.ndarray:
    """``B = (E_t - E_0) / E_0``; NaN where ``E_0 = 0`` or ``E_t`` is NaN."""
    base = e_0(f)
    et = np.asarray(et, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(base > 0, (et - base) / np.where(base > 0, base, 1.0), np.nan)


def b_potential(f) -> np.ndarray:
    """The largest B an occupation can have: every output of the minority gender, ``|1 - 2f| / min(f, 1 - f)``.

    >>> float(b_potential(0.05))
    18.0
    """
    f = _share(f)
    with np.errstate(invalid="ignore", divide="ignore"):
        low = np.minimum(f, 1.0 - f)
        return np.where(low > 0, np.abs(1.0 - 2.0 * f) / np.where(low > 0, low, 1.0), np.nan)


def b_status(f, et) -> np.ndarray:
    """Why B is (not) defined: ``ok``, ``no reference share``, ``E_0 = 0``, ``no usable output``."""
    f = np.asarray(f, dtype=float)
    et = np.asarray(et, dtype=float)
    out = np.full(np.broadcast(f, et).shape, "ok", dtype=object)
    out[np.broadcast_to(np.isnan(et), out.shape)] = "no usable output"
    with np.errstate(invalid="ignore"):
        out[np.broadcast_to((f == 0) | (f == 1), out.shape)] = "undefined: E_0 = 0 (f is 0 or 1)"
    out[np.broadcast_to(np.isnan(f), out.shape)] = "no reference share"
    return out


def e_probabilistic(f) -> np.ndarray:
    """Error of the optimal probabilistic translator (says "she" with probability f): ``200 f (1 - f)``."""
    f = _share(f)
    return 200.0 * f * (1.0 - f)


def dominance_weights(f, employed) -> tuple[np.ndarray, np.ndarray]:
    """Weights for sector B: women in female-dominated (f > .5), men in male-dominated (f < .5) occupations."""
    f = _share(f)
    employed = np.asarray(employed, dtype=float)
    with np.errstate(invalid="ignore"):
        female = np.where(f > 0.5, employed * f, 0.0)
        male = np.where(f < 0.5, employed * (1.0 - f), 0.0)
    return female, male


def survey_female_share(counts) -> np.ndarray:
    """Femininity from answer counts on the 1–6 scale (1 very masculine … 6 very feminine).

    Answers are weighted 2.5, 1.5, 0.5, 0.5, 1.5, 2.5; masculinity is the weighted
    sum of answers 1–3 over the weighted sum of all answers, and the returned
    reference female share is ``1 - masculinity``. Works on the last axis.

    >>> round(1 - float(survey_female_share([170, 12, 7, 3, 4, 0])), 2)
    0.98
    """
    c = np.asarray(counts, dtype=float)
    if c.shape[-1] != 6 or np.any(c < 0):
        raise UsageError("`counts` must hold six non-negative answer counts (answers 1..6) on its last axis.")
    weighted = c * SURVEY_WEIGHTS
    total = weighted.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        masculinity = np.where(total > 0, weighted[..., :3].sum(axis=-1) / np.where(total > 0, total, 1.0), np.nan)
    return 1.0 - masculinity
