"""A report of any results: one section per :class:`~stats_mtbias.result.StudyResult`, one shape for every study.

What :func:`stats_mtbias.report` writes, and the frame of every section of the
project's full report (:mod:`stats_mtbias.reporting`). Each section is driven by
the result's public views only (``table``, ``compare()``, ``frames``, ``notes``,
``provenance``), so a study that did not exist when this was written (an agreement
study, TGBI on a user's own sentence sets) gets the same shape:

1. **headline** (first): the study's headline metrics per system, the user's
   systems first and in bold, in percent (differences of shares in points) with
   their intervals, ``61.2 [59.7, 62.7]``; its CSV keeps the tidy rows in shares;
2. the **reader's validity** beside the numbers (WinoMT): per language the
   agreement of the automatic reader with labelled samples, the share of each
   system's outputs it could not read, and the construct it measures;
3. the **comparisons** of the user's systems with each baseline (difference,
   interval, ``p_adjusted`` and its family, MDE) as a table and a forest plot;
4. a **figure per headline metric**: dots and intervals per system, a panel per
   language or set on one shared axis, the user's systems marked by shape;
5. the study's further tables (corrected Acc, "+Adj", male-default tests, …);
6. **appendix**: every input row accounted for, all estimates, provenance, and
   ``items.csv``: one row per system × item with the reading and why.

Tables show percent only where a person reads them; every CSV keeps shares.
"""

from __future__ import annotations

import dataclasses
import gzip
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias import plotting
from stats_mtbias._files import check_output, check_writable_dir
from stats_mtbias._validation import check_choice
from stats_mtbias.errors import UsageError
from stats_mtbias.gender.targets import find, languages
from stats_mtbias.provenance import item_caption
from stats_mtbias.report import screenshot as browser
from stats_mtbias.report.document import Figure, Report, Section, Table, collapse_notes
from stats_mtbias.report.formatting import CSV_FLOAT_FORMAT, format_interval, format_p
from stats_mtbias.report.render import environment, write_report
from stats_mtbias.result import (
    COMPARE_COLUMNS,
    CORRECTION_NAMES,
    TABLE_COLUMNS,
    Spec,
    StudyResult,
    adjust,
    family_keys,
    family_label,
)

FORMAT_NAMES = {"html": "html", "md": "md", "markdown": "md", "tex": "latex", "latex": "latex"}
# Language names: a WinoMT target's from its record (stats_mtbias.gender.targets), and these others (TGBI's Korean).
OTHER_LANGUAGE_NAMES = {"ko": "Korean"}
METRIC_LABELS = {
    "acc": "Acc",
    "acc_pro": "Acc pro",
    "acc_anti": "Acc anti",
    "delta_g": "ΔG",
    "delta_s": "ΔS",
    "f1_male": "F1 male",
    "f1_female": "F1 female",
    "p_s": "P_S",
    "p_female": "female",
    "p_male": "male",
    "p_neutral": "neutral",
    "gap": "male − female",
    "minority": "minority pronoun",
    "he_given_female_dominated": "he | female-dominated",
    "she_given_male_dominated": "she | male-dominated",
    "b": "B",
}
# Differences of shares are shown in points; ratios (B) and coefficients (κ) as they are.
DIFFERENCES = frozenset({"delta_g", "delta_s", "gap", "diff", "change"})
UNSCALED = frozenset({"b", "kappa"})
# A headline wider than this puts the language (or set) in the rows: one row per language × system.
MAX_COLUMNS = 8
# A forest of comparisons taller than this per panel is left to comparisons.csv.
MAX_FOREST_ROWS = 40
CONSTRUCT = (
    "The reader measures the gender of the entity's own noun phrase in the translation (its article, adjectives "
    "and noun ending), not the pronoun that refers to it."
)


def spec_of(result: StudyResult) -> Spec:
    """The layout of `result`'s section: its study's (:attr:`StudyResult.spec`), else every metric under its name."""
    return result.spec if result.spec is not None else Spec()


# ---------------------------------------------------------------- units and labels


def scale_of(metric: str, values: Sequence[float] | np.ndarray = ()) -> float:
    """100 for shares and differences of shares (shown in percent or points), 1 for ratios (B, κ).

    A metric the report does not know is shown in percent when its estimates and
    intervals lie in [-1, 1] (the table's contract: shares and their differences).

    Examples
    --------
    >>> scale_of("acc"), scale_of("b"), scale_of("new_metric", [0.2, 0.4]), scale_of("new_metric", [3.0])
    (100.0, 1.0, 100.0, 1.0)
    """
    if metric in UNSCALED:
        return 1.0
    if metric in METRIC_LABELS or metric in DIFFERENCES:
        return 100.0
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    return 100.0 if finite.size == 0 or np.all(np.abs(finite) <= 1.0) else 1.0


def metric_label(metric: str, scale: float = 100.0, *, difference: bool = False) -> str:
    """``Acc (%)``, ``ΔG (points)``, ``B``: the metric's name and the unit it is shown in.

    Examples
    --------
    >>> metric_label("acc"), metric_label("delta_g"), metric_label("acc", difference=True), metric_label("b", 1)
    ('Acc (%)', 'ΔG (points)', 'Acc (points)', 'B')
    """
    name = METRIC_LABELS.get(metric, metric)
    if scale != 100.0:
        return name
    return f"{name} ({'points' if difference or metric in DIFFERENCES else '%'})"


def language_label(code: str) -> str:
    """``German (de)`` for a known code, the value itself otherwise."""
    record = find(code) if isinstance(code, str) else None
    name = record.name if record is not None else OTHER_LANGUAGE_NAMES.get(code)
    return f"{name} ({code})" if name else str(code)


def __getattr__(name: str):
    """``LANGUAGE_NAMES``: every language's name by code (the WinoMT targets' read from their records)."""
    if name == "LANGUAGE_NAMES":
        return {**{code: rec.name for code, rec in languages().items()}, **OTHER_LANGUAGE_NAMES}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _varying(frame: pd.DataFrame) -> list[str]:
    """Of ``language`` and ``subset``, those with more than one value (what tells the estimates of a system apart)."""
    return [c for c in ("language", "subset") if c in frame and frame[c].astype(str).nunique() > 1]


def _where(row, columns: Sequence[str]) -> str:
    parts = [language_label(row["language"]) if c == "language" else str(row[c]) for c in columns]
    return " · ".join(parts)


def _where_name(columns: Sequence[str], spec: Spec) -> str:
    return " · ".join("language" if c == "language" else spec.subset for c in columns) or "estimate"


def ordered_systems(systems: Sequence[str], mine: Sequence[str]) -> list[str]:
    """`systems` with the user's (`mine`, in their order) first.

    Examples
    --------
    >>> ordered_systems(["google", "aws", "mt-a", "mt-b"], ["mt-b", "mt-a"])
    ['mt-b', 'mt-a', 'google', 'aws']
    """
    systems = [str(s) for s in systems]
    first = [s for s in mine if s in systems]
    return first + [s for s in systems if s not in first]


def _sorted_by_system(frame: pd.DataFrame, order: Sequence[str], column: str = "system") -> pd.DataFrame:
    """`frame` with the rows of `order`'s systems in that order (stable); unchanged when that is the frame's own order."""
    if list(dict.fromkeys(frame[column].astype(str))) == [s for s in order if s in set(frame[column].astype(str))]:
        return frame  # the result's own order: its CSV equals the API's frame row for row
    rank = {s: i for i, s in enumerate(order)}
    key = frame[column].astype(str).map(rank).fillna(len(rank))
    return frame.assign(_rank=key.to_numpy()).sort_values("_rank", kind="stable").drop(columns="_rank")


def _metrics(result: StudyResult, wanted: Sequence[str]) -> list[str]:
    present = list(dict.fromkeys(result.table["metric"].astype(str)))
    return [m for m in wanted if m in present] if wanted else present


def tidy_notes(notes: Sequence[str]) -> list[str]:
    """Each note once (whitespace normalised), in order; the same note of several systems as one line.

    Examples
    --------
    >>> tidy_notes(["a  b", "c", "a b", " c ", "x/de: 2 unread", "y/de: 5 unread"])
    ['a b', 'c', 'x/de: 2 unread; y/de: 5 unread']
    """
    return collapse_notes(notes)


# ---------------------------------------------------------------- the headline


def headline_table(
    result: StudyResult,
    mine: Sequence[str] = (),
    *,
    metrics: Sequence[str] | None = None,
    name: str = "headline",
    title: str = "",
) -> Table:
    """The headline metrics per system, the user's first, in percent with intervals: ``61.2 [59.7, 62.7]``.

    Rows are systems and columns metric × language (or set) while that fits
    :data:`MAX_COLUMNS`; wider, the language (or set) moves into the rows (one row per
    language × system, the layout of the WinoMT paper). The CSV keeps the tidy rows
    of ``result.table`` for these metrics, in shares.
    """
    spec = spec_of(result)
    metrics = _metrics(result, spec.headline if metrics is None else metrics)
    table = result.table[result.table["metric"].astype(str).isin(metrics)]
    systems = ordered_systems(result.systems, mine)
    frame = _sorted_by_system(table, systems).reset_index(drop=True)
    varying = _varying(frame)
    wheres = list(dict.fromkeys(_where(r, varying) for _, r in frame.iterrows())) if varying else [""]
    scales = {
        m: scale_of(m, frame.loc[frame["metric"] == m, ["estimate", "ci_low", "ci_high"]].to_numpy().ravel()) for m in metrics
    }
    cell = {}
    for _, row in frame.iterrows():
        scale = scales[str(row["metric"])]
        cell[str(row["system"]), _where(row, varying) if varying else "", str(row["metric"])] = format_interval(
            row["estimate"], row["ci_low"], row["ci_high"], scale=scale, digits=1 if scale == 100 else 2
        )
    wide = len(metrics) * len(wheres) <= MAX_COLUMNS
    rows, highlight = [], []
    where_name = _where_name(varying, spec)
    if wide:
        headers = {
            (w, m): (metric_label(m, scales[m]) + (f" · {w}" if w else ""))
            if len(metrics) > 1
            else (w or metric_label(m, scales[m]))
            for m in metrics
            for w in wheres
        }
        for system in systems:
            rows.append({"system": system, **{headers[w, m]: cell.get((system, w, m), "") for m in metrics for w in wheres}})
            highlight.append(system in mine)
        text = ["system"]
    else:
        for w in wheres:
            for system in systems:
                if not any((system, w, m) in cell for m in metrics):
                    continue
                # The language (or set) is written on its first row only: the rows below it are its systems.
                rows.append(
                    {
                        where_name: w if not rows or rows[-1]["_w"] != w else "",
                        "_w": w,
                        "system": system,
                        **{metric_label(m, scales[m]): cell.get((system, w, m), "") for m in metrics},
                    }
                )
                highlight.append(system in mine)
        text = [where_name, "system"]
    cells = pd.DataFrame(rows).drop(columns="_w", errors="ignore")
    flagged = _flags(frame)
    if flagged:  # a flagged input is marked on its row, and why in the caption
        cells["system"] = [f"{s} ⚠" if s in flagged else s for s in cells["system"]]
    level = _level(result)
    only = ", ".join(metric_label(m, scales[m]) for m in metrics)
    differences = [METRIC_LABELS.get(m, m) for m in metrics if m in DIFFERENCES and scales[m] == 100]
    raw = [METRIC_LABELS.get(m, m) for m in metrics if scales[m] != 100]
    unit = (
        "in percent"
        + (f" ({', '.join(differences)}: differences of shares, in points)" if differences else "")
        + (f"; {', '.join(raw)} as ratios" if raw else "")
    )
    caption = (
        f"{only} per system{' and ' + where_name if varying else ''}: estimate [{_pct(level)} interval], {unit}. "
        + (f"Your systems ({', '.join(s for s in systems if s in mine)}) first, in bold. " if any(highlight) else "")
        + f"{name}.csv has the numbers in shares and the items each rests on (n)."
        + (f" The study rests {rests}." if (rests := item_caption(result.provenance.get("items"))) else "")
        + "".join(f" ⚠ {system}: {flag}." for system, flag in flagged.items())
    )
    return Table(name, title or "Headline", frame, caption=caption, cells=cells, text=text, highlight=highlight)


def _flags(frame: pd.DataFrame) -> dict[str, str]:
    """``{system: its flags}`` of rows with a non-empty ``flag`` (several languages' flags joined)."""
    if "flag" not in frame:
        return {}
    flagged = frame[frame["flag"].astype(str) != ""]
    languages = frame["language"].nunique() if "language" in frame else 1
    found: dict[str, list[str]] = {}
    for _, row in flagged.iterrows():  # a handful of flagged rows
        subset = str(row.get("subset", "all"))
        text = str(row["flag"]) if subset in ("all", "TGBI") else f"{subset}: {row['flag']}"
        text = f"{row['language']}: {text}" if "language" in row and (languages > 1 or subset == "all") else text
        found.setdefault(str(row["system"]), []).append(text)
    # Each flag once: one that another contains (a set's flag inside the index's) is left out.
    return {
        system: "; ".join(t for t in dict.fromkeys(texts) if not any(t != u and t in u for u in texts))
        for system, texts in found.items()
    }


def _level(result: StudyResult) -> float:
    return float(result.provenance.get("level") or 0.95)


def _pct(level: float) -> str:
    return f"{100 * level:g}%"


# ---------------------------------------------------------------- comparisons


def shown_comparisons(
    result: StudyResult, mine: Sequence[str] = (), margin: float | None = None
) -> tuple[pd.DataFrame, str] | None:
    """The comparisons a reader is shown, each with the user's system as ``system_a``, and the family sentence.

    With `mine`, only the rows involving one of the user's systems, turned so that
    ``diff`` is the user's system minus the other (interval turned with it). If the
    result compared every pair (no ``against``), the baseline-against-baseline rows are
    dropped and ``p_adjusted`` is adjusted again, with the result's correction and
    family, over the rows that are left (a smaller family than the result's). None
    when the result has no comparisons. With `margin`, the equivalence columns of
    ``compare(margin=)``, computed on the rows shown (turned, and adjusted over them).
    """
    if result.comparisons is None or not len(result.comparisons):
        return None
    frame = result.compare()
    options = result.provenance.get("options") or {}
    against = options.get("against")
    correction = CORRECTION_NAMES.get(result.correction, result.correction)
    readjusted = False
    if mine:
        involved = frame["system_a"].isin(mine) | frame["system_b"].isin(mine)
        if not involved.any():
            return None
        readjusted = not involved.all()
        frame = frame[involved].copy()
        turn = ~frame["system_a"].isin(mine)
        a, b = frame.loc[turn, "system_a"].copy(), frame.loc[turn, "system_b"].copy()
        frame.loc[turn, "system_a"], frame.loc[turn, "system_b"] = b, a
        low, high = frame.loc[turn, "ci_low"].copy(), frame.loc[turn, "ci_high"].copy()
        frame.loc[turn, "diff"] = -frame.loc[turn, "diff"]
        frame.loc[turn, "ci_low"], frame.loc[turn, "ci_high"] = -high, -low
        if readjusted:
            mde = frame["mde"]
            frame = adjust(frame.drop(columns=["p_adjusted", "family"]), result.correction, result.family)
            frame = frame[[*COMPARE_COLUMNS, "mde"]].assign(mde=mde.to_numpy())
        order = {s: i for i, s in enumerate(mine)}
        metric_order = {m: i for i, m in enumerate(dict.fromkeys(result.table["metric"].astype(str)))}
        frame = frame.assign(_a=frame["system_a"].map(order), _m=frame["metric"].map(metric_order).fillna(99))
        frame = frame.sort_values(["language", "subset", "_m", "_a"], kind="stable").drop(columns=["_a", "_m"])
    sizes = sorted({int(f.rsplit("(", 1)[1].split()[0]) for f in frame["family"].astype(str) if "(" in f})
    size_text = " or ".join(str(s) for s in sizes) if sizes else "?"
    family = family_label(result.family)
    if readjusted:
        sentence = (
            f"p_adjusted: {correction} within each family of {family}, over the comparisons shown here (your "
            f"systems against every other system: {size_text} per family). The result compared every pair of "
            "systems; the baseline-against-baseline pairs are left out and the p-values adjusted again over "
            "the rows that remain (pass against=[your systems] to the study to compare them so from the start)."
        )
    elif against:
        sentence = (
            f"p_adjusted: {correction} within each family of {family} ({size_text} comparisons each: "
            f"{', '.join(against)} against every other system, as the study was asked with against=)."
        )
    else:
        sentence = (
            f"p_adjusted: {correction} within each family of {family} ({size_text} comparisons each: every pair of systems)."
        )
    if margin is not None:
        frame = StudyResult._with_equivalence(
            frame,
            margin,
            level=_level(result),
            alpha=EQUIVALENCE_ALPHA,
            alternative="two-sided",
            correction=result.correction,
            keys=family_keys(result.family),
        )
    return frame.reset_index(drop=True), sentence


EQUIVALENCE_ALPHA = 0.05  # each one-sided test of the report's equivalence column (the 90% interval inside ±δ)


def equivalence_words(verdict: str, margin: float, scale: float) -> str:
    """The report's words beside a comparison: "equivalent within ±2 points", "not shown" or "differs".

    Examples
    --------
    >>> equivalence_words("equivalent", 0.02, 100), equivalence_words("differs", 0.02, 100)
    ('equivalent within ±2 points', 'differs')
    """
    if verdict == "equivalent":
        return f"equivalent within ±{margin * scale:g}" + (" points" if scale == 100 else "")
    return str(verdict)


def comparisons_table(
    result: StudyResult, frame: pd.DataFrame, sentence: str, mine: Sequence[str] = (), *, name: str = "comparisons"
) -> Table:
    """The comparisons as a table: difference [interval] in points, ``p_adjusted``, MDE; the CSV has every row, in shares."""
    spec = spec_of(result)
    shown = frame[frame["metric"].isin(spec.compared)] if spec.compared else frame
    varying = _varying(shown)
    level = _level(result)
    rows = []
    for _, row in shown.iterrows():
        scale = scale_of(str(row["metric"]), [row["diff"], row["ci_low"], row["ci_high"]])
        digits = 1 if scale == 100 else 2
        rows.append(
            {
                "your system" if mine else "system a": row["system_a"],
                "compared with" if mine else "system b": row["system_b"],
                **({_where_name(varying, spec): _where(row, varying)} if varying else {}),
                "metric": metric_label(str(row["metric"]), scale, difference=True),
                "difference [interval]": format_interval(row["diff"], row["ci_low"], row["ci_high"], scale=scale, digits=digits),
                "p_adjusted": format_p(row["p_adjusted"]),
                "MDE": format_interval(row["mde"], scale=scale, digits=digits),
                **(
                    {"equivalence": equivalence_words(str(row["verdict"]), float(row["margin"]), scale)}
                    if "verdict" in shown
                    else {}
                ),
                "n": str(int(row["n"])) if pd.notna(row["n"]) else "",
            }
        )
    cells = pd.DataFrame(rows)
    others = sorted(set(frame["metric"]) - set(shown["metric"]), key=list(dict.fromkeys(frame["metric"])).index)
    text = [c for c in cells.columns if c not in ("difference [interval]", "p_adjusted", "MDE", "n")]
    equivalence = ""
    if "verdict" in shown and len(shown):
        margin = float(shown["margin"].iloc[0])
        equivalence = (
            f"Equivalence: two one-sided tests at α = {EQUIVALENCE_ALPHA:g} each of a difference within ±{100 * margin:g} "
            f"points, read off each row's interval ({_pct(1 - 2 * EQUIVALENCE_ALPHA)} interval inside the margins), "
            "adjusted with the same correction and families as p_adjusted: equivalent within the margin; "
            "differs (p_adjusted < 0.05, not equivalent); or not shown (neither)."
        )
    caption = (
        ("Your system minus the other" if mine else "System a minus system b") + f", on the same items, with "
        f"{_pct(level)} intervals, in points (percent for a share's difference). {sentence} MDE: the smallest "
        "true difference this evaluation detects with 80% power at two-sided α = 0.05 (from the interval's "
        "width); a difference that is not significant is no larger than about that, not zero. "
        + (f"{equivalence} " if equivalence else "")
        + f"Methods per row in {name}.csv"
        + (f"; the comparisons of {', '.join(METRIC_LABELS.get(m, m) for m in others)} are there too." if others else ".")
    )
    title = "Your systems against each other system" if mine else "Paired comparisons between systems"
    return Table(name, title, frame, caption=caption, cells=cells, text=text)


def comparisons_figures(
    result: StudyResult, frame: pd.DataFrame, mine: Sequence[str] = (), *, name: str = "forest_comparisons"
) -> list[Figure]:
    """A forest plot of the shown comparisons: a panel per metric, one shared axis in points, filled = significant.

    With the equivalence columns of ``shown_comparisons(margin=)``, dashed lines at ±δ and a caption that says so.
    """
    spec = spec_of(result)
    shown = frame[frame["metric"].isin(spec.compared)] if spec.compared else frame
    if not len(shown):
        return []
    varying = _varying(shown)
    level = _level(result)
    alpha = 1 - level
    # With a margin (shown_comparisons(margin=)), the ±δ lines in each panel's units, as the table's words.
    margin = float(shown["margin"].iloc[0]) if "margin" in shown else None
    out = []
    scales = {
        m: scale_of(m, shown.loc[shown["metric"] == m, ["diff", "ci_low", "ci_high"]].to_numpy().ravel())
        for m in dict.fromkeys(shown["metric"])
    }
    for scale in sorted(set(scales.values()), reverse=True):
        part = shown[shown["metric"].map(scales) == scale]
        plot = pd.DataFrame(
            {
                "label": [
                    f"{r.system_a} − {r.system_b}" + (f" · {_where(r._asdict(), varying)}" if varying else "")
                    for r in part.itertuples(index=False)
                ],
                "panel": [metric_label(str(m), scale, difference=True) for m in part["metric"]],
                "system_a": part["system_a"].astype(str).to_numpy(),
                "diff": scale * part["diff"].to_numpy(dtype=float),
                "low": scale * part["ci_low"].to_numpy(dtype=float),
                "high": scale * part["ci_high"].to_numpy(dtype=float),
                "hollow": ~(part["p_adjusted"].to_numpy(dtype=float) < alpha),
            }
        )
        suffix = "" if scale == 100 else "_ratio"
        bounds = "" if margin is None else f"±{scale * margin:g}" + (" points" if scale == 100 else "")
        # Above MAX_FOREST_ROWS rows a panel cannot be read: the comparisons go on pages of at most that many.
        labels = list(dict.fromkeys(plot["label"]))
        pages = [labels[i : i + MAX_FOREST_ROWS] for i in range(0, len(labels), MAX_FOREST_ROWS)]
        for k, page in enumerate(pages, start=1):
            png = plotting.interval_plot(
                plot[plot["label"].isin(page)],
                estimate="diff",
                low="low",
                high="high",
                label="label",
                panel="panel",
                marked=list(mine),
                style="system_a",
                hollow="hollow",
                reference=0.0,
                ncols=3,
                xlabel="difference (points)" if scale == 100 else "difference",
                baseline_name="system a (not yours)",
                hollow_names=(f"p_adjusted < {alpha:g}", "not significant"),
                margin=None if margin is None else scale * margin,
                margin_name=f"{bounds}: equivalence margins",
            )
            paged = f" (page {k} of {len(pages)}: comparisons {labels.index(page[0]) + 1}–{labels.index(page[-1]) + 1})"
            out.append(
                Figure(
                    name + suffix + (f"_{k}" if len(pages) > 1 else ""),
                    "Comparisons: "
                    + ("your systems against each other system" if mine else "every pair of systems")
                    + (paged if len(pages) > 1 else ""),
                    png,
                    f"Differences with their {_pct(level)} intervals (the table above); filled: p_adjusted < "
                    f"{alpha:g} within its family, hollow: not significant. Dashed: no difference"
                    + (
                        f"; blue dashed at {bounds}: the equivalence margins (equivalent: the "
                        f"{_pct(1 - 2 * EQUIVALENCE_ALPHA)} interval inside them, as the table says)"
                        if margin is not None
                        else ""
                    )
                    + ". Every panel shares one axis.",
                )
            )
    return out


# ---------------------------------------------------------------- a figure per metric


def metric_figures(result: StudyResult, mine: Sequence[str] = ()) -> list[Figure]:
    """One figure per headline metric of the spec: dots and intervals per system, a panel per language or set."""
    spec = spec_of(result)
    metrics = _metrics(result, spec.figures or spec.headline[:3])
    systems = ordered_systems(result.systems, mine)
    level = _level(result)
    out = []
    for metric in metrics:
        part = _sorted_by_system(result.table[result.table["metric"] == metric], systems)
        if not len(part):
            continue
        scale = scale_of(metric, part[["estimate", "ci_low", "ci_high"]].to_numpy().ravel())
        varying = _varying(part)
        plot = pd.DataFrame(
            {
                "system": part["system"].astype(str).to_numpy(),
                "where": [_where(r, varying) for _, r in part.iterrows()] if varying else "",
                "estimate": scale * part["estimate"].to_numpy(dtype=float),
                "low": scale * part["ci_low"].to_numpy(dtype=float),
                "high": scale * part["ci_high"].to_numpy(dtype=float),
            }
        )
        single = plot["system"].nunique() == 1
        label, panel = ("where", None) if single and varying else ("system", "where" if varying else None)
        if varying:  # panels (or rows) in alphabetical order of language and set, the whole first: found at a glance
            plot = plot.sort_values("where", kind="stable", key=lambda w: (w != "all").astype(str) + w.str.casefold())
        difference = metric in DIFFERENCES
        name = METRIC_LABELS.get(metric, metric)
        png = plotting.interval_plot(
            plot,
            estimate="estimate",
            low="low",
            high="high",
            label=label,
            panel=panel,
            marked=[s for s in mine if s in set(plot["system"])],
            ncols=4,
            reference=0.0 if difference else None,
            xlabel=metric_label(metric, scale).replace("(%)", "(percent)"),
        )
        where = _where_name(varying, spec)
        heading = f"{name[:1].upper()}{name[1:]} per {where if varying else 'system'}"
        out.append(
            Figure(
                f"figure_{metric}",
                heading,
                png,
                f"Dots: {name}; bars: {_pct(level)} intervals. "
                + ("Your systems are filled shapes (legend), the others hollow grey circles. " if mine else "")
                + ("Every panel shares one axis." if panel else ""),
            )
        )
    return out


# ---------------------------------------------------------------- the reader's validity (WinoMT)


def reader_agreement() -> pd.DataFrame | None:
    """The shipped per-language agreement of the WinoMT readers with labelled samples (``data/validation/agreement.csv``,
    written by ``tools/reader_agreement.py`` from the labels), or None where it is not installed."""
    from importlib import resources

    try:
        path = resources.files("stats_mtbias._data").joinpath("validation", "agreement.csv")
        if not path.is_file():
            return None
        with path.open("r", encoding="utf-8") as handle:
            return pd.read_csv(handle)
    except (ModuleNotFoundError, FileNotFoundError):
        return None


def reader_validity(result: StudyResult, mine: Sequence[str] = (), *, name: str = "reader_validity") -> list[Table]:
    """Beside WinoMT's numbers: per language the reader's agreement with labelled samples, each system's unread share.

    The CSV has one row per system × language: ``n`` items, ``n_unknown`` of them
    unread, ``unread`` their share, ``coverage`` (items translated), and the
    language's agreement with its labelled sample (``agreement``, Wilson interval,
    κ, and outside the conflicts where annotators followed the pronoun).
    """
    est = result.frames.get("estimates")
    if result.study != "winomt" or not isinstance(est, pd.DataFrame) or not {"language", "n_unknown"} <= set(est.columns):
        return []
    systems = ordered_systems(result.systems, mine)
    keep = [c for c in ("system", "language", "n", "n_unknown", "n_outputs", "coverage") if c in est]
    frame = _sorted_by_system(est[keep].copy(), systems)
    # The unread share of the outputs (n_unknown counts outputs: with samples, rows, not items).
    total = frame["n_outputs"] + frame["n_unknown"] if "n_outputs" in frame else frame["n"]
    frame["unread"] = frame["n_unknown"] / total.where(total > 0)
    frame = frame.drop(columns="n_outputs", errors="ignore")
    agreement = reader_agreement()
    columns = [
        "labels",
        "n",
        "agreement",
        "ci_low",
        "ci_high",
        "kappa",
        "n_conflict",
        "n_conflict_pronoun",
        "agreement_outside",
        "ci_low_outside",
        "ci_high_outside",
    ]
    if agreement is not None:
        ref = agreement.set_index("language")[[c for c in columns if c in agreement]].add_prefix("labelled_")
        frame = frame.join(ref, on="language")
    languages = list(dict.fromkeys(frame["language"]))
    outside = (
        agreement is not None
        and "labelled_n_conflict_pronoun" in frame
        and (frame["labelled_n_conflict_pronoun"].fillna(0) > 0).any()
    )
    rows = []
    for language in languages:
        part = frame[frame["language"] == language].set_index("system")
        first = part.iloc[0]
        row = {"language": language_label(language)}
        if agreement is not None and pd.notna(first.get("labelled_n")):
            row["labelled sample"] = f"{str(first['labelled_labels']).split(' (')[0]}, n = {int(first['labelled_n'])}"
            row["agreement (%)"] = format_interval(
                first["labelled_agreement"], first["labelled_ci_low"], first["labelled_ci_high"]
            )
            if outside:
                known = pd.notna(first.get("labelled_agreement_outside"))
                row["outside conflicts (%)"] = (
                    format_interval(
                        first["labelled_agreement_outside"], first["labelled_ci_low_outside"], first["labelled_ci_high_outside"]
                    )
                    if known
                    else ""
                )
                row["conflicts labelled by the pronoun"] = (
                    f"{int(first['labelled_n_conflict_pronoun'])} of {int(first['labelled_n_conflict'])}" if known else ""
                )
        else:
            row["labelled sample"] = "none: agreement unknown"
            row["agreement (%)"] = ""
            if outside:
                row["outside conflicts (%)"] = row["conflicts labelled by the pronoun"] = ""
        for system in systems:
            if system in part.index:
                r = part.loc[system]
                row[f"unread · {system}"] = f"{100 * r['unread']:.1f} ({int(r['n_unknown'])})"
            else:
                row[f"unread · {system}"] = ""
        rows.append(row)
    cells = pd.DataFrame(rows)
    options = result.provenance.get("options") or {}
    caveat = ""
    if options.get("use_pronoun") or options.get("aligner", "fastalign") != "fastalign":
        caveat = (
            " This result was read with non-default options (use_pronoun or another aligner); the agreement "
            "shown was measured with the default reader (fastalign, the entity's noun phrase)."
        )
    source = ""
    if agreement is not None and "package_version" in agreement:
        source = (
            f" Agreement: the share of labelled translations the reader reads as the labeller did, with its "
            f"Wilson interval (data/validation/agreement.csv, computed by tools/reader_agreement.py with "
            f"stats_mtbias {agreement['package_version'].iloc[0]})."
        )
    elif agreement is None:
        source = " The package's table of agreement (data/validation/agreement.csv) is not installed."
    caption = (
        CONSTRUCT
        + source
        + (
            " A conflict is a translation whose entity reads as one gender and whose pronoun as the other; "
            "annotators who labelled the pronoun there measured another construct, so the agreement outside "
            "the conflicts is the one that applies."
            if outside
            else ""
        )
        + " Unread: percent of a system's items (and their number) whose entity's gender the reader could "
        "not find; Acc counts them as wrong. Each one, with the reason, is in items.csv." + caveat
    )
    text = ["language", "labelled sample"]
    tables = [
        Table(
            name, "How well the reader reads each language", frame.reset_index(drop=True), caption=caption, cells=cells, text=text
        )
    ]
    annotations = result.frames.get("annotations")
    if isinstance(annotations, pd.DataFrame) and len(annotations):
        tables.append(
            Table(
                "annotations",
                "Agreement with your annotators",
                annotations,
                list(annotations.columns),
                "The automatic reading against each of your annotators' labels (Wilson interval, Cohen's κ).",
                digits=3,
            )
        )
    return tables


# ---------------------------------------------------------------- the study's further tables


def _interval_cells(
    frame: pd.DataFrame,
    keys: Sequence[str],
    intervals: Sequence[tuple[str, str, str, str]],
    others: Sequence[tuple[str, str]] = (),
    *,
    difference: bool = False,
) -> pd.DataFrame:
    """Cells: the `keys` as text, each ``(label, estimate, low, high)`` as ``61.2 [59.7, 62.7]``, `others` as given."""
    rows = []
    for _, row in frame.iterrows():
        cell = {k: language_label(row[k]) if k == "language" else str(row[k]) for k in keys}
        for label, est, low, high in intervals:
            cell[label] = format_interval(row[est], row[low] if low else math.nan, row[high] if high else math.nan)
        for label, column in others:
            value = row[column]
            cell[label] = (
                format_p(value)
                if column.startswith("p_")
                else ("yes" if value is True else "no" if value is False else str(value))
            )
        rows.append(cell)
    return pd.DataFrame(rows)


def study_tables(result: StudyResult, mine: Sequence[str] = ()) -> list[Table]:
    """The study's own tables a reader is shown after the figures (corrected Acc, +Adj, male-default tests, …)."""
    systems = ordered_systems(result.systems, mine)
    level = _pct(_level(result))
    out = []
    frames = result.frames
    if result.study == "winomt" and isinstance(frames.get("corrected"), pd.DataFrame) and len(frames["corrected"]):
        frame = _sorted_by_system(frames["corrected"], systems)
        cells = _interval_cells(
            frame,
            ["system", "language"],
            [("Acc (%)", "acc", "", ""), ("Acc corrected (%)", "acc_corrected", "ci_low", "ci_high")],
            [("labels", "labels")],
        )
        out.append(
            Table(
                "corrected",
                "Acc corrected for the reader's errors",
                frame,
                caption=(
                    f"Acc corrected with the human-labelled confusion of the reader on the system's own translations, {level} "
                    "intervals carrying the uncertainty of that confusion; a system without labels of its own is not "
                    "corrected (labels says why)."
                ),
                cells=cells,
                text=["system", "language", "labels"],
                highlight=[s in mine for s in frame["system"]],
            )
        )
    if result.study == "winomt" and isinstance(frames.get("adjectives"), pd.DataFrame) and len(frames["adjectives"]):
        frame = _sorted_by_system(frames["adjectives"], systems)
        cells = _interval_cells(
            frame,
            ["system", "language"],
            [
                ("Acc anti (%)", "acc", "", ""),
                ("with the adjective (%)", "acc_adj", "", ""),
                ("change (points)", "change", "change_ci_low", "change_ci_high"),
            ],
            [("p", "p_value")],
        )
        out.append(
            Table(
                "adjectives",
                "“+Adj”: a stereotypical adjective before the entity",
                frame,
                caption=(
                    f"Anti-stereotypical items: Acc without and with the adjective, the change with its {level} interval and "
                    "McNemar's p (the item transitions are in adjectives.csv)."
                ),
                cells=cells,
                text=["system", "language"],
                highlight=[s in mine for s in frame["system"]],
            )
        )
    if result.study == "prates" and isinstance(frames.get("tests"), pd.DataFrame) and len(frames["tests"]):
        frame = frames["tests"]
        shown = frame[frame["comparison"] == "male>female"] if "comparison" in frame else frame
        keys = [k for k in ("system", "language", "category") if k in shown and shown[k].astype(str).nunique() > 1]
        cells = _interval_cells(
            shown,
            keys or ["language"],
            [("male − female (points)", "diff", "diff_ci_low", "diff_ci_high")],
            [("p_adjusted", "p_adjusted"), ("significant", "significant")],
        )
        out.append(
            Table(
                "tests",
                "More male than female outputs?",
                frame,
                caption=(
                    f"One-sided exact sign tests on the items whose two counts differ, the difference with its {level} interval, "
                    "p adjusted within each comparison's family; tests.csv has every comparison (male > neutral, …)."
                ),
                cells=cells,
                text=keys or ["language"],
            )
        )
    if result.study == "rates" and isinstance(frames.get("group_differences"), pd.DataFrame) and len(frames["group_differences"]):
        frame = _sorted_by_system(frames["group_differences"], systems)
        cells = _interval_cells(
            frame,
            ["system", "group_a", "group_b", "metric"],
            [("difference (points)", "diff", "ci_low", "ci_high")],
            [("p_adjusted", "p_adjusted")],
        )
        out.append(
            Table(
                "group_differences",
                "Differences between groups, per system",
                frame,
                caption=(
                    f"Group a minus group b for each system, with {level} intervals, p adjusted within each system's family."
                ),
                cells=cells,
                text=["system", "group_a", "group_b", "metric"],
                highlight=[s in mine for s in frame["system"]],
            )
        )
    if isinstance(frames.get("consistency"), pd.DataFrame) and len(frames["consistency"]):
        frame = _sorted_by_system(frames["consistency"], systems)
        keys = [k for k in ("system", "language", "gold") if k in frame]
        cells = _interval_cells(
            frame,
            keys,
            [
                ("samples disagree (%)", "disagree", "disagree_ci_low", "disagree_ci_high"),
                ("female (%)", "female", "female_ci_low", "female_ci_high"),
            ],
            [("items", "n"), ("samples per item", "samples")],
        )
        out.append(
            Table(
                "consistency",
                "Consistency of the sampled outputs",
                frame,
                caption=(
                    f"Several outputs per item: the share of items whose samples are read as different genders and the mean "
                    f"within-item share of female outputs, with {level} intervals over items (consistency.csv also has the "
                    "intraclass correlations that plan items against samples)."
                ),
                cells=cells,
                text=keys,
                highlight=[s in mine for s in frame["system"]],
            )
        )
    if result.study == "optimal" and isinstance(frames.get("sectors"), pd.DataFrame) and len(frames["sectors"]):
        frame = frames["sectors"]
        keys = [k for k in ("system", "language", "sector", "dominated") if k in frame]
        rows = [
            {
                **{k: str(r[k]) for k in keys},
                "n": str(int(r["n"])),
                "B": format_interval(r["b"], r["ci_low"], r["ci_high"], scale=1, digits=2),
                "occupations with B > 0": str(int(r["n_biased"])),
            }
            for _, r in frame.iterrows()
        ]
        out.append(
            Table(
                "sectors",
                "Sector B, female- and male-dominated occupations",
                frame,
                caption=(
                    f"B = (E_t − E_0)/E_0 weighted over the sector's occupations (0: as good as the optimal translator), "
                    f"{level} gamma intervals."
                ),
                cells=pd.DataFrame(rows),
                text=keys,
            )
        )
    return out


# ---------------------------------------------------------------- appendix and items


def estimates_table(result: StudyResult, mine: Sequence[str] = (), *, name: str = "estimates") -> Table:
    """Every estimate of ``result.table`` (CSV in shares; the document in percent where a share)."""
    frame = _sorted_by_system(result.table, ordered_systems(result.systems, mine)).reset_index(drop=True)
    rows = []
    for _, row in frame.iterrows():
        scale = scale_of(str(row["metric"]), [row["estimate"], row["ci_low"], row["ci_high"]])
        rows.append(
            {
                "system": str(row["system"]),
                "language": language_label(row["language"]),
                "subset": str(row["subset"]),
                "metric": metric_label(str(row["metric"]), scale),
                "estimate [interval]": format_interval(
                    row["estimate"], row["ci_low"], row["ci_high"], scale=scale, digits=1 if scale == 100 else 2
                ),
                "n": str(int(row["n"])) if pd.notna(row["n"]) else "",
            }
        )
    return Table(
        name,
        "All estimates",
        frame,
        caption=f"Every metric of every system, {_pct(_level(result))} intervals.",
        cells=pd.DataFrame(rows),
        text=["system", "language", "subset", "metric"],
        highlight=[s in mine for s in frame["system"].astype(str)],
    )


def accounting_table(result: StudyResult, *, name: str = "accounting") -> Table | None:
    """Every input row by what became of it (``frames["accounting"]``)."""
    frame = result.frames.get("accounting")
    if not isinstance(frame, pd.DataFrame):
        return None
    return Table(
        name,
        "Every input accounted for",
        frame,
        list(frame.columns),
        "Input rows (lines, items, occupations) per system by what became of them.",
        digits=0,
    )


# The leading columns of items.csv per study (the rest follow); columns not worth a reader's check are dropped.
ITEM_COLUMNS = {
    "winomt": [
        "system",
        "language",
        "item",
        "entity",
        "stereotype",
        "gold",
        "gender",
        "correct",
        "reason",
        "why",
        "aligned",
        "source",
        "translation",
    ],
    "tgbi": ["system", "subset", "line", "item", "lexicon_item", "content", "source", "translation", "gender", "reason"],
    "prates": ["system", "language", "item", "occupation", "category", "variant", "gender", "reason"],
    "optimal": ["system", "language", "item", "occupation", "category", "variant", "gender", "reason"],
}
ITEM_DROPPED = {"winomt": ["sentence", "entity_index"], "tgbi": ["origin", "sentence"]}


def items_frame(result: StudyResult) -> pd.DataFrame | None:
    """One row per system × item of ``frames["judgements"]``: the reading (``gender``) and why (``reason``, ``why``)."""
    judgements = result.frames.get("judgements")
    if not isinstance(judgements, pd.DataFrame):
        return None
    frame = judgements.drop(columns=[c for c in ITEM_DROPPED.get(result.study, []) if c in judgements])
    if "reason" in frame:
        frame = frame.assign(reason=frame["reason"].fillna("").astype(str).replace("", "read"))
    if result.study == "winomt" and {"gold", "gender"} <= set(frame.columns):
        frame = frame.assign(correct=frame["gold"].astype(str) == frame["gender"].astype(str))
    unread = result.frames.get("unread")
    if "why" not in frame and isinstance(unread, pd.DataFrame) and "why" in unread:
        keys = [k for k in ("system", "language", "item") if k in frame and k in unread]
        frame = frame.merge(unread[[*keys, *(c for c in ("aligned", "why") if c in unread)]], on=keys, how="left")
    first = [
        c
        for c in ITEM_COLUMNS.get(result.study, ["system", "language", "subset", "item", "gold", "gender", "reason", "why"])
        if c in frame
    ]
    return frame[first + [c for c in frame.columns if c not in first]].reset_index(drop=True)


def items_file(result: StudyResult, *, compress: bool = False, drop: Sequence[str] = ()) -> tuple[str, bytes] | None:
    """``items.csv`` (or, with `compress`, a reproducible ``items.csv.gz``) of :func:`items_frame`, without `drop`."""
    frame = items_frame(result)
    if frame is None:
        return None
    frame = frame.drop(columns=[c for c in drop if c in frame])
    data = frame.to_csv(index=False, float_format=CSV_FLOAT_FORMAT).encode("utf-8")
    if compress:  # mtime=0: the same readings give the same bytes
        return "items.csv.gz", gzip.compress(data, compresslevel=9, mtime=0)
    return "items.csv", data


# ---------------------------------------------------------------- one section


def result_section(
    result: StudyResult,
    key: str,
    *,
    mine: Sequence[str] = (),
    title: str | None = None,
    compress_items: bool = False,
    items_drop: Sequence[str] = (),
    margin: float | None = None,
) -> Section:
    """The report section of one result: headline, validity, comparisons, figures, further tables, appendix.

    Parameters
    ----------
    result : StudyResult
    key : str
        The section's directory name.
    mine : sequence of str
        The user's systems: first in every table, marked in every figure, and the
        comparisons shown are theirs against every other system (see :func:`shown_comparisons`).
    title : str, optional
        Heading (default: the study's).
    compress_items : bool
        Write ``items.csv.gz`` instead of ``items.csv`` (the full report's 140,000 WinoMT rows).
    items_drop : sequence of str
        Columns left out of the items file (the full report leaves out the source
        sentence, the same for every system and in the shipped data).
    margin : float, optional
        The equivalence margin δ: each comparison says in words whether it is equivalent within ±δ, not shown
        equivalent, or differs.
    """
    mine = [s for s in mine if s in result.systems]
    spec = spec_of(result)
    prov = result.provenance
    level = _level(result)
    section = Section(key, title or spec.title or result.study)
    section.lead = spec.measured
    section.headline = headline_table(result, mine)
    section.notes = tidy_notes(result.notes)
    section.body += reader_validity(result, mine)
    compared = shown_comparisons(result, mine, margin)
    sentence = ""
    if compared is not None:
        frame, sentence = compared
        section.body.append(comparisons_table(result, frame, sentence, mine))
        section.body += comparisons_figures(result, frame, mine)
    section.body += metric_figures(result, mine)
    section.body += study_tables(result, mine)
    section.methods = [
        f"Method: {prov.get('method', '')}.",
        f"Systems: {', '.join(ordered_systems(result.systems, mine))}"
        + (f" (yours: {', '.join(mine)})" if mine else "")
        + f". Intervals at {_pct(level)}"
        + (f", {prov['n_boot']:,} resamples" if prov.get("n_boot") else "")
        + (f", seed {prov['seed']}" if prov.get("seed") is not None else "")
        + ". Documents show percent (differences of shares in points); every CSV keeps shares in [0, 1]. "
        + sentence,
    ]
    if item_caption(prov.get("items")):  # which items every figure rests on (items=, or all of them)
        items = prov["items"]
        digest = f" (sha256 of the sorted ids {items['sha256'][:12]}…)" if items.get("sha256") else ""
        section.methods.append(f"Items: {item_caption(items)}{digest}.")
    section.appendix = [t for t in (accounting_table(result), estimates_table(result, mine)) if t is not None]
    if isinstance(result.frames.get("validation"), pd.DataFrame):
        validation = result.frames["validation"]
        section.appendix.append(
            Table(
                "validation",
                "The reader against each shipped human-annotation file",
                validation,
                list(validation.columns),
                "Per file: agreement (Wilson interval), Cohen's κ, conflicts and the agreement outside them.",
                digits=3,
            )
        )
    shown = {t.name for t in section.tables}
    for name, frame in result.frames.items():  # the rest for machines: CSV only
        if name in ("judgements", "unread") or not isinstance(frame, pd.DataFrame) or name in shown - {"estimates"}:
            continue
        stem = f"{name}_wide" if name == "estimates" else name
        if name == "rule_changes" or frame.index.name is not None:
            frame = frame.reset_index()
        section.appendix.append(Table(stem, "", frame, list(frame.columns)))
    items = items_file(result, compress=compress_items, drop=items_drop)
    if items is not None:
        section.attachments[items[0]] = items[1]
    section.provenance = {result.study: prov}
    signed = f"Signature: {result.signature}"  # each number shown says how it was made (smb.parse_signature)
    if section.headline is not None:
        section.headline = dataclasses.replace(section.headline, caption=f"{section.headline.caption} {signed}".strip())
    section.body = [dataclasses.replace(b, caption=f"{b.caption} {signed}".strip()) if b.title else b for b in section.body]
    return section


# ---------------------------------------------------------------- the report


def check_formats(formats: Sequence[str]) -> list[str]:
    """The renderers' names of `formats` (``tex`` is ``latex``, ``markdown`` is ``md``), refused before any work."""
    if isinstance(formats, str):
        formats = [formats]
    return list(dict.fromkeys(FORMAT_NAMES[check_choice(f, tuple(FORMAT_NAMES), "formats")] for f in formats))


def check_screenshot(screenshot: str | Path | None, formats: Sequence[str], out: str | Path) -> Path | None:
    """Refuse a screenshot that cannot be taken — no HTML, no Chromium, an unwritable path — and an unwritable `out`,
    before the work (the output directory is created only once the browser is known to be there)."""
    if screenshot is None:
        check_writable_dir(out, "`out`")
        return None

    if "html" not in formats:
        raise UsageError("`screenshot` photographs report.html: add 'html' to `formats`, or leave `screenshot` out.")
    if browser.find_browser() is None:  # through the module: tests replace it there
        raise UsageError(
            "`screenshot`: no Chromium on PATH to render report.html (Debian: apt-get install chromium); "
            "install it, or leave `screenshot` out."
        )
    check_writable_dir(out, "`out`")  # first: the screenshot may go into it
    return check_output(screenshot, what="screenshot")


def write_results(
    results: Sequence[StudyResult],
    out: str | Path,
    *,
    formats: Sequence[str] = ("html", "md", "tex"),
    title: str = "Gender bias in machine translation",
    mine: Sequence[str] | None = None,
    screenshot: str | Path | None = None,
    margin: float | None = None,
) -> list[Path]:
    """Build one section per result and write the report into `out` (see :func:`stats_mtbias.report`).

    `mine` names the user's systems (None: none); a name in no result is refused.
    With `screenshot`, the first screen of ``report.html`` (1280 × 900 pixels) is
    saved there by headless Chromium, and appended to the files returned.
    """
    if not results:
        raise UsageError("`results`: give at least one result to report.")
    for result in results:
        if not isinstance(result, StudyResult):
            raise UsageError(f"`results`: expected StudyResult objects, got {type(result).__name__}.")
    formats = check_formats(formats)
    mine = [str(s) for s in (mine or [])]
    everyone = list(dict.fromkeys(s for r in results for s in r.systems))
    unknown = [s for s in mine if s not in everyone]
    if unknown:
        raise UsageError(f"`mine`: {', '.join(unknown)} is in none of the results; their systems: {', '.join(everyone)}.")
    png = check_screenshot(screenshot, formats, out)
    sections, seen = [], {}
    for result in results:
        seen[result.study] = seen.get(result.study, 0) + 1
        key = result.study if seen[result.study] == 1 else f"{result.study}_{seen[result.study]}"
        sections.append(result_section(result, key, mine=mine, margin=margin))
    first = results[0].provenance
    settings = {
        "n_boot": first.get("n_boot") or 0,
        "seed": first.get("seed"),
        "level": first.get("level") or 0.95,
        "results": len(results),
        "mine": mine,
    }
    report = Report(title, sections, settings, environment(), lead=report_lead(mine))
    written = write_report(report, out, formats)
    if png is not None:
        written.append(
            browser.screenshot(Path(out) / "report.html", png, width=browser.FIRST_SCREEN[0], height=browser.FIRST_SCREEN[1])
        )
    return written


def report_lead(mine: Sequence[str]) -> str:
    """The line under the title: whose systems are marked, where the details are."""
    if mine:
        return (
            f"Your systems: {', '.join(mine)}: first and in bold in every table, a filled shape in every figure, "
            "compared with every other system. Tables in percent with their intervals; accounting, every "
            "estimate and the provenance in the appendix; each system's reading of each item in items.csv."
        )
    return (
        "Tables in percent with their intervals; accounting, every estimate and the provenance in the appendix; "
        "each system's reading of each item in items.csv."
    )


__all__ = [
    "TABLE_COLUMNS",
    "Spec",
    "accounting_table",
    "comparisons_figures",
    "comparisons_table",
    "estimates_table",
    "headline_table",
    "items_file",
    "items_frame",
    "metric_figures",
    "reader_validity",
    "result_section",
    "shown_comparisons",
    "study_tables",
    "tidy_notes",
    "write_results",
]
