"""``cdplot compare --methods FILE --bib FILE``: the methods paragraph and its BibTeX.

Consistency only: the files hold what ``res.methods_text()`` and ``res.methods_bibtex()``
give for the same analysis (tests/test_methods_text.py checks the words and compiles them).
"""

from __future__ import annotations

import re

from _helpers import quiet_compare, run

import cdplot


def _csv(tmp_path):
    path = tmp_path / "results.csv"
    cdplot.datasets.load("demsar2006").to_csv(path)
    return path


def test_methods_and_bib_files_hold_the_paragraph_and_its_entries(tmp_path, capsys):
    tex, bib = tmp_path / "methods.tex", tmp_path / "methods.bib"
    argv = ["compare", _csv(tmp_path), "--correction", "shaffer", "--methods", tex, "--bib", bib]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    res = quiet_compare(cdplot.datasets.load("demsar2006"), correction="shaffer")
    assert tex.read_text(encoding="utf-8") == res.methods_text("latex") + "\n"
    assert bib.read_text(encoding="utf-8") == res.methods_bibtex()
    assert re.search(r"\\cite\{shaffer1986,garcia2008\}", tex.read_text(encoding="utf-8"))


def test_the_paragraph_describes_the_rank_intervals_asked_for(tmp_path, capsys):
    md = tmp_path / "methods.md"
    argv = ["compare", _csv(tmp_path), "--rank-intervals", "bootstrap", "--methods", md, "-q"]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    text = md.read_text(encoding="utf-8")
    assert "paired bootstrap over the datasets (10000 resamples)" in text
    assert "(Mogstad et al. 2024)" in text


def test_methods_to_standard_output_is_markdown(tmp_path, capsys):
    code, out, _ = run(["compare", _csv(tmp_path), "--methods", "-"], capsys)
    assert code == 0 and out.startswith("We compared 4 algorithms on 14 datasets;")
    assert "(Demšar 2006)" in out


def test_an_unknown_methods_format_is_refused_before_reading(tmp_path, capsys):
    code, out, err = run(["compare", tmp_path / "missing.csv", "--methods", "m.docx"], capsys)
    assert code == 2 and out == ""
    assert "cannot tell the format of --methods 'm.docx'" in err
