"""Files that are never half-written, caches that never poison a run, paths checked before the work.

- :func:`write_atomic`: a temporary file in the target's directory, flushed and
  fsync'ed, then renamed over the target (``os.replace`` is atomic on POSIX and
  Windows). A kill at any point leaves the old file or the new one, never a
  truncated one; concurrent writers of the same entry each rename a complete file.
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
import tempfile
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path

from stats_mtbias.errors import UsageError


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


def write_atomic(path: str | Path, data: str | bytes, *, encoding: str = "utf-8") -> Path:
    """Write ``data`` to ``path`` atomically (temporary file in the same directory, fsync, rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode(encoding) if isinstance(data, str) else data
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    _as_a_new_file(fd)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    return path


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
    """Write an xarray/arviz object's netCDF to ``path`` through a temporary beside it and one rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".nc")
    os.close(fd)
    try:
        dataset.to_netcdf(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
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


def check_output(path: str | Path | None, inputs: Iterable[str | Path | None] = (), *, what: str = "--out") -> Path | None:
    """Refuse an output path that is an input, a directory, or in a directory that cannot be written — before the work."""
    if path is None:
        return None
    out = Path(path).expanduser()
    resolved = out.resolve()
    for given in inputs:
        if given is None or not isinstance(given, (str, Path)):
            continue
        source = Path(given).expanduser()
        if source.exists() and source.is_file() and source.resolve() == resolved:
            raise UsageError(f"{what} {out} would overwrite the input {given}; write the output elsewhere.")
    if out.is_dir():
        raise UsageError(f"{what} {out} is a directory; name a file.")
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"{what} {out}: the directory {parent} does not exist.")
    if not os.access(parent, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise UsageError(f"{what} {out} cannot be written (permission denied).")
    return out
