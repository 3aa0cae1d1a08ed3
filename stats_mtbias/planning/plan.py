"""``smb.power``: one entry point for sample size, power and minimum detectable effects.

Which question is answered follows from what is left out, as in statsmodels'
``solve_power``: no ``n`` → the sample size for ``difference`` (or for an
interval ``half_width``); no ``difference`` → the minimum detectable effect at
``n``; both given → the power. ``power`` is the target (default 0.8) when it is
not the answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import optimize, special

from stats_mtbias._validation import check_choice, check_level, check_positive_int, check_rng, seed_of
from stats_mtbias.errors import UsageError
from stats_mtbias.planning import closed
from stats_mtbias.planning import simulate as sim

DESIGNS = ("paired", "rate", "normal", "pilot")
PAIRED_METHODS = ("connor", "exact")
PLAN_COLUMNS = ["design", "question", "metric", "comparison", "n", "n_outputs", "difference", "power", "half_width",
                "alpha", "alternative", "level", "discordance", "rate", "reference", "deff", "size", "mc_se",
                "method"]  # fmt: skip
_MCNEMAR = {"acc": "correct", "acc_pro": "correct_pro", "acc_anti": "correct_anti"}


@dataclass(frozen=True)
class PowerResult:
    """The answer of :func:`stats_mtbias.power`.

    Attributes
    ----------
    question : str
        ``sample_size``, ``power``, ``mde`` or ``half_width``.
    table : DataFrame
        One row (:data:`PLAN_COLUMNS`): the answer beside every assumption it used.
        Shares in [0, 1]; ``n`` in the design's units (items, lexicon items,
        clusters), ``n_outputs`` the judgements they hold.
    provenance : dict
        Method, assumptions, pilot inputs (with sha256), simulations, seed, versions.
    trace : DataFrame
        The simulated batches behind a simulated sample size (``n``, ``power``).
    notes : list of str
        What a reader must not miss, e.g. a simulated size above the level (the
        test rejects too often there, so its power is overstated).
    """

    question: str
    table: pd.DataFrame
    provenance: dict
    trace: pd.DataFrame | None = None
    notes: list = field(default_factory=list)
    _curve: Callable[[np.ndarray, np.ndarray], pd.DataFrame] | None = field(default=None, repr=False)

    def _value(self, column: str):
        value = self.table[column].iloc[0]
        if pd.isna(value):
            return None
        return value.item() if isinstance(value, np.generic) else value  # plain Python numbers

    @property
    def n(self) -> int | None:
        value = self._value("n")
        return None if value is None else int(value)

    @property
    def power(self) -> float | None:
        return self._value("power")

    @property
    def difference(self) -> float | None:
        return self._value("difference")

    @property
    def half_width(self) -> float | None:
        return self._value("half_width")

    def to_dict(self) -> dict:
        """The answer as one flat record (JSON-ready: NaN → None, counts as int).

        Examples
        --------
        >>> import stats_mtbias as smb
        >>> smb.power("paired", discordance=0.2, difference=0.05).to_dict()["n"]
        626
        """
        out = {}
        for key, value in self.table.iloc[0].items():
            if isinstance(value, (float, np.floating)) and np.isnan(value):
                value = None
            elif isinstance(value, np.integer):
                value = int(value)
            elif isinstance(value, np.floating):
                value = float(value)
            out[key] = value
        if out.get("n") is not None:
            out["n"] = int(out["n"])
        return out

    def curve(self, n: Sequence[int] | None = None, differences: Sequence[float] | None = None) -> pd.DataFrame:
        """Power against sample size, one line per difference: columns ``n, difference, power, mc_se``.

        Defaults: eight sizes from a quarter to twice the answer's ``n``, and the
        answer's difference with half and one and a half times it.
        """
        if self._curve is None:
            raise UsageError("a half-width plan has no power curve; ask for a difference.")
        base_n = self.n or 100
        d0 = self.difference if self.difference else None
        if n is None:
            n = np.unique(np.round(np.geomspace(max(4, base_n / 4), base_n * 2, 8)).astype(int))
        if differences is None:
            if d0 is None:
                raise UsageError("give `differences` for the curve.")
            differences = [0.5 * d0, d0, 1.5 * d0]
        return self._curve(np.asarray(n, int), np.asarray(differences, float))

    def plot(self, n: Sequence[int] | None = None, differences: Sequence[float] | None = None, *, scale: float = 1.0,
             unit: str = ""):  # fmt: skip
        """Matplotlib figure of :meth:`curve` (``scale=100, unit=" points"`` to label differences in points)."""
        from stats_mtbias.plotting import power_curve

        frame = self.curve(n, differences)
        return power_curve(frame, target=0.8 if self.question != "power" else None, scale=scale, unit=unit,
                           title=str(self.table["comparison"].iloc[0] or self.table["metric"].iloc[0]))  # fmt: skip

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.to_dict().items() if v is not None and k in
                 ("question", "n", "difference", "power", "half_width", "method")}  # fmt: skip
        return f"PowerResult({', '.join(f'{k}={v!r}' for k, v in shown.items())})"


def _row(**values) -> pd.DataFrame:
    row = dict.fromkeys(PLAN_COLUMNS, np.nan)
    row.update(values)
    return pd.DataFrame([row], columns=PLAN_COLUMNS)


def _question(n, difference, half_width) -> str:
    if half_width is not None:
        if n is not None:
            raise UsageError("give `half_width` (→ the n for it) or `n` (→ the half-width), not both.")
        return "sample_size"
    if n is None:
        if difference is None:
            raise UsageError("give `n` (→ power or minimum detectable effect), `difference` (→ sample size) or "
                             "`half_width` (→ sample size for that precision).")  # fmt: skip
        return "sample_size"
    return "mde" if difference is None else "power"


def _mde_solve(power_of: Callable[[float], float], target: float, top: float) -> float:
    """Smallest positive difference with ``power_of(d) >= target`` below ``top`` (NaN if none)."""
    if power_of(top) < target:
        return float("nan")
    return float(optimize.brentq(lambda d: power_of(d) - target, top * 1e-9, top, xtol=top * 1e-10))


# ---------------------------------------------------------------- closed forms


def _paired(n, difference, power, alpha, alternative, discordance, method, *, metric="paired binary", comparison="",
            unit_scale: float = 1.0):  # fmt: skip
    check_choice(method, PAIRED_METHODS, "method")
    if discordance is None:
        raise UsageError("the paired design needs `discordance`: the share of items on which the two outcomes differ.")
    psi = float(discordance)
    question = _question(n, difference, None)
    target = 0.8 if power is None else power
    name = "Connor (1987) normal approximation" if method == "connor" else "exact power of McNemar's exact test"

    def power_at(size, d):
        if method == "connor":
            return float(closed.paired_power(size, d, psi, alpha=alpha, alternative=alternative))
        return float(closed.paired_power_exact(int(size), d, psi, alpha=alpha, alternative=alternative))

    if question == "sample_size":
        if method == "connor":
            n = int(closed.paired_sample_size(difference, psi, alpha=alpha, power=target, alternative=alternative))
        else:
            n = closed.paired_sample_size_exact(difference, psi, alpha=alpha, power=target, alternative=alternative)
        achieved = power_at(n, difference)
    elif question == "mde":
        n = check_positive_int(n, "n")
        difference = _mde_solve(lambda d: power_at(n, d), target, psi * (1 - 1e-9))
        achieved = target
    else:
        n = check_positive_int(n, "n")
        achieved = power_at(n, difference)
    n_total = math.ceil(n / unit_scale - 1e-9)

    def curve(ns, diffs):
        rows = [{"n": math.ceil(k / unit_scale - 1e-9), "difference": d, "power": power_at(k, d), "mc_se": 0.0}
                for d in diffs for k in ns]  # fmt: skip
        return pd.DataFrame(rows)

    table = _row(design="paired", question=question, metric=metric, comparison=comparison, n=n_total,
                 n_outputs=n_total, difference=difference, power=achieved, alpha=alpha, alternative=alternative,
                 discordance=psi, method=name)  # fmt: skip
    return table, curve, name


def _rate(n, difference, power, alpha, alternative, rate, reference, half_width, level, deff, *, metric="rate",
          comparison="", cluster_size: float = 1.0):  # fmt: skip
    # The formulas count outputs; n counts clusters (prompts, occupations) of cluster_size outputs each.
    table, curve, method = _rate_outputs(None if n is None else round(check_positive_int(n, "n") * cluster_size), difference,
                                         power, alpha, alternative, rate, reference, half_width, level, deff,
                                         metric=metric, comparison=comparison)  # fmt: skip
    outputs = int(table["n"].iloc[0])
    table["n"] = math.ceil(outputs / cluster_size - 1e-9) if n is None else n
    table["n_outputs"] = outputs if n is None else round(n * cluster_size)
    if curve is not None and cluster_size != 1:
        outputs_curve = curve

        def curve(ns, diffs):
            frame = outputs_curve(np.round(np.asarray(ns) * cluster_size).astype(int), diffs)
            return frame.assign(n=np.tile(np.asarray(ns), len(diffs)))  # rows: for each difference, every n

    return table, curve, method


def _rate_outputs(n, difference, power, alpha, alternative, rate, reference, half_width, level, deff, *,
                  metric="rate", comparison=""):  # fmt: skip
    if half_width is not None or (reference is None and difference is None):
        if rate is None:
            raise UsageError("the rate design needs `rate`: the share you expect (e.g. 0.3 female outputs).")
        if half_width is not None:
            n = int(closed.rate_sample_size(half_width, rate, level=level, deff=deff))
        else:
            n = check_positive_int(n, "n")
        width = float(closed.rate_half_width(n, rate, level=level, deff=deff))
        method = "expected Wilson half-width" + (f", design effect {deff:g}" if deff != 1 else "")
        return _row(design="rate", question="sample_size" if half_width is not None else "half_width", metric=metric,
                    comparison=comparison, n=n, n_outputs=n, half_width=width, level=level, rate=rate, deff=deff,
                    method=method), None, method  # fmt: skip
    if reference is None:
        raise UsageError("a test of one rate needs `reference`: the share under the null (e.g. 0.5 for parity).")
    p0 = float(reference)
    if difference is None and rate is not None and n is None:
        difference = float(rate) - p0
    question = _question(n, difference, None)
    target = 0.8 if power is None else power
    method = "score test of one proportion (normal approximation)" + (f", design effect {deff:g}" if deff != 1 else "")

    def power_at(size, d):
        p1 = p0 + d
        if not 0 <= p1 <= 1:
            return float("nan")
        return float(closed.rate_power(size, p1, p0, alpha=alpha, alternative=alternative, deff=deff))

    if question == "sample_size":
        n = int(closed.rate_sample_size_test(p0 + difference, p0, alpha=alpha, power=target, alternative=alternative,
                                             deff=deff))  # fmt: skip
        achieved = power_at(n, difference)
    elif question == "mde":
        n = check_positive_int(n, "n")
        room = max(1 - p0, p0) * (1 - 1e-9)
        sign = 1.0 if 1 - p0 >= p0 else -1.0
        difference = sign * _mde_solve(lambda d: power_at(n, sign * d), target, room)
        achieved = target
    else:
        n = check_positive_int(n, "n")
        achieved = power_at(n, difference)

    def curve(ns, diffs):
        return pd.DataFrame([{"n": int(k), "difference": d, "power": power_at(k, d), "mc_se": 0.0}
                             for d in diffs for k in ns])  # fmt: skip

    return _row(design="rate", question=question, metric=metric, comparison=comparison, n=n, n_outputs=n,
                difference=difference, power=achieved, alpha=alpha, alternative=alternative, rate=p0 + difference,
                reference=p0, deff=deff, method=method), curve, method  # fmt: skip


def _normal(n, difference, power, alpha, alternative, se, n_pilot, half_width, level, *, metric="estimate",
            comparison=""):  # fmt: skip
    if se is None or n_pilot is None:
        raise UsageError("the normal design needs `se` (the standard error) and `n_pilot` (the size it was measured at).")
    se, n_pilot = float(se), check_positive_int(n_pilot, "n_pilot")
    if not se > 0:
        raise UsageError("`se` must be positive: an estimate without sampling variance cannot be planned for.")
    z_level = float(special.ndtri(0.5 + level / 2.0))
    method = "Wald test, standard error scaled by √(n_pilot / n)"
    se_at = lambda size: se * math.sqrt(n_pilot / size)  # noqa: E731
    if half_width is not None:
        n = math.ceil(n_pilot * (z_level * se / half_width) ** 2 - 1e-9)
        return _row(design="normal", question="sample_size", metric=metric, comparison=comparison, n=n,
                    half_width=z_level * se_at(n), level=level, method=method), None, method  # fmt: skip
    question = _question(n, difference, None)
    target = 0.8 if power is None else power
    if question == "sample_size":
        n = int(closed.normal_sample_size(difference, se, n_pilot, alpha=alpha, power=target, alternative=alternative))
    else:
        n = check_positive_int(n, "n")
    if question == "mde":
        difference = float(closed.normal_mde(se_at(n), alpha=alpha, power=target, alternative=alternative))
    achieved = float(closed.normal_power(difference, se_at(n), alpha=alpha, alternative=alternative))

    def curve(ns, diffs):
        return pd.DataFrame([{"n": int(k), "difference": d, "mc_se": 0.0,
                              "power": float(closed.normal_power(d, se_at(k), alpha=alpha, alternative=alternative))}
                             for d in diffs for k in ns])  # fmt: skip

    return _row(design="normal", question=question, metric=metric, comparison=comparison, n=n, difference=difference,
                power=achieved, half_width=z_level * se_at(n), alpha=alpha, alternative=alternative, level=level,
                method=method), curve, method  # fmt: skip


# ---------------------------------------------------------------- pilot data


def _two_systems(result, systems) -> tuple[str, ...]:
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


def _alone(design: sim.PairedDesign, systems: tuple[str, ...]) -> sim.PairedDesign:
    """With one system named: the design of its own metric (precision), not a difference."""
    if len(systems) == 2:
        return design
    from dataclasses import replace

    return replace(design, label=f"{design.label.split(': ')[0]}: {systems[0]}", single=True)


def _one_language(frame: pd.DataFrame, language: str | None) -> str:
    languages = list(dict.fromkeys(frame["language"].astype(str)))
    if language is None:
        if len(languages) == 1:
            return languages[0]
        raise UsageError(f"name the `language` to plan for; the pilot has {', '.join(languages)}.")
    if language not in languages:
        raise UsageError(f"language {language!r} is not in the pilot; it has {', '.join(languages)}.")
    return language


def _pilot_design(result, systems, metric, language, subset):
    """The pilot as ``(kind, payload)``; kind: ``simulate`` (a PairedDesign), ``paired``, ``rate`` or ``normal`` (keywords)."""
    study = result.study
    if study == "winomt":
        from stats_mtbias.estimators.winomt import FEATURES
        from stats_mtbias.studies import winomt

        judgements = result.details.judgements
        language = _one_language(judgements, language)
        metric = metric or "delta_g"
        systems = _two_systems(result, systems)
        pair = systems if len(systems) == 2 else (systems[0], systems[0])
        design = _alone(winomt.pilot_design(judgements, pair, language, metric), systems)
        if metric in _MCNEMAR and len(systems) == 2:
            k = FEATURES.index(_MCNEMAR[metric])
            scope = FEATURES.index({"acc": "n", "acc_pro": "pro", "acc_anti": "anti"}[metric])
            x = design.counts
            inside = x[:, 0, scope] > 0
            a, b = x[inside, 0, k], x[inside, 1, k]
            psi = float(np.mean(a != b))
            # n counts the items a metric is computed on; the evaluation has n / share of them in all.
            return "paired", dict(discordance=psi, observed=float(np.mean(a) - np.mean(b)), metric=f"{language} {metric}",
                                  comparison=f"{systems[0]} − {systems[1]}", unit_scale=float(inside.mean()))  # fmt: skip
        return "simulate", design
    if study == "tgbi":
        from stats_mtbias.studies import tgbi

        systems = _two_systems(result, systems)
        pair = systems if len(systems) == 2 else (systems[0], systems[0])
        if metric not in (None, "p_s"):
            raise UsageError("TGBI plans for `metric='p_s'` of a `subset` (a sentence set, or 'TGBI' for the index).")
        both = (result.provenance.get("options") or {}).get("both", "neutral")
        return "simulate", _alone(tgbi.pilot_design(result.details.judgements, pair, subset or tgbi.INDEX, both), systems)
    if study == "rates":
        from stats_mtbias.studies import rates

        systems = _two_systems(result, systems)
        pair = systems if len(systems) == 2 else (systems[0], systems[0])
        by = (result.provenance.get("options") or {}).get("by") or []
        design = rates.pilot_design(result.details.judgements, pair, by=by, group=subset or rates.ALL,
                                    metric=metric or "female",
                                    rows_as_clusters=result.details.rows_as_clusters)  # fmt: skip
        return "simulate", _alone(design, systems)
    if study == "prates":
        metric = metric or "male>female"
        language = _one_language(result.details.tests, language)
        if metric in ("p_female", "female"):
            row = result.details.rates
            row = row[(row["language"] == language) & (row["category"] == (subset or "all"))]
            if not len(row):
                raise UsageError(f"no {language} rates for category {subset or 'all'!r} in the pilot.")
            row = row.iloc[0]
            deff = float(row["deff_female"]) if pd.notna(row["deff_female"]) else 1.0
            return "rate", dict(rate=float(row["n_female"]) / float(row["n"]), deff=max(deff, 1.0),
                                metric=f"{language} p_female", comparison="")  # fmt: skip
        tests = result.details.tests
        row = tests[(tests["language"] == language) & (tests["category"] == (subset or "all"))
                    & (tests["comparison"] == metric)]  # fmt: skip
        if not len(row):
            raise UsageError(f"no {language} test {metric!r} (category {subset or 'all'!r}) in the pilot; comparisons: "
                             f"{', '.join(sorted(set(tests['comparison'])))} or p_female.")  # fmt: skip
        row = row.iloc[0]
        n_items = float(row["n_items"])
        return "paired", dict(discordance=(row["n_positive"] + row["n_negative"]) / n_items,
                              observed=(row["n_positive"] - row["n_negative"]) / n_items,
                              metric=f"{language} {metric}", comparison=metric, unit_scale=1.0,
                              alternative="one-sided")  # fmt: skip
    if study == "optimal":
        table = result.table
        rows = table[table["metric"] == (metric or "b")]
        if language is not None:
            rows = rows[rows["language"] == language]
        if subset is not None:
            rows = rows[rows["subset"] == subset]
        if systems is not None:
            rows = rows[rows["system"].isin([systems] if isinstance(systems, str) else list(systems))]
        if len(rows) != 1:
            raise UsageError(f"name one row of the optimal table (`language`, `subset`, `metric`); {len(rows)} match.")
        row = rows.iloc[0]
        z = float(special.ndtri(0.5 + float(result.provenance.get("level") or 0.95) / 2.0))
        se = (row["ci_high"] - row["ci_low"]) / (2 * z)
        return "normal", dict(se=float(se), n_pilot=int(row["n"]), metric=f"{row['language']} {row['metric']}",
                              comparison=str(row["subset"]))  # fmt: skip
    raise UsageError(f"a {study} result cannot serve as a pilot; use tgbi, winomt, prates, optimal or rates results.")


def _simulated(design, n, difference, power, alpha, alternative, half_width, level, test, n_sim, n_boot, rng):
    question = _question(n, difference, half_width)
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
        notes.append(f"{design.label}: the test rejects {size:.3f} of simulated evaluations with no difference at "
                     f"nominal {alpha:g} (Monte-Carlo se {math.sqrt(alpha * (1 - alpha) / n_sim):.3f}): it is "
                     "anti-conservative in this regime, so the power shown is overstated.")  # fmt: skip
    method = (f"simulation from the pilot ({n_sim:,} evaluations of n {design.unit} drawn within the study's strata; "
              + ("paired bootstrap test, " + f"{n_boot:,} resamples each" if test == "bootstrap" else "linearised Wald test")
              + f"; differences by location shift from the pilot's {design.observed:.4g})")  # fmt: skip
    label = design.label.split(": ")

    def curve(ns, diffs):
        rows = []
        for k in ns:
            s = sim.simulate(design, int(k), **kw)
            for d, p in zip(diffs, s.power(diffs), strict=True):
                rows.append({"n": int(k), "difference": float(d), "power": float(p), "mc_se": math.sqrt(p * (1 - p) / n_sim)})
        return pd.DataFrame(rows)

    table = _row(design="pilot", metric=label[0], comparison=label[1] if len(label) > 1 else "",
                 n_outputs=round(row["n"] * design.outputs_per_cluster), alpha=alpha, alternative=alternative, level=level,
                 size=size, method=method, **row)  # fmt: skip
    return table, curve, method, trace, notes


def power(
    design: str | None = None,
    *,
    pilot=None,
    n: int | None = None,
    difference: float | None = None,
    power: float | None = None,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    discordance: float | None = None,
    rate: float | None = None,
    reference: float | None = None,
    half_width: float | None = None,
    level: float = 0.95,
    cluster_size: float = 1,
    icc: float = 0.0,
    se: float | None = None,
    n_pilot: int | None = None,
    systems: Sequence[str] | str | None = None,
    metric: str | None = None,
    language: str | None = None,
    subset: str | None = None,
    method: str = "connor",
    test: str = "bootstrap",
    n_sim: int = 1000,
    n_boot: int = 500,
    rng: np.random.Generator | int = 0,
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
        ``method="exact"`` the exact power of the exact test the package runs;
        needs ``discordance``. ``rate``: one share — the Wilson half-width at
        ``rate``, or the score test of ``reference + difference`` against
        ``reference``. ``normal``: any estimate with standard error ``se`` measured
        on ``n_pilot`` units (SE ∝ 1/√n). ``pilot`` (the default when ``pilot`` is
        given): simulate evaluations from a pilot result.
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
    alternative : {"two-sided", "one-sided"}
    discordance : float, optional
        ``paired``: share of items where the two outcomes differ (from a pilot or a guess).
    rate, reference : float, optional
        ``rate``: the expected share; ``reference`` the share under the null (e.g. 0.5).
    half_width : float, optional
        Target half-width of the ``level`` interval (→ the sample size for it).
    level : float
        Confidence level of intervals.
    cluster_size, icc : float
        Outputs per cluster and their intra-cluster correlation: the design effect
        ``1 + (cluster_size − 1) icc`` of the ``rate`` design (``n`` counts outputs).
    se, n_pilot : float, int, optional
        ``normal``: a standard error and the size it was measured at.
    systems : (str, str) or str, optional
        ``pilot``: the two systems to compare (default: the pilot's two), or one
        for its own precision (``half_width``).
    metric, language, subset : str, optional
        ``pilot``: which estimate — WinoMT ``acc, f1_male, f1_female, delta_g,
        acc_pro, acc_anti, delta_s`` and a language; TGBI ``p_s`` of a ``subset``
        (a set or ``"TGBI"``); rates ``female, male, neutral, gap`` of a group.
    method : {"connor", "exact"}
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

    Returns
    -------
    stats_mtbias.planning.PowerResult
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
    """
    if design is None:
        design = "pilot" if pilot is not None else None
    if design is None:
        raise UsageError(f"choose a design: {', '.join(DESIGNS)} (or pass `pilot=` a study result).")
    check_choice(design, DESIGNS, "design")
    check_choice(alternative, closed.ALTERNATIVES, "alternative")
    closed._check_alpha(alpha)
    level = check_level(level)
    if power is not None:
        power = closed._check_power(power)
        if n is not None and difference is not None:
            raise UsageError("give two of `n`, `difference` and `power`: the third is the answer.")
    if difference is not None and not np.isfinite(difference):
        raise UsageError("`difference` must be a finite share (e.g. 0.02 for 2 points).")
    if half_width is not None and not 0 < half_width:
        raise UsageError("`half_width` must be positive (a share, e.g. 0.02 for ±2 points).")
    deff = float(closed.design_effect(cluster_size, icc))
    seed = seed_of(rng)
    rng = check_rng(rng)
    options = {"alpha": alpha, "alternative": alternative, "level": level, "power": power}
    trace, notes = None, []
    pilot_provenance = None
    if design == "paired":
        table, curve, name = _paired(n, difference, power, alpha, alternative, discordance, method)
    elif design == "rate":
        table, curve, name = _rate(n, difference, power, alpha, alternative, rate, reference, half_width, level, deff,
                                   cluster_size=float(cluster_size))  # fmt: skip
    elif design == "normal":
        table, curve, name = _normal(n, difference, power, alpha, alternative, se, n_pilot, half_width, level)
    else:
        if pilot is None:
            raise UsageError("the pilot design needs `pilot=`: a result of smb.tgbi, smb.winomt, smb.prates, "
                             "smb.optimal or smb.rates on your pilot outputs (or the shipped ones).")  # fmt: skip
        kind, payload = _pilot_design(pilot, systems, metric, language, subset)
        pilot_provenance = {"study": pilot.study, "data": pilot.provenance.get("data", {}),
                            "method": pilot.provenance.get("method")}  # fmt: skip
        if kind == "simulate":
            check_choice(test, sim.TESTS, "test")
            table, curve, name, trace, notes = _simulated(payload, n, difference, power, alpha, alternative,
                                                          half_width, level, test, n_sim, n_boot, rng)  # fmt: skip
            options.update({"test": test, "n_sim": n_sim, "n_boot": n_boot if test == "bootstrap" else None,
                            "pilot_difference": payload.observed, "pilot_n": payload.n_pilot})  # fmt: skip
        elif kind == "paired":
            # McNemar-tested metrics: the exact power of the exact test, with the pilot's discordance.
            alt = payload.pop("alternative", alternative)
            observed = payload.pop("observed")
            table, curve, name = _paired(n, difference, power, alpha, alt, payload.pop("discordance"), "exact", **payload)
            table["design"] = "pilot"
            options.update({"pilot_difference": observed, "alternative": alt})
        elif kind == "rate":
            # A difference is read against parity (0.5) unless a reference is given.
            ref = reference if reference is not None else (0.5 if difference is not None else None)
            table, curve, name = _rate(n, difference, power, alpha, alternative, payload["rate"], ref, half_width,
                                       level, payload["deff"], metric=payload["metric"])  # fmt: skip
            table["design"] = "pilot"
        else:
            table, curve, name = _normal(n, difference, power, alpha, alternative, payload["se"], payload["n_pilot"],
                                         half_width, level, metric=payload["metric"],
                                         comparison=payload["comparison"])  # fmt: skip
            table["design"] = "pilot"
    provenance = {"method": name, "design": design, "options": options, "seed": seed,
                  "assumptions": {k: v for k, v in {"discordance": discordance, "rate": rate, "reference": reference,
                                                    "cluster_size": cluster_size, "icc": icc, "design_effect": deff,
                                                    "se": se, "n_pilot": n_pilot}.items() if v is not None}}  # fmt: skip
    if pilot_provenance is not None:
        provenance["pilot"] = pilot_provenance
    from stats_mtbias.provenance import Provenance

    provenance.update({k: v for k, v in Provenance(method=name).to_dict().items()
                       if k in ("package_version", "python", "dependencies")})  # fmt: skip
    return PowerResult(str(table["question"].iloc[0]), table, provenance, trace, notes, curve)
