"""The bundled single-benchmark table: HumanEval pass rates of three models (Murdza).

Source: github.com/jamesmurdza/humaneval-results, README.md at commit
5eac7809fcfedaafeef5cea7f0a5b37783e19704: the "Results by task" table (the share of ten
runs that passed each problem) and the "Results" table (overall success 45.1 %, 77.0 %,
84.8 %), which checks the transcription of the 164 x 3 cells.
"""

from __future__ import annotations

import numpy as np
import pytest

import cdplot


@pytest.fixture(scope="module")
def humaneval():
    return cdplot.datasets.load("humaneval_murdza")


def test_the_overall_success_is_the_published_one(humaneval):
    # README "Results": CodeLlama-34b-Instruct-hf 45.1 %, gpt-3.5-turbo 77.0 %, gpt-4 84.8 %
    published = {"CodeLlama-34b-Instruct": 45.1, "gpt-3.5-turbo": 77.0, "gpt-4": 84.8}
    means = (humaneval.mean() * 100).round(1)
    assert means.to_dict() == published


def test_rows_are_the_164_problems_and_cells_are_shares_of_ten_runs(humaneval):
    assert humaneval.shape == (164, 3)
    assert list(humaneval.index[:2]) == ["HumanEval/0", "HumanEval/1"]
    assert humaneval.index.name == "item" and humaneval.columns.name == "model"
    tenths = humaneval.to_numpy() * 10
    assert np.array_equal(tenths, np.round(tenths)) and tenths.min() == 0 and tenths.max() == 10


def test_the_boards_keep_their_dataset_rows():
    assert cdplot.datasets.load("demsar2006").index.name == "dataset"
    assert cdplot.datasets.load("demsar2006").columns.name == "algorithm"


def test_the_item_table_is_compared_on_its_items(humaneval):
    res = cdplot.compare(humaneval)
    assert type(res).__name__ == "BenchmarkComparison"
    stats = res.model_statistics
    assert list(stats.index) == ["gpt-4", "gpt-3.5-turbo", "CodeLlama-34b-Instruct"]
    assert stats["n_items"].tolist() == [164, 164, 164]
    assert "164 items" in res.summary()
    # every pair differs (paired t, Holm): one letter per model, best first
    assert dict(res.letters) == {"gpt-4": "a", "gpt-3.5-turbo": "b", "CodeLlama-34b-Instruct": "c"}
    assert res.differences.equals(cdplot.compare(humaneval.reset_index()).differences)


def test_the_source_names_repository_and_commit():
    source = cdplot.datasets.describe("humaneval_murdza")["source"]
    assert "jamesmurdza/humaneval-results" in source
    assert "5eac7809fcfedaafeef5cea7f0a5b37783e19704" in source
