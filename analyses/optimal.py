"""Optimal-translator bias B (Farkas & Németh) of the 12 Prates languages against BLS, per sector and category.

Writes the study's section of the report (Markdown, CSV and LaTeX tables, PNG figures, provenance)
through the public API: `stats_mtbias.reporting.sections.optimal.section`.

Usage: python analyses/optimal.py [--out reports/optimal] [--n-boot 10000] [--seed 0] [--data-dir DIR]
"""

from __future__ import annotations

from _cli import settings_from_args

from stats_mtbias.report.render import write_section
from stats_mtbias.reporting.sections import build_section


def main() -> None:
    settings, out = settings_from_args(__doc__, "reports/optimal")
    section = build_section("optimal", settings)
    written = write_section(section, out)
    print(f"wrote {len(written)} files into {out}/")


if __name__ == "__main__":
    main()
