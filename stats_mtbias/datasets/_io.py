"""Reading text files line by line with errors that name the file and line.

A user's DataFrame stands where a file would (:class:`FrameSource`): it is read
as the CSV ``frame.to_csv(index=False)`` would be, so an error names the same
"line" (row ``i`` is line ``i + 2``, after the header) for the frame and for the
file, and both give the same tables.
"""

from __future__ import annotations

from pathlib import Path

from stats_mtbias.datasets.sources import FrameSource, as_source, source_sha256  # noqa: F401 (re-exported)
from stats_mtbias.errors import DataError, InputNotFoundError


def read_lines(path: str | Path | FrameSource) -> list[str]:
    """Read a UTF-8 text file into lines, accepting LF or CRLF and a missing final newline.

    A final newline does not make an extra empty line; an empty line anywhere
    else is kept (it is an empty output, to be counted, not dropped).

    Raises
    ------
    DataError
        If the file cannot be read or is not UTF-8 (naming the line of the bad byte).
    """
    if isinstance(path, FrameSource):
        return path.csv_lines()
    path = Path(path)
    if not path.exists():
        raise InputNotFoundError("does not exist", path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror})", path) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})", path, line) from None
    if text == "":
        return []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def parsed_so_far(lines: list[str], delimiter: str) -> list[list[str]]:
    """The rows the csv module reads before its first error (to name the line of the error)."""
    import csv

    out: list[list[str]] = []
    reader = csv.reader(lines, delimiter=delimiter)
    try:
        for row in reader:
            out.append(row)
    except csv.Error:
        pass
    return out


def read_records(
    path: str | Path,
    *,
    delimiter: str = ",",
    required: tuple[str, ...] = (),
    lower: bool = False,
) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """Read a delimited text file into ``(header, [(line number, record), ...])``.

    Every data line becomes one record (a dict keyed by the header) with the
    1-based line number it came from, so later checks can name it. Fields are
    stripped of surrounding spaces; quoting follows the csv module.

    Parameters
    ----------
    path : path
        The file.
    delimiter : str
        Field separator (``","``, ``"\\t"``, ``";"``).
    required : tuple of str
        Columns that must be in the header.
    lower : bool
        Compare header names case-insensitively (and return them lower-cased).

    Raises
    ------
    DataError
        Empty file, missing columns, duplicated column names, an empty line, or a
        line whose number of fields differs from the header's.
    """
    import csv

    path = as_source(path)
    lines = read_lines(path)
    if not lines:
        raise DataError(f"is empty; expected a header with {', '.join(required) or 'columns'}", path, 1)
    try:
        parsed = list(csv.reader(lines, delimiter=delimiter))
    except csv.Error as exc:  # e.g. a bare carriage return inside a field
        raise DataError(f"cannot be read as delimited text ({exc})", path, len(parsed_so_far(lines, delimiter)) + 1) from None
    rows = iter(parsed)
    header = [h.strip() for h in next(rows)]
    if lower:
        header = [h.lower() for h in header]
    duplicated = sorted({h for h in header if header.count(h) > 1})
    if duplicated:
        raise DataError(f"header repeats column(s) {', '.join(duplicated)}", path, 1)
    missing = [c for c in required if c not in header]
    if missing:
        sep = {"\t": "tab", ",": "comma", ";": "semicolon"}.get(delimiter, repr(delimiter))
        raise DataError(f"header lacks column(s) {', '.join(missing)} (found {', '.join(header)}; {sep}-separated)", path, 1)
    records = []
    for number, row in enumerate(rows, start=2):
        if not row or (len(row) == 1 and not row[0].strip()):
            raise DataError("is an empty line inside the table", path, number)
        if len(row) != len(header):
            raise DataError(f"has {len(row)} fields, the header has {len(header)}", path, number)
        records.append((number, {h: value.strip() for h, value in zip(header, row)}))
    return header, records



def read_frame(
    path: str | Path,
    *,
    delimiter: str = ",",
    required: tuple[str, ...] = (),
    lower: bool = False,
):
    """:func:`read_records` as a frame of strings (and a ``line`` column), parsed by Arrow's C++ CSV reader.

    The same header, values (stripped) and line numbers as :func:`read_records`, at C++
    speed: a million rows in a second instead of a Python dict per row. Anything the
    fast reader cannot vouch for — a missing or non-UTF-8 file, a bad header, an empty
    line, a row with too few or too many fields, a line break inside a quoted field —
    is left to :func:`read_records`, which raises its own error naming the file and line
    (or, for a quoted line break, reads it as it always has).

    Returns
    -------
    tuple
        ``(header, frame)``: the header as :func:`read_records` gives it, and one row per
        record with those columns (strings) and ``line``.
    """
    import csv

    import numpy as np
    import pandas as pd
    import pyarrow as pa
    from pyarrow import csv as pacsv

    source = as_source(path)

    def slow():
        header, records = read_records(source, delimiter=delimiter, required=required, lower=lower)
        return header, pd.DataFrame([{**r, "line": n} for n, r in records], columns=[*header, "line"])

    if isinstance(source, FrameSource) or not Path(source).is_file():
        return slow()
    try:
        with open(source, encoding="utf-8-sig", newline="") as f:
            first = next(csv.reader([f.readline()], delimiter=delimiter))
        width = len(first)
        table = pacsv.read_csv(
            source,
            read_options=pacsv.ReadOptions(autogenerate_column_names=True),
            parse_options=pacsv.ParseOptions(delimiter=delimiter, newlines_in_values=True, ignore_empty_lines=False),
            convert_options=pacsv.ConvertOptions(column_types={f"f{i}": pa.string() for i in range(width)},
                                                 strings_can_be_null=False, quoted_strings_can_be_null=False),
        )  # fmt: skip
    except (OSError, ValueError, StopIteration, csv.Error, pa.ArrowException):  # the slow reader says what
        return slow()
    if table.num_columns != width or table.num_rows == 0:
        return slow()
    import pyarrow.compute as pc

    columns = [table.column(i).combine_chunks() for i in range(width)]
    header = [str(c[0].as_py()).strip() for c in columns]
    if lower:
        header = [h.lower() for h in header]
    body = [pc.utf8_trim_whitespace(c.slice(1)) for c in columns]  # strip, in C++
    empty = np.ones(table.num_rows - 1, dtype=bool)
    broken = np.zeros(table.num_rows - 1, dtype=bool)
    for raw, column in zip(columns, body):
        empty &= pc.equal(column, "").to_numpy(zero_copy_only=False)
        broken |= pc.match_substring_regex(raw.slice(1), "[\\r\\n]").to_numpy(zero_copy_only=False)
    if len(set(header)) != len(header) or any(c not in header for c in required) or empty.any() or broken.any():
        return slow()  # its error (a repeated or missing column, an empty line), or its own reading
    frame = pa.table(dict(zip(header, body))).to_pandas()
    frame["line"] = np.arange(len(frame)) + 2
    return header, frame
