"""Any game file as an OpenSpiel Python game, for OpenSpiel's own algorithms.

::

    import pyspiel
    from catrules.envs.openspiel import register
    name = register("games/mygame.cat", players=4)     # "catrules_mygame_4p"
    game = pyspiel.load_game(name, {"seed": 7})
    state = game.new_initial_state()

The game is registered as a SEQUENTIAL game with IMPERFECT_INFORMATION and
``ChanceMode.SAMPLED_STOCHASTIC``: chance is the game's own seeded randomness (shuffles, draws,
the model of reaction times), inside the state; there are no chance nodes.  The k-th state a game
object starts (from 0) plays with game seed ``seed + k`` (parameter ``seed``, default 0), so runs
are repeatable (OpenSpiel starts states of its own to learn the size of the observation tensor:
they take seeds in the same order).  A simultaneous decision (a secret choice, a race) is asked
in seat order, each answer hidden from the others until the reveal: an imperfect-information
sequential game.  Races are answered with a reaction time from the game's seeded model, or
``reaction_time`` seconds.

* actions: the game's action vocabulary (:class:`catrules.envs.encoding.Spec`), strings are the
  option ids;
* ``observation_string`` / ``observation_tensor``: the player's view, as text and as the encoded
  vector (with ``PrivateInfoType.NONE``, a spectator's view);
* ``information_state_string``: the player's view as text, after a digest of everything the
  player has seen and done so far (their own filtered event log, :func:`catrules.play.match.visible_event`);
* ``resample_from_infostate(player, sampler)``: a state ``player`` cannot tell from this one
  (:meth:`State.sample_for`); answers that others gave already to a simultaneous decision are
  drawn again at random, so that the same player is to answer.  In it the other players'
  histories before the resample are not known: their information states start afresh there.
* returns: ``reward="win"`` (a share of the win; constant-sum 1) or ``"score"`` (the lead over
  the best other player; general-sum, no useful bound: ``±1e30``).

See ``docs/environments.rst``.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re

import numpy as np
import pyspiel

from ..errors import CatrulesError
from ..play.views import visible_event
from ..runtime.option_ids import card_of
from .encoding import EXPLORE_GAMES, OBS_LIMIT, answer, check_reward, final_returns, load, spec as make_spec

#: short name -> the settings it was registered with (a name is registered once per process)
_REGISTERED: dict = {}
#: Marks the history of a player who was not the one resampled for (see the docstring).
_UNKNOWN_PAST = "unknown past"


def default_name(game, players: int, options=(), reward: str = "win") -> str:
    """``catrules_<title>_<N>p`` (plus the options, and ``_score`` for score rewards)."""
    words = [game.title, *sorted(options)]
    slug = "_".join(re.sub(r"[^a-z0-9]+", "_", w.lower()).strip("_") for w in words)
    return f"catrules_{slug}_{players}p" + ("_score" if reward == "score" else "")


def register(path, players: int | None = None, options=(), name: str | None = None, reward: str = "win",
             reaction_time: float | None = None, explore: int = EXPLORE_GAMES, extra_actions=(),
             max_game_length: int | None = None) -> str:
    """Register the game file at ``path`` (or a loaded :class:`~catrules.Game`) with OpenSpiel,
    for ``players`` players (default: the game's least) and game ``options``; returns its short
    name for ``pyspiel.load_game``.  Registering the same game the same way again returns the
    same name.  ``max_game_length``: the most decisions a game takes (default: twice the most
    that the explored games took, plus 100)."""
    game = load(path)
    players = game.min_players if players is None else players
    check_reward(reward)
    sp = make_spec(game, players, options, explore, extra_actions)
    short = name or default_name(game, players, sp.options, reward)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", short):
        raise CatrulesError(f"an OpenSpiel game name is letters, digits and _, not {short!r}")
    if reaction_time is not None and not (isinstance(reaction_time, (int, float)) and math.isfinite(reaction_time)
                                          and reaction_time > 0):
        raise CatrulesError(f"reaction_time must be a number of seconds above 0, or None, not {reaction_time!r}")
    longest = max_game_length or 2 * sp.longest + 100
    settings = (id(sp), reward, reaction_time, longest)
    if short in _REGISTERED:
        if _REGISTERED[short][0] == settings:
            return short
        raise CatrulesError(f"an OpenSpiel game named {short!r} is registered already, with other settings; "
                            "register this one with another name=")
    if short in pyspiel.registered_names():
        raise CatrulesError(f"OpenSpiel has a game named {short!r} already; register with another name=")
    win = reward == "win"
    game_type = pyspiel.GameType(
        short_name=short, long_name=f"catrules: {game.title} ({players} players)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM if win else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"seed": 0})
    game_info = pyspiel.GameInfo(
        num_distinct_actions=sp.num_actions, max_chance_outcomes=0, num_players=players,
        min_utility=0.0 if win else -OBS_LIMIT, max_utility=1.0 if win else OBS_LIMIT,
        utility_sum=1.0 if win else None, max_game_length=longest)
    setup = _Setup(sp, reward, reaction_time, game_type, game_info)
    cls = type(f"CatrulesGame_{short}", (CatrulesGame,), {"setup": setup})
    pyspiel.register_game(game_type, cls)
    _REGISTERED[short] = (settings, setup)
    return short


def load_game(path, players: int | None = None, options=(), seed: int = 0, **kw):
    """:func:`register` the game, then ``pyspiel.load_game`` it with ``seed``."""
    return pyspiel.load_game(register(path, players, options, **kw), {"seed": seed})


class _Setup:
    """What every game object and state of one registration share."""

    def __init__(self, sp, reward, reaction_time, game_type, game_info):
        self.spec, self.reward, self.reaction_time = sp, reward, reaction_time
        self.game_type, self.game_info = game_type, game_info


class CatrulesGame(pyspiel.Game):
    """A registered catrules game (one subclass per registration holds its ``setup``)."""

    setup: _Setup = None

    def __init__(self, params=None):
        params = dict(params or {})
        super().__init__(self.setup.game_type, self.setup.game_info, params)
        self.seed = int(params.get("seed", 0))
        self.started = 0

    def next_seed(self) -> int:
        s = self.seed + self.started
        self.started += 1
        return s

    def new_initial_state(self):
        return CatrulesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(self.setup, iig_obs_type, params)


class _Core:
    """A state's engine state and, per player, how far their history digest has read the log.

    The only attribute of a :class:`CatrulesState`, so that OpenSpiel's ``Clone`` (which deep-copies
    every attribute) clones the engine state and shares the setup."""

    __slots__ = ("setup", "st", "seen")

    def __init__(self, setup, st, seen):
        self.setup, self.st, self.seen = setup, st, seen

    def __deepcopy__(self, memo):
        return _Core(self.setup, self.st.clone(), [list(x) for x in self.seen])

    def digest(self, p: int) -> str:
        """A digest of what player ``p`` has seen and done: the events of the log as ``p`` sees them."""
        st = self.st
        done, digest = self.seen[p]
        log = st.log
        for ev in log[done:]:
            v = visible_event(st, ev, p)
            if v is not None:
                text = json.dumps(v, sort_keys=True, separators=(",", ":"), default=str)
                digest = hashlib.sha256((digest + text).encode()).hexdigest()[:32]
        self.seen[p] = [len(log), digest]
        return digest


class CatrulesState(pyspiel.State):
    """A game in progress (see the module's docstring).  ``engine_state()`` is the catrules state."""

    def __init__(self, game):
        super().__init__(game)
        self._core = None               # made on first use: OpenSpiel's Clone starts a state, then copies

    def _c(self) -> _Core:
        core = self._core
        if core is None:
            game = self.get_game()
            setup = game.setup
            sp = setup.spec
            st = sp.game.new_state(sp.players, seed=game.next_seed(), options=sp.options, log=True)
            core = self._core = _Core(setup, st, [[0, ""] for _ in range(sp.players)])
        return core

    def engine_state(self):
        """The :class:`~catrules.runtime.state.State` (read it, do not change it)."""
        return self._c().st

    def current_player(self):
        st = self._c().st
        if st.finished:
            return pyspiel.PlayerId.TERMINAL
        return _first(st).player

    def _decision(self, player):
        st = self._c().st
        if st.finished:
            return None
        d = _first(st)
        return d if d.player == player else None

    def _legal_actions(self, player):
        d = self._decision(player)
        return [] if d is None else self._c().setup.spec.legal(d)

    def _apply_action(self, action):
        core = self._c()
        d = _first(core.st)
        answer(core.st, d, core.setup.spec.actions[action], core.setup.reaction_time)

    def _action_to_string(self, player, action):
        sp = self._c().setup.spec
        oid = sp.actions[action]
        c = card_of(oid)
        return oid if c is None else f"{oid} {sp.program.card_face[c]}"

    def is_terminal(self):
        return self._c().st.finished

    def returns(self):
        core = self._c()
        return final_returns(core.st, core.setup.reward)

    def __str__(self):
        st = self._c().st
        out = [f"seed {st.seed}, {len(st.history)} answers"]
        for s, name in enumerate(st.layout.slot_name):
            out.append(f"{name}: {json.dumps(st.z[s])}")
        out.append("counters: " + json.dumps(st.c, sort_keys=True, default=str))
        for d in st.pending():
            out.append(f"player {d.player + 1} to answer ({d.kind}): " + " ".join(o.id for o in d.options))
        if st.finished:
            out.append(f"over; returns {self.returns()}")
        return "\n".join(out)

    def information_text(self, player: int, public: bool = False) -> str:
        """The information state string of ``player`` (see the module's docstring)."""
        core = self._c()
        seat = None if public else player
        text = core.setup.spec.encoder.text(core.st.view(seat))
        if public:
            return text
        return f"player {player + 1}, history {core.digest(player)}\n{text}"

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state that ``player_id`` cannot tell from this one, the unknown drawn at random
        (with ``probability_sampler()``, a number in [0, 1), as the seed)."""
        core = self._c()
        real = core.st
        seed = int(probability_sampler() * 2 ** 53) if callable(probability_sampler) else random.getrandbits(53)
        rng = random.Random(seed)
        st = real.sample_for(player_id, rng)
        st.log = []
        _answer_again(st, real, player_id, rng)
        seen = [[len(st.log), _UNKNOWN_PAST] for _ in range(len(core.seen))]
        seen[player_id][1] = core.digest(player_id)
        other = self.clone()
        other._core = _Core(core.setup, st, seen)
        return other


def _first(st):
    """The first pending decision, its prompt not worked out: with a log, the engine works out
    every prompt at once, and nobody reads them here."""
    log, st.log = st.log, None
    try:
        return st.pending()[0]
    finally:
        st.log = log


def _answer_again(st, real, player: int, rng) -> None:
    """In a sample for ``player`` of a simultaneous decision, give again at random the answers the
    sample forgot, so that the same player is to answer as in ``real``: the engine's own forced
    answers, then the others' answers (a race answer keeps its time, which everyone saw)."""
    p = st.pending_
    if p is None or p.kind == "choose" or real.finished:
        return
    if player in (real.pending_.auto or ()) and player not in (p.auto or ()):
        # the engine answered ``player``'s forced choice itself: to everyone, ``player`` is still
        # choosing (the sample forgets that mark with the others' answers)
        p.add_auto(player)
    for q in p.players:
        if q != player and p.awaits(q) and st.answer_forced(p, q):
            return
    turn = real.pending()[0].player
    while not st.finished:
        ds = st.pending()
        if not ds or ds[0].player == turn or ds[0].player == player:
            return
        d = ds[0]
        t = None
        if d.timed:
            t = p.times[d.player] if p.times[d.player] is not None else st.reaction_time()
        st.apply(d.player, rng.choice(d.options).id, t)


class _Observer:
    """OpenSpiel's Python observer: the player's view as text and as the encoded vector
    (``private_info`` NONE: a spectator's view); with perfect recall, the information state string."""

    def __init__(self, setup, iig_obs_type, params):
        if params:
            raise ValueError(f"catrules observers take no parameters, not {params}")
        self.setup = setup
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info if iig_obs_type is not None else pyspiel.PrivateInfoType.SINGLE_PLAYER
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("catrules observers show one player's view (SINGLE_PLAYER) or a spectator's (NONE), "
                             "not every player's private information")
        self.public = private == pyspiel.PrivateInfoType.NONE
        if self.recall:
            self.tensor, self.dict = None, {}
        else:
            self.tensor = np.zeros(setup.spec.encoder.size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if self.tensor is None:
            return
        core = state._c()
        self.tensor[:] = core.setup.spec.encoder.encode(core.st.view(None if self.public else player))

    def string_from(self, state, player):
        if self.recall:
            return state.information_text(player, self.public)
        core = state._c()
        return core.setup.spec.encoder.text(core.st.view(None if self.public else player))
