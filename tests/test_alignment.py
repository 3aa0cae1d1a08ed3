"""Tokens, word spans, the translation lexicon and the aligner's links (cached, keyed on the training text)."""

import numpy as np
import pytest

from stats_mtbias.alignment import align, tokenize, word_tokens

pytest.importorskip("thot")


def test_tokenize_and_word_spans():
    assert tokenize("L'avocat a refusé d'aider, car il...") == [
        "L'",
        "avocat",
        "a",
        "refusé",
        "d'",
        "aider",
        ",",
        "car",
        "il",
        ".",
        ".",
        ".",
    ]
    spans = word_tokens("The developer argued, because she did.")
    assert spans[1] == (1, 2) and spans[2] == (2, 4)  # "argued," is a word and a comma


def test_translation_lexicon_counts_links_and_skips_function_words():
    from stats_mtbias.alignment import translation_lexicon

    src = [["the", "clerk", "left"]] * 10 + [["the", "clerk", "sang"]] * 2
    trg = [["il", "commesso", "partì"]] * 9 + [["l'", "impiegato", "partì"]] + [["il", "commesso", "cantò"]] * 2
    links = [np.array([[0, 0], [1, 1], [2, 2]])] * 12
    lexicon = translation_lexicon(src, trg, links, ["Clerk", "left"], min_count=2, min_share=0.05, n_function=1)
    # commesso: 11 of 12 links; impiegato: 1 link (< min_count); "il", the most frequent target word, is no translation.
    assert lexicon == {"clerk": frozenset({"commesso"}), "left": frozenset({"partì"})}
    assert translation_lexicon(src, trg, links, ["clerk"], min_count=2, min_share=0.95, n_function=1) == {}


def test_alignment_links_the_entity(tmp_path):
    src = [tokenize("The doctor called the nurse ."), tokenize("The nurse called the doctor .")] * 40
    trg = [tokenize("Der Arzt rief die Krankenschwester ."), tokenize("Die Krankenschwester rief den Arzt .")] * 40
    links = align(src, trg, cache=tmp_path)
    first = {tuple(x) for x in links[0]}
    assert (1, 1) in first and (4, 4) in first  # doctor-Arzt, nurse-Krankenschwester
    again = align(src, trg, cache=tmp_path)  # from the cache, identical
    assert all(np.array_equal(a, b) for a, b in zip(links, again))
    assert list((tmp_path / "alignments").glob("*.json"))
    # Other training text gives other alignments: it is part of the cache key, never served stale.
    extra = ([tokenize("The nurse slept .")] * 5, [tokenize("Die Krankenschwester schlief .")] * 5)
    align(src, trg, cache=tmp_path, extra=extra)
    assert len(list((tmp_path / "alignments").glob("*.json"))) == 2
