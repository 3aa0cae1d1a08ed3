"""Building the whole report: every study's section, then HTML, Markdown and LaTeX."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from stats_mtbias._validation import check_choice
from stats_mtbias.report.document import Report
from stats_mtbias.report.render import FORMATS, environment, write_report
from stats_mtbias.report.sections import STUDIES, Settings, build_section

TITLE = "Gender bias in machine translation: the statistical report"


def build_report(studies: Sequence[str] = STUDIES, settings: Settings | None = None) -> tuple[Report, pd.DataFrame]:
    """Run `studies` (default: all five) and collect their sections.

    Returns
    -------
    report : Report
        The sections, the settings and the environment (versions).
    timing : DataFrame
        ``study, tables, figures, seconds`` per section.
    """
    settings = settings or Settings()
    studies = [check_choice(s, STUDIES, "studies") for s in studies]
    sections, timing = [], []
    for study in settings.iterate(studies, "report"):
        start = time.perf_counter()
        section = build_section(study, settings)
        sections.append(section)
        timing.append({"study": study, "tables": len(section.tables), "figures": len(section.figures),
                       "seconds": time.perf_counter() - start})  # fmt: skip
    return Report(TITLE, sections, settings.as_dict(), environment()), pd.DataFrame(timing)


def run(
    out: str | Path,
    studies: Sequence[str] = STUDIES,
    settings: Settings | None = None,
    formats: Sequence[str] = FORMATS,
) -> tuple[Report, pd.DataFrame, list[Path]]:
    """Build the report and write it into `out` (see :mod:`stats_mtbias.report.render` for the layout)."""
    # Refuse a bad format before the studies run (they take minutes), not after.
    formats = [check_choice(f, FORMATS, "format") for f in formats]
    report, timing = build_report(studies, settings)
    written = write_report(report, out, formats)
    return report, timing, written
