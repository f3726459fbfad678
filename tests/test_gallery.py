"""Every gallery script runs headless and writes at least one file.

The scripts run in this process (``runpy``), each in its own temporary directory; one script
also runs as a subprocess to check that a fresh interpreter with no display can run it.
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

GALLERY = Path(__file__).resolve().parent.parent / "gallery"
SCRIPTS = sorted(GALLERY.glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_gallery_script_runs(script, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CDPLOT_GALLERY_OUT", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(script), run_name="__main__")
    assert any(tmp_path.iterdir()), "the script wrote nothing"


def test_gallery_script_runs_in_a_fresh_headless_process(tmp_path):
    env = dict(os.environ, MPLBACKEND="Agg", CDPLOT_GALLERY_OUT=str(tmp_path))
    env.pop("DISPLAY", None)
    done = subprocess.run(
        [sys.executable, str(GALLERY / "plot_demsar_nemenyi.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "demsar_nemenyi.pdf").stat().st_size > 0


def test_gallery_is_not_empty():
    assert len(SCRIPTS) >= 5
