"""The readable summary of a benchmark plan."""

from __future__ import annotations

from typing import Any

__all__ = ["plan_text"]

#: tasks listed by name in the summary at most
MAX_NOISY_LISTED = 10


def _pm(value: float | None, se: float | None, fmt: str = ".3g") -> str:
    if value is None:
        return "n/a"
    if se is None or se != se:
        return format(value, fmt)
    return f"{value:{fmt}} ± {se:.2g}"


def plan_text(res: Any) -> str:
    """The summary of ``res`` (a :class:`PlanResult`) as lines of text."""
    a, b = res.pair
    unit = res.unit
    lines = [
        f"Benchmark plan: {res.procedure} at alpha = {res.alpha:g}, target power {res.power:.0%}",
        f"pilot: {res.n_current} {unit}, {res.model} model, {res.n_replicates:,} replicates "
        f"per design point (± one Monte Carlo standard error)",
        "",
    ]
    if res.mdd is not None:
        lines.append(
            f"minimum detectable difference {a} - {b} at {res.n_current} {unit}: "
            f"{_pm(res.mdd, res.mdd_se)} (effect size d_z = {res.mdd_effect:.3g})"
        )
    elif "difference" in res.evaluations:
        lines.append(f"minimum detectable difference {a} - {b}: not reached at {res.n_current} "
                     f"{unit}")  # fmt: skip
    if res.n_needed is None:
        lines.append(
            f"{unit} needed to detect {a} - {b} = {res.difference:.3g}: more than the "
            f"{res.settings.get('max_n')} searched"
        )
    else:
        lines.append(
            f"{unit} needed to detect {a} - {b} = {res.difference:.3g}: "
            f"{_pm(res.n_needed, res.n_needed_se, 'd')} "
            f"(power there {_pm(res.n_power, res.n_power_se)})"
        )
    if res.top is not None:
        if res.n_top is None:
            lines.append(f"{unit} needed to separate the top {res.top}: more than the "
                         f"{res.settings.get('max_n')} searched")  # fmt: skip
        else:
            lines.append(
                f"{unit} needed to separate the top {res.top}: "
                f"{_pm(res.n_top, res.n_top_se, 'd')} (probability "
                f"{_pm(res.top_power, res.top_power_se)})"
            )
    if res.tie_classes is not None:
        lines.append(
            f"expected tie classes there: {_pm(res.tie_classes, res.tie_classes_se)} of "
            f"{len(res.settings.get('algorithms', ())) or '?'} models"
        )
    sn = res.signal_noise
    if sn is not None:
        noisy = [t for t, flag in zip(sn.tasks, sn.noisy, strict=True) if flag]
        lines.append("")
        lines.append(
            f"signal-to-noise per task ({sn.source}): median {_median(sn.ratio):.3g}; "
            f"{len(noisy)} of {len(sn.tasks)} tasks add mostly noise (ratio < 1)"
        )
        if noisy:
            shown = ", ".join(noisy[:MAX_NOISY_LISTED])
            more = (
                f" and {len(noisy) - MAX_NOISY_LISTED} more"
                if len(noisy) > MAX_NOISY_LISTED
                else ""
            )
            lines.append(f"  noisy: {shown}{more}")
    return "\n".join(lines)


def _median(values: Any) -> float:
    ordered = sorted(float(v) for v in values)
    m = len(ordered)
    return ordered[m // 2] if m % 2 else 0.5 * (ordered[m // 2 - 1] + ordered[m // 2])
