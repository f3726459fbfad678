"""
From a per-fold log to one diagram per metric
=============================================

Experiment logs rarely look like the tables in papers: one row per dataset,
model and fold, several metric columns, columns in whatever order the logger
wrote them. cdplot reads such a log by its column names (``Model`` is the
algorithm, ``task`` the dataset, ``fold`` a repetition), refuses the repeated
runs until you say how to combine them (``aggregate="mean"``: exact means), and
compares each metric with its own direction. The folds here are synthetic:
noise around the AUCs Demšar (2006, Table 6) published, and made-up fit times.
"""

# %%
import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
warnings.simplefilter("ignore", cdplot.CdplotWarning)  # few datasets: see the summary

# %%
auc = cdplot.datasets.load("demsar2006")
rng = np.random.default_rng(2006)
cost = {"C4.5": 1.0, "C4.5+m": 1.1, "C4.5+cf": 1.6, "C4.5+m+cf": 1.8}
log = pd.DataFrame(
    [
        {
            "fold": fold,
            "Model": model,
            "auc": auc.loc[task, model] + rng.normal(0, 0.005),
            "fit_time": cost[model] * rng.lognormal(0, 0.1),
            "task": task,
        }
        for task in auc.index
        for model in auc.columns
        for fold in range(10)
    ]
)
print(log.head())

# %%
# Without ``aggregate=`` the log is refused with what was found:
try:
    cdplot.compare(log, score="auc")
except cdplot.CdplotInputError as err:
    print(err)

# %%
results = cdplot.compare_metrics(
    log, {"auc": "higher", "fit_time": "lower"}, aggregate="mean", test="wilcoxon"
)
for metric, res in results.items():
    print(metric, res.input_notes, res.average_ranks.round(2).to_dict())

# %%
fig = cdplot.cd_diagrams(results)
fig.savefig(out / "per_fold_log.pdf")
