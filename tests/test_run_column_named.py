"""A run column named with ``run=`` is only the run column.

``read_run_scores(table, run="graph")`` on a column whose name cdplot does not recognise as
a repetition (``graph``, ``instance_id``): in a wide table it must not become an algorithm,
in a long table not a candidate score column. Checked by hand on small tables.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cdplot._errors import CdplotInputError
from cdplot.io import read_run_scores


def test_a_named_run_column_of_a_wide_table_is_not_an_algorithm():
    wide = pd.DataFrame(
        {
            "task": ["t1", "t1", "t2", "t2"],
            "graph": [1, 2, 1, 2],
            "A": [3.0, 4, 5, 6.5],
            "B": [1.0, 2, 3, 4.5],
        }
    )
    runs = read_run_scores(wide, run="graph")
    assert runs.algorithms == ("A", "B")
    assert runs.cell(0, 0).tolist() == [3.0, 4.0] and runs.cell(1, 1).tolist() == [3.0, 4.5]


def test_a_named_run_column_of_a_long_table_is_not_a_score_column():
    long = pd.DataFrame(
        {
            "task": ["t1"] * 4 + ["t2"] * 4,
            "algorithm": ["A", "A", "B", "B"] * 2,
            "graph": [1, 2] * 4,
            "score": [3.0, 4, 5, 6, 7, 8, 9, 10.5],
        }
    )
    runs = read_run_scores(long, run="graph")
    assert runs.algorithms == ("A", "B")
    assert np.array_equal(runs.values[1], [[7.0, 8.0], [9.0, 10.5]])


def test_a_named_run_column_read_from_a_file(tmp_path):
    path = tmp_path / "runs.csv"
    path.write_text("task,graph,A,B\nt1,1,3,1\nt1,2,4,2\nt2,1,5,3\nt2,2,6.5,4.5\n")
    runs = read_run_scores(path, run="graph")
    assert runs.algorithms == ("A", "B") and runs.values.shape == (2, 2, 2)


def test_a_run_column_the_table_lacks_is_named_with_the_columns():
    wide = pd.DataFrame({"task": ["t1", "t1"], "A": [1.0, 2.0], "B": [2.0, 3.0]})
    with pytest.raises(CdplotInputError, match=r"no run column graph; its columns are task, A"):
        read_run_scores(wide, run="graph")
