"""``catrules fmt``: rewrite a game file in the canonical layout, keeping its meaning.

The formatter works on the source text, token by token and line by line, so that
comments (which the AST does not keep) stay where they were.  It re-spaces the
tokens of each line, indents blocks by four spaces, continuation lines by four more
per open bracket, keeps at most one blank line in a row and one around every
top-level declaration with a block, and wraps lines longer than :data:`WIDTH` after a
comma or before ``and``/``or``/``then``/``else``/``where`` (inside brackets, or with
a ``\\`` continuation).  Before it returns, it checks that the new text parses to
the very same syntax tree as the old one; if not, it refuses rather than change a game.
"""

from __future__ import annotations

import re
from pathlib import Path
from dataclasses import dataclass, field
from typing import Optional

from ..errors import CatrulesError, source_lines

#: The longest line the formatter writes (where a line can be broken at all).
WIDTH = 100
INDENT = 4

_TOKEN = re.compile(r'''
    (?P<string>"[^"\n]*")
  | (?P<comment>\#[^\n]*)
  | (?P<cont>\\[\t \f]*$)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*|[0-9]+)
  | (?P<op>==|!=|<=|>=|[<>=+\-*/%,:.()\[\]])
  | (?P<space>[\t \f]+)
''', re.VERBOSE)

_OPEN, _CLOSE = "([", ")]"
#: Keywords that are values: a `-` after them subtracts.
_VALUE_WORDS = frozenset({"true", "false", "none", "player", "players", "everyone"})
#: Good places to break a long line: before these words, or after a comma.
_BREAK_BEFORE = frozenset({"and", "or", "then", "else", "where", "default", "asking", "preferring"})


class FormatError(CatrulesError):
    """The formatter could not keep the file's meaning (a bug in the formatter)."""


@dataclass
class _Line:
    """One output line: blank, a comment alone, or code (a statement's first line or a continuation)."""
    kind: str                 # "blank" | "comment" | "code"
    indent: int = 0           # columns (of a statement's first line or a comment; continuations: at render)
    tokens: list = field(default_factory=list)
    comment: Optional[str] = None
    comment_col: int = 0      # where the trailing comment was in the input (to keep alignment)
    level: int = 0            # block level of the statement the line belongs to
    first: bool = False       # the first line of a statement
    depth: int = 0            # open brackets at the start of the line
    align: Optional[int] = None   # a continuation aligned under an open bracket's first token: its index
    values: bool = False      # the statement is a card row (`value -1` is minus one)


def _tokens(text: str) -> tuple[list, Optional[str], int, bool]:
    """A line's tokens, its trailing comment (and its column), and whether it ends with ``\\``."""
    toks, cols, comment, col, cont = _positions(text)
    return toks, comment, col, cont


def _positions(text: str) -> tuple[list, list, Optional[str], int, bool]:
    """As :func:`_tokens`, with the column of each token."""
    toks, cols, comment, col, cont = [], [], None, 0, False
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise FormatError(f"cannot read {text[pos:pos + 10]!r}")
        kind = m.lastgroup
        if kind == "comment":
            comment, col = m.group(), pos
            break
        if kind == "cont":
            cont = True
        elif kind != "space":
            toks.append(m.group())
            cols.append(pos)
        pos = m.end()
    return toks, cols, comment, col, cont


def _is_name(tok: str) -> bool:
    return tok[0].isalpha() or tok[0] == "_"


def _is_card_row(toks: list) -> bool:
    """A card row holds values, not sums: `value -1` is minus one."""
    return bool(toks) and (toks[0] in ("card", "cards", "with") or (
        toks[0].isdigit() and len(toks) > 1 and toks[1] in ("card", "cards"))) or _count_end(toks) > 0


def _count_end(toks: list) -> int:
    """A card row `(EXPR) cards ...` (language 4): the index after its `)`; else 0."""
    depth = 0
    for i, tok in enumerate(toks if toks[:1] == ["("] else ()):
        depth += (tok in _OPEN) - (tok in _CLOSE)
        if depth == 0:
            return i + 1 if toks[i + 1:i + 2] in (["card"], ["cards"]) else 0
    return 0


def _gaps(toks: list, keywords: frozenset, values: Optional[bool] = None) -> list:
    """For each token, whether a space goes before it (the canonical spacing)."""
    gaps = []
    values = _is_card_row(toks) if values is None else values
    counted = _count_end(toks) if values else 0     # `(EXPR) cards`: a sum before its values
    prev = None
    unary = False             # the previous token was a `-` that negates
    for i, tok in enumerate(toks):
        space = prev is not None
        if space and (tok in (",", ")", "]", ":", ".") or prev in ("(", "[", ".") or unary):
            space = False
        elif space and tok == "(" and _is_name(prev) and (prev not in keywords or prev == "pick"):
            space = False                 # a call: `count(...)`, `pick(...)`
        gaps.append(space)
        unary = tok == "-" and (prev is None or (values and i >= counted) or not (
            prev[0].isdigit() or prev[0] == '"' or prev in _CLOSE
            or (_is_name(prev) and (prev not in keywords or prev in _VALUE_WORDS))))
        prev = tok
    return gaps


def _spaced(toks: list, keywords: frozenset, values: Optional[bool] = None) -> str:
    """The tokens of one line, with the canonical spaces between them."""
    return "".join((" " if gap else "") + tok for gap, tok in zip(_gaps(toks, keywords, values), toks))


def _read(text: str, keywords: frozenset) -> list:
    """The input's lines as :class:`_Line` s, with their block level (and, for continuations,
    whether they are aligned under an open bracket)."""
    out = []
    stack = [0]               # the input's block indentations (as the parser's indenter sees them)
    brackets = []             # the open brackets: the input column of the first token after each
    after_backslash = False
    stmt_level, values = 0, False
    pending_comments = []     # comment lines whose level is known only at the next code line
    for raw in source_lines(text):
        body = raw.lstrip(" \t\f")
        lead = raw[:len(raw) - len(body)]
        continuing = bool(brackets) or after_backslash
        if not body:
            if brackets:
                continue                  # a blank line inside brackets means nothing
            after_backslash = False       # after `\`, a blank line ends the statement
            out.append(_Line("blank"))
            continue
        toks, cols, comment, ccol, cont = _positions(raw)
        if not toks and not cont:
            if brackets:                  # a comment inside brackets stays in the statement
                out.append(_Line("comment", comment=comment, level=stmt_level, depth=len(brackets)))
                continue
            after_backslash = False
            line = _Line("comment", comment=comment)
            line.orig_col = len(lead.replace("\t", " " * INDENT))
            line.stack = list(stack)
            pending_comments.append(line)
            out.append(line)
            continue
        line = _Line("code", tokens=toks, comment=comment, comment_col=ccol, depth=len(brackets))
        if continuing:
            line.level, line.values = stmt_level, values
            matches = [i for i, col in enumerate(brackets) if col == len(lead)]
            line.align = matches[-1] if matches else None
        else:
            ind = lead.count(" ") + lead.count("\t") * INDENT     # as lark's Indenter counts
            if ind > stack[-1]:
                stack.append(ind)
            while ind < stack[-1]:
                stack.pop()
            stmt_level = len(stack) - 1
            values = line.values = _is_card_row(toks)
            line.indent, line.level, line.first = INDENT * stmt_level, stmt_level, True
            for c in pending_comments:
                c.indent = _comment_indent(c.orig_col, c.stack, ind)
            pending_comments = []
        for i, tok in enumerate(toks):
            if tok in _OPEN:
                brackets.append(cols[i + 1] if i + 1 < len(toks) else None)
            elif tok in _CLOSE and brackets:
                brackets.pop()
        after_backslash = cont
        if cont:
            line.tokens = toks + ["\\"]
        out.append(line)
    for c in pending_comments:
        c.indent = _comment_indent(c.orig_col, c.stack, 0)
    return out


def _comment_indent(col: int, stack: list, next_ind: int) -> int:
    """A comment alone on its line goes to the deepest block level it was at or under."""
    levels = list(stack)
    if next_ind > levels[-1]:
        levels.append(next_ind)
    best = 0
    for i, ind in enumerate(levels):
        if ind <= col:
            best = i
    return INDENT * best


class _Brackets:
    """The open brackets of the statement being written: for each, the output column of the
    first token after it (if on the same line), the indentation of the line it is on, and
    whether a comma was met inside it."""

    def __init__(self):
        self.open = []            # [column or None, indent of its line, comma seen]
        self.last = None          # the last token written

    def write(self, indent: int, toks: list, keywords: frozenset, values: bool) -> None:
        col = indent
        gaps = _gaps(toks, keywords, values)
        for i, tok in enumerate(toks):
            col += gaps[i]
            if self.open and self.open[-1][0] == "next":
                self.open[-1][0] = col
            if tok in _OPEN:
                self.open.append(["next", indent, False])
            elif tok in _CLOSE and self.open:
                self.open.pop()
            elif tok == "," and self.open:
                self.open[-1][2] = True
            col += len(tok)
            if tok != "\\":
                self.last = tok
        for b in self.open:
            if b[0] == "next":
                b[0] = None           # the bracket ends its line: nothing to align under

    def indent(self, level: int, first_tok: Optional[str], align: Optional[int] = None) -> int:
        """Where a continuation line starts: under the bracket it was aligned with, else one
        indent more than the line of the innermost open bracket (the bracket's own line for its
        closing one), one more again when it goes on with an element of a list."""
        if align is not None and align < len(self.open) and self.open[align][0] is not None:
            return self.open[align][0]
        if not self.open:
            return INDENT * level + INDENT         # after a `\\`
        _, line_indent, comma = self.open[-1]
        if first_tok in _CLOSE:
            return line_indent
        if comma and first_tok is not None and self.last not in (",",) + tuple(_OPEN):
            return line_indent + 2 * INDENT       # the rest of a list's element, not a new element
        return line_indent + INDENT


def _cut(toks: list, indent: int, depth: int, keywords: frozenset, values: bool) -> Optional[int]:
    """Where to break a line: among the places whose first part fits, the best.

    Best is a comma or ``and``/``or``/``else``/``where``/``default``/``asking`` (then ``then``,
    then any space), in the fewest brackets, and the latest of those.  Never right after a
    ``:`` (a `pick` arm's value stays beside its key).
    """
    best = None
    gaps = _gaps(toks, keywords, values)
    d = depth
    for i in range(1, len(toks)):
        d += (toks[i - 1] in _OPEN) - (toks[i - 1] in _CLOSE)
        if not gaps[i] or toks[i] == "\\" or toks[i - 1] == ":":
            continue                      # only where a space is: never inside `f(`, `-1`, `a.b`
        head = " " * indent + _spaced(toks[:i], keywords, values) + ("" if d > 0 else " \\")
        if len(head) > WIDTH:
            break
        rank = (0 if toks[i - 1] == "," or toks[i] in _BREAK_BEFORE
                else 1 if toks[i] in ("then", "+", "-") else 2)     # a spaced `-` subtracts
        if rank == 2 and indent + INDENT + len(_spaced(toks[i:], keywords, values)) > WIDTH:
            continue                      # any other space only if the rest then fits
        key = (rank == 2, d, rank, -i)
        if best is None or key < best[0]:
            best = (key, i)
    return best[1] if best else None


def _render(lines: list, keywords: frozenset) -> list:
    """Text lines from :class:`_Line` s, code wrapped and trailing comments kept in their column."""
    out = []
    open_ = _Brackets()
    for ln in lines:
        if ln.kind == "blank":
            out.append("")
        elif ln.kind == "comment":
            indent = ln.indent if not ln.depth else open_.indent(ln.level, None)
            out.append(" " * indent + ln.comment.rstrip())
        else:
            if ln.first:
                open_ = _Brackets()
            indent = ln.indent if ln.first else open_.indent(ln.level, ln.tokens[0], ln.align)
            pieces = _wrap(ln, indent, open_, keywords)
            for k, text in enumerate(pieces):
                if k == len(pieces) - 1 and ln.comment is not None:
                    col = ln.comment_col if len(pieces) == 1 else 0     # a wrapped line: right after
                    text = text.ljust(max(col, len(text) + 2)) + ln.comment.rstrip()
                out.append(text)
    return out


def _wrap(line: _Line, indent: int, open_: _Brackets, keywords: frozenset) -> list:
    """A code line as text lines, split where longer than WIDTH at the best place (repeatedly)."""
    pieces = []
    toks, values = list(line.tokens), line.values
    while True:
        text = " " * indent + _spaced(toks, keywords, values)
        cut = None if len(text) <= WIDTH else _cut(toks, indent, len(open_.open), keywords, values)
        if cut is None:
            open_.write(indent, toks, keywords, values)
            pieces.append(text)
            return pieces
        head, toks = toks[:cut], toks[cut:]
        inside = len(open_.open) + sum((t in _OPEN) - (t in _CLOSE) for t in head)
        if inside <= 0 and head[-1] != "\\":
            head = head + ["\\"]
        open_.write(indent, head, keywords, values)
        pieces.append(" " * indent + _spaced(head, keywords, values))
        indent = open_.indent(line.level, toks[0], None)


def _blank_lines(lines: list) -> list:
    """At most one blank line in a row, none at the ends, and one around each top-level block."""
    starts = [i for i, ln in enumerate(lines) if ln.kind == "code" and ln.first and ln.level == 0]
    want = set()                          # indexes before which a blank line goes
    for n, i in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        if not any(ln.kind == "code" and ln.level > 0 for ln in lines[i:end]):
            continue
        for at in (i, end):               # before the declaration and before the next one
            if at >= len(lines):
                continue
            while at > 0 and lines[at - 1].kind == "comment" and lines[at - 1].indent == 0:
                at -= 1
            if at > 0:
                want.add(at)
    out = []
    for i, ln in enumerate(lines):
        if i in want and out and out[-1].kind != "blank":
            out.append(_Line("blank"))
        if ln.kind == "blank" and (not out or out[-1].kind == "blank"):
            continue
        out.append(ln)
    while out and out[-1].kind == "blank":
        out.pop()
    return out


def format_text(source: str, path: str = "<game>") -> str:
    """The canonical layout of a game file's text (a :class:`GameFileError` if it does not parse)."""
    from ..lang import parser
    text = source[1:] if source.startswith("\ufeff") else source
    text = text.replace("\r\n", "\n")
    game = parser.parse(text, path)        # bad files fail here, with the usual diagnostics
    keywords = parser.keywords(game.version)
    lines = _blank_lines(_read(text.rstrip("\n"), keywords))
    result = "\n".join(_render(lines, keywords)) + "\n"
    if _tree(text) != _tree(result):
        raise FormatError(f"{path}: formatting would change the game's meaning; the file is left as it "
                          "was (please report this as a bug in catrules fmt)")
    return result


def _tree(text: str):
    from ..lang.parser import _lark
    return _lark().parse(text if text.endswith("\n") else text + "\n")


def format_file(path) -> tuple[str, str]:
    """A file's text and its canonical layout (a :class:`GameFileError` for a bad file)."""
    from ..lang.parser import parse_file
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        parse_file(path)                   # says what is wrong, in the usual words
        raise
    return text, format_text(text, str(path))
