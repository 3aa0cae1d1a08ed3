"""``smb.power``: one entry point for sample size, power and minimum detectable effects.

The front door of :mod:`stats_mtbias.planning`. A closed-form design is planned
there directly; a pilot result is first turned into a design by its own study
(``stats_mtbias.studies.<study>.pilot``), so that planning knows no study.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_finite
from stats_mtbias.errors import UsageError
from stats_mtbias.planning import designs
from stats_mtbias.planning.designs import DESIGNS
from stats_mtbias.planning.result import PowerResult
from stats_mtbias.studies import STUDIES

__all__ = ["PowerResult", "power"]


def power(
    design: str | None = None,
    *,
    pilot=None,
    n: int | None = None,
    difference: float | None = None,
    power: float | None = None,
    alpha: float = _defaults.ALPHA,
    alternative: str = "two-sided",
    discordance: float | None = None,
    rate: float | None = None,
    null: float | None = None,
    reference: float | None = None,
    half_width: float | None = None,
    level: float = _defaults.LEVEL,
    cluster_size: float = 1,
    icc: float = 0.0,
    se: float | None = None,
    n_pilot: int | None = None,
    items: int | None = None,
    systems: Sequence[str] | str | None = None,
    metric: str | None = None,
    language: str | None = None,
    subset: str | None = None,
    formula: str = "connor",
    test: str = "bootstrap",
    n_sim: int = 1000,
    n_boot: int = 500,
    rng: np.random.Generator | int = _defaults.SEED,
    method: str | None = None,
    margin: float | None = None,
) -> PowerResult:
    """Plan an evaluation: the sample size, the power, or the minimum detectable effect.

    What is left out is the answer: no ``n`` → the sample size for ``difference``
    (or for an interval no wider than ``± half_width``); no ``difference`` → the
    minimum detectable effect (MDE) at ``n``; both → the power at ``n``.
    ``power`` is the target (default 0.8) when it is not the answer. Every
    difference and rate is a share (0.02 = 2 points).

    Parameters
    ----------
    design : {"paired", "rate", "normal", "pilot"}
        ``paired``: two systems' binary outcomes on the same items (right/wrong,
        male/female), McNemar's test — Connor's (1987) formula, or with
        ``formula="exact"`` the exact power of the exact test the package runs;
        needs ``discordance``. ``rate``: one share — the Wilson half-width at
        ``rate``, or the score test of ``null + difference`` against
        ``null``. ``normal``: any estimate with standard error ``se`` measured
        on ``n_pilot`` units (SE ∝ 1/√n). ``pilot`` (the default when ``pilot`` is
        given): simulate evaluations from a pilot result. ``labels``: how many
        items people must label for a share corrected for the judge's errors
        (``smb.rates(..., labels=...)``) to be within ``± half_width`` (or, with
        ``n`` labels, the half-width): the PPI++ variance with the judge's
        ``discordance`` with people (1 − ``agreement``) at ``rate``, the judge
        reading ``items`` items in all.
    pilot : StudyResult, optional
        A result of :func:`tgbi`, :func:`winomt`, :func:`rates` (simulated through the
        study's estimator, strata and paired bootstrap test), :func:`prates`
        (``metric="male>female"``: the one-sided exact sign test with the pilot's
        discordance; ``"p_female"``: the rate design with its design effect) or
        :func:`optimal` (the normal design on a row's interval).
    n : int, optional
        Items (clusters: WinoMT items, TGBI lexicon items, your prompts) of the evaluation.
    difference : float, optional
        The true difference to detect (system a − b), a share.
    power : float, optional
        Target power (default 0.8), or leave out and give ``n`` and ``difference``.
    alpha : float
        Level of the test.
    alternative : {"two-sided", "less", "greater"}
        A one-sided plan names its direction (``greater``: a > b, with a positive
        ``difference``; ``less``: a < b). ``"one-sided"`` is deprecated (read as the
        direction of ``difference``).
    discordance : float, optional
        ``paired``: share of items where the two outcomes differ (from a pilot or a guess).
    rate, null : float, optional
        ``rate``: the expected share; ``null`` the share under the null hypothesis (e.g. 0.5).
    reference : float, optional
        Deprecated spelling of ``null``.
    half_width : float, optional
        Target half-width of the ``level`` interval (→ the sample size for it).
    level : float
        Confidence level of intervals.
    cluster_size, icc : float
        Outputs per cluster and their intra-cluster correlation: the design effect
        ``1 + (cluster_size − 1) icc`` of the ``rate`` design (``n`` counts outputs).
    se, n_pilot : float, int, optional
        ``normal``: a standard error and the size it was measured at.
    items : int, optional
        ``labels``: the items the judge reads in all (None: as many as needed).
    systems : (str, str) or str, optional
        ``pilot``: the two systems to compare (default: the pilot's two), or one
        for its own precision (``half_width``).
    metric, language, subset : str, optional
        ``pilot``: which estimate — WinoMT ``acc, f1_male, f1_female, delta_g,
        acc_pro, acc_anti, delta_s`` and a language; TGBI ``p_s`` of a ``subset``
        (a set or ``"TGBI"``); rates ``female, male, neutral, gap`` (with ``gold``
        also ``accuracy, accuracy_female, accuracy_male, accuracy_gap``) of a group.
    formula : {"connor", "exact"}
        ``paired`` design: Connor's normal approximation or the exact McNemar power.
    test : {"bootstrap", "wald"}
        ``pilot`` simulation: the study's paired bootstrap in every simulated
        evaluation (``n_boot`` resamples), or the linearised Wald test (faster).
    n_sim : int
        Simulated evaluations per size (Monte-Carlo error of a power p: √(p(1−p)/n_sim)).
    n_boot : int
        Bootstrap resamples inside every simulated evaluation.
    rng : int or Generator
        Source of every random number (keyword-only); the same seed, the same answer.
    method : {"connor", "exact"}, optional
        Deprecated spelling of ``formula`` (``method`` names the test elsewhere).
    margin : float, optional
        Plan an equivalence design: the items (no ``n``) or the power (``n`` given) to show
        ``|a − b| < margin`` by the two one-sided tests (TOST) at ``alpha`` each, when the true
        difference is ``difference`` (default 0). A one-sided ``alternative`` plans
        non-inferiority (``greater``: a − b > −margin; ``less``: a − b < margin). Closed forms for
        ``paired`` (standard error √((ψ − d²)/n)), ``rate`` (one share within ±margin of ``null``)
        and ``normal``; a pilot to simulate from applies the study's TOST to every simulated
        evaluation (and reports its size at the margin).

    Returns
    -------
    PowerResult
        ``.n``, ``.power``, ``.difference``, ``.half_width``; ``.table`` (the
        answer with every assumption), ``.to_dict()``, ``.curve()`` (power
        against n per difference), ``.plot()``, ``.provenance``.

    Examples
    --------
    Items for McNemar's test to detect a 5-point difference when the systems
    disagree on 20% of items (Connor 1987):

    >>> import stats_mtbias as smb
    >>> smb.power("paired", discordance=0.2, difference=0.05).n
    626

    The smallest difference 3,888 items can detect, and the items for a female
    share within ±3 points:

    >>> round(float(smb.power("paired", discordance=0.2, n=3888).difference), 4)
    0.0201
    >>> smb.power("rate", rate=0.3, half_width=0.03).n
    894

    Labels for a female share within ±3 points when the judge disagrees with people on 10% of 5,000 items:

    >>> smb.power("labels", rate=0.3, discordance=0.1, items=5000, half_width=0.03).n
    420

    Items to show two systems equivalent within ±3 points when they truly do not differ
    and disagree on 20% of items:

    >>> smb.power("paired", discordance=0.2, margin=0.03).n
    1904
    """
    numbers = dict(
        n=n,
        difference=difference,
        power=power,
        alpha=alpha,
        discordance=discordance,
        rate=rate,
        null=null,
        reference=reference,
        half_width=half_width,
        level=level,
        cluster_size=cluster_size,
        icc=icc,
        se=se,
        n_pilot=n_pilot,
        items=items,
    )
    for name, value in numbers.items():  # NaN passes every range check (NaN < 0 is False): refused here, by name
        check_finite(value, name)
    if method is not None:
        if formula != "connor":
            raise UsageError("give `formula` (the paired design's power formula), not also its old name `method`.")
        warnings.warn(
            "smb.power(method=) is deprecated: call it `formula` (the paired design's power formula).",
            FutureWarning,
            stacklevel=2,
        )
        formula = method
    if reference is not None:
        if null is not None:
            raise UsageError("give `null` (the share under the null hypothesis), not also its old name `reference`.")
        warnings.warn(
            "smb.power(reference=) is deprecated: call it `null` (the share under the null hypothesis).",
            FutureWarning,
            stacklevel=2,
        )
        null = reference
    # Ranges too, before a pilot is turned into a design.
    designs.check_numbers(
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
    if design is None:
        design = "pilot" if pilot is not None else None
    if design is None:
        raise UsageError(f"choose a design: {', '.join(DESIGNS)} (or pass `pilot=` a study result).")
    check_choice(design, DESIGNS, "design")
    from_pilot = provenance = None
    if design == "pilot" and pilot is not None:
        study = STUDIES.get(getattr(pilot, "study", None))
        if study is None or study.pilot is None:
            raise UsageError(
                f"a {getattr(pilot, 'study', type(pilot).__name__)} result cannot serve as a pilot; use "
                "tgbi, winomt, prates, optimal or rates results."
            )
        from_pilot = study.pilot(pilot, systems=systems, metric=metric, language=language, subset=subset)
        provenance = {
            "study": pilot.study,
            "data": pilot.provenance.get("data", {}),
            "method": pilot.provenance.get("method"),
            "signature": pilot.signature,  # the pilot's numbers, as its result says they were made
        }
    return designs.plan(
        design,
        pilot=from_pilot,
        pilot_provenance=provenance,
        n=n,
        difference=difference,
        power=power,
        alpha=alpha,
        alternative=alternative,
        discordance=discordance,
        rate=rate,
        null=null,
        half_width=half_width,
        level=level,
        cluster_size=cluster_size,
        icc=icc,
        se=se,
        n_pilot=n_pilot,
        items=items,
        formula=formula,
        test=test,
        n_sim=n_sim,
        n_boot=n_boot,
        rng=rng,
        margin=margin,
    )
