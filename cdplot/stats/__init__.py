"""Statistics layer of cdplot: ranks, omnibus tests, pairwise tests, adjusted p-values, groups.

This subpackage never imports matplotlib or seaborn.
"""

from ._adjust import ALL_PAIRS_CORRECTIONS, CONTROL_CORRECTIONS, adjust_all_pairs, adjust_control
from ._aligned import aligned_ranks, aligned_ranks_posthoc, aligned_ranks_test
from ._bayes import BayesianResult, bayes_correlated_t, bayes_sign, bayes_signed_rank
from ._compare import TESTS, compare
from ._exact_ranksum import exact_rank_sum_test, rank_sum_pvalue
from ._exhaustive import bergmann_hommel, count_exhaustive_sets, shaffer_multipliers
from ._groups import find_groups
from ._omnibus import OMNIBUS_TESTS, friedman, iman_davenport
from ._pairwise import (
    mean_ranks_test,
    nemenyi_q,
    nemenyi_test,
    rank_standard_error,
    sign_test,
    wilcoxon_test,
)
from ._pool import pool_sensitivity
from ._quade import quade_posthoc, quade_test
from ._ranks import rank_rows
from ._results import ComparisonResult, OmnibusResult, PairwiseResult, SkillingsMackResult
from ._skillings_mack import skillings_mack
from ._wins import WinTieLossResult

__all__ = [
    "ALL_PAIRS_CORRECTIONS",
    "BayesianResult",
    "CONTROL_CORRECTIONS",
    "OMNIBUS_TESTS",
    "TESTS",
    "WinTieLossResult",
    "ComparisonResult",
    "OmnibusResult",
    "PairwiseResult",
    "SkillingsMackResult",
    "adjust_all_pairs",
    "adjust_control",
    "bayes_correlated_t",
    "bayes_sign",
    "bayes_signed_rank",
    "aligned_ranks",
    "aligned_ranks_posthoc",
    "aligned_ranks_test",
    "bergmann_hommel",
    "compare",
    "count_exhaustive_sets",
    "exact_rank_sum_test",
    "find_groups",
    "friedman",
    "iman_davenport",
    "mean_ranks_test",
    "nemenyi_q",
    "nemenyi_test",
    "pool_sensitivity",
    "quade_posthoc",
    "quade_test",
    "rank_sum_pvalue",
    "rank_rows",
    "rank_standard_error",
    "shaffer_multipliers",
    "sign_test",
    "skillings_mack",
    "wilcoxon_test",
]
