"""Figures of any result, drawn with matplotlib's object API (no pyplot state) and returned as PNG bytes.

Four shapes cover every figure of the report:

- :func:`interval_figure`: dots and intervals per system, a panel per language
  or set on one shared axis, the user's systems marked by shape and colour
  (the headline figures, the forests of comparisons);
- :func:`forest`: point estimates with interval bars, one row per label, one
  colour per group, optionally one small panel per value of a third column;
- :func:`heatmap`: a matrix of values (language × category female share);
- :func:`scatter_reference`: translated against reference share with the diagonal.

PNG files carry no software or date metadata, so the same numbers give the same bytes.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from stats_mtbias._cache import heavy

MplFigure = heavy("matplotlib.figure").Figure  # its font cache in the package's cache, not $HOME

COLOURS = ("#1b6ca8", "#d1495b", "#2e933c", "#edae49", "#6c4f9c", "#00798c", "#8d6a9f", "#3d3d3d")
DPI = 110


def to_png(fig: MplFigure, dpi: int = DPI) -> bytes:
    """The figure as PNG bytes (no metadata, so reproducible)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None}, bbox_inches="tight")
    return buffer.getvalue()


def _ordered(values: pd.Series) -> list:
    return list(dict.fromkeys(values.tolist()))


def forest(frame: pd.DataFrame, **options) -> bytes:
    """:func:`forest_figure` as PNG bytes."""
    return to_png(forest_figure(frame, **options))


def forest_figure(
    frame: pd.DataFrame,
    *,
    estimate: str,
    low: str,
    high: str,
    label: str,
    group: str | None = None,
    panel: str | None = None,
    xlabel: str = "",
    reference: float | None = None,
    xscale: str = "linear",
    xmax: float | None = None,
    ncols: int = 3,
    title: str = "",
) -> MplFigure:
    """Estimates with interval bars.

    Parameters
    ----------
    frame : DataFrame
        One row per estimate.
    estimate, low, high : str
        Columns of the point estimate and the interval's ends (NaN ends draw no bar).
    label : str
        Column giving the row of the plot (top to bottom in order of appearance).
    group : str, optional
        Column whose values get their own colour, drawn side by side within a row.
    panel : str, optional
        Column whose values get their own small panel; panels share one x-axis so they can be compared.
    reference : float, optional
        A vertical line (e.g. 0 for differences).
    xscale : {"linear", "symlog"}
        ``symlog`` for ratios such as B that span orders of magnitude and include 0.
    xmax : float, optional
        Interval ends beyond `xmax` are drawn to `xmax` and marked with an arrow head.
    """
    panels = _ordered(frame[panel]) if panel else [None]
    groups = _ordered(frame[group]) if group else [None]
    labels = _ordered(frame[label])
    ncols = min(ncols, len(panels))
    nrows = math.ceil(len(panels) / ncols)
    height = 0.6 + 0.28 * len(labels) * max(1, len(groups) * 0.6)
    fig = MplFigure(figsize=(max(6.5, 3.6 * ncols + 1.4), height * nrows + 0.6))
    grid = fig.subplots(nrows, ncols, squeeze=False, sharey=True, sharex=True)
    axes = np.atleast_1d(grid).ravel()
    step = 0.7 / max(len(groups), 1)
    for ax, name in zip(axes, panels):
        part = frame if panel is None else frame[frame[panel] == name]
        for g, gname in enumerate(groups):
            rows = part if group is None else part[part[group] == gname]
            y = np.array([labels.index(v) for v in rows[label]], dtype=float) + (g - (len(groups) - 1) / 2) * step
            est = rows[estimate].to_numpy(dtype=float)
            lo = rows[low].to_numpy(dtype=float)
            hi = rows[high].to_numpy(dtype=float)
            ok = np.isfinite(lo) & np.isfinite(hi)
            colour = COLOURS[g % len(COLOURS)]
            if xmax is not None:
                beyond = ok & (hi > xmax)
                hi = np.where(beyond, xmax, hi)
                ax.plot(hi[beyond], y[beyond], ">", color=colour, ms=5)
            ax.hlines(y[ok], lo[ok], hi[ok], color=colour, lw=1.6)
            ax.plot(est, y, "o", color=colour, ms=4, label=str(gname) if gname is not None else None)
        if reference is not None:
            ax.axvline(reference, color="0.5", lw=0.8, ls="--")
        if xscale == "symlog":
            ax.set_xscale("symlog", linthresh=0.1)
        ax.set_yticks(range(len(labels)), [str(v) for v in labels])
        ax.set_ylim(len(labels) - 0.5, -0.5)
        ax.grid(axis="x", color="0.9")
        if name is not None:
            ax.set_title(str(name), fontsize=10)
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    _label_bottoms(grid, len(panels), xlabel)
    handles, names = axes[0].get_legend_handles_labels()
    fig.tight_layout()
    if group is not None:
        # Above the panels, outside them: bbox_inches="tight" makes room.
        fig.legend(handles, names, loc="lower center", ncols=min(len(groups), 6), frameon=False, bbox_to_anchor=(0.5, 1.0))
    if title:
        fig.suptitle(title, y=1.06 if group is not None else 1.0)
    return fig


def heatmap(
    matrix: pd.DataFrame, *, colorbar: str = "", vmin: float | None = None, vmax: float | None = None, fmt: str = "{:.0f}"
) -> bytes:
    """A matrix of values with the value written in each cell (NaN cells left blank)."""
    values = matrix.to_numpy(dtype=float)
    fig = MplFigure(figsize=(1.0 + 0.42 * values.shape[1], 1.2 + 0.32 * values.shape[0]))
    ax = fig.subplots()
    image = ax.imshow(np.ma.masked_invalid(values), cmap="magma_r", vmin=vmin, vmax=vmax, aspect="auto")
    ax.set_xticks(range(values.shape[1]), [str(c) for c in matrix.columns], rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(values.shape[0]), [str(r) for r in matrix.index], fontsize=8)
    top = np.nanmax(values) if vmax is None else vmax
    for (i, j), value in np.ndenumerate(values):
        if np.isfinite(value):
            colour = "white" if value > 0.6 * top else "black"
            ax.text(j, i, fmt.format(value), ha="center", va="center", fontsize=6, color=colour)
    fig.colorbar(image, ax=ax, label=colorbar, shrink=0.8)
    fig.tight_layout()
    return to_png(fig)


def scatter_reference(
    x: Sequence[float], y: Sequence[float], *, xlabel: str, ylabel: str, sizes: Sequence[float] | None = None
) -> bytes:
    """Translated (y) against reference (x) share, both in percent, with the line y = x."""
    fig = MplFigure(figsize=(5.2, 5.0))
    ax = fig.subplots()
    ax.plot([0, 100], [0, 100], color="0.5", lw=0.8, ls="--", label="translated = reference")
    ax.scatter(x, y, s=8 if sizes is None else sizes, alpha=0.45, color=COLOURS[0], edgecolor="none", label="occupation")
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    ax.set_aspect("equal")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(color="0.92")
    ax.legend(loc="upper left", frameon=False, fontsize=8)
    fig.tight_layout()
    return to_png(fig)


def power_curve(
    frame: pd.DataFrame,
    *,
    target: float | None = 0.8,
    scale: float = 1.0,
    unit: str = "",
    title: str = "",
    xlabel: str = "items (n)",
) -> MplFigure:
    """Power against sample size, one line per true difference (``frame``: ``n, difference, power[, mc_se]``).

    Returns the matplotlib figure (``to_png`` turns it into the report's bytes).
    Simulated powers carry ±2 Monte-Carlo standard errors as a band.
    """
    fig = MplFigure(figsize=(6.0, 3.6))
    ax = fig.subplots()
    for i, (diff, part) in enumerate(frame.groupby("difference", sort=True)):
        part = part.sort_values("n")
        colour = COLOURS[i % len(COLOURS)]
        ax.plot(part["n"], part["power"], marker="o", ms=3, color=colour, label=f"{scale * diff:g}{unit}")
        if "mc_se" in part and (part["mc_se"] > 0).any():
            ax.fill_between(
                part["n"],
                part["power"] - 2 * part["mc_se"],
                part["power"] + 2 * part["mc_se"],
                color=colour,
                alpha=0.15,
                linewidth=0,
            )
    if target is not None:
        ax.axhline(target, color="#777777", linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("power")
    ax.legend(title="true difference", fontsize=8, title_fontsize=8, frameon=False)
    if title:
        ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3, linewidth=0.5)
    return fig


# The user's own systems: filled, dark, a shape each (told apart in greyscale print); baselines: hollow grey circles.
# Twelve (shape, colour) pairs, no two alike, so that up to 12 systems are told apart in one figure.
MARKED_MARKERS = ("D", "s", "^", "v", "P", "X", "p", "h", "<", ">", "*", "d")
MARKED_COLOURS = (
    "#1b6ca8",
    "#b2182b",
    "#1b7837",
    "#6c4f9c",
    "#8c510a",
    "#00798c",
    "#3d3d3d",
    "#d1495b",
    "#e08214",
    "#7fbc41",
    "#c51b7d",
    "#4d4d9f",
)
BASELINE_COLOUR = "0.45"
MARGIN_COLOUR = "#2c7fb8"  # the equivalence margins: apart from the grey "no difference" line, in colour and dash
PRINT_DPI = 150
# Sizes in points that stay legible when a 7-inch-wide figure is printed on a page.
FONT = {"tick": 9, "label": 10, "title": 10, "legend": 9}


def marker_styles(marked: Sequence[str]) -> dict[str, tuple[str, str]]:
    """The (marker, colour) of each marked name, in order: the same name gets the same style in every figure.

    Examples
    --------
    >>> marker_styles(["mine", "theirs"])
    {'mine': ('D', '#1b6ca8'), 'theirs': ('s', '#b2182b')}
    """
    return {
        str(name): (MARKED_MARKERS[i % len(MARKED_MARKERS)], MARKED_COLOURS[i % len(MARKED_COLOURS)])
        for i, name in enumerate(dict.fromkeys(marked))
    }


def interval_figure(
    frame: pd.DataFrame,
    *,
    estimate: str,
    low: str,
    high: str,
    label: str,
    panel: str | None = None,
    marked: Sequence[str] = (),
    style: str | None = None,
    hollow: str | None = None,
    xlabel: str = "",
    reference: float | None = None,
    ncols: int = 4,
    baseline_name: str = "baseline",
    hollow_names: tuple[str, str] = ("p_adjusted < 0.05", "not significant"),
    margin: float | None = None,
    margin_name: str = "equivalence margins",
) -> MplFigure:
    """Dots with interval bars, one row per `label`, one small panel per `panel`, every panel on one x-axis.

    Made to be read on paper: one shared x-axis (and one set of rows) across the
    panels, tick labels of at least 9 pt at 7 inches wide, and the `marked` rows
    (the user's systems) told apart by shape as well as colour, so a greyscale print
    keeps them apart; the other rows are hollow grey circles.

    Parameters
    ----------
    frame : DataFrame
        One row per dot.
    estimate, low, high : str
        Columns of the dot and its interval (NaN ends draw no bar).
    label : str
        Column naming the row (top to bottom in order of first appearance).
    panel : str, optional
        Column whose values get a panel each (in order of first appearance).
    marked : sequence of str
        Values of `style` drawn as the user's (a filled shape each, see :func:`marker_styles`).
    style : str, optional
        Column whose value picks the marker (default: `label`); e.g. ``system_a`` in a
        forest of comparisons, so each of the user's systems keeps its shape.
    hollow : str, optional
        Boolean column: True draws the marker hollow (e.g. a difference that is not significant).
    reference : float, optional
        A dashed vertical line (0 for differences).
    margin : float, optional
        Two dashed vertical lines at `reference` ± `margin` (reference 0 if not given), in the
        axis' units: the equivalence margins ±δ of a forest of comparisons.
    margin_name : str
        Legend entry of the margins' lines.
    hollow_names : (str, str)
        Legend entries for filled and hollow markers when `hollow` is given.
    """
    from matplotlib.lines import Line2D

    style = style or label
    labels = _ordered(frame[label].astype(str))
    panels = _ordered(frame[panel].astype(str)) if panel else [None]
    styles = marker_styles(marked)
    ncols = max(1, min(ncols, len(panels)))
    nrows = math.ceil(len(panels) / ncols)
    width = min(7.2, max(4.2, 1.9 * ncols + 1.6))
    height = nrows * (0.5 + 0.26 * len(labels)) + 0.9
    fig = MplFigure(figsize=(width, height))
    grid = fig.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True)
    axes = grid.ravel()
    for ax, name in zip(axes, panels):
        part = frame if panel is None else frame[frame[panel].astype(str) == name]
        for row in part.itertuples(index=False):
            values = row._asdict()
            y = labels.index(str(values[label]))
            est, lo, hi = (float(values[c]) for c in (estimate, low, high))
            # Nothing marked: every row is drawn alike, dark and filled (no "baseline" without a system of one's own).
            marker, colour = styles.get(str(values[style]), ("o", BASELINE_COLOUR if styles else "0.15"))
            is_hollow = bool(values[hollow]) if hollow else (bool(styles) and str(values[style]) not in styles)
            if math.isfinite(lo) and math.isfinite(hi):
                # End caps keep a narrow interval visible beside its marker.
                ax.plot(
                    [lo, hi],
                    [y, y],
                    color=colour,
                    lw=1.8 if str(values[style]) in styles else 1.3,
                    marker="|",
                    ms=7,
                    mew=1.3,
                    zorder=2,
                )
            ax.plot(
                est,
                y,
                marker,
                color=colour,
                ms=6 if marker != "o" else 5,
                mew=1.3,
                mfc="white" if is_hollow else colour,
                zorder=3,
            )
        if reference is not None:
            ax.axvline(reference, color="0.4", lw=0.9, ls="--", zorder=1)
        if margin is not None:
            centre = reference or 0.0
            for edge in (centre - margin, centre + margin):
                ax.axvline(edge, color=MARGIN_COLOUR, lw=1.0, ls=(0, (5, 3)), zorder=1)
        ax.set_yticks(range(len(labels)), labels, fontsize=FONT["tick"])
        ax.set_ylim(len(labels) - 0.5, -0.5)
        ax.tick_params(axis="x", labelsize=FONT["tick"])
        ax.grid(axis="x", color="0.88", lw=0.7)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        if name is not None:
            ax.set_title(name, fontsize=FONT["title"])
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    _label_bottoms(grid, len(panels), xlabel, fontsize=FONT["label"])
    handles = [
        Line2D([], [], marker=m, color=c, ls="", ms=6.5, label=name)
        for name, (m, c) in styles.items()
        if name in set(frame[style].astype(str))
    ]
    if styles and (~frame[style].astype(str).isin(list(styles))).any():
        handles.append(Line2D([], [], marker="o", color=BASELINE_COLOUR, mfc="white", ls="", ms=5.5, label=baseline_name))
    if hollow:
        handles += [
            Line2D([], [], marker="o", color="0.2", ls="", ms=5.5, label=hollow_names[0]),
            Line2D([], [], marker="o", color="0.2", mfc="white", ls="", ms=5.5, label=hollow_names[1]),
        ]
    if margin is not None:
        handles.append(Line2D([], [], color=MARGIN_COLOUR, lw=1.0, ls=(0, (5, 3)), label=margin_name))
    fig.tight_layout()
    if handles:
        fig.legend(
            handles=handles,
            loc="lower center",
            ncols=min(len(handles), 4),
            frameon=False,
            fontsize=FONT["legend"],
            bbox_to_anchor=(0.5, 1.0),
        )
    return fig


def interval_plot(frame: pd.DataFrame, **options) -> bytes:
    """:func:`interval_figure` as PNG bytes at :data:`PRINT_DPI`."""
    return to_png(interval_figure(frame, **options), dpi=PRINT_DPI)


def _label_bottoms(grid, n_panels: int, xlabel: str, **label) -> None:
    """The lowest visible panel of each column of `grid` carries the shared x axis' ticks and label."""
    nrows, ncols = grid.shape
    for col in range(ncols):
        shown = [r for r in range(nrows) if r * ncols + col < n_panels]
        if shown:
            bottom = grid[shown[-1], col]
            bottom.xaxis.set_tick_params(labelbottom=True)
            bottom.set_xlabel(xlabel, **label)
