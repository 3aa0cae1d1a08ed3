"""``stats-mtbias data`` and the registry functions it wraps (datasets.registry.inventory)."""

from __future__ import annotations

import json

import pytest

from stats_mtbias.datasets.registry import SUMMARY_COLUMNS, datasets, inventory
from stats_mtbias.errors import DataError, DataNotFoundError, UsageError


def test_inventory_lists_summarises_and_checks(data_dir, tmp_path):
    found = inventory(["prates"], data_dir=data_dir)
    assert list(found.files.columns) == ["dataset", "path", "size", "status"]
    assert len(found.files) == len(datasets()["prates"]) and set(found.files["status"]) == {"ok"}
    summary = found.summary()
    assert list(summary.columns) == SUMMARY_COLUMNS and summary.loc[0, "ok"] == len(found.files)
    found.check()  # nothing differs, nothing is missing
    assert set(found.provenance()["data"]) == set(found.files["path"])
    empty = inventory(["prates"], data_dir=tmp_path, action="verify")
    assert set(empty.files["status"]) == {"missing"} and empty.summary().loc[0, "missing"] == len(empty.files)
    with pytest.raises(DataNotFoundError, match="missing from"):
        empty.check()
    copy = tmp_path / "prates/Results/adj-genders.tsv"
    copy.parent.mkdir(parents=True)
    copy.write_text("tampered\n")
    with pytest.raises(DataError, match="differ from the published ones"):
        inventory(["prates"], data_dir=tmp_path, action="verify").check()
    with pytest.raises(UsageError, match="unknown dataset"):
        inventory(["klingon"], data_dir=data_dir)


def test_inventory_downloads_into_the_directory_named_with_progress(data_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("MTBIAS_MIRROR", str(data_dir))
    seen = []
    found = inventory(
        ["prates"], data_dir=tmp_path, action="download", progress=lambda i, total, entry, state: seen.append((i, total, state))
    )
    n = len(datasets()["prates"])
    assert seen == [(i, n, "downloaded") for i in range(1, n + 1)]
    assert set(found.files["action"]) == {"downloaded"} and set(found.files["status"]) == {"ok"}
    assert set(inventory(["prates"], data_dir=tmp_path, action="download").files["action"]) == {"present"}


def test_data_list_in_every_format(cli, data_dir):
    records, _ = cli.json("data", "list", "--data-dir", data_dir)
    assert [list(r) for r in records] == [SUMMARY_COLUMNS] * len(datasets())
    code, out, err = cli("data", "list", "tgbi", "--files", "--data-dir", data_dir, "--format", "csv")
    assert code == 0 and out.splitlines()[0] == "dataset,path,size,status"
    code, out, err = cli("data", "verify", "--data-dir", data_dir, "--provenance")
    assert code == 0 and "data directory:" in out and "provenance:" in out
    code, _, err = cli("data", "list", "klingon")
    assert code == 64 and "unknown dataset(s) klingon" in err
    assert json.loads(json.dumps(records))  # plain JSON
