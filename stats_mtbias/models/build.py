"""Model builders: a PyMC model from :class:`~stats_mtbias.models.data.ModelData`, no fitting.

Kept apart from fitting (as in bambi's PyMC backend) so a model can be inspected,
sampled from its prior, fitted by any sampler and compared with its variants.

``rate_model``
    Categorical (multinomial) logit of the outcomes ``female, neutral`` against
    ``male``: fixed effects from the design (languages; or per system an intercept
    and the effects of formal pronoun, polite ending and content), plus random
    effects of the groups, non-centred: zero-sum effects for coarse groups
    (categories), normal effects for the finest one (occupations within their
    category, lexicon items). ``pooling`` switches the finest group between
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


def rate_model(data: ModelData, *, pooling: str = "hierarchical", prior_scale: float = 2.5, centered: bool = False):
    """The categorical-logit rate model (see the module docstring).

    `centered` parametrises the finest group's effects directly as Normal(0, sd)
    (better when every item has many outputs) instead of ``z * sd``.
    """
    pm = _pm()
    import pytensor.tensor as pt

    check_choice(pooling, POOLING, "pooling")
    outcomes = list(data.outcomes[:-1])
    coords = {"term": data.terms, "outcome": outcomes, "cell": np.arange(len(data.counts))}
    coords.update({g.name: list(map(str, g.levels)) for g in data.groups})
    with pm.Model(coords=coords) as model:
        beta = pm.Normal("beta", 0.0, prior_scale, dims=("term", "outcome"))
        eta = pt.as_tensor_variable(data.design) @ beta
        for k, group in enumerate(data.groups):
            finest = k == len(data.groups) - 1
            if finest and pooling == "pooled":
                continue
            if finest and pooling == "unpooled":
                effect = pm.Normal(f"{group.name}_effect", 0.0, prior_scale, dims=(group.name, "outcome"))
            else:
                sd = pm.HalfNormal(f"sd_{group.name}", 1.0, dims="outcome")
                if finest and centered:
                    effect = pm.Normal(f"{group.name}_effect", 0.0, sd, dims=(group.name, "outcome"))
                elif group.zero_sum:
                    # ZeroSumNormal sums to zero over its *last* axes: put the group last, then transpose.
                    z = pm.ZeroSumNormal(f"z_{group.name}", 1.0, dims=("outcome", group.name), n_zerosum_axes=1).T
                else:
                    z = pm.Normal(f"z_{group.name}", 0.0, 1.0, dims=(group.name, "outcome"))
                if not (finest and centered):
                    effect = z * sd
            eta = eta + effect[group.index]
        if len(outcomes) == 1:
            pm.Binomial("y", n=data.counts.sum(axis=1), logit_p=eta[:, 0], observed=data.counts[:, 0], dims="cell")
        else:
            full = pt.concatenate([eta, pt.zeros((eta.shape[0], 1))], axis=1)
            pm.Multinomial("y", n=data.counts.sum(axis=1), p=pt.special.softmax(full, axis=1), observed=data.counts)
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
