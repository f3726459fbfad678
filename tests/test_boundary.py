"""Module boundaries: importing cdplot loads no plotting library and not scipy.stats."""

from __future__ import annotations

import subprocess
import sys


def test_import_is_light():
    code = (
        "import sys, cdplot, cdplot.stats\n"
        "heavy = [m for m in ('matplotlib', 'seaborn', 'scipy.stats') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_compare_with_wilcoxon_does_not_load_matplotlib():
    code = (
        "import sys, cdplot\n"
        "cdplot.compare(cdplot.datasets.load('benavoli2016'))\n"
        "print('matplotlib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
