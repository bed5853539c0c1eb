"""Where each card type can ever be: the zones the rules may put a card of that type in.

Worked out once when a game is compiled (:func:`type_zones`, kept as ``Program.zone_types``),
from the checked game: a type starts in its own zone, and goes wherever a ``move``,
``fill``, ``exchange`` or ``allot`` may take a card of it.  The types a statement moves come
from its card expression (a zone gives the types that may be in it, a variable the types of
what it is bound to); where that is not clear, every type; a move to a place may go to any
``lines`` zone.  Repeated until nothing changes.  Imagined games deal an unknown card only
among the places of its type (:mod:`catrules.runtime.sampling`), and a choice tells nothing
of cards that can never be in its zone (:mod:`catrules.runtime.inference`).
"""

from __future__ import annotations

from ..lang import ast
from .families import named_indices, zone_indices

#: Calls that give cards of the list they take first.
_PICKS = ("top", "first", "last", "best", "worst", "random", "bottom")


def type_zones(prog) -> dict:
    """Card type -> the zone indices (a frozenset) where the rules can ever put a card of that
    type, for the program ``prog`` being compiled (it reads ``prog.checked``)."""
    ck = prog.checked
    zones_of: dict = {}
    for ct in ck.game.cards:
        zones_of.setdefault(ct.name, set()).add(ck.zones[ct.zone].index)
    nodes = list(ast.walk(ck.game.bodies))
    reach = _Reach(ck, frozenset(prog.cards_of_type), zones_of, _bindings(ck, nodes))
    changed = True
    while changed:
        changed = False
        for n in nodes:
            for ts, zs in reach.spreads(n):
                for t in ts:
                    if not zs <= zones_of[t]:
                        zones_of[t] |= zs
                        changed = True
    return {t: frozenset(zs) for t, zs in zones_of.items()}


def _bindings(ck, nodes: list) -> dict:
    """Local name -> the expressions it is bound to (a trigger's card: ``("zone", index)``)."""
    binds: dict = {}
    for t in ck.game.triggers:
        binds.setdefault(t.var, []).extend(("zone", i) for i in named_indices(ck, t.zone))
    params = {a.name: a.params for a in ck.game.actions}
    for n in nodes:
        if isinstance(n, (ast.Choose, ast.Together, ast.ForEach)):
            binds.setdefault(n.var, []).append(n.source)
        elif isinstance(n, ast.Assign) and n.name not in ck.counters:
            binds.setdefault(n.name, []).append(n.value)
        elif isinstance(n, ast.Do):
            for k, a in zip(params.get(n.action, ()), n.args):
                binds.setdefault(k, []).append(a)
    return binds


class _Reach:
    """What the statements of a game say of where cards go, as the analysis knows it so far
    (``zones_of``: card type -> the zone indices found until now, grown in place)."""

    def __init__(self, ck, every: frozenset, zones_of: dict, binds: dict):
        self.names = ck.names
        self.ck = ck
        self.every = every
        self.zones_of = zones_of
        self.binds = binds
        self.all_zones = {z.index for z in ck.zones.values()}
        self.lines_zones = {z.index for z in ck.zones.values() if z.shape == "lines"}

    def spreads(self, n):
        """(card types, zone indices) pairs that statement ``n`` may put those types in; each is
        worked out when taken, after the ones before it were added."""
        if isinstance(n, ast.Move):
            yield self.types(n.cards), self.dests(n.dest)
        elif isinstance(n, ast.Fill):
            yield self.types(n.source), self.zone_of(n.zone)
        elif isinstance(n, ast.Allot):
            src, into = self.zone_of(n.source), self.zone_of(n.into)
            for a_, b_ in ((src, into), (into, src)):
                ts = set()
                for zi in a_:
                    ts |= self.in_zone(zi)
                yield ts, b_
        elif isinstance(n, ast.Exchange):
            for a_, b_ in ((n.first, n.second), (n.second, n.first)):
                zs = set()
                for t in self.types(b_):
                    zs |= self.zones_of[t]
                yield self.types(a_), zs

    def in_zone(self, zi) -> set:
        return {t for t, zs in self.zones_of.items() if zi in zs}

    def types(self, e, seen=()) -> set:
        """The card types expression ``e`` may give (every type where that is not clear)."""
        if isinstance(e, tuple):                       # ("zone", index): a trigger's card
            return self.in_zone(e[1])
        if e is None or (isinstance(e, ast.Const) and e.value is None):
            return set()
        if isinstance(e, ast.Where):
            return self.types(e.source, seen)
        if isinstance(e, (ast.Name, ast.Of)) or (isinstance(e, ast.Call) and self.names.get(id(e), ("",))[0]
                                                  == "zone"):
            return self._named_types(e, seen)
        if isinstance(e, ast.Call) and e.name in _PICKS and e.args:
            return self.types(e.args[0], seen)
        if isinstance(e, ast.ListExpr):
            out = set()
            for x in e.items:
                out |= self.types(x, seen)
            return out
        if isinstance(e, ast.IfElse):
            return self.types(e.then, seen) | self.types(e.other, seen)
        return set(self.every)

    def _named_types(self, e, seen) -> set:
        """The card types of a name: a zone, a card type, or a local through what it is bound to."""
        r = self.names.get(id(e))
        if r and r[0] in ("zone", "family"):      # a zone, a family's member, or all its members
            spec = r[1] if r[0] == "zone" else r[1].spec
            out = set()
            for zi in zone_indices(self.ck, spec):
                out |= self.in_zone(zi)
            return out
        if r and r[0] == "cardtype":
            return {r[1]} if r[1] in self.every else set(self.every)
        binds = self.binds
        if r and r[0] == "local" and isinstance(e, ast.Name) and e.name in binds and e.name not in seen:
            out = set()
            for b in binds[e.name]:
                out |= self.types(b, seen + (e.name,))
            return out
        return set(self.every)

    def dests(self, e) -> set:
        """The zones a move to ``e`` may put cards in."""
        if isinstance(e, ast.Call) and e.name == "bottom" and e.args:
            return self.dests(e.args[0])
        r = self.names.get(id(e))
        if isinstance(e, (ast.Name, ast.Of, ast.Call)) and r and r[0] == "zone":
            return zone_indices(self.ck, r[1])
        return set(self.lines_zones)                   # a place: in some lines zone

    def zone_of(self, e) -> set:
        r = self.names.get(id(e))
        return zone_indices(self.ck, r[1]) if r and r[0] == "zone" else set(self.all_zones)
