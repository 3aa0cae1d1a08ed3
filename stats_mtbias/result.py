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

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from stats_mtbias._validation import check_choice
from stats_mtbias.errors import UsageError
from stats_mtbias.significance.multitest import CORRECTIONS, adjust_pvalues

TABLE_COLUMNS = ["system", "language", "subset", "metric", "estimate", "ci_low", "ci_high", "n"]
COMPARE_COLUMNS = [
    "system_a", "system_b", "language", "subset", "metric", "diff", "ci_low", "ci_high", "p_value", "p_adjusted", "method",
    "ci_method",
]  # fmt: skip


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
        (shares in [0, 1]; ``n`` the judgements the estimate is over).
    comparisons : DataFrame or None
        Paired differences (see :meth:`compare`); None with a single system.
    provenance : dict
        Inputs with sha256 (the user's files and frames too), method, resamples,
        seed, level, options, versions.
    frames : dict of DataFrame
        The study's own tables, unrounded (e.g. ``accounting``: every input row by outcome).
    correction : str
        The multiplicity correction of ``p_adjusted``.
    notes : list of str
        What a reader must not miss (skipped inputs, unknown readings).
    """

    study: str
    table: pd.DataFrame
    comparisons: pd.DataFrame | None
    provenance: dict
    frames: dict = field(default_factory=dict, repr=False)
    correction: str = "holm"
    notes: list = field(default_factory=list)
    details: Any = field(default=None, repr=False)

    @property
    def systems(self) -> list[str]:
        """The systems in the table, in order."""
        return list(dict.fromkeys(self.table["system"].astype(str)))

    def compare(self, *, correction: str | None = None, power: float = 0.8, alpha: float = 0.05) -> pd.DataFrame:
        """Paired differences between every two systems on the same items.

        Parameters
        ----------
        correction : {"holm", "bh", "none"}, optional
            Re-adjust ``p_adjusted`` over all rows with this correction (default:
            the one the result was computed with).
        power, alpha : float
            Of the minimum detectable difference ``mde``.

        Returns
        -------
        DataFrame
            ``system_a, system_b, language, subset, metric, diff, ci_low, ci_high,
            p_value, p_adjusted, method, ci_method, mde``; ``diff`` is a minus b;
            ``method`` is the p-value's, ``ci_method`` the interval's. ``mde`` is the
            smallest true difference this evaluation detects with ``power`` at
            two-sided ``alpha``, read off the row's interval
            (:func:`stats_mtbias.planning.mde_from_interval`): a difference that is not
            significant is then "no larger than about ``mde``", not "none".

        Raises
        ------
        UsageError
            When the result has fewer than two systems.
        """
        if self.comparisons is None or not len(self.comparisons):
            raise UsageError(
                f"compare() needs at least two systems on the same items; this {self.study} result has "
                f"{', '.join(self.systems) or 'none'}."
            )
        out = self.comparisons.copy()
        if correction is not None:
            check_choice(correction, CORRECTIONS, "correction")
            out["p_adjusted"] = adjust_pvalues(out["p_value"].to_numpy(), correction)
        from stats_mtbias.planning.closed import mde_from_interval

        level = float(self.provenance.get("level") or 0.95)
        out["mde"] = mde_from_interval(out["ci_low"], out["ci_high"], level=level, alpha=alpha, power=power)
        return out

    def __repr__(self) -> str:
        n_cmp = 0 if self.comparisons is None else len(self.comparisons)
        return (
            f"<StudyResult {self.study}: {len(self.table)} estimates of {len(self.systems)} system(s) "
            f"({', '.join(self.systems)}), {n_cmp} comparisons, level {self.provenance.get('level')}>"
        )


def tidy(frame: pd.DataFrame, metrics: dict[str, tuple[str, str, str]], *, keys: dict[str, str],
         defaults: dict[str, object] | None = None, n: str | None = "n", scale: float = 1.0) -> pd.DataFrame:
    """Melt a wide study frame into :data:`TABLE_COLUMNS`.

    Parameters
    ----------
    frame : DataFrame
        One row per group, a column per metric and its bounds.
    metrics : dict
        ``{metric name: (estimate column, low column, high column)}``; a bound
        column may be None (no interval).
    keys : dict
        ``{table column: frame column}`` for ``system``, ``language``, ``subset``.
    defaults : dict
        Values of table columns the frame lacks (``{"language": "ko"}``).
    n : str or None
        The frame's count column.
    scale : float
        Multiplies estimates and bounds (``0.01`` turns percent into shares).
    """
    parts = []
    for metric, (est, low, high) in metrics.items():
        part = pd.DataFrame({column: frame[source].astype(str).to_numpy() for column, source in keys.items()})
        for column, value in (defaults or {}).items():
            part[column] = value
        part["metric"] = metric
        part["estimate"] = scale * frame[est].astype(float).to_numpy()
        part["ci_low"] = scale * frame[low].astype(float).to_numpy() if low else float("nan")
        part["ci_high"] = scale * frame[high].astype(float).to_numpy() if high else float("nan")
        part["n"] = frame[n].to_numpy() if n else pd.NA
        parts.append(part)
    return pd.concat(parts, ignore_index=True)[TABLE_COLUMNS]
