"""Word alignment of source/translation pairs (FastAlign or eflomal, as packaged in sil-thot).

Sentences are tokenised the same way on both sides (:func:`tokenize`: words,
elided articles such as French/Italian ``l'`` as tokens of their own, punctuation
apart). Alignment models are trained on the bitext itself (plus any extra
parallel text the user gives) in both directions and symmetrised with
grow-diag-final-and. Training is deterministic; results are cached per input by
content hash under ``$MTBIAS_CACHE/alignments`` (else the user cache).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from stats_mtbias._cache import default_cache_dir
from stats_mtbias._files import read_cache, write_cache
from stats_mtbias._validation import check_choice, check_positive_int
from stats_mtbias.errors import UsageError

METHODS = ("fastalign", "eflomal")
HEURISTICS = ("grow-diag-final-and", "grow-diag-final", "intersection", "union")
# Hebrew acronyms keep their gershayim (מנכ"ל, "CEO"): split, the aligner sees only a stray ל.
_TOKEN = re.compile(r"[\u05d0-\u05ea]+[\"\u05f4][\u05d0-\u05ea]+|[^\W\d_]+['’]|\w+(?:-\w+)*|[^\w\s]", re.UNICODE)


def tokenize(text: str) -> list[str]:
    """Words (hyphenated kept whole), elided articles with their apostrophe (``l'``, ``dell'``), punctuation."""
    return _TOKEN.findall(text)


def word_tokens(sentence: str) -> list[tuple[int, int]]:
    """For each whitespace-separated word of `sentence`, the (start, end) of its tokens in :func:`tokenize` order."""
    spans, start = [], 0
    for word in sentence.split():
        n = len(tokenize(word))
        spans.append((start, start + n))
        start += n
    return spans


def _key(method: str, heuristic: str, iterations: int, src, trg, extra=None) -> str:
    # The extra training text changes the alignments, so it is part of the key.
    digest = hashlib.sha256(
        json.dumps([method, heuristic, iterations, src, trg, extra], ensure_ascii=False).encode("utf-8")
    )
    return digest.hexdigest()[:32]


def align(
    src: Sequence[Sequence[str]],
    trg: Sequence[Sequence[str]],
    *,
    method: str = "fastalign",
    heuristic: str = "grow-diag-final-and",
    iterations: int = 5,
    extra: tuple[Sequence[Sequence[str]], Sequence[Sequence[str]]] | None = None,
    cache: bool | str | Path = True,
) -> list[np.ndarray]:
    """Symmetrised word alignments of token lists: one ``(k, 2)`` array of (source, target) indices per pair.

    Parameters
    ----------
    src, trg : sequences of token lists
        The pairs to align (lower-cased internally for training).
    method : {"fastalign", "eflomal"}
    heuristic : {"grow-diag-final-and", "grow-diag-final", "intersection", "union"}
    iterations : int
        Training iterations of each direction.
    extra : (src, trg), optional
        More parallel text to train on (not aligned in the output).
    cache : bool or path
        Cache directory for the result (``True``: the user cache; ``False``: none).
    """
    import thot.alignment as ta

    check_choice(method, METHODS, "method")
    check_choice(heuristic, HEURISTICS, "heuristic")
    iterations = check_positive_int(iterations, "iterations")
    if len(src) != len(trg):
        raise UsageError("`src` and `trg` must hold the same number of sentences.")
    low_src = [[t.lower() for t in s] for s in src]
    low_trg = [[t.lower() for t in s] for s in trg]
    path = None
    if cache:
        base = default_cache_dir() if cache is True else Path(cache)
        extra_key = None if extra is None else [list(map(list, extra[0])), list(map(list, extra[1]))]
        path = base / "alignments" / f"{_key(method, heuristic, iterations, low_src, low_trg, extra_key)}.json"
        cached = read_cache(path, lambda v: _valid_alignments(v, low_src, low_trg))
        if cached is not None:
            return [np.asarray(a, dtype=int).reshape(-1, 2) for a in cached]
    train_src, train_trg = list(low_src), list(low_trg)
    if extra is not None:
        train_src += [[t.lower() for t in s] for s in extra[0]]
        train_trg += [[t.lower() for t in s] for s in extra[1]]
    model_type = ta.FastAlignModel if method == "fastalign" else ta.EflomalAlignmentModel
    direct, inverse = model_type(), model_type()
    for s, t in zip(train_src, train_trg):
        if s and t:
            direct.add_sentence_pair(s, t)
            inverse.add_sentence_pair(t, s)
    for model in (direct, inverse):
        model.start_training()
        for _ in range(iterations):
            model.train()
        model.end_training()
    symmetric = ta.SymmetrizedAlignmentModel(direct, inverse)
    symmetric.heuristic = getattr(ta.SymmetrizationHeuristic, heuristic.upper().replace("-", "_"))
    out = []
    for s, t in zip(low_src, low_trg):
        if not s or not t:
            out.append(np.empty((0, 2), dtype=int))
            continue
        _, matrix = symmetric.get_best_alignment(s, t)
        out.append(np.argwhere(matrix.to_numpy() > 0).astype(int))
    if path is not None:
        write_cache(path, json.dumps([a.tolist() for a in out]))
    return out


def _valid_alignments(value, src, trg) -> bool:
    """A cached alignment: one list of (source, target) index pairs per sentence, inside both sentences."""
    if not isinstance(value, list) or len(value) != len(src):
        return False
    for links, s, t in zip(value, src, trg, strict=True):
        if not isinstance(links, list):
            return False
        for pair in links:
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(i, int) for i in pair)
                    and 0 <= pair[0] < len(s) and 0 <= pair[1] < len(t)):  # fmt: skip
                return False
    return True


def translation_lexicon(
    src: Sequence[Sequence[str]],
    trg: Sequence[Sequence[str]],
    alignments: Sequence[np.ndarray],
    words: Sequence[str],
    *,
    min_count: int = 5,
    min_share: float = 0.05,
    n_function: int = 50,
) -> dict[str, frozenset[str]]:
    """The usual translations of `words`, learned from aligned text: ``word -> {target word, …}`` (lower case).

    A target word is a usual translation of a source word when they are linked at
    least `min_count` times and in at least `min_share` of the source word's links.
    The `n_function` most frequent target words (articles, prepositions, auxiliaries)
    are never translations: they are linked to everything.
    """
    from collections import Counter

    wanted = {w.lower() for w in words}
    frequency: Counter = Counter(t.lower() for sentence in trg for t in sentence)
    function = {w for w, _ in frequency.most_common(n_function)}
    pairs: Counter = Counter()
    totals: Counter = Counter()
    for s, t, links in zip(src, trg, alignments):
        for i, j in links:
            source = s[i].lower()
            if source in wanted:
                totals[source] += 1
                target = t[j].lower()
                if target not in function and target.isalpha():
                    pairs[source, target] += 1
    lexicon: dict[str, set[str]] = {}
    for (source, target), count in pairs.items():
        if count >= min_count and count >= min_share * totals[source]:
            lexicon.setdefault(source, set()).add(target)
    return {source: frozenset(targets) for source, targets in lexicon.items()}
