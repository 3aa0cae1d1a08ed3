"""A held-out check of the issue-36 readers (cs, pl, nl): 40 sentences each, written, translated and labelled by hand.

The validation sample's labels (``data/validation/labels_<language>.csv``) were seen while the readers were fixed,
so the agreement reached on them is optimistic. These sentences are new: WinoMT-style English sentences (an
occupation entity, a gendered pronoun), each translated with varied forms (feminine forms, epicene nouns, inclusive
double forms, oblique cases, "someone" and "child"), and labelled for the entity's own noun phrase by the guide
(``data/validation/LABELLING.md``), with the evidence words, *before* the readers were run on them. The floors below
are the agreement the readers reached then (not 100%: where they disagree, the label stands); a regression fails.

Two measures per language: the reader given the evidence words (the reader's own rules), and the whole reading
(tokens, alignment, the usual-translation fallback, the reader) as a user's small file gets it, the aligner
trained on these 40 lines and the language's other translations (cs, pl: the LLM translations of the validation
sample; nl: the shipped Dutch translations).
"""

import pandas as pd
import pytest

pytest.importorskip("thot")

from stats_mtbias.alignment import tokenize
from stats_mtbias.gender.targets import reader

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


@pytest.mark.parametrize("language", ["cs", "pl", "nl"])
def test_reader_on_the_evidence_words(language):
    pytest.importorskip({"cs": "cs_core_news_sm", "pl": "morfeusz2", "nl": "stats_mtbias"}[language])
    agreement, wrong = reader_agreement(language)
    assert agreement >= FLOORS["reader"][language], wrong


@pytest.mark.parametrize("language", ["cs", "pl", "nl"])
def test_whole_reading(language, data_dir):
    pytest.importorskip({"cs": "cs_core_news_sm", "pl": "morfeusz2", "nl": "stats_mtbias"}[language])
    agreement, wrong = pipeline_agreement(language, data_dir)
    assert agreement >= FLOORS["pipeline"][language], wrong
