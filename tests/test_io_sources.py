"""Readers of benchmark sources: Parquet, JSON Lines, lm-evaluation-harness, MLflow, W&B, OpenML.

Each sample file is written here, in the layout of the tool's own documentation or source:

- lm-evaluation-harness: ``lm_eval/loggers/evaluation_tracker.py`` (EleutherAI, v0.4):
  ``save_results_aggregated`` writes ``<output_path>/<model_name_sanitized>/results_<date>.json``
  with ``"results"`` (task -> ``{"alias", "metric,filter": value, "metric_stderr,filter"}``),
  ``"group_subtasks"``, ``"config"`` (``"model"``, ``"model_args"``) and the tracker's
  ``"model_name"``; ``save_results_samples`` writes ``samples_<task>_<date>.jsonl`` beside it,
  one line per document and filter with ``doc_id``, ``doc``, ``target``, ``arguments``,
  ``resps``, ``filtered_resps``, ``filter``, ``metrics`` and one field per metric.
- MLflow: ``mlflow.search_runs()`` documentation: ``run_id``, ``experiment_id``, ``status``,
  ``artifact_uri``, ``start_time``, ``end_time``, ``metrics.*``, ``params.*``, ``tags.*``.
- Weights & Biases: the runs table's CSV export (``Name``, ``State``, ``Notes``, ``User``,
  ``Tags``, ``Created``, ``Runtime``, ``Sweep``, then config and summary keys).
- OpenML: ``openml.evaluations.list_evaluations(..., output_format="dataframe")`` columns
  (openml-python documentation): ``run_id``, ``task_id``, ``setup_id``, ``flow_id``,
  ``flow_name``, ``data_id``, ``data_name``, ``function``, ``upload_time``, ``uploader``,
  ``uploader_name``, ``value``, ``values``, ``array_data``.

Expected task scores are computed here with the standard library (``statistics.fmean``) or
polars' own ``group_by().mean()``, never with cdplot.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot.io import read_jsonl, read_lm_eval, read_mlflow, read_openml, read_parquet, read_wandb

MODELS = ["EleutherAI/pythia-160m", "EleutherAI/pythia-410m", "EleutherAI/pythia-1b"]
TASKS = ["arc_easy", "boolq", "hellaswag", "piqa", "sciq", "winogrande"]
DATE = "2024-05-01T10-00-00.123456"
#: small example tables: cdplot's advice on few datasets and pool-dependent tests is not tested here
pytestmark = [
    pytest.mark.filterwarnings("ignore::cdplot.PoolDependenceWarning"),
    pytest.mark.filterwarnings("ignore:with .* datasets the:cdplot.CdplotWarning"),
]


def _acc(model: int, task: int, doc: int) -> int:
    """A deterministic 0/1 outcome: bigger models right more often."""
    return int((doc * 7 + task * 3 + model * 5) % 10 < 4 + 2 * model)


def write_lm_eval(root: Path, *, n_docs: int = 12, samples: bool = True) -> Path:
    """lm_eval --output_path root --log_samples, for 3 models and 6 tasks (+ one group)."""
    for m, model in enumerate(MODELS):
        folder = root / model.replace("/", "__")
        folder.mkdir(parents=True)
        results = {}
        for t, task in enumerate(TASKS):
            accs = [_acc(m, t, d) for d in range(n_docs)]
            norm = [_acc(m, t, d + 1) for d in range(n_docs)]
            results[task] = {
                "alias": task,
                "acc,none": statistics.fmean(accs),
                "acc_stderr,none": 0.01,
                "acc_norm,none": statistics.fmean(norm),
                "acc_norm_stderr,none": 0.01,
            }
            if samples:
                lines = [
                    {
                        "doc_id": d,
                        "doc": {"question": f"q{d}"},
                        "target": "0",
                        "arguments": {"gen_args_0": {"arg_0": "ctx", "arg_1": " a"}},
                        "resps": [[["-1.5", "False"]]],
                        "filtered_resps": [["-1.5", "False"]],
                        "filter": "none",
                        "metrics": ["acc", "acc_norm"],
                        "doc_hash": "h",
                        "prompt_hash": "p",
                        "target_hash": "t",
                        "acc": float(accs[d]),
                        "acc_norm": float(norm[d]),
                    }
                    for d in range(n_docs)
                ]
                (folder / f"samples_{task}_{DATE}.jsonl").write_text(
                    "".join(json.dumps(line) + "\n" for line in lines)
                )
        results["ai2_reasoning"] = {"alias": "ai2_reasoning", "acc,none": 0.5}
        doc = {
            "results": results,
            "groups": {"ai2_reasoning": {"acc,none": 0.5}},
            "group_subtasks": {"ai2_reasoning": ["arc_easy"], **{t: [] for t in TASKS}},
            "configs": {t: {"task": t} for t in TASKS},
            "versions": {t: 1.0 for t in TASKS},
            "n-shot": {t: 0 for t in TASKS},
            "config": {
                "model": "hf",
                "model_args": f"pretrained={model},dtype=float32",
                "batch_size": "auto",
            },
            "git_hash": "4600d6b",
            "date": 1714557600.0,
            "model_name": model,
            "model_name_sanitized": model.replace("/", "__"),
        }
        (folder / f"results_{DATE}.json").write_text(json.dumps(doc, indent=2))
    return root


# --------------------------------------------------------------------------- lm-eval
def test_lm_eval_task_level_reads_the_results_mapping(tmp_path):
    root = write_lm_eval(tmp_path / "out", samples=False)
    table = read_lm_eval(root, score="acc,none")
    assert set(table["task"]) == set(TASKS)  # the group ai2_reasoning is left out
    assert set(table["model"]) == set(MODELS)
    for _, row in table.iterrows():
        m, t = MODELS.index(row["model"]), TASKS.index(row["task"])
        assert row["acc,none"] == statistics.fmean(_acc(m, t, d) for d in range(12))
    res = cdplot.compare(root, score="acc,none")
    assert res.input_notes[0].startswith(f"read {str(root)!r} as lm-evaluation-harness output")
    assert res.average_ranks.index[0] == "EleutherAI/pythia-1b"


def test_lm_eval_several_metrics_are_refused_naming_them(tmp_path):
    root = write_lm_eval(tmp_path / "out", samples=False)
    with pytest.raises(CdplotInputError, match=r"'acc,none', 'acc_norm,none'.*score='acc,none'"):
        read_lm_eval(root)
    with pytest.raises(CdplotInputError, match=r"metric 'f1,none' .* is not in"):
        read_lm_eval(root, score="f1,none")


def test_lm_eval_model_names_that_disagree_are_refused(tmp_path):
    root = write_lm_eval(tmp_path / "out", samples=False)
    path = next((root / MODELS[0].replace("/", "__")).glob("results_*.json"))
    doc = json.loads(path.read_text())
    doc["config"]["model_args"] = "pretrained=EleutherAI/pythia-70m"
    path.write_text(json.dumps(doc))
    with pytest.raises(CdplotInputError, match=r"names two models.*pythia-160m.*pythia-70m"):
        read_lm_eval(root, score="acc,none")


def test_lm_eval_item_level_from_samples_files(tmp_path):
    root = write_lm_eval(tmp_path / "out")
    items = read_lm_eval(root, score="acc,none")
    assert list(items.columns) == ["task", "model", "doc_id", "acc,none"]
    assert len(items) == len(MODELS) * len(TASKS) * 12
    res = cdplot.compare(root, score="acc,none")
    assert res.items is not None and res.items.item == "doc_id"
    assert "scores are means over 12 doc_ids" in res.input_notes
    for t, task in enumerate(TASKS):
        for m, model in enumerate(MODELS):
            want = statistics.fmean(_acc(m, t, d) for d in range(12))
            assert res.scores.loc[task, model] == want
            assert res.items.frame(task)[model].tolist() == [
                float(_acc(m, t, d)) for d in range(12)
            ]
    with pytest.raises(
        CdplotInputError, match=r"several metrics in the samples files: 'acc,none', 'acc_norm,none'"
    ):
        cdplot.compare(root)


def test_lm_eval_filter_is_part_of_the_metric(tmp_path):
    folder = tmp_path / "out" / "m1"
    folder.mkdir(parents=True)
    lines = [
        {"doc_id": d, "filter": f, "metrics": ["exact_match"], "exact_match": float(v)}
        for d in range(3)
        for f, v in (("strict-match", d == 0), ("flexible-extract", d < 2))
    ]
    (folder / f"samples_gsm8k_{DATE}.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in lines)
    )
    table = read_lm_eval(folder, score="exact_match,flexible-extract")
    assert table["exact_match,flexible-extract"].tolist() == [1.0, 1.0, 0.0]
    assert set(table["model"]) == {"m1"}  # no results file: the folder names the model


# --------------------------------------------------------------------------- Parquet, JSONL
def _item_rows(seed: int = 3) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    n_tasks, models, n_items = 6, ["m0", "m1", "m2", "m3"], 25
    task = np.repeat([f"task{t}" for t in range(n_tasks)], len(models) * n_items)
    model = np.tile(np.repeat(models, n_items), n_tasks)
    item = np.tile(np.arange(n_items), n_tasks * len(models))
    p = 0.4 + 0.1 * np.tile(np.repeat(np.arange(len(models)), n_items), n_tasks)
    return pl.DataFrame(
        {"task": task, "model": model, "item_id": item, "correct": (rng.random(p.size) < p) * 1.0}
    )


def test_parquet_file_and_folder_give_the_polars_group_means(tmp_path):
    rows = _item_rows()
    rows.write_parquet(tmp_path / "all.parquet")
    folder = tmp_path / "parts"
    folder.mkdir()
    rows.slice(0, 300).write_parquet(folder / "part-0.parquet")
    rows.slice(300).write_parquet(folder / "part-1.parquet")
    means = rows.group_by("task", "model").agg(pl.col("correct").mean())
    for source in (tmp_path / "all.parquet", folder):
        res = cdplot.compare(source, test="mean-ranks")
        assert res.input_notes[0] == f"read {str(source)!r} as Parquet (600 rows)"
        for task, model, mean in means.iter_rows():
            assert res.scores.loc[task, model] == mean
    frame = read_parquet(tmp_path / "all.parquet")
    assert isinstance(frame["task"].dtype, pd.CategoricalDtype)
    assert frame["correct"].tolist() == rows["correct"].to_list()


def test_jsonl_reads_like_parquet(tmp_path):
    rows = _item_rows()
    rows.write_ndjson(tmp_path / "items.jsonl")
    assert read_jsonl(tmp_path / "items.jsonl")["item_id"].tolist() == rows["item_id"].to_list()
    res = cdplot.compare(tmp_path / "items.jsonl", test="mean-ranks")
    means = rows.group_by("task", "model").agg(pl.col("correct").mean())
    for task, model, mean in means.iter_rows():
        assert res.scores.loc[task, model] == mean


def test_parquet_missing_folder_content_is_refused(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(CdplotInputError, match=r"holds no \.parquet file"):
        read_parquet(tmp_path / "empty")


# --------------------------------------------------------------------------- MLflow
def _mlflow_runs() -> pd.DataFrame:
    rows = []
    for d, data in enumerate(["iris", "wine", "digits", "adult", "credit", "spam"]):
        for a, model in enumerate(["rf", "svm", "knn"]):
            for seed in (0, 1):
                rows.append(
                    {
                        "run_id": f"{d}{a}{seed}" * 4,
                        "experiment_id": "1",
                        "status": "FINISHED",
                        "artifact_uri": "file:///mlruns/1",
                        "start_time": "2024-05-01 10:00:00",
                        "end_time": "2024-05-01 10:01:00",
                        "metrics.accuracy": 0.9 - 0.05 * a + 0.01 * d + 0.001 * seed,
                        "metrics.training_time": 1.0 + a,
                        "params.dataset": data,
                        "params.classifier": model,
                        "params.seed": str(seed),
                        "params.max_depth": "5",
                        "tags.mlflow.runName": f"run-{d}-{a}-{seed}",
                        "tags.mlflow.source.type": "LOCAL",
                    }
                )
    return pd.DataFrame(rows)


def test_mlflow_export_csv_and_frame(tmp_path):
    runs = _mlflow_runs()
    runs.to_csv(tmp_path / "runs.csv", index=False)
    for data in (runs, tmp_path / "runs.csv"):
        res = cdplot.compare(data, score="metrics.accuracy", aggregate="mean")
        assert res.input_notes[0] == (
            "read MLflow runs: datasets from 'params.dataset', algorithms from "
            "'params.classifier', scores from 'metrics.accuracy'"
        )
        want = statistics.fmean([0.9 - 0.05 + 0.01 * 2, 0.9 - 0.05 + 0.01 * 2 + 0.001])
        assert res.scores.loc["digits", "svm"] == pytest.approx(want, abs=1e-15)
        assert res.aggregation.columns == ("seed",)


def test_mlflow_refusals_name_the_choices(tmp_path):
    runs = _mlflow_runs()
    with pytest.raises(CdplotInputError, match=r"'metrics.accuracy', 'metrics.training_time'"):
        read_mlflow(runs)
    odd = runs.rename(columns={"params.dataset": "params.data_name_x"})
    with pytest.raises(CdplotInputError, match=r"no column is named to hold the datasets.*"):
        read_mlflow(odd, score="accuracy")
    table = read_mlflow(odd, dataset="data_name_x", score="accuracy")
    assert table["dataset"].iloc[0] == "iris"


# --------------------------------------------------------------------------- W&B
def test_wandb_runs_table_export(tmp_path):
    lines = ["Name,State,Notes,User,Tags,Created,Runtime,Sweep,dataset,model,accuracy,_step"]
    expected = {}
    for d in range(6):
        for a, model in enumerate(["bert", "roberta"]):
            acc = 0.8 + 0.02 * a + 0.01 * d
            expected[(f"ds{d}", model)] = acc
            lines.append(f"run{d}{a},finished,,me,,2024-05-01T10:00:00,61,,ds{d},{model},{acc},9")
    lines.append("crashed,crashed,,me,,2024-05-01T10:00:00,3,,ds0,bert,0.1,2")
    (tmp_path / "wandb_export.csv").write_text("\n".join(lines) + "\n")
    res = cdplot.compare(tmp_path / "wandb_export.csv")
    assert res.input_notes[0] == (
        "read a Weights & Biases runs table (finished runs; dropped 1 run not finished: 1 crashed)"
    )
    for (d, m), acc in expected.items():
        assert res.scores.loc[d, m] == acc
    assert read_wandb(tmp_path / "wandb_export.csv").columns.tolist() == [
        "dataset",
        "model",
        "accuracy",
    ]


# --------------------------------------------------------------------------- OpenML
def _openml_listing() -> pd.DataFrame:
    rows = []
    run = 100
    for d, (data_id, name) in enumerate([(61, "iris"), (31, "credit-g"), (37, "diabetes")]):
        for f, (flow_id, flow) in enumerate([(8353, "sklearn.svm.SVC"), (8365, "sklearn.RF")]):
            for function in ("predictive_accuracy", "area_under_roc_curve"):
                run += 1
                rows.append(
                    {
                        "run_id": run,
                        "task_id": 59 + d,
                        "setup_id": 7000 + f,
                        "flow_id": flow_id,
                        "flow_name": flow,
                        "data_id": data_id,
                        "data_name": name,
                        "function": function,
                        "upload_time": "2019-01-01 00:00:00",
                        "uploader": 1,
                        "uploader_name": "someone",
                        "value": 0.7 + 0.1 * f + 0.01 * d,
                        "values": None,
                        "array_data": None,
                    }
                )
    return pd.DataFrame(rows)


def test_openml_listing_one_function():
    listing = _openml_listing()
    with pytest.raises(CdplotInputError, match=r"several evaluation functions.*score="):
        cdplot.compare(listing)
    res = cdplot.compare(listing, score="predictive_accuracy", test="mean-ranks")
    assert res.scores.loc["credit-g", "sklearn.RF"] == 0.7 + 0.1 + 0.01
    assert read_openml(listing, score="predictive_accuracy")["run"].tolist()[:2] == [101, 103]


def test_openml_name_with_two_ids_is_refused():
    listing = _openml_listing()
    listing.loc[listing["data_name"] == "diabetes", "data_name"] = "iris"
    with pytest.raises(CdplotInputError, match=r"data_name 'iris' goes with several data_ids"):
        read_openml(listing, score="predictive_accuracy")


def test_source_note_survives_json(tmp_path):
    from cdplot._json import result_from_json, result_to_json

    root = write_lm_eval(tmp_path / "out", samples=False)
    res = cdplot.compare(root, score="acc,none")
    back = result_from_json(result_to_json(res))
    assert back.source_note == res.source_note
    assert back.input_notes == res.input_notes


def test_cli_reads_an_lm_eval_folder_and_an_mlflow_export(tmp_path, capsys):
    from _helpers import run

    root = write_lm_eval(tmp_path / "out")
    code, out, err = run(["compare", root, "--score-col", "acc,none", "--test", "sign"], capsys)
    assert code == 0, err
    flat = " ".join(out.split())
    assert (
        "as lm-evaluation-harness output (18 samples files, items doc_id; metric 'acc,none')"
        in flat
    )
    assert "Within-task tests on the items" in flat
    code, out, err = run(["compare", root], capsys)
    assert code == 2
    assert "choose one with --score-col acc,none" in err
    _mlflow_runs().to_csv(tmp_path / "runs.csv", index=False)
    code, out, err = run(["compare", tmp_path / "runs.csv", "--aggregate", "mean"], capsys)
    assert code == 2
    assert "choose one with --score-col metrics.accuracy" in err


def test_lm_eval_direction_mismatch_warns(tmp_path):
    root = write_lm_eval(tmp_path / "out", samples=False)
    for path in root.rglob("results_*.json"):
        doc = json.loads(path.read_text())
        doc["higher_is_better"] = {t: {"acc": False, "acc_norm": True} for t in TASKS}
        path.write_text(json.dumps(doc))
    assert read_lm_eval(root, score="acc,none").attrs["cdplot_higher_is_better"] is False
    with pytest.warns(
        cdplot.CdplotWarning,
        match=r"marks this metric lower-is-better.*"
        r"pass higher_is_better=False",
    ):
        cdplot.compare(root, score="acc,none")
    res = cdplot.compare(root, score="acc,none", higher_is_better=False)  # no warning
    assert res.average_ranks.index[0] == "EleutherAI/pythia-160m"


def test_lm_eval_tasks_without_the_metric_are_named_in_the_note(tmp_path):
    root = write_lm_eval(tmp_path / "out", samples=False)
    for path in root.rglob("results_*.json"):
        doc = json.loads(path.read_text())
        doc["results"]["gsm8k"] = {"alias": "gsm8k", "exact_match,strict-match": 0.1}
        path.write_text(json.dumps(doc))
    table = read_lm_eval(root, score="acc,none")
    assert "gsm8k" not in set(table["task"])
    assert table.attrs["cdplot_note"].endswith(
        "tasks without this metric left out: gsm8k; metric 'acc,none')"
    )
