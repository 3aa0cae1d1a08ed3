"""Every old spelling of CHANGELOG.md keeps working for one release: the same output as the new one, and a
FutureWarning naming the new spelling, printed once."""

from __future__ import annotations

import pytest

from stats_mtbias.cli._options import REMOVED_IN


def _same_and_warned(cli, old: list, new: list, said: str) -> None:
    code, out_old, err_old = cli(*old)
    assert code == 0, err_old
    code, out_new, err_new = cli(*new)
    assert code == 0, err_new
    assert out_old == out_new
    warning = f"warning: FutureWarning: {said} is deprecated and stops working in {REMOVED_IN}"
    assert err_old.count(warning) == 1, err_old
    assert "FutureWarning" not in err_new


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (["--reference"], ["--view", "reference"], "--reference without a value (print the comparison with BLS)"),
        (["--calibration"], ["--view", "calibration"], "--calibration"),
        (["--tests", "--tests"], ["--view", "tests"], "--tests"),  # given twice: said once
        (["--independence"], ["--view", "independence"], "--independence"),
    ],
)
def test_prates_print_flags_are_views(cli, data_dir, old, new, said):
    base = ["prates", "--data-dir", data_dir, "--languages", "Finnish", "--format", "json"]
    _same_and_warned(cli, [*base, *old], [*base, *new], said)


def test_prates_reference_file_is_reference(cli, data_dir, tmp_path):
    from stats_mtbias.datasets import prates as prates_data
    from stats_mtbias.datasets.registry import open_store

    bls = open_store(data_dir).path(prates_data.BLS)
    base = ["prates", "--data-dir", data_dir, "--languages", "Finnish", "--format", "json", "--view", "reference"]
    _same_and_warned(cli, [*base, "--reference-file", bls], [*base, "--reference", bls], "--reference-file")


@pytest.mark.parametrize(
    ("by", "view"), [("occupation", "occupations"), ("category", "categories"), ("sector", "sectors"), ("headline", "headline")]
)
def test_optimal_by_is_view(cli, data_dir, by, view):
    base = ["optimal", "--data-dir", data_dir, "--languages", "Finnish", "--n-boot", "200", "--format", "json"]
    _same_and_warned(cli, [*base, "--by", by], [*base, "--view", view], f"--by {by}")


@pytest.mark.parametrize(("old", "value"), [("--keep-repeated", "keep"), ("--exclude-repeated-mine", "all")])
def test_tgbi_repeated_flags_are_repeated_blocks(cli, data_dir, tmp_path, old, value):
    rows = ["item,set,translation"] + [f"{i},formal,He is a person." for i in range(1, 497)]
    mine = tmp_path / "mine.csv"
    mine.write_text("\n".join(rows) + "\n", "utf-8")
    base = ["tgbi", "--data-dir", data_dir, "--systems", "kakao", "--translations", mine, "--system", "me", "--format", "json"]
    _same_and_warned(cli, [*base, old], [*base, "--repeated-blocks", value], old)


def test_tgbi_n_boot_of_permutations_is_n_permutations(cli, data_dir):
    base = ["tgbi", "--data-dir", data_dir, "--systems", "google,kakao", "--compare", "--test", "permutation", "--format", "json"]
    _same_and_warned(
        cli, [*base, "--n-boot", "200"], [*base, "--n-permutations", "200"], "--n-boot for the permutations of --test permutation"
    )


def test_winomt_lang_is_languages(cli, data_dir, tmp_path):
    readings = tmp_path / "r.csv"
    readings.write_text("item,system,language,gender\n" + "".join(f"{i},mine,es,male\n" for i in range(3888)), "utf-8")
    base = ["winomt", "--data-dir", data_dir, "--judgements", readings, "--n-boot", "100", "--no-adjectives", "--format", "json"]
    _same_and_warned(cli, [*base, "--lang", "es"], [*base, "--languages", "es"], "--lang")


def test_power_old_spellings(cli, tmp_path):
    base = ["power", "rate", "--rate", "0.3", "--n", "500", "--format", "json"]
    _same_and_warned(cli, [*base, "--reference", "0.5"], [*base, "--null", "0.5"], "--reference")
    base = ["power", "paired", "--discordance", "0.2", "--difference", "0.05", "--format", "json"]
    _same_and_warned(cli, [*base, "--alternative", "one-sided"], [*base, "--alternative", "greater"], "--alternative one-sided")


@pytest.mark.needs_data  # a Prates pilot is compared with the shipped BLS reference
def test_power_pilot_old_spellings(cli, tmp_path):
    import pandas as pd

    n = 300
    frame = pd.DataFrame(
        {
            "item": list(range(n)) * 2,
            "system": ["mine"] * n + ["base"] * n,
            "language": "es",
            "gender": (["female"] * 100 + ["male"] * 200) * 2,
        }
    )
    pilot = tmp_path / "pilot.csv"
    frame.to_csv(pilot, index=False)
    base = [
        "power",
        "pilot",
        "--study",
        "prates",
        "--judgements",
        pilot,
        "--metric",
        "p_female",
        "--half-width",
        "0.05",
        "--format",
        "json",
    ]
    _same_and_warned(cli, [*base, "--language", "es"], [*base, "--languages", "es"], "--language")
