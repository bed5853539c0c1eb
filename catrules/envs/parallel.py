"""A PettingZoo ParallelEnv for any game file: everyone asked at once answers in one step.

::

    from catrules.envs.parallel import parallel_env
    e = parallel_env("tests/games/sealed_bids.cat", players=3, seed=1)
    obs, infos = e.reset()
    while e.agents:
        actions = {a: e.action_space(a).sample(obs[a]["action_mask"]) for a in e.agents}
        obs, rewards, terms, truncs, infos = e.step(actions)

Each step, the agents asked now (a secret choice or a race asks several players at once; an
ordinary choice asks one) answer together: their actions are applied in seat order, none seeing
the others' (views never show an answer before the reveal), and the game runs to the next
decision.  The other agents' actions are ignored; their ``action_mask`` is all zeros.  Agents,
observations (``{"observation", "action_mask"}``), seeds, races and rewards are as in the AEC
environment (:mod:`catrules.envs.pettingzoo`); when the game is over every agent is terminated
and ``agents`` is empty.  An illegal action of an agent asked now raises
:class:`~catrules.errors.IllegalChoice`.
"""

from __future__ import annotations

import math
import random

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from ..errors import CatrulesError, IllegalChoice
from .encoding import EXPLORE_GAMES, OBS_LIMIT, answer, check_reward, final_returns, load, spec as make_spec
from .running import RunningScore
from .tensor import Seen, StateEncoder

#: A game that ends before anyone is asked anything is skipped by ``reset``; this many at most.
SKIPPED_GAMES = 100


def parallel_env(path, players: int | None = None, options=(), seed: int | None = None, reward: str = "win",
                 reaction_time: float | None = None, explore: int = EXPLORE_GAMES, extra_actions=(),
                 vocabulary: str = "ids") -> "CatrulesParallelEnv":
    """A ParallelEnv for the game file at ``path`` (see the module's docstring)."""
    return CatrulesParallelEnv(path, players, options, seed, reward, reaction_time, explore, extra_actions,
                               vocabulary)


class CatrulesParallelEnv(ParallelEnv):
    """A catrules game as a PettingZoo ParallelEnv (see the module's docstring)."""

    metadata = {"render_modes": [], "name": "catrules_parallel_v0"}

    def __init__(self, path, players=None, options=(), seed=None, reward="win", reaction_time=None,
                 explore=EXPLORE_GAMES, extra_actions=(), vocabulary="ids"):
        game = load(path)
        players = game.min_players if players is None else players
        self.spec = make_spec(game, players, options, explore, extra_actions, vocabulary)
        if explore and self.spec.longest == 0:
            raise CatrulesError(f"{game.title} asked nobody anything in {explore} random games: an environment "
                                "needs a game with decisions")
        if reaction_time is not None and not (isinstance(reaction_time, (int, float))
                                              and math.isfinite(reaction_time) and reaction_time > 0):
            raise CatrulesError(f"reaction_time must be a number of seconds above 0, or None, not {reaction_time!r}")
        self.game, self.reward, self.reaction_time = game, check_reward(reward), reaction_time
        self.render_mode = None
        self.possible_agents = [f"player_{i + 1}" for i in range(players)]
        self.agents = []
        obs = spaces.Box(-OBS_LIMIT, OBS_LIMIT, shape=(self.spec.encoder.size,), dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(self.spec.num_actions,), dtype=np.int8)
        self._obs_space = spaces.Dict({"observation": obs, "action_mask": mask})
        self._act_space = spaces.Discrete(self.spec.num_actions)
        self._seeds = random.Random(seed)
        self.game_state = None
        # the observation vector from the state, and per seat what it gave last (see catrules.envs.tensor)
        self._encoder, self._seen = StateEncoder(self.spec.encoder), {}
        self._running = RunningScore(self.spec.program, self.spec.players)    # kept while unchanged

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def reset(self, seed=None, options=None):
        """A new game (game seed ``seed``, else the next of the environment's sequence)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.randrange(2 ** 31)
        for _ in range(SKIPPED_GAMES):
            self.game_state = self.game.new_state(self.spec.players, seed=game_seed, options=self.spec.options)
            if not self.game_state.finished:
                break
            game_seed = self._seeds.randrange(2 ** 31)
        else:
            raise CatrulesError(f"{self.game.title}: {SKIPPED_GAMES} games in a row ended before anyone was asked")
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def _asked(self) -> dict:
        """Seat -> decision, for everyone asked now."""
        out = {}
        for d in self.game_state.pending():
            out.setdefault(d.player, d)
        return out

    def step(self, actions):
        st = self.game_state
        asked = self._asked()
        for p in sorted(asked):
            agent = self.possible_agents[p]
            d = next((x for x in st.pending() if x.player == p), None)
            if d is None or st.finished:
                break
            if agent not in actions:
                raise IllegalChoice(f"{agent} is asked now and has no action in this step")
            legal = self.spec.legal(d)
            try:
                a = int(actions[agent])
            except (TypeError, ValueError):
                a = -1
            if a not in legal:
                raise IllegalChoice(f"{agent}: action {actions[agent]!r} is not legal now; legal: {legal} "
                                    "(the observation's action_mask has a 1 for each)")
            answer(st, d, self.spec.option_id(d, a), self.reaction_time)
        live = self.agents
        done = st.finished
        ret = final_returns(st, self.reward) if done else [0.0] * len(self.possible_agents)
        obs = self._observations()
        rewards = {a: float(ret[i]) for i, a in enumerate(self.possible_agents) if a in live}
        terms = {a: done for a in live}
        truncs = {a: False for a in live}
        infos = {a: {} for a in live}
        if done:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def _observations(self) -> dict:
        st = self.game_state
        asked = {} if st.finished else self._asked()
        out, rows = {}, self._running.now(st)        # the scores: the same for everyone
        for i, a in enumerate(self.possible_agents):
            out[a] = {"observation": self._encoder.encode(st, i, self._seen.setdefault(i, Seen()), rows),
                      "action_mask": self.spec.mask(asked.get(i))}
        return out
