"""Prates readers and study on a hand-written fixture: every number computed by hand."""

import numpy as np
import pandas as pd
import pytest

from stats_mtbias.datasets import prates as data
from stats_mtbias.errors import DataError, DataQualityWarning, UsageError
from stats_mtbias.studies import prates

JOBS = """Category\tOccupation\tMalay\tBengali-HF\tBengali-HP\tJapanese
Cat A\tNurse\tFemale\tFemale\tMale\tNeutral
Cat A\tClerk\tMale\t?\tMale\tMale
Cat B\tWelder\tMale\tMale\tMale\t?
Cat B\tWelder\tMale\tNeutral\tFemale\tMale
"""
BLS = (
    "Expanded Occupation\tTotal employed (Thousands)\tWomen Participation (%)\tOriginal Occupation\tCategory\t"
    "Category Total employed (Thousands)\tCategory Women Participation (%)\r\n"
    "Clerk\t1,089\t88.7\tClerks\tCat A\t2,000\t80\r\n"
    "Nurse\t500\t90\tNurses\tCat A\t2,000\t80\r\n"
    "Welder\t100\t-\tWelders\tCat B\t300\t5\r\n"
    "Welder\t200\t4.5\tWelders and cutters\tCat B\t300\t5"
)


@pytest.fixture
def files(tmp_path):
    jobs = tmp_path / "job-genders.tsv"
    jobs.write_text(JOBS, "utf-8")
    bls = tmp_path / "bls.tsv"
    bls.write_bytes(BLS.encode())
    return jobs, bls


@pytest.fixture
def judgements(files):
    return data.read_judgements(path=files[0])


def test_reader_keeps_every_row(judgements):
    assert len(judgements) == 4 * 4
    assert judgements["item"].nunique() == 4
    bengali = judgements[judgements["language"] == "Bengali"]
    assert sorted(bengali["variant"].unique()) == ["HF", "HP"]
    unknown = judgements[judgements["gender"] == "unknown"]
    assert len(unknown) == 2 and set(unknown["reason"]) == {"unidentified"}
    assert list(judgements.loc[judgements["item"] == "job:2", "gender"].astype(str)) == ["female", "female", "male", "neutral"]


def test_reader_errors_name_file_line_and_column(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text(JOBS.replace("Cat A\tClerk\tMale", "Cat A\tClerk\tMle"), "utf-8")
    with pytest.raises(DataError, match=r"bad\.tsv, line 3: column 'Malay': 'Mle' is not a gender"):
        data.read_judgements(path=bad)
    short = tmp_path / "short.tsv"
    short.write_text(JOBS.replace("Cat B\tWelder\tMale\tMale\tMale\t?", "Cat B\tWelder\tMale"), "utf-8")
    with pytest.raises(DataError, match=r"line 4: has 3 fields, the header has 6"):
        data.read_judgements(path=short)
    nohead = tmp_path / "nohead.tsv"
    nohead.write_text(JOBS.replace("Occupation", "Job"), "utf-8")
    with pytest.raises(DataError, match=r"line 1: header lacks column\(s\) Occupation"):
        data.read_judgements(path=nohead)


def test_bls_reader_and_matching(files, judgements):
    bls = data.read_bls(path=files[1])
    assert bls["employed"].tolist() == [1089.0, 500.0, 100.0, 200.0]
    assert np.isnan(bls.loc[2, "female_share"]) and bls.loc[0, "female_share"] == pytest.approx(0.887)
    matched = data.match_reference(judgements, bls)
    # The two "Welder" rows pair with the two BLS rows in order of occurrence.
    assert matched.loc["job:4", "employed"] == 100 and matched.loc["job:5", "employed"] == 200
    assert matched.loc["job:3", "bls_line"] == 2
    broken = files[1].parent / "broken.tsv"
    broken.write_bytes(BLS.replace("1,089", "lots").encode())
    with pytest.raises(DataError, match=r"line 2: column 'Total employed \(Thousands\)': 'lots' is not a number"):
        data.read_bls(path=broken)


def test_rates_by_hand(judgements):
    rates, tests, family = prates.analyse(judgements)
    row = rates.set_index("language")
    # Malay: F, M, M, M.
    assert row.loc["Malay", "n"] == 4 and row.loc["Malay", "female"] == pytest.approx(0.25)
    # Bengali pooled: F M | ? M | M M | N F -> 7 identified: 2 F, 4 M, 1 N; one unknown.
    assert (row.loc["Bengali", "n"], row.loc["Bengali", "n_unknown"]) == (7, 1)
    assert row.loc["Bengali", "female"] == pytest.approx(2 / 7)
    assert row.loc["Bengali", "neutral"] == pytest.approx(1 / 7)
    # Japanese: N M ? M -> no female output; the interval still has width.
    assert row.loc["Japanese", "female"] == 0 and row.loc["Japanese", "female_ci_low"] == 0
    assert row.loc["Japanese", "female_ci_high"] > 0.30
    # Exact sign tests on per-item male - female: Malay -1,+1,+1,+1; Bengali 0,+1,+2,-1; Japanese 0,+1,0,+1.
    assert row.loc["Malay", "p_value"] == pytest.approx(5 / 16)
    assert row.loc["Bengali", "p_value"] == pytest.approx(4 / 8)
    assert row.loc["Japanese", "p_value"] == pytest.approx(1 / 4)
    # Holm over the three: sorted .25, .3125, .5 times 3, 2, 1 -> .75, .625, .5 -> running max .75.
    assert np.allclose(row["p_adjusted"], 0.75)
    expected = "Holm over the 3 one-sided tests of each comparison, one per row (3 languages × 1 category, 'all' rows included)"
    assert family == expected
    assert set(tests["comparison"]) == {"male>female", "male>neutral", "neutral>female"}


def test_authors_denominator_averages_variants(judgements):
    rates, _, _ = prates.analyse(judgements, denominator="all")
    row = rates.set_index("language")
    # Bengali per item: female .5, 0, 0, .5 -> 25%; male .5, .5, 1, 0 -> 50%.
    assert row.loc["Bengali", "female"] == pytest.approx(0.25)
    assert row.loc["Bengali", "male"] == pytest.approx(0.50)
    assert row.loc["Bengali", "n"] == 8
    assert row.loc["Japanese", "male"] == pytest.approx(0.50)


def test_groupings(judgements):
    by_cat, _, _ = prates.analyse(judgements, by="category")
    assert list(zip(by_cat["language"], by_cat["category"])) == [("all", "all"), ("all", "Cat A"), ("all", "Cat B")]
    # Cat A over all languages: F M N | M ? M M -> identified 7, 2 female... (Nurse: F, F, M, N; Clerk: M, ?, M, M)
    cat_a = by_cat.set_index("category").loc["Cat A"]
    assert (cat_a["n"], cat_a["n_female"], cat_a["n_male"]) == (7, 2, 4)
    both, _, family = prates.analyse(judgements, by="language,category")
    assert len(both) == 3 * 3 and "9 one-sided tests of each comparison, one per row (3 languages × 3 categories" in family
    with pytest.raises(UsageError, match="`by`"):
        prates.analyse(judgements, by="occupation")


def test_languages_filter_and_bengali_variants(tmp_path):
    csv = tmp_path / "mine.csv"
    pd.DataFrame(
        {
            "item": ["a", "a", "b", "a", "a"],
            "language": ["Malay", "Japanese", "Malay", "Bengali", "Bengali"],
            "variant": ["", "", "", "HF", "HP"],
            "gender": ["Female", "?", "male", "female", "male"],
        }
    ).to_csv(csv, index=False)
    mine, _ = prates.load_judgements(judgements_file=csv, languages=["malay"])
    assert set(mine["language"]) == {"Malay"} and len(mine) == 2
    split, _ = prates.load_judgements(judgements_file=csv, bengali="variants", languages=["Bengali"])
    assert sorted(split["language"]) == ["Bengali-HF", "Bengali-HP"]
    with pytest.raises(UsageError, match="'Klingon' is not in the data"):
        prates.load_judgements(judgements_file=csv, languages=["Klingon"])


def test_user_csv_gender_and_translation_forms(tmp_path):
    genders = tmp_path / "g.csv"
    genders.write_text(
        "item,language,gender,category\nnurse,Malay,Female,Care\nnurse,Turkish,,Care\nwelder,Malay,Male,Trade\n", "utf-8"
    )
    table = data.read_user_judgements(genders)
    assert table["gender"].astype(str).tolist() == ["female", "unknown", "male"]
    assert table["reason"].tolist() == ["", "missing", ""]
    texts = tmp_path / "t.csv"
    texts.write_text(
        'item,language,translation\nnurse,Malay,"She is a nurse."\nwelder,Malay,He\'s a welder\n'
        "clerk,Malay,Clerk.\nclerk,Turkish,They are a clerk\n",
        "utf-8",
    )
    raw = data.read_user_judgements(texts)  # the reader keeps the text; the study reads it
    assert raw["gender"].isna().all() and raw["translation"].tolist()[0] == "She is a nurse."
    table = prates.judge(raw)
    assert table["gender"].astype(str).tolist() == ["female", "male", "unknown", "neutral"]
    assert table["reason"].tolist()[2] == "no_pronoun"
    dup = tmp_path / "dup.csv"
    dup.write_text("item,language,gender\nnurse,Malay,Female\nnurse,Malay,Male\n", "utf-8")
    # One rule with the shipped file: a repeated name is another occupation of that name, and a warning names the lines.
    expected = r"dup\.csv: 1 occupation name\(s\) occur more than once \(e\.g\. 'nurse' on lines 2, 3\)"
    with pytest.warns(DataQualityWarning, match=expected):
        repeated = data.read_user_judgements(dup)
    assert repeated["item"].tolist() == ["nurse", "nurse#2"] and repeated["occupation"].tolist() == ["nurse", "nurse"]
    both = tmp_path / "both.csv"
    both.write_text("item,language,gender,translation\nnurse,Malay,Female,He is a nurse\n", "utf-8")
    # With both, as `read prates` writes them, the gender given is used (the round trip read → correct → judge).
    assert data.read_user_judgements(both)["gender"].astype(str).tolist() == ["female"]
    neither = tmp_path / "neither.csv"
    neither.write_text("item,language\nnurse,Malay\n", "utf-8")
    with pytest.raises(DataError, match="needs a column 'gender'"):
        data.read_user_judgements(neither)


def test_reference_comparison_by_hand(files, judgements):
    bls = data.read_bls(path=files[1])
    table = prates.reference_comparison(judgements, bls).set_index(["language", "level"])
    malay = table.loc[("Malay", "occupation")]
    # Malay: Nurse F (BLS .90), Clerk M (.887), Welder#1 no BLS share, Welder#2 M (.045).
    assert (malay["n"], malay["n_excluded"]) == (3, 1)
    assert malay["translated"] == pytest.approx(1 / 3)
    assert malay["reference"] == pytest.approx((0.90 + 0.887 + 0.045) / 3)
    cat = table.loc[("Malay", "category")]
    # Cat A: 1 female of 2 (BLS 80%); Cat B: 0 of 2 (BLS 5%).
    assert cat["translated"] == pytest.approx(0.25) and cat["reference"] == pytest.approx(0.425)
    # The per-occupation shares behind the occupation row (the report's scatter plot).
    malay_only = prates.occupation_shares(judgements[judgements["language"] == "Malay"], bls)
    assert sorted(malay_only["share"]) == [0.0, 0.0, 1.0]
    assert sorted(malay_only["reference"]) == pytest.approx([0.045, 0.887, 0.90])
    pooled = prates.occupation_shares(judgements, bls)
    overall = table.loc[("all", "occupation")]
    assert len(pooled) == overall["n"] and pooled["share"].mean() == pytest.approx(overall["translated"])
