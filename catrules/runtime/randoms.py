"""A game state's random sources, shared by its clones until one of them draws (copy on write).

Cloning a ``random.Random`` (a Mersenne Twister: 625 numbers) costs about 15 µs, most of a
state's clone; a search that clones a state thousands of times pays that for every clone,
even for clones that never draw.  So a clone does not copy the source: the state and its
clone both keep the source as it was (frozen: nobody draws from it any more), and each makes
its own copy only when it first draws.  The draws are exactly those of the source itself, so
the same seed gives the same game and saves keep their format.  A frozen source takes no more
memory than the copy it replaces; the state read from it is kept for the last one only.
"""

from __future__ import annotations

import random

#: Whether a plain :class:`random.Random` draws ``randrange(n)`` and ``shuffle`` through
#: ``_randbelow_with_getrandbits`` (CPython does): the hot loops that write those draws out
#: (the random bot, sampling) may then do so, with the very same draws.
PLAIN_RANDBELOW = random.Random._randbelow is random.Random._randbelow_with_getrandbits


def shuffler(rng):
    """``rng.shuffle``, or the same shuffle written out (the same draws: CPython's own loop over
    ``getrandbits``) when ``rng`` is a plain :class:`random.Random`; sampling and decks shuffle a lot."""
    if type(rng) is not random.Random or not PLAIN_RANDBELOW:
        return rng.shuffle
    getrandbits = rng.getrandbits
    steps_of = _STEPS.get

    def shuffle(x):
        size = len(x)
        for i, n, k in steps_of(size) or _steps(size):
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]
    return shuffle


#: per length of list, the steps of its shuffle: (i, i + 1, bits of i + 1), i from the last down
#: to 1 (what CPython's loop works out at each step, worked out once)
_STEPS: dict = {}


def _steps(size: int) -> tuple:
    steps = _STEPS[size] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    return steps


def shuffle(rng, x: list) -> None:
    """``rng.shuffle(x)``, written out as :func:`shuffler` does (the same draws)."""
    shuffler(rng)(x)


class CopyOnWrite:
    """The descriptor of one random source of a ``__slots__`` class, kept in two slots: ``own``
    (a ``random.Random`` that only this object draws from) or ``frozen`` (one that nobody draws
    from any more, shared with clones); exactly one of them is set, or neither when ``make`` is
    given: ``make(obj)`` then makes the source the first time it is asked for (a game's source
    of race times, seeded from its seed: most games never draw from it)."""

    def __init__(self, own: str, frozen: str, make=None):
        self.names = (own, frozen)
        self.make = make

    def __set_name__(self, owner, name: str) -> None:
        self.own = owner.__dict__[self.names[0]]
        self.frozen = owner.__dict__[self.names[1]]

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        r = self.own.__get__(obj)
        if r is None:                   # first draw since a clone: a copy of its own
            f = self.frozen.__get__(obj)
            r = thaw(f) if f is not None else self.make(obj)
            self.own.__set__(obj, r)
            self.frozen.__set__(obj, None)
        return r

    def __set__(self, obj, r: random.Random) -> None:
        self.own.__set__(obj, r)
        self.frozen.__set__(obj, None)

    def seed_later(self, obj, seed: int) -> None:
        """Give ``obj`` the source ``random.Random(seed)``, made only when it first draws (an
        imagined game seldom draws: seeding costs as much as a copy)."""
        self.own.__set__(obj, None)
        self.frozen.__set__(obj, Seeded(seed))

    def share(self, obj) -> random.Random:
        """The frozen source to give a clone of ``obj``; ``obj`` keeps it too, so that neither
        sees the other's draws."""
        r = self.own.__get__(obj)
        if r is None:
            return self.frozen.__get__(obj)
        self.own.__set__(obj, None)
        self.frozen.__set__(obj, r)
        return r

    def state(self, obj) -> tuple:
        """The source's ``getstate()``, without making a copy for ``obj``."""
        r = self.own.__get__(obj)
        if r is None and self.frozen.__get__(obj) is None:
            r = self.__get__(obj)       # never made yet: made now
        return r.getstate() if r is not None else frozen_state(self.frozen.__get__(obj))


class Seeded:
    """A frozen source not made yet (see :meth:`CopyOnWrite.seed_later`): its state is that of
    ``random.Random(seed)``, worked out when first asked."""

    __slots__ = ("made", "seed")

    def __init__(self, seed: int):
        self.seed = seed
        self.made = None

    def getstate(self) -> tuple:
        if self.made is None:
            self.made = random.Random(self.seed).getstate()
        return self.made


#: the frozen source thawed last and its state: a search thaws the clones of one state again
#: and again (only one is kept: a state is 625 numbers, ten times the source's own memory)
_last: tuple = (None, None)


def frozen_state(r: random.Random) -> tuple:
    """``r.getstate()`` of a frozen source (never drawn from again, so its state never changes)."""
    global _last
    last = _last
    if last[0] is r:
        return last[1]
    s = r.getstate()
    _last = (r, s)
    return s


def thaw(r: random.Random) -> random.Random:
    """A new source in the state of the frozen source ``r``."""
    c = random.Random.__new__(random.Random, 0)     # no __init__: seeding would be thrown away
    c.setstate(frozen_state(r))
    return c


def rng_out(state: tuple) -> list:
    """A source's ``getstate()`` as JSON data."""
    v, internal, gauss = state
    return [v, list(internal), gauss]


def rng_in(d) -> random.Random:
    """The source saved by :func:`rng_out`."""
    r = random.Random.__new__(random.Random, 0)
    r.setstate((d[0], tuple(d[1]), d[2]))
    return r
