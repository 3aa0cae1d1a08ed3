"""WinoMT (Stanovsky et al. 2019): align and read every shipped translation; Acc, ΔG, ΔS, comparisons, +Adj, validation.

Writes the study's section of the report (Markdown, CSV and LaTeX tables, PNG figures, provenance)
through the public API: `stats_mtbias.reporting.sections.winomt.section`.

Usage: python analyses/winomt.py [--out reports/winomt] [--n-boot 10000] [--seed 0] [--data-dir DIR]
"""

from __future__ import annotations

from _cli import settings_from_args

from stats_mtbias.report.render import write_section
from stats_mtbias.reporting.sections import build_section


def main() -> None:
    settings, out = settings_from_args(__doc__, "reports/winomt")
    section = build_section("winomt", settings)
    written = write_section(section, out)
    print(f"wrote {len(written)} files into {out}/")


if __name__ == "__main__":
    main()
