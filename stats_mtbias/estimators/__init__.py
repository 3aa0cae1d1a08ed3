"""Estimators: pure functions of counts, vectorised along leading (replicate) axes."""

from stats_mtbias.estimators.tgbi import p_s, tgbi_index, tgbi_shares

__all__ = ["p_s", "tgbi_index", "tgbi_shares"]
