"""A result carries no hidden state: what a report shows beyond the result is passed to it.

Two results that compare equal print the same summary and reports and write the same JSON,
whatever was computed from either before (rank intervals, effect sizes, the pool
diagnostic, the letters). The rank intervals, effect sizes and pool-sensitivity frame are
shown exactly when passed (``intervals=``, ``effects=``, ``pool=``). The numbers are those
of cdplot.rank_intervals, cdplot.effect_sizes and cdplot.pool_sensitivity, checked against
R and the papers in test_rank_intervals.py, test_effect_sizes.py and test_pool.py; here
only where they go is checked.
"""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from _helpers import quiet_compare, run

import cdplot
from cdplot._json import result_from_json, result_to_json, results_to_json
from cdplot.stats import ComparisonResult


def _twins():
    data = cdplot.datasets.load("demsar2006")
    return quiet_compare(data, test="mean-ranks"), quiet_compare(data, test="mean-ranks")


def _outputs(result, **given):
    return (
        result.summary(**given),
        result.to_markdown(**given),
        result.to_latex(**given),
        result.to_json(**given),
        str(result),
    )


def test_equal_results_report_alike_whatever_was_computed_before():
    used, fresh = _twins()
    assert used == fresh
    used.rank_intervals("bootstrap", n_boot=200, random_state=0)
    used.effect_sizes("hodges-lehmann", rope=0.01)
    cdplot.pool_sensitivity(used, others=[0, 1])
    assert used.letters == fresh.letters
    assert _outputs(used) == _outputs(fresh)
    page = cdplot.report.to_html(used, diagram=False, interactive=False)
    assert page == cdplot.report.to_html(fresh, diagram=False, interactive=False)
    assert used == fresh and hash(used) == hash(fresh)


def test_what_is_passed_is_shown_for_either_twin():
    used, fresh = _twins()
    given = {
        "intervals": used.rank_intervals("bootstrap", n_boot=200, random_state=0),
        "effects": used.effect_sizes("mean", rope=0.01),
    }
    assert _outputs(used, **given) == _outputs(fresh, **given)  # computed on one, shown on both
    text = " ".join(fresh.summary(**given).split())
    assert "paired bootstrap over datasets, Mogstad et al. 2024" in text
    assert "Effect sizes (mean difference, 95 % CI)" in text
    assert "Δ [95 % CI]" in fresh.to_markdown(**given)
    doc = json.loads(fresh.to_json(**given))
    assert doc["rank_intervals"]["low"] == given["intervals"].low.tolist()
    assert [r["a"] for r in doc["effect_sizes"]] == given["effects"]["a"].tolist()
    assert "rank_intervals" not in json.loads(fresh.to_json())


def test_pool_frame_is_reported_when_passed():
    data = cdplot.datasets.load("benavoli2016")
    used, fresh = (quiet_compare(data, test="mean-ranks") for _ in range(2))
    frame = cdplot.pool_sensitivity(used, others=[2, 3, 4])
    assert "Pool sensitivity" not in used.summary()
    assert used.summary() == fresh.summary()
    text = " ".join(fresh.summary(pool=frame).split())
    # Benavoli, Corani & Mangili (2016) Table 1: C2 vs C4 in 7/10, 9/10, 3/5 pools of 4-6
    assert "C2 vs C4 (7/10, 9/10, 3/5)" in text
    assert used.summary(pool=frame) == fresh.summary(pool=frame)


def test_the_result_keeps_no_pool_frame():
    res, _ = _twins()
    cdplot.pool_sensitivity(res, others=[0])
    with pytest.raises(AttributeError, match=r"summary\(pool=frame\)"):
        res.pool_sensitivity  # noqa: B018


def test_letters_are_kept_on_the_result_itself():
    res, twin = _twins()
    letters = res.letters
    letters["C4.5"] = "changed"  # a copy: the result is not changed through it
    assert res.letters == twin.letters
    assert "_letter_display" in vars(res)  # the cache is part of the object ...
    assert pickle.loads(pickle.dumps(res)).letters == twin.letters
    assert copy.deepcopy(res) == twin  # ... and does not enter its value


def test_intervals_of_another_result_are_refused():
    res, _ = _twins()
    other = quiet_compare(cdplot.datasets.load("benavoli2016"))
    ri = other.rank_intervals()
    with pytest.raises(cdplot.CdplotInputError, match="intervals= holds the rank intervals of"):
        res.summary(intervals=ri)
    with pytest.raises(cdplot.CdplotInputError, match="intervals= takes the rank intervals"):
        res.to_markdown(intervals=ri.to_frame())
    with pytest.raises(cdplot.CdplotInputError, match="effects= holds effect sizes of other"):
        res.to_json(effects=other.effect_sizes())
    with pytest.raises(cdplot.CdplotInputError, match="effects= takes the frame of"):
        cdplot.report.to_html(res, effects=[1, 2])


def test_several_results_take_their_intervals_by_name():
    res, twin = _twins()
    ri = res.rank_intervals()
    doc = json.loads(results_to_json({"a": res, "b": twin}, intervals={"b": ri}))
    assert "rank_intervals" not in doc["a"] and doc["b"]["rank_intervals"]["high"] == (
        ri.high.tolist()
    )
    with pytest.raises(cdplot.CdplotInputError, match="names 'c', which is not one of"):
        results_to_json({"a": res}, intervals={"c": ri})
    page = cdplot.report._html.to_html_sections(
        {"a": res, "b": twin}, diagram=False, effects={"a": res.effect_sizes()}
    )
    assert 'id="m1-effect-sizes"' in page and 'id="m2-effect-sizes"' not in page


def test_a_document_with_intervals_loads_back_to_the_result():
    res, _ = _twins()
    text = result_to_json(res, intervals=res.rank_intervals(), effects=res.effect_sizes())
    assert result_from_json(text) == res


def test_effect_sizes_read_no_rope_from_a_frequentist_result(monkeypatch):
    res, _ = _twins()
    monkeypatch.delattr(ComparisonResult, "rope")  # the frequentist kind has no rope to read
    frame = cdplot.effect_sizes(res, measure="mean")
    assert "practical" not in frame.columns
    bayes = quiet_compare(
        cdplot.datasets.load("demsar2006"),
        test="bayes-signed-rank",
        rope=0.01,
        nsamples=2000,
        random_state=1,
    )
    assert "practical" in cdplot.effect_sizes(bayes, measure="mean").columns  # its rope


def test_cli_passes_what_it_computed_for_every_metric(tmp_path, capsys):
    rows = [
        (alg, f"task{d}", 0.70 + 0.02 * j + 0.01 * ((d * 7 + j * 3) % 5), 1.0 + j + d % 3)
        for d in range(8)
        for j, alg in enumerate(["A", "B", "C", "D"])
    ]
    path = tmp_path / "runs.csv"
    path.write_text(
        "model,dataset,accuracy,fit_time\n" + "".join(",".join(map(str, r)) + "\n" for r in rows)
    )
    metrics = ["--score-col", "accuracy", "--score-col", "fit_time"]
    out, report = tmp_path / "m.json", tmp_path / "m.html"
    args = ["compare", str(path), *metrics, "--lower-is-better", "fit_time"]
    args += ["--rank-intervals", "test", "--effect-size", "mean"]
    code, _, err = run([*args, "--json", out, "--report", report], capsys)
    assert code == 0, err
    doc = json.loads(out.read_text())
    for metric in ("accuracy", "fit_time"):
        assert doc[metric]["rank_intervals"]["method"] == "test"
        assert doc[metric]["effect_sizes"][0]["measure"] == "mean"
    page = report.read_text(encoding="utf-8")
    assert 'id="m1-rank-intervals"' in page and 'id="m2-effect-sizes"' in page
