"""TGBI (Cho et al. 2019): P_S per sentence set and the index, with bootstrap and delta-method intervals, paired comparisons.

Writes the study's section of the report (Markdown, CSV and LaTeX tables, PNG figures, provenance)
through the public API: `stats_mtbias.reporting.sections.tgbi.section`.

Usage: python analyses/tgbi.py [--out reports/tgbi] [--n-boot 10000] [--seed 0] [--data-dir DIR]
"""

from __future__ import annotations

from _cli import settings_from_args

from stats_mtbias.report.render import write_section
from stats_mtbias.reporting.sections import build_section


def main() -> None:
    settings, out = settings_from_args(__doc__, "reports/tgbi")
    section = build_section("tgbi", settings)
    written = write_section(section, out)
    print(f"wrote {len(written)} files into {out}/")


if __name__ == "__main__":
    main()
