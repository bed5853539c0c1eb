"""The expression rules of the game-file transformer: Lark's parse tree -> expression nodes.

The base class of :class:`catrules.lang.builder._ToAst` (numbers, texts with values in braces, names,
calls, ``pick``, ``of``, ``where``, and the operators), apart so that each file keeps one
part of the language.  It uses the transformer's ``_int`` (numbers within the limits),
``version`` and ``parse_expr``.
"""

from __future__ import annotations

from lark import Transformer, v_args

from . import ast


def _pos(meta) -> dict:
    return {"line": getattr(meta, "line", 0) or 0, "column": getattr(meta, "column", 0) or 0}


def _tpos(tok) -> dict:
    return {"line": tok.line or 0, "column": tok.column or 0}


@v_args(meta=True)
class ExprRules(Transformer):
    """Expressions (see the module's docstring); Lark wraps the rules of each class itself."""

    def number(self, meta, ch):
        return ast.Const(self._int(ch[0]), **_pos(meta))

    def string(self, meta, ch):
        raw = str(ch[0])[1:-1]
        if self.version >= 3 and ("{" in raw or "}" in raw):
            text = self._text(raw, meta.line, meta.column + 1)
            text.written = raw            # as written (a menu's `default` names a choice so)
            return text
        return ast.Const(raw, **_pos(meta))

    def _text(self, raw: str, line: int, col: int) -> ast.Expr:
        """A quoted text with values in braces (``"{p} wins"``); ``{{`` and ``}}`` are braces.
        ``col`` is the column of the text's first character (after the quote)."""
        parts, buf, i = [], [], 0
        while i < len(raw):
            ch = raw[i]
            if ch in "{}" and raw[i + 1:i + 2] == ch:
                buf.append(ch)
                i += 2
                continue
            if ch == "}":
                self.rep.error((line, col + i), "a `}` that closes nothing",
                               "write `}}` for a brace in the text")
                return ast.Const(raw, line=line, column=col - 1)
            if ch != "{":
                buf.append(ch)
                i += 1
                continue
            end = raw.find("}", i + 1)
            if end < 0:
                self.rep.error((line, col + i), "a `{` with no `}` after it",
                               "close the value with `}`, or write `{{` for a brace in the text")
                return ast.Const(raw, line=line, column=col - 1)
            piece = raw[i + 1:end]
            if not piece.strip():
                self.rep.error((line, col + i), "an empty `{}` in a text",
                               "put a value inside, such as `{p}`, or write `{{}}` for braces")
                return ast.Const(raw, line=line, column=col - 1)
            if buf:
                parts.append("".join(buf))
                buf = []
            expr = self._value_in_text(piece, line, col + i + 1)
            if expr is None:
                return ast.Const(raw, line=line, column=col - 1)
            parts.append(expr)
            i = end + 1
        if buf:
            parts.append("".join(buf))
        return ast.Text(parts, line=line, column=col - 1)

    def _value_in_text(self, piece: str, line: int, col: int):
        """One ``{...}`` of a text, parsed as an expression at its place in the file."""
        if self.parse_expr is None:
            return None
        tree = self.parse_expr(piece, line, col)      # raises a located GameFileError
        sub = type(self)(self.rep, self.path, self.parse_expr)   # the whole transformer
        sub.version = self.version
        expr = sub.transform(tree)
        for n in ast.walk(expr):
            n.line = line                 # parsed alone, the value's nodes say line 1
        return expr

    def name(self, meta, ch):
        return ast.Name(str(ch[0]), **_pos(meta))

    def true(self, meta, ch):
        return ast.Const(True, **_pos(meta))

    def false(self, meta, ch):
        return ast.Const(False, **_pos(meta))

    def none(self, meta, ch):
        return ast.Const(None, **_pos(meta))

    def player(self, meta, ch):
        return ast.Keyword("player", **_pos(meta))

    def players(self, meta, ch):
        return ast.Keyword("players", **_pos(meta))

    def everyone(self, meta, ch):
        return ast.Keyword("everyone", **_pos(meta))

    def args(self, meta, ch):
        return list(ch)

    def call_args(self, meta, ch):
        return list(ch)

    def count_up_to(self, meta, ch):
        if str(ch[0]) != "up":
            self.rep.error((ch[0].line, ch[0].column), f"`{ch[0]} to` is not a count",
                           "write `up to N` for a count that may be short, as in `top(deck, up to 9)`")
        return ast.UpTo(ch[1], **_pos(meta))

    def call(self, meta, ch):
        return ast.Call(str(ch[0]), ch[1] or [], **_pos(meta))

    def list(self, meta, ch):
        return ast.ListExpr(ch[0] or [], **_pos(meta))

    def pick_case(self, meta, ch):
        return (ch[0], ch[1])

    def pick_else(self, meta, ch):
        return ("else", ch[0])

    def pick(self, meta, ch):
        cases, default = [], None
        for c in ch[1:]:
            if c[0] == "else":
                default = c[1]
            else:
                cases.append(c)
        return ast.Pick(ch[0], cases, default, **_pos(meta))

    def postfix(self, meta, ch):
        node = ch[0]
        for tok in ch[1:]:
            node = ast.Attr(node, str(tok), **_tpos(tok))
        return node

    def of_(self, meta, ch):
        left, owner = ch
        if isinstance(left, ast.Name):
            return ast.Of(left.name, owner, **_pos(meta))
        if isinstance(left, ast.Call) and len(left.args) == 1:     # a zone family's member (language 4)
            return ast.Of(left.name, owner, key=left.args[0], **_pos(meta))
        if isinstance(left, ast.Keyword) and left.word == "player":
            self.rep.error(left, "`player of ...` is not a thing", "write `owner(card)` for a card's owner")
        else:
            self.rep.error(left, "only a zone, a counter or an attribute name can stand before `of`",
                           "for example `hand of p`, `score of p` or `value of c`")
        return left

    def where(self, meta, ch):
        return ast.Where(ch[0], ch[1], **_pos(meta))

    def each_in(self, meta, ch):
        return ast.Where(ch[1], ch[2], var=str(ch[0]), **_pos(meta))

    def ifelse(self, meta, ch):
        return ast.IfElse(ch[0], ch[1], ch[2], **_pos(meta))

    def or_op(self, meta, ch):
        return _fold("or", ch, meta)

    def and_op(self, meta, ch):
        return _fold("and", ch, meta)

    def not_op(self, meta, ch):
        return ast.Unary("not", ch[0], **_pos(meta))

    def neg(self, meta, ch):
        if isinstance(ch[0], ast.Const) and isinstance(ch[0].value, int):
            return ast.Const(-ch[0].value, **_pos(meta))
        return ast.Unary("-", ch[0], **_pos(meta))

    def comp_op(self, meta, ch):
        return " ".join(str(c) for c in ch)

    def add_op(self, meta, ch):
        return str(ch[0])

    def mul_op(self, meta, ch):
        return str(ch[0])

    def compare(self, meta, ch):
        return ast.Binary(ch[1], ch[0], ch[2], **_pos(meta))

    def sum(self, meta, ch):
        return _chain(ch, meta)

    def product(self, meta, ch):
        return _chain(ch, meta)


def _fold(op, items, meta):
    node = items[0]
    for nxt in items[1:]:
        node = ast.Binary(op, node, nxt, **_pos(meta))
    return node


def _chain(ch, meta):
    node = ch[0]
    i = 1
    while i < len(ch):
        node = ast.Binary(ch[i], node, ch[i + 1], line=node.line, column=node.column)
        i += 2
    return node
