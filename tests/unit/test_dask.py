"""Judgements counted on a Dask cluster (issue 21): a LocalCluster of 2 workers gives the local result, exactly."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.datasets.counting import count_rows
from stats_mtbias.errors import DataError

dd = pytest.importorskip("dask.dataframe", reason="dask is an optional dependency (pip install 'stats_mtbias[all]')")
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def partitions(tmp_path_factory, data_dir):
    """Judgements over BLS occupations in 6 Parquet files (the layout a cluster reads)."""
    from stats_mtbias.datasets import reference
    from stats_mtbias.datasets.registry import open_store

    bls = reference.bls_reference(open_store(data_dir))
    names = bls.groupby("occupation").filter(lambda g: len(g) == 1)["occupation"].to_numpy()[:80]
    rng = np.random.default_rng(7)
    n = 60_000
    frame = pd.DataFrame(
        {
            "occupation": rng.choice(names, n),
            "system": rng.choice(["llm-a", "llm-b", "mt"], n),
            "language": rng.choice(["de", "es"], n),
            "gender": rng.choice(["female", "male", "neutral", "?"], n, p=[0.3, 0.6, 0.05, 0.05]),
        }
    )
    frame["item"] = frame["occupation"]
    directory = tmp_path_factory.mktemp("parts")
    for i, start in enumerate(range(0, n, 10_000)):
        frame.iloc[start : start + 10_000].to_parquet(directory / f"part-{i}.parquet", index=False)
    return directory, frame


def test_counts_on_the_cluster_equal_the_local_ones(client, partitions):
    directory, frame = partitions
    keys = ["occupation", "system", "language", "gender"]
    local = count_rows(str(directory / "*.parquet"), keys)
    on_cluster = count_rows(str(directory / "*.parquet"), keys, engine="dask")
    pd.testing.assert_frame_equal(on_cluster, local)
    from_frame = count_rows(dd.from_pandas(frame, npartitions=6), keys)  # a dask frame: engine "auto" is Dask
    assert from_frame.attrs["rows"] == len(frame)
    assert from_frame.set_index(keys)["n"].sort_index().equals(local.set_index(keys)["n"].sort_index())
    assert local["n"].sum() == len(frame)


def test_studies_through_the_cluster_equal_the_local_path(client, partitions):
    directory, frame = partitions
    pattern = str(directory / "*.parquet")
    for study, options in ((smb.rates, {"by": "language", "n_boot": 200}), (smb.optimal, {"n_boot": 200})):
        local = study(pattern, rng=3, **options)
        remote = study(pattern, rng=3, engine="dask", **options)
        pd.testing.assert_frame_equal(remote.table, local.table)  # exactly: counts are integers, same order
        if local.comparisons is not None:
            pd.testing.assert_frame_equal(remote.comparisons, local.comparisons)
    # A dask frame built by the user (any reader, any storage) is counted on the cluster too.
    remote = smb.rates(dd.from_pandas(frame, npartitions=4), by="language", n_boot=200, rng=3)
    local = smb.rates(frame, by="language", n_boot=200, rng=3)
    pd.testing.assert_frame_equal(remote.table, local.table)


def test_a_bad_label_on_the_cluster_names_its_partition_and_line(client, partitions):
    # Row 25,003 is row 5,003 of the third partition of 10,000: line 5,005 as that partition's CSV would number it.
    _, frame = partitions
    bad = frame.copy()
    bad.loc[25_003, "gender"] = "mail"
    with pytest.raises(DataError, match=r"partition 2, line 5005: column 'gender': 'mail' is not a gender"):
        smb.rates(dd.from_pandas(bad, npartitions=6, sort=False), n_boot=200)


def test_a_bad_line_in_one_file_is_named_from_the_worker(client, tmp_path):
    for i in range(3):
        (tmp_path / f"p{i}.csv").write_text("item,gender\n" + "a,f\n" * 10 + ("a,f,extra\n" if i == 1 else ""), "utf-8")
    with pytest.raises(DataError) as err:
        count_rows(str(tmp_path / "*.csv"), ["item", "gender"], engine="dask")
    # The error crossed the process boundary whole: file and line, not a message alone.
    assert err.value.path == tmp_path / "p1.csv" and err.value.line == 12 and "has 3 fields" in err.value.problem


def test_winomt_reads_on_the_cluster_what_it_reads_here(client, tmp_path, data_dir):
    # Issue 21 item 4: a language is a task on the Dask workers; the tables equal the local reading.
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.studies import winomt

    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    jobs = []
    for language in ("es", "it"):
        shipped = store.path(f"winomt/translations/google/en-{language}.txt").read_text("utf-8")
        mine = tmp_path / language / f"en-{language}.txt"
        mine.parent.mkdir()
        mine.write_text("\n".join(shipped.splitlines()[:60]) + "\n", "utf-8")
        jobs.append(("mine", language, False, mine))
    options = {"aligner": "fastalign", "use_pronoun": False, "explain": False}
    on_cluster = winomt.reading.judge_all(store, items, jobs, progress=None, engine="dask", **options)
    for job, table in zip(jobs, on_cluster, strict=True):
        here = winomt.reading.judge_language(store, items, [job], **options)[0][0]
        pd.testing.assert_frame_equal(table, here)
        assert 45 <= (table["gender"] != "unknown").sum() <= 60  # 60 lines given, most read
    with pytest.raises(DataError, match=r"en-es\.txt"):  # a worker's error is raised here, file named
        winomt.reading.judge_all(
            store, items, [("mine", "es", False, tmp_path / "none" / "en-es.txt")], progress=None, engine="dask", **options
        )


def test_winomt_readings_from_the_cluster_are_cached_here(client, tmp_path, monkeypatch, data_dir):
    # A remote worker caches on its own disk; the readings it returns are cached on this machine too, so the next
    # run reads them from this cache, as after a local reading.
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.errors import UsageError
    from stats_mtbias.studies import winomt
    from stats_mtbias.studies.winomt import reading as winomt_reading

    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    monkeypatch.setenv("MTBIAS_CACHE", str(tmp_path / "cache"))  # this process only: the workers keep theirs
    jobs = [("google", "es", False, None), ("google", "es", True, None)]
    options = {"aligner": "fastalign", "use_pronoun": False, "explain": False}
    paths = [
        winomt_reading.readings_path(store, "es", f"winomt/translations/google/{a}en-es.txt", adj, "fastalign", False)
        for a, adj in (("", False), ("adj.", True))
    ]
    assert not any(p.exists() for p in paths)
    on_cluster = winomt.reading.judge_all(store, items, jobs, progress=None, engine="dask", **options)
    assert all(p.exists() for p in paths)
    winomt_reading._LANGUAGE_LINKS.clear()
    monkeypatch.setattr(winomt_reading, "align", None)  # from the cache nothing is aligned (None would raise)
    from_cache = winomt.reading.judge_all(store, items, jobs, progress=None, **options)
    for a, b in zip(on_cluster, from_cache, strict=True):
        pd.testing.assert_frame_equal(a, b)
    assert (on_cluster[0]["gender"] != "unknown").mean() > 0.9
    with pytest.raises(UsageError, match="engine must be one of auto, processes, dask"):
        winomt.reading.judge_all(store, items, jobs, progress=None, engine="spark", **options)


def test_the_cli_reads_and_counts_on_a_scheduler(client, capsys, tmp_path, data_dir, partitions):
    import json

    from stats_mtbias.cli import main

    address = client.scheduler.address
    shipped = (data_dir / "winomt/translations/google/en-es.txt").read_text("utf-8").splitlines()
    mine = tmp_path / "en-es.txt"
    mine.write_text("\n".join(shipped[:60]) + "\n", "utf-8")
    args = [
        "winomt",
        "--data-dir",
        str(data_dir),
        "--translations",
        str(mine),
        "--system",
        "mine",
        "--n-boot",
        "200",
        "--format",
        "json",
    ]
    assert main([*args, "--scheduler", address]) == 0
    on_cluster = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == on_cluster
    # One rule for untranslated items (issue 34): a file of 60 lines is analysed on its 60 items, its coverage said.
    assert on_cluster[0]["system"] == "mine" and on_cluster[0]["n"] == 60
    directory, _ = partitions
    args = [
        "optimal",
        "--data-dir",
        str(data_dir),
        "--judgements",
        str(directory / "*.parquet"),
        "--n-boot",
        "200",
        "--format",
        "json",
        "--view",
        "sectors",
    ]
    assert main([*args, "--scheduler", address]) == 0
    on_cluster = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == on_cluster and len(on_cluster) > 0
    assert main(["winomt", "--scheduler", "tcp://127.0.0.1:9", "--languages", "es"]) == 64  # nobody there: a usage error
    assert "no scheduler listens there" in capsys.readouterr().err  # refused: said at once, not after 20 s of retries
