"""Syntax highlighting for game files (``.cat``) with Pygments.

:class:`CatrulesLexer` colours the parts of the rules language: comments,
quoted text, numbers, keywords, builtin functions, operators and names.  The
documentation registers it with Sphinx (see ``docs/conf.py``) so that every
example in the language reference is shown in colour; any other tool that
uses Pygments can use it too::

    from pygments import highlight
    from pygments.formatters import TerminalFormatter
    from catrules.authoring.highlight import CatrulesLexer

    print(highlight(text, CatrulesLexer(), TerminalFormatter()))

It only colours text: it does not check that a game file is correct (the
parser and the checker do that).
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String, Text,
                            Whitespace)

__all__ = ["CatrulesLexer", "KEYWORDS", "BUILTINS"]

#: Words that start a declaration (the top-level items of a game file).
DECLARATIONS = (
    "catrules", "game", "players", "option", "cards", "zone", "counter", "define", "action",
    "when", "setup", "phase", "flow", "score", "winner", "show", "describe", "extends", "replace", "remove",
    "more",
)

#: Constant values.
CONSTANTS = ("true", "false", "none")

#: Every other reserved word of the grammar.
OTHER_KEYWORDS = (
    "to", "card", "in", "for", "each", "with", "player", "by", "of", "enters", "if", "note",
    "highest", "lowest", "ties", "share", "move", "shuffle", "fill", "from", "exchange", "add",
    "chooses", "play", "do", "announce", "end", "stop", "preferring", "default", "else", "repeat",
    "times", "until", "while", "clockwise", "secretly", "race", "where", "then", "or", "and", "not",
    "everyone", "pick", "allot", "into", "wants", "serves", "spare", "prefer", "maximal", "tally",
    "openly", "cards", "nothing", "as", "asking", "may", "choose",
    "up",
    "secret",
)

#: All the keywords of the grammar (``catrules/lang/catrules.lark``).
KEYWORDS = DECLARATIONS + CONSTANTS + OTHER_KEYWORDS

#: The builtin functions of the language.
BUILTINS = (
    "count", "sum", "max", "min", "best", "worst", "first", "last", "top", "bottom", "owner",
    "next", "previous", "random", "any", "others", "rows", "columns", "lines", "places", "abs",
    "range", "copies", "collect", "join", "tallied",
)

_NAME = r"[a-zA-Z_][a-zA-Z0-9_]*"


class CatrulesLexer(RegexLexer):
    """Pygments lexer for catrules game files."""

    name = "catrules"
    aliases = ["catrules", "cat"]
    filenames = ["*.cat"]
    mimetypes = ["text/x-catrules"]

    tokens = {
        "root": [
            (r"[ \t\f]+", Whitespace),
            (r"\r?\n", Whitespace),
            (r"\\[ \t\f]*\r?\n", Text),                  # a line continued on the next one
            (r"#[^\n]*", Comment.Single),
            (r'"[^"\n]*"', String.Double),
            (r"[0-9]+", Number.Integer),
            # The name being declared after `define`, `action` and `phase`.
            (r"\b(define|action|phase)([ \t]+)(" + _NAME + ")",
             bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (words(DECLARATIONS, prefix=r"\b", suffix=r"\b"), Keyword.Declaration),
            (words(CONSTANTS, prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (words(OTHER_KEYWORDS, prefix=r"\b", suffix=r"\b"), Keyword),
            # A builtin is coloured only when it is called: `first(row)`,
            # so that a zone or counter named like one stays a plain name.
            (words(BUILTINS, prefix=r"\b", suffix=r"(?=[ \t]*\()"), Name.Builtin),
            (_NAME + r"(?=[ \t]*\()", Name.Function),      # a definition being used
            (r"(\.)(" + _NAME + ")", bygroups(Punctuation, Name.Attribute)),
            (_NAME, Name),
            (r"==|!=|<=|>=|[<>=+\-*/%]", Operator),
            (r"[:,.()\[\]]", Punctuation),
        ],
    }
