"""Model builders: a PyMC model from :class:`~stats_mtbias.models.data.ModelData`, no fitting.

Kept apart from fitting (as in bambi's PyMC backend) so a model can be inspected,
sampled from its prior, fitted by any sampler and compared with its variants.

``rate_model``
    Categorical (multinomial) logit of the outcomes ``female, neutral`` against
    ``male``: fixed effects from the design (languages; or per system an intercept
    and the effects of formal pronoun, polite ending and content), plus random
    effects of the groups: zero-sum effects for coarse groups (categories),
    normal effects for the finest one (occupations within their category,
    lexicon items); non-centred unless named in `centered`. ``pooling`` switches the finest group between
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

from collections.abc import Sequence

import numpy as np

from stats_mtbias._cache import heavy
from stats_mtbias._validation import check_choice
from stats_mtbias.errors import UsageError
from stats_mtbias.models.data import ModelData

POOLING = ("hierarchical", "pooled", "unpooled")


def _pm():
    pm = heavy("pymc")

    return pm


def _categorical_logp(value, eta, n, constant):
    """Log-probability of counts under the categorical logit; `eta` (cells, K) has the reference outcome last, at 0.

    Written out (``sum_k y_k eta_k - n log(1 + sum_k exp eta_k)``) rather than
    through ``pm.Multinomial`` of a softmax: the same numbers, with one log and one
    exp per outcome and cell and no parameter checks, about three times faster to
    differentiate, which is most of the sampling time of the large models.
    """
    pt = heavy("pytensor.tensor")

    free = eta[..., :-1]
    # exp overflows only beyond |eta| ~ 700, far outside the prior: the sampler rejects such a point.
    return (value[..., :-1] * free).sum(axis=-1) - n * pt.log1p(pt.exp(free).sum(axis=-1)) + constant


def _categorical_random(eta, n, constant, rng=None, size=None):
    p = np.exp(eta - eta.max(axis=-1, keepdims=True))
    return rng.multinomial(n, p / p.sum(axis=-1, keepdims=True), size=size)


def _categorical(pm, eta, counts: np.ndarray) -> None:
    """The observed counts ``y`` (cells × outcomes, reference last) under the logits `eta` (cells × outcomes-1)."""
    pt = heavy("pytensor.tensor")
    from scipy.special import gammaln

    counts = np.asarray(counts)
    n = counts.sum(axis=1)
    constant = gammaln(n + 1) - gammaln(counts + 1).sum(axis=1)  # the multinomial coefficient
    full = pt.concatenate([eta, pt.zeros((counts.shape[0], 1))], axis=1)
    pm.CustomDist(
        "y",
        full,
        n,
        constant,
        logp=_categorical_logp,
        random=_categorical_random,
        signature="(k),(),()->(k)",
        observed=counts,
        dims=("cell", "outcome_all"),
    )


def one_hot_index(design: np.ndarray) -> np.ndarray | None:
    """The column of each row if `design` is a one-hot matrix (an index is cheaper than a product), else None."""
    design = np.asarray(design)
    if design.ndim == 2 and np.isin(design, (0, 1)).all() and (design.sum(axis=1) == 1).all():
        return design.argmax(axis=1)
    return None


CENTRED_MIN_OUTPUTS = 100  # outputs in a group's smallest level for a centred parametrisation


def centred_groups(data: ModelData, min_outputs: int = CENTRED_MIN_OUTPUTS) -> tuple[str, ...]:
    """The groups whose every level holds at least `min_outputs` outputs: those are parametrised centred.

    A level with that much data pins its effect down, and the centred form
    samples better there (Prates' 22 categories, 114 to 1,500 outputs each:
    minimum bulk ESS 681 centred against 298 non-centred). Where a level is thin
    (one language's categories, a user's small table) the centred form has a
    funnel at small sd and diverges; the non-centred form does not.

    Examples
    --------
    >>> from stats_mtbias.models.data import Group
    >>> groups = [Group("category", np.array([0, 0, 1]), ["a", "b"], zero_sum=True)]
    >>> data = ModelData(np.array([[60, 0, 60], [50, 10, 40], [3, 0, 2]]), np.ones((3, 1)), ["i"], groups, None)
    >>> centred_groups(data), centred_groups(data, min_outputs=5)
    ((), ('category',))
    """
    totals = np.asarray(data.counts).sum(axis=1)
    out = []
    for group in data.groups:
        per_level = np.bincount(group.index, weights=totals, minlength=len(group.levels))
        if per_level.min() >= min_outputs:
            out.append(group.name)
    return tuple(out)


def rate_model(
    data: ModelData, *, pooling: str = "hierarchical", prior_scale: float = 2.5, centered: Sequence[str] | str = "auto"
):
    """The categorical-logit rate model (see the module docstring).

    Group effects are non-centred (``z * sd``) except for the groups named in
    `centered`, parametrised directly; ``"auto"`` (default) centres exactly the
    groups whose every level has enough data (:func:`centred_groups`). The
    choice is recorded on the model (``model.parametrisation``).
    """
    pm = _pm()
    pt = heavy("pytensor.tensor")

    check_choice(pooling, POOLING, "pooling")
    if isinstance(centered, str):
        check_choice(centered, ("auto",), "centered")
        centered = centred_groups(data)
    unknown = set(centered) - {g.name for g in data.groups}
    if unknown:
        names = ", ".join(g.name for g in data.groups)
        raise UsageError(f"`centered`: no group named {', '.join(sorted(unknown))}; the groups are {names}.")
    outcomes = list(data.outcomes[:-1])
    coords = {"term": data.terms, "outcome": outcomes, "outcome_all": list(data.outcomes), "cell": np.arange(len(data.counts))}
    coords.update({g.name: list(map(str, g.levels)) for g in data.groups})
    counts = np.asarray(data.counts)
    index = one_hot_index(data.design)
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
            if group.scale_levels is not None:  # one spread per scale level (e.g. system x content), gathered per level
                model.add_coord(f"{group.name}_scale", list(map(str, group.scale_levels)))
                spread = pm.HalfNormal(f"sd_{group.name}", 1.0, dims=(f"{group.name}_scale", "outcome"))
                sd = spread[group.scale_index]
            else:
                sd = pm.HalfNormal(f"sd_{group.name}", 1.0, dims="outcome")
            direct = group.name in centered
            name, scale = (f"{group.name}_effect", sd) if direct else (f"z_{group.name}", 1.0)
            if group.zero_sum:
                # ZeroSumNormal sums to zero over its *last* axes: put the group last, then transpose.
                scale = scale[:, None] if direct else scale
                effect = pm.ZeroSumNormal(name, scale, dims=("outcome", group.name), n_zerosum_axes=1).T
            else:
                effect = pm.Normal(name, 0.0, scale, dims=(group.name, "outcome"))
            effect = effect if direct else effect * sd
            effects.append((effect, group.index))
        # One linear predictor per outcome, built from 1-d gathers (2-d fancy indexing is ten times slower).
        columns = []
        for j in range(len(outcomes)):
            eta = beta[:, j][index] if index is not None else pt.as_tensor_variable(data.design) @ beta[:, j]
            for effect, levels in effects:
                eta = eta + effect[:, j][levels]
            columns.append(eta)
        _categorical(pm, pt.stack(columns, axis=1), counts)
    model.parametrisation = {g.name: "centred" if g.name in centered else "non-centred" for g in data.groups}
    return model


def calibration_model(data: ModelData):
    """The calibration model (see the module docstring); `data` from :func:`calibration_data`."""
    pm = _pm()

    if data.covariate is None:
        raise UsageError("calibration_model needs data with a covariate (use calibration_data).")
    language, *rest = data.groups
    coords = {g.name: list(map(str, g.levels)) for g in data.groups}
    coords.update(cell=np.arange(len(data.counts)), outcome_all=list(data.outcomes))
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
                effect = pm.ZeroSumNormal(f"z_{group.name}", 1.0, dims=group.name) * sd
            else:
                effect = pm.Normal(f"z_{group.name}", 0.0, 1.0, dims=group.name) * sd
            eta = eta + effect[group.index]
        _categorical(pm, eta[:, None], data.counts)
    return model
