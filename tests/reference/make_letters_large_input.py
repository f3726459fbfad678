"""Write a 100-model leaderboard's significance matrix for make_letters_large_r.R.

    python tests/reference/make_letters_large_input.py > tests/reference/letters_large_input.csv

100 models of evenly spread skill on 60 tasks (seed 200),
``cdplot.compare(scores)`` (Wilcoxon signed-rank tests, Holm): the matrix is far from a
line, the case where insert-and-absorb multiplies its letters.
"""

import numpy as np
import pandas as pd

import cdplot

rng = np.random.default_rng(200)
k, n = 100, 60
scores = pd.DataFrame(
    np.linspace(2.5, 0.0, k) + rng.normal(size=(n, k)), columns=[f"m{i:03d}" for i in range(k)]
)
res = cdplot.compare(scores)
bits = "".join(str(int(b)) for b in res.significant.to_numpy(dtype=bool).ravel())
print("case,k,names,separated")
print(f"leaderboard100,{k},{'|'.join(res.algorithms)},{bits}")
