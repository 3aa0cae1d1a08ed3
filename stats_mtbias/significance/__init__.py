"""Tests, effect sizes and multiple-comparison control, shared by every study."""

from stats_mtbias.significance.effect_sizes import (
    EffectSize,
    cohens_h,
    difference_in_proportions,
    odds_ratio,
    paired_difference_in_proportions,
)
from stats_mtbias.significance.independence import IndependenceResult, independence_test
from stats_mtbias.significance.multitest import adjust_pvalues
from stats_mtbias.significance.paired import PairedTestResult, paired_test, sign_test_pvalue
from stats_mtbias.significance.pvalues import P_FLOOR, floor_pvalues

__all__ = [
    "P_FLOOR",
    "EffectSize",
    "IndependenceResult",
    "PairedTestResult",
    "adjust_pvalues",
    "cohens_h",
    "difference_in_proportions",
    "floor_pvalues",
    "independence_test",
    "odds_ratio",
    "paired_difference_in_proportions",
    "paired_test",
    "sign_test_pvalue",
]
