"""Lines in the wrong language (stats_mtbias.gender.langid) and languages without a reader (issue 36)."""

import warnings

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("py3langid")

from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.gender.langid import mark_wrong_language, wrong_language

FRENCH = [
    "Le mécanicien a appelé le médecin parce qu'il était malade.",
    "La secrétaire a aidé le charpentier à déplacer le bureau.",
    "Il meccanico ha chiamato il medico perché stava male.",  # Italian in a French file
    "The developer argued with the designer because she did not like the design.",  # left untranslated
    "Le boulanger a vendu du pain.",  # French, short
    "Oui.",  # too short to judge
    "",
]


def test_another_language_is_flagged_only_when_confident():
    mask, found = wrong_language(FRENCH, "fr")
    assert mask.tolist() == [False, False, True, True, False, False, False]
    assert [(i, lang) for i, lang, _ in found] == [(2, "it"), (3, "en")]
    assert all(p >= 0.9 for _, _, p in found)
    # A close variety is the language itself; so are lines no detector can judge.
    assert not wrong_language(["Oui."], "fr")[0].any()


@pytest.mark.parametrize(
    "language, line",
    [
        ("pt", "O mecânico deu um presente ao funcionário porque era o seu aniversário."),
        ("nl", "De monteur gaf de receptioniste een appel omdat ze jarig was."),
        ("cs", "Mechanik dal úředníkovi dárek, protože měl narozeniny."),
        ("pl", "Mechanik dał urzędnikowi prezent, ponieważ miał urodziny."),
    ],
)
def test_lines_of_the_new_languages_are_their_language(language, line):
    assert not wrong_language([line], language)[0].any()


def test_marked_in_the_table_with_a_warning_naming_the_lines(tmp_path, monkeypatch):
    monkeypatch.setenv("MTBIAS_CACHE", str(tmp_path))
    table = pd.DataFrame(
        {
            "translation": FRENCH,
            "gender": ["male", "male", "male", "unknown", "male", "unknown", "unknown"],
            "reason": ["", "", "", "no_reading", "", "no_reading", "empty"],
        }
    )
    with pytest.warns(DataQualityWarning, match=r"google/fr: 2 line\(s\) in another language .*line 13 \(it\), 14 \(en\)"):
        mark_wrong_language(table, "fr", "google/fr", line_numbers=np.arange(11, 18))
    assert table["reason"].tolist() == ["", "", "wrong_language", "wrong_language", "", "no_reading", "empty"]
    assert table["gender"].tolist()[2:4] == ["unknown", "unknown"]
    # Cached by content: the second call reads the answer back.
    assert list((tmp_path / "langid").glob("*.json"))
    again = pd.DataFrame({"translation": FRENCH, "gender": "male", "reason": ""})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mark_wrong_language(again, "fr", "x/fr")
    assert (again["reason"] == "wrong_language").sum() == 2 and len(caught) == 1


def test_a_clean_file_is_left_alone():
    table = pd.DataFrame({"translation": FRENCH[:2], "gender": ["male", "female"], "reason": ["", ""]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = mark_wrong_language(table, "fr", "x/fr", cache=False)
    assert out["reason"].tolist() == ["", ""]


@pytest.mark.slow
def test_a_directory_with_a_language_without_reader_and_a_wrong_language_line(data_dir, tmp_path, monkeypatch):
    """Issue 36: en-sv.txt is skipped with a warning naming sv, en-pt.txt evaluated; its Italian line is counted
    as wrong_language in the accounting, warned about by line, and --strict exits 65."""
    pytest.importorskip("thot")
    import stats_mtbias as smb
    from stats_mtbias.cli import main

    monkeypatch.setenv("MTBIAS_CACHE", str(tmp_path / "cache"))
    lines = (data_dir / "winomt/translations/google/en-pt.txt").read_text("utf-8").splitlines()
    source = lines[3].split(" ||| ")[0]
    lines[3] = f"{source} ||| Il meccanico ha dato un regalo all'impiegato perché era il suo compleanno."
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "en-pt.txt").write_text("\n".join(lines) + "\n", "utf-8")
    (folder / "en-sv.txt").write_text(f"{source} ||| Mekanikern gav expediten en present.\n", "utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = smb.winomt(translations={"mine": str(folder)}, n_boot=200, rng=0, data_dir=data_dir, adjectives=False)
    messages = [str(w.message) for w in caught]
    assert any("no gender reader for sv: skipped" in m for m in messages)
    assert any(
        issubclass(w.category, DataQualityWarning) and "mine/pt: 1 line(s)" in str(w.message) and "line 4 (it)" in str(w.message)
        for w in caught
    )
    assert set(res.frames["estimates"]["language"]) == {"pt"}
    accounting = res.frames["accounting"].set_index("outcome")["n"]
    assert accounting["wrong_language"] == 1 and accounting.sum() == 3888
    code = main(
        ["winomt", "--data-dir", str(data_dir), "--translations", str(folder), "--system", "mine", "--n-boot", "100", "--strict"]
    )
    assert code == 65
