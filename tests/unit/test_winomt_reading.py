"""Target-language gender readers on hand-written sentences; alignment; validation against people."""

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("thot")

from stats_mtbias.alignment import align, tokenize, word_tokens
from stats_mtbias.gender.targets import reader


def _read(language, sentence, *words):
    tokens = tokenize(sentence)
    positions = [i for i, t in enumerate(tokens) if t in words]
    return reader(language)(tokens, positions)


@pytest.mark.parametrize(
    "language, sentence, words, expected",
    [
        ("es", "El desarrollador discutió con la diseñadora.", ("diseñadora",), "female"),
        ("es", "El guardia habló con el contador.", ("guardia",), "male"),  # epicene noun: the article decides
        ("es", "La guardia habló con el contador.", ("guardia",), "female"),
        ("es", "Habló con el contador.", (), "unknown"),  # nothing aligned: no guess
        ("it", "La segretaria ha chiesto al venditore di andarsene.", ("venditore",), "male"),
        ("it", "L'autista gridò alla cassiera.", ("cassiera",), "female"),
        ("it", "L'autista gridò.", ("autista",), "unknown"),  # elided l' and an epicene noun
        ("it", "Ha parlato con un'infermiera.", ("infermiera",), "female"),
        ("it", "L'investigatore voleva parlare.", ("L'", "investigatore"), "male"),  # -tore before the epicene -e
        ("it", "L'addetto ha accusato il supervisore.", ("ha", "supervisore"), "male"),  # "ha" is no noun
        ("it", "Si fida dell'assistente.", ("assistente",), "unknown"),
        ("fr", "L'avocat a refusé d'aider la rédactrice.", ("rédactrice",), "female"),
        ("fr", "Le médecin a appelé la secrétaire.", ("médecin",), "male"),
        ("fr", "La médecin a appelé le secrétaire.", ("médecin",), "female"),  # gender from the article
        ("fr", "Il a vu l'infirmière.", ("infirmière",), "female"),  # l' carries none: the noun does
        ("de", "Der Sheriff vertraut der Assistentin.", ("Assistentin",), "female"),
        ("de", "Der Sheriff vertraut dem Assistenten.", ("Assistenten",), "male"),
        ("de", "Der Mover sprach mit der Krankenschwester.", ("Krankenschwester",), "female"),
        ("de", "Sie sprach mit der Managerin.", ("Managerin",), "female"),
        ("de", "Das Kind lachte.", ("Kind",), "unknown"),
        ("ru", "Менеджер предложил учительнице работу.", ("учительнице",), "female"),
        ("ru", "Врач сказала пациенту правду.", ("Врач",), "female"),  # masculine noun, feminine verb
        ("ru", "Врач сказал пациенту правду.", ("Врач",), "male"),
        ("uk", "Лікар сказала пацієнтові правду.", ("Лікар",), "female"),
        ("uk", "Вчителька прийшла.", ("Вчителька",), "female"),
        ("ar", "تحدث المدير مع الممرضة", ("الممرضة",), "female"),
        ("ar", "تحدث المدير مع الطبيب", ("الطبيب",), "male"),
        ("he", "היזם זיהה את פקידת הקבלה", ("פקידת",), "female"),
        ("he", "השרת נתן לפקיד מסמכים", ("לפקיד",), "male"),
        ("he", "המוכרת ראתה את היועצת", ("היועצת",), "female"),  # segolate -ת
        ("he", "המנהל שאל את המתכנת", ("המתכנת",), "male"),  # a masculine noun in -ת
        ("he", "הוא פנה לרואה החשבון", ("לרואה", "החשבון"), "male"),  # construct: a feminine -ה would be -ת
        ("he", "הלקוח שאל את איש המכירות", ("איש", "המכירות"), "male"),  # the complement is not the entity
        ("he", "המנקה קרא לשומר כי שכח את המפתח שלו", ("המנקה",), "male"),  # written alike: the pronoun decides
        ("he", "היזם ניגש אל המורה ושאל אותה", ("המורה",), "female"),
        ("he", "היזם ניגש אל המורה", ("המורה",), "unknown"),  # written alike and no pronoun: no guess
        ("he", 'הספרנית הביטה במנכ"ל', ('במנכ"ל',), "male"),  # an acronym stays one token
        ("ar", "المأمور ساعد موظفة الإستقبال", ("موظفة", "الإستقبال"), "female"),  # construct head, not its complement
        ("ar", "يحدق في أمين المكتبة", ("في", "أمين", "المكتبة"), "male"),
        ("ar", "وأظهرت موظفة الاستقبال السائق", ("وأظهرت", "موظفة", "الاستقبال"), "female"),  # the verb is left out
        ("ru", "Медсестра позвонила механику.", ("механику",), "male"),  # animate механик, not механика
        ("ru", "Механик сказал парикмахеру, что она сделала стрижку.", ("парикмахеру",), "male"),  # another clause
        ("ru", "Уборщик связался с плотником.", ("с", "плотником"), "male"),  # the preposition carries no gender
        ("uk", "Двірник доручив бухгалтеру роботу.", ("Двірник",), "male"),  # only a surname in the dictionary: suffix
        ("uk", "Лікар прийшла.", ("Лікар",), "female"),
        # The head noun's own determiner, never one of a complement after it or of another noun phrase before it.
        ("it", "Ricevere notizie dall'addetto alla reception.", ("addetto", "alla", "reception"), "male"),
        ("it", "Il muratore ha bisogno dell'assistente.", ("ha", "assistente"), "unknown"),  # dell' ends the search
        ("it", "La guardia ha gareggiato con l'inserviente.", ("ha", "inserviente"), "unknown"),
        ("it", "L'amministratore delegato è stato esaminato.", ("L'", "amministratore", "delegato"), "male"),
        ("fr", "Le conseiller a posé des questions à la garde.", ("a", "garde"), "female"),
        ("fr", "L'ouvrier de la construction agitait la gouvernante.", ("L'", "ouvrier", "de"), "male"),
        ("fr", "Le chauffeur a demandé à l'écrivain d'aider.", ("l'", "écrivain"), "male"),  # -ain after elided l'
        ("fr", "Il a vu l'écrivaine.", ("écrivaine",), "female"),
        ("fr", "Elle a embauché L'Assistant.", ("L'", "Assistant"), "male"),  # capitalised: the ending still reads
        ("fr", "Il a scanné des documents pour l'analyste.", ("l'", "analyste"), "unknown"),  # epicene: no guess
        ("fr", "Il a aidé l'enfant.", ("enfant",), "unknown"),  # -ant of enfant is no agent suffix
        ("de", "Der Entwickler brauchte die Hilfe des Angestellten.", ("die", "Angestellten"), "male"),  # des, not die
        ("de", "Die Kassiererin beschwerte sich beim Chef.", ("beim", "Chef"), "male"),
        ("de", "Sie ging zur Direktorin.", ("Direktorin",), "female"),
        # "someone" without a feminine counterpart is neutral; Italian qualcuno/qualcuna are a gendered pair.
        ("de", "Der Arbeiter sagte jemandem, dass er gehen soll.", ("jemandem",), "neutral"),
        ("es", "El farmacéutico le dijo a alguien que comiera.", ("alguien",), "neutral"),
        ("ru", "Юрист допросил кого-то.", ("кого-то",), "neutral"),
        ("uk", "Юрист допитав когось.", ("когось",), "neutral"),
        ("it", "Il programmatore ha insegnato a qualcuno.", ("qualcuno",), "male"),
        ("it", "Il programmatore ha insegnato a qualcuna.", ("qualcuna",), "female"),
    ],
)
def test_readers_on_hand_written_sentences(language, sentence, words, expected):
    assert _read(language, sentence, *words) == expected


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


@pytest.mark.slow
def test_judge_caches_readings_by_content_and_code(data_dir, tmp_path, monkeypatch):
    from stats_mtbias.datasets import winomt
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.studies.winomt import reading as winomt_reading

    monkeypatch.setenv("MTBIAS_CACHE", str(tmp_path))
    store = open_store(data_dir)
    items = winomt.read_items(store)
    first = winomt_reading.judge(store, "google", "es", items)
    (cached,) = (tmp_path / "readings").glob("*.json")

    def fail(*args, **kwargs):
        raise AssertionError("the cached readings were not used")

    monkeypatch.setattr(winomt_reading, "read_pairs", fail)
    again = winomt_reading.judge(store, "google", "es", items)
    pd.testing.assert_frame_equal(first, again)
    # Another option is another key: computed afresh, not served from the default reading's cache.
    with pytest.raises(AssertionError, match="cached readings were not used"):
        winomt_reading.judge(store, "google", "es", items, use_pronoun=True)
    key = winomt_reading.readings_path(store, "es", "winomt/translations/google/en-es.txt", False, "fastalign", False)
    assert key == cached


def test_validation_against_native_speakers(data_dir):
    """Agreement with the human labels (regression floors of the current readers; the target is 0.85)."""
    from stats_mtbias.datasets import winomt
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.studies.winomt.validation import validate

    store = open_store(data_dir)
    items = winomt.read_items(store)
    folder = data_dir / "winomt/data/human_annotations"
    spanish = validate(store, folder / "es.in__es.in.csv", items)
    assert spanish["n_labelled"] == 99 and spanish["agreement"] >= 0.85
    assert spanish["ci_low"] < spanish["agreement"] < spanish["ci_high"] and 0.5 < spanish["kappa"] <= 1
    assert int(spanish["confusion"].to_numpy().sum()) == 99
    assert spanish["agreement"] >= 0.95  # alguien is neutral to the annotator and to the reader
    floors = {
        "aws.de.in__de.in.csv": 0.59,
        "fr.in__fr.in.csv": 0.75,
        "ru.google__ru.in.csv": 0.9,
        "uk.google.gold__uk.in.csv": 0.95,
        "aws.ar.in__ar.in.csv": 0.9,
        "he.in.csv__he.in.csv": 0.95,
        "google.it.in__it.in.csv": 0.85,
        "google.it.in.2__it.in.csv": 0.79,
    }
    results = {name: validate(store, folder / name, items) for name in floors}
    for name, floor in floors.items():
        assert results[name]["agreement"] >= floor, name
    # Conflicts (entity and translated pronoun of opposite genders): the German and French annotators mostly
    # labelled the pronoun, the Russian and Ukrainian ones the entity, as the metric does.
    for name in ("aws.de.in__de.in.csv", "fr.in__fr.in.csv"):
        r = results[name]
        assert r["n_conflict"] >= 10 and r["n_conflict_pronoun"] / r["n_conflict"] > 0.6, name
    for name in ("ru.google__ru.in.csv", "uk.google.gold__uk.in.csv"):
        r = results[name]
        assert r["n_conflict"] >= 30 and r["n_conflict_pronoun"] / r["n_conflict"] < 0.1, name
    # German by case (issue 17): "des Sheriffs", "dem Landwirt" now read masculine. Where the annotator followed
    # the pronoun that costs overall agreement (.606 -> .596, one item); outside the conflicts it rose .722 -> .778.
    assert results["aws.de.in__de.in.csv"]["agreement_outside"] >= 0.77
    french = results["fr.in__fr.in.csv"]
    assert french["agreement_outside"] >= 0.85 and french["ci_low_outside"] < french["agreement_outside"]
    pairs = french["pairs"]
    conflict = pairs["automatic"].isin(["male", "female"]) & pairs["pronoun"].isin(["male", "female"])
    assert int((conflict & (pairs["automatic"] != pairs["pronoun"])).sum()) == french["n_conflict"]
    # German annotators read the pronoun: letting it decide raises agreement (an option, off by default).
    german = validate(store, folder / "aws.de.in__de.in.csv", items, use_pronoun=True)
    assert german["agreement"] >= results["aws.de.in__de.in.csv"]["agreement"] + 0.1
    unlabelled = validate(store, folder / "Italian__it.in.csv", items)
    assert unlabelled["n_labelled"] == 0 and np.isnan(unlabelled["agreement"])


def test_two_annotators_of_the_same_translations(data_dir):
    from stats_mtbias.datasets import winomt
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.datasets.winomt import annotation_rows
    from stats_mtbias.studies.winomt.validation import inter_annotator

    store = open_store(data_dir)
    items = winomt.read_items(store)
    table = inter_annotator(store, items)
    # The two Italian annotators of Google's translations (it.in.2 is shipped twice, so twice); the French and
    # Russian files that repeat one annotation are not pairs of annotators.
    assert set(table["language"]) == {"it"} and len(table) == 2
    folder = "winomt/data/human_annotations/"
    a = {(i, t): lab for i, t, lab in annotation_rows(store.path(folder + "google.it.in__it.in.csv"), items)[1]}
    b = {(i, t): lab for i, t, lab in annotation_rows(store.path(folder + "google.it.in.2__it.in.csv"), items)[1]}
    common = set(a) & set(b)
    row = table.iloc[0]
    assert row["n_common"] == len(common) == 98
    assert row["agreement"] == pytest.approx(sum(a[k] == b[k] for k in common) / 98)
    assert 0.8 < row["agreement"] < 0.9 and row["ci_low"] < row["agreement"] < row["ci_high"]


def test_agreement_by_hand_and_when_empty():
    from stats_mtbias.significance.agreement import agreement

    a = np.array(["male", "male", "female", "female"], dtype=object)
    b = np.array(["male", "female", "female", "female"], dtype=object)
    got = agreement(a, b)
    # 3 of 4 agree; chance agreement .5·.25 + .5·.75 = .5, so κ = (.75 − .5)/(1 − .5) = .5.
    assert got["agreement"] == 0.75 and got["kappa"] == pytest.approx(0.5)
    z = 1.959963984540054  # Wilson by hand
    centre, half = (0.75 + z**2 / 8) / (1 + z**2 / 4), z * np.sqrt(0.75 * 0.25 / 4 + z**2 / 64) / (1 + z**2 / 4)
    assert got["ci_low"] == pytest.approx(centre - half) and got["ci_high"] == pytest.approx(centre + half)
    empty = agreement(np.array([], dtype=object), np.array([], dtype=object))
    assert all(np.isnan(v) for v in empty.values())


def test_cohens_kappa_against_statsmodels():
    from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa

    from stats_mtbias.significance.agreement import cohens_kappa

    human = np.array(["male"] * 50 + ["female"] * 30 + ["neutral"] * 20)
    auto = human.copy()
    auto[:10] = "female"
    auto[50:58] = "male"
    auto[80:85] = "unknown"
    labels = ["female", "male", "neutral", "unknown"]
    table = np.array([[np.sum((human == a) & (auto == b)) for b in labels] for a in labels])
    assert cohens_kappa(human, auto) == pytest.approx(sm_kappa(table).kappa)


def test_validation_names_a_bad_index(tmp_path, data_dir):
    import pandas as pd

    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.errors import DataError
    from stats_mtbias.studies.winomt.validation import validate

    items = pd.DataFrame({"item": [0, 1], "sentence": ["The doctor ran.", "The nurse sang."], "entity_index": [1, 1]})
    bad = tmp_path / "es.in__es.in.csv"
    bad.write_text(
        "Index,Entity,Sentence,Find entity? [Y/N],Gender? [M/F/N],Comments\n1,the nurse,La enfermera cantó.,Y,F,\n7,x,y,Y,M,\n",
        "utf-8",
    )
    with pytest.raises(DataError, match=r"es\.in__es\.in\.csv, line 3: Index 7 is not a line of en\.txt"):
        validate(open_store(data_dir), bad, items)


def test_cohens_kappa_is_nan_with_a_reason_when_undefined():
    from stats_mtbias.errors import DataQualityWarning
    from stats_mtbias.significance.agreement import cohens_kappa

    one = np.array(["male"] * 12, dtype=object)
    with pytest.warns(DataQualityWarning, match="undefined.*'male'.*12 items"):
        assert np.isnan(cohens_kappa(one, one.copy()))
    # Two categories used by only one rater: defined (chance agreement < 1), and 0 here by hand.
    other = one.copy()
    other[:6] = "female"
    # p_o = 0.5, p_e = 1 * 0.5 = 0.5 -> kappa = 0
    assert cohens_kappa(one, other) == pytest.approx(0.0)


# Every cell of the German determiner paradigm, read on the noun "Wache" (feminine, no -in) or "Arzt" (masculine),
# so that the determiner and its context decide, not a feminine suffix.
@pytest.mark.parametrize(
    "sentence, noun, expected",
    [
        # the definite article
        ("Der Arzt kam.", "Arzt", "male"),  # der: masculine nominative
        ("Sie sprach mit der Wache.", "Wache", "female"),  # der: feminine dative (after a dative preposition)
        ("Sie nahm die Tasche der Wache.", "Wache", "female"),  # der: feminine genitive (after a noun)
        ("Sie sah den Arzt.", "Arzt", "male"),  # den: masculine accusative
        ("Sie half dem Arzt.", "Arzt", "male"),  # dem: masculine dative
        ("Sie nahm die Tasche des Arztes.", "Arztes", "male"),  # des: masculine genitive
        ("Die Wache kam.", "Wache", "female"),  # die: feminine nominative/accusative
        ("Das Mitglied kam.", "Mitglied", "unknown"),  # das: neuter, no person's gender
        # der-words
        ("Dieser Arzt kam.", "Arzt", "male"),
        ("Sie sprach mit dieser Wache.", "Wache", "female"),
        ("Sie sah diesen Arzt.", "Arzt", "male"),
        ("Sie half diesem Arzt.", "Arzt", "male"),
        ("Sie nahm die Tasche dieses Arztes.", "Arztes", "male"),
        ("Diese Wache kam.", "Wache", "female"),
        ("Jeder Arzt kam.", "Arzt", "male"),
        ("Jede Wache kam.", "Wache", "female"),
        # Without a preposition or a noun before it, jener (like der) is read as the masculine nominative, its
        # most frequent use: the reader does not know that Wache is feminine. A known limit, shown here.
        ("Sie vertraute jener Wache.", "Wache", "male"),
        # ein-words: ein, kein and the possessives, whose ending agrees with the noun, not the possessor
        ("Ein Arzt kam.", "Arzt", "male"),
        ("Sie sah einen Arzt.", "Arzt", "male"),
        ("Sie half einem Arzt.", "Arzt", "male"),
        ("Sie nahm die Tasche eines Arztes.", "Arztes", "male"),
        ("Eine Wache kam.", "Wache", "female"),
        ("Sie sprach mit einer Wache.", "Wache", "female"),
        ("Sie nahm die Tasche einer Wache.", "Wache", "female"),
        ("Keine Wache kam.", "Wache", "female"),
        ("Sie rief ihren Arzt.", "Arzt", "male"),  # ihr- (her) + -en: the noun is masculine
        ("Er rief seine Wache.", "Wache", "female"),  # sein- (his) + -e: the noun is feminine
        ("Sie sprach mit ihrem Anwalt.", "Anwalt", "male"),
        ("Er sprach mit seiner Wache.", "Wache", "female"),
        ("Unser Arzt kam.", "Arzt", "male"),
        ("Sie sprach mit eurem Arzt.", "Arzt", "male"),
        # contractions
        ("Sie war beim Arzt.", "Arzt", "male"),
        ("Sie kam vom Arzt.", "Arzt", "male"),
        ("Sie ging zum Arzt.", "Arzt", "male"),
        ("Sie ging zur Wache.", "Wache", "female"),
        ("Sie ging ins Büro.", "Büro", "unknown"),
        # prepositions and adjectives
        ("Sie schrieb über den Schreiner.", "Schreiner", "male"),  # two-way preposition: accusative, not plural dative
        ("Sie stand vor der Wache.", "Wache", "female"),  # two-way preposition + der: feminine dative
        ("Sie kaufte es für den Arzt.", "Arzt", "male"),
        ("Sie dankte der neuen Wache.", "Wache", "female"),  # der + adjective in -en: not the nominative
        ("Der neue Arzt kam.", "Arzt", "male"),
        # the noun's own morphology first
        ("Sie rief den Putzfrau an.", "Putzfrau", "female"),  # a feminine compound whatever the article
        ("Der Sheriff vertraute der Assistentin.", "Assistentin", "female"),
        ("Sie kannte die Ermittlungen des Sheriffs.", "Sheriffs", "male"),  # genitive -s
    ],
)
def test_german_determiner_paradigm(sentence, noun, expected):
    assert _read("de", sentence, noun) == expected


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
