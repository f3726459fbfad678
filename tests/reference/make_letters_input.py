"""Write the significance matrices of the bundled tables for make_letters_r.R.

    python tests/reference/make_letters_input.py > tests/reference/letters_bundled_input.csv

One row per (table, test): the algorithms in input order and the k x k matrix of
``compare(table, test=...).significant`` row-major as 0/1. R's letters for these matrices
are computed by make_letters_r.R (the letters, not the significance, are the reference).
"""

import warnings

import cdplot

warnings.simplefilter("ignore", cdplot.PoolDependenceWarning)
print("case,k,names,separated")
for name in cdplot.datasets.names():
    table = cdplot.datasets.load(name)
    if len(table) < 2 or table.index.name != "dataset":  # boards only (rank tests)
        continue
    for test in ("nemenyi", "wilcoxon", "sign", "mean-ranks"):
        res = cdplot.compare(table, test=test)
        bits = "".join(str(int(b)) for b in res.significant.to_numpy(dtype=bool).ravel())
        print(f"{name}/{test},{res.n_algorithms},{'|'.join(res.algorithms)},{bits}")
