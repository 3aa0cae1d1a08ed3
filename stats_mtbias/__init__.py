"""stats_mtbias: statistics of gender bias in machine translation.

Translation outputs are read into a judgement table (one row per system and
item), counted into contingency tables, and turned into the published bias
measures with bootstrap and analytic intervals and paired tests.
"""

# The subpackage stats_mtbias.report is loaded first, so that the function smb.report bound below is never
# replaced by the module when the report code is imported later (Python binds a submodule on its first load).
import stats_mtbias.report as _report_package  # noqa: F401
from stats_mtbias import api as _api
from stats_mtbias._version import __version__
from stats_mtbias.api import (
    agreement,
    from_harness,
    model,
    optimal,
    parse_signature,
    prates,
    rates,
    read,
    report,
    tgbi,
    winomt,
)
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
from stats_mtbias.studies import NAMES as _STUDIES

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
    "from_harness",
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
# A study module added to stats_mtbias.studies is a function here too, made from its options (see __getattr__).
__all__ += [name for name in _STUDIES if name not in __all__]


def __getattr__(name: str):
    """``smb.<study>`` for a study without a function written in :mod:`stats_mtbias.api` (a new module in
    :mod:`stats_mtbias.studies`, or a record added by :func:`stats_mtbias.studies.register`): made from its
    ``Options`` by :func:`stats_mtbias.api.study_function`."""
    if name.startswith("_"):
        raise AttributeError(f"module 'stats_mtbias' has no attribute {name!r}")
    return _api.study_function(name)
