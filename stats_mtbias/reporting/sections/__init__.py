"""One section builder per study of the full report: layout only, the numbers from the public API.

Each builder takes a :class:`~stats_mtbias.reporting.settings.Settings`, runs its study
through ``stats_mtbias`` (``smb.tgbi``, ``smb.winomt``, …, ``smb.model``) and lays out
a :class:`~stats_mtbias.report.document.Section` in the shape every report shares
(:func:`stats_mtbias.report.results.result_section`: headline, reader validity,
comparisons, a figure per metric, appendix) plus what the study adds (the bootstrap
variant and the authors' rules of TGBI, Prates' tests against BLS, WinoMT's power
curve, …). The methods prose is in ``reporting/methods/<study>.md.j2``. Sections read
only the results' public views (``table``, ``compare()``, ``frames``, ``notes``,
``provenance``), never a study's private object.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from stats_mtbias._validation import check_choice
from stats_mtbias.report.document import Figure, Section, Table
from stats_mtbias.reporting.settings import Settings, section_notes

STUDIES = ("tgbi", "prates", "optimal", "winomt", "models")
METHODS = Path(__file__).resolve().parents[1] / "methods"
# The full report's items files leave out the source sentence: the same for every system, and in the shipped data
# (WinoMT's 140,000 rows are 3.4 MB compressed without it, 5.9 MB with it).
ITEMS_DROP = ("source",)


def methods(study: str, **params) -> list[str]:
    """The methods paragraphs of `study` (``methods/<study>.md.j2`` rendered with `params`; blank lines split them).

    Examples
    --------
    >>> paragraphs = methods("models", chains=2, tune=400, draws=2000, seed=0, level_pct="95%")
    >>> len(paragraphs), "2 chains × (400 tuning + 2000 draws), seed 0" in paragraphs[-1]
    (3, True)
    """
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(METHODS), undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False
    )
    text = env.get_template(f"{study}.md.j2").render(**params)
    return [" ".join(block.split()) for block in text.split("\n\n") if block.strip()]


def common(settings: Settings) -> dict:
    """The template parameters every study's methods share."""
    return {
        "level_pct": f"{100 * settings.level:g}%",
        "alpha": f"{1 - settings.level:.2g}",
        "n_boot": f"{settings.n_boot:,}",
        "seed": settings.seed,
    }


def add(section: Section, *blocks: Table | Figure) -> None:
    """Append `blocks` to the section's body; a frame the generic section left as CSV only under the same name is
    dropped from the appendix (the shown table writes that CSV)."""
    section.body += blocks
    names = {b.name for b in blocks if isinstance(b, Table)}
    section.appendix = [t for t in section.appendix if t.title or t.name not in names]


def build_section(study: str, settings: Settings) -> Section:
    """The section of one study (``tgbi``, ``prates``, ``optimal``, ``winomt`` or ``models``)."""
    check_choice(study, STUDIES, "study")
    section = builders()[study](settings)
    section.notes = section_notes(section.notes, settings.data_root)
    return section


def builders() -> dict[str, Callable[[Settings], Section]]:
    """``{study: builder}``, imported on demand (the models section pulls in PyMC only when asked)."""
    # Here, not at the top: a cycle (each section imports this package) and heavy (the models section: PyMC).
    from stats_mtbias.reporting.sections import models, optimal, prates, tgbi, winomt

    return {
        "tgbi": tgbi.section,
        "prates": prates.section,
        "optimal": optimal.section,
        "winomt": winomt.section,
        "models": models.section,
    }
