"""What the generated blocks of units call, besides the expression helpers.

The compiler (:mod:`catrules.compile.compiler`) writes statements as Python source; the few steps that
are not plain Python there (copying the cards a move takes, keeping a value within the limits,
the rounds of a loop, the players clockwise, an action run where it is called, the guard of a
loop that never ends) are these functions, bound in the game's namespace by
:data:`UNIT_HELPERS`.
"""

from __future__ import annotations

from .. import limits
from ..errors import RulesError
from .frames import Frame
from .moves import log_counter, move_cards, move_one, move_one_blind
from .places import as_list
from .values import _add, _fits


def _cardlist(st, cs) -> list:
    """The cards a move takes, as a list of its own (a zone's list changes as they go)."""
    return list(cs) if type(cs) is list else as_list(st, cs)


def _by_total(st, V):
    """The ranking of a game whose ``winner:`` block says nothing else: the highest total."""
    return V["total"]


_by_total.body = "V['total']"


def _kept(v):
    """A value as it is stored: within the limits, a list as a copy of its own."""
    v = _fits(v)
    return list(v) if type(v) is list else v


def _times(n):
    """The rounds of ``repeat N times``; a count that is not a number fails as the loop's test would."""
    if type(n) is not int:
        n <= 0
    return range(n)


def _clockwise(st, first) -> list:
    """The players clockwise from ``first``."""
    n = st.n
    if type(first) is int and 0 <= first < n:
        return [*range(first, n), *range(first)]
    return [(first + i) % n for i in range(n)]


#: per number of players, the players clockwise from each (lists that nobody changes)
_ROUNDS: dict = {}


def _clockwise_seq(st, first):
    """The players clockwise from ``first``, for a loop that only goes through them: one list per
    number of players and first player, made once (a straight run's ``for each player``)."""
    rounds = _ROUNDS.get(st.n)
    if rounds is None:
        n = st.n
        rounds = _ROUNDS[n] = {f: [*range(f, n), *range(f)] for f in range(n)}
    seq = rounds.get(first) if type(first) is int else None
    return seq if seq is not None else _clockwise(st, first)


def _do_now(st, fr, key: str, V: dict) -> None:
    """Run an action that never pauses where it is called: its unit is a single block."""
    st.prog.codes[key][0](st, Frame(key, 0, V, fr.depth))


def _loop_guard(st, line: int) -> None:
    """A loop that has gone round more than STEP_LIMIT times since the last decision.

    Loops inside one that never ends go round too, so the guard first watches
    :data:`~catrules.limits.LOOP_WATCH` more rounds and then names the loop that went round the
    fewest times among those that ran: the outermost one still going."""
    seen = st.loops_seen
    if seen is None or seen[0] != st.decisions:
        seen = st.loops_seen = (st.decisions, {})
    rounds = seen[1]
    rounds[line] = rounds.get(line, 0) + 1
    if st.steps <= limits.STEP_LIMIT + limits.LOOP_WATCH:
        return
    st.loops_seen = None
    line = min(rounds, key=lambda at: (rounds[at], at))
    raise RulesError(f"the game ran {limits.STEP_LIMIT:,} loop rounds without anyone deciding anything "
                     "(a forced choice does not count); a loop that never ends?", line, st.prog.path,
                     "check the condition of `repeat until` / `repeat while`")


#: What the generated blocks of units call, besides the expression helpers.
def _frame_vars(loc: dict) -> dict:
    """A straight run's frame variables (kept in Python locals ``_S_v_NAME``, ``_S_h_N`` for ``#N``:
    see :mod:`catrules.compile.straight`) as the frame's dictionary, from its ``locals()``."""
    return {(k[5:] if k[3] == "v" else "#" + k[5:]): v for k, v in loc.items() if k.startswith(("_S_v_", "_S_h_"))}


UNIT_HELPERS = {"_do_now": _do_now, "_move": move_cards, "_move1": move_one, "_move1b": move_one_blind, "_cardlist": _cardlist, "_kept": _kept, "_fits": _fits, "_addv": _add, "_log_counter": log_counter,
                "_loop_guard": _loop_guard, "_times": _times, "_clockwise": _clockwise,
                "_clockwise_seq": _clockwise_seq,
                "_frame_vars": _frame_vars, "_locals": locals}
