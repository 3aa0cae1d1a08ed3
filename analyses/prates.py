"""Prates et al. (2019): female/male/neutral rates per language and category, sign tests, independence, BLS comparison.

Writes the study's section of the report (Markdown, CSV and LaTeX tables, PNG figures, provenance)
through the public API: `stats_mtbias.reporting.sections.prates.section`.

Usage: python analyses/prates.py [--out reports/prates] [--n-boot 10000] [--seed 0] [--data-dir DIR]
"""

from __future__ import annotations

from _cli import settings_from_args

from stats_mtbias.report.render import write_section
from stats_mtbias.reporting.sections import build_section


def main() -> None:
    settings, out = settings_from_args(__doc__, "reports/prates")
    section = build_section("prates", settings)
    written = write_section(section, out)
    print(f"wrote {len(written)} files into {out}/")


if __name__ == "__main__":
    main()
