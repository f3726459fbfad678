"""Names with ``$...$`` mathematics: parsed before drawing, refused with a clear error."""

from __future__ import annotations

import matplotlib as mpl
import pytest

from cdplot import CdplotInputError
from cdplot.plotting._mathtext import check_mathtext, is_mathtext

BAD = "A$\\frac{$B"


def test_bad_mathematics_is_refused_naming_the_label_and_the_fix():
    with pytest.raises(CdplotInputError, match=r"cd_diagram cannot draw the name 'A\$") as info:
        check_mathtext(["fine", BAD], where="cd_diagram")
    assert "Escape the dollar signs as \\$" in str(info.value)
    assert "Expected" in str(info.value)  # matplotlib's reason, without pyparsing's class


@pytest.mark.parametrize(
    "label",
    ["plain", "$\\alpha$-SVM", "$x^2$ and $y_1$", "costs \\$5", "odd $ count $ here $", 3.5],
)
def test_valid_or_plain_labels_pass(label):
    check_mathtext([label], where="cd_diagram")


def test_only_unescaped_pairs_are_mathtext():
    assert is_mathtext("$x$")
    assert not is_mathtext("a $ b")  # one dollar: matplotlib draws it as written
    assert not is_mathtext("\\$5 and \\$6")  # escaped dollars
    with mpl.rc_context({"text.parse_math": False}):
        assert not is_mathtext("$x$")
        check_mathtext([BAD], where="cd_diagram")  # drawn as written: nothing to parse
