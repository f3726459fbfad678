"""
Two classifiers on one dataset: paired t-tests on cross-validation folds
========================================================================

The worked example of the Cornuéjols lecture slides (after Flach 2012): naive
Bayes (NB), a decision tree (DT) and nearest neighbour (NN), 10-fold
cross-validation accuracies on one dataset. The paired t-test with 9 degrees of
freedom gives p = 0.0369 for NB-DT, 0.1848 for NB-NN and 0.4835 for DT-NN (the
slide prints 0.4833, rounded from unrounded accuracies). Folds share training
data, so this t-test is liberal; Nadeau and Bengio's corrected resampled t-test
inflates the variance by n_test / n_train = 1/9 and no longer finds NB-DT
significant. McNemar's test needs the predictions on one test set instead.
"""

# %%
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from cdplot.stats import corrected_resampled_t, mcnemar, paired_t

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)

folds = {
    "NB": [0.6809, 0.7017, 0.7012, 0.6913, 0.6333, 0.6415, 0.7216, 0.7214, 0.6578, 0.7865],
    "DT": [0.7524, 0.8964, 0.6803, 0.9102, 0.7758, 0.8154, 0.6224, 0.7585, 0.9380, 0.7524],
    "NN": [0.7164, 0.8883, 0.8410, 0.6825, 0.7599, 0.8479, 0.7012, 0.4959, 0.9279, 0.7455],
}
pairs = [("NB", "DT"), ("NB", "NN"), ("DT", "NN")]

# %%
for a, b in pairs:
    t = paired_t(folds[a], folds[b])
    c = corrected_resampled_t(folds[a], folds[b], test_train_ratio=1 / 9)
    print(
        f"{a}-{b}: mean difference {t.estimate:+.4f}; paired t = {t.statistic:.3f}, "
        f"p = {t.pvalue:.4f}; corrected t = {c.statistic:.3f}, p = {c.pvalue:.4f}"
    )

# %%
# McNemar on one test set: A right and B wrong on 12 examples, the reverse on 3.
print(mcnemar(12, 3))  # R: mcnemar.test, statistic 4.267, p = 0.0389
print(mcnemar(12, 3, method="exact"))  # R: binom.test(12, 15), p = 0.0352

# %%
# The fold differences of each pair, their mean, and both p-values.
fig, ax = plt.subplots(figsize=(6.0, 3.2), layout="constrained")
for x, (a, b) in enumerate(pairs):
    d = np.subtract(folds[a], folds[b])
    ax.plot(np.full(d.size, x), d, "o", color="0.45", alpha=0.7, ms=5)
    ax.hlines(d.mean(), x - 0.25, x + 0.25, color="C0", lw=2)
    t = paired_t(folds[a], folds[b]).pvalue
    c = corrected_resampled_t(folds[a], folds[b], 1 / 9).pvalue
    ax.annotate(
        f"t: p = {t:.4f}\ncorrected: p = {c:.4f}",
        (x, 0.27),
        ha="center",
        va="bottom",
        fontsize=8,
    )
ax.axhline(0.0, color="0.2", lw=0.8)
ax.set_xticks(range(len(pairs)), [f"{a} - {b}" for a, b in pairs])
ax.set_ylim(-0.32, 0.38)
ax.set_ylabel("accuracy difference per fold")
ax.set_title("Flach's 10-fold example: paired and corrected t-tests", fontsize=10)
fig.savefig(out / "one_dataset_tests.png", dpi=150)
