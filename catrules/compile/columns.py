"""The cards' printed columns in generated code, and how names bind while it is generated.

A card's attribute (``c.colour``) is read from a table by card id.  Where the card can only
be a card id (an element of a pile's or row's cards: never none, never out of range) the
table is a tuple (``_t_colour``), Python's cheapest look-up; anywhere else a dict that also
gives none for none (``_a_colour``).  :class:`Env` carries which element variables are such
card ids; :class:`CardColumns` (mixed into :class:`~catrules.compile.codegen.CodeGen`) makes
the tables and chooses between them.
"""

from __future__ import annotations

import sys

from ..lang import ast


class Env:
    """How names bind while generating one function: element variables -> Python locals.

    ``sure`` holds the locals that can only be card ids (an element of a pile's or row's cards:
    never none, never out of range), whose columns are read from tuples (see
    :meth:`CodeGen.card_column`)."""
    __slots__ = ("locals", "depth", "sure")

    def __init__(self, locals_=None, depth=0, sure=frozenset()):
        self.locals = locals_ or {}
        self.depth = depth
        self.sure = sure

    def _sure(self, name: str, sure: bool) -> frozenset:
        return self.sure | {name} if sure else self.sure - {name}

    def element(self, extra=(), sure=False):
        name = f"_i{self.depth}"
        loc = dict(self.locals)
        loc["it"] = name
        for n in extra:
            loc[n] = name
        return Env(loc, self.depth + 1, self._sure(name, sure)), name

    def named(self, var, sure=False):
        """A new element variable called ``var`` in the game file; ``it`` keeps its meaning."""
        name = f"_i{self.depth}"
        return Env({**self.locals, var: name}, self.depth + 1, self._sure(name, sure)), name


class CardColumns:
    """The column tables of a game's generated code (see the module's docstring); the class
    using it has ``prog`` (the program), ``names`` (the checker's name table) and ``ns`` (the
    namespace the code is compiled in)."""

    def column(self, attr: str) -> str:
        """A card-id -> value table for ``attr``; looking up ``none`` gives none."""
        name = f"_a_{attr}"
        if name not in self.ns:
            col = dict(enumerate(self.plain_column(attr)))
            col[None] = None
            self.ns[name] = col
        return name

    def card_column(self, attr: str, card: str, env) -> str:
        """Code for the ``attr`` of the card ``card`` (code): from a tuple indexed by card id when
        ``card`` can only be a card id (``env.sure``), cheaper to read than the dict of
        :meth:`column`, which also takes none."""
        if card not in env.sure:
            return f"{self.column(attr)}[{card}]"
        name = f"_t_{attr}"
        if name not in self.ns:
            self.ns[name] = self.plain_column(attr)
        return f"{name}[{card}]"

    def plain_column(self, attr: str) -> tuple:
        """The values of ``attr`` by card id, a bare word as plain text: equal to the card data's
        symbol (:class:`~catrules.lang.ast.Sym`, a ``str`` subclass) and to a word written in the
        rules, which compiles to plain text; Python compares two plain texts faster than a text
        and a subclass of it (its specialised comparison takes exact ``str`` only), and at once
        when both are the same object: interned, as a word written in the rules is."""
        return tuple(sys.intern(str(v)) if type(v) is ast.Sym else v for v in self.prog.attr_col[attr])

    def sure_cards(self, node) -> bool:
        """Whether the list ``node`` gives holds card ids only: the cards of a pile or a row (one
        player's, or everyone's), of a card type, or those of them a ``where`` keeps."""
        while isinstance(node, ast.Where):
            node = node.source
        if not isinstance(node, (ast.Name, ast.Of)):
            return False
        kind, detail = self.names.get(id(node), (None, None))
        if kind == "cardtype":
            return True
        return kind == "zone" and getattr(detail, "shape", None) in ("pile", "row")
