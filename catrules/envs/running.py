"""The running score of a game in progress, worked out again only when something it reads changed.

Every observation shows the running score (:func:`catrules.runtime.ending.running`: the score
if the game ended now, after the end's own rules are played on a copy of the table).  Working
it out costs more than a step of most games, and most steps change nothing it reads: a card
played to a trick does not change the piles that are scored.  :class:`RunningScore` finds once,
from the game file, what the score block and the end's rules (``Program.closing``) can read,
and keeps the last figure of one game with a copy of those parts of the state; the next time,
when those parts are the same, the figure is the same.

What counts as read is taken generously: every zone and counter the score items, the closing
phases and everything they use (definitions, actions, other phases, triggers) name, by the
checker's resolution or as a bare word anywhere among them; every internal counter (``#...``:
tallies, tie-breaks); whether the game is over.  Where the rules take a card type as a whole,
every zone counts as read.  Where they ask where a card is (``owner``), also where each card
is that those counters hold (any whole number that could be a card: the cards the zones
hold are where those zones are).  Once the end's rules have started (the state stands inside
them), nothing is kept.  ``tests/test_envs_tensor.py`` checks the kept figure against
:func:`running` at every step of many games.  Nothing here knows any game.

The score memo's analysis (:mod:`catrules.runtime.reads`) reads the Python the compiler wrote
for expressions (the score items, an allotment's keys); the end's rules are phases, statements
that move cards and ask choices, which it answers "reads everything" for: so the phases are
read here, on the checked game, with :func:`catrules.check.reach.reached` (what they and
everything they use name).
"""

from __future__ import annotations

import marshal
from operator import itemgetter

from ..check.reach import reached
from ..lang import ast
from ..runtime.ending import running

#: Builtins whose value depends on more than the zones and counters named: a card's place.
_WHEREVER = frozenset({"owner"})


def reads(prog):
    """``(zones, counters, places)``: the names of the zones and counters the score and the end's
    rules can read (``zones`` None: any zone), and whether they read where a card is (``owner``)."""
    checked = prog.checked
    g = checked.game
    by_phase = {ph.name: ph for ph in g.phases}
    zone_names = set(checked.zones)
    counter_names = set(checked.counters)
    roots = [item for item in g.score] + [by_phase[k.split(":", 1)[1]].body for k in prog.closing
                                          if k.split(":", 1)[1] in by_phase]
    if prog.closing:
        roots += list(g.triggers)               # a move on the copy may set one off
    zones, counters, everywhere, places = set(), set(), False, False
    for n, r in reached(g, checked.names, roots, walk=_walk):
        if isinstance(n, str):
            if n in zone_names:
                zones.add(n)
            if n in counter_names:
                counters.add(n)
            continue
        if r is None:
            continue
        kind, detail = r
        if kind == "zone":
            zones.add(detail.name)
        elif kind == "counter":
            counters.add(detail.name)
        elif kind == "family":
            everywhere = True
        elif kind == "builtin" and detail in _WHEREVER:
            places = True
    return (None if everywhere else zones), counters, places


def _walk(node):
    """Every node below ``node``, and every text among their fields."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Node):
            yield n
            for f in type(n).__fields__:
                stack.append(getattr(n, f))
        elif isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.keys())
            stack.extend(n.values())
        elif isinstance(n, str):
            yield n


class RunningScore:
    """The running score of one game file and player count (:meth:`rows`), kept per game."""

    def __init__(self, prog, players: int):
        self.prog = prog
        zones, counters, self.places = reads(prog)
        lay = prog.layout(players)
        self.slots = [s for s, sp in enumerate(lay.slot_spec) if zones is None or sp.name in zones]
        slots = self.slots
        # the contents of those slots as a tuple, in one call
        self._zones = (itemgetter(*slots) if len(slots) > 1 else (lambda z: (z[slots[0]],)) if slots
                       else (lambda z: ()))
        self.counters = sorted(counters)
        self.cards = prog.card_count

    def now(self, st):
        """:meth:`rows` of ``st``, kept for the last state asked about (an env's one game)."""
        if getattr(self, "_last", None) is not st:
            self._last, self._kept = st, Kept()
        return self.rows(st, self._kept)

    def rows(self, st, kept: "Kept | None" = None):
        """The score rows a view shows (:func:`catrules.envs.tensor.scores_now`); ``kept``: what
        this gave last for the same game (brought up to date)."""
        if st.over:
            return st.scores() or None
        if kept is None or self._closing(st):
            return running(st)[0]
        if kept.parts is None or not self._same(st, kept.parts):
            kept.parts, kept.rows = self._parts(st), running(st)[0]
        return kept.rows

    def _parts(self, st) -> tuple:
        """What the score reads in ``st``: ``(blob, places, copies, names, values)``: the slots'
        contents, the counters read and the internal counters written out by :mod:`marshal` (one C
        call that copies and later compares them all), where the cards those counters hold are,
        None, every counter's name in order, and a getter of those counters' values (they are
        the counters of ``names``: the same names give the same getter); or, when a value cannot
        be written so, ``(None, places, copies, names, values)`` (:meth:`_copied`)."""
        c = st.c
        names = tuple(c)
        keys = [k for k in self.counters if k in c] + [k for k in names if k[:1] == "#"]
        values = _getter(keys)
        counters, internal = self._values(c)
        places = self._places(st, counters, internal)
        try:
            return _dump(self._zones(st.z), values(c)), places, None, names, values
        except ValueError:
            return None, places, self._copied(st, counters, internal), names, values

    def _values(self, c) -> tuple:
        """The counters the score reads, and the internal ones (``#...``) with their names."""
        return [c.get(k) for k in self.counters], [(k, v) for k, v in c.items() if k[:1] == "#"]

    def _places(self, st, counters, internal) -> list:
        """Where each card is that the counters could hold (if the score reads where cards are)."""
        if not self.places:
            return []
        held: set = set()
        _card_ids([counters, [v for _k, v in internal]], self.cards, held)
        return [(k, st.loc[k]) for k in sorted(held)]

    def _same(self, st, parts) -> bool:
        """Are the parts of ``st`` that the score reads those of ``parts`` (:meth:`_parts`)?  The
        same counters' names in the same order, then the same bytes from :mod:`marshal`: the
        same values of the same types all the way down (its version 2 writes no references to
        objects met before, so how objects are shared does not show); dicts or sets in another
        order only make the figure worked out again.  (A counter the score reads but the state
        lacks shows as a name missing, where it showed as None among the values.)"""
        blob, places, copies, names, values = parts
        loc = st.loc
        for k, where in places:
            if loc[k] != where:
                return False
        c = st.c
        if tuple(c) != names:
            return False
        if blob is None:
            return self._same_copied(st, copies)
        try:
            return _dump(self._zones(st.z), values(c)) == blob
        except ValueError:
            return False

    def _copied(self, st, counters, internal) -> tuple:
        """The parts as copies (values :mod:`marshal` cannot write), for :meth:`_same_copied`."""
        return (tuple(_deep(x) for x in self._zones(st.z)), [_deep(v) for v in counters], tuple(st.c),
                [(k, _deep(v)) for k, v in internal])

    def _same_copied(self, st, copies) -> bool:
        """:meth:`_same` of parts kept as copies (:meth:`_copied`)."""
        c = st.c
        zones, counters, names, internal = copies
        if self._zones(st.z) != zones or tuple(c) != names:
            return False
        for k, was in zip(self.counters, counters):
            if not _equal(c.get(k), was):
                return False
        for k, was in internal:
            if not _equal(c[k], was):
                return False
        return True

    def _closing(self, st) -> bool:
        """Does the state stand inside the end's own rules (then the figure depends on where)?"""
        frames = st.frames
        if frames and frames[0].key == "flow":      # (the common case: the flow at the bottom)
            return len(frames) > 1 and frames[1].key in self.prog.closing
        keys = [f.key for f in frames]
        at = keys.index("flow") if "flow" in keys else len(keys)
        return at + 1 < len(keys) and keys[at + 1] in self.prog.closing


class Kept:
    """The last running score :class:`RunningScore` gave for one game, and what it read."""

    __slots__ = ("parts", "rows")

    def __init__(self):
        self.parts, self.rows = None, None


def _dump(*parts) -> bytes:
    """``parts`` written by :mod:`marshal`'s version 2 (ValueError: a value it cannot write)."""
    return marshal.dumps(parts, 2)


def _getter(keys: list):
    """A function of a dict: the values of ``keys`` as a tuple (one C call where there are two or more)."""
    if len(keys) > 1:
        return itemgetter(*keys)
    if keys:
        k = keys[0]
        return lambda c: (c[k],)
    return lambda c: ()


def _card_ids(v, cards: int, out: set) -> None:
    """Add to ``out`` every whole number in ``v`` (lists and dicts, all the way down) that could be
    a card (from 0 to ``cards`` - 1)."""
    if isinstance(v, list):
        for x in v:
            if type(x) is int:                  # (the common case without a call)
                if 0 <= x < cards:
                    out.add(x)
            elif x is not None:
                _card_ids(x, cards, out)
    elif isinstance(v, dict):
        for x in v.values():
            _card_ids(x, cards, out)
    elif isinstance(v, int) and not isinstance(v, bool) and 0 <= v < cards:
        out.add(v)


def _equal(a, b) -> bool:
    """``a == b``, and of the same types all the way down (``1``, ``1.0`` and ``True`` differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_equal(x, b[k]) for k, x in a.items())
    return a == b


def _deep(v):
    """A copy of a state value that later changes to the state do not reach."""
    if isinstance(v, list):
        return [_deep(x) for x in v]
    if isinstance(v, dict):
        return {k: _deep(x) for k, x in v.items()}
    return v
