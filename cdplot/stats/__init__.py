"""Statistics layer of cdplot: ranks, omnibus tests, pairwise tests, adjusted p-values, groups,
the parametric tests over datasets and the tests of two algorithms on one dataset.

This subpackage never imports matplotlib or seaborn.
"""

from ._adjust import ALL_PAIRS_CORRECTIONS, CONTROL_CORRECTIONS, adjust_all_pairs, adjust_control
from ._compare import TESTS, compare
from ._exhaustive import bergmann_hommel, count_exhaustive_sets, shaffer_multipliers
from ._groups import find_groups
from ._omnibus import friedman, iman_davenport
from ._onedataset import (
    corrected_resampled_t,
    cv5x2_f,
    cv5x2_t,
    mcnemar,
    mcnemar_predictions,
    mcnemar_table,
    paired_t,
)
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
    rm_anova,
    tukey_critical_difference,
    tukey_test,
)
from ._ranks import rank_rows
from ._results import (
    AssumptionCheck,
    ComparisonResult,
    OmnibusResult,
    PairedTestResult,
    PairwiseResult,
)
from ._wins import WinTieLossResult

__all__ = [
    "ALL_PAIRS_CORRECTIONS",
    "AssumptionCheck",
    "PairedTestResult",
    "CONTROL_CORRECTIONS",
    "TESTS",
    "WinTieLossResult",
    "ComparisonResult",
    "OmnibusResult",
    "PairwiseResult",
    "adjust_all_pairs",
    "adjust_control",
    "bergmann_hommel",
    "check_assumptions",
    "corrected_resampled_t",
    "cv5x2_f",
    "cv5x2_t",
    "compare",
    "count_exhaustive_sets",
    "find_groups",
    "friedman",
    "iman_davenport",
    "mcnemar",
    "mcnemar_predictions",
    "mcnemar_table",
    "mean_ranks_test",
    "nemenyi_q",
    "nemenyi_test",
    "paired_t",
    "paired_t_test",
    "rank_rows",
    "rank_standard_error",
    "rm_anova",
    "shaffer_multipliers",
    "sign_test",
    "tukey_critical_difference",
    "tukey_test",
    "wilcoxon_test",
]
