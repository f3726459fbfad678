"""Benchmark: the interactive HTML page in Chromium, against a static page of the same content.

Targets: at k = 300 algorithms and N = 100 datasets the page loads in at most 1 s, a click
on one dataset's checkbox recomputes it in at most 100 ms, and the file is at most 2 MB;
the same on TabArena's shape (78 methods -- 26 model families, each default, tuned and
tuned + ensembled -- on 51 datasets, the metric an error, lower is better: 1 - ROC AUC
on 30 binary tasks, log loss on 8 multiclass tasks, RMSE on 13 regression tasks).

Times are taken in the browser with ``performance.now()`` (Debian's chromium driven by
Playwright, no download):

* load: from navigation start until the page's script has drawn and the next frame is
  laid out (``requestAnimationFrame`` then a task);
* click: ``box.click()`` on one checkbox -- the script's recomputation and redraw -- and
  until the next frame is laid out.

The floor, measured in the same run and taking turns with the page round by round: the
same page after it has drawn, saved as static HTML (the same elements and SVG nodes, the
same payload blob, parsed by a one-line script), and a click there that writes the same
table rows and the same figure again (``innerHTML``: the DOM work alone). An empty page's
load is printed for scale. Medians with min-max over the rounds, per-round ratios, and the
load average before and after.

Run ``python benchmarks/page.py [--rounds R] [--clicks C]`` (default 5 rounds, 5 clicks
per round).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]

#: Model families in the style of TabArena's leaderboard (26 x 3 variants = 78 methods).
FAMILIES = [
    "REALTABPFN-V2.5", "TABPFNV2", "TABM", "CATBOOST", "LIGHTGBM", "XGBOOST", "MODERNNCA",
    "REALMLP", "TABICL", "EBM", "FASTAIMLP", "TORCHMLP", "RANDOMFOREST", "EXTRATREES", "KNN",
    "LINEARMODEL", "TABDPT", "MITRA", "XRFM", "BETA-TABPFN", "TABFLEX", "LIMIX", "AUTOGLUON",
    "SAP-RPT-OSS", "PERPETUAL", "GRANDE",
]  # fmt: skip
VARIANTS = ["(default)", "(tuned)", "(tuned + ensemble)"]

#: Until the next frame after the current task (layout and paint included).
NEXT_FRAME = "new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))"

LOAD = f"""async () => {{ await {NEXT_FRAME}; return performance.now(); }}"""

CLICK = f"""async (i) => {{
    const t0 = performance.now();
    const box = document.querySelectorAll('input[data-dataset]')[i];
    if (box) box.click(); else window.floorClick();
    const script = performance.now() - t0;
    await {NEXT_FRAME};
    return [script, performance.now() - t0];
}}"""

#: The floor page's click: the same rows and figure written again.
FLOOR_SCRIPT = """<script>
JSON.parse(document.querySelector('script.cdplot-payload').textContent);
window.floorClick = function () {
  const body = document.querySelector('.cdplot-live-table tbody');
  const fig = document.querySelector('.cdplot-live-figure');
  const rows = body.innerHTML, drawn = fig.innerHTML;
  body.innerHTML = ''; fig.innerHTML = '';
  body.innerHTML = rows; fig.innerHTML = drawn;
};
</script>"""


def chromium() -> str:
    """The system's chromium (Debian's package), as the browser tests find it."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("page.py needs a chromium binary on PATH (Debian: apt install chromium)")


def board(k: int, n: int, seed: int = 45) -> pd.DataFrame:
    """Normal scores with a trend over the algorithms (higher is better)."""
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(n, k)) + np.linspace(0.0, 3.0, k)
    return pd.DataFrame(
        scores,
        columns=[f"model_{j:03d}" for j in range(k)],
        index=[f"dataset_{i:03d}" for i in range(n)],
    )


def tabarena(seed: int = 51) -> pd.DataFrame:
    """78 methods x 51 datasets of errors (lower is better) on three scales."""
    rng = np.random.default_rng(seed)
    names = [f"{f} {v}" for f in FAMILIES for v in VARIANTS]
    skill = np.linspace(1.0, 0.0, len(names)) + rng.normal(0, 0.15, len(names))
    tasks = [("binary", 30), ("multiclass", 8), ("regression", 13)]
    rows, index = [], []
    for kind, count in tasks:
        for t in range(count):
            base = {"binary": 0.12, "multiclass": 0.6, "regression": 3.5}[kind]
            base *= rng.uniform(0.3, 2.0)
            noise = rng.normal(0, 0.25, len(names))
            rows.append(base * np.exp(0.4 * (1 - skill) + 0.1 * noise))  # 1-AUC, log loss, RMSE
            index.append(f"{kind}_{t:02d}")
    return pd.DataFrame(np.array(rows), columns=names, index=index)


def write_pages(folder: Path, name: str, data: pd.DataFrame, **kwargs) -> tuple[Path, Path]:
    """The page, and the floor page written from the page as drawn in the browser."""
    import cdplot
    from cdplot.report import to_html

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cdplot.compare(data, **kwargs)
        html = to_html(res)
    page = folder / f"{name}.html"
    page.write_text(html, encoding="utf-8")
    return page, folder / f"{name}-floor.html"


def snapshot(context, page: Path, floor: Path) -> None:
    """The page as drawn, saved static: scripts removed, the payload kept, FLOOR_SCRIPT."""
    tab = context.new_page()
    tab.goto(page.as_uri(), wait_until="load")
    html = tab.evaluate(
        """() => {
            const doc = document.documentElement.cloneNode(true);
            doc.querySelectorAll('script:not(.cdplot-payload)').forEach((s) => s.remove());
            doc.querySelectorAll('input[data-dataset]')
                .forEach((b) => b.removeAttribute('data-dataset'));
            return '<!DOCTYPE html>' + doc.outerHTML;
        }"""
    )
    tab.close()
    floor.write_text(html.replace("</body>", FLOOR_SCRIPT + "</body>"), encoding="utf-8")


def visit(context, path: Path, clicks: int) -> tuple[float, list[float], list[float]]:
    """Load time (ms), and per click the script's and the until-next-frame times (ms)."""
    tab = context.new_page()
    tab.set_viewport_size({"width": 1280, "height": 900})
    tab.goto(path.as_uri(), wait_until="load")
    load = tab.evaluate(LOAD)
    script, frame = [], []
    for c in range(clicks):
        s, f = tab.evaluate(CLICK, 3 + 5 * c)
        script.append(s)
        frame.append(f)
    tab.close()
    return load, script, frame


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):7.1f} ({min(values):.1f}-{max(values):.1f})"


def run(cases: dict[str, tuple[Path, Path]], empty: Path, rounds: int, clicks: int) -> None:
    from playwright import sync_api

    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium(), args=FLAGS)
        context = browser.new_context()
        for page, floor in cases.values():
            snapshot(context, page, floor)
        visit(context, empty, 0)  # warm the browser
        got: dict[str, dict[str, list[float]]] = {}
        for _ in range(rounds):
            empty_load = visit(context, empty, 0)[0]
            for name, (page, floor) in cases.items():
                m = got.setdefault(name, {})
                load, script, frame = visit(context, page, clicks)
                f_load, f_script, f_frame = visit(context, floor, clicks)
                rows = {
                    "load": load, "click (script)": statistics.median(script),
                    "click (frame)": statistics.median(frame), "floor load": f_load,
                    "floor click (frame)": statistics.median(f_frame), "empty page": empty_load,
                }  # fmt: skip
                for key, value in rows.items():
                    m.setdefault(key, []).append(value)
                m.setdefault("load / floor", []).append(load / f_load)
                m.setdefault("click / floor", []).append(
                    statistics.median(frame) / statistics.median(f_frame)
                )
        browser.close()
    for name, (page, floor) in cases.items():
        size = page.stat().st_size
        print(f"\n{name}: {size / 1e6:.2f} MB ({floor.stat().st_size / 1e6:.2f} MB as drawn)")
        for key, values in got[name].items():
            unit = "x" if "/" in key else "ms"
            print(f"  {key:22s} {summary(values)} {unit}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clicks", type=int, default=5)
    args = parser.parse_args()
    print("uptime:", os.popen("uptime").read().strip())
    print(f"Python {sys.version.split()[0]}, {args.rounds} rounds, {args.clicks} clicks each")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        t0 = time.perf_counter()
        cases = {
            "k = 300, N = 100, Wilcoxon + Holm (the default)": write_pages(
                folder, "k300", board(300, 100)
            ),
            "k = 300, N = 100, Nemenyi": write_pages(
                folder, "k300-nemenyi", board(300, 100), test="nemenyi"
            ),
            "TabArena shape, k = 78, N = 51, errors, Wilcoxon + Holm": write_pages(
                folder, "tabarena", tabarena(), higher_is_better=False
            ),
        }
        print(f"pages written in {time.perf_counter() - t0:.1f} s")
        empty = folder / "empty.html"
        empty.write_text("<!DOCTYPE html><html><body></body></html>", encoding="utf-8")
        run(cases, empty, args.rounds, args.clicks)
    print("\nuptime:", os.popen("uptime").read().strip())


if __name__ == "__main__":
    main()
