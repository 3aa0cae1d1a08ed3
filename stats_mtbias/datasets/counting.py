"""Judgements counted as they stream, never held: CSV, Parquet, Arrow IPC, DataFrames and Dask.

Every estimator of the package reads count tables, which are small (one row per
combination of the keys), while the judgements behind them can be huge (LLM
audits over prompts × models × languages × samples, production logs). This
module reduces any judgement source to its count table without holding its rows:

- **Arrow.** Files are read by pyarrow in record batches (CSV with its
  multi-threaded parser, Parquet row groups, Arrow IPC batches); each batch is
  grouped by the key columns in Arrow's C++ hash aggregation into
  ``keys → (n, first row)``, and the partial tables are merged as they come.
  Memory is bounded by the number of cells and the batch size, not the rows.
- **Dask.** A ``dask.dataframe`` (or ``engine="dask"`` with a path pattern) is
  reduced partition by partition on the workers with the same function, and only
  the partial count tables travel back (a map-reduce of counts). Counts are
  integers: the result is the local one, exactly, whatever the partitioning.
- **Validation on distinct values.** Labels are checked, stripped and mapped on
  the count table (a few hundred distinct values), not per row; every cell keeps
  the first line it came from, so a bad label is reported at the first line that
  holds it, as the row-by-row readers did.
- **One dialect.** A CSV is read as every reader of the package reads it
  (:mod:`stats_mtbias.datasets._io`): Arrow's counts are kept only where the file
  vouches for them (UTF-8 throughout, one line per row, no quoted key running
  over lines, the last quote closed: :class:`~stats_mtbias.datasets._io.Tracked`);
  otherwise the reference reader streams the file, counting the same rows or
  naming the line that is wrong (an unbalanced quote, a blank line, bad bytes,
  a truncated gzip file).

Lines follow the convention of :mod:`stats_mtbias.datasets._io`: row ``i``
(0-based) of a table is line ``i + 2`` of its CSV (line 1 is the header), for
CSV files, frames and columnar files alike. Where a source has several files
(a directory, a glob, Dask partitions) the column ``part`` says which.

>>> frame = pd.DataFrame({"item": ["a", "a", "b", "a"], "gender": ["f", "f", "m", " f "]})
>>> count_rows(frame, ["item", "gender"])
  item gender  n  line
0    a      f  3     2
1    b      m  1     4
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from stats_mtbias.datasets import _io, harness
from stats_mtbias.datasets.sources import (  # noqa: F401 (re-exported: the counting API)
    IPC_SUFFIXES,
    PARQUET_SUFFIXES,
    FrameSource,
    as_counting_source,
    as_source,
    is_dask_frame,
    source_digest,
    source_label,
    source_stem,
)
from stats_mtbias.datasets.sources import (
    files as source_files,
)
from stats_mtbias.errors import DataError, MtbiasError, UsageError, one_line

ENGINES = ("auto", "arrow", "dask")
# A batch of CSV bytes (pyarrow's block): large enough to keep its parser busy, small enough to bound memory.
CSV_BLOCK_BYTES = 16 << 20
# Partial count tables are merged once they hold this many rows (the cells of several batches).
MERGE_ROWS = 2_000_000
RESERVED = ("n", "line", "part")  # the count table's own columns beside the keys
# Rows of the reference reader's blocks (when Arrow's counts are not vouched for).
PYTHON_BLOCK_ROWS = 1 << 16


def _match_columns(
    header: Sequence[str],
    columns: Sequence[str],
    required: Sequence[str],
    *,
    case_insensitive: bool,
    where,
    delimiter: str | None = None,
) -> dict[str, str]:
    """``{wanted name: name in the source}`` for the wanted columns present; a missing required one is an error."""
    names = [str(h).strip() for h in header]
    keyed = [n.lower() for n in names] if case_insensitive else names
    duplicated = sorted({k for k in keyed if keyed.count(k) > 1})
    if duplicated:
        raise DataError(f"header repeats column(s) {', '.join(duplicated)}", where, 1)
    missing = [c for c in required if (c.lower() if case_insensitive else c) not in keyed]
    if missing:
        sep = {"\t": "tab", ",": "comma", ";": "semicolon"}.get(delimiter or "", None)
        found = ", ".join(names) + (f"; {sep}-separated" if sep else "")
        raise DataError(f"header lacks column(s) {', '.join(missing)} (found {found})", where, 1)
    out = {}
    for column in columns:
        key = column.lower() if case_insensitive else column
        if key in keyed:
            out[column] = header[keyed.index(key)]
    return out


def _keys(count: int) -> list[str]:
    """Arrow-side names of the key columns: positional, so a user's column called ``n`` or ``row`` cannot clash."""
    return [f"__key{i}" for i in range(count)]


def _reduce(table, names: list[str], offset: int, lines=None):
    """One batch → ``__key0…, n, row`` (row: the first 0-based row of each cell) in Arrow's hash aggregation.

    With `lines` (the line each row starts on, where a row may run over several) ``row`` is ``line - 2``,
    so that the count table's ``line`` (``row + 2``) is the line the row starts on.
    """
    import pyarrow as pa

    keys = _keys(len(names))
    if lines is None:
        rows = pa.array(np.arange(offset, offset + table.num_rows, dtype=np.int64))
    else:
        rows = pa.array(np.asarray(lines, dtype=np.int64) - 2)
    table = table.select(names).rename_columns(keys).append_column("__row", rows)
    out = table.group_by(keys, use_threads=False).aggregate([([], "count_all"), ("__row", "min")])
    return out.rename_columns([*keys, "n", "row"])


def _merge(tables: list, names: list[str]):
    """Partial count tables → one (sums of n, first rows)."""
    import pyarrow as pa

    if len(tables) == 1:
        return tables[0]
    keys = _keys(len(names))
    table = pa.concat_tables(tables, promote_options="permissive")
    out = table.group_by(keys, use_threads=False).aggregate([("n", "sum"), ("row", "min")])
    return out.rename_columns([*keys, "n", "row"])


def _as_strings(table, names: list[str]):
    """Every key column as UTF-8 strings (numbers and dictionaries cast), missing values as ``""``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    keys = _keys(len(names))
    columns = []
    for key in keys:
        column = table.column(key)
        if pa.types.is_floating(column.type):  # NaN is a missing value, as in a frame's CSV (not the label "nan")
            column = pc.if_else(pc.is_nan(column), pa.scalar(None, column.type), column)
        if not pa.types.is_string(column.type) and not pa.types.is_large_string(column.type):
            column = pc.cast(column, pa.string())
        columns.append(pc.fill_null(column, ""))
    return pa.table([*columns, table.column("n"), table.column("row")], names=[*keys, "n", "row"])


class _Reducer:
    """Accumulates partial count tables of the batches of one part, merging them to bound memory."""

    def __init__(self, names: list[str]):
        self.names, self.partials, self.held, self.rows = names, [], 0, 0

    def add(self, batch, lines=None) -> None:
        import pyarrow as pa

        if batch.num_rows == 0:
            return
        table = pa.Table.from_batches([batch]) if isinstance(batch, pa.RecordBatch) else batch
        part = _as_strings(_reduce(table, self.names, self.rows, lines), self.names)
        self.rows += batch.num_rows
        self.partials.append(part)
        self.held += part.num_rows
        if self.held > MERGE_ROWS:
            merged = _merge(self.partials, self.names)
            self.partials, self.held = [merged], merged.num_rows

    def result(self):
        import pyarrow as pa

        if not self.partials:
            schema = pa.schema([*[(k, pa.string()) for k in _keys(len(self.names))], ("n", pa.int64()), ("row", pa.int64())])
            return schema.empty_table()
        return _merge(self.partials, self.names)


def _csv_header(path: Path, delimiter: str) -> list[str]:
    """The header of a CSV as read (names unstripped, as Arrow names the columns)."""
    rows = _io.iter_rows(path, delimiter)
    try:
        for number, row in rows:
            if row and (len(row) > 1 or row[0].strip()):
                if number > 1:
                    raise DataError("is a blank line before the header (the header must be the first line)", path, 1)
                return row
    finally:
        rows.close()
    raise DataError("is empty; expected a header", path, 1)


def _broken_keys(table, names: list[str]) -> bool:
    """Whether a counted value holds a line break or a NUL (a quote across lines, a damaged file)."""
    import pyarrow.compute as pc

    return any(pc.any(pc.match_substring_regex(table.column(key), "[\\r\\n\\x00]")).as_py() for key in _keys(len(names)))


def _arrow_csv(path: Path, columns: dict[str, str], delimiter: str):
    """Arrow's count table and rows of a CSV, or None where the file does not vouch for them (:class:`_io.Tracked`)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    names = list(columns.values())
    read = pacsv.ReadOptions(block_size=CSV_BLOCK_BYTES, use_threads=True)
    parse = pacsv.ParseOptions(delimiter=delimiter, ignore_empty_lines=True, newlines_in_values=False)
    # Dictionary-encoded per block: the group-by then hashes small integers (about twice as fast as strings).
    convert = pacsv.ConvertOptions(
        include_columns=names,
        column_types={name: pa.dictionary(pa.int32(), pa.string()) for name in names},
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )
    reducer = _Reducer(names)
    try:
        with _io.open_bytes(path) as raw:
            tracked = _io.Tracked(raw)
            for batch in pacsv.open_csv(tracked, read_options=read, parse_options=parse, convert_options=convert):
                reducer.add(batch)
            tracked.read()  # to the end of the file
    except MtbiasError:
        raise
    except Exception:  # whatever Arrow refuses, the reference reader reads or names
        return None
    table = reducer.result()
    if not tracked.trusts(reducer.rows, delimiter) or _broken_keys(table, names):
        return None
    return table, reducer.rows


def _reference_csv(path: Path, columns: dict[str, str], header: list[str], delimiter: str):
    """The count table and rows of a CSV read by the reference reader, streamed (its errors name the line)."""
    import pyarrow as pa

    names = list(columns.values())
    stripped = [h.strip() for h in header]
    index = [stripped.index(name.strip()) for name in names]
    _, rows = _io.open_table(path, delimiter=delimiter, keys=[name.strip() for name in names])
    reducer = _Reducer(names)
    values: list[list[str]] = [[] for _ in names]
    lines: list[int] = []

    def flush() -> None:
        if lines:
            reducer.add(pa.table([pa.array(v, pa.string()) for v in values], names=names), lines=lines)
            for v in values:
                v.clear()
            lines.clear()

    for line, row in rows:
        for column, i in zip(values, index):
            column.append(row[i])
        lines.append(line)
        if len(lines) >= PYTHON_BLOCK_ROWS:
            flush()
    flush()
    return reducer.result(), reducer.rows


def _count_csv(path: Path, columns: list[str], required, case_insensitive: bool):
    """``(column map, count table, rows)`` of a CSV file: Arrow's where the file vouches for it, else the reference's."""
    delimiter = _io.delimiter_of(path)
    header = _csv_header(path, delimiter)
    mapping = _match_columns(header, columns, required, case_insensitive=case_insensitive, where=path, delimiter=delimiter)
    counted = _arrow_csv(path, mapping, delimiter)
    if counted is None:
        counted = _reference_csv(path, mapping, header, delimiter)
    return mapping, *counted


def _columnar_kind(path: Path) -> str:
    return "Parquet" if path.suffix.lower() in PARQUET_SUFFIXES else "Arrow IPC"


def _check_types(schema, mapping: dict[str, str], path: Path) -> None:
    """A counted column must hold text, numbers or the like: a list or struct column is named, not a crash."""
    import pyarrow as pa

    for wanted, name in mapping.items():
        kind = schema.field(name).type
        if pa.types.is_nested(kind) or pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
            raise DataError(f"column {wanted!r} holds {kind} values, where text (or numbers) are expected", path, 1)


def _file_batches(path: Path, columns: list[str] | None, *, required, case_insensitive):
    """(column map, batch iterator) of one Parquet or Arrow IPC file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        if path.suffix.lower() in PARQUET_SUFFIXES:
            schema = pq.read_schema(path)
            mapping = _match_columns(schema.names, columns, required, case_insensitive=case_insensitive, where=path)
            _check_types(schema, mapping, path)
            # Read as dictionaries (one per batch): grouping their indices is several times faster than strings.
            handle = pq.ParquetFile(path, read_dictionary=list(mapping.values()))
            return mapping, handle.iter_batches(columns=list(mapping.values()), batch_size=1 << 20)
        try:
            reader = pa.ipc.open_file(path)
            batches = (reader.get_batch(i) for i in range(reader.num_record_batches))
        except pa.ArrowInvalid:
            reader = pa.ipc.open_stream(path)
            batches = iter(reader)
        mapping = _match_columns(reader.schema.names, columns, required, case_insensitive=case_insensitive, where=path)
        _check_types(reader.schema, mapping, path)
        return mapping, (b.select(list(mapping.values())) for b in batches)
    except MtbiasError:
        raise
    except (pa.ArrowException, OSError, EOFError, ValueError, KeyError, IndexError) as exc:
        raise DataError(f"cannot be read as {_columnar_kind(path)} ({one_line(exc)})", path) from None


def _frame_table(frame: pd.DataFrame, mapping: dict[str, str]):
    """A pandas frame's wanted columns as Arrow strings, read as its CSV would be (missing values: ``""``)."""
    import pyarrow as pa

    arrays = []
    for name in mapping.values():
        column = frame[name]
        arrays.append(pa.array(column.astype(str).where(column.notna(), ""), type=pa.string()))
    return pa.table(arrays, names=list(mapping.values()))


def _finish(table, mapping: dict[str, str], part: int | None) -> pd.DataFrame:
    """Arrow count table → pandas, renamed to the wanted names, stripped (cells merged after), lines numbered."""
    frame = table.to_pandas()
    line = frame.pop("row") + 2  # before the keys get their names (one may be "row")
    names = list(mapping)
    frame = frame.rename(columns=dict(zip(_keys(len(names)), names, strict=True)))
    for name in names:
        frame[name] = frame[name].str.strip()
    frame["line"] = line
    if part is not None:
        frame["part"] = part
    return frame


def _pandas_merge(frames: list[pd.DataFrame], names: list[str]) -> pd.DataFrame:
    """Cells equal after stripping (or from several parts) merged: n summed, the first (part, line) kept."""
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    order = ["part", "line"] if "part" in frame else ["line"]
    frame = frame.sort_values(order, kind="stable")
    if not names:
        return frame.iloc[:1].assign(n=frame["n"].sum()).reset_index(drop=True)
    grouped = frame.groupby(names, sort=False, dropna=False)
    first = grouped[order].first()
    out = first.assign(n=grouped["n"].sum()).reset_index()
    return out.sort_values(order, kind="stable").reset_index(drop=True)[[*names, "n", *order]]


def _reduce_partition(frame: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """Dask's map step: one partition → its count table (same reduction as the local path)."""
    mapping = {n: n for n in names}
    table = _as_strings(_reduce(_frame_table(frame, mapping), names, 0), names)
    return _finish(table, mapping, None)


def _count_dask(ddf, mapping: dict[str, str]) -> tuple[pd.DataFrame, int]:
    import dask

    names = list(mapping.values())
    parts = ddf[names].to_delayed()
    reduced = dask.compute(*[dask.delayed(_reduce_partition)(part, names) for part in parts])
    frames = [frame.assign(part=i) for i, frame in enumerate(reduced)]
    rows = int(sum(int(f["n"].sum()) for f in frames))
    frames = [f.rename(columns={v: k for k, v in mapping.items()}) for f in frames]
    return _pandas_merge(frames, list(mapping)), rows


def _dask_frame(source: str):
    """A remote path or pattern (``s3://…``, read by Dask through fsspec on the workers) as a dask frame."""
    import dask.dataframe as dd

    suffix = Path(source.split("?")[0].rstrip("/")).suffix.lower()
    if suffix == ".csv":
        return dd.read_csv(source, dtype=str, keep_default_na=False)
    return dd.read_parquet(source)


def _count_file(file: Path, columns: list[str], required, case_insensitive: bool, part: int | None):
    """One file streamed to its count table: ``(column map, table, rows)`` (the map step on a Dask worker)."""
    import pyarrow as pa

    if harness.is_jsonl(file) or harness.log_kind(file) is not None:  # a glob's JSON lines or harness logs: read whole
        frame = as_source(file).frame
        mapping = _match_columns(list(map(str, frame.columns)), columns, required, case_insensitive=case_insensitive, where=file)
        reducer = _Reducer(list(mapping.values()))
        if len(frame):
            reducer.add(_frame_table(frame, mapping))
        return mapping, _finish(reducer.result(), mapping, part), reducer.rows
    if file.suffix.lower() not in (*PARQUET_SUFFIXES, *IPC_SUFFIXES):
        mapping, table, rows = _count_csv(file, columns, required, case_insensitive)
        return mapping, _finish(table, mapping, part), rows
    mapping, batches = _file_batches(file, columns, required=required, case_insensitive=case_insensitive)
    reducer = _Reducer(list(mapping.values()))
    try:
        for batch in batches:
            # Checked whole before use (offsets, UTF-8): a damaged IPC batch is read without checks, and its
            # out-of-bounds offsets would abort the process in the group-by, beyond any error handling.
            batch.validate(full=True)
            reducer.add(batch)
        table = reducer.result()
    except MtbiasError:
        raise
    except (pa.ArrowException, OSError, EOFError, ValueError, KeyError, IndexError) as exc:  # a damaged page or batch
        raise DataError(f"cannot be read as {_columnar_kind(file)} ({one_line(exc)})", file) from None
    return mapping, _finish(table, mapping, part), reducer.rows


def count_rows(
    source: Any,
    columns: Sequence[str],
    *,
    required: Sequence[str] = (),
    case_insensitive: bool = False,
    engine: str = "auto",
) -> pd.DataFrame:
    """Count the rows of a judgement source by the values of ``columns``, streaming.

    Parameters
    ----------
    source : path, glob pattern, DataFrame or dask DataFrame
        A CSV (``.tsv``: tab-separated), Parquet or Arrow IPC/Feather file; a
        directory or glob of such files (read one after another); a pandas
        frame; or a ``dask.dataframe.DataFrame``.
    columns : sequence of str
        The columns to count by; those absent from the source are left out of the
        result (the caller gives them defaults).
    required : sequence of str
        Columns that must be present.
    case_insensitive : bool
        Match column names regardless of case.
    engine : {"auto", "arrow", "dask"}
        ``"dask"`` reduces partitions on the active Dask scheduler (a
        ``distributed.Client`` if one is connected); ``"auto"`` uses Dask for a
        dask frame and Arrow otherwise.

    Returns
    -------
    DataFrame
        One row per distinct combination of the present ``columns`` (values as
        stripped strings, missing as ``""``), with ``n`` (rows) and ``line`` (the
        first line holding it; with ``part``, the file or partition, where there
        are several), in order of first appearance. ``attrs["rows"]`` is the
        number of rows read (``n`` sums to it) and ``attrs["columns"]`` the
        columns found.

    Raises
    ------
    DataError
        A missing or repeated column, a malformed line (named), a row with every
        wanted field empty (an empty line), an unreadable file.
    """
    if engine not in ENGINES:
        raise UsageError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    columns = list(dict.fromkeys(columns))
    taken = [c for c in columns if c in RESERVED]
    if taken:
        raise UsageError(
            f"column {taken[0]!r} cannot be counted by under that name: the count table's own columns are "
            f"{', '.join(RESERVED)}; rename it in the data (e.g. {taken[0] + '_id'!r})"
        )
    dask_input = is_dask_frame(source)
    if engine == "arrow" and dask_input:
        raise UsageError("a dask DataFrame is counted with engine='dask' (or 'auto')")
    if isinstance(source, FrameSource):
        source = source.frame
    remote = isinstance(source, str) and "://" in source
    if dask_input or (engine == "dask" and remote):
        ddf = source if dask_input else _dask_frame(source)
        mapping = _match_columns(
            list(ddf.columns), columns, required, case_insensitive=case_insensitive, where=source_label(source)
        )
        counts, rows = _count_dask(ddf, mapping)
    elif isinstance(source, pd.DataFrame):
        mapping = _match_columns(
            list(map(str, source.columns)), columns, required, case_insensitive=case_insensitive, where="DataFrame"
        )
        reducer = _Reducer(list(mapping.values()))
        if len(source):
            reducer.add(_frame_table(source, mapping))
        counts, rows = _pandas_merge([_finish(reducer.result(), mapping, None)], list(mapping)), reducer.rows
    else:
        files = source_files(source)
        several = len(files) > 1
        if engine == "dask":  # a map-reduce over the files: each worker streams its files through Arrow
            import dask

            tasks = [
                dask.delayed(_count_file)(f, columns, required, case_insensitive, i if several else None)
                for i, f in enumerate(files)
            ]
            results = dask.compute(*tasks)
        else:
            results = [_count_file(f, columns, required, case_insensitive, i if several else None) for i, f in enumerate(files)]
        mapping = results[0][0]
        for file, (file_mapping, _, _) in zip(files, results, strict=True):
            if set(file_mapping) != set(mapping):
                raise DataError(f"has columns {', '.join(file_mapping)} where {files[0]} has {', '.join(mapping)}", file, 1)
        counts = _pandas_merge([frame for _, frame, _ in results], list(mapping))
        rows = sum(n for _, _, n in results)
        if several:
            counts.attrs["files"] = [str(f) for f in files]
    names = list(mapping)
    if names and len(counts):
        empty = (counts[names] == "").all(axis=1).to_numpy()
        if empty.any():
            first = counts[empty].iloc[0]
            raise DataError(
                f"is an empty line inside the table (every field of {', '.join(names)} empty)",
                _where(counts, first, source),
                int(first["line"]),
            )
    counts.attrs["rows"] = int(rows)
    counts.attrs["columns"] = names
    return counts


def _where(counts: pd.DataFrame, row: pd.Series, source: Any) -> str:
    """The file (or partition) a count row's first line is in, for messages."""
    if "part" in row and "files" in counts.attrs:
        return counts.attrs["files"][int(row["part"])]
    if "part" in row:
        return f"{source_label(source)} partition {int(row['part'])}"
    return source_label(source) if not isinstance(source, pd.DataFrame) else "DataFrame"


def first_location(counts: pd.DataFrame, mask, source: Any) -> tuple[str, int]:
    """``(file, line)`` of the first row of ``counts`` selected by ``mask`` (for an error message)."""
    selected = counts[np.asarray(mask)]
    order = ["part", "line"] if "part" in selected else ["line"]
    row = selected.sort_values(order).iloc[0]
    return _where(counts, row, source), int(row["line"])
