"""The vocabulary of every option of the public functions, in one place.

The command line takes every ``choices=`` from here, so that an option and the
API keyword it maps to accept the same words and a new choice in the library
reaches ``--help`` by itself. Each name is the library's own constant, re-exported
from the module that checks it (this module sits beside :mod:`stats_mtbias.api`,
the front door, and may import the studies; the CLI may not).

:data:`FRAMES` names the frames each study's :class:`~stats_mtbias.result.StudyResult`
can hold (``res.frames``): the groups a reader may rely on, as arviz's
``InferenceData`` names its groups.
"""

from __future__ import annotations

from stats_mtbias import _defaults
from stats_mtbias import studies as _studies
from stats_mtbias.alignment import METHODS as ALIGNERS
from stats_mtbias.api import READERS
from stats_mtbias.datasets.counting import ENGINES as COUNTING_ENGINES
from stats_mtbias.datasets.prates import ITEMS as PRATES_ITEMS
from stats_mtbias.estimators.optimal import NEUTRAL_RULES
from stats_mtbias.estimators.tgbi import BOTH_RULES
from stats_mtbias.gender.english import RULES as LEXICONS
from stats_mtbias.models.fit import SAMPLERS
from stats_mtbias.planning.designs import DESIGNS, PAIRED_METHODS
from stats_mtbias.planning.simulate import TESTS as PILOT_TESTS
from stats_mtbias.report.formatting import FORMATS
from stats_mtbias.result import FAMILIES
from stats_mtbias.significance.multitest import CORRECTIONS as _CORRECTIONS
from stats_mtbias.significance.paired import PAIRED_METHODS as PRATES_TESTS
from stats_mtbias.studies import NAMES as STUDIES
from stats_mtbias.studies import models as _models
from stats_mtbias.studies import optimal as _optimal
from stats_mtbias.studies import prates as _prates
from stats_mtbias.studies import rates as _rates
from stats_mtbias.studies import tgbi as _tgbi
from stats_mtbias.studies import winomt as _winomt
from stats_mtbias.uncertainty.analytic import PROPORTION_METHODS
from stats_mtbias.uncertainty.bootstrap import CI_METHODS

__all__ = [
    "ALIGNERS",
    "ALTERNATIVES",
    "BENGALI",
    "BOOTSTRAP_INTERVALS",
    "BOTH_RULES",
    "CORRECTIONS",
    "COUNTING_ENGINES",
    "DESIGNS",
    "FAMILIES",
    "FORMATS",
    "FRAMES",
    "LEXICONS",
    "MISSING_RULES",
    "MODELS",
    "MODEL_STUDIES",
    "NEUTRAL_RULES",
    "OPTIMAL_INTERVALS",
    "PAIRED_METHODS",
    "PILOT_TESTS",
    "PRATES_BY",
    "PRATES_DENOMINATORS",
    "PRATES_ITEMS",
    "PRATES_TESTS",
    "PROPORTION_METHODS",
    "RATES_CI",
    "READERS",
    "READING_ENGINES",
    "REPEATED_BLOCKS",
    "SAMPLERS",
    "STUDIES",
    "TGBI_CI",
    "TGBI_TESTS",
]

CORRECTIONS = tuple(_CORRECTIONS)  # holm, bh, none
ALTERNATIVES = _defaults.ALTERNATIVES  # two-sided, less, greater
# The bootstrap intervals of TGBI, WinoMT and rates (the studentized interval needs a variance per replicate).
BOOTSTRAP_INTERVALS = tuple(m for m in CI_METHODS if m != "studentized")

TGBI_CI = _tgbi.CI_KINDS
TGBI_TESTS = _tgbi.TESTS
REPEATED_BLOCKS = _tgbi.REPEATED_BLOCKS

MISSING_RULES = _winomt.MISSING_RULES
READING_ENGINES = _winomt.READING_ENGINES

PRATES_BY = _prates.BY_CHOICES
PRATES_DENOMINATORS = _prates.DENOMINATORS
# Bengali's six variants pooled into one language, or kept as six (checked by a literal in studies.prates).
BENGALI = ("pool", "variants")

OPTIMAL_INTERVALS = _optimal.INTERVALS

RATES_CI = _rates.CI_KINDS

MODELS = _models.MODELS
MODEL_STUDIES = _models.STUDIES

# The frames each study's result may hold, as its Study record declares them (stats_mtbias.studies._study).
FRAMES = {name: study.frames for name, study in _studies.ALL.items()}
