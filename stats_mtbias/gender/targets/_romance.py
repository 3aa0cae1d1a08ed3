"""Shared logic of the article-and-ending readers (Spanish, Italian, French)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from stats_mtbias.gender.targets import vote

# How far before the head noun its determiner may stand: "la nuova infermiera", "el nuevo y joven médico".
WINDOW = 3


def _word(token: str) -> str:
    return token.lower().replace("’", "'")


def _is_elided(word: str) -> bool:
    """An elided determiner or preposition ("l'", "dell'", "all'"): it carries no gender and ends the search."""
    return word.endswith("'") and word != "un'"


def _nounlike(word: str, articles: dict[str, str]) -> bool:
    # Words of one or two letters ("ha", "a", "è") that the aligner links to the entity are not nouns.
    return word.isalpha() and len(word) > 2 and word not in articles


def head_span(words: Sequence[str], positions: Sequence[int], articles: dict[str, str]) -> list[int]:
    """The entity's head noun among the aligned tokens, with the aligned nouns right after it.

    The head is the first aligned token that can be a noun; aligned words after
    the head joined to it by an article or preposition ("addetto alla reception",
    "ouvrier de la construction") are a complement and are left out.
    """
    ordered = sorted(positions)
    content = [j for j in ordered if _nounlike(words[j], articles)]
    if not content:
        return []
    span = [content[0]]
    while span[-1] + 1 in positions and _nounlike(words[span[-1] + 1], articles):
        span.append(span[-1] + 1)  # "amministratore delegato"
    return span


def ending_gender(word: str, endings: Sequence[tuple[str, str]], epicene: Sequence[str]) -> str | None:
    """The gender of `word`'s longest matching suffix: ``-tore`` (masculine) before the epicene ``-e``; None if none."""
    suffixes = [(e, g) for e, g in endings if word.endswith(e)] + [(e, "") for e in epicene if word.endswith(e)]
    if not suffixes:
        return None
    return max(suffixes, key=lambda pair: len(pair[0]))[1]


def read_with_articles(
    tokens: Sequence[str],
    positions: Sequence[int],
    articles: dict[str, str],
    endings: Sequence[tuple[str, str]],
    epicene: Sequence[str],
    fallback: Callable[[Sequence[str], Sequence[int]], str] | None = None,
) -> str:
    """Gender from the determiner of the aligned head noun, else the noun's ending.

    The determiner decides when there is one, since nouns like "el/la guardia" or
    "il/la giornalista" carry no gender of their own. It is looked for from the
    head noun backwards (at most ``WINDOW`` tokens), never after the head, and the
    search stops at an elided determiner ("l'", "dell'"), which has no gender:
    scanning on would take the article of another noun phrase ("Il muratore ha
    bisogno dell'assistente"). Without a determiner, the head's longest matching
    suffix decides, an epicene suffix ("-ista", "-ente", Italian "-e") giving no
    reading; `fallback` (French: the tagger) reads words no suffix covers.
    """
    if not positions:
        return "unknown"
    words = [_word(t) for t in tokens]
    span = head_span(words, positions, articles)
    if not span:
        # Only articles or short words aligned: an aligned article still tells ("el" alone).
        found = [articles[words[j]] for j in positions if words[j] in articles]
        return vote(found) if found else "unknown"
    head = span[0]
    for j in range(head - 1, max(-1, head - 1 - WINDOW), -1):
        if words[j] in articles:
            return articles[words[j]]
        if _is_elided(words[j]) or not words[j].isalpha():
            break
    signals, unread = [], []
    for j in span:
        gender = ending_gender(words[j], endings, epicene)
        if gender:
            signals.append(gender)
        elif gender is None:
            unread.append(j)
    if unread and fallback is not None:
        signals.append(fallback(tokens, unread))
    return vote(signals)
