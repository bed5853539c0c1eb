"""A bot that searches without cheating: information-set Monte Carlo tree search.

:class:`ISMCTSBot` is single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012).
Each iteration of its search

1. asks the table for an *imagined game*: a copy of the game consistent with everything
   its player has seen (:meth:`catrules.play.match.Match.sample`, on
   :meth:`catrules.runtime.state.State.sample_for`: the cards it cannot see dealt again, no card
   where a choice showed it is not, see :mod:`catrules.runtime.inference`, and a fresh
   future);
2. goes down one tree shared by all the imagined games, a node per decision as its player
   sees them, choosing at each node by UCB among the options legal in *this* imagined game
   (a child counts how often it was available, so options that are rarely legal are not
   favoured);
3. adds one node, plays the imagined game to its end with random choices (or, with a
   *horizon*, for that many more decisions), and
4. credits every node on the way with the result for the player who chose it: a share of
   the win (``1/k`` among ``k`` winners), else 0; at a horizon, the share of the other
   players it is ahead of by the game's ``winner:`` block (ties count half).

It then takes the option its player chose most often at the root.  Other players are
searched as if they played by the same rule, from what the imagined game shows them; a
simultaneous decision is searched in seat order, each answer hidden from the others in
the real game but not in the tree (the usual simplification of single-observer ISMCTS).

The bot never reads the real state: its view, its decision and the imagined games the table
hands it are all it has, and an imagined game depends on what it may see only
(``tests/test_ismcts.py`` checks that its choice is the same in two games that differ only in
cards it cannot see).  Its budget is a number of iterations (the same choices for the same
seed) or seconds (as many as fit: faster machines search more, so not reproducible).
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

from ..play.autoplay import Autoplay
from ..errors import RulesError
from ..limits import PLAYOUT_LIMIT, SEARCH_DECISION_LIMIT
from ..play.seats import Choice, Seat
from ..play.reflexes import FASTEST, REFLEX_SPREAD, reflex_median

#: Iterations per decision when the spec gives no budget (``ismcts``).
DEFAULT_ITERATIONS = 1000
#: UCB's exploration constant, for results between 0 and 1.
EXPLORATION = 0.7


class _Node:
    """One decision point of the tree, reached by ``player`` choosing the edge into it."""
    __slots__ = ("children", "visits", "wins", "avail", "player")

    def __init__(self, player: int):
        self.children: dict = {}
        self.visits = 0
        self.wins = 0.0
        self.avail = 1
        self.player = player


class _Rollout:
    """The random players of a playout: what :class:`~catrules.play.autoplay.Autoplay` asks."""

    def __init__(self, n: int, rng: random.Random):
        self.seats = [self] * n
        self.rng = rng

    def pick(self, st, player: int, values: list, kind: str) -> tuple:
        n = len(values)
        i = 0 if n == 1 else self.rng.randrange(n)
        return i, (_race_time(st, n) if kind == "race" else None)


def _race_time(st, options: int) -> float:
    return st.reaction_time(reflex_median("normal", options), REFLEX_SPREAD, FASTEST)


def parse_budget(text: str) -> tuple:
    """``("iterations", n)`` or ``("seconds", s)`` from the part of a seat spec after ``ismcts:``
    (``2000``, ``1s``, ``0.5s``); raises :class:`ValueError` saying what is allowed."""
    word = text.strip().lower()
    help_ = "an ismcts budget is a number of iterations (ismcts:2000) or seconds (ismcts:1s)"
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
    """The playouts' horizon from a seat spec (``ismcts:500:60``: 60 decisions)."""
    try:
        n = int(text.strip())
        if n < 1:
            raise ValueError
    except ValueError:
        raise ValueError(f"unknown horizon {text!r}; a horizon is a whole number of decisions after "
                         "the budget, e.g. ismcts:500:60") from None
    return n


class ISMCTSBot(Seat):
    """Information-set Monte Carlo tree search from the bot's own view (see the module).

    ``iterations`` or ``seconds`` is the budget per decision (a decision with one option costs
    nothing); ``exploration`` is UCB's constant.  ``max_seconds`` (``None``: none) caps the time
    of every search whatever its budget, and ``stop`` (``None``, or a function of no arguments)
    ends a search at once when it returns true; both may also be set as attributes after the
    bot is made.  Either cut keeps the best option found so far (with no iteration done, the
    decision's default).
    """

    wants_events = False
    #: Answers inside the running game (through :meth:`decide`) when every seat can.
    inline = True

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 exploration: float = EXPLORATION, horizon: int | None = None,
                 max_seconds: float | None = None, stop=None):
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise ValueError(f"iterations must be a whole number of at least 1, not {iterations!r}")
        self.iterations = iterations
        self.seconds = seconds
        if max_seconds is not None and not (isinstance(max_seconds, (int, float)) and max_seconds > 0):
            raise ValueError(f"max_seconds is a positive number of seconds, not {max_seconds!r}")
        #: The most seconds any one search may take (``None``: its budget alone decides).
        self.max_seconds = max_seconds
        #: Asked between iterations: a true answer ends the search at once (``None``: never).
        self.stop = stop
        if horizon is not None and (not isinstance(horizon, int) or horizon < 1):
            raise ValueError(f"a horizon is a whole number of decisions of at least 1, not {horizon!r}")
        self.exploration = exploration
        self.horizon = horizon
        self.name = f"ismcts:{seconds:g}s" if seconds is not None else f"ismcts:{iterations}"
        if horizon is not None:
            self.name += f":h{horizon}"
        #: Figures of the last search: iterations, seconds, imagined games that stopped on an error.
        self.last: dict = {}

    def decide(self, view, decision) -> Choice:
        options = decision.options
        if len(options) == 1:
            option = options[0].id
        else:
            option = self.search([o.id for o in options], decision.default)
        if decision.timed:
            return Choice(option, self.table.reaction_time("normal", len(options)))
        return Choice(option)

    def search(self, legal: list, default=None) -> str:
        """The option among ``legal`` (ids of the bot's pending decision) chosen most often."""
        me = self.player
        rng = random.Random(self.table.rng.getrandbits(64))
        root = _Node(me)
        start = time.perf_counter()
        limit = self.seconds
        if self.max_seconds is not None:
            limit = self.max_seconds if limit is None else min(limit, self.max_seconds)
        deadline = start + limit if limit is not None else None
        iterations = self.iterations if self.seconds is None else None
        stop = self.stop
        done = errors = imagined = 0
        while True:
            # a count of iterations is also bounded in work: long imagined games cost more
            if iterations is not None and (done >= iterations or imagined >= SEARCH_DECISION_LIMIT):
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            if stop is not None and stop():
                break
            done += 1
            st = self.table.sample(me, rng)
            before = st.decisions
            try:
                self._iterate(st, root, me, rng)
            except RulesError:
                errors += 1             # an imagined game the rules could not reach: left out
            imagined += st.decisions - before
        self.last = {"iterations": done, "seconds": time.perf_counter() - start, "errors": errors,
                     "imagined decisions": imagined}
        best = None
        for oid in legal:
            c = root.children.get(oid)
            key = (c.visits, c.wins / c.visits) if c is not None and c.visits else (0, -1.0)
            key = key + (oid == default,)
            if best is None or key > best[0]:
                best = (key, oid)
        return best[1]

    def _iterate(self, st, root: _Node, me: int, rng: random.Random) -> None:
        st.known = None                 # nobody in an imagined game needs what players know
        node, path = root, []
        first = True
        c = self.exploration
        while True:
            choosers = st.choosers()
            if not choosers:
                break
            pl = me if first else choosers[0]
            first = False
            ids = st.option_ids_for(pl)
            timed = st.decision_kind() == "race"
            if len(ids) == 1:
                st.apply(pl, ids[0], _race_time(st, 1) if timed else None)
                continue
            children = node.children
            untried = []
            for a in ids:
                ch = children.get(a)
                if ch is None:
                    untried.append(a)
                else:
                    ch.avail += 1
            if untried:
                a = untried[rng.randrange(len(untried))]
                child = children[a] = _Node(pl)
                path.append(child)
                st.apply(pl, a, _race_time(st, len(ids)) if timed else None)
                break
            best, best_u = None, -1.0
            for a in ids:
                ch = children[a]
                u = ch.wins / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if u > best_u:
                    best, best_u = a, u
            node = children[best]
            path.append(node)
            st.apply(pl, best, _race_time(st, len(ids)) if timed else None)
        if not st.over:
            self._play_out(st, rng, self.horizon)
        result = _results(st)
        for n in path:
            n.visits += 1
            n.wins += result[n.player]

    @staticmethod
    def _play_out(st, rng: random.Random, horizon: int | None = None) -> None:
        """Play the imagined game to its end, every choice at random (inside the running game),
        or until ``horizon`` more decisions were asked (:data:`~catrules.limits.PLAYOUT_LIMIT`
        without one: a game that never ends is scored where it stands, as at a horizon)."""
        limit = st.decisions + (PLAYOUT_LIMIT if horizon is None else horizon)

        def stop_at_horizon():
            if st.decisions >= limit:
                raise _Horizon
        stop_at_horizon.looks = False   # it reads the count of decisions only
        auto = Autoplay(_Rollout(st.n, rng), stop_at_horizon)
        st.auto = auto
        try:
            while st.decision_kind() is not None:
                auto.answer_pending(st)     # the decision the game paused at, answered as later ones
                st.run()
        except _Horizon:
            pass                        # the table as it is: scored by _results
        finally:
            st.auto = None


def _results(st) -> list:
    """Each player's result in [0, 1]: at the end, a share of the win; at a playout's horizon,
    the share of the other players they are ahead of by the ``winner:`` block (a tie counts
    half), which says more than who would win if the game stopped there."""
    if st.over:
        winners = st.winners()
        share = 1.0 / len(winners) if winners else 0.0
        return [share if p in winners else 0.0 for p in range(st.n)]
    keys = st.rank_keys(st.scores())
    n = st.n
    if n < 2:
        return [1.0]
    return [sum(1.0 if keys[p] > keys[q] else 0.5 if keys[p] == keys[q] else 0.0
                for q in range(n) if q != p) / (n - 1) for p in range(n)]


class _Horizon(BaseException):
    """A playout reached its horizon (a BaseException: it passes the seats' own error handling,
    as the end of a search and not a failure)."""
