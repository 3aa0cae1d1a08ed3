"""Where the public datasets live: a manifest, a resolution order and a download cache.

Resolution order for the data directory:

1. the ``data_dir`` argument (``--data-dir`` on the command line);
2. the environment variable ``MTBIAS_DATA``;
3. a user cache (``MTBIAS_CACHE``, else ``$XDG_CACHE_HOME/stats_mtbias``, else
   ``~/.cache/stats_mtbias``), filled on demand by downloading each file from its
   public source and checking its sha256 against the manifest.

This module and the readers beside it are the only code that touches the file
system or the network.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import urllib.parse
import warnings
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from stats_mtbias._cache import ENV_CACHE, default_cache_dir
from stats_mtbias._files import check_writable_dir
from stats_mtbias._validation import check_choice
from stats_mtbias.errors import ChecksumError, ChecksumWarning, DataError, DataNotFoundError, UsageError
from stats_mtbias.provenance import Provenance, sha256_file

ENV_DATA = "MTBIAS_DATA"
ENV_MIRROR = "MTBIAS_MIRROR"


@dataclass(frozen=True)
class ManifestEntry:
    """One public file: where it is in the data directory and where it comes from."""

    path: str
    dataset: str
    source_path: str
    url: str
    sha256: str
    size: int


@cache
def manifest() -> dict[str, ManifestEntry]:
    """The manifest shipped in ``data/manifest.json``, keyed by relative path."""
    text = resources.files("stats_mtbias._data").joinpath("manifest.json").read_text("utf-8")
    raw = json.loads(text)
    return {entry["path"]: ManifestEntry(**entry) for entry in raw["files"]}


def _three_ways(cache_dir: Path) -> str:
    return (
        "Provide it in one of three ways: (1) pass --data-dir DIR (data_dir=DIR) pointing at a "
        "copy of the datasets laid out as in the manifest; (2) set the environment variable "
        f"{ENV_DATA}=DIR; (3) leave both unset and let stats_mtbias download the file from its "
        f"public source into the cache {cache_dir} (needs internet; {ENV_CACHE} moves the cache)."
    )


@dataclass
class DataStore:
    """A data directory and how it was chosen; hands out verified file paths.

    Use :func:`open_store` to make one. Every file handed out is recorded with
    its sha256 in :attr:`used`, for the provenance of the results.
    """

    root: Path
    origin: str  # "data_dir", "MTBIAS_DATA" or "cache"
    download: bool = True
    mirror: str | None = None
    used: dict[str, str] = field(default_factory=dict)

    def path(self, relpath: str) -> Path:
        """The local path of a dataset file, downloading it into the cache if needed.

        Parameters
        ----------
        relpath : str
            Path relative to the data directory, e.g. ``"tgbi/data_tgbi/set1_informal.txt"``.

        Raises
        ------
        DataNotFoundError
            If the file is missing and cannot be downloaded.
        ChecksumError
            If a download does not match the manifest's sha256.
        """
        target = self.root / relpath
        entry = manifest().get(relpath)
        if target.is_file():
            digest = sha256_file(target)
            if entry is not None and digest != entry.sha256:
                if self.origin == "cache":
                    # A corrupt cache entry is replaced rather than trusted.
                    target.unlink()
                    return self.path(relpath)
                warnings.warn(
                    f"{target} differs from the published file (sha256 {digest[:12]}…, manifest "
                    f"{entry.sha256[:12]}…); results are computed on the local file.",
                    ChecksumWarning,
                    stacklevel=2,
                )
            self.used[relpath] = digest
            return target
        if self.origin != "cache":
            where = "--data-dir" if self.origin == "data_dir" else f"${ENV_DATA}"
            raise DataNotFoundError(
                f"{relpath} is not in the data directory {self.root} (given by {where}). " + _three_ways(default_cache_dir())
            )
        if entry is None:
            raise DataNotFoundError(
                f"{relpath} is not in the cache {self.root} and is not a published file the "
                "manifest knows how to download. " + _three_ways(self.root)
            )
        if not self.download:
            raise DataNotFoundError(
                f"{relpath} is not in the cache {self.root} and downloads are switched off. " + _three_ways(self.root)
            )
        self._download(entry, target)
        self.used[relpath] = entry.sha256
        return target

    def _download(self, entry: ManifestEntry, target: Path, progressbar: bool = False) -> None:
        """Fetch `entry` into `target`, sha256-checked, atomically (pooch: a temporary file, then a rename).

        The mirror may be a URL laid out like the data directory, or a local directory (a path or ``file://``),
        which is copied from and checked the same way.
        """
        url = entry.url
        local = _local_mirror(self.mirror)
        if self.mirror and local is None:
            url = self.mirror.rstrip("/") + "/" + urllib.parse.quote(entry.path)
        target.parent.mkdir(parents=True, exist_ok=True)
        if local is not None:
            self._copy_checked(local / entry.path, entry, target)
            return
        import pooch
        import requests

        pooch.get_logger().setLevel("WARNING")  # its "Downloading data from ..." line; progress is ours to show
        try:
            pooch.retrieve(
                url,
                known_hash=f"sha256:{entry.sha256}",
                fname=target.name,
                path=target.parent,
                downloader=pooch.HTTPDownloader(progressbar=progressbar, timeout=60),
            )
        except ValueError as exc:
            if "hash" not in str(exc).lower():
                raise
            raise ChecksumError(
                f"download of {entry.path} from {url} does not have the sha256 the manifest says ({entry.sha256}); "
                "the file was not kept. The source may have changed: provide a verified copy with --data-dir or MTBIAS_DATA."
            ) from None
        except (requests.exceptions.RequestException, OSError) as exc:
            raise DataNotFoundError(
                f"{entry.path} is not in {self.root} and could not be downloaded from {url} ({exc}). " + _three_ways(self.root)
            ) from None

    def _copy_checked(self, source: Path, entry: ManifestEntry, target: Path) -> None:
        if not source.is_file():
            where = f"{entry.path} is not in the mirror {source.parent} ({ENV_MIRROR}). "
            raise DataNotFoundError(where + _three_ways(self.root))
        fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=".part-")
        tmp = Path(tmp_name)
        try:
            with open(source, "rb") as src, os.fdopen(fd, "wb") as out:
                shutil.copyfileobj(src, out)
            digest = sha256_file(tmp)
            if digest != entry.sha256:
                raise ChecksumError(f"{source} has sha256 {digest}, but the manifest says {entry.sha256}; the file was not kept.")
            os.replace(tmp, target)
        finally:
            if tmp.exists():
                tmp.unlink()

    def status(self, relpath: str) -> str:
        """``ok`` (sha256 as published), ``differs``, ``missing`` or ``unknown`` (not in the manifest)."""
        target, entry = self.root / relpath, manifest().get(relpath)
        if not target.is_file():
            return "missing"
        if entry is None:
            return "unknown"
        return "ok" if sha256_file(target) == entry.sha256 else "differs"

    def fetch(self, relpath: str, progressbar: bool = False) -> str:
        """Make sure `relpath` is here and verified: ``present`` (already), ``downloaded`` or ``replaced`` (was corrupt)."""
        entry = manifest()[relpath]
        state = self.status(relpath)
        if state == "ok":
            self.used[relpath] = entry.sha256
            return "present"
        self._download(entry, self.root / relpath, progressbar)
        self.used[relpath] = entry.sha256
        return "downloaded" if state == "missing" else "replaced"


def _local_mirror(mirror: str | None) -> Path | None:
    """The mirror as a local directory, if it is one (a path or a ``file://`` URL)."""
    if not mirror:
        return None
    if mirror.startswith("file://"):
        return Path(urllib.parse.unquote(urllib.parse.urlparse(mirror).path))
    if "://" not in mirror:
        return Path(mirror).expanduser()
    return None


def datasets() -> dict[str, list[str]]:
    """The manifest's files per dataset (``tgbi``, ``winomt``, ``prates``)."""
    out: dict[str, list[str]] = {}
    for path, entry in manifest().items():
        out.setdefault(entry.dataset, []).append(path)
    return out


def open_store(
    data_dir: str | Path | None = None,
    *,
    cache_dir: str | Path | None = None,
    download: bool = True,
    mirror: str | None = None,
) -> DataStore:
    """Choose the data directory by the resolution order and return a :class:`DataStore`.

    Parameters
    ----------
    data_dir : str or Path, optional
        An explicit data directory (``--data-dir``); wins over everything else.
    cache_dir : str or Path, optional
        The cache to download into when neither ``data_dir`` nor ``MTBIAS_DATA`` is set.
    download : bool, default True
        Whether missing cache files may be downloaded.
    mirror : str, optional
        Base URL of a server laid out like the data directory, used instead of the
        public sources (also read from ``MTBIAS_MIRROR``).
    """
    mirror = mirror or os.environ.get(ENV_MIRROR) or None
    if data_dir is not None:
        root = Path(data_dir).expanduser()
        if not root.is_dir():
            raise DataNotFoundError(f"--data-dir {root} is not a directory.")
        return DataStore(root=root, origin="data_dir", download=False, mirror=mirror)
    if os.environ.get(ENV_DATA):
        root = Path(os.environ[ENV_DATA]).expanduser()
        if not root.is_dir():
            raise DataNotFoundError(f"{ENV_DATA}={root} is not a directory.")
        return DataStore(root=root, origin="MTBIAS_DATA", download=False, mirror=mirror)
    root = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
    if download:
        # Downloads land in the cache: an unusable one is refused now, not after the work.

        check_writable_dir(root, f"the download cache ({ENV_CACHE} or the user cache directory)")
    return DataStore(root=root, origin="cache", download=download, mirror=mirror)


# ---------------------------------------------------------------- inventories (``stats-mtbias data``)

ACTIONS = ("list", "download", "verify")
FILE_COLUMNS = ["dataset", "path", "size", "status"]  # and "action" after a download
SUMMARY_COLUMNS = ["dataset", "files", "megabytes", "ok", "differs", "missing"]


@dataclass
class Inventory:
    """The public files of some datasets in one data directory, and what was done to them.

    Attributes
    ----------
    files : DataFrame
        One row per file: ``dataset, path, size, status`` (``ok``, ``differs``,
        ``missing``), and ``action`` (``present``, ``downloaded``, ``replaced``)
        after a download.
    store : DataStore
        The data directory and how it was chosen.
    """

    files: object
    store: DataStore
    action: str

    def summary(self):
        """One row per dataset: ``dataset, files, megabytes, ok, differs, missing``."""
        import pandas as pd

        files = self.files
        if not len(files):
            return pd.DataFrame(columns=SUMMARY_COLUMNS)
        out = files.groupby("dataset", as_index=False, sort=False).agg(files=("path", "size"), megabytes=("size", "sum"))
        out["megabytes"] = out["megabytes"] / 1e6
        for state in ("ok", "differs", "missing"):
            counts = files[files["status"] == state].groupby("dataset").size()
            out[state] = out["dataset"].map(counts).fillna(0).astype(int)
        return out[SUMMARY_COLUMNS]

    def provenance(self) -> dict:
        """What was checked against what: the sha256 of every file present, the datasets and the directory."""
        entries = manifest()
        paths = self.files["path"].tolist() if len(self.files) else []
        return Provenance(
            method=f"stats-mtbias data {self.action}: sha256 of every file against data/manifest.json",
            data={p: entries[p].sha256 for p in paths if (self.store.root / p).is_file()},
            options={
                "datasets": sorted(set(self.files["dataset"])) if len(self.files) else [],
                "root": str(self.store.root),
                "origin": self.store.origin,
            },
        ).to_dict()

    def check(self) -> None:
        """Raise when a file differs from the published one (:class:`ChecksumError`, exit 65) or is missing (66)."""
        files = self.files
        differs = files.loc[files["status"] == "differs", "path"].tolist() if len(files) else []
        missing = files.loc[files["status"] == "missing", "path"].tolist() if len(files) else []
        if differs:
            raise DataError(
                f"{len(differs)} file(s) differ from the published ones (e.g. {self.store.root / differs[0]}); "
                "run `stats-mtbias data download` to replace them in the cache, or fix the copy."
            )
        if missing:
            raise DataNotFoundError(
                f"{len(missing)} file(s) missing from {self.store.root} (e.g. {missing[0]}); "
                "`stats-mtbias data download` fetches them."
            )


def check_datasets(names: list[str] | None) -> list[str]:
    """The datasets named (default: all), refusing an unknown name with the list of known ones."""
    known = datasets()
    wanted = list(names) if names else sorted(known)
    unknown = sorted(set(wanted) - set(known))
    if unknown:
        raise UsageError(f"unknown dataset(s) {', '.join(unknown)}; the datasets are {', '.join(sorted(known))}.")
    return wanted


def inventory(
    names: list[str] | None = None, *, data_dir: str | Path | None = None, action: str = "list", progress=None
) -> Inventory:
    """List, download or verify the public files of some datasets (default: all) in the data directory.

    Parameters
    ----------
    names : list of str, optional
        Datasets (``tgbi``, ``winomt``, ``prates``); default all.
    data_dir : path, optional
        The data directory (else ``MTBIAS_DATA``, else the cache). A download fills
        the directory named, not only the cache.
    action : {"list", "download", "verify"}
        ``list`` and ``verify`` read the files' sha256; ``download`` fetches what is
        missing or differs (resumable: files already right are kept). ``verify``
        does not raise: :meth:`Inventory.check` does.
    progress : callable, optional
        Called after each file of a download as ``progress(index, total, entry, state)``.

    Returns
    -------
    Inventory
    """
    import pandas as pd

    check_choice(action, ACTIONS, "action")
    wanted = check_datasets(names)
    store = open_store(data_dir)
    if action == "download" and store.origin != "cache":  # fill the directory the user named
        store = DataStore(root=store.root, origin=store.origin, download=True, mirror=store.mirror)
    known, entries = datasets(), manifest()
    paths = [p for d in wanted for p in sorted(known[d])]
    rows = []
    for i, path in enumerate(paths, 1):
        entry = entries[path]
        row = {"dataset": entry.dataset, "path": path, "size": entry.size}
        if action == "download":
            state = store.fetch(path)
            rows.append({**row, "status": "ok", "action": state})
            if progress is not None:
                progress(i, len(paths), entry, state)
        else:
            rows.append({**row, "status": store.status(path)})
    columns = FILE_COLUMNS + (["action"] if action == "download" else [])
    return Inventory(pd.DataFrame(rows, columns=columns), store, action)
