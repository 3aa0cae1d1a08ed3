"""Readers added in issue 36 (pt, nl, cs, pl) and the Romance error classes, on hand-written sentences."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pandas as pd
import pytest

from stats_mtbias.alignment import tokenize
from stats_mtbias.gender.targets import LANGUAGES, reader

# The aligner (thot) is optional: the tests that read through it skip without it, the others still run.
needs_thot = pytest.mark.skipif(importlib.util.find_spec("thot") is None, reason="thot (the aligner) is not installed")


def _read(language, sentence, *words):
    tokens = tokenize(sentence)
    positions = [i for i, t in enumerate(tokens) if t in words]
    assert positions or not words, f"none of {words} in {tokens}"
    return reader(language)(tokens, positions)


PORTUGUESE = [
    ("O mecânico deu um presente ao funcionário.", ("funcionário",), "male"),
    ("O mecânico deu um presente à funcionária.", ("funcionária",), "female"),
    ("O mecânico deu um presente à recepcionista.", ("recepcionista",), "female"),  # epicene: "à" decides
    ("O mecânico deu um presente ao recepcionista.", ("recepcionista",), "male"),
    ("A enfermeira examinou o guarda.", ("guarda",), "male"),
    ("O advogado falou com a motorista.", ("motorista",), "female"),
    ("O padeiro conversou com o gerente.", ("gerente",), "male"),
    ("Conversou com gerente.", ("gerente",), "unknown"),  # epicene, no determiner: no guess
    ("O chefe elogiou a nova enfermeira.", ("enfermeira",), "female"),
    ("O chefe elogiou a atriz.", ("atriz",), "female"),
    ("O chefe elogiou o cidadão.", ("cidadão",), "male"),
    ("O chefe elogiou a anfitriã.", ("anfitriã",), "female"),
    ("O chefe elogiou pela cozinheira.", ("cozinheira",), "female"),
    ("O chefe falou do cozinheiro.", ("cozinheiro",), "male"),
    ("O chefe falou da cozinheira.", ("da", "cozinheira"), "female"),
    ("O chefe pediu ajuda à empregada de limpeza.", ("limpeza",), "female"),  # multiword noun: empregada
    ("O chefe pediu ajuda ao trabalhador da construção.", ("trabalhador", "da", "construção"), "male"),
    ("Alguém perguntou ao inspetor.", ("Alguém",), "neutral"),
    ("O médico viu a criança.", ("criança",), "neutral"),  # one form for both genders
    ("O médico falou com a testemunha.", ("testemunha",), "neutral"),
    ("O médico disse que o padeiro estava doente.", ("que", "o", "padeiro"), "male"),  # "que" is no head
]
DUTCH = [
    ("De monteur gaf de receptioniste een appel.", ("receptioniste",), "female"),
    ("De monteur gaf de receptionist een appel.", ("receptionist",), "male"),
    ("De leraar belde de lerares.", ("lerares",), "female"),
    ("De lerares belde de leraar.", ("leraar",), "male"),
    ("De kapper hielp de schoonmaakster.", ("schoonmaakster",), "female"),  # -ster
    ("De kapster hielp de schoonmaker.", ("schoonmaker",), "male"),
    ("De directrice sprak de chauffeur.", ("directrice",), "female"),  # -rice
    ("De directeur sprak de chauffeuse.", ("chauffeuse",), "female"),  # -euse
    ("De klant betaalde de kassière.", ("kassière",), "female"),  # -ière
    ("De klant betaalde de kassier.", ("kassier",), "male"),
    ("De bakker sprak met de secretaresse.", ("secretaresse",), "female"),  # -esse
    ("De bakker sprak met de assistente.", ("assistente",), "female"),  # -e on -ent
    ("De bakker sprak met de advocate.", ("advocate",), "female"),  # -e on -aat (advocaat)
    ("De bakker sprak met de psychologe.", ("psychologe",), "female"),
    ("De bakker sprak met de boerin.", ("boerin",), "female"),
    ("De bakker sprak met de timmerman.", ("timmerman",), "male"),
    ("De bakker sprak met de zakenvrouw.", ("zakenvrouw",), "female"),
    ("De bakker sprak met de schoolmeester.", ("schoolmeester",), "male"),  # -meester is no -ster
    ("De bakker sprak met de burgemeester.", ("burgemeester",), "neutral"),  # one form for both
    ("De bakker sprak met de arts.", ("arts",), "neutral"),
    ("De bakker sprak met de verpleegkundige.", ("verpleegkundige",), "neutral"),
    ("De bakker sprak met de manager.", ("manager",), "neutral"),
    ("De bakker sprak met de aardige verpleegster.", ("aardige", "verpleegster"), "female"),
    ("De bakker sprak met de patiënt.", ("patiënt",), "male"),
    ("De bakker sprak met de chef-kok.", ("chef-kok",), "male"),
    # -eur and -or: masculine only where the feminine (-euse, -rice) is in use; else one form for both.
    ("De directeur sprak de chauffeuse.", ("directeur",), "male"),
    ("De bakker sprak met de hoofdinspecteur.", ("hoofdinspecteur",), "male"),
    ("De bakker sprak met de monteur.", ("monteur",), "neutral"),
    ("De bakker sprak met de ingenieur.", ("ingenieur",), "neutral"),
    ("De bakker sprak met de promotor.", ("promotor",), "neutral"),
    ("De bakker sprak met de coördinator.", ("coördinator",), "male"),  # coördinatrice
    ("De bakker sprak met de chef.", ("chef",), "neutral"),
    ("De bakker sprak met de engineer.", ("engineer",), "neutral"),
    ("De bakker sprak met iemand.", ("iemand",), "neutral"),
    ("De bakker sprak met de tafel.", ("tafel",), "unknown"),
]
CZECH = [
    ("Lékařka řekla sekretáři, že přijde.", ("Lékařka",), "female"),
    ("Lékařka řekla sekretáři, že přijde.", ("sekretáři",), "male"),
    ("Právník vyslechl účetní, protože jí nevěřil.", ("účetní",), "female"),  # -í outside the nominative
    ("Právník vyslechl účetního, protože mu nevěřil.", ("účetního",), "male"),
    ("Stavební dělník mluvil s pokladní.", ("pokladní",), "female"),
    ("Stavební dělník mluvil s pokladním.", ("pokladním",), "male"),
    # The verb is outside the noun phrase: "doktor" (doktorka is in use) is masculine, as the guide labels it.
    ("Doktor řekla pacientovi pravdu.", ("Doktor",), "male"),
    ("Doktor řekl pacientovi pravdu.", ("Doktor",), "male"),
    ("Mechanik zavolal paní doktor.", ("doktor",), "female"),
    ("Účetní přišla pozdě.", ("Účetní",), "neutral"),  # a bare -í noun in the nominative: one form for both
    ("Když vedoucí postříkala redaktora, dostala se do potíží.", ("vedoucí",), "neutral"),
    ("Nová vedoucí pochválila účetního.", ("vedoucí",), "female"),  # the noun phrase's adjective
    ("Ten vedoucí pochválil účetního.", ("vedoucí",), "male"),  # its demonstrative
    ("Recepční pomohl šerifce.", ("šerifce",), "female"),  # the -ce of every masculine agent stem (-if)
    ("Mechanik si půjčil koště od správce domácnosti.", ("domácnosti",), "male"),  # the complement's head
    ("Mechanik si půjčil koště od správce domácnosti.", ("správce", "domácnosti"), "male"),
    ("Ředitel dostal od krejčové nový oblek.", ("oblek",), "unknown"),  # a masculine inanimate: no person
    ("Strojník předvedl dítěti laserovou řezačku.", ("laserovou",), "unknown"),  # the adjective of řezačku
    ("Kuchař poděkoval uklízečce.", ("uklízečce",), "female"),
    ("Kuchařka poděkovala uklízeči.", ("uklízeči",), "male"),
    ("Zdravotní sestra pomohla řidiči.", ("sestra",), "female"),
    ("Dítě plakalo.", ("Dítě",), "neutral"),
    ("Pekař prodal chléb kadeřnici.", ("kadeřnici",), "female"),
    ("Pekař prodal chléb kadeřníkovi.", ("kadeřníkovi",), "male"),
    ("Šerif zatkl zedníka.", ("zedníka",), "male"),  # -níka, not -ka
    ("Manažer pochválil analytičku.", ("analytičku",), "female"),
    ("Spisovatel poděkoval asistentce.", ("asistentce",), "female"),
    ("Soudce vyslechl svědka.", ("Soudce",), "male"),
    ("Vrátná otevřela dveře stěhovákovi.", ("Vrátná",), "female"),
    ("Někdo zavolal instalatérovi.", ("Někdo",), "neutral"),
    ("Dozorkyně pokárala pracovníka.", ("Dozorkyně",), "female"),
    ("Krejčí ušila oblek pro právníka.", ("Krejčí",), "neutral"),  # (the guide would say M: krejčová is in use)
]
POLISH = [
    ("Lekarka powiedziała sekretarzowi, że przyjdzie.", ("Lekarka",), "female"),
    ("Lekarka powiedziała sekretarzowi, że przyjdzie.", ("sekretarzowi",), "male"),
    ("Prawnik przesłuchał księgową, bo jej nie ufał.", ("księgową",), "female"),
    ("Prawnik przesłuchał księgowego, bo mu nie ufał.", ("księgowego",), "male"),
    ("Robotnik rozmawiał z kasjerką.", ("kasjerką",), "female"),
    # The verb is outside the noun phrase: "dyrektor" (dyrektorka is in use) is masculine, as the guide labels it.
    ("Dyrektor powiedziała pacjentowi prawdę.", ("Dyrektor",), "male"),
    ("Dyrektor powiedział pacjentowi prawdę.", ("Dyrektor",), "male"),
    ("Mechanik zadzwonił do pani doktor.", ("doktor",), "female"),
    ("Sędzia przyszła późno.", ("Sędzia",), "male"),  # both genders in the dictionary; the verb is outside the NP
    ("Pani sędzia przyszła późno.", ("sędzia",), "female"),
    ("Pielęgniarz spotkał panią szeryf.", ("panią", "szeryf"), "female"),  # the title aligned with the noun
    ("Robotnik zazdrościł pracownikowi obsługi.", ("obsługi",), "male"),  # the genitive complement's head
    ("Robotnik zazdrościł pracownikowi obsługi.", ("pracownikowi", "obsługi"), "male"),
    ("Strażnik rozmawia z krawcową o nowym garniturze.", ("krawcową", "nowym"), "female"),  # a noun before an adjective
    ("Nie odebrał telefonu od asystentki.", ("telefonu", "asystentki"), "female"),  # telefon names no person (m3)
    ("Fryzjer polecił szampon.", ("szampon",), "unknown"),
    ("Sprzątająca przywitała kucharza.", ("Sprzątająca",), "female"),  # an adjectival participle as a noun
    ("Nowa prezes zwolniła księgowego.", ("prezes",), "female"),  # a feminine adjective on a masculine title
    ("Kucharz podziękował sprzątaczce.", ("sprzątaczce",), "female"),
    ("Pielęgniarka pomogła kierowcy.", ("kierowcy",), "male"),
    ("Dziecko płakało.", ("Dziecko",), "neutral"),
    ("Piekarz sprzedał chleb fryzjerce.", ("fryzjerce",), "female"),
    ("Szeryf aresztował murarza.", ("murarza",), "male"),
    ("Ktoś zadzwonił do hydraulika.", ("Ktoś",), "neutral"),
    ("Sprzedawczyni obsłużyła stolarza.", ("Sprzedawczyni",), "female"),
    ("Nauczyciel rozmawiał z rolniczką.", ("rolniczką",), "female"),
    # "analytics" (f, no person) or analityk's accusative (m1): the person noun.
    ("Menedżerka pochwaliła analityka.", ("analityka",), "male"),
]
# Issue 36's reading errors of the Romance readers.
ROMANCE = [
    # An elided article introduces the head across a gap: the aligner also linked a word of another noun phrase.
    ("fr", "L'infirmière a parlé au médecin.", ("L'", "infirmière"), "female"),
    ("it", "La studentessa presentò all'amministratore una petizione.", ("studentessa", "all'", "amministratore"), "male"),
    ("it", "Lo studente ha presentato all'amministratore una petizione.", ("all'", "amministratore"), "male"),
    # Multiword nouns: the first noun and its determiner.
    ("fr", "Le fermier a offert des pommes à la femme de ménage.", ("ménage",), "female"),
    ("fr", "Le fermier a offert des pommes à la femme de ménage.", ("femme", "de", "ménage"), "female"),
    ("fr", "Le fermier a vu une agente d'entretien.", ("entretien",), "female"),
    ("fr", "Le fermier a vu un agent d'entretien.", ("entretien",), "male"),
    # A verb is no N1: "nouveaux" is read (the tagger's masculine), not "fourni" after "La".
    ("fr", "La superviseure a fourni de nouveaux outils au rédacteur.", ("nouveaux",), "male"),
    # Feminine agent nouns.
    ("fr", "Le boulanger a parlé à la commerçante.", ("commerçante",), "female"),
    ("fr", "Le boulanger a parlé à la commerçante.", ("boulanger", "la", "commerçante"), "female"),
    ("fr", "La PDG a communiqué avec l'auteure.", ("l'", "auteure"), "female"),  # -eure
    ("fr", "Il a rencontré l'ingénieure.", ("ingénieure",), "female"),
    # A function word is never the head.
    ("fr", "Le fermier a vu que le boulanger avait du pain.", ("que", "le", "boulanger"), "male"),
    ("fr", "Le PDG a ignoré les suggestions de l'infirmière.", ("les", "infirmière"), "female"),
    ("fr", "Le coiffeur a coupé les cheveux du cuisinier.", ("les", "cuisinier"), "male"),
    ("es", "El granjero vio que el panadero tenía pan.", ("que", "el", "panadero"), "male"),
    ("it", "Qualcuno ha parlato con il terapeuta.", ("con", "il", "terapeuta"), "male"),
    # One run of aligned words is one noun phrase: the complement's article does not take over.
    ("it", "Ricevere notizie dall'addetto alla reception.", ("addetto", "alla", "reception"), "male"),
]


@pytest.mark.parametrize("sentence, words, expected", PORTUGUESE)
def test_portuguese(sentence, words, expected):
    assert _read("pt", sentence, *words) == expected


@pytest.mark.parametrize("sentence, words, expected", DUTCH)
def test_dutch(sentence, words, expected):
    assert _read("nl", sentence, *words) == expected


@pytest.mark.parametrize("sentence, words, expected", CZECH)
def test_czech(sentence, words, expected):
    pytest.importorskip("cs_core_news_sm")
    assert _read("cs", sentence, *words) == expected


@pytest.mark.parametrize("sentence, words, expected", POLISH)
def test_polish(sentence, words, expected):
    pytest.importorskip("morfeusz2")
    assert _read("pl", sentence, *words) == expected


@pytest.mark.parametrize("language, sentence, words, expected", ROMANCE)
def test_romance_error_classes(language, sentence, words, expected):
    assert _read(language, sentence, *words) == expected


def test_elided_article_across_a_gap():
    # "l'agent a parlé à l'infirmière" aligned as *agent* … *l'* *infirmière* (the second l' only): the noun the
    # aligned determiner introduces is the entity, not the first aligned noun (issue 36: "L'infirmière" read male).
    tokens = tokenize("Pendant ce temps, l'agent a parlé à l'infirmière.")
    positions = [5, 9, 10]
    assert [tokens[j] for j in positions] == ["agent", "l'", "infirmière"]
    assert reader("fr")(tokens, positions) == "female"


def test_new_languages_are_registered_and_read_nothing_as_unknown():
    assert {"pt", "nl", "cs", "pl"} <= set(LANGUAGES)
    for language in ("pt", "nl", "cs", "pl"):
        assert reader(language)(tokenize("Nada ."), []) == "unknown"


# -----------------------------------------------------------------------------
# A held-out check of the issue-36 readers (cs, pl, nl): 40 sentences each, written, translated and labelled by hand.
#
# The validation sample's labels (``data/validation/labels_<language>.csv``) were seen while the readers were fixed,
# so the agreement reached on them is optimistic. These sentences are new: WinoMT-style English sentences (an
# occupation entity, a gendered pronoun), each translated with varied forms (feminine forms, epicene nouns, inclusive
# double forms, oblique cases, "someone" and "child"), and labelled for the entity's own noun phrase by the guide
# (``data/validation/LABELLING.md``), with the evidence words, *before* the readers were run on them. The floors below
# are the agreement the readers reached then (not 100%: where they disagree, the label stands); a regression fails.
#
# Two measures per language: the reader given the evidence words (the reader's own rules), and the whole reading
# (tokens, alignment, the usual-translation fallback, the reader) as a user's small file gets it, the aligner
# trained on these 40 lines and the language's other translations (cs, pl: the LLM translations of the validation
# sample; nl: the shipped Dutch translations).


HUMAN = {"M": "male", "F": "female", "N": "neutral", "B": "both"}

# (English sentence, entity's word index in it)
ENGLISH = [
    ("The baker thanked the nurse because she had helped him.", 4),
    ("The lawyer called the plumber because he was late.", 4),
    ("The teacher met the accountant and gave her the documents.", 4),
    ("The manager hired the cleaner because she was reliable.", 4),
    ("The driver waited for the doctor because he was delayed.", 5),
    ("The secretary warned the guard that she had seen a thief.", 1),
    ("The chef complained to the farmer because he sold bad vegetables.", 5),
    ("The librarian helped the student because she knew the book.", 1),
    ("The pilot greeted the receptionist and thanked her for the coffee.", 4),
    ("The writer interviewed the engineer because she designed the bridge.", 4),
    ("The judge questioned the witness because she seemed nervous.", 1),
    ("The cook asked the waiter whether he had seen the order.", 4),
    ("The director praised the mechanic because she fixed the car quickly.", 4),
    ("The painter paid the carpenter after he finished the door.", 4),
    ("The pharmacist advised the customer because she knew the medicine.", 1),
    ("The tailor sewed a dress for the singer because he was paid well.", 1),
    ("The farmer sold eggs to the hairdresser because she asked nicely.", 6),
    ("The clerk helped the visitor because he was kind.", 1),
    ("The supervisor thanked the assistant because she finished the report.", 4),
    ("The editor called the designer because he had missed the deadline.", 4),
    ("The teacher spoke with someone who wanted to enrol their child.", 4),
    ("The nurse comforted the child because it was afraid.", 4),
    ("The salesperson showed the manager a new phone and she liked it.", 4),
    ("The janitor found the keys of the teacher because she had lost them.", 7),
    ("The physician examined the patient and told him to rest.", 4),
    ("The auditor met the cashier because she had made a mistake.", 4),
    ("The mover carried the boxes for the librarian because he was strong.", 1),
    ("The chief called the sheriff because she had arrested a thief.", 4),
    ("The developer asked the analyst for help because she understood the data.", 4),
    ("The counselor listened to the laborer because he was tired.", 5),
    ("The housekeeper cleaned the room of the guest because she was paid to.", 1),
    ("The attendant helped the passenger because he was friendly.", 1),
    ("The investigator questioned the baker because she had seen the thief.", 4),
    ("The construction worker asked the architect whether he liked the plan.", 5),
    ("The nurse called the surgeon because she could give advice.", 4),
    ("The manager warned the employee because he was often late.", 4),
    ("The teacher praised the director because she supported the school.", 4),
    ("The writer thanked the translator because he had worked hard.", 4),
    ("The CEO met the consultant because she had a new proposal.", 4),
    ("The guard stopped the driver because she was driving too fast.", 4),
]

# Per language: (translation, label of the entity's noun phrase, evidence words), in the order of ENGLISH. Labelled
# before the readers were run on them.
HELDOUT = {
    "cs": [
        ("Pekař poděkoval zdravotní sestře, protože mu pomohla.", "F", "zdravotní sestře"),
        ("Právník zavolal instalatérovi, protože měl zpoždění.", "M", "instalatérovi"),
        ("Učitel se setkal s účetní a dal jí dokumenty.", "F", "účetní"),
        ("Manažerka najala uklízeče/uklízečku, protože byl/a spolehlivý/á.", "B", "uklízeče/uklízečku"),
        ("Řidič čekal na lékařku, protože měla zpoždění.", "F", "lékařku"),
        ("Sekretářka varovala strážného, že viděla zloděje.", "F", "Sekretářka"),
        ("Kuchař si stěžoval farmáři, protože prodával špatnou zeleninu.", "M", "farmáři"),
        ("Knihovnice pomohla studentovi, protože znala tu knihu.", "F", "Knihovnice"),
        ("Pilot pozdravil paní recepční a poděkoval jí za kávu.", "F", "paní recepční"),
        ("Spisovatel udělal rozhovor s inženýrkou, protože navrhla most.", "F", "inženýrkou"),
        ("Soudkyně vyslechla svědka, protože vypadal nervózně.", "F", "Soudkyně"),
        ("Kuchař se zeptal číšníka/číšnice, jestli viděl/a objednávku.", "B", "číšníka/číšnice"),
        ("Ředitel pochválil mechaničku, protože rychle opravila auto.", "F", "mechaničku"),
        ("Malíř zaplatil truhláři, když dokončil dveře.", "M", "truhláři"),
        ("Lékárnice poradila zákazníkovi, protože znala ten lék.", "F", "Lékárnice"),
        ("Krejčí ušil šaty pro zpěvačku, protože dostal dobře zaplaceno.", "M", "Krejčí"),  # krejčová is in use
        ("Farmář prodal vejce kadeřnici, protože hezky poprosila.", "F", "kadeřnici"),
        ("Úředník pomohl návštěvníkovi, protože byl laskavý.", "M", "Úředník"),
        ("Vedoucí poděkoval asistentce, protože dokončila zprávu.", "F", "asistentce"),
        ("Redaktorka zavolala designérovi, protože nestihl termín.", "M", "designérovi"),
        ("Učitel mluvil s někým, kdo chtěl zapsat své dítě.", "N", "někým"),
        ("Sestra utěšovala dítě, protože se bálo.", "N", "dítě"),
        ("Prodavač ukázal vedoucí nový telefon a ten se jí líbil.", "F", "vedoucí"),  # dative: the feminine
        ("Školník našel klíče učitelky, protože je ztratila.", "F", "učitelky"),
        ("Lékař vyšetřil pacienta a řekl mu, ať odpočívá.", "M", "pacienta"),
        ("Auditor se sešel s pokladní, protože udělala chybu.", "F", "pokladní"),
        ("Stěhovák nesl krabice pro knihovnici, protože byl silný.", "M", "Stěhovák"),
        ("Náčelník zavolal šerifce, protože zatkla zloděje.", "F", "šerifce"),
        ("Vývojář požádal analytičku o pomoc, protože rozuměla datům.", "F", "analytičku"),
        ("Poradkyně vyslechla dělníka, protože byl unavený.", "M", "dělníka"),
        ("Hospodyně uklidila pokoj hosta, protože za to byla placená.", "F", "Hospodyně"),
        ("Obsluha pomohla cestujícímu, protože byla přátelská.", "N", "Obsluha"),  # one (feminine) noun for the staff
        ("Vyšetřovatel vyslechl pekařku, protože viděla zloděje.", "F", "pekařku"),
        ("Stavební dělník se zeptal architekta, jestli se mu plán líbí.", "M", "architekta"),
        ("Sestra zavolala chirurgyni, protože mohla poradit.", "F", "chirurgyni"),
        ("Vedoucí varovala zaměstnance, protože často chodil pozdě.", "M", "zaměstnance"),
        ("Učitel pochválil ředitelku, protože podporovala školu.", "F", "ředitelku"),
        ("Spisovatelka poděkovala překladateli, protože tvrdě pracoval.", "M", "překladateli"),
        ("Generální ředitel se setkal s konzultantkou, protože měla nový návrh.", "F", "konzultantkou"),
        ("Strážník zastavil řidičku, protože jela příliš rychle.", "F", "řidičku"),
    ],
    "pl": [
        ("Piekarz podziękował pielęgniarce, bo mu pomogła.", "F", "pielęgniarce"),
        ("Prawnik zadzwonił do hydraulika, bo się spóźniał.", "M", "hydraulika"),
        ("Nauczyciel spotkał się z księgową i dał jej dokumenty.", "F", "księgową"),
        ("Kierowniczka zatrudniła sprzątacza/sprzątaczkę, bo był(a) rzetelny(a).", "B", "sprzątacza/sprzątaczkę"),
        ("Kierowca czekał na lekarkę, bo się spóźniała.", "F", "lekarkę"),
        ("Sekretarka ostrzegła strażnika, że widziała złodzieja.", "F", "Sekretarka"),
        ("Kucharz poskarżył się rolnikowi, bo sprzedawał złe warzywa.", "M", "rolnikowi"),
        ("Bibliotekarka pomogła studentowi, bo znała tę książkę.", "F", "Bibliotekarka"),
        ("Pilot przywitał recepcjonistę i podziękował mu za kawę.", "M", "recepcjonistę"),
        ("Pisarz przeprowadził wywiad z panią inżynier, bo zaprojektowała most.", "F", "panią inżynier"),
        ("Sędzia przesłuchała świadka, bo wydawał się zdenerwowany.", "N", "Sędzia"),  # one form; sędzina is colloquial
        ("Kucharz zapytał kelnera/kelnerkę, czy widział(a) zamówienie.", "B", "kelnera/kelnerkę"),
        ("Dyrektor pochwalił mechaniczkę, bo szybko naprawiła samochód.", "F", "mechaniczkę"),
        ("Malarz zapłacił stolarzowi, gdy skończył drzwi.", "M", "stolarzowi"),
        ("Farmaceutka doradziła klientowi, bo znała ten lek.", "F", "Farmaceutka"),
        ("Krawiec uszył sukienkę dla piosenkarki, bo dobrze mu zapłacono.", "M", "Krawiec"),
        ("Rolnik sprzedał jajka fryzjerce, bo ładnie poprosiła.", "F", "fryzjerce"),
        ("Urzędnik pomógł gościowi, bo był uprzejmy.", "M", "Urzędnik"),
        ("Kierownik podziękował asystentce, bo skończyła raport.", "F", "asystentce"),
        ("Redaktorka zadzwoniła do projektanta, bo nie dotrzymał terminu.", "M", "projektanta"),
        ("Nauczyciel rozmawiał z kimś, kto chciał zapisać swoje dziecko.", "N", "kimś"),
        ("Pielęgniarka pocieszała dziecko, bo się bało.", "N", "dziecko"),
        ("Sprzedawca pokazał kierowniczce nowy telefon i bardzo jej się spodobał.", "F", "kierowniczce"),
        ("Woźny znalazł klucze nauczycielki, bo je zgubiła.", "F", "nauczycielki"),
        ("Lekarz zbadał pacjenta i kazał mu odpoczywać.", "M", "pacjenta"),
        ("Audytor spotkał się z kasjerką, bo popełniła błąd.", "F", "kasjerką"),
        ("Tragarz niósł pudła dla bibliotekarza, bo był silny.", "M", "Tragarz"),
        ("Komendant zadzwonił do pani szeryf, bo aresztowała złodzieja.", "F", "pani szeryf"),
        ("Programista poprosił analityczkę o pomoc, bo rozumiała dane.", "F", "analityczkę"),
        ("Doradca wysłuchał robotnika, bo był zmęczony.", "M", "robotnika"),
        ("Gosposia posprzątała pokój gościa, bo jej za to płacono.", "F", "Gosposia"),
        ("Steward pomógł pasażerowi, bo był uprzejmy.", "M", "Steward"),
        ("Śledczy przesłuchał piekarkę, bo widziała złodzieja.", "F", "piekarkę"),
        ("Robotnik budowlany zapytał architekta, czy podoba mu się plan.", "M", "architekta"),
        ("Pielęgniarka zadzwoniła do chirurżki, bo mogła doradzić.", "F", "chirurżki"),
        ("Kierowniczka ostrzegła pracownika, bo często się spóźniał.", "M", "pracownika"),
        ("Nauczyciel pochwalił dyrektorkę, bo wspierała szkołę.", "F", "dyrektorkę"),
        ("Pisarka podziękowała tłumaczowi, bo ciężko pracował.", "M", "tłumaczowi"),
        ("Prezes spotkał się z konsultantką, bo miała nową propozycję.", "F", "konsultantką"),
        ("Strażnik zatrzymał kierowcę, bo jechała za szybko.", "M", "kierowcę"),  # the verb is outside the NP
    ],
    "nl": [
        ("De bakker bedankte de verpleegster omdat ze hem had geholpen.", "F", "de verpleegster"),
        ("De advocaat belde de loodgieter omdat hij te laat was.", "M", "de loodgieter"),
        ("De leraar ontmoette de boekhouder en gaf haar de documenten.", "M", "de boekhouder"),  # boekhoudster
        ("De manager nam de schoonmaker/schoonmaakster aan omdat ze betrouwbaar was.", "B", "de schoonmaker/schoonmaakster"),
        ("De chauffeur wachtte op de arts omdat hij vertraagd was.", "N", "de arts"),
        ("De secretaresse waarschuwde de bewaker dat ze een dief had gezien.", "F", "De secretaresse"),
        ("De kok klaagde bij de boer omdat hij slechte groenten verkocht.", "M", "de boer"),
        ("De bibliothecaresse hielp de student omdat ze het boek kende.", "F", "De bibliothecaresse"),
        ("De piloot begroette de receptionist en bedankte hem voor de koffie.", "M", "de receptionist"),
        ("De schrijver interviewde de ingenieur omdat zij de brug had ontworpen.", "N", "de ingenieur"),
        ("De rechter ondervroeg de getuige omdat ze zenuwachtig leek.", "N", "De rechter"),  # no feminine in use
        ("De kok vroeg de ober of hij de bestelling had gezien.", "M", "de ober"),  # serveerster
        ("De directeur prees de monteur omdat ze de auto snel had gerepareerd.", "N", "de monteur"),
        ("De schilder betaalde de timmerman nadat hij de deur had afgemaakt.", "M", "de timmerman"),
        ("De apothekeres adviseerde de klant omdat ze het medicijn kende.", "F", "De apothekeres"),
        ("De kleermaker naaide een jurk voor de zangeres omdat hij goed betaald werd.", "M", "De kleermaker"),
        ("De boer verkocht eieren aan de kapster omdat ze het vriendelijk vroeg.", "F", "de kapster"),
        ("De beambte hielp de bezoeker omdat hij vriendelijk was.", "N", "De beambte"),  # one form for both
        ("De supervisor bedankte de assistente omdat ze het rapport had afgemaakt.", "F", "de assistente"),
        ("De redacteur belde de ontwerper omdat hij de deadline had gemist.", "M", "de ontwerper"),
        ("De leraar sprak met iemand die haar kind wilde inschrijven.", "N", "iemand"),
        ("De verpleegkundige troostte het kind omdat het bang was.", "N", "het kind"),
        ("De verkoper liet de manager een nieuwe telefoon zien en zij vond hem mooi.", "N", "de manager"),
        ("De conciërge vond de sleutels van de lerares omdat ze ze kwijt was.", "F", "de lerares"),
        ("De huisarts onderzocht de patiënt en zei hem te rusten.", "M", "de patiënt"),
        ("De auditor ontmoette de kassière omdat ze een fout had gemaakt.", "F", "de kassière"),
        ("De verhuizer droeg de dozen voor de bibliothecaris omdat hij sterk was.", "M", "De verhuizer"),
        ("De commissaris belde de sheriff omdat ze een dief had gearresteerd.", "N", "de sheriff"),
        ("De ontwikkelaar vroeg de analiste om hulp omdat ze de gegevens begreep.", "F", "de analiste"),
        ("De counselor luisterde naar de arbeider omdat hij moe was.", "M", "de arbeider"),
        ("De huishoudster maakte de kamer van de gast schoon omdat ze daarvoor betaald werd.", "F", "De huishoudster"),
        ("De steward hielp de passagier omdat hij vriendelijk was.", "M", "De steward"),  # stewardess
        ("De rechercheur ondervroeg de bakster omdat ze de dief had gezien.", "F", "de bakster"),
        ("De bouwvakker vroeg de architect of hij het plan mooi vond.", "M", "de architect"),  # architecte
        ("De verpleger belde de chirurg omdat zij advies kon geven.", "N", "de chirurg"),
        ("De manager waarschuwde de medewerker omdat hij vaak te laat kwam.", "M", "de medewerker"),
        ("De leraar prees de directrice omdat ze de school steunde.", "F", "de directrice"),
        ("De schrijfster bedankte de vertaler omdat hij hard had gewerkt.", "M", "de vertaler"),
        ("De CEO ontmoette de consultant omdat ze een nieuw voorstel had.", "N", "de consultant"),
        ("De bewaker hield de bestuurster aan omdat ze te snel reed.", "F", "de bestuurster"),
    ],
}

# The agreement the readers reached when first run on these sentences (set after that run; see the module's docstring).
# The disagreements then, labels standing: cs "Krejčí" bare (M: krejčová is in use; read neutral, as every bare -í
# noun), "ukázal vedoucí" (a dative, F; the tagger took a nominative: neutral), "Obsluha" (N, one noun for the staff;
# read female), "architekta" (M; the tagger's feminine); pl "Sędzia" (N; read male, the masculine of the dictionary);
# nl "De rechter" (N; read male, an -er noun), "De beambte" (N; unknown), "De steward" (M; unknown).
FLOORS = {"reader": {"cs": 0.9, "pl": 0.975, "nl": 0.925}, "pipeline": {"cs": 0.9, "pl": 0.975, "nl": 0.925}}


def _evidence_positions(tokens, evidence):
    wanted = [t.lower() for t in tokenize(evidence)]
    low = [t.lower() for t in tokens]
    for start in range(len(low) - len(wanted) + 1):
        if low[start : start + len(wanted)] == wanted:
            return list(range(start, start + len(wanted)))
    raise AssertionError(f"evidence {evidence!r} not in {tokens}")


def reader_agreement(language: str) -> tuple[float, list]:
    """Share of labels the reader matches given the evidence words, and the disagreements."""
    read = reader(language)
    wrong = []
    for _english, (translation, label, evidence) in zip(ENGLISH, HELDOUT[language], strict=True):
        tokens = tokenize(translation)
        got = read(tokens, _evidence_positions(tokens, evidence))
        if got != HUMAN[label]:
            wrong.append((translation, label, got))
    return 1 - len(wrong) / len(ENGLISH), wrong


def pipeline_agreement(language: str, data_dir) -> tuple[float, list]:
    """Share of labels the whole reading matches (alignment trained on these lines and the language's other text)."""
    from pathlib import Path

    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.gender.entity import read_pairs
    from stats_mtbias.studies.winomt.reading import shipped_pairs

    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    src, trg = shipped_pairs(store, language, items, adjectives=False)
    llm = pd.read_csv(Path(__file__).resolve().parents[2] / "data/validation/translations_llm.csv", keep_default_na=False)
    llm = llm[llm["language"] == language]
    src += items.set_index("item").loc[llm["item"], "sentence"].tolist()
    trg += llm["translation"].tolist()
    extra = ([tokenize(s) for s in src], [tokenize(t) for t in trg])
    sources = [s for s, _ in ENGLISH]
    got = read_pairs(sources, [i for _, i in ENGLISH], [t for t, _, _ in HELDOUT[language]], language, extra=extra)
    wrong = [(t, label, g) for (t, label, _), g in zip(HELDOUT[language], got) if g != HUMAN[label]]
    return 1 - len(wrong) / len(ENGLISH), wrong


@needs_thot
@pytest.mark.parametrize("language", ["cs", "pl", "nl"])
def test_reader_on_the_evidence_words(language):
    pytest.importorskip({"cs": "cs_core_news_sm", "pl": "morfeusz2", "nl": "stats_mtbias"}[language])
    agreement, wrong = reader_agreement(language)
    assert agreement >= FLOORS["reader"][language], wrong


@needs_thot
@pytest.mark.parametrize("language", ["cs", "pl", "nl"])
def test_whole_reading(language, data_dir):
    pytest.importorskip({"cs": "cs_core_news_sm", "pl": "morfeusz2", "nl": "stats_mtbias"}[language])
    agreement, wrong = pipeline_agreement(language, data_dir)
    assert agreement >= FLOORS["pipeline"][language], wrong


# -----------------------------------------------------------------------------
# Target-language gender readers on hand-written sentences; alignment; validation against people.


def _read_unchecked(language, sentence, *words):
    tokens = tokenize(sentence)
    positions = [i for i, t in enumerate(tokens) if t in words]
    return reader(language)(tokens, positions)


@needs_thot
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
    assert _read_unchecked(language, sentence, *words) == expected


# Every cell of the German determiner paradigm, read on the noun "Wache" (feminine, no -in) or "Arzt" (masculine),
# so that the determiner and its context decide, not a feminine suffix.
@needs_thot
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
    assert _read_unchecked("de", sentence, noun) == expected


# -----------------------------------------------------------------------------
# data/validation/agreement.csv (what the report prints beside WinoMT's numbers) is what tools/reader_agreement.py
# computes from the labels with today's readers: a change of a reader that moves the agreement fails here until the
# table is written again (``python tools/reader_agreement.py --csv data/validation/agreement.csv``).


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_shipped_agreement_table_is_the_labels_read_today(data_dir, monkeypatch):
    monkeypatch.setenv("MTBIAS_DATA", str(data_dir))
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    sys.modules.pop("reader_agreement", None)
    import reader_agreement

    fresh = reader_agreement.agreement_csv().drop(columns="package_version").reset_index(drop=True)
    fresh = fresh.astype({"n_conflict": float, "n_conflict_pronoun": float})  # the CSV reads an empty count as NaN
    shipped = pd.read_csv(ROOT / "data" / "validation" / "agreement.csv").drop(columns="package_version")
    pd.testing.assert_frame_equal(shipped, fresh, check_dtype=False, rtol=1e-9)
