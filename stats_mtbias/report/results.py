"""A report of any results: one section per :class:`~stats_mtbias.result.StudyResult`.

What :func:`stats_mtbias.report` writes for a user's own systems (beside the
shipped baselines they named): the method, the tidy estimates, the paired
comparisons, a forest plot per metric, the notes and the provenance, in the same
HTML/Markdown/LaTeX layout as the full report.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from stats_mtbias import plotting as figures
from stats_mtbias.report.document import Figure, Report, Section, Table
from stats_mtbias.report.render import environment, write_report
from stats_mtbias.result import COMPARE_COLUMNS, TABLE_COLUMNS, StudyResult

TITLES = {
    "tgbi": "TGBI (Cho et al. 2019): Korean → English",
    "winomt": "WinoMT (Stanovsky et al. 2019): English → gendered languages",
    "prates": "Prates et al. (2019): gender-neutral languages → English",
    "optimal": "Optimal-translator bias B (Farkas & Németh)",
    "rates": "Female, male and neutral shares of a judgement table",
}
# The metric plotted first in each study's figure (the one the study is about).
HEADLINE = {"tgbi": "p_s", "winomt": "delta_g", "prates": "p_female", "optimal": "b", "rates": "gap"}
FORMAT_NAMES = {"html": "html", "md": "md", "markdown": "md", "tex": "latex", "latex": "latex"}


def result_section(result: StudyResult, key: str) -> Section:
    """The report section of one result (tables keep the API's unrounded numbers)."""
    prov = result.provenance
    level = prov.get("level") or 0.95
    section = Section(key, TITLES.get(result.study, result.study))
    section.methods = [
        f"Method: {prov.get('method', '')}.",
        f"Systems: {', '.join(result.systems)}. Intervals at {100 * level:g}%"
        + (f", {prov['n_boot']:,} resamples" if prov.get("n_boot") else "")
        + (f", seed {prov['seed']}" if prov.get("seed") is not None else "")
        + ". Shares are fractions in [0, 1]; differences are system a minus system b.",
    ]
    section.tables.append(Table("estimates", "Estimates", result.table, TABLE_COLUMNS,
                                "One row per system, language, subset and metric.", digits=4))  # fmt: skip
    if result.comparisons is not None:
        section.tables.append(
            Table("comparisons", "Paired comparisons between systems", result.compare(), [*COMPARE_COLUMNS, "mde"],
                  f"p_adjusted: {result.correction} over the family of all {len(result.comparisons)} rows. mde: the "
                  "smallest true difference this evaluation detects with 80% power at two-sided α = 0.05 (from the "
                  "interval's width); a difference that is not significant is no larger than about that.", digits=4)
        )  # fmt: skip
    accounting = result.frames.get("accounting")
    if isinstance(accounting, pd.DataFrame):
        section.tables.append(Table("accounting", "Every input row accounted for", accounting, list(accounting.columns),
                                    "Rows per system by what became of them.", digits=0))  # fmt: skip
    headline = HEADLINE.get(result.study)
    shown = result.table[result.table["metric"] == headline] if headline in set(result.table["metric"]) else result.table
    if len(shown):
        panel = "language" if shown["language"].nunique() > 1 else None
        section.figures.append(
            Figure(f"forest_{headline or 'estimates'}", f"{headline} per system",
                   figures.forest(shown.astype({"system": str, "subset": str, "language": str}), estimate="estimate",
                                  low="ci_low", high="ci_high", label="subset", group="system", panel=panel,
                                  xlabel=str(headline)),
                   f"Points: estimates; bars: {100 * level:g}% intervals.")
        )  # fmt: skip
    section.notes = list(result.notes)
    section.provenance = {result.study: prov}
    return section


def write_results(results: Sequence[StudyResult], out: str | Path, *, formats: Sequence[str] = ("html", "md", "tex"),
                  title: str = "Gender bias in machine translation") -> list[Path]:
    """Build one section per result and write the report into `out` (see :func:`stats_mtbias.report`)."""
    from stats_mtbias._validation import check_choice

    if not results:
        from stats_mtbias.errors import UsageError

        raise UsageError("`results`: give at least one result to report.")
    formats = [FORMAT_NAMES[check_choice(f, tuple(FORMAT_NAMES), "formats")] for f in formats]
    sections, seen = [], {}
    for result in results:
        if not isinstance(result, StudyResult):
            from stats_mtbias.errors import UsageError

            raise UsageError(f"`results`: expected StudyResult objects, got {type(result).__name__}.")
        seen[result.study] = seen.get(result.study, 0) + 1
        key = result.study if seen[result.study] == 1 else f"{result.study}_{seen[result.study]}"
        sections.append(result_section(result, key))
    first = results[0].provenance
    settings = {"n_boot": first.get("n_boot") or 0, "seed": first.get("seed"), "level": first.get("level") or 0.95,
                "results": len(results)}  # fmt: skip
    report = Report(title, sections, settings, environment())
    return write_report(report, out, formats)
