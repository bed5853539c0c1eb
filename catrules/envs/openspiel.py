"""Any game file as an OpenSpiel Python game, for OpenSpiel's own algorithms.

::

    import pyspiel
    from catrules.envs.openspiel import register
    name = register("games/mygame.cat", players=4)     # "catrules_mygame_4p"
    game = pyspiel.load_game(name, {"seed": 7})
    state = game.new_initial_state()

The game is registered as a SEQUENTIAL game with IMPERFECT_INFORMATION.  Chance (``chance=``):

* ``"sampled"`` (the default): ``ChanceMode.SAMPLED_STOCHASTIC``; chance is the game's own seeded
  randomness (shuffles, draws, the model of reaction times), inside the state; there are no
  chance nodes.  The k-th state a game object starts (from 0) plays with game seed ``seed + k``
  (parameter ``seed``, default 0), so runs are repeatable (OpenSpiel starts states of its own to
  learn the size of the observation tensor: they take seeds in the same order).  OpenSpiel
  cannot serialise such a game: it asks a Python game for an RNG state it cannot give.
* ``"deal"``: ``ChanceMode.EXPLICIT_STOCHASTIC``; the first node is a chance node, the deal:
  one of ``deals`` outcomes, equally likely, outcome ``i`` playing game seed ``seed + i``.  The
  seed fixes every later shuffle, draw and reaction time, so the rest is a function of the
  history: the one chance node holds all the game's chance.  (The engine draws inside its own
  run, so a draw cannot pause as a chance node of its own.)  States serialise (OpenSpiel's
  ``serialize_game_and_state``): the engine's own save (:meth:`State.to_dict`, with its random
  sources), the log and the players' histories.

A simultaneous decision (a secret choice, a race) is asked
in seat order, each answer hidden from the others until the reveal: an imperfect-information
sequential game.  Races are answered with a reaction time from the game's seeded model, or
``reaction_time`` seconds.

* actions: the game's action vocabulary (:class:`catrules.envs.encoding.Spec`), strings are the
  option ids;
* ``observation_string`` / ``observation_tensor``: the player's view, as text and as the encoded
  vector (with ``PrivateInfoType.NONE``, a spectator's view);
* ``information_state_string``: the player's view as text, after a digest of everything the
  player has seen and done so far (their own filtered event log, :func:`catrules.play.views.visible_event`);
* ``information_state_tensor``: the observation, then a fixed-size summary of that history
  (:mod:`catrules.envs.history`: where the player last saw each card go and who moved it, how
  often they chose each action).  Called from Python, it and ``observation_tensor`` are answered
  here (lists of floats, as pyspiel's; with ``tensors="array"``, a read-only float32 array that
  is not copied: :class:`~catrules.envs.lists.TensorArray`), the observation written from the
  state and brought up to date from the player's last one (:mod:`catrules.envs.tensor`), the
  memory from the events since their last look (no digest); the C++ algorithms get the same
  through the observer;
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
from .history import Memory, ParsedLog
from .running import Kept, RunningScore
from .lists import TensorArray, TensorList
from .tensor import Seen, StateEncoder
from .encoding import EXPLORE_GAMES, OBS_LIMIT, answer, check_reward, final_returns, load, spec as make_spec

#: short name -> the settings it was registered with (a name is registered once per process)
_REGISTERED: dict = {}
_CHANCE, _TERMINAL = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL
#: Marks the history of a player who was not the one resampled for (see the docstring).
_UNKNOWN_PAST = "unknown past"
#: How a game's randomness shows to OpenSpiel (see the module's docstring).
CHANCE_MODES = ("sampled", "deal")
#: The deals of ``chance="deal"``: how many game seeds the first chance node draws from, by default, at most.
DEALS = 1000
MAX_DEALS = 1_000_000
#: What the tensors called from Python are: pyspiel's new list, or a read-only array (not copied).
TENSOR_TYPES = ("list", "array")


def default_name(game, players: int, options=(), reward: str = "win", chance: str = "sampled",
                 deals: int = DEALS, vocabulary: str = "ids", tensors: str = "list") -> str:
    """``catrules_<title>_<N>p`` (plus the options, ``_score`` for score rewards, ``_deal``,
    or ``_deal<K>`` with other than 1000 deals, for chance nodes, ``_compact`` and ``_arrays``)."""
    words = [game.title, *sorted(options)]
    slug = "_".join(re.sub(r"[^a-z0-9]+", "_", w.lower()).strip("_") for w in words)
    deal = "" if chance != "deal" else "_deal" if deals == DEALS else f"_deal{deals}"
    return f"catrules_{slug}_{players}p" + ("_score" if reward == "score" else "") + deal + (
        "_compact" if vocabulary == "compact" else "") + ("_arrays" if tensors == "array" else "")


def register(path, players: int | None = None, options=(), name: str | None = None, reward: str = "win",
             reaction_time: float | None = None, explore: int = EXPLORE_GAMES, extra_actions=(),
             max_game_length: int | None = None, chance: str = "sampled", deals: int = DEALS,
             vocabulary: str = "ids", tensors: str = "list") -> str:
    """Register the game file at ``path`` (or a loaded :class:`~catrules.Game`) with OpenSpiel,
    for ``players`` players (default: the game's least) and game ``options``; returns its short
    name for ``pyspiel.load_game``.  Registering the same game the same way again returns the
    same name.  ``max_game_length``: the most decisions a game takes (default: twice the most
    that the explored games took, plus 100).  ``chance``: ``"sampled"`` (no chance nodes, the
    game's seeded randomness inside the state) or ``"deal"`` (a chance node first, the deal: one
    of ``deals`` game seeds, uniformly; see the module's docstring).  ``tensors``: what
    ``information_state_tensor`` and ``observation_tensor`` return from Python: ``"list"`` (a new
    list of floats, as pyspiel's) or ``"array"`` (a read-only float32 array, not copied: see
    :class:`~catrules.envs.lists.TensorArray`)."""
    game = load(path)
    if tensors not in TENSOR_TYPES:
        raise CatrulesError(f"unknown tensors {tensors!r}: use 'list' (a new list of floats, as pyspiel's) "
                            "or 'array' (a read-only numpy array, not copied)")
    if chance not in CHANCE_MODES:
        raise CatrulesError(f"unknown chance mode {chance!r}: use 'sampled' (no chance nodes) or 'deal' "
                            "(a chance node first that deals one of `deals` game seeds)")
    if chance == "deal" and (not isinstance(deals, int) or isinstance(deals, bool) or not 1 <= deals <= MAX_DEALS):
        raise CatrulesError(f"deals must be a whole number from 1 to {MAX_DEALS}, not {deals!r}")
    players = game.min_players if players is None else players
    check_reward(reward)
    sp = make_spec(game, players, options, explore, extra_actions, vocabulary)
    short = name or default_name(game, players, sp.options, reward, chance, deals, vocabulary, tensors)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", short):
        raise CatrulesError(f"an OpenSpiel game name is letters, digits and _, not {short!r}")
    if reaction_time is not None and not (isinstance(reaction_time, (int, float)) and math.isfinite(reaction_time)
                                          and reaction_time > 0):
        raise CatrulesError(f"reaction_time must be a number of seconds above 0, or None, not {reaction_time!r}")
    longest = max_game_length or 2 * sp.longest + 100
    dealt = chance == "deal"
    settings = (id(sp), reward, reaction_time, longest, chance, deals if dealt else None, tensors)
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
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if dealt
                     else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC),
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM if win else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"seed": 0})
    game_info = pyspiel.GameInfo(
        num_distinct_actions=sp.num_actions, max_chance_outcomes=deals if dealt else 0, num_players=players,
        min_utility=0.0 if win else -OBS_LIMIT, max_utility=1.0 if win else OBS_LIMIT,
        utility_sum=1.0 if win else None, max_game_length=longest + (1 if dealt else 0))
    setup = _Setup(sp, reward, reaction_time, game_type, game_info, short, deals if dealt else 0,
                   TensorArray if tensors == "array" else TensorList)
    cls = type(f"CatrulesGame_{short}", (CatrulesGame,), {"setup": setup})
    pyspiel.register_game(game_type, cls)
    _REGISTERED[short] = (settings, setup)
    return short


def load_game(path, players: int | None = None, options=(), seed: int = 0, **kw):
    """:func:`register` the game, then ``pyspiel.load_game`` it with ``seed``."""
    return pyspiel.load_game(register(path, players, options, **kw), {"seed": seed})


class _Setup:
    """What every game object and state of one registration share."""

    def __init__(self, sp, reward, reaction_time, game_type, game_info, name, deals, tensors=None):
        self.spec, self.reward, self.reaction_time = sp, reward, reaction_time
        self.tensors = tensors or TensorList          # the class of the tensors Python gets
        self.game_type, self.game_info = game_type, game_info
        self.name, self.deals = name, deals          # deals: 0 without chance nodes
        self.memory = Memory(sp)
        self.tensor = StateEncoder(sp.encoder)
        self.running = RunningScore(sp.program, sp.players)


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
    """A state's engine state and, per player, how far their history has read the log: the digest
    of the information state string (``seen``) and the :class:`~catrules.envs.history.Memory` of
    the tensor (``mem``, up to ``mem_at``), each brought up to date only when asked for.

    The only attribute of a :class:`CatrulesState`, so that OpenSpiel's ``Clone`` (which deep-copies
    every attribute) clones the engine state and shares the setup; OpenSpiel's serialisation
    pickles it as the engine's own save (:meth:`State.to_dict`, which holds the random sources)
    plus the log and the players' histories.  ``turn`` caches the decision to answer now and its
    actions (until the next action); ``lists`` the tensors given as lists, per player (see
    :class:`~catrules.envs.lists.TensorList`); ``kept`` the last running score
    (:class:`~catrules.envs.running.RunningScore`); ``parsed`` the log as every player's memory
    reads it, parsed once (:class:`~catrules.envs.history.ParsedLog`)."""

    __slots__ = ("setup", "st", "seen", "mem", "mem_at", "turn", "acts", "rows", "obs", "lists", "kept", "parsed", "n")

    def __init__(self, setup, st, seen, mem=None, mem_at=None):
        self.setup, self.st, self.seen = setup, st, seen
        self.mem = mem if mem is not None else [setup.memory.fresh() for _ in seen]
        self.mem_at = list(mem_at) if mem_at is not None else [x[0] for x in seen]
        self.turn, self.acts, self.rows, self.obs, self.lists = None, None, None, {}, {}
        self.kept, self.parsed = Kept(), None
        self.n = len(seen)                      # the players

    def __deepcopy__(self, memo):
        return _Core(self.setup, self.st.clone(), [list(x) for x in self.seen], [m.copy() for m in self.mem],
                     self.mem_at)

    def __reduce__(self):
        st = self.st
        return (_restore_core, (self.setup.name, json.dumps(st.to_dict()), json.dumps(st.log),
                                self.seen, [m.tolist() for m in self.mem], self.mem_at))

    def now(self):
        """The first pending decision (its prompt not worked out: nobody reads it here); None once
        the game is over."""
        if self.turn is None and not self.st.finished:
            self.turn = _first(self.st)
        return self.turn

    def actions(self) -> tuple:
        """``(legal actions, action -> option id)`` of :meth:`now` (see ``Spec.actions_of``)."""
        if self.acts is None:
            self.acts = self.setup.spec.actions_of(self.now())
        return self.acts

    def answer(self, action: int) -> None:
        """Answer the decision of :meth:`now` with ``action``; the cached decision is forgotten."""
        d = self.now()
        oid = self.acts[1].get(action) if self.acts is not None else None     # legal_actions asked first
        self.turn = self.acts = self.rows = None
        answer(self.st, d, oid if oid is not None else self.setup.spec.option_id(d, action), self.setup.reaction_time)

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

    def observation(self, p) -> np.ndarray:
        """The observation vector of ``p`` (None: a spectator), encoded again only where the state
        changed since ``p``'s last one in this game; the scores shared by every player's."""
        seen = self.obs.get(p)
        if seen is None:
            seen = self.obs[p] = Seen()
        if self.rows is None:
            self.rows = [self.setup.running.rows(self.st, self.kept)]
        return self.setup.tensor.encode(self.st, p, seen, self.rows[0])

    def tensor(self, p: int, recall: bool):
        """Player ``p``'s tensor (with their memory: ``recall``) as the Python API gives it (a list,
        or a read-only array: ``setup.tensors``), brought up to date from their last one."""
        tl = self.lists.get((p, recall))
        if tl is None:
            tl = self.lists[(p, recall)] = self.setup.tensors(p, recall)
        if self.rows is None:
            self.rows = [self.setup.running.rows(self.st, self.kept)]
        setup = self.setup
        return tl.get(setup.tensor, setup.memory, self.st, self.rows[0], lambda: self.memory(p), self.log())

    def log(self) -> ParsedLog:
        """The log, parsed once for every player's memory."""
        if self.parsed is None:
            self.parsed = ParsedLog(self.setup.memory, self.st)
        return self.parsed

    def memory(self, p: int) -> np.ndarray:
        """Player ``p``'s memory, brought up to date with the log."""
        log, done = self.st.log, self.mem_at[p]
        if done < len(log):
            self.setup.memory.catch_up(self.mem[p], p, None, self.log().since(done), True)
            self.mem_at[p] = len(log)
        return self.mem[p]


def _restore_core(name: str, saved: str, log: str, seen: list, mem: list, mem_at=None) -> _Core:
    """A :class:`_Core` from its pickle (the game must be registered under ``name`` in this process;
    ``mem_at``, absent from older pickles: the memory is as far as the digest)."""
    entry = _REGISTERED.get(name)
    if entry is None:
        raise CatrulesError(f"a saved state of the OpenSpiel game {name!r}: register the game in this process "
                            "first (catrules.envs.openspiel.register)")
    setup = entry[1]
    st = setup.spec.game.restore(json.loads(saved))
    st.log = json.loads(log)
    return _Core(setup, st, [list(x) for x in seen], [np.asarray(m, np.float32) for m in mem], mem_at)


class CatrulesState(pyspiel.State):
    """A game in progress (see the module's docstring).  ``engine_state()`` is the catrules state
    (None before the deal, with ``chance="deal"``)."""

    def __init__(self, game):
        super().__init__(game)
        self._core = None               # made on first use: OpenSpiel's Clone starts a state, then copies

    def _start(self, seed: int) -> _Core:
        setup = self.get_game().setup
        sp = setup.spec
        st = sp.game.new_state(sp.players, seed=seed, options=sp.options, log=True)
        self._core = _Core(setup, st, [[0, ""] for _ in range(sp.players)])
        return self._core

    def _c(self):
        """The core; None before the deal (``chance="deal"``)."""
        core = self._core
        if core is None:
            game = self.get_game()
            if game.setup.deals:
                return None
            core = self._start(game.next_seed())
        return core

    def engine_state(self):
        """The :class:`~catrules.runtime.state.State` (read it, do not change it)."""
        core = self._c()
        return None if core is None else core.st

    def current_player(self):
        core = self._core or self._c()
        if core is None:
            return _CHANCE
        if core.st.finished:
            return _TERMINAL
        d = core.turn
        return (d if d is not None else core.now()).player

    def chance_outcomes(self):
        """Before the deal: every deal (game seed ``seed + i``), equally likely."""
        if self._c() is not None:
            return []
        k = self.get_game().setup.deals
        return [(i, 1.0 / k) for i in range(k)]

    def _decision(self, player):
        core = self._c()
        if core is None or core.st.finished:
            return None
        d = core.now()
        return d if d.player == player else None

    def legal_actions(self, player=None):
        """pyspiel's ``legal_actions``, answered here for the player to act (without the two calls
        back from C++); other players, chance and the end as pyspiel answers them."""
        core = self._core
        if core is not None and not core.st.finished:
            d = core.turn if core.turn is not None else core.now()
            if player is None or (type(player) is int and player == d.player):
                return list(core.actions()[0])
        return pyspiel.State.legal_actions(self) if player is None else pyspiel.State.legal_actions(self, player)

    def is_chance_node(self):
        """pyspiel's ``is_chance_node`` (is the player to act chance?), answered here."""
        return (self._core or self._c()) is None

    def _legal_actions(self, player):
        d = self._decision(player)
        return [] if d is None else list(self._core.actions()[0])

    def _apply_action(self, action):
        core = self._c()
        if core is None:
            game = self.get_game()
            self._start(game.seed + action)
            return
        core.answer(action)

    def _action_to_string(self, player, action):
        game = self.get_game()
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action} (game seed {game.seed + action})"
        sp = game.setup.spec
        oid = sp.actions[action]
        c = card_of(oid)
        return oid if c is None else f"{oid} {sp.program.card_face[c]}"

    def is_terminal(self):
        core = self._c()
        return core is not None and core.st.finished

    def returns(self):
        core = self._c()
        if core is None:
            return [0.0] * self.get_game().num_players()
        return final_returns(core.st, core.setup.reward)

    def __str__(self):
        core = self._c()
        if core is None:
            return f"before the deal (one of {self.get_game().setup.deals} game seeds)"
        st = core.st
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
        if core is None:
            return "before the deal"
        seat = None if public else player
        text = core.setup.spec.encoder.text(core.st.view(seat))
        if public:
            return text
        return f"player {player + 1}, history {core.digest(player)}\n{text}"

    def information_tensor(self, player: int, public: bool = False) -> np.ndarray:
        """The information state tensor of ``player``: their observation, then their memory."""
        setup = self.get_game().setup
        core = self._c()
        if core is None:
            return np.concatenate([np.zeros(setup.spec.encoder.size, np.float32), setup.memory.fresh()])
        return np.concatenate([core.observation(None if public else player), core.memory(player)])

    def information_state_tensor(self, player=None) -> list:
        """pyspiel's ``information_state_tensor`` (a list of floats: the same values), worked out
        here rather than through pyspiel's C++ (which asks the observer twice, once for the size)."""
        return self._tensor_list(player, True)

    def observation_tensor(self, player=None) -> list:
        """pyspiel's ``observation_tensor`` (a list of floats: the same values), worked out here."""
        return self._tensor_list(player, False)

    def _tensor_list(self, player, recall: bool) -> list:
        core = self._core
        if core is not None and type(player) is int and 0 <= player < core.n and core.setup.deals:
            # the common case first (a player's tensor after the deal): what follows, in short
            return core.tensor(player, recall)
        if player is None:
            player = self.current_player()
        game = self.get_game()
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < game.setup.spec.players:
            # pyspiel's own answer (its error for a player out of range)
            return (pyspiel.State.information_state_tensor if recall else pyspiel.State.observation_tensor)(self, player)
        if not game.setup.deals:
            # pyspiel's call starts a state of its own first, to learn the tensor's size, and it
            # takes a game seed: so does this one, so that later games get the same seeds
            game.next_seed()
        core = self._c()
        if core is None:
            x = self.information_tensor(player) if recall else np.zeros(self.get_game().setup.spec.encoder.size,
                                                                         np.float32)
            if game.setup.tensors is TensorArray:
                x.flags.writeable = False
                return x
            return x.tolist()
        return core.tensor(player, recall)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state that ``player_id`` cannot tell from this one, the unknown drawn at random
        (with ``probability_sampler()``, a number in [0, 1), as the seed)."""
        core = self._c()
        if core is None:
            return self.clone()
        real = core.st
        seed = int(probability_sampler() * 2 ** 53) if callable(probability_sampler) else random.getrandbits(53)
        rng = random.Random(seed)
        st = real.sample_for(player_id, rng)
        st.log = []
        _answer_again(st, real, player_id, rng)
        seen = [[len(st.log), _UNKNOWN_PAST] for _ in range(len(core.seen))]
        seen[player_id][1] = core.digest(player_id)
        mem = [core.setup.memory.fresh() for _ in core.seen]
        mem[player_id] = core.memory(player_id).copy()
        other = self.clone()
        other._core = _Core(core.setup, st, seen, mem)
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
    (``private_info`` NONE: a spectator's view); with perfect recall, the information state string
    and tensor (the observation, then the player's memory: :mod:`catrules.envs.history`)."""

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
        size = setup.spec.encoder.size
        if self.recall:
            self.tensor = np.zeros(size + setup.memory.size, np.float32)
            self.dict = {"observation": self.tensor[:size], "history": self.tensor[size:]}
        else:
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if self.recall:
            self.tensor[:] = state.information_tensor(player, self.public)
            return
        core = state._c()
        if core is None:
            self.tensor[:] = 0
            return
        self.tensor[:] = core.observation(None if self.public else player)

    def string_from(self, state, player):
        if self.recall:
            return state.information_text(player, self.public)
        core = state._c()
        if core is None:
            return "before the deal"
        return core.setup.spec.encoder.text(core.st.view(None if self.public else player))
