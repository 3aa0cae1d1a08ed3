"""A WinoMT target language is one module (issue 45, item 7): its ``LANGUAGE`` record, found by the registry.

(a) A toy language written to a temporary directory on the package's path shows up in every table of the old
layout, in WinoMT's list of languages, in the report's names and in ``stats-mtbias winomt --help``, and its facts
drive the shared rules (indefinites, inclusive forms, stems, pronouns), with no other edit. (b) Every shipped
language's record is complete, consistent with itself and with pyproject.toml, and has validation labels
(``data/validation/``, or WinoMT's human annotations).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.alignment import tokenize
from stats_mtbias.cli import build_parser
from stats_mtbias.datasets.registry import manifest
from stats_mtbias.datasets.winomt import annotation_language
from stats_mtbias.errors import UsageError
from stats_mtbias.gender import entity, langid, targets
from stats_mtbias.gender.targets import _language
from stats_mtbias.options import winomt_languages
from stats_mtbias.report import results

ROOT = Path(__file__).resolve().parents[3]
VALIDATION = ROOT / "data" / "validation"
inclusive = importlib.import_module("stats_mtbias.gender.targets.inclusive")  # the package's name is the function

# The whole of a new language: a reader and its record (xx is no ISO 639-1 code, so no shipped one is shadowed).
TOY = '''"""Toyish: the article decides (el/la)."""

from stats_mtbias.gender.targets._language import Language

ARTICLES = {"el": "male", "la": "female"}


def read(tokens, positions):
    """The article before or at the aligned words."""
    said = {ARTICLES[tokens[j].lower()] for p in positions for j in (p - 1, p) if j >= 0 and tokens[j].lower() in ARTICLES}
    return said.pop() if len(said) == 1 else "unknown"


LANGUAGE = Language(
    code="xx",
    name="Toyish",
    read=read,
    indefinite=frozenset({"alguno"}),
    alignment_stem=4,
    separators=frozenset("/"),
    suffixes=frozenset({"a"}),
    conjunctions=frozenset({"o"}),
    note_letters=frozenset("mf"),
    determiners=ARTICLES,
    varieties=frozenset({"zz"}),
    pronouns={"lo": "male", "le": "female"},
    pronoun_decides=True,
)
'''
TOY_LINES = len(TOY.splitlines())


def _add_module(path: Path, monkeypatch, name: str, text: str) -> None:
    (path / f"{name}.py").write_text(text, encoding="utf-8")
    monkeypatch.setattr(targets, "__path__", [*dict.fromkeys([*targets.__path__, str(path)])])
    _forget(name)


def _forget(name: str) -> None:
    """The module `name` unloaded and the registry refreshed."""
    sys.modules.pop(f"{targets.__name__}.{name}", None)
    if hasattr(targets, name):
        delattr(targets, name)
    _language.refresh()


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy language's module on the package's path, and the registry refreshed (and again after the test)."""
    _add_module(tmp_path, monkeypatch, "xx", TOY)
    yield targets.language("xx")
    _forget("xx")  # the path is restored after this; the next lookup lists the shipped modules again


def test_a_new_language_is_absent_before_its_module_exists():
    assert "xx" not in targets.codes() and targets.find("xx") is None
    with pytest.raises(UsageError, match="no gender reader for 'xx'; readers exist for ar, cs, de"):
        targets.reader("xx")


def test_a_new_module_appears_in_every_table_of_the_old_layout(toy):
    assert TOY_LINES <= 30
    assert "xx" in targets.LANGUAGES and "xx" in winomt_languages()
    assert targets.INDEFINITE["xx"] == {"alguno"} and targets.ALIGNMENT_STEM["xx"] == 4
    assert inclusive.SEPARATORS["xx"] == {"/"} and inclusive.SUFFIXES["xx"] == {"a"}
    assert inclusive.CONJUNCTIONS["xx"] == {"o"} and inclusive.NOTE_LETTERS["xx"] == {"m", "f"}
    assert inclusive.DETERMINERS["xx"] == {"el": "male", "la": "female"}
    assert langid.VARIETIES["xx"] == {"zz"}
    assert entity.TARGET_PRONOUNS["xx"] == {"lo": "male", "le": "female"} and "xx" in entity.PRONOUN_LANGUAGES
    assert results.LANGUAGE_NAMES["xx"] == "Toyish" and results.language_label("xx") == "Toyish (xx)"
    # The shipped ones are still all there, with their names.
    assert results.language_label("de") == "German (de)" and results.language_label("ko") == "Korean (ko)"
    assert set(targets.LANGUAGES) == {"ar", "cs", "de", "es", "fr", "he", "it", "nl", "pl", "pt", "ru", "uk", "xx"}


def test_the_command_line_lists_a_new_language(toy, capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["winomt", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "ar, cs, de, es, fr, he, it, nl, pl, pt, ru, uk, xx;" in help_text


def test_winomt_accepts_a_new_language_and_lists_it(toy, data_dir, monkeypatch):
    # A language without a reader is refused with the list, which now names the toy one.
    with pytest.raises(UsageError, match=r"supported: ar, cs, .*, uk, xx"):
        smb.winomt(languages=["sv"], data_dir=data_dir, n_boot=200)
    # The toy one passes the reader check: the shipped systems have no file in it, so nothing is left to evaluate.
    with pytest.raises(UsageError, match="no system/language pair to evaluate"):
        smb.winomt(["google"], languages=["xx"], data_dir=data_dir, n_boot=200)


def test_the_shared_rules_read_a_new_language_from_its_record(toy):
    read = targets.reader("xx")
    tokens = tokenize("Llamó a la medica y al alguno y el/la medico/a (m/f).")
    assert read(tokens, [2, 3]) == "female"  # its own reader
    assert read(tokens, [tokens.index("alguno")]) == "neutral"  # its indefinite
    slash = tokens.index("/")
    assert read(tokens, [slash - 1]) == "both"  # a determiner doublet el/la
    assert inclusive.spans(tokenize("el medico/a llegó"), "xx") == [(1, 3)]  # separator and suffix
    assert inclusive.spans(tokenize("el medico (m/f)"), "xx") == [(1, 6)]  # a gender note
    assert targets.alignment_form("xx", "Medicos") == "medi" and targets.forms("xx", "Medicos") == {"medicos", "medi"}
    assert entity.aligner_tokens([["Medicos", "y"]], "xx") == [["medi", "y"]]


def test_the_pronoun_reading_uses_a_new_languages_pronouns(toy):
    sources = ["The doctor said that he left ."]
    translations = ["el medico dijo que lo salió ."]
    links = [[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]]
    entity_reading, pronoun_reading = entity.read_entity_and_pronoun(
        sources, [1], translations, "xx", alignments=links, lexicon={}
    )
    assert entity_reading == ["male"] and pronoun_reading == ["male"]
    translations = ["la medica dijo que lo salió ."]
    got = entity.read_pairs(sources, [1], translations, "xx", alignments=links, lexicon={}, use_pronoun=True)
    assert got == ["male"]  # pronoun_decides: the aligned "lo" overrides the feminine article
    assert entity.read_pairs(sources, [1], translations, "xx", alignments=links, lexicon={}) == ["female"]


def test_a_module_without_its_record_is_refused_by_name(tmp_path, monkeypatch):
    _add_module(tmp_path, monkeypatch, "yy", "def read(tokens, positions):\n    return 'unknown'\n")
    try:
        with pytest.raises(TypeError, match=r"yy\.py: a language module ends in `LANGUAGE = Language\(code='yy'"):
            targets.find("yy")
        _add_module(tmp_path, monkeypatch, "yy", TOY)  # the record of xx in the module yy
        with pytest.raises(TypeError, match=r"yy\.py"):
            targets.find("yy")
    finally:
        _forget("yy")


def test_helper_modules_are_not_languages():
    names = {p.stem for p in Path(targets.__file__).parent.glob("*.py")}
    assert {"_romance", "_slavic", "_language", "inclusive", "__init__"} <= names
    assert set(targets.codes()) == {n for n in names if not n.startswith("_") and n != "inclusive"}


# ---------------------------------------------------------------- (b) the shipped languages


def _winomt_extra() -> set[str]:
    """The requirements of the `winomt` extra, which `all` includes (``stats_mtbias[winomt,…]``)."""
    tomllib = pytest.importorskip("tomllib") if sys.version_info >= (3, 11) else pytest.importorskip("tomli")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
    assert any("winomt" in requirement for requirement in extras["all"])
    return set(extras["winomt"])


@pytest.mark.parametrize("code", targets.codes())
def test_every_shipped_record_is_complete_and_consistent(code):
    record = targets.language(code)
    module = importlib.import_module(f"stats_mtbias.gender.targets.{code}")
    assert record.code == code and record.read is module.read and module.__doc__
    assert record.name[:1].isupper() and record.name.isalpha()
    # Every language writes double forms with a separator, an ending and a conjunction, and has close varieties.
    for name in ("separators", "suffixes", "conjunctions", "varieties"):
        assert getattr(record, name), f"{code}: no {name}"
    assert set(record.requires) <= _winomt_extra(), f"{code}: requires {record.requires} not all in the `winomt` extra"
    # Words are looked up lower-cased, genders are male/female, the stem is a length.
    for name in ("indefinite", "suffixes", "conjunctions", "note_letters", "case_endings"):
        assert all(w == w.lower() and w for w in getattr(record, name)), f"{code}: {name} not lower case"
    assert all(len(letter) == 1 for letter in record.note_letters)
    for name in ("determiners", "pronouns"):
        table = getattr(record, name)
        assert all(w == w.lower() for w in table) and set(table.values()) <= {"male", "female"}, f"{code}: {name}"
    assert record.alignment_stem is None or (isinstance(record.alignment_stem, int) and record.alignment_stem >= 3)
    assert not record.pronoun_decides or record.pronouns
    assert record.in_word is None or callable(record.in_word)
    # A reader says one of the five answers, and unknown for nothing aligned.
    assert record.read(tokenize("x"), []) == "unknown"


def test_the_readers_that_need_a_library_say_which():
    needs = {code: targets.language(code).requires for code in targets.codes() if targets.language(code).requires}
    assert set(needs) == {"cs", "fr", "pl", "ru", "uk"}
    assert "morfeusz2>=1.99" in needs["pl"] and "pymorphy3-dicts-uk" in needs["uk"]


def _annotated() -> set[str]:
    prefix = "winomt/data/human_annotations/"
    return {annotation_language(p.removeprefix(prefix)) for p in manifest() if p.startswith(prefix)} - {None}


def test_every_shipped_language_has_validation_labels():
    """Each language with a reader has human labels: its own blind labels in data/validation/labels_<code>.csv (on
    the items of sample.csv), else WinoMT's shipped human annotations; and a row of the agreement table."""
    codes = set(targets.codes())
    own = {p.stem.removeprefix("labels_") for p in VALIDATION.glob("labels_*.csv")}
    assert own <= codes and _annotated() <= codes  # no labels for a language without a reader
    assert codes == own | _annotated(), f"no validation labels for {sorted(codes - own - _annotated())}"
    sample = pd.read_csv(VALIDATION / "sample.csv")
    for code in own:
        labels = pd.read_csv(VALIDATION / f"labels_{code}.csv", keep_default_na=False)
        assert set(labels["language"]) == {code}
        drawn = sample[sample["language"] == code]
        assert set(zip(labels["system"], labels["item"])) == set(zip(drawn["system"], drawn["item"]))
    agreement = pd.read_csv(VALIDATION / "agreement.csv")
    assert set(agreement["language"]) == codes
