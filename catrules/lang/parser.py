"""Parse a game file: Lark LALR grammar + indentation -> :mod:`catrules.lang.ast`.

The grammar lives beside this module, in ``catrules/lang/catrules.lark`` (shipped
inside the package).  Syntax errors become :class:`~catrules.errors.GameFileError`
diagnostics with the line, a caret and a hint saying what was expected; the tree
becomes AST nodes in :mod:`catrules.lang.builder`.
"""

from __future__ import annotations

import difflib
import functools
import os
import re
from importlib import resources
from pathlib import Path

from . import ast, grammar_cache
from . import syntax_hints as hints
from ..errors import BIDI_CONTROLS, Diagnostic, GameFileError, Reporter, char_name, escaped, invisible, \
    source_line, source_lines
from ..limits import NESTING_LIMIT

#: The newest language version this interpreter reads.
LANGUAGE_VERSION = 4


def _load_lark() -> None:
    """Import lark (and the AST builder) on first use: a game from the cache never needs them."""
    global Lark, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
    global DedentError, _Indenter, _ToAst
    if "_ToAst" in globals():
        return
    from lark import Lark
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
    from lark.indenter import DedentError, Indenter

    from .builder import _ToAst

    class _Indenter(Indenter):
        NL_type = "_NL"
        OPEN_PAREN_types = ["LPAR", "LSQB"]
        CLOSE_PAREN_types = ["RPAR", "RSQB"]
        INDENT_type = "_INDENT"
        DEDENT_type = "_DEDENT"
        tab_len = 4


def __getattr__(name: str):
    """``parser._Indenter`` and the like from outside, before any parse: load lark first."""
    if name in ("Lark", "UnexpectedCharacters", "UnexpectedEOF", "UnexpectedInput", "UnexpectedToken",
                "VisitError", "DedentError", "_Indenter", "_ToAst"):
        _load_lark()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def grammar_text() -> str:
    """The grammar, from the package (beside this module)."""
    try:
        return resources.files(__package__).joinpath("catrules.lark").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, TypeError):
        return (Path(__file__).resolve().parent / "catrules.lark").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    return _build("start")


@functools.lru_cache(maxsize=1)
def _lark_expr() -> Lark:
    """The same grammar, read from ``expr``: for the values in braces inside a text."""
    return _build("expr")


def _build(start: str) -> Lark:
    # cached only in the user's private directory: a pickle in the shared /tmp could be planted
    _load_lark()
    text = grammar_text()
    cache = grammar_cache.cache_file(text, start)
    lark = Lark(text, parser="lalr", postlex=_Indenter(), propagate_positions=True,
                maybe_placeholders=True, start=start, cache=cache)
    grammar_cache.seal(cache)
    return lark


def _on_line(tree, line: int) -> None:
    """A value parsed alone says line 1: put its tokens and nodes on the text's own line."""
    from lark import Token, Tree
    stack = [tree]
    while stack:
        n = stack.pop()
        if isinstance(n, Tree):
            if not getattr(n.meta, "empty", True):
                n.meta.line = n.meta.end_line = line
            stack.extend(n.children)
        elif isinstance(n, Token):
            n.line = n.end_line = line


def _expr_parser(path: str, text: str):
    """``parse_expr(piece, line, col)``: one value of a text (``"{p} wins"``), at its place."""
    lines = source_lines(text)

    def parse_expr(piece: str, line: int, col: int):
        padded = " " * (col - 1) + piece        # so that columns are the file's own
        try:
            tree = _lark_expr().parse(padded)
            _on_line(tree, line)
            _check_depth(path, text, tree)
            return tree
        except (UnexpectedInput, DedentError) as exc:
            d = _syntax_diagnostic(path, padded, exc)
            if d.message == "the file ends too early":
                d.message = "the value in braces ends too early"
            d.line = line
            d.source_line = source_line(lines, line)
            raise GameFileError([d]) from None
        except RecursionError:
            raise GameFileError([_too_deep(path, text, line, col)]) from None
    return parse_expr


#: Words that language 3 added: older files may still use them as names.
WORDS_OF_3 = frozenset({"nothing", "show", "describe", "asking", "may", "choose", "as", "extends", "replace",
                        "remove"})

#: Words that language 4 added: files of older languages may still use them as names.
WORDS_OF_4: frozenset = frozenset({
    "up",                           # `chooses up to 3 cards`
    "secret",                       # `zone chips: per player, secret`, `secret counter`
    "more",                         # a variant's `more cards cat:`
})


#: Words that are the language's only where a top-level block starts (`how to play:`), where no name
#: can stand: a name may still be one (files of language 3 could name a counter `how`).
NAMES_TOO = frozenset({"how"}) | frozenset({
    "any", "number",                # `chooses any number of cards`: `any(...)` and `cards number` stay names
})


@functools.lru_cache(maxsize=8)
def keywords(version: int = LANGUAGE_VERSION) -> frozenset:
    """The words of the language (a game cannot use them as names)."""
    if version < 3:
        return keywords() - WORDS_OF_3 - WORDS_OF_4
    if version < 4:
        return keywords() - WORDS_OF_4
    words = set()
    for t in _lark().terminals:
        if t.pattern.type == "str" and t.pattern.value.isalpha():
            words.add(t.pattern.value)
        elif t.name == "DIRECTION":           # highest | lowest
            words.update(re.findall(r"[a-z]+", t.pattern.value))
    return frozenset(words - NAMES_TOO)


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


def _token_diagnostic(path: str, lines: list, exc: UnexpectedToken) -> Diagnostic:
    """The diagnostic of a token the grammar did not expect where it stands."""

    def src(line: int) -> str:
        return source_line(lines, line)

    tok = exc.token
    line, col = tok.line or 1, tok.column or 1
    if tok.type == "$END":
        line = len(lines)
        col = len(src(line)) + 1
        what = "the file ends too early"
    elif tok.type == "_NL":
        what = "the line ends too early"
        col = len(src(line)) + 1 if tok.line else col
    elif tok.type == "_INDENT":         # the token stands at the end of the line before
        what = "unexpected indentation"
        line, col = _next_code_line(lines, line)
    elif tok.type == "_DEDENT":
        what = "the block ends too early"
    else:
        what = f"unexpected `{tok.value}`"
    hint = _expected_hint(exc.expected)
    if line == 1 and "`catrules`" in {_readable(t) for t in exc.expected}:
        hint = (f"a game file starts with the version of the language it is written in: "
                f"`catrules {LANGUAGE_VERSION}` on its first line")
    if tok.type == "_INDENT":
        hint = "only a line ending with `:` opens a block: indent this line like the rest of its block"
    hinted = _habit_diagnostic(path, lines, exc, line, col, what)
    if hinted:
        return hinted
    misspelled = _misspelled_start(src(line)[:col - 1]) if tok.type not in ("_INDENT", "_DEDENT") else None
    if misspelled:
        at, word, near = misspelled
        return Diagnostic(path, line, at, f"`{word}` is not a word of the language",
                          f"did you mean `{near}`?", "error", src(line))
    if _quote_in_braces(src(line)[:col - 1]):
        return Diagnostic(path, line, col, what, "a text cannot hold quotes, even inside its braces: put the "
                          'value in a definition (`define plural(n) = if n == 1 then "" else "s"`, then '
                          '`"{plural(n)}"`)', "error", src(line))
    m = re.fullmatch(r"\s*(play|phase)\s+([A-Za-z_]\w*)\s*", src(line)[:col - 1]) if tok.value == "(" else None
    if m:
        name, args = m.group(2), re.match(r"\(([\w\s,]*)\)", src(line)[col - 1:])
        args = args.group(1).strip() if args else "p"
        return Diagnostic(path, line, col, what, f"a phase takes no parameters: for a block with parameters, "
                          f"declare `action {name}({args}):` and run it with `do {name}({args})`", "error",
                          src(line))
    if tok.type == "NAME" or (tok.type not in ("_NL", "_INDENT", "_DEDENT", "$END") and str(tok.value).isalpha()):
        if "COLON" in exc.expected:
            hint += "; a block starts with `:` at the end of its line"
    return Diagnostic(path, line, col, what, hint, "error", src(line))


def _habit_diagnostic(path: str, lines: list, exc: UnexpectedToken, line: int, col: int, what: str):
    """The diagnostic of a habit of other languages or a bracket left open
    (:mod:`catrules.lang.syntax_hints`), else None."""
    tok, text = exc.token, source_line(lines, line)
    first = col == len(text) - len(text.lstrip(" \t")) + 1        # the parser stopped at the line's first word
    if (first or tok.type in ("_INDENT", "_DEDENT")) and hints.tab_in_indentation(text):
        return Diagnostic(path, line, 1, "a tab in this line's indentation",
                          "indent with spaces (four is usual): a tab is not as wide in every editor", "error", text)
    expected = {_readable(t) for t in exc.expected}
    if expected & {"`)`", "`]`"}:
        opened = hints.unclosed_bracket(lines, line, col)
        if opened:
            at, c, ch = opened
            return Diagnostic(path, at, c, f"this `{ch}` is not closed",
                              f"close it with `{')' if ch == '(' else ']'}`: while a bracket is open the line goes "
                              f"on to the next one, where the parser stopped (line {line})", "error",
                              source_line(lines, at))
    if tok.type in ("_INDENT", "_DEDENT", "$END"):
        return None
    before, rest, source = text[:col - 1], text[col - 1:], "\n".join(lines)
    call = hints.call_without_do(before, rest, source) if tok.value == "(" else None
    if call:
        return Diagnostic(path, line, col, what, call, "error", text)
    foreign = hints.foreign_start(before, source)
    if foreign:
        at, word, hint = foreign
        said = (f"a statement does not start with `{word}`" if word in keywords()
                else f"`{word}` is not a word of the language")
        return Diagnostic(path, line, at, said, hint, "error", text)
    order = hints.word_order(before, str(tok.value), text)
    if order:
        return Diagnostic(path, line, col, what, order, "error", text)
    if hints.compare_with_one_equals(before, str(tok.value)):
        return Diagnostic(path, line, col, what, "to compare two values write `==`; one `=` sets a variable or "
                          "counter", "error", text)
    return None


def _syntax_diagnostic(path: str, source: str, exc: Exception) -> Diagnostic:
    """The diagnostic of a Lark parse error, in the language's words."""
    lines = source_lines(source)

    def src(line: int) -> str:
        return source_line(lines, line)

    if isinstance(exc, UnexpectedToken):
        return _token_diagnostic(path, lines, exc)
    if isinstance(exc, UnexpectedCharacters):
        ch = source[exc.pos_in_stream] if exc.pos_in_stream < len(source) else "?"
        hint = "names are letters, digits and `_`; text goes in double quotes; comments start with `#`"
        what = f"unexpected character `{ch}`"
        if ch == "\t":
            hint = "indent with spaces"
        elif ch == '"' and '"' not in src(exc.line)[exc.column:]:
            what = "a text that is not closed"
            hint = 'end the text with `"` on the same line: a text does not go on to the next line'
        elif ch in BIDI_CONTROLS:
            what = f"an invisible direction character ({char_name(ch)}) here"
            hint = (f"remove the invisible direction character {char_name(ch).split()[0]}: it can make a line "
                    "read differently from what it is")
        elif invisible(ch):
            what = f"an invisible character ({char_name(ch)}) here"
            hint = f"remove the invisible character {escaped(ch)}; names are letters, digits and `_`"
        return Diagnostic(path, exc.line, exc.column, what, hint, "error", src(exc.line))
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


def _next_code_line(lines: list, line: int) -> tuple:
    """``(line, column)`` of the first character of the first line after ``line`` that holds
    more than blanks and a comment (where an indentation token stands), else ``(line, 1)``."""
    for no in range(line + 1, len(lines) + 1):
        text = source_line(lines, no)
        if text.split("#", 1)[0].strip():
            return no, len(text) - len(text.lstrip(" ")) + 1
    return line, 1


def _misspelled_start(before: str):
    """``(column, word, nearest word of the language)`` when the parser stopped right after the
    first word of a line and that word is no word of the language but near one (``mvoe top(deck)
    to ...``), else None."""
    m = re.fullmatch(r"(\s*)([A-Za-z_]\w*)\s+", before)
    if not m or m.group(2) in keywords():
        return None
    near = difflib.get_close_matches(m.group(2), sorted(keywords()), n=1, cutoff=0.7)
    return (len(m.group(1)) + 1, m.group(2), near[0]) if near else None


def _quote_in_braces(before: str) -> bool:
    """Does a text that opened a `{` end (at a quote) before the `}`? The mistake of writing
    quotes inside a text's braces."""
    texts = before.split('"')
    return any("{" in t and "}" not in t.rsplit("{", 1)[1] for t in texts[1::2])


def parse(source: str, path: str = "<game>", _chain: tuple = ()) -> ast.GameFile:
    """Parse ``source`` into a :class:`catrules.lang.ast.GameFile` (no meaning checks).

    A variant (``extends "base.cat"``) comes back merged with its base
    (:mod:`catrules.lang.variants`); ``_chain`` holds the files that led here, to refuse a cycle."""
    _load_lark()
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
        game = _ToAst(rep, path, _expr_parser(path, text)).transform(tree)
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
    if game.extends is not None:
        from . import variants          # here: variants reads its base files with parse_file
        return variants.extend(game, parse_file, _chain)
    return game


def parse_file(path: str | Path, _chain: tuple = ()) -> ast.GameFile:
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
        src = source_line(data.decode("utf-8", "replace"), line)
        raise GameFileError([Diagnostic(str(path), line, col, "this is not UTF-8 text",
                                        "save the game file as UTF-8", "error", src)]) from None
    return parse(text, str(path), _chain + (os.path.realpath(path),))


def _check_characters(path: str, text: str) -> None:
    """Control characters other than tab and newline have no place in a game file."""
    m = re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\r]", text)     # C1 too: \x9b starts a sequence
    if m:
        line = text.count("\n", 0, m.start()) + 1
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        raise GameFileError([Diagnostic(path, line, col, f"a control character (code {ord(m.group())}) "
                                        "in the game file", "remove it; a game file is plain text",
                                        "error", source_line(text, line))])


def _too_deep(path: str, text: str, line: int, col: int) -> Diagnostic:
    return Diagnostic(path, line, col, f"nested too deeply (more than {NESTING_LIMIT} levels)",
                      "split the expression with `define`, or the block into actions", "error",
                      source_line(text, line))


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


