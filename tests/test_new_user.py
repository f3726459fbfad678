"""What a new user trips over (wording of figures, refusals of the stats layer).

Consistency and wording only: no statistic is computed here except the refusal of
``rm_anova_test`` on an incomplete table, which must match ``compare()``'s refusal (R's ``aov``
silently drops the incomplete dataset's whole stratum; cdplot asks the user instead).
"""

from __future__ import annotations

import numpy as np
import pytest

import cdplot


def _notes(ax):
    """The diagram's footnotes, their wrapped lines joined again."""
    return " ".join(t.get_text().replace("\n", " ") for t in ax.texts if t.get_gid() == "cd-note")


def test_bayes_cd_footnote_speaks_of_decisions_not_significance(bayes_benavoli):
    assert bayes_benavoli.uncovered_pairs  # five pairs no bar joins
    note = _notes(cdplot.bayes_cd_diagram(bayes_benavoli))
    assert "not decided different at P \N{GREATER-THAN OR EQUAL TO} 0.95" in note
    assert "significant" not in note
    # an explicit template is still the user's
    ax = cdplot.bayes_cd_diagram(bayes_benavoli, footnote="{n} pairs are not joined: {pairs}")
    assert _notes(ax).startswith("5 pairs are not joined: ")


def test_frequentist_cd_footnote_keeps_significance_wording(benavoli):
    res = cdplot.compare(benavoli, test="sign")
    assert res.uncovered_pairs
    assert "1 further pair is not significantly different" in _notes(cdplot.cd_diagram(res))


@pytest.mark.parametrize(
    ("kwargs", "legend"),
    [
        ({}, "raw Wilcoxon signed-rank test p (bold: significant after Holm adjustment)"),
        (
            {"correction": "bergmann-hommel"},
            "raw Wilcoxon signed-rank test p (bold: significant after "
            "Bergmann\N{EN DASH}Hommel adjustment)",
        ),
        ({"correction": "none"}, "Wilcoxon signed-rank test p (raw; bold: significant, no "),
    ],
)
def test_mcm_legend_says_bold_is_the_adjusted_decision(demsar, kwargs, legend):
    ax = cdplot.multi_comparison_matrix(cdplot.compare(demsar, **kwargs))
    title = ax.get_title(loc="left")
    assert title.split("\n")[1].startswith(legend)
    assert "(bold: significant)" not in title


def test_rm_anova_refuses_a_missing_cell_as_compare_does(demsar):
    x = demsar.to_numpy(dtype=float).copy()
    x[3, 2] = np.nan
    table = demsar.astype(float)
    table.iloc[3, 2] = np.nan
    with pytest.raises(cdplot.CdplotInputError, match="omnibus='rm-anova' needs a complete"):
        cdplot.compare(table, omnibus="rm-anova", missing="keep")
    with pytest.raises(
        cdplot.CdplotInputError,
        match=r"rm_anova_test needs a score for every algorithm on every dataset, but 1 cell\(s\) "
        r"are missing or not finite \(the first at row 3, column 2\); drop the incomplete "
        r"datasets .*missing='keep'",
    ):
        cdplot.stats.rm_anova_test(x)
    x[3, 2] = np.inf
    with pytest.raises(cdplot.CdplotInputError, match="missing or not finite"):
        cdplot.stats.rm_anova_test(x)
    with pytest.raises(cdplot.CdplotInputError, match=r"got shape \(14,\)"):
        cdplot.stats.rm_anova_test(x[:, 0])


# ------------------------------------------------- drawing into the user's own Axes


NAMES = ["XGBoost", "RandomForest", "LogisticRegression", "k-NN", "SVM_rbf", "NaiveBayes", "LGBM"]


def test_cd_diagram_in_a_small_subplot_wraps_only_between_words(benavoli):
    import matplotlib.pyplot as plt

    res = cdplot.compare(benavoli.set_axis(NAMES, axis=1))
    fig, axs = plt.subplots(1, 2, figsize=(7, 2.2))
    ax = res.plot(ax=axs[0])
    texts = {t.get_gid(): t for t in ax.texts}
    title = texts["cd-title"].get_text()
    assert "\N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.05" in title.split("\n")[-1]
    footnotes = {}
    for name in NAMES:
        shown = texts[f"cd-name-{name}"].get_text()
        if shown.endswith("]"):  # abbreviated, with a numbered footnote giving the name
            mark = shown.rsplit("[", 1)[1].rstrip("]")
            footnotes[mark] = name
            assert shown.split("\N{HORIZONTAL ELLIPSIS}")[0] in name
            continue
        lines = shown.split("\n")
        assert "".join(lines) == name  # nothing lost, nothing cut inside a word
        assert all(_joined(line, name) for line in lines)
    assert footnotes == {"1": "LogisticRegression"}
    notes = [t.get_text() for t in ax.texts if t.get_gid() == "cd-note"]
    assert "[1] LogisticRegression" in notes
    assert texts["cd-name-XGBoost"].get_text() in ("XGBoost", "XG\nBoost")
    # every text stays inside the user's Axes
    renderer = fig.canvas.get_renderer()
    box = ax.get_window_extent(renderer)
    for text in ax.texts:
        ext = text.get_window_extent(renderer)
        assert box.x0 - 0.5 <= ext.x0 and ext.x1 <= box.x1 + 0.5, text.get_text()


def _joined(line: str, name: str) -> bool:
    """``line`` is a run of whole pieces of ``name``."""
    from cdplot.plotting._cd_layout import _tokens

    tokens = _tokens(name)
    return any(
        "".join(tokens[i:j]).strip() == line
        for i in range(len(tokens))
        for j in range(i + 1, len(tokens) + 1)
    )


def test_wrap_never_splits_a_formula_or_a_word():
    from cdplot.plotting._cd_layout import fit_scale, wrap_text

    title = "Wilcoxon signed-rank test, Holm, \N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.05"
    for width in range(1, len(title) + 1):
        lines, truncated = wrap_text(title, width, len)
        assert not truncated
        assert any(line.endswith("\N{MATHEMATICAL ITALIC SMALL ALPHA} = 0.05") for line in lines)
    assert wrap_text("p < 0.001 and P \N{GREATER-THAN OR EQUAL TO} 0.95", 4, len)[0] == [
        "p < 0.001",
        "and",
        "P \N{GREATER-THAN OR EQUAL TO} 0.95",
    ]
    # a word wider than the room: kept whole, and the caller shrinks it
    lines, _ = wrap_text("XGBoostClassifierV2", 5, len)
    assert lines == ["XG", "Boost", "Classifier", "V2"]
    assert fit_scale(lines, 5, len) == 0.5
    # with max_lines (names) it is abbreviated with the footnote number instead
    assert wrap_text("LogisticRegression", 9, len, max_lines=3, truncate_suffix=" [1]") == (
        ["Logistic", "Regr\N{HORIZONTAL ELLIPSIS} [1]"],
        True,
    )


def test_a_title_wider_than_the_axes_shrinks_instead_of_breaking(demsar):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    res = cdplot.compare(demsar)
    formula = (
        "$\\sum_{i=1}^{k} R_i = N k (k + 1) / 2 \\quad "
        "\\mathrm{for\\ every\\ one\\ of\\ the\\ datasets}$"
    )
    sizes = {}
    for title in ("short", formula):
        fig = Figure(figsize=(3.0, 2.0))
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        cdplot.cd_diagram(res, ax=ax, title=title)
        (text,) = [t for t in ax.texts if t.get_gid() == "cd-title"]
        assert text.get_text() == title  # one line: mathtext is never broken
        renderer = fig.canvas.get_renderer()
        assert text.get_window_extent(renderer).width <= ax.get_window_extent(renderer).width
        sizes[title] = text.get_fontsize()
    assert sizes[formula] < sizes["short"]


# ------------------------------------------------------- one caution, not two


@pytest.mark.parametrize("test", ["nemenyi", "mean-ranks"])
def test_cli_prints_the_pool_caution_once(tmp_path, benavoli, capsys, test):
    from cdplot.cli import main

    benavoli.to_csv(tmp_path / "results.csv")
    assert main(["compare", str(tmp_path / "results.csv"), "--test", test]) == 0
    out, err = capsys.readouterr()
    assert out.count("depends on which other algorithms") == 1  # the summary's caution
    assert err == ""
    # no summary printed (the JSON goes to stdout): the warning is the one caution
    assert main(["compare", str(tmp_path / "results.csv"), "--test", test, "--json", "-"]) == 0
    out, err = capsys.readouterr()
    assert "Caution" not in out
    assert err.count("depends on which other algorithms") == 1


def test_cli_keeps_other_warnings_beside_the_summary(tmp_path, capsys):
    from cdplot.cli import main

    path = tmp_path / "results.csv"
    rows = "".join(f"d{i},{i},{'' if i == 2 else i + 1},{i + 2}\n" for i in range(1, 9))
    path.write_text("dataset,A,B,C\n" + rows)
    assert main(["compare", str(path), "--test", "nemenyi", "--missing", "drop"]) == 0
    out, err = capsys.readouterr()
    assert out.count("depends on which other algorithms") == 1
    assert err.splitlines() == [  # the other warning stays
        "cdplot: warning: dropped 1 dataset(s) with missing results: 'd2' "
        "(silence with --no-warn or -q)"
    ]


def test_html_note_does_not_send_cli_users_to_python(benavoli):
    with pytest.warns(cdplot.PoolDependenceWarning):
        res = cdplot.compare(benavoli, test="nemenyi")
    html = cdplot.report.to_html(res)
    note = html[html.index('<p class="legend">Note: the Nemenyi') :].split("</p>")[0]
    assert "summary()" not in note
    assert "--test wilcoxon" in note


# ------------------------------------------------------------ simulate --pair A,B


def test_cli_simulate_pair_prints_the_pair_rejection_rate(capsys):
    """Consistency: the printed rates are those of ``simulate(...).to_frame()`` (same seed).

    Model of Benavoli, Corani & Mangili (2016), Example 2 (A ~ N(0, 1), B ~ N(1.5, 1),
    C, D, E ~ N(5..7, 1), 20 datasets); with 300 replicates only the order of the paper's
    rates (sign 0.94, mean-ranks 0.046) is checked, not the values.
    """
    from cdplot.cli import main

    argv = ["simulate", "--means", "0,1.5,5,6,7", "--n", "20", "--replicates", "300",
            "--seed", "1", "--no-progress", "--pair", "B,A",
            "--procedures", "sign:none,mean-ranks:none,wilcoxon:holm:C"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    block = out[out.index("Rejection rate of B vs A") :].splitlines()
    assert block[1].split() == ["procedure", "rate"]
    rows = {line.split()[0]: line.split()[1:] for line in block[2:] if line.strip()}
    sim = cdplot.simulate(
        cdplot.NormalModel({"A": 0, "B": 1.5, "C": 5, "D": 6, "E": 7}, n_datasets=20),
        procedures=["sign:none", "mean-ranks:none", "wilcoxon:holm:C"],
        n_replicates=300,
        random_state=1,
        progress=False,
    )
    frame = sim.to_frame()
    for proc in ("sign+none", "mean-ranks+none"):
        (row,) = frame[(frame.procedure == proc) & (frame.a == "A") & (frame.b == "B")].itertuples()
        assert rows[proc] == [f"{row.rejection_rate:.4f}", "\N{PLUS-MINUS SIGN}", f"{row.se:.4f}"]
    assert float(rows["sign+none"][0]) > 0.8 > 0.2 > float(rows["mean-ranks+none"][0])
    assert [r for r in rows if r.startswith("wilcoxon")] == ["wilcoxon+holm"]
    assert block[-1].endswith("not tested")  # against the control C: A vs B is not a test


def test_cli_simulate_pair_refuses_an_unknown_name_before_simulating(capsys):
    from cdplot.cli import main

    assert main(["simulate", "--k", "3", "--pair", "A,Q", "--replicates", "10"]) == 2
    err = capsys.readouterr().err
    assert "--pair 'Q' is not an algorithm of the model; the algorithms are 'A', 'B', 'C'" in err


# ------------------------------------- infinite Iman-Davenport F; one escaping rule


@pytest.fixture(scope="module")
def alike():
    """Every dataset ranks the five algorithms alike: Friedman's chi2 = N(k - 1) = 48, so
    Iman-Davenport's F = (N - 1) chi2 / (N(k - 1) - chi2) has a zero denominator
    (Demšar 2006, §3.2.2; conventions.md: F = inf, p = 0)."""
    import pandas as pd

    scores = {f"A{j}": [10.0 - j + 0.01 * i for i in range(12)] for j in range(5)}
    table = pd.DataFrame(scores, index=[f"d{i}" for i in range(12)])
    return cdplot.compare(table, correction="none")


def test_infinite_iman_davenport_f_is_said_in_words(alike):
    assert alike.friedman.statistic == 48.0
    assert alike.iman_davenport.statistic == np.inf
    words = "F(4, 44) is infinite (every dataset ranks the algorithms alike)"
    texts = {
        "summary": " ".join(alike.summary().split()),
        "text": str(alike),
        "markdown": alike.to_markdown(),
        "html": cdplot.report.to_html(alike),
        "latex": " ".join(alike.to_latex().split()),
    }
    for kind, text in texts.items():
        assert "= inf" not in text, kind
        if kind == "latex":
            assert "$F(4, 44)$ is infinite (every dataset ranks the algorithms alike)" in text
        else:
            assert words in text, kind


def test_markdown_escapes_p_values_one_way(alike):
    md = alike.to_markdown()
    assert "\\<" not in md  # neither in the table, nor the list items, nor the prose
    items = [line for line in md.splitlines() if line.startswith("- ")]
    assert "- A0 vs A1: p < 0.001, adjusted p < 0.001" in items
    assert "| **<0.001** |" in md
    assert "p < 0.001" in md.split("|")[0]  # the omnibus line above the table
    # what could open an HTML tag is still escaped
    from cdplot.report._markdown import escape_markdown

    assert escape_markdown("<A> vs a<b, p<0.05") == "\\<A\\> vs a\\<b, p<0.05"


def test_cd_diagrams_figure_title_shrinks_instead_of_breaking_a_formula(demsar):
    res = cdplot.compare(demsar)
    formula = (
        "$\\sum_{i=1}^{k} R_i = N k (k + 1) / 2 \\quad \\mathrm{for\\ every\\ one\\ of\\ the\\ "
        "datasets\\ of\\ this\\ study}$"
    )
    fig = cdplot.cd_diagrams({"a": res, "b": res}, width=3.3, title=formula)
    (title,) = [t for t in fig.texts if t.get_gid() == "cd-figure-title"]
    assert title.get_text() == formula
    width = title.get_window_extent(fig.canvas.get_renderer()).width / fig.dpi
    assert width <= 3.3
    short = cdplot.cd_diagrams({"a": res, "b": res}, width=3.3, title="short")
    (roomy,) = [t for t in short.texts if t.get_gid() == "cd-figure-title"]
    assert title.get_fontsize() < roomy.get_fontsize()
