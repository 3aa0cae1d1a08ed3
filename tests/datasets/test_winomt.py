"""The WinoMT reader: the shipped files, and bad translation files named by file and line."""

import pandas as pd
import pytest

from stats_mtbias.datasets import winomt as data
from stats_mtbias.errors import DataError


def test_reader_on_the_shipped_files(data_dir):
    from stats_mtbias.datasets.registry import open_store

    store = open_store(data_dir)
    items = data.read_items(store)
    assert len(items) == 3888
    assert items["gold"].value_counts().to_dict() == {"male": 1826, "female": 1822, "neutral": 240}
    assert items["stereotype"].value_counts().to_dict() == {"pro": 1584, "anti": 1584, "none": 720}
    google = data.read_translations(store.path("winomt/translations/google/en-es.txt"), items)
    assert google["reason"].value_counts().to_dict() == {"": 3886, "missing": 2}
    # en.txt lines 2121-2122 were corrected after the translations were made.
    assert sorted(google.loc[google["reason"] == "missing", "item"]) == [2120, 2121]
    assert [line for line, _, _ in google.attrs["surplus_lines"]] == [2121, 2122]
    adj = data.read_translations(store.path("winomt/translations/google/adj.en-es.txt"), items)
    covered = items.loc[adj["reason"] == "", "stereotype"]
    assert len(covered) == 1584 and set(covered) == {"anti"}
    broken = data.read_translations(data_dir / "winomt/translations/systran/en-langs.txt", items)
    assert (broken["reason"] == "none").sum() == 3886


def test_reader_errors(tmp_path):
    items = pd.DataFrame(
        {
            "item": [0],
            "gold": ["male"],
            "entity_index": [1],
            "sentence": ["The doctor ran."],
            "entity": ["doctor"],
            "stereotype": ["pro"],
        }
    )
    bad = tmp_path / "en-xx.txt"
    bad.write_text("The doctor ran. ||| Der Arzt lief.\nno separator here\n", "utf-8")
    with pytest.raises(DataError, match=r"en-xx\.txt, line 2: has no '\|\|\|' separator"):
        data.read_translations(bad, items)
    alien = tmp_path / "en-yy.txt"
    alien.write_text("The nurse sang. ||| Die Pflegerin sang.\n", "utf-8")
    with pytest.raises(DataError, match=r"line 1: source 'The nurse sang\.' is not a WinoMT sentence"):
        data.read_translations(alien, items)
