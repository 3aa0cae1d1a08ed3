"""Optimal-translator bias B (Farkas & Németh) of the 12 Prates languages against BLS, per sector and category."""

from __future__ import annotations

import pandas as pd

import stats_mtbias as smb
from stats_mtbias.report import figures
from stats_mtbias.report.document import Figure, Section, Table
from stats_mtbias.report.formatting import format_interval
from stats_mtbias.report.results import result_section
from stats_mtbias.reporting.sections import ITEMS_DROP, add, common, methods
from stats_mtbias.reporting.settings import Settings, collect_warnings

TITLE = "Optimal-translator bias B (Farkas & Németh) against BLS"


def section(settings: Settings) -> Section:
    """The optimal-translator section: headline rates per language, sector and category B with gamma intervals."""
    s = settings
    notes: list[str] = []
    with collect_warnings(notes, s.data_root):
        result = s.cached("optimal", lambda: smb.optimal(data_dir=s.data_dir, n_boot=s.n_boot, rng=s.seed, level=s.level))
    out = result_section(result, "optimal", title=TITLE, compress_items=True, items_drop=ITEMS_DROP, margin=s.margin)
    out.notes = _condensed([*notes, *out.notes])
    occupations = result.frame("occupations")
    per_occupation = occupations.drop_duplicates("item")
    out.methods = methods(
        "optimal", **common(s), n_reference=int(per_occupation["female_share"].notna().sum()), n_occupations=len(per_occupation)
    )
    categories = result.frame("categories")
    cells = pd.DataFrame(
        [
            {
                "language": str(r.language),
                "category": str(r.category),
                "n": str(int(r.n)),
                "B": format_interval(r.b, r.ci_low, r.ci_high, scale=1, digits=2),
            }
            for r in categories.itertuples()
        ]
    )
    add(
        out,
        Table(
            "categories",
            "Category B (mean over the category's occupations)",
            categories,
            caption=f"{common(s)['level_pct']} gamma intervals, as for the sectors.",
            cells=cells,
            text=["language", "category"],
        ),
    )
    sectors = result.frame("sectors").astype({"language": str, "sector": str, "dominated": str})
    sectors = sectors.assign(
        sector=sectors["sector"].str.replace(", ", ",\n", regex=False), dominated=sectors["dominated"] + "-dominated occupations"
    )
    add(
        out,
        Figure(
            "sector_b",
            "Sector B: female- and male-dominated occupations side by side",
            figures.forest(
                sectors,
                estimate="b",
                low="ci_low",
                high="ci_high",
                label="sector",
                group="dominated",
                panel="language",
                xscale="symlog",
                xmax=1000.0,
                xlabel="B (symmetric log scale)",
                ncols=4,
            ),
            f"Points: weighted mean B; bars: {common(s)['level_pct']} gamma intervals (arrow: the interval goes beyond "
            "1000; the exact ends are in sectors.csv).",
        ),
    )
    out.provenance = {"optimal": result.provenance}
    return out


def _condensed(notes: list[str]) -> list[str]:
    """The per-language counts of occupations without B as one note per reason (the accounting has every number)."""
    import re

    grouped: dict[str, list[str]] = {}
    other = []
    for note in dict.fromkeys(" ".join(n.split()) for n in notes):
        found = re.fullmatch(r"(\S+) (.+?): (\d+) occupations without B \((.+)\)", note)
        if found:
            grouped.setdefault(found.group(4), []).append(f"{found.group(2)} {found.group(3)}")
        else:
            other.append(note)
    return other + [
        f"Occupations without B ({reason}): {', '.join(counts)}; see the accounting in the appendix."
        for reason, counts in grouped.items()
    ]
