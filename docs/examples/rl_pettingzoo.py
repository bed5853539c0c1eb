"""Random agents in the PettingZoo environment of Meow: each picks a legal action (the mask)."""

import numpy as np

from catrules.envs.pettingzoo import env

e = env("games/meow.cat", players=4, seed=1)    # reward="win": a share of the win, at the end
e.reset()
rng = np.random.default_rng(1)
returns = dict.fromkeys(e.possible_agents, 0.0)
for agent in e.agent_iter():
    obs, reward, terminated, truncated, info = e.last()
    returns[agent] += reward
    if terminated or truncated:
        action = None                               # the agent leaves the game
    else:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
    e.step(action)
print(returns)
