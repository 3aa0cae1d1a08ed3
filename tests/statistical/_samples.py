"""A synthetic LLM sampled k times per item, and the checks of clustered samples.

The generator is the tests' and the docs' ("Sampled outputs"): each item has its
own propensity to be translated with the right gender (a logit-normal random
effect shared by the systems, so that they are paired), and every sample is a
Bernoulli draw from it, so samples are clustered within items.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

OPPOSITE = {"male": "female", "female": "male"}


def winomt_gold(data_dir=None) -> pd.DataFrame:
    """WinoMT's items: ``item, gold, stereotype`` (from the shipped en.txt; ``data_dir``: the tests' fixture)."""
    from stats_mtbias.datasets import winomt
    from stats_mtbias.datasets.registry import open_store

    return winomt.read_items(open_store(data_dir))[["item", "gold", "stereotype"]]


def sampled_winomt(
    gold: pd.DataFrame, systems: dict, *, k=10, rng, language: str = "es", spread: float = 1.5, unknown: float = 0.02
) -> pd.DataFrame:
    """Judgements ``item, system, language, gender, sample`` of an LLM sampled `k` times per item.

    Parameters
    ----------
    gold : DataFrame
        ``item, gold, stereotype`` (:func:`winomt_gold`, or a subset of its rows).
    systems : dict
        ``{name: (logit of accuracy on pro items, on anti items)}``.
    k : int or array of int
        Samples per item (an array: per item, for unequal numbers).
    spread : float
        Standard deviation of the item effect on the logit scale (0: samples independent).
    unknown : float
        Share of samples left unread (``unknown``).
    """
    n = len(gold)
    sizes = np.broadcast_to(np.asarray(k), (n,)).astype(int)
    effect = rng.normal(0.0, spread, n)  # shared by the systems: paired
    g = gold["gold"].to_numpy(dtype=object)
    anti = (gold["stereotype"] == "anti").to_numpy()
    item = np.repeat(gold["item"].to_numpy(), sizes)
    sample = np.concatenate([np.arange(s) for s in sizes]).astype(str)
    frames = []
    for name, (pro, anti_logit) in systems.items():
        logit = np.where(anti, anti_logit, pro) + effect
        p = np.repeat(1 / (1 + np.exp(-logit)), sizes)
        right = rng.random(len(p)) < p
        gg = np.repeat(g, sizes)
        wrong = np.where(
            gg == "male", "female", np.where(gg == "female", "male", np.where(rng.random(len(p)) < 0.5, "male", "female"))
        )
        gender = np.where(right, gg, wrong)
        gender = np.where(rng.random(len(p)) < unknown, "unknown", gender)
        frames.append(pd.DataFrame({"item": item, "system": name, "language": language, "gender": gender, "sample": sample}))
    return pd.concat(frames, ignore_index=True)


def beta_items(mean: float, icc: float, shape, rng) -> np.ndarray:
    """Item propensities from Beta with the given mean and intraclass correlation ``1 / (a + b + 1)``."""
    total = 1 / icc - 1
    return rng.beta(mean * total, (1 - mean) * total, size=shape)


def item_means(propensity: np.ndarray, k: int, rng) -> np.ndarray:
    """Means of `k` Bernoulli samples per item (binomial / k), same shape as `propensity`."""
    return rng.binomial(k, propensity) / k


def mc_error(p: float, m: int) -> float:
    """Monte-Carlo standard error of a rate `p` estimated from `m` replicates."""
    return float(np.sqrt(p * (1 - p) / m))


def not_narrower(before: pd.DataFrame, after: pd.DataFrame, *, keys, tol: float = 1e-9) -> list[str]:
    """Rows of `after` whose interval is narrower or p-value lower than `before`'s (beyond `tol`): [] when none."""
    both = before.merge(after, on=list(keys), suffixes=("_1", "_k"))
    if len(both) != len(before):
        return [f"rows differ: {len(before)} before, {len(both)} matched"]
    out = []
    width_1, width_k = both["ci_high_1"] - both["ci_low_1"], both["ci_high_k"] - both["ci_low_k"]
    narrower = (width_k < width_1 - tol).to_numpy()
    out += [f"narrower: {dict(both.loc[i, list(keys)])}" for i in np.flatnonzero(narrower)]
    if "p_value_1" in both:
        lower = (both["p_value_k"] < both["p_value_1"] - tol).to_numpy()
        out += [f"lower p: {dict(both.loc[i, list(keys)])}" for i in np.flatnonzero(lower)]
    return out
