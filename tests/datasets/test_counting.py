"""Judgements counted as they stream (issue 21): every format, every batch size, the same table; bad lines named."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stats_mtbias as smb
from stats_mtbias.datasets import counting
from stats_mtbias.datasets.counting import count_rows
from stats_mtbias.errors import DataError, UsageError

KEYS = ["item", "system", "gender"]


def _rows(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "item": rng.choice([f"prompt {i}" for i in range(40)], n),
            "system": rng.choice(["a", "b", "c"], n),
            "gender": rng.choice(["female", "male", "neutral", "", "F"], n, p=[0.3, 0.4, 0.1, 0.1, 0.1]),
            "language": rng.choice(["de", "fr"], n),
        }
    )


def _by_hand(frame: pd.DataFrame, keys=KEYS) -> pd.DataFrame:
    """The count table from the rows with pandas: n per cell, the first line (row + 2) holding it, by first appearance."""
    lines = pd.Series(np.arange(len(frame)) + 2, index=frame.index)
    grouped = frame.assign(line=lines).groupby(keys, sort=False)
    out = grouped.agg(n=("line", "size"), line=("line", "min")).reset_index()
    return out.sort_values("line").reset_index(drop=True)


def _write_all(frame: pd.DataFrame, tmp_path) -> dict:
    paths = {
        "csv": tmp_path / "j.csv",
        "tsv": tmp_path / "j.tsv",
        "parquet": tmp_path / "j.parquet",
        "arrow": tmp_path / "j.arrow",
        "feather": tmp_path / "j.feather",
    }
    frame.to_csv(paths["csv"], index=False)
    frame.to_csv(paths["tsv"], index=False, sep="\t")
    table = pa.Table.from_pandas(frame, preserve_index=False)
    pq.write_table(table, paths["parquet"], row_group_size=997)
    with pa.ipc.new_file(paths["arrow"], table.schema) as writer:
        for batch in table.to_batches(max_chunksize=1_000):
            writer.write_batch(batch)
    with pa.ipc.new_stream(paths["feather"], table.schema) as writer:  # a stream, not a file: both are read
        writer.write_table(table)
    return paths


def test_every_format_gives_the_table_counted_by_hand(tmp_path, monkeypatch):
    frame = _rows(5_000)
    expected = _by_hand(frame)
    # Small blocks and merges: the streaming path is what is tested, not one batch.
    monkeypatch.setattr(counting, "CSV_BLOCK_BYTES", 4_096)
    monkeypatch.setattr(counting, "MERGE_ROWS", 50)
    for kind, path in _write_all(frame, tmp_path).items():
        got = count_rows(path, KEYS)
        pd.testing.assert_frame_equal(got, expected, check_dtype=False, obj=kind)
        assert got.attrs["rows"] == 5_000 == got["n"].sum(), kind
    got = count_rows(frame, KEYS)
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)


def test_several_files_a_directory_and_a_glob(tmp_path):
    frame = _rows(3_000, seed=1)
    parts = tmp_path / "parts"
    parts.mkdir()
    for i, start in enumerate(range(0, 3_000, 1_000)):
        frame.iloc[start : start + 1_000].to_parquet(parts / f"p{i}.parquet", index=False)
    by_dir = count_rows(parts, KEYS)
    by_glob = count_rows(str(parts / "*.parquet"), KEYS)
    pd.testing.assert_frame_equal(by_dir, by_glob)
    assert by_dir.attrs["rows"] == 3_000
    # Counts equal the whole frame's; the first line is within its own file (part: which file).
    whole = _by_hand(frame)
    merged = by_dir.merge(whole, on=KEYS, suffixes=("", "_whole"))
    assert len(merged) == len(whole) and (merged["n"] == merged["n_whole"]).all()
    assert (merged["part"] * 1_000 + merged["line"] == merged["line_whole"]).all()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["x", "y", " x", "z "]), st.sampled_from(["f", "m", "", "?"])), min_size=1, max_size=60)
)
def test_any_rows_are_counted_exactly(rows):
    frame = pd.DataFrame(rows, columns=["item", "gender"])
    got = count_rows(frame, ["item", "gender"])
    stripped = frame.apply(lambda c: c.str.strip())
    assert got["n"].sum() == len(frame)
    expected = stripped.value_counts().to_dict()
    assert {tuple(r[:2]): r[2] for r in got[["item", "gender", "n"]].itertuples(index=False)} == expected
    # The first line of each cell: the first row (line = row + 2) holding those stripped values.
    for item, gender, line in got[["item", "gender", "line"]].itertuples(index=False):
        first = int(np.flatnonzero((stripped["item"] == item) & (stripped["gender"] == gender))[0])
        assert line == first + 2


def test_missing_values_and_numbers_read_as_their_csv(tmp_path):
    frame = pd.DataFrame({"item": [1, 2, 2, None], "gender": ["f", None, "m", "f"]})
    table = count_rows(frame, ["item", "gender"])
    assert table[["item", "gender", "n"]].values.tolist() == [["1.0", "f", 1], ["2.0", "", 1], ["2.0", "m", 1], ["", "f", 1]]
    path = tmp_path / "n.parquet"
    pq.write_table(pa.table({"item": pa.array([1, 2, None]), "gender": pa.array(["f", None, "m"])}), path)
    assert count_rows(path, ["item", "gender"])[["item", "gender"]].values.tolist() == [["1", "f"], ["2", ""], ["", "m"]]


@pytest.mark.parametrize(
    ("text", "problem", "line"),
    [
        (b"item,gender\na,f\nb,m,extra\n", "has 3 fields, the header has 2", 3),
        (b"item,gender\na,f\nb,\xffm\n", "not valid UTF-8", 3),
        (b"item,gender\na,f\n\nb,m\n", "is an empty line", 3),
        (b"item,item\na,f\n", "header repeats column(s) item", 1),
        (b"item,sex\na,f\n", "header lacks column(s) gender (found item, sex; comma-separated)", 1),
        (b"", "is empty", 1),
        (b"item,gender\n" + b"a,f\n" * 30_000 + b"b,m,x\n", "has 3 fields", 30_002),
    ],
)
def test_bad_files_name_their_line(tmp_path, monkeypatch, text, problem, line):
    monkeypatch.setattr(counting, "CSV_BLOCK_BYTES", 4_096)
    path = tmp_path / "bad.csv"
    path.write_bytes(text)
    with pytest.raises(DataError) as err:
        count_rows(path, ["item", "gender"], required=["item", "gender"])
    assert problem in str(err.value) and err.value.line == line and err.value.path == path


def test_bad_label_named_at_its_first_line_in_rates_and_optimal(tmp_path):
    rows = [("a", "s", "female")] * 5 + [("b", "s", "mail")] + [("c", "s", "mail"), ("d", "s", "male")]
    path = tmp_path / "j.csv"
    pd.DataFrame(rows, columns=["item", "system", "gender"]).to_csv(path, index=False)
    with pytest.raises(DataError, match=r"j\.csv, line 7: column 'gender': 'mail' is not a gender"):
        smb.rates(path, n_boot=100)
    pd.DataFrame(rows, columns=["occupation", "system", "gender"]).to_csv(path, index=False)
    with pytest.raises(DataError, match=r"j\.csv, line 7: column 'gender': 'mail' is not a gender"):
        smb.optimal(path, n_boot=100)


def test_rates_from_every_format_is_one_result(tmp_path):
    frame = _rows(2_000, seed=3)
    results = [smb.rates(path, by="language", n_boot=200, rng=5).table for path in _write_all(frame, tmp_path).values()]
    results.append(smb.rates(frame, by="language", n_boot=200, rng=5).table)
    for other in results[1:]:
        pd.testing.assert_frame_equal(results[0], other)
    # "F" and "female" are one gender: the shares count both.
    female = frame["gender"].str.lower().isin(["female", "f"])
    identified = frame["gender"] != ""
    a = (frame["system"] == "a") & (frame["language"] == "de")
    # A grouping column named language is the table's language (issue 33), not a subset.
    row = results[0].query("system == 'a' and language == 'de' and subset == 'all' and metric == 'female'").iloc[0]
    assert row["estimate"] == pytest.approx((female & a).sum() / (identified & a).sum(), abs=1e-12)
    # n: the items (clusters) the share rests on, not the judgements.
    assert row["n"] == frame.loc[identified & a, "item"].nunique()


def test_optimal_counts_equal_the_rows(tmp_path, data_dir):
    from stats_mtbias.datasets import reference
    from stats_mtbias.datasets.registry import open_store

    bls = reference.bls_reference(open_store(data_dir))
    names = bls.groupby("occupation").filter(lambda g: len(g) == 1)["occupation"].to_numpy()[:30]
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "occupation": rng.choice(names, 3_000),
            "gender": rng.choice(["Female", "Male", "?"], 3_000),
            "system": rng.choice(["x", "y"], 3_000),
        }
    )
    path = tmp_path / "j.parquet"
    frame.to_parquet(path, index=False)
    res = smb.optimal(path, n_boot=200, rng=2)
    occ = res.frames["occupations"].set_index(["system", "occupation"])
    for (system, occupation), part in frame.groupby(["system", "occupation"]):
        row = occ.loc[(system, occupation)]
        assert row["n_female"] == (part["gender"] == "Female").sum()
        assert row["n_male"] == (part["gender"] == "Male").sum()
        assert row["n_unknown"] == (part["gender"] == "?").sum()
    assert res.frames["judgements"]["n"].sum() == 3_000
    pd.testing.assert_frame_equal(res.table, smb.optimal(frame, n_boot=200, rng=2).table)


@pytest.mark.filterwarnings("ignore::stats_mtbias.errors.DataQualityWarning")
def test_prates_reads_parquet_and_arrow_as_its_csv(tmp_path, data_dir):
    from stats_mtbias.datasets import prates as prates_data
    from stats_mtbias.datasets.registry import open_store

    shipped = prates_data.read_judgements(open_store(data_dir)).query("language in ['Finnish', 'Turkish'] and variant == ''")
    labels = {"female": "Female", "male": "Male", "neutral": "Neutral", "both": "Neutral", "unknown": "?"}
    frame = pd.DataFrame(
        {
            "item": shipped["occupation"],
            "language": shipped["language"],
            "category": shipped["category"],
            "gender": shipped["gender"].astype(str).map(labels),
        }
    )
    frame.to_csv(tmp_path / "mine.csv", index=False)
    frame.to_parquet(tmp_path / "mine.parquet", index=False)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    with pa.ipc.new_file(tmp_path / "mine.arrow", table.schema) as writer:
        writer.write_table(table)
    results = {
        suffix: smb.prates(tmp_path / f"mine.{suffix}", data_dir=data_dir, rng=0) for suffix in ("csv", "parquet", "arrow")
    }
    for suffix in ("parquet", "arrow"):
        pd.testing.assert_frame_equal(results[suffix].table, results["csv"].table)
    # The system is named after the file, and the provenance holds the file's own sha256.
    assert set(results["parquet"].table["system"]) == {"mine"}
    from stats_mtbias.provenance import sha256_file

    assert sha256_file(tmp_path / "mine.parquet") in str(results["parquet"].provenance)


def test_user_columns_named_like_the_count_tables_own(tmp_path):
    # 'row' and '__row' are the user's keys, not Arrow's bookkeeping; 'n', 'line' and 'part' are refused by name.
    frame = pd.DataFrame({"row": ["1", "2", "2"], "__row": ["x", "x", "y"], "gender": ["female", "male", "male"]})
    counts = count_rows(frame, ["row", "__row", "gender"])
    assert counts[["row", "__row", "gender", "n"]].values.tolist() == [
        ["1", "x", "female", 1],
        ["2", "x", "male", 1],
        ["2", "y", "male", 1],
    ]
    path = tmp_path / "j.csv"
    frame.rename(columns={"row": "line"}).to_csv(path, index=False)
    with pytest.raises(UsageError, match="'line' cannot be counted by under that name"):
        count_rows(path, ["line", "gender"])


# ---------------------------------------------------------------- one dialect (issue 49): Arrow only where it is vouched for


def _no_reference(monkeypatch):
    def refuse(*args):
        raise AssertionError("the reference reader was used where Arrow's counts are vouched for")

    monkeypatch.setattr(counting, "_reference_csv", refuse)


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_arrow_is_trusted_across_blocks_whatever_the_line_ends(tmp_path, monkeypatch, ending):
    frame = _rows(3_000, seed=2)
    path = tmp_path / "j.csv"
    text = frame.to_csv(index=False, lineterminator=ending) + ending * 2  # a BOM, and empty lines at the end
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    monkeypatch.setattr(counting, "CSV_BLOCK_BYTES", 4_093)  # odd: a CRLF is split between two blocks somewhere
    monkeypatch.setattr(counting._io.Tracked, "TAIL", 64)
    _no_reference(monkeypatch)
    pd.testing.assert_frame_equal(count_rows(path, KEYS), _by_hand(frame), check_dtype=False)


def test_spaces_on_the_last_lines_are_read_by_the_reference_reader(tmp_path):
    frame = _rows(500, seed=5)
    path = tmp_path / "j.csv"
    path.write_text(frame.to_csv(index=False) + "  \n\t\n", "utf-8")
    pd.testing.assert_frame_equal(count_rows(path, KEYS), _by_hand(frame), check_dtype=False)


def test_a_line_break_in_a_column_not_counted_keeps_every_line(tmp_path, monkeypatch):
    """A quoted note running over lines: the rows are counted, each at the line it starts on, by either reader."""
    frame = _rows(200, seed=3)
    frame["note"] = ["line one\nline two" if i % 7 == 0 else "plain" for i in range(len(frame))]
    path = tmp_path / "j.csv"
    frame.to_csv(path, index=False)
    text = path.read_text("utf-8")
    starts = [n for n, line in enumerate(text.split("\n")[1:], start=2) if line and not line.startswith("line two")]
    expected = _by_hand(frame)
    expected["line"] = [starts[i - 2] for i in expected["line"]]  # row i's physical line
    got = count_rows(path, KEYS)
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)
    monkeypatch.setattr(counting, "_arrow_csv", lambda *a: None)
    pd.testing.assert_frame_equal(count_rows(path, KEYS), expected, check_dtype=False)


@pytest.mark.parametrize(
    ("text", "problem", "line"),
    [
        (b'item,gender\na,f\nb,"m\nc,f\nd,m\n', "opens here and is never closed", 3),
        (b'item,gender\na,f\nb,m\nc,"f', "opens here and is never closed", 4),
        (b'item,gender\na,"f\nb"\nc,f\n', "column 'gender': a quoted value opens here", 2),  # a label never spans lines
        (b'item,gender\na,"f\nb",m\nc,f\n', "leaving a row of 3 fields where the header has 2", 2),
        (b"item,gender\na,f\n  \nb,m\n", "is an empty line", 3),
        (b"item,gender\na,f\nb,m\0\n", "NUL byte", 3),
        (b"item,gender\r\na,f\r\nb,\xe9\r\n", "Windows-1252", 3),
    ],
)
def test_bad_quotes_and_bytes_named_where_they_are(tmp_path, monkeypatch, text, problem, line):
    monkeypatch.setattr(counting, "CSV_BLOCK_BYTES", 4_096)
    path = tmp_path / "bad.csv"
    path.write_bytes(text)
    with pytest.raises(DataError) as err:
        count_rows(path, ["item", "gender"])
    assert problem in str(err.value) and err.value.line == line, str(err.value)


def test_gzip_is_read_and_a_cut_one_named(tmp_path):
    import gzip

    frame = _rows(2_000, seed=4)
    path = tmp_path / "j.csv.gz"
    data = gzip.compress(frame.to_csv(index=False).encode())
    path.write_bytes(data)
    pd.testing.assert_frame_equal(count_rows(path, KEYS), _by_hand(frame), check_dtype=False)
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(DataError, match="gzip stream breaks off here"):
        count_rows(path, KEYS)


def test_a_damaged_arrow_batch_is_an_error_not_a_crash(tmp_path):
    import io

    buffer = io.BytesIO()
    _rows(20).to_feather(buffer)
    data = bytearray(buffer.getvalue())
    path = tmp_path / "j.arrow"
    for at in range(0, len(data), 7):  # some of these offsets made Arrow abort the process in the group-by
        damaged = bytearray(data)
        damaged[at] ^= 0xFF
        path.write_bytes(bytes(damaged))
        try:
            count_rows(path, KEYS)
        except DataError as exc:
            assert "cannot be read as Arrow IPC" in str(exc) and "\n" not in str(exc)


# -----------------------------------------------------------------------------
# Judgements counted on a Dask cluster (issue 21): a LocalCluster of 2 workers gives the local result, exactly.


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
