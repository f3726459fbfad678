"""
Runs and profiles on published optimisation results
====================================================

Blum, Calvo & Blesa (2015, Swarm Intelligence 9:205-227) ran eight decentralised
algorithms for large independent sets (FruitFly, Shukla, Ikeda, Turau, Rand1, Rand2 and the
authors' FrogCOL and FrogMIS) on random geometric graphs: 30 graph classes (100, 1000 or 5000
nodes and a connection radius), 30 graphs of each. The bundled ``blum2015`` table holds
the size of the set each algorithm found on each graph, as distributed in the R package
scmamp. Each class is a task and its 30 graphs are its runs: the stratified bootstrap
resamples the graphs within each class, and asks "how different would these numbers be on
30 new graphs of the same classes?".
"""

# %%
import os
from pathlib import Path

import numpy as np

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)

sizes = cdplot.datasets.load("blum2015")  # task, size, radius, graph, algorithm, score
runs = cdplot.io.read_run_scores(sizes, run="graph", score="score")

# %%
# Normalisation rule: within each class, 0 = the empty set and 1 = the largest set any
# algorithm found on any graph of the class (the best known size). A normalised score
# is the share of that size an algorithm reached on one graph.
best = sizes.groupby("task")["score"].max()
share = cdplot.io.normalise_runs(runs, {task: (0.0, float(b)) for task, b in best.items()})

# One bootstrap (2,000 replicates of the graphs within each class) for every interval.
boot = cdplot.run_bootstrap(share, n_boot=2000, random_state=0)
agg = cdplot.aggregate_scores(share, bootstrap=boot)  # gap: 1 - mean share (gamma = 1)
print(agg.to_frame().query("metric in ['iqm', 'optimality-gap']").round(3).to_string())
ax = cdplot.aggregate_plot(agg, xlabel="share of the best known set size")
ax.figure.savefig(out / "blum2015_aggregates.png", dpi=150)

# %%
# P(X > Y): the chance that X finds the larger set on a random graph of a random class
# (ties count one half). FrogMIS's row against the six earlier algorithms:
poi = cdplot.probability_of_improvement(share, bootstrap=boot)
print(poi.to_frame().query("x == 'FrogMIS'").round(3).to_string())
ax = cdplot.improvement_plot(poi)
ax.figure.savefig(out / "blum2015_improvement.png", dpi=150)

# %%
# Score distributions: the share of graphs on which each algorithm found more than tau
# of the best known size. FruitFly's curve starts at 0.75: on every graph of the seven
# 5000-node classes with r >= 0.060 its set is below half that size (145 of its 900 sets
# are empty), while on other classes it often finds the largest set.
profile = cdplot.score_profile(share, tau=np.linspace(0.5, 1.0, 101), bootstrap=boot)
ax = cdplot.profile_plot(profile)
ax.figure.savefig(out / "blum2015_score_profile.png", dpi=150)

# %%
# Dolan-More performance profile with every graph a problem: the ratio of the largest
# set found on the graph to each algorithm's (a maximisation, higher_is_better=True;
# an empty set never comes within any factor).
per_graph = {
    alg: group["score"].to_numpy(dtype=float)[None, :]
    for alg, group in sizes.groupby("algorithm", sort=False)
}
dm = cdplot.performance_profile(per_graph, higher_is_better=True, tau=np.linspace(1.0, 1.5, 101))
print("share of the 900 graphs on which each found the largest set:")
print(dm.to_frame().query("tau == 1")[["algorithm", "profile"]].round(3).to_string())
ax = cdplot.profile_plot(dm)
ax.figure.savefig(out / "blum2015_performance_profile.png", dpi=150)

# %%
# The ranks: the CD diagram of the class means (Wilcoxon signed-rank tests over the 30
# classes, Holm's correction), and the rank intervals of the same bootstrap over graphs.
result = cdplot.compare(share.to_frame(), aggregate="mean")
ax = cdplot.cd_diagram(result)
ax.figure.savefig(out / "blum2015_cd.png", dpi=150)
ri = cdplot.rank_intervals(result, method="runs", runs=boot)
print(ri.to_frame().round(2).to_string())
ax = cdplot.rank_plot(result, intervals=ri)
ax.figure.savefig(out / "blum2015_rank_intervals.png", dpi=150)
