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
_BREAK_BEFORE = frozenset({"and", "or", "then", "else", "where"})


class FormatError(CatrulesError):
    """The formatter could not keep the file's meaning (a bug in the formatter)."""


@dataclass
class _Line:
    """One output line: blank, a comment alone, or code (a statement's first line or a continuation)."""
    kind: str                 # "blank" | "comment" | "code"
    indent: int = 0           # columns
    tokens: list = field(default_factory=list)
    comment: Optional[str] = None
    comment_col: int = 0      # where the trailing comment was in the input (to keep alignment)
    level: int = 0            # block level of the statement the line belongs to
    first: bool = False       # the first line of a statement
    depth: int = 0            # open brackets at the start of the line


def _tokens(text: str) -> tuple[list, Optional[str], int, bool]:
    """A line's tokens, its trailing comment (and its column), and whether it ends with ``\\``."""
    toks, comment, col, cont = [], None, 0, False
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
        pos = m.end()
    return toks, comment, col, cont


def _is_name(tok: str) -> bool:
    return tok[0].isalpha() or tok[0] == "_"


def _gaps(toks: list, keywords: frozenset) -> list:
    """For each token, whether a space goes before it (the canonical spacing)."""
    gaps = []
    # a card row holds values, not sums: `value -1` is minus one
    values = bool(toks) and (toks[0] in ("card", "cards", "with") or (
        toks[0].isdigit() and len(toks) > 1 and toks[1] in ("card", "cards")))
    prev = None
    unary = False             # the previous token was a `-` that negates
    for tok in toks:
        space = prev is not None
        if space and (tok in (",", ")", "]", ":", ".") or prev in ("(", "[", ".") or unary):
            space = False
        elif space and tok == "(" and _is_name(prev) and (prev not in keywords or prev == "pick"):
            space = False                 # a call: `count(...)`, `pick(...)`
        gaps.append(space)
        unary = tok == "-" and (prev is None or values or not (
            prev[0].isdigit() or prev[0] == '"' or prev in _CLOSE
            or (_is_name(prev) and (prev not in keywords or prev in _VALUE_WORDS))))
        prev = tok
    return gaps


def _spaced(toks: list, keywords: frozenset) -> str:
    """The tokens of one line, with the canonical spaces between them."""
    return "".join((" " if gap else "") + tok for gap, tok in zip(_gaps(toks, keywords), toks))


def _read(text: str, keywords: frozenset) -> list:
    """The input's lines as :class:`_Line` s, with their new indentation."""
    out = []
    stack = [0]               # the input's block indentations (as the parser's indenter sees them)
    depth = 0
    after_backslash = False
    stmt_indent, stmt_level = 0, 0
    pending_comments = []     # comment lines whose level is known only at the next code line
    for raw in source_lines(text):
        body = raw.lstrip(" \t\f")
        lead = raw[:len(raw) - len(body)]
        continuing = depth > 0 or after_backslash
        if not body:
            if depth > 0:
                continue                  # a blank line inside brackets means nothing
            after_backslash = False       # after `\`, a blank line ends the statement
            out.append(_Line("blank"))
            continue
        toks, comment, ccol, cont = _tokens(raw)
        if not toks and not cont:
            if depth > 0:                 # a comment inside brackets stays in the statement
                out.append(_Line("comment", comment=comment, level=stmt_level, depth=depth,
                                 indent=stmt_indent + INDENT * depth))
                continue
            after_backslash = False
            line = _Line("comment", comment=comment)
            line.orig_col = len(lead.replace("\t", " " * INDENT))
            line.stack = list(stack)
            pending_comments.append(line)
            out.append(line)
            continue
        line = _Line("code", tokens=toks, comment=comment, comment_col=ccol, depth=depth)
        if continuing:
            closing = 1 if toks and toks[0] in _CLOSE else 0
            line.indent = stmt_indent + INDENT * max(1, depth - closing)
            line.level = stmt_level
        else:
            ind = lead.count(" ") + lead.count("\t") * INDENT     # as lark's Indenter counts
            if ind > stack[-1]:
                stack.append(ind)
            while ind < stack[-1]:
                stack.pop()
            stmt_level = len(stack) - 1
            stmt_indent = INDENT * stmt_level
            line.indent, line.level, line.first = stmt_indent, stmt_level, True
            for c in pending_comments:
                c.indent = _comment_indent(c.orig_col, c.stack, ind)
            pending_comments = []
        for tok in toks:
            if tok in _OPEN:
                depth += 1
            elif tok in _CLOSE:
                depth = max(0, depth - 1)
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


def _wrap(line: _Line, keywords: frozenset) -> list:
    """Split a code line longer than WIDTH at the last good place that fits (repeatedly)."""
    pieces = []
    toks, indent, depth = list(line.tokens), line.indent, line.depth
    while True:
        text = " " * indent + _spaced(toks, keywords)
        if len(text) <= WIDTH:
            break
        cut = _cut(toks, indent, depth, keywords)
        if cut is None:
            break
        head, toks = toks[:cut], toks[cut:]
        inside = depth + sum((t in _OPEN) - (t in _CLOSE) for t in head)
        if inside <= 0 and head[-1] != "\\":
            head = head + ["\\"]
        pieces.append((indent, head, depth))
        closing = 1 if toks[0] in _CLOSE else 0
        depth = max(0, inside)
        indent = INDENT * line.level + INDENT * max(1, depth - closing)     # as _read indents it
    pieces.append((indent, toks, depth))
    return pieces


def _cut(toks: list, indent: int, depth: int, keywords: frozenset) -> Optional[int]:
    """Where to break a line: among the places whose first part fits, the best.

    Best is a comma or ``and``/``or``/``else``/``where`` (then ``then``, then any space),
    in the fewest brackets, and the latest of those.
    """
    best = None
    gaps = _gaps(toks, keywords)
    d = depth
    for i in range(1, len(toks)):
        d += (toks[i - 1] in _OPEN) - (toks[i - 1] in _CLOSE)
        if not gaps[i] or toks[i] == "\\":
            continue                      # only where a space is: never inside `f(`, `-1`, `a.b`
        head = " " * indent + _spaced(toks[:i], keywords) + ("" if d > 0 else " \\")
        if len(head) > WIDTH:
            break
        rank = (0 if toks[i - 1] == "," or toks[i] in _BREAK_BEFORE
                else 1 if toks[i] in ("then", "+", "-") else 2)     # a spaced `-` subtracts
        key = (rank == 2, d, rank, -i)
        if best is None or key < best[0]:
            best = (key, i)
    return best[1] if best else None


def _render(lines: list, keywords: frozenset) -> list:
    """Text lines from :class:`_Line` s, code wrapped and trailing comments kept in their column."""
    out = []
    for ln in lines:
        if ln.kind == "blank":
            out.append("")
        elif ln.kind == "comment":
            out.append(" " * ln.indent + ln.comment.rstrip())
        else:
            pieces = _wrap(ln, keywords)
            for k, (indent, toks, _) in enumerate(pieces):
                text = " " * indent + _spaced(toks, keywords)
                if k == len(pieces) - 1 and ln.comment is not None:
                    col = ln.comment_col if len(pieces) == 1 else 0     # a wrapped line: right after
                    text = text.ljust(max(col, len(text) + 2)) + ln.comment.rstrip()
                out.append(text)
    return out


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
