"""The subcommand of a study that has no module of its own here, made from its options.

A study that declares its :class:`~stats_mtbias.options.Options` (``Study.options``) is a subcommand
``stats-mtbias <name>`` with no code written for it: the shared options (:func:`._options.add_study`), a flag per
option (its input files as ``--<name> FILE``, lists as comma-separated text), ``--compare`` where it compares
systems, ``--view`` over its frames, the "has no effect" checks from the fields, and the result printed as the
public view asked for. A study whose command line needs more (old spellings, several inputs, notes of its own)
writes a module beside this one, as the shipped studies do.
"""

from __future__ import annotations

import argparse

import stats_mtbias as smb
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import _checks, _options, _views
from stats_mtbias.cli._output import Output

DEFAULT_VIEW = "table"
# Options every study subcommand already has (:func:`._options.add_study`).
SHARED = ("data_dir", "rng")


class Command:
    """``add_parser(sub)`` and ``run(args)`` of one study, as a module of this package has them."""

    CHECK_DEGENERATE = True

    def __init__(self, name: str):
        self.NAME = name
        self.OPTIONS = vocabulary.OPTIONS[name]
        self.items = self.OPTIONS.info()
        self.CONDITIONAL = _checks.conditionals(self.OPTIONS)
        if not self._takes("data_dir"):
            self.CONDITIONAL.append(_checks.Conditional("data_dir", None, lambda a: False, f"({name} reads only its inputs)"))

    def _takes(self, name: str) -> bool:
        return any(item.name == name for item in self.items)

    def _own(self) -> list[vocabulary.OptionInfo]:
        """The options the command line adds here rather than from their field (inputs, lists)."""
        return [item for item in self.items if item.cli == "own" and item.name not in SHARED]

    def add_parser(self, sub) -> argparse.ArgumentParser:
        text = (self.OPTIONS.__doc__ or self.NAME).strip().splitlines()[0]
        parser = sub.add_parser(self.NAME, help=text, description=text)
        _options.add_study(parser)
        for item in self._own():
            metavar = item.metavar or ("FILE" if item.kind == "input" else None)
            parser.add_argument(
                item.flag,
                dest=item.dest,
                metavar=metavar,
                required=item.required,
                default=None if item.required else _options.cli_default(item),
                help=item.help,
            )
        _options.add_options(parser, self.OPTIONS)
        if self._takes("against"):
            parser.add_argument("--compare", action="store_true", help="print the paired differences between systems")
        _options.add_view(parser, vocabulary.FRAMES[self.NAME], DEFAULT_VIEW)
        return parser

    def run(self, args: argparse.Namespace) -> Output:
        values = _options.values(args, self.OPTIONS)
        for item in self._own():
            value = getattr(args, item.dest)
            if item.kind in ("names", "columns"):
                value = item.default if value is None else _options.names(value)
            values[item.name] = value
        if self._takes("data_dir"):
            values["data_dir"] = args.data_dir
        if self._takes("rng"):
            values["rng"] = args.seed
        first = [values.pop(item.name) for item in self.items if item.positional]
        res = getattr(smb, self.NAME)(*first, **values)
        return _views.view(res, _views.chosen(args, DEFAULT_VIEW), {})
