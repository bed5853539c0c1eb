"""Computed copy counts of card rows (language 4): ``(13 - value) cards``, worked out when the game is built.

A card row may give its number of copies as an expression in parentheses.  It is worked out
for each card the enclosing ``for each`` loops and ``with`` blocks make, from their values
(the attributes set so far), whole numbers, symbols of the card data (``wild``), ``true`` and
``false``, with ``+ - * / %``, comparisons, ``and``/``or``/``not`` and ``if ... then ... else``.
The result must be a whole number, 0 or more (0: no such card).  A mistake is reported once per
row, at its place in the file.  In language 4 a bare word in a row's values that names an
enclosing ``for each`` loop stands for that loop's value (``(n) cards with value n``).
"""

from __future__ import annotations

from . import ast
from ..errors import suggest

LANGUAGE = 4        # the language version that works out copy counts


class CountError(Exception):
    """A copy count that cannot be worked out: the node at fault, a message and a hint."""

    def __init__(self, node, message: str, hint: str):
        super().__init__(message)
        self.node, self.message, self.hint = node, message, hint


_HINT = ("a copy count uses numbers, the names of the enclosing `for each` loops and `with` "
         "values, and + - * / % or `if ... then ... else`")


def copy_count(expr, values: dict, symbols: set):
    """The copies ``expr`` gives with the attributes ``values``; raises :class:`CountError`."""
    v = _value(expr, values, symbols)
    if type(v) is not int:
        raise CountError(expr, f"this copy count is {_what(v)}, not a whole number",
                         "a card row has a whole number of copies, such as `(13 - value) cards`")
    if v < 0:
        raise CountError(expr, f"this copy count is {v} here ({_where(values)}); a row has 0 copies or more",
                         "make the count 0 or more for every value of the loops, e.g. with `if ... then ... else 0`")
    return v


def _where(values: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in values.items()) or "no loop"


def _what(v) -> str:
    if isinstance(v, bool):
        return "true or false"
    if isinstance(v, ast.Sym):
        return f"the symbol `{v}`"
    if isinstance(v, str):
        return "a text"
    if v is None:
        return "none"
    if isinstance(v, tuple):
        return "a list"
    return "a value"


def _value(e, values: dict, symbols: set):
    if isinstance(e, ast.Const):
        return e.value
    if isinstance(e, ast.Name):
        if e.name in values:
            return values[e.name]
        if e.name in symbols:
            return ast.Sym(e.name)
        known = ", ".join(f"`{k}`" for k in values) or "none here"
        raise CountError(e, f"unknown name `{e.name}` in a copy count (the loops' names: {known})",
                         suggest(e.name, list(values) + sorted(symbols)) or _HINT)
    if isinstance(e, ast.IfElse):
        cond = _value(e.cond, values, symbols)
        if not isinstance(cond, bool):
            raise CountError(e.cond, f"the condition of this `if` is {_what(cond)}, not true or false",
                             "compare values, such as `if kind == wild then 2 else 1`")
        return _value(e.then if cond else e.other, values, symbols)
    if isinstance(e, ast.Unary):
        v = _value(e.operand, values, symbols)
        if e.op == "not" and isinstance(v, bool):
            return not v
        if e.op == "-" and type(v) is int:
            return -v
        raise CountError(e, f"`{e.op}` of {_what(v)} in a copy count", _HINT)
    if isinstance(e, ast.Binary):
        return _binary(e, values, symbols)
    raise CountError(e, "a copy count cannot say this (it is worked out once, when the game is built)", _HINT)


def _binary(e, values: dict, symbols: set):
    a = _value(e.left, values, symbols)
    if e.op in ("and", "or"):
        if not isinstance(a, bool):
            raise CountError(e.left, f"`{e.op}` needs true or false; this is {_what(a)}", _HINT)
        if (e.op == "and") != a:
            return a
        b = _value(e.right, values, symbols)
        if not isinstance(b, bool):
            raise CountError(e.right, f"`{e.op}` needs true or false; this is {_what(b)}", _HINT)
        return b
    b = _value(e.right, values, symbols)
    if e.op == "==":
        return a == b and type(a) is type(b)
    if e.op == "!=":
        return not (a == b and type(a) is type(b))
    if type(a) is not int or type(b) is not int:
        bad, v = (e.left, a) if type(a) is not int else (e.right, b)
        raise CountError(bad, f"`{e.op}` needs whole numbers; this is {_what(v)}", _HINT)
    if e.op in ("/", "%") and b == 0:
        raise CountError(e.right, f"`{e.op}` by zero in a copy count ({_where(values)})",
                         "make the divisor a number other than 0 for every value of the loops")
    ops = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a // b,
           "%": lambda: a % b, "<": lambda: a < b, ">": lambda: a > b, "<=": lambda: a <= b,
           ">=": lambda: a >= b}
    if e.op not in ops:
        raise CountError(e, f"`{e.op}` cannot be used in a copy count", _HINT)
    return ops[e.op]()


def symbols_of(items) -> set:
    """The symbols (bare words) among the values of card items as the builder gives them."""
    out: set = set()
    stack = list(items)
    while stack:
        x = stack.pop()
        if isinstance(x, ast.Sym):
            out.add(str(x))
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return out


class CopyCounts:
    """The computed rows of one card type as the builder expands them: each worked out for the
    values around it, its mistakes reported once; ``counted`` lists the rows' counts as written."""

    def __init__(self, rep, items, version: int = LANGUAGE):
        self.rep = rep
        self.version = version
        self.symbols = symbols_of(items)
        self.counted: list = []
        self._failed: set = set()

    def value(self, v, ctx: dict, loops):
        """An attribute value of a row: in language 4 a bare word that names an enclosing
        ``for each`` loop is that loop's value (``(n) cards with value n``); else as written."""
        if self.version >= LANGUAGE and isinstance(v, ast.Sym) and str(v) in loops:
            return ctx[str(v)]
        return v

    def row(self, item, ctx: dict):
        """``item`` with its count worked out (None: a mistake, or 0 copies)."""
        count = item[1]
        if not isinstance(count, ast.CopyCount):
            return item
        if all(c is not count for c in self.counted):
            self.counted.append(count)
        if id(count) in self._failed:
            return None
        try:
            n = copy_count(count.expr, dict(ctx), self.symbols)
        except CountError as exc:
            self._failed.add(id(count))
            self.rep.error(exc.node, exc.message, exc.hint)
            return None
        if n == 0:
            return None
        return (item[0], n) + tuple(item[2:])
