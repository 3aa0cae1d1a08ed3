"""Judgements counted on a Dask cluster (issue 21): a LocalCluster of 2 workers gives the local result, exactly."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.counting import count_rows
from stats_mtbias.errors import DataError

dd = pytest.importorskip("dask.dataframe", reason="dask is an optional dependency (pip install 'stats_mtbias[all]')")
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:  # fmt: skip
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
    frame = pd.DataFrame({
        "occupation": rng.choice(names, n), "system": rng.choice(["llm-a", "llm-b", "mt"], n),
        "language": rng.choice(["de", "es"], n),
        "gender": rng.choice(["female", "male", "neutral", "?"], n, p=[.3, .6, .05, .05]),
    })  # fmt: skip
    frame["item"] = frame["occupation"]
    directory = tmp_path_factory.mktemp("parts")
    for i, start in enumerate(range(0, n, 10_000)):
        frame.iloc[start:start + 10_000].to_parquet(directory / f"part-{i}.parquet", index=False)
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
