"""The accounting table of the studies, counted by hand."""

from __future__ import annotations

import pandas as pd

from stats_mtbias.studies._common import accounting


def _frame():
    """Six rows: system b first, a categorical system column with an unused category."""
    return pd.DataFrame(
        {
            "system": pd.Categorical(["b", "b", "a", "b", "a", "a"], categories=["a", "b", "zzz"]),
            "reason": ["ok", "bad", "ok", "ok", "ok", "bad"],
            "w": [2, 5, 1, 3, 4, 10],
        }
    )


def test_accounting_counts_rows_in_order_of_appearance():
    """One row per (system, outcome) seen, first-seen order, counting the rows; unused categories give no row."""
    got = accounting(_frame(), ["system"], "reason")
    rows = [(str(s), o, int(n)) for s, o, n in got[["system", "outcome", "n"]].itertuples(index=False)]
    assert rows == [("b", "ok", 2), ("b", "bad", 1), ("a", "ok", 2), ("a", "bad", 1)]


def test_accounting_sums_the_count_column():
    """With a count column the n of each group is the sum of that column, not the number of rows."""
    got = accounting(_frame(), ["system"], "reason", "w")
    rows = {(str(s), o): int(n) for s, o, n in got[["system", "outcome", "n"]].itertuples(index=False)}
    assert rows == {("b", "ok"): 2 + 3, ("b", "bad"): 5, ("a", "ok"): 1 + 4, ("a", "bad"): 10}
