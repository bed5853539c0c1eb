"""A game state's random sources, shared by its clones until one of them draws (copy on write).

Cloning a ``random.Random`` (a Mersenne Twister: 625 numbers) costs about 15 µs, most of a
state's clone; a search that clones a state thousands of times pays that for every clone,
even for clones that never draw.  So a clone does not copy the source: the state and its
clone both keep a *cell* holding the source as it was (frozen: nobody draws from it any
more), and each makes its own copy only when it first draws.  The draws are exactly those
of the source itself, so the same seed gives the same game and saves keep their format.
"""

from __future__ import annotations

import random


class CopyOnWrite:
    """The descriptor of one random source of a ``__slots__`` class, kept in two slots: ``own``
    (a ``random.Random`` that only this object draws from) or ``cell`` (``[frozen source, its
    state or None]``, shared with clones); exactly one of them is set."""

    def __init__(self, own: str, cell: str):
        self.names = (own, cell)

    def __set_name__(self, owner, name: str) -> None:
        self.own = owner.__dict__[self.names[0]]
        self.cell = owner.__dict__[self.names[1]]

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        r = self.own.__get__(obj)
        if r is None:                   # first draw since a clone: a copy of its own
            r = thaw(self.cell.__get__(obj))
            self.own.__set__(obj, r)
            self.cell.__set__(obj, None)
        return r

    def __set__(self, obj, r: random.Random) -> None:
        self.own.__set__(obj, r)
        self.cell.__set__(obj, None)

    def share(self, obj) -> list:
        """The cell to give a clone of ``obj``; ``obj`` keeps it too, so that neither sees the
        other's draws."""
        r = self.own.__get__(obj)
        if r is None:
            return self.cell.__get__(obj)
        cell = [r, None]
        self.own.__set__(obj, None)
        self.cell.__set__(obj, cell)
        return cell

    def state(self, obj) -> tuple:
        """The source's ``getstate()``, without making a copy for ``obj``."""
        r = self.own.__get__(obj)
        return r.getstate() if r is not None else frozen_state(self.cell.__get__(obj))


def frozen_state(cell: list) -> tuple:
    # worked out once per cell: every clone that draws starts from the same tuple
    if cell[1] is None:
        cell[1] = cell[0].getstate()
    return cell[1]


def thaw(cell: list) -> random.Random:
    """A new source in the state of the cell's frozen one."""
    r = random.Random.__new__(random.Random, 0)     # no __init__: seeding would be thrown away
    r.setstate(frozen_state(cell))
    return r


def rng_out(state: tuple) -> list:
    """A source's ``getstate()`` as JSON data."""
    v, internal, gauss = state
    return [v, list(internal), gauss]


def rng_in(d) -> random.Random:
    """The source saved by :func:`rng_out`."""
    r = random.Random.__new__(random.Random, 0)
    r.setstate((d[0], tuple(d[1]), d[2]))
    return r
