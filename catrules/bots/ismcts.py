"""A bot that searches without cheating: information-set Monte Carlo tree search.

:class:`ISMCTSBot` is single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012).
Each iteration of its search

1. asks the table for an *imagined game*: a copy of the game consistent with everything
   its player has seen (:meth:`catrules.play.match.Match.sample`, on
   :meth:`catrules.runtime.state.State.sample_for`: the cards it cannot see dealt again, no card
   where a choice showed it is not, see :mod:`catrules.runtime.inference`, and a fresh
   future); one is drawn for :data:`SHARED` iterations, each playing a copy of it with a
   future of its own (drawing costs more than copying);
2. goes down one tree shared by all the imagined games, a node per decision as its player
   sees them, choosing at each node by UCB among the options legal in *this* imagined game
   (a child counts how often it was available, so options that are rarely legal are not
   favoured);
3. adds one node (on a wide choice, only as many children as its visits allow: progressive
   widening, the most promising first), plays the imagined game to its end by a cheap policy
   (:mod:`catrules.bots.playout`: the mean result of each value chosen so far, some choices at
   random), or, with a *horizon*, for that many more decisions (the tree's decisions and the
   playout's are answered inside the running game, on the lean blocks: :class:`_Walk`), and
4. credits every node on the way with the result for the player who chose it: a share of
   the win (``1/k`` among ``k`` winners), else 0; at a horizon, the share of the other
   players it is ahead of by the game's ``winner:`` block (ties count half).

It then takes the option its player chose most often at the root; when its playouts stop at a
horizon, the decision's default instead, unless it was found worse by more than :data:`EVIDENCE`
standard errors (the game's rule of thumb beats noise where half-played imagined games cannot
tell options apart).  The policy's means are
kept from one decision to the next (the bot's own imagined games are all they come from), and
so is the part of the tree under the option taken, when the bot's next decision follows it with
nothing between and its view is the one its imagined games showed (:mod:`catrules.bots.reuse`).
Without a horizon in its spec, the playouts stop at :data:`DEFAULT_HORIZON` decisions while the
game is long (a game played on at random from here takes more than :data:`LONG_GAME` decisions).
Playouts to a horizon are played at random (the policy's means learn only from games played to
their end).  Other players are
searched as if they played by the same rule, from what the imagined game shows them; a
simultaneous decision is searched in seat order, each answer hidden from the others in
the real game but not in the tree (the usual simplification of single-observer ISMCTS).

The bot never reads the real state: its view, its decision and the imagined games the table
hands it are all it has, and an imagined game depends on what it may see only
(``tests/test_ismcts.py`` checks that its choice is the same in two games that differ only in
cards it cannot see).  Its budget is a number of iterations or *seconds of work* (the default: :data:`DEFAULT_SECONDS`):
work is counted, not timed: each iteration counts :data:`ITERATION_WORK` units and each decision
of its imagined game one, and a second is :data:`WORK_PER_SECOND` units (calibrated so that a
second of work takes about a second on the development machine, see ``docs/bots.rst``).  Either
way the same seed gives the same choices, on any machine and with any number of jobs.  Before
each search it checks that the game can end within its decision budget
(:mod:`catrules.bots.runaway`).
Whatever the budget, ``max_seconds`` caps each search's time and ``stop`` (a function asked
between iterations) ends it at once: a server bounds its bots' work with them, and cancels the
work of a table that is gone.  A search that reaches its iterations first is unaffected (the
same choices for the same seed); one cut short by either takes the best option found so far.
Nothing here knows any game.
"""

from __future__ import annotations

import math
import random
import time

from ..errors import RulesError
from ..limits import PLAYOUT_LIMIT, SEARCH_DECISION_LIMIT
from ..play.seats import Choice, Seat
from ..play.autoplay import Autoplay
from .playout import Horizon as _Horizon, Policy, chooser, key_of, play_on, play_out, race_time as _race_time, results as _results  # noqa: F401
from .alike import Alike
from .reuse import remember, reuse
from .runaway import probe

#: Seconds of work per decision when the spec gives no budget (``ismcts``): a second, as a
#: person waits for a player at a table, and what the web lobby offers.
DEFAULT_SECONDS = 1.0
#: Units of work of one iteration besides its imagined decisions (drawing the imagined game,
#: going down the tree, scoring the end).
ITERATION_WORK = 40
#: Units of work in a second of work (``ismcts:1s``).
WORK_PER_SECOND = 40_000
#: UCB's exploration constant, for results between 0 and 1.
EXPLORATION = 0.7
#: Progressive widening: a node visited ``v`` times may have ``WIDEN * (v + 1) ** WIDEN_POWER``
#: children (a choice among fewer options is searched in full at once).
WIDEN = 3.0
WIDEN_POWER = 0.5
#: How far (in standard errors of the two means) the most visited option's mean must beat the
#: decision's default's before the bot leaves the default (see ``_best``).
EVIDENCE = 1.0
#: Iterations that share one imagined game (each on a copy with a future of its own): drawing
#: one (dealing the unseen cards again) costs more than copying it.
SHARED = 4
#: The playouts' horizon when the spec gives none, in a long game (see :data:`LONG_GAME`).
DEFAULT_HORIZON = 40
#: A game is *long* while a game played on at random from where it stands takes more than this
#: many decisions to end: its playouts then stop at :data:`DEFAULT_HORIZON` (unless the spec
#: says otherwise); nearer the end, they are played to the end.
LONG_GAME = 150


class _Node:
    """One decision point of the tree, reached by ``player`` choosing the edge into it."""
    __slots__ = ("children", "visits", "wins", "avail", "player")

    def __init__(self, player: int):
        self.children: dict = {}
        self.visits = 0
        self.wins = 0.0
        self.avail = 1
        self.player = player


def parse_budget(text: str) -> tuple:
    """``("iterations", n)`` or ``("seconds", s)`` from the part of a seat spec after ``ismcts:``
    (``2000``, ``1s``, ``0.5s``); raises :class:`ValueError` saying what is allowed."""
    word = text.strip().lower()
    help_ = "an ismcts budget is a number of iterations (ismcts:2000) or seconds of work (ismcts:1s)"
    try:
        if word.endswith("s"):
            value = float(word[:-1])
            if not (math.isfinite(value) and 0 < value <= 3600):
                raise ValueError
            return ("seconds", value)
        n = int(word)
        if not 1 <= n <= 10_000_000:
            raise ValueError
        return ("iterations", n)
    except ValueError:
        raise ValueError(f"unknown budget {text!r}; {help_}") from None


def parse_horizon(text: str) -> int:
    """The playouts' horizon from a seat spec (``ismcts:500:60``: 60 decisions; ``ismcts:500:end``:
    0, every playout to the end)."""
    if text.strip().lower() == "end":
        return 0
    try:
        n = int(text.strip())
        if n < 1:
            raise ValueError
    except ValueError:
        raise ValueError(f"unknown horizon {text!r}; a horizon is a whole number of decisions after "
                         "the budget, e.g. ismcts:500:60, or end (every playout to the end)") from None
    return n


class ISMCTSBot(Seat):
    """Information-set Monte Carlo tree search from the bot's own view (see the module).

    ``iterations`` or ``seconds`` (of work) is the budget per decision (a decision with one option
    costs nothing; neither given: :data:`DEFAULT_SECONDS`); ``exploration`` is UCB's constant;
    ``policy`` false plays the playouts at random.  ``max_seconds`` (``None``: none) caps the
    wall-clock time of every search whatever its budget, and ``stop`` (``None``, or a function
    of no arguments) ends a search at once when it returns true; both may also be set as
    attributes after the bot is made.  Either cut keeps the best option found so far (with no
    iteration done, the decision's default).
    """

    wants_events = False
    #: Answers inside the running game (through :meth:`decide`) when every seat can.
    inline = True

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 exploration: float = EXPLORATION, horizon: int | None = None,
                 max_seconds: float | None = None, stop=None, policy: bool = True):
        if iterations is None and seconds is None:
            seconds = DEFAULT_SECONDS
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise ValueError(f"iterations must be a whole number of at least 1, not {iterations!r}")
        self.iterations = iterations
        self.seconds = seconds
        if max_seconds is not None and not (isinstance(max_seconds, (int, float)) and max_seconds > 0):
            raise ValueError(f"max_seconds is a positive number of seconds, not {max_seconds!r}")
        #: The most wall-clock seconds any one search may take (``None``: its budget alone decides).
        self.max_seconds = max_seconds
        #: Asked between iterations: a true answer ends the search at once (``None``: never).
        self.stop = stop
        if horizon is not None and (not isinstance(horizon, int) or horizon < 0):
            raise ValueError(f"a horizon is a whole number of decisions (0: to the end), not {horizon!r}")
        self.exploration = exploration
        self.horizon = horizon
        self.policy = policy
        self.name = f"ismcts:{seconds:g}s" if seconds is not None else f"ismcts:{iterations}"
        if horizon is not None:
            self.name += f":h{horizon}" if horizon else ":end"
        #: Figures of the last search: iterations, work, seconds, imagined games that stopped on an error.
        self.last: dict = {}
        self._policy = None
        self._groups = Alike()
        self._chosen: dict = {}
        #: The subtree kept for the next decision (:mod:`catrules.bots.reuse`), if any.
        self._kept = None
        self._view = None
        #: Keep the tree between decisions where the information allows (see :mod:`~catrules.bots.reuse`).
        self.reuse = True

    def start(self, table, player: int) -> None:
        super().start(table, player)
        self._policy = None             # a new game: nothing learnt yet
        self._kept = None

    def decide(self, view, decision) -> Choice:
        options = decision.options
        if len(options) == 1:
            option = options[0].id
        else:
            self._view = view
            try:
                option = self.search([o.id for o in options], decision.default)
            finally:
                self._view = None
        if decision.timed:
            return Choice(option, self.table.reaction_time("normal", len(options)))
        return Choice(option)

    def search(self, legal: list, default=None) -> str:
        """The option among ``legal`` (ids of the bot's pending decision) chosen most often."""
        me = self.player
        rng = random.Random(self.table.rng.getrandbits(64))
        start = time.perf_counter()
        work, left = probe(self.table, me, rng, measure=self.horizon is None)
        horizon = self.horizon or None  # 0: to the end
        if self.horizon is None:        # by default, a horizon while the game is long
            horizon = DEFAULT_HORIZON if left is not None and left > LONG_GAME else None
        kept, self._kept = self._kept, None
        root = (reuse(kept, self.table, self._view, me) if self.reuse else None) or _Node(me)
        reused = root.visits
        self._chosen = {}               # the root's edges: the option each stood for
        deadline = start + self.max_seconds if self.max_seconds is not None else None
        iterations = self.iterations
        units = None if self.seconds is None else self.seconds * WORK_PER_SECOND
        stop = self.stop
        done = errors = imagined = 0
        drawn = None
        policy = self._policy
        while True:
            if iterations is not None:
                # a count of iterations is also bounded in work: long imagined games cost more
                if done >= iterations or imagined >= SEARCH_DECISION_LIMIT:
                    break
            elif done and work >= units:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            if stop is not None and stop():
                break
            # an imagined game drawn for SHARED iterations: a copy for each but the last, with a
            # future of its own (later shuffles and draws from a fresh source)
            if done % SHARED == 0:
                drawn = self.table.sample(me, rng)
            if done % SHARED == SHARED - 1:
                st = drawn
            else:
                st = drawn.clone()
                st.rng = random.Random(rng.getrandbits(64))
                st.trng = random.Random(rng.getrandbits(64))
            done += 1
            if policy is None or len(policy.stats) != st.n:
                policy = self._policy = Policy(st.n, rng, learn=self.policy)
            policy.rng = rng
            # at a horizon the means would learn from half-played games: random playouts then
            policy.learn = self.policy and horizon is None
            before = st.decisions
            try:
                self._iterate(st, root, me, rng, policy, horizon)
            except RulesError:
                errors += 1             # an imagined game the rules could not reach: left out
                policy.moves = []
            imagined += st.decisions - before
            work += ITERATION_WORK + st.decisions - before
        # at a horizon, the default stands unless the search found better (see _best)
        option, edge = self._best(root, legal, default if horizon else None, default)
        if self.reuse:
            try:
                self._kept = remember(self.table, me, root.children.get(edge), option, rng)
            except RulesError:
                self._kept = None
        self.last = {"iterations": done, "work": work, "seconds": time.perf_counter() - start,
                     "errors": errors, "imagined decisions": imagined, "reused visits": reused,
                     "horizon": horizon}
        return option

    def _best(self, root: _Node, legal: list, default, tie=None) -> tuple:
        """The legal option whose edge was visited most (an edge stands for options alike: the
        first legal one of them; ``tie``, else the ``default``, among equals), and its edge; the
        ``default`` instead, if given, unless the mean of the most visited beats it by more than
        :data:`EVIDENCE` standard errors."""
        edge_of = {oid: e for e, oid in self._chosen.items()}
        best = None
        for oid in legal:
            c = root.children.get(edge_of.get(oid, oid))
            key = (c.visits, c.wins / c.visits) if c is not None and c.visits else (0, -1.0)
            key = key + (oid == (default if tie is None else tie),)
            if best is None or key > best[0]:
                best = (key, oid)
        oid = best[1]
        if default is not None and default != oid and default in legal:
            # the game's default stands unless the search found better, by more than its noise
            b, d = root.children.get(edge_of.get(oid, oid)), root.children.get(edge_of.get(default, default))
            if b is not None and d is not None and b.visits and d.visits:
                gap = b.wins / b.visits - d.wins / d.visits
                if gap <= EVIDENCE * math.sqrt(0.25 / b.visits + 0.25 / d.visits):
                    oid = default
        return oid, edge_of.get(oid, oid)

    def _iterate(self, st, root: _Node, me: int, rng: random.Random, policy: Policy,
                 horizon: int | None = None) -> None:
        """One iteration on the imagined game ``st`` (paused at ``me``'s decision): the root's
        choice here, then every later decision inside the running game (the lean blocks, see
        :class:`_Walk`): down the tree, then by the policy to the end or the horizon."""
        st.known = None                 # nobody in an imagined game needs what players know
        walk = _Walk(self, st.n, root, me, rng, policy, horizon)
        p = st.pending_
        vals = st.values_for(me)
        edges = self._groups.edges_of(st, vals, p.okind)
        a, child = self._select(root, me, edges, rng, policy, self.exploration)
        i, v = edges[a]
        if policy.learn:
            policy.moves.append((me, key_of(v)))
        walk.path.append(child)
        root.visits += 1
        chosen, option_id = self._chosen, st.prog.option_id
        for e, (_i, ev) in edges.items():
            if e not in chosen:
                chosen[e] = option_id(p.okind, ev)
        timed = p.kind == "race"
        t = _race_time(st, len(vals)) if timed else None
        if child.visits:
            walk.node = child
        else:
            walk.to_playout(st)

        def answer():
            if st.take(me, v, t):
                st.run()
            elif walk.node is None and walk.limit[0] is None:
                walk.limit[0] = st.decisions + walk.horizon     # the horizon from my answer
        play_on(st, walk.auto, answer)
        result = _results(st)
        for n in walk.path:
            n.visits += 1
            n.wins += result[n.player]
        if policy.learn:
            policy.credit(result)

    @staticmethod
    def _select(node: _Node, pl: int, edges: dict, rng: random.Random, policy: Policy, c: float) -> tuple:
        """The edge to follow from ``node`` among ``edges`` (the options legal in this imagined
        game, by edge) and its child: a new one while the node may widen, else the best by UCB."""
        children = node.children
        untried, tried = [], []
        for a in edges:
            ch = children.get(a)
            if ch is None:
                untried.append(a)
            else:
                ch.avail += 1
                tried.append(a)
        if untried and (not tried or len(children) < WIDEN * math.sqrt(node.visits + 1)):
            if policy.learn and len(untried) > 1:
                means = [policy.mean(pl, edges[a][1]) for a in untried]
                top = max(means)
                untried = [a for a, m in zip(untried, means) if m == top]
            a = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
            child = children[a] = _Node(pl)
            return a, child
        best, best_u = None, -1.0
        for a in tried:
            ch = children[a]
            if not ch.visits:           # made in an imagined game that stopped on an error
                return a, ch
            u = ch.wins / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if u > best_u:
                best, best_u = a, u
        return best, children[best]

    @staticmethod
    def _play_out(st, rng: random.Random, horizon: int | None = None) -> None:
        """Play the imagined game to its end with random choices (see :func:`~catrules.bots.playout.play_out`)."""
        play_out(st, Policy(st.n, rng, learn=False), horizon)


class _Walk:
    """The players of one iteration's imagined game, answering inside the running game (as
    :class:`~catrules.play.autoplay.Autoplay` asks, on the lean blocks: no pending decision,
    no option ids but at the tree's nodes): down the tree by UCB while its nodes have visits
    (:meth:`ISMCTSBot._select`), from the new node on by the ``policy`` (the playout), stopped
    at the ``horizon`` if any."""

    def __init__(self, bot: ISMCTSBot, n: int, root: _Node, me: int, rng: random.Random,
                 policy: Policy, horizon: int | None):
        self.bot, self.rng, self.policy = bot, rng, policy
        # without a horizon a playout stops after PLAYOUT_LIMIT decisions all the same
        self.horizon = PLAYOUT_LIMIT if horizon is None else horizon
        self.seats = [self] * n
        self.node = None                # the tree node of the next decision; None: the playout
        self.path: list = []
        self.state = None               # the imagined game, once in the playout
        self.okind = None               # the kind of the options of the choice being asked
        self.limit = [None]             # the decision that ends the playout (at the horizon)
        self.auto = auto = Autoplay(self, self.check)
        auto.plain = True               # nothing looks between steps (see check)
        auto.choose = self.choose_in_tree
        self._choose = Autoplay.choose.__get__(auto)

    def choose_in_tree(self, st, who: int, options: list, kind: str, V=None, prefers=None):
        self.okind = kind               # the kind of option (a card, a player...) for the edges
        return self._choose(st, who, options, kind, V, prefers)

    def check(self) -> None:
        """Between steps: the playout stops at its horizon (it reads the count of decisions only)."""
        if self.node is None and self.state is not None:
            st, limit = self.state, self.limit
            if limit[0] is None:        # the first check of the playout: its horizon from here
                limit[0] = st.decisions - (st.pending_ is None) + self.horizon
            if st.decisions >= limit[0]:
                raise _Horizon
    check.looks = False

    def to_playout(self, st) -> None:
        """From now on the policy answers (the tree's new node was just chosen)."""
        self.node = None
        auto = self.auto
        auto.pickers = [self.policy.pick] * len(self.seats)
        # the policy's choices written in (Autoplay's own where a player knows something)
        auto.choose = chooser(self.policy, self.horizon, self.limit) if st.known is None else self._choose
        self.state = st

    def pick(self, st, pl: int, values: list, kind: str) -> tuple:
        node = self.node
        if node is None:                # a simultaneous decision's others, after the new node
            return self.policy.pick(st, pl, values, kind)
        n = len(values)
        if n == 1:
            return 0, (_race_time(st, 1) if kind == "race" else None)
        p = st.pending_
        bot, policy = self.bot, self.policy
        edges = bot._groups.edges_of(st, values, p.okind if p is not None else self.okind)
        a, child = bot._select(node, pl, edges, self.rng, policy, bot.exploration)
        i, v = edges[a]
        if policy.learn:
            policy.moves.append((pl, key_of(v)))
        self.path.append(child)
        t = _race_time(st, n) if kind == "race" else None
        if child.visits:
            self.node = child
        else:
            self.to_playout(st)
            if p is not None:
                ahead = st.choosers()
                j = ahead.index(pl)
                if j < len(ahead) - 1:  # others answer after: the horizon from this answer
                    self.limit[0] = st.decisions + j + 1 + self.horizon
        return i, t

