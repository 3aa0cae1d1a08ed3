"""Czech: the person noun's suffix, else a UD-trained morphological tagger (spaCy ``cs_core_news_sm``); its noun phrase.

The entity's own noun phrase decides, as the labelling guide defines it
(``data/validation/LABELLING.md``): the head noun and the words inside its noun
phrase, never a verb, pronoun or adjective outside it. The derivational suffixes
of person nouns, which Czech marks in every case form, decide first
(:data:`FEMALE_FORMS`, :data:`MALE_FORMS`: -ka/-ky/-ce/-ku/-kou, the -ce of every
masculine agent stem (učitelce, šerifce), -ice, -yně, -ová: feminine; -ník,
-ař/-ář, -tel, -ista, -or, -er/-ér, -ent/-ant, -log, -ik, -eč/-ič, -if and their
case endings: masculine). The words no suffix covers are tagged in their sentence
by ``cs_core_news_sm`` (a spaCy pipeline trained on the Universal Dependencies
Czech treebanks: UD ``Gender``, ``Animacy``, ``Case``): a noun names a person
when it is feminine or a masculine animate (správce, šerif); masculine inanimate
and neuter nouns (oblek, místo) are another noun phrase's words that the aligner
linked, and are not read. Then:

- adjectival nouns in -í (účetní, vedoucí, recepční) have one form for the
  feminine singular in every case and distinct masculine ones (účetního,
  účetnímu, účetním): a form in -í outside the nominative is feminine
  ("vyslechl účetní", "s pokladní"); in the nominative the noun phrase decides
  ("ten vedoucí" male, "nová vedoucí" female) and a bare "vedoucí" shows no
  gender: ``neutral``;
- "paní" before the noun or among the aligned words is female ("paní doktor"),
  "pan" male;
- a noun in the genitive right after a person noun is its complement ("správce
  domácnosti"): the person noun is the head, also where the aligner linked only
  the complement; an adjective followed by its noun ("laserovou řezačku") is that
  noun's, not the entity.

A feminine past participle after a masculine noun ("doktor řekla") is outside the
noun phrase and does not count: the noun phrase is masculine, as the guide labels
it. "někdo", "osoba", "dítě" and "oběť" are neutral
(:data:`stats_mtbias.gender.targets.INDEFINITE`). The tagger runs only where the
suffixes leave the reading open, which keeps the reader as fast as the others.
Needs ``cs-core-news-sm`` (``pip install 'stats_mtbias[all]'``; licence CC BY-NC-SA
3.0, from its training data).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from stats_mtbias.errors import UsageError
from stats_mtbias.gender.targets import vote
from stats_mtbias.gender.targets._language import Language

FUNCTION = frozenset(
    "a i ale že protože aby když se si s se z ze k ke v ve na o u do od po pro při za před mezi nad pod který která "
    "které kterou kterého jeho její jejich on ona ono oni mu jí ho je to ten ta tu tento tato toto jako také už".split()
)
DEMONSTRATIVES = {**dict.fromkeys("ten tento tenhle".split(), "male"), **dict.fromkeys("ta tato tahle".split(), "female")}
_GENDER = {"Masc": "male", "Fem": "female"}
# Case forms of the feminine agent suffixes: -ka after an agent stem (učitelka, učitelce, učitelku, učitelkou; the -ce
# of every masculine agent stem of MALE_FORMS: šerifce, psycholožce), -ice, -yně, the adjectival -ová and -ná (vrátná).
FEMALE_FORMS = re.compile(
    r"(?:ka|ky|ku|kou|kám|kách|kami|ice|ici|icí|yně|yni|yní|ová|ové|ná|nou"
    r"|(?:ař|ář|tel|er|ér|ent|ant|ist|or|ič|eč|ač|ák|ík|if|ož)ce)$"
)
# Case forms of the masculine agent suffixes, and the masculine case endings of adjectival nouns (účetního).
MALE_FORMS = re.compile(
    r"(?:ník|níka|níkovi|níkem|níku|ař|aře|aři|ařem|ařovi|ář|áře|áři|ářem|ářovi|tel|tele|teli|telem|telovi"
    r"|ista|isty|istovi|istou|istu|istou|or|ora|orovi|orem|er|era|erovi|erem|ér|éra|érovi|érem"
    r"|ent|enta|entovi|entem|ant|anta|antovi|antem|log|loga|logovi|logem|ik|ika|ikovi|ikem|ák|áka|ákovi|ákem"
    r"|eč|eče|eči|ečem|ečovi|ič|iče|iči|ičem|ičovi|ec|cem|covi|ího|ímu|ím|ým|ý|ého|ému|if|ifa|ifovi|ifem)$"
)
TITLES = {"paní": "female", "pan": "male", "pana": "male", "panu": "male", "panem": "male", "pane": "male"}


@lru_cache(maxsize=1)
def _nlp():
    import spacy

    try:
        return spacy.load("cs_core_news_sm", disable=["parser", "trainable_lemmatizer", "ner"])
    except OSError:
        raise UsageError("the Czech reader needs the spaCy pipeline cs_core_news_sm: pip install 'stats_mtbias[all]'") from None


@lru_cache(maxsize=20_000)
def _tagged(tokens: tuple[str, ...]) -> tuple[tuple[str, frozenset, frozenset, frozenset, bool], ...]:
    """Per token: (POS, genders, cases, animacy, is a past participle), tagged in its sentence (memoised)."""
    from spacy.tokens import Doc

    nlp = _nlp()
    doc = Doc(nlp.vocab, words=list(tokens))
    for _, component in nlp.pipeline:
        doc = component(doc)
    out = []
    for t in doc:
        m = t.morph
        past = m.get("VerbForm") == ["Part"] and m.get("Tense") == ["Past"]
        out.append((t.pos_, frozenset(m.get("Gender")), frozenset(m.get("Case")), frozenset(m.get("Animacy")), past))
    return tuple(out)


def _tag_gender(genders: frozenset) -> str:
    found = {_GENDER[g] for g in genders if g in _GENDER}
    return found.pop() if len(found) == 1 and "Neut" not in genders else "unknown"


# Person nouns whose gender is their meaning, in all their case forms (dcera would look like manažera).
LEXICAL = {
    **dict.fromkeys(
        "sestra sestry sestře sestru sestrou žena ženy ženě ženu ženou dcera dcery dceři dceru dcerou paní".split(), "female"
    ),
    **dict.fromkeys("muž muže muži mužem mužovi syn syna synovi synem".split(), "male"),
}


def _rule_gender(word: str) -> str | None:
    """The gender by the suffix rules or the lexicon, or None."""
    w = word.lower()
    if w in LEXICAL:
        return LEXICAL[w]
    if w.endswith("í"):
        return None
    # The longer suffix wins: zedníka is -níka (masculine), not -ka.
    female, male = FEMALE_FORMS.search(w), MALE_FORMS.search(w)
    if not (female or male):
        return None
    return "female" if len(female.group() if female else "") > len(male.group() if male else "") else "male"


def noun_gender(word: str, genders: frozenset = frozenset(), cases: frozenset = frozenset()) -> str:
    """The gender of a Czech person noun form: its suffix, else (an adjectival noun in -í) its case, else its tag.

    Examples
    --------
    >>> [noun_gender(w) for w in ("učitelce", "učiteli", "knihovnice", "uklízeči", "účetního")]
    ['female', 'male', 'female', 'male', 'male']
    >>> fem = frozenset({"Fem"})
    >>> noun_gender("účetní", fem, frozenset({"Ins"})), noun_gender("účetní", fem, frozenset({"Nom"}))
    ('female', 'unknown')
    """
    w = word.lower()
    if w.endswith("í") and w not in LEXICAL:
        # účetní, vedoucí: the feminine singular in every case; the masculine only in the nominative (and vocative).
        return "female" if cases and not cases & {"Nom", "Voc"} else "unknown"
    return _rule_gender(w) or _tag_gender(genders)


def _person(word: str, tag) -> bool:
    """Whether `word` (with its tag) can name a person: a suffix rule, an adjectival noun in -í, a feminine or a
    masculine animate noun; not a masculine inanimate or neuter noun."""
    if _rule_gender(word) is not None or word.lower().endswith("í"):
        return True
    pos, genders, _, animacy, _ = tag
    if pos not in ("NOUN", "PROPN", "ADJ"):
        return False
    if "Neut" in genders and len(genders) == 1:
        return False
    return not ("Masc" in genders and animacy == {"Inan"})


def _np_agreement(words: Sequence[str], tags, head: int) -> str | None:
    """The gender a word before the head inside its noun phrase shows: a title, a demonstrative, an adjective."""
    for j in range(head - 1, max(-1, head - 3), -1):
        if words[j] in TITLES:
            return TITLES[words[j]]  # "paní doktor"
        if words[j] in DEMONSTRATIVES:
            return DEMONSTRATIVES[words[j]]  # "ten vedoucí"
        if tags is None or tags[j][0] not in ("ADJ", "DET"):
            return None
        gender = _tag_gender(tags[j][1])
        if gender != "unknown" and words[j].endswith(("ý", "á", "í")):
            return gender  # "nová vedoucí"
    return None


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Czech entity.

    Examples
    --------
    >>> from stats_mtbias.alignment import tokenize
    >>> tokens = tokenize("Uklízečka zavolala mechanikovi, protože mu chtěla poděkovat.")
    >>> read(tokens, [0]), read(tokens, [2])
    ('female', 'male')
    >>> read(tokenize("Vedoucí přišla pozdě."), [0]), read(tokenize("Nová vedoucí přišla."), [1])
    ('neutral', 'female')
    """
    words = [t.lower() for t in tokens]
    content = [j for j in sorted(positions) if tokens[j].isalpha() and words[j] not in FUNCTION and len(words[j]) > 2]
    if not content:
        return "unknown"
    titles = [TITLES[words[j]] for j in content if words[j] in TITLES]
    if titles:
        return vote(titles)  # "paní" among the aligned words: inside the noun phrase
    # Fast path, without the tagger (most of the reading's time): the suffix rules decide the aligned words.
    decided = [(j, g) for j in content if (g := _rule_gender(words[j])) is not None]
    if decided and len({g for _, g in decided}) == 1 and not any(words[j].endswith("í") for j in content):
        head, gender = decided[0]
        return _np_agreement(words, None, head) or gender
    tags = _tagged(tuple(tokens))
    heads = []
    for j in content:
        if (
            tags[j][0] in ("NOUN", "PROPN")
            and "Gen" in tags[j][2]
            and j > 0
            and j - 1 not in content
            and tags[j - 1][0] in ("NOUN", "PROPN")
            and _person(tokens[j - 1], tags[j - 1])
            and _rule_gender(words[j]) is None
        ):
            j = j - 1  # "správce domácnosti": only the complement was aligned
        if _person(tokens[j], tags[j]) and j not in heads:
            heads.append(j)
    # A genitive complement after an aligned head, and an adjective before its noun, are not the entity.
    heads = [j for j in heads if not (j - 1 in heads and "Gen" in tags[j][2] and _rule_gender(words[j]) is None)]
    heads = [j for j in heads if not (tags[j][0] == "ADJ" and j + 1 < len(tokens) and tags[j + 1][0] == "NOUN")]
    nouns = [j for j in heads if tags[j][0] in ("NOUN", "PROPN")] or [j for j in heads if tags[j][0] == "ADJ"]
    if not nouns:
        return "unknown"
    gender = vote([g for j in nouns if (g := noun_gender(tokens[j], tags[j][1], tags[j][2])) != "unknown"] or ["unknown"])
    head = nouns[0]
    agreed = _np_agreement(words, tags, head)
    if agreed is not None and gender in ("male", "unknown"):
        return agreed
    if gender == "unknown" and words[head].endswith("í") and not (tags[head][2] - {"Nom", "Voc"}):
        return "neutral"  # a bare "vedoucí": one form for both, no gendered word in its noun phrase
    return gender


LANGUAGE = Language(
    code="cs",
    name="Czech",
    read=read,
    requires=("spacy>=3.8,<3.9", "cs-core-news-sm>=0.2,<0.3"),
    indefinite=frozenset(
        {
            "někdo",
            "někoho",
            "někomu",
            "někým",
            "někom",
            "kdosi",
            "osoba",
            "osoby",
            "osobě",
            "osobu",
            "osobou",
            "dítě",
            "dítěte",
            "dítěti",
            "dítětem",
            "oběť",
            "oběti",
        }
    ),
    alignment_stem=5,
    separators=frozenset("/("),
    suffixes=frozenset({"ka", "ky", "ku", "kou", "ce", "ice", "yně", "kyně", "á"}),
    conjunctions=frozenset({"nebo", "či", "a", "i"}),
    note_letters=frozenset({"m", "ž", "z", "x"}),
    determiners={"pan": "male", "pana": "male", "panu": "male", "panem": "male", "paní": "female"},
    varieties=frozenset({"sk"}),
)
