"""``--label OLD=NEW`` and ``--labels FILE``: display names on the command line.

Labels change what figures and reports show, never the data: the JSON keeps the names and
records the labels, and the statistics are those of the same run without labels. Every
malformed flag or file line is refused with its message pinned (exit 2, one line, the
line number of the file named).
"""

from __future__ import annotations

import json

import pytest
from _helpers import run

import cdplot
from cdplot.cli._labels import parse_label, read_labels


def write(tmp_path, name, text, encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def test_label_flags_and_file_reach_compare(results_csv, tmp_path, capsys, benavoli):
    names = list(benavoli.columns)
    labels_file = write(
        tmp_path,
        "names.csv",
        f'name,label\n# display names\n\n"{names[0]}",A & B_1\n{names[1]},<second>\n',
    )
    target = tmp_path / "r.json"
    argv = ["compare", results_csv, "--labels", labels_file, "--label", f"{names[1]}=Two"]
    code, out, err = run([*argv, "--json", target, "--report", tmp_path / "r.md"], capsys)
    assert code == 0, err
    doc = json.loads(target.read_text())
    assert doc["labels"] == {names[0]: "A & B_1", names[1]: "Two"}  # --label wins
    assert doc["algorithms"] == names  # the data keep their names
    plain = cdplot.compare(benavoli)
    assert doc["groups"] == [list(g) for g in plain.groups]
    assert "A & B_1" in out and "Two" in out  # the summary shows labels
    report = (tmp_path / "r.md").read_text()
    assert "A & B\\_1" in report and "<second>" not in report


def test_labels_in_heatmap_and_latex(results_csv, tmp_path, capsys, benavoli):
    first = benavoli.columns[0]
    argv = ["compare", results_csv, "--label", f"{first}=R&F_<1>", "-q"]
    code, _, err = run([*argv, "--report", tmp_path / "r.tex"], capsys)
    assert code == 0, err
    tex = (tmp_path / "r.tex").read_text()
    assert "R\\&F\\_\\textless{}1\\textgreater{}" in tex
    code, _, err = run([*argv, "--heatmap", tmp_path / "h.svg"], capsys)
    assert code == 0, err
    assert (tmp_path / "h.svg").read_text().startswith("<?xml")


def test_json_labels_file(results_csv, tmp_path, capsys, benavoli):
    first = benavoli.columns[0]
    path = write(tmp_path, "names.json", json.dumps({first: "First"}))
    target = tmp_path / "r.json"
    code, _, err = run(["compare", results_csv, "--labels", path, "--json", target], capsys)
    assert code == 0, err
    assert json.loads(target.read_text())["labels"] == {first: "First"}


def test_read_labels_formats(tmp_path):
    tsv = write(tmp_path, "a.tsv", "old\tnew\nRF, 500 trees\tRF\nSVM\tsvm\n")
    assert read_labels(str(tsv)) == {"RF, 500 trees": "RF", "SVM": "svm"}
    quoted = write(tmp_path, "b.csv", '"RF, 500 trees", RF\n')
    assert read_labels(str(quoted)) == {"RF, 500 trees": "RF"}
    bom = write(tmp_path, "c.csv", "\ufeffalgorithm,label\nA,a\n")
    assert read_labels(str(bom)) == {"A": "a"}
    assert parse_label("SVM (C=1)=SVM") == ("SVM (C=1)", "SVM")
    assert parse_label(" A = a ") == ("A", "a")
    # a leading comment does not choose the separator: the tab of the data lines does
    commented = write(tmp_path, "d.tsv", "# my labels, one per line\nRF, 500 trees\tRF\n")
    assert read_labels(str(commented)) == {"RF, 500 trees": "RF"}


def test_json_labels_file_refuses_a_name_given_twice_up_to_spaces(tmp_path):
    doubled = write(tmp_path, "e.json", '{"A": "x", "A ": "y"}')
    with pytest.raises(cdplot.CdplotInputError) as err:
        read_labels(str(doubled))
    assert str(err.value) == (
        f"--labels file {str(doubled)!r} gives 'A' more than one label; give each algorithm "
        "one label."
    )


@pytest.mark.parametrize(
    ("argv", "file", "message"),
    [
        (["--label", "C1"], None, "--label 'C1' needs the form OLD=NEW, e.g. --label "
         "'RandomForest (500 trees)=RF'."),
        (["--label", "=x"], None, "--label '=x' has no algorithm name before the '='; write "
         "--label OLD=NEW, e.g. --label 'RandomForest (500 trees)=RF'."),
        (["--label", "C1="], None, "--label 'C1=' has no label after the '='; write --label "
         "OLD=NEW, e.g. --label 'RandomForest (500 trees)=RF'."),
        (["--label", "C1=a", "--label", "C1=b"], None,
         "--label gives 'C1' two labels, 'a' and 'b'; give one."),
        (["--label", "c1=a"], None, "unknown algorithm 'c1' in --label/--labels; the "
         "algorithms are {algs}. Did you mean 'C1'?"),
        (["--label", "C1=x", "--label", "C2=x"], None,
         "algorithms 'C1' and 'C2' would both be shown as 'x'; give every algorithm its own "
         "label."),
        (["--labels", "{tmp}/absent.csv"], None,
         "cannot read --labels file '{tmp}/absent.csv': No such file or directory."),
        (["--labels", "-"], None, "--labels - : standard input is for RESULTS; write the "
         "labels to a file and pass its name."),
        (["--labels", "{file}"], "name,label\nC1,a\nC2,b,c\n",
         "--labels file '{file}', line 3: expected 2 columns NAME,LABEL, got 3 ('C2', 'b', "
         "'c'); quote a name that contains a comma, e.g. \"RF, 500 trees\",RF."),
        (["--labels", "{file}"], "C1\n", "--labels file '{file}', line 1: expected 2 columns "
         "NAME,LABEL, got 1 ('C1'); quote a name that contains a comma, e.g. \"RF, 500 "
         "trees\",RF."),
        (["--labels", "{file}"], "C1,a\n\nC2,\n",
         "--labels file '{file}', line 3: the label is empty; write NAME,LABEL."),
        (["--labels", "{file}"], "C1\ta\n\tb\n",
         "--labels file '{file}', line 2: the algorithm name is empty; write NAMETABLABEL."),
        (["--labels", "{file}"], "C1,a\nC2,b\nC1,c\n",
         "--labels file '{file}', line 3: 'C1' already has the label 'a' (line 1); give "
         "each algorithm one label."),
        (["--labels", "{file}"], '{"C1" "a"}',
         "--labels file '{file}' is not valid JSON (Expecting ':' delimiter at line 1, "
         "column 7); write an object such as {{\"RandomForest\": "
         "\"RF\"}}."),
        (["--labels", "{file}"], '["C1", "a"]', "--labels file '{file}' holds a JSON list, "
         "not an object; write {{\"NAME\": \"LABEL\", ...}}."),
        (["--labels", "{file}"], '{"C1": 3}', "--labels file '{file}': the label of 'C1' "
         "must be a non-empty string, got 3."),
        (["--labels", "{file}"], '{"C1": "a", "C1": "b"}', "--labels file '{file}' gives "
         "'C1' more than one label; give each algorithm one label."),
        (["--label", "C1=first", "--control", "first"], None, "--control 'first' is the "
         "display name of 'C1' (--label); --control takes the algorithm's name: --control "
         "'C1'."),
        (["--label", "C1=first", "--highlight", "C2", "first"], None, "--highlight 'first' "
         "is the display name of 'C1' (--label); --highlight takes the algorithm's name: "
         "--highlight 'C1'."),
        (["--labels", "{file}", "--json", "{file}"], "C1,a\n", "--json '{file}' is the input "
         "file '{file}'; writing it would destroy the data. Choose another output name."),
    ],
)  # fmt: skip
def test_label_errors(argv, file, message, results_csv, tmp_path, capsys, benavoli):
    path = tmp_path / "names.txt"
    if file is not None:
        path.write_text(file, encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    argv = [a.format(tmp=tmp_path, file=path) for a in argv]
    code, out, err = run(["compare", results_csv, *argv], capsys)
    assert code == 2
    (line,) = err.splitlines()
    algs = ", ".join(repr(a) for a in benavoli.columns)
    assert line == "cdplot: error: " + message.format(tmp=tmp_path, file=path, algs=algs)
    assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_labels_file_not_utf8(results_csv, tmp_path, capsys):
    path = write(tmp_path, "names.csv", "C1,\u00e9t\u00e9\n", encoding="latin-1")
    code, _, err = run(["compare", results_csv, "--labels", path], capsys)
    assert code == 2
    assert err.strip() == (
        f"cdplot: error: --labels file '{path}' is not UTF-8 text; convert it, e.g. with "
        "iconv -t UTF-8."
    )
