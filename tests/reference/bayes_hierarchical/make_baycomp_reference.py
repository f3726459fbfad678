"""Reference probabilities of baycomp's HierarchicalTest (pystan back end) on simulated folds.

Run in a separate virtual environment (not cdplot's):

    python3 -m venv /tmp/stanvenv && /tmp/stanvenv/bin/pip install baycomp==1.0.3 pystan
    /tmp/stanvenv/bin/python make_baycomp_reference.py

It writes ``folds.csv`` (two algorithms, 12 datasets x 10 folds, a - b drawn around known
per-dataset differences) and ``baycomp_reference.json``: baycomp.HierarchicalTest(x=a, y=b,
rope=0.01, runs=1, chains=4, nsamples=10000, random_state=42).probs() for rope 0.01 and 0,
with baycomp's and pystan's versions.
"""

import json
from importlib.metadata import version
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent


def simulated_folds():
    rng = np.random.default_rng(20170)
    q, folds = 12, 10
    truth = rng.normal(0.01, 0.015, q)  # a - b per dataset
    base = rng.uniform(0.7, 0.9, q)
    b = base[:, None] + rng.normal(0.0, 0.02, (q, folds))
    a = b + truth[:, None] + rng.normal(0.0, 0.02, (q, folds))
    return np.round(a, 6), np.round(b, 6), truth


def main():
    import aiohttp.client

    # compiling the Stan program takes longer than aiohttp's default 5-minute limit on a
    # loaded machine: no limit on the build request
    aiohttp.client.DEFAULT_TIMEOUT = aiohttp.ClientTimeout(total=None)
    import baycomp

    a, b, truth = simulated_folds()
    with open(HERE / "folds.csv", "w") as f:
        f.write("dataset,fold,algorithm,accuracy\n")
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                f.write(f"d{i:02d},{j + 1},A,{a[i, j]:.6f}\n")
                f.write(f"d{i:02d},{j + 1},B,{b[i, j]:.6f}\n")
    out = {"versions": {"baycomp": version("baycomp"), "pystan": version("pystan")}}
    out["truth_a_minus_b"] = truth.tolist()
    for rope in (0.01, 0.0):
        post = baycomp.HierarchicalTest(
            a, b, rope, runs=1, chains=4, nsamples=10000, random_state=42
        )
        out[f"rope={rope}"] = {
            "call": f"baycomp.HierarchicalTest(a, b, {rope}, runs=1, chains=4, "
            "nsamples=10000, random_state=42).probs()",
            "left_rope_right": [float(v) for v in post.probs(with_rope=True)],
        }
    (HERE / "baycomp_reference.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
