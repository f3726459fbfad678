"""Statistics layer of cdplot: ranks, omnibus tests, pairwise tests, adjusted p-values, groups,
the parametric tests over datasets and the tests of two algorithms on one dataset.

This subpackage never imports matplotlib or seaborn.
"""

from .._errors import renamed_function as _renamed_function
from ._adjust import ALL_PAIRS_CORRECTIONS, CONTROL_CORRECTIONS, adjust_all_pairs, adjust_control
from ._aligned import aligned_ranks, aligned_ranks_posthoc, aligned_ranks_test
from ._bayes import BayesianResult, bayes_correlated_t, bayes_sign, bayes_signed_rank
from ._bayes_hierarchical import HierarchicalResult, SamplerConvergenceError, bayes_hierarchical
from ._benchmark import compare_benchmark, compare_runs, join_runs
from ._benchmark_pairs import PairStatistics, pair_statistics
from ._benchmark_ranks import BenchmarkRankIntervals, benchmark_rank_intervals
from ._benchmark_result import BenchmarkComparison
from ._claims import ClaimCheck, ClaimVerdict, check
from ._compare import TESTS, compare
from ._conover import conover_friedman_test
from ._durbin import durbin_posthoc, durbin_test
from ._effects import effect_sizes
from ._engine import engine_item_tests, engine_pair_statistics
from ._engine_ranks import EngineRankIntervals, engine_mean_intervals, engine_rank_intervals
from ._exact_ranksum import exact_rank_sum_test, rank_sum_pvalue
from ._exhaustive import bergmann_hommel
from ._groups import find_groups
from ._intervals import RankIntervals, rank_intervals
from ._items import hierarchical_rank_intervals, item_tests, item_wins
from ._metrics import compare_metrics
from ._omnibus import OMNIBUS_TESTS, friedman, iman_davenport
from ._onedataset import (
    corrected_resampled_t,
    cv5x2_f,
    cv5x2_t,
    mcnemar,
    mcnemar_predictions,
    mcnemar_table,
    paired_t,
)
from ._page import page_test
from ._pairwise import (
    mean_ranks_test,
    nemenyi_q,
    nemenyi_test,
    rank_standard_error,
    sign_test,
    wilcoxon_test,
)
from ._parametric import (
    check_assumptions,
    paired_t_test,
    rm_anova_test,
    tukey_critical_difference,
    tukey_test,
)
from ._pass_at_k import PassAtK, pass_at_k
from ._pool import pool_sensitivity
from ._procedure import Procedure
from ._quade import quade_posthoc, quade_test
from ._ranks import rank_rows
from ._results import BayesianComparisonResult, Comparison, ComparisonResult
from ._shaffer import count_exhaustive_sets, shaffer_multipliers
from ._skillings_mack import skillings_mack_test
from ._test_results import (
    AssumptionCheck,
    OmnibusResult,
    PairedTestResult,
    PairwiseResult,
    SkillingsMackResult,
)
from ._wins import WinTieLossResult

# Deprecated spellings of the ``*_test`` functions: kept for one release, not in ``__all__``.
rm_anova = _renamed_function(rm_anova_test, "rm_anova")
skillings_mack = _renamed_function(skillings_mack_test, "skillings_mack")

__all__ = [
    "ALL_PAIRS_CORRECTIONS",
    "AssumptionCheck",
    "PairedTestResult",
    "Procedure",
    "BayesianComparisonResult",
    "BayesianResult",
    "BenchmarkComparison",
    "CONTROL_CORRECTIONS",
    "Comparison",
    "OMNIBUS_TESTS",
    "TESTS",
    "WinTieLossResult",
    "ComparisonResult",
    "OmnibusResult",
    "PairwiseResult",
    "RankIntervals",
    "SkillingsMackResult",
    "adjust_all_pairs",
    "adjust_control",
    "bayes_correlated_t",
    "bayes_hierarchical",
    "HierarchicalResult",
    "SamplerConvergenceError",
    "bayes_sign",
    "bayes_signed_rank",
    "aligned_ranks",
    "aligned_ranks_posthoc",
    "aligned_ranks_test",
    "bergmann_hommel",
    "check_assumptions",
    "corrected_resampled_t",
    "cv5x2_f",
    "cv5x2_t",
    "compare",
    "compare_benchmark",
    "compare_runs",
    "join_runs",
    "conover_friedman_test",
    "durbin_posthoc",
    "durbin_test",
    "page_test",
    "compare_metrics",
    "count_exhaustive_sets",
    "effect_sizes",
    "exact_rank_sum_test",
    "find_groups",
    "friedman",
    "hierarchical_rank_intervals",
    "iman_davenport",
    "item_tests",
    "engine_item_tests",
    "engine_pair_statistics",
    "engine_mean_intervals",
    "engine_rank_intervals",
    "EngineRankIntervals",
    "item_wins",
    "mcnemar",
    "mcnemar_predictions",
    "mcnemar_table",
    "mean_ranks_test",
    "nemenyi_q",
    "nemenyi_test",
    "paired_t",
    "paired_t_test",
    "pass_at_k",
    "PassAtK",
    "pool_sensitivity",
    "quade_posthoc",
    "quade_test",
    "rank_intervals",
    "rank_sum_pvalue",
    "rank_rows",
    "rank_standard_error",
    "rm_anova_test",
    "shaffer_multipliers",
    "sign_test",
    "skillings_mack_test",
    "tukey_critical_difference",
    "tukey_test",
    "wilcoxon_test",
    "BenchmarkRankIntervals",
    "PairStatistics",
    "benchmark_rank_intervals",
    "pair_statistics",
    "ClaimCheck",
    "ClaimVerdict",
    "check",
]
