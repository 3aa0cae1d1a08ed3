"""The TGBI study (Cho et al. 2019) end to end.

Data → gender of each English output → judgement table → per-item counts →
P_S per set and the index → intervals → paired comparisons of systems with
Holm's adjustment.

Intervals (``interval="score"``, the default): a set's P_S gets the square root of a
score interval on g = P_S² (never a point, and it keeps its coverage near 0 and
1); the index and the paired differences combine the sets' intervals by MOVER;
a paired test of a set is a cluster-robust t-test of g_a − g_b (see
:mod:`stats_mtbias.uncertainty.analytic`). ``interval="percentile"`` or ``"bca"`` gives the cluster
bootstrap instead, except for a set with ten or fewer effective minority
outputs, whose bootstrap distribution is too discrete (often a single point):
that set keeps the score interval, and ``ci_method`` says so.

The bootstrap resamples lexicon items, stratified by content (735 occupations,
200 negative, 124 positive phrases): every item appears in four styles and so
in up to three of the seven overlapping sets, and the sets' sizes are fixed by
design. One weight matrix serves every system, which pairs the comparisons.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_level, check_positive_int, check_rng
from stats_mtbias.datasets import tgbi as tgbi_data
from stats_mtbias.datasets.sources import as_source, source_sha256
from stats_mtbias.errors import DataQualityWarning, SmallExpectedCountWarning, UsageError
from stats_mtbias.estimators.tgbi import BOTH_RULES, p_s, tgbi_shares
from stats_mtbias.gender.english import compare_rules
from stats_mtbias.planning.designs import alone, two_systems
from stats_mtbias.planning.simulate import PairedDesign
from stats_mtbias.result import Spec, StudyResult
from stats_mtbias.schema import GENDERS
from stats_mtbias.significance.multitest import CORRECTIONS
from stats_mtbias.studies._common import accounting as common_accounting
from stats_mtbias.studies._common import (
    adjust,
    check_systems,
    comparison_frame,
    lacking,
    melt,
    pair_shared,
    permutation_floor,
    provenance,
    resample_pvalue,
    restrict_items,
    system_pairs,
    unreachable_significance,
    warn_unshared,
    with_flags,
)
from stats_mtbias.studies._samples import average_cells, consistency
from stats_mtbias.studies._study import Study, finish, with_notes
from stats_mtbias.studies._tgbi_judgements import REPEATED_BLOCKS as REPEATED_BLOCKS
from stats_mtbias.studies._tgbi_judgements import judge as judge
from stats_mtbias.studies._tgbi_judgements import load_judgements
from stats_mtbias.tables import count_cube
from stats_mtbias.uncertainty.analytic import (
    minority_count,
    p_s_interval,
    paired_difference_analytic,
    tgbi_index_interval,
)
from stats_mtbias.uncertainty.bootstrap import (
    BootstrapResult,
    cluster_bootstrap,
    paired_permutation,
)

INDEX = "TGBI"
SUBSETS = (*tgbi_data.SET_NAMES, INDEX)
ESTIMATE_COLUMNS = ["system", "subset", "n", "female", "male", "neutral", "p_s", "ci_low", "ci_high", "ci_method"]
FEW_MINORITY = 3  # effective minority outputs of a set at or below which its paired analytic interval undercovers
SMALL_SET = 30  # lexicon items below which a set's paired analytic test may exceed its size: test="permutation"
BOUNDARY_COUNT = 10  # effective minority outputs at or below which a set's bootstrap interval is replaced
# The package's vocabulary (_defaults.INTERVALS, _defaults.TESTS), in analyse and evaluate (smb.tgbi) alike.
INTERVALS = ("score", "percentile", "bca")
TESTS = ("interval", "permutation")  # "interval": the interval's own test, score (MOVER) or bootstrap


def _statistic(both: str):
    def statistic(totals: np.ndarray) -> np.ndarray:
        # totals: (r, system, set, gender) -> (r, system, set + index)
        values = p_s(totals, both)
        return np.concatenate([values, values.mean(axis=-1, keepdims=True)], axis=-1)

    return statistic


def design_arrays(judgements: pd.DataFrame) -> tuple[np.ndarray, list[str], np.ndarray]:
    """``(counts, systems, strata)``: counts ``(lexicon items, systems, sets, genders)``, strata = item content.

    With samples (a ``sample`` column) a cell's counts are the means over its known samples
    (:func:`~stats_mtbias.studies._samples.average_cells`, the one rule of every study).
    """
    cube = count_cube(judgements, ("lexicon_item", "system", "subset"))
    item_content = judgements.drop_duplicates("lexicon_item").set_index("lexicon_item")["content"]
    counts = cube.counts
    if has_samples(judgements):
        counts = _average_samples(counts)
    return counts, list(cube.coords["system"]), item_content.reindex(cube.coords["lexicon_item"]).to_numpy()


def has_samples(judgements: pd.DataFrame) -> bool:
    """Whether the judgements tell samples of an item apart (a non-empty ``sample``)."""
    return "sample" in judgements and bool((judgements["sample"].astype(str) != "").any())


def _average_samples(counts: np.ndarray) -> np.ndarray:
    """Each item's samples averaged over its known ones (:func:`~stats_mtbias.studies._samples.average_cells`).

    Unequal numbers of known samples are named in a :class:`~stats_mtbias.errors.DataQualityWarning`.
    """
    import warnings

    k = counts[..., :4].sum(axis=-1)
    filled = k[k > 0]
    if len(filled) and filled.min() != filled.max():
        warnings.warn(
            f"TGBI: items have {int(filled.min())}–{int(filled.max())} samples; each item's samples are averaged "
            "(every item weighs the same; an unknown sample counts as absent)",
            DataQualityWarning,
            stacklevel=4,
        )
    return average_cells(counts)


def set_names(judgements: pd.DataFrame) -> list[str]:
    """The sentence sets of a judgement table, in order (the seven of Cho et al., or a benchmark's own)."""
    subset = judgements["subset"]
    return list(subset.cat.categories) if isinstance(subset.dtype, pd.CategoricalDtype) else list(dict.fromkeys(subset))


def pilot_design(judgements: pd.DataFrame, systems: tuple[str, str], subset: str = INDEX, both: str = "neutral"):
    """Two systems' TGBI judgements as a power-simulation pilot for P_S of ``subset`` (a set, or ``TGBI``)."""
    subsets = (*set_names(judgements), INDEX)
    check_choice(subset, subsets, "subset")
    counts, order, strata = design_arrays(judgements[judgements["system"].isin(systems)])
    missing = [s for s in systems if s not in order]
    if missing:
        raise UsageError(f"{', '.join(missing)} is not in the pilot; it has {', '.join(sorted(set(judgements['system'])))}.")
    counts = counts[:, [order.index(s) for s in systems]]
    per_item = float(counts.sum() / (2 * counts.shape[0]))
    return PairedDesign(
        counts,
        _statistic(both),
        (subsets.index(subset),),
        strata,
        label=f"P_S {subset}: {systems[0]} − {systems[1]}",
        unit="lexicon items",
        outputs_per_cluster=per_item,
    )


def pilot(result, *, systems=None, metric=None, language=None, subset=None):
    """A TGBI result as a planning pilot for :func:`stats_mtbias.power`: P_S of a set (or the index), simulated."""
    systems = two_systems(result, systems)
    pair = systems if len(systems) == 2 else (systems[0], systems[0])
    if metric not in (None, "p_s"):
        raise UsageError("TGBI plans for `metric='p_s'` of a `subset` (a sentence set, or 'TGBI' for the index).")
    both = (result.provenance.get("options") or {}).get("both", "neutral")
    return "simulate", alone(pilot_design(result.frame("judgements"), pair, subset or INDEX, both), systems)


def analyse(
    judgements: pd.DataFrame,
    *,
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    interval: str = "score",
    compare: bool = True,
    test: str = "interval",
    both: str = "neutral",
    correction: str = _defaults.CORRECTION,
    against: list[str] | None = None,
    family: str | list[str] = "metric",
    n_permutations: int = _defaults.N_PERMUTATIONS,
) -> tuple[pd.DataFrame, pd.DataFrame | None, BootstrapResult | None]:
    """Estimates, intervals and paired comparisons from a TGBI judgement table.

    Parameters
    ----------
    judgements : DataFrame
        From :func:`judge` / :func:`load_judgements` (needs ``lexicon_item``,
        ``content``, ``system``, ``subset``, ``gender``).
    n_boot : int
        Bootstrap replicates.
    n_permutations : int
        Permutations of the approximate randomisation test (``test="permutation"``).
    rng : Generator or int
        Source of every random number drawn (a seed or a Generator).
    level : float
        Confidence level.
    interval : {"score", "percentile", "bca"}
        Score intervals on g with MOVER for the index and differences
        (default), or the cluster bootstrap's percentile or BCa interval (with the boundary rule above).
    compare : bool
        Also compute the paired comparisons of every pair of systems.
    test : {"interval", "permutation"}
        p-values from the paired interval's own method (with ``interval="score"``
        a cluster-robust t-test of g for a set and the MOVER interval's for the
        index; else the paired bootstrap) or from approximate randomisation (swap
        the systems' outputs per item; exact size, best for sets of fewer than
        30 items).
    both : {"neutral", "exclude"}
        How outputs showing both genders enter P_S.
    correction : {"holm", "bh", "none"}
        Multiplicity adjustment of the comparisons' p-values (``p_adjusted``) within each family.
    against : list of str, optional
        Compare these systems with every other one instead of every pair.
    family : {"metric", "all"} or list of str
        The family of ``p_adjusted`` (:func:`stats_mtbias.result.adjust`).
    """
    check_positive_int(n_boot, "n_boot")
    rng = check_rng(rng)
    check_choice(correction, CORRECTIONS, "correction")
    level = check_level(level)
    check_choice(interval, INTERVALS, "interval")
    check_choice(test, TESTS, "test")
    check_choice(both, BOTH_RULES, "both")
    counts, systems, strata = design_arrays(judgements)
    names = set_names(judgements)
    subsets = [*names, INDEX]
    statistic = _statistic(both)
    totals = counts.sum(axis=0)
    estimate = statistic(totals[None])[0]

    boot = None
    sets = p_s_interval(counts, level, both=both)
    index = tgbi_index_interval(counts, level=level, both=both)
    low = np.concatenate([sets.low, index.low[:, None]], axis=-1)
    high = np.concatenate([sets.high, index.high[:, None]], axis=-1)
    methods = np.full(low.shape, "score", dtype=object)
    methods[:, -1] = "MOVER"
    if interval != "score":
        boot = cluster_bootstrap(counts, statistic, n_boot=n_boot, rng=rng, strata=strata, level=level, method=interval)
        bounds = boot.confidence_interval()
        use = np.ones(low.shape, dtype=bool)
        use[:, :-1] = minority_count(counts, both) > BOUNDARY_COUNT
        use &= bounds.high > bounds.low  # an index of 0 or 1 is the same in every replicate: MOVER's interval there
        low, high = np.where(use, bounds.low, low), np.where(use, bounds.high, high)
        methods = np.where(use, f"bootstrap {interval}", methods)

    shares = tgbi_shares(totals, both)
    # The columns n_<gender>, n_outputs and n_unknown count outputs, never the averaged samples' item-equivalents.
    outputs = (
        count_cube(judgements, ("lexicon_item", "system", "subset")).counts.sum(axis=0) if has_samples(judgements) else totals
    )
    known_genders = 4 if both == "neutral" else 3
    read = counts[..., :known_genders].sum(axis=-1) > 0  # (items, systems, sets): a known output there
    items_per_set = read.sum(axis=0)
    items_any = read.any(axis=-1).sum(axis=0)
    rows = []
    for s, system in enumerate(systems):
        for k, subset in enumerate(subsets):
            if subset == INDEX:
                cell = outputs[s].sum(axis=0)
                share = (np.nan, np.nan, np.nan)
                n_items = int(items_any[s])
            else:
                cell = outputs[s, k]
                share = shares[s, k]
                n_items = int(items_per_set[s, k])
            known = int(cell[:known_genders].sum())
            rows.append(
                {
                    "system": system,
                    "subset": subset,
                    "n": n_items,
                    "n_outputs": known,
                    "n_unknown": int(cell[4]),
                    **{f"n_{g}": int(cell[i]) for i, g in enumerate(GENDERS[:4])},
                    "female": share[0],
                    "male": share[1],
                    "neutral": share[2],
                    "p_s": estimate[s, k],
                    "ci_low": low[s, k],
                    "ci_high": high[s, k],
                    "ci_method": methods[s, k],
                }
            )
    estimates = pd.DataFrame(rows)
    comparisons = None
    if compare and len(systems) > 1:
        items = (counts.sum(axis=-1) > 0).any(axis=1).sum(axis=0)  # lexicon items with an output, per set
        small = [f"{name} ({n})" for name, n in zip(names, items, strict=True) if 0 < n < SMALL_SET]
        if small and interval == "score" and test != "permutation":
            warnings.warn(
                f"sets of fewer than {SMALL_SET} lexicon items: {', '.join(small)}; their paired analytic tests can reject "
                "up to 7% of the time at a nominal 5%: test='permutation' (--test permutation) holds its size there.",
                SmallExpectedCountWarning,
                stacklevel=2,
            )
        minority = minority_count(counts, both)  # (systems, sets): effective outputs off the majority
        scarce = [name for k, name in enumerate(names) if np.any((minority[:, k] <= FEW_MINORITY) & (items[k] > 0))]
        if scarce and interval == "score":
            warnings.warn(
                f"sets where a system has {FEW_MINORITY} or fewer outputs off its majority: {', '.join(scarce)}; "
                "there the paired analytic interval covers a true difference about 89-90% of the time at a nominal "
                "95% (simulated, tests/statistical/test_size_paired_comparisons.py); its test keeps its size.",
                SmallExpectedCountWarning,
                stacklevel=2,
            )
        comparisons = _compare(
            counts,
            systems,
            subsets,
            estimate,
            boot,
            statistic,
            level,
            test,
            n_permutations,
            rng,
            both,
            correction,
            against,
            family,
            strata,
        )
        if test == "permutation":  # the only floored p-values of the study (bootstrap and analytic ones have none)
            _permutation_reach(comparisons, counts, systems, against, n_permutations, level, correction, family)
    return estimates, comparisons, boot


def _permutation_reach(comparisons, counts, systems, against, n_permutations, level, correction, family):
    """Warn when approximate randomisation cannot give a significant ``p_adjusted`` (:func:`unreachable_significance`)."""
    exact = []
    for a, b in system_pairs(systems, against):  # the rows of _compare, in order: sets, then the index
        differ = np.any(counts[:, a] != counts[:, b], axis=-1)  # (items, sets)
        exact.append(permutation_floor(np.append(differ.sum(axis=0), differ.any(axis=-1).sum())))
    exact = np.concatenate(exact)
    unreachable_significance(
        comparisons,
        np.maximum(exact, 1.0 / (n_permutations + 1)),
        alpha=1 - level,
        correction=correction,
        family=family,
        data_floor=exact,
        resamples=("n_permutations", n_permutations),
        what="TGBI paired comparisons (approximate randomisation)",
        fixes=["test='interval' (--test interval, the default: p-values without a floor)"],
    )


def _compare(
    counts,
    systems,
    subsets,
    estimate,
    boot,
    statistic,
    level,
    test,
    n_permutations,
    rng,
    both,
    correction,
    against=None,
    family="metric",
    strata=None,
):
    known_genders = 4 if both == "neutral" else 3
    covered = counts.sum(axis=-1) > 0  # (items, systems, sets): an output there, read or not
    rows, lacks = [], []
    for a, b in system_pairs(systems, against):
        # One rule for every pair: the item × set cells both systems have, for the difference, its interval and its
        # test alike (the estimates per system keep all of theirs).
        shared = pair_shared(covered, a, b)
        counts_a, counts_b, pair_boot = counts[:, a], counts[:, b], boot
        diff = estimate[a] - estimate[b]
        if shared is not None:
            lacks.append(lacking(covered, systems, a, b))
            counts_a, counts_b = counts_a * shared[..., None], counts_b * shared[..., None]
            pair = np.stack([counts_a, counts_b], axis=1)
            pair_estimate = statistic(pair.sum(axis=0)[None])[0]
            diff = pair_estimate[0] - pair_estimate[1]
            if boot is not None:
                pair_boot = cluster_bootstrap(
                    pair,
                    statistic,
                    n_boot=boot.replicates.shape[0],
                    rng=rng.spawn(1)[0],
                    strata=strata,
                    level=level,
                    method=boot.method,
                )
        ia, ib = (a, b) if shared is None else (0, 1)
        if pair_boot is not None:
            reps = pair_boot.replicates[:, ia] - pair_boot.replicates[:, ib]
            jack = None if pair_boot.jackknife is None else pair_boot.jackknife[:, ia] - pair_boot.jackknife[:, ib]
            bounds = BootstrapResult(diff, reps, jack, level, pair_boot.method).confidence_interval()
            low, high = bounds.low, bounds.high
        sets, p_sets = paired_difference_analytic(counts_a, counts_b, level, both=both)
        index, p_index = paired_difference_analytic(counts_a, counts_b, level, both=both, index=True)
        if pair_boot is None:
            low = np.append(sets.low, index.low)
            high = np.append(sets.high, index.high)
        else:  # a difference the same in every replicate (both systems at 0 or 1): MOVER's interval, never a point
            point = ~(high > low) & ~np.isnan(diff)
            low = np.where(point, np.append(sets.low, index.low), low)
            high = np.where(point, np.append(sets.high, index.high), high)
        if test == "permutation":
            _, pvalue = paired_permutation(counts_a, counts_b, statistic, n_perm=n_permutations, rng=rng)
        elif pair_boot is not None:
            pvalue = resample_pvalue(reps, diff)
        else:
            pvalue = np.append(p_sets, p_index)
        read = np.stack([counts_a, counts_b], axis=1)[..., :known_genders].sum(axis=-1) > 0
        both_read = read[:, 0] & read[:, 1]
        n_items = np.append(both_read.sum(axis=0), both_read.any(axis=-1).sum())
        for k, subset in enumerate(subsets):
            rows.append(
                {
                    "system_a": systems[a],
                    "system_b": systems[b],
                    "subset": subset,
                    "diff": diff[k],
                    "ci_low": low[k],
                    "ci_high": high[k],
                    "p_value": float(pvalue[k]),
                    "n": int(n_items[k]),
                }
            )
    warn_unshared(lacks, stacklevel=4)
    table = pd.DataFrame(rows).assign(language="ko", metric="p_s")
    return adjust(table, correction, family)


def p_value_method(interval: str, test: str) -> str:
    """Which method the comparisons' p-values come from, given the interval and test."""
    if test == "permutation":
        return "approximate randomisation"
    return "MOVER of the score intervals on g" if interval == "score" else "paired bootstrap (percentile)"


def ci_method(interval: str) -> str:
    """Which method the comparisons' intervals come from."""
    return "MOVER of the score intervals on g" if interval == "score" else f"paired bootstrap ({interval})"


def accounting(judgements: pd.DataFrame) -> pd.DataFrame:
    """Lines read per system and set, by what became of them: ``system, subset, outcome, n``."""
    return common_accounting(
        judgements.assign(outcome=judgements["reason"].replace("", "judged")), ["system", "subset"], "outcome"
    )


@with_notes
def evaluate(
    systems=None,
    *,
    data_dir: str | Path | None = None,
    translations=None,
    lexicon: str = "default",
    repeated_blocks: str = "exclude",
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    interval: str = "score",
    compare: bool = True,
    test: str = "interval",
    both: str = "neutral",
    correction: str = _defaults.CORRECTION,
    against: list[str] | None = None,
    family: str | list[str] = "metric",
    n_permutations: int = _defaults.N_PERMUTATIONS,
    outputs=None,
    sample: str | None = None,
    referent: str | None = None,
    items=None,
) -> StudyResult:
    """The TGBI study on the shipped outputs and/or a user's own (what :func:`stats_mtbias.tgbi` returns).

    `translations` maps a user system's name to a path (CSV, Parquet, a directory
    of ``total_<system>_<set>.txt`` files) or a DataFrame; `systems` names shipped
    systems (default all three). See :func:`analyse` for the statistical options;
    ``lexicon`` picks the gender rule (``"default"`` or the authors' ``"cho2019"``)
    and ``repeated_blocks`` whether copy-paste defects are excluded (default) or
    kept as the authors did. ``interval`` and ``test`` take the package's one vocabulary
    (``"score"`` or a bootstrap interval; ``"interval"`` or ``"permutation"``), :func:`analyse`'s too. ``items`` keeps
    the rows of these item ids (``set:item``, or the lexicon item in every set;
    :func:`~stats_mtbias.studies._common.restrict_items`), its sentence sets being the ``subset`` rows already.
    """
    check_choice(interval, INTERVALS, "interval")
    check_choice(test, TESTS, "test")
    given = dict(translations or {})
    systems = check_systems(systems)
    if systems is None:
        systems = [] if outputs is not None else list(tgbi_data.SYSTEMS)
    clash = sorted(set(systems) & set(given))
    if clash:
        raise UsageError(f"{', '.join(clash)}: named both as a shipped system and in `translations`; rename yours.")
    translations = [(as_source(path, name), name) for name, path in given.items()]
    judgements, store = load_judgements(
        systems,
        data_dir=data_dir,
        translations=translations,
        lexicon=lexicon,
        repeated_blocks=repeated_blocks,
        outputs=outputs,
        sample=sample,
        referent=referent,
    )
    attrs = dict(judgements.attrs)
    judgements, restriction = restrict_items(
        judgements, items, column=["item", "lexicon_item"], keys=["system", "subset"], study="tgbi"
    )
    judgements.attrs.update(attrs)
    estimates, comparisons, _ = analyse(
        judgements,
        n_boot=n_boot,
        rng=check_rng(rng),
        correction=correction,
        level=level,
        interval=interval,
        compare=compare,
        test=test,
        both=both,
        against=check_systems(against, "against"),
        family=family,
        n_permutations=check_positive_int(n_permutations, "n_permutations", minimum=99),
    )
    sets = set_names(judgements)
    method = (
        f"P_S = sqrt(p_w p_m + p_n) per set, TGBI = unweighted mean over the {len(sets)} sets; "
        + (
            f"cluster bootstrap over lexicon items stratified by content, {interval} interval (a set with "
            f"<= {BOUNDARY_COUNT} effective minority outputs: score interval on g)"
            if interval != "score"
            else "sets: modified Wilson score interval on g = P_S^2 with the cluster design effect, square-rooted; "
            "index and differences: MOVER with cluster-robust correlations"
        )
        + (f"; paired comparisons: {p_value_method(interval, test)} p-values" if compare else "")
    )
    data = dict(sorted(store.used.items())) if store is not None else {}
    data.update({str(src): source_sha256(src) for src, _ in translations or []})
    if outputs is not None:
        source = as_source(outputs, "outputs")
        data[str(source)] = source_sha256(source)
    record = provenance(
        method,
        data,
        rng=rng,
        level=level,
        correction=correction,
        family=family,
        n_boot=n_boot if interval != "score" else None,
        options={
            "lexicon": lexicon,
            "both": both,
            "repeated_blocks": repeated_blocks,
            "interval": interval,
            "test": test,
            "n_permutations": n_permutations if compare and test == "permutation" else None,
            "sample": sample,
            "unknown": "excluded from denominators",
            "sets": sets,
            "against": against,
            "systems": [str(s) for s in judgements["system"].cat.categories],
            # The systems of the user's inputs (the report's "your systems"), never guessed from names.
            "yours": (
                [str(s) for s in judgements["system"].cat.categories]
                if outputs is not None
                else [str(name) for _, name in translations or []]
            ),
        },
    )
    est = estimates
    language = "ko"
    if outputs is not None:  # the benchmark's source language, where it says
        named = set(judgements["language"].astype(str)) - {""} if "language" in judgements else set()
        language = named.pop() if len(named) == 1 else "all"
    table = melt(
        est, {"p_s": ("p_s", "ci_low", "ci_high")}, keys={"system": "system", "subset": "subset"}, defaults={"language": language}
    )
    shares = melt(
        est[est["subset"] != INDEX],
        {m: (m, None, None) for m in ("female", "male", "neutral")},
        keys={"system": "system", "subset": "subset"},
        defaults={"language": language},
    )
    notes = []
    if comparisons is not None:
        comparisons = adjust(
            comparison_frame(
                comparisons.assign(language=language), method=p_value_method(interval, test), ci_method=ci_method(interval)
            ),
            correction,
            family,
        )
        if test == "permutation":
            notes.append(
                f"p-values by approximate randomisation, intervals by {ci_method(interval)}: near the boundary they can disagree."
            )
    flags = dict(judgements.attrs.get("line_flags", {}))
    for system in {s for s, _ in flags}:  # the index rests on every set: it carries its sets' flags
        flags[system, INDEX] = "; ".join(f"{subset}: {flag}" for (s, subset), flag in flags.items() if s == system)
    frames = {
        "estimates": est,
        "accounting": accounting(judgements),
        "rule_changes": compare_rules(judgements["translation"].where(judgements["reason"] == "", None)),
        "judgements": judgements,
        "consistency": sample_consistency(judgements, level) if has_samples(judgements) else None,
    }
    return finish(
        "tgbi",
        with_flags(pd.concat([table, shares], ignore_index=True), flags, ["system", "subset"]),
        comparisons,
        record,
        frames,
        allowed=FRAMES,
        correction=correction,
        family=family,
        notes=notes,
        items=restriction,
    )


def sample_consistency(judgements: pd.DataFrame, level: float = _defaults.LEVEL) -> pd.DataFrame:
    """The consistency of each system's samples per set (``all`` too): :func:`stats_mtbias.studies._samples.consistency`.

    An item is a lexicon item of a system and set; unknown samples are left out (the one rule).
    """
    gender = judgements["gender"].astype(str).to_numpy()
    frame = judgements.assign(system=judgements["system"].astype(str), subset=judgements["subset"].astype(str))
    return consistency(
        frame,
        keys=["system", "subset"],
        unit=["lexicon_item"],
        outcome="gender",
        known=gender != "unknown",
        indicators={"female": gender == "female", "male": gender == "male", "neutral": np.isin(gender, ["neutral", "both"])},
        shares=["female", "male"],
        all_of="subset",
        level=level,
    )


READ_COLUMNS = ["system", "set", "item", "sample", "translation", "gender", "reason"]


def read(
    outputs=None,
    *,
    systems=None,
    lexicon: str = "default",
    sample: str | None = None,
    data_dir=None,
    repeated_blocks: str = "exclude",
    referent: str | None = None,
) -> pd.DataFrame:
    """One row per output with the gender the English cues read and why: the table ``tgbi(outputs=...)`` takes.

    `outputs`: a benchmark of one's own (:func:`~stats_mtbias.datasets.tgbi.read_benchmark`), or the shipped
    `systems` (``item`` then the 1-based line of the set's source file). ``reason`` says why an output is
    ``unknown`` (``empty``, ``broken``, ``repeated_block``, ``no_reading``: no cue found), ``""`` otherwise.
    The columns are :data:`READ_COLUMNS`, the `sample` column under its own name in place of ``sample``, then the
    user's other columns of `outputs` (``language``, ``stratum``, notes of theirs; the header lower-cased), so that
    the table goes back into ``tgbi(outputs=..., sample=...)`` as it came.

    `referent`: the column of `outputs` with reference translations in which the asked-about words are in
    [brackets] (a sentence about two people: which one to read). The gender is then that the output gives the
    words aligned to the bracketed ones, a column ``why`` after ``reason`` names the word read, and a referent
    the output dropped is ``unknown`` (reason ``referent_dropped``).
    """
    if outputs is not None:
        judged, _ = load_judgements([], outputs=outputs, sample=sample, lexicon=lexicon, keep=True, referent=referent)
        item = judged["lexicon_item"].astype(str)  # the user's own item (``item`` is made unique per set and sample)
    else:
        judged, _ = load_judgements(
            list(systems or tgbi_data.SYSTEMS),
            data_dir=data_dir,
            lexicon=lexicon,
            repeated_blocks=repeated_blocks,
            referent=referent,
        )
        item = judged["line"].astype(str)
    table = pd.DataFrame(
        {
            "system": judged["system"].astype(str),
            "set": judged["subset"].astype(str),
            "item": item.to_numpy(),
            "sample": judged["sample"].astype(str) if "sample" in judged else "",
            "translation": judged["translation"],
            "gender": judged["gender"].astype(str),
            "reason": judged["reason"],
        }
    )[READ_COLUMNS]
    if "why" in judged:  # the referent read: which word
        table.insert(table.columns.get_loc("reason") + 1, "why", judged["why"].to_numpy())
    if sample:
        table = table.rename(columns={"sample": sample})
    extra = [c for c in judged.columns if str(c).startswith("+") and str(c)[1:] not in table]
    return pd.concat([table, judged[extra].rename(columns=lambda c: c[1:])], axis=1).reset_index(drop=True)


FRAMES = ("estimates", "accounting", "rule_changes", "judgements", "consistency")
SPEC = Spec(
    "P_S = √(p_female·p_male + p_neutral) per sentence set (0: one gender only, 100: balanced); "
    "TGBI is the mean over the seven sets.",
    ("p_s",),
    ("p_s",),
    ("p_s",),
    subset="set",
    title="TGBI (Cho et al. 2019): P_S per sentence set and the index",
)
STUDY = Study("tgbi", FRAMES, evaluate, pilot, read, spec=SPEC)
