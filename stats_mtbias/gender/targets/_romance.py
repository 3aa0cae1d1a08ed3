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
    "il/la giornalista" carry no gender of their own; endings are used only for
    nouns not listed as epicene.
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
        if not word.isalpha() or any(word.endswith(e) for e in epicene):
            continue
        for ending, gender in endings:
            if word.endswith(ending):
                signals.append(gender)
                break
    return vote(signals)
