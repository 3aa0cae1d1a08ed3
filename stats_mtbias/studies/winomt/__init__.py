"""The WinoMT study (Stanovsky et al. 2019) end to end: read → judge → estimate → compare → "+Adj" → correction.

:func:`evaluate` is the only place that wires the study: it reads the 3,888 items,
judges the shipped translations and a user's own (word alignment + the target
language's reader, :mod:`stats_mtbias.studies.winomt.reading`) or takes a
user's readings (``judgements``), and computes Acc, F1, ΔG, ΔS with bootstrap
intervals, paired comparisons, the "+Adj" transitions and, where human labels
exist, Acc corrected for misreading. The CLI and the report call it.

Intervals: bootstrap over items stratified by stereotype × gold gender (both
fixed in size by WinoMT's design), so ΔS and ΔG are resampled with the design's
sizes; one weight matrix serves every system of a language, which pairs the
comparisons. Comparisons of two systems on the same language, each from one method (the
interval excludes 0 exactly when p < 1 − level): accuracies by Tango's score
interval and the McNemar score test it inverts; ΔS by MOVER of the pro and anti
Tango intervals, its p-value the one the MOVER interval implies; F1 and ΔG by the
item jackknife's t. Holm (or BH) within each family (by default the system pairs
of one language and metric).
Metrics are shares in [0, 1] (the paper prints percent: multiply by 100 to compare).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias import _defaults
from stats_mtbias._cache import check_cache_writable
from stats_mtbias._validation import check_rng, seed_of
from stats_mtbias.datasets import winomt as winomt_data
from stats_mtbias.datasets.registry import manifest, open_store
from stats_mtbias.datasets.sources import as_source, source_sha256
from stats_mtbias.datasets.winomt import (
    PREDICTED,
    annotation_language,
    read_annotations,
    read_user_judgements,
    user_files,
)
from stats_mtbias.errors import DataError, DataQualityWarning, UsageError
from stats_mtbias.estimators.winomt import FEATURES, METRICS
from stats_mtbias.gender.targets import codes
from stats_mtbias.result import TABLE_COLUMNS, Spec, StudyResult
from stats_mtbias.studies._common import accounting as common_accounting
from stats_mtbias.studies._common import check_systems, integrity, melt, restrict_items, with_flags
from stats_mtbias.studies._common import provenance as record_provenance
from stats_mtbias.studies._study import Study, finish, with_notes
from stats_mtbias.studies.winomt.analysis import (
    ABSENT,
    FEATURE_INDEX,
    FEW_DISCORDANT,
    MCNEMAR_METRICS,
    MIN_COVERAGE,
    MISSING_RULES,
    PAIRED_ACCURACY,
    adjective_effect,
    analyse,
    check_samples,
    consistency,
    coverage,
    language_arrays,
    paired_comparison,
    pilot,
    pilot_design,
    score_bounds,
    shared_items,
    unread_flags,
)
from stats_mtbias.studies.winomt.correction import (
    ANNOTATION_COLUMNS,
    BETWEEN_COLUMNS,
    MIN_CONFLICTS,
    annotation_agreement,
    corrected_accuracy,
)
from stats_mtbias.studies.winomt.reading import READING_ENGINES, judge, judge_all, reading_workers
from stats_mtbias.studies.winomt.validation import VALIDATION_COLUMNS, validation

__all__ = [
    "ABSENT",
    "ANNOTATION_COLUMNS",
    "BETWEEN_COLUMNS",
    "ESTIMATE_COLUMNS",
    "FEATURES",
    "FEATURE_INDEX",
    "FEW_DISCORDANT",
    "MCNEMAR_METRICS",
    "METRICS",
    "MIN_CONFLICTS",
    "MIN_COVERAGE",
    "MISSING_RULES",
    "PAIRED_ACCURACY",
    "PREDICTED",
    "READING_ENGINES",
    "UNREAD_COLUMNS",
    "VALIDATION_COLUMNS",
    "adjective_effect",
    "analyse",
    "annotation_agreement",
    "check_samples",
    "consistency",
    "corrected_accuracy",
    "coverage",
    "evaluate",
    "judge",
    "judge_all",
    "language_arrays",
    "paired_comparison",
    "pilot",
    "pilot_design",
    "read_annotations",
    "read_user_judgements",
    "reading_workers",
    "score_bounds",
    "shared_items",
    "unread_flags",
    "user_files",
    "validation",
]

# ---------------------------------------------------------------- the study, wired once

ESTIMATE_COLUMNS = (
    ["system", "language", "n", "n_unknown", "coverage"]
    + [c for m in METRICS for c in (m, f"{m}_ci_low", f"{m}_ci_high")]
    + ["flag"]
)


def _check_language(language: str) -> str:
    if language not in codes():
        raise UsageError(
            f"WinoMT has no gender reader for language {language!r}; supported: {', '.join(codes())} "
            "(see the docs, 'Adding a target language')."
        )
    return language


def labelled_languages() -> set[str]:
    """The languages of the shipped human labels (what ``corrected`` uses without ``annotations``)."""
    prefix = "winomt/data/human_annotations/"
    return {annotation_language(p.removeprefix(prefix)) for p in manifest() if p.startswith(prefix)} - {None}


def _check_labels(languages: list[str]) -> None:
    """``corrected`` without ``annotations`` needs shipped labels in at least one language evaluated."""
    shipped = labelled_languages()
    if not set(languages) & shipped:
        raise UsageError(
            f"`corrected` (--corrected) needs human labels of the translations, and none are shipped for "
            f"{', '.join(languages)} (shipped for {', '.join(sorted(shipped))}): give your own labels "
            "with `annotations` (--annotations FILE: item, system, language, gender), or leave it out."
        )


@with_notes(own_first=True)
def evaluate(
    systems: list[str] | tuple[str, ...] | None = None,
    *,
    translations: dict | None = None,
    judgements=None,
    languages: list[str] | None = None,
    data_dir: str | Path | None = None,
    aligner: str = "fastalign",
    use_pronoun: bool = False,
    adjectives: bool = True,
    corrected: bool = False,
    validate: bool = False,
    annotations=None,
    explain: bool = False,
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    correction: str = _defaults.CORRECTION,
    interval: str = "percentile",
    engine: str = "auto",
    progress=None,
    missing: str = "shared",
    against: list[str] | None = None,
    family: str | list[str] = "metric",
    n_draws: int = _defaults.N_DRAWS,
    sample: str | None = None,
    items=None,
) -> StudyResult:
    """The WinoMT study on shipped systems, a user's own translations and/or readings (what :func:`stats_mtbias.winomt`
    returns).

    Parameters
    ----------
    systems : list of str, optional
        Shipped systems (default: all five when no user data is given, else none).
    translations : dict, optional
        ``{system name: file, directory, {language: file or DataFrame}, or DataFrame}``
        (see :func:`user_files`): read like the shipped files, in every language given.
    judgements : path or DataFrame, optional
        A user's readings: CSV ``item, system, language, gender`` (item: 0-based line of en.txt).
    languages : list of str, optional
        Target languages (default: every language with a reader, or those the user's files cover).
    adjectives : bool
        Also the "+Adj" effect where the systems have "+Adj" files.
    corrected : bool
        Also Acc corrected for misreading from the shipped human labels.
    validate : bool
        Also the agreement of the reading with the shipped human labels (:func:`validation`).
    annotations : path or DataFrame, optional
        Your own human labels (:func:`read_annotations`): agreement of the reading
        with them and between your annotators (:func:`annotation_agreement`), and
        Acc corrected with them for the systems they label.
    explain : bool
        Read the translations afresh and keep, per item, the target words read
        (``aligned``) and why an entity came out unknown (``why``): columns of
        ``judgements``.
    engine : {"auto", "processes", "dask"}
        Where translations not yet cached are read, a language a task: worker
        processes on this machine (``"auto"``, ``"processes"``; one per CPU, at
        most ``MTBIAS_WORKERS``) or the active Dask scheduler (``"dask"``; with a
        ``distributed.Client`` connected, its workers, which must see the data
        directory and your files at the same paths). The tables are the same.
    progress : callable, optional
        ``progress(iterable, description)`` wraps the long loops (the report's progress bars).
    missing : {"shared", "wrong"}
        Items a file does not translate (:func:`shared_items`): the language is
        analysed on the items every system translated (default), or, as the paper
        did, every item with an untranslated one counted as wrong.
    against, family
        As in :func:`analyse`.
    sample : str, optional
        The column of `judgements` that tells several outputs of an item apart (an
        LLM sampled k times). An item's metrics average over its samples; items
        stay the unit of the bootstrap, the intervals and the pairing
        (:mod:`stats_mtbias.uncertainty.clustered`).
    items : list, str or path, optional
        The items analysed (:func:`~stats_mtbias.studies._common.restrict_items`): ids (0-based lines of en.txt),
        a file of them, or ``"gendered"`` (without the neutral-gold items) or ``"all"``.
    """
    asked_items = items
    systems = check_systems(systems)
    seed = seed_of(rng)
    rng = check_rng(rng)
    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    # A reader is needed only where there is text to read: judgements in any language code are taken as they are.
    given_judgements = judgement_source = None
    if judgements is not None:
        judgement_source = as_source(judgements, "judgements")
        given_judgements = read_user_judgements(judgement_source, items, sample=sample)
    judged = set() if given_judgements is None else set(given_judgements["language"])
    languages = [lang if lang in judged else _check_language(lang) for lang in languages] if languages else None
    translations = dict(translations or {})
    user: list[tuple[str, str, object, bool]] = []
    without_reader: dict[str, list[str]] = {}  # language -> the files skipped for it
    for name, given in translations.items():
        for lang, src, adj in user_files(name, given, languages):
            # Issue 36: a directory's language without a reader is skipped (warned below), the others evaluated.
            if lang not in codes() and isinstance(given, (str, Path)) and Path(given).is_dir():
                if not languages:  # with `languages` it is not asked for (an unsupported one was refused above)
                    without_reader.setdefault(lang, []).append(Path(str(src)).name)
                continue
            user.append((name, _check_language(lang), src, adj))
    if without_reader:
        import warnings

        skipped = "; ".join(f"{lang}: {', '.join(files)}" for lang, files in sorted(without_reader.items()))
        warnings.warn(
            f"WinoMT has no gender reader for {', '.join(sorted(without_reader))}: skipped {skipped} (the "
            f"other languages are evaluated; readers exist for {', '.join(codes())})",
            DataQualityWarning,
            stacklevel=2,
        )
    if systems is None:
        systems = [] if (translations or judgements is not None) else list(winomt_data.SYSTEMS)
    systems = list(systems)
    if len(set(systems) | set(translations)) != len(systems) + len(translations):
        raise UsageError("a system is named twice (shipped systems and user systems must have distinct names).")
    if languages is None:
        languages = sorted({lang for _, lang, _, _ in user} | judged) if (user or judged) else list(codes())
    user = [u for u in user if u[1] in languages]
    if corrected and annotations is None:
        _check_labels(languages)
    notes: list[str] = []
    shipped = {(s, lang, adj): rel for s, lang, adj, rel in winomt_data.translation_files() if lang in codes()}
    jobs = []  # (system, language, adjectives, user source or None)
    for language in languages:
        if systems and language not in codes():
            if language in judged:  # judgements need no reader; the shipped systems have nothing to read there
                notes.extend(f"{system}/{language}: no shipped translations (and no reader), skipped" for system in systems)
                continue
            _check_language(language)  # shipped systems' translations need a reader
        for system in systems:
            if system not in winomt_data.SYSTEMS:
                shipped_names = ", ".join(winomt_data.SYSTEMS)
                raise UsageError(f"`systems`: {system!r} is not a shipped WinoMT system; shipped: {shipped_names}.")
            if (system, language, False) in shipped:
                jobs.append((system, language, False, None))
                if adjectives and (system, language, True) in shipped:
                    jobs.append((system, language, True, None))
            else:
                notes.append(f"{system}/{language}: no shipped translations, skipped")
    jobs += [(name, lang, adj, src) for name, lang, src, adj in user]
    if jobs:  # alignments and readings are cached: an unusable cache is refused before any work
        check_cache_writable()
    base, adj_tables, data = [], [], {}
    origin: dict[tuple[str, str], str] = {}  # (system, language) -> the user's file, for messages
    misaligned: dict[tuple[str, str], list[str]] = {}  # (system, language) -> flags of files that look shifted
    tables = judge_all(
        store, items, jobs, aligner=aligner, use_pronoun=use_pronoun, explain=explain, progress=progress, engine=engine
    )
    for (system, language, is_adj, src), table in zip(jobs, tables, strict=True):
        path = None if src is None else as_source(src, system)
        if table.attrs.get("line_check"):
            misaligned.setdefault((system, language), []).append(table.attrs["line_check"])
        if path is not None:
            data[str(path)] = source_sha256(path)
            if not is_adj:
                origin[system, language] = str(path)
            reasons = table["reason"].replace("", "read").value_counts()
            label = f"{system}/{language}{' (+Adj)' if is_adj else ''}"
            notes.append(f"{label}: " + ", ".join(f"{k} {v}" for k, v in reasons.items()))
        (adj_tables if is_adj else base).append(table)
    if given_judgements is not None:
        source, given = judgement_source, given_judgements
        found = sorted(set(given["language"]))
        given = given[given["language"].isin(languages)] if languages else given
        if given.empty:
            raise DataError(
                f"has readings only for {', '.join(found)}, none for the languages evaluated "
                f"({', '.join(languages)}; supported: {', '.join(codes())})",
                source,
            )
        for key, flag in given_judgements.attrs.get("line_flags", {}).items():
            misaligned.setdefault(key, []).append(flag)
        base.append(given)
        origin.update(dict.fromkeys(zip(given["system"], given["language"], strict=True), str(source)))
        data[str(source)] = source_sha256(source)
    if not base:
        if without_reader:
            files = "; ".join(f"{', '.join(f)} ({lang})" for lang, f in sorted(without_reader.items()))
            raise DataError(
                f"no file in a language WinoMT can read: skipped {files}; readers exist for "
                f"{', '.join(codes())} (or give the readings as judgements, in any language)"
            )
        raise UsageError("no system/language pair to evaluate: give shipped `systems`, `translations` or `judgements`.")
    table = pd.concat(base, ignore_index=True)
    # items=: after reading, before every count; the catalogue's ids are the benchmark's, gendered its non-neutral golds
    named = {"gendered": items.loc[items["gold"] != "neutral", "item"]}
    table, restriction = restrict_items(
        table, asked_items, known=items["item"], named=named, keys=["system", "language"], study="winomt"
    )
    n_asked = len(items)  # the items a file should translate: coverage and the shared-items rule count against it
    if restriction.record["subset"] != "all":
        asked = named.get(restriction.record["subset"])
        n_asked = len(asked) if asked is not None else restriction.record["n_ids"]
        kept_ids = set(table["item"])
        adj_tables = [t[t["item"].isin(kept_ids)] for t in adj_tables]
    if "sample" not in table:
        table["sample"] = ""
    table["sample"] = table["sample"].fillna("").astype(str)
    if table.duplicated(["system", "language", "item", "sample"]).any():
        raise UsageError("two inputs give the same system and language; name user systems uniquely.")
    present = table[~table["reason"].isin(ABSENT)]
    text = present["translation"] if "translation" in present else pd.Series(None, index=present.index, dtype=object)
    integrity(
        present.assign(value=text.where(text.notna(), present["gender"].astype(str))),
        units=["language", "item", "sample"],
        groups=[],
        value="value",
        source={s: f for (s, _), f in origin.items()},
        what="items",
    )
    analysed = shared_items(table, notes, origin, missing=missing, n_items=n_asked)
    samples = check_samples(analysed, notes)
    estimates, comparisons = analyse(
        analysed,
        n_boot=n_boot,
        rng=rng,
        level=level,
        correction=correction,
        interval=interval,
        against=check_systems(against, "against"),
        family=family,
    )
    covered = coverage(table, n_asked).set_index(["system", "language"])["coverage"]
    estimates.insert(4, "coverage", covered.reindex(pd.MultiIndex.from_frame(estimates[["system", "language"]])).to_numpy())
    estimates["flag"] = unread_flags(estimates)
    for row in estimates[estimates["flag"] != ""].itertuples():
        notes.append(f"{row.system}/{row.language}: {row.flag} (Acc counts unread items as wrong)")
    for (system, language), flags in misaligned.items():  # the headline row carries a misaligned file's flag
        row = (estimates["system"] == system) & (estimates["language"] == language)
        estimates.loc[row, "flag"] = ["; ".join(filter(None, [*flags, old])) for old in estimates.loc[row, "flag"]]
        notes.append(f"{system}/{language}: {'; '.join(flags)}")
    adj_frame = adjective_effect(table, pd.concat(adj_tables, ignore_index=True), level=level) if adj_tables else None
    corrected_frame = found = annotated = None
    user_pairs = pd.DataFrame(columns=["system", "language", "item", "gold", "human", "automatic"])
    if annotations is not None:
        source = as_source(annotations, "annotations")
        agree, between, user_pairs = annotation_agreement(read_annotations(source, items), table, level=level, source=source)
        annotated = {"agreement": agree, "between": between}
        data[str(source)] = source_sha256(source)
    if validate or corrected:
        found = validation(store, items, aligner=aligner, use_pronoun=use_pronoun, progress=progress)
    if corrected or len(user_pairs):
        pairs = pd.concat([found["pairs"], user_pairs], ignore_index=True) if corrected else user_pairs
        # Without the shipped labels only the systems the user labelled are corrected.
        target = estimates if corrected else estimates.merge(user_pairs[["system", "language"]].drop_duplicates())
        corrected_frame = corrected_accuracy(
            target, pairs, n_draws=n_draws, rng=rng, level=level, construct="pronoun" if use_pronoun else "entity"
        )
        no_labels = sorted(set(estimates["language"]) - set(corrected_frame.get("language", ())))
        if no_labels:
            notes.append(f"no human labels for {', '.join(no_labels)}: no corrected Acc")
        if len(corrected_frame):
            unlabelled = corrected_frame[corrected_frame["n_labelled"] == 0]
            if len(unlabelled):
                names = ", ".join(f"{r.system}/{r.language}" for r in unlabelled.itertuples())
                notes.append(
                    f"not corrected (no labels of their own translations; another system's labels would not apply): {names}"
                )
            other = corrected_frame[corrected_frame["labels"].str.contains("another construct", regex=False)]
            if len(other):
                names = ", ".join(f"{r.system}/{r.language}" for r in other.itertuples())
                notes.append(
                    f"not corrected (their labels follow the {'translated pronoun' if not use_pronoun else 'entity'} "
                    f"in most conflicts, not what the metric reads): {names}"
                )
    accounting = common_accounting(table.assign(outcome=table["reason"].replace("", "read")), ["system", "language"], "outcome")
    data = {**dict(sorted(store.used.items())), **data}
    rule = (
        "items every system of a language translated"
        if missing == "shared"
        else "every item, an untranslated one counted as wrong (the paper's rule)"
    )
    provenance = record_provenance(
        f"{aligner} word alignment (grow-diag-final-and) + stats_mtbias.gender.targets readers; Acc, F1, ΔG, ΔS as "
        f"shares over the {rule}; Acc, Acc_pro, Acc_anti: Wilson intervals with exact Poisson ends (<= 10 errors), "
        f"ΔS: Newcombe's hybrid score interval; F1, ΔG: bootstrap over items stratified by stereotype × gold gender, "
        f"{interval}; differences between systems, test and interval from one method: Tango score interval and McNemar "
        f"score test (accuracies), MOVER of the Tango intervals (ΔS), item jackknife t (F1, ΔG)"
        + (
            "; several samples per item: an item's metrics the means over its samples, items the unit of resampling "
            "and pairing; Wilson on the effective sample size (cluster-robust design effect), Tango/McNemar on the "
            "table deflated by Durkalski's clustered design effect"
            if samples
            else ""
        ),
        data,
        rng=seed,
        level=level,
        n_boot=n_boot,
        correction=correction,
        family=family,
        options={
            "aligner": aligner,
            "languages": list(languages),
            "readers": "stats_mtbias.gender.targets",
            "use_pronoun": use_pronoun,
            "systems": list(dict.fromkeys(table["system"].astype(str))),
            "interval": interval,
            "missing": missing,
            "against": against,
            "sample": sample,
            # The systems of the user's inputs (the report's "your systems"), never guessed from names.
            "yours": list(
                dict.fromkeys([*translations, *([] if given_judgements is None else given_judgements["system"].astype(str))])
            ),
        },
    )
    est = estimates
    parts = []
    for metric in METRICS:
        part = melt(
            est,
            {metric: (metric, f"{metric}_ci_low", f"{metric}_ci_high")},
            keys={"system": "system", "language": "language"},
            defaults={"subset": "all"},
            n=f"{metric}_n",
        )
        parts.append(part)
    long = pd.concat(parts, ignore_index=True)
    order = {m: i for i, m in enumerate(METRICS)}
    long = long.sort_values(
        ["language", "system", "metric"], key=lambda c: c.map(order) if c.name == "metric" else c, kind="stable"
    ).reset_index(drop=True)
    long = (
        long.set_index(["system", "language"])
        .loc[pd.MultiIndex.from_frame(est[["system", "language"]])]
        .reset_index()[TABLE_COLUMNS]
    )
    flags = zip(zip(est["system"].astype(str), est["language"].astype(str), strict=True), est["flag"], strict=True)
    long = with_flags(long, dict(flags), ["system", "language"])
    frames = {
        "estimates": est,
        "accounting": accounting,
        "judgements": table,
        "consistency": consistency(analysed, level=level) if samples else None,
        "adjectives": adj_frame,
        "corrected": corrected_frame,
    }
    if found is not None:
        frames["validation"] = found["validation"]
        confusions = [c.stack().rename("n").reset_index().assign(file=file) for file, c in found["confusions"].items()]
        frames["confusions"] = (
            pd.concat(confusions, ignore_index=True)[["file", "human", "automatic", "n"]]
            if confusions
            else pd.DataFrame(columns=["file", "human", "automatic", "n"])
        )
        frames["inter_annotator"] = found["annotators"]
    if explain:
        unread = table[table["gender"] == "unknown"]
        frames["unread"] = unread.reindex(columns=UNREAD_COLUMNS).fillna("").reset_index(drop=True)
    if annotated is not None:
        frames["annotations"] = annotated["agreement"]
        frames["annotators"] = annotated["between"]
    return finish(
        "winomt",
        long,
        comparisons,
        provenance,
        frames,
        allowed=FRAMES,
        correction=correction,
        family=family,
        notes=notes,
        items=restriction,
    )


# What ``explain=True`` shows of each unread WinoMT item.
UNREAD_COLUMNS = ["system", "language", "item", "entity", "translation", "aligned", "reason", "why"]


READ_COLUMNS = ["system", "language", "item", "entity", "gold", "translation", "gender", "reason", "aligned", "why"]


def read(
    translations, *, name: str = "system", languages=None, data_dir=None, aligner: str = "fastalign", use_pronoun: bool = False
) -> pd.DataFrame:
    """Every translated WinoMT item of a system read, with the target words read and why: ``winomt(judgements=...)``'s table.

    `translations`: an ``en-XX.txt`` file, a directory of them, ``{language: file or frame}`` or a frame
    with ``source, translation`` (and ``language``), as in :func:`stats_mtbias.winomt`; `name` the system.
    """
    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    jobs = [
        (name, _check_language(lang), False, src)
        for lang, src, adj in user_files(name, translations, languages)
        if not adj and (not languages or lang in languages)
    ]
    if not jobs:
        raise UsageError(f"no translations of {name} to read in the languages asked ({', '.join(languages or [])}).")
    tables = judge_all(store, items, jobs, aligner=aligner, use_pronoun=use_pronoun, explain=True, progress=None)
    out = pd.concat(tables, ignore_index=True)
    out = out[~out["reason"].isin(ABSENT)]  # an item without a line has no output to read (absent, not unread)
    return out.reindex(columns=READ_COLUMNS).fillna({"aligned": "", "why": "", "reason": ""}).reset_index(drop=True)


FRAMES = (
    "estimates",
    "accounting",
    "judgements",
    "adjectives",
    "corrected",
    "validation",
    "confusions",
    "inter_annotator",
    "unread",
    "annotations",
    "annotators",
    "consistency",
)
SPEC = Spec(
    "Acc: entities translated with their gold gender; ΔG = F1(male) − F1(female); ΔS = Acc on "
    "pro-stereotypical minus anti-stereotypical items (0 = no gap).",
    ("acc", "delta_g", "delta_s", "acc_pro", "acc_anti"),
    ("acc", "delta_g", "delta_s"),
    ("acc", "delta_g", "delta_s"),
    title="WinoMT (Stanovsky et al. 2019): English → gendered languages",
)
STUDY = Study("winomt", FRAMES, evaluate, pilot, read, spec=SPEC)
