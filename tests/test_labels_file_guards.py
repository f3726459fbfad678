"""A ``--labels`` JSON file too deep or with an integer too long to read is refused in one line.

Python's ``json`` module raises ``RecursionError`` on deep nesting and ``ValueError`` on an
integer of more than 4,300 digits; both must reach the user as a clear input error (exit 2),
never a traceback.
"""

from __future__ import annotations

import pytest
from _helpers import run


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"A": ' + "9" * 5_000 + "}"],
    ids=["deep-nesting", "long-integer"],
)
def test_unreadable_labels_json_is_refused_in_one_line(text, results_csv, tmp_path, capsys):
    labels = tmp_path / "labels.json"
    labels.write_text(text, encoding="utf-8")
    code, _, err = run(["compare", results_csv, "--labels", str(labels)], capsys)
    assert code == 2
    assert "too long or nesting too deep" in err and "labels.json" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
