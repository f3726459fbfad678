"""Figures in a fresh Jupyter kernel display like any matplotlib figure.

Executes a real notebook with nbclient and ipykernel, in a kernel started as Jupyter
starts one (its own inline backend: ``MPLBACKEND`` unset), and counts the PNG images
each cell displays. The command line's light import path (no pyplot) is pinned by
tests/test_boundary.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import ipykernel  # noqa: F401  (the kernel the notebook runs in)
import nbclient
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]

SETUP = """\
import sys
import cdplot
print("pyplot imported:", "matplotlib.pyplot" in sys.modules)
demsar = cdplot.datasets.load("demsar2006")
benavoli = cdplot.datasets.load("benavoli2016")
res = cdplot.compare(demsar)
bayes = cdplot.compare(benavoli, test="bayes-signed-rank", rope=1.0, nsamples=2000,
                       random_state=0)
"""

#: One cell per figure function, as a new user types it (the last line's value shown).
FIGURE_CELLS = {
    "res.plot": "res.plot()",
    "cd_diagram": "cdplot.cd_diagram(res)",
    "apv_heatmap": "cdplot.apv_heatmap(res)",
    "report_figure": "fig = cdplot.report_figure(res)",
    "cd_diagrams": "fig = cdplot.cd_diagrams({'a': res, 'b': res})",
    "multi_comparison_matrix": "cdplot.multi_comparison_matrix(res)",
    "bayes_cd_diagram": "cdplot.bayes_cd_diagram(bayes)",
    "posterior_plot": "cdplot.posterior_plot(bayes)",
    "pool_sensitivity_plot": "cdplot.pool_sensitivity_plot(cdplot.pool_sensitivity(benavoli))",
    "power_plot": (
        "sim = cdplot.simulate(cdplot.NormalModel({'A': 0, 'B': 1, 'C': 0}),\n"
        "                      procedures=[('wilcoxon', 'holm')], n_replicates=50,\n"
        "                      random_state=0)\n"
        "sim.plot()"
    ),
}


def _images(cell) -> int:
    return sum("image/png" in out.get("data", {}) for out in cell.outputs)


def _errors(cell) -> list[str]:
    return [
        out.get("text", "") or out.get("evalue", "")
        for out in cell.outputs
        if out.output_type == "error" or out.get("name") == "stderr"
    ]


@pytest.mark.slow  # starts a Jupyter kernel (seconds)
def test_fresh_kernel_displays_every_figure(tmp_path, monkeypatch):
    for var in ("JUPYTER_RUNTIME_DIR", "JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR", "IPYTHONDIR"):
        monkeypatch.setenv(var, str(tmp_path / var.lower()))
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}  # as Jupyter starts it
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(SETUP),
        *(nbformat.v4.new_code_cell(src) for src in FIGURE_CELLS.values()),
        nbformat.v4.new_code_cell("res"),  # the result's own HTML, with its SVG diagram
    ]
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute(env=env)

    setup, *cells, shown = nb.cells
    assert _errors(setup) == []
    assert "pyplot imported: False" in setup.outputs[0]["text"]  # a fresh kernel
    for name, cell in zip(FIGURE_CELLS, cells, strict=True):
        assert _errors(cell) == [], name
        assert _images(cell) == 1, f"{name} displayed {_images(cell)} images"
    # the result displays itself once, as HTML: the figures drawn for it are closed, so
    # the inline backend does not show them a second time
    assert _errors(shown) == []
    assert _images(shown) == 0
    (html,) = [out["data"]["text/html"] for out in shown.outputs if "data" in out]
    assert "<svg" in html
