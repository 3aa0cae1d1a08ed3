"""Double and inclusive forms read ``both`` in every language (stats_mtbias.gender.targets.inclusive): a test per form."""

import pytest

from stats_mtbias.alignment import tokenize
from stats_mtbias.gender.targets import reader
from stats_mtbias.gender.targets.inclusive import inclusive, spans


def _read(language, sentence, *words):
    tokens = tokenize(sentence)
    positions = [i for i, t in enumerate(tokens) if t in words]
    assert positions, f"none of {words} in {tokens}"
    return reader(language)(tokens, positions)


FORMS = [
    # Portuguese
    ("pt", "O/a médico/a chegou cedo.", ("médico",)),
    ("pt", "O mecânico chamou o/a médico/a.", ("o", "médico")),
    ("pt", "O mecânico chamou o(a) enfermeiro(a).", ("enfermeiro",)),
    ("pt", "O mecânico chamou o enfermeiro(a).", ("enfermeiro",)),
    ("pt", "O mecânico chamou l@ médic@.", ("médic",)),
    ("pt", "O mecânico chamou lx médicx.", ("médicx",)),
    ("pt", "O mecânico chamou o/a motorista.", ("motorista",)),
    ("pt", "O mecânico chamou o médico ou a médica.", ("médico",)),
    ("pt", "O padeiro ajudou o/a professor/a.", ("professor",)),
    ("pt", "Precisa-se de vendedor (m/f) urgente.", ("vendedor",)),
    # Spanish
    ("es", "El mecánico llamó al/a la médico/a.", ("médico",)),
    ("es", "El mecánico llamó a el/la profesor/a.", ("profesor",)),
    ("es", "El mecánico llamó al médico(a).", ("médico",)),
    ("es", "El mecánico llamó a l@s médic@s.", ("médic",)),
    ("es", "El mecánico llamó a lxs médicxs.", ("médicxs",)),
    ("es", "El mecánico llamó a la enfermera o al enfermero.", ("enfermera",)),
    ("es", "Se busca cocinero (h/m) con experiencia.", ("cocinero",)),
    # Italian
    ("it", "Il meccanico ha chiamato il/la collega.", ("collega",)),
    ("it", "Il meccanico ha chiamato il/la maestro/a.", ("maestro",)),
    ("it", "Il meccanico ha chiamato il direttore/trice.", ("direttore",)),
    ("it", "Il meccanico ha chiamato il dottore/essa.", ("dottore",)),
    ("it", "Il meccanico ha chiamato lə dottorə.", ("dottorə",)),
    ("it", "Il meccanico saluta tutt* l* ragazz*.", ("ragazz",)),
    ("it", "Il meccanico ha chiamato l'infermiere o l'infermiera.", ("infermiere",)),
    # French
    ("fr", "Le mécanicien a appelé l'étudiant·e.", ("étudiant",)),
    ("fr", "Le mécanicien a appelé l'étudiant.e.", ("étudiant",)),
    ("fr", "Le mécanicien a appelé l'étudiant(e).", ("étudiant",)),
    ("fr", "Le mécanicien a appelé l'étudiant-e.", ("étudiant-e",)),
    ("fr", "Le mécanicien a appelé un·e infirmier·ère.", ("infirmier",)),
    ("fr", "Le mécanicien a appelé le·la directeur·rice.", ("directeur",)),
    ("fr", "Le mécanicien a appelé le ou la médecin.", ("médecin",)),
    ("fr", "Le mécanicien a appelé le/la médecin.", ("médecin",)),
    ("fr", "Le mécanicien a appelé la vendeuse ou le vendeur.", ("vendeuse",)),
    ("fr", "Recherche serveur (H/F) motivé.", ("serveur",)),
    # German
    ("de", "Der Mechaniker rief die Lehrer*in an.", ("Lehrer",)),
    ("de", "Der Mechaniker rief die Lehrer:in an.", ("Lehrer",)),
    ("de", "Der Mechaniker rief die LehrerIn an.", ("LehrerIn",)),
    ("de", "Der Mechaniker rief die Lehrer_in an.", ("Lehrer_in",)),
    ("de", "Der Mechaniker rief den/die Lehrer/-in an.", ("Lehrer",)),
    ("de", "Der Mechaniker rief die Lehrer(innen) an.", ("Lehrer",)),
    ("de", "Der Mechaniker rief die Lehrerin oder den Lehrer an.", ("Lehrerin",)),
    ("de", "Der Mechaniker rief den Arzt oder die Ärztin an.", ("Arzt",)),
    ("de", "Der Mechaniker rief der/die Vorgesetzte an.", ("Vorgesetzte",)),
    ("de", "Der Mechaniker rief eine/n Kolleg*in an.", ("Kolleg",)),
    ("de", "Wir suchen einen Koch (m/w/d) für die Küche.", ("Koch",)),
    # Dutch
    ("nl", "De monteur belde de leraar/lerares.", ("leraar",)),
    ("nl", "De monteur belde de leraar of lerares.", ("leraar",)),
    ("nl", "De monteur belde de verpleger/verpleegster.", ("verpleegster",)),
    ("nl", "De monteur belde de medewerk(st)er.", ("medewerk",)),
    ("nl", "Gezocht: verkoper (m/v) voor de winkel.", ("verkoper",)),
    ("nl", "Gezocht: verkoper (m/v/x) voor de winkel.", ("verkoper",)),
    # Czech
    ("cs", "Mechanik zavolal lékaře/lékařku.", ("lékaře",)),
    ("cs", "Mechanik mluvil s učitel/kou.", ("učitel",)),
    ("cs", "Hledáme lékař/ka do ordinace.", ("lékař",)),
    ("cs", "Hledáme lékař(ka) do ordinace.", ("lékař",)),
    ("cs", "Hledáme lékař/lékařka do ordinace.", ("lékař",)),
    ("cs", "Hledáme zaměstnanec/kyně do skladu.", ("zaměstnanec",)),
    ("cs", "Hledáme prodavač (m/ž) do obchodu.", ("prodavač",)),
    ("cs", "Zeptal se recepčního/recepční, zda počká.", ("recepčního",)),  # the feminine -í of an adjectival noun
    # Polish
    ("pl", "Mechanik zadzwonił do lekarza/lekarki.", ("lekarza",)),
    ("pl", "Szukamy: lekarz/lekarka do przychodni.", ("lekarz",)),
    ("pl", "Szukamy: lekarz(-ka) do przychodni.", ("lekarz",)),
    ("pl", "Szukamy: nauczyciel/ka do szkoły.", ("nauczyciel",)),
    ("pl", "Szukamy: księgowy/a do biura.", ("księgowy",)),
    ("pl", "Mechanik zapytał Pana/Panią doktor o radę.", ("doktor",)),
    ("pl", "Szukamy: sprzedawca (k/m) do sklepu.", ("sprzedawca",)),
    # Russian, Ukrainian
    ("ru", "Механик позвонил учителю/учительнице.", ("учителю",)),
    ("ru", "Требуется учитель(ница) в школу.", ("учитель",)),
    ("uk", "Механік зателефонував вчителю/вчительці.", ("вчителю",)),
    ("uk", "Потрібен вчитель/ка до школи.", ("вчитель",)),
    ("uk", "Потрібен вчитель(ка) до школи.", ("вчитель",)),
    # Hebrew, Arabic: job advertisements' slash forms
    ("he", "דרוש מנהל/ת לחנות", ("מנהל",)),
    ("he", "דרוש מורה/ה לבית הספר", ("מורה",)),
    ("ar", "مطلوب مدير/ة للمتجر", ("مدير",)),
    ("ar", "مطلوب مدير(ة) للمتجر", ("مدير",)),
]


@pytest.mark.parametrize("language, sentence, words", FORMS, ids=[f"{f[0]}:{f[1]}" for f in FORMS])
def test_inclusive_form_reads_both(language, sentence, words):
    assert _read(language, sentence, *words) == "both"


NOT_INCLUSIVE = [
    ("pt", "O mecânico chamou o médico (a pedido do chefe).", ("médico",), "male"),  # "(a" is no ending: no ")"
    ("pt", "O mecânico chamou a médica e o enfermeiro.", ("médica",), "female"),  # two people, two stems
    ("pt", "O mecânico chamou o tórax.", ("tórax",), "male"),  # a vowel before x: a word, not médicx
    ("es", "El mecánico llamó al médico. Él vino.", ("médico",), "male"),
    ("fr", "Le mécanicien a appelé l'étudiant. Elle est venue.", ("étudiant",), "male"),  # "." then a capital
    ("fr", "Le mécanicien a appelé le porte-parole.", ("porte-parole",), "unknown"),
    ("de", "Der Mechaniker rief die Lehrerin an.", ("Lehrerin",), "female"),
    ("de", "Der Mechaniker rief den Lehrer (mit Sorgfalt) an.", ("Lehrer",), "male"),
    ("it", "Il meccanico ha chiamato la dottoressa.", ("dottoressa",), "female"),
]


@pytest.mark.parametrize("language, sentence, words, expected", NOT_INCLUSIVE)
def test_ordinary_text_is_not_inclusive(language, sentence, words, expected):
    assert _read(language, sentence, *words) == expected


def test_a_form_elsewhere_in_the_sentence_is_another_noun_phrase():
    tokens = tokenize("A médica falou com o padeiro sobre o/a novo/a professor/a da escola.")
    assert spans(tokens, "pt")  # the form is there
    assert not inclusive(tokens, [1], "pt")  # but the entity is "médica"
    assert reader("pt")(tokens, [1]) == "female"


@pytest.mark.parametrize(
    "language, sentence, words, expected",
    [
        # The aligner linked the entity to the ending of another word's double form, and to the entity: only words
        # count, so the verb's "(a)" and the other entity's "/ka" do not make the entity "both".
        ("pl", "Mechanik/mechaniczka policzył(a) audytorowi sto dolarów.", ("(", "a", "audytorowi"), "male"),
        ("pl", "Doradca/doradczyni zadał(a) strażniczce kilka pytań.", ("(", "a", "strażniczce"), "female"),
        ("cs", "Generální ředitel/ka vykázal/a uklízeče z místnosti.", ("ka", "uklízeče"), "male"),
        ("cs", "Uklízeč byl na řidiče zlý/á.", ("řidiče",), "male"),  # a noun before a form is not in it
        ("pl", "Zobaczył lekarza/lekarkę.", ("lekarza",), "both"),  # a word of the form itself still counts
    ],
)
def test_pieces_of_another_words_form_do_not_count(language, sentence, words, expected):
    assert _read(language, sentence, *words) == expected


def test_both_counts_as_wrong_for_accuracy_and_neither_gender_for_f1():
    import numpy as np

    from stats_mtbias.estimators.winomt import FEATURES, item_features

    rows = item_features(np.array(["male", "female"]), np.array(["both", "both"]), np.array(["pro", "anti"]))
    got = dict(zip(FEATURES, rows.sum(axis=0)))
    assert got["correct"] == 0 and got["pred_male"] == 0 and got["pred_female"] == 0 and got["unknown"] == 0
