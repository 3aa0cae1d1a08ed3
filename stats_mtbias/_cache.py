"""The user cache: where downloads, alignments, WinoMT readings and model fits are kept.

``MTBIAS_CACHE``, else ``$XDG_CACHE_HOME/stats_mtbias``, else ``~/.cache/stats_mtbias``.
A foundation module (no package imports beyond errors and files), so that every layer
can find the cache without importing the dataset registry.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

ENV_CACHE = "MTBIAS_CACHE"


def default_cache_dir() -> Path:
    """The user cache directory (it may not exist yet)."""
    if os.environ.get(ENV_CACHE):
        return Path(os.environ[ENV_CACHE]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "stats_mtbias"


def check_cache_writable() -> Path:
    """The cache directory, refused with a clear error before any work if it cannot be written."""
    from stats_mtbias._files import check_writable_dir

    return check_writable_dir(default_cache_dir(), f"the cache ({ENV_CACHE} or the user cache directory)")


def digest(*parts: object, length: int = 32) -> str:
    """A cache key: the sha256 of the parts' text, cut to `length` hex digits."""
    material = "\n".join(str(p) for p in parts)
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:length]
