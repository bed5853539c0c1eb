"""AST back to source text: an expression, a statement's header, a unit's title.

Used where a step must be shown in the language's own words (the action
graph's labels).  The printed text parses back to the same tree: parentheses
are added only where the grammar's precedence needs them.  A node kind this
module does not know prints as its class name, so a new statement still shows.
"""

from __future__ import annotations

from . import ast
from .upto import count_words

# Binding strength, loosest first, following catrules/lang/catrules.lark.
_WHERE, _IFELSE, _OR, _AND, _NOT, _COMPARE, _SUM, _PRODUCT, _UNARY, _OF, _POSTFIX = range(11)
_BINARY = {"or": _OR, "and": _AND, "+": _SUM, "-": _SUM, "*": _PRODUCT, "/": _PRODUCT, "%": _PRODUCT}


def expr(e, need: int = _WHERE) -> str:
    """``e`` as source text, in parentheses if it binds more loosely than ``need``."""
    text, prec = _expr(e)
    return f"({text})" if prec < need else text


def _expr(e) -> tuple[str, int]:
    if isinstance(e, ast.Const):
        return _const(e.value), _POSTFIX
    if isinstance(e, ast.Name):
        return e.name, _POSTFIX
    if isinstance(e, ast.Keyword):
        return e.word, _POSTFIX
    if isinstance(e, ast.Attr):
        return f"{expr(e.target, _POSTFIX)}.{e.name}", _POSTFIX
    if isinstance(e, ast.Of):
        name = e.name if e.key is None else f"{e.name}({expr(e.key)})"      # a zone family's member
        return f"{name} of {expr(e.owner, _OF)}", _OF
    if isinstance(e, ast.Call):
        return f"{e.name}({_args(e.args)})", _POSTFIX
    if isinstance(e, ast.ListExpr):
        return f"[{_args(e.items)}]", _POSTFIX
    if isinstance(e, ast.UpTo):
        return f"up to {expr(e.count)}", _POSTFIX
    if isinstance(e, ast.Pick):
        cases = [f"{expr(k)}: {expr(v)}" for k, v in e.cases]
        if e.default is not None:
            cases.append(f"else: {expr(e.default)}")
        return f"pick({', '.join([expr(e.key)] + cases)})", _POSTFIX
    if isinstance(e, ast.Unary):
        if e.op == "not":
            return f"not {expr(e.operand, _NOT)}", _NOT
        return f"-{expr(e.operand, _UNARY)}", _UNARY
    if isinstance(e, ast.Binary):
        prec = _BINARY.get(e.op, _COMPARE)
        if prec == _COMPARE:        # comparisons do not chain: both sides are sums
            return f"{expr(e.left, _SUM)} {e.op} {expr(e.right, _SUM)}", _COMPARE
        return f"{expr(e.left, prec)} {e.op} {expr(e.right, prec + 1)}", prec
    if isinstance(e, ast.IfElse):
        return f"if {expr(e.cond)} then {expr(e.then)} else {expr(e.other, _IFELSE)}", _IFELSE
    if isinstance(e, ast.Text):
        return '"' + "".join(p.replace("{", "{{").replace("}", "}}") if isinstance(p, str)
                             else "{" + expr(p) + "}" for p in e.parts) + '"', _POSTFIX
    if isinstance(e, ast.Where):
        cond = f" where {expr(e.cond, _IFELSE)}" if e.cond is not None else ""
        if e.var is not None:
            return f"each {e.var} in {expr(e.source, _IFELSE)}{cond}", _WHERE
        return f"{expr(e.source, _IFELSE)}{cond}", _WHERE
    return type(e).__name__.lower(), _POSTFIX


def _const(v) -> str:
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "none"
    if isinstance(v, str) and not isinstance(v, ast.Sym):
        return f'"{v}"'
    return str(v)


def _args(items) -> str:
    return ", ".join(expr(a) for a in items)


def _owned(name: str, owner) -> str:
    return f"{name} of {expr(owner, _OF)}" if owner is not None else name


def _opts(o) -> str:
    if o is None:
        return ""
    out = f" preferring {expr(o.preferring)}" if o.preferring is not None else ""
    if o.default_dir is not None:
        out += f" default {o.default_dir} {expr(o.default_key)}"
    if o.default_is is not None:
        out += f" default {expr(o.default_is)}"
    if o.asking is not None:
        out += f" asking {expr(o.asking)}"
    return out


def stmt(s) -> str:
    """One statement as source text; a block statement as its header line, without the ``:``."""
    if isinstance(s, ast.Move):
        return f"move {expr(s.cards)} to {expr(s.dest)}"
    if isinstance(s, ast.Shuffle):
        return f"shuffle {expr(s.zone)}"
    if isinstance(s, ast.Fill):
        return f"fill {expr(s.zone)} from {expr(s.source)}"
    if isinstance(s, ast.Exchange):
        return f"exchange {expr(s.first)} with {expr(s.second)}"
    if isinstance(s, ast.Assign):
        return f"{_owned(s.name, s.owner)} = {expr(s.value)}"
    if isinstance(s, ast.Add):
        return f"add {expr(s.amount)} to {_owned(s.name, s.owner)}"
    if isinstance(s, ast.Choose):
        openly = "openly " if s.public else ""
        return f"{openly}{s.actor} chooses {count_words(s.count, s.up_to, expr)}{s.var} from {expr(s.source)}{_opts(s.opts)}"
    if isinstance(s, ast.Play):
        return f"play {s.phase}"
    if isinstance(s, ast.Do):
        return f"do {s.action}({_args(s.args)})"
    if isinstance(s, ast.Announce):
        return f"announce {expr(s.text)}"
    if isinstance(s, ast.Nothing):
        return "do nothing"
    if isinstance(s, ast.EndGame):
        return "end game"
    if isinstance(s, ast.StopLoop):
        return "stop"
    if isinstance(s, ast.Tally):
        return "tally" + (f" {expr(s.title)}" if s.title is not None else "")
    if isinstance(s, ast.If):
        return f"if {expr(s.branches[0][0])}"
    if isinstance(s, ast.RepeatTimes):
        return f"repeat {expr(s.count)} times"
    if isinstance(s, ast.RepeatUntil):
        return f"repeat {'while' if s.negate else 'until'} {expr(s.cond)}"
    if isinstance(s, ast.ForPlayers):
        order = f" clockwise from {expr(s.start)}" if s.start is not None else ""
        order += f" in {expr(s.among)}" if s.among is not None else ""
        return f"for each player {s.var}{order}"
    if isinstance(s, ast.ForEach):
        return f"for each {s.var} in {expr(s.source)}"
    if isinstance(s, ast.Together):
        among = f" in {expr(s.among)}" if s.among is not None else ""
        mode = "secretly" if s.mode == "secret" else "race"
        verb = "may choose" if s.optional else "chooses"
        return (f"{mode} each player {s.player}{among} {verb} {count_words(s.count, s.up_to, expr)}{s.var} "
                f"from {expr(s.source)}{_opts(s.opts)}")
    if isinstance(s, ast.Menu):
        return f"{'openly ' if s.public else ''}{s.actor} chooses{_opts(s.opts)}"
    if isinstance(s, ast.Allot):
        return f"allot {expr(s.source)} to {expr(s.targets)} into {expr(s.into)}"
    return type(s).__name__.lower()


def menu_branch(label: str, cond) -> str:
    """A branch of ``p chooses:`` as written: its text and, if any, its condition."""
    return f'"{label}"' + (f" if {expr(cond)}" if cond is not None else "")


def trigger(t: ast.Trigger) -> str:
    """A trigger's header line, without the ``:``."""
    text = f"when card {t.var} enters {t.zone}" + (f" of {t.owner}" if t.owner else "")
    if t.source:
        text += f" from {t.source}" + (f" of {t.source_owner}" if t.source_owner else "")
    if t.guard is not None:
        text += f" if {expr(t.guard)}"
    return text


def action(a: ast.Action) -> str:
    return f"action {a.name}({', '.join(a.params)})"
