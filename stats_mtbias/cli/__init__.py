"""Command line: ``stats-mtbias <subcommand> [options]``.

Thin on purpose: parse → check (paths before the work, options without effect)
→ call the public API (``smb.*``) → render a public view → exit code. Library
errors map to exit codes with a one-line message: 64 usage, 65 bad data (and
``--strict`` after a data-quality warning), 66 missing data, 74 an output that
cannot be written, 69 an optional package not installed (the message names the extra), 1 anything else.

Output: ``--format table`` prints the view for a person (shares in percent,
labelled ``%``) with notes and, on request, the provenance; ``json`` (a list of
flat records whose keys are the view's columns) and ``csv`` print only the
records, in shares as the API gives them, and the provenance goes to stderr as
one JSON line with ``--provenance`` — and, with ``--out FILE``, to
``FILE.provenance.json`` beside the output.

One module per subcommand (``tgbi``, ``winomt``, ``prates``, ``optimal``,
``rates``, ``agreement``, ``read``, ``model``, ``power``, ``data``, ``report``), each with
``add_parser(sub)`` and ``run(args) -> Output``; a study with options but no module here
gets its subcommand from them (:mod:`._study`). The shared options are in
:mod:`._options`, the checks in :mod:`._checks`, the rendering in :mod:`._output`.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import warnings
from pathlib import Path

from stats_mtbias import options as vocabulary
from stats_mtbias._files import is_special, write_atomic
from stats_mtbias.cli import _checks, _options, _study
from stats_mtbias.cli import agreement as _agreement
from stats_mtbias.cli import data as _data
from stats_mtbias.cli import model as _model
from stats_mtbias.cli import optimal as _optimal
from stats_mtbias.cli import power as _power
from stats_mtbias.cli import prates as _prates
from stats_mtbias.cli import rates as _rates
from stats_mtbias.cli import read as _read
from stats_mtbias.cli import report as _report
from stats_mtbias.cli import tgbi as _tgbi
from stats_mtbias.cli import winomt as _winomt
from stats_mtbias.cli._output import render_output
from stats_mtbias.errors import ConvergenceWarning, DataQualityWarning, MtbiasError, NoEffectWarning, missing_extra
from stats_mtbias.report.formatting import format_provenance
from stats_mtbias.significance.equivalence import check_margin

__all__ = ["build_parser", "main"]

COMMANDS = {m.NAME: m for m in (_tgbi, _winomt, _prates, _optimal, _rates, _agreement, _read, _model, _power, _data, _report)}
# The subcommands of the studies after which a study without a module here is listed.
_STUDY_COMMANDS = ("tgbi", "winomt", "prates", "optimal", "rates")


def commands() -> dict:
    """Every subcommand: a module of this package each, and for a study with options but no module here
    (``Study.options``) one made from them (:class:`._study.Command`), listed after the shipped studies."""
    made = {name: _study.Command(name) for name in vocabulary.OPTIONS if name in vocabulary.FRAMES and name not in COMMANDS}
    listed = list(COMMANDS.items())
    cut = max(i for i, (name, _) in enumerate(listed) if name in _STUDY_COMMANDS) + 1
    return dict([*listed[:cut], *made.items(), *listed[cut:]])


# Debugging an unexpected error: MTBIAS_DEBUG=1 lets its traceback through.
ENV_DEBUG = "MTBIAS_DEBUG"


def build_parser() -> _options.Parser:
    parser = _options.Parser(
        prog="stats-mtbias",
        description="Statistics of gender bias in machine translation.",
        epilog="Exit codes: 0 done, 64 usage, 65 bad data (or a data-quality warning under "
        "--strict), 66 missing data, 69 an optional package not installed, 74 an output that cannot be written, "
        "1 an unexpected error.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_options.version()}")
    every = commands()
    sub = parser.add_subparsers(dest="command", required=True, metavar="{" + ",".join(every) + "}")
    for module in every.values():
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    module = commands()[args.command]
    strict = getattr(args, "strict", False)
    quiet, show_provenance = getattr(args, "quiet", False), getattr(args, "provenance", False)

    def say(text: str) -> None:
        if not quiet:
            print(text, file=sys.stderr)

    said: set[str] = set()

    def deprecations() -> None:  # each old spelling said once, as soon as it is known
        for message in getattr(args, "deprecated", []):
            if message not in said:
                said.add(message)
                say(f"warning: FutureWarning: {message}")

    try:
        deprecations()
        if getattr(args, "margin", None) is not None:  # a number is refused before any file is read
            check_margin(args.margin)
        getattr(module, "precheck", _checks.precheck)(args)
        for note in _checks.ignored(args, getattr(module, "CONDITIONAL", ())):
            say(f"warning: {note}")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DataQualityWarning)
            warnings.simplefilter("always", ConvergenceWarning)
            warnings.simplefilter("ignore", NoEffectWarning)  # said above, in the command line's words
            output = module.run(args)
        deprecations()
        fmt, out = ("table", None) if output.summary else (args.format, getattr(args, "out", None))
        # A table fits the terminal it is shown on (wrapped into blocks of columns, as pandas does); in a file or
        # pipe it keeps one line per row unless COLUMNS asks otherwise.
        width = shutil.get_terminal_size().columns if sys.stdout.isatty() or "COLUMNS" in os.environ else None
        text = render_output(output, fmt, width)
        caught = list({(w.category, str(w.message)): w for w in reversed(caught)}.values())[::-1]  # each said once
        quality = [w for w in caught if issubclass(w.category, (DataQualityWarning, ConvergenceWarning))]
        for warning in caught:
            say(f"warning: {warning.message}")
        degenerate = _checks.degenerate(output.frame) if getattr(module, "CHECK_DEGENERATE", False) else []
        for note in degenerate:
            say(f"warning: {note}")
        if fmt == "table":
            below = ([] if quiet else output.notes) + ([format_provenance(output.provenance)] if show_provenance else [])
            if output.provenance.get("signature") and not quiet:  # the line that makes the numbers again (smb.parse_signature)
                below.append(f"signature: {output.provenance['signature']}")
            if below:
                text += "\n\n" + "\n".join(below)
        if out:
            write_atomic(Path(out), text + "\n")
            if not is_special(out):  # beside /dev/null there is no place for it
                write_atomic(Path(str(out) + ".provenance.json"), json.dumps(output.provenance, indent=1, default=str) + "\n")
        else:
            print(text)
            sys.stdout.flush()
        if fmt != "table" and show_provenance:
            print("provenance: " + json.dumps(output.provenance, default=str), file=sys.stderr)
    except MtbiasError as exc:
        print(f"stats-mtbias: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as a shell tool does on SIGPIPE.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except KeyboardInterrupt:
        print("stats-mtbias: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # never a traceback from deep inside a library
        missing = missing_extra(exc)  # an optional package not installed: which extra installs it
        if missing is not None:
            print(f"stats-mtbias: error: {missing}", file=sys.stderr)
            return missing.exit_code
        if os.environ.get(ENV_DEBUG):
            raise
        print(
            f"stats-mtbias: error: unexpected {type(exc).__name__}: {exc} (a bug: please report it with the command; "
            f"{ENV_DEBUG}=1 shows the traceback)",
            file=sys.stderr,
        )
        return 1
    if strict and (quality or degenerate):
        print(f"stats-mtbias: --strict: {len(quality) + len(degenerate)} warning(s) above; exit 65", file=sys.stderr)
        return 65
    return 0
