"""The end's own rules: what a game does after its last loop, for the running score.

"If the game ended now" is not the score block on the table as it is: many games do something
once the play is over and before the count (match cards with others, let one card cancel another's penalty).
Here the ``flow:`` is read for that: the statements after its last top-level loop are the
game's *closing* (its ``play PHASE`` statements are run on a copy of the table by
:mod:`catrules.runtime.ending`); any other statement there is named as left out.  Whether the
closing reads only what everyone sees is worked out too, as for the score block.  Nothing here
knows a game.  In a game that tallies each round, what a round's end does before its tally
(:func:`round_end_lines`) cannot be run mid-round: the running score names it instead.
"""

from __future__ import annotations

from ..check.reach import reached
from ..lang import ast

_LOOPS = (ast.RepeatTimes, ast.RepeatUntil)
_QUIET = (ast.Announce, ast.Nothing)


def closing_of(checked) -> tuple:
    """``(phase keys, left out, public)``: the units the flow plays after its last top-level loop
    (``phase:NAME``, in order), a word for each other statement there that is not run (a tally,
    a move…), and whether those phases read only public zones (and so may be run for anyone)."""
    g = checked.game
    flow = list(g.flow or [])
    last = max((i for i, s in enumerate(flow) if isinstance(s, _LOOPS)), default=None)
    if last is None:
        return [], [], True
    keys, left = [], []
    for s in flow[last + 1:]:
        if isinstance(s, ast.Play):
            keys.append(f"phase:{s.phase}")
        elif not isinstance(s, _QUIET):
            left.append(type(s).__name__.lower())
    return keys, left, _reads_public(checked, [s.phase for s in flow[last + 1:] if isinstance(s, ast.Play)])


def round_end_lines(checked) -> list:
    """The game-file lines of what a round's end does before its ``tally`` (in a phase that
    tallies at its top level: the statements between its last loop and the tally, other than
    announcements).  The running score cannot run them mid-round, so it names them."""
    out = []
    for ph in checked.game.phases:
        body = list(ph.body)
        tallies = [i for i, s in enumerate(body) if isinstance(s, ast.Tally)]
        if not tallies:
            continue
        last = max((i for i, s in enumerate(body[:tallies[-1]]) if isinstance(s, _LOOPS)), default=-1)
        out += [s.line for s in body[last + 1:tallies[-1]] if not isinstance(s, (*_QUIET, ast.Tally))]
    return sorted(out)


def _reads_public(checked, phases: list) -> bool:
    """Do ``phases`` (and the phases, actions and definitions they use) read only public zones?"""
    by_phase = {ph.name: ph for ph in checked.game.phases}
    return reads_public(checked, [by_phase[p].body for p in phases if p in by_phase])


def reads_public(checked, roots: list) -> bool:
    """Do ``roots`` (statements or expressions, with the phases, actions and definitions they
    use) read only public zones (counters but secret ones, options and tallies are public)?"""
    for _n, r in reached(checked.game, checked.names, roots):
        if r is None:
            continue
        kind, detail = r
        if kind == "zone" and detail.visibility != "public":
            return False
        if kind == "counter" and getattr(detail, "secret", False):
            return False            # a secret counter: not everyone sees it
    return True
