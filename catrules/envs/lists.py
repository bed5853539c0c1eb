"""One player's tensor as the list of floats ``pyspiel`` returns (or as an array), brought up to date in place.

OpenSpiel's Python API gives a tensor as a new list of floats at every call.  Made from the
array (``x.tolist()``), that is a new float object per entry each time, and the array itself is
the observation encoded again plus the memory.  A :class:`TensorList` keeps one player's list
for one game and changes only the entries that changed since that player's last call, from
what changed in the state: the zones (:meth:`StateEncoder.changes
<catrules.envs.tensor.StateEncoder.changes>`), the short tail of counters, decisions, scores
and the end (written anew), and the memory (:meth:`Memory.catch_up_tracked
<catrules.envs.history.Memory.catch_up_tracked>`, from the log since).  Every value is the one
the float32 vector holds, so that the list is ``vector.tolist()``, bit for bit
(``tests/test_envs_tensor.py``).  (Entries do not share float objects: a list of distinct
objects copies faster than one whose entries are the same few, whose counts of references
every copy then changes one after the other.)

A :class:`TensorArray` does the same with one float32 array per player and game, and hands out
a read-only view of that array, without copying (``register(..., tensors="array")``): the next
call changes it in place when the caller no longer holds it (the counts of references of the
view and the array say so: a loop that reads the tensor and lets it go), and otherwise leaves
the caller's array as it is and goes on with a copy.  So an array a caller keeps (in a replay buffer, a view of it, a tensor
made from it) never changes under them.  Nothing here knows any game.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from .tensor import Seen

#: The most values :func:`as_float32` remembers (then it starts again).
_MEMO_LIMIT = 4096


def _first(t, enc, memory, st, remembered) -> np.ndarray:
    """The first tensor of ``t`` (a :class:`TensorList` or :class:`TensorArray`) in a game, worked
    out whole: what its player sees, remembered as seen, then (with ``recall``) the memory, whose
    entries ``t`` then tracks card by card."""
    x = enc.fresh(st, t.p)
    enc.remember(st, t.p, t.seen)
    if t.recall:
        m = remembered()
        t.track = memory.tracker(m)
        x = np.concatenate([x, m])
    return x


class TensorList:
    """Player ``p``'s observation (and memory, with ``recall``) in one game, as a list."""

    __slots__ = ("p", "recall", "lst", "seen", "tail", "mem_at", "memo", "track")

    def __init__(self, p, recall: bool):
        self.p, self.recall = p, recall
        self.lst, self.seen, self.tail, self.mem_at, self.memo = None, Seen(), {}, 0, {}
        self.track = None           # where each card's ones are in the memory (Memory.tracker)

    def get(self, enc, memory, st, rows, remembered=None, parsed=None) -> list:
        """The tensor of ``st`` as a new list (``enc``: the :class:`StateEncoder`, ``memory``: the
        :class:`~catrules.envs.history.Memory`, ``rows``: the scores as they stand,
        ``remembered()``: the player's memory as it stands, asked for the first list only;
        ``parsed``: the game's :class:`~catrules.envs.history.ParsedLog`, if kept)."""
        lst, p = self.lst, self.p
        if lst is None:
            lst = self.lst = _as_list(_first(self, enc, memory, st, remembered), enc, memory)
        else:
            enc.changes(st, p, self.seen, lst)
            if self.recall:
                memory.catch_up_tracked(lst, enc.enc.size, self.track, p, _items(memory, st, parsed, self.mem_at),
                                        True)
        if self.recall:
            self.mem_at = len(st.log)
        t: dict = {}
        enc._tail(t, st, p, rows)
        memo = self.memo
        for i in self.tail:
            if i not in t:
                lst[i] = 0.0
        for i, v in t.items():
            f = memo.get(v)
            if f is None or not v:
                f = as_float32(v, memo)
            lst[i] = f
        self.tail = t
        return lst.copy()


def _items(memory, st, parsed, since: int) -> list:
    """The log's events from the ``since``-th on as :meth:`Memory.parse` gives them (from
    ``parsed``, the game's :class:`~catrules.envs.history.ParsedLog`, if kept)."""
    if parsed is not None:
        return parsed.since(since)
    items: list = []
    memory.parse(st.layout, st.log[since:], items)
    return items


def _as_list(x: np.ndarray, enc, memory) -> list:
    """``x.tolist()``, made faster: a copy of the list of a player who has seen nothing yet (the
    encoder's static vector, then a fresh memory), with the entries where ``x`` differs (by their
    bits) written from ``x``."""
    cache = enc.base_lists
    base = cache.get(len(x))
    if base is None:
        arr = enc.base if len(x) == len(enc.base) else np.concatenate([enc.base, memory.fresh()])
        base = cache[len(x)] = (arr, arr.tolist())
    arr, lst = base[0], base[1].copy()
    at = np.flatnonzero(x.view(np.uint32) != arr.view(np.uint32))
    for i, v in zip(at.tolist(), x[at].tolist()):
        lst[i] = v
    return lst


def as_float32(v, memo: dict) -> float:
    """``v`` as a float32 array would hold it, as a float (-0.0 and NaN kept as they are)."""
    if math.isnan(v) or (not v and math.copysign(1.0, v) < 0):
        return float(np.float32(v))
    f = memo.get(v)
    if f is None:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        f = memo[v] = float(np.float32(v))
    return f


class TensorArray:
    """Player ``p``'s observation (and memory, with ``recall``) in one game, as a read-only
    float32 array handed out without a copy (see the module's docstring): a read-only view of
    an array kept writable here (made once, not made read-only again at every call)."""

    __slots__ = ("p", "recall", "x", "mv", "out", "seen", "mem_at", "track", "tail")

    def __init__(self, p, recall: bool):
        self.p, self.recall = p, recall
        self.x, self.out, self.seen, self.mem_at, self.track = None, None, Seen(), 0, None
        # ``x`` as a memoryview: an entry written through it is one C call, where a dict of the
        # changes written by NumPy's fancy indexing converted every key and value again
        self.mv = None
        self.tail: dict = {}        # the tail last written (StateEncoder._tail), entry by entry

    def get(self, enc, memory, st, rows, remembered=None, parsed=None) -> np.ndarray:
        """The tensor of ``st`` (the arguments as :meth:`TensorList.get`'s), read-only: the array
        handed out last, changed in place, unless the caller still holds that one."""
        p = self.p
        if self.x is None:
            x = self.x = _first(self, enc, memory, st, remembered)
            w = self.mv = memoryview(x)
        else:
            x = self.x
            # held elsewhere too (the view handed out, or another view of the same data: their
            # base is ``x``): theirs stays as it is, this goes on with a copy
            if sys.getrefcount(self.out) > 2 or sys.getrefcount(x) > 5:  # (here: self.x, x, out.base, mv)
                x = self.x = x.copy()
                self.mv = memoryview(x)
                self.out = None
            w = self.mv
            enc.changes(st, p, self.seen, w)
            if self.recall:
                memory.catch_up_tracked(w, enc.enc.size, self.track, p, _items(memory, st, parsed, self.mem_at), False)
        if self.recall:
            self.mem_at = len(st.log)
        # the tail (counters, decisions, scores, the end) as a dict, written where it changed
        t: dict = {}
        enc._tail(t, st, p, rows)
        was = self.tail
        for i in was:
            if i not in t:
                w[i] = 0.0
        for i, v in t.items():
            if not v or was.get(i) != v:        # (zeros written again: -0.0 is not 0.0 bit for bit)
                w[i] = v
        self.tail = t
        out = self.out
        if out is None:
            out = self.out = x.view()
            out.flags.writeable = False
        return out
