"""The frontier on the command line (cdplot frontier), in the reports and on the page.

For behaviour only: the outputs carry the frontier's own numbers (checked against
``cdplot.pareto_frontier`` on the same table and seed); the LaTeX table compiles with
pdflatex; the page's section renders in chromium (Playwright), as tests/test_page.py does.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess

import numpy as np
import pytest
from _helpers import run

import cdplot
from cdplot.report import to_html
from cdplot.report._frontier import frontier_latex
from cdplot.report._latex import to_latex
from cdplot.report._markdown import to_markdown
from cdplot.stats._pareto import compare_with_costs

MODELS = {"tiny": (0.6, 1), "small": (0.7, 3), "base": (0.72, 8), "large": (0.8, 30)}
MODELS["bloated"] = (0.71, 40)  # worse and dearer than large: dominated


@pytest.fixture
def costs_csv(tmp_path):
    rng = np.random.default_rng(2)
    path = tmp_path / "runs.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["task", "model", "accuracy", "runtime"])
        for d in range(12):
            for m, (q, c) in MODELS.items():
                score = round(q + rng.normal() * 0.03, 4)
                w.writerow([f"t{d}", m, score, round(c * np.exp(rng.normal() * 0.05), 3)])
    return path


def test_cli_frontier_writes_every_output(costs_csv, tmp_path, capsys):
    out = {ext: tmp_path / f"fr.{ext}" for ext in ("png", "json", "md", "tex", "html")}
    code, stdout, _ = run(
        [
            "frontier", str(costs_csv), "--on", "scores", "--margin", "0.02", "--seed", "1",
            "-o", str(out["png"]), "--json", str(out["json"]), "--markdown", str(out["md"]),
            "--latex", str(out["tex"]), "--report", str(out["html"]),
        ],
        capsys,
    )  # fmt: skip
    assert code == 0, stdout
    assert "runtime" in stdout and "bloated" in stdout
    doc = json.loads(out["json"].read_text())
    fr = cdplot.pareto_frontier(costs_csv, on="scores", margin=0.02, random_state=1)
    assert doc["models"] == list(fr.models) and doc["cost_name"] == "runtime"
    np.testing.assert_allclose(doc["p_frontier"], fr.p_frontier)
    assert ["large", "bloated"] in doc["dominates"]
    assert out["png"].read_bytes().startswith(b"\x89PNG")
    assert "| bloated |" in out["md"].read_text()
    page = out["html"].read_text()
    assert 'id="cdplot-frontier"' in page and "<svg" in page


@pytest.mark.parametrize(
    ("argv", "match"),
    [
        (["--margin", "-0.01"], "--margin must be >= 0"),
        (["--cost-col", "wallclock"], "cost column 'wallclock' is not in the table"),
    ],
)
def test_cli_frontier_bad_input_exits_2(costs_csv, capsys, argv, match):
    code, _, err = run(["frontier", str(costs_csv), *argv], capsys)
    assert code == 2
    assert match in err and len(err.strip().splitlines()) == 1


def test_cli_frontier_refuses_a_negative_cost(tmp_path, capsys):
    path = tmp_path / "neg.csv"
    path.write_text("task,model,acc,tokens\nt1,A,0.9,5\nt1,B,0.8,-3\n")
    code, _, err = run(["frontier", str(path)], capsys)
    assert code == 2 and "negative cost (-3) for algorithm 'B' on dataset 't1'" in err


def _frontier(costs_csv, margin=None):
    result, costs, column = compare_with_costs(costs_csv)
    fr = cdplot.pareto_frontier(
        result, cost=costs, cost_name=column, margin=margin, random_state=0, n_boot=300
    )
    return result, fr


def test_markdown_report_gets_a_frontier_section(costs_csv):
    result, fr = _frontier(costs_csv)
    text = to_markdown(result, frontier=fr)
    assert "### Cost-performance frontier" in text
    assert to_markdown(result).count("frontier") == 0  # only when passed


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no pdflatex")
def test_latex_frontier_table_compiles(costs_csv, tmp_path):
    result, fr = _frontier(costs_csv, margin=0.02)
    doc = (
        "\\documentclass{article}\\usepackage{booktabs}\\usepackage[margin=1cm]{geometry}"
        "\\begin{document}\n" + frontier_latex(fr) + to_latex(result, frontier=fr)
        + "\\end{document}\n"
    )  # fmt: skip
    assert to_latex(result).count("frontier") == 0  # only when passed
    (tmp_path / "fr.tex").write_text(doc)
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "fr.tex"],
        cwd=tmp_path,
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout[-2000:]


def test_the_page_shows_the_frontier_in_chromium(costs_csv, tmp_path):
    from playwright import sync_api
    from test_page import CHROMIUM_FLAGS, _chromium, _Visit  # the page tests' browser setup

    if _chromium() is None:
        pytest.skip("no chromium binary on PATH (.ci/run installs Debian's chromium)")
    result, fr = _frontier(costs_csv, margin=0.02)
    path = tmp_path / "page.html"
    path.write_text(to_html(result, frontier=fr), encoding="utf-8")
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=_chromium(), headless=True,
            args=CHROMIUM_FLAGS,
        )  # fmt: skip
        try:
            visit = _Visit(context, path)
            section = visit.page.locator("#cdplot-frontier")
            assert section.is_visible()
            box = section.locator("svg").bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 150
            rows = visit.page.eval_on_selector_all(
                "#cdplot-frontier tr[data-model]",
                "rows => rows.map(r => [r.dataset.model, r.hasAttribute('data-on-frontier')])",
            )
            assert rows == [[m, bool(on)] for m, on in zip(fr.models, fr.on_frontier, strict=True)]
            section.screenshot(path=str(tmp_path / "frontier.png"))
            assert visit.errors == []
            visit.close()
        finally:
            context.close()
