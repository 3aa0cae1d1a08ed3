"""Hierarchical Bayesian models: calibration against BLS and the TGBI rate model beside the bootstrap.

Writes the study's section of the report (Markdown, CSV and LaTeX tables, PNG figures, provenance)
through the public API: `stats_mtbias.reporting.sections.models.section`.

Usage: python analyses/models.py [--out reports/models] [--n-boot 10000] [--seed 0] [--data-dir DIR]
       [--draws 1000] [--tune 1000] [--chains 2] [--with-prates-rates]
"""

from __future__ import annotations

from _cli import settings_from_args

from stats_mtbias.report.render import write_section
from stats_mtbias.reporting.sections import build_section


def main() -> None:
    settings, out = settings_from_args(__doc__, "reports/models", models=True)
    section = build_section("models", settings)
    written = write_section(section, out)
    print(f"wrote {len(written)} files into {out}/")


if __name__ == "__main__":
    main()
