"""Provenance: where every reported number comes from."""

from __future__ import annotations

import hashlib
import platform
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from stats_mtbias._version import __version__


def sha256_file(path: str | Path, chunk: int = 1 << 20) -> str:
    """Return the hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def dependency_versions(names: tuple[str, ...] = ("numpy", "scipy", "pandas", "statsmodels")) -> dict:
    """Versions of the installed dependencies that shape the numbers."""
    versions = {}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


@dataclass(frozen=True)
class Provenance:
    """What produced a result: data checksums, method, resamples, seed, versions.

    Attributes
    ----------
    method : str
        The estimator and interval method, e.g. ``"P_S; cluster bootstrap
        (lexicon items, stratified by content), percentile"``.
    data : dict
        Input files (relative path) -> sha256.
    n_boot : int or None
        Bootstrap or permutation resamples, if any.
    seed : int or None
        The seed the random numbers came from.
    level : float or None
        Confidence level of the intervals.
    options : dict
        Every other choice that changes the numbers (lexicon, rules).
    """

    method: str
    data: dict = field(default_factory=dict)
    n_boot: int | None = None
    seed: int | None = None
    level: float | None = None
    options: dict = field(default_factory=dict)
    package_version: str = __version__
    python: str = field(default_factory=platform.python_version)
    dependencies: dict = field(default_factory=dependency_versions)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dictionary."""
        return asdict(self)


def item_caption(record: dict | None) -> str:
    """``"on 3,568 items (subset: gendered)"``: the words a report puts under a figure resting on `record`
    (a result's ``provenance["items"]``, :func:`stats_mtbias.studies._common.restrict_items`).

    Examples
    --------
    >>> item_caption({"subset": "gendered", "n_items": 3568})
    'on 3,568 items (subset: gendered)'
    >>> item_caption({"subset": "all", "n_items": 12})
    'on 12 items (all)'
    """
    if not record:
        return ""
    subset = record.get("subset", "all")
    said = "all" if subset == "all" else f"subset: {subset}" if subset != "list" else f"a list of {record.get('n_ids', 0):,} ids"
    return f"on {record.get('n_items', 0):,} items ({said})"
