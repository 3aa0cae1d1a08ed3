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
