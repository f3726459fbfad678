"""``cdplot plan`` and the plan's figure: outputs, exit statuses, the baseline image.

Checked for consistency only: the command line prints and writes what :func:`cdplot.plan`
returns on the same arguments; the figure draws the result's points, band and target line.
"""

from __future__ import annotations

import json

import pytest
from _helpers import run

import cdplot
from cdplot.simulation._plan_result import PlanResult
from cdplot.simulation._plan_search import Evaluation


@pytest.fixture
def pilot_csv(tmp_path):
    path = tmp_path / "pilot.csv"
    cdplot.datasets.load("demsar2006").to_csv(path)
    return path


def test_plan_command_prints_and_writes_the_plan(pilot_csv, tmp_path, capsys):
    out_json, out_csv, fig = tmp_path / "plan.json", tmp_path / "points.csv", tmp_path / "p.png"
    argv = ["plan", pilot_csv, "--replicates", "200", "--difference", "0.02", "--no-mdd",
            "--top", "2", "--seed", "3"]  # fmt: skip
    argv += ["--json", out_json, "--csv", out_csv, "-o", fig]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert "datasets needed to detect" in out and "separate the top 2" in out
    doc = json.loads(out_json.read_text())
    direct = cdplot.plan(cdplot.datasets.load("demsar2006"), n_replicates=200, difference=0.02,
                         mdd=False, top=2, random_state=3)  # fmt: skip
    assert doc["n_needed"] == direct.n_needed and doc["n_top"] == direct.n_top
    assert out_csv.read_text().splitlines()[0] == "search,n,difference,power,se"
    assert fig.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--difference", "0"], "difference of zero"),
        (["--power", "1.5"], "power must be strictly between 0 and 1"),
        (["--pair", "C4.5"], "--pair takes two names A,B"),
        (["--top", "9"], "top must be below the number of models"),
    ],
)
def test_plan_command_bad_input_is_one_line_exit_2(pilot_csv, capsys, extra, message):
    code, out, err = run(["plan", pilot_csv, "--replicates", "10", *extra], capsys)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and err.startswith("cdplot: error:")


def test_plan_command_too_small_pilot(tmp_path, capsys):
    path = tmp_path / "small.csv"
    cdplot.datasets.load("demsar2006").iloc[:4].to_csv(path)
    code, _, err = run(["plan", path, "--replicates", "10"], capsys)
    assert code == 2 and "too small to resample" in err


def _hand_made_plan() -> PlanResult:
    """A plan with fixed points (no simulation), for the baseline image."""
    curve = [(10, 0.21), (20, 0.45), (30, 0.63), (35, 0.71), (38, 0.77), (39, 0.79),
             (40, 0.81), (80, 0.97)]  # fmt: skip
    top = [(10, 0.08), (20, 0.30), (40, 0.62), (60, 0.78), (61, 0.79), (62, 0.80), (80, 0.88)]
    se = lambda p: (p * (1 - p) / 400) ** 0.5  # noqa: E731
    return PlanResult(
        design="datasets", model="resample", procedure="wilcoxon+holm", alpha=0.05, power=0.8,
        pair=("A", "B"), n_current=20, pair_sd=0.02, difference=0.01, n_needed=40,
        n_power=0.81, n_power_se=se(0.81), top=2, n_top=62, top_power=0.80,
        top_power_se=se(0.8), tie_classes=2.6, tie_classes_se=0.03,
        evaluations={
            "n": tuple(Evaluation(n, 0.01, p, se(p)) for n, p in curve),
            "top": tuple(Evaluation(n, float("nan"), p, se(p)) for n, p in top),
        },
        n_replicates=400,
    )  # fmt: skip


def test_plan_plot_draws_points_band_target_and_needed_n():
    ax = _hand_made_plan().plot()
    gids = {a.get_gid() for a in [*ax.lines, *ax.collections, *ax.texts]}
    assert {"power-n", "power-top", "band-n", "band-top", "target-line", "needed-n",
            "needed-top", "needed-label-n", "needed-label-top"} <= gids  # fmt: skip
    line = next(a for a in ax.lines if a.get_gid() == "power-n")
    assert list(line.get_xdata()) == [10, 20, 30, 35, 38, 39, 40, 80]
    assert ax.get_xlabel() == "datasets (N)"


@pytest.mark.mpl_image_compare(filename="plan_power_curve.png")
def test_image_plan_power_curve():
    return _hand_made_plan().plot().get_figure()


def test_plan_command_messages_name_the_flags(tmp_path, capsys):
    path = tmp_path / "items.csv"
    path.write_text("item,A,B\n" + "".join(f"{i},{i % 2},{(i // 2) % 2}\n" for i in range(40)))
    code, _, err = run(["plan", path, "--model", "resample", "--replicates", "10"], capsys)
    assert code == 2
    assert "use --model normal" in err and "or --no-mdd without --difference" in err
