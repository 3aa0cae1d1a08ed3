"""Reading text and delimited files: one dialect for every reader, and errors that name the file and line.

**The dialect.** Every CSV/TSV reader of the package — the row-by-row ones
(:func:`read_records`, :func:`open_table`) and the fast Arrow ones
(:func:`read_frame`, :func:`stats_mtbias.datasets.counting.count_rows`) — reads a
file the same way:

- UTF-8, with or without a byte-order mark; LF, CRLF or CR line ends. A
  gzip-compressed file (``judgements.csv.gz``, recognised by its first bytes) is
  read as what it holds.
- Comma-separated (tab-separated for ``.tsv``/``.tab`` and the formats that say
  so); the first line is the header. Values are stripped of surrounding spaces.
- Quoting as in RFC 4180 and Python's csv module: a field that starts with ``"``
  is quoted; inside it ``""`` is one quote and the delimiter or a line break is
  text. Text after a closing quote is kept (``"ab"c`` reads ``abc``), as pandas,
  Arrow and spreadsheets read it.
- A quoted value may run over several lines only in a free-text column
  (``translation``, ``source``, or a column the reader does not use) and over at
  most :data:`MAX_QUOTED_LINES` lines. A quote that is never closed, that runs
  over more lines, over lines of a key or label column, or that leaves its row
  with a wrong number of fields is an unbalanced quote: a
  :class:`~stats_mtbias.errors.DataError` naming the line where it opened,
  never a silently swallowed rest of the file.
- Blank (or whitespace-only) lines at the end are ignored; one inside the table
  is an error naming it. Bytes that are not UTF-8, a NUL byte, a truncated gzip
  stream: errors naming the line.

Every record keeps the line it starts on, so every later check names the line an
editor shows. A user's DataFrame stands where a file would (:class:`FrameSource`):
it is read as the CSV ``frame.to_csv(index=False)`` would be, row ``i`` is line
``i + 2`` (after the header), and both give the same tables.

The fast readers use Arrow's C++ parser only where the file proves it reads the
same as the reference reader here (:class:`Tracked`: UTF-8 throughout, no NUL,
one line per row, the last row's quotes closed); anything else is read — or
refused, with its line — by the reference reader.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import gzip
import io
import re
import sys
import warnings
import zlib
from collections.abc import Collection, Iterator
from pathlib import Path

from stats_mtbias.datasets.sources import FrameSource, as_source, source_sha256  # noqa: F401 (re-exported)
from stats_mtbias.errors import DataError, DataQualityWarning, InputNotFoundError

#: The most lines one quoted value may run over (a paragraph of free text); more is an unbalanced quote.
MAX_QUOTED_LINES = 50
#: Columns of free text, where a quoted value may run over lines even when the reader uses them.
FREE_TEXT = ("translation", "source")
GZIP_MAGIC = b"\x1f\x8b"
_FIELD_LIMIT = min(sys.maxsize, 2**31 - 1)  # no limit on a field's length (a long output is not an error)
_GZIP_ERRORS = (EOFError, gzip.BadGzipFile, zlib.error)
_HINT = 'an unbalanced double quote? Close the quote on its line, or write a quote inside a value as ""'


def delimiter_of(path) -> str:
    """The delimiter a file's name implies: tab for ``.tsv``/``.tab`` (also gzip-compressed), else comma."""
    name = Path(str(path)).name.lower().removesuffix(".gz")
    return "\t" if name.endswith((".tsv", ".tab")) else ","


@contextlib.contextmanager
def open_bytes(path: str | Path):
    """A file's bytes as a stream, decompressed when it is gzip (its first bytes say so: no UTF-8 text starts with
    them); a missing or unreadable file named. Nothing is sought back: a pipe is read as it comes."""
    path = Path(path)
    if not path.exists():
        raise InputNotFoundError("does not exist", path)
    try:
        handle = open(path, "rb")  # closed below, after the caller is done
    except OSError as exc:
        raise DataError(f"cannot read the file ({exc.strerror or exc})", path) from None
    with handle:
        try:
            magic = handle.peek(2)[:2]
        except OSError as exc:
            raise DataError(f"cannot read the file ({exc.strerror or exc})", path) from None
        if magic == GZIP_MAGIC:
            with gzip.GzipFile(fileobj=handle, mode="rb") as unpacked:
                yield unpacked
        else:
            yield handle


def _byte_lines(raw) -> Iterator[bytes]:
    """Lines of a binary stream split as text is (at LF, CRLF and a lone CR), with their line ends."""
    for chunk in raw:
        if b"\r" in chunk:
            yield from (piece for piece in re.split(rb"(?<=\r)(?!\n)", chunk) if piece)
        else:
            yield chunk


def _utf8_problem(path: Path) -> DataError:
    """Name the first byte that is not UTF-8: its line, column and what the file probably is."""
    try:
        return _find_bad_utf8(path)
    except _GZIP_ERRORS as exc:  # a damaged gzip stream gave the bad bytes
        return _gzip_problem(path, exc)


def _find_bad_utf8(path: Path) -> DataError:
    with open_bytes(path) as raw:
        head = raw.read(4)
        if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
            return DataError("is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8: save it as UTF-8", path, 1)
    with open_bytes(path) as raw:
        for number, line in enumerate(_byte_lines(raw), start=1):
            if number == 1:
                line = line.removeprefix(codecs.BOM_UTF8)
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as exc:
                column = len(line[: exc.start].decode("utf-8", "replace")) + 1
                if exc.reason == "unexpected end of data":
                    what = "the file ends inside a character (truncated?)"
                else:
                    try:
                        text = line.decode("cp1252").rstrip("\r\n")
                        around = text[max(0, column - 20) : column + 20]
                        what = f"it reads as Windows-1252/Latin-1 there ({around!r}): save the file as UTF-8"
                    except UnicodeDecodeError:
                        what = "save the file as UTF-8"
                return DataError(
                    f"not valid UTF-8: byte 0x{line[exc.start]:02x} at column {column} ({exc.reason}); {what}", path, number
                )
    return DataError("not valid UTF-8", path)


def _gzip_problem(path: Path, exc: Exception) -> DataError:
    """Name the line where a gzip stream breaks off (the last one it gives)."""
    lines = 0
    try:
        with open_bytes(path) as raw:
            for _ in _byte_lines(raw):
                lines += 1
    except _GZIP_ERRORS:
        pass
    if isinstance(exc, EOFError):
        what = "the gzip stream breaks off here, before its end: the file is truncated"
    else:
        what = f"the gzip stream is damaged here ({exc})"
    return DataError(what, path, max(lines, 1))


def _nul(path: Path, number: int, line: str) -> DataError:
    column = line.index("\0") + 1
    kind = (
        "UTF-16 without a byte-order mark, or a binary file? save it as UTF-8 text"
        if number == 1
        else "a binary or damaged file? a text file has none"
    )
    return DataError(f"has a NUL byte (0x00) at column {column}: {kind}", path, number)


def text_lines(path: str | Path) -> Iterator[str]:
    """The lines of a UTF-8 text file with their line ends (a BOM removed, gzip decompressed), streamed.

    Raises
    ------
    DataError
        Naming the line: bytes that are not UTF-8 (and what the file seems to be), a
        NUL byte, a gzip stream that breaks off; a file that cannot be read.
    """
    path = Path(path)
    with open_bytes(path) as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
        number = 0
        try:
            for line in text:
                number += 1
                if "\0" in line:
                    raise _nul(path, number, line)
                yield line
        except UnicodeDecodeError:
            raise _utf8_problem(path) from None
        except _GZIP_ERRORS as exc:
            raise _gzip_problem(path, exc) from None
        except OSError as exc:
            raise DataError(f"cannot read the file ({exc.strerror or exc})", path, number + 1) from None


def read_lines(path: str | Path | FrameSource) -> list[str]:
    """Read a UTF-8 text file into lines, accepting LF, CRLF or CR, a BOM, gzip and a missing final newline.

    A final newline does not make an extra empty line; an empty line anywhere
    else is kept (it is an empty output, to be counted, not dropped).

    Raises
    ------
    DataError
        If the file cannot be read, is not UTF-8 (naming the line of the bad byte),
        holds a NUL byte or is a truncated gzip file.
    """
    if isinstance(path, FrameSource):
        return path.csv_lines()
    return [line.rstrip("\r\n") for line in text_lines(path)]


# ---------------------------------------------------------------- records


def _breaks(text: str) -> int:
    """Line breaks in `text` (LF, CRLF and a lone CR each count one)."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def quoted_fields(text: str, delimiter: str) -> list[tuple[int, int, int | None]]:
    """``(field index, opening quote, closing quote or None)`` of each quoted field of a record's raw text.

    As the csv module reads: a quote opens a field only as its first character;
    ``""`` inside is one quote; after the closing quote the field goes on, unquoted,
    to the next delimiter. ``None``: the quote is never closed.

    >>> quoted_fields('a,"b, ""c"" d",e', ",")
    [(1, 2, 13)]
    >>> quoted_fields('a,"b\\nc,d', ",")
    [(1, 2, None)]
    """
    out: list[tuple[int, int, int | None]] = []
    i, n, field = 0, len(text), 0
    while i < n:
        if text[i] == '"':
            j = i + 1
            while True:
                k = text.find('"', j)
                if k < 0:
                    out.append((field, i, None))
                    return out
                if text.startswith('"', k + 1):
                    j = k + 2
                    continue
                break
            out.append((field, i, k))
            i = k + 1
        d = text.find(delimiter, i)
        if d < 0:
            return out
        i, field = d + 1, field + 1
    return out


def _unclosed(text: str, delimiter: str) -> int | None:
    """Offset of a quote in `text` that is never closed, or None."""
    spans = quoted_fields(text, delimiter)
    return spans[-1][1] if spans and spans[-1][2] is None else None


class _Feed:
    """Lines handed to the csv module one by one, remembering those of the record being read."""

    def __init__(self, lines):
        self.lines, self.count, self.held = iter(lines), 0, []

    def __iter__(self):
        return self

    def __next__(self) -> str:
        line = next(self.lines)
        self.count += 1
        self.held.append(line)
        return line


def _name(names: list[str] | None, field: int) -> str:
    return f" (column {names[field]!r})" if names is not None and field < len(names) else ""


def _check_span(
    path, start: int, lines: list[str], row: list[str], delimiter: str, names: list[str] | None, single: set[int]
) -> None:
    """A record over the physical `lines` from `start`: refuse it, at the line its quote opened, unless it is a fair
    multi-line value (closed, short, in a free-text column, its row whole, and no line of it a row of the table)."""
    text, end = "".join(lines), start + len(lines) - 1
    spans = [s for s in quoted_fields(text, delimiter) if s[2] is None or _breaks(text[s[1] : s[2]])]
    if not spans:
        return
    field, opened, closed = spans[-1] if spans[-1][2] is None else spans[0]
    line = start + _breaks(text[:opened])
    if closed is None:
        raise DataError(
            f"a quoted value{_name(names, field)} opens here and is never closed: it runs to the end of "
            f"the file (line {end}); {_HINT}",
            path,
            line,
        )
    if names is None:
        raise DataError(f"the header has a quoted name that runs over lines {start}–{end}; {_HINT}", path, line)
    if end - start + 1 > MAX_QUOTED_LINES:
        raise DataError(
            f"a quoted value{_name(names, field)} opens here and runs over {end - start + 1} lines, to "
            f"line {end} (a value may span at most {MAX_QUOTED_LINES}); {_HINT}",
            path,
            line,
        )
    if len(row) != len(names):
        raise DataError(
            f"a quoted value{_name(names, field)} opens here and runs over lines {start}–{end}, leaving a "
            f"row of {len(row)} fields where the header has {len(names)}; {_HINT}",
            path,
            line,
        )
    for other, at, _ in spans:
        if other in single:
            raise DataError(
                f"column {names[other]!r}: a quoted value opens here and runs on to line {end}, where "
                f"a value of this column never spans lines; {_HINT}",
                path,
                start + _breaks(text[:at]),
            )
    for number, physical in enumerate(lines[1:], start=start + 1):
        if len(next(csv.reader([physical.rstrip("\r\n")], delimiter=delimiter), [])) == len(names):
            raise DataError(
                f"a quoted value{_name(names, field)} opens here and runs over lines {start}–{end}, taking "
                f"in line {number}, which reads as a row of the table ({len(names)} fields); {_HINT} (A "
                "value meant to hold such lines: save the table as Parquet.)",
                path,
                line,
            )


def iter_rows(
    source, delimiter: str = ",", *, single_line: Collection[str] = (), lower: bool = False
) -> Iterator[tuple[int, list[str]]]:
    """Every record of a delimited file with the line it starts on, the header first (line 1), fields as read.

    The quoting rules of the dialect are checked here (see the module): a record
    running over several lines is refused — at the line its quote opened — when
    the quote is never closed, runs over more than :data:`MAX_QUOTED_LINES` lines,
    leaves a wrong number of fields, or crosses a line in a column of
    `single_line` (header names, stripped; lower-cased with `lower`). Blank lines
    are given as they are (``[]`` or one blank field): the caller decides.
    """
    source = as_source(source)
    if isinstance(source, FrameSource):
        text = source.frame.to_csv(index=False, lineterminator="\n", quoting=csv.QUOTE_ALL)
        for number, row in enumerate(csv.reader(io.StringIO(text, newline="")), start=1):
            yield number, row
        return
    feed = _Feed(text_lines(source))
    previous = csv.field_size_limit(_FIELD_LIMIT)
    try:
        reader = csv.reader(feed, delimiter=delimiter)
        names: list[str] | None = None
        single: set[int] = set()
        last = None
        while True:
            start = feed.count + 1
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                raise DataError(f"cannot be read as delimited text ({exc})", source, feed.count) from None
            if feed.count > start:
                _check_span(source, start, feed.held, row, delimiter, names, single)
            text = "".join(feed.held)
            feed.held.clear()
            if names is None:
                names = [h.strip().lower() if lower else h.strip() for h in row]
                single = {i for i, name in enumerate(names) if name in single_line}
            last = (start, text)
            yield start, row
        if last is not None and (opened := _unclosed(last[1], delimiter)) is not None:
            field = quoted_fields(last[1], delimiter)[-1][0]
            raise DataError(
                f"a quoted value{_name(names, field)} opens here and is never closed: it runs to the end of the file; {_HINT}",
                source,
                last[0] + _breaks(last[1][:opened]),
            )
    finally:
        csv.field_size_limit(previous)


def _blank(row: list[str]) -> bool:
    return not row or (len(row) == 1 and not row[0].strip())


def open_table(
    path,
    *,
    delimiter: str = ",",
    required: tuple[str, ...] = (),
    lower: bool = False,
    keys: Collection[str] = (),
) -> tuple[list[str], Iterator[tuple[int, list[str]]]]:
    """``(header, rows)``: a delimited file's header (checked) and its data rows ``(line, fields)``, streamed.

    Every data line is one row with the line it starts on; fields are as read (not
    stripped). Blank lines at the end are ignored; a blank line inside the table,
    or a row whose number of fields differs from the header's, is an error naming
    its line. `required` and `keys` (a reader's key and label columns) may not hold
    a quoted value running over lines, except the free-text ones (:data:`FREE_TEXT`).

    Raises
    ------
    DataError
        Empty file, missing or repeated columns, a blank line inside the table, a
        row of the wrong width, an unbalanced quote (see the module), bad bytes.
    """
    source = as_source(path)
    fold = (lambda c: c.lower()) if lower else (lambda c: c)
    single = {fold(c) for c in (*required, *keys)} - set(FREE_TEXT)
    rows = iter_rows(source, delimiter, single_line=single, lower=lower)
    blanks: list[int] = []
    header = None
    for number, row in rows:
        if not _blank(row):
            header = row
            break
        blanks.append(number)
    if header is None:
        raise DataError(f"is empty; expected a header with {', '.join(required) or 'columns'}", source, 1)
    if blanks:
        raise DataError("is a blank line before the header (the header must be the first line)", source, blanks[0])
    header = [fold(h.strip()) for h in header]
    duplicated = sorted({h for h in header if header.count(h) > 1})
    if duplicated:
        raise DataError(f"header repeats column(s) {', '.join(duplicated)}", source, 1)
    missing = [c for c in required if c not in header]
    if missing:
        sep = {"\t": "tab", ",": "comma", ";": "semicolon"}.get(delimiter, repr(delimiter))
        raise DataError(f"header lacks column(s) {', '.join(missing)} (found {', '.join(header)}; {sep}-separated)", source, 1)
    width = len(header)

    def body() -> Iterator[tuple[int, list[str]]]:
        pending: list[int] = []  # blank lines seen: an error if a row follows them, nothing at the end
        for number, row in rows:
            if _blank(row):
                pending.append(number)
                continue
            if pending:
                raise DataError("is an empty line inside the table", source, pending[0])
            if len(row) != width:
                raise DataError(f"has {len(row)} fields, the header has {width}", source, number)
            yield number, row

    return header, body()


def read_records(
    path: str | Path,
    *,
    delimiter: str = ",",
    required: tuple[str, ...] = (),
    lower: bool = False,
    keys: Collection[str] = (),
) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """Read a delimited text file into ``(header, [(line number, record), ...])``.

    Every data line becomes one record (a dict keyed by the header) with the
    1-based line number it starts on, so later checks can name it. Fields are
    stripped of surrounding spaces; quoting and the rest follow the module's dialect.

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
    keys : collection of str
        Further columns the reader takes as keys or labels (no value of theirs runs over lines).

    Raises
    ------
    DataError
        Empty file, missing columns, duplicated column names, an empty line, a
        line whose number of fields differs from the header's, an unbalanced quote.
    """
    header, rows = open_table(path, delimiter=delimiter, required=required, lower=lower, keys=keys)
    records = [(number, {h: value.strip() for h, value in zip(header, row)}) for number, row in rows]
    return header, records


# ---------------------------------------------------------------- the fast path


class Tracked(io.RawIOBase):
    """A byte stream for Arrow's CSV reader that checks, as the bytes pass, what Arrow does not.

    It validates UTF-8 and the absence of NUL bytes over the whole file (Arrow checks
    only the columns it converts), counts the lines up to the last one with content,
    and keeps the end of the file. :meth:`trusts` says whether Arrow's rows are the
    reference reader's: every row one line, nothing Arrow would have read
    differently. When it does not, the caller reads the file with :func:`open_table`,
    which reads it or names the line that is wrong.
    """

    TAIL = 1 << 20

    def __init__(self, raw):
        super().__init__()
        self.raw = raw
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.bad = False  # not UTF-8, or a NUL byte
        self.breaks = 0  # line breaks
        self.after = 0  # line breaks after the last byte that is not blank
        self.content = False
        self.cr = False  # the previous block ended with a carriage return
        self.tail = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.raw.read(len(buffer))
        size = len(data)
        buffer[:size] = data
        self._see(data)
        return size

    def _see(self, data: bytes) -> None:
        try:
            self.decoder.decode(data, final=not data)
        except UnicodeDecodeError:
            self.bad = True
        if not data:
            return
        if b"\0" in data:
            self.bad = True
        joined = self.cr and data.startswith(b"\n")  # a CRLF split between two blocks: one break, not two
        count = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n") - joined
        self.breaks += count
        body = data.rstrip(b" \t\r\n")
        if body:
            self.content = True
            rest = data[len(body) :]
            self.after = rest.count(b"\n") + rest.count(b"\r") - rest.count(b"\r\n")
        else:
            self.after += count
        self.cr = data.endswith(b"\r")
        self.tail = (self.tail + data[-self.TAIL :])[-self.TAIL :]

    def lines(self) -> int:
        """Lines up to and including the last one that is not blank."""
        return self.breaks - self.after + 1 if self.content else 0

    def last_line(self) -> str | None:
        """The last line that is not blank, or None when it is longer than the tail kept."""
        body = self.tail.rstrip(b" \t\r\n")
        cut = max(body.rfind(b"\n"), body.rfind(b"\r"))
        if cut < 0 and len(self.tail) >= self.TAIL:
            return None
        return body[cut + 1 :].decode("utf-8", "replace")

    def trusts(self, rows: int, delimiter: str) -> bool:
        """Whether `rows` data rows read by Arrow are the file's rows, one a line, as the reference reader reads them."""
        if self.bad or self.lines() != rows + 1:
            return False
        last = self.last_line()
        return last is not None and _unclosed(last, delimiter) is None


def read_frame(
    path: str | Path,
    *,
    delimiter: str = ",",
    required: tuple[str, ...] = (),
    lower: bool = False,
    keys: Collection[str] = (),
):
    """:func:`read_records` as a frame of strings (and a ``line`` column), parsed by Arrow's C++ CSV reader.

    The same header, values (stripped) and line numbers as :func:`read_records`, at C++
    speed: a million rows in a second instead of a Python dict per row. Anything the
    fast reader cannot vouch for (:class:`Tracked`) — a missing or non-UTF-8 file, a
    bad header, a blank line, a row with too few or too many fields, a line break
    inside a quoted field, an unclosed quote — is left to :func:`read_records`, which
    raises its own error naming the file and line (or, for a fair multi-line value,
    reads it as it always has).

    Returns
    -------
    tuple
        ``(header, frame)``: the header as :func:`read_records` gives it, and one row per
        record with those columns (strings) and ``line``.
    """
    import numpy as np
    import pandas as pd
    import pyarrow as pa
    from pyarrow import csv as pacsv

    source = as_source(path)

    def slow():
        header, records = read_records(source, delimiter=delimiter, required=required, lower=lower, keys=keys)
        return header, pd.DataFrame([{**r, "line": n} for n, r in records], columns=[*header, "line"])

    if isinstance(source, FrameSource) or not Path(source).is_file():
        return slow()
    try:
        rows = iter_rows(source, delimiter)
        _, first = next(rows)
        rows.close()
        width = len(first)
        with open_bytes(source) as raw:
            tracked = Tracked(raw)
            table = pacsv.read_csv(
                tracked,
                read_options=pacsv.ReadOptions(autogenerate_column_names=True),
                parse_options=pacsv.ParseOptions(delimiter=delimiter, newlines_in_values=True, ignore_empty_lines=True),
                convert_options=pacsv.ConvertOptions(
                    column_types={f"f{i}": pa.string() for i in range(width)},
                    strings_can_be_null=False,
                    quoted_strings_can_be_null=False,
                ),
            )
            tracked.read()  # to the end (Arrow may stop short of trailing bytes)
    except Exception:  # whatever Arrow refuses, the reference reader reads or names
        return slow()
    if table.num_columns != width or table.num_rows == 0 or not tracked.trusts(table.num_rows - 1, delimiter):
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


def check_referent(header: Collection[str], referent: str | None, where) -> str | None:
    """The reference column of a table of English outputs (lower-cased), or None: a named column must exist; a
    ``reference`` column in a table not yet read, without `referent`, is said to be ignored (the one rule of every
    reader of English outputs).
    """
    referent = referent.lower() if referent else None
    if referent and referent not in header:
        raise DataError(f"has no reference column {referent!r} (found {', '.join(header)})", where, 1)
    if referent is None and "reference" in header and "gender" not in header:  # read already: nothing to ignore
        warnings.warn(
            f"{where}: column 'reference' is ignored; to read the [bracketed] referent of each reference "
            "translation give referent='reference' (command line: --referent reference)",
            DataQualityWarning,
            stacklevel=3,
        )
    return referent
