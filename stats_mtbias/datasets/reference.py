"""Reference points for the optimal-translator bias: who actually does each job.

A reference is a table with one row per occupation: ``occupation``,
``female_share`` (0–1, NaN where unknown), and optionally ``weight``
(employment), ``category``, ``sector``, and ``n_female, n_total`` when the
source gives counts (then its sampling error can be carried into intervals).

Built in: the BLS participation and employment of the Prates data, with the
project's own sector map (``data/sectors.csv``, documented in ``data/sectors.md``).
Users give any CSV of ``occupation, female_share`` (or ``n_female, n_total``).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias.datasets import prates as prates_data
from stats_mtbias.datasets._io import read_records
from stats_mtbias.datasets.registry import DataStore
from stats_mtbias.datasets.sources import as_source
from stats_mtbias.errors import DataError

REFERENCE_COLUMNS = ["occupation", "female_share", "weight", "category", "sector", "n_female", "n_total", "line"]
# A perception survey's answer counts (1 very masculine … 6 very feminine): kept as read, turned into a
# share by the study (:func:`stats_mtbias.estimators.optimal.survey_female_share`).
SURVEY_COLUMNS = [f"answer_{k}" for k in range(1, 7)]


def sector_map() -> dict[str, str]:
    """BLS category → employment sector, from the shipped ``sectors.csv``."""
    path = resources.files("stats_mtbias._data").joinpath("sectors.csv")
    with resources.as_file(path) as real:
        _, records = read_records(real, required=("category", "sector"))
    return {record["category"]: record["sector"] for _, record in records}


def bls_reference(store: DataStore | None = None, path: str | Path | None = None) -> pd.DataFrame:
    """The BLS table as a reference: share of women, employment (thousands), category, sector.

    Raises
    ------
    DataError
        If a BLS category has no sector in the sector map (naming it).
    """
    bls = prates_data.read_bls(store, path)
    sectors = sector_map()
    missing = sorted(set(bls["category"]) - set(sectors))
    if missing:
        raise DataError(f"the sector map (data/sectors.csv) has no sector for BLS categor(ies) {', '.join(missing)}")
    out = bls.rename(columns={"employed": "weight"})
    out["sector"] = out["category"].map(sectors)
    out["n_female"] = np.nan
    out["n_total"] = np.nan
    return out[REFERENCE_COLUMNS]


def _float(text: str, column: str, path: Path, line: int) -> float:
    if text in ("", "-", "NA", "nan"):
        return np.nan
    try:
        return float(text.replace(",", ""))
    except ValueError:
        raise DataError(f"column {column!r}: {text!r} is not a number", path, line) from None


def read_reference(path: str | Path) -> pd.DataFrame:
    """A user's reference CSV.

    Columns: ``occupation`` and either ``female_share`` (0–1), or ``n_female`` and
    ``n_total`` (counts; the share is their ratio), or a perception survey's answer
    counts ``answer_1 … answer_6`` (1 very masculine … 6 very feminine; kept as columns, with an empty
    share, for the study to weigh: :func:`~stats_mtbias.estimators.optimal.survey_female_share`); optional ``weight``,
    ``category``, ``sector`` (default: the category's sector in the shipped map,
    else the category, else ``all``). An empty share is allowed (the occupation
    gets no B, and is reported).

    Raises
    ------
    DataError
        Naming the file and line: shares outside [0, 1] (with a hint when they look
        like percentages), counts that do not fit, a repeated occupation.
    """
    path = as_source(path)
    header, records = read_records(path, required=("occupation",), lower=True, keys=(*REFERENCE_COLUMNS[1:-1], *SURVEY_COLUMNS))
    has_share, has_counts = "female_share" in header, {"n_female", "n_total"} <= set(header)
    survey = SURVEY_COLUMNS
    has_survey = set(survey) <= set(header)
    if not (has_share or has_counts or has_survey):
        raise DataError(
            "needs a column 'female_share', the columns 'n_female' and 'n_total', or survey answer counts answer_1 … answer_6",
            path,
            1,
        )
    sectors = sector_map()
    rows, seen = [], {}
    for line, record in records:
        name = record["occupation"]
        if not name:
            raise DataError("column 'occupation' is empty", path, line)
        if name in seen:
            raise DataError(f"occupation {name!r} was already given on line {seen[name]}", path, line)
        seen[name] = line
        n_female = _float(record.get("n_female", ""), "n_female", path, line)
        n_total = _float(record.get("n_total", ""), "n_total", path, line)
        if has_counts and not np.isnan(n_total):
            if n_total <= 0 or not 0 <= n_female <= n_total:
                raise DataError(
                    f"counts n_female={record['n_female']}, n_total={record['n_total']} "
                    "need 0 <= n_female <= n_total and n_total > 0",
                    path,
                    line,
                )
        share = _float(record.get("female_share", ""), "female_share", path, line)
        if has_counts and not np.isnan(n_total):
            # Both given: the counts drive the interval, so the share must be theirs (to its printed precision).
            ratio = n_female / n_total
            if not np.isnan(share) and abs(share - ratio) > max(0.5 / n_total, 5e-4):
                raise DataError(
                    f"female_share {share:g} disagrees with n_female/n_total = {record['n_female']}/{record['n_total']} "
                    f"= {ratio:.4g}; give one of them, or make them agree",
                    path,
                    line,
                )
            share = ratio
        answers = [np.nan] * len(survey)
        if np.isnan(share) and has_survey:
            answers = [_float(record[c], c, path, line) for c in survey]
            if any(np.isnan(a) or a < 0 for a in answers) or sum(answers) <= 0:
                raise DataError("survey answer counts answer_1 … answer_6 must be non-negative numbers, not all 0", path, line)
        if not np.isnan(share) and not 0 <= share <= 1:
            hint = " (percentages? give shares, e.g. 0.73 for 73%)" if 1 < share <= 100 else ""
            raise DataError(f"female_share {share:g} is outside [0, 1]{hint}", path, line)
        weight = _float(record.get("weight", ""), "weight", path, line)
        if not np.isnan(weight) and weight < 0:
            raise DataError(f"weight {weight:g} is negative", path, line)
        category = record.get("category", "") or "all"
        sector = record.get("sector", "") or sectors.get(category, category)
        rows.append([name, share, weight, category, sector, n_female, n_total, line, *answers])
    if not rows:
        raise DataError("has a header but no occupations", path, 2)
    frame = pd.DataFrame(rows, columns=REFERENCE_COLUMNS + survey)
    return frame if has_survey else frame[REFERENCE_COLUMNS]
