"""Convergence diagnostics vectorised over parameters: rank-normalised split R-hat, bulk and tail ESS.

The definitions are those of Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021),
computed exactly as arviz computes them (rank normalisation with Blom's offset,
split chains, FFT autocovariances, Geyer's initial positive and monotone
sequences), but over every parameter at once. arviz loops over parameters in
Python, which takes about 11 s for the Prates model's 4,100 parameters; this
takes a few seconds. The public functions take ``(chain, draw, parameter)`` arrays;
inside, parameters come first, so sorting and FFTs run over contiguous memory.
"""

from __future__ import annotations

import numpy as np
from scipy import fft, stats


def _inside(x) -> np.ndarray:
    """(chain, draw, parameter) -> contiguous (parameter, chain, draw)."""
    return np.ascontiguousarray(np.moveaxis(np.asarray(x, dtype=float), 2, 0))


def _split(x: np.ndarray) -> np.ndarray:
    half = x.shape[2] // 2
    return np.concatenate([x[:, :, :half], x[:, :, x.shape[2] - half :]], axis=1)


def _z_scale(x: np.ndarray) -> np.ndarray:
    """Normal scores of the pooled ranks (average ranks for ties, Blom's offset 3/8)."""
    p, chains, draws = x.shape
    size = chains * draws
    rank = stats.rankdata(x.reshape(p, size), method="average", axis=1)
    return stats.norm.ppf((rank - 3 / 8) / (size - 2 * 3 / 8 + 1)).reshape(x.shape)


def _rhat(x: np.ndarray) -> np.ndarray:
    draws = x.shape[2]
    between = draws * np.var(x.mean(axis=2), axis=1, ddof=1)
    within = np.var(x, axis=2, ddof=1).mean(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt((between / within + draws - 1) / draws)


def _rhat_rank(split: np.ndarray, z: np.ndarray) -> np.ndarray:
    folded = np.abs(split - np.median(split.reshape(split.shape[0], -1), axis=1)[:, None, None])
    return np.maximum(_rhat(z), _rhat(_z_scale(folded)))


def _autocov(x: np.ndarray) -> np.ndarray:
    n = x.shape[2]
    m = fft.next_fast_len(2 * n)
    centred = x - x.mean(axis=2, keepdims=True)
    spectrum = np.fft.rfft(centred, n=m, axis=2)
    return np.fft.irfft(spectrum * np.conjugate(spectrum), n=m, axis=2)[:, :, :n] / n


def _ess(x: np.ndarray) -> np.ndarray:
    """Effective sample size of (parameter, chain, draw) draws (Geyer's initial monotone sequence)."""
    p, chains, n = x.shape
    # Mean autocovariance over chains, laid out (lag, parameter) for the sequences below.
    acov = _autocov(x).mean(axis=1).T
    mean_var = acov[0] * n / (n - 1.0)
    var_plus = mean_var * (n - 1.0) / n
    if chains > 1:
        var_plus = var_plus + np.var(x.mean(axis=2), axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = np.zeros((n, p))
        rho[0] = 1.0
        even = np.ones(p)
        odd = 1.0 - (mean_var - acov[1]) / var_plus
        rho[1] = odd
        # Initial positive sequence: pairs of autocorrelations while their sum is positive.
        t = np.ones(p, dtype=int)
        active = (1 < n - 3) & (even + odd > 0)
        step = 1
        while active.any():
            new_even = 1.0 - (mean_var - acov[step + 1]) / var_plus
            new_odd = 1.0 - (mean_var - acov[step + 2]) / var_plus
            even = np.where(active, new_even, even)
            odd = np.where(active, new_odd, odd)
            keep = active & (even + odd >= 0)
            rho[step + 1] = np.where(keep, even, rho[step + 1])
            rho[step + 2] = np.where(keep, odd, rho[step + 2])
            t = np.where(active, t + 2, t)
            step += 2
            active = active & (step < n - 3) & (even + odd > 0)
        max_t = t - 2
        columns = np.arange(p)
        improve = even > 0
        rho[max_t[improve] + 1, columns[improve]] = even[improve]
        # Initial monotone sequence.
        for step in range(1, int(max_t.max(initial=0)) - 1, 2):
            live = step <= max_t - 2
            pair, previous = rho[step + 1] + rho[step + 2], rho[step - 1] + rho[step]
            fix = live & (pair > previous)
            rho[step + 1] = np.where(fix, previous / 2.0, rho[step + 1])
            rho[step + 2] = np.where(fix, previous / 2.0, rho[step + 2])
        lags = np.arange(n)[:, None]
        tau = -1.0 + 2.0 * np.where(lags <= max_t, rho, 0.0).sum(axis=0) + np.where(lags == max_t + 1, rho, 0.0).sum(axis=0)
        size = chains * n
        ess = size / np.maximum(tau, 1 / np.log10(size))
    ess[np.isnan(rho).any(axis=0)] = np.nan
    constant = (x.max(axis=(1, 2)) - x.min(axis=(1, 2))) < np.finfo(float).resolution
    ess[constant] = size
    return ess


def ess_bulk(x: np.ndarray) -> np.ndarray:
    """Bulk effective sample size: ESS of the rank-normalised split chains."""
    return _ess(_z_scale(_split(_inside(x))))


def ess_tail(x: np.ndarray) -> np.ndarray:
    """Tail effective sample size: the smaller ESS of the indicators of the 5% and 95% quantiles."""
    return _ess_tail(_inside(x))


def _ess_tail(x: np.ndarray) -> np.ndarray:
    low, high = np.quantile(x.reshape(x.shape[0], -1), [0.05, 0.95], axis=1)
    below = [(x <= q[:, None, None]).astype(float) for q in (low, high)]
    return np.minimum(_ess(_split(below[0])), _ess(_split(below[1])))


def convergence(x: np.ndarray) -> dict[str, np.ndarray]:
    """``r_hat``, ``ess_bulk`` and ``ess_tail`` of (chain, draw, parameter) draws, sharing the ranks of the split chains."""
    inside = _inside(x)
    split = _split(inside)
    z = _z_scale(split)
    return {"r_hat": _rhat_rank(split, z), "ess_bulk": _ess(z), "ess_tail": _ess_tail(inside)}
