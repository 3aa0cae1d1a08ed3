"""Shared logic of the article-and-ending readers (Spanish, Italian)."""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets import vote


def read_with_articles(
    tokens: Sequence[str],
    positions: Sequence[int],
    articles: dict[str, str],
    endings: Sequence[tuple[str, str]],
    epicene: Sequence[str],
) -> str:
    """Gender from the nearest article/determiner before (or among) the aligned tokens, else the noun's ending.

    The article decides when there is one, since nouns like "el/la guardia" or
    "il/la giornalista" carry no gender of their own; otherwise the noun's longest
    matching suffix, where an epicene suffix ("-ista", "-ente", Italian "-e") gives
    no reading.
    """
    if not positions:
        return "unknown"
    first = min(positions)
    # Nearest determiner: among the aligned tokens, or up to 3 tokens before the first one.
    for j in sorted(positions, reverse=True) + list(range(first - 1, max(-1, first - 4), -1)):
        word = tokens[j].lower().replace("’", "'")
        if word in articles:
            return articles[word]
    signals = []
    for j in positions:
        word = tokens[j].lower()
        # Words of one or two letters ("ha", "a", "è") that the aligner links to the entity are not nouns.
        if not word.isalpha() or len(word) <= 2:
            continue
        # The longest matching suffix decides: "-tore" (masculine) before the epicene "-e".
        suffixes = [(e, g) for e, g in endings if word.endswith(e)] + [(e, None) for e in epicene if word.endswith(e)]
        if suffixes:
            gender = max(suffixes, key=lambda pair: len(pair[0]))[1]
            if gender is not None:
                signals.append(gender)
    return vote(signals)
