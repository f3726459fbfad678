"""Text, Markdown, LaTeX and HTML renderings of a comparison result.

Everything here reads a :class:`~cdplot.stats.ComparisonResult` and formats it; no
statistic is computed and no statistical judgement is made (those come from the result:
``result.caveats``, ``result.omnibus_rejects``). One module per job:

``_model.py``     the table model, the one row walker, the significant pairs, group letters
``_text.py``      ``str(result)``
``_markdown.py``  ``to_markdown``
``_latex.py``     ``to_latex`` (full, compact, floats, sizes)
``_html.py``      ``to_html`` (a self-contained page) and the notebook display
``_summary.py``   the plain-language ``summary``
``_results_table.py``  ``results_table``: the scores per dataset, as papers print them
``_methods.py``   ``methods_text``/``methods_bibtex``: the paper's methods paragraph and its
                  BibTeX (``_bibliography.py``); ``_claims.py`` the verdicts of ``check()``
"""

from __future__ import annotations

from .._labels import CORRECTION_TITLES, TEST_TITLES, format_pvalue
from ._html import to_html
from ._latex import escape_latex, to_latex
from ._markdown import escape_markdown, to_markdown
from ._methods import methods_bibtex, methods_text
from ._model import describe_method
from ._summary import summary
from ._text import result_text

__all__ = [
    "CORRECTION_TITLES",
    "TEST_TITLES",
    "describe_method",
    "escape_latex",
    "escape_markdown",
    "format_pvalue",
    "methods_bibtex",
    "methods_text",
    "result_text",
    "summary",
    "to_html",
    "to_latex",
    "to_markdown",
]
