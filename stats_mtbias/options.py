"""The vocabulary of every option of the public functions, in one place.

The command line takes every ``choices=`` from here, so that an option and the
API keyword it maps to accept the same words and a new choice in the library
reaches ``--help`` by itself. Each name is the library's own constant, re-exported
from the module that checks it (this module sits beside :mod:`stats_mtbias.api`,
the front door, and may import the studies; the CLI may not).

:data:`OPTIONS` maps each study to its :class:`Options` class (``TGBIOptions``, …), the one
description of its options: default, choices, help, flag and when each applies. The API
functions validate one before reading a file (:func:`validate`), the command line makes
its flags and "has no effect" rules from it, and :func:`options_table` prints the docs'
table (``docs/options.md``); ``tests/test_options.py`` holds them together.

:data:`FRAMES` names the frames each study's :class:`~stats_mtbias.result.StudyResult`
can hold (``res.frames``): the groups a reader may rely on, as arviz's
``InferenceData`` names its groups.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field
from typing import Any, ClassVar

import numpy as np

from stats_mtbias import _defaults
from stats_mtbias import studies as _studies
from stats_mtbias._options import KINDS, Applies, OptionInfo, Options, option
from stats_mtbias._validation import check_choice, check_level, check_positive_int
from stats_mtbias.alignment import METHODS as ALIGNERS
from stats_mtbias.datasets.counting import ENGINES as COUNTING_ENGINES
from stats_mtbias.datasets.prates import ITEMS as PRATES_ITEMS
from stats_mtbias.errors import NoEffectWarning, UsageError
from stats_mtbias.estimators.optimal import NEUTRAL_RULES
from stats_mtbias.estimators.tgbi import BOTH_RULES
from stats_mtbias.gender.english import RULES as LEXICONS
from stats_mtbias.gender.targets import codes as winomt_languages
from stats_mtbias.models.fit import SAMPLERS
from stats_mtbias.planning.designs import DESIGNS, POWER_FORMULAS
from stats_mtbias.planning.simulate import TESTS as PILOT_TESTS
from stats_mtbias.report.formatting import FORMATS
from stats_mtbias.result import FAMILIES
from stats_mtbias.significance.paired import PAIRED_TESTS as PRATES_TESTS
from stats_mtbias.studies import READERS
from stats_mtbias.studies import models as _models
from stats_mtbias.studies import optimal as _optimal
from stats_mtbias.studies import prates as _prates
from stats_mtbias.studies import rates as _rates
from stats_mtbias.studies import tgbi as _tgbi
from stats_mtbias.studies import winomt as _winomt
from stats_mtbias.uncertainty.analytic import PROPORTION_METHODS

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
    "INTERVALS",
    "KINDS",
    "LEXICONS",
    "MISSING_RULES",
    "MODELS",
    "MODEL_STUDIES",
    "NEUTRAL_RULES",
    "OLD_CI",
    "OPTIMAL_INTERVALS",
    "OPTIONS",
    "PILOT_TESTS",
    "POWER_FORMULAS",
    "PRATES_BY",
    "PRATES_DENOMINATORS",
    "PRATES_INTERVALS",
    "PRATES_ITEMS",
    "PRATES_TESTS",
    "PROPORTION_METHODS",
    "RATES_INTERVALS",
    "READERS",
    "READING_ENGINES",
    "REPEATED_BLOCKS",
    "SAMPLERS",
    "STUDIES",
    "TESTS",
    "TGBI_INTERVALS",
    "TGBI_TESTS",
    "AgreementOptions",
    "Applies",
    "ModelOptions",
    "OptimalOptions",
    "OptionInfo",
    "Options",
    "PratesOptions",
    "RatesOptions",
    "TGBIOptions",
    "WinoMTOptions",
    "option",
    "options_table",
    "validate",
    "winomt_languages",
]

CORRECTIONS = _defaults.CORRECTIONS  # holm, bh, none
ALTERNATIVES = _defaults.ALTERNATIVES  # two-sided, less, greater
# One vocabulary of intervals and one of tests: a name means one method in every study, which accepts a subset of
# them (the choices of its `interval` and `test` fields; tests/test_vocabulary.py holds it).
INTERVALS = tuple(_defaults.INTERVALS)
TESTS = tuple(_defaults.TESTS)
# The bootstrap intervals of WinoMT's F1 and ΔG (the studentized interval needs a variance per replicate).
BOOTSTRAP_INTERVALS = ("percentile", "bca")

# The retired `ci=` of tgbi and rates (0.3.0 removes it): "analytic" is interval="score", "bootstrap" a bootstrap interval.
OLD_CI = _defaults.OLD_CI

TGBI_INTERVALS = _tgbi.INTERVALS  # score (the default), percentile, bca
TGBI_TESTS = _tgbi.TESTS  # the interval's own test, or permutation
REPEATED_BLOCKS = _tgbi.REPEATED_BLOCKS

MISSING_RULES = _winomt.MISSING_RULES
READING_ENGINES = _winomt.READING_ENGINES
# winomt_languages(): the WinoMT targets with a reader, a function (a language is a module, found when asked).

PRATES_INTERVALS = PROPORTION_METHODS  # wilson, jeffreys, clopper-pearson
PRATES_BY = _prates.BY_CHOICES
PRATES_DENOMINATORS = _prates.DENOMINATORS
# Bengali's six variants pooled into one language, or kept as six (checked by a literal in studies.prates).
BENGALI = ("pool", "variants")

OPTIMAL_INTERVALS = _optimal.INTERVALS

RATES_INTERVALS = _rates.INTERVALS  # percentile (the default), bca, score

MODELS = _models.MODELS
MODEL_STUDIES = _models.STUDIES


class _Derived(Mapping):
    """A mapping read from the study registry whenever it is read, so that a study added later is in it."""

    def __init__(self, build: Callable[[], dict]):
        self._build = build

    def __getitem__(self, key):
        return self._build()[key]

    def __iter__(self):
        return iter(self._build())

    def __len__(self) -> int:
        return len(self._build())

    def __repr__(self) -> str:
        return repr(self._build())


# Every study's name (stats_mtbias.studies.STUDIES): the studies a pilot may come from.
STUDIES = _studies.STUDIES
# The frames each study's result may hold, as its Study record declares them (stats_mtbias.studies._study).
FRAMES: Mapping[str, tuple[str, ...]] = _Derived(lambda: {name: study.frames for name, study in _studies.ALL.items()})


# ---------------------------------------------------------------- one Options class per study
#
# Each study's options are written once, as the fields of a frozen dataclass: the default (from
# :mod:`stats_mtbias._defaults` where every study shares it), the choices (the constants above), one
# sentence of help, the command-line flag and the condition under which the option applies. The API
# functions build and validate one (before any file is read), the command line adds its flags and its
# "has no effect" checks from it, and :func:`options_table` renders the docs' table; a contract test
# (tests/test_options.py) checks that the signatures, parsers and pages agree with it.


def _compare(values) -> bool:
    """``--compare`` on the command line; the API always offers ``res.compare()``."""
    return getattr(values, "compare", True)


def _view(values, *names: str) -> bool:
    """``--view`` is one of `names` on the command line; the API builds every frame."""
    view = getattr(values, "view", names[0])
    return view in names


COMPARE = Applies("--compare", _compare)
BOOTSTRAP = Applies("--interval percentile|bca", lambda v: v.interval != "score")


def validate(options: Options) -> None:
    """Check every option of `options` against its field: choices, levels in (0, 1), resamples of at least
    :data:`stats_mtbias._defaults.MIN_BOOT`, integers and flags; warn (``UserWarning``) of a method option
    without effect (``n_permutations`` without ``test="permutation"``; the command line also says it of resample
    counts).

    Raises
    ------
    UsageError
        Naming the option and what it accepts.
    """
    for item in options.info():
        value = getattr(options, item.name)
        if item.kind == "choice":
            if item.name == "family" and not isinstance(value, str):
                _names(value, item.name)  # comparison columns, checked against the comparisons later
            else:
                check_choice(value, item.choices, item.name)
        elif item.kind == "level":
            check_level(value, item.name)
        elif item.kind == "resamples":
            check_positive_int(value, item.name, minimum=_defaults.MIN_BOOT)
        elif item.kind == "count":
            check_positive_int(value, item.name)
        elif item.kind == "flag" and not isinstance(value, (bool, np.bool_)):
            raise UsageError(f"`{item.name}` must be True or False; got {value!r}.")
        elif item.kind in ("column", "text") and value is not None and not isinstance(value, str):
            raise UsageError(f"`{item.name}` must be a string; got {value!r}.")
        elif item.kind in ("columns", "names") and value is not None:
            _names(value, item.name)
    for message in options.ignored(counts=False):
        warnings.warn(message, NoEffectWarning, stacklevel=4)


def _names(value, name: str) -> None:
    if isinstance(value, str):
        return
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise UsageError(f"`{name}` must be a string or a list of strings; got {value!r}.")


def options_table(cls: type[Options]) -> str:
    """The Markdown table of a study's options: option, command-line flag, default, choices, when it applies, help."""

    def cell(text: str) -> str:
        return str(text).replace("|", "\\|").replace("\n", " ")

    def shown(default) -> str:
        if default is MISSING:
            return "required"
        return f"`{default!r}`"

    rows = ["| option | flag | default | choices | applies when | help |", "|---|---|---|---|---|---|"]
    for item in cls.info():
        choices = ", ".join(f"`{c}`" for c in item.choices) if item.choices else ""
        when = "always" if item.applies is None else item.applies.when
        when = f"`{when}`" if when.startswith("--") else when
        flag = f"`{item.flag}`"
        rows.append(
            "| " + " | ".join(cell(x) for x in (f"`{item.name}`", flag, shown(item.default), choices, when, item.help)) + " |"
        )
    return "\n".join(rows)


# The options several studies share, each written once.


def _data_dir() -> dict[str, Any]:
    return option(None, "directory of the public datasets (else $MTBIAS_DATA, else the download cache)", kind="input", cli="own")


def _rng() -> dict[str, Any]:
    return option(_defaults.SEED, "seed of every random number", kind="seed", flag="--seed", dest="seed", cli="own")


def _level() -> dict[str, Any]:
    return option(_defaults.LEVEL, "confidence level of every interval", kind="level")


def _n_boot(help: str = "bootstrap resamples", applies: Applies | None = None) -> dict[str, Any]:
    return option(_defaults.N_BOOT, f"{help}, at least {_defaults.MIN_BOOT}", kind="resamples", applies=applies)


def _correction(applies: Applies = COMPARE) -> dict[str, Any]:
    return option(
        _defaults.CORRECTION,
        "multiplicity adjustment of p_adjusted within each family",
        kind="choice",
        choices=CORRECTIONS,
        applies=applies,
    )


def _family() -> dict[str, Any]:
    return option(
        "metric",
        "the comparisons adjusted together: the system pairs of one language × subset × metric (metric) or all of them "
        "(all); the API also takes a list of comparison columns",
        kind="choice",
        choices=FAMILIES,
        applies=COMPARE,
    )


def _against() -> dict[str, Any]:
    return option(
        None,
        "compare these systems (yours) with every other system (the baselines) instead of all pairs",
        kind="names",
        applies=COMPARE,
        metavar="A,B",
    )


def _items(named: str = "") -> dict[str, Any]:
    return option(
        None,
        "restrict the study to these items: ids (a list, or comma-separated), a file of them (one a line, or a CSV with "
        f"an 'item' column){named}; the rows left out are counted in the accounting",
        kind="input",
        metavar="IDS|FILE|NAME",
    )


def _engine(choices: tuple[str, ...], help: str) -> dict[str, Any]:
    return option("auto", help, kind="choice", choices=choices, cli="own")


def _input(help: str) -> dict[str, Any]:
    return option(None, help, kind="input", cli="own", metavar="FILE")


def _permutations(values) -> bool:
    return _compare(values) and values.test == "permutation"


@dataclass(frozen=True)
class TGBIOptions(Options):
    """The options of :func:`stats_mtbias.tgbi` and ``stats-mtbias tgbi``."""

    STUDY: ClassVar[str] = "tgbi"

    systems: Any = field(
        **option(
            None,
            "shipped systems, comma-separated (default google,papago,kakao, none with --outputs; '' for none)",
            kind="input",
            cli="own",
            positional=True,
        )
    )
    translations: Any = field(
        **_input("your own outputs: a directory of total_<system>_<set>.txt files or a CSV item,set,translation")
    )
    outputs: Any = field(**_input("a benchmark of your own: system,set,item,translation or system,set,item,gender"))
    sample: str | None = field(
        **option(
            None,
            "column of --outputs numbering several outputs of one item (an LLM sampled k times): they stay in their "
            "item's cluster",
            kind="column",
            applies=Applies("--outputs", lambda v: v.outputs is not None),
            metavar="COL",
        )
    )
    referent: str | None = field(
        **option(
            None,
            "column of --outputs with reference translations in which the asked-about words are in [brackets] "
            "(two people in a sentence): the output's words aligned to them are read, a dropped referent is unknown",
            kind="column",
            applies=Applies("--outputs", lambda v: v.outputs is not None),
            metavar="COL",
        )
    )
    data_dir: Any = field(**_data_dir())
    lexicon: str = field(**option("default", "gender cue rule", kind="choice", choices=LEXICONS))
    repeated_blocks: str = field(
        **option(
            "exclude",
            "copy-paste runs repeating other items' outputs: unknown in the shipped files (exclude, the default; yours kept "
            "with a warning), also in yours (all), or kept everywhere as the authors did (keep)",
            kind="choice",
            choices=REPEATED_BLOCKS,
        )
    )
    n_boot: int = field(**_n_boot(applies=Applies(BOOTSTRAP.when, lambda v: BOOTSTRAP.test(v) or _permutations(v))))
    n_permutations: int = field(
        **option(
            _defaults.N_PERMUTATIONS,
            f"permutations of --test permutation, at least {_defaults.MIN_BOOT}",
            kind="resamples",
            applies=Applies("--compare --test permutation", _permutations),
        )
    )
    rng: Any = field(**_rng())
    level: float = field(**_level())
    interval: str = field(
        **option(
            "score",
            "score intervals on g with MOVER (score), or the cluster bootstrap's percentile or BCa interval",
            kind="choice",
            choices=TGBI_INTERVALS,
        )
    )
    test: str = field(
        **option(
            "interval",
            "p-values of the comparisons: the interval's own method (interval), or approximate randomisation",
            kind="choice",
            choices=TGBI_TESTS,
            applies=COMPARE,
        )
    )
    both: str = field(
        **option("neutral", "outputs showing both genders count as neutral, or are left out", kind="choice", choices=BOTH_RULES)
    )
    correction: str = field(**_correction())
    family: Any = field(**_family())
    against: Any = field(**_against())
    items: Any = field(**_items())


@dataclass(frozen=True)
class WinoMTOptions(Options):
    """The options of :func:`stats_mtbias.winomt` and ``stats-mtbias winomt``."""

    STUDY: ClassVar[str] = "winomt"

    systems: Any = field(
        **option(
            None,
            "shipped systems, comma-separated (default: all five, or none with your own data)",
            kind="input",
            cli="own",
            positional=True,
        )
    )
    translations: Any = field(
        **_input("your own outputs: an en-XX.txt file of 'source ||| translation' lines, or a directory of them")
    )
    judgements: Any = field(**_input("your own readings instead: item,system,language,gender (any language code)"))
    languages: Any = field(
        **option(None, "target languages (default: every one with a reader, or your files')", kind="names", cli="own")
    )
    data_dir: Any = field(**_data_dir())
    aligner: str = field(
        **option(
            "fastalign",
            "word aligner",
            kind="choice",
            choices=ALIGNERS,
            applies=Applies("with --judgements (nothing is read here)", lambda v: v.judgements is None),
        )
    )
    use_pronoun: bool = field(
        **option(
            False,
            "de/fr: let the translated pronoun override the entity's words (as the annotators read)",
            kind="flag",
            applies=Applies("with --judgements (nothing is read here)", lambda v: v.judgements is None),
        )
    )
    adjectives: bool = field(
        **option(
            True,
            "also the '+Adj' transitions where shipped '+Adj' files exist",
            kind="flag",
            flag="--no-adjectives",
            dest="no_adjectives",
            cli="own",
        )
    )
    corrected: bool = field(
        **option(
            False, "also Acc corrected for misreading, from each language's human-labelled sample (view corrected)", kind="flag"
        )
    )
    annotations: Any = field(
        **_input(
            "your human labels: item,system,language,gender[,annotator]: agreement with the reading, between annotators, and "
            "Acc corrected with them"
        )
    )
    explain: bool = field(
        **option(False, "also list the items whose entity came out unknown: the words read and why (view unread)", kind="flag")
    )
    n_boot: int = field(**_n_boot("bootstrap resamples of the F1 and ΔG intervals"))
    n_draws: int = field(
        **option(
            _defaults.N_DRAWS,
            f"Monte-Carlo draws of the corrected Acc's interval, at least {_defaults.MIN_BOOT}",
            kind="resamples",
            applies=Applies(
                "--corrected, --annotations or --view corrected",
                lambda v: bool(v.corrected) or v.annotations is not None or getattr(v, "view", None) == "corrected",
            ),
        )
    )
    rng: Any = field(**_rng())
    level: float = field(**_level())
    interval: str = field(**option("percentile", "bootstrap interval of F1 and ΔG", kind="choice", choices=BOOTSTRAP_INTERVALS))
    correction: str = field(**_correction())
    family: Any = field(**_family())
    against: Any = field(**_against())
    missing: str = field(
        **option(
            "shared",
            "items a system did not translate: analyse each language on the items every system translated (shared), or "
            "count them as wrong (wrong, the paper's rule)",
            kind="choice",
            choices=MISSING_RULES,
        )
    )
    validate: bool = field(
        **option(
            False, "also the agreement of the automatic reading with the shipped human labels (view validation)", kind="flag"
        )
    )
    engine: str = field(
        **_engine(
            READING_ENGINES,
            "where translations not yet cached are read, a language a task: processes here (auto) or the Dask scheduler",
        )
    )
    sample: str | None = field(
        **option(
            None,
            "column of --judgements telling several outputs of an item apart (an LLM sampled k times): an item's samples "
            "are averaged, items stay the unit",
            kind="column",
            applies=Applies("--judgements", lambda v: v.judgements is not None),
            metavar="COL",
        )
    )
    items: Any = field(**_items(", or gendered (without the neutral-gold items: someone, child, victim, …) or all"))


@dataclass(frozen=True)
class PratesOptions(Options):
    """The options of :func:`stats_mtbias.prates` and ``stats-mtbias prates``."""

    STUDY: ClassVar[str] = "prates"

    judgements: Any = field(
        **option(
            None,
            "your own judgements: item,language,gender (or item,language,translation), optional system, category, "
            "variant (default: the authors' Google Translate judgements)",
            kind="input",
            cli="own",
            metavar="FILE",
            positional=True,
        )
    )
    data_dir: Any = field(**_data_dir())
    items: Any = field(
        **option(
            "jobs",
            "the shipped item set (jobs: occupations, or adjectives), or the occupations to keep: a list of them "
            "(comma-separated) or a file of them (one a line, or a CSV with an 'item' column); the rows left out are "
            "counted in the accounting",
            kind="input",
            metavar="jobs|adjectives|IDS|FILE",
        )
    )
    languages: Any = field(**option(None, "languages to keep (default: all)", kind="names", cli="own"))
    reference: Any = field(
        **option(
            None,
            "the reference shares of the reference and calibration frames: the shipped BLS table, or a BLS-format table of yours",
            kind="input",
            cli="own",
            metavar="bls|FILE",
        )
    )
    bengali: str = field(**option("pool", "Bengali's six variants as one language or six", kind="choice", choices=BENGALI))
    by: str = field(
        **option("language", "the rows: per language, per category or both", kind="choice", choices=PRATES_BY, metavar="BY")
    )
    denominator: str = field(
        **option(
            "identified",
            "shares of identified outputs, or of all rows as the authors did",
            kind="choice",
            choices=PRATES_DENOMINATORS,
        )
    )
    interval: str = field(**option("wilson", "interval of a share", kind="choice", choices=PRATES_INTERVALS))
    test: str = field(
        **option(
            "exact",
            "one-sided paired test of male > female: exact sign test, or the authors' paired t-test",
            kind="choice",
            choices=PRATES_TESTS,
        )
    )
    alpha: float = field(
        **option(
            _defaults.ALPHA,
            "significance level of the tests' 'significant' flag",
            kind="level",
            applies=Applies("--view tests", lambda v: _view(v, "tests")),
        )
    )
    n_boot: int = field(
        **_n_boot(
            "bootstrap resamples of the comparisons between systems",
            Applies("--compare (the comparisons between systems; the rates and tests are exact or analytic)", _compare),
        )
    )
    n_draws: int = field(
        **option(
            _defaults.N_DRAWS,
            f"Monte-Carlo tables of the exact tests of independence (view independence), at least {_defaults.MIN_BOOT}",
            kind="resamples",
            applies=Applies("--view independence", lambda v: _view(v, "independence")),
        )
    )
    rng: Any = field(**_rng())
    level: float = field(**_level())
    correction: str = field(
        **option(
            _defaults.CORRECTION,
            "multiplicity adjustment of p_adjusted within each family (comparisons and the tests)",
            kind="choice",
            choices=CORRECTIONS,
        )
    )
    family: Any = field(**_family())
    against: Any = field(**_against())
    pool: bool = field(
        **option(False, "pool the systems of the judgements into one (named a+b+…) instead of a row each", kind="flag")
    )
    sample: str | None = field(
        **option(
            None,
            "column of --judgements telling several samples of one output apart (an LLM sampled k times): an item's shares "
            "are the means over its samples, items stay the unit of every test and interval",
            kind="column",
            applies=Applies("--judgements", lambda v: v.judgements is not None),
            metavar="COL",
        )
    )
    referent: str | None = field(
        **option(
            None,
            "column of --judgements with reference translations in which the asked-about words are in [brackets] "
            "(two people in a sentence): the output's words aligned to them are read, a dropped referent is unknown",
            kind="column",
            applies=Applies("--judgements", lambda v: v.judgements is not None),
            metavar="COL",
        )
    )


@dataclass(frozen=True)
class OptimalOptions(Options):
    """The options of :func:`stats_mtbias.optimal` and ``stats-mtbias optimal``."""

    STUDY: ClassVar[str] = "optimal"

    judgements: Any = field(
        **option(
            None,
            "your judgements occupation,gender[,system,language,category] (default: the twelve Prates languages)",
            kind="input",
            cli="own",
            metavar="FILE",
            positional=True,
        )
    )
    reference: Any = field(
        **option(
            "bls",
            "built-in BLS shares, or a table occupation,female_share[,weight,category,sector] (or n_female,n_total, or survey "
            "answers answer_1..answer_6)",
            kind="input",
            cli="own",
            metavar="bls|FILE",
        )
    )
    data_dir: Any = field(**_data_dir())
    languages: Any = field(**option(None, "Prates languages (default: all twelve)", kind="names", cli="own"))
    neutral: str = field(
        **option(
            "unbiased", "neutral/both outputs count as unbiased (E_t = E_0) or are left out", kind="choice", choices=NEUTRAL_RULES
        )
    )
    interval: str = field(
        **option(
            "gamma",
            "interval of category and sector B: Fay-Feuer gamma, bootstrap-t (studentized) or percentile",
            kind="choice",
            choices=OPTIMAL_INTERVALS,
        )
    )
    n_boot: int = field(
        **_n_boot(
            "bootstrap resamples (the bootstrap intervals and the headline shares)",
        )
    )
    rng: Any = field(**_rng())
    level: float = field(**_level())
    engine: str = field(**_engine(COUNTING_ENGINES, "count the judgements here with Arrow (auto) or on a Dask cluster (dask)"))
    sample: str | None = field(
        **option(
            None,
            "column of --judgements telling an occupation's samples apart (an LLM sampled k times): its counts are the means "
            "over its samples, every occupation weighs one",
            kind="column",
            metavar="COL",
        )
    )
    items: Any = field(**_items(" (the occupations)"))


@dataclass(frozen=True)
class RatesOptions(Options):
    """The options of :func:`stats_mtbias.rates` and ``stats-mtbias rates``."""

    STUDY: ClassVar[str] = "rates"

    judgements: Any = field(
        **option(
            help="your judgements: CSV, Parquet or Arrow, a directory or a glob of them, or a (dask) DataFrame",
            kind="input",
            cli="own",
            metavar="FILE",
            positional=True,
        )
    )
    outcome: str = field(
        **option(
            "gender",
            "column of the gender found: female, male, neutral, both, unknown (or f/m/n/?)",
            kind="text",
            metavar="COL",
        )
    )
    by: Any = field(
        **option(
            (),
            "grouping columns, comma-separated (subsets, languages, occupations); a column called language is the table's "
            "language; an 'all' group is added",
            kind="columns",
            metavar="COLS",
        )
    )
    system: str | None = field(
        **option(
            "system",
            "column naming the system ('' for one system)",
            kind="column",
            flag="--system-column",  # elsewhere --system names a system
            metavar="COL",
        )
    )
    cluster: str | None = field(
        **option(
            "item",
            "column of the resampling unit (prompt, template): its judgements are resampled together ('' for every row its own)",
            kind="column",
            metavar="COL",
        )
    )
    strata: str | None = field(
        **option(None, "column of fixed-size strata the clusters are resampled within", kind="column", metavar="COL")
    )
    n_boot: int = field(**_n_boot(applies=BOOTSTRAP))
    rng: Any = field(**_rng())
    level: float = field(**_level())
    interval: str = field(
        **option(
            "percentile",
            "the cluster bootstrap's percentile or BCa interval, or score intervals (Wilson on the effective sample size)",
            kind="choice",
            choices=RATES_INTERVALS,
        )
    )
    correction: str = field(
        **_correction(Applies("--compare or --view group_differences", lambda v: _compare(v) or _view(v, "group_differences")))
    )
    family: Any = field(**_family())
    against: Any = field(**_against())
    engine: str = field(**_engine(COUNTING_ENGINES, "count the judgements here with Arrow (auto) or on a Dask cluster (dask)"))
    sample: str | None = field(
        **option(
            None,
            "column telling several outputs of a cluster apart (an LLM sampled k times): each cluster's known "
            "samples are averaged (an unknown one counts as absent), clusters stay the unit; --view consistency: "
            "how the samples agree",
            kind="column",
            metavar="COL",
        )
    )
    gold: str | None = field(
        **option(
            None,
            "column of the gender each output should have (female, male, neutral): adds accuracy, accuracy_female, "
            "accuracy_male and accuracy_gap (male − female)",
            kind="column",
            metavar="COL",
        )
    )
    labels: str | None = field(
        **option(
            None,
            "column of people's labels of a random subset of the rows (empty elsewhere): every share, gap and "
            "accuracy and the systems' differences are corrected for the judge's errors (prediction-powered "
            "inference, PPI++), beside the judge's figure and its agreement with the labels",
            kind="column",
            metavar="COL",
        )
    )
    items: Any = field(**_items(" (ids of the cluster column)"))


@dataclass(frozen=True)
class AgreementOptions(Options):
    """The options of :func:`stats_mtbias.agreement` and ``stats-mtbias agreement``."""

    STUDY: ClassVar[str] = "agreement"

    labels: Any = field(
        **option(
            help="one row per labelled unit: CSV, Parquet or Arrow, or a DataFrame",
            kind="input",
            cli="own",
            metavar="FILE",
            positional=True,
        )
    )
    a: str = field(**option(help="the first label column (e.g. human)", kind="text", metavar="COL"))
    b: str = field(**option(help="the second label column (e.g. llm)", kind="text", metavar="COL"))
    by: Any = field(
        **option(
            (),
            "grouping columns, comma-separated (language, system, …): a row per group and one over all; system and "
            "language are the table's own columns",
            kind="columns",
            metavar="COLS",
        )
    )
    mapping: Any = field(
        **option(
            None,
            "labels rewritten before comparing, in both columns: 'error=unknown,b=both', or a JSON or CSV file of them",
            kind="input",
            cli="own",
            metavar="FILE|K=V,…",
        )
    )
    level: float = field(**_level())
    items: Any = field(**_items(" (ids of an item column)"))


@dataclass(frozen=True)
class ModelOptions(Options):
    """The options of :func:`stats_mtbias.model` and ``stats-mtbias model``."""

    STUDY: ClassVar[str] = "model"

    study: str = field(**option(help="the study whose model is fitted", kind="choice", choices=MODEL_STUDIES, positional=True))
    model: str = field(**option("rate", "rate, or calibration: Prates against BLS", kind="choice", choices=MODELS))
    data_dir: Any = field(**_data_dir())
    languages: Any = field(**option(None, "Prates languages (default: all)", kind="names", cli="own"))
    sampler: str = field(**option("nutpie", "the NUTS implementation", kind="choice", choices=SAMPLERS))
    draws: int = field(**option(2000, "draws per chain", kind="count"))
    tune: int = field(**option(400, "tuning steps per chain", kind="count"))
    chains: int = field(**option(2, "chains", kind="count"))
    rng: Any = field(**_rng())
    level: float = field(**option(_defaults.LEVEL, "probability of the highest-density intervals", kind="level"))
    cache: bool = field(
        **option(
            True,
            "read a fit from the cache when its data, options, seed and code are the same",
            kind="flag",
            flag="--no-cache",
            dest="no_cache",
            cli="own",
        )
    )


_SHIPPED = {
    cls.STUDY: cls
    for cls in (TGBIOptions, WinoMTOptions, PratesOptions, OptimalOptions, RatesOptions, AgreementOptions, ModelOptions)
}


def _options() -> dict[str, type[Options]]:
    added = {name: study.options for name, study in _studies.ALL.items() if study.options is not None}
    return {**_SHIPPED, **{name: cls for name, cls in added.items() if name not in _SHIPPED}}


OPTIONS: Mapping[str, type[Options]] = _Derived(_options)
"""Each study's Options class: the shipped ones above, and a study's own (its record's ``options``)."""
