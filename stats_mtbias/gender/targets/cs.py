"""Czech: the noun's gender from a UD-trained morphological tagger (spaCy ``cs_core_news_sm``), with agreement.

The aligned head noun is tagged in its sentence by ``cs_core_news_sm`` (a spaCy
pipeline trained on the Universal Dependencies Czech treebanks: its
morphologizer gives UD ``Gender`` and ``Case``). The small model's gender is
right about nine times in ten, so the derivational suffixes of person nouns,
which Czech marks in every case form, decide first (:data:`FEMALE_FORMS`,
:data:`MALE_FORMS`: -ka/-ky/-ce/-ku/-kou of an agent stem, -ice, -yně, -ová:
feminine; -ník, -ař/-ář, -tel, -ista, -or, -er/-ér, -ent/-ant, -log, -ik, -eč/-ič
and their case endings: masculine); the tagger's gender reads the rest (sestra,
žena, šerif). Adjectival nouns in -í (účetní, vedoucí, pokladní, recepční) have
one form for the feminine singular in every case and distinct masculine ones
(účetního, účetnímu, účetním): a form in -í outside the nominative is feminine
("vyslechl účetní", "s pokladní"), in the nominative agreement decides. Then
agreement decides where the noun cannot:

- "paní" before the noun is female ("paní doktor"), "pan" male;
- a masculine (or ungendered) noun in the nominative followed, in its clause, by
  a past participle in the feminine singular names a woman ("doktor řekla"), as
  in the Russian reader; the scan stops at punctuation and conjunctions.

The tagger runs only where the suffixes leave the reading open (an adjectival
noun in -í, a word no suffix covers, conflicting signals): for a masculine
subject the l-participle after it is read by its ending (-la feminine, -l
masculine), which keeps the reader as fast as the others.
"někdo", "osoba", "dítě" and "oběť" are neutral
(:data:`stats_mtbias.gender.targets.INDEFINITE`). Needs ``cs-core-news-sm``
(``pip install 'stats_mtbias[all]'``; licence CC BY-NC-SA 3.0, from its training data).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from stats_mtbias.gender.targets import vote

FUNCTION = frozenset(
    "a i ale že protože aby když se si s se z ze k ke v ve na o u do od po pro při za před mezi nad pod který která "
    "které kterou kterého jeho její jejich on ona ono oni mu jí ho je to ten ta tu tento tato toto jako také už".split()
)
CLAUSE_BREAKS = frozenset("a i ale že protože aby když nebo či který která které což".split())
_GENDER = {"Masc": "male", "Fem": "female"}
# Case forms of the feminine agent suffixes: -ka after an agent stem (učitelka, učitelce, učitelku, učitelkou),
# -ice, -yně, the adjectival -ová and -ná (vrátná).
FEMALE_FORMS = re.compile(
    r"(?:ka|ky|ku|kou|kám|kách|kami|ice|ici|icí|yně|yni|yní|ová|ové|ná|nou"
    r"|(?:ař|ář|tel|er|ér|ent|ant|ist|or|ič|eč|ač|ák|ík)ce)$"
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
        from stats_mtbias.errors import UsageError

        raise UsageError("the Czech reader needs the spaCy pipeline cs_core_news_sm: pip install 'stats_mtbias[all]'") from None


@lru_cache(maxsize=20_000)
def _tagged(tokens: tuple[str, ...]) -> tuple[tuple[str, frozenset, frozenset, frozenset, bool], ...]:
    """Per token: (POS, genders, cases, numbers, is a past participle), tagged in its sentence (memoised)."""
    from spacy.tokens import Doc

    nlp = _nlp()
    doc = Doc(nlp.vocab, words=list(tokens))
    for _, component in nlp.pipeline:
        doc = component(doc)
    out = []
    for t in doc:
        m = t.morph
        past = m.get("VerbForm") == ["Part"] and m.get("Tense") == ["Past"]
        out.append((t.pos_, frozenset(m.get("Gender")), frozenset(m.get("Case")), frozenset(m.get("Number")), past))
    return tuple(out)


def _tag_gender(genders: frozenset) -> str:
    found = {_GENDER[g] for g in genders if g in _GENDER}
    return found.pop() if len(found) == 1 and "Neut" not in genders else "unknown"


# The nominative singular of the masculine agent suffixes: only a subject's verb can agree with the noun.
NOMINATIVE_MALE = frozenset("ník ař ář tel ista or er ér ent ant log ik ák eč ič ec if ý".split())
NOMINATIVE_LEXICAL = frozenset({"sestra", "žena", "dcera", "paní", "muž", "syn"})
# Person nouns whose gender is their meaning, in all their case forms (dcera would look like manažera).
LEXICAL = {
    **dict.fromkeys("sestra sestry sestře sestru sestrou žena ženy ženě ženu ženou dcera dcery dceři dceru dcerou "
                    "paní".split(), "female"),
    **dict.fromkeys("muž muže muži mužem mužovi syn syna synovi synem".split(), "male"),
}


def _rule_gender(word: str) -> tuple[str | None, bool]:
    """(gender by the suffix rules or the lexicon, or None; whether the form is a nominative singular)."""
    w = word.lower()
    if w in LEXICAL:
        return LEXICAL[w], w in NOMINATIVE_LEXICAL
    if w.endswith("í"):
        return None, False
    # The longer suffix wins: zedníka is -níka (masculine), not -ka.
    female, male = FEMALE_FORMS.search(w), MALE_FORMS.search(w)
    if not (female or male):
        return None, False
    if len(female.group() if female else "") > len(male.group() if male else ""):
        return "female", female.group() in ("ka", "ice", "yně", "ová", "ná")
    return "male", male.group() in NOMINATIVE_MALE


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
    gender, _ = _rule_gender(w)
    return gender or _tag_gender(genders)


def _past_after(words: Sequence[str], tokens: Sequence[str], last: int) -> str | None:
    """The gender of an l-participle after `last` in its clause ("doktor řekla"): -la feminine, -l masculine."""
    for j in range(last + 1, min(len(tokens), last + 4)):
        if not tokens[j].isalpha() or words[j] in CLAUSE_BREAKS:
            return None
        if len(words[j]) > 3 and words[j].endswith("la"):
            return "female"
        if len(words[j]) > 2 and words[j].endswith("l"):
            return "male"
    return None


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Czech entity.

    Examples
    --------
    >>> from stats_mtbias.alignment import tokenize
    >>> tokens = tokenize("Uklízečka zavolala mechanikovi, protože mu chtěla poděkovat.")
    >>> read(tokens, [0]), read(tokens, [2])
    ('female', 'male')
    """
    words = [t.lower() for t in tokens]
    content = [j for j in sorted(positions) if tokens[j].isalpha() and words[j] not in FUNCTION and len(words[j]) > 1]
    if not content:
        return "unknown"
    # Fast path, without the tagger (most of the reading's time): the suffix rules decide the aligned words.
    ruled = [(j, *_rule_gender(words[j])) for j in content]
    decided = [(j, g, nom) for j, g, nom in ruled if g is not None]
    if decided and len({g for _, g, _ in decided}) == 1 and not any(words[j].endswith("í") for j in content):
        head, gender, _ = decided[0]
        for j in range(head - 1, max(-1, head - 3), -1):
            if words[j] in TITLES:
                return TITLES[words[j]]  # "paní doktor"
        if gender == "male" and any(nom for _, _, nom in decided):
            verb = _past_after(words, tokens, max(j for j, _, _ in decided))
            return "female" if verb == "female" else gender
        return gender
    tags = _tagged(tuple(tokens))
    nouns = [j for j in content if tags[j][0] in ("NOUN", "PROPN")] or [j for j in content if tags[j][0] == "ADJ"]
    if not nouns:
        return "unknown"
    readings = [noun_gender(tokens[j], tags[j][1], tags[j][2]) for j in nouns]
    gender = vote([g for g in readings if g != "unknown"] or ["unknown"])
    head = nouns[0]
    for j in range(head - 1, max(-1, head - 3), -1):
        if words[j] in TITLES:
            return TITLES[words[j]]  # "paní doktor"
    subject = any("Nom" in tags[j][2] for j in nouns)
    if gender in ("male", "unknown") and subject:
        for j in range(max(nouns) + 1, min(len(tokens), max(nouns) + 4)):
            if not tokens[j].isalpha() or words[j] in CLAUSE_BREAKS:
                break
            pos, genders, _, numbers, past = tags[j]
            if past and pos in ("VERB", "AUX") and (not numbers or "Sing" in numbers):
                verb = _tag_gender(genders - {"Neut"}) if genders != {"Fem", "Neut"} else "female"
                if verb != "unknown":
                    return verb if gender == "unknown" or verb == "female" else gender
                break
    return gender
