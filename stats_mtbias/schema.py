"""The judgement table's vocabulary: the genders a reading may give, and the table's validation.

A foundation module: the dataset readers, the gender readers and the tables all
import it, and it imports nothing of the package but its errors.
"""

from __future__ import annotations

import pandas as pd

from stats_mtbias.errors import DataError

GENDERS: tuple[str, ...] = ("female", "male", "neutral", "both", "unknown")

REQUIRED = ("system", "item", "gender")


def judgement_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Validate a judgement table and make ``gender`` a categorical over GENDERS.

    Raises
    ------
    DataError
        If a required column is missing or a gender is not one of GENDERS.
    """
    missing = [c for c in REQUIRED if c not in frame.columns]
    if missing:
        raise DataError(f"judgement table lacks column(s) {', '.join(missing)}")
    bad = ~frame["gender"].isin(GENDERS)
    if bad.any():
        first = frame.index[bad.to_numpy()][0]
        raise DataError(f"row {first}: gender {frame.at[first, 'gender']!r} is not one of {', '.join(GENDERS)}")
    out = frame.copy()
    out["gender"] = pd.Categorical(out["gender"], categories=GENDERS)
    return out
