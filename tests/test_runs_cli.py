"""``cdplot runs``: the command line of the run-level analyses, and the reports' "Runs"
section. Checked for consistency with the Python functions (same seed, same numbers)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import cdplot
from cdplot.cli import main


def _write_runs(path, n_runs=4, single=False):
    rng = np.random.default_rng(7)
    rows = ["game,agent,seed,return"]
    for t in range(5):
        for a, shift in (("DQN", 0.0), ("Rainbow", 0.3), ("DER", 0.15)):
            for r in range(1 if single else n_runs):
                rows.append(f"g{t},{a},{r},{100 * t + 50 * shift + rng.normal(0, 10):.3f}")
    path.write_text("\n".join(rows) + "\n")
    return path


def _write_bounds(path, missing=False):
    rows = ["task,low,high"] + [f"g{t},{100 * t - 20},{100 * t + 40}" for t in range(5)]
    path.write_text("\n".join(rows[:-1] if missing else rows) + "\n")
    return path


def test_runs_prints_aggregates_and_writes_json(tmp_path, capsys):
    data, bounds = _write_runs(tmp_path / "runs.csv"), _write_bounds(tmp_path / "b.csv")
    out = tmp_path / "out.json"
    argv = [str(data), "--normalise", str(bounds), "--improvement", "--seed", "3"]
    assert main(["runs", *argv, "--n-boot", "500", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Aggregate normalised scores over 5 tasks with 4 runs each" in text
    assert "P(Rainbow > DQN)" in text
    doc = json.loads(out.read_text())
    from cdplot.io import normalise_runs, read_run_scores

    runs = normalise_runs(
        read_run_scores(data),
        {f"g{t}": (100 * t - 20, 100 * t + 40) for t in range(5)},
    )
    agg = cdplot.aggregate_scores(
        runs, bootstrap=cdplot.run_bootstrap(runs, n_boot=500, random_state=3)
    )
    frame = agg.to_frame()
    row = next(
        r for r in doc["aggregates"]["rows"] if r["algorithm"] == "DER" and r["metric"] == "iqm"
    )
    expected = frame.query("algorithm == 'DER' and metric == 'iqm'").iloc[0]
    assert row["estimate"] == pytest.approx(expected["estimate"], rel=1e-12)
    assert row["low"] == pytest.approx(expected["low"], rel=1e-12)
    assert len(doc["probability_of_improvement"]["pairs"]) == 3


def test_runs_figure_and_profile(tmp_path, capsys):
    data = _write_runs(tmp_path / "runs.csv")
    fig = tmp_path / "p.png"
    argv = ["runs", str(data), "--profile", "runs", "--scale", "nonlinear", "-o", str(fig)]
    assert main([*argv, "--n-boot", "200"]) == 0
    assert fig.read_bytes()[:4] == b"\x89PNG"
    table = tmp_path / "agg.csv"
    argv = ["runs", str(data), "--resample-tasks", "--n-boot", "200", "--csv", str(table)]
    assert main(argv) == 0
    assert table.read_text().splitlines()[0] == "algorithm,metric,estimate,low,high"


def test_runs_performance_profile_of_costs(tmp_path, capsys):
    path = tmp_path / "times.csv"
    path.write_text("problem,solver,seed,time\np1,A,1,1\np1,B,1,2\np2,A,1,4\np2,B,1,2\n")
    out = tmp_path / "dm.json"
    argv = ["runs", str(path), "--lower-is-better", "--profile", "performance"]
    assert main([*argv, "--json", str(out)]) == 0
    assert "Dolan-More performance profile" in capsys.readouterr().out
    doc = json.loads(out.read_text())["profile"]
    assert doc["kind"] == "performance" and doc["low"] is None  # one run: no band
    assert doc["profile"][0][0] == 0.5  # A best on p1 only


def test_runs_cli_errors(tmp_path, capsys):
    single = _write_runs(tmp_path / "one.csv", single=True)
    assert main(["runs", str(single)]) == 2
    assert "at least two runs" in capsys.readouterr().err
    data = _write_runs(tmp_path / "runs.csv")
    bounds = _write_bounds(tmp_path / "b.csv", missing=True)
    assert main(["runs", str(data), "--normalise", str(bounds)]) == 2
    err = capsys.readouterr().err
    assert "normalisation scores are missing for 1 task(s): g4" in err
    assert err.count("\n") == 1


def test_reports_take_a_runs_section(tmp_path):
    data = _write_runs(tmp_path / "runs.csv")
    runs = cdplot.io.read_run_scores(data)
    agg = cdplot.aggregate_scores(runs, n_boot=200, random_state=0)
    poi = cdplot.probability_of_improvement(runs, n_boot=200, random_state=0)
    res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    md = cdplot.report.to_markdown(res, runs=[agg, poi])
    assert "### Runs" in md and "| Algorithm | Median | IQM | Mean | Opt. gap |" in md
    page = cdplot.report.to_html(res, diagram=False, runs=agg)
    assert "<h2>Runs</h2>" in page and 'class="cdplot-runs"' in page
    with pytest.raises(cdplot.CdplotInputError, match=r"runs= takes the results"):
        cdplot.report.to_markdown(res, runs=[res])
