"""Helpers shared by several test modules (figure artists by gid, the CLI run in-process,
the fonts a PDF embeds)."""

from __future__ import annotations

import re


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
