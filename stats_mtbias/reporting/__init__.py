"""The project's full statistical report: every study on its published data, above the public API.

``make report`` (``python -m stats_mtbias.reporting``), ``stats-mtbias report`` and the
``analyses/<study>.py`` scripts run :func:`~stats_mtbias.reporting.build.run`: one section
per study (:mod:`stats_mtbias.reporting.sections`), each computed through
``stats_mtbias``'s public functions and laid out in the shape of every report
(:mod:`stats_mtbias.report.results`), written by :mod:`stats_mtbias.report.render`.
The methods prose lives in ``reporting/methods/<study>.md.j2``.

This package sits above the API: it imports ``stats_mtbias`` (the facade) and
``stats_mtbias.report`` (rendering), never the studies' internals; nothing below the
API imports it.
"""

from stats_mtbias.reporting.build import FORMATS, STUDIES, TITLE, build_report, run
from stats_mtbias.reporting.settings import Settings

__all__ = ["FORMATS", "STUDIES", "TITLE", "Settings", "build_report", "run"]
