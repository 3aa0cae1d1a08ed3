"""Building the full report: every study's section, then HTML, Markdown and LaTeX (and a screenshot on request)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from stats_mtbias._validation import check_choice
from stats_mtbias.report.document import Report
from stats_mtbias.report.render import FORMATS, environment, write_report
from stats_mtbias.report.results import check_screenshot
from stats_mtbias.report.screenshot import screenshot as take
from stats_mtbias.reporting.sections import STUDIES, build_section
from stats_mtbias.reporting.settings import Settings

TITLE = "Gender bias in machine translation: the statistical report"
LEAD = (
    "Every study on its published data: the headline of each first, in percent with its intervals; comparisons, "
    "figures, how well the automatic readers read, methods and notes below it; accounting, every estimate and the "
    "provenance in the appendix; each system's reading of each item in <study>/items.csv.gz."
)
# The full report's screenshot shows more than the first screen (README: "how headless Chromium renders it").
SCREENSHOT = (1280, 2400)


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
        timing.append(
            {
                "study": study,
                "tables": len(section.tables),
                "figures": len(section.figures),
                "seconds": time.perf_counter() - start,
            }
        )
    return Report(TITLE, sections, settings.as_dict(), environment(), lead=LEAD), pd.DataFrame(timing)


def run(
    out: str | Path,
    studies: Sequence[str] = STUDIES,
    settings: Settings | None = None,
    formats: Sequence[str] = FORMATS,
    screenshot: str | Path | None = None,
) -> tuple[Report, pd.DataFrame, list[Path]]:
    """Build the report and write it into `out` (see :mod:`stats_mtbias.report.render` for the layout).

    Parameters
    ----------
    out : str or Path
        The report's directory (``reports`` for ``make report``).
    studies : sequence of str
        Of ``tgbi, prates, optimal, winomt, models``.
    settings : Settings, optional
        Resamples, seed, level, MCMC settings (default :class:`Settings`).
    formats : sequence of {"html", "md", "latex"}
    screenshot : str or Path, optional
        Also save a 1280 × 2400 PNG of ``report.html`` rendered by headless Chromium.

    Returns
    -------
    report, timing, written
        The document, the seconds per section, the files written (the screenshot last).

    Raises
    ------
    UsageError
        Before any study runs (they take minutes): a format or study not known, an
        unwritable `out`, or a screenshot that cannot be taken (no Chromium on PATH,
        no HTML among `formats`, an unwritable path).
    """
    formats = [check_choice(f, FORMATS, "format") for f in formats]
    studies = [check_choice(s, STUDIES, "studies") for s in studies]
    png = check_screenshot(screenshot, formats, out)
    report, timing = build_report(studies, settings)
    written = write_report(report, out, formats)
    if png is not None:
        written.append(take(Path(out) / "report.html", png, width=SCREENSHOT[0], height=SCREENSHOT[1]))
    return report, timing, written
