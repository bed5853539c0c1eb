"""Narrowing along the statements of a block: what is known not to be none, and for how long.

A guard (``if x != none:``) tells the checker a value is not none inside its block; this
module carries such facts on from one statement to the next: after ``x = VALUE`` where the
value is never none, ``x`` is someone until it is set again; after ``if x == none: x = 0``
(every way through the ``if`` sets it), it is someone after the ``if`` too.  A fact is
forgotten where the value may change: when it is set to what may be none, in a loop that sets
it (the loop may run again, or not at all), and, for a counter that some statement of the
game sets to what may be none, at any statement that may run other rules (a move can fire a
trigger, ``do`` runs an action, ``play`` a phase).  :class:`FlowFacts` is part of the checker
(:mod:`catrules.check.checker`).
"""

from __future__ import annotations

from ..lang import ast

#: statements that may run other rules (triggers, actions, phases) while they run
_RUNS_OTHER_RULES = (ast.Move, ast.Fill, ast.Exchange, ast.Do, ast.Play, ast.Allot)


def forget(narrow: frozenset, names) -> frozenset:
    """``narrow`` without the facts about any of ``names`` (``x``, ``x.value``, ``hand of x``...)."""
    names = set(names)
    if not names:
        return narrow
    return frozenset(p for p in narrow if not names & set(p.replace(".", " ").split()))


def set_in(body) -> set:
    """The names a block may set: variables, counters (and ``NAME of`` for a counter of each)."""
    names = set()
    for n in ast.walk(body):
        if isinstance(n, (ast.Assign, ast.Add)):
            names.add(n.name)
        elif isinstance(n, (ast.Choose, ast.ForPlayers, ast.ForEach)):
            names.add(n.var)
        elif isinstance(n, ast.Together):
            names.update((n.var, n.player))
    return names


def always_leaves(body) -> bool:
    """Does every way through ``body`` end at ``stop`` or ``end game`` (so that nothing after
    the block runs next)?  An ``if`` leaves when each of its branches and its ``else`` do."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, (ast.StopLoop, ast.EndGame)):
        return True
    if isinstance(last, ast.If):
        return last.otherwise is not None and always_leaves(last.otherwise) and \
            all(always_leaves(b) for _, b in last.branches)
    return False


class FlowFacts:
    """Mixed into the checker: ``self.types`` (the type of each expression checked) and
    ``self.counters_set_none`` (counters some statement sets to what may be none)."""

    def flow_after(self, st, narrow: frozenset) -> frozenset:
        """What is known not to be none after ``st``, given ``narrow`` before it (its inner
        blocks were checked already: an ``if`` or a menu left its facts in ``self.flow_out``)."""
        if isinstance(st, ast.Assign):
            narrow = forget(narrow, [st.name])
            t = self.types.get(id(st.value))
            if st.owner is None and t is not None and t.kind not in ("any", "none") and not t.none:
                narrow |= {st.name}
            return narrow
        if isinstance(st, (ast.If, ast.Menu)):
            return self.flow_out.pop(id(st), frozenset())
        if isinstance(st, (ast.RepeatTimes, ast.RepeatUntil, ast.ForPlayers, ast.ForEach, ast.Together)):
            narrow = self.loop_facts(st.body, narrow)
        elif isinstance(st, ast.Choose):
            narrow = forget(narrow, [st.var])
        if isinstance(st, _RUNS_OTHER_RULES):
            narrow = forget(narrow, self.counters_set_none)
        return narrow

    def loop_facts(self, body, narrow: frozenset) -> frozenset:
        """The facts that hold at the start of each run of a loop's body, and after the loop."""
        narrow = forget(narrow, set_in(body))
        if any(isinstance(n, _RUNS_OTHER_RULES) for n in ast.walk(body)):
            narrow = forget(narrow, self.counters_set_none)
        return narrow

    def branches_out(self, st, outs: list, bodies: list | None = None) -> None:
        """After an ``if`` or a menu: what every way through it that goes on after it shows.
        A branch that always leaves (``stop``, ``end game``: the guard ``if x == none: stop``)
        does not reach the statement after it, so its facts do not count (``bodies``: the
        blocks of ``outs``, in order)."""
        if bodies is not None:
            on = [o for o, b in zip(outs, bodies) if not always_leaves(b)]
            outs = on if on else outs
        known = outs[0] if outs else frozenset()
        for o in outs[1:]:
            known &= o
        self.flow_out[id(st)] = known
