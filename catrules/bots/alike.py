"""Options alike: cards a choice cannot tell apart, searched as one edge of the tree.

A choice among cards often offers several cards that differ in nothing but their number:
sixteen silver coins in a market, two green 3s in a hand.  Searched one by one, they split
the search's visits among options that lead to the same games.  :class:`Alike` gives each
option of a choice an *edge*: for a card, the zone place it lies in and everything the game
file says of it (its values and its shown name); for any other option, its id.  Options of
the same edge are taken for one (the first of them stands for the rest).  Nothing here knows
any game.
"""

from __future__ import annotations


class Alike:
    """The edges of choices for the games of one program (kept per program)."""

    def __init__(self):
        self.prog = None
        self.kinds: list = []

    def _kinds(self, prog) -> list:
        if prog is not self.prog:
            self.prog = prog
            self.kinds = [repr((label, sorted(attrs.items())))
                          for label, attrs in zip(prog.card_label, prog.card_attrs)]
        return self.kinds

    def edges(self, st, ids: list, values: list) -> dict:
        """``{edge: (option id, value)}`` for the options ``ids`` (with their ``values``) of the
        imagined game ``st``'s pending decision, in their order; an edge's first option stands
        for the others alike."""
        p = st.pending_
        out: dict = {}
        if p is None or p.okind != "card":
            for oid, v in zip(ids, values):
                out[oid] = (oid, v)
            return out
        kinds, loc = self._kinds(st.prog), st.loc
        for oid, v in zip(ids, values):
            edge = (loc[v], kinds[v]) if type(v) is int else oid
            if edge not in out:
                out[edge] = (oid, v)
        return out

    def edges_of(self, st, values: list, okind: str) -> dict:
        """``{edge: (index, value)}`` for the ``values`` (of kind ``okind``) of a choice of the
        imagined game ``st`` answered inside the running game (no pending decision: no ids built
        but for options that are not cards), in their order; as :meth:`edges` otherwise."""
        out: dict = {}
        option_id = st.prog.option_id
        if okind != "card":
            for i, v in enumerate(values):
                out[option_id(okind, v)] = (i, v)
            return out
        kinds, loc = self._kinds(st.prog), st.loc
        for i, v in enumerate(values):
            edge = (loc[v], kinds[v]) if type(v) is int else option_id(okind, v)
            if edge not in out:
                out[edge] = (i, v)
        return out

