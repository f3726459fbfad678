"""Helpers shared by several test modules (figure artists by gid, the CLI run in-process,
compare() without its warnings, text overlaps of a figure,
the fonts a PDF embeds)."""

from __future__ import annotations

import re

import pytest


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


def pdf_fonts(data: bytes) -> set[str]:
    """Base font names embedded in the PDF ``data``, without the subset prefix."""
    names = re.findall(rb"/BaseFont\s*/([A-Za-z0-9+\-]+)", data)
    return {n.decode().split("+", 1)[-1] for n in names}


def quiet_compare(*args, **kwargs):
    """``cdplot.compare`` with its :class:`cdplot.CdplotWarning` s silenced."""
    import warnings

    import cdplot

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        return cdplot.compare(*args, **kwargs)


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


def leaderboard(k: int, n: int = 30, seed: int = 28, test: str = "nemenyi", prefix: str = "model_"):
    """A seeded comparison of k models whose true scores are evenly spread over three
    standard deviations (higher is better), named ``<prefix>0000``... (4 digits)."""
    import warnings

    import numpy as np
    import pandas as pd

    import cdplot

    rng = np.random.default_rng(seed)
    names = [f"{prefix}{i:04d}" for i in range(k)]
    data = pd.DataFrame(rng.normal(np.linspace(3.0, 0.0, k), 1.0, size=(n, k)), columns=names)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        return cdplot.compare(data, test=test)
