"""A PettingZoo AEC environment for any game file.

::

    from catrules.envs.pettingzoo import env
    e = env("games/mygame.cat", players=4, seed=1)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_1`` ... ``player_N`` (seats 0 ... N-1 of the game).  The agent to act is
the player of the first pending decision: a simultaneous decision (a secret choice, a race) is
asked of its players one after the other, in seat order; nobody's observation shows the others'
answers before the reveal, since views never do.  A race is answered with a reaction time drawn
from the game's seeded model (:meth:`State.reaction_time`), or with ``reaction_time`` seconds.

Observations are dicts ``{"observation": float32 vector, "action_mask": int8 vector}``, made
from the player's view only (:class:`catrules.envs.encoding.Encoder`; written from the state with
the view's rules, :class:`catrules.envs.tensor.StateEncoder`); the mask of an agent that
is not to act is all zeros.  Rewards come at the end, from the final result (``reward="win"``:
a share of the win; ``"score"``: the lead over the best other player).  The same ``seed`` gives
the same games.  See ``docs/environments.rst``.
"""

from __future__ import annotations

import math
import random

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv

from ..errors import CatrulesError, IllegalChoice
from .encoding import EXPLORE_GAMES, OBS_LIMIT, answer, check_reward, final_returns, load, spec as make_spec
from .running import RunningScore
from .tensor import Seen, StateEncoder


def env(path, players: int | None = None, options=(), seed: int | None = None, reward: str = "win",
        render_mode: str | None = None, reaction_time: float | None = None, explore: int = EXPLORE_GAMES,
        extra_actions=(), vocabulary: str = "ids") -> "CatrulesEnv":
    """An AEC environment for the game file at ``path`` (or a loaded :class:`~catrules.Game`)
    with ``players`` players (default: the game's least) and game ``options``; ``vocabulary``:
    ``"ids"`` or ``"compact"`` (:class:`~catrules.envs.encoding.Spec`)."""
    return CatrulesEnv(path, players, options, seed, reward, render_mode, reaction_time, explore, extra_actions,
                       vocabulary)


#: A game that ends before anyone is asked anything is skipped by ``reset``; this many at most.
SKIPPED_GAMES = 100


class CatrulesEnv(AECEnv):
    """A catrules game as a PettingZoo AEC environment (see the module's docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "catrules_v0", "is_parallelizable": False}

    def __init__(self, path, players=None, options=(), seed=None, reward="win", render_mode=None,
                 reaction_time=None, explore=EXPLORE_GAMES, extra_actions=(), vocabulary="ids"):
        super().__init__()
        game = load(path)
        players = game.min_players if players is None else players
        self.spec = make_spec(game, players, options, explore, extra_actions, vocabulary)
        if explore and self.spec.longest == 0:
            raise CatrulesError(f"{game.title} asked nobody anything in {explore} random games: an environment "
                                "needs a game with decisions (a choice with one option is answered by the engine)")
        self.game = game
        self.reward = check_reward(reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise CatrulesError(f"unknown render_mode {render_mode!r}: use 'human' (print), 'ansi' (return "
                                "the text) or None")
        self.render_mode = render_mode
        if reaction_time is not None and not (isinstance(reaction_time, (int, float))
                                              and math.isfinite(reaction_time) and reaction_time > 0):
            raise CatrulesError(f"reaction_time must be a number of seconds above 0, or None (the game's "
                                f"model of reaction times), not {reaction_time!r}")
        self.reaction_time = reaction_time
        self.possible_agents = [f"player_{i + 1}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs = spaces.Box(-OBS_LIMIT, OBS_LIMIT, shape=(self.spec.encoder.size,), dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(self.spec.num_actions,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": obs, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.spec.num_actions) for a in self.possible_agents}
        self._seeds = random.Random(seed)
        #: the :class:`~catrules.runtime.state.State` of the game being played (None before ``reset``)
        self.game_state = None
        # the observation vector from the state, and per seat what it gave last (see catrules.envs.tensor)
        self._encoder, self._seen = StateEncoder(self.spec.encoder), {}
        self._running = RunningScore(self.spec.program, self.spec.players)    # kept while unchanged

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ play
    def reset(self, seed=None, options=None):
        """Start a new game: with game seed ``seed``, else the next seed of the environment's
        sequence.  A game that ends before anyone is asked anything (every choice forced) is
        skipped for the next seed of the sequence.  (``options`` is PettingZoo's and unused: the
        game's options are given to :func:`env`.)"""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.randrange(2 ** 31)
        for _ in range(SKIPPED_GAMES):
            self.game_state = self.game.new_state(self.spec.players, seed=game_seed, options=self.spec.options)
            if not self.game_state.finished:
                break
            game_seed = self._seeds.randrange(2 ** 31)     # nobody was asked anything: the next game
        else:
            raise CatrulesError(f"{self.game.title}: {SKIPPED_GAMES} games in a row ended before anyone was asked "
                                "anything; an environment needs a game with decisions")
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._next()
        self._accumulate_rewards()

    def _next(self) -> None:
        """Select the agent to act, or end the game: rewards, and every agent terminated."""
        st = self.game_state
        if st.finished:
            ret = final_returns(st, self.reward)
            self.rewards = {a: ret[self._seat[a]] for a in self.agents}
            self.terminations = {a: True for a in self.agents}
            return
        self.rewards = {a: 0.0 for a in self.agents}
        self.agent_selection = self.possible_agents[st.pending()[0].player]

    def _decision(self, agent):
        if self.game_state is None or self.game_state.finished or agent != self.agent_selection:
            return None
        p = self._seat[agent]
        return next((d for d in self.game_state.pending() if d.player == p), None)

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        d = self._decision(agent)
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise IllegalChoice(f"{agent}: an action is a number from 0 to {self.spec.num_actions - 1}, "
                                f"not {action!r}") from None
        legal = self.spec.legal(d)
        if a not in legal:
            shown = ", ".join(f"{i} ({self.spec.actions[i]})" for i in legal)
            got = self.spec.actions[a] if 0 <= a < self.spec.num_actions else "out of range"
            raise IllegalChoice(f"{agent}: action {a} ({got}) is not legal now; legal: {shown} "
                                "(the observation's action_mask has a 1 for each)")
        answer(self.game_state, d, self.spec.option_id(d, a), self.reaction_time)
        self._cumulative_rewards[agent] = 0.0
        self._next()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ----------------------------------------------------------- observation
    def observe(self, agent):
        seat = self._seat[agent]
        seen = self._seen.setdefault(seat, Seen())
        st = self.game_state
        return {"observation": self._encoder.encode(st, seat, seen, self._running.now(st)),
                "action_mask": self.spec.mask(self._decision(agent))}

    def observation_text(self, agent=None) -> str:
        """What ``agent`` (default: the agent to act) sees, as text."""
        agent = agent or self.agent_selection
        return self.spec.encoder.text(self.game_state.view(self._seat[agent]))

    def legal_options(self, agent=None) -> list:
        """The option ids ``agent`` (default: the agent to act) may choose now, in action order."""
        d = self._decision(agent or self.agent_selection)
        return [] if d is None else [self.spec.option_id(d, i) for i in self.spec.legal(d)]

    def render(self):
        """The view of the agent to act (everyone's once the game is over), as text: printed
        (``render_mode="human"``) or returned (``"ansi"``)."""
        if self.render_mode is None:
            logger.warn("render() was called without a render_mode: make the environment with "
                        "render_mode='human' or 'ansi'")
            return None
        st = self.game_state
        if st is None:
            return None
        seat = None if st.finished else self._seat[self.agent_selection]
        text = self.spec.encoder.text(st.view(seat))
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self):
        pass
