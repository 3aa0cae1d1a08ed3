"""Reading WinoMT translations into genders: a file at a time, cached, here or in worker processes or on Dask.

``judge``: translations → tokens → word alignment (sil-thot FastAlign, trained on
the test bitext and on the other systems' translations into the same language)
→ target tokens aligned to the entity and its determiner → the language's gender
reader (:mod:`stats_mtbias.gender.entity`). Readings of shipped files are cached,
keyed on everything they depend on (the code, the data, the options).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

import stats_mtbias.alignment
import stats_mtbias.gender
from stats_mtbias._cache import default_cache_dir
from stats_mtbias._files import read_cache, write_cache
from stats_mtbias.alignment import align, tokenize
from stats_mtbias.datasets import winomt as winomt_data
from stats_mtbias.datasets.correspondence import check_lines
from stats_mtbias.datasets.registry import DataStore, manifest
from stats_mtbias.datasets.sources import as_source
from stats_mtbias.datasets.winomt import annotation_language, annotation_rows
from stats_mtbias.errors import DataQualityWarning, UsageError
from stats_mtbias.gender.entity import aligner_tokens, head_word, read_pairs, reading_lexicon
from stats_mtbias.gender.langid import mark_wrong_language

_LANGUAGE_LINKS: dict[tuple[str, str, str], dict] = {}
_LANGUAGE_LEXICON: dict[tuple[str, str, str], dict] = {}
_LANGUAGE_TEXT: dict[tuple[str, str], tuple[list[tuple], list[tuple]]] = {}

_READINGS = frozenset({"male", "female", "neutral", "unknown", "both"})  # what a cached reading may hold


def shipped_pairs(store: DataStore, language: str, items: pd.DataFrame, *, adjectives: bool, skip: str | None = None):
    """Source and translation of every shipped translation into `language` (with or without the "+Adj" files)."""
    src, trg = [], []
    for _system, lang, is_adj, relpath in winomt_data.translation_files():
        if lang != language or (is_adj and not adjectives) or relpath == skip:
            continue
        table = winomt_data.read_translations(store.path(relpath), items, adjectives=is_adj)
        ok = table["reason"] == ""
        src += table.loc[ok, "source"].tolist()
        trg += table.loc[ok, "translation"].tolist()
    return src, trg


def bitext(store: DataStore, language: str, items: pd.DataFrame, skip: str | None = None):
    """Every shipped translation into `language` (except `skip`), tokenized, as extra training text."""
    src, trg = shipped_pairs(store, language, items, adjectives=False, skip=skip)
    return [tokenize(s) for s in src], [tokenize(t) for t in trg]


def judge(
    store: DataStore,
    system: str,
    language: str,
    items: pd.DataFrame,
    *,
    adjectives: bool = False,
    method: str = "fastalign",
    use_pronoun: bool = False,
    path: str | Path | None = None,
    explain: bool = False,
):
    """Judgement table of one translation file: item, gold, stereotype, gender, reason.

    The shipped file of `system` and `language`, or, with `path`, a user's own
    ``source ||| translation`` file (matched to the items by source sentence; its
    lines that a shipped file holds keep their shipped alignment and reading when
    most of them do, and the others are aligned with the shipped bitext of the
    language as extra data: :func:`reading_alignments`). With
    `explain`, also ``aligned`` (the target words read) and ``why`` (for an
    unknown reading, the reason in words); the readings are then computed afresh.
    """
    relpath = winomt_data.translation_path(system, language, adjectives)
    source_file = store.path(relpath) if path is None else as_source(path, system)
    table = winomt_data.read_translations(source_file, items, adjectives=adjectives)
    label = f"{system}/{language}{' (+Adj)' if adjectives else ''}"
    line_check = ""
    if path is not None and table.attrs.get("surplus_lines"):
        _warn_repeated(table, label, source_file)
    if path is not None:  # a user's file: do its translations belong to the sources beside them? (issue 49)
        in_file = table[table["line"] > 0].sort_values("line")
        line_check = check_lines(
            in_file["source"].tolist(), in_file["translation"].tolist(), label=label, path=source_file, stacklevel=2
        ).flag()
    ok = (table["reason"] == "").to_numpy()
    merged = items.merge(table[["item", "source", "translation", "reason"]], on="item")
    sources = merged.loc[ok, "source"].tolist()
    # "+Adj" sources carry the adjective: recompute the entity's word index in them.
    indices = merged.loc[ok, "entity_index"].to_numpy() + (1 if adjectives else 0)
    translations = merged.loc[ok, "translation"].tolist()
    genders = np.full(len(merged), "unknown", dtype=object)
    # A user's file is cached by its read lines' content (issue 47: ≤ 1 s warm), a shipped one by its path.
    content = None if path is None else _lines_digest(sources, translations)
    cached = readings_path(store, language, relpath, adjectives, method, use_pronoun, content=content)
    n_ok = int(ok.sum())
    hit = (
        None
        if cached is None or explain
        else read_cache(cached, lambda v: isinstance(v, list) and len(v) == n_ok and all(g in _READINGS for g in v))
    )
    details: list[dict] | None = [] if explain else None
    if hit is not None:
        genders[ok] = hit
    else:
        links, lexicon = reading_alignments(store, language, items, sources, translations, method)
        extra = bitext(store, language, items, skip=relpath) if links is None else None
        genders[ok] = read_pairs(
            sources,
            indices,
            translations,
            language,
            extra=extra,
            method=method,
            use_pronoun=use_pronoun,
            alignments=links,
            lexicon=lexicon,
            details=details,
        )
        if cached is not None:
            _write_readings(cached, genders[ok])
    merged["gender"] = genders
    if details is not None:
        merged["aligned"], merged["why"] = "", np.where(ok, "", "no translation line")
        merged.loc[ok, "aligned"] = [d["aligned"] for d in details]
        merged.loc[ok, "why"] = [d["why"] if g == "unknown" else "" for d, g in zip(details, genders[ok])]
    merged["reason"] = np.where(ok & (genders == "unknown"), "no_reading", merged["reason"])
    # Issue 36: lines confidently in another language are not read (reason "wrong_language"), with a warning.
    mark_wrong_language(merged, language, label, line_numbers=table["line"].to_numpy())
    other = merged.attrs.pop("wrong_language", None)
    if other and other["lines"] >= WRONG_FILE_SHARE * other["of"]:
        line_check = "; ".join(
            filter(
                None,
                [
                    line_check,
                    f"{other['lines'] / other['of']:.0%} of its lines are in "
                    f"{'/'.join(other['languages'])}, not {language}: the wrong file or "
                    "language?",
                ],
            )
        )
    merged["system"], merged["language"] = system, language
    merged.attrs["line_check"] = f"{'+Adj file: ' if adjectives else ''}{line_check}" if line_check else ""
    return merged


# A file most of whose lines are in another language is flagged on its headline row, not only warned about.
WRONG_FILE_SHARE = 0.5


def _warn_repeated(table: pd.DataFrame, label: str, path) -> None:
    """Lines whose source was already translated as often as en.txt has it: not counted, and said (issue 49)."""
    import warnings

    surplus = table.attrs["surplus_lines"]
    kept = dict(zip(table["source"], zip(table["translation"], table["line"], strict=True), strict=True))
    differ = [(line, kept[source][1]) for line, source, _ in surplus if source in kept and kept[source][0] != ""]
    shown = ", ".join(f"line {line} (source first on line {first})" for line, first in differ[:5])
    more = f" and {len(differ) - 5} more" if len(differ) > 5 else ""
    warnings.warn(
        f"{label} ({path}): {len(surplus)} line(s) repeat a source already translated as often as "
        f"WinoMT has it — {shown or f'line {surplus[0][0]}'}{more}; the first translation of each is "
        "scored, the repeats are not counted. Remove the repeats, or check the file for a duplicated block.",
        DataQualityWarning,
        stacklevel=3,
    )


def _write_readings(path: Path, genders) -> None:
    """The cache entry of one file's readings: the gender of every line the reader saw, in order."""
    write_cache(path, json.dumps([str(g) for g in genders]))


def remember(
    store: DataStore, system: str, language: str, table: pd.DataFrame, *, adjectives: bool, method: str, use_pronoun: bool
) -> None:
    """Cache here the readings of a shipped file that :func:`judge` returned from elsewhere (a Dask worker's disk)."""
    path = readings_path(
        store, language, winomt_data.translation_path(system, language, adjectives), adjectives, method, use_pronoun
    )
    if not path.exists():
        # The lines the reader saw are those judge gave no other reason (an unread one: "no_reading").
        # (wrong_language lines too: they had a translation; their cached reading is then "unknown", re-marked anyway)
        _write_readings(path, table.loc[table["reason"].isin(["", "no_reading", "wrong_language"]).to_numpy(), "gender"])


def language_links(store: DataStore, language: str, items: pd.DataFrame, method: str) -> dict:
    """Alignments of every shipped pair into `language`, trained together once: (src tokens, trg tokens) -> links.

    The union of all systems' translations, the "+Adj" files and the human-labelled
    samples is the same training text for each of them, so one alignment run (cached
    on disk by content) serves the whole language instead of one run per file.
    """
    key = (str(store.root), language, method)
    if key not in _LANGUAGE_LINKS:
        src_tokens, trg_tokens = language_text(store, language, items)
        links = align(src_tokens, aligner_tokens(trg_tokens, language), method=method)
        _LANGUAGE_LINKS[key] = dict(zip(zip(src_tokens, trg_tokens), links))
    return _LANGUAGE_LINKS[key]


def language_text(store: DataStore, language: str, items: pd.DataFrame) -> tuple[list[tuple], list[tuple]]:
    """The tokenised training text of :func:`language_links` (read and tokenised once per language and process)."""
    key = (str(store.root), language)
    if key not in _LANGUAGE_TEXT:
        src, trg = shipped_pairs(store, language, items, adjectives=True)
        sentences = items.set_index("item")["sentence"]
        for relpath in sorted(p for p in manifest() if p.startswith("winomt/data/human_annotations/")):
            if annotation_language(Path(relpath).name) == language:
                for item, translation, _label in annotation_rows(store.path(relpath), items)[1]:
                    src.append(sentences[item])
                    trg.append(translation)
        _LANGUAGE_TEXT[key] = ([tuple(tokenize(x)) for x in src], [tuple(tokenize(x)) if x else () for x in trg])
    return _LANGUAGE_TEXT[key]


def _held(store, language, items, sources, translations) -> list[bool]:
    """Whether a shipped file of the language holds each pair (no alignment needed to know)."""
    shipped = set(zip(*language_text(store, language, items)))
    return [(tuple(tokenize(s)), tuple(tokenize(t)) if t else ()) in shipped for s, t in zip(sources, translations)]


def language_lexicon(store: DataStore, language: str, items: pd.DataFrame, method: str) -> dict[str, frozenset[str]]:
    """The usual translations of the entities' head words, from every shipped pair into `language`."""
    key = (str(store.root), language, method)
    if key not in _LANGUAGE_LEXICON:
        links = language_links(store, language, items, method)
        heads = {head_word(sentence, index) for sentence, index in zip(items["sentence"], items["entity_index"])}
        src, trg = zip(*links)
        _LANGUAGE_LEXICON[key] = reading_lexicon(src, trg, list(links.values()), sorted(heads), language)
    return _LANGUAGE_LEXICON[key]


def shipped_alignments(store, language, items, sources, translations, method):
    """The language-wide alignments of these pairs, or None if one of them is not shipped (a user's own file)."""
    out = _shipped_links(store, language, items, sources, translations, method)
    return None if any(a is None for a in out) else out


def _shipped_links(store, language, items, sources, translations, method) -> list:
    """The language-wide alignment of each pair, None for a pair that no shipped file holds."""
    links = language_links(store, language, items, method)
    return [links.get((tuple(tokenize(s)), tuple(tokenize(t)) if t else ())) for s, t in zip(sources, translations)]


def reading_alignments(store, language, items, sources, translations, method):
    """The alignments and the lexicon to read these pairs with: ``(links, lexicon)``, or ``(None, None)``.

    A pair that a shipped file of the language holds (the same source and
    translation) keeps its shipped links, and the pairs are read with the
    language's lexicon, so such a line reads exactly as in the shipped file (issue
    49). This holds for every shipped file, and for a user's file most of whose
    lines are shipped ones (a shipped file with a few lines edited): its other
    lines are aligned anew, on themselves and every shipped translation into the
    language (:func:`bitext`), and only they can read differently. Before, one
    dropped full stop in Google's German file re-aligned all of it and changed 16
    other readings. A file most of whose lines are new gives ``(None, None)``: it is
    aligned as a whole with the bitext and read with its own usual translations,
    which follow its own wording.
    """
    # Decided before aligning: a mostly new file never needs the language-wide alignment (issue 47: one training, not two).
    held = _held(store, language, items, sources, translations)
    if 2 * held.count(False) >= max(len(held), 1) and not all(held):
        return None, None
    found = _shipped_links(store, language, items, sources, translations, method)
    missing = [k for k, links in enumerate(found) if links is None]
    if missing:
        src = [tokenize(sources[k]) for k in missing]
        trg = [tokenize(translations[k]) if translations[k] else [] for k in missing]
        extra_src, extra_trg = bitext(store, language, items)
        new = align(src, aligner_tokens(trg, language), method=method, extra=(extra_src, aligner_tokens(extra_trg, language)))
        for k, links in zip(missing, new, strict=True):
            found[k] = links
    return found, language_lexicon(store, language, items, method)


@lru_cache(maxsize=1)
def code_digest() -> str:
    """sha256 of the code that turns a translation into a gender (aligner, every module of stats_mtbias.gender, this module)."""
    files = [Path(__file__), Path(stats_mtbias.alignment.__file__)]
    files += sorted(Path(stats_mtbias.gender.__file__).parent.rglob("*.py"))
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.read_bytes())
    return digest.hexdigest()


def _lines_digest(sources: list[str], translations: list[str]) -> str:
    """sha256 of the (source, translation) lines a reader sees: a user's file's part of its readings' key."""
    return hashlib.sha256(json.dumps([sources, translations], ensure_ascii=False).encode("utf-8")).hexdigest()


def readings_path(
    store: DataStore,
    language: str,
    relpath: str,
    adjectives: bool,
    method: str,
    use_pronoun: bool,
    *,
    content: str | None = None,
):
    """Cache file of one file's readings: a shipped one, or with `content` (:func:`_lines_digest`) a user's.

    The key holds everything the readings depend on: the code (aligner, readers),
    the options, en.txt, and every shipped file of the language, since they are
    the alignment's training text. A changed file or reader makes a new key. A
    user's file is keyed by the lines read from it, so the same translations in
    another file or format hit the same entry; `relpath` stays in the key because
    the system's name decides which shipped file the bitext skips.
    """
    inputs = sorted(
        p
        for p in manifest()
        if p == winomt_data.ITEMS
        or (p.startswith("winomt/translations/") and p.endswith(f"en-{language}.txt"))
        or (p.startswith("winomt/data/human_annotations/") and annotation_language(Path(p).name) == language)
    )
    for relpath_ in inputs:
        if relpath_ not in store.used:
            store.path(relpath_)  # records the file's sha256
    digests = [(p, store.used[p]) for p in inputs]
    key = [code_digest(), language, relpath, adjectives, method, use_pronoun, digests]
    if content is not None:  # appended only for a user's file: the shipped files' keys are unchanged
        key.append(content)
    material = json.dumps(key)
    return default_cache_dir() / "readings" / f"{hashlib.sha256(material.encode('utf-8')).hexdigest()[:32]}.json"


def judge_language(store, items: pd.DataFrame, jobs: list, *, aligner: str, use_pronoun: bool, explain: bool):
    """:func:`judge` over one language's jobs: the tables, the files used and the warnings raised.

    In a worker process the warnings are recorded and handed back, to be raised again in the parent.
    """
    import warnings

    tables = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for system, language, is_adj, src in jobs:
            path = None if src is None else as_source(src, system)
            tables.append(
                judge(
                    store,
                    system,
                    language,
                    items,
                    adjectives=is_adj,
                    method=aligner,
                    use_pronoun=use_pronoun,
                    path=path,
                    explain=explain and not is_adj,
                )
            )
    return tables, dict(store.used), [(w.category, str(w.message)) for w in caught]


def _job_bytes(store, job) -> float:
    """Size of a job's translations (the reading's cost, to balance the workers)."""
    system, language, is_adj, src = job
    if src is None:
        return float(store.path(winomt_data.translation_path(system, language, is_adj)).stat().st_size)
    if isinstance(src, (str, Path)) and Path(src).is_file():
        return float(Path(src).stat().st_size)
    return 1e6


def _judge_in_process(store, items: pd.DataFrame, jobs: list, options: dict):
    """:func:`judge_language` in a fresh interpreter (``stats_mtbias.studies._reading_worker``)."""
    import os
    import pickle
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ)
    # The child imports this very package, installed or not.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[3]), env.get("PYTHONPATH")]))
    request = pickle.dumps({"args": (store, items, jobs), "kwargs": options}, protocol=pickle.HIGHEST_PROTOCOL)
    done = subprocess.run(
        [sys.executable, "-m", "stats_mtbias.studies._reading_worker"], input=request, capture_output=True, env=env, check=False
    )
    try:
        status, value = pickle.loads(done.stdout)
    except Exception:
        tail = done.stderr.decode("utf-8", "replace")[-2000:]
        raise RuntimeError(f"the WinoMT reader for {jobs[0][1]} stopped (exit {done.returncode}): {tail}") from None
    if status == "error":
        raise value
    return value


def reading_workers(n_languages: int) -> int:
    """Processes that read translations: one per language to read, at most the CPUs (``MTBIAS_WORKERS`` caps it)."""
    import os

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    cap = os.environ.get("MTBIAS_WORKERS", "")
    if cap:
        try:
            cpus = min(cpus, max(1, int(cap)))
        except ValueError:
            raise UsageError(f"MTBIAS_WORKERS must be a whole number of processes, not {cap!r}") from None
    return max(1, min(cpus, n_languages))


READING_ENGINES = ("auto", "processes", "dask")


def _judge_on_dask(store, items: pd.DataFrame, jobs: list, groups: list[list[int]], options: dict) -> list:
    """:func:`judge_language` of each group of jobs as a task of the active Dask scheduler.

    With a ``distributed.Client`` connected the languages are read on its workers,
    which must see the data directory (and any file a user gave) at the same path.
    """
    try:
        import dask
    except ImportError:
        raise UsageError("engine='dask' needs dask: pip install 'stats_mtbias[all]'") from None
    tasks = [dask.delayed(judge_language, pure=False)(store, items, [jobs[i] for i in group], **options) for group in groups]
    return list(dask.compute(*tasks))


def judge_all(
    store,
    items: pd.DataFrame,
    jobs: list,
    *,
    aligner: str,
    use_pronoun: bool,
    explain: bool,
    progress,
    engine: str = "auto",
):
    """The judgement table of every job, in job order.

    Languages whose readings are not all cached are read in parallel, one
    language a task (the aligner trains on a language's files together, so a
    language is the unit of work): by default (``engine`` ``"auto"`` or
    ``"processes"``) in worker interpreters on this machine, with ``"dask"`` as
    tasks of the active Dask scheduler (a cluster's workers). Cached ones are
    read here, where a worker's start-up would cost more than the reading.
    """
    if engine not in READING_ENGINES:
        raise UsageError(f"engine must be one of {', '.join(READING_ENGINES)}, not {engine!r}")
    by_language: dict[str, list[int]] = {}
    for i, job in enumerate(jobs):
        by_language.setdefault(job[1], []).append(i)

    def cached(job) -> bool:
        system, language, is_adj, src = job
        if src is not None or explain:
            return False
        relpath = winomt_data.translation_path(system, language, is_adj)
        return readings_path(store, language, relpath, is_adj, aligner, use_pronoun).exists()

    import warnings

    cold = [lang for lang, idx in by_language.items() if not all(cached(jobs[i]) for i in idx)]
    workers = reading_workers(len(cold))
    tables: list = [None] * len(jobs)
    options = {"aligner": aligner, "use_pronoun": use_pronoun, "explain": explain}
    if engine == "dask" and cold:
        groups = [by_language[lang] for lang in cold]
        done = _judge_on_dask(store, items, jobs, groups, options)
        for group, (result, used, caught) in zip(groups, done, strict=True):
            store.used.update(used)
            for category, message in caught:
                warnings.warn(message, category, stacklevel=3)
            for i, table in zip(group, result, strict=True):
                tables[i] = table
                system, language, is_adj, src = jobs[i]
                if src is None and not explain:  # a remote worker cached them on its own disk: here too
                    remember(store, system, language, table, adjectives=is_adj, method=aligner, use_pronoun=use_pronoun)
        workers = len(groups)
    elif workers > 1:
        from concurrent.futures import ThreadPoolExecutor

        # One worker interpreter per CPU, each reading a share of the languages balanced by their bytes
        # (longest first): an interpreter's start-up is paid once per worker, not once per language.
        shares: list[list[str]] = [[] for _ in range(workers)]
        loads = [0.0] * workers
        for lang in sorted(cold, key=lambda lang: -sum(_job_bytes(store, jobs[i]) for i in by_language[lang])):
            k = loads.index(min(loads))
            shares[k].append(lang)
            loads[k] += sum(_job_bytes(store, jobs[i]) for i in by_language[lang])
        with ThreadPoolExecutor(workers) as pool:
            futures = [
                pool.submit(_judge_in_process, store, items, [jobs[i] for lang in share for i in by_language[lang]], options)
                for share in shares
            ]
            label = f"WinoMT: align and read ({workers} processes)"
            for share, future in progress(list(zip(shares, futures)), label) if progress else zip(shares, futures):
                result, used, caught = future.result()
                store.used.update(used)
                for category, message in caught:
                    warnings.warn(message, category, stacklevel=3)
                for i, table in zip([i for lang in share for i in by_language[lang]], result, strict=True):
                    tables[i] = table
    rest = [i for i in range(len(jobs)) if tables[i] is None]
    label = "WinoMT: read" + (" (cached)" if workers > 1 else " and align")
    for i in progress(rest, label) if progress and rest else rest:
        result, _, caught = judge_language(store, items, [jobs[i]], **options)
        tables[i] = result[0]
        for category, message in caught:
            warnings.warn(message, category, stacklevel=3)
    return tables
