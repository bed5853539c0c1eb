"""How a searching bot knows that a game of bots alone cannot end within its decision budget.

A game whose loop never lets it end (``repeat until`` a condition nobody can make true) but
that the checker cannot prove endless would be played by bots alone to the end of its
decision budget (10,000 decisions), a search for each: hours.  Before each search, the bot
plays imagined games on from where it stands (:data:`PROBES` at most, every choice at random,
each up to the budget's remaining decisions).  As soon as one ends, the game can end: the
search goes on (in a game that ends, this costs one random playout a decision, about one
iteration of the search).  If none ends, the game cannot be expected to end within its budget
and :func:`check_can_end` stops it: :class:`CannotEnd`, an :class:`~catrules.errors.OverBudget`
that says so in words (commands count the game as unfinished, as one past its budget; their
hint says how to fix the file or give a larger budget).

The budget is the table's ``decision_limit`` (set by :meth:`catrules.play.match.Match.run` from
the check that enforces it: bots alone only); a table without one (a person plays) is never
stopped here.  Nothing here knows any game.
"""

from __future__ import annotations

import random

from ..errors import OverBudget, RulesError
from ..limits import PLAYOUT_LIMIT
from .playout import Policy, play_out

#: Imagined games played on to the budget before a game is taken for one that cannot end.
PROBES = 3


def check_can_end(table, me: int, rng: random.Random) -> int:
    """Raise :class:`CannotEnd` if no imagined game played on from the table's game ends within
    its decision budget; else the decisions the probes imagined (work the search counts)."""
    return probe(table, me, rng, measure=False)[0]


def probe(table, me: int, rng: random.Random, measure: bool = True) -> tuple:
    """``(work, left)``: as :func:`check_can_end` (which raises :class:`CannotEnd`), and ``left``,
    the decisions that the first probe to end took from here (how long the game has to go, played on
    at random; None if unknown: no probe ended, or one met an error).  With ``measure`` and no decision budget (a person plays), one probe is played all the
    same, up to :data:`~catrules.limits.PLAYOUT_LIMIT` decisions, for ``left``."""
    limit = getattr(table, "decision_limit", None)
    now = table.decisions if limit else 0
    remaining = limit - now if limit else 0
    if remaining <= 0:
        if not measure:
            return 0, None
        limit, remaining = None, PLAYOUT_LIMIT
    imagined = 0
    for _ in range(PROBES if limit else 1):
        st = table.sample(me, rng)
        before = st.decisions
        try:
            play_out(st, Policy(st.n, rng, learn=False), remaining)
        except RulesError:
            return imagined, None   # an imagined game the rules could not reach: it tells nothing
        took = st.decisions - before
        imagined += took
        if st.over:
            return imagined, took
    if not limit:
        return imagined, None       # no end in sight: how long is not known
    raise CannotEnd(limit, now, remaining)


class CannotEnd(OverBudget):
    """The searching bots found that a game of bots alone cannot end within its decision budget:
    stopped and unfinished, as a game past its budget (commands count it so)."""

    def __init__(self, limit: int, now: int, remaining: int):
        Exception.__init__(self, f"the game would ask for more than {limit:,} decisions without ending: "
                                 f"{PROBES} imagined games that the searching bots played on at random from "
                                 f"decision {now:,} all ran the {remaining:,} decisions left without ending")
        self.limit = limit
        self.no_way_out = None
