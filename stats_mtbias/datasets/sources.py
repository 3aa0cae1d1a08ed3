"""Where data come from, in one place: a path, a glob, a directory, a pandas frame, a dask frame or a Hugging Face
dataset; a harness log and a JSON-lines file are read whole into a frame (:mod:`stats_mtbias.datasets.harness`).

A user's DataFrame stands where a file would (:class:`FrameSource`): it is read
as the CSV ``frame.to_csv(index=False)`` would be, so an error names the same
"line" (row ``i`` is line ``i + 2``, after the header) for the frame and for the
file, and both give the same tables. Every source has a label (messages and
provenance), a stem (a system's default name) and a digest (sha256 of its bytes:
a file's, a frame's CSV text, or of every file of a directory or glob by name).
"""

from __future__ import annotations

import glob
import hashlib
from pathlib import Path
from typing import Any

import pandas as pd

from stats_mtbias.datasets import harness
from stats_mtbias.errors import DataError, InputNotFoundError, one_line
from stats_mtbias.provenance import sha256_file


class FrameSource:
    """A DataFrame given where a file is expected, with the name errors and provenance use.

    Parameters
    ----------
    frame : DataFrame
        The rows, with the columns the file format names.
    name : str
        What to call it in messages (``DataFrame 'mine'``).
    """

    def __init__(self, frame: pd.DataFrame, name: str = "frame", *, file: Path | None = None):
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"expected a pandas DataFrame, got {type(frame).__name__}")
        self.frame = frame
        self.name = str(name)
        self.file = file
        self.stem = file.stem if file is not None else self.name

    @classmethod
    def from_columnar(cls, path: Path) -> FrameSource:
        """A Parquet or Arrow IPC/Feather file, read whole (its rows are numbered as its CSV's lines would be).

        Integers with missing values stay integers (``3``, not ``3.0``), as the file holds them; a damaged
        or truncated file, page or batch is a :class:`~stats_mtbias.errors.DataError` naming the file.
        """
        import pyarrow as pa
        import pyarrow.parquet as pq

        kind = "Parquet" if path.suffix.lower() in PARQUET_SUFFIXES else "Arrow IPC"
        try:
            if kind == "Parquet":
                table = pq.read_table(path)
            else:
                try:
                    table = pa.ipc.open_file(path).read_all()
                except pa.ArrowInvalid:
                    table = pa.ipc.open_stream(path).read_all()
            table.validate(full=True)  # offsets and UTF-8: a damaged batch is an error here, not a crash later
            frame = table.to_pandas(integer_object_nulls=True)
        except (pa.ArrowException, OSError, EOFError, ValueError, KeyError, IndexError) as exc:
            raise DataError(f"cannot be read as {kind} ({one_line(exc)})", path) from None
        return cls(frame, str(path), file=path)

    def __str__(self) -> str:
        return self.name if self.file is not None else f"<DataFrame {self.name!r}>"

    __fspath__ = __str__  # so that DataError(path=...) can name it like a file

    def csv_lines(self) -> list[str]:
        """The frame as the lines of its CSV (header first), missing values as empty fields."""
        import csv

        # Every field quoted: a carriage return or separator inside a cell stays inside its field.
        text = self.frame.to_csv(index=False, lineterminator="\n", quoting=csv.QUOTE_ALL)
        return text.split("\n")[:-1]

    def sha256(self) -> str:
        """sha256 of the file it was read from, else of the frame's CSV text (the digest of the same data as a file)."""
        if self.file is not None:
            return sha256_file(self.file)
        return hashlib.sha256(self.frame.to_csv(index=False, lineterminator="\n").encode("utf-8")).hexdigest()


Source = "str | Path | FrameSource | pd.DataFrame"


# Read through pyarrow into a frame wherever a CSV is read line by line (errors name "lines" as row + 2).
COLUMNAR_SUFFIXES = (".parquet", ".pq", ".arrow", ".feather", ".ipc")
PARQUET_SUFFIXES = (".parquet", ".pq")


def as_source(obj: Any, name: str | None = None) -> Path | FrameSource:
    """A path (``str``/``Path``) as a :class:`~pathlib.Path`; a DataFrame, a Hugging Face dataset, a Parquet, Arrow,
    JSON-lines file or a harness log (:mod:`~stats_mtbias.datasets.harness`) as a :class:`FrameSource`."""
    if isinstance(obj, FrameSource):
        return obj
    if isinstance(obj, pd.DataFrame):
        return FrameSource(obj, name or "frame")
    if harness.is_dataset(obj):
        return FrameSource(harness.dataset_frame(obj), name or "dataset")
    if _harness_glob(obj):
        return FrameSource(harness.read_harness(str(obj)), str(obj))
    if isinstance(obj, (str, Path)):
        path = Path(obj)
        if path.suffix.lower() in COLUMNAR_SUFFIXES and path.is_file():
            return FrameSource.from_columnar(path)
        read = _reader_of(path)
        return path if read is None else FrameSource(read(path), str(path), file=path)
    raise DataError(f"expected a file path, a pandas DataFrame or a datasets.Dataset, got {type(obj).__name__}")


def _harness_glob(obj: Any) -> bool:
    """Whether ``obj`` is a glob whose every match is a harness log (read together: their versions and ids checked)."""
    if not isinstance(obj, (str, Path)) or not any(ch in str(obj) for ch in "*?["):
        return False
    found = [Path(p) for p in glob.glob(str(obj), recursive=True) if Path(p).is_file()]
    return bool(found) and all(harness.log_kind(p) is not None for p in found)


def _reader_of(path: Path):
    """The reader of a file that is read whole into a frame: a harness log's, a JSON-lines table's; else None."""
    if not path.is_file():
        return None
    if harness.log_kind(path) is not None:
        return harness.read_harness
    if harness.is_jsonl(path):
        return harness.read_jsonl
    return None


def source_sha256(source: Path | FrameSource) -> str:
    """sha256 of a file, a frame's CSV text, or a directory's files (see :func:`digest`)."""
    return digest(source)


IPC_SUFFIXES = (".arrow", ".feather", ".ipc")


def is_dask_frame(obj: Any) -> bool:
    """Whether ``obj`` is a ``dask.dataframe.DataFrame`` (without importing dask when it is not loaded)."""
    import sys

    if "dask.dataframe" not in sys.modules:
        return False
    import dask.dataframe as dd

    return isinstance(obj, dd.DataFrame)


def files(source: str | Path) -> list[Path]:
    """The files a path names: itself, a directory's Parquet/IPC/CSV files (``.csv.gz`` too), or a glob's matches (sorted)."""
    text = str(source)
    if any(ch in text for ch in "*?["):
        found = sorted(Path(p) for p in glob.glob(text, recursive=True) if Path(p).is_file())
        if not found:
            raise InputNotFoundError("no file matches this pattern", text)
        return found
    path = Path(source)
    if path.is_dir():
        suffixes = (*PARQUET_SUFFIXES, *IPC_SUFFIXES, ".csv")
        found = sorted(
            p for p in path.rglob("*") if p.is_file() and (p.suffix.lower() in suffixes or p.name.lower().endswith(".csv.gz"))
        )
        if not found:
            raise DataError("is a directory without Parquet, Arrow or CSV files", path)
        return found
    if not path.exists():
        raise InputNotFoundError("does not exist", path)
    return [path]


def source_label(source: Any) -> str:
    """How a source is named in messages and provenance."""
    if is_dask_frame(source):
        return f"<dask DataFrame, {source.npartitions} partitions>"
    return str(source)


def source_stem(source: Any, default: str = "system") -> str:
    """The name a source gives a system by default: a file's or directory's stem, a frame's name; else ``default``."""
    if isinstance(source, FrameSource):
        return source.stem
    if isinstance(source, (str, Path)) and not any(ch in str(source) for ch in "*?["):
        return Path(source).stem or default
    return default


def as_counting_source(obj: Any, name: str = "judgements") -> Any:
    """Paths, globs and dask frames as they are (streamed by :func:`count_rows`); a pandas frame as a named source."""
    if isinstance(obj, (str, Path)) and (_harness_glob(obj) or _reader_of(Path(obj)) is not None):
        return as_source(obj, name)  # harness logs or JSON lines: read whole
    if isinstance(obj, (str, Path, FrameSource)) or is_dask_frame(obj):
        return obj
    if isinstance(obj, pd.DataFrame) or harness.is_dataset(obj):
        return as_source(obj, name)
    raise DataError(f"expected a file path, a glob, a pandas or a dask DataFrame or a datasets.Dataset, got {type(obj).__name__}")


def source_digest(source: Any) -> str:
    """sha256 of a source: a file's bytes, a frame's CSV text, or (several files) of their names and digests.

    A Dask frame has no bytes here; its digest is Dask's deterministic token of the graph (``dask:<token>``).
    """
    if isinstance(source, pd.DataFrame):
        source = FrameSource(source)
    if isinstance(source, FrameSource):
        return source.sha256()
    if is_dask_frame(source):
        from dask.base import tokenize

        return f"dask:{tokenize(source)}"
    found = files(source)
    if len(found) == 1 and not any(ch in str(source) for ch in "*?[") and not Path(source).is_dir():
        return sha256_file(found[0])
    h = hashlib.sha256()
    for file in found:
        h.update(f"{file.name}\t{sha256_file(file)}\n".encode())
    return h.hexdigest()


def as_stream(obj: Any, name: str = "judgements") -> Any:
    """Paths, globs and dask frames as they are (streamed by :func:`stats_mtbias.datasets.counting.count_rows`);
    a pandas frame as a named :class:`FrameSource`."""
    return as_counting_source(obj, name)


def digest(source: Any) -> str:
    """sha256 of any source (a file, a frame, a directory or glob of files, a dask frame's token)."""
    if isinstance(source, (str, Path)) and Path(source).is_dir():
        found = sorted(p for p in Path(source).rglob("*") if p.is_file() and not p.name.startswith("."))
        if not found:
            raise DataError("is an empty directory", source)

        h = hashlib.sha256()
        for file in found:
            h.update(f"{file.relative_to(source)}\t{sha256_file(file)}\n".encode())
        return h.hexdigest()
    return source_digest(source)
