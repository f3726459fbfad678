"""
Runs, aggregates and profiles
=============================

Few tasks, several seeds: the reinforcement-learning shape. Keep the runs and follow
Agarwal et al. (2021, rliable): the interquartile mean with stratified-bootstrap intervals,
the probability of improvement of every pair, and the score distribution with its bands.
The scores are simulated (seeded): five agents, eight games, five seeds each, already
normalised (0 = random, 1 = human).
"""

# %%
import os
from pathlib import Path

import numpy as np

import cdplot

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)

# %%
rng = np.random.default_rng(2021)
games = [f"game {g}" for g in range(8)]
hardness = rng.gamma(2.0, 0.4, len(games))  # some games are hard for everyone
skill = {"DQN": 0.5, "DER": 0.7, "DrQ": 0.8, "CURL": 0.75, "SPR": 1.0}
scores = {
    agent: s * hardness * rng.lognormal(0.0, 0.35, (5, len(games))) for agent, s in skill.items()
}
runs = cdplot.io.read_run_scores(scores, tasks=games)

# %%
# One bootstrap (2,000 replicates of the runs within each game) for every number below.
boot = cdplot.run_bootstrap(runs, n_boot=2000, random_state=0)
agg = cdplot.aggregate_scores(runs, bootstrap=boot)
print(agg.to_frame().query("metric == 'iqm'"))
poi = cdplot.probability_of_improvement(runs, bootstrap=boot)
print(poi.to_frame().head())

# %%
ax = cdplot.aggregate_plot(agg, xlabel="human-normalised score")
ax.figure.savefig(out / "runs_aggregates.png", dpi=150)
ax = cdplot.improvement_plot(poi, control="DQN")
ax.figure.savefig(out / "runs_improvement.png", dpi=150)

# %%
profile = cdplot.score_profile(runs, tau=np.linspace(0, 2.5, 101), bootstrap=boot)
ax = cdplot.profile_plot(profile, scale="nonlinear")
ax.figure.savefig(out / "runs_score_profile.png", dpi=150)
