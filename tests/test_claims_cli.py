"""``cdplot check``: the exit statuses, the Markdown summary and the regression gate.

Consistency only: the command line gives the verdicts of :func:`cdplot.check` on the same
table (whose numbers tests/test_claims.py checks by hand); the gate reads real JSON Lines
logs of two runs through :func:`cdplot.io._runs.read_runs`.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from _helpers import run

N = 10


def _board(tmp_path, tie: bool = False):
    i = np.arange(N)
    b = 0.7 + 0.01 * np.sin(1.7 * i)
    a = b + 0.05 + 0.001 * i
    table = pd.DataFrame({"dataset": [f"d{j}" for j in i], "A": a, "B": a if tie else b})
    table["C"] = b - 0.05 - 0.001 * i
    path = tmp_path / "results.csv"
    table.to_csv(path, index=False)
    return path


@pytest.mark.parametrize(
    ("claims", "status", "word"),
    [
        (["A is best", "B better than C"], 0, "every claim is supported"),
        (["A is best", "C better than B"], 1, "a claim is contradicted"),
        (["C among the top 2", "A better than B"], 1, "a claim is contradicted"),
    ],
)
def test_the_exit_status_says_the_outcome(tmp_path, capsys, claims, status, word):
    argv = ["check", _board(tmp_path)] + [x for c in claims for x in ("--claim", c)]
    code, out, err = run(argv, capsys)
    assert code == status, err
    assert out.startswith(f"claims: {word} (exit status {status})")


def test_an_undecided_claim_exits_3(tmp_path, capsys):
    code, out, _ = run(["check", _board(tmp_path, tie=True), "--claim", "A is best"], capsys)
    assert code == 3
    assert "UNDECIDED    A is best" in out


def test_the_markdown_summary_is_written_whole(tmp_path, capsys):
    target = tmp_path / "comment.md"
    argv = ["check", _board(tmp_path), "--claim", "A is best", "--markdown", target]
    code, out, _ = run(argv, capsys)
    assert code == 0
    text = target.read_text(encoding="utf-8")
    assert text.startswith("### cdplot check: every claim is supported\n")
    assert "| A is best | ✅ supported |" in text
    assert out.rstrip().endswith(f"wrote {target}")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_the_markdown_summary_goes_to_standard_output(tmp_path, capsys):
    argv = ["check", _board(tmp_path), "--claim", "A is best", "--markdown", "-"]
    code, out, _ = run(argv, capsys)
    assert code == 0 and out.startswith("### cdplot check:")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--claim", "A is bestest"], r"cannot read the claim 'A is bestest'.*NAME is best"),
        (["--claim", "Z is best"], r"names 'Z', which is not a model"),
        (["--claim", "A not worse than B by -1"], r"is negative"),
        ([], r"nothing to check: give --claim"),
        (["--no-worse-than", "0.01"], r"--no-worse-than gates two runs"),
    ],
)
def test_bad_claims_exit_2_with_one_line_and_write_nothing(tmp_path, capsys, argv, message):
    import re

    target = tmp_path / "comment.md"
    code, out, err = run(["check", _board(tmp_path), "--markdown", target, *argv], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and re.search(message, err), err
    assert not target.exists()


# --------------------------------------------------------------------------- the gate


def _log(path, solved):
    with open(path, "w", encoding="utf-8") as fh:
        for i, value in enumerate(solved):
            fh.write(json.dumps({"item_id": f"q{i}", "model": "m", "correct": int(value)}) + "\n")
    return path


def _runs(tmp_path, lose: float, gain: float, seed: int = 3, n: int = 400):
    rng = np.random.default_rng(seed)
    base = rng.random(n) < 0.6
    new = np.where(base, rng.random(n) >= lose, rng.random(n) < gain)
    return _log(tmp_path / "base.jsonl", base), _log(tmp_path / "new.jsonl", new)


@pytest.mark.parametrize(
    ("lose", "gain", "status"),
    [(0.0, 0.3, 0), (0.5, 0.0, 1), (0.06, 0.06, 3)],
    ids=["better", "regressed", "unclear"],
)
def test_the_regression_gate_on_two_logs(tmp_path, capsys, lose, gain, status):
    base, new = _runs(tmp_path, lose, gain)
    target = tmp_path / "gate.md"
    argv = ["check", base, new, "--no-worse-than", "0.01", "--markdown", target]
    code, out, err = run(argv, capsys)
    assert code == status, err
    assert "'new' not worse than 'base' by 0.01" in out
    assert "Tango's score test" in target.read_text(encoding="utf-8")


def test_the_gate_refuses_a_negative_margin_and_a_single_file(tmp_path, capsys):
    base, new = _runs(tmp_path, 0.0, 0.3)
    code, _, err = run(["check", base, new, "--no-worse-than", "-0.01"], capsys)
    assert code == 2 and "must be a margin >= 0" in err
    code, _, err = run(["check", base, "--no-worse-than", "0.01"], capsys)
    assert code == 2 and err.startswith("cdplot: error:")


def test_the_help_documents_the_exit_statuses(capsys):
    code, out, _ = run(["check", "--help"], capsys)
    assert code == 0
    assert "exit status: 0 every claim supported, 1 a claim contradicted, 3" in " ".join(
        out.split()
    )


def test_a_claim_may_name_a_model_by_its_label(tmp_path, capsys):
    argv = ["check", _board(tmp_path), "--label", "A=Forest", "--claim", "Forest is best"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert "SUPPORTED    Forest is best" in out


def test_a_saved_comparison_is_checked_as_saved(tmp_path, capsys):
    saved = tmp_path / "result.json"
    code, _, err = run(["compare", _board(tmp_path), "--json", saved, "-q"], capsys)
    assert code == 0, err
    code, out, err = run(["check", saved, "--claim", "A is best", "--alpha", "0.01"], capsys)
    assert code == 0, err
    assert "at alpha = 0.01." in out
    code, _, err = run(["check", saved, "--claim", "A is best", "--test", "sign"], capsys)
    assert code == 2 and "is a saved comparison, whose analysis is fixed; drop --test" in err
