"""Statistics layer of cdplot: ranks, omnibus tests, pairwise tests, adjusted p-values, groups.

This subpackage never imports matplotlib or seaborn.
"""

from ._adjust import ALL_PAIRS_CORRECTIONS, CONTROL_CORRECTIONS, adjust_all_pairs, adjust_control
from ._bayes import BayesianResult, bayes_correlated_t, bayes_sign, bayes_signed_rank
from ._compare import TESTS, compare
from ._exhaustive import bergmann_hommel, count_exhaustive_sets, shaffer_multipliers
from ._groups import find_groups
from ._omnibus import friedman, iman_davenport
from ._pairwise import (
    mean_ranks_test,
    nemenyi_q,
    nemenyi_test,
    rank_standard_error,
    sign_test,
    wilcoxon_test,
)
from ._pool import pool_sensitivity
from ._ranks import rank_rows
from ._results import ComparisonResult, OmnibusResult, PairwiseResult
from ._wins import WinTieLossResult

__all__ = [
    "ALL_PAIRS_CORRECTIONS",
    "BayesianResult",
    "CONTROL_CORRECTIONS",
    "TESTS",
    "WinTieLossResult",
    "ComparisonResult",
    "OmnibusResult",
    "PairwiseResult",
    "adjust_all_pairs",
    "adjust_control",
    "bayes_correlated_t",
    "bayes_sign",
    "bayes_signed_rank",
    "bergmann_hommel",
    "compare",
    "count_exhaustive_sets",
    "find_groups",
    "friedman",
    "iman_davenport",
    "mean_ranks_test",
    "nemenyi_q",
    "nemenyi_test",
    "pool_sensitivity",
    "rank_rows",
    "rank_standard_error",
    "shaffer_multipliers",
    "sign_test",
    "wilcoxon_test",
]
