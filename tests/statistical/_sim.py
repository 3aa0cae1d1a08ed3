"""Simulation helpers: many datasets at once, as extra axes of one count array."""

import numpy as np


def iid_sentences(p, n, m, rng):
    """m datasets of n independent sentences: one-hot counts (n, m, 5)."""
    labels = rng.choice(3, size=(n, m), p=p)
    one_hot = np.zeros((n, m, 5))
    np.put_along_axis(one_hot, labels[..., None], 1.0, axis=-1)
    return one_hot


def clustered_sentences(p, n_items, per_item, m, rng, concentration=2.0):
    """m datasets of n_items items with per_item correlated sentences each.

    Each item has its own shares drawn from Dirichlet(concentration * p), so the
    population shares are p, and sentences of one item are correlated.
    """
    item_p = rng.dirichlet(concentration * np.asarray(p) + 1e-9, size=(n_items, m))
    u = rng.random((n_items, m, per_item))
    labels = (u[..., None] > np.cumsum(item_p, axis=-1)[:, :, None, :]).sum(-1)
    labels = np.minimum(labels, 2)
    counts = np.zeros((n_items, m, 5))
    for k in range(3):
        counts[..., k] = (labels == k).sum(-1)
    return counts, labels


def one_hot(labels):
    """Sentences as their own clusters: labels (items, m, per_item) -> (items*per_item, m, 5)."""
    flat = np.moveaxis(labels, 2, 1).reshape(-1, labels.shape[1])
    out = np.zeros((*flat.shape, 5))
    np.put_along_axis(out, flat[..., None], 1.0, axis=-1)
    return out


def true_p_s(p):
    return float(np.sqrt(p[0] * p[1] + p[2]))


def trinomial_tables(n: int):
    """Every (female, male, neutral) table of n sentences: three arrays of counts."""
    f, m = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    keep = f + m <= n
    return f[keep], m[keep], n - f[keep] - m[keep]


def trinomial_pmf(n: int, p, cells=None) -> np.ndarray:
    """Multinomial(n, p) probability of each table (``cells`` = (female, male, neutral) counts; all by default)."""
    from scipy import special

    cells = trinomial_tables(n) if cells is None else cells
    log_p = special.gammaln(n + 1)
    for k, q in zip(cells, p, strict=True):
        log_p = log_p - special.gammaln(k + 1) + (k * np.log(q) if q > 0 else np.where(k == 0, 0.0, -np.inf))
    return np.exp(log_p)


def one_hot_tables(n: int, f: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Tables (f female, m male, the rest neutral) as n one-sentence clusters: (n, tables, 5) GENDERS counts."""
    idx = np.arange(n)[:, None]
    x = np.zeros((n, len(f), 5))
    x[..., 0] = idx < f
    x[..., 1] = (idx >= f) & (idx < f + m)
    x[..., 2] = idx >= f + m
    return x


def iid_exact_coverage(interval, p, n, *, mass=1 - 1e-9, chunk=400):
    """Exact ``(coverage, below, above)`` of ``interval(counts) -> ConfidenceInterval`` for P_S on n independent
    sentences with shares ``p`` (female, male, neutral): every (female, male, neutral) table is enumerated, the most
    probable first, until they hold ``mass`` of the probability (the rest bounds the error); each table goes to
    the interval as n one-sentence clusters, in chunks.
    """
    f, m, u = trinomial_tables(n)
    prob = trinomial_pmf(n, p, (f, m, u))
    order = np.argsort(prob)[::-1]
    last = int(np.searchsorted(np.cumsum(prob[order]), mass)) + 1
    order = order[:last]
    truth = true_p_s(p)
    below = above = 0.0
    for start in range(0, len(order), chunk):
        sel = order[start : start + chunk]
        ci = interval(one_hot_tables(n, f[sel], m[sel]))
        below += float(prob[sel] @ (truth < np.asarray(ci.low)))
        above += float(prob[sel] @ (truth > np.asarray(ci.high)))
    return 1.0 - below - above, below, above
