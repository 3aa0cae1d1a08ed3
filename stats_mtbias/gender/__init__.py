"""What gender a translation shows: one of ``female, male, neutral, both, unknown``."""

GENDERS: tuple[str, ...] = ("female", "male", "neutral", "both", "unknown")

from stats_mtbias.gender.english import classify_english, compare_rules  # noqa: E402

__all__ = ["GENDERS", "classify_english", "compare_rules"]
