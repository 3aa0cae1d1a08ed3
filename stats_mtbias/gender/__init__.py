"""What gender a translation shows: one of ``female, male, neutral, both, unknown``."""

from stats_mtbias.gender.english import classify_english, compare_rules
from stats_mtbias.schema import GENDERS

__all__ = ["GENDERS", "classify_english", "compare_rules"]
