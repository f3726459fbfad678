"""Text, Markdown, LaTeX and HTML reports, the plain-language summary and win/tie/loss counts.

Verified against the paper: Demšar (2006) Table 2's counts for C4.5+m against C4.5 (10 wins,
2 ties, 2 losses; with ties split, the "11 of 14" of its sign test). Everything else is
checked for structure and consistency with the result: LaTeX by its booktabs rules,
columns and escaping (no TeX installation needed), Markdown by parsing its pipe table,
HTML with :mod:`html.parser`.
"""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from _helpers import quiet_compare

import cdplot
from cdplot.report import escape_latex, escape_markdown, format_pvalue, to_html
from cdplot.stats._wins import WinTieLossResult, win_tie_loss


@pytest.fixture
def special():
    """Scores of algorithms whose names hold LaTeX/Markdown special characters."""
    rng = np.random.default_rng(7)
    names = ["C4.5_pruned", "50% sample", "R&D", "#1 model", "plain|pipe"]
    return pd.DataFrame(
        rng.normal(np.linspace(1.0, 0.0, 5), 0.5, size=(20, 5)),
        columns=names,
        index=[f"d{i}" for i in range(20)],
    )


# --------------------------------------------------------------------------- wins


def test_wins_demsar_table2(demsar):
    res = cdplot.compare(demsar)
    wtl = res.wins
    assert isinstance(wtl, WinTieLossResult)
    # Demšar (2006) Table 2 (AUC, C4.5+m vs C4.5): 10 wins, 2 ties, 2 losses; split ties
    # give the 11 of 14 wins of §3.1.4's sign test.
    assert wtl.wins.loc["C4.5+m", "C4.5"] == 10
    assert wtl.ties.loc["C4.5+m", "C4.5"] == 2
    assert wtl.losses.loc["C4.5+m", "C4.5"] == 2
    assert res.wins is wtl  # computed once


def test_wins_invariants_and_brute_force(rng):
    scores = pd.DataFrame(rng.integers(0, 4, size=(25, 6)).astype(float), columns=list("abcdef"))
    for higher in (True, False):
        wtl = win_tie_loss(scores, higher_is_better=higher)
        n = len(scores)
        for a in scores.columns:
            for b in scores.columns:
                if a == b:
                    assert wtl.wins.loc[a, b] == wtl.ties.loc[a, b] == wtl.losses.loc[a, b] == 0
                    continue
                x, y = scores[a].to_numpy(), scores[b].to_numpy()
                better = (x > y) if higher else (x < y)
                assert wtl.wins.loc[a, b] == better.sum()
                assert wtl.ties.loc[a, b] == (x == y).sum()
                assert wtl.wins.loc[a, b] + wtl.ties.loc[a, b] + wtl.losses.loc[a, b] == n
        np.testing.assert_array_equal(wtl.losses.to_numpy(), wtl.wins.to_numpy().T)
    flipped = win_tie_loss(scores, higher_is_better=False)
    np.testing.assert_array_equal(flipped.wins.to_numpy(), win_tie_loss(scores).losses.to_numpy())


def test_wins_tables(demsar):
    wtl = cdplot.compare(demsar).wins
    assert wtl.table().loc["C4.5+m", "C4.5"] == "10/2/2"
    assert wtl.table().loc["C4.5", "C4.5"] == ""
    long = wtl.to_frame()
    assert len(long) == 12 and list(long.columns[-3:]) == ["wins", "ties", "losses"]


@pytest.mark.parametrize("control", [None, "C4.5"])
def test_to_frame_has_win_tie_loss(demsar, control):
    res = quiet_compare(demsar, control=control)
    frame = res.to_frame()
    assert list(frame.columns[-3:]) == ["wins", "ties", "losses"]
    for row in frame.itertuples(index=False):
        assert row.wins == res.wins.wins.loc[row.algorithm_1, row.algorithm_2]
        assert row.ties == res.wins.ties.loc[row.algorithm_1, row.algorithm_2]
        assert row.wins + row.ties + row.losses == res.n_datasets


# --------------------------------------------------------------------------- LaTeX


def test_escape_latex():
    assert escape_latex("a_b 50% R&D #1 $x$ {y} ~z ^w \\v") == (
        r"a\_b 50\% R\&D \#1 \$x\$ \{y\} \textasciitilde{}z \textasciicircum{}w "
        r"\textbackslash{}v"
    )
    assert escape_latex("a<b|c") == r"a\textless{}b\textbar{}c"


def _tabular_rows(latex: str) -> list[str]:
    body = latex.split(r"\midrule", 1)[1].split(r"\bottomrule", 1)[0]
    return [line for line in body.strip().splitlines() if line.strip()]


def test_latex_booktabs_structure(garcia):
    latex = garcia.to_latex(label="tab:garcia")
    lines = latex.splitlines()
    assert lines[0] == r"\begin{table}[htbp]" and lines[-1] == r"\end{table}"
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        assert latex.count(rule) == 1
    assert latex.index(r"\toprule") < latex.index(r"\midrule") < latex.index(r"\bottomrule")
    assert r"\cmidrule(l){3-6}" in latex
    assert r"\hline" not in latex
    assert r"\label{tab:garcia}" in latex and r"\caption{" in latex
    spec = re.search(r"\\begin\{tabular\}\{(\w+)\}", latex).group(1)
    assert spec == "lrrrrr"  # name, rank, k - 1 = 4 p-value columns
    rows = _tabular_rows(latex)
    assert len(rows) == 5
    assert [r.split(" & ")[0] for r in rows] == list(garcia.average_ranks.index)
    for row in rows:
        assert row.endswith(r"\\")
        assert row.count("&") == len(spec) - 1
    # significant values (Bergmann-Hommel rejects H1-H8) are bold
    assert latex.count(r"\textbf{") == 8
    assert r"\textbf{$<$0.001}" in latex  # "<" typeset in math mode
    # braces balance once escaped ones are removed
    plain = latex.replace(r"\{", "").replace(r"\}", "")
    assert plain.count("{") == plain.count("}")


def test_latex_escapes_names(special):
    res = quiet_compare(special)
    latex = res.to_latex()
    for escaped in (r"C4.5\_pruned", r"50\% sample", r"R\&D", r"\#1 model"):
        assert escaped in latex
    assert r"plain\textbar{}pipe" in latex
    for row in _tabular_rows(latex):
        name = row.split(" & ")[0]
        assert not re.search(r"(?<!\\)[_%&#|]", name), name
    for raw in ("C4.5_pruned", "50% sample", "R&D", "#1 model"):
        assert not re.search(r"(?<!\\)" + re.escape(raw), latex)


def test_latex_options(garcia, demsar):
    latex = garcia.to_latex(
        caption="APVs.", mark="star", pvalue_format="{:.4f}", column_labels="numbers"
    )
    assert r"\caption{APVs.}" in latex and r"\label" not in latex
    assert "0.0115$^{*}$" in latex  # García & Herrera Table 5: Bergmann-Hommel H3 0.0115
    assert r"\textbf" not in latex
    assert r"\# & Algorithm & Avg.\ rank & (1) & (2) & (3) & (4) \\" in latex
    bare = garcia.to_latex(environment=False, caption=True)
    assert bare.startswith(r"\begin{tabular}") and r"\caption" not in bare
    assert r"\caption" not in garcia.to_latex(caption=False)
    ranks_only = garcia.to_latex(pvalues=False)
    assert re.search(r"\\begin\{tabular\}\{lr\}", ranks_only)
    res = quiet_compare(demsar, control="C4.5", test="mean-ranks")
    latex = res.to_latex()
    assert "vs C4.5" in latex and r"\emph{control}" in latex
    assert re.search(r"\\begin\{tabular\}\{lrr\}", latex)
    with pytest.raises(ValueError, match="'italic' is not a valid value for mark"):
        garcia.to_latex(mark="italic")
    with pytest.raises(ValueError, match="is not a valid value for column_labels"):
        garcia.to_latex(column_labels="letters")


# --------------------------------------------------------------------------- Markdown


def parse_pipe_table(text: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the (single) GFM pipe table in ``text``; checks its shape."""
    lines = [line for line in text.splitlines() if line.startswith("|")]

    def cells(line: str) -> list[str]:
        parts = re.split(r"(?<!\\)\|", line.strip())
        assert parts[0] == "" and parts[-1] == ""
        return [p.strip() for p in parts[1:-1]]

    header, delimiter, *rows = (cells(line) for line in lines)
    assert all(re.fullmatch(r":?-{3,}:?", d) for d in delimiter)
    assert len(delimiter) == len(header)
    assert all(len(row) == len(header) for row in rows)
    return header, rows


def unescape_markdown(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text.replace("**", ""))


def test_markdown_table(garcia):
    md = garcia.to_markdown()
    header, rows = parse_pipe_table(md)
    order = list(garcia.average_ranks.index)
    assert header == ["Algorithm", "Avg. rank", *order[:-1]]
    assert [row[0] for row in rows] == order
    assert [float(row[1]) for row in rows] == pytest.approx(
        garcia.average_ranks.to_numpy(), abs=0.005
    )
    for i, row in enumerate(rows):
        for j, cell in enumerate(row[2:]):
            if j >= i:
                assert cell == ""
                continue
            apv = garcia.adjusted_pvalues.loc[order[i], order[j]]
            assert unescape_markdown(cell) == format_pvalue(apv)
            assert cell.startswith("**") is bool(garcia.significant.loc[order[i], order[j]])
    assert "Groups not significantly different: [C4.5, NaiveBayes], [CN2, 1-NN], [Kernel]." in md


def test_markdown_escapes_names(special):
    res = quiet_compare(special)
    header, rows = parse_pipe_table(res.to_markdown())
    names = [unescape_markdown(row[0]) for row in rows]
    assert names == list(res.average_ranks.index)
    assert r"plain\|pipe" in res.to_markdown()
    assert escape_markdown("a_b*c") == r"a\_b\*c"


def test_markdown_control_and_star(demsar):
    res = quiet_compare(demsar, control="C4.5", test="mean-ranks")
    header, rows = parse_pipe_table(res.to_markdown(mark="star"))
    assert header == ["Algorithm", "Avg. rank", "vs C4.5"]
    cells = {row[0]: row[2] for row in rows}
    assert cells["C4.5"] == "*control*"
    assert cells["C4.5+m+cf"].endswith(r"\*")


def test_str_has_the_same_content(garcia, demsar):
    text, md = str(garcia), garcia.to_markdown()
    for a, b in [("NaiveBayes", "C4.5"), ("Kernel", "CN2"), ("1-NN", "C4.5")]:
        value = format_pvalue(garcia.adjusted_pvalues.loc[a, b])
        assert value in text and value in md.replace("\\<", "<")
    for name, rank in garcia.average_ranks.items():
        assert re.search(rf"{re.escape(name)}\s+{rank:.3f}", text)
    assert "Kernel          4.333  <0.001*" in text
    assert "[C4.5, NaiveBayes]" in text and "[C4.5, NaiveBayes]" in md
    res = quiet_compare(demsar, test="nemenyi", alpha=0.10)
    assert "Critical difference: 1.118" in str(res)
    assert "Critical difference: 1.118" in res.to_markdown()


def test_large_k_text_omits_matrix():
    rng = np.random.default_rng(3)
    res = quiet_compare(pd.DataFrame(rng.normal(size=(20, 15))))
    text = str(res)
    assert "result.adjusted_pvalues" in text
    header, _ = parse_pipe_table(res.to_markdown())
    assert header == ["Algorithm", "Avg. rank"]
    header, _ = parse_pipe_table(res.to_markdown(pvalues=True))
    assert len(header) == 2 + 14


# --------------------------------------------------------------------------- summary


def test_summary_mean_ranks_explains_pool_dependence(garcia):
    wrapped = garcia.summary()
    assert max(len(line) for line in wrapped.splitlines()) <= 88
    text = " ".join(wrapped.split())
    assert "Benavoli, Corani & Mangili 2016" in text
    assert "depends on which other algorithms" in text
    assert "Bergmann-Hommel" in text
    assert "rejects the hypothesis" in text
    assert "{C4.5, NaiveBayes}; {CN2, 1-NN}; {Kernel}" in text
    assert "C4.5 ranks better than Kernel" in text
    assert "Warning" not in text


def test_summary_gives_the_critical_difference(demsar):
    res = quiet_compare(demsar, test="nemenyi", alpha=0.10)
    text = " ".join(res.summary().split())
    # Demšar (2006) §3.2.2: Nemenyi CD at alpha 0.10 for k = 4, N = 14 is 1.12
    assert "Critical difference: 1.118" in text
    assert "Caution: the Nemenyi test" in text


def test_summary_wilcoxon_is_clean(benavoli):
    text = " ".join(cdplot.compare(benavoli).summary().split())
    assert "does not depend on which other algorithms" in text
    assert "Caution" not in text and "Warning" not in text
    assert "Significant differences (3 of 21)" in text


def test_summary_omnibus_rejects_but_no_pair(demsar):
    res = cdplot.compare(demsar)  # Wilcoxon-Holm: Iman-Davenport p = 0.014, no pair
    text = " ".join(res.summary().split())
    assert "although the omnibus test rejects" in text
    assert "Warning" not in text


def test_summary_warns_when_omnibus_does_not_reject(demsar):
    res = quiet_compare(demsar.iloc[:8], test="mean-ranks", correction="none")
    assert res.iman_davenport.pvalue > res.alpha
    text = " ".join(res.summary().split())
    assert "does not reject" in text
    assert "Warning: the omnibus test did not reject" in text
    assert "only 8 datasets" in text  # normal approximation with N < 11


def test_summary_warns_when_n_is_too_small_for_the_correction(demsar):
    res = quiet_compare(demsar.iloc[:6])
    text = " ".join(res.summary().split())
    # two-sided Wilcoxon p >= 2/2**6 = 0.031 > 0.05/6: Holm cannot reject anything
    assert "only 6 datasets: the smallest p-value the Wilcoxon signed-rank test" in text
    assert "2/2^6 = 0.031" in text


# --------------------------------------------------------------------------- HTML

_VOID = {"meta", "br", "img", "hr", "link", "input", "path", "use", "rect", "stop"}


class _Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children: list[_Node | str] = []

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find_all(self, tag=None, **attrs):
        out = []
        for c in self.children:
            if isinstance(c, _Node):
                if (tag is None or c.tag == tag) and all(
                    attr_value in (c.attrs.get(k) or "").split() or c.attrs.get(k) == attr_value
                    for k, attr_value in attrs.items()
                ):
                    out.append(c)
                out += c.find_all(tag, **attrs)
        return out


class _Tree(HTMLParser):
    """A strict little DOM: every element must be closed, in order (well-formed HTML)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = _Node("#root", [], None)
        self.node = self.root
        self.doctype = None

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        node = _Node(tag, attrs, self.node)
        self.node.children.append(node)
        if tag not in _VOID:
            self.node = node

    def handle_startendtag(self, tag, attrs):
        self.node.children.append(_Node(tag, attrs, self.node))

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        assert self.node.tag == tag, f"</{tag}> closes <{self.node.tag}>"
        self.node = self.node.parent

    def handle_data(self, data):
        self.node.children.append(data)


def _parse(page: str) -> _Node:
    tree = _Tree()
    tree.feed(page)
    tree.close()
    assert tree.node is tree.root, "unclosed elements"
    tree.root.doctype = tree.doctype
    return tree.root


def test_html_page_structure(garcia):
    page = to_html(garcia, heatmap=True)
    root = _parse(page)
    assert root.doctype == "DOCTYPE html"
    (title,) = root.find_all("title")
    assert title.text() == "cdplot: 5 algorithms on 30 datasets"
    (style,) = root.find_all("head")[0].find_all("style")
    assert ".num { text-align: right" in style.text()  # numbers right-aligned
    assert "border-top: 2px solid" in style.text()  # booktabs-like rules
    # the diagram and, when asked, the heatmap, inline
    assert len(root.find_all("svg")) == 2
    assert root.find_all("figure", **{"class": "cdplot-diagram"})
    assert root.find_all("figure", **{"class": "cdplot-heatmap"})
    assert len(_parse(to_html(garcia)).find_all("svg")) == 1
    # settings, including the direction of the metric
    (settings,) = root.find_all("table", **{"class": "cdplot-settings"})
    rows = {
        tr.find_all("th")[0].text(): tr.find_all("td")[0].text() for tr in settings.find_all("tr")
    }
    assert rows["Scores"] == "lower scores are better (rank 1 = best)"
    assert rows["Pairwise test"] == "mean-ranks test"
    assert rows["Correction"] == "Bergmann\N{EN DASH}Hommel (10 hypotheses)"
    assert rows["Significance level α"] == "0.05"
    assert rows.get("Dropped datasets", "none") == "none"  # nothing dropped
    # the ranks table: every number right-aligned, 8 significant cells (Bergmann-Hommel)
    (table,) = root.find_all("table", **{"class": "cdplot-table"})
    heads = [th.text() for th in table.find_all("th")]
    order = list(garcia.average_ranks.index)
    assert heads == ["Algorithm", "Avg. rank", *order[:-1]]
    body_rows = table.find_all("tbody")[0].find_all("tr")
    assert [tr.find_all("td")[0].text() for tr in body_rows] == order
    for tr in body_rows:
        for td in tr.find_all("td")[1:]:
            assert td.text() == "" or "num" in td.attrs["class"].split()
    assert (
        len(table.find_all("td", **{"class": "sig"}))
        == int(garcia.significant.to_numpy().sum()) // 2
        == 8
    )
    # the significant pairs in words
    frame = garcia.to_frame()
    sig = frame[frame["significant"]]
    items = [li.text() for li in root.find_all("section", id="pairs")[0].find_all("li")]
    assert items == [
        f"{r.algorithm_1} better than {r.algorithm_2} (adjusted "
        + ("p < 0.001" if r.adjusted_pvalue < 0.001 else f"p = {r.adjusted_pvalue:.3f}")
        + ")"
        for r in sig.itertuples()
    ]
    groups = [
        li.text() for li in root.find_all("ol", **{"class": "cdplot-groups"})[0].find_all("li")
    ]
    assert groups == [", ".join(g) for g in garcia.groups]
    (footer,) = root.find_all("footer")
    assert footer.text() == f"Made with cdplot {cdplot.__version__}."


def test_html_page_shows_caveats_and_dropped_datasets(demsar):
    res = quiet_compare(demsar.iloc[:6], correction="holm")
    assert res.caveats  # 6 datasets: 2/2^6 > 0.05/6
    object.__setattr__(res, "dropped_datasets", ("iris & co",))
    object.__setattr__(res, "dropped_algorithms", ())
    root = _parse(to_html(res, diagram=False))
    caveats = [p.text() for p in root.find_all("p", **{"class": "caveat"})]
    assert caveats == ["Caveat: " + c for c in res.caveats]
    settings = root.find_all("table", **{"class": "cdplot-settings"})[0]
    assert "Dropped datasetsiris & co" in settings.text()
    assert "Dropped algorithmsnone" in settings.text()


def test_html_page_with_the_scores_table(demsar):
    res = cdplot.compare(demsar, control="C4.5")
    root = _parse(to_html(res, diagram=False, scores=True))
    (section,) = root.find_all("section", id="scores")
    rows = section.find_all("tr")
    assert len(rows) == 1 + res.n_datasets + 3  # head, datasets, rank, W/T/L, p
    assert [th.text() for th in rows[-2].find_all("th")] == ["W/T/L vs C4.5"]


def test_html_page_title_is_escaped(demsar):
    res = cdplot.compare(demsar)
    root = _parse(to_html(res, diagram=False, title="C4.5 <variants> & co"))
    assert root.find_all("title")[0].text() == "C4.5 <variants> & co"
    assert root.find_all("h1")[0].text() == "C4.5 <variants> & co"


def test_html_repr_is_a_fragment_with_the_diagram(garcia):
    page = garcia._repr_html_()
    assert page.startswith("<style>") and "<!DOCTYPE" not in page
    root = _parse(page)
    assert len(root.find_all("svg")) == 1
    assert root.find_all("div", **{"class": "cdplot-result"})
    assert "omnibus test rejects" in page


def test_html_escapes_names_and_leaves_no_figure(special):
    import matplotlib.pyplot as plt

    res = quiet_compare(special.rename(columns={"R&D": "<b>R&D</b>"}))
    page = res._repr_html_()
    assert "&lt;b&gt;R&amp;D&lt;/b&gt;" in page and "<b>R&D" not in page
    assert plt.get_fignums() == []
    _parse(to_html(res))


def test_html_without_diagram(garcia, monkeypatch):
    def broken(draw):
        raise RuntimeError("no room")

    monkeypatch.setattr("cdplot.report._html._figure_svg", broken)
    page = garcia._repr_html_()
    assert "<svg" not in page and "Critical difference diagram not drawn: no room" in page
    assert "<table" in to_html(garcia, diagram=False)


def test_html_degrades_to_text_without_matplotlib():
    code = (
        "import sys\n"
        "sys.modules['matplotlib'] = None\n"
        "import cdplot\n"
        "res = cdplot.compare(cdplot.datasets.load('demsar2006'))\n"
        "page = res._repr_html_()\n"
        "print('<svg' in page, '<table' in page, 'Install matplotlib' in page)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True"]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"control": "C4.5"},
        {"test": "nemenyi", "correction": "nemenyi"},
        {"test": "sign", "correction": "bergmann"},
    ],
)
def test_html_page_every_mode_is_well_formed(demsar, kwargs):
    res = quiet_compare(demsar, **kwargs)
    root = _parse(to_html(res, diagram=False, scores=True))
    (table,) = root.find_all("table", **{"class": "cdplot-table"})
    body = table.find_all("tbody")[0].find_all("tr")
    assert len(body) == res.n_algorithms
    assert bool(root.find_all("section", id="groups")) == (res.control is None)
    if res.control is not None:
        assert [th.text() for th in table.find_all("th")][-1] == "vs C4.5"


def test_html_page_many_algorithms_lists_ranks_only():
    rng = np.random.default_rng(5)
    scores = pd.DataFrame(rng.normal(size=(20, 30)), columns=[f"m{i}" for i in range(30)])
    res = quiet_compare(scores)
    root = _parse(to_html(res, diagram=False))
    (table,) = root.find_all("table", **{"class": "cdplot-table"})
    assert [th.text() for th in table.find_all("th")] == ["Algorithm", "Avg. rank"]
