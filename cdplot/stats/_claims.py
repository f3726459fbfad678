"""Claims about a comparison, tested together: :func:`check`.

Each claim (:mod:`._claim_grammar`) is turned into two one-sided hypotheses, each with a
valid p-value:

* ``H_support``, "the claim is false": rejecting it *supports* the claim;
* ``H_contradict``, "the claim is true": rejecting it *contradicts* the claim.

The 2m hypotheses of m claims made together are one family, and Holm's (1979) step-down
procedure at ``alpha`` runs over their 2m p-values. A claim is supported when its
``H_support`` is rejected, contradicted when its ``H_contradict`` is, else undecided. A
wrong verdict (a false claim supported, a true one contradicted) is the rejection of a
true hypothesis of the family, so Holm's strong control of the family-wise error rate
gives: with probability at least ``1 - alpha`` no claim of the family gets a wrong verdict,
whatever the dependence between the claims (Holm needs only valid p-values).

The p-values (``a`` better than ``j`` is ``theta_a > theta_j``, ``theta`` the quantity the
comparison's test compares):

* ``a better than b``: the one-sided p-values of the comparison's own test, ``p(a > b) =
  p/2`` when its evidence points to ``a`` (``1 - p/2`` otherwise), ``p`` its two-sided
  p-value (valid for the symmetric null distributions of the rank, sign, Wilcoxon, t,
  z and exact McNemar tests). Nemenyi's and Tukey's p-values come from the studentized
  range over all k algorithms, already adjusted for the k(k - 1)/2 pairs: valid here, and
  conservative.
* ``a not worse than b by d`` (``theta_a - theta_b > -d``, in score units): the same test
  family on the differences shifted by the margin -- Wilcoxon signed-rank, sign or
  one-sample t test of ``x_a - x_b + d`` over the datasets; over one benchmark's items
  Tango's (1998) score test for paired proportions (0/1 scores) or the paired (cluster-
  robust) t-test with the comparison's standard error.
* ``a among the top r`` (``#{j : theta_j > theta_a} <= r - 1``; ``a is best`` is r = 1):
  ``H_support`` is a union, over the sets S of r rivals, of "every j in S is at least as
  good as a"; each is refused by Bonferroni at ``alpha / r`` and the union by
  intersection-union (Berger 1982): at least k - r of the ``p(a > j)`` must be at most
  ``alpha / r``, i.e. ``p_support = r * p_(k-r)`` (the (k - r)-th smallest). It is valid:
  if r rivals are at least as good as ``a``, rejecting k - r of the k - 1 hypotheses
  rejects one of those r, each with probability at most ``u / r``. Likewise
  ``p_contradict = (k - r) * q_(r)`` with ``q_j = p(j > a)``. For r = 1 these are the
  intersection-union test ``max_j p(a > j)`` and Bonferroni's ``(k - 1) min_j p(j > a)``.

The comparison's own correction is not used: the claims' family is its own.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._errors import CdplotInputError
from ._adjust import adjust_control
from ._claim_grammar import Claim, parse_claim
from ._options import check_alpha
from ._seams import Seam

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["ClaimCheck", "ClaimVerdict", "check"]

#: exit status of ``cdplot check`` for each outcome (2 is bad input or usage)
EXIT_SUPPORTED, EXIT_CONTRADICTED, EXIT_UNDECIDED = 0, 1, 3
VERDICTS = ("supported", "contradicted", "undecided")
#: tests whose direction is that of the average ranks (their statistics are rank means)
_MEAN_TESTS = ("paired-t", "tukey")


@dataclass(frozen=True)
class ClaimVerdict:
    """The verdict on one claim and the evidence that decided it.

    Attributes
    ----------
    claim : Claim
        The parsed claim (``claim.text`` as written).
    verdict : {"supported", "contradicted", "undecided"}
    p_support, p_contradict : float
        The p-values of "the claim is false" and of "the claim is true" (see the module).
    adjusted_support, adjusted_contradict : float
        The same adjusted by Holm over the family of every claim checked together.
    test : str
        The test behind the p-values: the comparison's test (``"wilcoxon"``,
        ``"mcnemar"``, ...), or for a margin ``"wilcoxon-shifted"``, ``"sign-shifted"``,
        ``"t-shifted"``, ``"tango"``.
    evidence : dict
        ``estimate``, ``low``, ``high``, ``confidence``, ``interval`` (the mean difference
        subject minus other in raw score units and its interval) for pair claims; for
        ``best``/``top`` the ``rivals`` (rival -> (p(subject > rival), p(rival >
        subject))), the rival that decided (``deciding``), and when the comparison's
        decisions carry simultaneous coverage its ``rank_interval`` of the subject and
        ``best_set``.
    """

    claim: Claim
    verdict: str
    p_support: float
    p_contradict: float
    adjusted_support: float
    adjusted_contradict: float
    test: str
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class ClaimCheck:
    """The verdicts on claims tested together (:func:`cdplot.check`).

    Attributes
    ----------
    verdicts : tuple of ClaimVerdict
        One per claim, in the order given.
    alpha : float
        The family-wise error rate of the verdicts.
    correction : str
        ``"holm"``: Holm over the two one-sided hypotheses of every claim.
    result : Comparison
        The comparison the claims were checked on.
    exit_code : int
        0 when every claim is supported, 1 when one is contradicted, 3 when none is
        contradicted and one is undecided (``cdplot check``'s exit status).
    """

    verdicts: tuple[ClaimVerdict, ...]
    alpha: float
    correction: str
    result: Any = field(repr=False)

    to_markdown = Seam("cdplot.report._claims", "claims_markdown")
    __str__ = Seam("cdplot.report._claims", "claims_text")

    @property
    def exit_code(self) -> int:
        """0 all supported, 1 one contradicted, 3 one undecided (none contradicted)."""
        found = {v.verdict for v in self.verdicts}
        if "contradicted" in found:
            return EXIT_CONTRADICTED
        return EXIT_UNDECIDED if "undecided" in found else EXIT_SUPPORTED

    @property
    def supported(self) -> bool:
        """Whether every claim is supported."""
        return self.exit_code == EXIT_SUPPORTED

    def to_frame(self) -> pd.DataFrame:
        """One row per claim: ``claim``, ``verdict``, the p-values (raw and adjusted),
        ``test``, and the ``estimate``, ``low``, ``high`` of a pair claim."""
        import pandas as pd

        rows = [
            {
                "claim": v.claim.text,
                "verdict": v.verdict,
                "p_support": v.p_support,
                "p_contradict": v.p_contradict,
                "adjusted_support": v.adjusted_support,
                "adjusted_contradict": v.adjusted_contradict,
                "test": v.test,
                "estimate": v.evidence.get("estimate", math.nan),
                "low": v.evidence.get("low", math.nan),
                "high": v.evidence.get("high", math.nan),
            }
            for v in self.verdicts
        ]
        return pd.DataFrame(rows)


# --------------------------------------------------------------------------- evidence


def _is_benchmark(result: Any) -> bool:
    return hasattr(result, "_benchmark")


class _Pairs:
    """One-sided p-values and differences of the pairs of a frequentist comparison."""

    def __init__(self, result: Any) -> None:
        self.result = result
        self.names = [str(a) for a in result.algorithms]
        self.where = {a: i for i, a in enumerate(self.names)}
        self.scores = np.asarray(result._input.scores, dtype=float)
        self.sign = 1.0 if result.higher_is_better else -1.0
        self.pvalues = np.asarray(result._pairwise.pvalues, dtype=float)
        self._directions: dict[tuple[str, str], float] = {}

    def oriented(self, a: str, b: str) -> np.ndarray:
        """``x_a - x_b`` over the datasets (items) both have, oriented: positive = a better."""
        d = self.sign * (self.scores[:, self.where[a]] - self.scores[:, self.where[b]])
        return d[~np.isnan(d)]

    def direction(self, a: str, b: str) -> float:
        """> 0 when the comparison's test points to ``a`` better than ``b``, < 0 to ``b``."""
        if (b, a) in self._directions:
            return -self._directions[(b, a)]
        if (a, b) not in self._directions:
            self._directions[(a, b)] = self._direction(a, b)
        return self._directions[(a, b)]

    def _direction(self, a: str, b: str) -> float:
        result, i, j = self.result, self.where[a], self.where[b]
        if _is_benchmark(result):
            return self.sign * float(result._benchmark.pair_statistics.difference[i, j])
        d = self.oriented(a, b)
        if result.test == "wilcoxon":
            from scipy.stats import rankdata

            nz = d[d != 0]
            return float(np.sum(np.sign(nz) * rankdata(np.abs(nz)))) if nz.size else 0.0
        if result.test == "sign":
            return float(np.sum(np.sign(d)))
        if result.test in _MEAN_TESTS:
            return float(np.mean(d)) if d.size else 0.0
        part = result._ranking  # the test's own ranks (aligned, Quade-weighted, ...)
        rank = dict(zip(map(str, part.rank_order), part.average_ranks, strict=True))
        return float(rank[b] - rank[a])

    def better(self, a: str, b: str) -> float:
        """p(a better than b): the one-sided p-value of the comparison's test."""
        p = float(self.pvalues[self.where[a], self.where[b]])
        if math.isnan(p):
            raise CdplotInputError(
                f"the comparison has no p-value for {a!r} and {b!r} (no dataset on which both "
                "have a result); add their missing results, or leave this claim out."
            )
        return min(1.0, p / 2) if self.direction(a, b) > 0 else 1.0 - p / 2

    def difference(self, a: str, b: str, confidence: float) -> dict[str, Any]:
        """The mean of ``x_a - x_b`` (raw score units) with its interval."""
        result, i, j = self.result, self.where[a], self.where[b]
        if _is_benchmark(result):
            pairs = result._benchmark.pair_statistics
            return {
                "estimate": float(pairs.difference[i, j]),
                "low": float(pairs.low[i, j]),
                "high": float(pairs.high[i, j]),
                "confidence": float(pairs.confidence),
                "interval": pairs.interval,
                "n": int(pairs.n_items[i, j]),
            }
        from scipy import stats

        d = self.sign * self.oriented(a, b)  # raw: a minus b
        n = d.size
        mean = float(np.mean(d)) if n else math.nan
        half = math.nan
        if n > 1:
            se = float(np.std(d, ddof=1)) / math.sqrt(n)
            half = float(stats.t.ppf(0.5 + confidence / 2, n - 1)) * se
        return {
            "estimate": mean,
            "low": mean - half,
            "high": mean + half,
            "confidence": confidence,
            "interval": "t",
            "n": n,
        }

    def not_worse(self, a: str, b: str, margin: float) -> tuple[float, float, str]:
        """(p_support, p_contradict, test) of ``theta_a - theta_b > -margin``."""
        if _is_benchmark(self.result):
            return self._not_worse_items(a, b, margin)
        from scipy import stats

        shifted = self.oriented(a, b) + margin
        test = self.result.test
        if shifted.size == 0 or not np.any(shifted):
            return 1.0, 1.0, f"{test if test in ('wilcoxon', 'sign') else 't'}-shifted"
        if test == "wilcoxon":
            zero = self.result.test_options.get("zero_method", "wilcox")
            with warnings.catch_warnings():  # scipy says it switches to the normal tail
                warnings.simplefilter("ignore", UserWarning)
                up = stats.wilcoxon(shifted, zero_method=zero, alternative="greater").pvalue
                down = stats.wilcoxon(shifted, zero_method=zero, alternative="less").pvalue
            return float(up), float(down), "wilcoxon-shifted"
        if test == "sign":
            pos, neg = int(np.sum(shifted > 0)), int(np.sum(shifted < 0))
            up = stats.binomtest(pos, pos + neg, 0.5, alternative="greater").pvalue
            down = stats.binomtest(pos, pos + neg, 0.5, alternative="less").pvalue
            return float(up), float(down), "sign-shifted"
        if shifted.size < 2:
            return 1.0, 1.0, "t-shifted"  # no variance to test against: undecided
        if np.all(shifted == shifted[0]):
            return (*_constant(float(shifted[0])), "t-shifted")
        up = stats.ttest_1samp(shifted, 0.0, alternative="greater").pvalue
        return float(up), float(1.0 - up), "t-shifted"

    def _not_worse_items(self, a: str, b: str, margin: float) -> tuple[float, float, str]:
        from scipy import stats

        result, i, j = self.result, self.where[a], self.where[b]
        if result.test == "mcnemar":  # Tango's score test of the paired proportions
            from ._benchmark_pairs import _tango_z

            x = self.scores[:, [i, j]]
            x = x[~np.isnan(x).any(axis=1)]
            if self.sign < 0:
                x = 1.0 - x  # a 0 is the better score: count the items each did better
            n = float(x.shape[0])
            b_ = float(np.sum((x[:, 0] == 1) & (x[:, 1] == 0)))
            c_ = float(np.sum((x[:, 0] == 0) & (x[:, 1] == 1)))
            with np.errstate(invalid="ignore", divide="ignore"):
                z = float(_tango_z(np.array(-margin), np.array(b_), np.array(c_), np.array(n)))
            if math.isnan(z):
                return 1.0, 1.0, "tango"
            return float(stats.norm.sf(z)), float(stats.norm.cdf(z)), "tango"
        pairs = result._benchmark.pair_statistics
        shift = self.sign * float(pairs.difference[i, j]) + margin
        se = float(pairs.se[i, j])
        df = None if pairs.df is None else float(pairs.df[i, j])
        if not se > 0:
            return (*_constant(shift), "t-shifted")
        dist = stats.norm if df is None else stats.t(df)
        up = float(dist.sf(shift / se))
        return up, 1.0 - up, "t-shifted"


def _constant(shift: float) -> tuple[float, float]:
    """(p_support, p_contradict) of a difference without spread: the limits of the t-test's
    p-values as the spread vanishes (0 on the side of the shift, 1 on the other)."""
    if shift == 0:
        return 1.0, 1.0
    return (0.0, 1.0) if shift > 0 else (1.0, 0.0)


def _top_pvalues(pairs: _Pairs, subject: str, top: int) -> tuple[float, float, dict[str, Any]]:
    """(p_support, p_contradict, evidence) of "subject among the top ``top``" (see module)."""
    rivals = [n for n in pairs.names if n != subject]
    k = len(pairs.names)
    up = {j: pairs.better(subject, j) for j in rivals}
    down = {j: 1.0 - up[j] if pairs.direction(subject, j) != 0 else up[j] for j in rivals}
    by_up = sorted(rivals, key=lambda j: (up[j], j))
    by_down = sorted(rivals, key=lambda j: (down[j], j))
    support_rival = by_up[k - top - 1]
    contra_rival = by_down[top - 1]
    p_support = min(1.0, top * up[support_rival])
    p_contra = min(1.0, (k - top) * down[contra_rival])
    evidence: dict[str, Any] = {
        "rivals": {j: (up[j], down[j]) for j in by_up},
        "deciding": {"support": support_rival, "contradict": contra_rival},
    }
    evidence.update(_rank_evidence(pairs.result, subject))
    return p_support, p_contra, evidence


def _rank_evidence(result: Any, subject: str) -> dict[str, Any]:
    """The subject's rank interval and the set of the best from the comparison's own
    decisions, when they carry simultaneous coverage (else nothing)."""
    from ._intervals import decision_bounds

    bounds = decision_bounds(result)
    if bounds is None:
        return {}
    order, low, high = bounds
    i = list(order).index(subject)
    return {
        "rank_interval": (int(low[i]), int(high[i])),
        "best_set": tuple(a for a, lo in zip(order, low, strict=True) if lo == 1),
        "rank_confidence": 1.0 - float(result.alpha),
    }


def _evaluate(pairs: _Pairs, claim: Claim, confidence: float) -> tuple[float, float, str, dict]:
    """(p_support, p_contradict, test, evidence) of one claim."""
    if claim.kind in ("best", "top"):
        p_s, p_c, evidence = _top_pvalues(pairs, claim.subject, int(claim.top or 1))
        return p_s, p_c, str(pairs.result.test), evidence
    other = str(claim.other)
    evidence = pairs.difference(claim.subject, other, confidence)
    if claim.kind == "better":
        up = pairs.better(claim.subject, other)
        down = 1.0 - up if pairs.direction(claim.subject, other) != 0 else up
        return up, down, str(pairs.result.test), evidence
    margin = float(claim.margin or 0.0)
    up, down, test = pairs.not_worse(claim.subject, other, margin)
    evidence["margin"] = margin
    return up, down, test, evidence


# --------------------------------------------------------------------------- check


def _comparison(result_or_data: Any, options: Mapping[str, Any]) -> Any:
    from ._results import BayesianComparisonResult, Comparison

    if isinstance(result_or_data, Comparison):
        if options:
            raise CdplotInputError(
                f"check() got a comparison and the options {', '.join(sorted(options))} "
                "of compare(); give the options to compare(), or pass the data to check()."
            )
        result = result_or_data
    else:
        from ._compare import compare

        result = compare(result_or_data, **options)
    if isinstance(result, BayesianComparisonResult):
        raise CdplotInputError(
            "check() tests claims with p-values and controls the family-wise error of its "
            f"verdicts, and --test {result.test} gives posterior probabilities; compare "
            "with a frequentist test (e.g. test='wilcoxon') to check claims."
        )
    return result


def _claims_list(claims: Any) -> list[Any]:
    if isinstance(claims, str):
        return [claims]
    if not isinstance(claims, Iterable):
        raise CdplotInputError(
            f"claims= takes a list of claims, got {type(claims).__name__}; e.g. "
            "claims=['A is best', 'A better than B']."
        )
    listed = list(claims)
    if not listed:
        raise CdplotInputError(
            "claims= is empty; give at least one claim, e.g. claims=['A is best']."
        )
    return listed


def check(
    result_or_data: Any,
    claims: Sequence[str | Claim] | str,
    *,
    alpha: float | None = None,
    **options: Any,
) -> ClaimCheck:
    """Test claims about the algorithms of a comparison, together.

    Each claim is answered supported, contradicted or undecided, with the evidence that
    decided it; the claims are one family, whose family-wise error rate (a false claim
    supported or a true one contradicted) is at most ``alpha``.

    Parameters
    ----------
    result_or_data : ComparisonResult, BenchmarkComparison or data
        A frequentist comparison of :func:`cdplot.compare` (over datasets, or one
        benchmark's items), or what :func:`cdplot.compare` takes (then compared with
        ``**options``).
    claims : sequence of str, or str
        Claims in the grammar ``"NAME is best"``, ``"NAME among the top N"``, ``"NAME
        better than NAME"``, ``"NAME not worse than NAME by MARGIN"`` (MARGIN >= 0 in
        score units; see :data:`cdplot.stats._claim_grammar.CLAIM_GRAMMAR`).
    alpha : float, optional
        Family-wise error rate of the verdicts; default the comparison's ``alpha``.
    **options
        Keywords of :func:`cdplot.compare`, when data are given.

    Returns
    -------
    ClaimCheck
        ``verdicts`` (one :class:`ClaimVerdict` each), ``exit_code``, ``to_frame()``,
        ``to_markdown()`` and ``str()``.

    Raises
    ------
    CdplotInputError
        An unreadable claim (with the grammar), an unknown model (with the nearest
        names), a negative margin, a Bayesian comparison, or no claims.

    Notes
    -----
    Every claim gives two one-sided hypotheses ("the claim is false", "the claim is
    true"); Holm's procedure runs over the 2m p-values of m claims. A claim is supported
    when "false" is rejected, contradicted when "true" is. "Is best" and "among the top
    N" are intersection-union tests over the rivals (Berger 1982); see the module
    :mod:`cdplot.stats._claims` for the derivation.

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. *Scand. J.
    Statist.* 6, 65-70. Berger, R. L. (1982). Multiparameter hypothesis testing and
    acceptance sampling. *Technometrics* 24, 295-300. Tango, T. (1998). Equivalence test
    and confidence interval for the difference in proportions for the paired-sample
    design. *Statistics in Medicine* 17, 891-908.

    Examples
    --------
    >>> import cdplot
    >>> res = cdplot.compare(cdplot.datasets.load("demsar2006"))
    >>> out = cdplot.check(res, ["C4.5+m+cf better than C4.5"])
    >>> out.verdicts[0].verdict, out.exit_code
    ('supported', 0)
    """
    given = _claims_list(claims)
    result = _comparison(result_or_data, options)
    level = check_alpha(result.alpha if alpha is None else alpha)
    names = [str(a) for a in result.algorithms]
    parsed = [c if isinstance(c, Claim) else parse_claim(c, names, result.labels) for c in given]
    for claim in parsed:
        for name in (claim.subject, claim.other):
            if name is not None and name not in names:
                raise CdplotInputError(
                    f"the claim {claim.text!r} names {name!r}, which is not a model of the "
                    f"comparison; the models are {', '.join(map(repr, names[:20]))}."
                )
    pairs = _Pairs(result)
    confidence = 1.0 - level
    found = [_evaluate(pairs, claim, confidence) for claim in parsed]
    m = len(found)
    raw = np.array([f[0] for f in found] + [f[1] for f in found], dtype=float)
    adjusted = adjust_control(raw, "holm")
    verdicts = []
    for c, (claim, (p_s, p_c, test, evidence)) in enumerate(zip(parsed, found, strict=True)):
        a_s, a_c = float(adjusted[c]), float(adjusted[m + c])
        supported, contradicted = a_s <= level, a_c <= level
        verdict = (
            "supported"
            if supported and not contradicted
            else "contradicted"
            if contradicted and not supported
            else "undecided"
        )
        verdicts.append(ClaimVerdict(claim, verdict, p_s, p_c, a_s, a_c, test, evidence))
    return ClaimCheck(tuple(verdicts), level, "holm", result)
