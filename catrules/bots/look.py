"""The greedy bot's longer look-ahead: each option played on past its immediate cost.

One decision ahead, an investment (pay 20 now, earn more later) always looks bad.  The
look-ahead of ``greedy:look`` plays every option on, in the same imagined games
(:meth:`~catrules.play.seats.Table.sample`), with a cheap policy for *every* player: each
decision is taken by the one-step evaluation (every option applied, the game run to the next
decision, the chooser's lead by the game's ``winner:`` block, :func:`~catrules.play.lookahead.lead`;
ties at random).  Each time a play-on reaches the bot's own next decision (or the game's end)
the bot's lead is read: one *checkpoint*.  The options are compared at the deepest checkpoint
that every play-on reached (a game that ended stays at its final lead), so no option is judged
further on than another.

The work is bounded by a count, not a time: every option applied in an imagined game costs one
unit, and the play-ons of one decision share ``budget`` units equally (with a floor of one
checkpoint).  A play-on that stops with a rules error (an imagined state the rules could never
reach) is left out, as in the one-step look-ahead.
"""

from __future__ import annotations

import random

from ..errors import RulesError
from ..play.lookahead import follow, lead

#: Units of work (options applied in imagined games) per decision of ``greedy:look`` by default.
LOOK_BUDGET = 2000

#: The race time every player answers with in an imagined play-on.
_RACE_TIME = 0.6

_EPS = 1e-9


def close(a: tuple, b: tuple) -> bool:
    """Two values (tuples of leads) the same within rounding."""
    return len(a) == len(b) and all(abs(x - y) <= _EPS or x == y for x, y in zip(a, b))


def pick_best(values: list, rng: random.Random) -> int:
    """The index of the best of ``values`` (tuples), a tie broken at random from ``rng``."""
    best = max(values)
    tied = [i for i, v in enumerate(values) if close(v, best)]
    return tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]


def _lead_now(st, me: int) -> tuple:
    sc = st.scores()
    return lead(st.rank_keys(sc), me)


def policy_move(st, rng: random.Random) -> int:
    """Answer ``st``'s pending decision for every player still to answer, each the one-step best
    way for themselves (the others of a simultaneous decision at their defaults while judged);
    returns the work spent (options tried).  Ties at random from ``rng``."""
    timed = _RACE_TIME if st.decision_kind() == "race" else None
    answers, spent = [], 0
    for pl in st.choosers():
        ids = st.option_ids_for(pl)
        if len(ids) == 1:
            answers.append((pl, ids[0]))
            continue
        values = []
        for oid in ids:
            s2 = st.clone()
            s2.log = None
            spent += 1
            try:
                s2.apply(pl, oid, timed)
                out = follow(s2, pl, 0)
                values.append(lead(out.ranks, pl))
            except RulesError:
                values.append((float("-inf"),))
        answers.append((pl, ids[pick_best(values, rng)]))
    for pl, oid in answers:
        st.apply(pl, oid, timed)
    return spent + 1


def play_on(st, me: int, share: int, rng: random.Random) -> tuple:
    """Play ``st`` on with :func:`policy_move` for everyone until ``share`` units are spent;
    returns (the bot's lead at each checkpoint, whether the game ended)."""
    st.log = None
    marks, spent = [], 0
    while True:
        if st.decision_kind() is None:
            marks.append(_lead_now(st, me))
            return marks, True
        if me in st.choosers():
            marks.append(_lead_now(st, me))
        if spent >= share and (marks or spent >= 4 * share + 50):
            return marks or [_lead_now(st, me)], False
        spent += policy_move(st, rng)


def look_values(table, me: int, option_ids: list, samples: int, budget: int, timed,
                rng: random.Random) -> list:
    """Each option's mean lead at the deepest checkpoint every play-on reached (see the module);
    an option with no usable play-on is worth least."""
    n = len(option_ids)
    share = max(1, budget // (n * samples) - 1)
    runs: list = [[] for _ in option_ids]
    for _ in range(samples):
        base = table.sample(me)
        for i, oid in enumerate(option_ids):
            st = base.clone() if i < n - 1 else base
            try:
                st.apply(me, oid, timed)
                runs[i].append(play_on(st, me, share, rng))
            except RulesError:
                pass
    depths = [len(m) for r in runs for m, ended in r if not ended]
    depth = min(depths) if depths else max((len(m) for r in runs for m, _e in r), default=1)
    values = []
    for r in runs:
        if not r:
            values.append((float("-inf"),))
            continue
        leads = [m[min(depth, len(m)) - 1] for m, _e in r]
        width = min(len(x) for x in leads)
        values.append(tuple(sum(x[k] for x in leads) / len(leads) for k in range(width)))
    return values
