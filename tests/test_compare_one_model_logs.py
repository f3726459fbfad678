"""``cdplot compare base.jsonl new.jsonl`` on logs that each hold one model's items.

Each log names its model in a column of one value (or has no model column): the logs are
runs of one benchmark, joined on their items (a model per file), not tables each refused
for holding one model.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from cdplot.cli import main


def _log(path, solved, model="m"):
    with open(path, "w", encoding="utf-8") as fh:
        for i, value in enumerate(solved):
            row = {"item_id": f"q{i}", "correct": int(value)}
            if model is not None:
                row["model"] = model
            fh.write(json.dumps(row) + "\n")
    return str(path)


@pytest.mark.parametrize("model", ["m", None], ids=["model-column", "no-model-column"])
def test_two_one_model_logs_compare_as_runs(tmp_path, capsys, model):
    rng = np.random.default_rng(5)
    base = rng.random(120) < 0.5
    new = base | (rng.random(120) < 0.3)  # new solves every item base solves, and more
    paths = [_log(tmp_path / "base.jsonl", base, model), _log(tmp_path / "new.jsonl", new, model)]
    assert main(["compare", *paths]) == 0
    out = capsys.readouterr().out
    gained = int(np.sum(new & ~base))
    # the exact McNemar test of the discordant items: new won every one of them
    assert f"Items: new won {gained}, lost 0 and tied {120 - gained} of 120." in " ".join(
        out.split()
    )
    assert "'base' (base.jsonl), 'new' (new.jsonl)" in out


def test_a_one_model_log_beside_a_board_is_refused(tmp_path, capsys):
    log = _log(tmp_path / "base.jsonl", [1, 0, 1, 1])
    board = tmp_path / "board.csv"
    board.write_text("dataset,A,B\nd1,0.5,0.6\nd2,0.7,0.4\nd3,0.2,0.3\n", encoding="utf-8")
    assert main(["compare", log, str(board)]) == 2
    err = capsys.readouterr().err
    assert "mix logs of one model (base)" in err and err.count("\n") == 1
