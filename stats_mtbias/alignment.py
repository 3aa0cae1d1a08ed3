"""Word alignment of source/translation pairs (FastAlign or eflomal, as packaged in sil-thot).

Sentences are tokenised the same way on both sides (:func:`tokenize`: words,
elided articles such as French/Italian ``l'`` as tokens of their own, punctuation
apart). Alignment models are trained on the bitext itself (plus any extra
parallel text the user gives) in both directions and symmetrised with
grow-diag-final-and. Results are cached per input by content hash under
``$MTBIAS_CACHE/alignments`` (else the user cache).

Training is deterministic: the same pairs give the same links in every process,
on every machine (issue 49). sil-thot trains with OpenMP, and its FastAlign adds
the expected counts of all threads into shared cells (``omp atomic``) and reduces
the diagonal tension across threads, so with several threads the floating-point
sums come out in the order the threads happen to finish, and now and then a link
whose two candidates are near-tied flips between runs (the academic German file
read one item differently in one cold run of six). Training therefore runs on one
OpenMP thread (:func:`one_thread`): the sums follow the sentence order. eflomal's
sampler is seeded (:data:`EFLOMAL_SEED`) and its chains run one after another.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from stats_mtbias._cache import default_cache_dir
from stats_mtbias._files import read_cache, write_cache
from stats_mtbias._validation import check_choice, check_positive_int
from stats_mtbias.errors import UsageError

METHODS = ("fastalign", "eflomal")
HEURISTICS = ("grow-diag-final-and", "grow-diag-final", "intersection", "union")
# eflomal's Gibbs sampler: a fixed seed (sil-thot's own default, pinned here), so its links are reproducible.
EFLOMAL_SEED = 1351155463
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


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """The aligner's OpenMP on one thread in this thread, for the duration (deterministic sums; see the module).

    OpenMP's thread count is a per-thread setting (``omp_set_num_threads``), so
    the limit holds for this thread's training only and is restored afterwards;
    other threads (a Dask worker's, a user's) are not touched.
    """
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a dependency of the aligner's extra
        raise UsageError("word alignment needs threadpoolctl (deterministic training): pip install 'stats_mtbias[all]'") from None
    with threadpool_limits(limits=1, user_api="openmp"):
        yield


# Part of every cache key: links cached by the multi-threaded training of earlier versions are not reused.
_TRAINING = "one-openmp-thread"


def _key(method: str, heuristic: str, iterations: int, src, trg, extra=None) -> str:
    # The extra training text changes the alignments, so it is part of the key.
    digest = hashlib.sha256(
        json.dumps([_TRAINING, method, heuristic, iterations, src, trg, extra], ensure_ascii=False).encode("utf-8")
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
    if method == "eflomal":
        for model in (direct, inverse):
            model.seed, model.deterministic = EFLOMAL_SEED, True
    for s, t in zip(train_src, train_trg):
        if s and t:
            direct.add_sentence_pair(s, t)
            inverse.add_sentence_pair(t, s)
    out = []
    with one_thread():
        for model in (direct, inverse):
            model.start_training()
            for _ in range(iterations):
                model.train()
            model.end_training()
        symmetric = ta.SymmetrizedAlignmentModel(direct, inverse)
        symmetric.heuristic = getattr(ta.SymmetrizationHeuristic, heuristic.upper().replace("-", "_"))
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
            if not (
                isinstance(pair, list)
                and len(pair) == 2
                and all(isinstance(i, int) for i in pair)
                and 0 <= pair[0] < len(s)
                and 0 <= pair[1] < len(t)
            ):
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
