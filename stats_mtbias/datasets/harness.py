"""Evaluation-harness logs, JSON lines and Hugging Face datasets read into the outputs table.

**Harness logs.** :func:`read_harness` reads what an evaluation harness writes per
sample into one row per output: ``system`` (the model), ``item`` (the document or
sample id), ``sample`` (the repeat or epoch, 1-based), ``prompt``, ``translation``,
``target`` and the task's own fields (an lm-eval document's fields, an inspect
sample's ``metadata``; a field named like one of these columns is kept as
``doc_<name>``; a list or mapping as its JSON text). ``attrs["logs"]`` holds, per
file, the harness, task, task version and model.

- **lm-evaluation-harness** ``samples_<task>_<date>.jsonl`` (``--log_samples``):
  one line per document *and filter*; the raw outputs ``resps`` (one per repeat)
  are the same on every filter's line, so a document is read once, its repeats as
  samples (``filter=NAME`` takes that filter's ``filtered_resps`` instead). The
  model and task version are read from the ``results_<date>.json`` written beside
  it (else the model is the directory's name and the version unknown). Plain JSON:
  lm-eval is not needed.
- **inspect_ai** logs: ``.eval`` through inspect_ai's own reader
  (:func:`inspect_ai.log.read_eval_log`, the extra ``inspect``); ``.json`` through it
  when installed, else as the JSON it is (same fields, same table). Epochs are the
  samples; a sample that ended in an error has no output and is left out, with a
  warning naming it.

A missing id, an id given twice (per filter), a line that is not JSON, a request that
is not a generation are errors naming the file and the line or id; an id without all
its repeats or epochs, one the task's dataset lists but the log lacks, and a log that
did not finish are warnings naming them. Across several logs (:func:`read_harness`
with a list, a mapping or a directory), a log of another task version than the
others' is refused, naming both files; ids that some systems lack are named in a
warning.

**JSON lines** (``.jsonl``/``.ndjson``, also gzip-compressed) that are not a harness
log are a table, one object per line (:func:`read_jsonl`), and a
``datasets.Dataset`` (or a ``DatasetDict`` of one split) is its frame
(:func:`dataset_frame`): both stand wherever a CSV is read.
"""

from __future__ import annotations

import glob
import gzip
import json
import re
import warnings
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from stats_mtbias.errors import DataError, DataQualityWarning, InputNotFoundError, UsageError, one_line

#: The outputs table's own columns, in order; a task field of the same name is kept as ``doc_<name>``.
COLUMNS = ("system", "item", "sample", "prompt", "translation", "target")
JSONL_SUFFIXES = (".jsonl", ".ndjson")
INSPECT_EXTRA = "reading an inspect_ai .eval log needs inspect_ai: pip install 'stats-mtbias[inspect]'"
_SHOWN = 5  # ids named in a message before "and N more"


# ---------------------------------------------------------------- what a file is


def _stem(path: Path) -> str:
    name = path.name.lower()
    return name[:-3] if name.endswith(".gz") else name


def is_jsonl(path: Path) -> bool:
    """Whether a file's name says JSON lines (``.jsonl``, ``.ndjson``, also ``.gz``)."""
    return _stem(path).endswith(JSONL_SUFFIXES)


def log_kind(path: str | Path) -> str | None:
    """``"lm-eval"``, ``"inspect"`` or None: what harness wrote a file, from its name and first bytes.

    A ``.jsonl`` whose first object has lm-eval's ``doc_id`` and ``resps`` is an lm-eval
    samples file; an ``.eval`` file is an inspect log, and so is a ``.json`` object that
    starts with inspect's ``version`` and ``status`` and holds an ``eval`` header.
    """
    path = Path(path)
    if not path.is_file():
        return None
    name = _stem(path)
    if name.endswith(".eval"):
        return "inspect"
    if name.endswith(".json"):
        with open(path, "rb") as handle:
            head = handle.read(4096).decode("utf-8", "replace")
        starts = re.match(r'\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:', head)
        return "inspect" if starts and '"eval"' in head else None
    if name.endswith(JSONL_SUFFIXES):
        for _, record in _records(path, stop=1):
            return "lm-eval" if isinstance(record, dict) and "doc_id" in record and "resps" in record else None
    return None


def _records(path: Path, stop: int | None = None) -> Iterator[tuple[int, Any]]:
    """``(line, object)`` of a JSON-lines file (gzip too, by its first bytes); blank lines skipped; a line that is
    not UTF-8 or not JSON named."""
    with open(path, "rb") as raw:
        packed = raw.peek(2)[:2] == b"\x1f\x8b"
        handle = gzip.GzipFile(fileobj=raw, mode="rb") if packed else raw
        found = 0
        try:
            for number, line in enumerate(handle, start=1):
                try:
                    text = line.decode("utf-8-sig" if number == 1 else "utf-8")
                except UnicodeDecodeError as exc:
                    raise DataError(f"not valid UTF-8 (byte 0x{line[exc.start]:02x}): save it as UTF-8", path, number) from None
                if not text.strip():
                    continue
                try:
                    record = json.loads(text)
                except json.JSONDecodeError as exc:
                    raise DataError(
                        f"is not a JSON value ({exc.msg} at column {exc.colno}): one JSON object a line", path, number
                    ) from None
                yield number, record
                found += 1
                if stop is not None and found >= stop:
                    return
        except (EOFError, OSError, zlib.error) as exc:
            raise DataError(f"cannot be read ({one_line(exc)}): a truncated or damaged gzip file?", path) from None


# ---------------------------------------------------------------- JSON lines and datasets as tables


def _cell(value: Any) -> Any:
    """A scalar as it is; a list or mapping as its JSON text (a table cell holds one value)."""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return value


def read_jsonl(path: str | Path) -> pd.DataFrame:
    """A JSON-lines file as a table: one row per object, its keys the columns (in order of first appearance).

    A value that is a list or an object is kept as its JSON text; a key an object lacks is a missing value.

    Raises
    ------
    DataError
        Naming the line: a line that is not JSON, or not an object.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "judgements.jsonl"
    >>> _ = path.write_text('{"item": 1, "gender": "female"}\\n{"item": 2, "gender": "male", "note": [1]}\\n')
    >>> read_jsonl(path)
       item  gender note
    0     1  female  NaN
    1     2    male  [1]
    """
    path = Path(path)
    if not path.exists():
        raise InputNotFoundError("does not exist", path)
    rows = []
    for number, record in _records(path):
        if not isinstance(record, dict):
            raise DataError(f"is a JSON {type(record).__name__}, not an object: one object a line", path, number)
        rows.append({str(k): _cell(v) for k, v in record.items()})
    if not rows:
        raise DataError("has no JSON object", path)
    return pd.DataFrame(rows)


def is_dataset(obj: Any) -> bool:
    """Whether ``obj`` is a Hugging Face ``datasets.Dataset`` or ``DatasetDict`` (without importing datasets)."""
    return type(obj).__module__.split(".")[0] == "datasets" and type(obj).__name__ in ("Dataset", "DatasetDict")


def dataset_frame(obj: Any) -> pd.DataFrame:
    """A ``datasets.Dataset`` as a frame (lists and mappings as their JSON text); a ``DatasetDict`` of one split
    as that split (``load_dataset("json", data_files=...)`` gives one called ``train``).

    Raises
    ------
    UsageError
        A ``DatasetDict`` of several splits: which one is meant is named by ``dataset["test"]``.
    """
    if type(obj).__name__ == "DatasetDict":
        splits = list(obj)
        if len(splits) != 1:
            raise UsageError(f"the DatasetDict has the splits {', '.join(splits)}: give one of them, e.g. dataset[{splits[0]!r}]")
        obj = obj[splits[0]]
    frame = obj.to_pandas()
    for column in frame.columns:
        if frame[column].dtype == object:
            frame[column] = [_cell(v.tolist() if hasattr(v, "tolist") else v) for v in frame[column]]
    return frame


# ---------------------------------------------------------------- lm-evaluation-harness


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _fields(fields: Mapping | None) -> dict[str, Any]:
    """A task's own fields as columns: scalars as they are, a field named like a table column as ``doc_<name>``."""
    out = {}
    for key, value in (fields or {}).items():
        key = str(key)
        out[f"doc_{key}" if key in COLUMNS else key] = _cell(value)
    return out


def _lm_eval_results(path: Path) -> dict:
    """The ``results_<date>.json`` written with a ``samples_<task>_<date>.jsonl``, or ``{}``."""
    date = re.search(r"_(\d{4}-\d{2}-\d{2}T[\d.\-]+)\.jsonl(\.gz)?$", path.name)
    candidates = [path.with_name(f"results_{date.group(1)}.json")] if date else []
    for candidate in candidates:
        if candidate.is_file():
            try:
                return json.loads(candidate.read_text("utf-8"))
            except (json.JSONDecodeError, UnicodeDecodeError):
                return {}
    return {}


def _lm_eval_model(results: dict, path: Path) -> str:
    """The model: its name from the model arguments (``pretrained=…``), else the backend (``hf``, ``dummy``), else
    the directory lm-eval named after it."""
    config = results.get("config") or {}
    name = results.get("model_name")
    if name and name in json.dumps(config.get("model_args") or ""):
        return str(name)
    if config.get("model"):
        return str(config["model"])
    return path.parent.name


def _lm_eval_outputs(resps: Any, path: Path, line: int, doc_id: Any) -> list[str]:
    """The outputs of one document, one per repeat: lm-eval's ``resps`` is a list (one per request) of lists (one
    per repeat)."""
    if not isinstance(resps, list) or len(resps) != 1:
        count = len(resps) if isinstance(resps, list) else 0
        raise DataError(
            f"document {doc_id} has {count} requests, where a generation task (output_type: generate_until) has one: "
            "not a log of translations",
            path,
            line,
        )
    outputs = resps[0] if isinstance(resps[0], list) else [resps[0]]
    if any(not isinstance(o, str) for o in outputs):
        raise DataError(
            f"document {doc_id}: its responses are not text (a loglikelihood or multiple-choice task?): "
            "not a log of translations",
            path,
            line,
        )
    return outputs


def _lm_eval_prompt(arguments: Any) -> str:
    """The prompt of a document's one request (``arguments`` as lm-eval 0.4 writes it: ``gen_args_0.arg_0``, or a
    list of ``[prompt, generation arguments]``)."""
    if isinstance(arguments, dict) and arguments:
        first = next(iter(arguments.values()))
        return _text(first.get("arg_0") if isinstance(first, dict) else first)
    if isinstance(arguments, list) and arguments:
        first = arguments[0]
        return _text(first[0] if isinstance(first, list) and first else first)
    return ""


def read_lm_eval(path: str | Path, *, filter: str | None = None) -> tuple[pd.DataFrame, dict]:
    """One lm-evaluation-harness samples file as the outputs table and what it is (see the module).

    Parameters
    ----------
    path : path
        A ``samples_<task>_<date>.jsonl`` written by ``lm_eval --log_samples``.
    filter : str, optional
        Take the outputs after this filter (``filtered_resps`` of its lines: one per
        repeat, or one in all after ``take_first``); default the raw outputs.

    Returns
    -------
    tuple
        ``(frame, info)``; ``info`` has ``file, harness, task, version, model``.
    """
    path = Path(path)
    results = _lm_eval_results(path)
    task = re.sub(r"^samples_|_\d{4}-\d{2}-\d{2}T[\d.\-]+\.jsonl(\.gz)?$", "", path.name)
    version = (results.get("versions") or {}).get(task)
    if version is None:
        version = ((results.get("configs") or {}).get(task, {}).get("metadata") or {}).get("version")
    info = {
        "file": str(path),
        "harness": "lm-eval",
        "task": task,
        "version": None if version is None else str(version),
        "model": _lm_eval_model(results, path),
    }
    docs: dict[Any, dict] = {}  # doc_id -> its row (first line) and outputs
    seen: dict[tuple[Any, Any], int] = {}  # (doc_id, filter) -> line
    filters: list[Any] = []
    for line, record in _records(path):
        if not isinstance(record, dict) or record.get("doc_id") is None:
            raise DataError("has no doc_id: every line of an lm-eval samples file is one document", path, line)
        doc_id, name = record["doc_id"], record.get("filter")
        if name not in filters:
            filters.append(name)
        if (doc_id, name) in seen:
            raise DataError(
                f"document id {doc_id} (filter {name!r}) is given twice, first on line {seen[doc_id, name]}: "
                "two runs appended to one file?",
                path,
                line,
            )
        seen[doc_id, name] = line
        outputs = _lm_eval_outputs(record.get("resps"), path, line, doc_id)
        if doc_id in docs:
            if outputs != docs[doc_id]["outputs"]:
                raise DataError(
                    f"document id {doc_id}: its raw outputs differ from those on line {docs[doc_id]['line']} "
                    "(one document, one generation, written once per filter)",
                    path,
                    line,
                )
        else:
            docs[doc_id] = {"line": line, "record": record, "outputs": outputs}
        if filter is not None and name == filter:
            chosen = record.get("filtered_resps")
            chosen = chosen if isinstance(chosen, list) else [chosen]
            docs[doc_id]["filtered"] = [_text(c[0] if isinstance(c, list) and c else c) for c in chosen]
    if not docs:
        raise DataError("has no document: an empty lm-eval samples file", path)
    if filter is not None and filter not in filters:
        names = ", ".join(repr(f) for f in filters)
        raise UsageError(f"{path}: has no filter {filter!r}; its filters are {names}")
    rows = []
    for doc_id, doc in docs.items():
        record = doc["record"]
        outputs = doc.get("filtered", doc["outputs"]) if filter is not None else doc["outputs"]
        fields = _fields(record.get("doc") if isinstance(record.get("doc"), dict) else {})
        for sample, output in enumerate(outputs, start=1):
            rows.append(
                {
                    "system": info["model"],
                    "item": str(doc_id),
                    "sample": sample,
                    "prompt": _lm_eval_prompt(record.get("arguments")),
                    "translation": output,
                    "target": _text(record.get("target")),
                    **fields,
                }
            )
    frame = pd.DataFrame(rows)
    _warn_uneven(frame, path, "repeats")
    info["doc_hash"] = {str(d): doc["record"].get("doc_hash") for d, doc in docs.items()}
    return frame, info


# ---------------------------------------------------------------- inspect_ai


def _inspect_log(path: Path) -> dict:
    """An inspect log as the dict of its JSON form: through inspect_ai's reader where installed (required for
    ``.eval``), else a ``.json`` log's own JSON."""
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        if _stem(path).endswith(".eval"):
            raise UsageError(f"{path}: {INSPECT_EXTRA}") from None
        try:
            return json.loads(path.read_text("utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise DataError(f"cannot be read as an inspect log ({one_line(exc)})", path) from None
    try:
        log = read_eval_log(str(path))
    except Exception as exc:  # inspect's own errors: a damaged zip, a schema it does not know
        raise DataError(f"cannot be read as an inspect log ({one_line(exc)})", path) from None
    return log.model_dump(mode="json")


def _message_text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(_text(part.get("text")) for part in content if isinstance(part, dict) and part.get("type") == "text")
    return _text(content)


def _inspect_prompt(value: Any) -> str:
    """A sample's input: its text, or the last user message of a chat."""
    if isinstance(value, list):
        users = [m for m in value if isinstance(m, dict) and m.get("role") == "user"]
        return _message_text((users or value)[-1].get("content")) if (users or value) else ""
    return _text(value)


def read_inspect(path: str | Path) -> tuple[pd.DataFrame, dict]:
    """One inspect_ai log (``.eval`` or ``.json``) as the outputs table and what it is (see the module)."""
    path = Path(path)
    if not path.exists():
        raise InputNotFoundError("does not exist", path)
    log = _inspect_log(path)
    header = log.get("eval") or {}
    version = header.get("task_version")
    info = {
        "file": str(path),
        "harness": "inspect",
        "task": _text(header.get("task")),
        "version": None if version is None else str(version),
        "model": _text(header.get("model")) or path.stem,
    }
    if log.get("status") not in (None, "success"):
        warnings.warn(
            f"{path}: the log's status is {log.get('status')!r}, not 'success': the run did not finish, "
            "and its samples may be incomplete",
            DataQualityWarning,
            stacklevel=3,
        )
    rows, seen, failed = [], set(), []
    for sample in log.get("samples") or []:
        sid, epoch = sample.get("id"), sample.get("epoch") or 1
        if sid is None:
            raise DataError(f"a sample (epoch {epoch}) has no id", path)
        if (str(sid), epoch) in seen:
            raise DataError(f"sample id {sid!r}, epoch {epoch} is given twice", path)
        seen.add((str(sid), epoch))
        output = sample.get("output") or {}
        if sample.get("error"):
            message = (sample["error"] or {}).get("message", "") if isinstance(sample["error"], dict) else sample["error"]
            failed.append(f"{sid!r} epoch {epoch} ({one_line(message)[:80]})")
            continue
        target = sample.get("target")
        rows.append(
            {
                "system": info["model"],
                "item": str(sid),
                "sample": int(epoch),
                "prompt": _inspect_prompt(sample.get("input")),
                "translation": _text(output.get("completion")),
                "target": _text(" | ".join(target) if isinstance(target, list) else target),
                **_fields(sample.get("metadata")),
            }
        )
    if failed:
        warnings.warn(
            f"{path}: {len(failed)} sample(s) ended in an error and have no output, left out: {_names(failed)}",
            DataQualityWarning,
            stacklevel=3,
        )
    if not rows:
        raise DataError("has no sample with an output", path)
    frame = pd.DataFrame(rows)
    order = {item: i for i, item in enumerate(dict.fromkeys(frame["item"]))}
    frame = frame.sort_values(["item", "sample"], key=lambda c: c.map(order) if c.name == "item" else c, kind="stable")
    frame = frame.reset_index(drop=True)  # item by item, as lm-eval's; inspect writes epoch by epoch
    listed = [str(s) for s in ((header.get("dataset") or {}).get("sample_ids") or [])]
    absent = [s for s in listed if s not in set(frame["item"])]
    if absent:
        warnings.warn(
            f"{path}: the task's dataset lists {len(absent)} sample id(s) that the log lacks: {_names(absent)}",
            DataQualityWarning,
            stacklevel=3,
        )
    epochs = ((header.get("config") or {}).get("epochs")) or int(frame["sample"].max())
    _warn_uneven(frame, path, "epochs", expected=int(epochs))
    return frame, info


# ---------------------------------------------------------------- checks and the entry point


def _names(ids: list) -> str:
    shown = ", ".join(str(i) for i in ids[:_SHOWN])
    return shown + (f" and {len(ids) - _SHOWN} more" if len(ids) > _SHOWN else "")


def _warn_uneven(frame: pd.DataFrame, path: Path, what: str, expected: int | None = None) -> None:
    """Warn, naming them, about the ids with fewer outputs than the others (or than the run's ``expected``)."""
    counts = frame.groupby("item", sort=False)["sample"].nunique()
    full = expected or int(counts.max())
    short = counts[counts < full]
    if len(short):
        named = [f"{i!r} ({n} of {full})" for i, n in short.items()]
        warnings.warn(
            f"{path}: {len(short)} id(s) lack some of their {full} {what}: {_names(named)}; their shares are means "
            "over the outputs there are",
            DataQualityWarning,
            stacklevel=4,
        )


def read_log(path: str | Path, *, filter: str | None = None) -> tuple[pd.DataFrame, dict]:
    """One harness log, whichever harness wrote it (:func:`log_kind`)."""
    path = Path(path)
    if not path.exists():
        raise InputNotFoundError("does not exist", path)
    kind = log_kind(path)
    if kind == "lm-eval":
        return read_lm_eval(path, filter=filter)
    if filter is not None:
        raise UsageError(f"{path}: `filter` names an lm-eval filter; this is not an lm-eval samples file")
    if kind == "inspect":
        return read_inspect(path)
    raise DataError(
        "is not a harness log: expected an lm-eval samples_*.jsonl (lines with doc_id and resps) or an inspect "
        "log (.eval, or .json with its version, status and eval header)",
        path,
    )


def _logs_of(source: Any) -> list[tuple[str | None, Path]]:
    """``(system name or None, file)`` of every log a source names: a file, a glob, a directory (its lm-eval
    samples files and inspect logs), a list of them or ``{system: file}``."""
    if isinstance(source, Mapping):
        return [(str(name), Path(p)) for name, p in source.items()]
    if isinstance(source, (list, tuple)):
        return [pair for item in source for pair in _logs_of(item)]
    if any(ch in str(source) for ch in "*?["):
        found = sorted(Path(p) for p in glob.glob(str(source), recursive=True) if Path(p).is_file())
        if not found:
            raise InputNotFoundError("no file matches this pattern", str(source))
        return [(None, p) for p in found]
    path = Path(source)
    if path.is_dir():
        found = sorted(p for p in path.rglob("*") if p.is_file() and log_kind(p) is not None)
        if not found:
            raise DataError("is a directory without harness logs (samples_*.jsonl, .eval, inspect .json)", path)
        return [(None, p) for p in found]
    return [(None, path)]


def read_harness(source: Any, *, system: str | None = None, filter: str | None = None) -> pd.DataFrame:
    """Harness logs as one outputs table (see the module); ``system`` renames a single log's model."""
    logs = _logs_of(source)
    if system is not None:
        if len(logs) != 1:
            raise UsageError("`system` names the model of one log; name several with {system: path}")
        logs = [(str(system), logs[0][1])]
    frames, infos = [], []
    for name, path in logs:
        frame, info = read_log(path, filter=filter)
        if name is not None:
            frame["system"] = info["model"] = name
        frames.append(frame)
        infos.append(info)
    _check_together(frames, infos)  # one task version first: naming the systems would not mend that
    by_system: dict[str, str] = {}
    for info in infos:
        if info["model"] in by_system:
            first = by_system[info["model"]]
            raise DataError(
                f"is a log of {info['model']!r}, as is {first}: name the systems, e.g. {{'a': '{first}', 'b': '{info['file']}'}}",
                info["file"],
            )
        by_system[info["model"]] = info["file"]
    columns = list(dict.fromkeys([*COLUMNS, *(c for f in frames for c in f.columns)]))
    out = pd.concat(frames, ignore_index=True).reindex(columns=columns)
    out.attrs["logs"] = [{k: v for k, v in info.items() if k != "doc_hash"} for info in infos]
    return out


def _check_together(frames: list[pd.DataFrame], infos: list[dict]) -> None:
    """Logs read together are of one task version and one set of ids (refused, or warned, by name)."""
    if len(infos) < 2:
        return
    first = infos[0]
    for info in infos[1:]:
        if (info["harness"], info["task"]) != (first["harness"], first["task"]):
            warnings.warn(
                f"{info['file']} is an {info['harness']} log of task {info['task']!r}, {first['file']} an "
                f"{first['harness']} log of {first['task']!r}: their items are matched by id, their versions not compared",
                DataQualityWarning,
                stacklevel=3,
            )
            continue
        if info["version"] is not None and first["version"] is not None and info["version"] != first["version"]:
            raise DataError(
                f"is a log of task version {info['version']}, where {first['file']} is of version "
                f"{first['version']}: its prompts or documents may differ; compare logs of one version",
                info["file"],
            )
        hashes, base = info.get("doc_hash") or {}, first.get("doc_hash") or {}
        changed = [d for d, h in hashes.items() if h and base.get(d) and h != base[d]]
        if changed:
            raise DataError(
                f"documents {_names(changed)} differ from those of the same ids in {first['file']} (doc_hash): "
                "another version of the task's data",
                info["file"],
            )
    ids = [set(f["item"]) for f in frames]
    union = set().union(*ids)
    for info, own in zip(infos, ids, strict=True):
        lacking = sorted(union - own, key=str)
        if lacking:
            warnings.warn(
                f"{info['file']} ({info['model']}) lacks {len(lacking)} id(s) other logs have: {_names(lacking)}",
                DataQualityWarning,
                stacklevel=3,
            )
