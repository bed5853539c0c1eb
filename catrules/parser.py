"""Parse a game file: Lark LALR grammar + indentation -> :mod:`catrules.ast`.

The grammar lives in ``grammars/catrules.lark`` (shipped inside the package as
``catrules.grammars``).  Syntax errors become :class:`~catrules.errors.GameFileError`
diagnostics with the line, a caret and a hint saying what was expected.
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from . import ast
from .errors import Diagnostic, GameFileError, Reporter

#: The newest language version this interpreter reads.
LANGUAGE_VERSION = 2

# ---- limits (see "Limits" in docs/language.rst) --------------------------------
#: The largest number a game file may write (and a running game may compute).
NUMBER_LIMIT = 10 ** 9
#: The most cards a game may declare, over all its card types.
DECK_LIMIT = 10_000
#: The most values a range `A to B` in card rows may give.
RANGE_LIMIT = 10_000
#: The most rows and columns of a grid zone.
GRID_LIMIT = 100
#: How deeply brackets, blocks and expressions may nest.
NESTING_LIMIT = 100


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def grammar_text() -> str:
    """The grammar, from the installed package or from the source tree."""
    try:
        return resources.files("catrules.grammars").joinpath("catrules.lark").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, TypeError):
        here = Path(__file__).resolve().parent.parent / "grammars" / "catrules.lark"
        return here.read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    return Lark(grammar_text(), parser="lalr", postlex=_Indenter(), propagate_positions=True,
                maybe_placeholders=True, start="start", cache=True)


@functools.lru_cache(maxsize=1)
def keywords() -> frozenset:
    """The words of the language (a game cannot use them as names)."""
    words = set()
    for t in _lark().terminals:
        if t.pattern.type == "str" and t.pattern.value.isalpha():
            words.add(t.pattern.value)
        elif t.name == "DIRECTION":           # highest | lowest
            words.update(re.findall(r"[a-z]+", t.pattern.value))
    return frozenset(words)


# Readable names for the grammar's terminals, used in "expected ..." hints.
_READABLE = {
    "NAME": "a name", "INT": "a number", "STRING": 'a quoted text ("...")', "_NL": "the end of the line",
    "_INDENT": "an indented block", "_DEDENT": "the end of the block", "DIRECTION": "`highest` or `lowest`",
    "NOTE": "`note`", "$END": "the end of the file",
}


def _readable(term: str) -> str:
    if term in _READABLE:
        return _READABLE[term]
    try:
        pat = _lark().get_terminal(term).pattern
        if pat.type == "str":
            return f"`{pat.value}`"
    except KeyError:
        pass
    return term.lower()


def _expected_hint(expected) -> str:
    names = sorted({_readable(t) for t in expected})
    if not names:
        return ""
    if len(names) > 8:
        names = names[:8] + ["..."]
    return "expected " + ", ".join(names)


def _syntax_diagnostic(path: str, source: str, exc: Exception) -> Diagnostic:
    lines = source.splitlines()

    def src(line: int) -> str:
        return lines[line - 1] if 1 <= line <= len(lines) else ""

    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        line, col = tok.line or 1, tok.column or 1
        if tok.type == "$END":
            line = len(lines)
            col = len(src(line)) + 1
            what = "the file ends too early"
        elif tok.type == "_NL":
            what = "the line ends too early"
            col = len(src(line)) + 1 if tok.line else col
        elif tok.type == "_INDENT":
            what = "unexpected indentation"
        elif tok.type == "_DEDENT":
            what = "the block ends too early"
        else:
            what = f"unexpected `{tok.value}`"
        hint = _expected_hint(exc.expected)
        if tok.type == "NAME" or (tok.type not in ("_NL", "_INDENT", "_DEDENT", "$END") and str(tok.value).isalpha()):
            if "COLON" in exc.expected:
                hint += "; a block starts with `:` at the end of its line"
        return Diagnostic(path, line, col, what, hint, "error", src(line))
    if isinstance(exc, UnexpectedCharacters):
        ch = source[exc.pos_in_stream] if exc.pos_in_stream < len(source) else "?"
        hint = "names are letters, digits and `_`; text goes in double quotes; comments start with `#`"
        if ch == "\t":
            hint = "indent with spaces"
        return Diagnostic(path, exc.line, exc.column, f"unexpected character `{ch}`", hint, "error", src(exc.line))
    if isinstance(exc, UnexpectedEOF):
        return Diagnostic(path, len(lines), len(src(len(lines))) + 1, "the file ends too early",
                          _expected_hint(exc.expected), "error", src(len(lines)))
    if isinstance(exc, DedentError):
        # Find the first line whose indentation matches no enclosing block.
        stack = [0]
        for no, text in enumerate(lines, 1):
            body = text.split("#", 1)[0]
            if not body.strip():
                continue
            ind = len(text) - len(text.lstrip(" "))
            if ind > stack[-1]:
                stack.append(ind)
                continue
            while ind < stack[-1]:
                stack.pop()
            if ind != stack[-1]:
                return Diagnostic(path, no, ind + 1, "this line's indentation matches no enclosing block",
                                  "indent it like the lines of the block it belongs to", "error", text)
        return Diagnostic(path, 1, 1, "inconsistent indentation", "indent blocks with spaces, evenly", "error", src(1))
    return Diagnostic(path, 1, 1, str(exc), "", "error", src(1))


def parse(source: str, path: str = "<game>") -> ast.GameFile:
    """Parse ``source`` into a :class:`catrules.ast.GameFile` (no meaning checks)."""
    text = source if source.endswith("\n") else source + "\n"
    if text.startswith("\ufeff"):          # a byte-order mark written by some editors
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    _check_characters(path, text)
    try:
        tree = _lark().parse(text)
    except (UnexpectedInput, DedentError) as exc:
        raise GameFileError([_syntax_diagnostic(path, text, exc)]) from None
    except RecursionError:
        raise GameFileError([_too_deep(path, text, 1, 1)]) from None
    _check_depth(path, text, tree)
    rep = Reporter(path, text)
    try:
        game = _ToAst(rep, path).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, GameFileError):
            raise exc.orig_exc from None
        if isinstance(exc.orig_exc, RecursionError):
            raise GameFileError([_too_deep(path, text, 1, 1)]) from None
        raise
    except RecursionError:
        raise GameFileError([_too_deep(path, text, 1, 1)]) from None
    rep.raise_if_errors()
    game.source = text
    game.path = path
    return game


def parse_file(path: str | Path) -> ast.GameFile:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise GameFileError([Diagnostic(str(path), 0, 0, f"cannot read the game file: {exc.strerror or exc}",
                                        "check the path")]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        src = data.split(b"\n")[line - 1].decode("utf-8", "replace")
        raise GameFileError([Diagnostic(str(path), line, col, "this is not UTF-8 text",
                                        "save the game file as UTF-8", "error", src)]) from None
    return parse(text, str(path))


def _check_characters(path: str, text: str) -> None:
    """Control characters other than tab and newline have no place in a game file."""
    m = re.search(r"[\x00-\x08\x0b-\x1f\x7f\r]", text)
    if m:
        line = text.count("\n", 0, m.start()) + 1
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        raise GameFileError([Diagnostic(path, line, col, f"a control character (code {ord(m.group())}) "
                                        "in the game file", "remove it; a game file is plain text",
                                        "error", text.split("\n")[line - 1])])


def _too_deep(path: str, text: str, line: int, col: int) -> Diagnostic:
    lines = text.split("\n")
    return Diagnostic(path, line, col, f"nested too deeply (more than {NESTING_LIMIT} levels)",
                      "split the expression with `define`, or the block into actions", "error",
                      lines[line - 1] if 1 <= line <= len(lines) else "")


def _check_depth(path: str, text: str, tree) -> None:
    """Refuse trees nested deeper than NESTING_LIMIT (walked without recursion).

    The depth counts what nests in the game: brackets around a single expression add
    nothing, a chain `a + b + c` counts each operand.  The raw depth of the parse tree is
    bounded too (by RAW_DEPTH_LIMIT), so that later passes never run out of Python's stack.
    """
    from lark import Tree
    stack = [(tree, 1, 1, 1, 1)]
    while stack:
        node, depth, raw, line, col = stack.pop()
        if not isinstance(node, Tree):
            continue
        meta = node.meta
        if not getattr(meta, "empty", True):
            line, col = meta.line, meta.column
        if depth > NESTING_LIMIT or raw > RAW_DEPTH_LIMIT:
            raise GameFileError([_too_deep(path, text, line, col)])
        step = 1
        data = node.data
        if data in _CHAINS:               # operands (sum and product also hold their operators)
            step = (len(node.children) + 1) // 2 if data in ("sum", "product") else len(node.children)
            if step > 1 and depth + step > NESTING_LIMIT:
                raise GameFileError([_too_deep(path, text, line, col)])
            if step == 1 and data in ("or_op", "and_op"):
                step = 0                  # the wrapping of an expression in brackets
        stack.extend((c, depth + step, raw + 1, line, col) for c in node.children)


#: How deep the parse tree itself may go (brackets count here).
RAW_DEPTH_LIMIT = 250
_CHAINS = frozenset({"sum", "product", "or_op", "and_op", "postfix"})


# ---------------------------------------------------------------------------------

def _pos(meta) -> dict:
    return {"line": getattr(meta, "line", 0) or 0, "column": getattr(meta, "column", 0) or 0}


def _tpos(tok: Token) -> dict:
    return {"line": tok.line or 0, "column": tok.column or 0}


def _tpos_t(tok: Token) -> tuple:
    return (tok.line or 0, tok.column or 0)


@v_args(meta=True)
class _ToAst(Transformer):
    def __init__(self, rep: Reporter, path: str):
        super().__init__()
        self.rep = rep
        self.path = path
        self.deck = 0              # cards declared so far

    # ---- numbers and limits ----
    def _int(self, tok, limit: int = NUMBER_LIMIT, what: str = "a number larger than {limit:,}",
             hint: str = "") -> int:
        """An INT token as a number, reporting one beyond ``limit``."""
        digits = str(tok).lstrip("0") or "0"
        if len(digits) > 18 or int(digits) > limit:
            self.rep.error(_tpos_t(tok), what.format(limit=limit),
                           hint or f"numbers in a game file go up to {NUMBER_LIMIT:,}")
            return 0
        return int(digits)

    # ---- values in card rows ----
    def pos_int(self, meta, ch):
        return self._int(ch[0])

    def neg_int(self, meta, ch):
        return -self._int(ch[0])

    def vnone(self, meta, ch):
        return None

    def vlist(self, meta, ch):
        return tuple(_plain(c) for c in ch if c is not None)

    def value_enum(self, meta, ch):
        return [_plain(c) for c in ch]

    def value_range(self, meta, ch):
        a, b = int(ch[0]), int(ch[1])
        if abs(b - a) >= RANGE_LIMIT:
            self.rep.error(meta, f"a range of {abs(b - a) + 1:,} values (at most {RANGE_LIMIT:,})",
                           "a game has at most {:,} cards; list the values or use a smaller range"
                           .format(DECK_LIMIT))
            return [a]
        return list(range(a, b + 1)) if a <= b else list(range(a, b - 1, -1))

    def attr_pair(self, meta, ch):
        return (str(ch[0]), _plain(ch[1]), _pos(meta))

    def attr_pairs(self, meta, ch):
        return list(ch)

    def card_row(self, meta, ch):
        copies, pairs = ch[0], ch[1]
        n = self._int(copies, DECK_LIMIT, "more copies in one card row than a game may have cards "
                      "({limit:,})", f"a game has at most {DECK_LIMIT:,} cards") if copies is not None else 1
        return ("row", n, pairs or [], _pos(meta))

    def card_for(self, meta, ch):
        return ("for", str(ch[0]), ch[1], ch[2:], _pos(meta))

    def card_with(self, meta, ch):
        return ("with", ch[0], ch[1:], _pos(meta))

    def cards(self, meta, ch):
        name, zone, items = ch[0], ch[1], ch[2:]
        rows: list[ast.CardRow] = []

        def expand(item, ctx):
            kind = item[0]
            if self.deck > DECK_LIMIT:
                return
            if kind == "row":
                self.deck += item[1]
                if self.deck > DECK_LIMIT:
                    self.rep.error((item[3]["line"], item[3]["column"]),
                                   f"the game declares more than {DECK_LIMIT:,} cards",
                                   "a game has at most {:,} cards over all its card types".format(DECK_LIMIT))
                    return
                attrs_ = dict(ctx)
                for k, v, _ in item[2]:
                    attrs_[k] = v
                rows.append(ast.CardRow(item[1], attrs_, **item[3]))
            elif kind == "for":
                for v in item[2]:
                    for sub in item[3]:
                        expand(sub, {**ctx, item[1]: v})
            else:
                new = dict(ctx)
                for k, v, _ in item[1]:
                    new[k] = v
                for sub in item[2]:
                    expand(sub, new)

        for it in items:
            expand(it, {})
        return ast.CardType(str(name), str(zone), rows, zone_line=zone.line, zone_column=zone.column, **_pos(meta))

    # ---- declarations ----
    def header(self, meta, ch):
        return ("header", self._int(ch[0]), ch[1][1:-1], self._int(ch[2]), self._int(ch[3]), _pos(meta))

    def option(self, meta, ch):
        return ast.Option(str(ch[0]), ch[1][1:-1], **_pos(meta))

    def zone_prop(self, meta, ch):
        for c in ch:
            if c.type == "INT":
                self._int(c, GRID_LIMIT, "a grid side larger than {limit:,}", f"a grid has at most "
                          f"{GRID_LIMIT} rows and {GRID_LIMIT} columns")
        return (tuple(str(c) for c in ch), _pos(meta))

    def zone(self, meta, ch):
        return ast.Zone(str(ch[0]), list(ch[1:]), **_pos(meta))

    def per_player(self, meta, ch):
        return "player"

    def per_card(self, meta, ch):
        return "card"

    def counter(self, meta, ch):
        return ast.Counter(str(ch[0]), ch[1] == "player", ch[2], per_card=ch[1] == "card", **_pos(meta))

    def params(self, meta, ch):
        return [str(c) for c in ch if c is not None]

    def define(self, meta, ch):
        return ast.Define(str(ch[0]), ch[1] if ch[1] is not None else [], ch[2], **_pos(meta))

    def action(self, meta, ch):
        return ast.Action(str(ch[0]), ch[1], ch[2], **_pos(meta))

    def trigger(self, meta, ch):
        var, zone, owner, source, guard, body = ch
        src, src_owner = source if source is not None else (None, None)
        return ast.Trigger(str(var), str(zone), str(owner) if owner is not None else None, guard, body,
                           source=src, source_owner=src_owner, **_pos(meta))

    def trigger_from(self, meta, ch):
        return (str(ch[0]), str(ch[1]) if ch[1] is not None else None)

    def setup(self, meta, ch):
        return ("setup", ch[0], _pos(meta))

    def flow(self, meta, ch):
        return ("flow", ch[0], _pos(meta))

    def phase(self, meta, ch):
        return ast.Phase(str(ch[0]), ch[1], **_pos(meta))

    def score_item(self, meta, ch):
        note, name, value = ch
        return ast.ScoreItem(str(name), value, counted=note is None, **_pos(meta))

    def score(self, meta, ch):
        return ("score", list(ch))

    def rank_by(self, meta, ch):
        return ast.RankBy(str(ch[0]), ch[1], **_pos(meta))

    def ties_share(self, meta, ch):
        return None

    def ties_race(self, meta, ch):
        return ("race", _pos(meta))

    def winner(self, meta, ch):
        return ("winner", [c for c in ch if c is not None])

    def start(self, meta, ch):
        header = ch[0]
        _, version, title, lo, hi, hpos = header
        g = ast.GameFile(self.path, version, title, lo, hi, **hpos)
        for item in ch[1:]:
            if isinstance(item, ast.Option):
                g.options.append(item)
            elif isinstance(item, ast.CardType):
                g.cards.append(item)
            elif isinstance(item, ast.Zone):
                g.zones.append(item)
            elif isinstance(item, ast.Counter):
                g.counters.append(item)
            elif isinstance(item, ast.Define):
                g.defines.append(item)
            elif isinstance(item, ast.Action):
                g.actions.append(item)
            elif isinstance(item, ast.Trigger):
                g.triggers.append(item)
            elif isinstance(item, ast.Phase):
                g.phases.append(item)
            elif isinstance(item, tuple):
                kind = item[0]
                if kind == "setup":
                    if g.setup:
                        self.rep.error((item[2]["line"], item[2]["column"]), "a second `setup` block",
                                       "put all setup steps in one block")
                    g.setup, g.setup_pos = item[1], (item[2]["line"], item[2]["column"])
                elif kind == "flow":
                    if g.flow:
                        self.rep.error((item[2]["line"], item[2]["column"]), "a second `flow` block",
                                       "a game has one flow; call phases from it with `play`")
                    g.flow, g.flow_pos = item[1], (item[2]["line"], item[2]["column"])
                elif kind == "score":
                    g.score.extend(item[1])
                elif kind == "winner":
                    for r in item[1]:
                        if isinstance(r, tuple):
                            g.tie_race = r[1]["line"]
                        else:
                            g.ranking.append(r)
        return g

    # ---- statements ----
    def block(self, meta, ch):
        return list(ch)

    def move(self, meta, ch):
        return ast.Move(ch[0], ch[1], **_pos(meta))

    def shuffle(self, meta, ch):
        return ast.Shuffle(ch[0], **_pos(meta))

    def fill(self, meta, ch):
        return ast.Fill(ch[0], ch[1], **_pos(meta))

    def exchange(self, meta, ch):
        return ast.Exchange(ch[0], ch[1], **_pos(meta))

    def assign(self, meta, ch):
        return ast.Assign(str(ch[0]), ch[1], ch[2], **_pos(meta))

    def add(self, meta, ch):
        return ast.Add(ch[0], str(ch[1]), ch[2], **_pos(meta))

    def choose_opts(self, meta, ch):
        pref, direction, key = ch
        return ast.ChooseOpts(pref, str(direction) if direction is not None else None, key, **_pos(meta))

    def how_many(self, meta, ch):
        n = ch[0]
        return ast.Const(int(n), line=n.line, column=n.column) if isinstance(n, Token) else n

    def choose(self, meta, ch):
        openly, actor, count, var, source, opts = ch
        return ast.Choose(str(actor), str(var), source, opts, public=openly is not None, count=count,
                          **_pos(meta))

    def play(self, meta, ch):
        return ast.Play(str(ch[0]), **_pos(meta))

    def do(self, meta, ch):
        return ast.Do(str(ch[0]), ch[1] or [], **_pos(meta))

    def announce(self, meta, ch):
        return ast.Announce(ch[0][1:-1], **_pos(meta))

    def end_game(self, meta, ch):
        return ast.EndGame(**_pos(meta))

    def tally(self, meta, ch):
        return ast.Tally(**_pos(meta))

    def stop(self, meta, ch):
        return ast.StopLoop(**_pos(meta))

    def elif_(self, meta, ch):  # noqa: D102
        return (ch[0], ch[1])

    def if_stmt(self, meta, ch):
        cond, body = ch[0], ch[1]
        rest = ch[2:]
        otherwise = rest[-1] if rest else None
        elifs = [c for c in rest[:-1]]
        return ast.If([(cond, body)] + elifs, otherwise, **_pos(meta))

    def repeat_times(self, meta, ch):
        return ast.RepeatTimes(ch[0], ch[1], **_pos(meta))

    def repeat_until(self, meta, ch):
        return ast.RepeatUntil(ch[0], ch[1], **_pos(meta))

    def repeat_while(self, meta, ch):
        return ast.RepeatUntil(ch[0], ch[1], negate=True, **_pos(meta))

    def clockwise_from(self, meta, ch):
        return ("from", ch[0])

    def in_order(self, meta, ch):
        return ("in", ch[0])

    def for_players(self, meta, ch):
        var, order, body = ch
        start = order[1] if order and order[0] == "from" else None
        among = order[1] if order and order[0] == "in" else None
        return ast.ForPlayers(str(var), start, among, body, **_pos(meta))

    def for_each(self, meta, ch):
        return ast.ForEach(str(ch[0]), ch[1], ch[2], **_pos(meta))

    def menu_item(self, meta, ch):
        return (ch[0][1:-1], ch[1], ch[2], _pos(meta))

    def menu_stmt(self, meta, ch):
        return ast.Menu(str(ch[1]), list(ch[2:]), public=ch[0] is not None, **_pos(meta))

    def prefer_key(self, meta, ch):
        return (str(ch[0]), ch[1])

    def allot_wants(self, meta, ch):
        return ("wants", ch[0], _pos(meta))

    def allot_serves(self, meta, ch):
        return ("serves", str(ch[0]), _pos(meta))

    def allot_spare(self, meta, ch):
        return ("spare", ch[0], _pos(meta))

    def allot_maximal(self, meta, ch):
        return ("maximal", True, _pos(meta))

    def allot_note(self, meta, ch):
        return ("note", str(ch[1]), _pos(meta))

    def allot_prefer(self, meta, ch):
        return ("prefer", list(ch), _pos(meta))

    def allot_stmt(self, meta, ch):
        node = ast.Allot(ch[0], ch[1], ch[2], **_pos(meta))
        for what, value, pos in ch[3:]:
            if what in node.clause_pos:
                self.rep.error((pos["line"], pos["column"]), f"`{what}` appears twice in this `allot`",
                               "keep one of them")
            node.clause_pos[what] = pos
            setattr(node, what, value)
        return node

    def secret_stmt(self, meta, ch):
        player, among, count, var, source, opts, body = ch
        return ast.Together("secret", str(player), among, str(var), source, opts, body, count=count, **_pos(meta))

    def race_stmt(self, meta, ch):
        return ast.Together("race", str(ch[0]), ch[1], str(ch[2]), ch[3], ch[4], ch[5], **_pos(meta))

    # ---- expressions ----
    def number(self, meta, ch):
        return ast.Const(self._int(ch[0]), **_pos(meta))

    def string(self, meta, ch):
        return ast.Const(str(ch[0])[1:-1], **_pos(meta))

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


def _plain(v):
    if isinstance(v, Token):
        if v.type == "STRING":
            return str(v)[1:-1]
        if v.type == "INT":
            return int(v) if len(v) <= 18 else 0
        return ast.Sym(str(v))
    return v


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
