"""
A 200-model leaderboard
=======================

With hundreds of models a CD diagram is a staircase nobody can read; the rank-interval
plot stays legible. One row per model, best first, and one quantity on the axis, the rank
position (1 = best): the point is the position the model holds (by average rank), the bar
the positions it may hold given the tests (1 + #significantly better to
k - #significantly worse, simultaneous at 95 % when the correction controls the
family-wise error); the average rank is printed beside. The models that may rank first
are shaded, each panel its own. The groups column shows letters while they are short (two
models share a letter exactly when the test does not separate them; Piepho 2004, as R's
``multcompView::multcompLetters``); on this board they would run to dozens of letters a
row, so it shows numbered tiers: a tier runs from its first model down to the last before
the first one significantly different from it. ``choose_figure`` says which figure reads
at a width; ``res.plot()`` and ``cdplot compare`` use it. The scores are simulated: 200
models of evenly spread skill on 60 tasks.
"""

# %%
import os
from pathlib import Path

import numpy as np
import pandas as pd

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(200)
k, n = 200, 60
skill = np.linspace(2.5, 0.0, k)
scores = pd.DataFrame(
    skill + rng.normal(size=(n, k)),
    columns=[f"model-{i:03d}" for i in range(k)],
    index=[f"task {j}" for j in range(n)],
)
result = cdplot.compare(scores)  # Wilcoxon signed-rank tests, Holm's correction

# %%
print(cdplot.choose_figure(result, width=7.0))  # 'ranks'
print(dict(list(result.letters.items())[:5]))  # the letters, long on this board

# %%
ax = cdplot.rank_plot(result, width=7.0, columns=2)  # two side-by-side panels
ax.figure.savefig(out / "leaderboard_rank_plot.png", dpi=110)
ax.figure.savefig(out / "leaderboard_rank_plot.pdf")
