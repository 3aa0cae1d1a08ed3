"""Provenance: where every reported number comes from."""

from __future__ import annotations

import hashlib
import platform
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

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


# ---------------------------------------------------------------- the signature of a result (sacrebleu's idea)

# The signature's fixed fields, in order; every other ``key:value`` is an option of the study set away from its default.
SIGNATURE_HEAD = ("stats_mtbias", "study", "metric", "ci", "B", "seed", "level")
# Up to this many inputs are listed, each by the first 12 hex digits of its sha256; more are one digest of them all.
INPUTS_LISTED = 4
DIGITS = 12
# Written as %XX in a value: the field separators, the list separator, the mark of None, and line breaks.
_RESERVED = "%|:,~\n\r\t"
NONE = "~"


def _escape(text: str) -> str:
    return "".join(f"%{ord(c):02X}" if c in _RESERVED else c for c in str(text))


def _unescape(text: str) -> str:
    return re.sub(r"%([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), text)


def encode_value(value: Any) -> str:
    """One option's value in a signature: ``yes``/``no``, ``~`` for None, a list comma-separated, else its text."""
    if value is None:
        return NONE
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ",".join(_escape(v) for v in value)
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    return _escape(value)


def decode_value(text: str) -> str | list[str] | None:
    """What :func:`encode_value` wrote, untyped: None for ``~``, a list where there was a comma, else the text."""
    if text == NONE:
        return None
    parts = text.split(",")
    return [_unescape(p) for p in parts] if len(parts) > 1 else _unescape(text)


def input_digests(data: dict) -> tuple[str, ...]:
    """The inputs of a provenance record (name -> sha256) as a signature lists them: each one's first 12 hex digits
    in the order of their names, or, beyond :data:`INPUTS_LISTED` of them, ``N@digest``: their number and the first
    12 hex digits of the sha256 of their digests in that order (names left out: paths differ between machines)."""
    digests = [str(data[name]) for name in sorted(data)]
    if len(digests) <= INPUTS_LISTED:
        return tuple(d[:DIGITS] for d in digests)
    joined = hashlib.sha256("\n".join(digests).encode()).hexdigest()
    return (f"{len(digests)}@{joined[:DIGITS]}",)


@dataclass(frozen=True)
class Signature:
    """One line that says how a result was made, as sacrebleu's signature does for BLEU.

    ``stats_mtbias:VERSION|study:NAME|metric:M1,M2|ci:METHOD|B:N|seed:S|level:L|OPTION:VALUE|…|inputs:DIGEST,…``:
    the package version, the study, the table's metrics, the interval method (``+`` between two options that choose it
    together), the resamples, the seed and the confidence level (each left out when the result has none), then every
    option set away from its default that has an effect, then the inputs' sha256 digests (:func:`input_digests`).
    Equal inputs and options give the same line; any option or input that changes the numbers changes it.
    ``%``, ``|``, ``:``, ``,``, ``~`` and line breaks inside a value are written ``%XX``; ``~`` is None.

    Attributes
    ----------
    study : str
    version : str
    metrics : tuple of str
    ci : tuple of str
        The values of the options that choose the interval (e.g. ``("bootstrap", "bca")``).
    n_boot : int or None
    seed : int, str or None
        The seed; a text when a Generator was passed (its state is not in the signature).
    level : float or None
    options : dict
        Option name -> value (as given, or, parsed, the text: :func:`stats_mtbias.parse_signature` types them).
    inputs : tuple of str
    interval_options : tuple of str
        The option names of ``ci``'s values, in order (not written; known when made or typed by the parser).

    Examples
    --------
    >>> s = Signature("rates", "0.1.0", metrics=("female", "gap"), ci=("analytic",), seed=0, level=0.95,
    ...               options={"by": ["language"], "sample": "k"}, inputs=("1f729e6615f7",))
    >>> print(s)
    stats_mtbias:0.1.0|study:rates|metric:female,gap|ci:analytic|seed:0|level:0.95|by:language|sample:k|inputs:1f729e6615f7
    >>> Signature.parse(str(s)).format() == s.format()
    True
    """

    study: str
    version: str = __version__
    metrics: tuple = ()
    ci: tuple = ()
    n_boot: int | None = None
    seed: int | str | None = None
    level: float | None = None
    options: dict = field(default_factory=dict)
    inputs: tuple = ()
    interval_options: tuple = field(default=(), compare=False)

    @classmethod
    def of(
        cls,
        study: str,
        provenance: dict,
        *,
        metrics: Sequence[str] = (),
        ci: Sequence[str] = (),
        interval_options: Sequence[str] = (),
        options: dict | None = None,
    ) -> Signature:
        """The signature of a result: resamples, seed, level and inputs read from its provenance record."""
        n_boot = provenance.get("n_boot")
        level = provenance.get("level")
        return cls(
            study,
            str(provenance.get("package_version") or __version__),
            tuple(str(m) for m in metrics),
            tuple(str(c) for c in ci),
            None if n_boot is None else int(n_boot),
            provenance.get("seed"),
            None if level is None else float(level),
            dict(options or {}),
            input_digests(provenance.get("data") or {}),
            tuple(interval_options),
        )

    def format(self) -> str:
        """The one line."""
        head = {
            "stats_mtbias": _escape(self.version),
            "study": _escape(self.study),
            "metric": encode_value(list(self.metrics)) if self.metrics else None,
            "ci": "+".join(_escape(c).replace("+", "%2B") for c in self.ci) if self.ci else None,
            "B": None if self.n_boot is None else str(self.n_boot),
            "seed": None if self.seed is None else _escape(self.seed),
            "level": None if self.level is None else repr(float(self.level)),
        }
        fields_ = [f"{key}:{value}" for key, value in head.items() if value is not None]
        fields_ += [f"{_escape(name)}:{encode_value(value)}" for name, value in self.options.items()]
        fields_.append("inputs:" + ",".join(self.inputs))
        return "|".join(fields_)

    def __str__(self) -> str:
        return self.format()

    @classmethod
    def parse(cls, text: str) -> Signature:
        """A signature's line back into its fields; the options stay text (:func:`stats_mtbias.parse_signature`
        types them by the study's options).

        Raises
        ------
        ValueError
            Naming the field that is not ``key:value``, or the missing ``stats_mtbias`` or ``study``.
        """
        found: dict[str, str] = {}
        for position, part in enumerate(str(text).strip().split("|"), 1):
            key, colon, value = part.partition(":")
            if not colon or not key:
                raise ValueError(f"signature field {position} ({part!r}) is not key:value")
            if key in found:
                raise ValueError(f"signature field {position}: {key!r} is given twice")
            found[_unescape(key)] = value
        for key in ("stats_mtbias", "study"):
            if key not in found:
                raise ValueError(f"not a stats_mtbias signature: it has no {key!r} field ({text!r})")
        seed = found.pop("seed", None)
        if seed is not None:
            seed = int(seed) if re.fullmatch(r"-?\d+", seed) else _unescape(seed)
        metrics = found.pop("metric", None)
        ci = found.pop("ci", None)
        n_boot = found.pop("B", None)
        level = found.pop("level", None)
        inputs = found.pop("inputs", "")
        return cls(
            _unescape(found.pop("study")),
            _unescape(found.pop("stats_mtbias")),
            () if metrics is None else tuple(_unescape(m) for m in metrics.split(",")),
            () if ci is None else tuple(_unescape(c) for c in ci.split("+")),
            None if n_boot is None else int(n_boot),
            seed,
            None if level is None else float(level),
            {name: decode_value(value) for name, value in found.items()},
            tuple(i for i in inputs.split(",") if i),
        )

    def kwargs(self) -> dict[str, Any]:
        """The keywords that make the result again with ``smb.<study>(<the same inputs>, **kwargs)``: the options,
        the interval options, ``n_boot``, ``rng`` (an integer seed) and ``level``."""
        out = dict(zip(self.interval_options, self.ci))
        fitted = self.study.partition("/")[2]
        if fitted:  # a model's ("model/prates") names the study it fitted: smb.model(study=...)
            out["study"] = fitted
        out.update(self.options)
        if self.n_boot is not None:
            out["n_boot"] = self.n_boot
        if isinstance(self.seed, int):
            out["rng"] = self.seed
        if self.level is not None:
            out["level"] = self.level
        return out


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
