"""The language's expressions in English, for the rulebook (``catrules rules --prose``).

:class:`Phraser` turns an expression of a checked game into a phrase: ``count(won of p
where kind == fish)`` reads "the number of cards in p's *won* whose kind is fish".  Names
come from the game (zones, counters, definitions, options, the symbols' ``show`` texts),
so nothing here knows a game.  An expression it cannot phrase is quoted as written, in
code, followed by "(as written)", and recorded in :attr:`Phraser.unphrased` so that the
rulebook can list it.  Given the number of players and the options of one game, it also
works out what they decide (``count(players)``, an option, a ``pick`` on them).

The phrases carry inline marks (:func:`code`, :func:`em`, :func:`strong`) that each output
format renders its own way (:mod:`catrules.authoring.prose_doc`).
"""

from __future__ import annotations

from ..lang import ast
from ..lang import source_text as st
from ..runtime.game_options import option_value_in

CODE, CODE_END, EM, EM_END, STRONG, STRONG_END = "\x01\x02\x03\x04\x05\x06"

_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", ">": "is more than",
            "<=": "is at most", ">=": "is at least", "in": "is in", "not in": "is not in"}
_ARITH = {"+": "+", "-": "−", "*": "×", "/": "÷", "%": "mod"}
_LEVEL = {"or": 1, "and": 2, "+": 4, "-": 4, "*": 5, "/": 5, "%": 5}
_CARDS = {"top", "bottom", "first", "last"}

#: A phrase longer than this many nested calls is quoted as written (it would not read).
MAX_DEPTH = 12


def code(text: str) -> str:
    return f"{CODE}{text}{CODE_END}"


def em(text: str) -> str:
    return f"{EM}{text}{EM_END}"


def strong(text: str) -> str:
    return f"{STRONG}{text}{STRONG_END}"


def words(name: str) -> str:
    """A name of the file as words: ``first_player`` reads "first player"."""
    return name.strip("_").replace("_", " ")


class Unphrasable(Exception):
    """Raised inside the phraser where an expression has no English; caught by :meth:`Phraser.expr`."""


class Phraser:
    """Phrases the expressions of one checked game; see the module's docstring."""

    def __init__(self, checked, players: int | None = None, options=None):
        g = checked.game
        self.game = g
        self.zones = {z.name: z for z in checked.zones.values()}
        self.families = getattr(checked, "families", None) or {}     # zone families (language 4)
        self.counters = {c.name: c for c in g.counters}
        self.defines = {d.name: d for d in g.defines}
        self.options = {o.name for o in g.options}
        self.valued = {o.name: o.values.default for o in g.options if o.values is not None}
        self.shown = {s.symbol: s.text for s in g.symbol_names}
        self.attrs = {a for ct in g.cards for r in ct.rows for a in r.attrs}
        self.players = players
        self.on = None if options is None else set(options)
        self.unphrased: list = []       # (line, source text) of what is quoted as written
        self._elem = 0                  # > 0 inside a `where` or a per-element argument
        self._depth = 0

    # ------------------------------------------------------------- entry points
    def expr(self, e) -> str:
        """``e`` in English; quoted as written, and recorded, where it has none."""
        if e is None:
            return ""
        depth, elem = self._depth, self._elem
        try:
            return self._x(self.fold(e))
        except Unphrasable:
            self._depth, self._elem = depth, elem
            return self.as_written(e)

    def element(self, e) -> str:
        """``e`` as seen from each element of a list (``it`` and bare attributes are its)."""
        self._elem += 1
        try:
            return self.expr(e)
        finally:
            self._elem -= 1

    def as_written(self, e, stmt: bool = False) -> str:
        text = st.stmt(e) if stmt else st.expr(e)
        self.unphrased.append((getattr(e, "line", 0), text))
        return f"{code(text)} (as written)"

    # ------------------------------------------------------------- folding
    def fold(self, e):
        """``e`` with what the players' number and the options decide worked out (a
        :class:`ast.Const`), or ``e`` itself where they do not decide it."""
        v = self.value(e)
        if v is not _UNKNOWN:
            return ast.Const(v, line=e.line, column=e.column)
        if isinstance(e, ast.Pick):
            k = self.value(e.key)
            if k is not _UNKNOWN:
                for key, val in e.cases:
                    if self.value(key) == k:
                        return self.fold(val)
                if e.default is not None:
                    return self.fold(e.default)
        if isinstance(e, ast.IfElse):
            c = self.value(e.cond)
            if c is not _UNKNOWN:
                return self.fold(e.then if c else e.other)
        return e

    def value(self, e):
        """The value of ``e`` if the players' number and the options decide it, else _UNKNOWN."""
        if isinstance(e, ast.Const) and not isinstance(e.value, ast.Sym):
            return e.value
        if isinstance(e, ast.Name) and e.name in self.valued and self.on is not None:
            return option_value_in(self.on, e.name, self.valued[e.name])
        if isinstance(e, ast.Name) and e.name in self.options and self.on is not None:
            return e.name in self.on
        if (isinstance(e, ast.Call) and e.name == "count" and self.players is not None
                and len(e.args) == 1 and isinstance(e.args[0], ast.Keyword) and e.args[0].word == "players"):
            return self.players
        if isinstance(e, ast.Unary) and e.op == "not":
            v = self.value(e.operand)
            return _UNKNOWN if v is _UNKNOWN else not v
        if isinstance(e, ast.Binary) and e.op in ("and", "or"):
            a, b = self.value(e.left), self.value(e.right)
            if e.op == "and" and (a is False or b is False):
                return False
            if e.op == "or" and (a is True or b is True):
                return True
            return _UNKNOWN if _UNKNOWN in (a, b) else (a and b if e.op == "and" else a or b)
        if isinstance(e, ast.Binary) and e.op in ("==", "!=", "<", ">", "<=", ">="):
            a, b = self.value(e.left), self.value(e.right)
            if _UNKNOWN in (a, b) or not all(isinstance(x, int) for x in (a, b)):
                return _UNKNOWN
            return {"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[e.op]
        return _UNKNOWN

    # ------------------------------------------------------------- phrasing
    def _x(self, e) -> str:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise Unphrasable
            return self._phrase(self.fold(e))
        finally:
            self._depth -= 1

    def _phrase(self, e) -> str:
        kind = type(e).__name__
        method = getattr(self, "_" + kind.lower(), None)
        if method is None:
            raise Unphrasable
        return method(e)

    def _const(self, e) -> str:
        v = e.value
        if v is True:
            return "true"
        if v is False:
            return "false"
        if v is None:
            return "nothing"
        if isinstance(v, ast.Sym):
            return self.symbol(v)
        if isinstance(v, str):
            return f"“{v}”"
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(self._const(ast.Const(x)) for x in v) + "]"
        return str(v).replace("-", "−") if isinstance(v, int) and v < 0 else str(v)

    def symbol(self, name: str) -> str:
        return self.shown.get(name, words(name))

    def _name(self, e) -> str:
        n = e.name
        if n in self.families:
            return ("all their " if self.families[n].spec.per_player else "all the ") + em(words(n)) + " zones"
        if n in self.zones:
            z = self.zones[n]
            return ("their " if z.per_player else "the ") + em(words(n))
        if n in self.counters:
            return ("their " if self.counters[n].per_player else "") + words(n)
        if n in self.defines:
            return em(words(n))
        if n in self.valued:
            return f"{em(words(n))} (the option)"
        if n in self.options:
            return f"the {em(words(n))} option is on"
        if n == "it":
            return "it"
        if n == "position":
            return "their place in the race (1 for the fastest)"
        if n == "racers":
            return "the racers (fastest first)"
        if self._elem and n in self.attrs:
            return f"its {words(n)}"
        return self.symbol(n)

    def _keyword(self, e) -> str:
        return {"player": "the player", "players": "the players", "everyone": "everyone"}.get(e.word, e.word)

    def owner(self, e) -> str:
        """``e`` followed by 's (or "its" for ``it``)."""
        if isinstance(e, ast.Name) and e.name == "it":
            return "its"
        if isinstance(e, ast.Keyword) and e.word == "player":
            return "the player's"
        if isinstance(e, ast.Keyword) and e.word == "everyone":
            return "everyone's"
        if isinstance(e, (ast.Name, ast.Attr, ast.Keyword)):
            return self._x(e) + "'s"
        return None

    def _attr(self, e) -> str:
        if isinstance(e.target, (ast.Name, ast.Keyword)):
            return f"{self.owner(e.target)} {words(e.name)}"
        return f"the {words(e.name)} of {self._x(e.target)}"

    def _of(self, e) -> str:
        thing = em(words(e.name)) if e.name in self.zones or e.name in self.families else words(e.name)
        if e.key is not None:
            thing += f" for {self._x(e.key)}"
        elif e.name in self.families:
            thing = f"{thing} zones, all of them"
        whose = self.owner(e.owner)
        if whose is not None:
            return f"{whose} {thing}"
        return f"the {thing} of {self._x(e.owner)}"

    def _listexpr(self, e) -> str:
        return "[" + ", ".join(self._x(i) for i in e.items) + "]"

    def _unary(self, e) -> str:
        if e.op == "-":
            return f"−{self._paren(e.operand, 6)}"
        o = e.operand
        if isinstance(o, ast.Call) and o.name == "any" and len(o.args) == 1:
            xs = o.args[0]
            if self.cardish(xs) and not isinstance(xs, ast.Where):
                return f"there is no card in {self._x(xs)}"
            return f"there is none of {self._x(xs)}"
        if isinstance(o, ast.Binary) and o.op == "in":
            return f"{self._x(o.left)} is not in {self._x(o.right)}"
        return f"not {self._paren(o, 3)}"

    def _paren(self, e, level: int) -> str:
        text = self._x(e)
        inner = _LEVEL.get(e.op, 3) if isinstance(e, ast.Binary) else 9
        if isinstance(e, (ast.IfElse, ast.Where)) or inner < level:
            return f"({text})"
        return text

    def _binary(self, e) -> str:
        op = e.op
        if op in ("and", "or"):
            sides = []
            for side in (e.left, e.right):
                mixed = isinstance(side, ast.Binary) and side.op in ("and", "or") and side.op != op
                sides.append(f"({self._x(side)})" if mixed or isinstance(side, ast.IfElse) else self._x(side))
            return f"{sides[0]} {op} {sides[1]}"
        if op in _ARITH:
            lv = _LEVEL[op]
            tail = " (rounded down)" if op == "/" else ""
            return f"{self._paren(e.left, lv)} {_ARITH[op]} {self._paren(e.right, lv + 1)}{tail}"
        if isinstance(e.right, ast.Const) and e.right.value is None and op in ("==", "!="):
            return f"{self._paren(e.left, 4)} {'is nothing' if op == '==' else 'is something'}"
        return f"{self._paren(e.left, 4)} {_COMPARE.get(op, op)} {self._paren(e.right, 4)}"

    def _ifelse(self, e) -> str:
        parts = []
        while isinstance(e, ast.IfElse):
            parts.append(f"if {self._x(e.cond)} then {self._x(e.then)}")
            e = self.fold(e.other)
        return ", otherwise ".join(parts + [self._x(e)])

    def _text(self, e) -> str:
        return "“" + "".join(p if isinstance(p, str) else f"[{self._x(p)}]" for p in e.parts) + "”"

    def _where(self, e) -> str:
        src = self._x(e.source)
        if e.var is not None:
            src = f"each {e.var} in {src}"
        elif self.cardish(e.source) and e.cond is not None:
            src = f"the cards in {src}"
        if e.cond is None:
            return src
        self._elem += 1
        try:
            cond = self._x(e.cond)
        finally:
            self._elem -= 1
        return f"{src} where {cond}"

    def _pick(self, e) -> str:
        cases = [f"{self._x(v)} for {self._x(k)}" for k, v in e.cases]
        if e.default is not None:
            cases.append(f"otherwise {self._x(e.default)}")
        said = f"depending on {self._x(e.key)}: " + "; ".join(cases)
        # inside a longer phrase ("the top ... cards"), brackets keep its cases apart from the rest
        return f"({said})" if self._depth > 1 else said

    def cardish(self, e) -> bool:
        """``e`` is a zone or cards taken from one (so "the number of cards in ...")."""
        if isinstance(e, ast.Where):
            return e.var is None and self.cardish(e.source)
        if isinstance(e, (ast.Name, ast.Of, ast.Call)) and e.name in self.families:
            return True
        if isinstance(e, ast.Name):
            return e.name in self.zones
        if isinstance(e, ast.Of):
            return e.name in self.zones
        return False

    def _call(self, e) -> str:
        if e.name in self.families and e.name not in self.defines and len(e.args) == 1:
            mine = "their " if self.families[e.name].spec.per_player else "the "
            return f"{mine}{em(words(e.name))} for {self._x(e.args[0])}"
        if e.name in self.defines:
            d = self.defines[e.name]
            if not e.args:
                return em(words(e.name))
            return f"{em(words(d.name))}({', '.join(self._x(a) for a in e.args)})"
        how = _BUILTINS.get((e.name, len(e.args)))
        if how is None:
            raise Unphrasable
        return how(self, *e.args)

    def each(self, source, value) -> tuple:
        """(the list, the per-element value) of ``sum(L, X)`` and the like, in words."""
        return self._x(source), self.element(value)


def _count(ph, x):
    if isinstance(x, ast.Keyword) and x.word == "players":
        return "the number of players"
    return f"the number of {'cards in ' if ph.cardish(x) else ''}{ph._x(x)}".replace(" cards in the cards in ", " cards in ")


def _sum(ph, xs, v=None):
    if v is None:
        return f"the sum of {ph._x(xs)}"
    if isinstance(v, ast.Name) and v.name in ph.attrs:
        return f"the total {words(v.name)} of {'the cards in ' if ph.cardish(xs) else ''}{ph._x(xs)}".replace(
            " the cards in the cards in ", " the cards in ")
    src, each = ph.each(xs, v)
    if isinstance(xs, ast.Where) and xs.var is not None:
        return f"the sum of {each} for {src}"
    return f"the sum of {each} for each of {src}"


def _extreme(word):
    def phrase(ph, xs, v=None):
        if v is None:
            return f"the {word} of {ph._x(xs)}"
        if not _listlike(ph, xs):     # max(a, b): two numbers
            return f"the {word} of {ph._x(xs)} and {ph._x(v)}"
        src, each = ph.each(xs, v)
        return f"the {word} {each.removeprefix('the ')} among {src} (0 if there are none)"
    return phrase


def _listlike(ph, e, seen=()) -> bool:
    """``e`` is a list (``max(L, f)``), not a number (``max(a, b)``), as far as the tree shows."""
    if isinstance(e, (ast.ListExpr, ast.Where)):
        return True
    if isinstance(e, ast.Keyword):
        return e.word in ("players", "everyone")
    if isinstance(e, ast.Const):
        return isinstance(e.value, (list, tuple))
    if isinstance(e, (ast.Name, ast.Of)):
        name = e.name
        if name in ph.zones:
            return True
        d = ph.defines.get(name)
        return d is not None and name not in seen and _listlike(ph, d.body, seen + (name,))
    if isinstance(e, ast.Call):
        if e.name in _LISTS or (e.name == "top" and len(e.args) == 2):
            return True
        d = ph.defines.get(e.name)
        return d is not None and e.name not in seen and _listlike(ph, d.body, seen + (e.name,))
    return False


_LISTS = {"others", "range", "collect", "lines", "places", "rows", "columns", "join", "copies"}


def _best(word):
    def phrase(ph, xs, v):
        src, each = ph.each(xs, v)
        return f"the one of {src} with the {word} {each} (the first of them on a tie)"
    return phrase


def _top(ph, z, n=None):
    if n is None:
        return f"the top card of {ph._x(z)}"
    if isinstance(n, ast.UpTo):             # a short deal intended (language 4)
        if _is_one(n.count):
            return f"the top card of {ph._x(z)} (if it has one)"
        return f"the top {ph._x(n.count)} cards of {ph._x(z)} (fewer if it holds fewer)"
    if _is_one(n):
        return f"the top card of {ph._x(z)}"
    return f"the top {ph._x(n)} cards of {ph._x(z)}"


def _first(word):
    def phrase(ph, z):
        return f"the {word} {'card ' if ph.cardish(z) else ''}of {ph._x(z)}"
    return phrase


def _next(word, side):
    def phrase(ph, p, n=None):
        if n is None:
            return f"the player {word} {ph._x(p)} ({side})"
        return f"the player {ph._x(n)} seats {word} {ph._x(p)} ({side})"
    return phrase


def _random(ph, xs):
    if isinstance(xs, ast.Keyword) and xs.word == "players":
        return "a random player"
    return f"one of {ph._x(xs)} at random"


def _is_one(n) -> bool:
    return isinstance(n, ast.Const) and n.value == 1 and type(n.value) is int


def _any(ph, xs):
    """``any(hand of p)``: "there is a card in p's hand" (a zone's name may be plural: no verb
    agrees with it); a list of other things, or of the cards that meet a condition: "there is
    at least one of ..."."""
    if ph.cardish(xs) and not isinstance(xs, ast.Where):
        return f"there is a card in {ph._x(xs)}"
    return f"there is at least one of {ph._x(xs)}"


def _lines(ph, z):
    zone = ph.zones.get(z.name) if isinstance(z, ast.Name) else None
    if zone is not None and zone.shape == "grid":
        return f"the rows and columns of {ph._x(z)}"
    return f"the lines of {ph._x(z)}"


_BUILTINS = {
    ("count", 1): _count,
    ("sum", 1): _sum, ("sum", 2): _sum,
    ("max", 1): _extreme("largest"), ("max", 2): _extreme("largest"),
    ("min", 1): _extreme("smallest"), ("min", 2): _extreme("smallest"),
    ("best", 2): _best("highest"), ("worst", 2): _best("lowest"),
    ("top", 1): _top, ("top", 2): _top,
    ("bottom", 1): lambda ph, z: f"the bottom of {ph._x(z)}",
    ("first", 1): _first("first"), ("last", 1): _first("last"),
    ("owner", 1): lambda ph, c: f"the owner of {ph._x(c)}",
    ("next", 1): _next("after", "clockwise"), ("next", 2): _next("after", "clockwise"),
    ("previous", 1): _next("before", "counter-clockwise"), ("previous", 2): _next("before", "counter-clockwise"),
    ("others", 1): lambda ph, p: f"the players other than {ph._x(p)}",
    ("random", 1): _random,
    ("any", 1): _any,
    ("abs", 1): lambda ph, x: f"{ph._x(x)} without its sign",
    ("rows", 1): lambda ph, z: f"the rows of {ph._x(z)}",
    ("columns", 1): lambda ph, z: f"the columns of {ph._x(z)}",
    ("lines", 1): _lines,
    ("places", 1): lambda ph, z: f"the places where a card can go in {ph._x(z)}",
    ("range", 2): lambda ph, a, b: f"the numbers from {ph._x(a)} to {ph._x(b)}",
    ("copies", 2): lambda ph, x, n: f"{ph._x(n)} times {ph._x(x)}",
    ("collect", 2): lambda ph, xs, v: "the list of {1} for each of {0}".format(*ph.each(xs, v)),
    ("join", 1): lambda ph, xs: f"the lists of {ph._x(xs)} put together",
    ("tallied", 1): lambda ph, p: f"{ph._x(p)}'s running total",
    ("tallied", 2): lambda ph, p, i: f"{ph._x(p)}'s running total of {ph._x(i)}",
}


_UNKNOWN = object()
