"""
Posterior probabilities of every pair
=====================================

The three posterior probabilities of each pair of a Bayesian comparison as one
stacked bar: P(A practically better), P(practically equivalent) and P(B
practically better). The dashed lines mark the decision threshold (0.95) from
both ends, so a decided pair has a segment crossing a line. The Bayesian sign
test on Demšar's (2006) four C4.5 variants, rope = 0.01 of AUC.
"""

# %%
import os
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)

# %%
auc = cdplot.datasets.load("demsar2006")
result = cdplot.compare(auc, test="bayes-sign", rope=0.01, random_state=0)
print(result.to_frame()[["algorithm_1", "algorithm_2", "p_better", "p_equivalent", "decision"]])

# %%
ax = cdplot.posterior_plot(result)
ax.figure.savefig(out / "bayes_posteriors.png", dpi=150)
