"""Files that are never half-written, caches that never poison a run, paths checked before the work.

- :func:`write_atomic`: a temporary file in the target's directory, flushed and
  fsync'ed, then renamed over the target (``os.replace`` is atomic on POSIX and
  Windows). A kill at any point leaves the old file or the new one, never a
  truncated one; concurrent writers of the same entry each rename a complete file.
  A target that exists and is not a regular file (``/dev/null``, ``/dev/stdout``,
  a FIFO) is written through, never renamed over: replacing a device would
  destroy it. A write that fails (a full disk, a read-only file system) is an
  :class:`~stats_mtbias.errors.OutputError` naming the file, never a traceback.
- :func:`write_cache`: the same for a cache entry, where a failed write is only a
  :class:`CacheWarning` (the result was computed; it is recomputed next time).
- :func:`read_cache`: a cache entry that cannot be read or does not match what
  the caller expects is a miss, with a :class:`CacheWarning`; the caller
  recomputes and rewrites it.
- :func:`check_writable_dir` and :func:`check_output`: refuse an unusable cache
  directory or output path (or an output that is one of the inputs) *before*
  the computation, not after it.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path

from stats_mtbias.errors import OutputError, UsageError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _as_a_new_file(fd: int) -> None:
    # mkstemp creates 0600; a written file gets the mode open() would give it (0666 less the umask).
    with contextlib.suppress(OSError):
        os.fchmod(fd, 0o666 & ~_umask())


class CacheWarning(UserWarning):
    """A cache entry was unreadable or did not match; it is recomputed and rewritten."""


def is_special(path: str | Path) -> bool:
    """Whether ``path`` exists and is not a regular file or directory (a device, a FIFO, a socket)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _failed(path: Path, exc: OSError) -> OutputError:
    return OutputError(f"cannot write {path}: {exc.strerror or exc}; nothing was written there.")


def write_atomic(path: str | Path, data: str | bytes, *, encoding: str = "utf-8") -> Path:
    """Write ``data`` to ``path`` atomically (temporary file in the same directory, fsync, rename).

    A device or FIFO at ``path`` is written through instead (a rename would replace it with a regular file).

    Raises
    ------
    OutputError
        The file cannot be written (no space left, read-only, permission denied).
    """
    path = Path(path)
    payload = data.encode(encoding) if isinstance(data, str) else data
    if is_special(path):
        try:
            with open(path, "wb") as out:
                out.write(payload)
                out.flush()
        except OSError as exc:
            raise _failed(path, exc) from None
        return path
    tmp_name = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        _as_a_new_file(fd)
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp_name, path)
    except BaseException as exc:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
        if isinstance(exc, OSError):
            raise _failed(path, exc) from None
        raise
    return path


def write_cache(path: str | Path, data: str | bytes) -> bool:
    """Write a cache entry atomically; a failed write is a :class:`CacheWarning`, not an error. True if written."""
    try:
        write_atomic(path, data)
    except OutputError as exc:
        warnings.warn(f"cache entry not kept: {exc} It is recomputed next time.", CacheWarning, stacklevel=3)
        return False
    return True


def read_cache(path: Path, valid: Callable[[object], bool]):
    """A JSON cache entry, or None when it is absent, unreadable or not ``valid`` (then with a :class:`CacheWarning`)."""
    if not path.exists():
        return None
    try:
        value = json.loads(path.read_text("utf-8"))
        reason = None if valid(value) else "its content does not match the inputs"
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        value, reason = None, f"it cannot be read ({type(exc).__name__})"
    if reason is None:
        return value
    warnings.warn(f"cache entry {path}: {reason}; recomputing and rewriting it", CacheWarning, stacklevel=3)
    return None


def write_netcdf_atomic(dataset, path: str | Path) -> Path:
    """Write an xarray/arviz object's netCDF to ``path`` through a temporary beside it and one rename.

    To a device or FIFO the netCDF is made in a temporary directory and its bytes written through.
    """
    path = Path(path)
    if is_special(path):
        with tempfile.TemporaryDirectory(prefix="mtbias-netcdf-") as scratch:
            made = Path(scratch) / "fit.nc"
            dataset.to_netcdf(str(made))
            return write_atomic(path, made.read_bytes())
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".nc")
        os.close(fd)
        dataset.to_netcdf(tmp)
        os.replace(tmp, path)
    except BaseException as exc:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _failed(path, exc) from None
        raise
    return path


def check_writable_dir(path: str | Path, what: str) -> Path:
    """Create ``path`` if needed and prove a file can be written there; else a :class:`UsageError` naming ``what``."""
    path = Path(path).expanduser()
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".write-check-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UsageError(f"{what} {path} is not a writable directory ({exc.strerror or exc}).") from None
    return path


def check_outside(path: str | Path, protected: Iterable[str | Path | None], *, what: str = "--out") -> None:
    """Refuse ``path`` inside one of the ``protected`` directories (the data directory the run reads)."""
    resolved = Path(path).expanduser().resolve()
    for directory in protected:
        if directory is None:
            continue
        root = Path(directory).expanduser().resolve()
        if resolved == root or root in resolved.parents:
            raise UsageError(
                f"{what} {path} is inside the data directory {directory}, which the run reads; write the output elsewhere."
            )


def check_output(
    path: str | Path | None,
    inputs: Iterable[str | Path | None] = (),
    *,
    what: str = "--out",
    protected: Iterable[str | Path | None] = (),
) -> Path | None:
    """Refuse an output path that is an input, in a data directory, a directory, or not writable — before the work.

    Parameters
    ----------
    inputs : iterable of paths
        Files the run reads: an output that is one of them is refused.
    protected : iterable of directories
        Directories the run reads from (the data directory): no output may be written inside them.
    """
    if path is None:
        return None
    out = Path(path).expanduser()
    if is_special(out):  # written through (write_atomic): /dev/null, /dev/stdout, a FIFO
        if not os.access(out, os.W_OK):
            raise UsageError(f"{what} {out} cannot be written (permission denied).")
        return out
    resolved = out.resolve()
    for given in inputs:
        if given is None or not isinstance(given, (str, Path)):
            continue
        source = Path(given).expanduser()
        if source.exists() and source.is_file() and source.resolve() == resolved:
            raise UsageError(f"{what} {out} would overwrite the input {given}; write the output elsewhere.")
    check_outside(out, protected, what=what)
    if out.is_dir():
        raise UsageError(f"{what} {out} is a directory; name a file.")
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"{what} {out}: the directory {parent} does not exist.")
    if not os.access(parent, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise UsageError(f"{what} {out} cannot be written (permission denied).")
    return out
