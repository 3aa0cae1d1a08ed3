"""Model builders: a PyMC model from :class:`~stats_mtbias.models.data.ModelData`, no fitting.

Kept apart from fitting (as in bambi's PyMC backend) so a model can be inspected,
sampled from its prior, fitted by any sampler and compared with its variants.

``rate_model``
    Categorical (multinomial) logit of the outcomes ``female, neutral`` against
    ``male``: fixed effects from the design (languages; or per system an intercept
    and the effects of formal pronoun, polite ending and content), plus random
    effects of the groups: zero-sum effects for coarse groups (categories,
    centred), normal effects for the finest one (occupations within their
    category, lexicon items; non-centred). ``pooling`` switches the finest group between
    partial pooling (``hierarchical``), none (``pooled``: no item effect) and no
    sharing (``unpooled``: an independent fixed effect per item).

``calibration_model``
    Binomial logit of a female (vs male) output on the logit of the reference
    female share: per language an intercept (the log-odds of "she" where the
    reference says 50%: below 0 reads as a male default) and a slope (how far the
    translator follows reality; 1 would be the reference's own log-odds), both
    partially pooled across languages, plus category and occupation deviations.
"""

from __future__ import annotations

import numpy as np

from stats_mtbias._validation import check_choice
from stats_mtbias.models.data import ModelData

POOLING = ("hierarchical", "pooled", "unpooled")


def _pm():
    import pymc as pm

    return pm


def _categorical_logp(value, eta, n, constant):
    """Log-probability of counts under the categorical logit; `eta` (cells, K) has the reference outcome last, at 0.

    Written out (``sum_k y_k eta_k - n log(1 + sum_k exp eta_k)``) rather than
    through ``pm.Multinomial`` of a softmax: the same numbers, with one log and one
    exp per outcome and cell and no parameter checks, about three times faster to
    differentiate, which is most of the sampling time of the large models.
    """
    import pytensor.tensor as pt

    free = eta[..., :-1]
    return (value[..., :-1] * free).sum(axis=-1) - n * pt.log1p(pt.exp(free).sum(axis=-1)) + constant


def _categorical_random(eta, n, constant, rng=None, size=None):
    p = np.exp(eta - eta.max(axis=-1, keepdims=True))
    return rng.multinomial(n, p / p.sum(axis=-1, keepdims=True), size=size)


def _one_hot_index(design: np.ndarray) -> np.ndarray | None:
    """The column of each row if `design` is a one-hot matrix (an index is cheaper than a product), else None."""
    design = np.asarray(design)
    if design.ndim == 2 and np.isin(design, (0, 1)).all() and (design.sum(axis=1) == 1).all():
        return design.argmax(axis=1)
    return None


def rate_model(data: ModelData, *, pooling: str = "hierarchical", prior_scale: float = 2.5, centered: bool = False):
    """The categorical-logit rate model (see the module docstring).

    Coarse zero-sum groups (categories) are parametrised directly (centred):
    each level has hundreds of cells, so the data pin them down and the
    non-centred form mixes badly (Prates: bulk ESS 298 against 681). `centered`
    does the same for the finest group (better when every item has many
    outputs); by default it is ``z * sd`` (non-centred).
    """
    pm = _pm()
    import pytensor.tensor as pt
    from scipy.special import gammaln

    check_choice(pooling, POOLING, "pooling")
    outcomes = list(data.outcomes[:-1])
    coords = {"term": data.terms, "outcome": outcomes, "outcome_all": list(data.outcomes), "cell": np.arange(len(data.counts))}
    coords.update({g.name: list(map(str, g.levels)) for g in data.groups})
    counts = np.asarray(data.counts)
    n = counts.sum(axis=1)
    constant = gammaln(n + 1) - gammaln(counts + 1).sum(axis=1)  # the multinomial coefficient
    index = _one_hot_index(data.design)
    with pm.Model(coords=coords) as model:
        beta = pm.Normal("beta", 0.0, prior_scale, dims=("term", "outcome"))
        effects = []
        for k, group in enumerate(data.groups):
            finest = k == len(data.groups) - 1
            if finest and pooling == "pooled":
                continue
            if finest and pooling == "unpooled":
                effects.append((pm.Normal(f"{group.name}_effect", 0.0, prior_scale, dims=(group.name, "outcome")), group.index))
                continue
            sd = pm.HalfNormal(f"sd_{group.name}", 1.0, dims="outcome")
            if group.zero_sum:
                # ZeroSumNormal sums to zero over its *last* axes: put the group last, then transpose.
                effect = pm.ZeroSumNormal(f"{group.name}_effect", sd[:, None], dims=("outcome", group.name), n_zerosum_axes=1).T
            elif finest and centered:
                effect = pm.Normal(f"{group.name}_effect", 0.0, sd, dims=(group.name, "outcome"))
            else:
                effect = pm.Normal(f"z_{group.name}", 0.0, 1.0, dims=(group.name, "outcome")) * sd
            effects.append((effect, group.index))
        # One linear predictor per outcome, built from 1-d gathers (2-d fancy indexing is ten times slower).
        columns = []
        for j in range(len(outcomes)):
            eta = beta[:, j][index] if index is not None else pt.as_tensor_variable(data.design) @ beta[:, j]
            for effect, levels in effects:
                eta = eta + effect[:, j][levels]
            columns.append(eta)
        eta = pt.stack([*columns, pt.zeros(len(counts))], axis=1)
        pm.CustomDist(
            "y", eta, n, constant, logp=_categorical_logp, random=_categorical_random, signature="(k),(),()->(k)",
            observed=counts, dims=("cell", "outcome_all"),
        )  # fmt: skip
    return model


def calibration_model(data: ModelData):
    """The calibration model (see the module docstring); `data` from :func:`calibration_data`."""
    pm = _pm()

    if data.covariate is None:
        raise ValueError("calibration_model needs data with a covariate (use calibration_data).")
    language, *rest = data.groups
    coords = {g.name: list(map(str, g.levels)) for g in data.groups}
    coords["cell"] = np.arange(len(data.counts))
    with pm.Model(coords=coords) as model:
        mu_a = pm.Normal("mu_intercept", 0.0, 2.5)
        sd_a = pm.HalfNormal("sd_intercept", 1.0)
        mu_b = pm.Normal("mu_slope", 0.0, 1.0)
        sd_b = pm.HalfNormal("sd_slope", 0.5)
        # Centred: every language has hundreds of cells, so its own data pin down its intercept and slope.
        a = pm.Normal("intercept", mu_a, sd_a, dims=language.name)
        b = pm.Normal("slope", mu_b, sd_b, dims=language.name)
        pm.Deterministic("pct_female_at_parity", 100 * pm.math.invlogit(a), dims=language.name)
        eta = a[language.index] + b[language.index] * data.covariate
        for group in rest:
            sd = pm.HalfNormal(f"sd_{group.name}", 1.0)
            if group.zero_sum:
                z = pm.ZeroSumNormal(f"z_{group.name}", 1.0, dims=group.name)
            else:
                z = pm.Normal(f"z_{group.name}", 0.0, 1.0, dims=group.name)
            eta = eta + (z * sd)[group.index]
        pm.Binomial("y", n=data.counts.sum(axis=1), logit_p=eta, observed=data.counts[:, 0], dims="cell")
    return model
