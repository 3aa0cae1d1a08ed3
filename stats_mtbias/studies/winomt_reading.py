"""Reading the entity's gender in WinoMT translations, and checking the reading against people.

``judge``: translations → tokens → word alignment (sil-thot FastAlign, trained on
the test bitext and on the other systems' translations into the same language)
→ target tokens aligned to the entity and its determiner → the language's gender
reader. ``validate``: the same reading on the native speakers' annotated samples,
with agreement, Cohen's κ, the confusion matrix and Wilson intervals.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import warnings
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias._files import read_cache, write_atomic
from stats_mtbias.alignment import align, tokenize, translation_lexicon, word_tokens
from stats_mtbias.datasets import winomt as winomt_data
from stats_mtbias.datasets._io import as_source
from stats_mtbias.datasets.registry import DataStore
from stats_mtbias.errors import DataError, DataQualityWarning
from stats_mtbias.gender.langid import mark_wrong_language
from stats_mtbias.gender.targets import INDEFINITE, alignment_form, forms, reader
from stats_mtbias.uncertainty.analytic import wilson_interval

DETERMINERS = frozenset({"the", "a", "an"})
# English entities whose usual translations include the language's indefinite pronouns (targets.INDEFINITE).
ENGLISH_INDEFINITE = frozenset({"someone", "somebody", "anyone", "anybody"})
ENGLISH_PRONOUNS = frozenset({"he", "she", "him", "her", "his", "hers", "himself", "herself"})
# Explicitly gendered subject/object pronouns of the target languages (ambiguous forms such as French
# "le/la/lui" are left out, as they double as articles). Only words aligned to an English he/she/him/her/his
# count, so German "ihr" there is "(to) her", not "you" or "their".
TARGET_PRONOUNS = {
    "de": {"er": "male", "ihn": "male", "ihm": "male", "sein": "male", "seine": "male", "seinen": "male", "seinem": "male",
           "seiner": "male", "sie": "female", "ihr": "female"},
    "fr": {"il": "male", "elle": "female"},
    "es": {"él": "male", "ella": "female"},
    "it": {"lui": "male", "lei": "female", "egli": "male", "ella": "female"},
    "ru": {"он": "male", "она": "female", "его": "male", "её": "female", "ее": "female", "ему": "male", "ей": "female",
           "ним": "male", "ней": "female"},
    "uk": {"він": "male", "вона": "female", "його": "male", "її": "female", "йому": "male", "їй": "female"},
}  # fmt: skip
# Where the native annotators' labels follow the pronoun (German and French: agreement .55 -> .76 and
# .70 -> .84); for Spanish, Italian, Russian and Ukrainian it lowers agreement. Off by default (see read_pairs).
PRONOUN_LANGUAGES = ("de", "fr")
# Fewer translation lines than this: a usual translation needs 2 links instead of 5 (read_entity_and_pronoun).
SMALL_FILE = 1000
HUMAN = {"m": "male", "f": "female", "n": "neutral"}
_READINGS = frozenset({"male", "female", "neutral", "unknown", "both"})  # what a cached reading may hold


def entity_positions(sentence: str, entity_index: int) -> tuple[list[int], list[int]]:
    """Token positions of the entity's head word and of its determiner (if the word before is one)."""
    spans = word_tokens(sentence)
    start, end = spans[entity_index]
    words = sentence.split()
    determiner = []
    if entity_index > 0 and words[entity_index - 1].lower() in DETERMINERS:
        determiner = list(range(*spans[entity_index - 1]))
    return list(range(start, end)), determiner


def read_pairs(
    sources,
    entity_indices,
    translations,
    language,
    *,
    extra=None,
    method="fastalign",
    cache=True,
    use_pronoun=False,
    alignments=None,
    lexicon=None,
    details: list | None = None,
) -> list[str]:
    """The entity's gender in every translation (``unknown`` where it is empty).

    By default the entity's own words decide, as METHODS.md §3 and the original
    WinoMT scripts define the metric. With `use_pronoun`, for German and French an
    explicitly gendered target pronoun aligned to the English pronoun (which
    WinoMT makes refer to the entity) overrides the noun, as those languages'
    native annotators labelled the samples; it raises agreement with them but
    measures the pronoun's translation, not the entity's, and inflates Acc (Google
    de 82% instead of about 60%), so it is only an option.

    When the words aligned to the entity give no reading (nothing aligned, or only
    an auxiliary such as Italian "ha": alignment misses), or none of them is one of
    the entity's usual translations (German inflections allowed:
    :func:`~stats_mtbias.gender.targets.forms`) — the aligner took the possessed
    noun of "the librarian's room", "das Zimmer des Bibliothekars" — the entity's usual
    translations are looked for in the sentence instead (`lexicon`, from
    :func:`stats_mtbias.alignment.translation_lexicon`; by default learned from these
    pairs' own alignments) and read if exactly one of them occurs: two would leave
    the reading ambiguous. `alignments` (from :func:`stats_mtbias.alignment.align`
    on the tokenized pairs) skips the aligner, e.g. to time the stages apart.
    `details`, a list, receives what :func:`read_entity_and_pronoun` says of each.
    """
    entity, pronoun = read_entity_and_pronoun(sources, entity_indices, translations, language, extra=extra,
                                              method=method, cache=cache, alignments=alignments, lexicon=lexicon,
                                              details=details)  # fmt: skip
    return _pronoun_decides(entity, pronoun) if use_pronoun and language in PRONOUN_LANGUAGES else entity


def _pronoun_decides(entity, pronoun) -> list[str]:
    """The `use_pronoun` reading: an explicitly gendered translated pronoun overrides the entity's own words."""
    return [p if p in ("male", "female") else e for e, p in zip(entity, pronoun)]


def _head_word(sentence: str, index: int) -> str:
    """The entity's word as a token, without punctuation stuck to it ("housekeeper," is "housekeeper")."""
    return tokenize(sentence.split()[index])[0]


def read_entity_and_pronoun(
    sources, entity_indices, translations, language, *, extra=None, method="fastalign", cache=True, alignments=None,
    lexicon=None, details: list | None = None,
) -> tuple[list[str], list[str]]:
    """Two readings of every translation: the entity's own words (the metric's), and its translated pronoun.

    The second is the gender of the explicitly gendered target pronouns aligned to
    the English pronouns (he, she, him, her, …; WinoMT's pronoun refers to the
    entity): ``male`` or ``female`` where they agree, ``unknown`` where there are
    none, they conflict, or the language has no list (Arabic, Hebrew). Arguments
    as in :func:`read_pairs`. A `details` list receives, per translation, the
    target words read (``aligned``) and, for an unknown entity, why (``why``).
    """
    src = [tokenize(s) for s in sources]
    trg = [tokenize(t) if t else [] for t in translations]
    if alignments is None:
        if extra is not None:
            extra = (extra[0], _aligner_tokens(extra[1], language))
        alignments = align(src, _aligner_tokens(trg, language), method=method, extra=extra, cache=cache)
    read = reader(language)
    pronouns = TARGET_PRONOUNS.get(language, {})
    heads = [_head_word(sentence, index) for sentence, index in zip(sources, entity_indices)]
    if lexicon is None:
        lexicon = reading_lexicon(src, trg, alignments, heads, language)
    entity_out, pronoun_out = [], []
    for sentence, index, head, source, tokens, links in zip(sources, entity_indices, heads, src, trg, alignments):
        if not tokens:
            entity_out.append("unknown")
            pronoun_out.append("unknown")
            if details is not None:
                details.append({"aligned": "", "why": "no translation"})
            continue
        entity, determiner = entity_positions(sentence, index)
        wanted = set(entity) | set(determiner)
        positions = sorted({int(j) for i, j in links if i in wanted})
        gender = read(tokens, positions)
        usual = lexicon.get(head.lower(), frozenset())
        if head.lower() in ENGLISH_INDEFINITE:
            usual = usual | INDEFINITE.get(language, frozenset())  # "someone": the language's words for it
        matching = [j for j in positions if forms(language, tokens[j]) & usual]
        if gender not in ("male", "female", "both") and 0 < len(matching) < len(positions):
            # The aligner linked the entity's usual translation and other words ("apresentou ao administrador",
            # "Veterinář někomu"), which left the reading open or took another word's: the usual translation alone.
            narrowed = read(tokens, matching)
            if narrowed != "unknown":
                gender, positions = narrowed, matching
        if usual and (gender == "unknown" or not any(forms(language, tokens[j]) & usual for j in positions)):
            # Nothing read, or the aligned words are none of the entity's usual translations: the aligner took the
            # possessed noun of "the librarian's room" ("das Zimmer des Bibliothekars", "la falta de organización
            # del carpintero"). Exactly one usual translation elsewhere is read instead; two would be ambiguous.
            found = [j for j, t in enumerate(tokens) if forms(language, t) & usual and j not in positions]
            if len(found) == 1:
                gender = read(tokens, found)
                positions = found
        else:
            found = []
        entity_out.append(gender)
        if details is not None:
            details.append({"aligned": " ".join(tokens[j] for j in positions), "why": _why(gender, positions, found)})
        mention = {i for i, t in enumerate(source) if t.lower() in ENGLISH_PRONOUNS}
        said = {pronouns[tokens[j].lower()] for i, j in links if i in mention and tokens[j].lower() in pronouns}
        pronoun_out.append(said.pop() if len(said) == 1 else "unknown")
    return entity_out, pronoun_out


def reading_lexicon(src, trg, alignments, heads, language: str) -> dict[str, frozenset[str]]:
    """The usual translations of the entities' `heads` in these aligned token lists (stems where the aligner used them).

    A usual translation is one linked 5 times (:func:`~stats_mtbias.alignment.translation_lexicon`), in a small file
    (fewer than :data:`SMALL_FILE` lines, each occupation in a handful of them) twice. Function words are never
    translations: those that occur at least once in ten lines. (Not "the 50 most frequent words": in WinoMT the
    occupations are as frequent as that — verkoper, monteur and receptioniste are among the 50 most frequent words
    of the Dutch translations, asyst and kasje among the 50 most frequent stems of 120 Polish lines — but each occurs
    in a few lines in a hundred, the conjunctions and prepositions in dozens.)
    """
    from collections import Counter

    trg = _aligner_tokens(trg, language)
    frequency = Counter(t.lower() for sentence in trg for t in sentence)
    n_function = sum(1 for count in frequency.values() if count >= 0.1 * len(src))
    min_count = 5 if len(src) >= SMALL_FILE else 2
    return translation_lexicon(src, trg, alignments, heads, min_count=min_count, n_function=n_function)


def _aligner_tokens(sentences, language: str):
    """The target sentences as the aligner sees them: stems where the language has them (:func:`alignment_form`)."""
    from stats_mtbias.gender.targets import ALIGNMENT_STEM

    if language not in ALIGNMENT_STEM:
        return sentences
    return [[alignment_form(language, t) for t in sentence] for sentence in sentences]


def _why(gender: str, positions, found) -> str:
    """Why an entity reads as unknown, in words (empty for a reading)."""
    if gender != "unknown":
        return ""
    if len(found) > 1:
        return f"nothing read from the aligned words, and the entity's usual translation occurs {len(found)} times"
    if not positions:
        return "no target word aligned to the entity, and none of its usual translations in the sentence"
    return "no gender marked on the words read (an epicene noun, an elided or neuter article, or conflicting signals)"


def _shipped_pairs(store: DataStore, language: str, items: pd.DataFrame, *, adjectives: bool, skip: str | None = None):
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


def _bitext(store: DataStore, language: str, items: pd.DataFrame, skip: str | None = None):
    """Every shipped translation into `language` (except `skip`), tokenized, as extra training text."""
    src, trg = _shipped_pairs(store, language, items, adjectives=False, skip=skip)
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
    ``source ||| translation`` file (matched to the items by source sentence; the
    shipped bitext of the language is used as extra alignment data). With
    `explain`, also ``aligned`` (the target words read) and ``why`` (for an
    unknown reading, the reason in words); the readings are then computed afresh.
    """
    relpath = winomt_data.translation_path(system, language, adjectives)
    source_file = store.path(relpath) if path is None else as_source(path, system)
    table = winomt_data.read_translations(source_file, items, adjectives=adjectives)
    ok = (table["reason"] == "").to_numpy()
    merged = items.merge(table[["item", "source", "translation", "reason"]], on="item")
    sources = merged.loc[ok, "source"].tolist()
    # "+Adj" sources carry the adjective: recompute the entity's word index in them.
    indices = merged.loc[ok, "entity_index"].to_numpy() + (1 if adjectives else 0)
    translations = merged.loc[ok, "translation"].tolist()
    genders = np.full(len(merged), "unknown", dtype=object)
    cached = _readings_path(store, language, relpath, adjectives, method, use_pronoun) if path is None else None
    n_ok = int(ok.sum())
    hit = None if cached is None or explain else read_cache(
        cached, lambda v: isinstance(v, list) and len(v) == n_ok and all(g in _READINGS for g in v))
    details: list[dict] | None = [] if explain else None
    if hit is not None:
        genders[ok] = hit
    else:
        links = _shipped_alignments(store, language, items, sources, translations, method)
        extra = _bitext(store, language, items, skip=relpath) if links is None else None
        lexicon = _language_lexicon(store, language, items, method) if links is not None else None
        genders[ok] = read_pairs(sources, indices, translations, language, extra=extra, method=method,
                                 use_pronoun=use_pronoun, alignments=links, lexicon=lexicon, details=details)  # fmt: skip
        if cached is not None:
            _write_readings(cached, genders[ok])
    merged["gender"] = genders
    if details is not None:
        merged["aligned"], merged["why"] = "", np.where(ok, "", "no translation line")
        merged.loc[ok, "aligned"] = [d["aligned"] for d in details]
        merged.loc[ok, "why"] = [d["why"] if g == "unknown" else "" for d, g in zip(details, genders[ok])]
    merged["reason"] = np.where(ok & (genders == "unknown"), "no_reading", merged["reason"])
    # Issue 36: lines confidently in another language are not read (reason "wrong_language"), with a warning.
    mark_wrong_language(merged, language, f"{system}/{language}{' (+Adj)' if adjectives else ''}",
                        line_numbers=table["line"].to_numpy())  # fmt: skip
    merged["system"], merged["language"] = system, language
    return merged


def _write_readings(path: Path, genders) -> None:
    """The cache entry of one file's readings: the gender of every line the reader saw, in order."""
    write_atomic(path, json.dumps([str(g) for g in genders]))


def remember(store: DataStore, system: str, language: str, table: pd.DataFrame, *, adjectives: bool, method: str,
             use_pronoun: bool) -> None:  # fmt: skip
    """Cache here the readings of a shipped file that :func:`judge` returned from elsewhere (a Dask worker's disk)."""
    path = _readings_path(store, language, winomt_data.translation_path(system, language, adjectives), adjectives,
                          method, use_pronoun)  # fmt: skip
    if not path.exists():
        # The lines the reader saw are those judge gave no other reason (an unread one: "no_reading").
        # (wrong_language lines too: they had a translation; their cached reading is then "unknown", re-marked anyway)
        _write_readings(path, table.loc[table["reason"].isin(["", "no_reading", "wrong_language"]).to_numpy(), "gender"])


def labelled_pairs(
    store: DataStore, items: pd.DataFrame, *, method: str = "fastalign", use_pronoun: bool = False
) -> pd.DataFrame:
    """Every human-labelled translation with its automatic reading: ``language, file, item, gold, human, automatic``.

    Some annotation files label the same translations twice (``fr.in`` and
    ``fr.in1``, two Russian files): a translation labelled in several files is
    kept once (the first file in name order), so no label is counted twice.
    """
    from stats_mtbias.datasets.registry import manifest

    files = sorted(p for p in manifest() if p.startswith("winomt/data/human_annotations/"))
    return pairs_of([validate(store, store.path(p), items, method=method, use_pronoun=use_pronoun) for p in files])


def pairs_of(results: list[dict]) -> pd.DataFrame:
    """The labelled pairs of several :func:`validate` results, each translation once (see :func:`labelled_pairs`)."""
    frames = [r["pairs"].assign(language=r["language"], file=r["file"]) for r in results if r["pairs"] is not None]
    pairs = pd.concat(frames, ignore_index=True)
    return pairs.drop_duplicates(["language", "item", "translation"], keep="first").reset_index(drop=True)


ATTRIBUTION_SHARE = 0.9  # share of a file's labelled translations one system must have produced


def attribute_pairs(store: DataStore, items: pd.DataFrame, pairs: pd.DataFrame) -> pd.DataFrame:
    """Which shipped system each annotation file labelled: ``pairs`` with a ``system`` column.

    A file's labelled translations are a sample of one system's outputs; which
    one is found by matching each labelled sentence to the shipped systems'
    translations of the same item. The file's system is the one that produced at
    least 90% of them (others may share a translation by coincidence); its rows
    that this system did not produce, and every row of a file no system
    accounts for, get an empty ``system`` and correct nothing.
    """
    shipped = []
    for system, language, is_adj, relpath in winomt_data.translation_files():
        if is_adj or language not in set(pairs["language"]):
            continue
        table = winomt_data.read_translations(store.path(relpath), items, adjectives=False)
        ok = table["reason"] == ""
        shipped.append(pd.DataFrame({"system": system, "language": language, "item": table.loc[ok, "item"],
                                     "key": table.loc[ok, "translation"].astype(str).str.strip()}))  # fmt: skip
    out = pairs.assign(system="")
    if not shipped:
        return out
    produced = pd.concat(shipped, ignore_index=True)
    keyed = out.assign(key=out["translation"].astype(str).str.strip(), row=np.arange(len(out)))
    matches = keyed.merge(produced, on=["language", "item", "key"], suffixes=("", "_shipped"))
    for name, rows in keyed.groupby("file", sort=False):
        hits = matches[matches["file"] == name]
        if hits.empty:
            continue
        share = hits.groupby("system_shipped")["row"].nunique() / len(rows)
        if share.max() >= ATTRIBUTION_SHARE:
            system = share.idxmax()
            out.iloc[hits.loc[hits["system_shipped"] == system, "row"].to_numpy(), out.columns.get_loc("system")] = system
    return out


def _annotation_rows(path: Path, items: pd.DataFrame) -> tuple[list, list[tuple[int, str, str]]]:
    """Every row of a human-annotation CSV, and the labelled ones as (item, translation, label)."""
    rows, labelled = [], []
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            reader_ = csv.reader(handle)
            next(reader_, None)  # header
            for row in reader_:
                rows.append(row)
                if len(row) < 5 or not row[0].strip().isdigit():
                    continue
                item = int(row[0])
                if item >= len(items):
                    raise DataError(f"Index {item} is not a line of en.txt (0–{len(items) - 1})", path, reader_.line_num)
                label = HUMAN.get(row[4].strip().lower())
                if label is not None:
                    labelled.append((item, row[2], label))
    except UnicodeDecodeError as exc:
        raise DataError(f"not valid UTF-8 ({exc.reason} at byte {exc.start})", path) from None
    return rows, labelled


_LANGUAGE_LINKS: dict[tuple[str, str, str], dict] = {}


def _language_links(store: DataStore, language: str, items: pd.DataFrame, method: str) -> dict:
    """Alignments of every shipped pair into `language`, trained together once: (src tokens, trg tokens) -> links.

    The union of all systems' translations, the "+Adj" files and the human-labelled
    samples is the same training text for each of them, so one alignment run (cached
    on disk by content) serves the whole language instead of one run per file.
    """
    from stats_mtbias.datasets.registry import manifest

    key = (str(store.root), language, method)
    if key not in _LANGUAGE_LINKS:
        src, trg = _shipped_pairs(store, language, items, adjectives=True)
        sentences = items.set_index("item")["sentence"]
        for relpath in sorted(p for p in manifest() if p.startswith("winomt/data/human_annotations/")):
            if _language_of(Path(relpath).name) == language:
                for item, translation, _label in _annotation_rows(store.path(relpath), items)[1]:
                    src.append(sentences[item])
                    trg.append(translation)
        src_tokens = [tuple(tokenize(x)) for x in src]
        trg_tokens = [tuple(tokenize(x)) if x else () for x in trg]
        links = align(src_tokens, _aligner_tokens(trg_tokens, language), method=method)
        _LANGUAGE_LINKS[key] = dict(zip(zip(src_tokens, trg_tokens), links))
    return _LANGUAGE_LINKS[key]


_LANGUAGE_LEXICON: dict[tuple[str, str, str], dict] = {}


def _language_lexicon(store: DataStore, language: str, items: pd.DataFrame, method: str) -> dict[str, frozenset[str]]:
    """The usual translations of the entities' head words, from every shipped pair into `language`."""
    key = (str(store.root), language, method)
    if key not in _LANGUAGE_LEXICON:
        links = _language_links(store, language, items, method)
        heads = {_head_word(sentence, index) for sentence, index in zip(items["sentence"], items["entity_index"])}
        src, trg = zip(*links)
        _LANGUAGE_LEXICON[key] = reading_lexicon(src, trg, list(links.values()), sorted(heads), language)
    return _LANGUAGE_LEXICON[key]


def _shipped_alignments(store, language, items, sources, translations, method):
    """The language-wide alignments of these pairs, or None if one of them is not shipped (a user's own file)."""
    links = _language_links(store, language, items, method)
    out = [links.get((tuple(tokenize(s)), tuple(tokenize(t)) if t else ())) for s, t in zip(sources, translations)]
    return None if any(a is None for a in out) else out


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """sha256 of the code that turns a translation into a gender (aligner, every module of stats_mtbias.gender, this module)."""
    import stats_mtbias.alignment
    import stats_mtbias.gender

    files = [Path(__file__), Path(stats_mtbias.alignment.__file__)]
    files += sorted(Path(stats_mtbias.gender.__file__).parent.rglob("*.py"))
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.read_bytes())
    return digest.hexdigest()


def _readings_path(store: DataStore, language: str, relpath: str, adjectives: bool, method: str, use_pronoun: bool):
    """Cache file of one shipped file's readings.

    The key holds everything the readings depend on: the code (aligner, readers),
    the options, en.txt, and every shipped file of the language, since they are
    the alignment's training text. A changed file or reader makes a new key.
    """
    from stats_mtbias._cache import default_cache_dir
    from stats_mtbias.datasets.registry import manifest

    inputs = sorted(
        p for p in manifest()
        if p == winomt_data.ITEMS
        or (p.startswith("winomt/translations/") and p.endswith(f"en-{language}.txt"))
        or (p.startswith("winomt/data/human_annotations/") and _language_of(Path(p).name) == language)
    )  # fmt: skip
    for relpath_ in inputs:
        if relpath_ not in store.used:
            store.path(relpath_)  # records the file's sha256
    digests = [(p, store.used[p]) for p in inputs]
    material = json.dumps([_code_digest(), language, relpath, adjectives, method, use_pronoun, digests])
    return default_cache_dir() / "readings" / f"{hashlib.sha256(material.encode('utf-8')).hexdigest()[:32]}.json"


def _language_of(name: str) -> str | None:
    for code in ("ar", "de", "es", "fr", "he", "it", "ru", "uk"):
        if re.search(rf"(^|[._]){code}([._]|$)", name):
            return code
    return "it" if name.lower().startswith("italian") else None


def cohens_kappa(a: np.ndarray, b: np.ndarray) -> float:
    """Cohen's κ of two label sequences; NaN (with a warning saying why) where κ is undefined.

    κ = (p_o − p_e) / (1 − p_e) is undefined when chance agreement p_e is 1 —
    both raters used one and the same category for every item — and also for no
    item: then NaN, not 1 (perfect agreement on a single category says nothing
    about agreement beyond chance).

    Examples
    --------
    >>> round(cohens_kappa(np.array(["male", "female", "male"]), np.array(["male", "female", "female"])), 12)
    0.4
    """
    a, b = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
    if len(a) == 0:
        return float("nan")
    labels = sorted(set(a) | set(b))
    observed = np.mean(a == b)
    expected = sum(np.mean(a == x) * np.mean(b == x) for x in labels)
    if expected >= 1:
        warnings.warn(f"Cohen's kappa is undefined: both label sets use the one category {labels[0]!r} for all "
                      f"{len(a)} items (chance agreement is 1); kappa is NaN.", DataQualityWarning, stacklevel=2)  # fmt: skip
        return float("nan")
    return float((observed - expected) / (1 - expected))


def kappa_interval(a: np.ndarray, b: np.ndarray, level: float = 0.95) -> tuple[float, float, float]:
    """Cohen's κ with an interval that holds near κ = 1: ``(kappa, low, high)``, NaN where κ is undefined.

    κ = (p_o − p_e) / (1 − p_e). The Wald interval κ ± z·se (Fleiss, Cohen &
    Everitt 1969; statsmodels' ``inter_rater.cohens_kappa``) covered 0.41 at κ = .98
    on 30 items and 0.74 on 100: near perfect agreement the variance of p_o collapses.
    Here p_o gets Wilson's interval, mapped onto κ with p_e fixed, and the rest of
    the delta-method variance (from p_e, and its covariance with p_o) is added by
    MOVER: ``low = κ − √((κ − κ_low(p_o))² + z²·v_rest)``, likewise the upper end,
    clipped to [−1, 1]. Simulated coverage (``tests/statistical``): 0.935–0.97 for
    κ from .37 to .98 on 30–400 items, conservative (0.99) for low κ with skewed
    margins.

    Examples
    --------
    >>> a = np.array(["male"] * 45 + ["female"] * 55)
    >>> b = np.array(["male"] * 40 + ["female"] * 5 + ["male"] * 10 + ["female"] * 45)
    >>> [round(x, 3) for x in kappa_interval(a, b)]  # p_o = .85, p_e = .45·.5 + .55·.5 = .5: κ = .7
    [0.7, 0.534, 0.814]

    By hand: Wilson's interval of 85/100 is [.767, .907], i.e. κ in [.534, .814];
    here p_o carries all of κ's delta-method variance, so nothing is added.
    """
    from scipy.stats import norm
    from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa

    a, b = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
    kappa = cohens_kappa(a, b)
    if not np.isfinite(kappa):
        return kappa, np.nan, np.nan
    labels = sorted(set(a) | set(b))
    table = pd.crosstab(pd.Categorical(a, labels), pd.Categorical(b, labels), dropna=False).to_numpy(dtype=float)
    n, agree = len(a), int(np.trace(table))
    p_o = agree / n
    p_e = float((table.sum(axis=1) * table.sum(axis=0)).sum()) / n**2
    observed = wilson_interval(agree, n, level=level)
    k_low, k_high = (float(observed.low) - p_e) / (1 - p_e), (float(observed.high) - p_e) / (1 - p_e)
    rest = max(float(sm_kappa(table).var_kappa) - p_o * (1 - p_o) / n / (1 - p_e) ** 2, 0.0)
    z2 = float(norm.ppf((1 + level) / 2)) ** 2 * rest
    low = kappa - np.sqrt((kappa - k_low) ** 2 + z2)
    high = kappa + np.sqrt((k_high - kappa) ** 2 + z2)
    return kappa, max(-1.0, float(low)), min(1.0, float(high))


def agreement(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    """Share of equal labels with its Wilson interval, and Cohen's κ: ``agreement, ci_low, ci_high, kappa`` (NaN if empty)."""
    if len(a) == 0:
        return dict.fromkeys(["agreement", "ci_low", "ci_high", "kappa"], np.nan)
    agree = int(np.sum(a == b))
    ci = wilson_interval(agree, len(a))
    return {"agreement": agree / len(a), "ci_low": float(ci.low), "ci_high": float(ci.high), "kappa": cohens_kappa(a, b)}


def validate(
    store: DataStore, path: str | Path, items: pd.DataFrame, *, method: str = "fastalign", use_pronoun: bool = False
) -> dict:
    """Agreement of the automatic reading with one human-annotation file.

    Rows whose label is not one of M/F/N (empty, "M/N", …) are counted and left
    out. Returns ``file, language, n_rows, n_labelled, agreement, ci_low,
    ci_high, kappa``, ``confusion`` (DataFrame: human rows × automatic columns)
    and ``pairs`` (DataFrame ``item, translation, gold, human, automatic, entity, pronoun``: one row per
    labelled translation, for :func:`stats_mtbias.studies.winomt.corrected_accuracy`).

    It also separates the two things a disagreement can be. A *conflict* is a
    translation whose entity reads as one gender while the translated pronoun that
    refers to it is explicitly the other ("den Arzt … bat sie"): there the metric
    (the entity's own words) and a reader of the whole sentence must differ, and
    no reader of the entity can agree with an annotator who followed the pronoun.
    ``n_conflict`` counts them, ``n_conflict_pronoun`` those the annotator labelled
    with the pronoun's gender, and ``agreement_outside``, ``ci_low_outside``,
    ``ci_high_outside`` give the agreement (Wilson) on the other translations,
    where the annotator's label and the metric ask the same question.
    """
    path = Path(path)
    language = _language_of(path.name)
    rows, labelled = _annotation_rows(path, items)
    result = {"file": path.name, "language": language, "n_rows": len(rows), "n_labelled": len(labelled)}
    if not labelled or language is None:
        empty = dict.fromkeys(["agreement", "ci_low", "ci_high", "kappa", "agreement_outside", "ci_low_outside",
                               "ci_high_outside"], np.nan)  # fmt: skip
        # Counts over no labelled translation are 0 (and stay integers in every table); agreements are undefined.
        return {**result, **empty, "n_conflict": 0, "n_conflict_pronoun": 0, "confusion": None, "pairs": None}
    index, sentences, human = zip(*labelled)
    src = items.set_index("item").loc[list(index)]
    links = _shipped_alignments(store, language, items, src["sentence"].tolist(), list(sentences), method)
    lexicon = _language_lexicon(store, language, items, method) if links is not None else None
    entity, pronoun = read_entity_and_pronoun(
        src["sentence"].tolist(), src["entity_index"].to_numpy(), list(sentences), language,
        extra=_bitext(store, language, items) if links is None else None, method=method, alignments=links,
        lexicon=lexicon,
    )  # fmt: skip
    entity, pronoun = np.array(entity, dtype=object), np.array(pronoun, dtype=object)
    auto = np.array(_pronoun_decides(entity, pronoun), dtype=object) if use_pronoun and language in PRONOUN_LANGUAGES else entity
    human = np.array(human, dtype=object)
    gendered = ("male", "female")
    conflict = np.isin(entity, gendered) & np.isin(pronoun, gendered) & (entity != pronoun)
    overall, outside = agreement(human, auto), agreement(human[~conflict], auto[~conflict])
    confusion = pd.crosstab(pd.Series(human, name="human"), pd.Series(auto, name="automatic"))
    pairs = pd.DataFrame({"item": list(index), "translation": list(sentences), "gold": src["gold"].to_numpy(),
                          "human": human, "automatic": auto, "entity": entity, "pronoun": pronoun})  # fmt: skip
    return {**result, **overall, "n_conflict": int(conflict.sum()),
            "n_conflict_pronoun": int(np.sum(human[conflict] == pronoun[conflict])),
            "agreement_outside": outside["agreement"], "ci_low_outside": outside["ci_low"],
            "ci_high_outside": outside["ci_high"], "confusion": confusion, "pairs": pairs}  # fmt: skip


def inter_annotator(store: DataStore, items: pd.DataFrame) -> pd.DataFrame:
    """Agreement between annotation files that label the same translations differently (two annotators).

    For every pair of files of one language sharing labelled translations (same
    item and text) whose labels are not simply the same file twice: ``file_a,
    file_b, language, n_common, agreement, ci_low, ci_high, kappa`` (Wilson
    interval). It is the ceiling a reader can be expected to reach against either
    annotator: the two Italian annotators of the same Google translations agree on
    about 87%.
    """
    from itertools import combinations

    from stats_mtbias.datasets.registry import manifest

    labels = {}
    for relpath in sorted(p for p in manifest() if p.startswith("winomt/data/human_annotations/")):
        name = Path(relpath).name
        labels[name] = {(item, text): label for item, text, label in _annotation_rows(store.path(relpath), items)[1]}
    rows = []
    for a, b in combinations(sorted(labels), 2):
        language = _language_of(a)
        common = sorted(set(labels[a]) & set(labels[b]))
        if language != _language_of(b) or not common or labels[a] == labels[b]:
            continue
        x = np.array([labels[a][k] for k in common], dtype=object)
        y = np.array([labels[b][k] for k in common], dtype=object)
        rows.append({"file_a": a, "file_b": b, "language": language, "n_common": len(common), **agreement(x, y)})
    return pd.DataFrame(rows, columns=["file_a", "file_b", "language", "n_common", "agreement", "ci_low", "ci_high", "kappa"])
