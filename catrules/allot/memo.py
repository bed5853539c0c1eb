"""An ``allot`` remembered by what its search actually read: the same reads, the same way.

A statement's search (:func:`catrules.allot.search.best_allotment`) is a pure function of its
inputs (the piles shared, the targets, what they want, the spare) and of the parts of the table
its keys, ``serves`` and the search read.  Which parts those are is known exactly only once it
has run: a key that scores a card by its ability reads the other players' cats only when a cat
with that ability is fed.  So the search runs with the table's zones, the counters its code
reads entry by entry and the cards' places replaced by read-through copies that write down every
index read (:func:`recorded`; a key model's watchers read through them too); the way found is
kept under the values of those reads.  A later table with the same inputs makes the same reads
in the same order, hence finds the same way, as long as what was read holds the same values:
it is looked up by the values, now, of what the first run read (a statement keeps, per inputs,
one table per set of reads met).  Allowed only where the code the compiler wrote reads nothing
else of the state (:mod:`catrules.runtime.reads` says so; else no memo); the counters it reads
whole are in the inputs.

The pile shared out enters the key as a set, not in its order, when the keys and ``serves``
only count the cards of its zone (and of the pile they go to) rather than look at them: the
search then depends on its order only through which cards of each group serving the same needs
come first, and the way is kept as counts per group (:class:`Kept`), the cards taken again from
the pile's present order.  A sharing-out done in two passes thus finds its second pass (the cards
of the first put back at the end of the pile, the other players served meanwhile) in the memo.
Nothing here knows a game.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from ..runtime.reads import NoKey, value_key
from ..runtime.reads import _zk_slot, _kinds, _PLAIN_TUPLES

_STR = {str}

class _ReadThrough(dict):
    """A list (the zones, a counter's entries) seen as a dictionary that fetches an index from
    the list the first time it is read: what was read is its keys (or written: a write taken
    for a read keeps an entry in the key that need not be there, never the other way round),
    and reading it again costs no more than a dictionary's look-up."""
    __slots__ = ("real",)

    def __missing__(self, i):
        v = self.real[i]
        dict.__setitem__(self, i, v)
        return v

    def read(self) -> set:
        """The indices read (or written)."""
        return set(self)

    def snapshot(self) -> list:
        """The list as it reads now (for a key model's watcher: see :func:`listed`)."""
        out = list(self.real)
        for i, v in self.items():
            out[i] = v
        return out


class _PlacesThrough(_ReadThrough):
    """The cards' places, read through: the places the search writes (the cards it moves) are
    not reads unless read first, so that a search that moves cards of the pile without looking
    where they lie is not taken for one that does (:func:`touches`)."""
    __slots__ = ("unread",)

    def __setitem__(self, i, v):
        if not dict.__contains__(self, i):
            self.unread.add(i)          # written before it was read: not a read of the table
        dict.__setitem__(self, i, v)

    def read(self) -> set:
        """The indices read before they were written."""
        return set(self).difference(self.unread)

    def put(self, cards, v) -> None:
        """``self[c] = v`` for each of ``cards``, in one go (the search moves cards way after way)."""
        unread = self.unread
        for c in cards:
            if c not in self:
                unread.add(c)
        dict.update(self, dict.fromkeys(cards, v))


def places_writer(loc):
    """``(put, put_back)``: ``put(cards, slot)`` writes ``slot`` as the place of each of ``cards`` in
    ``loc`` (the cards' places, maybe read through); ``put_back`` the same for cards ``put`` has
    just written (read through, they are known written then: no check)."""
    if isinstance(loc, _PlacesThrough):
        def put_back(cards, v):
            dict.update(loc, dict.fromkeys(cards, v))
        return loc.put, put_back

    def put(cards, v):
        for c in cards:
            loc[c] = v
    return put, put


def _read_through(real: list, cls=_ReadThrough) -> _ReadThrough:
    d = cls()
    d.real = real
    if cls is _PlacesThrough:
        d.unread = set()
    return d


class _Record(NamedTuple):
    """What one run read, as :class:`_ReadThrough` copies: zones, counter columns, places."""
    z: _ReadThrough
    cols: dict                  # counter name -> its _ReadThrough
    loc: _ReadThrough


def listed(v) -> tuple:
    """``(list, source)``: ``v`` as a list and, if it is a read-through copy, that copy (whose
    indices a key model's watcher reads through, so that they are written down), else None."""
    if isinstance(v, _ReadThrough):
        return v.snapshot(), v
    return v, None


def recorded(st, columns: frozenset, run):
    """``(run(), record, finish)``: ``run`` with the table's zones, the counters ``columns``
    (those the code reads entry by entry only) and the cards' places replaced by read-through
    copies (:class:`_ReadThrough`).  The table is left as it was until ``finish()`` writes in it
    what the run wrote in the copies (the search leaves its piles as it found them, its notes
    emptied), as the run would have (at once if it raised)."""
    z, c, loc = st.z, st.c, st.loc
    cols = {name: _read_through(c[name]) for name in columns if type(c.get(name)) is list}
    rec = _Record(_read_through(z), cols, _read_through(loc, _PlacesThrough))
    rc = dict(c)
    rc.update(cols)
    st.z, st.c, st.loc = rec.z, rc, rec.loc

    def finish():
        _write_back(z, rec.z)
        _write_back(loc, rec.loc)
        for name, col in cols.items():
            _write_back(c[name], col)
    try:
        out = run()
    except BaseException:
        finish()
        raise
    finally:
        st.z, st.c, st.loc = z, c, loc
    return out, rec, finish


def _write_back(real: list, copy: _ReadThrough) -> None:
    for i, v in copy.items():
        if real[i] is not v:
            real[i] = v


class Reads(NamedTuple):
    """Which parts of the table one run read (the ones the key holds: not the piles shared)."""
    slots: tuple
    entries: tuple              # ((counter, (entries...)), ...)
    places: tuple


def reads_of_record(rec: _Record, skip: tuple) -> Optional[Reads]:
    """The :class:`Reads` of a run, the slots ``skip`` left out (in the inputs); None if an index
    read is not a number."""
    try:
        return Reads(tuple(sorted(rec.z.read().difference(skip))),
                     tuple(sorted((n, tuple(sorted(col.read()))) for n, col in rec.cols.items())),
                     tuple(sorted(rec.loc.read())))
    except TypeError:                   # an index that is not a number
        return None


def touches(rec: _Record, cards: list) -> bool:
    """Did the run read the place of one of ``cards``, or a counter's entry of one?"""
    cards = set(cards)
    return not cards.isdisjoint(rec.loc.read()) or any(not cards.isdisjoint(col.read()) for col in rec.cols.values())


def wants_key(wants: list):
    """What the targets want (per target, its lists of needs), as it goes in a key: as
    :func:`~catrules.runtime.reads.value_key` would tell them apart, quicker for the common case
    (lists of texts and symbols, each need's type kept; a list of needs and a tuple are the same
    to the search)."""
    flat: list = []
    rows = []
    for w in wants:
        if type(w) is not list:
            return value_key(wants)
        row = []
        for m in w:
            if type(m) is list or type(m) is tuple:
                flat += m
                row.append(tuple(m))
            else:
                flat.append(m)
                row.append((m,) if type(m) is not str else m)
        rows.append(tuple(row))
    kinds = set(map(type, flat))
    if not all(issubclass(k, str) for k in kinds) or ":" in "\n".join(flat):
        return value_key(wants)         # other values, or a text that may be a reference
    if kinds != _STR:                   # symbols as plain texts equal to them (see reads._kinds):
        plain = _PLAIN_TUPLES.__getitem__   # the same few meals again and again, looked up in C
        rows = [tuple([m if type(m) is str else plain(m) for m in row]) for row in rows]
    return tuple(rows), _kinds(flat)


def values_of(st, r: Reads) -> tuple:
    """The values now of what ``r`` names (raises :class:`NoKey` for a value that cannot be keyed)."""
    z, c, loc = st.z, st.c, st.loc
    out = [tuple([_zk_slot(z[s]) for s in r.slots])]
    for name, at in r.entries:
        col = c.get(name)
        if type(col) is not list:
            raise NoKey
        vals = [col[i] for i in at]
        out.append(tuple([v if v is None or type(v) is int else value_key(v) for v in vals]))
    out.append(tuple([loc[i] for i in r.places]))
    return tuple(out)


class Kept(NamedTuple):
    """A way remembered: the cards used as (group of needs served, how many) in the order the
    search gave them, each card's group, the meal per target; the steps counted; the method."""
    groups: Optional[tuple]     # ((mask, count), ...) or None: no way
    mask_of: dict               # card -> the needs it serves (bits)
    meals: tuple
    steps: int
    method: str


def kept_of(plan, by_mask: dict, steps: int, method: str) -> Kept:
    """A :class:`Kept` of a way found (``plan``: used cards, meal per target; ``by_mask``: the
    pile's cards by the needs they serve, as the search grouped them)."""
    mask_of = {c: m for m, cs in by_mask.items() for c in cs}
    if plan is None:
        return Kept(None, mask_of, (), steps, method)
    groups: list = []
    for card in plan[0]:
        m = mask_of[card]
        if groups and groups[-1][0] == m:
            groups[-1][1] += 1
        else:
            groups.append([m, 1])
    meals = tuple(list(m) if type(m) is list else _shared(m) for m in plan[1])
    return Kept(tuple(map(tuple, groups)), mask_of, meals, steps, method)


#: (meal, the types of its needs) -> the first such meal kept (see :func:`_shared`)
_MEALS: dict = {}


def _shared(m):
    """One tuple for every equal meal of needs of the same types (texts, symbols, numbers): the
    memo keeps thousands of ways, each meal a tuple the collector follows when it holds symbols;
    a few shared ones are followed instead.  Anything else as it is."""
    if type(m) is not tuple:
        return m
    kinds = tuple(map(type, m))
    for k in set(kinds):
        if k is not int and not issubclass(k, str):
            return m
    key = (m, kinds)
    got = _MEALS.get(key)
    if got is None:
        if len(_MEALS) >= 4096:
            _MEALS.clear()
        got = _MEALS[key] = m
    return got


def plan_of(kept: Kept, pile: list):
    """The way ``kept`` for the pile as it lies now (the same cards, maybe in another order):
    each group's first cards in the pile's order, as the search takes them."""
    if kept.groups is None:
        return None
    by: dict = {}
    mask_of = kept.mask_of
    for c in pile:
        by.setdefault(mask_of[c], []).append(c)
    used = [c for m, k in kept.groups for c in by[m][:k]]
    return used, [list(m) if type(m) is list else m for m in kept.meals]
