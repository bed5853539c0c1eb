"""What a running game keeps of its program: frames (a unit, its block, its variables) and zones' cards.

A :class:`Frame` is one running unit (a phase, an action, a trigger...): its key,
the block to run next (``pc``, see :mod:`catrules.compile.units`), its variables
and how deep in a chain of triggers it runs.  Plain data, copied with a state.
"""

from __future__ import annotations

class Frame:
    """One running block: which code, where in it, its variables."""
    __slots__ = ("key", "pc", "vars", "depth", "shared")

    def __init__(self, key: str, pc: int, vars_: dict, depth: int = 0):
        self.key = key
        self.pc = pc
        self.vars = vars_
        self.depth = depth
        #: held by more than one state (an imagined game's fork, see ``State._fork``): whoever
        #: runs it copies it first; never changed in place
        self.shared = False

    def copy(self) -> "Frame":
        # a list value is copied (the blocks change lists in place), anything else shared; the
        # dictionary copied whole and its few lists replaced: cheaper than a comprehension
        v = self.vars.copy()
        for k, x in v.items():
            if type(x) is list:
                v[k] = x[:]
        f = _new_frame(Frame)
        f.key, f.pc, f.vars, f.depth, f.shared = self.key, self.pc, v, self.depth, False
        return f


_new_frame = Frame.__new__


def cards_in(zone) -> list:
    """The card ids in a zone's content, whatever its shape (lines flattened, empty cells left out)."""
    if zone and type(zone[0]) is list:
        return [c for line in zone for c in line]
    return [c for c in zone if c is not None]
