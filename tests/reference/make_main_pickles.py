"""Reference pickles of results as cdplot 9cf280c made them, before results were made of parts.

Run once, on that commit, from the repository root:

    git checkout 9cf280c && PYTHONPATH=. python tests/reference/make_main_pickles.py

``main_result_fresh.pkl``: ``compare(demsar2006)`` pickled before any table was read (its state
holds the labelled arrays of ``stats/_lazy.py`` under ``_<name>_stored`` and the omnibus p-values
not yet computed). ``main_result_read.pkl``: ``compare(demsar2006, test="mean-ranks",
control="C4.5")`` (Bonferroni-Dunn against a control, a critical difference) after every table
and p-value was read (pandas objects under ``_<name>_stored``). Not the Nemenyi test: its
p-values since changed in the last bit (the studentized range's normal distribution function
is now the C library's erfc), and the test asserts equality. ``tests/test_values.py`` loads both.
"""

import pickle
import sys
from pathlib import Path

import cdplot

#: the tables of a result at 9cf280c
TABLES = ("scores", "ranks", "average_ranks", "statistics", "pvalues", "adjusted_pvalues",
          "significant", "n_per_pair", "score_std", "mean_scores")  # fmt: skip


def main() -> None:
    """Write the two pickles beside this script."""
    here = Path(__file__).parent
    fresh = cdplot.compare(cdplot.datasets.load("demsar2006"))
    (here / "main_result_fresh.pkl").write_bytes(pickle.dumps(fresh, protocol=4))
    read = cdplot.compare(cdplot.datasets.load("demsar2006"), test="mean-ranks", control="C4.5")
    for name in TABLES:
        getattr(read, name)
    read.friedman.pvalue, read.iman_davenport.pvalue  # noqa: B018
    (here / "main_result_read.pkl").write_bytes(pickle.dumps(read, protocol=4))
    sys.stdout.write("written\n")


if __name__ == "__main__":  # not on import (pytest --doctest-modules imports this file)
    main()
