"""Helpers shared by several test modules (figure artists by gid, the CLI run in-process,
compare() without its warnings, text overlaps of a figure, a fake font for the CD layout,
the fonts a PDF embeds, the reference tables under ``tests/reference``, a folder's contents
before and after)."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

#: the reference values and tables (R, scipy, papers) the tests compare against
REFERENCE = Path(__file__).parent / "reference"


def by_gid(ax, prefix: str) -> list:
    """The texts, lines and collections of ``ax`` whose gid starts with ``prefix``."""
    artists = list(ax.texts) + list(ax.lines) + list(ax.collections)
    return [a for a in artists if (a.get_gid() or "").startswith(prefix)]


def only(ax, gid: str):
    """The one artist of ``ax`` with this exact gid."""
    found = [a for a in by_gid(ax, gid) if a.get_gid() == gid]
    assert len(found) == 1, (gid, found)
    return found[0]


def run(argv, capsys):
    """Run the command line in-process: ``(exit code, stdout, stderr)``."""
    from cdplot.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


#: a monospaced fake font for the CD diagram's pure layout: every character FAKE_CHAR
#: inches wide and every line FAKE_LINE inches high, times the scale of the text's role
FAKE_CHAR, FAKE_LINE = 0.06, 0.12
FAKE_SCALES = {"name": 1.0, "name_bold": 1.1, "rank": 0.8, "tick": 0.8, "cd": 0.8, "title": 1.0,
               "note": 0.7}  # fmt: skip


def fake_measure(text: str, role: str) -> tuple[float, float]:
    """``(width, height)`` of ``text`` in the fake font (``compute_layout(measure=...)``)."""
    lines = text.split("\n")
    scale = FAKE_SCALES[role]
    return max(len(line) for line in lines) * FAKE_CHAR * scale, len(lines) * FAKE_LINE * scale


def assert_clean(lay) -> None:
    """No two texts of a CD layout overlap and every text lies inside the drawing."""
    import itertools

    boxes = [t.bbox for t in lay.texts()]
    for box in boxes:
        assert box[0] >= -1e-9 and box[2] <= lay.width + 1e-9
        assert box[1] >= -1e-9 and box[3] <= lay.height + 1e-9
    for a, b in itertools.combinations(boxes, 2):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


def pdf_fonts(data: bytes) -> set[str]:
    """Base font names embedded in the PDF ``data``, without the subset prefix."""
    names = re.findall(rb"/BaseFont\s*/([A-Za-z0-9+\-]+)", data)
    return {n.decode().split("+", 1)[-1] for n in names}


def quiet_compare(*args, quiet: type[Warning] | None = None, **kwargs):
    """``cdplot.compare`` with its :class:`cdplot.CdplotWarning` s silenced (or only the
    warnings of class ``quiet``, e.g. :class:`cdplot.PoolDependenceWarning`)."""
    import warnings

    import cdplot

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning if quiet is None else quiet)
        return cdplot.compare(*args, **kwargs)


def nan_matrix(rows) -> np.ndarray:
    """A float matrix from nested lists, ``None`` (R's ``NA``) read as NaN."""
    import numpy as np

    return np.array([[np.nan if v is None else v for v in row] for row in rows], dtype=float)


def r_cases(
    filename: str, shape: tuple[str, str] = ("n", "k")
) -> tuple[dict[int, np.ndarray], dict[int, dict[tuple[str, int, int], float]]]:
    """The cases of a reference CSV written by R (lines starting with ``#`` skipped), one
    row per value: ``case``, the table's ``values`` (row-major, space-separated, ``NA`` read
    as NaN) with its numbers of rows and columns in the columns named ``shape``, and
    ``quantity``, ``i``, ``j`` (R's 1-based indices), ``value``.

    Returns ``(tables, values)``: case -> the table; case -> ``{(quantity, i - 1, j - 1):
    value}``.
    """
    import csv
    from collections import defaultdict

    import numpy as np

    tables: dict[int, np.ndarray] = {}
    values: dict[int, dict[tuple[str, int, int], float]] = defaultdict(dict)
    with open(REFERENCE / filename, encoding="utf-8") as fh:
        for row in csv.DictReader(r for r in fh if not r.startswith("#")):
            case = int(row["case"])
            cells = [np.nan if v == "NA" else float(v) for v in row["values"].split()]
            tables[case] = np.array(cells).reshape(int(row[shape[0]]), int(row[shape[1]]))
            key = (row["quantity"], int(row["i"]) - 1, int(row["j"]) - 1)
            values[case][key] = float(row["value"])
    return tables, values


def demsar_table6() -> pd.DataFrame:
    """Demšar (2006), Table 6: AUC of four classifiers on 14 data sets (reference CSV)."""
    import pandas as pd

    return pd.read_csv(REFERENCE / "demsar_table6.csv", index_col=0)


def case_differences(case: str) -> np.ndarray:
    """``a - b`` of one case of ``reference/effect_sizes_vectors.csv`` (the paired vectors
    R's effect-size reference values were computed on)."""
    vectors = _effect_size_vectors()
    rows = vectors[vectors["case"] == case]
    return rows["a"].to_numpy(dtype=float) - rows["b"].to_numpy(dtype=float)


@functools.cache
def _effect_size_vectors() -> pd.DataFrame:
    import pandas as pd

    return pd.read_csv(REFERENCE / "effect_sizes_vectors.csv", comment="#")


def parametric_r_values() -> dict[tuple[str, str, str, str], float]:
    """R's values in ``reference/parametric_r.csv``, keyed by (case, quantity, i, j)."""
    import csv

    with open(REFERENCE / "parametric_r.csv", encoding="utf-8") as fh:
        next(fh)  # the "generated by ..." line
        return {
            (r["case"], r["quantity"], r["i"], r["j"]): float(r["value"])
            for r in csv.DictReader(fh)
        }


def snapshot(directory) -> dict[str, bytes]:
    """Everything below ``directory``: relative path -> the file's bytes (``b"<dir>"`` for a
    folder), to check that a call wrote, replaced and left behind nothing."""
    directory = Path(directory)
    return {
        p.relative_to(directory).as_posix(): p.read_bytes() if p.is_file() else b"<dir>"
        for p in sorted(directory.rglob("*"))
    }


def text_problems(fig) -> list:
    """Overlapping texts and texts outside the figure, with the renderer's extents."""
    import itertools

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not hasattr(fig.canvas, "get_renderer"):
        FigureCanvasAgg(fig)
    renderer = fig.canvas.get_renderer()
    texts = [t for ax in fig.axes for t in ax.texts] + list(fig.texts)
    boxes = [t.get_window_extent(renderer) for t in texts]
    out = [
        ("outside", t.get_text())
        for t, b in zip(texts, boxes, strict=True)
        if b.x0 < fig.bbox.x0 or b.x1 > fig.bbox.x1 or b.y0 < fig.bbox.y0 or b.y1 > fig.bbox.y1
    ]
    for (t1, b1), (t2, b2) in itertools.combinations(zip(texts, boxes, strict=True), 2):
        if b1.overlaps(b2):
            out.append(("overlap", t1.get_text(), t2.get_text()))
    return out


#: the k >= 50 cases of the overlap sweeps, marked slow (the inner loop skips them; CI runs them)
SLOW_K = [pytest.param(50, marks=pytest.mark.slow), pytest.param(100, marks=pytest.mark.slow)]


_TEX_SMOKE: dict[str, str | None] = {}


class TexRun:
    """What :func:`run_tex` found: the engine's return code, its stdout and the log file."""

    def __init__(self, returncode: int, stdout: str, log: str) -> None:
        self.returncode, self.stdout, self.log = returncode, stdout, log


def run_tex(engine: str, name: str, cwd, timeout: float = 300) -> TexRun:
    """Compile ``cwd / name`` with ``engine``, non-interactively, stopping at the first error.

    Raises OSError or subprocess.TimeoutExpired as :func:`subprocess.run` does.
    """
    import subprocess
    from pathlib import Path

    done = subprocess.run(
        [engine, "-interaction=nonstopmode", "-halt-on-error", name],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    log_path = (Path(cwd) / name).with_suffix(".log")
    log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else ""
    return TexRun(done.returncode, done.stdout, log)


def require_tex_engine(engine: str, tmp_path_factory) -> None:
    """Skip (with the reason) when ``engine`` is installed but cannot compile a smoke file.

    E.g. ``lualatex`` without its font loader: an environment problem, not a cdplot defect.
    The smoke file is compiled once per engine, in a directory of ``tmp_path_factory``.
    """
    import subprocess

    if engine not in _TEX_SMOKE:
        where = tmp_path_factory.mktemp(f"smoke-{engine}")
        fonts = "" if engine == "pdflatex" else "\\usepackage{fontspec}"
        (where / "smoke.tex").write_text(
            f"\\documentclass{{article}}{fonts}\\usepackage{{pgf}}\\begin{{document}}x\\end{{document}}\n"
        )
        try:
            done = run_tex(engine, "smoke.tex", where)
            failed = done.returncode != 0
            tail = " ".join(done.stdout.strip().splitlines()[-3:])
        except (OSError, subprocess.TimeoutExpired) as exc:
            failed, tail = True, str(exc)
        _TEX_SMOKE[engine] = tail if failed else None
    if _TEX_SMOKE[engine] is not None:
        pytest.skip(f"{engine} is installed but cannot compile a smoke file: {_TEX_SMOKE[engine]}")


def seeded_scores(
    names: list[str], n: int, seed: int, means: tuple[float, float], datasets=None
) -> pd.DataFrame:
    """Normal scores (standard deviation 1, seeded) of the algorithms ``names`` on ``n``
    datasets, their true means evenly spaced from ``means[0]`` (the first algorithm) to
    ``means[1]`` (the last); rows named ``datasets`` (default 0, 1, ...)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    values = rng.normal(np.linspace(*means, len(names)), 1.0, size=(n, len(names)))
    return pd.DataFrame(values, columns=names, index=datasets)


def leaderboard(k: int, n: int = 30, seed: int = 28, test: str = "nemenyi", prefix: str = "model_"):
    """A seeded comparison of k models whose true scores are evenly spread over three
    standard deviations (higher is better), named ``<prefix>0000``... (4 digits)."""
    names = [f"{prefix}{i:04d}" for i in range(k)]
    return quiet_compare(seeded_scores(names, n, seed, (3.0, 0.0)), test=test)
