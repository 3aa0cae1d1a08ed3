"""One builder per study: run it through the public API and lay out its section of the report.

Each builder takes a :class:`Settings` and returns a :class:`~stats_mtbias.report.document.Section`
with the methods in plain words, the tables (raw numbers) and the figures. The
``analyses/`` scripts and ``stats-mtbias report`` call the same builders, so a
study's files in ``reports/<study>/`` are the same whichever wrote them.
"""

from __future__ import annotations

import contextlib
import re
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

import stats_mtbias as smb
from stats_mtbias import plotting as figures
from stats_mtbias._validation import check_level, check_positive_int
from stats_mtbias.datasets.registry import open_store
from stats_mtbias.report.document import Figure, Section, Table

STUDIES = ("tgbi", "prates", "optimal", "winomt", "models")
LANGUAGE_NAMES = {"ar": "Arabic", "de": "German", "es": "Spanish", "fr": "French", "he": "Hebrew", "it": "Italian",
                  "ru": "Russian", "uk": "Ukrainian"}  # fmt: skip


@dataclass
class Settings:
    """What every study of one report shares.

    Attributes
    ----------
    data_dir : str or Path, optional
        Directory of the public datasets (else ``$MTBIAS_DATA``, else the download cache).
    n_boot : int
        Bootstrap resamples of every interval and paired test.
    seed : int
        Seed of every random number.
    level : float
        Confidence level of the intervals.
    draws, tune, chains : int
        MCMC settings of the Bayesian models.
    prates_rates : bool
        Also fit the Prates rate model (about 3 minutes more).
    progress : bool or None
        Progress on the long steps: bars on a terminal, a line per stage elsewhere (None), or nothing (False).
    cache_fits : bool
        Read the model fits from the cache when nothing they depend on changed (see
        :func:`stats_mtbias.studies.models.run`).
    """

    data_dir: str | Path | None = None
    n_boot: int = 10_000
    seed: int = 0
    level: float = 0.95
    draws: int = 2000
    tune: int = 400
    chains: int = 2
    prates_rates: bool = False
    progress: bool | None = None
    cache_fits: bool = True
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        check_positive_int(self.n_boot, "n_boot")
        check_positive_int(self.draws, "draws")
        check_positive_int(self.chains, "chains")
        check_level(self.level)

    def cached(self, key: str, compute: Callable[[], object]) -> object:
        """`compute()` once per report (the models section reuses the TGBI bootstrap)."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def iterate(self, items: Iterable, description: str) -> Iterator:
        """`items` with a progress bar on a terminal's stderr, or a line per stage with the elapsed time elsewhere
        (CI logs, ``nohup``), where a bar would be silent; nothing with ``progress=False``."""
        items = list(items)
        if self.progress is False:
            return iter(items)
        if self.progress or sys.stderr.isatty():
            from tqdm.auto import tqdm

            return iter(tqdm(items, desc=description, leave=False))
        return _stage_lines(items, description)

    def as_dict(self) -> dict:
        return {
            "n_boot": self.n_boot, "seed": self.seed, "level": self.level, "draws": self.draws,
            "tune": self.tune, "chains": self.chains, "prates_rates": self.prates_rates,
        }  # fmt: skip


_START = time.perf_counter()


def _stage_lines(items: list, description: str) -> Iterator:
    """A line on stderr as each stage starts and when the last ends, with the seconds since the run began."""
    started = time.perf_counter()
    for i, item in enumerate(items, 1):
        print(f"[{time.perf_counter() - _START:7.1f} s] {description}: {item} ({i}/{len(items)})", file=sys.stderr, flush=True)
        yield item
    print(f"[{time.perf_counter() - _START:7.1f} s] {description}: done in {time.perf_counter() - started:.1f} s",
          file=sys.stderr, flush=True)  # fmt: skip


@contextlib.contextmanager
def _collect_warnings(notes: list[str], root: Path | None, skip: tuple[type, ...] = ()) -> Iterator[None]:
    """Keep each distinct warning the study raises as a note (data paths made relative), except `skip` categories."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    prefix = f"{root}/" if root is not None else None
    for w in caught:
        if issubclass(w.category, (DeprecationWarning, FutureWarning, *skip)):
            continue
        text = str(w.message)
        if prefix:
            text = text.replace(prefix, "")
        text = re.sub(r"\s+", " ", text).strip()
        if text not in notes:
            notes.append(text)


def _root(settings: Settings) -> Path | None:
    try:
        return open_store(settings.data_dir).root
    except Exception:  # a missing data directory is reported by the study itself
        return None


def _pct(level: float) -> str:
    return f"{100 * level:g}%"


def _with_mde(frame: pd.DataFrame, level: float, low: str = "ci_low", high: str = "ci_high") -> pd.DataFrame:
    """The comparison frame with ``mde``: the smallest difference it detects with 80% power at α = 0.05."""
    from stats_mtbias.planning import mde_from_interval

    return frame.assign(mde=mde_from_interval(frame[low], frame[high], level=level))


MDE_NOTE = ("mde: the smallest true difference this evaluation detects with 80% power at two-sided α = 0.05 "
            "(from the interval's width, 2.80 standard errors); a difference that is not significant is no larger "
            "than about that, not zero.")  # fmt: skip


# ---------------------------------------------------------------- TGBI


def tgbi_section(settings: Settings) -> Section:
    """TGBI (Cho et al. 2019): P_S per sentence set and the index, three Korean → English systems."""

    s = settings
    section = Section("tgbi", "TGBI (Cho et al. 2019): Korean → English")
    common = dict(data_dir=s.data_dir, n_boot=s.n_boot, rng=s.seed, level=s.level)
    with _collect_warnings(section.notes, _root(s)):
        steps = ["score and MOVER intervals", "bootstrap", "authors' rules"]
        runs = {}
        for step in s.iterate(steps, "TGBI"):
            if step == "bootstrap":
                runs[step] = smb.tgbi(**common, ci="bootstrap").details
            elif step == "score and MOVER intervals":
                runs[step] = s.cached("tgbi", lambda: smb.tgbi(**common).details)
            else:
                runs[step] = smb.tgbi(**common, lexicon="cho2019", repeated_blocks="keep").details
    analytic, boot, authors = runs["score and MOVER intervals"], runs["bootstrap"], runs["authors' rules"]
    n_comparisons = len(analytic.comparisons)
    section.methods = [
        "Each Korean source sentence is gender-neutral; the English output is read as female, male or neutral by its "
        "pronouns and gendered person nouns (the project's lexicon; the authors' cue lists as a variant). For a sentence "
        "set S with shares p_w (female), p_m (male) and p_n (neutral), P_S = √(p_w·p_m + p_n); TGBI is the unweighted "
        "mean of P_S over the seven sets. 0 means every output is male (or every one female); 1 means balance.",
        f"Intervals ({_pct(s.level)}): a set's P_S is the square root of a score interval for g = P_S² — Wilson's "
        "interval on g's effective sample size (the multinomial variance of g times the design effect of sentences "
        "clustered in lexicon items), widened to exact Poisson bounds where ten or fewer outputs are off the majority "
        "gender. Unlike the delta method on P_S or the bootstrap percentile interval, it is never a single point and "
        "keeps its coverage near 0 (a formal set translated almost always as 'he') and on small sets. The index and "
        "the paired differences combine the sets' intervals by MOVER (Zou & Donner 2008) with the correlations of "
        "the estimates (the sets share lexicon items; the systems translate the same items). A paired difference of "
        "one set is tested by a cluster-robust t-test of g_a − g_b (P_S is equal exactly when g is), the index's by "
        "its MOVER interval. Simulated coverage and size: benchmarks/interval_coverage.py.",
        f"Beside them: the cluster bootstrap over lexicon items, stratified by content, {s.n_boot:,} resamples, seed "
        f"{s.seed}, percentile (a set with ten or fewer effective minority outputs keeps its score interval). "
        f"p-values two-sided, Holm-adjusted over the family of all {n_comparisons} system × set differences.",
    ]
    cols = ["system", "subset", "n", "n_unknown", "p_female", "p_male", "p_neutral", "p_s", "ci_low", "ci_high",
            "ci_method"]  # fmt: skip
    section.tables += [
        Table("estimates", "P_S and TGBI", analytic.estimates, cols,
              "P_S per system and sentence set, and the index (the mean of the seven P_S), with score intervals "
              "(sets) and MOVER intervals (index)."),
        Table("estimates_bootstrap", "P_S and TGBI with bootstrap intervals", boot.estimates, cols,
              "The same estimates with cluster-bootstrap intervals over lexicon items, for comparison."),
        Table("comparisons", "Paired differences between systems", _with_mde(analytic.comparisons, s.level),
              [*[c for c in analytic.comparisons.columns if c != "family"], "mde"],
              f"diff = P_S(a) − P_S(b) with its MOVER interval; p_adjusted by Holm over the family of all "
              f"{n_comparisons} rows. {MDE_NOTE}"),
        Table("estimates_authors_rules", "The authors' rules (cho2019 cue lists, repeated block kept)", authors.estimates,
              cols, "What the published numbers used: the authors' cue lists and the defective repeated block kept."),
        Table("accounting", "Every line read", analytic.accounting, list(analytic.accounting.columns),
              "Lines judged, unknown and excluded (with the reason) per system and set.", digits=0),
        Table("rule_changes", "Outputs by gender rule (rows: cho2019, columns: default)",
              analytic.rule_changes.rename_axis("cho2019").reset_index(), ["cho2019", *analytic.rule_changes.columns],
              "How many outputs each rule reads differently.", digits=0),
    ]  # fmt: skip
    est = analytic.estimates.astype({"system": str, "subset": str})
    section.figures.append(
        Figure(
            "forest_p_s", "P_S per sentence set and system",
            figures.forest(est, estimate="p_s", low="ci_low", high="ci_high", label="subset", group="system",
                           xlabel="P_S (0 = one gender only, 1 = balanced)"),
            f"Points: P_S; bars: {_pct(s.level)} score intervals (sets) and MOVER interval (TGBI).",
        )
    )
    section.provenance = {"bootstrap": boot.provenance.to_dict(), "analytic": analytic.provenance.to_dict(),
                          "authors_rules": authors.provenance.to_dict()}  # fmt: skip
    return section


# ---------------------------------------------------------------- Prates


def prates_section(settings: Settings) -> Section:
    """Prates et al. (2019): male-default rates in 12 gender-neutral languages → English."""
    from stats_mtbias.studies import prates

    s = settings
    section = Section("prates", "Prates, Avelar & Lamb (2019): 12 gender-neutral languages → English")
    from stats_mtbias.errors import SmallExpectedCountWarning

    # Small expected counts are handled by the exact tests; the warning is not a finding.
    with _collect_warnings(section.notes, _root(s), skip=(SmallExpectedCountWarning,)):
        runs = {}
        for step in s.iterate(["main", "authors", "adjectives"], "Prates"):
            if step == "main":
                runs[step] = smb.prates(data_dir=s.data_dir, by="language,category", rng=s.seed, level=s.level).details
            elif step == "authors":
                runs[step] = smb.prates(data_dir=s.data_dir, by="language", denominator="all", test="ttest",
                                        correction="none", level=s.level).details  # fmt: skip
            else:
                runs[step] = smb.prates(data_dir=s.data_dir, items="adjectives", rng=s.seed, level=s.level).details
    main, authors, adjectives = runs["main"], runs["authors"], runs["adjectives"]
    per_language = main.rates[main.rates["category"] == prates.ALL]
    per_category = prates.analyse(main.judgements, by="category", level=s.level)[0]
    tests = main.tests
    from stats_mtbias.planning import paired_mde

    # Smallest male − female difference (points) each one-sided sign test detects with 80% power at α = 0.05.
    discordance = ((tests["n_positive"] + tests["n_negative"]) / tests["n_items"]).to_numpy()
    tests = tests.assign(mde_pct=100 * paired_mde(tests["n_items"].to_numpy(), np.where(discordance > 0, discordance, np.nan),
                                                  alternative="one-sided"))  # fmt: skip
    section.methods = [
        "The 1,019 BLS occupations in the sentence “he/she is a(n) <occupation>” in 12 languages without gendered "
        "pronouns, translated into English by Google Translate; each output's pronoun as the authors read it (female, "
        "male, neutral, “?”). Shares are over identified outputs; “?” rows are counted as unknown.",
        f"Intervals: {_pct(s.level)} Wilson intervals on the effective sample size (Bengali's six variants of an "
        "occupation are correlated; the design effect is estimated per cell). Tests: one-sided exact sign tests on "
        f"the occupations whose two counts differ, p-values adjusted by {main.family}.",
        "Against BLS: an occupation's translated female share (mean over languages) against its BLS women's "
        "participation; mean difference with a t interval, one-sided Wilcoxon test, Pearson r with Fisher interval. "
        "Calibration: a binomial GLM of a female output on logit(BLS share), standard errors clustered by category.",
    ]
    cal_cols = [*prates.CALIBRATION_COLUMNS, "note"]
    section.tables += [
        Table("rates", "Per language", per_language, prates.RECORD_COLUMNS,
              "Percent. The last two columns test whether male outputs outnumber female ones (one-sided exact sign "
              f"test), raw and adjusted by {main.family}.", digits=2),
        Table("rates_category", "Per category (all languages)", per_category, prates.RECORD_COLUMNS,
              "An occupation's outputs in all languages form one cluster.", digits=2),
        Table("tests_language", "Male > female per language (all categories)",
              tests[(tests["category"] == prates.ALL)], [*prates.TEST_COLUMNS, "significant", "mde_pct"],
              f"One-sided exact sign tests, adjusted by {main.family}; every language × category test is in "
              "tests.csv. mde_pct: the smallest difference "
              "(points) the test detects with 80% power at one-sided α = 0.05 with the observed discordance "
              "(Connor 1987), before the multiplicity adjustment.", digits=2),
        Table("independence", "Tests of independence", main.independence, prates.INDEPENDENCE_COLUMNS,
              "Gender × category within each language and language × gender overall; Holm over the per-language tests."),
        Table("reference", "Translated female share against BLS participation", main.reference,
              prates.REFERENCE_COLUMNS, "Percent; occupations without a BLS share or an identified output are excluded "
              "and counted in n_excluded.", digits=2),
        Table("calibration", "Calibration: logit P(female) = intercept + slope · logit(BLS share)", main.calibration,
              cal_cols, "Standard errors clustered by category; pct_female_at_parity is the translated female share (percent) "
              "where BLS says 50%."),
        Table("rates_authors_convention", "The authors' convention (all rows; paired t-test, no correction)",
              authors.rates, prates.RECORD_COLUMNS, "Percentages over all rows, as published.", digits=2),
        Table("rates_adjectives", "Adjectives", adjectives.rates, prates.RECORD_COLUMNS,
              "“he/she is <adjective>”.", digits=2),
        Table("accounting", "Every row read", main.accounting, list(main.accounting.columns), digits=0),
    ]  # fmt: skip
    # Full test table to CSV only: 828 rows are for machines, not readers.
    section.tables.append(Table("tests", "", tests, list(tests.columns), "all tests"))
    cells = main.rates[main.rates["category"] != prates.ALL]
    matrix = cells.pivot(index="category", columns="language", values="pct_female")
    matrix = matrix.reindex(index=_ordered(cells["category"]), columns=_ordered(cells["language"]))
    matrix.index = [str(c).removesuffix(" occupations") for c in matrix.index]
    section.figures.append(
        Figure("heatmap_female_share", "Female share by category and language",
               figures.heatmap(matrix, colorbar="% female among identified outputs", vmin=0),
               "Percent of identified outputs that are female; blank: no identified output.")
    )
    occupation_shares = _occupation_shares(main.judgements, s)
    section.figures.append(
        Figure("translated_vs_bls", "Translated against BLS female share per occupation",
               figures.scatter_reference(occupation_shares["reference"], occupation_shares["translated"],
                                         xlabel="BLS women's participation (%)",
                                         ylabel="female share of translations (%, mean over languages)"),
               f"{len(occupation_shares)} occupations with a BLS share; dashed: translated = reference.")
    )
    lang = per_language.astype({"language": str})
    section.figures.append(
        Figure("forest_language", "Female share per language",
               figures.forest(lang, estimate="pct_female", low="pct_female_ci_low", high="pct_female_ci_high",
                              label="language", xlabel="% female among identified outputs"),
               f"{_pct(s.level)} Wilson intervals (effective sample size).")
    )
    section.provenance = {"main": main.provenance.to_dict(), "authors_convention": authors.provenance.to_dict(),
                          "adjectives": adjectives.provenance.to_dict()}  # fmt: skip
    return section


def _occupation_shares(judgements: pd.DataFrame, settings: Settings) -> pd.DataFrame:
    """Per occupation: translated female share (mean over languages) and the BLS share, both in percent."""
    from stats_mtbias.datasets import prates as prates_data
    from stats_mtbias.studies.prates import occupation_shares

    shares = occupation_shares(judgements, prates_data.read_bls(open_store(settings.data_dir)))
    return 100 * shares.rename(columns={"share": "translated"})


def _ordered(values: pd.Series) -> list:
    return list(dict.fromkeys(values.tolist()))


# ---------------------------------------------------------------- optimal translator


def optimal_section(settings: Settings) -> Section:
    """Optimal-translator bias B (Farkas & Németh) of the 12 Prates languages against BLS."""
    from stats_mtbias.studies import optimal

    s = settings
    section = Section("optimal", "Optimal-translator bias B (Farkas & Németh) against BLS")
    with _collect_warnings(section.notes, _root(s)):
        result = smb.optimal(data_dir=s.data_dir, n_boot=s.n_boot, rng=s.seed, level=s.level).details
    head_cols = [
        "language", "n", "pct_minority", "pct_minority_ci_low", "pct_minority_ci_high", "pct_should_be_she",
        "pct_he_given_female_dominated", "pct_she_given_male_dominated", "n_biased", "b_min", "b_median", "b_max",
    ]  # fmt: skip
    section.methods = [
        "For an occupation whose reference female share is f, the optimal deterministic translator always says the "
        "majority gender and errs E_0 = 100·min(f, 1−f) percent of the time; a translator's error E_t is the percent of "
        "people it misgenders; B = (E_t − E_0)/E_0 (0: as good as the optimal translator). Reference f: BLS women's "
        "participation (590 of 1,019 occupations have one); neutral outputs count as unbiased.",
        "Sector B is the mean B weighted by women (female-dominated occupations) or by men (male-dominated), "
        f"sectors from the project's data/sectors.csv. {_pct(s.level)} intervals: B is 0 for most occupations and "
        "large for the few said with the minority pronoun (B > 100 where f is near 0 or 1), so a sector's B is a "
        "weighted sum of rare events; its interval is Fay and Feuer's gamma interval for such sums (exact Poisson "
        "bounds when all weights are equal; conservative otherwise), with the largest B an occupation of the sector "
        "could add. With these occupations fixed and the outputs random it covered 0.98–1.00 in every sector; with "
        "the occupations resampled 0.99 in the median sector (the bootstrap-t 0.49–0.76 in each language's worst). "
        "n_biased counts the occupations with B > 0 and top_share is the largest one's share of the sum: a sector "
        "whose B rests on one occupation is that occupation's. The BLS shares are taken as fixed.",
    ]
    section.tables += [
        Table("headline", "Headline rates", result.headline, head_cols,
              "pct_minority: outputs using the pronoun of the occupation's minority gender.", digits=2),
        Table("sectors", "Sector B, female- and male-dominated occupations", result.sectors,
              ["language", *optimal.SECTOR_COLUMNS],
              f"B of the sector's female-dominated occupations weighted by their women, of its male-dominated ones by "
              f"their men, with {_pct(s.level)} gamma intervals; "
              "n_biased: occupations with B > 0; top_share: the largest one's share of the sector's B.", digits=3),
        Table("categories", "Category B (mean over the category's occupations)", result.categories,
              ["language", *optimal.CATEGORY_COLUMNS], f"{_pct(s.level)} gamma intervals, as for the sectors.",
              digits=3),
        Table("accounting", "Occupations with and without B", result.accounting, list(result.accounting.columns),
              "Status per occupation: ok, or the reason B is undefined (no reference share, f = 0.5, no output).",
              digits=0),
        Table("occupations", "", result.occupations, list(result.occupations.columns), "per occupation"),
    ]  # fmt: skip
    sectors = result.sectors.astype({"language": str, "sector": str, "dominated": str})
    sectors = sectors.assign(sector=sectors["sector"].str.replace(", ", ",\n", regex=False),
                             dominated=sectors["dominated"] + "-dominated occupations")  # fmt: skip
    section.figures.append(
        Figure("sector_b", "Sector B: female- and male-dominated occupations side by side",
               figures.forest(sectors, estimate="b", low="ci_low", high="ci_high", label="sector", group="dominated",
                              panel="language", xscale="symlog", xmax=1000.0, xlabel="B (symmetric log scale)",
                              ncols=4),
               f"Points: weighted mean B; bars: {_pct(s.level)} gamma intervals (arrow: the interval goes beyond "
               "1000; the exact ends are in sectors.csv).")
    )
    section.provenance = {"optimal": result.provenance.to_dict()}
    return section


# ---------------------------------------------------------------- WinoMT


def _winomt_planning(pilot: smb.StudyResult, s: Settings) -> tuple[pd.DataFrame, bytes, dict]:
    """The docs' worked example in the report: items for a 1-, 2- and 5-point ΔG difference, Google vs Amazon in German."""
    judgements = pilot.details.judgements
    if not {"google", "aws"} <= set(judgements.loc[judgements["language"] == "de", "system"]):
        return pd.DataFrame(columns=["difference", "n", "power", "size", "method"]), b"", {}
    rows = []
    for diff in (0.01, 0.02, 0.05):
        plan = smb.power(pilot=pilot, systems=("google", "aws"), language="de", metric="delta_g", difference=diff,
                         test="wald", n_sim=2000, rng=s.seed)  # fmt: skip
        rows.append(plan.table.iloc[0])
    table = pd.DataFrame(rows)[["difference", "n", "power", "size", "method"]]
    base = smb.power(pilot=pilot, systems=("google", "aws"), language="de", metric="delta_g", n=3888, test="wald",
                     n_sim=2000, rng=s.seed)  # fmt: skip
    curve = base.curve(n=[250, 500, 1000, 2000, 3888, 8000, 16000, 32000], differences=[0.01, 0.02, 0.05])
    from stats_mtbias.plotting import power_curve, to_png

    png = to_png(power_curve(curve, scale=100, unit=" pt", xlabel="WinoMT items (n)"))
    return table.reset_index(drop=True), png, plan.provenance


def _construct_sentence(corrected: pd.DataFrame | None) -> str:
    """Which labelled samples measured the pronoun and were left out of the correction, in words."""
    if corrected is None or "n_conflict" not in corrected:
        return ""
    other = corrected[corrected["labels"].str.contains("another construct", regex=False)]
    if other.empty:
        return "Every labelled sample measured the entity's own gender."
    named = [f"{r.system} {LANGUAGE_NAMES.get(r.language, r.language)} ({r.n_conflict_pronoun} of {r.n_conflict} "
             "conflicts labelled by the pronoun)" for r in other.itertuples()]  # fmt: skip
    return ("Left uncorrected for that reason: " + "; ".join(named) + ". An independent labelling of 100 German and "
            "100 French translations for the noun phrase's own gender (kept outside the repository) agreed with the "
            "automatic reading on .97 and .98.")


def winomt_section(settings: Settings) -> Section:
    """WinoMT (Stanovsky et al. 2019): Acc, ΔG, ΔS per system and language, validated against people."""
    import stats_mtbias as smb

    s = settings
    section = Section("winomt", "WinoMT (Stanovsky et al. 2019): English → 8 languages")
    with _collect_warnings(section.notes, _root(s)):
        study = smb.winomt(data_dir=s.data_dir, n_boot=s.n_boot, rng=s.seed, level=s.level, corrected=True)
        planning, curve_png, plan_provenance = _winomt_planning(study, s)
    result = study.details
    found = result.validation
    estimates, comparisons, adjective, corrected = result.estimates, result.comparisons, result.adjectives, result.corrected
    between, accounting = found["annotators"], result.accounting
    section.notes += [n for n in result.notes if "skipped" not in n]
    validation = found["validation"]
    n_comparisons = len(comparisons)
    section.methods = [
        "3,888 English sentences, each with one occupation whose gender a pronoun fixes (pro-stereotypical, "
        "anti-stereotypical or neutral). Each translation is word-aligned to its source (FastAlign from sil-thot, "
        "grow-diag-final-and), and the target words aligned to the entity and its determiner are read by a "
        "per-language morphology module (articles, determiners, endings, pymorphy3 for Russian and Ukrainian, spaCy "
        "for French); unreadable or ambiguous entities are unknown, never guessed.",
        "Acc = percent of items whose entity gender matches the gold gender (unknown counts as wrong); ΔG = F1(male) − "
        "F1(female); ΔS = Acc(pro) − Acc(anti), all in percent. "
        f"{_pct(s.level)} intervals: Wilson (accuracies; exact Poisson ends where ten or fewer items are wrong), "
        "Newcombe's hybrid score (ΔS), and for F1 and ΔG the bootstrap over items stratified by stereotype × gold "
        f"gender (both fixed by design), {s.n_boot:,} resamples, seed {s.seed}, percentile (where a gender's F1 "
        "rests on ten or fewer errors: Wilson for F1 and MOVER for ΔG). Comparisons of two systems on one language: "
        "McNemar's exact test on "
        f"per-item correctness for accuracies, approximate randomisation (each item's two readings swapped at random) for "
        f"F1, ΔG and ΔS. Intervals of a difference: Newcombe's paired score interval for accuracies, the MOVER sum of "
        "the pro and anti ones for ΔS, the paired bootstrap for F1 and ΔG — or, where the two systems read 40 or fewer "
        "items differently, the jackknife t interval with one degree of freedom less than those items (the percentile "
        f"interval covered 0.89 there on 100 items); Holm over all {n_comparisons} rows.",
        "The automatic reading is checked against native speakers' labels of 100-translation samples: agreement with "
        "a Wilson interval and Cohen's κ. A conflict is a translation whose entity reads as one gender and whose "
        "translated pronoun as the other (“den Arzt … bat sie”): the Russian, Ukrainian and Spanish "
        "annotators labelled the entity there (as the metric does), the German and French ones mostly the pronoun, "
        "which no reader of the entity can match; agreement outside the conflicts is shown beside. Two annotators "
        "labelled the same Italian translations; their agreement with each other is the ceiling of a reader. "
        "Languages where agreement is low carry a reading error that the intervals above do not include.",
        "Acc corrected for misreading: with p1 = P(human reads it right | automatic reading right) and p0 = P(human "
        "reads it right | automatic reading wrong) from a language's labelled sample, Acc_corrected = Acc·p1 + "
        "(1 − Acc)·p0; the interval draws p1 and p0 from their Jeffreys posteriors, so the uncertainty of the "
        "confusion matrix is carried in. Each annotation file labels a sample of one system's translations (found "
        "by matching the labelled sentences to the shipped translations), and a system is corrected only with its "
        "own labels: the reader errs differently on different systems' outputs, and borrowing another system's "
        "confusion matrix moved the academic German system from 37.4 to 78.3. Systems without labels of their own "
        "are listed uncorrected. The correction takes the labels as the truth, so they must measure the metric's "
        "construct, the entity's own gender: a sample whose annotator labelled the pronoun's gender in most of its "
        "conflicts (at least five) is not used, since it would move Acc towards the pronoun's reading. "
        + _construct_sentence(corrected),
    ]
    cols = ["system", "language", "n", "n_unknown", "acc", "acc_ci_low", "acc_ci_high", "delta_g", "delta_g_ci_low",
            "delta_g_ci_high", "acc_pro", "acc_anti", "delta_s", "delta_s_ci_low", "delta_s_ci_high", "flag"]  # fmt: skip
    section.tables += [
        Table("validation", "Agreement of the automatic reading with native speakers", validation,
              ["file", "language", "n_rows", "n_labelled", "agreement", "ci_low", "ci_high", "kappa", "n_conflict",
               "n_conflict_pronoun", "agreement_outside", "ci_low_outside", "ci_high_outside"],
              "Share of labelled translations on which the automatic reading and the native speaker agree, with Wilson "
              "intervals and Cohen's κ; rows without an M/F/N label are not counted. A conflict is a translation whose "
              "entity and pronoun have opposite genders; the next column counts the conflicts the annotator labelled "
              "with the pronoun's gender, and the last three give the agreement on the other translations.", digits=3),
        Table("annotators", "Agreement between two annotators of the same translations", between, list(between.columns),
              "Pairs of files labelling the same translations differently; Wilson interval, Cohen's κ.", digits=3),
        Table("estimates", "Acc, ΔG and ΔS per system and language", estimates, cols,
              f"Percent; {_pct(s.level)} intervals: Wilson (Acc, Acc_pro, Acc_anti; exact Poisson ends where ten or "
              "fewer items are wrong), Newcombe's hybrid score (ΔS), bootstrap over items stratified by stereotype × "
              "gold gender (F1, ΔG). A flag marks a file with far more unread items than the language's other "
              "systems (over 3 times their median plus 5 points): garbled or misaligned lines, whose Acc measures "
              "the file more than the system.", digits=2),
        Table("corrected", "Acc corrected for the automatic reader's errors", corrected, list(corrected.columns),
              f"Percent; {_pct(s.level)} intervals from {s.n_boot:,} draws carrying the uncertainty of the "
              "human-labelled confusion (Jeffreys posteriors). Languages without labels have no row; the labels "
              "column names whose translations were labelled (a system is corrected only with its own).", digits=2),
        Table("comparisons", "Paired comparisons of systems on the same language", _with_mde(comparisons, s.level),
              [*comparisons.columns, "mde"], f"Points; p_adjusted: Holm over the family of all {n_comparisons} rows. "
              f"{MDE_NOTE}", digits=3),
        Table("planning", "Items needed to detect a ΔG difference: Google vs Amazon, German", planning,
              ["difference", "n", "power", "size", "method"],
              "Simulated from the shipped outputs: 2,000 evaluations per size, each drawn item by item within "
              "stereotype × gold gender and tested with the linearised (Wald) form of the paired bootstrap test "
              "(smb.power(..., test='bootstrap') runs the bootstrap itself and agrees within Monte-Carlo error). "
              "The difference is in shares; size is the rejection rate when the systems do not differ.", digits=3),
        Table("adjectives", "“+Adj”: a stereotypical adjective before the entity (anti-stereotypical items)", adjective,
              list(adjective.columns), "Change in Acc with the adjective, item transitions, McNemar's exact p.",
              digits=2),
        Table("accounting", "Every item read", accounting, list(accounting.columns),
              "Items per system and language: read, or the reason there is no translation.", digits=0),
    ]  # fmt: skip
    long = pd.concat(
        [estimates.assign(stereotype=name, value=estimates[col], low=estimates[f"{col}_ci_low"], high=estimates[f"{col}_ci_high"])
         for name, col in (("pro-stereotypical", "acc_pro"), ("anti-stereotypical", "acc_anti"))],
        ignore_index=True,
    ).astype({"system": str, "language": str})  # fmt: skip
    long["language"] = long["language"].map(lambda code: f"{LANGUAGE_NAMES.get(code, code)} ({code})")
    section.figures += [
        Figure("pro_anti", "Accuracy on pro- and anti-stereotypical items",
               figures.forest(long, estimate="value", low="low", high="high", label="system", group="stereotype",
                              panel="language", xlabel="Acc (%)", ncols=4),
               f"{_pct(s.level)} Wilson intervals; the gap between the colours is ΔS."),
        Figure("forest_delta_g", "ΔG per system and language",
               figures.forest(estimates.astype({"system": str, "language": str}), estimate="delta_g",
                              low="delta_g_ci_low", high="delta_g_ci_high", label="language", group="system",
                              reference=0.0, xlabel="ΔG = F1(male) − F1(female), points"),
               "Positive: male entities are translated better than female ones."),
    ]  # fmt: skip
    section.figures.append(
        Figure("power_delta_g", "Power to detect a ΔG difference (Google vs Amazon, German)", curve_png,
               "Power of the paired comparison of ΔG against the number of items, simulated from the shipped outputs "
               "(2,000 evaluations per size, linearised test; bands ±2 Monte-Carlo standard errors); dashed: 80%. "
               "WinoMT has 3,888 items.")
    )  # fmt: skip
    section.provenance = {"winomt": result.provenance.to_dict(), "planning": plan_provenance}
    return section


# ---------------------------------------------------------------- Bayesian models


def _diagnostics_row(name: str, result) -> dict:
    d = result.diagnostics
    return {
        "model": name, "sampler": d["sampler"], "max_r_hat": d["max_r_hat"], "min_ess_bulk": d["min_ess_bulk"],
        "min_ess_tail": d["min_ess_tail"], "divergences": d["divergences"],
        "parametrisation": ", ".join(f"{k} {v}" for k, v in d.get("parametrisation", {}).items()), "ok": d["ok"],
        "failures": "; ".join(d["failures"]),
    }  # fmt: skip


def models_section(settings: Settings) -> Section:
    """Hierarchical Bayesian models: calibration against BLS and the TGBI rate model."""
    from stats_mtbias.studies import models

    s = settings
    section = Section("models", "Hierarchical Bayesian models (PyMC)")
    common = dict(data_dir=s.data_dir, draws=s.draws, tune=s.tune, chains=s.chains, rng=s.seed, level=s.level,
                  cache=s.cache_fits)  # fmt: skip
    steps = ["calibration", "tgbi", *(["prates"] if s.prates_rates else [])]
    fits = {}
    with _collect_warnings(section.notes, _root(s)):
        for step in s.iterate(steps, "models: fit"):
            if step == "calibration":
                fits[step] = models.run("prates", model="calibration", **common)
            elif step == "tgbi":
                fits[step] = models.run("tgbi", **common)
            else:
                fits[step] = models.run("prates", **common)
        observed = s.cached(
            "tgbi", lambda: smb.tgbi(data_dir=s.data_dir, n_boot=s.n_boot, rng=s.seed, level=s.level).details
        )
    calib, rate = fits["calibration"], fits["tgbi"]
    outside = rate.diagnostics.get("predictive_check_outside", [])
    if outside:
        section.notes.append(f"TGBI model: observed P_S outside its 95% predictive interval for {', '.join(outside)}.")
    section.methods = [
        "Calibration (12 Prates languages against BLS): logit P(she | he or she) = intercept[language] + "
        "slope[language] · logit(BLS female share) + category + occupation effects; intercepts and slopes partially "
        "pooled across languages. The slope says how far a translator follows the labour statistics (1: fully, 0: "
        "not at all); pct_female_at_parity = 100·expit(intercept) is the share of “she” where BLS says 50%.",
        "TGBI rate model: a categorical logit of female / neutral against male per (system, sentence set, lexicon "
        "item) — the item's two or four sentences in that set's file — with an intercept per system and set (each "
        "set is its own file of translations, and the same sentence comes out differently in different files) and "
        "item effects per system, partially pooled with a spread per system and content. The posterior predictive "
        "check replicates the outputs from the posterior and places every observed P_S in its 95% predictive "
        "interval. Group effects are centred where every level holds ≥ 100 outputs, non-centred otherwise. "
        "Posterior P_S is predicted for a new sample of lexicon items (item effects redrawn), the question the "
        "intervals of the TGBI section answer, and is shown beside them.",
        f"Sampler nutpie, {s.chains} chains × ({s.tune} tuning + {s.draws} draws), seed {s.seed}; intervals are "
        f"{_pct(s.level)} highest-density intervals. Diagnostics are enforced: R-hat ≤ 1.01, bulk and tail ESS ≥ 400, "
        "no divergences; a fit that fails is named below.",
    ]
    diagnostics = pd.DataFrame([_diagnostics_row(name, fit) for name, fit in fits.items()])
    shown = ["slope", "intercept", "pct_female_at_parity", "mu_slope", "sd_slope"]
    slopes = calib.summary[calib.summary["parameter"].isin(shown)]
    posterior = rate.derived["p_s"]
    side = posterior.merge(
        observed.estimates[["system", "subset", "p_s", "ci_low", "ci_high"]].astype({"system": str}), on=["system", "subset"]
    ).rename(columns={"mean": "posterior_mean", "p_s": "observed_p_s"})
    summary_cols = ["parameter", "group", "mean", "sd", "hdi_low", "hdi_high", "r_hat", "ess_bulk"]
    section.tables += [
        Table("diagnostics", "Fit diagnostics", diagnostics, list(diagnostics.columns),
              "Failures name the thresholds a fit missed (the fits' timings: benchmarks/report.py).", digits=3),
        Table("calibration_slopes", "Calibration against BLS: slopes and intercepts per language", slopes,
              summary_cols, "Posterior means with highest-density intervals."),
        Table("tgbi_posterior_vs_observed", "TGBI: posterior P_S beside the observed", side,
              ["system", "subset", "observed_p_s", "ci_low", "ci_high", "posterior_mean", "hdi_low", "hdi_high"],
              "The observed P_S with the TGBI section's intervals (score for sets, MOVER for the index) beside the "
              "posterior mean and highest-density interval."),
        Table("tgbi_predictive_check", "TGBI: posterior predictive check of P_S per system and set",
              rate.derived["predictive_check"],
              ["system", "subset", "observed", "predicted", "pred_low", "pred_high", "p_value", "inside"],
              "The observed P_S against the 95% interval of P_S in data replicated from the posterior on the same "
              "items; the p-value is the share of replicates at or above the observed (near 0 or 1: misfit)."),
        Table("tgbi_posterior_differences", "TGBI: posterior differences between systems", rate.derived["differences"],
              ["system_a", "system_b", "subset", "mean", "hdi_low", "hdi_high", "p_greater"],
              "Posterior mean and HDI of P_S(a) − P_S(b); p_greater is the posterior probability that a's P_S is "
              "larger."),
        Table("calibration_summary", "", calib.summary, list(calib.summary.columns), "all parameters"),
        Table("tgbi_summary", "", rate.summary, list(rate.summary.columns), "all parameters"),
    ]  # fmt: skip
    if "prates" in fits:
        rates = fits["prates"].derived["language_rates"]
        section.tables.insert(
            4, Table("prates_language_rates", "Prates: posterior shares per language (rate model)", rates,
                     ["language", "outcome", "mean", "hdi_low", "hdi_high"])
        )
    slope_rows = slopes[slopes["parameter"] == "slope"].astype({"group": str})
    section.figures.append(
        Figure("calibration_slopes", "Calibration slope per language",
               figures.forest(slope_rows, estimate="mean", low="hdi_low", high="hdi_high", label="group",
                              reference=0.0, xlabel="slope on logit(BLS female share)"),
               f"Posterior means and {_pct(s.level)} HDIs; 1 would follow BLS fully, 0 not at all.")
    )
    both = pd.concat(
        [side.assign(method="observed", value=side["observed_p_s"], low=side["ci_low"], high=side["ci_high"]),
         side.assign(method="posterior", value=side["posterior_mean"], low=side["hdi_low"], high=side["hdi_high"])],
        ignore_index=True,
    ).astype({"system": str, "subset": str})  # fmt: skip
    section.figures.append(
        Figure("tgbi_posterior", "TGBI: posterior intervals beside the observed, by system and set",
               figures.forest(both, estimate="value", low="low", high="high", label="subset", group="method",
                              panel="system", xlabel="P_S"),
               f"Observed: P_S with its {_pct(s.level)} score interval (sets) or MOVER interval (index); posterior: mean "
               "and highest-density interval.")
    )
    section.provenance = {name: fit.provenance.to_dict() for name, fit in fits.items()}
    return section


BUILDERS: dict[str, Callable[[Settings], Section]] = {
    "tgbi": tgbi_section,
    "prates": prates_section,
    "optimal": optimal_section,
    "winomt": winomt_section,
    "models": models_section,
}


def build_section(study: str, settings: Settings) -> Section:
    """The section of one study (``tgbi``, ``prates``, ``optimal``, ``winomt`` or ``models``)."""
    from stats_mtbias._validation import check_choice

    check_choice(study, STUDIES, "study")
    return BUILDERS[study](settings)


