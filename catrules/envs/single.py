"""A Gymnasium single-agent environment: one seat learns, catrules bots play the other seats.

::

    from catrules.envs.single import gym_env, vector_env
    e = gym_env("games/mygame.cat", players=3, seat=0, opponents="random", seed=1)
    obs, info = e.reset()
    obs, reward, terminated, truncated, info = e.step(e.action_space.sample(mask=info["action_mask"]))
    v = vector_env("games/mygame.cat", 4, players=3)      # 4 copies, gymnasium.vector.SyncVectorEnv

``setup`` is the :class:`~catrules.envs.encoding.Spec` (vocabulary and encoder; ``spec`` is Gymnasium's).
The agent is seat ``seat`` (0-based); every other seat is a bot made from a seat spec
(:func:`catrules.bots.make_seat`: ``random``, ``greedy``, ``bot:fast``...), one spec for all or a list
per other seat.  The bots see only their views, through a :class:`~catrules.play.match.Match` of
their own.  ``reset`` plays the bots' decisions until the agent is asked (a game where the agent
is never asked is skipped); ``step`` answers the agent's decision, then plays the bots' to the
agent's next decision or the end.  Observations are the float32 vector of the agent's view
(:class:`catrules.envs.encoding.Encoder`); ``info["action_mask"]`` (and :meth:`CatrulesGym.action_masks`)
has a 1 per legal action.  An illegal action (``illegal=``): ``"first"`` (the default) plays the
first legal action instead and says so in ``info["illegal_action"]`` (so that generic checkers and
unmasked learners run); ``"raise"`` raises :class:`~catrules.errors.IllegalChoice`.  The reward
comes at the end (``reward="win"`` or ``"score"``, as in :mod:`catrules.envs.pettingzoo`).
"""

from __future__ import annotations

import random

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import make_seat
from ..errors import CatrulesError, IllegalChoice
from ..play.match import Match
from ..play.seats import Seat
from ..play.views import LazyView
from .encoding import EXPLORE_GAMES, OBS_LIMIT, answer, check_reward, final_returns, load, spec as make_spec
from .running import RunningScore
from .tensor import Seen, StateEncoder

#: A game where the agent is never asked is skipped by ``reset``; this many in a row at most.
SKIPPED_GAMES = 100
ILLEGAL = ("first", "raise")


class _Agent(Seat):
    """The learning seat at the bots' table: never asked by the match (the environment asks)."""

    name = "agent"
    wants_events = False


def gym_env(path, players: int | None = None, seat: int = 0, opponents="random", **kw) -> "CatrulesGym":
    """A :class:`CatrulesGym` for the game file at ``path`` (see the module's docstring)."""
    return CatrulesGym(path, players, seat, opponents, **kw)


def vector_env(path, copies: int, players: int | None = None, seed: int = 0, **kw):
    """``copies`` environments in a ``gymnasium.vector.SyncVectorEnv`` (copy ``i`` seeded ``seed + i``)."""
    if not isinstance(copies, int) or copies < 1:
        raise CatrulesError(f"copies must be a whole number of at least 1, not {copies!r}")
    spec_kw = {k: kw[k] for k in ("options", "explore", "vocabulary") if k in kw}
    make_spec(load(path), players or load(path).min_players, **spec_kw)      # explore once, before the copies
    return gymnasium.vector.SyncVectorEnv([lambda i=i: CatrulesGym(path, players, seed=seed + i, **kw)
                                           for i in range(copies)])


class CatrulesGym(gymnasium.Env):
    """A catrules game as a Gymnasium environment for one seat (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, path, players=None, seat=0, opponents="random", options=(), seed=None, reward="win",
                 vocabulary="ids", explore=EXPLORE_GAMES, extra_actions=(), illegal="first", render_mode=None):
        game = load(path)
        players = game.min_players if players is None else players
        self.setup = make_spec(game, players, options, explore, extra_actions, vocabulary)
        self.game, self.reward = game, check_reward(reward)
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise CatrulesError(f"seat must be a seat number from 0 to {players - 1}, not {seat!r}")
        if illegal not in ILLEGAL:
            raise CatrulesError(f"illegal must be 'first' (play the first legal action) or 'raise', not {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise CatrulesError(f"unknown render_mode {render_mode!r}: use 'ansi' (the agent's view as text) or None")
        specs = opponents if isinstance(opponents, (list, tuple)) else [opponents] * (players - 1)
        if len(specs) != players - 1:
            raise CatrulesError(f"opponents: one seat spec for all, or a list of {players - 1} (one per other seat), "
                                f"not {len(specs)}")
        try:
            for s in specs:
                make_seat(s)
        except ValueError as exc:
            raise CatrulesError(str(exc)) from None
        self.opponent_specs = list(specs)
        self.seat, self.players, self.illegal, self.render_mode = seat, players, illegal, render_mode
        self.observation_space = spaces.Box(-OBS_LIMIT, OBS_LIMIT, shape=(self.setup.encoder.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.setup.num_actions)
        self._seeds = random.Random(seed)
        self.game_state, self.match = None, None
        self._encoder, self._seen, self._now = StateEncoder(self.setup.encoder), Seen(), None
        self._running = RunningScore(self.setup.program, players)    # the scores, kept while unchanged

    # ------------------------------------------------------------------ play
    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        for _ in range(SKIPPED_GAMES):
            st = self.game.new_state(self.players, seed=self._seeds.randrange(2 ** 31), options=self.setup.options)
            bots = iter(self.opponent_specs)
            seats = [_Agent() if p == self.seat else make_seat(next(bots)) for p in range(self.players)]
            self.game_state, self.match = st, Match(self.game, st, seats)
            self._seen, self._now = Seen(), None
            self._bots_play()
            if not st.finished:
                return self._obs(), self._info()
        raise CatrulesError(f"{self.game.title}: {SKIPPED_GAMES} games in a row never asked seat {self.seat} anything")

    def _mine(self):
        st = self.game_state
        if st is None or st.finished:
            return None
        return next((d for d in st.pending() if d.player == self.seat), None)

    def _actions(self):
        """``(decision, legal actions, action -> option id)`` of the agent now (None: not asked),
        worked out once per decision."""
        if self._now is None:
            d = self._mine()
            self._now = (d, *(self.setup.actions_of(d) if d is not None else ((), {})))
        return self._now

    def _bots_play(self) -> None:
        """Let the bots answer until the agent is asked or the game is over."""
        st, seats = self.game_state, self.match.seats
        while not st.finished:
            ds = st.pending()
            if any(d.player == self.seat for d in ds):
                return
            d = ds[0]
            choice = seats[d.player].decide(LazyView(st, d.player), d)      # as the referee gives it
            t = choice.reaction_time if d.timed else None
            if d.timed and t is None:
                t = st.reaction_time()
            st.apply(d.player, choice.option, t)

    def step(self, action):
        d, legal, options = self._actions()
        if d is None:
            raise CatrulesError("step() after the game is over: call reset()")
        info = {}
        try:
            a = int(action)
        except (TypeError, ValueError):
            a = -1
        if a not in legal:
            if self.illegal == "raise":
                raise IllegalChoice(f"action {action!r} is not legal now; legal: {legal} "
                                    "(info['action_mask'] has a 1 for each)")
            info["illegal_action"] = True
            a = legal[0]
        self._now = None
        answer(self.game_state, d, options[a])
        self._bots_play()
        st = self.game_state
        reward = final_returns(st, self.reward)[self.seat] if st.finished else 0.0
        return self._obs(), float(reward), bool(st.finished), False, {**self._info(), **info}

    # ----------------------------------------------------------- observation
    def _obs(self) -> np.ndarray:
        return self._encoder.encode(self.game_state, self.seat, self._seen, self._running.now(self.game_state))

    def _info(self) -> dict:
        return {"action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """1 for each legal action of the agent now (all 0 once the game is over), as int8."""
        m = np.zeros(self.setup.num_actions, np.int8)
        m[list(self._actions()[1])] = 1
        return m

    def render(self):
        if self.render_mode != "ansi" or self.game_state is None:
            return None
        return self.setup.encoder.text(self.game_state.view(self.seat))
