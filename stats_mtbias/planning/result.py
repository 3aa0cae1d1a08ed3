"""The answer of :func:`stats_mtbias.power`: :class:`PowerResult` and its table's columns."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats_mtbias.errors import UsageError

PLAN_COLUMNS = [
    "design",
    "question",
    "metric",
    "comparison",
    "n",
    "n_outputs",
    "difference",
    "power",
    "half_width",
    "alpha",
    "alternative",
    "level",
    "discordance",
    "rate",
    "reference",
    "deff",
    "size",
    "mc_se",
    "method",
    "margin",
]


@dataclass(frozen=True)
class PowerResult:
    """The answer of :func:`stats_mtbias.power`.

    Attributes
    ----------
    question : str
        ``sample_size``, ``power``, ``mde`` or ``half_width``.
    table : DataFrame
        One row (:data:`PLAN_COLUMNS`): the answer beside every assumption it used.
        Shares in [0, 1]; ``n`` in the design's units (items, lexicon items,
        clusters), ``n_outputs`` the judgements they hold.
    provenance : dict
        Method, assumptions, pilot inputs (with sha256), simulations, seed, versions.
    trace : DataFrame
        The simulated batches behind a simulated sample size (``n``, ``power``).
    notes : list of str
        What a reader must not miss, e.g. a simulated size above the level (the
        test rejects too often there, so its power is overstated).
    """

    question: str
    table: pd.DataFrame
    provenance: dict
    trace: pd.DataFrame | None = None
    notes: list = field(default_factory=list)
    _curve: Callable[[np.ndarray, np.ndarray], pd.DataFrame] | None = field(default=None, repr=False)

    def _value(self, column: str):
        value = self.table[column].iloc[0]
        if pd.isna(value):
            return None
        return value.item() if isinstance(value, np.generic) else value  # plain Python numbers

    @property
    def n(self) -> int | None:
        value = self._value("n")
        return None if value is None else int(value)

    @property
    def power(self) -> float | None:
        return self._value("power")

    @property
    def difference(self) -> float | None:
        return self._value("difference")

    @property
    def half_width(self) -> float | None:
        return self._value("half_width")

    def to_dict(self) -> dict:
        """The answer as one flat record (JSON-ready: NaN → None, counts as int).

        Examples
        --------
        >>> import stats_mtbias as smb
        >>> smb.power("paired", discordance=0.2, difference=0.05).to_dict()["n"]
        626
        """
        out = {}
        for key, value in self.table.iloc[0].items():
            if isinstance(value, (float, np.floating)) and np.isnan(value):
                value = None
            elif isinstance(value, np.integer):
                value = int(value)
            elif isinstance(value, np.floating):
                value = float(value)
            out[key] = value
        if out.get("n") is not None:
            out["n"] = int(out["n"])
        return out

    def curve(self, n: Sequence[int] | None = None, differences: Sequence[float] | None = None) -> pd.DataFrame:
        """Power against sample size, one line per difference: columns ``n, difference, power, mc_se``.

        Defaults: eight sizes from a quarter to twice the answer's ``n``, and the
        answer's difference with half and one and a half times it.
        """
        if self._curve is None:
            raise UsageError("a half-width plan has no power curve; ask for a difference.")
        base_n = self.n or 100
        d0 = self.difference if self.difference else None
        if n is None:
            n = np.unique(np.round(np.geomspace(max(4, base_n / 4), base_n * 2, 8)).astype(int))
        if differences is None:
            if d0 is None:
                raise UsageError("give `differences` for the curve.")
            differences = [0.5 * d0, d0, 1.5 * d0]
        return self._curve(np.asarray(n, int), np.asarray(differences, float))

    def plot(
        self, n: Sequence[int] | None = None, differences: Sequence[float] | None = None, *, scale: float = 1.0, unit: str = ""
    ):
        """Matplotlib figure of :meth:`curve` (``scale=100, unit=" points"`` to label differences in points)."""
        from stats_mtbias.plotting import power_curve  # heavy: plotting imports matplotlib at its top

        frame = self.curve(n, differences)
        return power_curve(
            frame,
            target=0.8 if self.question != "power" else None,
            scale=scale,
            unit=unit,
            title=str(self.table["comparison"].iloc[0] or self.table["metric"].iloc[0]),
        )

    def __repr__(self) -> str:
        shown = {
            k: v
            for k, v in self.to_dict().items()
            if v is not None and k in ("question", "n", "difference", "power", "half_width", "method")
        }
        return f"PowerResult({', '.join(f'{k}={v!r}' for k, v in shown.items())})"


def plan_row(**values) -> pd.DataFrame:
    row = dict.fromkeys(PLAN_COLUMNS, np.nan)
    row.update(values)
    return pd.DataFrame([row], columns=PLAN_COLUMNS)
