"""The types the checker gives expressions, and the rules it checks them by.

Every expression of a game file gets a :class:`Type`: a number, a truth
value, a symbol, text, a player, a card (of known card types when they are
known), a list of something, a zone (a list of cards), a line, a place, or
``any`` where it cannot be told.  A type may also be *maybe none*: the value
can be ``none`` (``first``, ``best``, a choice that had no options, a counter
that starts as ``none``...).  A guard such as ``if x != none:`` or
``x != none and ...`` narrows it.  Checks are permissive: ``any`` never causes
an error, so a correct game never fails because a type was not known.  The
checking of expressions by these rules is :mod:`catrules.check.exprs`.
"""

from __future__ import annotations

from typing import Optional

import dataclasses

from ..lang import ast


@dataclasses.dataclass(frozen=True, slots=True)
class Type:
    kind: str = "any"     # any number bool symbol text player card list zone line place none
    of: Optional["Type"] = None      # the element type of a list or zone
    cards: frozenset = frozenset()   # the card types a card may be of (empty: not known)
    none: bool = False               # the value may be none
    late: bool = False               # ... only by a check newer than some files (see strictness.py)

    def maybe(self, flag: bool = True, late: bool = False) -> "Type":
        if self.kind in ("any", "none"):
            return self
        return dataclasses.replace(self, none=flag, late=flag and late)


ANY = Type()
NUMBER = Type("number")
BOOL = Type("bool")
SYMBOL = Type("symbol")
TEXT = Type("text")
PLAYER = Type("player")
CARD = Type("card")
LINE = Type("line")
PLACE = Type("place")
NONE = Type("none", none=True)
LISTY = ("list", "zone", "line")


def list_of(t: Type) -> Type:
    return Type("list", t)


def cards_of(types=()) -> Type:
    return Type("card", cards=frozenset(types))


def element(t: Type) -> Type:
    """The type of one element of ``t`` (a list, a zone or a line)."""
    if t.kind in ("list", "zone"):
        return t.of or ANY
    if t.kind == "line":
        return CARD
    return ANY


def join(a: Optional[Type], b: Optional[Type]) -> Type:
    """A type for a value that is either an ``a`` or a ``b``."""
    if a is None:
        return b if b is not None else ANY
    if b is None:
        return a
    if a.kind == "none":
        return b.maybe() if b.kind != "none" else a
    if b.kind == "none":
        return a.maybe()
    if a.kind == "any" or b.kind == "any":
        return ANY
    none = a.none or b.none
    late = none and all(x.late for x in (a, b) if x.none)
    if a.kind != b.kind:
        kinds = {a.kind, b.kind}
        if kinds <= {"list", "zone"}:
            return Type("list", join(element(a), element(b)), none=none, late=late)
        if kinds == {"symbol", "text"}:
            return Type("symbol", none=none, late=late)
        if kinds == {"number", "player"}:          # players are numbered: `counter leader = 0`
            return Type("player", none=none, late=late)
        return ANY
    of = join(a.of, b.of) if (a.of is not None or b.of is not None) else None
    cards = a.cards | b.cards if (a.cards and b.cards) else frozenset()
    return Type(a.kind, of, cards, none, late)


_FAMILY = {"number": "number", "bool": "truth value", "symbol": "symbol", "text": "symbol",
           "player": "number",      # players are numbered (`counter leader = 0`)
           "card": "card", "list": "list", "zone": "list", "line": "list",
           "place": "place"}


def family(t: Type) -> Optional[str]:
    return _FAMILY.get(t.kind)


def describe(t: Type) -> str:
    """``a player``, ``a list of cards``, ``a card (or none)``..."""
    k = t.kind
    if k == "any":
        return "a value"
    if k == "none":
        return "none"
    if k == "list":
        inner = element(t)
        text = "a list" if inner.kind == "any" else "a list of " + _plural(inner)
    elif k == "zone":
        text = "a zone of cards"
    elif k == "card" and len(t.cards) == 1:
        text = f"a `{next(iter(t.cards))}` card"
    else:
        text = {"number": "a number", "bool": "a truth value", "symbol": "a symbol", "text": "text",
                "player": "a player", "card": "a card", "line": "a line", "place": "a place"}[k]
    return text + (" (or none)" if t.none else "")


def _plural(t: Type) -> str:
    return {"number": "numbers", "bool": "truth values", "symbol": "symbols", "text": "texts",
            "player": "players", "card": "cards", "line": "lines", "place": "places",
            "list": "lists", "zone": "zones"}.get(t.kind, "values")


def kind_name(t: Optional[Type]) -> Optional[str]:
    """The compiler's kind of a value (element kind for a list): player, card, number..."""
    if t is None:
        return None
    if t.kind in ("list", "zone"):
        return kind_name(element(t))
    return {"player": "player", "card": "card", "number": "number", "symbol": "symbol", "text": "symbol",
            "bool": "bool", "line": "line", "place": "place", "none": "none"}.get(t.kind)


#: The attributes of places and lines, and their types.
PLACE_ATTR_TYPES = {"index": NUMBER, "position": NUMBER, "cards": list_of(CARD), "new": BOOL, "start": BOOL,
                    "end": BOOL, "before": CARD.maybe(), "after": CARD.maybe(), "line": LINE}


def value_type(v) -> Type:
    """The type of one attribute value in a card row."""
    if v is None:
        return NONE
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return NUMBER
    if isinstance(v, ast.Sym):
        return SYMBOL
    if isinstance(v, str):
        return TEXT
    if isinstance(v, (tuple, list)):
        t = None
        for x in v:
            t = join(t, value_type(x))
        return list_of(t or ANY)
    return ANY


def path(e) -> Optional[str]:
    """A key naming the value ``e`` stands for, for narrowing (``x``, ``placed of p``, ``c.before``)."""
    if isinstance(e, ast.Name):
        return e.name
    if isinstance(e, ast.Keyword) and e.word == "player":
        return "player"
    if isinstance(e, ast.Of):
        inner = path(e.owner)
        return f"{e.name} of {inner}" if inner else None
    if isinstance(e, ast.Attr):
        inner = path(e.target)
        return f"{inner}.{e.name}" if inner else None
    return None


def _is_none(e) -> bool:
    return isinstance(e, ast.Const) and e.value is None


def not_none(cond, holds: bool = True) -> frozenset:
    """The values known not to be none when ``cond`` is ``holds``."""
    if isinstance(cond, ast.Unary) and cond.op == "not":
        return not_none(cond.operand, not holds)
    if isinstance(cond, ast.Binary):
        if cond.op in ("==", "!=") and (_is_none(cond.left) or _is_none(cond.right)):
            other = cond.right if _is_none(cond.left) else cond.left
            if (cond.op == "!=") == holds and path(other):
                return frozenset({path(other)})
            return frozenset()
        if (cond.op == "and" and holds) or (cond.op == "or" and not holds):
            return not_none(cond.left, holds) | not_none(cond.right, holds)
        # count(L) > 0, count(L) >= 1, count(L) == 2...: L has a first element
        if isinstance(cond.left, ast.Call) and cond.left.name == "count" and len(cond.left.args) == 1 \
                and isinstance(cond.right, ast.Const) and type(cond.right.value) is int and path(cond.left.args[0]):
            k, op = cond.right.value, cond.op
            some = {">": k >= 0, ">=": k >= 1, "==": k >= 1, "!=": k == 0}.get(op, False)
            none_ = {"==": k == 0, "<": k <= 1, "<=": k == 0}.get(op, False)
            if (some and holds) or (none_ and not holds):
                return frozenset({"some " + path(cond.left.args[0])})
    if isinstance(cond, ast.Call) and cond.name == "any" and len(cond.args) == 1 and holds and path(cond.args[0]):
        return frozenset({"some " + path(cond.args[0])})
    return frozenset()


def uses_element(e, attributes, outer: Type) -> bool:
    """Could a reader of ``e`` take its ``it`` for the outer element ``outer``: does it say
    ``it``, or a bare card attribute while the outer element may be a card too?"""
    cardish = outer.kind in ("card", "any")
    return any(isinstance(n, ast.Name) and (n.name == "it" or (cardish and n.name in attributes))
               for n in ast.walk(e))


#: The builtin functions that may give none (for an empty list, a card in a shared zone): the
#: checker takes what they give as maybe none, and docs/language.rst lists the same names
#: (tests/test_checker_sound.py compares the two). ``owner`` (of a card from a shared zone) joined
#: the list while language 3 was the newest: for older files, a warning (see strictness.py).
MAYBE_NONE_BUILTINS = ("first", "last", "top", "best", "worst", "random", "owner")

#: Builtin functions: name -> (fewest, most arguments, index of the argument
#: evaluated once per element of the first one, or None).
BUILTINS = {
    "count": (1, 1, None), "sum": (1, 2, 1), "max": (1, 2, 1), "min": (1, 2, 1),
    "best": (2, 2, 1), "worst": (2, 2, 1), "first": (1, 1, None), "last": (1, 1, None),
    "top": (1, 2, None), "bottom": (1, 1, None), "owner": (1, 1, None), "next": (1, 2, None),
    "previous": (1, 2, None), "random": (1, 1, None), "any": (1, 1, None), "others": (1, 1, None),
    "rows": (1, 1, None), "columns": (1, 1, None), "lines": (1, 1, None), "places": (1, 1, None),
    "abs": (1, 1, None), "range": (2, 2, None), "copies": (2, 2, None), "collect": (2, 2, 1),
    "join": (1, 1, None), "tallied": (1, 2, None),
}

#: Attributes of places and lines (values of lines and grid zones).
PLACE_ATTRS = set(PLACE_ATTR_TYPES)


class Scope:
    """What a name may mean here: the local variables, whether ``it`` and bare card
    attributes are about an element, whether ``player`` means someone, loop depth,
    the unit (flow, a phase, an action...), the types of element variables and
    parameters, and the values a guard has shown not to be none."""
    __slots__ = ("locals", "element", "player", "loops", "unit", "elem", "narrow")

    def __init__(self, locals_, element=False, player=False, loops=0, unit="", elem=None, narrow=frozenset()):
        self.locals = locals_
        self.element = element
        self.player = player
        self.loops = loops
        self.unit = unit
        self.elem = elem or {}
        self.narrow = narrow

    def with_(self, **kw):
        s = Scope(self.locals, self.element, self.player, self.loops, self.unit, self.elem, self.narrow)
        for k, v in kw.items():
            setattr(s, k, v)
        return s

    def bind(self, name: str, t: Type, element: Optional[bool] = None) -> "Scope":
        """This scope with ``name`` standing for one element of type ``t``."""
        s = self.with_(locals=self.locals | {name}, elem={**self.elem, name: t},
                       narrow=frozenset(p for p in self.narrow if name not in p.replace(".", " ").split()))
        if element is not None:
            s.element = element
        return s

    def knowing(self, facts: frozenset) -> "Scope":
        return self.with_(narrow=self.narrow | facts) if facts else self


NONE_HINT = "check it first: `if {0} != none:` (or `{0} != none and ...`)"


def _none_hint(e) -> str:
    p = path(e)
    return NONE_HINT.format(p) if p else "check it is not none first"
