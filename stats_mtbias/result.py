"""The one result type every study returns through the public API.

A :class:`StudyResult` holds a tidy :attr:`~StudyResult.table` (one row per
system × language × subset × metric, shares in [0, 1], intervals as ``ci_low``
and ``ci_high``), the paired comparisons behind :meth:`~StudyResult.compare`, the
provenance of every number, and the study's own frames (:attr:`~StudyResult.frames`:
accounting, tests, per-occupation tables …) for what does not fit one shape.
Modelled on fairlearn's ``MetricFrame``: the long table is the truth, the wide
views are derived from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_number
from stats_mtbias.errors import UsageError
from stats_mtbias.planning.closed import mde_from_interval
from stats_mtbias.provenance import Signature
from stats_mtbias.significance.equivalence import ALTERNATIVES, check_margin, tost_from_interval, verdict
from stats_mtbias.significance.multitest import CORRECTION_NAMES, CORRECTIONS, adjust_pvalues  # noqa: F401 (names: re-exported to the report)
from stats_mtbias.significance.pvalues import PVALUE_COLUMNS, floor_frame, floor_pvalues

TABLE_COLUMNS = ["system", "language", "subset", "metric", "estimate", "ci_low", "ci_high", "n"]
COMPARE_COLUMNS = [
    "system_a",
    "system_b",
    "language",
    "subset",
    "metric",
    "diff",
    "ci_low",
    "ci_high",
    "p_value",
    "p_adjusted",
    "method",
    "ci_method",
    "n",
    "family",
]
# The comparisons whose p-values are adjusted together: by default the system pairs of one estimate
# (a language × subset × metric), or every comparison of the result ("all"), or any comparison columns.
FAMILIES = _defaults.FAMILIES
FAMILY_KEYS = {"metric": ("language", "subset", "metric"), "all": ()}


@dataclass(frozen=True)
class Spec:
    """How a study's results are presented (:attr:`StudyResult.spec`; the report lays a section out by it).

    A study declares it once, on its :class:`~stats_mtbias.studies._study.Study` record; a study without one shows
    every metric under its name.

    Attributes
    ----------
    measured : str
        One line on what was measured (under the section's title).
    headline : tuple of str
        Metrics of the headline table, in order (empty: every metric of the table).
    figures : tuple of str
        Metrics with a figure each (empty: the first three headline metrics).
    compared : tuple of str
        Metrics whose comparisons the document shows (empty: every one; the CSV has all).
    subset : str
        What the table's ``subset`` is called for a reader (``set``, ``group``, ``category``).
    title : str
        The section's title (empty: the study's name).
    """

    measured: str = "Estimates with their intervals per system."
    headline: tuple[str, ...] = ()
    figures: tuple[str, ...] = ()
    compared: tuple[str, ...] = ()
    subset: str = "subset"
    title: str = ""


def family_keys(family: str | Sequence[str]) -> tuple[str, ...]:
    """The comparison columns whose combinations make one family."""
    if isinstance(family, str):
        check_choice(family, FAMILIES, "family")
        return FAMILY_KEYS[family]
    keys = tuple(family)
    unknown = [k for k in keys if k not in COMPARE_COLUMNS]
    if unknown:
        raise UsageError(
            f"`family`: {', '.join(unknown)} is not a comparison column; use {', '.join(FAMILIES)} or "
            f"columns of {', '.join(COMPARE_COLUMNS[:5])}."
        )
    return keys


def family_label(family: str | Sequence[str]) -> str:
    """How the family is named in outputs and provenance."""
    keys = family_keys(family)
    return "all comparisons" if not keys else " × ".join(keys)


def adjust(frame: pd.DataFrame, correction: str, family: str | Sequence[str] = "metric") -> pd.DataFrame:
    """`frame` with ``p_adjusted`` (`correction` within each family) and ``family`` (its label and size).

    Examples
    --------
    >>> f = pd.DataFrame({"language": "de", "subset": "all", "metric": ["acc", "acc", "f1"], "p_value": [.01, .04, .03]})
    >>> print(adjust(f, "holm")[["metric", "p_adjusted", "family"]].to_string(index=False))
    metric  p_adjusted                          family
       acc        0.02 de / all / acc (2 comparisons)
       acc        0.04 de / all / acc (2 comparisons)
        f1        0.03  de / all / f1 (1 comparisons)
    """
    return adjust_within(frame, correction, family_keys(family))


def adjust_within(frame: pd.DataFrame, correction: str, keys: Sequence[str]) -> pd.DataFrame:
    """:func:`adjust` with the family given as the columns whose combinations make one (none: every row one family).

    The one implementation of every study's families: the systems' comparisons (:func:`adjust`) and a study's other
    pairs (rates' group differences: the group pairs of one system × metric).

    Examples
    --------
    >>> f = pd.DataFrame({"system": ["a", "a", "b"], "metric": "female", "p_value": [0.01, 0.04, 0.03]})
    >>> adjust_within(f, "holm", ["system", "metric"])["p_adjusted"].tolist()
    [0.02, 0.04, 0.03]
    """
    check_choice(correction, CORRECTIONS, "correction")
    keys = list(keys)
    out = frame.copy()
    if not len(out):
        out["p_adjusted"] = pd.Series(dtype=float)
        out["family"] = pd.Series(dtype=str)
        return out
    groups = out.groupby(keys, sort=False, dropna=False).ngroup().to_numpy() if keys else np.zeros(len(out), int)
    adjusted = np.full(len(out), np.nan)
    labels = np.empty(len(out), dtype=object)
    p = floor_pvalues(out["p_value"].to_numpy(dtype=float))  # never an exact 0 (stats_mtbias.significance.pvalues)
    out["p_value"] = p
    for g in np.unique(groups):
        inside = groups == g
        adjusted[inside] = adjust_pvalues(p[inside], correction)
        name = " / ".join(str(out[k].to_numpy()[inside][0]) for k in keys) if keys else "all"
        labels[inside] = f"{name} ({int(inside.sum())} comparisons)"
    out["p_adjusted"] = adjusted
    out["family"] = labels
    return out


def your_systems(result) -> list[str]:
    """The user's systems of a result, the report's "your systems": the study's ``against=``, else the systems of the
    user's inputs (provenance ``options["yours"]``) when other systems stand beside them, else none.

    Never a guess from names: a user's system called ``google`` beside the shipped ones is the user's.

    Examples
    --------
    >>> import pandas as pd
    >>> r = StudyResult("tgbi", pd.DataFrame({"system": ["google", "papago"]}), None,
    ...                 {"options": {"yours": ["google"], "against": None}})
    >>> your_systems(r)
    ['google']
    """
    options = result.provenance.get("options") or {}
    against = [str(s) for s in options.get("against") or []]
    if against:
        return against
    yours = [str(s) for s in options.get("yours") or [] if str(s) in set(map(str, result.systems))]
    return yours if len(yours) < len(result.systems) else []


@dataclass(frozen=True)
class StudyResult:
    """What :func:`stats_mtbias.tgbi`, :func:`~stats_mtbias.winomt`, :func:`~stats_mtbias.prates`,
    :func:`~stats_mtbias.optimal` and :func:`~stats_mtbias.rates` return.

    Attributes
    ----------
    study : str
        ``tgbi``, ``winomt``, ``prates``, ``optimal`` or ``rates``.
    table : DataFrame
        Tidy estimates: ``system, language, subset, metric, estimate, ci_low, ci_high, n``
        (shares in [0, 1]; ``n`` the items the estimate rests on), and ``flag`` when an
        input was flagged (a file misaligned with its sources, mostly unread, or in
        another language): every row of that system and language says why.
    comparisons : DataFrame or None
        Paired differences (see :meth:`compare`); None with a single system.
    provenance : dict
        Inputs with sha256 (the user's files and frames too), method, resamples,
        seed, level, options (the correction and family among them), versions,
        and the :attr:`signature` line.
    frames : dict of DataFrame
        The study's own tables, unrounded, shares in [0, 1] (e.g. ``accounting``:
        every input row by outcome; ``judgements``: one row per system × item).
        :meth:`frame` names the ones a result has when asked for a missing one.
    correction : str
        The multiplicity correction of ``p_adjusted``.
    family : str or tuple of str
        Which comparisons are adjusted together: ``"metric"`` (the system pairs of
        one language × subset × metric), ``"all"``, or comparison columns.
    notes : list of str
        What a reader must not miss (skipped inputs, unknown readings).
    spec : Spec or None
        How the study presents its results (the report's headline metrics, figures and title), from its record.
    """

    study: str
    table: pd.DataFrame
    comparisons: pd.DataFrame | None
    provenance: dict
    frames: dict = field(default_factory=dict, repr=False)
    correction: str = _defaults.CORRECTION
    notes: list = field(default_factory=list)
    family: str | tuple = "metric"
    spec: Spec | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        # Every p-value the result reports is floored, never an exact 0 (stats_mtbias.significance.pvalues): the
        # comparisons and every frame, whichever test produced them.
        object.__setattr__(self, "comparisons", floor_frame(self.comparisons, PVALUE_COLUMNS))
        object.__setattr__(self, "frames", {name: floor_frame(frame, PVALUE_COLUMNS) for name, frame in self.frames.items()})

    @property
    def systems(self) -> list[str]:
        """The systems in the table, in order."""
        return list(dict.fromkeys(self.table["system"].astype(str)))

    @property
    def your_systems(self) -> list[str]:
        """The user's systems (:func:`your_systems`): ``against=``, else the systems of the user's inputs beside
        shipped ones, else none — never a guess from names."""
        return your_systems(self)

    @property
    def signature(self) -> str:
        """One line that says how the result was made (:class:`~stats_mtbias.provenance.Signature`): version,
        study, metrics, interval method, resamples, seed, level, the options set away from their defaults, the
        inputs' sha256 digests. :func:`stats_mtbias.parse_signature` reads it back into the study's options.

        The public functions write it into ``provenance["signature"]``; a result made otherwise gets one from its
        provenance record (without options).
        """
        found = self.provenance.get("signature")
        if found:
            return str(found)
        metrics = list(dict.fromkeys(self.table["metric"].astype(str))) if "metric" in self.table else []
        return Signature.of(self.study, self.provenance, metrics=metrics).format()

    def frame(self, name: str) -> pd.DataFrame:
        """One of the study's named frames (:attr:`frames`); a clear error naming those it has."""
        if name not in self.frames:
            raise UsageError(f"this {self.study} result has no frame {name!r}; it has {', '.join(self.frames) or 'none'}.")
        return self.frames[name]

    def wide(self, metric: str | None = None, *, value: str = "estimate") -> pd.DataFrame:
        """The table as one row per system and one column per (language, subset, metric), fairlearn's ``by_group`` view.

        Examples
        --------
        >>> import pandas as pd, stats_mtbias as smb
        >>> frame = pd.DataFrame({"item": [1, 1, 2, 2], "system": ["a", "b"] * 2, "gender": ["male", "female"] * 2})
        >>> print(smb.rates(frame, interval="score").wide("female").round(2))
        language    all
        subset      all
        metric   female
        system
        a           0.0
        b           1.0
        """
        table = self.table if metric is None else self.table[self.table["metric"] == metric]
        if metric is not None and not len(table):
            raise UsageError(
                f"no metric {metric!r} in this {self.study} result; it has {', '.join(dict.fromkeys(self.table['metric']))}."
            )
        out = table.pivot_table(
            index="system", columns=["language", "subset", "metric"], values=value, sort=False, aggfunc="first"
        )
        return out.reindex([s for s in self.systems if s in out.index])

    def compare(
        self,
        *,
        correction: str | None = None,
        family: str | Sequence[str] | None = None,
        power: float = _defaults.POWER,
        alpha: float = _defaults.ALPHA,
        margin: float | None = None,
        alternative: str = "two-sided",
    ) -> pd.DataFrame:
        """Paired differences between systems on the same items.

        Parameters
        ----------
        correction : {"holm", "bh", "none"}, optional
            Re-adjust ``p_adjusted`` with this correction (default: the result's).
        family : {"metric", "all"} or list of str, optional
            Re-adjust within these families (default: the result's): ``"metric"``,
            the system pairs of one language × subset × metric; ``"all"``, every
            row; or comparison columns whose combinations are the families.
        power, alpha : float
            Of the minimum detectable difference ``mde``; `alpha` is also each one-sided
            test's level of the equivalence columns.
        margin : float, optional
            The equivalence margin δ (a share: 0.02 is ±2 points). Adds, per comparison,
            the two one-sided tests (TOST) of ``|a − b| < δ`` read off the row's own
            interval (:mod:`stats_mtbias.significance.equivalence`): ``margin``,
            ``eq_low, eq_high`` (the (1 − 2 alpha) interval), ``p_equivalent``,
            ``p_equivalent_adjusted`` (the same `correction` within the same families
            as ``p_adjusted``), ``equivalent`` (``p_equivalent_adjusted < alpha``;
            without correction, or in a family of one, exactly the (1 − 2 alpha)
            interval inside (−δ, δ)) and ``verdict``: ``equivalent``, ``differs``
            (``p_adjusted < alpha``, not equivalent) or ``not shown``.
        alternative : {"two-sided", "greater", "less"}
            With `margin`: ``two-sided`` tests equivalence; ``greater`` non-inferiority
            ``a − b > −δ`` (a not worse by δ when larger is better), ``less``
            ``a − b < δ`` (when smaller is better, e.g. a bias).

        Returns
        -------
        DataFrame
            ``system_a, system_b, language, subset, metric, diff, ci_low, ci_high,
            p_value, p_adjusted, method, ci_method, n, family, mde``; ``diff`` is a
            minus b; ``method`` is the p-value's, ``ci_method`` the interval's (they
            agree: the interval excludes 0 exactly when ``p_value < 1 − level``, unless
            ``ci_method`` says otherwise); ``n`` the items the difference rests on;
            ``family`` the family of ``p_adjusted`` and its size. ``mde`` is the
            smallest true difference this evaluation detects with ``power`` at
            two-sided ``alpha``, read off the row's interval
            (:func:`stats_mtbias.planning.mde_from_interval`): a difference that is not
            significant is then "no larger than about ``mde``", not "none".

        Raises
        ------
        UsageError
            When the result has fewer than two systems.

        Examples
        --------
        >>> import numpy as np, pandas as pd, stats_mtbias as smb
        >>> rng = np.random.default_rng(0)
        >>> frame = pd.DataFrame({"item": np.repeat(np.arange(400), 2), "system": ["a", "b"] * 400,
        ...                       "gender": rng.choice(["male", "female"], 800)})
        >>> res = smb.rates(frame, interval="score")
        >>> cmp = res.compare(margin=0.1)
        >>> print(cmp[["metric", "diff", "eq_low", "eq_high", "p_equivalent", "verdict"]].round(3).to_string(index=False))
         metric   diff  eq_low  eq_high  p_equivalent    verdict
         female -0.017  -0.075    0.040         0.009 equivalent
           male  0.017  -0.040    0.075         0.009 equivalent
        neutral  0.000  -0.008    0.008         0.000 equivalent
            gap  0.035  -0.080    0.150         0.176  not shown
        """
        if self.comparisons is None or not len(self.comparisons):
            raise UsageError(
                f"compare() needs at least two systems on the same items; this {self.study} result has "
                f"{', '.join(self.systems) or 'none'}."
            )
        out = self.comparisons.copy()
        if correction is not None or family is not None:
            out = adjust(out, correction or self.correction, self.family if family is None else family)

        level = float(self.provenance.get("level") or 0.95)
        out["mde"] = mde_from_interval(out["ci_low"], out["ci_high"], level=level, alpha=alpha, power=power)
        if margin is not None:
            out = self._with_equivalence(
                out,
                margin,
                level=level,
                alpha=alpha,
                alternative=alternative,
                correction=correction or self.correction,
                keys=family_keys(self.family if family is None else family),
            )
        return out

    @staticmethod
    def _with_equivalence(
        frame: pd.DataFrame,
        margin: float,
        *,
        level: float,
        alpha: float,
        alternative: str,
        correction: str,
        keys: Sequence[str],
        estimate: str = "diff",
    ) -> pd.DataFrame:
        """`frame` with the TOST columns of its rows (``estimate`` with ``ci_low, ci_high`` at `level`)."""
        margin = check_margin(margin)
        check_choice(alternative, ALTERNATIVES, "alternative")
        tost = tost_from_interval(
            frame[estimate], frame["ci_low"], frame["ci_high"], margin, level=level, alpha=alpha, alternative=alternative
        )
        out = frame.copy()
        out["margin"] = margin
        out["eq_low"], out["eq_high"] = tost["eq_low"], tost["eq_high"]
        out["p_equivalent"] = tost["p_equivalent"]
        out["p_equivalent_adjusted"] = np.nan
        tested = out["p_equivalent"].notna().to_numpy()
        if tested.any():
            # The same correction within the same families as p_adjusted (rows without an interval are no test).
            scratch = out.loc[tested].drop(columns=["p_value", "p_adjusted", "family"], errors="ignore")
            scratch = scratch.assign(p_value=out.loc[tested, "p_equivalent"].to_numpy())
            out.loc[tested, "p_equivalent_adjusted"] = adjust_within(scratch, correction, keys)["p_adjusted"].to_numpy()
            out.loc[tested, "p_equivalent"] = scratch["p_value"].to_numpy()  # floored as every p-value is
        out["equivalent"] = (out["p_equivalent_adjusted"] < alpha).to_numpy()
        differs = (out["p_adjusted"] < alpha).to_numpy() if "p_adjusted" in out else np.zeros(len(out), bool)
        out["verdict"] = verdict(out["equivalent"], differs, tested)
        return out

    def equivalence(
        self,
        metric: str | None = None,
        *,
        margin: float,
        target: float = 0.0,
        alpha: float = _defaults.ALPHA,
        alternative: str = "two-sided",
        correction: str | None = None,
    ) -> pd.DataFrame:
        """Is each estimate within ±`margin` of `target`? TOST of one estimate read off its own interval.

        "ΔG is within ±2 points of 0": ``res.equivalence("delta_g", margin=0.02)``.

        Parameters
        ----------
        metric : str, optional
            The metric of :attr:`table` to test (default: every row).
        margin : float
            The margin δ > 0, a share (0.02 is ±2 points).
        target : float
            The value the estimates should be near (default 0; e.g. 0.5 for parity of a share).
        alpha : float
            Level of each one-sided test; ``eq_low, eq_high`` are the (1 − 2 alpha)
            interval of ``estimate``.
        alternative : {"two-sided", "greater", "less"}
            ``two-sided``: ``|estimate − target| < δ``; ``greater``: ``> target − δ``;
            ``less``: ``< target + δ`` (e.g. "the bias is below 2 points").
        correction : {"holm", "bh", "none"}, optional
            Across the rows returned (one family; default: the result's correction).

        Returns
        -------
        DataFrame
            The table's rows with ``target``, ``margin``, ``eq_low, eq_high``,
            ``p_equivalent``, ``p_equivalent_adjusted``, ``equivalent``
            (``p_equivalent_adjusted < alpha``) and ``verdict`` (``equivalent``,
            ``differs``: the level interval excludes `target`, or ``not shown``).

        Examples
        --------
        >>> import pandas as pd, stats_mtbias as smb
        >>> frame = pd.DataFrame({"item": range(400), "system": "a", "gender": ["male", "female"] * 200})
        >>> res = smb.rates(frame, interval="score")
        >>> eq = res.equivalence("female", margin=0.1, target=0.5)
        >>> print(eq[["estimate", "eq_low", "eq_high", "p_equivalent", "verdict"]].round(3).to_string(index=False))
         estimate  eq_low  eq_high  p_equivalent    verdict
              0.5   0.459    0.541           0.0 equivalent
        """
        table = self.table
        if metric is not None:
            table = table[table["metric"] == metric]
            if not len(table):
                raise UsageError(
                    f"no metric {metric!r} in this {self.study} result; it has {', '.join(dict.fromkeys(self.table['metric']))}."
                )
        target = float(check_number(target, "target", hint="the value the estimate should be near, a share"))
        level = float(self.provenance.get("level") or 0.95)
        centred = table.assign(
            target=target,
            centred=table["estimate"] - target,
            ci_low=table["ci_low"] - target,
            ci_high=table["ci_high"] - target,
        )
        out = self._with_equivalence(
            centred.drop(columns=["p_value", "p_adjusted"], errors="ignore"),
            margin,
            level=level,
            alpha=alpha,
            alternative=alternative,
            correction=correction or self.correction,
            keys=(),
            estimate="centred",
        )
        excludes = (out["ci_low"] > 0) | (out["ci_high"] < 0)
        out["verdict"] = verdict(out["equivalent"], excludes, out["p_equivalent"].notna())
        for column in ("ci_low", "ci_high", "eq_low", "eq_high"):
            out[column] = out[column] + target
        return out.drop(columns=["centred"]).reset_index(drop=True)

    def __repr__(self) -> str:
        n_cmp = 0 if self.comparisons is None else len(self.comparisons)
        return (
            f"<StudyResult {self.study}: {len(self.table)} estimates of {len(self.systems)} system(s) "
            f"({', '.join(self.systems)}), {n_cmp} comparisons, level {self.provenance.get('level')}>"
        )
