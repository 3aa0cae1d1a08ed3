"""Do a file's outputs belong to the sources beside them? A cheap check of line correspondence, before any scoring.

A translation is long where its source is long: over a file, the correlation of the
log lengths of source *i* and output *i* is high (0.62–0.89 on every shipped WinoMT
file), and the correlation of source *i* with output *i + k* for a shift *k* ≠ 0 is
much lower (0.34–0.52: neighbouring WinoMT sentences are alike, but not that alike).
A file whose output column slipped by *k* lines shows the pattern moved to lag *k*;
a shuffled file shows no correlation at any lag. Both are said before the file is
scored, since a misaligned file is scored without any other sign (a shifted
Portuguese file: Acc 21.1 instead of 83.2).

The rule, in Fisher's z (standard error ``1/√(n − 3)`` per correlation):

- ``shifted`` by *k*: ``z(r_k) − z(r_0) > 3·√(2/(n − 3))`` for the best *k* in ±1…±``max_shift``, and
  ``r_k > 5/√n`` (no chance maximum of ten correlations of unrelated lines);
- ``unrelated``: not shifted, and ``r_0 < 3/√n`` (no evidence that lengths go together at all);
- ``aligned`` otherwise; fewer than :data:`MIN_LINES` usable lines are not judged (``too_short``), nor are
  lines of nearly one length (``uninformative``: the log lengths' standard deviation below
  :data:`MIN_SPREAD`, where every real file has 0.15 or more — templated outputs such as "He is tired.").
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from stats_mtbias.errors import DataQualityWarning

__all__ = ["MIN_LINES", "MIN_SPREAD", "Correspondence", "check_lines", "line_correspondence"]

MIN_LINES = 20  # below this a correlation cannot tell a shift from chance
MIN_SPREAD = 0.08  # SD of log lengths: the shipped WinoMT and TGBI files have 0.15-0.45 (sources and outputs)
MAX_SHIFT = 5
EMPTY = frozenset({"", "None", "none", "nan"})


@dataclass(frozen=True)
class Correspondence:
    """The verdict of :func:`line_correspondence`.

    Attributes
    ----------
    verdict : {"aligned", "shifted", "unrelated", "too_short", "uninformative"}
    shift : int
        The likely shift (output line *i + shift* belongs to source line *i*); 0 unless ``shifted``.
    n : int
        Lines with both a source and an output.
    r : dict of int to float
        The correlation of log lengths at each shift (0 is the file as given).
    """

    verdict: str
    shift: int
    n: int
    r: dict[int, float] = field(repr=False)

    @property
    def ok(self) -> bool:
        return self.verdict in ("aligned", "too_short", "uninformative")

    def flag(self) -> str:
        """A short flag for a result's ``flag`` column ('' when nothing is wrong)."""
        if self.verdict == "shifted":
            return f"outputs look shifted by {self.shift:+d} line(s) against their sources: check the file"
        if self.verdict == "unrelated":
            return "outputs do not follow their sources (shuffled or another file?): check the file"
        return ""

    def describe(self) -> str:
        """The evidence in words: the correlation as given and at the likely shift."""
        r0 = self.r.get(0, float("nan"))
        if self.verdict == "shifted":
            return (
                f"source and output lengths correlate {r0:.2f} line by line but {self.r[self.shift]:.2f} with "
                f"the output {abs(self.shift)} line(s) {'further down' if self.shift > 0 else 'further up'}"
            )
        return f"source and output lengths correlate {r0:.2f} line by line (0.6–0.9 in a file that is in order)"


def _lengths(texts: Sequence) -> np.ndarray:
    out = np.full(len(texts), np.nan)
    for i, text in enumerate(texts):  # one pass of len(); no per-row pandas work
        if isinstance(text, str):
            stripped = text.strip()
            if stripped not in EMPTY:
                out[i] = np.log1p(len(stripped))
    return out


def _correlation(x: np.ndarray, y: np.ndarray) -> tuple[float, int]:
    keep = ~(np.isnan(x) | np.isnan(y))
    n = int(keep.sum())
    if n < 3:
        return float("nan"), n
    x, y = x[keep] - x[keep].mean(), y[keep] - y[keep].mean()
    denominator = np.sqrt((x * x).sum() * (y * y).sum())
    return (float((x * y).sum() / denominator) if denominator > 0 else float("nan")), n


def line_correspondence(sources: Sequence, outputs: Sequence, *, max_shift: int = MAX_SHIFT) -> Correspondence:
    """Whether ``outputs[i]`` belongs to ``sources[i]``, judged from their lengths at shifts 0, ±1, …, ±`max_shift`.

    Parameters
    ----------
    sources, outputs : sequences of str
        In file order; an empty or missing output (``""``, ``None``, ``"None"``) is left out of the correlations.
    max_shift : int
        The largest shift looked for.

    Returns
    -------
    Correspondence

    Examples
    --------
    >>> sources = [f"The {'very ' * (i % 7)}old clerk{'s' * (i % 3)} left." for i in range(60)]
    >>> outputs = [s.replace("old", "viejo") for s in sources]
    >>> line_correspondence(sources, outputs).verdict
    'aligned'
    >>> moved = line_correspondence(sources, outputs[1:] + outputs[:1])
    >>> moved.verdict, moved.shift
    ('shifted', -1)
    """
    if len(sources) != len(outputs):
        raise ValueError(f"{len(sources)} sources and {len(outputs)} outputs: pair them line by line")
    x, y = _lengths(sources), _lengths(outputs)
    n_total = len(x)
    r: dict[int, float] = {}
    counts: dict[int, int] = {}
    for k in range(-min(max_shift, n_total - 1), min(max_shift, n_total - 1) + 1):
        if k >= 0:
            r[k], counts[k] = _correlation(x[: n_total - k], y[k:])
        else:
            r[k], counts[k] = _correlation(x[-k:], y[: n_total + k])
    n = counts.get(0, 0)
    if n < MIN_LINES:
        return Correspondence("too_short", 0, n, r)
    if np.isnan(r[0]) or min(np.nanstd(x), np.nanstd(y)) < MIN_SPREAD:
        return Correspondence("uninformative", 0, n, r)
    z = {k: np.arctanh(np.clip(v, -0.999999, 0.999999)) for k, v in r.items() if not np.isnan(v)}
    others = [k for k in z if k != 0]
    if others:
        best = max(others, key=lambda k: z[k])
        # Stands out from lag 0, and is itself no chance value among 2·max_shift tries (P < 1e-5 per file).
        if z[best] - z[0] > 3.0 * np.sqrt(2.0 / (n - 3)) and r[best] > 5.0 / np.sqrt(n):
            return Correspondence("shifted", best, n, r)
    if r[0] < 3.0 / np.sqrt(n):
        return Correspondence("unrelated", 0, n, r)
    return Correspondence("aligned", 0, n, r)


def check_lines(sources: Sequence, outputs: Sequence, *, label: str, path=None, stacklevel: int = 3) -> Correspondence:
    """:func:`line_correspondence`, with a :class:`DataQualityWarning` naming `label`, the file and the likely shift.

    Examples
    --------
    >>> import warnings
    >>> sources = [f"The {'very ' * (i % 7)}old clerk{'s' * (i % 3)} left." for i in range(60)]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     found = check_lines(sources, sources[2:] + sources[:2], label="mine/es", path="en-es.txt")
    >>> print(caught[0].message)  # doctest: +ELLIPSIS
    mine/es (en-es.txt): outputs look shifted by -2 line(s) against their sources: check the file; source and ...
    """
    found = line_correspondence(sources, outputs)
    if not found.ok:
        where = f" ({path})" if path is not None else ""
        warnings.warn(
            f"{label}{where}: {found.flag()}; {found.describe()}. It is scored as given, flagged.",
            DataQualityWarning,
            stacklevel=stacklevel,
        )
    return found
