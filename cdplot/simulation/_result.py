"""The result of a simulation study: rejection rates, FWER, power and FDR with Monte Carlo
standard errors."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["PowerCurveResult", "SimulationResult"]

#: summary measures, in the order of :meth:`SimulationResult.summary`
MEASURES = ("fwer", "power_any", "power_all", "power_avg", "fdr")
#: the Bayesian procedures' measures (decisions, not rejections), in summary order
BAYES_MEASURES = (
    "wrong_better_rate",
    "correct_better_rate",
    "equivalent_rate_equal",
    "equivalent_rate_different",
)
#: column of the frame per decision of a Bayesian test on a pair (a, b)
DECISION_COLUMNS = ("a_better_rate", "equivalent_rate", "b_better_rate")


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Monte Carlo estimates of a simulation study (see :func:`cdplot.simulate`).

    Attributes
    ----------
    procedures : tuple of str
        The procedures' labels ``"test+correction"`` (``" vs control"`` in control mode).
    algorithms : tuple of str
        The model's algorithms.
    n_replicates : int
        Number of simulated tables; every procedure ran on the same tables.
    alpha : float
        Significance level at which hypotheses are rejected (APV <= alpha).
    settings : dict
        The model's description, the procedures, ``random_state`` (the seed entropy that
        reproduces the study), the seed block size, chunk size, back end, ``n_jobs``,
        ``workers``, ``elapsed_s`` (wall clock) and ``cpu_s`` (CPU seconds of the chunks,
        summed over the processes that ran them).
    truth_known : bool
        Whether the model says which pairs perform alike (else FWER, power and FDR are NaN).

    Notes
    -----
    With R replicates, V_r false and S_r true rejections in replicate r, and m_1 false null
    hypotheses: ``FWER = mean(V_r > 0)``, ``power_any = mean(S_r > 0)``,
    ``power_all = mean(S_r = m_1)``, ``power_avg = mean(S_r) / m_1`` and
    ``FDR = mean(V_r / max(V_r + S_r, 1))``. A proportion p has standard error
    ``sqrt(p (1 - p) / R)``; a mean of per-replicate values has ``sd / sqrt(R)``.

    A Bayesian procedure (``bayes-signed-rank``, ``bayes-sign``) rejects nothing: it decides
    each pair "a better", "equivalent", "b better" or "undecided" (its FWER, power and FDR
    are NaN). Its measures, over the replicates and the tested pairs, are with m pairs of
    which m_0 are truly equivalent (``true_null``) and m_1 truly different (the truly
    better one has the larger ``model.true_effects``):
    ``wrong_better_rate = mean(W_r) / m``, W_r the pairs decided "better" for an algorithm
    not truly better (the pair is truly equivalent, or the other one is truly better);
    ``correct_better_rate = mean(C_r) / m_1``, C_r the pairs decided "better" for the truly
    better one; ``equivalent_rate_equal = mean(E0_r) / m_0`` and
    ``equivalent_rate_different = mean(E1_r) / m_1``, E0_r and E1_r the truly equivalent
    and truly different pairs decided "equivalent". Each is NaN when its denominator is
    zero or the model does not know the truth it needs; standard errors as above (means of
    per-replicate proportions).
    """

    procedures: tuple[str, ...]
    algorithms: tuple[str, ...]
    n_replicates: int
    alpha: float
    settings: dict[str, Any]
    truth_known: bool
    _pairs: dict[str, tuple[np.ndarray, np.ndarray]] = field(repr=False)
    _specs: dict[str, tuple[str, str, str | None]] = field(repr=False)
    _counts: dict[str, np.ndarray] = field(repr=False)
    _false: dict[str, np.ndarray] = field(repr=False)
    _true: dict[str, np.ndarray] = field(repr=False)
    _apv_sums: dict[str, np.ndarray] = field(repr=False)
    _truth: np.ndarray | None = field(repr=False)
    _bayes: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)
    _direction_known: bool = field(default=False, repr=False)

    # ---------------------------------------------------------------- tidy tables
    def to_frame(self) -> pd.DataFrame:
        """One row per procedure and tested pair.

        Columns: ``procedure``, ``test``, ``correction``, ``control``, ``a``, ``b``,
        ``true_null`` (None when unknown), ``rejections``, ``rejection_rate`` and ``se``
        (its binomial Monte Carlo standard error), ``mean_apv`` and ``mean_apv_se`` (the
        average adjusted p-value, Demšar's (2006, §4.1.2) second measure of power, and its
        standard error). With Bayesian procedures, also ``a_better_rate``,
        ``equivalent_rate`` and ``b_better_rate``: the share of replicates in which the pair
        was decided so (NaN for the frequentist rows; the rejection columns are NaN for the
        Bayesian rows).
        """
        rows = []
        n = self.n_replicates
        for label in self.procedures:
            if label in self._bayes:
                rows.extend(self._bayes_rows(label))
                continue
            a, b = self._pairs[label]
            s1, s2 = self._apv_sums[label]
            mean = s1 / n
            var = np.maximum(s2 - n * mean * mean, 0.0) / max(n - 1, 1)
            mean_se = np.sqrt(var / n) if n > 1 else np.full_like(mean, math.nan)
            for h, (i, j) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
                count = int(self._counts[label][h])
                rate = count / n
                rows.append(
                    {
                        **self._row_head(label, i, j),
                        "rejections": count,
                        "rejection_rate": rate,
                        "se": _binomial_se(rate, n),
                        "mean_apv": float(mean[h]),
                        "mean_apv_se": float(mean_se[h]),
                    }
                )
                if self._bayes:
                    rows[-1].update(dict.fromkeys(DECISION_COLUMNS, math.nan))
        return pd.DataFrame(rows)

    def _row_head(self, label: str, i: int, j: int) -> dict[str, Any]:
        """The columns that name a frame row: procedure, its parts, the pair, the truth."""
        test, correction, control = self._specs[label]
        return {
            "procedure": label,
            "test": test,
            "correction": correction,
            "control": control,
            "a": self.algorithms[i],
            "b": self.algorithms[j],
            "true_null": None if self._truth is None else bool(self._truth[i, j]),
        }

    def _bayes_rows(self, label: str) -> list[dict[str, Any]]:
        a, b = self._pairs[label]
        counts = self._bayes[label][0]
        rows = []
        for h, (i, j) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
            row = self._row_head(label, i, j)
            row.update(dict.fromkeys(("rejections", "rejection_rate", "se", "mean_apv"), math.nan))
            row["mean_apv_se"] = math.nan
            for column, count in zip(DECISION_COLUMNS, counts[:, h].tolist(), strict=True):
                row[column] = count / self.n_replicates
            rows.append(row)
        return rows

    def rejection_rates(self, procedure: str) -> pd.DataFrame:
        """k x k matrix of one procedure's per-pair rejection rates (NaN where untested)."""
        label = self._label(procedure)
        if label in self._bayes:
            from .._errors import CdplotInputError

            raise CdplotInputError(
                f"{label!r} is a Bayesian procedure: it decides, it does not reject; read its "
                "decision rates from to_frame() (a_better_rate, equivalent_rate, "
                "b_better_rate) or summary()."
            )
        k = len(self.algorithms)
        mat = np.full((k, k), np.nan)
        a, b = self._pairs[label]
        rate = self._counts[label] / self.n_replicates
        mat[a, b] = rate
        mat[b, a] = rate
        names = pd.Index(self.algorithms, dtype=object, name="algorithm")
        return pd.DataFrame(mat, index=names, columns=names)

    def _label(self, procedure: str) -> str:
        if procedure in self._pairs:
            return procedure
        from .._errors import CdplotInputError, suggest

        raise CdplotInputError(
            f"{procedure!r} is not a procedure of this study; they are "
            f"{', '.join(repr(p) for p in self.procedures)}." + suggest(procedure, self.procedures)
        )

    # ---------------------------------------------------------------- summary measures
    def _n_false(self, label: str) -> int:
        if self._truth is None:
            return 0
        a, b = self._pairs[label]
        return int((~self._truth[a, b]).sum())

    def _measure(self, name: str) -> tuple[pd.Series, pd.Series]:
        values, ses = [], []
        n = self.n_replicates
        for label in self.procedures:
            est, se = math.nan, math.nan
            if label in self._bayes:  # decides, rejects nothing
                values.append(est)
                ses.append(se)
                continue
            v = self._false[label]
            s = self._true[label]
            m1 = self._n_false(label)
            if self.truth_known:
                if name == "fwer":
                    est = float(np.count_nonzero(v)) / n
                    se = _binomial_se(est, n)
                elif name == "fdr":
                    fdp = v / np.maximum(v + s, 1)
                    est, se = _mean_se(fdp)
                elif m1 > 0 and name == "power_any":
                    est = float(np.count_nonzero(s)) / n
                    se = _binomial_se(est, n)
                elif m1 > 0 and name == "power_all":
                    est = float(np.count_nonzero(s == m1)) / n
                    se = _binomial_se(est, n)
                elif m1 > 0 and name == "power_avg":
                    est, se = _mean_se(s / m1)
            values.append(est)
            ses.append(se)
        return self._by_procedure(values, ses, name)

    @property
    def fwer(self) -> pd.Series:
        """Family-wise error rate per procedure: P(at least one true null pair rejected)."""
        return self._measure("fwer")[0]

    @property
    def fwer_se(self) -> pd.Series:
        """Monte Carlo standard error of :attr:`fwer`."""
        return self._measure("fwer")[1]

    @property
    def power_any(self) -> pd.Series:
        """P(at least one false null pair rejected); NaN without false nulls."""
        return self._measure("power_any")[0]

    @property
    def power_any_se(self) -> pd.Series:
        """Monte Carlo standard error of :attr:`power_any`."""
        return self._measure("power_any")[1]

    @property
    def power_all(self) -> pd.Series:
        """P(every false null pair rejected); NaN without false nulls."""
        return self._measure("power_all")[0]

    @property
    def power_all_se(self) -> pd.Series:
        """Monte Carlo standard error of :attr:`power_all`."""
        return self._measure("power_all")[1]

    @property
    def power_avg(self) -> pd.Series:
        """Average power: the expected share of false null pairs rejected."""
        return self._measure("power_avg")[0]

    @property
    def power_avg_se(self) -> pd.Series:
        """Monte Carlo standard error of :attr:`power_avg`."""
        return self._measure("power_avg")[1]

    @property
    def fdr(self) -> pd.Series:
        """False discovery rate: E[false rejections / max(rejections, 1)]."""
        return self._measure("fdr")[0]

    @property
    def fdr_se(self) -> pd.Series:
        """Monte Carlo standard error of :attr:`fdr`."""
        return self._measure("fdr")[1]

    def _by_procedure(
        self, values: list[float], ses: list[float], name: str
    ) -> tuple[pd.Series, pd.Series]:
        index = pd.Index(self.procedures, name="procedure", dtype=object)
        return pd.Series(values, index=index, name=name), pd.Series(ses, index=index, name=name)

    def _bayes_measure(self, name: str) -> tuple[pd.Series, pd.Series]:
        """A Bayesian measure (see the class notes); NaN for the frequentist procedures."""
        which = BAYES_MEASURES.index(name)
        values, ses = [], []
        for label in self.procedures:
            est, se = math.nan, math.nan
            if label in self._bayes and self.truth_known:
                a, b = self._pairs[label]
                equal = int(self._truth[a, b].sum())  # type: ignore[index]
                sizes = (a.size, a.size - equal, equal, a.size - equal)
                known = self._direction_known or which >= 2
                if known and sizes[which] > 0:
                    est, se = _mean_se(self._bayes[label][1][which] / sizes[which])
            values.append(est)
            ses.append(se)
        return self._by_procedure(values, ses, name)

    @property
    def wrong_better_rate(self) -> pd.Series:
        """Bayesian procedures: share of (replicate, pair) decisions "better" for an
        algorithm that is not truly better (NaN for the frequentist ones)."""
        return self._bayes_measure("wrong_better_rate")[0]

    @property
    def wrong_better_rate_se(self) -> pd.Series:
        """Monte Carlo standard error of :attr:`wrong_better_rate`."""
        return self._bayes_measure("wrong_better_rate")[1]

    @property
    def correct_better_rate(self) -> pd.Series:
        """Bayesian procedures: share of truly different pairs decided "better" for the
        truly better algorithm."""
        return self._bayes_measure("correct_better_rate")[0]

    @property
    def correct_better_rate_se(self) -> pd.Series:
        """Monte Carlo standard error of :attr:`correct_better_rate`."""
        return self._bayes_measure("correct_better_rate")[1]

    @property
    def equivalent_rate_equal(self) -> pd.Series:
        """Bayesian procedures: share of truly equivalent pairs decided "equivalent"."""
        return self._bayes_measure("equivalent_rate_equal")[0]

    @property
    def equivalent_rate_equal_se(self) -> pd.Series:
        """Monte Carlo standard error of :attr:`equivalent_rate_equal`."""
        return self._bayes_measure("equivalent_rate_equal")[1]

    @property
    def equivalent_rate_different(self) -> pd.Series:
        """Bayesian procedures: share of truly different pairs decided "equivalent"."""
        return self._bayes_measure("equivalent_rate_different")[0]

    @property
    def equivalent_rate_different_se(self) -> pd.Series:
        """Monte Carlo standard error of :attr:`equivalent_rate_different`."""
        return self._bayes_measure("equivalent_rate_different")[1]

    def summary(self) -> pd.DataFrame:
        """One row per procedure: each measure and its standard error (``<measure>_se``).

        With Bayesian procedures, also the :data:`BAYES_MEASURES` columns (see the class
        notes) and ``decisions_per_table`` (pairs decided "better" or "equivalent").
        """
        cols: dict[str, pd.Series] = {}
        for name in MEASURES:
            est, se = self._measure(name)
            cols[name] = est
            cols[name + "_se"] = se
        cols["rejections_per_table"] = pd.Series(
            [
                math.nan if p in self._bayes else float(np.mean(self._false[p] + self._true[p]))
                for p in self.procedures
            ],
            index=cols["fwer"].index,
        )
        if self._bayes:
            for name in BAYES_MEASURES:
                est, se = self._bayes_measure(name)
                cols[name] = est
                cols[name + "_se"] = se
            cols["decisions_per_table"] = pd.Series(
                [
                    float(self._bayes[p][0].sum()) / self.n_replicates
                    if p in self._bayes
                    else math.nan
                    for p in self.procedures
                ],
                index=cols["fwer"].index,
            )
        return pd.DataFrame(cols)

    def __str__(self) -> str:
        head = (
            f"Simulation study: {self.n_replicates} replicates, k = {len(self.algorithms)}, "
            f"alpha = {self.alpha:g}, model: {self.settings.get('model', {}).get('model', '?')}"
        )
        if not self.truth_known:
            frame = self.to_frame()
            shown = ["procedure", "a", "b", "rejection_rate", "se"]
            if self._bayes:
                shown += list(DECISION_COLUMNS)
            body = frame[shown].to_string(index=False)
            return head + "\n(truth unknown: per-pair rejection and decision rates)\n" + body
        table = self.summary()
        lines = [head, ""]
        width = max(len(p) for p in self.procedures)
        frequentist = [p for p in self.procedures if p not in self._bayes]
        if frequentist:
            lines.append(
                f"{'procedure':<{width}}  {'FWER':>15}  {'power (any)':>15}  "
                f"{'power (all)':>15}  {'FDR':>15}"
            )
            for label in frequentist:
                row = table.loc[label]
                names = ("fwer", "power_any", "power_all", "fdr")
                cells = [_pm(row[m], row[m + "_se"]) for m in names]
                lines.append(f"{label:<{width}}  " + "  ".join(f"{c:>15}" for c in cells))
        if self._bayes:
            if frequentist:
                lines.append("")
            lines.append(
                f"{'Bayesian procedure':<{width}}  {'wrong better':>15}  {'correct better':>15}  "
                f"{'equiv. | equal':>15}  {'equiv. | diff.':>15}"
            )
            for label in self._bayes:
                row = table.loc[label]
                cells = [_pm(row[m], row[m + "_se"]) for m in BAYES_MEASURES]
                lines.append(f"{label:<{width}}  " + "  ".join(f"{c:>15}" for c in cells))
        lines.append("(estimate ± Monte Carlo standard error)")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Plain values for JSON: settings, summary and per-pair rejection rates."""
        summary = self.summary()
        return {
            "n_replicates": self.n_replicates,
            "alpha": self.alpha,
            "algorithms": list(self.algorithms),
            "settings": self.settings,
            "summary": {
                p: {c: _plain(v) for c, v in summary.loc[p].items()} for p in self.procedures
            },
            "pairs": [
                {c: _plain(v) for c, v in row.items()}
                for row in self.to_frame().to_dict(orient="records")
            ],
        }

    def plot(self, **kwargs: Any) -> Any:
        """Draw the estimates with error bars (see ``cdplot.plotting.power_plot``)."""
        from ..plotting._power import power_plot

        return power_plot(self, **kwargs)


@dataclass(frozen=True, eq=False)
class PowerCurveResult:
    """Simulation studies over a grid of effect sizes (see :func:`cdplot.simulate_grid`).

    Attributes
    ----------
    effects : tuple of float
        The grid, in the user's order.
    results : dict
        ``{effect: SimulationResult}``.
    """

    effects: tuple[float, ...]
    results: dict[float, SimulationResult]

    @property
    def procedures(self) -> tuple[str, ...]:
        """The procedures' labels (the same at every grid point)."""
        return next(iter(self.results.values())).procedures

    def summary(self) -> pd.DataFrame:
        """The :meth:`SimulationResult.summary` of every grid point, with an ``effect`` column."""
        frames = []
        for effect in self.effects:
            frame = self.results[effect].summary().reset_index()
            frame.insert(0, "effect", effect)
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

    def to_frame(self) -> pd.DataFrame:
        """The per-pair frames of every grid point, with an ``effect`` column."""
        frames = []
        for effect in self.effects:
            frame = self.results[effect].to_frame()
            frame.insert(0, "effect", effect)
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

    def to_dict(self) -> dict[str, Any]:
        """Plain values for JSON."""
        return {"grid": [{"effect": e, **self.results[e].to_dict()} for e in self.effects]}

    def __str__(self) -> str:
        return "\n\n".join(f"effect = {e:g}\n{self.results[e]}" for e in self.effects)

    def plot(self, **kwargs: Any) -> Any:
        """Power curves over the grid (see ``cdplot.plotting.power_plot``)."""
        from ..plotting._power import power_plot

        return power_plot(self, **kwargs)


def _binomial_se(p: float, n: int) -> float:
    return math.sqrt(p * (1.0 - p) / n) if n > 0 else math.nan


def _mean_se(values: np.ndarray) -> tuple[float, float]:
    n = values.size
    mean = float(np.mean(values))
    se = float(np.std(values, ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return mean, se


def _pm(est: float, se: float) -> str:
    if math.isnan(est):
        return "-"
    return f"{est:.4f} ± {se:.4f}"


def _plain(value: Any) -> Any:
    if isinstance(value, (np.floating, float)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value
