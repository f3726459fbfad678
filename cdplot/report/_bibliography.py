"""The BibTeX entries of the methods a methods paragraph cites (:mod:`._methods`).

Each entry was checked against the paper (the journal, volume, number and pages on its
first page) or, for the papers in ``docs/references.md``, against that list; the short
author-year form is what a Markdown paragraph prints.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["ENTRIES", "bibtex", "short_citation"]

#: key -> (short citation for Markdown, BibTeX entry)
ENTRIES: dict[str, tuple[str, str]] = {
    "demsar2006": (
        "Demšar 2006",
        """@article{demsar2006,
  author  = {Dem{\\v{s}}ar, Janez},
  title   = {Statistical Comparisons of Classifiers over Multiple Data Sets},
  journal = {Journal of Machine Learning Research},
  volume  = {7},
  pages   = {1--30},
  year    = {2006}
}""",
    ),
    "garcia2008": (
        "García & Herrera 2008",
        """@article{garcia2008,
  author  = {Garc{\\'\\i}a, Salvador and Herrera, Francisco},
  title   = {An Extension on ``{S}tatistical {C}omparisons of {C}lassifiers over {M}ultiple
             {D}ata {S}ets'' for all Pairwise Comparisons},
  journal = {Journal of Machine Learning Research},
  volume  = {9},
  pages   = {2677--2694},
  year    = {2008}
}""",
    ),
    "garcia2010": (
        "García et al. 2010",
        """@article{garcia2010,
  author  = {Garc{\\'\\i}a, Salvador and Fern{\\'a}ndez, Alberto and Luengo, Juli{\\'a}n
             and Herrera, Francisco},
  title   = {Advanced Nonparametric Tests for Multiple Comparisons in the Design of
             Experiments in Computational Intelligence and Data Mining: Experimental
             Analysis of Power},
  journal = {Information Sciences},
  volume  = {180},
  number  = {10},
  pages   = {2044--2064},
  year    = {2010}
}""",
    ),
    "benavoli2016": (
        "Benavoli, Corani & Mangili 2016",
        """@article{benavoli2016,
  author  = {Benavoli, Alessio and Corani, Giorgio and Mangili, Francesca},
  title   = {Should We Really Use Post-Hoc Tests Based on Mean-Ranks?},
  journal = {Journal of Machine Learning Research},
  volume  = {17},
  number  = {5},
  pages   = {1--10},
  year    = {2016}
}""",
    ),
    "benavoli2017": (
        "Benavoli et al. 2017",
        """@article{benavoli2017,
  author  = {Benavoli, Alessio and Corani, Giorgio and Dem{\\v{s}}ar, Janez and Zaffalon,
             Marco},
  title   = {Time for a Change: a Tutorial for Comparing Multiple Classifiers Through
             {B}ayesian Analysis},
  journal = {Journal of Machine Learning Research},
  volume  = {18},
  number  = {77},
  pages   = {1--36},
  year    = {2017}
}""",
    ),
    "mogstad2024": (
        "Mogstad et al. 2024",
        """@article{mogstad2024,
  author  = {Mogstad, Magne and Romano, Joseph P. and Shaikh, Azeem M. and Wilhelm, Daniel},
  title   = {Inference for Ranks with Applications to Mobility across Neighbourhoods and
             Academic Achievement across Countries},
  journal = {Review of Economic Studies},
  volume  = {91},
  number  = {1},
  pages   = {476--518},
  year    = {2024}
}""",
    ),
    "miller2024": (
        "Miller 2024",
        """@misc{miller2024,
  author        = {Miller, Evan},
  title         = {Adding Error Bars to Evals: A Statistical Approach to Language Model
                   Evaluations},
  year          = {2024},
  eprint        = {2411.00640},
  note          = {arXiv:2411.00640},
  archivePrefix = {arXiv},
  primaryClass  = {stat.AP}
}""",
    ),
    "friedman1937": (
        "Friedman 1937",
        """@article{friedman1937,
  author  = {Friedman, Milton},
  title   = {The Use of Ranks to Avoid the Assumption of Normality Implicit in the Analysis
             of Variance},
  journal = {Journal of the American Statistical Association},
  volume  = {32},
  number  = {200},
  pages   = {675--701},
  year    = {1937}
}""",
    ),
    "iman1980": (
        "Iman & Davenport 1980",
        """@article{iman1980,
  author  = {Iman, Ronald L. and Davenport, James M.},
  title   = {Approximations of the Critical Region of the {F}riedman Statistic},
  journal = {Communications in Statistics -- Theory and Methods},
  volume  = {9},
  number  = {6},
  pages   = {571--595},
  year    = {1980}
}""",
    ),
    "wilcoxon1945": (
        "Wilcoxon 1945",
        """@article{wilcoxon1945,
  author  = {Wilcoxon, Frank},
  title   = {Individual Comparisons by Ranking Methods},
  journal = {Biometrics Bulletin},
  volume  = {1},
  number  = {6},
  pages   = {80--83},
  year    = {1945}
}""",
    ),
    "nemenyi1963": (
        "Nemenyi 1963",
        """@phdthesis{nemenyi1963,
  author = {Nemenyi, Peter B.},
  title  = {Distribution-free Multiple Comparisons},
  school = {Princeton University},
  year   = {1963}
}""",
    ),
    "holm1979": (
        "Holm 1979",
        """@article{holm1979,
  author  = {Holm, Sture},
  title   = {A Simple Sequentially Rejective Multiple Test Procedure},
  journal = {Scandinavian Journal of Statistics},
  volume  = {6},
  number  = {2},
  pages   = {65--70},
  year    = {1979}
}""",
    ),
    "hochberg1988": (
        "Hochberg 1988",
        """@article{hochberg1988,
  author  = {Hochberg, Yosef},
  title   = {A Sharper {B}onferroni Procedure for Multiple Tests of Significance},
  journal = {Biometrika},
  volume  = {75},
  number  = {4},
  pages   = {800--802},
  year    = {1988}
}""",
    ),
    "hommel1988": (
        "Hommel 1988",
        """@article{hommel1988,
  author  = {Hommel, Gerhard},
  title   = {A Stagewise Rejective Multiple Test Procedure Based on a Modified {B}onferroni
             Test},
  journal = {Biometrika},
  volume  = {75},
  number  = {2},
  pages   = {383--386},
  year    = {1988}
}""",
    ),
    "shaffer1986": (
        "Shaffer 1986",
        """@article{shaffer1986,
  author  = {Shaffer, Juliet Popper},
  title   = {Modified Sequentially Rejective Multiple Test Procedures},
  journal = {Journal of the American Statistical Association},
  volume  = {81},
  number  = {395},
  pages   = {826--831},
  year    = {1986}
}""",
    ),
    "bergmann1988": (
        "Bergmann & Hommel 1988",
        """@incollection{bergmann1988,
  author    = {Bergmann, B. and Hommel, Gerhard},
  title     = {Improvements of General Multiple Test Procedures for Redundant Systems of
               Hypotheses},
  booktitle = {Multiple Hypothesenpr{\\"u}fung / Multiple Hypotheses Testing},
  editor    = {Bauer, Peter and Hommel, Gerhard and Sonnemann, Eckart},
  publisher = {Springer},
  address   = {Berlin},
  pages     = {100--115},
  year      = {1988}
}""",
    ),
    "rom1990": (
        "Rom 1990",
        """@article{rom1990,
  author  = {Rom, Dror M.},
  title   = {A Sequentially Rejective Test Procedure Based on a Modified {B}onferroni
             Inequality},
  journal = {Biometrika},
  volume  = {77},
  number  = {3},
  pages   = {663--665},
  year    = {1990}
}""",
    ),
    "benjamini1995": (
        "Benjamini & Hochberg 1995",
        """@article{benjamini1995,
  author  = {Benjamini, Yoav and Hochberg, Yosef},
  title   = {Controlling the False Discovery Rate: A Practical and Powerful Approach to
             Multiple Testing},
  journal = {Journal of the Royal Statistical Society: Series B},
  volume  = {57},
  number  = {1},
  pages   = {289--300},
  year    = {1995}
}""",
    ),
    "mcnemar1947": (
        "McNemar 1947",
        """@article{mcnemar1947,
  author  = {McNemar, Quinn},
  title   = {Note on the Sampling Error of the Difference between Correlated Proportions or
             Percentages},
  journal = {Psychometrika},
  volume  = {12},
  number  = {2},
  pages   = {153--157},
  year    = {1947}
}""",
    ),
    "tango1998": (
        "Tango 1998",
        """@article{tango1998,
  author  = {Tango, Toshiro},
  title   = {Equivalence Test and Confidence Interval for the Difference in Proportions for
             the Paired-Sample Design},
  journal = {Statistics in Medicine},
  volume  = {17},
  number  = {8},
  pages   = {891--908},
  year    = {1998}
}""",
    ),
    "clopper1934": (
        "Clopper & Pearson 1934",
        """@article{clopper1934,
  author  = {Clopper, C. J. and Pearson, E. S.},
  title   = {The Use of Confidence or Fiducial Limits Illustrated in the Case of the
             Binomial},
  journal = {Biometrika},
  volume  = {26},
  number  = {4},
  pages   = {404--413},
  year    = {1934}
}""",
    ),
    "skillings1981": (
        "Skillings & Mack 1981",
        """@article{skillings1981,
  author  = {Skillings, John H. and Mack, Gregory A.},
  title   = {On the Use of a {F}riedman-Type Statistic in Balanced and Unbalanced Block
             Designs},
  journal = {Technometrics},
  volume  = {23},
  number  = {2},
  pages   = {171--177},
  year    = {1981}
}""",
    ),
}


def short_citation(key: str) -> str:
    """``"Demšar 2006"``: the author-year form a Markdown paragraph prints."""
    return ENTRIES[key][0]


def bibtex(keys: Iterable[str]) -> str:
    """The BibTeX entries of ``keys`` (each once, in the order given), blank-line separated.

    Examples
    --------
    >>> print(bibtex(["holm1979"]).splitlines()[0])
    @article{holm1979,
    """
    seen = list(dict.fromkeys(keys))
    return "\n\n".join(ENTRIES[k][1] for k in seen) + "\n"
