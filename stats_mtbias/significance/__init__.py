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

__all__ = [
    "EffectSize",
    "IndependenceResult",
    "PairedTestResult",
    "adjust_pvalues",
    "cohens_h",
    "difference_in_proportions",
    "independence_test",
    "odds_ratio",
    "paired_difference_in_proportions",
    "paired_test",
    "sign_test_pvalue",
]
