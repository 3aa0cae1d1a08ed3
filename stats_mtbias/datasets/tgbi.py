"""Reader of the TGBI data (Cho et al. 2019, Korean → English).

The corpus is 1,059 lexicon items (735 occupations, 200 negative and 124
positive phrases), each in four sentence styles (informal 걔 / formal 그 사람 ×
impolite / polite), i.e. 4,236 sentences. The paper's seven sentence sets are
overlapping views of those sentences; each system translated each set file
separately, so one sentence has up to three translations per system (one per
set it belongs to). The reader keeps all of them: one row per (system, set, line).

Two data problems are handled and reported rather than silently passed on:

* empty outputs become ``unknown`` with reason ``empty``;
* a run of at least ``min_run`` consecutive lines that repeats, verbatim, an
  earlier run of the same file whose lines belong to *other* lexicon items is a
  copy-paste defect: the later copy cannot be the translation of its source
  lines. In the shipped data, Papago's impolite file repeats its lines 1–400 at
  lines 401–800. Those lines become ``unknown`` with reason ``repeated_block``
  by default; ``repeated_blocks="keep"`` uses them as the authors did.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias.datasets._io import check_referent, read_frame, read_lines, read_records
from stats_mtbias.datasets.correspondence import check_lines
from stats_mtbias.datasets.registry import DataStore, open_store
from stats_mtbias.datasets.sources import FrameSource, as_source
from stats_mtbias.errors import DataError, DataQualityWarning

CORPUS = "tgbi/gebnlp-tgbi/corpus"
CONTENTS = ("occupation", "negative", "positive")
_CONTENT_FILE = {"occupation": "job", "negative": "neg", "positive": "pos"}
STYLES = (("informal", "impolite"), ("informal", "polite"), ("formal", "impolite"), ("formal", "polite"))
_STYLE_CODE = {
    ("informal", "impolite"): "inf_imp",
    ("informal", "polite"): "inf_p",
    ("formal", "impolite"): "f_imp",
    ("formal", "polite"): "f_p",
}


@dataclass(frozen=True)
class SentenceSet:
    """One of the paper's seven sentence sets and how its file is concatenated."""

    name: str
    code: str  # suffix of the authors' output files: total_<system>_<code>.txt
    source_file: str  # total_<source_file>.txt
    parts: tuple[tuple[str, tuple[str, str]], ...]  # (content, style) blocks, in file order


def _style_set(name: str, code: str, keep) -> SentenceSet:
    parts = tuple((c, s) for c in CONTENTS for s in STYLES if keep(s))
    return SentenceSet(name, code, name, parts)


def _content_set(name: str, code: str, content: str) -> SentenceSet:
    return SentenceSet(name, code, code, tuple((content, s) for s in STYLES))


#: The seven sets in the paper's order (a)–(g); the order of blocks inside each
#: file is the authors' script's.
SETS: tuple[SentenceSet, ...] = (
    _style_set("informal", "inf", lambda s: s[0] == "informal"),
    _style_set("formal", "f", lambda s: s[0] == "formal"),
    _style_set("impolite", "imp", lambda s: s[1] == "impolite"),
    _style_set("polite", "p", lambda s: s[1] == "polite"),
    _content_set("negative", "neg", "negative"),
    _content_set("positive", "pos", "positive"),
    _content_set("occupation", "job", "occupation"),
)
SET_NAMES = tuple(s.name for s in SETS)
_SET_ALIASES = {alias: s.name for s in SETS for alias in (s.name, s.code, s.source_file)}
_SET_ALIASES.update({"job": "occupation", "neg": "negative", "pos": "positive"})
SYSTEMS = ("google", "papago", "kakao")
BROKEN = frozenset({"None", "none", "null", "NULL", "NaN", "nan"})


def set_name(alias: str) -> str | None:
    """Canonical set name for a name or the authors' code (``inf``, ``job``, …)."""
    return _SET_ALIASES.get(alias.strip().lower())


def _rel(name: str) -> str:
    return f"{CORPUS}/{name}.txt"


def read_sentences(store: DataStore | None = None) -> pd.DataFrame:
    """The 4,236 source sentences and the seven sets' line layout.

    Returns
    -------
    pandas.DataFrame
        One row per (set, line): ``subset``, ``line`` (1-based), ``sentence``
        (0..4235), ``lexicon_item`` (0..1058, occupation first), ``content``,
        ``pronoun`` (informal/formal), ``politeness`` (impolite/polite), ``source``.

    Raises
    ------
    DataError
        If a ``total_*`` source file is not the authors' concatenation of the
        per-style files (naming the first line that differs).
    """
    store = store or open_store()
    blocks = {}
    sentence_id = 0
    item_offset = 0
    for content in CONTENTS:
        n_items = None
        for style in STYLES:
            name = f"{_CONTENT_FILE[content]}_{_STYLE_CODE[style]}"
            path = store.path(_rel(name))
            lines = read_lines(path)
            if n_items is None:
                n_items = len(lines)
            elif len(lines) != n_items:
                raise DataError(
                    f"has {len(lines)} lines, but the other {content} style files have {n_items}; "
                    "line i of each style file must be lexicon item i",
                    path,
                )
            blocks[content, style] = pd.DataFrame(
                {
                    "sentence": np.arange(sentence_id, sentence_id + len(lines)),
                    "lexicon_item": np.arange(item_offset, item_offset + len(lines)),
                    "content": content,
                    "pronoun": style[0],
                    "politeness": style[1],
                    "source": lines,
                }
            )
            sentence_id += len(lines)
        item_offset += n_items or 0
    frames = []
    for sset in SETS:
        frame = pd.concat([blocks[part] for part in sset.parts], ignore_index=True)
        path = store.path(_rel(f"total_{sset.source_file}"))
        lines = read_lines(path)
        if len(lines) != len(frame):
            raise DataError(
                f"has {len(lines)} lines, but the concatenation of its {len(sset.parts)} style files has {len(frame)}",
                path,
            )
        mismatch = np.flatnonzero(np.asarray(lines, dtype=object) != frame["source"].to_numpy())
        if mismatch.size:
            raise DataError(
                "differs from the concatenation of the per-style files (expected "
                f"{frame['source'].iat[mismatch[0]]!r}, found {lines[mismatch[0]]!r})",
                path,
                int(mismatch[0]) + 1,
            )
        frame.insert(0, "line", np.arange(1, len(frame) + 1))
        frame.insert(0, "subset", sset.name)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def find_repeated_blocks(
    translations: np.ndarray,
    items: np.ndarray,
    min_run: int = 20,
    usable: np.ndarray | None = None,
) -> np.ndarray:
    """Mark lines that repeat an earlier run of lines belonging to other items.

    Parameters
    ----------
    translations : array of str
        The outputs of one file, in line order.
    items : array of int
        The lexicon item of each line.
    min_run : int
        The shortest run of consecutive repeated lines that counts as a defect.
    usable : array of bool, optional
        Lines that hold an output; empty, missing or broken lines never match.

    Returns
    -------
    numpy.ndarray of bool
        True for the later copy of every such run.
    """
    n = len(translations)
    flagged = np.zeros(n, dtype=bool)
    if n < 2 * min_run:
        return flagged
    # Codes by first appearance (pandas' hash table): equal strings, equal codes. Not np.unique on a fixed-width
    # array, whose width is the longest output's: one output of 2 million characters made it gigabytes.
    codes, _ = pd.factorize(np.asarray([str(t) for t in translations], dtype=object))
    if usable is not None:
        # A distinct negative code per unusable line: it equals nothing else.
        codes = np.where(usable, codes, -1 - np.arange(n))
    items = np.asarray(items)
    # One vector comparison per offset: O(n) numpy calls, not a loop over pairs.
    for offset in range(min_run, n - min_run + 1):
        same = (codes[offset:] == codes[:-offset]) & (items[offset:] != items[:-offset])
        if same.sum() < min_run:
            continue
        padded = np.concatenate(([False], same, [False]))
        edges = np.flatnonzero(np.diff(padded.astype(np.int8)))
        for start, stop in zip(edges[::2], edges[1::2]):
            if stop - start >= min_run:
                flagged[offset + start : offset + stop] = True
    return flagged


def _attach(
    sentences: pd.DataFrame,
    sset: SentenceSet,
    system: str,
    outputs: list[str],
    origin: str,
    repeated_blocks: str,
    min_run: int,
) -> pd.DataFrame:
    frame = sentences[sentences["subset"] == sset.name].copy()
    frame.insert(0, "system", system)
    frame["translation"] = outputs
    frame["reason"] = ""
    frame["origin"] = origin
    text = frame["translation"].fillna("")
    frame.loc[text.str.strip() == "", "reason"] = "empty"
    # A literal None/null is what a failed API call writes, not a translation.
    frame.loc[text.str.strip().isin(BROKEN), "reason"] = "broken"
    flagged = find_repeated_blocks(
        frame["translation"].to_numpy(),
        frame["lexicon_item"].to_numpy(),
        min_run,
        usable=(frame["reason"] == "").to_numpy() & frame["translation"].notna().to_numpy(),
    )
    if flagged.any():
        lines = frame["line"].to_numpy()[flagged]
        warnings.warn(
            f"{origin}: {flagged.sum()} lines ({_ranges(lines)}) repeat an earlier block of "
            "translations of other lexicon items verbatim; "
            + (
                "they are counted as unknown (reason 'repeated_block')."
                if repeated_blocks == "exclude"
                else "they are kept as they are (repeated_blocks='all', or --exclude-repeated-mine, counts them "
                "as unknown in your outputs)."
            ),
            DataQualityWarning,
            stacklevel=3,
        )
        if repeated_blocks == "exclude":
            frame.loc[flagged & (frame["reason"] == "").to_numpy(), "reason"] = "repeated_block"
    return frame


def _ranges(lines: np.ndarray) -> str:
    runs, start, prev = [], lines[0], lines[0]
    for value in lines[1:]:
        if value != prev + 1:
            runs.append((start, prev))
            start = value
        prev = value
    runs.append((start, prev))
    return ", ".join(f"lines {a}–{b}" if a != b else f"line {a}" for a, b in runs)


def read_outputs(
    systems=SYSTEMS,
    store: DataStore | None = None,
    *,
    sentences: pd.DataFrame | None = None,
    repeated_blocks: str = "exclude",
    min_run: int = 20,
) -> pd.DataFrame:
    """The shipped outputs of Google, Papago and Kakao, one row per (system, set, line).

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`read_sentences` plus ``system``, ``translation``,
        ``reason`` (``""`` when the output is usable, else why it is ``unknown``)
        and ``origin`` (the file the output came from).
    """
    store = store or open_store()
    sentences = read_sentences(store) if sentences is None else sentences
    frames = []
    for system in systems:
        if system not in SYSTEMS:
            raise DataError(
                f"unknown TGBI system {system!r}; the shipped ones are {', '.join(SYSTEMS)} "
                "(give your own outputs with translations=...)"
            )
        for sset in SETS:
            path = store.path(_rel(f"total_{system}_{sset.code}"))
            frames.append(
                _attach(
                    sentences,
                    sset,
                    system,
                    _check_count(read_lines(path), path, store.path(_rel(f"total_{sset.source_file}"))),
                    _rel(f"total_{system}_{sset.code}"),  # named within the data store, as the other studies do
                    repeated_blocks,
                    min_run,
                )
            )
    return pd.concat(frames, ignore_index=True)


def _check_count(lines: list[str], path: Path, source: Path, expected: int | None = None) -> list[str]:
    expected = len(read_lines(source)) if expected is None else expected
    while len(lines) > expected and not lines[-1].strip():  # blank lines after the last output hold nothing
        lines = lines[:-1]
    if len(lines) != expected:
        raise DataError(
            f"has {len(lines)} lines, but its source set {source} has {expected}; line i of an "
            "output file must translate line i of its source",
            path,
        )
    return lines


_OUTPUT_FILE = re.compile(r"^total_(?P<system>.+)_(?P<code>inf|f|imp|p|neg|pos|job)\.txt$")


def line_flags(frame: pd.DataFrame, *, warn_stacklevel: int = 4) -> pd.DataFrame:
    """Check that each (system, set) of a user's outputs follows its sources line by line (issue 49).

    The outputs of a set in their line order are compared with the sources beside them (the Korean sentences of
    Cho et al.'s sets, or a benchmark's ``source`` column) by
    :func:`~stats_mtbias.datasets.correspondence.check_lines`: a set whose outputs slipped or were shuffled is warned
    about, naming the system, the set, the file and the likely shift. The flags are kept in
    ``frame.attrs["line_flags"]`` (``{(system, set): flag}``) for the result's ``flag`` column. Returns `frame`.
    """
    flags = dict(frame.attrs.get("line_flags", {}))
    if "source" not in frame or "translation" not in frame:
        return frame
    present = frame[frame["translation"].notna() & frame["source"].notna()]
    for (system, subset), part in present.groupby(["system", "subset"], sort=False):
        part = part.sort_values("line", kind="stable")
        origin = part["origin"].iloc[0] if "origin" in part else None
        found = check_lines(
            part["source"].astype(str).tolist(),
            part["translation"].astype(str).tolist(),
            label=f"{system}/{subset}",
            path=origin,
            stacklevel=warn_stacklevel,
        )
        if not found.ok:
            flags[str(system), str(subset)] = found.flag()
    frame.attrs["line_flags"] = flags
    return frame


def read_user_outputs(
    path: str | Path,
    system: str | None = None,
    store: DataStore | None = None,
    *,
    sentences: pd.DataFrame | None = None,
    repeated_blocks: str = "exclude",
    min_run: int = 20,
) -> pd.DataFrame:
    """A user's own translations of the TGBI sets.

    Two layouts are accepted:

    * a directory laid out like the authors': ``total_<system>_<code>.txt`` with
      ``code`` in ``inf, f, imp, p, neg, pos, job``, line i translating line i of
      the set's source file; a set whose file is absent is counted as ``unknown``
      (reason ``missing``);
    * one CSV file with a header and columns ``item, set, translation``: ``set``
      is a set name (``informal`` … ``occupation``) or the authors' code, and
      ``item`` the 1-based line number in that set's source file. A sentence
      with no row is ``unknown`` (reason ``missing``).

    Raises
    ------
    DataError
        On a line-count mismatch, an unknown set, a bad or duplicate item,
        naming the file and line.
    """
    store = store or open_store()
    sentences = read_sentences(store) if sentences is None else sentences
    path = as_source(path, system)
    if isinstance(path, Path) and path.is_dir():
        found: dict[str, dict[str, Path]] = {}
        for file in sorted(path.iterdir()):
            match = _OUTPUT_FILE.match(file.name)
            if match:
                found.setdefault(match["system"], {})[match["code"]] = file
        if not found:
            raise DataError(
                "contains no output files named total_<system>_<set>.txt (set one of inf, f, imp, p, neg, pos, job)",
                path,
            )
        if system is None:
            if len(found) > 1:
                raise DataError(
                    f"holds outputs of several systems ({', '.join(sorted(found))}); name the one to read with system=...",
                    path,
                )
            system = next(iter(found))
        elif system not in found:
            raise DataError(f"has no files total_{system}_*.txt", path)
        frames = []
        for sset in SETS:
            file = found[system].get(sset.code)
            n = int((sentences["subset"] == sset.name).sum())
            if file is None:
                outputs = [None] * n
                origin = f"{path}/total_{system}_{sset.code}.txt (absent)"
            else:
                source = store.path(_rel(f"total_{sset.source_file}"))
                outputs = _check_count(read_lines(file), file, source, n)
                origin = str(file)
            frame = _attach(sentences, sset, system, outputs, origin, repeated_blocks, min_run)
            if file is None:
                frame["reason"] = "missing"
            frames.append(frame)
        return line_flags(pd.concat(frames, ignore_index=True))
    return line_flags(_read_user_csv(path, system or path.stem, sentences, repeated_blocks, min_run))


def _read_user_csv(
    path: Path | FrameSource, system: str, sentences: pd.DataFrame, repeated_blocks: str, min_run: int
) -> pd.DataFrame:
    _, records = read_records(path, required=("item", "set", "translation"), lower=True)
    sizes = sentences.groupby("subset", sort=False).size().to_dict()
    given: dict[tuple[str, int], tuple[str, int]] = {}
    for number, record in records:
        name = set_name(record["set"])
        if name is None:
            raise DataError(
                f"set {record['set']!r} is not one of {', '.join(SET_NAMES)} (or the codes inf, f, imp, p, neg, pos, job)",
                path,
                number,
            )
        try:
            item = int(record["item"])
        except ValueError:
            raise DataError(f"item {record['item']!r} is not a line number of the {name} set", path, number) from None
        if not 1 <= item <= sizes[name]:
            raise DataError(
                f"item {item} is outside the {name} set, which has lines 1–{sizes[name]}",
                path,
                number,
            )
        if (name, item) in given:
            raise DataError(
                f"item {item} of the {name} set was already given on line {given[name, item][1]}",
                path,
                number,
            )
        given[name, item] = (record["translation"], number)
    if not given:
        raise DataError("has a header but no translations", path, 2)
    frames = []
    for sset in SETS:
        n = sizes[sset.name]
        outputs = [given.get((sset.name, i), (None, 0))[0] for i in range(1, n + 1)]
        frame = _attach(sentences, sset, system, outputs, str(path), repeated_blocks, min_run)
        absent = np.array([(sset.name, i) not in given for i in range(1, n + 1)])
        frame.loc[absent, "reason"] = "missing"
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


# ---------------------------------------------------------------- a user's own benchmark

GENDER_LABELS = {
    "female": "female",
    "f": "female",
    "male": "male",
    "m": "male",
    "neutral": "neutral",
    "n": "neutral",
    "both": "both",
    "b": "both",
    "unknown": "unknown",
    "?": "unknown",
    "": "unknown",
}


def read_benchmark(
    source, *, sample: str | None = None, name: str = "outputs", keep: bool = False, referent: str | None = None
) -> pd.DataFrame:
    """A user's own TGBI-style benchmark: one row per output, any sentence sets, any source language.

    Columns: ``system, set, item`` and ``translation`` (English output, read by the
    package's cues) or ``gender`` (already read: female/male/neutral/both/unknown or
    f/m/n/b/?; with both, ``gender`` is used); optional ``language`` (the source language), ``stratum`` (fixed-size
    strata the items are resampled within) and the `sample` column (several outputs
    of one item, e.g. an LLM sampled k times). ``item`` names the lexicon entry — the
    resampling cluster: one entry may appear in several sets, as in Cho et al.

    Every row is kept: an empty translation is ``unknown`` (reason ``empty``); a
    repeated (system, set, item[, sample]), an empty set or item, or a label that is
    not a gender is an error naming the file and line.

    `referent` names a column of reference translations with the asked-about words
    in [brackets] (two people in a sentence: which one to read); it comes as
    ``reference``. A column called ``reference`` without `referent` is ignored, with a warning.

    With `keep` the user's other columns (``language``, ``stratum`` and any of theirs;
    the header lower-cased) come along as ``+<column>``, for :func:`stats_mtbias.studies.tgbi.read`.

    Returns
    -------
    DataFrame
        ``system, subset, item, lexicon_item, line, sample, translation, given, reason,
        origin, content, language`` (``given``: the gender given, or None).
    """
    source = as_source(source, name)
    required = ("system", "set", "item")
    if isinstance(source, FrameSource):
        frame = source.frame.copy()
        frame.columns = [str(c).strip().lower() for c in frame.columns]
        missing = [c for c in required if c not in frame.columns]
        if missing:
            raise DataError(f"lacks column(s) {', '.join(missing)} (found {', '.join(frame.columns)})", source, 1)
        frame = frame.astype(object).where(frame.notna(), "")
        frame = frame.map(lambda v: str(v).strip()) if hasattr(frame, "map") else frame.applymap(lambda v: str(v).strip())
        frame["line"] = np.arange(len(frame)) + 2
        header = list(frame.columns)
    else:
        keys = ("gender", "language", "stratum", *([sample.lower()] if sample else []))  # labels: never over lines
        header, frame = read_frame(source, required=required, lower=True, keys=keys)  # Arrow's C++ reader; read_records' errors
    sample = sample.lower() if sample else None
    if "translation" not in header and "gender" not in header:
        raise DataError(
            "needs a column 'translation' (English outputs) or 'gender' (already read; it wins over "
            "'translation' when both are given, as in a table of smb.read)",
            source,
            1,
        )
    if sample and sample not in header:
        raise DataError(f"has no sample column {sample!r} (found {', '.join(header)})", source, 1)
    referent = check_referent(header, referent, source)
    if not len(frame):
        raise DataError("has a header but no outputs", source, 2)
    for column in ("system", "set", "item"):
        empty = frame[column].astype(str).str.strip() == ""
        if empty.any():
            raise DataError(f"column {column!r} is empty", source, int(frame.loc[empty, "line"].iloc[0]))
    keys = ["system", "set", "item", *([sample] if sample else [])]
    repeated = frame.duplicated(keys, keep="first")
    if repeated.any():
        row = frame[repeated].iloc[0]
        first = frame[(frame[keys] == row[keys]).all(axis=1)]["line"].iloc[0]
        what = "/".join(str(row[k]) for k in keys)
        hint = "" if sample else " (several outputs of one item? name their sample column: sample=...)"
        raise DataError(f"{what} was already given on line {first}{hint}", source, int(row["line"]))
    out = pd.DataFrame(
        {
            "system": frame["system"].astype(str),
            "subset": frame["set"].astype(str),
            "item": frame["item"].astype(str),
            "line": frame["line"].astype(int),
            "sample": frame[sample].astype(str) if sample else "",
            "content": frame["stratum"].astype(str) if "stratum" in frame else "all",
            "language": frame["language"].astype(str) if "language" in frame else "",
        }
    )
    out["lexicon_item"] = out["item"]
    out["origin"] = str(source)
    if keep:  # the user's columns the reading does not make, under their names (the sample column stays the sample)
        own = {"system", "set", "item", "translation", "gender", "reason", "line", sample}
        for column in (c for c in header if c not in own):
            out[f"+{column}"] = frame[column].astype(str).to_numpy()
    if referent:
        out["reference"] = frame[referent].astype(str).to_numpy()
    if "source" in header:  # the sentences translated: the outputs are checked against them line by line
        out["source"] = frame["source"].astype(str).to_numpy()
    if "gender" not in header:
        text = frame["translation"].astype(str)
        out["translation"] = text.where(text.str.strip() != "", None).to_numpy()
        out["given"] = None
        out["reason"] = np.where(text.str.strip() == "", "empty", np.where(text.str.strip().isin(BROKEN), "broken", ""))
    else:
        raw = frame["gender"].astype(str).str.strip().str.lower()
        given = raw.map(GENDER_LABELS)
        bad = given.isna()
        if bad.any():
            row = frame[bad.to_numpy()].iloc[0]
            raise DataError(
                f"gender {row['gender']!r} is not one of female, male, neutral, both, unknown (or f/m/n/b/?)",
                source,
                int(row["line"]),
            )
        out["translation"] = frame["translation"].astype(str).to_numpy() if "translation" in header else None
        out["given"] = given.to_numpy()
        out["reason"] = np.where(raw == "", "empty", "")
    return line_flags(out) if "source" in out else out
