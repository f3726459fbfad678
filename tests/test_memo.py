"""Computing from a result never changes it: rank intervals, effect sizes and the pool
diagnostic are kept beside the result (for summary(), reports and JSON), not written into it."""

from __future__ import annotations

import copy
import warnings

import cdplot


def test_computing_from_a_result_leaves_it_unchanged():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cdplot.CdplotWarning)
        res = cdplot.compare(cdplot.datasets.load("demsar2006"), test="mean-ranks")
        twin = copy.deepcopy(res)
        res.rank_intervals()
        res.effect_sizes("mean")
        cdplot.pool_sensitivity(res)
    assert not {"_rank_intervals", "_effect_sizes", "_pool_sensitivity"} & set(vars(res))
    assert res == twin and hash(res) == hash(twin)
    assert res.pool_sensitivity is not None and twin.pool_sensitivity is None
    assert "rank" in res.summary() and res.summary() != twin.summary()
