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
