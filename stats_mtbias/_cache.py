"""The user cache: where downloads, alignments, WinoMT readings and model fits are kept.

``MTBIAS_CACHE``, else ``$XDG_CACHE_HOME/stats_mtbias``, else ``~/.cache/stats_mtbias``.
A foundation module (no package imports beyond errors and files), so that every layer
can find the cache without importing the dataset registry.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from stats_mtbias._files import check_writable_dir
from stats_mtbias.errors import needs_extras

ENV_CACHE = "MTBIAS_CACHE"


def default_cache_dir() -> Path:
    """The user cache directory (it may not exist yet)."""
    if os.environ.get(ENV_CACHE):
        return Path(os.environ[ENV_CACHE]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "stats_mtbias"


def check_cache_writable() -> Path:
    """The cache directory, refused with a clear error before any work if it cannot be written."""
    return check_writable_dir(default_cache_dir(), f"the cache ({ENV_CACHE} or the user cache directory)")


def digest(*parts: object, length: int = 32) -> str:
    """A cache key: the sha256 of the parts' text, cut to `length` hex digits."""
    material = "\n".join(str(p) for p in parts)
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:length]


# Libraries that keep caches and stamps under $HOME or $XDG_CACHE_HOME when first imported: matplotlib's font list
# (MPLCONFIGDIR), PyTensor's compiled modules (base_compiledir), ArviZ's daily-warning stamp (platformdirs, through
# XDG_CACHE_HOME), Numba's cache. Imported through :func:`heavy`, their caches go to the package's cache instead.
HEAVY = ("matplotlib", "pytensor", "pymc", "arviz", "nutpie", "numba")


@contextlib.contextmanager
def library_caches() -> Iterator[Path]:
    """While it lasts, the caching libraries' environment points into ``<cache>/libraries`` (restored after).

    A variable the user set (``MPLCONFIGDIR``, ``NUMBA_CACHE_DIR``, ``base_compiledir`` in ``PYTENSOR_FLAGS``) is
    kept: it says where the user wants that cache. The libraries read these once, on their first import.
    """
    root = default_cache_dir() / "libraries"
    flags = os.environ.get("PYTENSOR_FLAGS", "")
    wanted = {
        "MPLCONFIGDIR": os.environ.get("MPLCONFIGDIR") or str(root / "matplotlib"),
        "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR") or str(root / "numba"),
        "XDG_CACHE_HOME": str(root),  # ArviZ's stamp: <root>/arviz; our own cache was resolved above
        "PYTENSOR_FLAGS": flags
        if "base_compiledir" in flags
        else ",".join(filter(None, [flags, f"base_compiledir={root / 'pytensor'}"])),
    }
    saved = {name: os.environ.get(name) for name in wanted}
    os.environ.update(wanted)
    try:
        yield root
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    """While it lasts, :mod:`tempfile`'s directory is a fresh one in the package's cache, removed after.

    PyTensor's numba backend leaves each generated source file in the temporary directory
    (``NamedTemporaryFile(delete=False)``); under this, they are made in — and removed with — a directory of ours.
    """
    import shutil
    import tempfile

    parent = default_cache_dir() / "scratch"
    parent.mkdir(parents=True, exist_ok=True)
    made = Path(tempfile.mkdtemp(prefix="run-", dir=parent))
    saved = tempfile.tempdir
    tempfile.tempdir = str(made)
    try:
        yield made
    finally:
        tempfile.tempdir = saved
        shutil.rmtree(made, ignore_errors=True)


def heavy(name: str):
    """Import ``name`` (a module of :data:`HEAVY` or below one) with its caches in the package's cache.

    Examples
    --------
    >>> heavy("math").sqrt(4.0)
    2.0
    """
    if name in sys.modules and sys.modules[name] is not None:
        return sys.modules[name]
    with needs_extras(), library_caches():
        return importlib.import_module(name)
