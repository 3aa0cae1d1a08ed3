"""Derived quantities from the posterior: cell probabilities, P_S and TGBI per system, language rates.

Cell probabilities are recomputed in numpy from the posterior draws of the
coefficients and group effects (chunks of draws, so memory stays bounded),
rather than stored as huge deterministic nodes in the trace.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stats_mtbias import _defaults
from stats_mtbias._validation import check_level, check_rng
from stats_mtbias.models.build import one_hot_index
from stats_mtbias.models.data import ModelData

TGBI_SETS = ("informal", "formal", "impolite", "polite", "negative", "positive", "occupation")


def hdi(draws: np.ndarray, level: float = _defaults.LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Highest-density interval along axis 0 (the narrowest interval holding `level` of the draws)."""
    level = check_level(level)
    ordered = np.sort(np.asarray(draws, dtype=float), axis=0)
    n = ordered.shape[0]
    inside = max(1, int(np.floor(level * n)))
    widths = ordered[inside:] - ordered[: n - inside]
    start = np.argmin(widths, axis=0)
    low = np.take_along_axis(ordered, start[None], axis=0)[0]
    high = np.take_along_axis(ordered, (start + inside)[None], axis=0)[0]
    return low, high


def _draws(idata, name: str) -> np.ndarray:
    values = np.asarray(idata.posterior[name])
    return values.reshape(-1, *values.shape[2:])


def cell_probabilities(idata, data: ModelData, chunk: int = 200, *, new_items: np.random.Generator | None = None):
    """Yield ``(draw slice, probabilities (draws, cells, outcomes))`` in chunks of draws.

    With `new_items` (a Generator), the item-level groups' effects (those marked
    ``redraw``, else the finest group's) are drawn afresh from Normal(0, sd) for
    every draw: probabilities for a new sample of items of the same design, the
    Bayesian counterpart of resampling items.
    """
    beta = _draws(idata, "beta")
    effects = []
    redrawn = {g.name for g in data.groups if g.redraw} or ({data.groups[-1].name} if data.groups else set())
    for group in data.groups:
        if f"sd_{group.name}" in idata.posterior:
            sd = _draws(idata, f"sd_{group.name}")
            # (draws, levels, outcome): one sd for all levels, or each level's own spread
            sd = sd[:, group.scale_index, :] if group.scale_index is not None else sd[:, None, :]
        if new_items is not None and group.name in redrawn and f"sd_{group.name}" in idata.posterior:
            fresh = new_items.standard_normal((sd.shape[0], len(group.levels), sd.shape[-1]))
            effects.append((group.index, fresh * sd))
        elif f"z_{group.name}" in idata.posterior:
            z = _draws(idata, f"z_{group.name}")
            if idata.posterior[f"z_{group.name}"].dims[2] == "outcome":  # zero-sum effects are stored (outcome, level)
                z = np.swapaxes(z, 1, 2)
            effects.append((group.index, z * sd))
        elif f"{group.name}_effect" in idata.posterior:
            effect = _draws(idata, f"{group.name}_effect")
            if idata.posterior[f"{group.name}_effect"].dims[2] == "outcome":  # zero-sum effects are stored (outcome, level)
                effect = np.swapaxes(effect, 1, 2)
            effects.append((group.index, effect))
    n_draws = beta.shape[0]
    columns = one_hot_index(data.design)
    for start in range(0, n_draws, chunk):
        part = slice(start, min(n_draws, start + chunk))
        # A one-hot design (a language per cell) is a gather, much cheaper than the product.
        eta = beta[part][:, columns, :] if columns is not None else np.einsum("cp,spk->sck", data.design, beta[part])
        for index, effect in effects:
            eta = eta + effect[part][:, index, :]
        full = np.concatenate([eta, np.zeros((*eta.shape[:2], 1))], axis=-1)
        full -= full.max(axis=-1, keepdims=True)
        prob = np.exp(full)
        yield part, prob / prob.sum(axis=-1, keepdims=True)


def _summarise(rows: list[dict], values: np.ndarray, level: float) -> None:
    if np.isnan(values).any():
        rows[-1].update(mean=np.nan, sd=np.nan, hdi_low=np.nan, hdi_high=np.nan)
        return
    low, high = hdi(values, level)
    rows[-1].update(mean=float(values.mean()), sd=float(values.std(ddof=1)), hdi_low=float(low), hdi_high=float(high))


def tgbi_posterior(
    idata,
    data: ModelData,
    *,
    level: float = _defaults.LEVEL,
    new_items: bool = True,
    rng: np.random.Generator | int = _defaults.SEED,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Posterior P_S per system and set, the TGBI index, and differences between systems.

    A set's shares are the mean predicted probabilities of its cells
    (``both`` counted as neutral, as P_S does), so P_S = sqrt(p_w p_m + p_n)
    per draw. Returns ``(estimates, differences)``; differences carry
    ``p_greater``, the posterior probability that system_a's value is larger.

    ``new_items=True`` (default) predicts for a new sample of lexicon items (the
    question the bootstrap answers); ``False`` describes the items at hand.
    """
    rng = check_rng(rng) if new_items else None
    cells = data.cells
    systems = list(dict.fromkeys(cells["system"]))
    # An item has the same number of sentences in every cell of a set (2 or 4): the set's shares are cell means.
    member = {name: (cells["subset"] == name).to_numpy() for name in TGBI_SETS}
    n_draws = _draws(idata, "beta").shape[0]
    values = np.empty((n_draws, len(systems), len(TGBI_SETS) + 1))
    for part, prob in cell_probabilities(idata, data, new_items=rng):
        for s, system in enumerate(systems):
            in_system = (cells["system"] == system).to_numpy()
            for k, name in enumerate(TGBI_SETS):
                cols = in_system & member[name]
                if not cols.any():  # the data hold no sentence of this set
                    values[part, s, k] = np.nan
                    continue
                shares = prob[:, cols].mean(axis=1)  # (draws, outcomes: female, neutral, male)
                values[part, s, k] = np.sqrt(shares[:, 0] * shares[:, 2] + shares[:, 1])
    values[..., -1] = values[..., :-1].mean(axis=-1)  # NaN unless all seven sets are present
    names = [*TGBI_SETS, "TGBI"]
    rows = []
    for s, system in enumerate(systems):
        for k, name in enumerate(names):
            rows.append({"system": system, "subset": name})
            _summarise(rows, values[:, s, k], level)
    diffs = []
    for a in range(len(systems)):
        for b in range(a + 1, len(systems)):
            for k, name in enumerate(names):
                d = values[:, a, k] - values[:, b, k]
                diffs.append({"system_a": systems[a], "system_b": systems[b], "subset": name})
                _summarise(diffs, d, level)
                diffs[-1]["p_greater"] = float(np.mean(d > 0))
    return pd.DataFrame(rows), pd.DataFrame(diffs)


def language_rates(idata, data: ModelData, *, level: float = _defaults.LEVEL) -> pd.DataFrame:
    """Posterior share of female (and neutral) outputs per language, averaged over its occupations."""
    cells = data.cells
    languages = list(dict.fromkeys(cells["language"]))
    n_draws = _draws(idata, "beta").shape[0]
    values = np.empty((n_draws, len(languages), len(data.outcomes)))
    for part, prob in cell_probabilities(idata, data):
        for i, language in enumerate(languages):
            values[part, i] = prob[:, (cells["language"] == language).to_numpy()].mean(axis=1)
    rows = []
    for i, language in enumerate(languages):
        for k, outcome in enumerate(data.outcomes):
            rows.append({"language": language, "outcome": outcome})
            _summarise(rows, 100 * values[:, i, k], level)
    return pd.DataFrame(rows)


def tgbi_predictive_check(
    idata,
    data: ModelData,
    *,
    level: float = _defaults.LEVEL,
    rng: np.random.Generator | int = _defaults.SEED,
    max_draws: int = 500,
) -> pd.DataFrame:
    """Posterior predictive check of P_S per (system, set): the observed value against replicated data.

    For each of up to `max_draws` posterior draws the counts of every cell are
    replicated (multinomial, the cell's observed number of outputs, the draw's
    probabilities for the items at hand) and P_S of every system and set is
    computed from them. Returns ``system, subset, observed, predicted,
    pred_low, pred_high, p_value, inside``: the predictive mean and central
    `level` interval, ``p_value`` = P(replicated ≥ observed) (near 0 or 1
    flags misfit) and whether the observed P_S is inside the interval.
    """
    level = check_level(level)
    rng = check_rng(rng)
    cells = data.cells
    systems = list(dict.fromkeys(cells["system"]))
    n = data.counts.sum(axis=1)
    total = _draws(idata, "beta").shape[0]
    keep = np.sort(rng.choice(total, size=min(max_draws, total), replace=False))
    groups = [
        (s, k, ((cells["system"] == system) & (cells["subset"] == name)).to_numpy())
        for s, system in enumerate(systems)
        for k, name in enumerate(TGBI_SETS)
    ]
    replicated = np.full((keep.size, len(systems), len(TGBI_SETS)), np.nan)
    done = 0
    for part, prob in cell_probabilities(idata, data):
        chosen = keep[(keep >= part.start) & (keep < part.stop)] - part.start
        if not chosen.size:
            continue
        draws = rng.multinomial(n, prob[chosen])  # (chosen, cells, outcomes: female, neutral, male)
        for s, k, mask in groups:
            if mask.any():
                totals = draws[:, mask].sum(axis=1)
                shares = totals / np.maximum(totals.sum(axis=1, keepdims=True), 1)
                replicated[done : done + chosen.size, s, k] = np.sqrt(shares[:, 0] * shares[:, 2] + shares[:, 1])
        done += chosen.size
    alpha = (1 - level) / 2
    rows = []
    for s, k, mask in groups:
        if not mask.any():
            continue
        obs_totals = data.counts[mask].sum(axis=0)
        shares = obs_totals / max(obs_totals.sum(), 1)
        observed = float(np.sqrt(shares[0] * shares[2] + shares[1]))
        reps = replicated[:, s, k]
        low, high = np.quantile(reps, [alpha, 1 - alpha])
        rows.append(
            {
                "system": systems[s],
                "subset": TGBI_SETS[k],
                "observed": observed,
                "predicted": float(reps.mean()),
                "pred_low": float(low),
                "pred_high": float(high),
                "p_value": float(np.mean(reps >= observed)),
                "inside": bool(low <= observed <= high),
            }
        )
    return pd.DataFrame(rows)
