"""What every study of the full report shares: resamples, seed, level, MCMC settings, progress, warnings.

:class:`Settings` is the one configuration of ``make report``, ``stats-mtbias report``
and ``analyses/<study>.py``; :func:`collect_warnings` turns what a study warns about
into the notes of its section (each once, the data paths made relative).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from stats_mtbias import _defaults
from stats_mtbias._validation import check_level, check_positive_int
from stats_mtbias.report.document import collapse_notes
from stats_mtbias.significance.equivalence import check_margin


@dataclass
class Settings:
    """What every study of one report shares.

    Attributes
    ----------
    data_dir : str or Path, optional
        Directory of the public datasets (else ``$MTBIAS_DATA``, else the download cache).
    n_boot : int
        Bootstrap resamples of every interval and paired test.
    seed : int
        Seed of every random number.
    level : float
        Confidence level of the intervals.
    draws, tune, chains : int
        MCMC settings of the Bayesian models.
    prates_rates : bool
        Also fit the Prates rate model (about 3 minutes more).
    progress : bool or None
        Progress on the long steps: bars on a terminal, a line per stage elsewhere (None), or nothing (False).
    cache_fits : bool
        Read the model fits from the cache when nothing they depend on changed (see :func:`stats_mtbias.model`).
    margin : float, optional
        The equivalence margin δ (a share: 0.02 is ±2 points): beside each comparison of every
        section, in words, whether it is equivalent within ±δ, not shown or differs.

    Examples
    --------
    >>> Settings(n_boot=2000).as_dict()["n_boot"]
    2000
    >>> Settings(level=1.5)
    Traceback (most recent call last):
    ...
    stats_mtbias.errors.UsageError: `level` must be in (0, 1); got 1.5.
    """

    data_dir: str | Path | None = None
    n_boot: int = _defaults.N_BOOT
    seed: int = _defaults.SEED
    level: float = _defaults.LEVEL
    draws: int = 2000
    tune: int = 400
    chains: int = 2
    prates_rates: bool = False
    progress: bool | None = None
    cache_fits: bool = True
    margin: float | None = None
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        check_positive_int(self.n_boot, "n_boot", minimum=_defaults.MIN_BOOT)  # what every study accepts
        check_positive_int(self.draws, "draws")
        check_positive_int(self.chains, "chains")
        check_positive_int(self.tune, "tune", minimum=0)
        check_level(self.level)
        if self.margin is not None:
            self.margin = check_margin(self.margin)

    def cached(self, key: str, compute: Callable[[], object]) -> object:
        """`compute()` once per report (the models section reuses the TGBI result, Prates the optimal one)."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def iterate(self, items: Iterable, description: str) -> Iterator:
        """`items` with a progress bar on a terminal's stderr, or a line per stage with the elapsed time elsewhere
        (CI logs, ``nohup``), where a bar would be silent; nothing with ``progress=False``."""
        items = list(items)
        if self.progress is False:
            return iter(items)
        if self.progress or sys.stderr.isatty():
            from tqdm.auto import tqdm

            return iter(tqdm(items, desc=description, leave=False))
        return _stage_lines(items, description)

    @property
    def data_root(self) -> Path | None:
        """The data directory as given or in ``$MTBIAS_DATA`` (for making paths in notes relative)."""
        given = self.data_dir or os.environ.get("MTBIAS_DATA")
        return Path(given).expanduser().resolve() if given else None

    def as_dict(self) -> dict:
        """The settings a reader of the report needs (the report's provenance)."""
        return {
            "n_boot": self.n_boot,
            "seed": self.seed,
            "level": self.level,
            "draws": self.draws,
            "tune": self.tune,
            "chains": self.chains,
            "prates_rates": self.prates_rates,
            **({"margin": self.margin} if self.margin is not None else {}),
        }


_START = time.perf_counter()


def _stage_lines(items: list, description: str) -> Iterator:
    """A line on stderr as each stage starts and when the last ends, with the seconds since the run began."""
    started = time.perf_counter()
    for i, item in enumerate(items, 1):
        print(f"[{time.perf_counter() - _START:7.1f} s] {description}: {item} ({i}/{len(items)})", file=sys.stderr, flush=True)
        yield item
    print(
        f"[{time.perf_counter() - _START:7.1f} s] {description}: done in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
        flush=True,
    )


def note_text(text: str, root: Path | None = None) -> str:
    """A note as the report shows it: data paths relative to `root`, whitespace collapsed."""
    if root is not None:
        text = text.replace(f"{root}/", "")
    return re.sub(r"\s+", " ", text).strip()


def section_notes(notes, root: Path | None = None) -> list[str]:
    """Each distinct note once, in order (a result's own notes repeat the warnings it raised), and the same note of
    several systems or languages as one line (:func:`stats_mtbias.report.document.collapse_notes`)."""
    return collapse_notes([note_text(n, root) for n in notes])


@contextlib.contextmanager
def collect_warnings(notes: list[str] | None, root: Path | None = None, skip: tuple[type, ...] = ()) -> Iterator[list[str]]:
    """Keep each distinct warning raised inside as a note (data paths made relative to `root`), except `skip` categories.

    With `notes` None the warnings are kept only in the list yielded (a variant run's
    warnings belong to its own table's caption, not to the section's notes: the TGBI
    section's main run counts Papago's repeated block as unknown, the authors'-rules
    run keeps it, and both notes side by side contradict each other).
    """
    caught_notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught_notes
    for w in caught:
        if issubclass(w.category, (DeprecationWarning, FutureWarning, *skip)):
            continue
        text = note_text(str(w.message), root)
        if text not in caught_notes:
            caught_notes.append(text)
        if notes is not None and text not in notes:
            notes.append(text)
