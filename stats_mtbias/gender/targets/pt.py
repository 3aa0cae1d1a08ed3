"""Portuguese: articles, contractions and determiners (o/a, um/uma, do/da, ao/à, no/na, pelo/pela, …), else noun endings.

Portuguese marks the gender of a person noun on its determiner, which fuses with
the prepositions de, em, a and por (do/da, no/na, ao/à, pelo/pela, dum/duma,
num/numa, deste/desta, àquele/àquela …), and mostly on the noun: -o/-a, -or/-ora,
-eiro/-eira, -ão/-ã or -ona, -ês/-esa, -triz (atriz, imperatriz), -isa (poetisa).
Nouns in -ista, -ante, -ente and most in -e are epicene ("o/a motorista", "o/a
gerente"): their determiner decides, and without one they give no reading. "a"
before a noun is the feminine article: the preposition fuses with a masculine
article into "ao" and with a feminine one into "à". The shared rules (the head
noun among the aligned words, the determiner looked for before it, multiword
nouns such as "empregada de limpeza") are those of
:mod:`stats_mtbias.gender.targets._romance`; "alguém" and "pessoa" are neutral
(:data:`stats_mtbias.gender.targets.INDEFINITE`).
"""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets._language import Language
from stats_mtbias.gender.targets._romance import at_sign, read_with_articles, x_ending

_MALE = (
    "o os um uns do dos ao aos no nos pelo pelos dum duns num nuns este estes esse esses aquele aqueles deste destes desse "
    "desses daquele daqueles neste nestes nesse nesses naquele naqueles àquele àqueles seu seus meu meus teu teus nosso "
    "nossos vosso vossos outro outros mesmo próprio"
)
_FEMALE = (
    "a as uma umas da das à às na nas pela pelas duma dumas numa numas esta estas essa essas aquela aquelas desta destas "
    "dessa dessas daquela daquelas nesta nestas nessa nessas naquela naquelas àquela àquelas sua suas minha minhas tua "
    "tuas nossa nossas vossa vossas outra outras mesma própria"
)
ARTICLES = {**dict.fromkeys(_MALE.split(), "male"), **dict.fromkeys(_FEMALE.split(), "female")}
ENDINGS = (
    *[(e, "female") for e in "a as ora oras eira eiras triz trizes ã ãs ona onas esa esas isa isas essa essas".split()],
    *[(e, "male") for e in "o os or ores eiro eiros ão ões ês eses".split()],
)
EPICENE = ("ista", "istas", "ante", "antes", "ente", "entes", "e", "es", "guarda", "colega", "atleta", "agente", "jovem")
FUNCTION = frozenset(
    "que quem cujo cuja com por para sem sobre entre até mas porque como quando onde ele ela eles elas lhe lhes não foi "
    "era estava está ser seja muito mais também isso isto aquilo".split()
)
LINKERS = frozenset({"de"})
LEXICAL = {
    "mulher": "female",
    "senhora": "female",
    "dona": "female",
    "moça": "female",
    "homem": "male",
    "senhor": "male",
    "moço": "male",
    "rapaz": "male",
}


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Portuguese entity.

    Examples
    --------
    >>> from stats_mtbias.alignment import tokenize
    >>> tokens = tokenize("O mecânico deu um presente à recepcionista.")
    >>> read(tokens, [1]), read(tokens, [6]), read(tokens, [5, 6])
    ('male', 'female', 'female')
    """
    return read_with_articles(tokens, positions, ARTICLES, ENDINGS, EPICENE, function=FUNCTION, linkers=LINKERS, lexical=LEXICAL)


LANGUAGE = Language(
    code="pt",
    name="Portuguese",
    read=read,
    indefinite=frozenset({"alguém", "pessoa", "criança", "testemunha", "vítima", "indivíduo", "cônjuge"}),
    separators=frozenset("/("),
    suffixes=frozenset({"a", "as", "ra", "ras", "ã", "ãs", "na"}),
    conjunctions=frozenset({"ou", "e"}),
    note_letters=frozenset("mfhx"),
    determiners=ARTICLES,
    in_word=x_ending,
    double_span=at_sign,
    varieties=frozenset({"gl"}),
)
