"""The WinoMT entity and its pronoun in a translation: English positions → aligned target words → a gender.

``read_pairs`` reads one language's sentence pairs: the English entity (and its
determiner) and its coreferent pronoun are found by position, the target words
aligned to them (word alignment, :mod:`stats_mtbias.alignment`) are handed to the
language's reader (:mod:`stats_mtbias.gender.targets`), and where the alignment
misses, the entity's usual translations in the language stand in for it.
"""

from __future__ import annotations

from stats_mtbias.alignment import align, tokenize, translation_lexicon, word_tokens
from stats_mtbias.gender.targets import alignment_form, facts, forms, languages, reader

DETERMINERS = frozenset({"the", "a", "an"})


# English entities whose usual translations include the language's indefinite pronouns (its record's `indefinite`).
ENGLISH_INDEFINITE = frozenset({"someone", "somebody", "anyone", "anybody"})


ENGLISH_PRONOUNS = frozenset({"he", "she", "him", "her", "his", "hers", "himself", "herself"})


# Explicitly gendered subject/object pronouns of a target language are its record's `pronouns` (ambiguous forms
# such as French "le/la/lui" are left out, as they double as articles). Only words aligned to an English
# he/she/him/her/his count, so German "ihr" there is "(to) her", not "you" or "their". Where the native annotators'
# labels follow the pronoun (German and French: agreement .55 -> .76 and .70 -> .84) the record says
# `pronoun_decides`; for Spanish, Italian, Russian and Ukrainian it lowers agreement. Off by default (see read_pairs).


def __getattr__(name: str):
    """The old tables, read from the language records: ``TARGET_PRONOUNS``, ``PRONOUN_LANGUAGES``."""
    if name == "TARGET_PRONOUNS":
        return {code: dict(rec.pronouns) for code, rec in languages().items() if rec.pronouns}
    if name == "PRONOUN_LANGUAGES":
        return tuple(code for code, rec in languages().items() if rec.pronoun_decides)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Fewer translation lines than this: a usual translation needs 2 links instead of 5 (read_entity_and_pronoun).
SMALL_FILE = 1000


def entity_positions(sentence: str, entity_index: int) -> tuple[list[int], list[int]]:
    """Token positions of the entity's head word and of its determiner (if the word before is one)."""
    spans = word_tokens(sentence)
    start, end = spans[entity_index]
    words = sentence.split()
    determiner = []
    if entity_index > 0 and words[entity_index - 1].lower() in DETERMINERS:
        determiner = list(range(*spans[entity_index - 1]))
    return list(range(start, end)), determiner


def read_pairs(
    sources,
    entity_indices,
    translations,
    language,
    *,
    extra=None,
    method="fastalign",
    cache=True,
    use_pronoun=False,
    alignments=None,
    lexicon=None,
    details: list | None = None,
) -> list[str]:
    """The entity's gender in every translation (``unknown`` where it is empty).

    By default the entity's own words decide, as docs/methods.md ("WinoMT") and the original
    WinoMT scripts define the metric. With `use_pronoun`, for German and French an
    explicitly gendered target pronoun aligned to the English pronoun (which
    WinoMT makes refer to the entity) overrides the noun, as those languages'
    native annotators labelled the samples; it raises agreement with them but
    measures the pronoun's translation, not the entity's, and inflates Acc (Google
    de 82% instead of about 60%), so it is only an option.

    When the words aligned to the entity give no reading (nothing aligned, or only
    an auxiliary such as Italian "ha": alignment misses), or none of them is one of
    the entity's usual translations (German inflections allowed:
    :func:`~stats_mtbias.gender.targets.forms`) — the aligner took the possessed
    noun of "the librarian's room", "das Zimmer des Bibliothekars" — the entity's usual
    translations are looked for in the sentence instead (`lexicon`, from
    :func:`stats_mtbias.alignment.translation_lexicon`; by default learned from these
    pairs' own alignments) and read if exactly one of them occurs: two would leave
    the reading ambiguous. `alignments` (from :func:`stats_mtbias.alignment.align`
    on the tokenized pairs) skips the aligner, e.g. to time the stages apart.
    `details`, a list, receives what :func:`read_entity_and_pronoun` says of each.
    """
    entity, pronoun = read_entity_and_pronoun(
        sources,
        entity_indices,
        translations,
        language,
        extra=extra,
        method=method,
        cache=cache,
        alignments=alignments,
        lexicon=lexicon,
        details=details,
    )
    return pronoun_decides(entity, pronoun) if use_pronoun and facts(language).pronoun_decides else entity


def pronoun_decides(entity, pronoun) -> list[str]:
    """The `use_pronoun` reading: an explicitly gendered translated pronoun overrides the entity's own words."""
    return [p if p in ("male", "female") else e for e, p in zip(entity, pronoun)]


def head_word(sentence: str, index: int) -> str:
    """The entity's word as a token, without punctuation stuck to it ("housekeeper," is "housekeeper")."""
    return tokenize(sentence.split()[index])[0]


def read_entity_and_pronoun(
    sources,
    entity_indices,
    translations,
    language,
    *,
    extra=None,
    method="fastalign",
    cache=True,
    alignments=None,
    lexicon=None,
    details: list | None = None,
) -> tuple[list[str], list[str]]:
    """Two readings of every translation: the entity's own words (the metric's), and its translated pronoun.

    The second is the gender of the explicitly gendered target pronouns aligned to
    the English pronouns (he, she, him, her, …; WinoMT's pronoun refers to the
    entity): ``male`` or ``female`` where they agree, ``unknown`` where there are
    none, they conflict, or the language has no list (Arabic, Hebrew). Arguments
    as in :func:`read_pairs`. A `details` list receives, per translation, the
    target words read (``aligned``) and, for an unknown entity, why (``why``).
    """
    src = [tokenize(s) for s in sources]
    trg = [tokenize(t) if t else [] for t in translations]
    if alignments is None:
        if extra is not None:
            extra = (extra[0], aligner_tokens(extra[1], language))
        alignments = align(src, aligner_tokens(trg, language), method=method, extra=extra, cache=cache)
    read = reader(language)
    pronouns = facts(language).pronouns
    heads = [head_word(sentence, index) for sentence, index in zip(sources, entity_indices)]
    if lexicon is None:
        lexicon = reading_lexicon(src, trg, alignments, heads, language)
    entity_out, pronoun_out = [], []
    for sentence, index, head, source, tokens, links in zip(sources, entity_indices, heads, src, trg, alignments):
        if not tokens:
            entity_out.append("unknown")
            pronoun_out.append("unknown")
            if details is not None:
                details.append({"aligned": "", "why": "no translation"})
            continue
        entity, determiner = entity_positions(sentence, index)
        wanted = set(entity) | set(determiner)
        positions = sorted({int(j) for i, j in links if i in wanted})
        gender = read(tokens, positions)
        usual = lexicon.get(head.lower(), frozenset())
        if head.lower() in ENGLISH_INDEFINITE:
            usual = usual | facts(language).indefinite  # "someone": the language's words for it
        matching = [j for j in positions if forms(language, tokens[j]) & usual]
        if gender not in ("male", "female", "both") and 0 < len(matching) < len(positions):
            # The aligner linked the entity's usual translation and other words ("apresentou ao administrador",
            # "Veterinář někomu"), which left the reading open or took another word's: the usual translation alone.
            narrowed = read(tokens, matching)
            if narrowed != "unknown":
                gender, positions = narrowed, matching
        if usual and (gender == "unknown" or not any(forms(language, tokens[j]) & usual for j in positions)):
            # Nothing read, or the aligned words are none of the entity's usual translations: the aligner took the
            # possessed noun of "the librarian's room" ("das Zimmer des Bibliothekars", "la falta de organización
            # del carpintero"). Exactly one usual translation elsewhere is read instead; two would be ambiguous.
            found = [j for j, t in enumerate(tokens) if forms(language, t) & usual and j not in positions]
            if len(found) == 1:
                gender = read(tokens, found)
                positions = found
        else:
            found = []
        entity_out.append(gender)
        if details is not None:
            details.append({"aligned": " ".join(tokens[j] for j in positions), "why": _why(gender, positions, found)})
        mention = {i for i, t in enumerate(source) if t.lower() in ENGLISH_PRONOUNS}
        said = {pronouns[tokens[j].lower()] for i, j in links if i in mention and tokens[j].lower() in pronouns}
        pronoun_out.append(said.pop() if len(said) == 1 else "unknown")
    return entity_out, pronoun_out


def reading_lexicon(src, trg, alignments, heads, language: str) -> dict[str, frozenset[str]]:
    """The usual translations of the entities' `heads` in these aligned token lists (stems where the aligner used them).

    A usual translation is one linked 5 times (:func:`~stats_mtbias.alignment.translation_lexicon`), in a small file
    (fewer than :data:`SMALL_FILE` lines, each occupation in a handful of them) twice. Function words are never
    translations: those that occur at least once in ten lines. (Not "the 50 most frequent words": in WinoMT the
    occupations are as frequent as that — verkoper, monteur and receptioniste are among the 50 most frequent words
    of the Dutch translations, asyst and kasje among the 50 most frequent stems of 120 Polish lines — but each occurs
    in a few lines in a hundred, the conjunctions and prepositions in dozens.)
    """
    from collections import Counter

    trg = aligner_tokens(trg, language)
    frequency = Counter(t.lower() for sentence in trg for t in sentence)
    n_function = sum(1 for count in frequency.values() if count >= 0.1 * len(src))
    min_count = 5 if len(src) >= SMALL_FILE else 2
    return translation_lexicon(src, trg, alignments, heads, min_count=min_count, n_function=n_function)


def aligner_tokens(sentences, language: str):
    """The target sentences as the aligner sees them: stems where the language has them (:func:`alignment_form`)."""
    if not facts(language).alignment_stem:
        return sentences
    return [[alignment_form(language, t) for t in sentence] for sentence in sentences]


def _why(gender: str, positions, found) -> str:
    """Why an entity reads as unknown, in words (empty for a reading)."""
    if gender != "unknown":
        return ""
    if len(found) > 1:
        return f"nothing read from the aligned words, and the entity's usual translation occurs {len(found)} times"
    if not positions:
        return "no target word aligned to the entity, and none of its usual translations in the sentence"
    return "no gender marked on the words read (an epicene noun, an elided or neuter article, or conflicting signals)"
