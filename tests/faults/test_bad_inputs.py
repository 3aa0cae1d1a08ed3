"""Damaged files for every documented input format: every row counted, or a clear error naming the file and line.

For each format a command reads (``rates --judgements``, ``tgbi --translations`` as a
CSV and as a directory of text files, ``tgbi --outputs``, ``prates --judgements``,
``optimal --judgements`` / ``--reference``, ``winomt --translations`` /
``--judgements`` / ``--annotations``, ``agreement --labels``, ``read … --outputs`` /
``--judgements``), hypothesis draws a small valid table and one damage of it:
encodings and byte-order marks, line ends, blank and whitespace lines, a huge line,
NaN and values of another type, missing and extra columns and fields, an empty file, a
gzip, Parquet or Arrow file whole or cut short or with bytes flipped, an unbalanced
double quote. Each run, in-process, ends one of two ways:

- exit 0 with every row accounted for (the result's counts add up to the rows given) —
  required where the damage is harmless (a BOM, CRLF, blank lines at the end, gzip, a
  columnar copy, an extra column);
- exit 64/65/66 with a one-line message naming the file, and the line where the damage
  has one (the line where an unbalanced quote opened, the blank line, the bad byte).

Never exit 1 ("a bug"), never a traceback. ``MTBIAS_HYPOTHESIS_EXAMPLES`` draws more.
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import io
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stats_mtbias.cli import main

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

_EXAMPLES = int(os.environ.get("MTBIAS_HYPOTHESIS_EXAMPLES", "0"))


def _settings(examples: int):
    n = _EXAMPLES or examples
    return settings(
        max_examples=n,
        deadline=None,
        derandomize=not _EXAMPLES,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


# ---------------------------------------------------------------- the formats


def _sum(key: str = "n", skip: tuple[str, ...] = ()) -> Callable[[list[dict]], int]:
    return lambda records: sum(int(r[key]) for r in records if r.get("outcome") not in skip)


@dataclass(frozen=True)
class Format:
    """A table format one command reads, its valid rows, and how the result counts them."""

    name: str
    file: str
    header: tuple[str, ...]
    pools: dict  # column → valid values
    argv: Callable[[Path, Path], list]  # (input, data_dir) → arguments
    counted: Callable[[list[dict]], int] | None  # rows the result accounts for, from its JSON records
    key: tuple[str, ...] = ()  # columns whose values must be unique together
    text: tuple[str, ...] = ()  # free-text columns (a long value there is not an error)
    columnar: bool = True  # also read as Parquet / Arrow
    out: bool = False  # a `read` command: the rows are those of its --out CSV
    # Whether a value changed (not a harmless damage) leaves the count as it was: a reference occupation renamed
    # is still read, but no longer matches a judged one, and the view shows judged occupations only.
    recount: bool = True
    extra: dict = field(default_factory=dict)  # further files the command needs: name → text


OCCUPATIONS = ["nurse", "engineer", "teacher", "welder", "clerk", "baker"]
MINE_WINOMT = "item,system,language,gender\n" + "".join(
    f"{i},mine,es,{g}\n" for i, g in enumerate(["male", "female", "male", "female", "male"])
)

FORMATS = {
    f.name: f
    for f in [
        Format(
            "rates judgements",
            "judged.csv",
            ("item", "system", "gender"),
            {"item": [str(i) for i in range(1, 7)], "system": ["a", "b"], "gender": ["male", "female", "neutral"]},
            lambda p, d: ["rates", "--judgements", p, "--n-boot", "100", "--view", "accounting"],
            _sum(),
        ),
        Format(
            "agreement labels",
            "labels.csv",
            ("human", "llm", "language", "note"),
            {
                "human": ["m", "f", "n"],
                "llm": ["m", "f", "n", "error"],
                "language": ["de", "es"],
                "note": ["ok", "She is", "unsure"],
            },
            lambda p, d: ["agreement", "--labels", p, "--a", "human", "--b", "llm", "--by", "language", "--view", "accounting"],
            _sum(),
            text=("note",),
        ),
        Format(
            "tgbi outputs",
            "outputs.csv",
            ("system", "set", "item", "translation"),
            {
                "system": ["a", "b"],
                "set": ["s1", "s2"],
                "item": [f"w{i}" for i in range(8)],
                "translation": ["He is kind.", "She is kind.", "They are kind.", ""],
            },
            lambda p, d: ["tgbi", "--data-dir", d, "--outputs", p, "--view", "accounting"],
            _sum(),
            key=("system", "set", "item"),
            text=("translation",),
        ),
        Format(
            "tgbi translations",
            "mine.csv",
            ("item", "set", "translation"),
            {
                "item": [str(i) for i in range(1, 9)],
                "set": ["positive", "negative"],
                "translation": ["He is kind.", "She is kind.", "They are kind."],
            },
            lambda p, d: [
                "tgbi",
                "--data-dir",
                d,
                "--systems",
                "",
                "--translations",
                p,
                "--system",
                "mine",
                "--view",
                "accounting",
            ],
            _sum(skip=("missing",)),
            key=("item", "set"),
            text=("translation",),
        ),
        Format(
            "prates judgements",
            "mine.csv",
            ("item", "language", "gender"),
            {
                "item": ["Nurse", "Engineer", "Teacher"],
                "language": ["Malay", "Finnish"],
                "gender": ["female", "male", "neutral", "?"],
            },
            lambda p, d: ["prates", "--data-dir", d, "--judgements", p, "--view", "accounting"],
            _sum(),
        ),
        Format(
            "optimal judgements",
            "mine.csv",
            ("occupation", "gender"),
            {"occupation": OCCUPATIONS, "gender": ["female", "male"]},
            lambda p, d: [
                "optimal",
                "--data-dir",
                d,
                "--judgements",
                p,
                "--reference",
                p.parent / "ref.csv",
                "--n-boot",
                "100",
                "--view",
                "judgements",
            ],
            _sum(),
            extra={"ref.csv": "occupation,female_share\n" + "".join(f"{o},0.5\n" for o in OCCUPATIONS)},
        ),
        Format(
            "optimal reference",
            "ref.csv",
            ("occupation", "female_share"),
            {"occupation": OCCUPATIONS, "female_share": ["0.1", "0.5", "0.93"]},
            lambda p, d: [
                "optimal",
                "--data-dir",
                d,
                "--judgements",
                p.parent / "judged.csv",
                "--reference",
                p,
                "--n-boot",
                "100",
                "--view",
                "occupations",
            ],
            lambda records: sum(bool(r["bls_line"]) for r in records),
            key=("occupation",),  # 0: not in it
            recount=False,
            extra={"judged.csv": "occupation,gender\n" + "".join(f"{o},male\n" for o in OCCUPATIONS)},
        ),
        Format(
            "winomt judgements",
            "mine.csv",
            ("item", "system", "language", "gender"),
            {
                "item": [str(i) for i in range(8)],
                "system": ["a"],
                "language": ["es"],  # (systems share items)
                "gender": ["male", "female", "neutral"],
            },
            lambda p, d: [
                "winomt",
                "--data-dir",
                d,
                "--systems",
                "",
                "--judgements",
                p,
                "--no-adjectives",
                "--n-boot",
                "100",
                "--view",
                "accounting",
            ],
            _sum(skip=("missing",)),
            key=("item", "system", "language"),
        ),
        Format(
            "winomt annotations",
            "labels.csv",
            ("item", "system", "language", "gender"),
            {"item": [str(i) for i in range(5)], "system": ["mine"], "language": ["es"], "gender": ["M", "F", "N"]},
            lambda p, d: [
                "winomt",
                "--data-dir",
                d,
                "--systems",
                "",
                "--judgements",
                p.parent / "readings.csv",
                "--annotations",
                p,
                "--no-adjectives",
                "--n-boot",
                "100",
                "--view",
                "annotations",
            ],
            _sum("n_labelled"),
            key=("item", "system", "language"),
            extra={"readings.csv": MINE_WINOMT},
        ),
        Format(
            "read prates judgements",
            "outputs.csv",
            ("item", "language", "translation"),
            {
                "item": ["Nurse", "Engineer"],
                "language": ["Malay", "Finnish"],
                "translation": ["She is a nurse.", "He is an engineer.", "They are a clerk."],
            },
            lambda p, d: ["read", "prates", "--judgements", p, "--out", p.parent / "judged.csv"],
            None,
            text=("translation",),
            out=True,
        ),
        Format(
            "read tgbi outputs",
            "outputs.csv",
            ("system", "set", "item", "translation"),
            {
                "system": ["a"],
                "set": ["s1", "s2"],
                "item": [f"w{i}" for i in range(6)],
                "translation": ["He is kind.", "She is kind."],
            },
            lambda p, d: ["read", "tgbi", "--outputs", p, "--out", p.parent / "judged.csv"],
            None,
            key=("system", "set", "item"),
            text=("translation",),
            out=True,
        ),
    ]
}


# ---------------------------------------------------------------- damages


@dataclass
class Damaged:
    """A damaged input: its files, what a run may end in, and the line an error must name (if any)."""

    files: dict[str, bytes]  # name → bytes (the first is the input, or its directory's first file)
    rows: int  # rows of the table
    harmless: bool = False  # must end in exit 0 with every row counted
    line: int | None = None  # an error must name this line
    error: bool = False  # must end in an error
    target: str | None = None  # the argument: a file name (default the first) or a directory or glob


def _csv(header, rows, *, quoting=csv.QUOTE_MINIMAL) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n", quoting=quoting)
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def _columnar(header, rows, kind: str, change=None) -> bytes:
    frame = pd.DataFrame(rows, columns=list(header))
    if change:
        frame = change(frame)
    buffer = io.BytesIO()
    if kind == "parquet":
        frame.to_parquet(buffer, index=False)
    else:
        frame.to_feather(buffer)
    return buffer.getvalue()


def _lines(text: str) -> list[str]:
    return text.split("\n")[:-1]


def _join(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def _with(lines: list[str], at: int, new: str | list[str], *, replace: bool = True) -> list[str]:
    """`lines` with line `at` (0-based) replaced by (or preceded by) `new`."""
    new = [new] if isinstance(new, str) else new
    return lines[:at] + new + lines[at + (1 if replace else 0) :]


def _field(line: str, column: int, change) -> str:
    fields = line.split(",")
    fields[column] = change(fields[column])
    return ",".join(fields)


# A damage: (format, header, rows, draw) → Damaged. `draw` picks positions (hypothesis).
DAMAGES: dict[str, Callable] = {}


def damage(name: str):
    def register(function):
        DAMAGES[name] = function
        return function

    return register


def _base(fmt, header, rows) -> tuple[str, list[str]]:
    text = _csv(header, rows)
    return fmt.file, _lines(text)


@damage("byte-order mark")
def _bom(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    return Damaged({name: b"\xef\xbb\xbf" + _join(lines)}, len(rows), harmless=True)


@damage("CRLF line ends")
def _crlf(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    return Damaged({name: ("\r\n".join(lines) + "\r\n").encode()}, len(rows), harmless=True)


@damage("CR line ends")
def _cr(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    return Damaged({name: ("\r".join(lines) + "\r").encode()}, len(rows), harmless=True)


@damage("blank lines at the end")
def _trailing(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    tail = draw(st.sampled_from(["\n", "\n\n", "  \n", "\t\n\n", "\r\n \r\n"]))
    return Damaged({name: _join(lines) + tail.encode()}, len(rows), harmless=True)


@damage("no final line end")
def _no_final(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    return Damaged({name: "\n".join(lines).encode()}, len(rows), harmless=True)


@damage("every field quoted")
def _quoted(fmt, header, rows, draw):
    return Damaged({fmt.file: _csv(header, rows, quoting=csv.QUOTE_ALL).encode()}, len(rows), harmless=True)


@damage("quotes, commas and line breaks inside free text")
def _free_text(fmt, header, rows, draw):
    if not fmt.text:
        return _quoted(fmt, header, rows, draw)
    column = header.index(fmt.text[0])
    value = draw(st.sampled_from(['He said "yes", then left.', "He, she, they.", "Line one\nline two", '""']))
    at = draw(st.integers(0, len(rows) - 1))
    rows = [list(r) for r in rows]
    rows[at][column] = value
    return Damaged({fmt.file: _csv(header, rows).encode()}, len(rows), harmless=True)


@damage("an extra column")
def _extra_column(fmt, header, rows, draw):
    header = (*header, "zz_extra")
    rows = [(*r, str(i)) for i, r in enumerate(rows)]
    return Damaged({fmt.file: _csv(header, rows).encode()}, len(rows), harmless=True)


@damage("gzip")
def _gzip(fmt, header, rows, draw):
    data = gzip.compress(_csv(header, rows).encode(), mtime=0)
    return Damaged({fmt.file + ".gz": data}, len(rows), harmless=True)


@damage("gzip cut short")
def _gzip_cut(fmt, header, rows, draw):
    data = gzip.compress(_csv(header, rows).encode(), mtime=0)
    cut = draw(st.integers(1, len(data) - 1))
    return Damaged({fmt.file + ".gz": data[:cut]}, len(rows), error=True)


@damage("a blank line inside")
def _blank(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    at = draw(st.integers(1, len(lines) - 1))
    blank = draw(st.sampled_from(["", "   ", "\t"]))
    return Damaged({name: _join(_with(lines, at, blank, replace=False))}, len(rows), error=True, line=at + 1)


@damage("Latin-1 text")
def _latin1(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    at = draw(st.integers(1, len(lines) - 1))
    lines = _with(lines, at, lines[at] + draw(st.sampled_from(["é", "ß", "ñ", "’"])))
    return Damaged({name: "\n".join(lines).encode("cp1252") + b"\n"}, len(rows), error=True, line=at + 1)


@damage("UTF-16")
def _utf16(fmt, header, rows, draw):
    encoding = draw(st.sampled_from(["utf-16", "utf-16-le"]))
    return Damaged({fmt.file: _csv(header, rows).encode(encoding)}, len(rows), error=True, line=1)


@damage("a NUL byte")
def _nul(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    at = draw(st.integers(1, len(lines) - 1))
    return Damaged({name: _join(_with(lines, at, lines[at] + "\0"))}, len(rows), error=True, line=at + 1)


@damage("an empty file")
def _empty(fmt, header, rows, draw):
    return Damaged({fmt.file: draw(st.sampled_from([b"", b"\n", b"  \n\n"]))}, len(rows), error=True, line=1)


@damage("a header only")
def _header_only(fmt, header, rows, draw):
    return Damaged({fmt.file: _csv(header, []).encode()}, len(rows), error=True)


@damage("an unbalanced quote")
def _quote(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    at = draw(st.integers(1, len(lines) - 1))
    column = draw(st.integers(0, len(header) - 1))
    lines = _with(lines, at, _field(lines[at], column, lambda v: '"' + v))
    return Damaged({name: _join(lines)}, len(rows), error=True, line=at + 1)


@damage("a field too many")
def _extra_field(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    at = draw(st.integers(1, len(lines) - 1))
    return Damaged({name: _join(_with(lines, at, lines[at] + ",surplus"))}, len(rows), error=True, line=at + 1)


@damage("a field missing")
def _missing_field(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    at = draw(st.integers(1, len(lines) - 1))
    return Damaged({name: _join(_with(lines, at, lines[at].rsplit(",", 1)[0]))}, len(rows), error=True, line=at + 1)


@damage("a column missing")
def _missing_column(fmt, header, rows, draw):
    column = draw(st.integers(0, len(header) - 1))
    keep = [i for i in range(len(header)) if i != column]
    text = _csv([header[i] for i in keep], [[r[i] for i in keep] for r in rows])
    # An optional column (agreement's note) may go; a needed one is an error naming line 1.
    return Damaged({fmt.file: text.encode()}, len(rows), line=1)


@damage("a huge line")
def _huge(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    at = draw(st.integers(1, len(lines) - 1))
    column = draw(st.integers(0, len(header) - 1))
    lines = _with(lines, at, _field(lines[at], column, lambda v: v + " word" * 200_000))
    return Damaged({name: _join(lines)}, len(rows), harmless=header[column] in fmt.text)


@damage("NaN and missing values")
def _nan(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    at = draw(st.integers(1, len(lines) - 1))
    column = draw(st.integers(0, len(header) - 1))
    value = draw(st.sampled_from(["NaN", "nan", "NA", "null", "None", "", "-"]))
    return Damaged({name: _join(_with(lines, at, _field(lines[at], column, lambda v: value)))}, len(rows))


@damage("a value of another type")
def _other_type(fmt, header, rows, draw):
    name, lines = _base(fmt, header, rows)
    at = draw(st.integers(1, len(lines) - 1))
    column = draw(st.integers(0, len(header) - 1))
    value = draw(st.sampled_from(["3.5", "1e9", "-1", "0", "true", "2024-01-01", "x"]))
    return Damaged({name: _join(_with(lines, at, _field(lines[at], column, lambda v: value)))}, len(rows))


@damage("Parquet")
def _parquet(fmt, header, rows, draw):
    stem = fmt.file.rsplit(".", 1)[0]
    return Damaged({stem + ".parquet": _columnar(header, rows, "parquet")}, len(rows), harmless=True)


@damage("Arrow IPC")
def _arrow(fmt, header, rows, draw):
    stem = fmt.file.rsplit(".", 1)[0]
    return Damaged({stem + ".arrow": _columnar(header, rows, "arrow")}, len(rows), harmless=True)


@damage("Parquet or Arrow cut short")
def _columnar_cut(fmt, header, rows, draw):
    kind = draw(st.sampled_from(["parquet", "arrow"]))
    data = _columnar(header, rows, kind)
    cut = draw(st.integers(0, len(data) - 1))
    return Damaged({fmt.file.rsplit(".", 1)[0] + "." + kind: data[:cut]}, len(rows), error=True)


@damage("Parquet or Arrow with damaged bytes")
def _columnar_flipped(fmt, header, rows, draw):
    kind = draw(st.sampled_from(["parquet", "arrow"]))
    data = bytearray(_columnar(header, rows, kind))
    at = draw(st.integers(0, len(data) - 1))
    for i in range(at, min(at + draw(st.integers(1, 16)), len(data))):
        data[i] ^= 0xFF
    return Damaged({fmt.file.rsplit(".", 1)[0] + "." + kind: bytes(data)}, len(rows))


@damage("Parquet with nulls, NaN, numbers or lists")
def _columnar_types(fmt, header, rows, draw):
    column = header[draw(st.integers(0, len(header) - 1))]
    change = draw(
        st.sampled_from(
            [
                lambda f: f.assign(**{column: [None, *list(f[column][1:])]}),
                lambda f: f.assign(**{column: [float("nan")] * len(f)}),
                lambda f: f.assign(**{column: range(len(f))}),
                lambda f: f.assign(**{column: [1.5] * len(f)}),
                lambda f: f.assign(**{column: [[1, 2]] * len(f)}),
            ]
        )
    )
    return Damaged({fmt.file.rsplit(".", 1)[0] + ".parquet": _columnar(header, rows, "parquet", change)}, len(rows))


COLUMNAR = (
    "Parquet",
    "Arrow IPC",
    "Parquet or Arrow cut short",
    "Parquet or Arrow with damaged bytes",
    "Parquet with nulls, NaN, numbers or lists",
)


# ---------------------------------------------------------------- running and judging


def _run(argv: list) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def judge(code: int, out: str, err: str, case: Damaged, named: str, counted: Callable[[], int] | None) -> None:
    """The contract: exit 0 with every row counted, or a one-line error naming the file (and the line)."""
    assert code in (0, 64, 65, 66), f"exit {code}: {err}"
    assert "Traceback" not in err and "a bug" not in err, err
    if code == 0:
        assert not case.error, f"exit 0 where an error was due:\n{err}"
        if counted is not None:
            assert counted() == case.rows, f"{counted()} rows counted of {case.rows}\n{out}\n{err}"
        return
    assert not case.harmless, f"exit {code} for a harmless damage: {err}"
    message = err.strip().splitlines()[-1]
    assert message.startswith("stats-mtbias: error:"), err
    assert named in message, message
    if case.line is not None and code == 65:
        assert f", line {case.line}:" in message, message


def _rows(fmt: Format):
    row = st.tuples(*[st.sampled_from(fmt.pools[c]) for c in fmt.header])
    if fmt.key:
        index = [fmt.header.index(c) for c in fmt.key]
        return st.lists(row, min_size=2, max_size=6, unique_by=lambda r: tuple(r[i] for i in index))
    return st.lists(row, min_size=2, max_size=6)


def check(fmt: Format, kind: str, data, data_dir: Path) -> None:
    rows = data.draw(_rows(fmt), label="rows")
    case = DAMAGES[kind](fmt, fmt.header, rows, data.draw)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, text in fmt.extra.items():
            (folder / name).write_text(text, "utf-8")
        for name, payload in case.files.items():
            (folder / name).write_bytes(payload)
        target = folder / (case.target or next(iter(case.files)))
        code, out, err = _run([*fmt.argv(target, data_dir), "--format", "json"] if not fmt.out else fmt.argv(target, data_dir))

        def counted() -> int:
            if fmt.out:
                return len(pd.read_csv(folder / "judged.csv"))
            return fmt.counted(json.loads(out))

        judge(code, out, err, case, target.name, counted if case.harmless or fmt.recount else None)


CSV_DAMAGES = [k for k in DAMAGES if k not in COLUMNAR]


@pytest.mark.parametrize("name", sorted(FORMATS))
@given(data=st.data())
@_settings(12)
def test_a_damaged_table_is_counted_or_named(name, data, data_dir):
    fmt = FORMATS[name]
    kinds = CSV_DAMAGES + (list(COLUMNAR) if fmt.columnar else [])
    check(fmt, data.draw(st.sampled_from(kinds), label="damage"), data, data_dir)


@pytest.mark.parametrize("kind", sorted(DAMAGES))
def test_every_damage_once_on_rates(kind, data_dir):
    """Each damage, whatever hypothesis draws above, on the fastest format: rates (its streaming Arrow reader)."""

    @given(data=st.data())
    @_settings(3)
    def run(data):
        check(FORMATS["rates judgements"], kind, data, data_dir)

    run()


@pytest.mark.parametrize("kind", sorted(DAMAGES))
def test_every_damage_once_on_agreement(kind, data_dir):
    """Each damage on a row-by-row reader (agreement's labels, with a free-text column)."""

    @given(data=st.data())
    @_settings(3)
    def run(data):
        check(FORMATS["agreement labels"], kind, data, data_dir)

    run()


# ---------------------------------------------------------------- directories and globs (rates), text files


@given(data=st.data())
@_settings(10)
def test_rates_directory_and_glob(data, data_dir):
    """Judgements split over files (CSV, gzip, Parquet) in a directory or a glob: every row counted, or the bad file named."""
    fmt = FORMATS["rates judgements"]
    rows = data.draw(_rows(fmt))
    cut = data.draw(st.integers(1, len(rows) - 1))
    kinds = data.draw(st.lists(st.sampled_from(["csv", "csv.gz", "parquet", "bom", "crlf", "broken"]), min_size=2, max_size=2))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "audit"
        folder.mkdir()
        broken = None
        for i, (part, kind) in enumerate(zip([rows[:cut], rows[cut:]], kinds)):
            text = _csv(fmt.header, part)
            name, payload = {
                "csv": (f"part{i}.csv", text.encode()),
                "csv.gz": (f"part{i}.csv.gz", gzip.compress(text.encode())),
                "parquet": (f"part{i}.parquet", _columnar(fmt.header, part, "parquet")),
                "bom": (f"part{i}.csv", b"\xef\xbb\xbf" + text.encode()),
                "crlf": (f"part{i}.csv", text.replace("\n", "\r\n").encode()),
                "broken": (f"part{i}.csv", text.replace("\n", '\n"', 2).encode()),
            }[kind]
            (folder / name).write_bytes(payload)
            broken = broken or (name if kind == "broken" else None)
        target = data.draw(st.sampled_from([folder, folder / "part*"]))
        code, out, err = _run([*fmt.argv(target, data_dir), "--format", "json"])
        case = Damaged({}, len(rows), harmless=broken is None, error=broken is not None, line=2 if broken else None)
        judge(code, out, err, case, broken or str(folder), lambda: fmt.counted(json.loads(out)))


def _text_damage(lines: list[str], kind: str, draw) -> tuple[bytes, bool, int | None]:
    """(bytes, harmless, line an error must name) of damaged text lines."""
    at = draw(st.integers(0, len(lines) - 1))
    if kind == "bom":
        return b"\xef\xbb\xbf" + _join(lines), True, None
    if kind == "crlf":
        return ("\r\n".join(lines) + "\r\n").encode(), True, None
    if kind == "trailing blank lines":
        return _join(lines) + b"\n \n", True, None
    if kind == "gzip":
        return gzip.compress(_join(lines), mtime=0), True, None
    if kind == "gzip cut short":
        data = gzip.compress(_join(lines), mtime=0)
        return data[: draw(st.integers(1, len(data) - 1))], False, None
    if kind == "latin-1":
        encoded = [line.encode("cp1252", "replace") for line in _with(lines, at, lines[at] + "é")]
        first = next(i for i, line in enumerate(encoded) if not _utf8(line))  # the first line that is not UTF-8
        return b"\n".join(encoded) + b"\n", False, first + 1
    if kind == "nul":
        return _join(_with(lines, at, lines[at] + "\0")), False, at + 1
    if kind == "utf-16":
        return ("\n".join(lines) + "\n").encode("utf-16"), False, 1
    assert kind == "empty"
    return b"", False, None


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


TEXT_DAMAGES = ["bom", "crlf", "trailing blank lines", "gzip", "gzip cut short", "latin-1", "nul", "utf-16", "empty"]


@given(kind=st.sampled_from(TEXT_DAMAGES), data=st.data())
@_settings(6)
def test_winomt_translation_file(kind, data, data_dir):
    """A ``source ||| translation`` file (read winomt): its lines read, or the file and line named."""
    shipped = (data_dir / "winomt/translations/google/en-es.txt").read_text("utf-8").splitlines()[:3]
    payload, harmless, line = _text_damage(shipped, kind, data.draw)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("en-es.txt" + (".gz" if kind.startswith("gzip") else ""))
        path.write_bytes(payload)
        out = Path(tmp) / "judged.csv"
        code, _, err = _run(["read", "winomt", "--data-dir", data_dir, "--translations", path, "--languages", "es", "--out", out])
        # An empty file is read as no lines (0 outputs, or an error saying so).
        case = Damaged(
            {}, 0 if kind == "empty" else len(shipped), harmless=harmless, error=not harmless and kind != "empty", line=line
        )
        judge(code, "", err, case, path.name, lambda: len(pd.read_csv(out)) if out.stat().st_size else 0)


@given(kind=st.sampled_from(TEXT_DAMAGES), data=st.data())
@_settings(4)
def test_tgbi_directory_of_text_files(kind, data, data_dir):
    """``total_<system>_<set>.txt`` files (tgbi --translations DIR), one of them damaged: every line read, or named."""
    corpus = data_dir / "tgbi/gebnlp-tgbi/corpus"
    codes = ["inf", "f", "imp", "p", "neg", "pos", "job"]
    damaged = data.draw(st.sampled_from(codes))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "mine"
        folder.mkdir()
        total, harmless, line = 0, True, None
        for code in codes:
            lines = (corpus / f"total_google_{code}.txt").read_text("utf-8").splitlines()
            total += len(lines)
            payload = _join(lines)
            if code == damaged:
                payload, harmless, line = _text_damage(lines, kind, data.draw)
            (folder / f"total_mine_{code}.txt").write_bytes(payload)
        code, out, err = _run(
            [
                "tgbi",
                "--data-dir",
                data_dir,
                "--systems",
                "",
                "--translations",
                folder,
                "--system",
                "mine",
                "--view",
                "accounting",
                "--format",
                "json",
            ]
        )
        # A gzip file keeps the layout's name (total_<system>_<set>.txt): it is recognised by its bytes.
        case = Damaged({}, total, harmless=harmless, error=not harmless, line=line)
        judge(code, out, err, case, f"total_mine_{damaged}.txt", lambda: _sum(skip=("missing",))(json.loads(out)))


# ---------------------------------------------------------------- the cases of the issue


def test_an_unbalanced_quote_no_longer_swallows_the_rest_of_the_file(data_dir, tmp_path):
    """Issue 49: one stray quote made tgbi --outputs lose two of three systems and agreement half its labels."""
    outputs = tmp_path / "outputs.csv"
    rows = [f"{system},s1,w{i},{'He' if i % 2 else 'She'} is kind." for system in "abc" for i in range(20)]
    rows[5] = rows[5].replace(",He is", ',"He is')
    outputs.write_text("system,set,item,translation\n" + "\n".join(rows) + "\n", "utf-8")
    code, _, err = _run(["tgbi", "--data-dir", data_dir, "--outputs", outputs])
    assert code == 65 and f"{outputs}, line 7: a quoted value (column 'translation') opens here and is never closed" in err
    labels = tmp_path / "labels.csv"
    rows = [f"{'mf'[i % 2]},{'mf'[i % 3 % 2]}" for i in range(160)]
    rows[80] = rows[80].replace(",", ',"')  # 81 of 160 labels were compared, the rest one value of line 82
    labels.write_text("human,llm\n" + "\n".join(rows) + "\n", "utf-8")
    code, _, err = _run(["agreement", "--labels", labels, "--a", "human", "--b", "llm"])
    assert code == 65 and f"{labels}, line 82: a quoted value (column 'llm') opens here and is never closed" in err
    translations = tmp_path / "mine.csv"
    translations.write_text('item,set,translation\n1,positive,"He is kind.\n2,positive,She is.\n', "utf-8")
    code, _, err = _run(["tgbi", "--data-dir", data_dir, "--systems", "", "--translations", translations])
    assert code == 65 and f"{translations}, line 2: a quoted value (column 'translation')" in err


def test_winomt_systems_without_a_shared_item_are_named(data_dir, tmp_path):
    readings = tmp_path / "readings.csv"
    readings.write_text("item,system,language,gender\n0,a,es,male\n1,b,es,female\n", "utf-8")
    code, _, err = _run(
        ["winomt", "--data-dir", data_dir, "--systems", "", "--judgements", readings, "--no-adjectives", "--n-boot", "100"]
    )
    assert code == 65 and f"{readings}: es: the systems a, b translated no WinoMT item in common" in err
    code, _, err = _run(
        [
            "winomt",
            "--data-dir",
            data_dir,
            "--systems",
            "",
            "--judgements",
            readings,
            "--no-adjectives",
            "--n-boot",
            "100",
            "--missing",
            "wrong",
        ]
    )
    assert code == 0, err
