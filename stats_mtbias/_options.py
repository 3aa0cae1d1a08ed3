"""How a study's options are declared: one frozen dataclass per study, each field made by :func:`option`.

The machinery only (:class:`Options`, :func:`option`, :class:`Applies`), in the foundation so that a study's own
module can declare its ``Options`` beside its ``Study`` record; :mod:`stats_mtbias.options` holds the shipped
studies' classes, their vocabularies, :func:`~stats_mtbias.options.validate` and the docs' tables, and re-exports
these names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

__all__ = ["KINDS", "Applies", "OptionInfo", "Options", "option"]


@dataclass(frozen=True)
class Applies:
    """When an option has an effect: ``test(values)`` on the options (an Options object, or the command line's
    namespace, which also has ``compare`` and ``view``), said as ``when`` (a flag, or a sentence starting with "(")."""

    when: str
    test: Callable[[Any], bool]


# How an option is given and checked. "choice": one of `choices`; "level": a number in (0, 1); "resamples": an
# integer of at least MIN_BOOT; "count": a positive integer; "flag": a bool; "column" (a column name, '' or None for
# none), "text" (a string: a column that must be named), "columns" (comma-separated names), "names" (comma-separated
# values) and "input" (a path or a frame): checked where they are used.
KINDS = ("choice", "level", "resamples", "count", "flag", "column", "columns", "names", "input", "text", "seed")


def option(
    default: Any = MISSING,
    help: str = "",
    *,
    kind: str = "text",
    choices: tuple[str, ...] | None = None,
    applies: Applies | None = None,
    flag: str | None = None,
    dest: str | None = None,
    cli: str = "auto",
    metavar: str | None = None,
    positional: bool = False,
) -> dict[str, Any]:
    """The keywords of ``dataclasses.field`` for one option, its metadata the one description of the option.

    Parameters
    ----------
    default : object
        The API default (omitted: a required keyword).
    help : str
        One sentence: the command line's ``--help``; the API docstring says the same at more length.
    kind : str
        One of :data:`KINDS`: how the value is checked and typed on the command line.
    choices : tuple of str, optional
        The accepted words (a library constant), for ``kind="choice"``.
    applies : Applies, optional
        When the option has an effect (None: always).
    flag, dest : str, optional
        The command-line option and its argparse ``dest`` (default ``--name`` and ``name``).
    cli : {"auto", "own"}
        ``"auto"``: the flag is added from this field (:func:`stats_mtbias.cli._options.add_options`);
        ``"own"``: the subcommand adds it itself (input files, shared options, flags with a parser of their own).
    metavar : str, optional
        The value's name in ``--help``.
    positional : bool
        The API function's first argument (what to analyse), passed on to the study by position.
    """
    if kind not in KINDS:
        raise ValueError(f"kind {kind!r} is not one of {KINDS}")
    if (kind == "choice") != (choices is not None):
        raise ValueError("choices go with kind='choice', and only there")
    metadata = {
        "help": help,
        "kind": kind,
        "choices": None if choices is None else tuple(choices),
        "applies": applies,
        "flag": flag,
        "dest": dest,
        "cli": cli,
        "metavar": metavar,
        "positional": positional,
    }
    return {"default": default, "metadata": metadata}


@dataclass(frozen=True)
class OptionInfo:
    """One option as the command line, the docs and the checks see it (a dataclass field and its metadata)."""

    name: str
    default: Any
    help: str
    kind: str
    choices: tuple[str, ...] | None
    applies: Applies | None
    flag: str
    dest: str
    cli: str
    metavar: str | None
    positional: bool

    @property
    def required(self) -> bool:
        return self.default is MISSING


@dataclass(frozen=True)
class Options:
    """The options of one study: subclasses declare them as fields made by :func:`option`."""

    STUDY: ClassVar[str] = ""

    @classmethod
    def info(cls) -> tuple[OptionInfo, ...]:
        """Every option, in the order of the API signature."""
        out = []
        for f in fields(cls):
            m = f.metadata
            out.append(
                OptionInfo(
                    name=f.name,
                    default=f.default,
                    help=m["help"],
                    kind=m["kind"],
                    choices=m["choices"],
                    applies=m["applies"],
                    flag=m["flag"] or "--" + f.name.replace("_", "-"),
                    dest=m["dest"] or f.name,
                    cli=m["cli"],
                    metavar=m["metavar"],
                    positional=m["positional"],
                )
            )
        return tuple(out)

    def kwargs(self) -> dict[str, Any]:
        """The options as keywords, but the first (positional) argument (no copy of the values: frames pass as they
        are)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if not f.metadata["positional"]}

    def ignored(self, *, counts: bool = True) -> list[str]:
        """The options set away from their default that have no effect with the others (``"… has no effect …"``).

        ``counts=False`` leaves out the resample counts (``n_boot``, …): one count passed to every run is a budget,
        not a request that goes unmet.
        """
        found = []
        for item in self.info():
            value = getattr(self, item.name)
            if item.applies is None or _same(value, item.default) or item.applies.test(self):
                continue
            if not counts and item.kind == "resamples":
                continue
            when = _api_when(item.applies.when)
            said = f"it applies only with {when}" if item.applies.when.startswith("-") else when
            found.append(f"`{item.name}`={value!r} has no effect here: {said}")
        return found


def _same(value, default) -> bool:
    if value is default:
        return True
    try:
        return bool(value == default)
    except (TypeError, ValueError):  # a frame or an array: never the default
        return False


def _api_when(when: str) -> str:
    """A command-line condition in the API's words: ``--test permutation`` → ``test='permutation'``,
    ``--interval percentile|bca`` → ``interval='percentile' or interval='bca'``, ``--outputs`` → ``outputs``."""

    def keyword(match: re.Match) -> str:
        name = match.group(1).replace("-", "_")
        return " or ".join(f"{name}={value!r}" for value in match.group(2).split("|")) if match.group(2) else name

    return re.sub(r"--([a-z][\w-]*)(?: ([a-z][\w|-]*))?", keyword, when)
