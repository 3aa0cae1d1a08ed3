"""A level whose tails the resamples cannot resolve is said (issue 49, item 4: parameters).

``--level 0.9999 --n-boot 200`` read a percentile interval off the two most extreme of 200 resamples — about a
third too narrow — without a word. Rule (one place, stats_mtbias.uncertainty.bootstrap.tail_resolution): fewer than
2.5 resamples expected beyond each end (the resolution the package asks of a 95% interval with its minimum of 100
resamples) is a DataQualityWarning naming the n_boot that resolves it.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from stats_mtbias.cli import main
from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.uncertainty.bootstrap import BootstrapResult, cluster_bootstrap, tail_resolution


@pytest.mark.parametrize(
    ("n", "level", "needed"), [(200, 0.9999, 50_000), (200, 0.99, 500), (1000, 0.999, 5000), (99, 0.95, 100), (9, 0.5, 10)]
)
def test_unresolved_tails_warn_naming_the_resamples_needed(n, level, needed):
    with pytest.warns(DataQualityWarning, match=f"n_boot ≥ {needed:,} resolves it") as record:
        tail_resolution(n, level)
    assert f"level {level:g} with n_boot={n:,}" in str(record[0].message)


@pytest.mark.parametrize(("n", "level"), [(100, 0.95), (10_000, 0.95), (10_000, 0.999), (500, 0.99), (50, 0.9)])
def test_resolved_tails_are_silent(n, level):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tail_resolution(n, level) is None


def test_an_unresolved_interval_is_too_narrow_and_every_interval_method_says_so():
    data = np.random.default_rng(1).normal(size=(400, 1))
    with pytest.warns(DataQualityWarning, match="n_boot ≥ 50,000"):
        few = cluster_bootstrap(data, lambda t: t[:, 0] / 400, n_boot=200, rng=0, level=0.9999)
        ci = few.confidence_interval()
    many = cluster_bootstrap(data, lambda t: t[:, 0] / 400, n_boot=50_000, rng=0, level=0.9999).confidence_interval()
    assert float(ci.high - ci.low) < 0.85 * float(many.high - many.low)  # the 200-resample interval is much too narrow
    jack = np.zeros((5, 1))
    for method in ("percentile", "bca"):
        with pytest.warns(DataQualityWarning, match=f"the {method} interval's ends"):
            BootstrapResult(np.zeros(1), np.zeros((200, 1)), jack, 0.999, method).confidence_interval()


def _judgements(tmp_path):
    rng = np.random.default_rng(0)
    rows = [(s, i, rng.choice(["female", "male"], p=[p, 1 - p])) for s, p in (("a", 0.6), ("b", 0.4)) for i in range(60)]
    path = tmp_path / "j.csv"
    pd.DataFrame(rows, columns=["system", "item", "gender"]).to_csv(path, index=False)
    return path


def test_the_command_line_says_it_once_and_strict_exits_65(tmp_path, capsys):
    path = _judgements(tmp_path)
    assert main(["rates", "--judgements", str(path), "--level", "0.9999", "--n-boot", "200", "--compare"]) == 0
    err = capsys.readouterr().err
    assert err.count("level 0.9999 with n_boot=200") == 1, err
    assert "n_boot ≥ 50,000 resolves it" in err
    assert main(["rates", "--judgements", str(path), "--level", "0.9999", "--n-boot", "200", "--strict"]) == 65
    capsys.readouterr()
    assert main(["rates", "--judgements", str(path), "--n-boot", "100", "--strict"]) == 0  # 95% on 100: resolved
    assert "resolves it" not in capsys.readouterr().err


def test_the_api_says_it_once_among_the_notes(tmp_path):
    import stats_mtbias as smb

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = smb.rates(_judgements(tmp_path), level=0.999, n_boot=400)
    said = [w for w in caught if "n_boot ≥ 5,000" in str(w.message)]
    assert len(said) == 1
    assert any("n_boot ≥ 5,000" in note for note in res.notes)
