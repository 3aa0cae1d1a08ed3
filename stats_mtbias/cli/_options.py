"""The options every subcommand shares, their parsing helpers, and the old spellings that still work.

Every ``choices=`` comes from :mod:`stats_mtbias.options` (the library's own
constants) and every default from :mod:`stats_mtbias._defaults`, so the command
line accepts what the API accepts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import ClassVar

from stats_mtbias import _defaults
from stats_mtbias import options as vocabulary
from stats_mtbias._version import __version__
from stats_mtbias.errors import UsageError

MIN_BOOT = _defaults.MIN_BOOT
# The release in which the old spellings listed in CHANGELOG.md stop working.
REMOVED_IN = "0.3.0"
DATA_DIR_HELP = "directory of the public datasets (else $MTBIAS_DATA, else the download cache)"


class Parser(argparse.ArgumentParser):
    """argparse with the package's exit code for usage errors (64, EX_USAGE) instead of argparse's 2."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(64, f"{self.prog}: error: {message}\n")


def n_boot(text: str) -> int:
    """``--n-boot``: at least MIN_BOOT, or the 2.5% and 97.5% percentiles and small p-values cannot be read off."""
    value = whole(text)
    if value < MIN_BOOT:
        raise argparse.ArgumentTypeError(
            f"{value} is too few: at least {MIN_BOOT} resamples are needed to place a 95% interval's 2.5% and 97.5% "
            "percentiles and to give p-values below 0.01 (10000 for published numbers)"
        )
    return value


def whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def names(text: str | None) -> list[str] | None:
    """A comma-separated list (None stays None; '' is the empty list)."""
    return None if text is None else [s.strip() for s in text.split(",") if s.strip()]


def named(paths: list[str], systems: list[str]) -> dict[str, str]:
    """``--translations`` paired with ``--system`` names (default: the file's stem)."""
    if len(systems) > len(paths):
        raise UsageError("--system was given more often than --translations.")
    out: dict[str, str] = {}
    for i, path in enumerate(paths):
        name = systems[i] if i < len(systems) else Path(path).stem
        if name in out:
            raise UsageError(f"two --translations are called {name!r}; name them with --system.")
        out[name] = path
    return out


# ---------------------------------------------------------------- old spellings


def deprecate(namespace: argparse.Namespace, old: str, new: str) -> None:
    """Record that `old` was used: main prints it once as a FutureWarning naming `new`."""
    message = f"{old} is deprecated and stops working in {REMOVED_IN}: use {new} (see CHANGELOG.md)"
    namespace.deprecated = [*getattr(namespace, "deprecated", []), message]


class Renamed(argparse.Action):
    """An old option that stores into the new option's `dest`, mapped through `mapping` (or `const` for a flag)."""

    def __init__(self, option_strings, dest, *, new: str, mapping: dict | None = None, **kwargs):
        self.new, self.mapping = new, mapping
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        value = self.const if self.nargs == 0 else values
        if self.mapping is not None:
            value = self.mapping[value]
        shown = f"{option_string} {values}" if self.nargs != 0 and self.mapping is not None else option_string
        new = self.new.format(value=value)
        deprecate(namespace, shown, new)
        setattr(namespace, self.dest, value)


def renamed(parser, old: str, dest: str, new: str, *, flag_value=None, mapping: dict | None = None, **kwargs) -> None:
    """Keep `old` working for one release: it sets `dest` as `new` would, with a FutureWarning.

    A flag (``flag_value`` given) sets ``dest`` to that value; an option with a value
    passes it through `mapping` if given. Hidden from ``--help`` (the new spelling is shown).
    """
    if flag_value is not None:
        parser.add_argument(
            old, dest=dest, action=Renamed, nargs=0, const=flag_value, new=new, default=argparse.SUPPRESS, help=argparse.SUPPRESS
        )
    else:
        parser.add_argument(
            old, dest=dest, action=Renamed, new=new, mapping=mapping, default=argparse.SUPPRESS, help=argparse.SUPPRESS, **kwargs
        )


class Alternative(argparse.Action):
    """``--alternative``: two-sided, less or greater; the old ``one-sided`` is ``greater``, with a FutureWarning."""

    OLD: ClassVar[dict] = {"one-sided": "greater"}

    def __call__(self, parser, namespace, values, option_string=None):
        if values in self.OLD:
            deprecate(namespace, f"{option_string} {values}", f"{option_string} {self.OLD[values]}")
            values = self.OLD[values]
        setattr(namespace, self.dest, values)


class OldCI(argparse.Action):
    """``--ci analytic|bootstrap`` (before 0.3.0): one ``--interval`` now, ``score`` or a bootstrap interval; an
    ``--interval`` given before it is kept, as it was."""

    def __call__(self, parser, namespace, values, option_string=None):
        if values == "analytic":
            namespace.interval = "score"
        elif namespace.interval == "score":
            namespace.interval = "percentile"
        new = "--interval score" if values == "analytic" else f"--interval {namespace.interval} (or another bootstrap interval)"
        deprecate(namespace, f"{option_string} {values}", new)


def add_old_ci(parser) -> None:
    """The retired ``--ci`` of tgbi and rates, hidden from ``--help``."""
    parser.add_argument(
        "--ci", choices=vocabulary.OLD_CI, action=OldCI, dest="old_ci", default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )


def add_alternative(parser, help: str) -> None:
    parser.add_argument(
        "--alternative",
        choices=(*vocabulary.ALTERNATIVES, *Alternative.OLD),
        action=Alternative,
        default="two-sided",
        metavar="{" + ",".join(vocabulary.ALTERNATIVES) + "}",
        help=help,
    )


# ---------------------------------------------------------------- shared options


def add_data_dir(parser) -> None:
    parser.add_argument("--data-dir", help=DATA_DIR_HELP)


def add_seed(parser) -> None:
    parser.add_argument(
        "--seed", type=int, default=_defaults.SEED, help=f"seed of every random number (default {_defaults.SEED})"
    )


def add_n_boot(parser, default: int = _defaults.N_BOOT, help: str | None = None) -> None:
    parser.add_argument(
        "--n-boot", type=n_boot, default=default, help=help or f"bootstrap resamples (default {default}, at least {MIN_BOOT})"
    )


def add_level(parser, help: str | None = None) -> None:
    parser.add_argument(
        "--level",
        type=float,
        default=_defaults.LEVEL,
        help=help or f"confidence level of every interval (default {_defaults.LEVEL})",
    )


def add_format(parser, out_help: str | None = None) -> None:
    parser.add_argument(
        "--format",
        choices=vocabulary.FORMATS,
        default="table",
        help="table: for a person (shares shown as percent, labelled %%); json (a list of flat "
        "records whose keys are the columns) or csv: shares in [0, 1], as the API gives them",
    )
    parser.add_argument(
        "--out",
        help=out_help or "write the output to this file instead of stdout (its provenance beside it: FILE.provenance.json)",
    )


def add_show(parser) -> None:
    """What is printed besides the result: the provenance on request, nothing else with --quiet."""
    parser.add_argument(
        "--provenance",
        action="store_true",
        help="also print the provenance: under a table, or as one JSON line on stderr with json/csv",
    )
    parser.add_argument("--quiet", action="store_true", help="print the result only: no notes, warnings or progress")


def add_strict(parser) -> None:
    parser.add_argument(
        "--strict", action="store_true", help="exit 65 after the output when a data-quality warning or a degenerate result occurs"
    )


def add_margin(parser) -> None:
    """``--margin``: the comparisons with their equivalence test (TOST) within ±MARGIN."""
    parser.add_argument(
        "--margin",
        type=float,
        default=None,
        metavar="SHARE",
        help="print the comparisons with the equivalence test within ±SHARE (0.02 = ±2 points): p_equivalent, "
        "p_equivalent_adjusted, equivalent and verdict (equivalent, not shown, differs) per comparison",
    )


def add_view(parser, frames: tuple[str, ...], default: str, help: str = "") -> None:
    """``--view NAME``: which public view to print: ``table`` (the tidy estimates) or one of the study's frames."""
    parser.add_argument(
        "--view",
        choices=("table", *frames),
        default=None,
        metavar="NAME",
        help=f"what to print: table (the tidy estimates: system, language, subset, metric, estimate, "
        f"ci_low, ci_high, n) or a frame of the result: {', '.join(frames)} "
        f"(default {default}){help}",
    )


def add_study(parser) -> None:
    """The options of every study subcommand that are not the study's own (its own: :func:`add_options`)."""
    add_data_dir(parser)
    add_seed(parser)
    add_strict(parser)
    add_format(parser)
    add_show(parser)


# ---------------------------------------------------------------- a study's options, from its Options class


def column(text: str) -> str | None:
    """A column name; '' for none."""
    return text.strip() or None


# How an option of each kind is read from the command line (a choice by its choices, a flag by store_true).
TYPES = {"level": float, "resamples": n_boot, "count": whole, "column": column}


def cli_default(item: vocabulary.OptionInfo):
    """The parser's default of an option: the API's, but None for a list given as comma-separated text."""
    return None if item.kind in ("names", "columns") else item.default


def argument(item: vocabulary.OptionInfo) -> dict:
    """The ``add_argument`` keywords of one option: its type, choices, default and help come from its field."""
    kwargs: dict = {"dest": item.dest}
    if item.kind == "flag":
        return {**kwargs, "action": "store_true", "help": item.help}
    if item.required:
        kwargs["required"] = True
    else:
        kwargs["default"] = cli_default(item)
    if item.kind == "choice":
        kwargs["choices"] = item.choices
    elif item.kind in TYPES:
        kwargs["type"] = TYPES[item.kind]
    if item.metavar:
        kwargs["metavar"] = item.metavar
    said = [f"with {item.applies.when}"] if item.applies and item.applies.when.startswith("--") else []
    said += [] if item.required or item.default in (None, ()) else [f"default {item.default}"]
    kwargs["help"] = (item.help + (f" ({'; '.join(said)})" if said else "")).replace("%", "%%")
    return kwargs


class OldValue(argparse.Action):
    """A choice that takes old words too (``self.old``: old → new), each said once as deprecated."""

    def __init__(self, option_strings, dest, *, old: dict, **kwargs):
        self.old = old
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        if values in self.old:
            deprecate(namespace, f"{option_string} {values}", f"{option_string} {self.old[values]}")
            values = self.old[values]
        setattr(namespace, self.dest, values)


def add_options(parser, options: type[vocabulary.Options], old: dict[str, dict[str, str]] | None = None) -> None:
    """Add the flags of a study's options made here (``cli="auto"``), each from its field; the subcommand adds
    its input files and the options it parses itself. ``old`` maps an option to its old words (old → new), still
    accepted for one release."""
    old = old or {}
    for item in options.info():
        if item.cli != "auto":
            continue
        kwargs = argument(item)
        if item.name in old:
            kwargs.update(action=OldValue, old=old[item.name], choices=(*item.choices, *old[item.name]))
            kwargs["metavar"] = "{" + ",".join(item.choices) + "}"
        parser.add_argument(item.flag, **kwargs)


def values(args: argparse.Namespace, options: type[vocabulary.Options]) -> dict:
    """The API keywords of the options :func:`add_options` added, read from the parsed arguments."""
    found = {}
    for item in options.info():
        if item.cli != "auto":
            continue
        value = getattr(args, item.dest)
        if item.kind in ("names", "columns"):
            value = item.default if value is None else names(value)
        found[item.name] = value
    return found


def version() -> str:
    return __version__


def add_engine(parser, engines: tuple[str, ...], help: str) -> None:
    """``--engine`` and ``--scheduler ADDRESS`` (which implies ``--engine dask``)."""
    parser.add_argument("--engine", choices=engines, default="auto", help=help)
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="the Dask scheduler to work on (tcp://host:8786; its workers see your files at the same "
        "paths); implies --engine dask",
    )


def engine(args: argparse.Namespace) -> str:
    return "dask" if args.scheduler else args.engine


def dask_client(address: str | None):
    """A client of the Dask scheduler at ``address`` for the block (nothing without one)."""
    import contextlib

    if not address:
        return contextlib.nullcontext()
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs dask.distributed: pip install 'stats_mtbias[all]'") from None
    _reachable(address)
    try:
        return Client(address, timeout="20s")
    except OSError as exc:
        raise UsageError(f"--scheduler {address}: cannot connect ({exc}).") from None


def _reachable(address: str) -> None:
    """Fail at once where nothing listens at a tcp:// address (the client retries a refused connection for 20 s)."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        return  # not host:port: the client says what is wrong with it
    if parts.scheme != "tcp" or not host or port is None:
        return
    try:
        socket.create_connection((host, port), timeout=5).close()
    except ConnectionRefusedError as exc:
        reason = (exc.strerror or "connection refused").lower()
        raise UsageError(f"--scheduler {address}: cannot connect ({reason}: no scheduler listens there).") from None
    except OSError:
        return  # unreachable or slow: the client's own timeout decides
