"""The public API: one function per study, one result type, the user's own systems everywhere.

Every function takes the shipped systems *and* a user's own outputs (paths or
DataFrames) in one call, a keyword-only ``rng`` (an integer seed or a
:class:`numpy.random.Generator`) and returns a :class:`~stats_mtbias.result.StudyResult`:

- ``res.table``: tidy estimates, one row per system × language × subset × metric,
  shares in [0, 1], ``ci_low``/``ci_high`` at ``level``;
- ``res.compare()``: paired differences between every two systems, ``p_adjusted``
  under one correction over all rows;
- ``res.provenance``: inputs with sha256 (the user's too), method, resamples, seed, versions;
- ``res.frames``: the study's own tables (accounting of every input row, tests, …).

The CLI (``stats-mtbias``) and the report are clients of these functions; each
study's wiring lives once, in :mod:`stats_mtbias.studies`.

Examples
--------
>>> import stats_mtbias as smb
>>> res = smb.tgbi(systems=["google", "papago"], n_boot=500, rng=0)
>>> print(res.table.query("subset == 'TGBI'")[["system", "estimate"]].round(3).to_string(index=False))
system  estimate
google     0.300
papago     0.238
>>> cmp = res.compare()
>>> print(cmp.loc[cmp["subset"] == "TGBI", ["system_a", "system_b", "diff"]].round(3).to_string(index=False))
system_a system_b  diff
  google   papago 0.062
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING
from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice
from stats_mtbias.errors import UsageError, needs_extras
from stats_mtbias.provenance import Signature
from stats_mtbias.result import StudyResult, your_systems
from stats_mtbias.significance.equivalence import check_margin
from stats_mtbias.studies import ALL, READERS, STUDIES
from stats_mtbias.studies._common import comparison_frame


def _translations(translations) -> dict:
    if translations is None:
        return {}
    if not isinstance(translations, Mapping):
        raise UsageError("`translations` must map a system name to a path or a DataFrame, e.g. {'mine': 'outputs.csv'}.")
    return dict(translations)


def _systems(systems) -> list[str] | None:
    if systems is None:
        return None
    if isinstance(systems, str):
        systems = [systems]
    systems = [str(s) for s in systems]
    if len(set(systems)) != len(systems):
        dup = sorted({s for s in systems if systems.count(s) > 1})
        raise UsageError(f"`systems` names {', '.join(dup)} more than once.")
    return systems


def _checked(study: str, values: dict):
    """The study's :class:`~stats_mtbias.options.Options` built from the API call's keywords and validated
    (choices, levels, resamples, options without effect) before any file is read."""
    from stats_mtbias import options  # import time: options imports every study

    cls = options.OPTIONS[study]
    found = cls(**{item.name: values[item.name] for item in cls.info()})
    options.validate(found)
    return found


# The old spellings of the test options, kept for one release (0.3.0 removes them; `ci=`: options.OLD_CI).
OLD_TESTS = {"tgbi": {"bootstrap": "interval"}}  # tgbi's test="bootstrap" was the interval's own test


def _upgraded(study: str, keywords: dict) -> dict:
    """`keywords` in the package's one vocabulary: ``ci="analytic"`` → ``interval="score"``, ``ci="bootstrap"`` →
    the bootstrap `interval` given (default percentile), TGBI's ``test="bootstrap"`` → ``test="interval"``; each old
    spelling said once, as a FutureWarning naming the new one."""
    keywords = dict(keywords)
    said = []
    if "ci" in keywords:
        ci = check_choice(keywords.pop("ci"), _defaults.OLD_CI, "ci")
        interval = keywords.get("interval")
        if ci == "analytic":
            new = "score"
            ignored = f" (interval={interval!r} had no effect with it)" if interval not in (None, "percentile", "score") else ""
        else:
            if interval == "score":
                raise UsageError("`ci='bootstrap'` and `interval='score'` disagree: give `interval` alone.")
            new, ignored = interval or "percentile", ""
        keywords["interval"] = new
        said.append(f"`ci={ci!r}` is deprecated: use `interval={new!r}`{ignored}")
    old = OLD_TESTS.get(study, {}).get(keywords.get("test"))
    if old is not None:
        said.append(f"`test={keywords['test']!r}` is deprecated: use `test={old!r}` (the interval's own test)")
        keywords["test"] = old
    for message in said:
        warnings.warn(f"smb.{study}: {message} (see CHANGELOG.md).", FutureWarning, stacklevel=3)
    return keywords


def _old_spellings(function):
    """Let `function` (an API study) take the old spellings of :func:`_upgraded`; its signature stays the new one."""

    @functools.wraps(function)
    def call(*args, **keywords):
        return function(*args, **_upgraded(function.__name__, keywords))

    return call


# The options that choose a study's interval method, in the order the signature's ``ci`` names them (``ci`` picks
# analytic or bootstrap where a study has both, ``interval`` the kind): read by name from whichever the study has.
INTERVAL_OPTIONS = ("ci", "interval")


def _is_default(value, default) -> bool:
    if isinstance(value, (list, tuple)) and isinstance(default, (list, tuple)):
        return tuple(value) == tuple(default)
    try:
        return value is default or bool(value == default)
    except (TypeError, ValueError):  # a frame or an array: never the default
        return False


def _names_only(value) -> bool:
    return isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)


def _signed(result: StudyResult, options) -> StudyResult:
    """`result` with ``provenance["signature"]``: its :class:`~stats_mtbias.provenance.Signature` from the call's
    `options` (each that has an effect and is set away from its default; inputs by their digests, but a list of
    shipped system names as it is) and the provenance's resamples, seed, level and inputs."""
    ci, names, chosen = [], [], {}
    for item in options.info():
        value = getattr(options, item.name)
        if (item.positional and not _names_only(value)) or item.kind == "seed" or item.name in ("n_boot", "level"):
            continue  # the input is in `inputs`; the seed, resamples and level come from the provenance
        if item.applies is not None and not item.applies.test(options):
            continue
        if item.name in INTERVAL_OPTIONS:
            if value is not None:
                ci.append(str(value))
                names.append(item.name)
        elif (item.kind != "input" or _names_only(value)) and not _is_default(value, item.default):
            chosen[item.name] = list(value) if isinstance(value, tuple) else value
    metrics = list(dict.fromkeys(result.table["metric"].astype(str))) if "metric" in result.table else []
    signature = Signature.of(result.study, result.provenance, metrics=metrics, ci=ci, interval_options=names, options=chosen)
    object.__setattr__(result, "provenance", {**result.provenance, "signature": signature.format()})
    return result


def parse_signature(signature: str) -> Signature:
    """A result's signature (``res.signature``) read back, its options typed, so that the result can be made again.

    Parameters
    ----------
    signature : str
        The line, e.g. from a paper's table caption or an output's ``provenance.json``.

    Returns
    -------
    Signature
        ``study``, ``version``, ``metrics``, ``ci``, ``n_boot``, ``seed``, ``level``, ``options`` (typed by the
        study's options), ``inputs`` (sha256 prefixes to check your files against); ``kwargs()`` gives the keywords
        of ``smb.<study>`` that make the result again from the same inputs.

    Raises
    ------
    UsageError
        When the line is not a signature, names an unknown study or an option the study does not have.

    Examples
    --------
    >>> import pandas as pd, stats_mtbias as smb
    >>> frame = pd.DataFrame({"item": [1, 1, 2, 2], "system": ["a", "b"] * 2, "gender": ["male", "female"] * 2})
    >>> res = smb.rates(frame, interval="score", correction="bh")
    >>> sig = smb.parse_signature(res.signature)
    >>> sig.study, sig.kwargs()
    ('rates', {'interval': 'score', 'correction': 'bh', 'rng': 0, 'level': 0.95})
    >>> smb.rates(frame, **sig.kwargs()).signature == res.signature
    True
    """
    from stats_mtbias import options as vocabulary  # import time: options imports every study

    try:
        found = Signature.parse(signature)
    except ValueError as exc:
        raise UsageError(f"parse_signature: {exc}.") from None
    cls = vocabulary.OPTIONS.get(found.study.partition("/")[0])  # "model/prates": a model of the prates study
    if cls is None:
        raise UsageError(f"parse_signature: unknown study {found.study!r}; studies: {', '.join(vocabulary.OPTIONS)}.")
    info = {item.name: item for item in cls.info()}
    unknown = [name for name in found.options if name not in info]
    if unknown:
        raise UsageError(
            f"parse_signature: {found.study} has no option {', '.join(map(repr, unknown))} (a signature of another "
            f"version, {found.version}?)."
        )
    interval = [info[name] for name in INTERVAL_OPTIONS if name in info]
    names = []
    for value in found.ci:  # each value to the first interval option that accepts it
        owner = next((item for item in interval if item.choices is None or value in item.choices), None)
        if owner is None:
            raise UsageError(f"parse_signature: {found.study} has no interval {value!r}.")
        interval.remove(owner)
        names.append(owner.name)
    typed = {name: _typed(info[name], value) for name, value in found.options.items()}
    return dataclasses.replace(found, options=typed, interval_options=tuple(names))


def _typed(item, value):
    """A signature's text of one option as the option's kind takes it."""
    if value is None:
        return None
    if item.kind in ("columns", "names") or (item.kind == "input" and item.name == "systems"):
        return ([value] if value else []) if isinstance(value, str) else list(value)
    if isinstance(value, list):
        return value  # e.g. a family of comparison columns
    if item.kind == "flag":
        return value == "yes"
    if item.kind in ("resamples", "count"):
        return int(value)
    if item.kind == "level":
        return float(value)
    return value


def _compare_frame(frame: pd.DataFrame | None, **defaults) -> pd.DataFrame | None:
    if frame is None or not len(frame):
        return None
    out = frame.copy()
    if "ci_method" not in out:  # the interval comes from the p-value's own method (rates, prates, optimal)
        out["ci_method"] = out["method"]
    return comparison_frame(out, **defaults)


# ---------------------------------------------------------------- TGBI


@_old_spellings
@needs_extras()
def tgbi(
    systems: Sequence[str] | None = None,
    *,
    translations: Mapping | None = None,
    outputs=None,
    sample: str | None = None,
    referent: str | None = None,
    data_dir: str | Path | None = None,
    lexicon: str = "default",
    repeated_blocks: str = "exclude",
    n_boot: int = _defaults.N_BOOT,
    n_permutations: int = _defaults.N_PERMUTATIONS,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    interval: str = "score",
    test: str = "interval",
    both: str = "neutral",
    correction: str = _defaults.CORRECTION,
    family: str | Sequence[str] = "metric",
    against: Sequence[str] | None = None,
    items=None,
) -> StudyResult:
    """TGBI (Cho et al. 2019): P_S per Korean sentence set and the index, per system.

    Parameters
    ----------
    systems : list of str, optional
        Shipped systems (``google``, ``papago``, ``kakao``); default all three,
        ``[]`` for none.
    translations : dict, optional
        ``{name: path or DataFrame}`` of your own systems' English outputs: a CSV
        (or frame) with columns ``item, set, translation`` (``item`` the 1-based
        line of the set's source file, ``set`` one of ``informal, formal,
        impolite, polite, negative, positive, occupation``), or a directory of
        ``total_<system>_<set>.txt`` files laid out like the authors'.
    outputs : path or DataFrame, optional
        **A benchmark of your own**, any sentence sets and any source language:
        ``system, set, item, translation`` (English outputs, read by the package's
        cues) or ``system, set, item, gender`` (already read); optional ``language``,
        ``stratum``. ``item`` names the lexicon entry, the resampling cluster (one
        entry may appear in several sets, as in Cho et al.). CSV, Parquet or a frame.
        P_S per system and set, the index (the unweighted mean of your sets) and
        paired comparisons, as for the shipped data; not mixed with the shipped
        systems (``systems`` defaults to none).
    sample : str, optional
        The column of ``outputs`` numbering several outputs of one item (an LLM
        sampled k times): they stay in their item's cluster, and an item's shares
        are the means over its known samples (an unknown sample counts as
        absent; every item weighs the same). ``n_outputs`` and ``n_unknown`` count
        outputs. Adds ``frames["consistency"]``.
    referent : str, optional
        The column of ``outputs`` holding a reference translation per output with the
        asked-about word(s) in square brackets ("The king and the queen were walking,
        [one] tripped."): the reader then reads the gender the output gives the
        words aligned to the bracketed ones, not the first cue anywhere, and a
        referent the output dropped is unknown (``referent_dropped``). Without it
        the reader assumes one person per sentence.
    data_dir : path, optional
        The public datasets (else ``$MTBIAS_DATA``, else the download cache).
    lexicon : {"default", "cho2019"}
        The gender reader of English outputs (the authors' cue lists as an option).
    repeated_blocks : {"exclude", "all", "keep"}
        Copy-paste defects (runs of lines repeating other items' outputs): counted as
        unknown in the shipped files the rule was made for (``"exclude"``), also in
        your outputs (``"all"``; by default yours are kept, with a warning naming the
        lines), or kept everywhere as the authors did (``"keep"``).
    n_boot : int
        Bootstrap resamples (a bootstrap ``interval``).
    n_permutations : int
        Permutations of the approximate randomisation test (``test="permutation"``).
    rng : int or Generator
        Source of every random number (keyword-only).
    level : float
        Confidence level of every interval.
    interval : {"score", "percentile", "bca"}
        ``"score"`` (default): a set's P_S gets the square root of a score
        interval on g = P_S² (never a point; it keeps its coverage near 0 and 1),
        the index and the differences MOVER intervals from the sets'. Or the
        cluster bootstrap over lexicon items, its percentile or BCa interval
        (sets with ten or fewer effective minority outputs keep the score
        interval: ``ci_method`` says which). The names are the package's one
        vocabulary (:data:`stats_mtbias.options.INTERVALS`); ``ci="analytic"``
        (now ``interval="score"``) and ``ci="bootstrap"`` are deprecated.
    test : {"interval", "permutation"}
        p-values of the comparisons: the interval's own method (``"interval"``;
        with the score interval a cluster-robust t-test of g for a set, MOVER's
        for the index; else the paired bootstrap), or ``"permutation"``:
        approximate randomisation, exact in size, for sets of fewer than 30
        items. ``"bootstrap"`` is the deprecated name of ``"interval"``.
    both : {"neutral", "exclude"}
        Outputs showing both genders count as neutral, or are left out.
    correction : {"holm", "bh", "none"}
        Multiplicity adjustment of ``p_adjusted`` within each family.
    family : {"metric", "all"} or list of str
        The comparisons adjusted together: the system pairs of one set (default),
        every comparison (``"all"``), or comparison columns.
    against : list of str, optional
        Compare these systems (yours) with every other system (the baselines)
        instead of every pair.
    items : list, str or path, optional
        Restrict the study to these items: a list of item ids, ids separated by commas, or a file of them (one a
        line, or a CSV with an ``item`` column); an id the benchmark has not is an error naming it. The rows left
        out are counted in ``frames["accounting"]``; ``provenance["items"]`` records the set (TGBI's sentence
        sets are its ``subset`` rows already).
    Returns
    -------
    StudyResult
        ``table`` metrics: ``p_s`` (Cho et al.'s P_S, per set and ``TGBI``), ``female``,
        ``male``, ``neutral`` (shares per set, no interval); ``compare()`` on ``p_s``.
    """
    options = _checked("tgbi", locals())
    from stats_mtbias.studies import tgbi as study  # import time: a study loads on first use

    return _signed(study.evaluate(systems, **options.kwargs()), options)


# ---------------------------------------------------------------- WinoMT


@needs_extras()
def winomt(
    systems: Sequence[str] | None = None,
    *,
    translations: Mapping | None = None,
    judgements=None,
    languages: Sequence[str] | None = None,
    data_dir: str | Path | None = None,
    aligner: str = "fastalign",
    use_pronoun: bool = False,
    adjectives: bool = True,
    corrected: bool = False,
    annotations=None,
    explain: bool = False,
    n_boot: int = _defaults.N_BOOT,
    n_draws: int = _defaults.N_DRAWS,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    interval: str = "percentile",
    correction: str = _defaults.CORRECTION,
    family: str | Sequence[str] = "metric",
    against: Sequence[str] | None = None,
    missing: str = "shared",
    validate: bool = False,
    engine: str = "auto",
    sample: str | None = None,
    items=None,
) -> StudyResult:
    """WinoMT (Stanovsky et al. 2019): Acc, F1, ΔG, ΔS per system and target language.

    Parameters
    ----------
    systems : list of str, optional
        Shipped systems (``google, bing, aws, systran, sota``); default all of them
        when no user data is given, else none.
    translations : dict, optional
        ``{name: path or DataFrame}`` of your own translations of WinoMT: a
        ``source ||| translation`` file named ``en-XX.txt`` (XX the target
        language), a directory of such files (every language it covers), a
        mapping ``{language: file or DataFrame}``, or a DataFrame with columns
        ``source, translation`` (and ``language``). Lines are matched to the items
        by source sentence; a file with no WinoMT item is refused. Items a file
        does not translate follow ``missing``.
    judgements : path or DataFrame, optional
        Your own readings instead: ``item, system, language, gender`` (``item`` the
        0-based line of ``en.txt``).
    languages : list of str, optional
        Target languages (default: every one with a reader, or those your files cover).
    data_dir : path, optional
        The public datasets (else ``$MTBIAS_DATA``, else the download cache).
    aligner : {"fastalign", "eflomal"}
        Word aligner.
    use_pronoun : bool
        Read the translated pronoun where it is gendered (German, French) instead
        of the entity's own words (the annotators' reading; inflates Acc).
    adjectives : bool
        Also the "+Adj" transitions where shipped "+Adj" files exist.
    corrected : bool
        Also Acc corrected for misreading from the shipped human labels, each
        system only with labels of its own translations (the others are listed
        with ``acc_corrected`` NaN and the reason in ``labels``).
    annotations : path or DataFrame, optional
        Your own human labels of your systems' translations: CSV ``item, system,
        language, gender`` (``item`` 0-based, ``gender`` M/F/N) and optionally
        ``annotator``. Gives ``frames["annotations"]`` (agreement of the automatic
        reading with each annotator: Wilson interval, Cohen's κ with its interval),
        ``frames["annotators"]`` (agreement between annotators on the items both
        labelled) and ``frames["corrected"]`` for the labelled systems (the
        annotators' majority label per item taken as the truth; the labels must
        record the entity's own gender, as the metric does).
    explain : bool
        Also ``frames["unread"]``: every item whose entity came out unknown, with
        its translation, the target words read (``aligned``) and why (``why``), so
        you can see what the reader did on your outputs.
    n_boot, rng, level, correction, family, against
        As in :func:`tgbi` (``n_boot``: the bootstrap of F1 and ΔG intervals).
    interval : {"percentile", "bca"}
        Bootstrap interval of the F1 and ΔG estimates.
    n_draws : int
        Monte-Carlo draws of the corrected Acc's interval (``corrected`` or ``annotations``).
    missing : {"shared", "wrong"}
        One rule for items without a translation, whether a file stands alone,
        beside others or comes as judgements: the language is analysed on the items
        every system translated (default; ``coverage`` in ``frames["estimates"]``), or
        on every item with an untranslated one counted as wrong (the paper's rule).
        A file translating fewer than 99% of the items is named in a warning (exit
        65 under ``--strict``).
    validate : bool
        Also ``frames["validation"]``: the reader's agreement with the shipped human labels.
    engine : {"auto", "processes", "dask"}
        Where translations not yet cached are read (alignment and morphology, a
        language a task): worker processes here (``"auto"``: one per CPU, at most
        ``MTBIAS_WORKERS``), or the active Dask scheduler (``"dask"``: with a
        ``distributed.Client`` connected, its workers, which must see the data
        directory and your files at the same paths). Same tables either way;
        the readings are cached here as well.
    sample : str, optional
        The column of ``judgements`` that tells several outputs of one item apart
        (an LLM sampled k times: ``item, system, language, gender, sample``). An
        item's metrics average over its known samples (an unknown sample counts as
        absent; an item without a known one is unread; every item weighs the same; a
        ``DataQualityWarning`` where items have different numbers of samples);
        items stay the unit of the bootstrap and of the pairing; the accuracies'
        intervals are Wilson's on the effective sample size and their
        comparisons McNemar/Tango on the table deflated by the clustered design
        effect (Durkalski et al. 2003), so duplicating samples changes nothing.
        Adds ``frames["consistency"]`` (samples that disagree, mean within-item
        female share, intraclass correlations). See the "Sampled outputs" page.
    items : list, str or path, optional
        Restrict the study to these items (0-based lines of ``en.txt``): a list, ids separated by commas, a file of
        them (one a line, or a CSV with an ``item`` column), or a named subset: ``"gendered"`` (without the
        neutral-gold items: someone, child, witness, victim …) or ``"all"`` (default). An id the benchmark has
        not is an error naming it; the rows left out are counted in ``frames["accounting"]`` and
        ``provenance["items"]`` records the set (its name, or the sha256 of the sorted ids and their number).
    Returns
    -------
    StudyResult
        ``table`` metrics ``acc, f1_male, f1_female, delta_g, acc_pro, acc_anti,
        delta_s`` as shares (differences of shares for ΔG, ΔS), subset ``all``;
        ``n`` the items each rests on (Acc_pro: the pro-stereotypical items).
        ``compare()``: test and interval from one method per metric (Tango and
        McNemar's score test for accuracies, MOVER for ΔS, the item jackknife's t
        for F1 and ΔG), so an interval excluding 0 always has p < 1 − level.
    """
    options = _checked("winomt", locals())
    from stats_mtbias.studies import winomt as study  # import time: a study loads on first use

    return _signed(
        study.evaluate(systems, **{**options.kwargs(), "languages": None if languages is None else list(languages)}), options
    )


# ---------------------------------------------------------------- Prates


@needs_extras()
def prates(
    judgements=None,
    *,
    data_dir: str | Path | None = None,
    items="jobs",
    languages: Sequence[str] | None = None,
    reference=None,
    bengali: str = "pool",
    by: str = "language",
    denominator: str = "identified",
    interval: str = "wilson",
    test: str = "exact",
    alpha: float = _defaults.ALPHA,
    n_boot: int = _defaults.N_BOOT,
    n_draws: int = _defaults.N_DRAWS,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    correction: str = _defaults.CORRECTION,
    family: str | Sequence[str] = "metric",
    against: Sequence[str] | None = None,
    pool: bool = False,
    sample: str | None = None,
    referent: str | None = None,
) -> StudyResult:
    """Prates et al. (2019): female, male and neutral shares per language (and category), male-default tests.

    Parameters
    ----------
    judgements : path or DataFrame, optional
        Your own judgements: ``item, language, gender`` (or ``translation``, read
        by the English reader), optional ``system, category, variant``. Default:
        the authors' Google Translate judgements. Several systems are analysed
        each on its own and compared (never pooled unless ``pool=True``).
    data_dir : path, optional
        The public datasets (else ``$MTBIAS_DATA``, else the download cache).
    items : {"jobs", "adjectives"}, list, str or path
        The shipped item set (``"jobs"``: occupations, or ``"adjectives"``), or the occupations to keep: a list, names
        separated by commas, or a file of them (one a line, or a CSV with an ``item`` column); one the judgements
        have not is an error naming it. The rows left out are counted in ``frames["accounting"]`` and
        ``provenance["items"]`` records the set.
    languages : list of str, optional
        Languages to keep.
    reference : path or DataFrame, optional
        A BLS-like table instead of the shipped one (for the reference comparison).
    bengali : {"pool", "variants"}
    by : {"language", "category", "language,category"}
    denominator : {"identified", "all"}
    interval : {"wilson", "jeffreys", "clopper-pearson"}
    test : {"exact", "ttest"}
        One-sided paired test of male > female per group.
    alpha : float
        Flags ``significant`` tests.
    n_boot : int
        Bootstrap resamples of the comparisons between systems.
    n_draws : int
        Monte-Carlo tables of the exact tests of independence (``frames["independence"]``).
    rng, level, correction, family, against
        As in :func:`tgbi`.
    pool : bool
        Pool several systems into one (named ``a+b+…``) instead of a row each.
    sample : str, optional
        Column of `judgements` telling several samples of one output apart (an
        LLM sampled k times): the rows of an item (and language, variant, system)
        that differ in it are its samples. An item's shares are the means over its
        known samples (an unknown sample counts as absent; each item weighs one;
        unequal numbers of samples warn; ``n_outputs`` and ``n_unknown`` count
        rows; ``frames["consistency"]``), the
        sign tests take the sign of an item's difference of mean shares, and the
        intervals the design effect over items; one sample per item is the
        single-output analysis, and duplicating every sample changes no number.
    referent : str, optional
        Column of `judgements` with reference translations in which the asked-about
        word(s) are in [brackets]: the translation's words aligned to them are read
        (as in :func:`tgbi`), a dropped referent is unknown.

    Returns
    -------
    StudyResult
        ``table`` metrics ``female, male, neutral`` (shares with intervals) per
        system, language and category (subset), ``n`` the occupations;
        ``compare()`` pairs systems on occupations when the judgements hold
        several systems; ``frames["tests"]`` the male-default tests.
    """
    options = _checked("prates", locals())
    from stats_mtbias.studies import prates as study  # import time: a study loads on first use

    return _signed(
        study.evaluate(judgements, **{**options.kwargs(), "languages": None if languages is None else list(languages)}), options
    )


# ---------------------------------------------------------------- optimal translator


@needs_extras()
def optimal(
    judgements=None,
    *,
    reference="bls",
    data_dir: str | Path | None = None,
    languages: Sequence[str] | None = None,
    neutral: str = "unbiased",
    interval: str = "gamma",
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    engine: str = "auto",
    sample: str | None = None,
    items=None,
) -> StudyResult:
    """Optimal-translator bias B (Farkas & Németh) against a reference female share per occupation.

    Parameters
    ----------
    judgements : path, glob, DataFrame or dask DataFrame, optional
        Your outputs: ``occupation, gender`` (optional ``system, language,
        category``; several rows per occupation = several samples), as CSV,
        Parquet or Arrow IPC, a directory or glob of such files, or a frame; they
        are counted as they stream (:mod:`stats_mtbias.datasets.counting`), so files of
        hundreds of millions of rows need memory for the count table only.
        Default: the twelve Prates languages (Google Translate).
    reference : "bls", path or DataFrame
        ``occupation`` and ``female_share`` (or ``n_female, n_total``, or survey
        answers ``answer_1 … answer_6``), optional ``weight, category, sector``.
    data_dir : path, optional
        The public datasets (else ``$MTBIAS_DATA``, else the download cache).
    languages : list of str, optional
        Prates languages to keep (default: all twelve).
    neutral : {"unbiased", "exclude"}
        Neutral and both-gender outputs count as unbiased, or are left out.
    interval : {"gamma", "studentized", "percentile"}
        Interval of category and sector B: Fay and Feuer's gamma interval for a weighted
        sum of rare events (default; B is 0 for most occupations and large for a few),
        or the bootstrap-t or percentile interval over occupations.
    n_boot, rng, level
        As in :func:`tgbi`.
    engine : {"auto", "arrow", "dask"}
        Where the judgements are counted: Arrow here, or the partitions on the
        active Dask scheduler (``"auto"``: Dask for a dask DataFrame). The
        estimators run here on the count table; the result is the same.
    sample : str, optional
        Column of `judgements` telling an occupation's samples apart (an LLM
        sampled k times). Without it several rows of an occupation are pooled
        (weighted by their number); with it the counts are the means over the
        occupation's known samples (an unknown sample counts as absent), so every
        occupation weighs one (unequal numbers of samples warn; ``n_outputs`` and
        ``n_unknown`` count rows; ``frames["consistency"]``). One sample per occupation, or the same number everywhere,
        gives the pooled numbers; duplicating every sample changes none.
    items : list, str or path, optional
        Restrict the study to these occupations: a list, names separated by commas, or a file of them (one a line,
        or a CSV with an ``item`` column); one the judgements have not is an error naming it. The rows left out
        are counted in ``frames["accounting"]``; ``provenance["items"]`` records the set.
    Returns
    -------
    StudyResult
        ``table``: sector B (metric ``b``, subset ``<sector> (female-dominated)``…),
        category B (subset ``category: <name>``) and the headline shares
        ``minority``, ``he_given_female_dominated``, ``she_given_male_dominated``.
        ``compare()`` on sector B between systems (or languages) is not defined
        by the paper: it raises, the intervals side by side are the comparison.
    """
    options = _checked("optimal", locals())
    from stats_mtbias.studies import optimal as study  # import time: a study loads on first use

    return _signed(
        study.evaluate(judgements, **{**options.kwargs(), "languages": None if languages is None else list(languages)}), options
    )


# ---------------------------------------------------------------- any benchmark


@_old_spellings
@needs_extras()
def rates(
    judgements,
    *,
    outcome: str = "gender",
    by: Sequence[str] | str = (),
    system: str | None = "system",
    cluster: str | None = "item",
    strata: str | None = None,
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    interval: str = "percentile",
    correction: str = _defaults.CORRECTION,
    family: str | Sequence[str] = "metric",
    against: Sequence[str] | None = None,
    engine: str = "auto",
    sample: str | None = None,
    gold: str | None = None,
    labels: str | None = None,
    items=None,
) -> StudyResult:
    """Female, male and neutral shares and the male − female gap of any gender judgement table; with a gold
    gender, the accuracy too.

    Parameters
    ----------
    judgements : path, glob, DataFrame or dask DataFrame
        One row per judgement: a CSV, Parquet or Arrow IPC file, a directory or
        glob of them, a DataFrame or a dask DataFrame. It is counted as it
        streams (:mod:`stats_mtbias.datasets.counting`): memory grows with the number of
        (cluster, system, group, gender) cells, not rows.
    outcome : str
        Column with the gender found (``female, male, neutral, both, unknown``,
        case-insensitive, or ``f/m/n/?``; empty is ``unknown``).
    by : str or list of str
        Grouping columns (subsets, languages, occupations…); an ``all`` group is added.
    system : str or None
        Column naming the system (None: one system).
    cluster : str or None
        Column of the resampling unit (prompt, template, occupation): every
        judgement of a cluster is resampled together. None: every row its own
        (still counted by cell: the bootstrap draws the cells' multinomial counts,
        so millions of rows cost what their cells cost).
    strata : str or None
        Column of fixed-size strata the clusters are resampled within.
    sample : str or None
        Column telling several outputs of a cluster apart (an LLM sampled k
        times per prompt). Each cluster's known samples are averaged (an unknown
        sample counts as absent), so every cluster weighs the same (a
        ``DataQualityWarning`` where clusters have different numbers of samples),
        ``n_outputs`` and ``n_unknown`` count rows, ``frames["consistency"]`` gives
        the samples' agreement, and duplicating samples changes no number; the
        analytic design effect may then fall below 1 (averaged samples are worth
        more than one output). Without it the outputs of a cluster are pooled,
        weighted by their number, and the design effect is at least 1.
    gold : str or None
        Column of the gender each output should have (``female``, ``male`` or
        ``neutral``, with the outcome's aliases): an accuracy benchmark
        (MT-GenEval, MuST-SHE, Translate-with-Care's reasoning items). Adds
        ``accuracy`` (identified outputs of the gold gender; a neutral or both
        output is right only against a gold neutral; ``unknown`` is counted in
        ``n_unknown`` and left out), ``accuracy_female`` and ``accuracy_male``
        (over the items of that gold gender) and ``accuracy_gap``
        (``accuracy_male − accuracy_female``), with intervals, comparisons and
        power like the shares. A row without a gold gender is an error.
    labels : str or None
        Column of people's labels (a gender, as `outcome`) of a random subset of
        the rows, empty elsewhere: the validation sample of the judge (the reader
        or LLM whose genders `outcome` holds). Each figure is then corrected for
        the judge's errors by prediction-powered inference (PPI++, Angelopoulos
        et al. 2023; items the unit, samples averaged): ``table`` gains
        ``corrected``, ``corrected_ci_low``, ``corrected_ci_high`` (normal, on
        the logit scale for the shares), ``agreement`` (judge = label on the
        labelled rows), ``n_labelled``, ``n_unlabelled`` and ``lambda`` (the
        power-tuning weight), beside the judge's ``estimate``; ``compare()`` is
        the corrected paired differences (the rectifier on the items labelled for
        both systems). A system or group with fewer than 30 labelled items is
        named in a warning. See :doc:`corrected`.
    n_boot : int
        Bootstrap resamples (at least 100).
    rng : int or Generator
        Source of every random number (keyword-only).
    level : float
        Confidence level.
    interval : {"percentile", "bca", "score"}
        The cluster bootstrap's percentile (default) or BCa interval, or score intervals: Wilson on the effective
        sample size (gap: cluster-robust normal; accuracy_gap: MOVER of its two accuracies' intervals).
        ``ci="analytic"`` (now ``interval="score"``) and ``ci="bootstrap"`` are deprecated.
    correction : {"holm", "bh", "none"}
        Multiplicity adjustment of ``p_adjusted`` within each family.
    family : {"metric", "all"} or list of str
        The comparisons adjusted together: the system pairs of one language ×
        subset × metric (default), every comparison (``"all"``), or comparison columns.
    against : list of str, optional
        Compare these systems (yours) with every other system (the baselines)
        instead of every pair of systems.
    engine : {"auto", "arrow", "dask"}
        Where the judgements are counted: Arrow here, or the partitions on the
        active Dask scheduler (``"auto"``: Dask for a dask DataFrame). The
        estimators run here on the count table; the result is the same.
    items : list, str or path, optional
        Restrict the study to these items (ids of the `cluster` column): a list, ids separated by commas, or a
        file of them (one a line, or a CSV with an ``item`` column); an id the table has not is an error naming
        it. The rows left out are counted in ``frames["accounting"]``; ``provenance["items"]`` records the set.
    Returns
    -------
    StudyResult
        ``table`` metrics ``female, male, neutral, gap`` (with `gold` also
        ``accuracy, accuracy_female, accuracy_male, accuracy_gap``; ``n``,
        ``n_outputs`` and ``n_unknown`` of an accuracy count its gold genders' items) per system and group
        (``subset``; a ``language`` grouping column is the table's ``language``,
        and every grouping column keeps its own name too; ``n`` the clusters with an
        identified output); ``compare()`` pairs systems on shared clusters;
        ``frames["group_differences"]`` compares the groups of each system.

    Examples
    --------
    >>> import pandas as pd, stats_mtbias as smb
    >>> frame = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "system": ["a", "b"] * 3,
    ...                       "gender": ["male", "female", "male", "male", "female", "female"]})
    >>> res = smb.rates(frame, n_boot=200, rng=0)
    >>> print(res.table.query("metric == 'female'")[["system", "estimate"]].round(3).to_string(index=False))
    system  estimate
         a     0.333
         b     0.667
    """
    options = _checked("rates", locals())
    from stats_mtbias.studies import rates as study  # import time: a study loads on first use

    return _signed(study.evaluate(judgements, **options.kwargs()), options)


# ---------------------------------------------------------------- readers


@needs_extras()
def read(study: str, source=None, **options) -> pd.DataFrame:
    """Read outputs into genders, one row per output with the gender read and why (no statistics).

    The table is the one each study's ``judgements``/``outputs`` takes, so that a
    reading can be checked, corrected by hand, or kept, and the statistics run on it.

    Parameters
    ----------
    study : {"tgbi", "prates", "winomt"}
        ``"tgbi"``: English outputs by the package's cues (``lexicon="cho2019"``: the
        authors' lists); `source` a benchmark of your own (``system, set, item,
        translation``; ``sample=``), or none and ``systems=`` shipped ones.
        ``"prates"``: English outputs by the authors' rule (a neutral pronoun for
        neutral); `source` ``item, language, translation`` (``system, category, variant``).
        ``"winomt"``: a system's translations into a gendered language (``name=``,
        ``languages=``; alignment and the language's reader), with the target words read
        (``aligned``) and why an item is unknown (``why``).
    source : path or DataFrame
        What to read.
    **options
        ``tgbi``: ``systems, lexicon, sample, referent, data_dir, repeated_blocks`` (``referent``: the
        column of reference translations with the asked-about words in [brackets]; adds ``why``);
        ``prates``: ``sample, referent``; ``winomt``: ``name, languages, data_dir, aligner, use_pronoun``.

    Returns
    -------
    DataFrame
        One row per output: its keys, the text, ``gender`` (female, male, neutral,
        both, unknown) and ``reason`` (why unknown, else empty); for ``tgbi`` and
        ``prates`` then the source's other columns as they came (the header
        lower-cased; the ``sample=`` column under its own name), so the table
        goes back into the study with the same options.

    Examples
    --------
    >>> import pandas as pd, stats_mtbias as smb
    >>> mine = pd.DataFrame({"system": "llm", "set": "formal", "item": ["teacher", "nurse", "guard"],
    ...                      "translation": ["She teaches.", "They care.", ""]})
    >>> print(smb.read("tgbi", mine)[["item", "gender", "reason"]].to_string(index=False))
       item  gender reason
    teacher  female
      nurse neutral
      guard unknown  empty
    """
    check_choice(study, READERS, "study")
    if source is None and study != "tgbi":  # TGBI reads its shipped systems without one
        raise UsageError(f"read({study!r}) needs `source`: the outputs to read.")
    return STUDIES[study].read(source, **options)


def from_harness(source, *, system: str | None = None, filter: str | None = None) -> pd.DataFrame:
    """Read evaluation-harness logs into the outputs table: one row per output, ready for any study.

    Every study's ``outputs=``/``judgements=``/``translations=`` (and the command
    line's ``--outputs``, ``--judgements``, ``--translations``) also takes such a log
    directly; this function shows the table, and reads several logs into one.

    Parameters
    ----------
    source : path, list of paths, or dict
        An lm-evaluation-harness samples file (``samples_<task>_<date>.jsonl``, from
        ``lm_eval --log_samples``), an inspect_ai log (``.eval``: needs the extra
        ``inspect``; ``.json``), a directory or glob of them, a list of them, or
        ``{system: path}`` naming each log's system.
    system : str, optional
        The system's name for a single log (default: the model the log names).
    filter : str, optional
        lm-eval only: the outputs after this filter of the task (``filtered_resps``);
        default the raw outputs (``resps``), read once however many filters the task has.

    Returns
    -------
    DataFrame
        ``system`` (the model), ``item`` (lm-eval's ``doc_id``, inspect's sample
        id), ``sample`` (the repeat or epoch, from 1), ``prompt``, ``translation``,
        ``target``, then the task's fields (the document's, the sample's metadata;
        one named like a column above as ``doc_<name>``). ``attrs["logs"]``: each
        log's file, harness, task, task version and model. With repeats or epochs,
        a study takes the table with ``sample="sample"``.

    Raises
    ------
    DataError
        Naming the file and the line or id: a line that is not JSON, a document without
        ``doc_id``, an id given twice, a task that is not a generation, a log of another
        task version (or other documents) than the first log's.
    UsageError
        An ``.eval`` log without inspect_ai (``pip install 'stats-mtbias[inspect]'``); a
        ``filter`` the log does not have.

    Warns
    -----
    DataQualityWarning
        Naming them: ids without all their repeats or epochs, samples that ended in an
        error (left out), ids the task's dataset lists but the log lacks, ids some
        logs lack, a run that did not finish.

    Examples
    --------
    >>> import json, pathlib, tempfile, stats_mtbias as smb
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "samples_mt_2026-01-01T00-00-00.jsonl"
    >>> docs = [{"doc_id": i, "doc": {"set": "job"}, "arguments": {"gen_args_0": {"arg_0": f"Translate: {s}"}},
    ...          "resps": [[f"{p} is a nurse.", "They are a nurse."]], "filter": name}
    ...         for i, (s, p) in enumerate([("Ő ápoló.", "She"), ("Ő mérnök.", "He")]) for name in ("a", "b")]
    >>> _ = log.write_text("".join(json.dumps(d) + "\\n" for d in docs))
    >>> table = smb.from_harness(log, system="llm")
    >>> print(table[["system", "item", "sample", "translation", "set"]].to_string(index=False))
    system item  sample       translation set
       llm    0       1  She is a nurse. job
       llm    0       2 They are a nurse. job
       llm    1       1   He is a nurse. job
       llm    1       2 They are a nurse. job
    """
    from stats_mtbias.datasets import harness  # import time: no datasets layer at start-up

    return harness.read_harness(source, system=system, filter=filter)


# ---------------------------------------------------------------- agreement of labels


@needs_extras()
def agreement(
    labels,
    *,
    a: str,
    b: str,
    by: Sequence[str] | str = (),
    mapping: Mapping[str, str] | None = None,
    level: float = _defaults.LEVEL,
    items=None,
) -> StudyResult:
    """Agreement of two label columns, per group: an LLM judge against people, two annotators, two readers.

    Parameters
    ----------
    labels : path or DataFrame
        One row per labelled unit (CSV, Parquet, Arrow IPC, or a frame): the label
        columns `a` and `b`, and the grouping columns `by`.
    a, b : str
        The two label columns. Any label set (``M/F/N/B``, ``male/female``, words);
        compared after stripping spaces and lower-casing.
    by : str or list of str
        Grouping columns (``language``, ``system``, …): a row per group and one over all.
    mapping : dict, optional
        Labels to rewrite before comparing, in both columns (``{"error": "unknown"}``).
    level : float
        Confidence level.
    items : list, str or path, optional
        Restrict the comparison to these units (ids of an ``item`` column of `labels`): a list, ids separated by
        commas, or a file of them; the rows left out are counted in ``frames["accounting"]``.
    Returns
    -------
    StudyResult
        ``table`` metrics ``agreement`` (share of equal labels, Wilson's interval)
        and ``kappa`` (Cohen's κ, an interval that holds near 1), ``n`` the units
        both columns label; ``frames["confusion"]`` (every pair of labels, counted),
        ``frames["accounting"]`` (rows compared and rows with an empty label, left out).

    Examples
    --------
    >>> import pandas as pd, stats_mtbias as smb
    >>> frame = pd.DataFrame({"language": ["el"] * 4 + ["fi"] * 4, "human": list("MFFMMFNM"),
    ...                       "llm": ["m", "f", "m", "m", "m", "f", "n", "error"]})
    >>> res = smb.agreement(frame, a="human", b="llm", by="language", mapping={"error": "unknown"})
    >>> print(res.table.query("metric == 'agreement'")[["language", "estimate", "n"]].to_string(index=False))
    language  estimate  n
          el      0.75  4
          fi      0.75  4
         all      0.75  8
    """
    options = _checked("agreement", locals())
    from stats_mtbias.studies import agreement as study  # import time: a study loads on first use

    return _signed(study.evaluate(labels, **options.kwargs()), options)


# ---------------------------------------------------------------- models and reports


@needs_extras()
def model(
    study: str,
    *,
    model: str = "rate",
    data_dir: str | Path | None = None,
    languages: Sequence[str] | None = None,
    sampler: str = "nutpie",
    draws: int = 2000,
    tune: int = 400,
    chains: int = 2,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    cache: bool = True,
):
    """Fit a study's hierarchical Bayesian model (PyMC): ``"tgbi"`` or ``"prates"`` (``model="calibration"`` too).

    A fit is cached by its data, options, seed, model code and library versions
    (``cache=False`` refits); ``diagnostics["cached"]`` says whether it was read.

    Parameters
    ----------
    study : {"tgbi", "prates"}
        The study whose model is fitted.
    model : {"rate", "calibration"}
        The female-translation rate model, or (Prates) its calibration against the BLS shares.
    data_dir : path, optional
        The public datasets (else ``$MTBIAS_DATA``, else the download cache).
    languages : list of str, optional
        Prates languages to keep (default: all).
    sampler : {"nutpie", "pymc"}
        The NUTS implementation.
    draws, tune, chains : int
        Draws and tuning steps per chain, and chains.
    rng : int or Generator
        Source of every random number (keyword-only).
    level : float
        Probability of the highest-density intervals.
    cache : bool
        Read a fit from the cache when its data, options, seed and code are the same.

    Returns
    -------
    stats_mtbias.studies.models.ModelResult
        ``summary`` (posterior mean, sd, HDI, R-hat, ESS per parameter and derived
        quantity), ``diagnostics``, ``derived`` tables, ``provenance`` and ``idata``.
    """
    options = _checked("model", locals())
    from stats_mtbias.studies import models  # import time: a study loads on first use

    return models.run(study, **{**options.kwargs(), "languages": None if languages is None else list(languages)})


@needs_extras()
def report(
    results: Sequence[StudyResult] | StudyResult,
    *,
    out: str | Path,
    formats: Sequence[str] = ("html", "md", "tex"),
    title: str = "Gender bias in machine translation: your systems",
    mine: Sequence[str] | None = None,
    screenshot: str | Path | None = None,
    margin: float | None = None,
) -> list[Path]:
    """Write the HTML, Markdown and LaTeX report of any results: your systems beside the baselines.

    One section per result, each in one shape: one line on what was measured; the
    **headline** table (the study's headline metrics per system in percent with their
    intervals, your systems first and in bold); for WinoMT, how well the reader reads
    each language (agreement with labelled samples, the share of each system's
    outputs it could not read, the construct it measures); your systems compared with
    each other system (difference, interval, ``p_adjusted`` with its family, MDE) as a
    table and a forest plot; a figure per headline metric with your systems marked;
    the notes; and in an appendix at the end, every input row accounted for, every
    estimate and the provenance. Every table is also a CSV (full precision, in
    shares) and LaTeX; ``<study>/items.csv`` has one row per system × item with the
    reading and why.

    Parameters
    ----------
    results : StudyResult or list of StudyResult
        One section each (``smb.winomt(...)``, ``smb.rates(...)``, …).
    out : str or Path
        The report's directory (created; checked writable before any work).
    formats : list of {"html", "md", "tex"}
        The documents written (``report.html`` is self-contained and opens offline).
    title : str
        The documents' title.
    mine : list of str, optional
        Your systems: first in every table, marked in every figure, and the
        comparisons shown are theirs against every other system. Default (one rule,
        :func:`stats_mtbias.result.your_systems`): the study's ``against=``, else the
        systems of your inputs (translations, judgements, outputs) when shipped systems
        stand beside them — never a name that happens to match a shipped system's; if
        every system is yours and none is named in ``against=``, none. If
        a result compared every pair, the comparisons between other systems are left
        out and ``p_adjusted`` is adjusted again over the rows shown (the report says
        so); pass ``against=`` to the study to compare your systems from the start.
    screenshot : str or Path, optional
        Also save the first screen of ``report.html`` (1280 × 900 pixels) as a PNG
        rendered by headless Chromium. Refused with a :class:`UsageError` before any
        work when no Chromium is on PATH or ``"html"`` is not among `formats`.
    margin : float, optional
        An equivalence margin δ (a share: 0.02 is ±2 points): beside each comparison the
        report says in words "equivalent within ±δ", "not shown" or "differs" (the
        two one-sided tests of :meth:`StudyResult.compare`, adjusted as ``p_adjusted``).

    Returns
    -------
    list of Path
        The files written (the screenshot last).

    Raises
    ------
    UsageError
        No result, a format not listed, a name in `mine` that no result has, an
        unwritable `out`, or a screenshot that cannot be taken.
    """
    from stats_mtbias.report.results import write_results  # heavy: matplotlib

    results = [results] if isinstance(results, StudyResult) else list(results)

    if mine is None and all(isinstance(r, StudyResult) for r in results):
        own: list[str] = []
        for result in results:
            own += [s for s in your_systems(result) if s not in own]
        mine = own
    elif isinstance(mine, str):
        mine = [mine]
    if margin is not None:
        margin = check_margin(margin)  # before any work
    return write_results(results, out, formats=formats, title=title, mine=mine, screenshot=screenshot, margin=margin)


def _read_delimited(path: str | Path) -> list[tuple[int, list[str]]]:
    """Every record of a small CSV (TSV: ``.tsv``) with the line it starts on, read by the package's one dialect.

    For the command line's option files (``--mapping``): the same quoting, encodings and errors naming the
    line as every data reader (:mod:`stats_mtbias.datasets._io`). Here, in the API layer, because the command
    line reads no dataset module itself.
    """
    from stats_mtbias.datasets._io import delimiter_of, iter_rows  # import time: no datasets layer at start-up

    return list(iter_rows(path, delimiter_of(path)))


# ---------------------------------------------------------------- a study's function, made from its options


def study_function(name: str) -> Callable[..., StudyResult]:
    """The API function ``smb.<name>`` of a study that declares its own options (``Study.options``) and has no
    function written above: the same door as theirs, made from the record.

    Its signature and numpydoc docstring come from the options' fields (the first, positional argument is what to
    analyse; the others keyword-only, with their defaults); a call checks every option before anything is read
    (:func:`stats_mtbias.options.validate`) and returns the study's ``evaluate``.

    Raises
    ------
    AttributeError
        `name` is no study, or one without options of its own.
    """
    study = ALL.get(name)
    if study is None or study.options is None:
        raise AttributeError(f"module 'stats_mtbias' has no attribute {name!r}")
    return _made(study)


@functools.cache
def _made(study) -> Callable[..., StudyResult]:
    items = study.options.info()
    kinds = {True: inspect.Parameter.POSITIONAL_OR_KEYWORD, False: inspect.Parameter.KEYWORD_ONLY}
    signature = inspect.Signature(
        [
            inspect.Parameter(
                item.name, kinds[item.positional], default=inspect.Parameter.empty if item.required else item.default
            )
            for item in items
        ],
        return_annotation=StudyResult,
    )

    def function(*args, **kwargs) -> StudyResult:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        options = _checked(study.name, dict(bound.arguments))
        first = [getattr(options, item.name) for item in items if item.positional]
        return study.evaluate(*first, **options.kwargs())

    function.__name__ = function.__qualname__ = study.name
    function.__module__ = "stats_mtbias"
    function.__signature__ = signature
    function.__doc__ = _docstring(study, items)
    return function


def _docstring(study, items) -> str:
    """A numpydoc docstring from the study's spec and its options' fields."""
    spec = study.spec
    summary = (spec.title if spec is not None and spec.title else None) or (study.options.__doc__ or study.name)
    lines = [summary.strip().splitlines()[0], "", "Parameters", "----------"]
    for item in items:
        kind = "{" + ", ".join(repr(c) for c in item.choices) + "}" if item.choices else item.kind
        shown = "" if item.default is MISSING or item.default in (None, ()) else f" Default {item.default!r}."
        lines += [f"{item.name} : {kind}", f"    {item.help[:1].upper()}{item.help[1:]}.{shown}"]
    lines += ["", "Returns", "-------", "StudyResult"]
    if spec is not None:
        lines.append(f"    {spec.measured}")
    return "\n".join(lines)
