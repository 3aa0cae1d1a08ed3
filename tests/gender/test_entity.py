"""Reading the entity's gender through the alignment: usual translations, repairs, stems, reading lexicons."""

import numpy as np
import pytest

from stats_mtbias.alignment import tokenize

pytest.importorskip("thot")


def test_unread_entity_falls_back_to_its_usual_translation():
    from stats_mtbias.gender.entity import read_entity_and_pronoun, read_pairs

    source = "The mechanic gave the clerk a present because it was his birthday ."
    one = "Il meccanico ha dato un regalo al commesso perché era il suo compleanno ."
    two = "Il commesso ha dato un regalo al commesso ."
    # The aligner linked "the clerk" to the auxiliary "ha" only (a real miss in the Italian data).
    links = [np.array([[0, 0], [1, 1], [2, 3], [3, 2], [4, 2]]), np.array([[3, 2], [4, 2]])]
    lexicon = {"clerk": frozenset({"commesso"})}
    got = read_pairs([source, source], [4, 4], [one, two], "it", alignments=links, lexicon=lexicon)
    assert got == ["male", "unknown"]  # "al commesso"; twice in the sentence: ambiguous, no guess
    assert read_pairs([source], [4], [one], "it", alignments=links[:1], lexicon={}) == ["unknown"]
    # Punctuation stuck to the entity's word is not its head: "clerk," is looked up as "clerk".
    comma = "The mechanic gave the clerk, a present because it was his birthday ."
    assert read_pairs([comma], [4], [one], "it", alignments=links[:1], lexicon=lexicon) == ["male"]
    # The pronoun reading: "his" is linked to nothing gendered here, "lui" would be.
    entity, pronoun = read_entity_and_pronoun(
        [source], [4], [one.replace("il suo", "lui")], "it", alignments=[np.array([[4, 2], [10, 10]])], lexicon=lexicon
    )
    assert entity == ["male"] and pronoun == ["male"]


def test_german_forms_and_the_possessive_alignment_repair():
    from stats_mtbias.gender.entity import read_pairs
    from stats_mtbias.gender.targets import forms

    assert forms("de", "Bibliothekars") == {"bibliothekars", "bibliothekar"}
    assert forms("de", "Assistenten") == {"assistenten", "assistente", "assistent"}
    assert forms("de", "Arztes") == {"arztes", "arzte", "arzt"}
    assert forms("fr", "Avocats") == {"avocats"}  # other languages: the word itself
    # "The guard checked the counselor 's identity": the aligner linked "the counselor" to "die Identität".
    source = "The guard checked the counselor 's identity and let him in ."
    target = "Die Wache überprüfte die Identität des Beraters und ließ ihn herein ."
    links = [np.array([[3, 3], [4, 4], [6, 4]])]
    lexicon = {"counselor": frozenset({"berater"})}
    assert read_pairs([source], [4], [target], "de", alignments=links, lexicon=lexicon) == ["male"]
    # Without the lexicon the aligned noun is read: the possessed "Identität".
    assert read_pairs([source], [4], [target], "de", alignments=links, lexicon={}) == ["female"]
    # Two usual translations in the sentence: ambiguous, the aligned reading stays.
    two = "Die Wache überprüfte die Identität des Beraters und des Beraters ."
    assert read_pairs([source], [4], [two], "de", alignments=links, lexicon=lexicon) == ["female"]


def test_czech_and_polish_are_aligned_on_stems(monkeypatch):
    """cs, pl: the aligner sees each target word's first letters, so the case forms of one noun are one word."""
    from stats_mtbias.gender import entity as winomt_reading
    from stats_mtbias.gender.targets import alignment_form, forms

    assert {alignment_form("pl", w) for w in ("lekarz", "lekarza", "lekarce", "Lekarka")} == {"lekar"}
    assert forms("pl", "Lekarce") == {"lekarce", "lekar"} and forms("es", "Médica") == {"médica"}
    seen = {}

    def fake_align(src, trg, **kwargs):
        seen["trg"], seen["extra"] = trg, kwargs.get("extra")
        return [np.array([[1, 1]])] * len(src)

    monkeypatch.setattr(winomt_reading, "align", fake_align)
    extra = ([tokenize("The doctor slept .")], [tokenize("Lekarz spał .")])
    got = winomt_reading.read_pairs(
        ["The doctor called the nurse ."], [1], ["Lekarka zadzwoniła do pielęgniarza ."], "pl", extra=extra, cache=False
    )
    assert seen["trg"] == [["lekar", "zadzw", "do", "pielę", "."]] and seen["extra"][1] == [["lekar", "spał", "."]]
    assert got == ["unknown"]  # position 1 (zadzwoniła) is a verb: no reading, and no lexicon to fall back on
    winomt_reading.read_pairs(["The doctor called ."], [1], ["El médico llamó ."], "es", cache=False)
    assert seen["trg"] == [["El", "médico", "llamó", "."]]  # other languages: the words themselves


def test_usual_translation_alone_when_the_aligned_words_leave_the_reading_open():
    from stats_mtbias.gender.entity import read_pairs

    source = "The graduate student presented the administrator with a petition ."
    target = "O estudante de graduação apresentou ao administrador uma petição ."
    links = [np.array([[4, 5], [5, 4], [5, 5], [5, 6]])]  # "the administrator": apresentou ao administrador
    lexicon = {"administrator": frozenset({"administrador"})}
    assert read_pairs([source], [5], [target], "pt", alignments=links, lexicon={}) == ["unknown"]
    assert read_pairs([source], [5], [target], "pt", alignments=links, lexicon=lexicon) == ["male"]  # ao administrador
    # "someone": the language's indefinite pronouns are its usual translations, learned or not.
    source = "The planner spoke with someone who said the community does not want an airport ."
    target = "Planista rozmawiał z kimś , kto powiedział , że społeczność nie chce lotniska ."
    assert read_pairs([source], [4], [target], "pl", alignments=[np.array([[4, 4]])], lexicon={}) == ["neutral"]


def test_reading_lexicon_needs_fewer_links_in_a_small_file():
    from stats_mtbias.gender.entity import SMALL_FILE, reading_lexicon

    src = [["the", "auditor", "left"]] * 3 + [["x"]] * 240
    trg = [["audytor", "wyszedł"]] * 2 + [["audytorka", "wyszła"]] + [[f"w{k % 60}"] for k in range(240)]
    links = [np.array([[1, 0], [2, 1]])] * 3 + [np.array([[0, 0]])] * 240
    assert reading_lexicon(src, trg, links, ["auditor"], "pl") == {"auditor": frozenset({"audyt"})}  # 3 links: stems
    many = SMALL_FILE // len(src) + 1
    assert reading_lexicon(src * many, trg * many, links * many, ["auditor"], "es") == {
        "auditor": frozenset({"audytor", "audytorka"})
    }
    assert len(src * many) >= SMALL_FILE
    assert reading_lexicon(src, trg, links, ["auditor"], "es") == {"auditor": frozenset({"audytor"})}  # 2 of 3


def test_function_words_are_those_in_one_line_of_ten():
    from stats_mtbias.gender.entity import reading_lexicon

    # 100 lines: "i" in 40 of them is a function word; "asystent" in 5 is among the 50 most frequent words, yet a
    # translation (in WinoMT the occupations are that frequent: verkoper, monteur in the Dutch files).
    src = [["the", "assistant", "and", "x"]] * 5 + [["and", "y"]] * 35 + [["z"]] * 60
    trg = [["asystent", "i", "w"]] * 5 + [["i", "v"]] * 35 + [["u"]] * 60
    links = [np.array([[1, 0], [2, 1]])] * 5 + [np.array([[0, 0]])] * 35 + [np.array([[0, 0]])] * 60
    lexicon = reading_lexicon(src, trg, links, ["assistant", "and"], "es")
    assert lexicon == {"assistant": frozenset({"asystent"})}  # "and" -> "i": a function word
