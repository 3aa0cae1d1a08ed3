"""stats_mtbias: statistics of gender bias in machine translation.

Translation outputs are read into a judgement table (one row per system and
item), counted into contingency tables, and turned into the published bias
measures with bootstrap and analytic intervals and paired tests.
"""

# The subpackage stats_mtbias.report is loaded first, so that the function smb.report bound below is never
# replaced by the module when the report code is imported later (Python binds a submodule on its first load).
import stats_mtbias.report as _report_package  # noqa: F401
from stats_mtbias._version import __version__
from stats_mtbias.api import agreement, model, optimal, parse_signature, prates, rates, read, report, tgbi, winomt
from stats_mtbias.errors import (
    DataError,
    DataNotFoundError,
    DataQualityWarning,
    DependencyError,
    MtbiasError,
    OutputError,
    UsageError,
)
from stats_mtbias.power import power
from stats_mtbias.result import StudyResult

__all__ = [
    "DataError",
    "DataNotFoundError",
    "DataQualityWarning",
    "DependencyError",
    "MtbiasError",
    "OutputError",
    "StudyResult",
    "UsageError",
    "__version__",
    "agreement",
    "model",
    "optimal",
    "parse_signature",
    "power",
    "prates",
    "rates",
    "read",
    "report",
    "tgbi",
    "winomt",
]
