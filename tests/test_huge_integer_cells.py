"""A cell holding an integer far beyond a float is refused naming its length, not printed
whole: 10**400 would fill the message, and past 4,300 digits Python's ``repr`` of an int
raises ``ValueError`` (``sys.get_int_max_str_digits()``) instead of giving text."""

from __future__ import annotations

import pandas as pd
import pytest

import cdplot
from cdplot import CdplotInputError


@pytest.mark.parametrize(
    ("value", "digits"), [(10**400, 401), (-(10**5000), 5001)], ids=["1e400", "-1e5000"]
)
def test_a_huge_integer_cell_is_refused_naming_its_length(value, digits):
    frame = pd.DataFrame(
        {"A": [0.1, value, 0.3], "B": [0.2, 0.3, 0.4]}, index=["a", "b", "c"], dtype=object
    )
    with pytest.raises(
        CdplotInputError,
        match=rf"^non-numeric score -?\(an integer of about {digits} digits\) in column 'A' "
        r"\(dataset 'b'\): it cannot be represented as a float\.$",
    ):
        cdplot.compare(frame)
