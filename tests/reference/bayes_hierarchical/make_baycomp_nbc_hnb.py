"""baycomp's HierarchicalTest (pystan back end) on HNB vs naive Bayes, 54 data sets x 100 folds.

Run in a separate virtual environment (not cdplot's), from a scratch directory (baycomp
keeps its last fit in ``last-sample.pickle`` of the working directory and reuses it for the
same call):

    python3 -m venv /tmp/stanvenv && /tmp/stanvenv/bin/pip install baycomp==1.0.3 pystan
    /tmp/stanvenv/bin/python /path/to/make_baycomp_nbc_hnb.py

It reads ``baycomp_nbc_j48.csv`` and ``baycomp_hnb.csv`` (accuracies in percent, run after
run) and writes ``baycomp_nbc_hnb.json``: ``baycomp.HierarchicalTest(hnb / 100,
nbc / 100, 0.01, runs=10, chains=4, nsamples=2000, random_state=42).probs()``, the call
of the BayesianTestsML tutorial (rope 0.01, rho = runs / folds = 1/10, the published
priors) with 4 x 2000 draws. The Stan program is compiled by httpstan (a C++ compiler and
minutes; cached after the first build); the sampling took about 8 minutes here.
"""

import csv
import json
from importlib.metadata import version
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
CALL = (
    "baycomp.HierarchicalTest(hnb / 100, nbc / 100, 0.01, runs=10, chains=4, "
    "nsamples=2000, random_state=42).probs()"
)


def accuracies(name, column):
    """54 data sets x 100 folds, as fractions."""
    with open(HERE / name) as f:
        rows = sorted(
            csv.DictReader(f), key=lambda r: (int(r["row"]), int(r["run"]), int(r["fold"]))
        )
    return np.array([float(r[column]) for r in rows]).reshape(54, 100) / 100


def main():
    import aiohttp.client

    # compiling the Stan program takes longer than aiohttp's default 5-minute limit on a
    # loaded machine: no limit on the build request
    aiohttp.client.DEFAULT_TIMEOUT = aiohttp.ClientTimeout(total=None)
    import baycomp

    nbc = accuracies("baycomp_nbc_j48.csv", "nbc")
    hnb = accuracies("baycomp_hnb.csv", "hnb")
    post = baycomp.HierarchicalTest(
        hnb, nbc, 0.01, runs=10, chains=4, nsamples=2000, random_state=42
    )
    out = {
        "versions": {"baycomp": version("baycomp"), "pystan": version("pystan")},
        "call": CALL,
        "draws": 4 * 2000,
        "left_rope_right": [float(v) for v in post.probs(with_rope=True)],
    }
    (HERE / "baycomp_nbc_hnb.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
