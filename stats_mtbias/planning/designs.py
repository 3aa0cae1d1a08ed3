"""The designs :func:`stats_mtbias.power` plans with: closed forms (paired, rate, normal) and simulation from a pilot.

Which question is answered follows from what is left out, as in statsmodels'
``solve_power``: no ``n`` → the sample size for ``difference`` (or for an
interval ``half_width``); no ``difference`` → the minimum detectable effect at
``n``; both given → the power. ``power`` is the target (default 0.8) when it is
not the answer. Nothing here knows the studies: a study turns its own result
into a pilot (``stats_mtbias.studies.<study>.pilot``) with the helpers below.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd
from scipy import optimize, special

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_level, check_number, check_positive_int, check_rng, seed_of
from stats_mtbias.errors import UsageError
from stats_mtbias.planning import closed
from stats_mtbias.planning import simulate as sim
from stats_mtbias.planning.result import PowerResult, plan_row
from stats_mtbias.provenance import Provenance
from stats_mtbias.significance.equivalence import check_margin
from stats_mtbias.uncertainty.ppi import ppi_share_variance

DESIGNS = ("paired", "rate", "normal", "pilot", "labels")
POWER_FORMULAS = _defaults.POWER_FORMULAS  # the paired design's power: Connor's formula, or exact
PILOT_KINDS = ("simulate", "paired", "rate", "normal")


def which_question(n, difference, half_width) -> str:
    if half_width is not None:
        if n is not None:
            raise UsageError("give `half_width` (→ the n for it) or `n` (→ the half-width), not both.")
        return "sample_size"
    if n is None:
        if difference is None:
            raise UsageError(
                "give `n` (→ power or minimum detectable effect), `difference` (→ sample size) or "
                "`half_width` (→ sample size for that precision)."
            )
        return "sample_size"
    return "mde" if difference is None else "power"


def mde_solve(power_of: Callable[[float], float], target: float, top: float) -> float:
    """Smallest positive difference with ``power_of(d) >= target`` below ``top`` (NaN if none)."""
    if power_of(top) < target:
        return float("nan")
    return float(optimize.brentq(lambda d: power_of(d) - target, top * 1e-9, top, xtol=top * 1e-10))


# ---------------------------------------------------------------- closed forms


def paired(
    n,
    difference,
    power,
    alpha,
    alternative,
    discordance,
    formula,
    *,
    metric="paired binary",
    comparison="",
    unit_scale: float = 1.0,
):
    check_choice(formula, POWER_FORMULAS, "formula")
    if discordance is None:
        raise UsageError("the paired design needs `discordance`: the share of items on which the two outcomes differ.")
    psi = float(discordance)
    question = which_question(n, difference, None)
    target = 0.8 if power is None else power
    name = "Connor (1987) normal approximation" if formula == "connor" else "exact power of McNemar's exact test"

    def power_at(size, d):
        if formula == "connor":
            return float(closed.paired_power(size, d, psi, alpha=alpha, alternative=alternative))
        return float(closed.paired_power_exact(int(size), d, psi, alpha=alpha, alternative=alternative))

    if question == "sample_size":
        if formula == "connor":
            n = int(closed.paired_sample_size(difference, psi, alpha=alpha, power=target, alternative=alternative))
        else:
            n = closed.paired_sample_size_exact(difference, psi, alpha=alpha, power=target, alternative=alternative)
        achieved = power_at(n, difference)
    elif question == "mde":
        n = check_positive_int(n, "n")
        difference = mde_solve(lambda d: power_at(n, d), target, psi * (1 - 1e-9))
        achieved = target
    else:
        n = check_positive_int(n, "n")
        achieved = power_at(n, difference)
    n_total = math.ceil(n / unit_scale - 1e-9)

    def curve(ns, diffs):
        rows = [
            {"n": math.ceil(k / unit_scale - 1e-9), "difference": d, "power": power_at(k, d), "mc_se": 0.0}
            for d in diffs
            for k in ns
        ]
        return pd.DataFrame(rows)

    table = plan_row(
        design="paired",
        question=question,
        metric=metric,
        comparison=comparison,
        n=n_total,
        n_outputs=n_total,
        difference=difference,
        power=achieved,
        alpha=alpha,
        alternative=alternative,
        discordance=psi,
        method=name,
    )
    return table, curve, name


def one_rate(
    n,
    difference,
    power,
    alpha,
    alternative,
    rate,
    reference,
    half_width,
    level,
    deff,
    *,
    metric="rate",
    comparison="",
    cluster_size: float = 1.0,
):
    # The formulas count outputs; n counts clusters (prompts, occupations) of cluster_size outputs each.
    table, curve, method = rate_outputs(
        None if n is None else round(check_positive_int(n, "n") * cluster_size),
        difference,
        power,
        alpha,
        alternative,
        rate,
        reference,
        half_width,
        level,
        deff,
        metric=metric,
        comparison=comparison,
    )
    outputs = int(table["n"].iloc[0])
    table["n"] = math.ceil(outputs / cluster_size - 1e-9) if n is None else n
    table["n_outputs"] = outputs if n is None else round(n * cluster_size)
    if curve is not None and cluster_size != 1:
        outputs_curve = curve

        def curve(ns, diffs):
            frame = outputs_curve(np.round(np.asarray(ns) * cluster_size).astype(int), diffs)
            return frame.assign(n=np.tile(np.asarray(ns), len(diffs)))  # rows: for each difference, every n

    return table, curve, method


def rate_outputs(
    n, difference, power, alpha, alternative, rate, reference, half_width, level, deff, *, metric="rate", comparison=""
):
    if half_width is not None or (reference is None and difference is None):
        if rate is None:
            raise UsageError("the rate design needs `rate`: the share you expect (e.g. 0.3 female outputs).")
        if half_width is not None:
            n = int(closed.rate_sample_size(half_width, rate, level=level, deff=deff))
        else:
            n = check_positive_int(n, "n")
        width = float(closed.rate_half_width(n, rate, level=level, deff=deff))
        method = "expected Wilson half-width" + (f", design effect {deff:g}" if deff != 1 else "")
        return (
            plan_row(
                design="rate",
                question="sample_size" if half_width is not None else "half_width",
                metric=metric,
                comparison=comparison,
                n=n,
                n_outputs=n,
                half_width=width,
                level=level,
                rate=rate,
                deff=deff,
                method=method,
            ),
            None,
            method,
        )
    if reference is None:
        raise UsageError("a test of one rate needs `null`: the share under the null hypothesis (e.g. 0.5 for parity).")
    p0 = check_number(reference, "null", low=0, high=1, hint="the share under the null hypothesis, not percent")
    if difference is None and rate is not None and n is None:
        difference = check_number(rate, "rate", low=0, high=1, hint="a share, not percent") - p0
        if alternative != "two-sided" and (difference < 0) != (alternative == "less"):
            raise UsageError(
                f"alternative={alternative!r} plans for a rate {'below' if alternative == 'less' else 'above'} "
                f"the null {p0:g}; `rate` is {rate:g}."
            )
    if difference is not None and not 0 <= p0 + difference <= 1:
        raise UsageError(
            f"`null` + `difference` = {p0:g} + {difference:g} is not a share in [0, 1]: the rate planned for must be one."
        )
    question = which_question(n, difference, None)
    if question == "sample_size" and difference == 0:
        raise UsageError("`difference` must be non-zero: no sample size detects a difference of 0.")
    target = 0.8 if power is None else power
    method = "score test of one proportion (normal approximation)" + (f", design effect {deff:g}" if deff != 1 else "")

    def power_at(size, d):
        p1 = p0 + d
        if not 0 <= p1 <= 1:
            return float("nan")
        return float(closed.rate_power(size, p1, p0, alpha=alpha, alternative=alternative, deff=deff))

    if question == "sample_size":
        n = int(closed.rate_sample_size_test(p0 + difference, p0, alpha=alpha, power=target, alternative=alternative, deff=deff))
        achieved = power_at(n, difference)
    elif question == "mde":
        n = check_positive_int(n, "n")
        room = max(1 - p0, p0) * (1 - 1e-9)
        sign = 1.0 if 1 - p0 >= p0 else -1.0
        difference = sign * mde_solve(lambda d: power_at(n, sign * d), target, room)
        achieved = target
    else:
        n = check_positive_int(n, "n")
        achieved = power_at(n, difference)

    def curve(ns, diffs):
        return pd.DataFrame([{"n": int(k), "difference": d, "power": power_at(k, d), "mc_se": 0.0} for d in diffs for k in ns])

    return (
        plan_row(
            design="rate",
            question=question,
            metric=metric,
            comparison=comparison,
            n=n,
            n_outputs=n,
            difference=difference,
            power=achieved,
            alpha=alpha,
            alternative=alternative,
            rate=p0 + difference,
            reference=p0,
            deff=deff,
            method=method,
        ),
        curve,
        method,
    )


def labels(n, half_width, level, rate, discordance, items, *, metric="share") -> tuple:
    """How many items people must label for a corrected share within ``± half_width`` (or the half-width that `n`
    labels give): the PPI++ variance of :func:`~stats_mtbias.uncertainty.ppi.ppi_share_variance` with the judge's
    `discordance` with people (``1 − agreement``, from a pilot) and `items` judged in all."""
    if rate is None or discordance is None:
        raise UsageError(
            "the labels design needs `rate` (the share) and `discordance` (the share of items where the judge and "
            "people disagree: 1 − agreement, e.g. from smb.rates(..., labels=...))."
        )
    if (half_width is None) == (n is None):
        raise UsageError("the labels design answers one question: give `half_width` (→ the labels for it) or `n` labels.")
    if items is not None:
        items = check_positive_int(items, "items", minimum=3)
    z_level = float(special.ndtri(0.5 + level / 2.0))
    method = "prediction-powered inference (PPI++), closed-form variance with the judge's discordance"

    def width(k):
        return z_level * float(np.sqrt(ppi_share_variance(k, rate=rate, discordance=discordance, items=items)))

    if half_width is not None:
        top = items - 1 if items is not None else 10**9
        if width(top) > half_width:
            raise UsageError(
                f"no number of labels reaches ±{half_width:g}"
                + (f" with {items} items judged (at most ±{width(top):.4f}): judge more items." if items else ".")
            )
        low, high = 1, top  # the width falls with more labels (the tuned λ never does worse than the labels alone)
        while low < high:
            mid = (low + high) // 2
            low, high = (mid + 1, high) if width(mid) > half_width else (low, mid)
        n = low
    else:
        n = check_positive_int(n, "n")
        if items is not None and n >= items:
            raise UsageError(f"`n` labels ({n}) must be fewer than the `items` judged ({items}).")
    return (
        plan_row(
            design="labels",
            question="sample_size" if half_width is not None else "half_width",
            metric=metric,
            n=n,
            n_outputs=items if items is not None else np.nan,
            half_width=width(n),
            level=level,
            discordance=discordance,
            rate=rate,
            method=method,
        ),
        None,
        method,
    )


def normal(n, difference, power, alpha, alternative, se, n_pilot, half_width, level, *, metric="estimate", comparison=""):
    if se is None or n_pilot is None:
        raise UsageError("the normal design needs `se` (the standard error) and `n_pilot` (the size it was measured at).")
    n_pilot = check_positive_int(n_pilot, "n_pilot")
    se = check_number(
        se,
        "se",
        low=0,
        low_open=True,
        hint="a positive standard error: an estimate without sampling variance cannot be planned for",
    )
    z_level = float(special.ndtri(0.5 + level / 2.0))
    method = "Wald test, standard error scaled by √(n_pilot / n)"
    se_at = lambda size: se * math.sqrt(n_pilot / size)  # noqa: E731
    if half_width is not None:
        n = math.ceil(n_pilot * (z_level * se / half_width) ** 2 - 1e-9)
        return (
            plan_row(
                design="normal",
                question="sample_size",
                metric=metric,
                comparison=comparison,
                n=n,
                half_width=z_level * se_at(n),
                level=level,
                method=method,
            ),
            None,
            method,
        )
    question = which_question(n, difference, None)
    target = 0.8 if power is None else power
    if question == "sample_size":
        n = int(closed.normal_sample_size(difference, se, n_pilot, alpha=alpha, power=target, alternative=alternative))
    else:
        n = check_positive_int(n, "n")
    if question == "mde":
        difference = float(closed.normal_mde(se_at(n), alpha=alpha, power=target, alternative=alternative))
    achieved = float(closed.normal_power(difference, se_at(n), alpha=alpha, alternative=alternative))

    def curve(ns, diffs):
        return pd.DataFrame(
            [
                {
                    "n": int(k),
                    "difference": d,
                    "mc_se": 0.0,
                    "power": float(closed.normal_power(d, se_at(k), alpha=alpha, alternative=alternative)),
                }
                for d in diffs
                for k in ns
            ]
        )

    return (
        plan_row(
            design="normal",
            question=question,
            metric=metric,
            comparison=comparison,
            n=n,
            difference=difference,
            power=achieved,
            half_width=z_level * se_at(n),
            alpha=alpha,
            alternative=alternative,
            level=level,
            method=method,
        ),
        curve,
        method,
    )


# ---------------------------------------------------------------- pilots


def two_systems(result, systems) -> tuple[str, ...]:
    have = list(result.systems)
    if systems is None:
        if len(have) == 2:
            return tuple(have)
        if len(have) == 1:
            return (have[0],)
        raise UsageError(f"name the two systems to compare (`systems=(a, b)`); the pilot has {', '.join(have)}.")
    systems = (systems,) if isinstance(systems, str) else tuple(systems)
    if len(systems) not in (1, 2) or len(set(systems)) != len(systems):
        raise UsageError("`systems` names two different systems to compare (or one, for its precision).")
    return systems


def alone(design: sim.PairedDesign, systems: tuple[str, ...]) -> sim.PairedDesign:
    """With one system named: the design of its own metric (precision), not a difference."""
    if len(systems) == 2:
        return design
    from dataclasses import replace

    return replace(design, label=f"{design.label.split(': ')[0]}: {systems[0]}", single=True)


def one_language(frame: pd.DataFrame, language: str | None) -> str:
    languages = list(dict.fromkeys(frame["language"].astype(str)))
    if language is None:
        if len(languages) == 1:
            return languages[0]
        raise UsageError(f"name the `language` to plan for; the pilot has {', '.join(languages)}.")
    if language not in languages:
        raise UsageError(f"language {language!r} is not in the pilot; it has {', '.join(languages)}.")
    return language


def _simulated_curve(design, kw: dict, n_sim: int):
    """Power against n of a pilot's simulation (the power and the equivalence plans alike): one simulation per n, every
    difference read from it, with its Monte-Carlo standard error."""

    def curve(ns, diffs):
        rows = []
        for k in ns:
            s = sim.simulate(design, int(k), **kw)
            for d, q in zip(diffs, s.power(diffs), strict=True):
                rows.append({"n": int(k), "difference": float(d), "power": float(q), "mc_se": math.sqrt(q * (1 - q) / n_sim)})
        return pd.DataFrame(rows)

    return curve


def simulated(design, n, difference, power, alpha, alternative, half_width, level, test, n_sim, n_boot, rng):
    question = which_question(n, difference, half_width)
    target = 0.8 if power is None else power
    kw = dict(n_sim=n_sim, rng=rng, test=test, n_boot=n_boot, alpha=alpha, alternative=alternative)
    trace = None
    if half_width is not None:
        first = sim.simulate(design, design.n_pilot, **kw)
        guess = max(len(np.unique(design.strata)), math.ceil(design.n_pilot * (first.half_width(level) / half_width) ** 2))
        at = sim.simulate(design, guess, **kw)
        n = guess
        row = dict(question="sample_size", n=n, half_width=at.half_width(level))
    elif question == "sample_size":
        n, at, batches = sim.sample_size(design, difference, power=target, **kw)
        trace = pd.DataFrame(batches, columns=["n", "power"])
        p = float(at.power(difference)[0])
        row = dict(question=question, n=n, power=p, difference=difference, mc_se=math.sqrt(p * (1 - p) / n_sim))
    else:
        n = check_positive_int(n, "n")
        at = sim.simulate(design, n, **kw)
        if question == "mde":
            difference = at.mde(target)
            row = dict(question=question, n=n, difference=difference, power=target)
        else:
            p = float(at.power(difference)[0])
            row = dict(question=question, n=n, difference=difference, power=p, mc_se=math.sqrt(p * (1 - p) / n_sim))
        if design.single:
            row["half_width"] = at.half_width(level)
    size = float("nan") if design.single else float(at.power(0.0)[0])
    notes = []
    if size > alpha + 3 * math.sqrt(alpha * (1 - alpha) / n_sim):
        notes.append(
            f"{design.label}: the test rejects {size:.3f} of simulated evaluations with no difference at "
            f"nominal {alpha:g} (Monte-Carlo se {math.sqrt(alpha * (1 - alpha) / n_sim):.3f}): it is "
            "anti-conservative in this regime, so the power shown is overstated."
        )
    method = (
        f"simulation from the pilot ({n_sim:,} evaluations of n {design.unit} drawn within the study's strata; "
        + ("paired bootstrap test, " + f"{n_boot:,} resamples each" if test == "bootstrap" else "linearised Wald test")
        + f"; differences by location shift from the pilot's {design.observed:.4g})"
    )
    label = design.label.split(": ")

    curve = _simulated_curve(design, kw, n_sim)

    table = plan_row(
        design="pilot",
        metric=label[0],
        comparison=label[1] if len(label) > 1 else "",
        n_outputs=round(row["n"] * design.outputs_per_cluster),
        alpha=alpha,
        alternative=alternative,
        level=level,
        size=size,
        method=method,
        **row,
    )
    return table, curve, method, trace, notes


def equivalence(
    design,
    pilot,
    n,
    difference,
    power,
    alpha,
    alternative,
    margin,
    *,
    discordance,
    rate,
    null,
    deff,
    se,
    n_pilot,
    test,
    n_sim,
    n_boot,
    rng,
):
    """An equivalence (TOST) plan: the sample size (no `n`) or the power (`n` given) to show ``|Δ| < margin`` at a true
    difference `difference` (default 0); one-sided `alternative`: non-inferiority.

    Closed forms plan with the normal TOST power (:func:`~stats_mtbias.planning.closed.tost_power`) on the
    design's standard error: ``normal``, ``se √(n_pilot / n)``; ``paired``, ``√((ψ − d²) / n)`` (McNemar's
    difference); ``rate``, ``√(p (1 − p) deff / n)`` around ``null``. A pilot to simulate from applies the study's
    TOST to every simulated evaluation (Wald, or the one-sided percentile bootstrap tests at the margins).
    """
    margin = check_margin(margin)
    target = 0.8 if power is None else power
    if n is not None and power is not None:
        raise UsageError("give `n` (→ the power) or `power` (→ the sample size) of an equivalence plan, not both.")
    kind, payload = pilot if pilot is not None else (design, None)
    metric, comparison = "estimate", ""
    if kind == "rate" or design == "rate":
        if payload is not None:
            rate, deff, metric = payload["rate"], payload["deff"], payload["metric"]
        if null is None:
            if payload is None:
                raise UsageError("an equivalence plan of one rate needs `null`: the share it should be near (e.g. 0.5).")
            null = 0.5
        if difference is None:
            difference = 0.0 if rate is None else float(rate) - float(null)
        p = float(null) + difference
        if not 0 < p < 1:
            raise UsageError(f"`null` + `difference` = {p:g} must be a share strictly inside (0, 1).")
        unit_sd, name = (
            math.sqrt(p * (1 - p) * deff),
            "TOST of one share, normal approximation" + (f", design effect {deff:g}" if deff != 1 else ""),
        )
    else:
        difference = 0.0 if difference is None else difference
        if kind == "paired" or design == "paired":
            if payload is not None:
                discordance, metric, comparison = (
                    payload["discordance"],
                    payload.get("metric", metric),
                    payload.get("comparison", ""),
                )
            if discordance is None:
                raise UsageError("the paired design needs `discordance`: the share of items on which the two outcomes differ.")
            if difference**2 >= discordance:
                raise UsageError(f"a difference of {difference:g} needs a discordance above {difference**2:g}.")
            unit_sd, name = math.sqrt(discordance - difference**2), "TOST of a paired difference (variance (ψ − d²)/n)"
        elif kind == "normal" or design == "normal":
            if payload is not None:
                se, n_pilot, metric, comparison = payload["se"], payload["n_pilot"], payload["metric"], payload["comparison"]
            if se is None or n_pilot is None:
                raise UsageError("the normal design needs `se` (the standard error) and `n_pilot` (the size it was measured at).")
            unit_sd, name = float(se) * math.sqrt(check_positive_int(n_pilot, "n_pilot")), "TOST, Wald, standard error ∝ 1/√n"
        else:
            return simulated_equivalence(payload, n, difference, target, alpha, alternative, margin, test, n_sim, n_boot, rng)

    def power_at(size, d):
        return float(closed.tost_power(d, unit_sd / math.sqrt(size), margin, alpha=alpha, alternative=alternative))

    if n is None:
        question = "sample_size"
        n = closed.tost_sample_size(difference, unit_sd, margin, alpha=alpha, power=target, alternative=alternative)
    else:
        question, n = "power", check_positive_int(n, "n")

    def curve(ns, diffs):
        return pd.DataFrame([{"n": int(k), "difference": d, "power": power_at(k, d), "mc_se": 0.0} for d in diffs for k in ns])

    table = plan_row(
        design=design,
        question=question,
        metric=metric,
        comparison=comparison,
        n=n,
        n_outputs=n,
        difference=difference,
        power=power_at(n, difference),
        alpha=alpha,
        alternative=alternative,
        discordance=discordance if kind == "paired" or design == "paired" else np.nan,
        rate=(null + difference) if kind == "rate" or design == "rate" else np.nan,
        null=null if kind == "rate" or design == "rate" else np.nan,
        method=name,
        margin=margin,
    )
    return table, curve, name, None, []


def simulated_equivalence(design, n, difference, power, alpha, alternative, margin, test, n_sim, n_boot, rng):
    """:func:`equivalence` by simulation from a pilot: the study's TOST in every simulated evaluation."""
    check_choice(test, sim.TESTS, "test")
    kw = dict(n_sim=n_sim, rng=rng, test=test, n_boot=n_boot, alpha=alpha, alternative=alternative, margin=margin)
    trace = None
    if n is None:
        n, at, batches = sim.sample_size(design, difference, power=power, **kw)
        trace = pd.DataFrame(batches, columns=["n", "power"])
        question = "sample_size"
    else:
        n, question = check_positive_int(n, "n"), "power"
        at = sim.simulate(design, n, **kw)
    p = float(at.power(difference)[0])
    # The size: "equivalent" found at a true difference on the (nearer) margin, which it must not exceed α at.
    edge = {"two-sided": margin if difference >= 0 else -margin, "greater": -margin, "less": margin}[alternative]
    size = float(at.power(edge)[0])
    notes = []
    if size > alpha + 3 * math.sqrt(alpha * (1 - alpha) / n_sim):
        notes.append(
            f"{design.label}: equivalence is found in {size:.3f} of simulated evaluations at a true difference on the "
            f"margin ({edge:+g}), nominal {alpha:g}: the test is liberal in this regime, so the power shown is overstated."
        )
    method = (
        f"simulation from the pilot ({n_sim:,} evaluations of n {design.unit}; TOST within ±{margin:g}, "
        + (f"one-sided percentile bootstrap tests at the margins, {n_boot:,} resamples each" if test == "bootstrap" else "Wald")
        + f"; differences by location shift from the pilot's {design.observed:.4g})"
    )
    label = design.label.split(": ")

    curve = _simulated_curve(design, kw, n_sim)

    table = plan_row(
        design="pilot",
        question=question,
        metric=label[0],
        comparison=label[1] if len(label) > 1 else "",
        n=n,
        n_outputs=round(n * design.outputs_per_cluster),
        difference=difference,
        power=p,
        alpha=alpha,
        alternative=alternative,
        size=size,
        mc_se=math.sqrt(p * (1 - p) / n_sim),
        method=method,
        margin=margin,
    )
    return table, curve, method, trace, notes


def check_numbers(
    *,
    difference=None,
    half_width=None,
    discordance=None,
    rate=None,
    null=None,
    se=None,
    alpha: float = _defaults.ALPHA,
    level: float = _defaults.LEVEL,
    power=None,
    cluster_size=1,
    icc=0.0,
) -> tuple:
    """Every float parameter of a plan, before any work (a pilot study run included): each finite and in its range.

    NaN passes every comparison (``NaN < 0`` is False), so without this a NaN
    ``discordance`` gave n = −9.2e18. Returns ``(difference, half_width)`` as floats (None stays None).
    """
    if difference is not None:
        difference = check_number(difference, "difference", hint="a share, e.g. 0.02 for 2 points")
    if half_width is not None:
        half_width = check_number(
            half_width, "half_width", low=0, low_open=True, hint="the interval's half-width, e.g. 0.02 for ±2 points"
        )
    if discordance is not None:
        check_number(
            discordance, "discordance", low=0, high=1, low_open=True, hint="the share of items where the two outcomes differ"
        )
    for name, value in (("rate", rate), ("null", null)):
        if value is not None:
            check_number(value, name, low=0, high=1, hint="a share, not percent")
    if se is not None:
        check_number(
            se,
            "se",
            low=0,
            low_open=True,
            hint="a positive standard error: an estimate without sampling variance cannot be planned for",
        )
    closed._check_alpha(alpha)
    check_level(level)
    if power is not None:
        closed._check_power(power)
    closed.design_effect(cluster_size, icc)
    return difference, half_width


def plan(
    design: str,
    *,
    pilot: tuple[str, object] | None = None,
    pilot_provenance: dict | None = None,
    n: int | None = None,
    difference: float | None = None,
    power: float | None = None,
    alpha: float = _defaults.ALPHA,
    alternative: str = "two-sided",
    discordance: float | None = None,
    rate: float | None = None,
    null: float | None = None,
    half_width: float | None = None,
    level: float = _defaults.LEVEL,
    cluster_size: float = 1,
    icc: float = 0.0,
    se: float | None = None,
    n_pilot: int | None = None,
    items: int | None = None,
    formula: str = "connor",
    test: str = "bootstrap",
    n_sim: int = 1000,
    n_boot: int = 500,
    rng: np.random.Generator | int = _defaults.SEED,
    margin: float | None = None,
) -> PowerResult:
    """Answer a planning question with a design (see :func:`stats_mtbias.power`, which documents every option).

    `pilot` is ``(kind, payload)`` as a study's ``pilot`` function returns it:
    ``("simulate", PairedDesign)``, or ``("paired" | "rate" | "normal", keywords)``.
    """
    check_choice(design, DESIGNS, "design")
    difference, half_width = check_numbers(
        difference=difference,
        half_width=half_width,
        discordance=discordance,
        rate=rate,
        null=null,
        se=se,
        alpha=alpha,
        level=level,
        power=power,
        cluster_size=cluster_size,
        icc=icc,
    )
    alternative = closed.check_alternative(alternative, difference)
    # With a margin a one-sided plan is non-inferiority: the true difference may lie on either side of 0.
    if margin is None and difference is not None and alternative != "two-sided" and (difference < 0) != (alternative == "less"):
        side = "below" if alternative == "less" else "above"
        raise UsageError(f"alternative={alternative!r} plans for a difference a − b {side} 0; `difference` is {difference:g}.")
    closed._check_alpha(alpha)
    level = check_level(level)
    if power is not None:
        power = closed._check_power(power)
        if n is not None and difference is not None:
            raise UsageError("give two of `n`, `difference` and `power`: the third is the answer.")
    deff = float(closed.design_effect(cluster_size, icc))
    seed = seed_of(rng)
    rng = check_rng(rng)
    options = {"alpha": alpha, "alternative": alternative, "level": level, "power": power}
    trace, notes = None, []
    if margin is not None:
        if half_width is not None:
            raise UsageError("an equivalence plan (`margin`) answers a sample size or a power, not a `half_width`.")
        if design == "pilot" and pilot is None:
            raise UsageError("the pilot design needs `pilot=`: a study result on your pilot outputs.")
        table, curve, name, trace, notes = equivalence(
            design,
            pilot,
            n,
            difference,
            power,
            alpha,
            alternative,
            margin,
            discordance=discordance,
            rate=rate,
            null=null,
            deff=deff,
            se=se,
            n_pilot=n_pilot,
            test=test,
            n_sim=n_sim,
            n_boot=n_boot,
            rng=rng,
        )
        options["margin"] = float(margin)
        if pilot is not None and pilot[0] == "simulate":
            options.update({"test": test, "n_sim": n_sim, "n_boot": n_boot if test == "bootstrap" else None})
    elif design == "paired":
        table, curve, name = paired(n, difference, power, alpha, alternative, discordance, formula)
    elif design == "rate":
        table, curve, name = one_rate(
            n, difference, power, alpha, alternative, rate, null, half_width, level, deff, cluster_size=float(cluster_size)
        )
    elif design == "normal":
        table, curve, name = normal(n, difference, power, alpha, alternative, se, n_pilot, half_width, level)
    elif design == "labels":
        table, curve, name = labels(n, half_width, level, rate, discordance, items)
    else:
        if pilot is None:
            raise UsageError(
                "the pilot design needs `pilot=`: a result of smb.tgbi, smb.winomt, smb.prates, "
                "smb.optimal or smb.rates on your pilot outputs (or the shipped ones)."
            )
        kind, payload = pilot
        check_choice(kind, PILOT_KINDS, "pilot kind")
        if kind == "simulate":
            check_choice(test, sim.TESTS, "test")
            table, curve, name, trace, notes = simulated(
                payload, n, difference, power, alpha, alternative, half_width, level, test, n_sim, n_boot, rng
            )
            options.update(
                {
                    "test": test,
                    "n_sim": n_sim,
                    "n_boot": n_boot if test == "bootstrap" else None,
                    "pilot_difference": payload.observed,
                    "pilot_n": payload.n_pilot,
                }
            )
        elif kind == "paired":
            # McNemar-tested metrics: the exact power of the exact test, with the pilot's discordance.
            payload = dict(payload)
            alt = payload.pop("alternative", alternative)
            observed = payload.pop("observed")
            table, curve, name = paired(n, difference, power, alpha, alt, payload.pop("discordance"), "exact", **payload)
            table["design"] = "pilot"
            options.update({"pilot_difference": observed, "alternative": alt})
        elif kind == "rate":
            # A difference is read against parity (0.5) unless a null share is given.
            ref = null if null is not None else (0.5 if difference is not None else None)
            table, curve, name = one_rate(
                n,
                difference,
                power,
                alpha,
                alternative,
                payload["rate"],
                ref,
                half_width,
                level,
                payload["deff"],
                metric=payload["metric"],
            )
            table["design"] = "pilot"
        else:
            table, curve, name = normal(
                n,
                difference,
                power,
                alpha,
                alternative,
                payload["se"],
                payload["n_pilot"],
                half_width,
                level,
                metric=payload["metric"],
                comparison=payload["comparison"],
            )
            table["design"] = "pilot"
    provenance = {
        "method": name,
        "design": design,
        "options": options,
        "seed": seed,
        "assumptions": {
            k: v
            for k, v in {
                "discordance": discordance,
                "rate": rate,
                "null": null,
                "cluster_size": cluster_size,
                "icc": icc,
                "design_effect": deff,
                "se": se,
                "n_pilot": n_pilot,
                "items": items,
            }.items()
            if v is not None
        },
    }
    if pilot_provenance is not None:
        provenance["pilot"] = pilot_provenance

    provenance.update(
        {k: v for k, v in Provenance(method=name).to_dict().items() if k in ("package_version", "python", "dependencies")}
    )
    return PowerResult(str(table["question"].iloc[0]), table, provenance, trace, notes, curve)
