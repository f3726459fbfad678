"""The cost-performance Pareto frontier (cdplot.pareto_frontier).

Verified against a direct bootstrap written here (a loop over replicates drawing the same
datasets, recomputing means and dominance model by model) and hand-derived dominance
cases; the rest (cost columns recognised by name, refusals) for behaviour only.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError
from cdplot.stats._pareto import BLOCK_ROWS, non_dominated


def _direct_frontier_share(scores, costs, n_boot, seed):
    """P(on the frontier) by a plain loop: draw datasets with replacement (the same draws
    as the module's blocks of multinomial counts), average, test every pair by hand."""
    rng = np.random.default_rng(seed)
    n, k = scores.shape
    hits = np.zeros(k)
    done = 0
    while done < n_boot:
        rows = min(BLOCK_ROWS, n_boot - done)
        draws = rng.integers(0, n, size=(rows, n), dtype=np.int32)
        for r in range(rows):
            perf = scores[draws[r]].mean(axis=0)
            cost = costs[draws[r]].mean(axis=0)
            for i in range(k):
                beaten = False
                for j in range(k):
                    no_worse = cost[j] <= cost[i] and perf[j] >= perf[i]
                    strictly = cost[j] < cost[i] or perf[j] > perf[i]
                    beaten = beaten or (j != i and no_worse and strictly)
                hits[i] += not beaten
        done += rows
    return hits / n_boot


def test_frontier_probabilities_match_a_direct_bootstrap():
    rng = np.random.default_rng(7)
    scores = rng.normal(0.7, 0.05, size=(8, 4)) + [0.0, 0.02, 0.03, -0.01]
    costs = np.exp(rng.normal(size=(8, 4)) * 0.3) * [1.0, 1.3, 2.0, 1.1]
    names = ["A", "B", "C", "D"]
    res = cdplot.compare(pd.DataFrame(scores, columns=names))
    fr = cdplot.pareto_frontier(
        res, cost=pd.DataFrame(costs, columns=names), on="scores", n_boot=600, random_state=3
    )
    direct = _direct_frontier_share(scores, costs, 600, 3)
    order = [names.index(m) for m in fr.models]
    np.testing.assert_allclose(fr.p_frontier, direct[order], atol=1e-12)
    assert 0 < fr.p_frontier.min() < 1  # the table is uncertain: not a trivial agreement


def test_non_dominated_hand_cases():
    # (cost, loss): A (1, 3) and B (2, 1) trade off; C (2, 2) is beaten by B (same cost,
    # lower loss); D (1, 3) equals A: equal models keep each other on the frontier
    cost = np.array([1.0, 2.0, 2.0, 1.0])
    loss = np.array([3.0, 1.0, 2.0, 3.0])
    assert non_dominated(loss, cost).tolist() == [True, True, False, True]


def _hand_table():
    """B is A minus 0.1 on every dataset (known exactly); C is noisy near A."""
    rng = np.random.default_rng(0)
    a = rng.uniform(0.6, 0.9, size=12)
    c = a + rng.normal(0, 0.05, size=12)
    return pd.DataFrame({"A": a, "B": a - 0.1, "C": c})


def test_an_exactly_better_and_cheaper_model_dominates():
    res = cdplot.compare(_hand_table())
    fr = cdplot.pareto_frontier(
        res, cost={"A": 1.0, "B": 2.0, "C": 0.5}, on="scores", random_state=0, n_boot=500
    )
    # A beats B by exactly 0.1 on every dataset and is cheaper; C (near A, cheaper still)
    # beats B by 0.1 plus noise of sd 0.05 / sqrt(12): both dominate B
    assert fr.dominated_by("B") == ("C", "A")
    assert fr.dominated_by("A") == ()  # C is cheaper but not confidently as good
    assert not fr.on_frontier[fr.models.index("B")]
    assert fr.p_frontier[fr.models.index("B")] == 0.0
    assert fr.noninferior is None


def test_cheaper_and_noninferior_follows_the_margin():
    res = cdplot.compare(_hand_table())
    cost = {"A": 1.0, "B": 2.0, "C": 0.5}
    wide = cdplot.pareto_frontier(
        res, cost=cost, on="scores", margin=0.2, random_state=0, n_boot=500
    )
    none = cdplot.pareto_frontier(
        res, cost=cost, on="scores", margin=0.0, random_state=0, n_boot=500
    )
    c, a = wide.models.index("C"), wide.models.index("A")
    assert wide.noninferior[c, a]  # C cheaper, at most 0.2 worse than A: decided
    assert not none.noninferior[c, a]  # margin 0: C would need to be confidently better
    pairs = wide.pairs_frame()
    row = pairs[(pairs.model == "C") & (pairs.other == "A")].iloc[0]
    assert bool(row.cheaper_noninferior) and not bool(row.dominates)


def test_decisions_are_simultaneous_over_every_pair():
    res = cdplot.compare(_hand_table())
    fr = cdplot.pareto_frontier(
        res, cost={"A": 1.0, "B": 2.0, "C": 0.5}, on="scores", random_state=0, n_boot=500
    )
    # one max-t critical value over all 3 pairs: above the 97.5 % normal quantile of one
    assert fr.critical_value > 1.96


def test_a_long_table_with_a_cost_column_is_read_by_name():
    rows = [
        (d, m, s, t)
        for d in range(8)
        for m, s, t in (("A", 0.8 + d / 100, 10 + d), ("B", 0.7 + d / 90, 3 + d))
    ]
    frame = pd.DataFrame(rows, columns=["dataset", "model", "accuracy", "tokens"])
    fr = cdplot.pareto_frontier(frame, on="scores", random_state=0, n_boot=200)
    assert fr.cost_name == "tokens"
    assert fr.models == ("B", "A")
    np.testing.assert_allclose(fr.cost, [3 + 3.5, 10 + 3.5])  # mean of 3..10 and 10..17
    # compare() keeps the costs apart when told (cost=), and says so when it is not
    res = cdplot.compare(frame, cost="tokens")
    assert res.average_ranks.index.tolist() == ["A", "B"] and res.cost_name == "tokens"
    again = cdplot.pareto_frontier(res, on="scores", random_state=0, n_boot=200)
    assert again == fr
    with pytest.raises(
        CdplotInputError,
        match=r"pass score='accuracy' .*'tokens' is named like a cost.*pass cost='tokens'",
    ):
        cdplot.compare(frame)


def test_a_wide_table_of_costs_aligns_by_names():
    table = _hand_table()
    res = cdplot.compare(table)
    costs = pd.DataFrame(
        {"C": np.full(12, 0.5), "A": np.ones(12), "B": np.full(12, 2.0)}, index=res.datasets
    )
    fr = cdplot.pareto_frontier(res, cost=costs, on="scores", random_state=0, n_boot=200)
    np.testing.assert_allclose(fr.cost, [0.5, 1.0, 2.0])
    assert fr.models == ("C", "A", "B")


def test_compare_keeps_the_costs_through_json():
    from cdplot._json import result_from_json, result_to_json

    csv = "dataset,model,acc,price\n" + "".join(
        f"d{d},A,{0.8 + d / 100},{1 + d}\nd{d},B,{0.7 + d / 90},{3 + d}\n" for d in range(6)
    )
    res = cdplot.compare(io.StringIO(csv), cost="price")
    back = result_from_json(result_to_json(res))
    assert back == res and back.cost_name == "price"
    np.testing.assert_allclose(back.costs.to_numpy(), res.costs.to_numpy())
    assert cdplot.pareto_frontier(back, random_state=1, n_boot=200) == cdplot.pareto_frontier(
        res, random_state=1, n_boot=200
    )


def test_to_frame_and_to_dict():
    res = cdplot.compare(_hand_table())
    fr = cdplot.pareto_frontier(
        res, cost={"A": 1.0, "B": 2.0, "C": 0.5}, random_state=0, n_boot=200
    )
    frame = fr.to_frame()
    assert frame.index.tolist() == ["C", "A", "B"]
    doc = fr.to_dict()
    assert doc["on"] == "ranks"
    assert doc["dominates"] == [[a, "B"] for a in frame.loc["B", "dominated_by"].split(", ")]
    import json

    json.dumps(doc, allow_nan=False)


@pytest.mark.parametrize(
    ("cost", "match"),
    [
        ({"A": 1.0, "B": -2.0, "C": 0.5}, r"negative cost \(-2\) for model 'B'"),
        ({"A": 1.0, "B": float("nan"), "C": 0.5}, r"missing cost for model 'B'"),
        ({"A": 1.0, "C": 0.5}, r"missing cost for 'B'"),
        ({"A": 1.0, "B": 2.0, "C": 0.5, "Q": 1.0}, r"'Q', which is not a model"),
        ({"A": 1.0, "B": 0.0, "C": 0.5}, r"mean cost of 'B' is 0"),
        (None, r"a result carries no costs"),
    ],
)
def test_bad_costs_are_refused(cost, match):
    res = cdplot.compare(_hand_table())
    with pytest.raises(CdplotInputError, match=match):
        cdplot.pareto_frontier(res, cost=cost, n_boot=200)


def test_negative_margin_is_refused():
    res = cdplot.compare(_hand_table())
    with pytest.raises(CdplotInputError, match=r"margin must be >= 0.*margin=0.01"):
        cdplot.pareto_frontier(res, cost={"A": 1, "B": 2, "C": 3}, margin=-0.01)


def test_ambiguous_and_absent_cost_columns_name_the_fix():
    csv = "dataset,model,acc,tokens,price\nd1,A,0.9,1,2\nd1,B,0.8,1,2\n"
    with pytest.raises(CdplotInputError, match=r"several columns could hold the costs.*cost="):
        cdplot.pareto_frontier(io.StringIO(csv))
    csv = "dataset,model,acc\nd1,A,0.9\nd1,B,0.8\n"
    with pytest.raises(CdplotInputError, match=r"no cost column.*cost='COLUMN'"):
        cdplot.pareto_frontier(io.StringIO(csv))
    csv = "dataset,model,acc,tokens\nd1,A,0.9,-1\nd1,B,0.8,2\n"
    with pytest.raises(CdplotInputError, match=r"negative cost \(-1\) for algorithm 'A'"):
        cdplot.pareto_frontier(io.StringIO(csv))


def test_one_benchmark_resamples_its_clusters_like_a_direct_bootstrap():
    from cdplot.io import BenchmarkItems
    from cdplot.stats import compare_benchmark

    rng = np.random.default_rng(5)
    n, models = 40, ("m1", "m2", "m3")
    x = (rng.uniform(size=(n, 3)) < [0.5, 0.6, 0.65]).astype(float)
    clusters = np.repeat(np.arange(10), 4)  # 10 clusters of 4 items
    items = BenchmarkItems(
        models, tuple(f"q{i}" for i in range(n)), x, True,
        clusters=clusters, cluster_ids=tuple(f"c{g}" for g in range(10)),
    )  # fmt: skip
    res = compare_benchmark(items)
    item_cost = np.exp(rng.normal(size=(n, 3))) * [1.0, 2.0, 2.2]
    fr = cdplot.pareto_frontier(res, cost=item_cost, n_boot=300, random_state=4)
    assert fr.resampled == "clusters" and fr.on == "scores"
    # the direct bootstrap: draw 10 clusters with replacement, pool their items
    draw_rng = np.random.default_rng(4)
    hits, done = np.zeros(3), 0
    while done < 300:
        rows = min(BLOCK_ROWS, 300 - done)
        draws = draw_rng.integers(0, 10, size=(rows, 10), dtype=np.int32)
        for r in range(rows):
            pick = np.concatenate([np.flatnonzero(clusters == g) for g in draws[r]])
            hits += non_dominated(-x[pick].mean(axis=0), item_cost[pick].mean(axis=0))
        done += rows
    order = [models.index(m) for m in fr.models]
    np.testing.assert_allclose(fr.p_frontier, (hits / 300)[order], atol=1e-12)


@pytest.mark.slow
def test_dominance_decisions_keep_the_familywise_error_by_simulation():
    """Equal performance, distinct fixed costs: every 'dominates' decision is wrong (the
    cheaper model would need to be confidently better). Its rate over seeded tables stays
    at most alpha = 0.05 (plus three Monte Carlo standard errors)."""
    rng = np.random.default_rng(11)
    reps, wrong = 300, 0
    for r in range(reps):
        res = cdplot.compare(pd.DataFrame(rng.normal(size=(12, 5)), columns=list("ABCDE")))
        cost = {a: 1.0 + j for j, a in enumerate("ABCDE")}
        fr = cdplot.pareto_frontier(res, cost=cost, on="scores", n_boot=400, random_state=r)
        wrong += bool(fr.dominates.any())
    rate = wrong / reps
    assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps), rate


def test_item_level_costs_of_one_benchmark():
    rng = np.random.default_rng(0)
    rows = [
        (f"q{i}", m, int(rng.uniform() < p), c * np.exp(0.3 * rng.normal()), f"r{i // 6}")
        for i in range(60)
        for m, (p, c) in {"a": (0.5, 100), "b": (0.7, 300), "c": (0.65, 500)}.items()
    ]
    frame = pd.DataFrame(rows, columns=["item", "model", "correct", "tokens", "repo"])
    res = cdplot.compare(frame, cost="tokens")
    assert isinstance(res, cdplot.BenchmarkComparison) and res.cost_name == "tokens"
    # one cost per item and model, in the result's item order
    expected = frame.pivot(index="item", columns="model", values="tokens")
    np.testing.assert_allclose(res.costs.to_numpy(), expected.loc[res.datasets].to_numpy())
    fr = cdplot.pareto_frontier(res, random_state=0, n_boot=300)
    assert fr.resampled == "clusters"  # the repo column clusters the items
    assert fr == cdplot.pareto_frontier(frame, random_state=0, n_boot=300)
