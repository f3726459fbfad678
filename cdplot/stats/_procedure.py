"""The procedure of a comparison: which test, correction, control and options go together.

The rules of how they go together, read from each test's entry of the catalogue
(``_catalogue.CATALOGUE``: names and aliases, options and their checks, default correction,
own single-step adjustment, Bayesian or not, control allowed, missing results), and the
Bergmann-Hommel budget. :func:`cdplot.compare`, :func:`cdplot.simulate` and the command
line all build a :class:`Procedure` with :meth:`Procedure.resolve`; none states the rules
again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from .._errors import CLI_FLAGS, CdplotInputError, check_in_list, in_cli, spell
from ._adjust import BH_DEFAULT_BUDGET, check_bh_budget, resolve_correction
from ._catalogue import ALIASES, CATALOGUE, DESIGN, REFUSED, PairwiseTest
from ._durbin import bibd_problem
from ._omnibus import INCOMPLETE_OMNIBUS, ORDERED_OMNIBUS, resolve_omnibus
from ._options import check_alpha, check_control, check_keyword_spelling
from ._values import ValueEquality

__all__ = ["MISSING", "TESTS", "Procedure", "resolve_test"]

#: values of compare(missing=...); the reader understands more (see cdplot.io.MISSING_OPTIONS)
MISSING = ["raise", "drop", "drop-algorithms", "keep"]

#: canonical test name -> the options it accepts (read-only; from the catalogue)
TESTS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {name: tuple(entry.options) for name, entry in CATALOGUE.items()}
)
#: option name -> its check, over every test of the catalogue (in the catalogue's order)
_OPTION_CHECKS: Mapping[str, Callable[[Any], Any]] = MappingProxyType(
    {
        option: check
        for entry in CATALOGUE.values()
        for option, check in entry.options.items()
        if check is not None
    }
)
#: tests (and omnibus tests) for a balanced incomplete block design: they run on a table
#: whose missing results form one (a complete table is one too)
_DESIGN = frozenset(name for name, entry in CATALOGUE.items() if entry.incomplete == DESIGN)
#: the corrections that are a test's own single-step adjustment (named as the test)
_OWN_ADJUSTMENTS = frozenset(
    name for name, entry in CATALOGUE.items() if entry.own_adjustment is not None
)


def resolve_test(name: str) -> str:
    """Canonical test name, or a :class:`CdplotInputError` listing the valid ones."""
    if isinstance(name, str) and name.strip().lower() == "friedman":
        raise CdplotInputError(
            f"{name!r} is not a valid value for {spell('test')}: the Friedman test is an omnibus "
            f"test ({spell('omnibus', 'friedman')}, the default; res.omnibus), not a pairwise "
            f"post-hoc test; for the post-hoc test on Friedman's average ranks pass "
            f"{spell('test', 'mean-ranks')} (or {spell('test', 'nemenyi')})."
        )
    return check_in_list(CATALOGUE, aliases=ALIASES, test=name)


def _option(name: str) -> str:
    """A test option as the user names it: ``'zero_method'`` or ``--zero-method``."""
    return spell(name) if in_cli() else repr(name)


def _check_options(test: str, options: dict[str, Any]) -> dict[str, Any]:
    """The test's options, their values checked; unknown options are refused."""
    options = dict(options)
    for option, check in _OPTION_CHECKS.items():
        if option in options:
            options[option] = check(options[option])
    check_keyword_spelling(options, {name for names in TESTS.values() for name in names})
    unknown = sorted(set(options) - set(TESTS[test]))
    if unknown:
        valid = [v for v in TESTS[test] if not in_cli() or v in CLI_FLAGS]
        raise CdplotInputError(
            f"unknown option(s) {', '.join(_option(u) for u in unknown)} for "
            f"{spell('test', test)}; "
            + (
                f"it accepts {', '.join(_option(v) for v in valid)}."
                if valid
                else "it takes no options."
            )
        )
    return options


def _resolve_correction(test: str, correction: Any, control: Any) -> str:
    """The correction applied: the one named, or the test's own; bad pairings are refused."""
    entry = CATALOGUE[test]
    if correction is None:
        return entry.default_correction
    named = correction.strip().lower() if isinstance(correction, str) else None
    own = entry.own_adjustment
    if own is not None:
        if named != test:
            raise CdplotInputError(
                f"{spell('test', test)} carries its own single-step adjustment, so "
                f"{spell('correction', correction)} cannot be applied; drop "
                f"{spell('correction')} to use {own.title}, or use "
                f"{spell('test', own.plain_test)} with {spell('correction', correction)}."
            )
        return test
    if entry.bayesian:
        if named != "none":
            raise CdplotInputError(
                f"{spell('test', test)} gives posterior probabilities, not p-values, so "
                f"{spell('correction', correction)} cannot be applied; drop "
                f"{spell('correction')} and set the posterior threshold with "
                f"{spell('threshold', 0.95)}."
            )
        return "none"
    return resolve_correction(correction, control=control is not None)


def _check_order(
    order: Any, omnibus: str, algorithms: Sequence[str] | None
) -> tuple[str, ...] | None:
    """The expected order of Page's test, as a tuple; only with that omnibus test."""
    if omnibus not in ORDERED_OMNIBUS:
        if order is not None:
            raise CdplotInputError(
                f"{spell('order')} is the expected order of {spell('omnibus', 'page')} (Page's "
                f"L test); add {spell('omnibus', 'page')} or drop {spell('order')}."
            )
        return None
    example = spell("order", "small,base,large" if in_cli() else ["small", "base", "large"])
    if order is None or isinstance(order, (str, bytes)) and not in_cli():
        raise CdplotInputError(
            f"{spell('omnibus', 'page')} tests an expected order of the algorithms: pass "
            f"{spell('order')} with every algorithm, from the one expected to perform worst "
            f"to the one expected to perform best, e.g. {example}."
            if order is None
            else f"{spell('order')} must be a list of algorithm names, got the string "
            f"{order!r}; e.g. {example}."
        )
    names = tuple(str(a) for a in order)
    if len(names) < 3:
        raise CdplotInputError(
            f"{spell('order')} must list at least three algorithms (Page's test needs k >= 3), "
            f"got {list(names)}."
        )
    if algorithms is not None:
        known = [str(a) for a in algorithms]
        unknown = [a for a in names if a not in known]
        absent = [a for a in known if a not in names]
        twice = sorted({a for a in names if names.count(a) > 1})
        if unknown or absent or twice:
            raise CdplotInputError(
                f"{spell('order')} must list every algorithm once ({', '.join(known)}); "
                + "; ".join(
                    text
                    for text in (
                        f"unknown {unknown}" if unknown else "",
                        f"missing {absent}" if absent else "",
                        f"given twice {twice}" if twice else "",
                    )
                    if text
                )
                + "."
            )
    return names


def _resolve_budget(bh_budget: Any, correction: str) -> float | None:
    """The Bergmann-Hommel budget in seconds (None: no limit); only with that correction."""
    if bh_budget is not None and correction != "bergmann-hommel":
        raise CdplotInputError(
            f"{spell('bh_budget')} applies to {spell('correction', 'bergmann-hommel')} only; "
            f"drop it (the correction is {correction!r})."
        )
    return check_bh_budget(BH_DEFAULT_BUDGET if bh_budget is None else bh_budget)


@dataclass(frozen=True, eq=False)
class Procedure(ValueEquality):
    """A validated comparison procedure: pairwise test, correction, control and options.

    Build one with :meth:`resolve`, which checks the names, resolves aliases and defaults
    and refuses combinations that do not go together, with one message naming the fix.

    Attributes
    ----------
    test : str
        Canonical name of the pairwise test (a key of ``cdplot.stats.TESTS``).
    correction : str
        Canonical name of the adjustment (``"nemenyi"``/``"tukey"`` for the tests'
        own single-step adjustment, ``"none"`` for the Bayesian tests).
    control : str or None
        The control algorithm, or None for all pairs.
    options : dict
        The test's options, checked (e.g. ``{"zero_method": "pratt"}``).
    alpha : float
        Significance level.
    bh_budget : float or None
        Time budget (seconds) of the exact Bergmann-Hommel search; None for no limit.
    omnibus : str
        Canonical name of the omnibus test reported.
    order : tuple of str or None
        With ``omnibus="page"``: the algorithms in their expected order, from the one
        expected to perform worst to the one expected to perform best.

    Examples
    --------
    >>> from cdplot.stats import Procedure
    >>> Procedure.resolve(test="nemenyi").correction
    'nemenyi'
    >>> Procedure.resolve(test="mean-ranks", correction="bonferroni", control="A").correction
    'bonferroni-dunn'
    """

    test: str
    correction: str
    control: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    alpha: float = 0.05
    bh_budget: float | None = BH_DEFAULT_BUDGET
    omnibus: str = "friedman"
    order: tuple[str, ...] | None = None

    @classmethod
    def resolve(
        cls,
        test: str = "wilcoxon",
        correction: str | None = None,
        control: str | None = None,
        *,
        alpha: float = 0.05,
        bh_budget: float | None = None,
        omnibus: str | None = None,
        order: Sequence[str] | None = None,
        missing: str = "raise",
        algorithms: Sequence[str] | None = None,
        **options: Any,
    ) -> Procedure:
        """The procedure for these settings, checked, with defaults filled in.

        ``correction=None`` is the test's own default ("holm"; "nemenyi", "tukey" and
        "none" for the Nemenyi, Tukey and Bayesian tests). ``omnibus=None`` is Durbin's
        with ``test="durbin"``, Skillings-Mack with ``missing="keep"``, else Friedman.
        ``order`` (the algorithms from the expected worst to the expected best) goes with
        ``omnibus="page"`` and with it only. With ``algorithms`` the control must be one
        of them and ``order`` must list each once. Raises :class:`~cdplot.CdplotInputError`.
        """
        test_name = resolve_test(test)
        alpha = check_alpha(alpha)
        checked = _check_options(test_name, options)
        missing = check_in_list(MISSING, missing=missing)
        if omnibus is None:
            omnibus_name = "skillings-mack" if missing == "keep" else "friedman"
            if test_name in _DESIGN:
                omnibus_name = test_name
        else:
            omnibus_name = resolve_omnibus(omnibus)
        order = _check_order(order, omnibus_name, algorithms)
        if algorithms is not None:
            control = check_control(control, algorithms)
        advice = CATALOGUE[test_name].no_control
        if control is not None and advice is not None:
            raise CdplotInputError(advice())
        name = _resolve_correction(test_name, correction, control)
        budget = _resolve_budget(bh_budget, name)
        return cls(test_name, name, control, checked, alpha, budget, omnibus_name, order)

    def with_algorithms(self, algorithms: Sequence[str]) -> Procedure:
        """The same procedure with its control and order checked against ``algorithms``."""
        out = self
        if self.order is not None:
            out = replace(out, order=_check_order(self.order, self.omnibus, algorithms))
        if self.control is None:
            return out
        return replace(out, control=check_control(self.control, algorithms))

    @property
    def design(self) -> bool:
        """Whether the test or omnibus test is for a balanced incomplete block design."""
        return self.test in _DESIGN or self.omnibus in _DESIGN

    def table_missing(self, missing: str) -> str:
        """How the table's missing results are read: a design test keeps them by default
        (``missing="raise"``): they are the datasets an algorithm was not run on."""
        return "keep" if self.design and missing == "raise" else missing

    def check_incomplete(self, n_missing: int, present: np.ndarray | None = None) -> None:
        """Refuse a test or omnibus test that needs a complete table (``n_missing`` > 0);
        a design test refuses a table whose ``present`` results are not a BIBD."""
        fixes = (
            f"use {spell('test', 'wilcoxon')} or {spell('test', 'sign')} (each pair is tested "
            f"on the datasets where both have a result), or {spell('missing', 'drop')} to drop "
            "the incomplete datasets"
        )
        if self.design and present is not None:
            self._check_design(present, fixes)
        incomplete = self.entry.incomplete
        if incomplete == REFUSED and self.entry.pool_dependent:
            raise CdplotInputError(
                f"{spell('test', self.test)} needs every algorithm ranked on every dataset (its "
                f"null distribution assumes complete rankings), but {n_missing} result(s) are "
                f"missing; {fixes}."
            )
        if incomplete == REFUSED:
            raise CdplotInputError(
                f"{spell('test', self.test)} is not available for a table with missing results "
                f"({n_missing} missing); {fixes}."
            )
        if self.omnibus not in INCOMPLETE_OMNIBUS:
            raise CdplotInputError(
                f"{spell('omnibus', self.omnibus)} needs a complete table, but {n_missing} "
                f"result(s) are missing; use {spell('omnibus', 'skillings-mack')} (the default "
                f"with {spell('missing', 'keep')}), or {spell('missing', 'drop')} to drop the "
                "incomplete datasets."
            )

    def _check_design(self, present: np.ndarray, fixes: str) -> None:
        problem = bibd_problem(present)
        if problem is None:
            return
        which = (
            f"{spell('test', self.test)}"
            if self.test in _DESIGN
            else f"{spell('omnibus', self.omnibus)}"
        )
        raise CdplotInputError(
            f"{which} (Durbin's test) cannot run on this table: {problem}; for another "
            f"incomplete table use {spell('missing', 'keep')} with "
            f"{spell('omnibus', 'skillings-mack')}, and {fixes}."
        )

    @property
    def bayesian(self) -> bool:
        """Whether the test gives posterior probabilities (no p-values)."""
        return self.entry.bayesian

    @property
    def single_step(self) -> bool:
        """Whether the test carries its own single-step adjustment (Nemenyi, Tukey)."""
        return self.correction in _OWN_ADJUSTMENTS

    @property
    def pool_dependent(self) -> bool:
        """Whether a pair's decision depends on the other algorithms (rank-pool tests)."""
        return self.entry.pool_dependent

    @property
    def entry(self) -> PairwiseTest:
        """The test's entry of the catalogue (``cdplot.stats._catalogue.CATALOGUE``)."""
        return CATALOGUE[self.test]

    @property
    def label(self) -> str:
        """``"test+correction"``, the options in brackets, ``" vs control"`` appended."""
        text = f"{self.test}+{self.correction}"
        if self.options:
            text += "(" + ",".join(f"{k}={v}" for k, v in sorted(self.options.items())) + ")"
        return text + (f" vs {self.control}" if self.control is not None else "")

    def test_key(self) -> tuple[str, tuple[tuple[str, Any], ...]]:
        """What decides the raw p-values: the test and its options (shared across corrections)."""
        return self.test, tuple(sorted(self.options.items()))

    def hypotheses(self, k: int, algorithms: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Index arrays (a, b) of the pairs this procedure tests."""
        if self.control is None:
            return np.triu_indices(k, 1)
        c = list(algorithms).index(self.control)
        others = np.array([j for j in range(k) if j != c], dtype=np.intp)
        return np.full(others.size, c, dtype=np.intp), others
