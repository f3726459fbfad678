"""Readers of one benchmark's item-level logs: Inspect AI, HELM, SWE-bench, lm-eval re-runs,
and ``read_runs`` (two logs of one benchmark).

The fixtures under tests/data/benchmark/ are small hand-made logs in each harness's layout
(the Inspect logs are written by tests/data/benchmark/make_inspect_logs.py); every expected
score below is read off those files by hand (the grades listed in the generator, the
``resolved`` lists, the ``exact_match`` stats, the ``acc`` fields).
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest

from cdplot import CdplotInputError
from cdplot.io import (
    prepare_input,
    read_helm,
    read_inspect,
    read_runs,
    read_swebench,
)

DATA = Path(__file__).parent / "data" / "benchmark"
SWE = DATA / "swebench" / "evaluation" / "verified"
GPQA_IDS = ("rec06pnAkLOr2t2mp", "rec0Arme2jcXQZnAW", "rec0DaFrtAeqbCtsW", "rec0V7sqyD6K4hBaP")


# ------------------------------------------------------------------------------ Inspect AI
def test_inspect_logs_are_one_benchmark_with_epochs_as_samples():
    prepared = prepare_input(DATA / "inspect")
    bench = prepared.benchmark
    assert bench.models == ("openai/gpt-4o-mini", "anthropic/claude-3-5-haiku-latest")
    assert bench.items == GPQA_IDS and bench.task == "gpqa_diamond"
    assert bench.sample_column == "epoch"
    # grades per epoch (generator): gpt-4o-mini CICI / CCII, claude CCCI / CCIC
    assert bench.scores.tolist() == [[1, 1], [0.5, 1], [0.5, 0.5], [0, 0.5]]
    assert bench.n_samples.tolist() == [[2, 2]] * 4
    # variance (ddof=1) of two grades: 0 when equal, 1/2 when one C and one I
    assert bench.sample_var.tolist() == [[0, 0], [0.5, 0], [0.5, 0.5], [0, 0.5]]
    assert bench.binary
    assert "as Inspect AI logs (2 logs, scorer 'choice')" in prepared.note


def test_an_inspect_json_log_reads_like_its_archive():
    frame = read_inspect(DATA / "inspect_log.json")
    assert frame["model"].unique().tolist() == ["anthropic/claude-3-5-haiku-latest"]
    assert frame.groupby("item", sort=False)["choice"].mean().tolist() == [1, 1, 0.5, 0.5]
    with pytest.raises(CdplotInputError, match=r"the benchmark has 1 model"):
        prepare_input(DATA / "inspect_log.json")


def _eval_log(path, model, grades, *, created="2025-02-01T00:00:00+00:00", scorer="match"):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(
            "header.json",
            json.dumps(
                {
                    "version": 2,
                    "status": "success",
                    "eval": {"task": "mmlu", "model": model, "created": created},
                }
            ),
        )
        for i, grade in enumerate(grades):
            sample = {"id": f"s{i}", "epoch": 1, "scores": {scorer: {"value": grade}}}
            z.writestr(f"samples/s{i}_epoch_1.json", json.dumps(sample))


def test_inspect_grades_become_numbers(tmp_path):
    _eval_log(tmp_path / "a.eval", "m/a", ["C", "I", "P", "N", "yes", "0.25", 1, True])
    frame = read_inspect(tmp_path / "a.eval")
    # Inspect's CORRECT, INCORRECT, PARTIAL, NOANSWER; yes; a number as text; 1; true
    assert frame["match"].tolist() == [1, 0, 0.5, 0, 1, 0.25, 1, 1]
    _eval_log(tmp_path / "b.eval", "m/b", ["C", "maybe"])
    with pytest.raises(CdplotInputError, match=r"score 'maybe' of sample 's1' of b.eval .*score="):
        read_inspect(tmp_path / "b.eval")


def test_inspect_reruns_read_the_newest_or_are_refused(tmp_path):
    _eval_log(tmp_path / "old.eval", "m/a", "CIII", created="2025-02-01T00:00:00+00:00")
    _eval_log(tmp_path / "new.eval", "m/a", "CCII", created="2025-02-02T00:00:00+00:00")
    _eval_log(tmp_path / "other.eval", "m/b", "IIIC")
    prepared = prepare_input(tmp_path)
    assert prepared.benchmark.scores[:, 0].tolist() == [1, 1, 0, 0]  # the newer log
    assert "model 'm/a', task 'mmlu': 2 logs on the same items, read the newest (new.eval)" in (
        prepared.note
    )
    _eval_log(tmp_path / "new.eval", "m/a", "CCI", created="2025-02-02T00:00:00+00:00")
    with pytest.raises(CdplotInputError, match=r"model 'm/a' has 2 logs of task 'mmlu' that "):
        prepare_input(tmp_path)


def test_an_interrupted_inspect_log_is_read_from_its_journal_and_announced(tmp_path):
    _eval_log(tmp_path / "done.eval", "m/a", "CCII")
    with zipfile.ZipFile(tmp_path / "cut.eval", "w") as z:  # no header.json yet
        start = {"version": 2, "eval": {"task": "mmlu", "model": "m/b", "created": "2025"}}
        z.writestr("_journal/start.json", json.dumps(start))
        for i, grade in enumerate("CIC"):
            sample = {"id": f"s{i}", "epoch": 1, "scores": {"match": {"value": grade}}}
            z.writestr(f"samples/s{i}_epoch_1.json", json.dumps(sample))
    with pytest.raises(CdplotInputError, match=r"model 'm/b' has scores on 3 of the 4 items"):
        prepare_input(tmp_path)
    prepared = prepare_input(tmp_path, missing="drop")
    assert prepared.benchmark.items == ("s0", "s1", "s2")
    assert "cut.eval has status None" not in prepared.note  # a journal has no status
    with zipfile.ZipFile(tmp_path / "err.eval", "w") as z:
        head = {"status": "error", "eval": {"task": "mmlu", "model": "m/c"}}
        z.writestr("header.json", json.dumps(head))
        z.writestr("samples/s0_epoch_1.json", json.dumps({"id": "s0", "epoch": 1, "scores": {}}))
    note = prepare_input(tmp_path, missing="keep").note
    assert "err.eval has status 'error' (samples may be missing)" in note


def test_several_inspect_scorers_are_refused_naming_score(tmp_path):
    _eval_log(tmp_path / "a.eval", "m/a", "CI", scorer="match")
    _eval_log(tmp_path / "b.eval", "m/b", "CI", scorer="includes")
    with pytest.raises(
        CdplotInputError,
        match=r"several scorers in the Inspect logs: 'match', 'includes'; .*score='match'",
    ):
        prepare_input(tmp_path)


# ----------------------------------------------------------------------------- SWE-bench
def test_swebench_results_score_every_instance_not_resolved_zero():
    prepared = prepare_input(SWE)
    bench = prepared.benchmark
    assert bench.models == (
        "20240620_sweagent_claude3.5sonnet",
        "20240728_sweagent_gpt4o",
        "20241029_OpenHands-CodeAct-2.1-sonnet-20241022",
    )
    assert bench.n_items == 12 and bench.task == "SWE-bench verified"
    # the resolved lists of the three results.json, over the 12 ids in sorted order
    assert bench.scores.T.tolist() == [
        [1, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 0],
        [0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0],
        [1, 1, 1, 1, 0, 1, 0, 1, 0, 0, 1, 1],
    ]
    assert bench.cluster_column == "repo"
    assert bench.cluster_ids == (
        "astropy/astropy",
        "django/django",
        "pytest-dev/pytest",
        "sphinx-doc/sphinx",
        "sympy/sympy",
    )
    assert bench.clusters.tolist() == [0, 0, 1, 1, 1, 1, 2, 2, 3, 4, 4, 4]
    assert "the 12 instance ids the files name (resolved or listed), of the 500 of SWE-bench" in (
        prepared.note
    )


def test_swebench_items_set_the_universe():
    frame = read_swebench(SWE, items=DATA / "swebench" / "verified_ids.txt")
    assert frame["instance_id"].nunique() == 13
    extra = frame[frame["instance_id"] == "sympy__sympy-22714"]
    assert extra["resolved"].tolist() == [0, 0, 0]  # listed by no system: 0 for every one
    assert "the 13 instance ids given as items" in frame.attrs["cdplot_note"]
    with pytest.raises(CdplotInputError, match=r"resolved 'astropy__astropy-12907', which is"):
        read_swebench(SWE, items=["django__django-11099"])


def test_a_swebench_results_file_is_not_taken_for_lm_eval_output():
    one = SWE / "20240728_sweagent_gpt4o" / "results" / "results.json"
    frame = read_swebench(one)
    assert frame["model"].unique().tolist() == ["20240728_sweagent_gpt4o"]
    with pytest.raises(CdplotInputError, match=r"the benchmark has 1 model"):
        prepare_input(one)


# ---------------------------------------------------------------------------------- HELM
HELM = DATA / "helm" / "runs" / "v1.0.0"


def test_helm_runs_need_the_metric_named():
    with pytest.raises(
        CdplotInputError,
        match=r"several per-instance metrics in the HELM runs: 'num_references', .*"
        r"score='exact_match'",
    ):
        prepare_input(HELM)


def test_helm_per_instance_stats_give_one_benchmark():
    prepared = prepare_input(HELM, score="exact_match")
    bench = prepared.benchmark
    # models: run_spec.json's adapter_spec.model, else the folder's model= part
    assert bench.models == ("eleutherai/pythia-1b-v0", "meta_llama-7b", "openai/gpt2")
    assert bench.task == "boolq"
    assert bench.items == ("id1082", "id1397", "id2291", "id3155", "id3874")
    # the unperturbed exact_match stats; perturbed entries and stats are left out
    assert bench.scores.T.tolist() == [[1, 1, 0, 1, 0], [1, 1, 1, 1, 0], [1, 0, 0, 1, 0]]
    assert bench.sample_column is None
    assert "HELM per-instance outputs (3 runs; metric 'exact_match'" in prepared.note


def test_helm_train_trials_are_samples(tmp_path):
    for model, hits in (("a", [[1, 0], [1, 1]]), ("b", [[0, 0], [1, 0]])):
        run = tmp_path / f"boolq,model={model}"
        run.mkdir()
        entries = [
            {
                "instance_id": f"id{i}",
                "train_trial_index": t,
                "stats": [{"name": {"name": "exact_match", "split": "test"}, "mean": h}],
            }
            for t, trial in enumerate(hits)
            for i, h in enumerate(trial)
        ]
        (run / "per_instance_stats.json").write_text(json.dumps(entries))
    bench = prepare_input(tmp_path).benchmark
    assert bench.sample_column == "trial"
    # a: id0 (1, 1), id1 (0, 1); b: id0 (0, 1), id1 (0, 0)
    assert bench.scores.tolist() == [[1, 0.5], [0.5, 0]]
    assert read_helm(tmp_path)["trial"].tolist() == [0, 0, 1, 1, 0, 0, 1, 1]


# -------------------------------------------------------------------------------- lm-eval
def test_lm_eval_single_task_reruns_read_the_newest():
    prepared = prepare_input(DATA / "lmeval", score="acc,none")
    bench = prepared.benchmark
    assert bench.models == ("EleutherAI/pythia-160m", "EleutherAI/pythia-410m")
    assert bench.task == "arc_challenge" and bench.item_column == "doc_id"
    # pythia-160m: the samples file of 2024-05-03 (acc 1 0 1 1 0 0), not that of 05-01
    assert bench.scores.T.tolist() == [[1, 0, 1, 1, 0, 0], [1, 1, 0, 1, 1, 0]]
    assert (
        "model 'EleutherAI/pythia-160m', task 'arc_challenge': 2 samples files on the same "
        "items, read the newest (samples_arc_challenge_2024-05-03T08-30-00.000001.jsonl)"
    ) in prepared.note


def test_lm_eval_reruns_on_different_documents_are_refused(tmp_path):
    shutil.copytree(DATA / "lmeval", tmp_path / "out")
    old = tmp_path / "out" / "EleutherAI__pythia-160m"
    old = old / "samples_arc_challenge_2024-05-01T10-00-00.000001.jsonl"
    old.write_text("".join(old.read_text().splitlines(keepends=True)[:5]))
    with pytest.raises(
        CdplotInputError,
        match=r"model 'EleutherAI/pythia-160m' has 2 samples files of task 'arc_challenge' "
        r"that disagree on the items: .*\(6 and 5 items; item '5' only in the first\)",
    ):
        prepare_input(tmp_path / "out", score="acc,none")


# ------------------------------------------------------------------------------ read_runs
def _jsonl(path, hits, *, task=None, start=0):
    rows = []
    for i, h in enumerate(hits, start=start):
        row = {"item": f"q{i}", "correct": h}
        if task:
            row["task"] = task
        rows.append(json.dumps(row) + "\n")
    path.write_text("".join(rows))
    return path


def test_two_runs_are_two_models_named_after_their_files(tmp_path):
    base = _jsonl(tmp_path / "base.jsonl", [1, 0, 0, 1], task="gsm8k")
    new = _jsonl(tmp_path / "new.jsonl", [1, 1, 0, 1], task="gsm8k")
    bench = read_runs([base, new])
    assert bench.models == ("base", "new") and bench.task == "gsm8k"
    assert bench.scores.tolist() == [[1, 1], [0, 1], [0, 0], [1, 1]]
    assert bench.note == "2 runs of one benchmark: 'base' (base.jsonl), 'new' (new.jsonl)"
    named = read_runs([base, new], names=["before", "after"])
    assert named.models == ("before", "after")


def test_runs_of_different_benchmarks_are_refused(tmp_path):
    base = _jsonl(tmp_path / "base.jsonl", [1, 0], task="gsm8k")
    new = _jsonl(tmp_path / "new.jsonl", [1, 1], task="mmlu")
    with pytest.raises(
        CdplotInputError,
        match=r"the runs are of different benchmarks: '.*base.jsonl' is task 'gsm8k' but "
        r"'.*new.jsonl' is task 'mmlu'",
    ):
        read_runs([base, new])


def test_runs_on_different_items_are_refused_naming_the_difference(tmp_path):
    base = _jsonl(tmp_path / "base.jsonl", [1, 0, 1])
    new = _jsonl(tmp_path / "new.jsonl", [1, 1, 0], start=1)
    with pytest.raises(
        CdplotInputError,
        match=r"score different items \(3 and 3; 2 not in both, e.g. 'q0' only in "
        r"'.*base.jsonl'\); .*missing='drop'",
    ):
        read_runs([base, new])
    common = read_runs([base, new], missing="drop")
    assert common.items == ("q1", "q2") and common.scores.tolist() == [[0, 1], [1, 1]]


def test_read_runs_needs_two_logs_of_one_model_each(tmp_path):
    base = _jsonl(tmp_path / "base.jsonl", [1, 0])
    with pytest.raises(CdplotInputError, match=r"pass two or more logs of one benchmark, got 1"):
        read_runs([base])
    two = tmp_path / "two.jsonl"
    two.write_text(
        '{"model": "a", "item": "q0", "correct": 1}\n{"model": "b", "item": "q0", "correct": 0}\n'
    )
    with pytest.raises(CdplotInputError, match=r"holds 2 models in column 'model'"):
        read_runs([base, two])


def test_read_runs_reads_inspect_logs_with_their_epochs():
    logs = sorted((DATA / "inspect").glob("*.eval"))
    bench = read_runs(logs, names=["mini", "haiku"])
    assert bench.models == ("mini", "haiku") and bench.sample_column == "epoch"
    np.testing.assert_array_equal(bench.scores, [[1, 1], [0.5, 1], [0.5, 0.5], [0, 0.5]])


def test_lm_eval_task_scores_of_one_task_ask_for_the_samples(tmp_path):
    for folder in ("EleutherAI__pythia-160m", "EleutherAI__pythia-410m"):
        (tmp_path / folder).mkdir()
        newest = sorted((DATA / "lmeval" / folder).glob("results_*.json"))[-1]
        shutil.copy(newest, tmp_path / folder)  # results files only: no samples
    with pytest.raises(
        CdplotInputError,
        match=r"holds one task \('arc_challenge'\) and no samples files: .*--log_samples",
    ):
        prepare_input(tmp_path, score="acc,none")


def test_a_frame_of_a_reader_keeps_its_note():
    frame = read_swebench(SWE, items=DATA / "swebench" / "verified_ids.txt")
    prepared = prepare_input(frame)
    assert prepared.benchmark.n_items == 13
    assert "the 13 instance ids given as items" in prepared.note
