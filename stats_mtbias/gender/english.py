"""Gender of an English output (X → English studies: TGBI, Prates).

Two rules:

``"cho2019"``
    The TGBI authors' cue lists and precedence: lower-case the text, split it into
    words (apostrophes kept, so ``she's`` is one word); if any word is on the
    female list (she, her, hers, herself, woman, girl, lady and the contracted
    she's, she'll, she'd) the output is female; otherwise if any is on the male list
    (he, him, his, himself, man, boy, guy, he's, he'll, he'd) it is male; otherwise
    neutral. The female list is checked first, so "He was a woman." is female.

``"default"``
    The package's rule. Text is lower-cased, curly apostrophes straightened and
    split into words at every non-letter, which handles contractions (she's,
    he'll), possessives (woman's), punctuation and case. Personal pronouns decide
    before person nouns (so "She's a food delivery man." is female and "He was a
    woman." male); plural person nouns count (women, men, ladies, gentlemen). When
    both genders occur in the deciding class, a coordination ("he or she",
    "she/he", "s/he", "(s)he", "him and her") makes the output ``both``; otherwise
    the first cue wins, as it is the subject in these templates.

Under both rules an empty output (or None) is ``unknown``; anything without a cue
is ``neutral``.

Both rules assume **one person per sentence**. When a sentence names several
people, a reference translation with the asked-about word(s) in square brackets
says whose gender to read (:func:`classify_english_referent`): "The king and the
queen were walking, [one] tripped over a stone." The output is aligned to the
reference word by word (a monolingual alignment: longest matching runs of words,
compared on their first four letters so that ``arrange``/``arranges`` match), and
only the output's words in the bracketed slot are read — a pronoun there, or the
noun phrase (a possessive determiner before a noun is another person's and is
skipped; kinship and title nouns such as aunt, king, Sir count). A slot the output
left out is ``unknown`` with reason ``referent_dropped``.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from stats_mtbias.errors import UsageError
from stats_mtbias.schema import GENDERS

FEMALE_PRONOUNS = frozenset({"she", "her", "hers", "herself"})
MALE_PRONOUNS = frozenset({"he", "him", "his", "himself"})
FEMALE_NOUNS = frozenset({"woman", "women", "girl", "girls", "lady", "ladies", "gal", "gals", "mrs", "ms", "madam"})
MALE_NOUNS = frozenset({"man", "men", "boy", "boys", "guy", "guys", "gentleman", "gentlemen", "mr", "sir"})
CHO2019_FEMALE = frozenset({"she", "her", "hers", "herself", "woman", "girl", "lady", "she's", "she'll", "she'd"})
CHO2019_MALE = frozenset({"he", "him", "his", "himself", "man", "boy", "guy", "he's", "he'll", "he'd"})

RULES = ("default", "cho2019")

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
_SLASHED = re.compile(r"\(s\)he|s/he|\bshe\s*/\s*he\b|\bhe\s*/\s*she\b")
_CHO_WORD = re.compile(r"[a-z']+")
_COORD = {"or", "and", "/"}


def _cue(word: str, pronouns: bool) -> str | None:
    if pronouns:
        if word in FEMALE_PRONOUNS:
            return "female"
        if word in MALE_PRONOUNS:
            return "male"
    else:
        if word in FEMALE_NOUNS:
            return "female"
        if word in MALE_NOUNS:
            return "male"
    return None


def _default(text: str) -> str:
    text = text.translate(_APOSTROPHES).lower()
    if _SLASHED.search(text):
        return "both"
    tokens = re.findall(r"[a-z]+|/", text)
    for pronouns in (True, False):
        cues = [(i, g) for i, w in enumerate(tokens) if (g := _cue(w, pronouns))]
        genders = {g for _, g in cues}
        if len(genders) == 1:
            return genders.pop()
        if len(genders) == 2:
            # Coordination: two cues of different gender joined by or/and//.
            for (i, gi), (j, gj) in itertools.pairwise(cues):
                if gi != gj and j == i + 2 and tokens[i + 1] in _COORD:
                    return "both"
            return cues[0][1]
    return "neutral"


def _cho2019(text: str) -> str:
    words = set(_CHO_WORD.findall(text.translate(_APOSTROPHES).lower()))
    if words & CHO2019_FEMALE:
        return "female"
    if words & CHO2019_MALE:
        return "male"
    return "neutral"


def classify_english(texts: Iterable[str | None], rule: str = "default") -> np.ndarray:
    """The gender each English output shows.

    Parameters
    ----------
    texts : iterable of str or None
        English outputs; ``None``, NaN and blank strings are ``unknown``.
    rule : {"default", "cho2019"}
        Which cue lists and precedence to use (see the module docstring).

    Returns
    -------
    numpy.ndarray of str
        One of ``female, male, neutral, both, unknown`` per text.
    """
    if rule not in RULES:
        raise UsageError(f"`rule` must be one of {RULES}; got {rule!r}.")
    reader = _default if rule == "default" else _cho2019
    texts = list(texts)
    out = np.empty(len(texts), dtype=object)
    memo: dict[str, str] = {}
    for k, text in enumerate(texts):
        if text is None or (isinstance(text, float) and np.isnan(text)) or not str(text).strip():
            out[k] = "unknown"
            continue
        text = str(text)
        if text not in memo:
            memo[text] = reader(text)
        out[k] = memo[text]
    return out.astype(str)


def compare_rules(texts: Iterable[str | None]) -> pd.DataFrame:
    """Cross-tabulate the two rules: rows ``cho2019``, columns ``default``.

    The off-diagonal cells are the outputs that change class between the rules.
    """
    texts = list(texts)

    cho = pd.Categorical(classify_english(texts, "cho2019"), categories=GENDERS)
    new = pd.Categorical(classify_english(texts, "default"), categories=GENDERS)
    table = pd.crosstab(cho, new, dropna=False)
    table.index.name, table.columns.name = "cho2019", "default"
    return table


# Person nouns read only in a bracketed slot (the one-person rule keeps its short lists).
REFERENT_FEMALE_NOUNS = FEMALE_NOUNS | frozenset(
    "aunt aunts mother mothers mom mum sister sisters daughter daughters wife wives queen queens princess "
    "duchess countess niece nieces grandmother grandma granddaughter actress waitress hostess stewardess "
    "girlfriend bride nun widow heroine madame dame businesswoman policewoman chairwoman stepmother "
    "stepdaughter fiancee empress maid".split()
)
REFERENT_MALE_NOUNS = MALE_NOUNS | frozenset(
    "uncle uncles father fathers dad brother brothers son sons husband husbands king kings prince duke "
    "nephew nephews grandfather grandpa grandson actor waiter host steward boyfriend groom monk "
    "widower hero lord businessman policeman chairman stepfather stepson fiance emperor master".split()
)
REFERENT_DROPPED = "referent_dropped"
_POSSESSIVE = frozenset({"his", "her", "their", "its", "my", "your", "our"})
# A slot holding only these is a clause the output left without its subject.
_EMPTY_SLOT = frozenset({"and", "or", "but", "then", "so", "while", "when", "because", "s"})
_SLOT_TOKEN = re.compile(r"[a-z]+|[^\sa-z]")
_BRACKET = re.compile(r"\[([^\[\]]*)\]")


def _tokens(text: str) -> list[str]:
    return _SLOT_TOKEN.findall(text.translate(_APOSTROPHES).lower())


def _key(word: str) -> str:
    return word[:4]


def bracketed(reference: str | None) -> tuple[list[str], list[list[int]]] | None:
    """The reference's words and, per bracketed span, their positions; None without brackets.

    Raises
    ------
    ValueError
        A bracket opened and not closed (or closed twice), or an empty pair of brackets.

    Examples
    --------
    >>> bracketed("The king and the queen were walking, [one] tripped.")
    (['the', 'king', 'and', 'the', 'queen', 'were', 'walking', ',', 'one', 'tripped', '.'], [[8]])
    >>> bracketed("No brackets here.") is None
    True
    """
    if reference is None or (isinstance(reference, float) and np.isnan(reference)):
        return None
    reference = str(reference)
    if "[" not in reference and "]" not in reference:
        return None
    if reference.count("[") != reference.count("]") or _BRACKET.sub("", reference).count("[") or "[]" in reference:
        raise ValueError(f"unbalanced or empty [brackets] in {reference!r}")
    words: list[str] = []
    spans: list[list[int]] = []
    last = 0
    for match in _BRACKET.finditer(reference):
        words += _tokens(reference[last : match.start()])
        inner = _tokens(match.group(1))
        if not any(w.isalpha() for w in inner):
            raise ValueError(f"[{match.group(1)}] has no word in {reference!r}")
        spans.append(list(range(len(words), len(words) + len(inner))))
        words += inner
        last = match.end()
    words += _tokens(reference[last:])
    return words, spans


def _slot(out: list[str], ref: list[str], span: list[int]) -> list[int]:
    """The output positions aligned to the reference positions `span` (empty: the output dropped them)."""
    matcher = difflib.SequenceMatcher(None, [_key(w) for w in ref], [_key(w) for w in out], autojunk=False)
    slot: list[int] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        inside = [r for r in span if i1 <= r < i2]
        if not inside:
            continue
        if tag == "equal":
            slot += [j1 + r - i1 for r in inside]
        elif tag == "replace":
            if i2 - i1 == j2 - j1:  # a word for a word: the same place
                slot += [j1 + r - i1 for r in inside]
            else:  # a rephrased run: all of it is the slot (a pronoun for a noun phrase, or back)
                slot += list(range(j1, j2))
    return sorted(set(slot))


def _slot_gender(words: list[str], rule: str) -> tuple[str, str]:
    """(gender, word read) of the output's words in a bracketed slot."""
    if rule == "cho2019":
        for cues, gender in ((CHO2019_FEMALE, "female"), (CHO2019_MALE, "male")):
            hit = [w for w in words if w in cues]
            if hit:
                return gender, hit[0]
        return "neutral", " ".join(w for w in words if w.isalpha())
    # A possessive determiner before a word belongs to another person: "his aunt" is the aunt.
    kept = [w for k, w in enumerate(words) if not (w in _POSSESSIVE and k + 1 < len(words) and words[k + 1].isalpha())]
    for female, male in ((FEMALE_PRONOUNS, MALE_PRONOUNS), (REFERENT_FEMALE_NOUNS, REFERENT_MALE_NOUNS)):
        cues = [(k, w, "female" if w in female else "male") for k, w in enumerate(kept) if w in female or w in male]
        genders = {g for _, _, g in cues}
        if len(genders) == 2:
            for (i, wi, gi), (j, wj, gj) in itertools.pairwise(cues):
                if gi != gj and j == i + 2 and kept[i + 1] in _COORD:
                    return "both", f"{wi} {kept[i + 1]} {wj}"
        if cues:
            return cues[0][2], cues[0][1]
    return "neutral", " ".join(w for w in kept if w.isalpha())


def read_referent(output: str, reference: str, rule: str = "default") -> tuple[str, str, str]:
    """``(gender, reason, why)`` of the bracketed referent of `reference` in `output`.

    Parameters
    ----------
    output : str
        An English output (not empty).
    reference : str
        A reference translation in English with the word(s) whose gender is asked in
        square brackets; without brackets the output is read whole (one person).
    rule : {"default", "cho2019"}
        The cue lists (see the module docstring).

    Returns
    -------
    tuple of str
        The gender; the reason it is unknown (``referent_dropped``) or ``""``; and
        ``why``: the word read and the bracketed word it stands for.

    Examples
    --------
    >>> ref = "Uncle Ben is a fisherman and his aunt is a florist. [They] arrange flowers."
    >>> read_referent("Uncle Ben is a fisherman and his aunt is a florist. She arranges flowers.", ref)
    ('female', '', "'she' for [they]")
    >>> read_referent("Uncle Ben is a fisherman and his aunt is a florist.", ref)
    ('unknown', 'referent_dropped', '[they]: not in the output')
    """
    found = bracketed(reference)
    if found is None:
        return str(classify_english([output], rule)[0]), "", ""
    ref, spans = found
    out = _tokens(output)
    readings = []
    for span in spans:
        asked = " ".join(ref[r] for r in span)
        slot = [out[j] for j in _slot(out, ref, span)]
        if not slot or all(w in _EMPTY_SLOT or not w.isalpha() for w in slot):
            readings.append(("unknown", REFERENT_DROPPED, f"[{asked}]: not in the output"))
            continue
        gender, word = _slot_gender(slot, rule)
        readings.append((gender, "", f"'{word}' for [{asked}]"))
    # Several mentions of one referent: the first that shows a gender, else the first read.
    for wanted in (("female", "male", "both"), ("neutral",)):
        for reading in readings:
            if reading[0] in wanted:
                return reading
    return readings[0]


def classify_english_referent(
    texts: Sequence[str | None], references: Sequence[str | None], rule: str = "default"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The gender each English output gives the bracketed referent of its reference.

    Parameters
    ----------
    texts : sequence of str or None
        English outputs; ``None``, NaN and blank strings are ``unknown``.
    references : sequence of str or None
        One reference per output, the asked-about word(s) in [brackets]. A reference
        without brackets (or None) leaves its output to :func:`classify_english`.
    rule : {"default", "cho2019"}
        Which cue lists to use.

    Returns
    -------
    gender, reason, why : numpy.ndarray of str
        ``reason`` is ``referent_dropped`` when the output left the bracketed words
        out, else ``""``; ``why`` names the word read (``""`` without brackets).

    Raises
    ------
    ValueError
        A reference with unbalanced or empty brackets (naming the 0-based row).

    Examples
    --------
    >>> ref = "The king and the queen were walking, [one] tripped over a stone."
    >>> outs = ["The king and the queen were walking, she tripped over a stone.",
    ...         "The king and the queen were walking."]
    >>> gender, reason, why = classify_english_referent(outs, [ref, ref])
    >>> gender.tolist(), reason.tolist()
    (['female', 'unknown'], ['', 'referent_dropped'])
    """
    if rule not in RULES:
        raise UsageError(f"`rule` must be one of {RULES}; got {rule!r}.")
    texts, references = list(texts), list(references)
    if len(texts) != len(references):
        raise UsageError(f"{len(texts)} outputs but {len(references)} references.")
    gender = classify_english(texts, rule).astype(object)
    reason = np.full(len(texts), "", dtype=object)
    why = np.full(len(texts), "", dtype=object)
    for k, (text, reference) in enumerate(zip(texts, references, strict=True)):
        if gender[k] == "unknown":
            continue
        try:
            found = bracketed(reference)
        except ValueError as error:
            raise ValueError(f"reference of row {k}: {error}") from None
        if found is not None:
            gender[k], reason[k], why[k] = read_referent(str(text), str(reference), rule)
    return gender.astype(str), reason.astype(str), why.astype(str)
