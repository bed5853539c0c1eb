"""The imagined games of the searching bot, played on from the tree to their end (playouts).

A playout's players choose by :class:`Policy`: the *move-average sampling technique*
(MAST, Finnsson and Björnsson, 2008).  The bot keeps, for each player and each value a
choice can offer (a card, a player, a number...), the mean result that player had in the
imagined games where they chose it.  A playout's player then takes the option of best mean
(an option never seen counts as :data:`UNSEEN`; equals at random), except that with chance
:data:`EXPLORE` it chooses at random, so that every option keeps being tried.  The means
cost a dictionary look-up per option: far cheaper than trying each option on a copy, and
they learn which cards or answers tend to win in *this* game, from the bot's own imagined
games only.  With no policy, every choice is uniformly random (the plain ISMCTS playout).

:func:`play_out` plays to the end or to a horizon; :func:`results` scores the table.
Nothing here knows any game.
"""

from __future__ import annotations

import itertools
import random

from ..limits import PLAYOUT_LIMIT
from ..play.autoplay import Autoplay
from ..play.reflexes import FASTEST, REFLEX_SPREAD, reflex_median
from ..runtime.randoms import PLAIN_RANDBELOW

#: How often a playout's player ignores the means and chooses at random.
EXPLORE = 0.25
#: The mean of a value nobody has chosen yet (a little above a loss, below an even share).
UNSEEN = 0.45
#: Results a value needs before its mean is trusted over :data:`UNSEEN` (a prior of that weight).
PRIOR = 2.0


#: UNSEEN as often as asked (the default of each look-up of the means, see :func:`chooser`).
_UNSEENS = itertools.repeat(UNSEEN)

#: The normal reflex's median race time, by the number of options (worked out once each).
_MEDIANS: dict = {}


def race_time(st, options: int) -> float:
    """An imagined player's race time among ``options`` options (the normal reflex)."""
    median = _MEDIANS.get(options)
    if median is None:
        median = _MEDIANS[options] = reflex_median("normal", options)
    return st.reaction_time(median, REFLEX_SPREAD, FASTEST)


def key_of(value):
    """What the means are kept by: the value itself when it is a plain number or text (a card
    is its number), else None (not learnt)."""
    return value if type(value) is int or type(value) is str else None


class Policy:
    """The playouts' players (what :class:`~catrules.play.autoplay.Autoplay` asks), and the means
    they choose by: ``stats[player][key] = [sum of results, count]`` and ``means[player][key]``,
    the mean with its prior (:data:`PRIOR` results of :data:`UNSEEN`), kept from search to search.

    ``learn`` off: uniformly random choices (the plain playout), nothing kept."""

    def __init__(self, n: int, rng: random.Random, learn: bool = True):
        self.seats = [self] * n
        self.rng = rng
        self.learn = learn
        self.stats = [{} for _ in range(n)]
        self.means = [{} for _ in range(n)]
        #: ``(player, key)`` of the choices of the imagined game being played
        self.moves: list = []

    def pick(self, st, player: int, values: list, kind: str) -> tuple:
        n = len(values)
        if n == 1:
            i = 0
        elif not self.learn:
            i = self.rng.randrange(n)
        elif self.rng.random() < EXPLORE:
            i = self.rng.randrange(n)
            v = values[i]
            self.moves.append((player, v if type(v) is int or type(v) is str else None))
        else:
            i = self.best(player, values)
            v = values[i]
            self.moves.append((player, v if type(v) is int or type(v) is str else None))
        return i, (race_time(st, n) if kind == "race" else None)

    def best(self, player: int, values: list) -> int:
        """The index of the value of best mean for ``player`` (equals: one of them at random,
        so that a playout does not always take the first of options it knows nothing of)."""
        means = self.means[player]
        best_m, tied = -1.0, []
        i = 0
        for v in values:
            t = type(v)
            m = means.get(v, UNSEEN) if t is int or t is str else UNSEEN
            if m > best_m:
                best_m, tied = m, [i]
            elif m == best_m:
                tied.append(i)
            i += 1
        return tied[0] if len(tied) == 1 else tied[self.rng.randrange(len(tied))]

    def mean(self, player: int, value) -> float:
        key = key_of(value)
        return UNSEEN if key is None else self.means[player].get(key, UNSEEN)

    def credit(self, result: list) -> None:
        """Add the imagined game's ``result`` (per player) to the means of its choices."""
        stats, means = self.stats, self.means
        for player, key in self.moves:
            if key is None:
                continue
            s = stats[player].get(key)
            if s is None:
                s = stats[player][key] = [result[player], 1]
            else:
                s[0] += result[player]
                s[1] += 1
            means[player][key] = (s[0] + UNSEEN * PRIOR) / (s[1] + PRIOR)
        self.moves = []


def chooser(policy: Policy, horizon: int, limit: list):
    """``choose(st, who, options, kind, V=None, prefers=None)`` as
    :meth:`~catrules.play.autoplay.Autoplay.choose` answers a choice inside the running game, for
    the playout of the imagined game ``st`` (nobody knows anything in it: ``st.known`` is None)
    by ``policy``, with :meth:`Policy.pick` and the horizon's check written in (the same draws,
    the same choices): stopped (:class:`Horizon`) ``horizon`` decisions after the first it is
    asked (``limit[0]``: that decision's number, None until then; shared with the check of the
    decisions it does not answer).  It keeps no history: nobody reads an imagined game's
    answers, and the game is dropped once scored."""
    rng, learn, means = policy.rng, policy.learn, policy.means
    moves = policy.moves
    getrandbits, random_ = rng.getrandbits, rng.random
    plain = type(rng) is random.Random and PLAIN_RANDBELOW   # randrange(n), written out

    def below(n):
        if not plain:
            return rng.randrange(n)
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def choose(st, who: int, options: list, kind: str, V=None, prefers=None):
        vals = options or [None]
        st.decisions += 1
        st.actor = who
        n = len(vals)
        if n == 1:                      # forced: the engine's own answer
            return vals[0]
        last = limit[0]
        if last is None:                # the first decision asked: the horizon from there
            last = limit[0] = st.decisions - 1 + horizon
        if st.decisions >= last:
            raise Horizon
        if not learn:
            i = below(n)
        elif random_() < EXPLORE:
            i = below(n)
            v = vals[i]
            moves.append((who, v if type(v) is int or type(v) is str else None))
        else:
            mine = means[who]
            if kind == "card" or kind == "player":  # numbers, or none (never learnt): a look-up each
                ms = list(map(mine.get, vals, _UNSEENS))
            else:
                ms = [mine.get(v, UNSEEN) if type(v) is int or type(v) is str else UNSEEN for v in vals]
            top = max(ms)
            if ms.count(top) == 1:      # most often, once the means are learnt: no list of ties
                i = ms.index(top)
            else:
                tied = [j for j, m in enumerate(ms) if m == top]
                i = tied[below(len(tied))]
            v = vals[i]
            moves.append((who, v if type(v) is int or type(v) is str else None))
        st.steps = st.steps_from
        return vals[i]
    return choose


def play_out(st, policy, horizon: int | None = None) -> None:
    """Play the imagined game ``st`` to its end, its players choosing by ``policy`` (inside the
    running game), or until ``horizon`` more decisions were asked (:data:`~catrules.limits.PLAYOUT_LIMIT`
    without one: a game that never ends is scored where it stands, as at a horizon)."""
    limit = st.decisions + (PLAYOUT_LIMIT if horizon is None else horizon)

    def stop_at_horizon():
        if st.decisions >= limit:
            raise Horizon
    stop_at_horizon.looks = False   # it reads the count of decisions only
    play_on(st, Autoplay(policy, stop_at_horizon))


def play_on(st, auto, first=None) -> None:
    """Play the imagined game ``st`` on with ``auto`` (an :class:`Autoplay`) answering inside the
    running game, after ``first()`` if given (it may run the game on itself), until the end or a
    :class:`Horizon`: the table is then as it stands, scored by :func:`results`."""
    st.auto = auto
    try:
        if first is not None:
            first()
        while st.decision_kind() is not None:
            auto.answer_pending(st)     # the decision the game paused at, answered as later ones
            st.run()
    except Horizon:
        pass
    finally:
        st.auto = None


def results(st) -> list:
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


class Horizon(BaseException):
    """A playout reached its horizon (a BaseException: it passes the seats' own error handling,
    as the end of a search and not a failure)."""
