"""Tests and multiple-comparison control, with results as tidy DataFrames."""

from stats_mtbias.significance.multitest import adjust_pvalues

__all__ = ["adjust_pvalues"]
