"""Options with values (language 4): ``option rounds: "..." = 3 from 2, 3, 4``.

An option with values is a whole number or a name (a symbol) that the players
choose before the game starts, among the values listed (or every whole number
of a range ``from 2 to 6``); the first value is the default.  Here: the type
such an option has in expressions, and the checks of its declaration (all
numbers or all names, the default among the values, no value twice, a range
that is not empty nor too long, names that mean nothing else in the game).
:class:`OptionValueChecks` is part of the checker (:mod:`catrules.check.checker`).
"""

from __future__ import annotations

from ..lang import ast
from ..lang.parser import keywords
from .types import BOOL, NUMBER, SYMBOL, Type

#: the most values an option may offer (a range included)
OPTION_VALUES_LIMIT = 100


def option_type(opt: ast.Option) -> Type:
    """What ``opt``'s name is in an expression: on/off, a number or a symbol."""
    if opt.values is None:
        return BOOL
    return SYMBOL if isinstance(opt.values.default, str) else NUMBER


def _shown(v) -> str:
    return str(v)


class OptionValueChecks:
    """Mixed into the checker: checks every option with values, after the declarations."""

    def check_option_values(self) -> None:
        for opt in self.g.options:
            if opt.values is not None and self.options.get(opt.name) is opt:
                self._check_one_option(opt, opt.values)

    def _check_one_option(self, opt: ast.Option, ov: ast.OptionValues) -> None:
        rep = self.rep
        if ov.span:
            (lo, ll, lc), (hi, hl, hc) = ov.listed
            if not (isinstance(lo, int) and isinstance(hi, int)):
                bad = (ll, lc) if not isinstance(lo, int) else (hl, hc)
                rep.error(bad, "a range of values `from A to B` goes between two whole numbers",
                          "list names one by one: `= a from a, b, c`")
                return
            if lo > hi:
                rep.error((hl, hc), f"the range {lo} to {hi} is empty", f"write the smaller first: `from {hi} to {lo}`")
                return
            if hi - lo + 1 > OPTION_VALUES_LIMIT:
                rep.error((hl, hc), f"an option offers at most {OPTION_VALUES_LIMIT} values, and this range "
                                    f"has {hi - lo + 1:,}", "offer fewer values, or make it a counter of the game")
                return
        numbers = [isinstance(v, int) for v, _l, _c in ov.listed] + [isinstance(ov.default, int)]
        if any(numbers) and not all(numbers):
            kind = "a whole number" if isinstance(ov.default, int) else "a name"
            bad = next(((ln, c) for v, ln, c in ov.listed if isinstance(v, int) != isinstance(ov.default, int)))
            rep.error(bad, f"the option `{opt.name}`'s values are all whole numbers or all names, and its "
                           f"default is {kind}", "write its values of one kind")
            return
        if not ov.span:
            if len(ov.listed) > OPTION_VALUES_LIMIT:
                rep.error(ov, f"an option offers at most {OPTION_VALUES_LIMIT} values", "offer fewer values")
            seen = set()
            for v, ln, c in ov.listed:
                if v in seen:
                    rep.error((ln, c), f"the value `{v}` is listed twice for option `{opt.name}`",
                              "list each value once")
                seen.add(v)
        choices = ov.choices()
        if ov.default not in choices:
            rep.error(ov, f"the default `{ov.default}` of option `{opt.name}` is not one of its values "
                          f"({', '.join(map(_shown, choices))})",
                      f"write a default among them, such as `= {_shown(choices[0])} from ...`, or add it to the values")
        for v, ln, c in ov.listed:
            if isinstance(v, str):
                self._option_symbol(opt, v, (ln, c))

    def _option_symbol(self, opt: ast.Option, v: str, where: tuple) -> None:
        """A name among an option's values becomes a symbol, unless it names something else."""
        if v in keywords(self.g.version):
            self.rep.error(where, f"`{v}` is a word of the language, so it cannot be a value of option "
                                  f"`{opt.name}`", f"call it something else, such as `my_{v}`")
            return
        other = self._taken(v)
        if other or v in self.attributes:
            self.rep.error(where, f"the value `{v}` of option `{opt.name}` is also the name of a "
                                  f"{other or 'card attribute'}", "give the value another name")
            return
        self.symbols.add(v)

    def check_valued_conditions(self) -> None:
        """An option with values is a number or a symbol, never a condition: ``if rounds:``
        is refused (conditions elsewhere keep the language's truthiness, for older files)."""
        for n in ast.walk(self.g):
            for cond in _conditions(n):
                if isinstance(cond, ast.Name) and self.names.get(id(cond), ("",))[0] == "option":
                    opt = self.options.get(cond.name)
                    if opt is not None and opt.values is not None:
                        t = option_type(opt)
                        example = (f"{cond.name} > {opt.values.choices()[0]}" if t is NUMBER else
                                   f"{cond.name} == {opt.values.default}")
                        self.rep.error(cond, f"option `{cond.name}` has values, so it is "
                                             f"{'a number' if t is NUMBER else 'a symbol'}, not a condition",
                                       f"compare it: `{example}`")


def _conditions(n) -> list:
    """The expressions that ``n`` takes as conditions (true or false)."""
    if isinstance(n, ast.If):
        return [c for c, _body in n.branches]
    if isinstance(n, (ast.IfElse, ast.RepeatUntil)):
        return [n.cond]
    if isinstance(n, ast.Unary) and n.op == "not":
        return [n.operand]
    if isinstance(n, ast.Binary) and n.op in ("and", "or"):
        return [n.left, n.right]
    if isinstance(n, ast.Where):
        return [n.cond] if getattr(n, "cond", None) is not None else []
    if isinstance(n, ast.ScoreItem) and n.only_if is not None:
        return [n.only_if]
    return []
