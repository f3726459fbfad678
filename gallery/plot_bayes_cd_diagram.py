"""
Bayesian critical difference diagram
====================================

The Bayesian signed-rank test (Benavoli et al. 2014, 2017) gives, for every
pair, the posterior probability that one algorithm is practically better, that
the two are practically equivalent (their difference lies within a rope of one
accuracy point), or that the other is better. The diagram keeps Demšar's rank
axis: solid bars join algorithms none of whose pairs is decided different
(neither direction reaches P = 0.95), dashed bars join algorithms whose pairs
are all decided equivalent. Seven classifiers on 54 data sets (accuracy in %).
"""

# %%
import os
from pathlib import Path

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)

# %%
accuracy = cdplot.datasets.load("benavoli2016")
result = cdplot.compare(accuracy, test="bayes-signed-rank", rope=1.0, random_state=0)
print(result.decisions)

# %%
ax = cdplot.bayes_cd_diagram(result)
ax.figure.savefig(out / "bayes_cd_diagram.png", dpi=150)
