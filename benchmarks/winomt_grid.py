"""Time the WinoMT grid (every shipped system × language with a reader, plus the "+Adj" files) by stage.

Stages, as ``stats-mtbias winomt`` and the report run them: read (items and translation
files, FastAlign alignment per language over all its files, the per-language readers; one
process per language to read, at most the CPUs), metrics and intervals (Acc/F1/ΔG/ΔS with
stratified resamples, paired comparisons, "+Adj"). Run twice in a fresh cache directory:
cold (nothing cached, readers not yet loaded) and from the cache (readings cached by
content and code hash). Targets (issue 21): cold ≤ 60 s, from cache ≤ 5 s, on 2 cores.
``MTBIAS_WORKERS=1 python benchmarks/winomt_grid.py`` gives the one-process figure to compare.

Then, in this one process and without caches, sentences per second of each stage of the
reading, per language (``--no-stages`` skips it): parse (match the files' lines to the
items), tokenize, align (FastAlign both ways + symmetrisation, trained on the language's
files together), lexicon (the entities' usual translations) and read (the language's
reader on the aligned words), and the read stage alone on the reader tests' hand-written
sentences for the languages without shipped translations (Czech, Polish) beside some that
have them. With ``--dask``, also the cold reading as tasks of a
``distributed.LocalCluster`` of that many workers (one thread each), as on a cluster.

Usage: python benchmarks/winomt_grid.py [--data-dir DIR] [--n-boot 10000] [--no-stages] [--dask 2]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import pandas as pd


def run_grid(data_dir, n_boot: int) -> dict[str, float]:
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.gender.targets import LANGUAGES
    from stats_mtbias.studies import winomt
    from stats_mtbias.studies.winomt import reading as winomt_reading

    winomt_reading._LANGUAGE_LINKS.clear()  # the in-process memo: "from cache" means from the disk cache
    times = {}
    start = time.perf_counter()
    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    jobs = [(s, lang, adj, None) for s, lang, adj, _ in winomt_data.translation_files() if lang in LANGUAGES]
    languages = {lang for _, lang, _, _ in jobs}
    times["workers"] = winomt.reading_workers(len(languages))
    tables = winomt.reading.judge_all(store, items, jobs, aligner="fastalign", use_pronoun=False, explain=False, progress=None)
    times["read"] = time.perf_counter() - start
    start = time.perf_counter()
    base = pd.concat([t for t, job in zip(tables, jobs) if not job[2]], ignore_index=True)
    adj = pd.concat([t for t, job in zip(tables, jobs) if job[2]], ignore_index=True)
    winomt.analyse(base, n_boot=n_boot, rng=0)
    winomt.adjective_effect(base, adj)
    times["metrics"] = time.perf_counter() - start
    times["files"] = len(jobs)
    return times


def stage_rates(data_dir) -> pd.DataFrame:
    """Sentences per second of each reading stage, per language, in this process (nothing cached)."""
    from stats_mtbias.alignment import align, tokenize, translation_lexicon
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.gender import entity as winomt_reading
    from stats_mtbias.gender.targets import LANGUAGES

    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    index = items.set_index("item")
    rows = []
    shipped = {lang for _, lang, _, _ in winomt_data.translation_files()}
    for language in sorted(set(LANGUAGES) & shipped):
        times = {}
        start = time.perf_counter()
        sources, indices, translations = [], [], []
        for _system, lang, is_adj, relpath in winomt_data.translation_files():
            if lang != language:
                continue
            table = winomt_data.read_translations(store.path(relpath), items, adjectives=is_adj)
            table = table[table["reason"] == ""]
            sources += table["source"].tolist()
            translations += table["translation"].tolist()
            indices += (index.loc[table["item"], "entity_index"].to_numpy() + (1 if is_adj else 0)).tolist()
        times["parse"] = time.perf_counter() - start
        start = time.perf_counter()
        src = [tokenize(x) for x in sources]
        trg = [tokenize(x) if x else [] for x in translations]
        times["tokenize"] = time.perf_counter() - start
        start = time.perf_counter()
        links = align(src, trg, method="fastalign", cache=False)
        times["align"] = time.perf_counter() - start
        start = time.perf_counter()
        heads = [winomt_reading.head_word(x, i) for x, i in zip(sources, indices)]
        lexicon = translation_lexicon(src, trg, links, sorted(set(heads)))
        times["lexicon"] = time.perf_counter() - start
        start = time.perf_counter()
        winomt_reading.read_entity_and_pronoun(sources, indices, translations, language, alignments=links, lexicon=lexicon)
        times["read"] = time.perf_counter() - start
        rows.append(
            {
                "language": language,
                "sentences": len(sources),
                **{stage: len(sources) / t for stage, t in times.items()},
                "seconds": sum(times.values()),
            }
        )
    frame = pd.DataFrame(rows).set_index("language")
    total = frame["sentences"].sum() / frame["seconds"].sum()
    frame.loc["all"] = [
        frame["sentences"].sum(),
        *[
            frame["sentences"].sum() / (frame["sentences"] / frame[c]).sum()
            for c in ("parse", "tokenize", "align", "lexicon", "read")
        ],
        frame["seconds"].sum(),
    ]
    frame.attrs["total"] = total
    return frame


def reader_rates(languages=("cs", "pl", "pt", "nl", "es", "fr", "de", "ru")) -> pd.DataFrame:
    """Sentences per second of the read stage alone, on the hand-written sentences of the reader tests.

    Czech and Polish have no shipped translations (no alignment to time): their
    readers are timed on the tests' sentences, each read once, nothing memoised,
    beside languages that have shipped files, on the same kind of sentences.
    """
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' sentences, run from any directory
    from stats_mtbias.alignment import tokenize
    from stats_mtbias.gender.targets import reader
    from tests.gender import test_targets as sentences

    cases = {"cs": sentences.CZECH, "pl": sentences.POLISH, "pt": sentences.PORTUGUESE, "nl": sentences.DUTCH}
    marks = sentences.test_readers_on_hand_written_sentences.pytestmark
    (parametrize,) = [m for m in marks if m.name == "parametrize"]
    for language, sentence, words, _ in parametrize.args[1]:
        cases.setdefault(language, []).append((sentence, words, None))
    rows = []
    for language in languages:
        pairs = []
        for sentence, words, _ in cases.get(language, []):
            tokens = tokenize(sentence)
            pairs.append((tokens, [i for i, t in enumerate(tokens) if t in words]))
        read = reader(language)
        read(*pairs[0])  # load the model: start-up is not reading
        for module in ("cs", "fr"):  # the taggers memoise sentences: clear them, each sentence is new
            import importlib

            importlib.import_module(f"stats_mtbias.gender.targets.{module}")._tagged.cache_clear()
        start = time.perf_counter()
        for _ in range(5):
            for tokens, positions in pairs:
                read(tokens, positions)
            for module in ("cs", "fr"):
                importlib.import_module(f"stats_mtbias.gender.targets.{module}")._tagged.cache_clear()
        seconds = time.perf_counter() - start
        rows.append({"language": language, "sentences": 5 * len(pairs), "read": 5 * len(pairs) / seconds})
    return pd.DataFrame(rows).set_index("language")


def dask_cold(data_dir, workers: int) -> float:
    """Seconds to read the grid cold as tasks of a LocalCluster of `workers` one-thread workers."""
    from distributed import Client, LocalCluster

    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.gender.targets import LANGUAGES
    from stats_mtbias.studies import winomt

    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    jobs = [(s, lang, adj, None) for s, lang, adj, _ in winomt_data.translation_files() if lang in LANGUAGES]
    with (
        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster),
    ):
        start = time.perf_counter()
        winomt.reading.judge_all(
            store, items, jobs, aligner="fastalign", use_pronoun=False, explain=False, progress=None, engine="dask"
        )
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir")
    parser.add_argument("--n-boot", type=int, default=10_000)
    parser.add_argument("--no-stages", action="store_true", help="skip the per-stage throughput")
    parser.add_argument("--dask", type=int, default=0, metavar="WORKERS", help="also read cold on a LocalCluster")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["MTBIAS_CACHE"] = cache
        rows = []
        for label in ("cold", "from cache"):
            start = time.perf_counter()
            times = run_grid(args.data_dir, args.n_boot)
            rows.append({"run": label, **times, "total": time.perf_counter() - start})
    frame = pd.DataFrame(rows).set_index("run")[["read", "metrics", "total", "workers", "files"]]
    print(
        f"WinoMT grid: {int(frame['files'].iloc[0])} translation files, {args.n_boot} resamples; seconds per stage "
        f"(read = align + morphology, {int(frame['workers'].iloc[0])} processes when cold; MTBIAS_WORKERS=1: one)"
    )
    print(frame.drop(columns=["files", "workers"]).round(1).to_string())
    print("target (issue 21): cold <= 60 s, from cache <= 5 s on 2 cores")
    if args.dask:
        with tempfile.TemporaryDirectory() as cache:
            os.environ["MTBIAS_CACHE"] = cache  # the workers inherit it: nothing cached
            seconds = dask_cold(args.data_dir, args.dask)
        print(
            f"\ncold reading as Dask tasks (LocalCluster, {args.dask} workers): {seconds:.1f} s "
            f"(worker processes above: {frame.loc['cold', 'read']:.1f} s)"
        )
    if not args.no_stages:
        with tempfile.TemporaryDirectory() as cache:
            os.environ["MTBIAS_CACHE"] = cache
            stages = stage_rates(args.data_dir)
        print("\nreading, one process, nothing cached: sentences per second of each stage")
        print(stages.round(0).astype(int).to_string())
        print(f"all stages: {stages.attrs['total']:.0f} sentences/s in one process")
        print("\nread stage alone on the reader tests' hand-written sentences (Czech and Polish have no shipped files)")
        print(reader_rates().round(0).astype(int).to_string())


if __name__ == "__main__":
    main()
