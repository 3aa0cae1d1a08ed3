"""Shared logic of the article-and-ending readers (Spanish, Portuguese, Italian, French)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from stats_mtbias.gender.targets import vote

# An "x" after a consonant, where no Spanish or Portuguese word ends so: "médicx", "todxs".
_X_ENDING = re.compile(r"^\w*[^\W\daeiouáéíóúâêôãõàü]xs?$", re.IGNORECASE)

# How far before the head noun its determiner may stand: "la nuova infermiera", "el nuevo y joven médico".
WINDOW = 3


def x_ending(word: str) -> bool:
    """The Spanish and Portuguese double form in one word, "médicx" (the record's ``in_word``)."""
    return len(word) >= 4 and bool(_X_ENDING.match(word))


def at_sign(tokens: Sequence[str], j: int) -> int | None:
    """ "médic@", "médic@s": a word and "@" (Spanish, Portuguese; the record's ``double_span``), the last index."""
    if j + 1 >= len(tokens) or not tokens[j].isalpha() or tokens[j + 1] != "@":
        return None
    return j + 2 if j + 2 < len(tokens) and tokens[j + 2] == "s" else j + 1


def _word(token: str) -> str:
    return token.lower().replace("’", "'")


def _is_elided(word: str) -> bool:
    """An elided determiner or preposition ("l'", "dell'", "all'"): it carries no gender and ends the search."""
    return word.endswith("'") and word != "un'"


def _nounlike(word: str, articles: dict[str, str], function: frozenset[str] = frozenset()) -> bool:
    # Words of one or two letters ("ha", "a", "è") and function words ("que", "les") that the aligner links to the
    # entity are not nouns.
    return word.isalpha() and len(word) > 2 and word not in articles and word not in function


def _determined(words: Sequence[str], j: int, positions: Sequence[int], articles: dict[str, str]) -> bool:
    """An aligned determiner (an article, or an elided "l'", "all'") stands before `j`, with only words between."""
    for i in range(j - 1, max(-1, j - 1 - WINDOW), -1):
        if i in positions and (words[i] in articles or _is_elided(words[i])):
            return True
        if not words[i].isalpha():
            return False
    return False


def head_span(
    words: Sequence[str], positions: Sequence[int], articles: dict[str, str], function: frozenset[str] = frozenset()
) -> list[int]:
    """The entity's head noun among the aligned tokens, with the aligned nouns right after it.

    The head is the first aligned token that can be a noun (not a function word
    of the language: "que le boulanger", "les … de l'infirmière"); aligned words
    after the head joined to it by an article or preposition ("addetto alla
    reception", "ouvrier de la construction") are a complement and are left out.
    When the aligner also linked a word of another noun phrase before the entity
    ("l'agent a parlé à l'infirmière": *agent* … *l'* *infirmière*), the noun that
    the aligned determiner introduces is the head: the English entity's "the"
    was aligned to it. Words in one unbroken run of aligned tokens are one noun
    phrase ("addetto alla reception"), so this applies only across a gap.
    """
    ordered = sorted(positions)
    content = [j for j in ordered if _nounlike(words[j], articles, function)]
    if not content:
        return []
    head = content[0]
    if not _determined(words, head, positions, articles):
        for j in content[1:]:
            gap = any(k not in positions for k in range(head, j))
            if gap and _determined(words, j, positions, articles):
                head = j
                break
    span = [head]
    while span[-1] + 1 in positions and _nounlike(words[span[-1] + 1], articles, function):
        span.append(span[-1] + 1)  # "amministratore delegato"
    return span


def compound_head(words: Sequence[str], head: int, articles: dict[str, str], linkers: frozenset[str]) -> int:
    """The first noun of a multiword noun when `head` is its bare complement: "la femme de *ménage*" gives "femme".

    "det N1 de N2" with N2 bare (no article: "femme de ménage", "agent d'entretien",
    "addetta alle pulizie" is not one, its "alle" is an article) names an N1: its
    determiner and ending decide, not N2's ("ménage" is masculine).
    """
    # N1 must have a determiner of its own right before it: "a fourni de nouveaux outils" is a verb, no N1.
    if (
        head >= 3
        and words[head - 1] in linkers
        and _nounlike(words[head - 2], articles)
        and (words[head - 3] in articles or _is_elided(words[head - 3]))
    ):
        return head - 2
    return head


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
    *,
    function: frozenset[str] = frozenset(),
    linkers: frozenset[str] = frozenset(),
    lexical: dict[str, str] | None = None,
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
    `function` are words never taken for the head (see :func:`head_span`);
    `linkers` the prepositions of multiword nouns (see :func:`compound_head`);
    `lexical` nouns whose gender is their meaning ("femme", "homem"), read
    before any ending.
    """
    if not positions:
        return "unknown"
    words = [_word(t) for t in tokens]
    span = head_span(words, positions, articles, function)
    if not span:
        # Only articles or short words aligned: an aligned article still tells ("el" alone).
        found = [articles[words[j]] for j in positions if words[j] in articles]
        return vote(found) if found else "unknown"
    head = compound_head(words, span[0], articles, linkers) if linkers else span[0]
    if head != span[0]:
        span = [head]
    for j in range(head - 1, max(-1, head - 1 - WINDOW), -1):
        if words[j] in articles:
            return articles[words[j]]
        if _is_elided(words[j]) or not words[j].isalpha():
            break
    signals, unread = [], []
    for j in span:
        gender = (lexical or {}).get(words[j]) or ending_gender(words[j], endings, epicene)
        if gender:
            signals.append(gender)
        elif gender is None:
            unread.append(j)
    if unread and fallback is not None:
        signals.append(fallback(tokens, unread))
    return vote(signals)
