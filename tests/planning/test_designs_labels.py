"""``smb.power("labels")``: the labels a corrected share needs (the PPI++ closed form of the planning layer)."""

from __future__ import annotations

import numpy as np
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import UsageError
from stats_mtbias.uncertainty.ppi import ppi_share_variance


def test_labels_for_half_width_is_the_smallest():
    plan = smb.power("labels", rate=0.3, discordance=0.1, items=5000, half_width=0.03)
    z = 1.959963984540054
    width = lambda k: z * np.sqrt(ppi_share_variance(k, rate=0.3, discordance=0.1, items=5000))  # noqa: E731
    assert width(plan.n) <= 0.03 < width(plan.n - 1)
    assert plan.half_width == pytest.approx(width(plan.n))
    assert plan.table["n_outputs"].iloc[0] == 5000


def test_labels_fewer_than_the_classical_sample():
    """A good judge (5% disagreement) needs far fewer labels than the share from labels alone (Wilson's n)."""
    corrected = smb.power("labels", rate=0.3, discordance=0.05, items=20000, half_width=0.02).n
    alone = smb.power("rate", rate=0.3, half_width=0.02).n
    assert corrected < alone / 2
    useless = smb.power("labels", rate=0.3, discordance=0.42, half_width=0.02).n  # cov 0: labels alone
    assert useless == pytest.approx(alone, rel=0.02)


def test_labels_half_width_at_n_and_errors():
    assert smb.power("labels", rate=0.5, discordance=0.2, items=600, n=60).half_width == pytest.approx(
        1.959963984540054 * np.sqrt(ppi_share_variance(60, rate=0.5, discordance=0.2, items=600))
    )
    with pytest.raises(UsageError, match="judge more items"):
        smb.power("labels", rate=0.3, discordance=0.1, items=100, half_width=0.01)
    with pytest.raises(UsageError, match="discordance"):
        smb.power("labels", rate=0.3, half_width=0.02)
