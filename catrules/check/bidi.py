r"""Invisible direction characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C).

They can make a name, a text or a whole line read differently from what it is
("Trojan Source"): ``game "Cat\u202eemag"`` shows as another title.  Outside texts
and comments the parser already refuses them (names are letters, digits and
``_``).  In a text or a comment they are new strictness, so by the promise of
compatibility an error only from language 4 on (:data:`REFUSED_FROM`): a file
of language 3 or older still checks and plays, with a warning for each,
and every text of its game holds the character written as its escape
(``\u202e``), so that the terminal, the web page and the logs, which all show
the game's own texts, show it visibly.  See docs/language.rst, "Characters".
"""

from __future__ import annotations

import re

from ..errors import BIDI_CONTROLS, Diagnostic, char_name, escaped, source_line, source_lines
from ..lang import ast

#: The first language version that refuses direction characters in texts and comments (files of
#: earlier versions checked with them, so there they are a warning).
REFUSED_FROM = 4

_ANY = re.compile("[" + "".join(sorted(BIDI_CONTROLS)) + "]")
_VERSION = re.compile(r"(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*catrules[ \t]+([0-9]+)")


def check_bidi(game: ast.GameFile, rep) -> None:
    """Report the direction characters of the game's file and its base files (errors or
    warnings by each file's version); escape them in the game's texts if any was let through."""
    files = [(game.path, game.source, game.version)]
    for path, text in game.sources.items():
        m = _VERSION.match(text)
        files.append((path, text, int(m.group(1)) if m else game.version))
    let_through = False
    for path, text, version in files:
        if not _ANY.search(text):
            continue
        lines = source_lines(text)
        for line, col, ch, where in _places(lines):
            refused = version >= REFUSED_FROM or where == "code"
            let_through = let_through or not refused
            rep.items.append(_diagnostic(path, line, col, ch, where, refused, source_line(lines, line)))
    if let_through:
        escape_texts(game)


def _places(lines: list):
    """(line, column, character, "text" | "comment" | "code") of each direction character."""
    for no, line in enumerate(lines, 1):
        if not _ANY.search(line):
            continue
        in_text = in_comment = False
        for i, c in enumerate(line):
            if c == '"' and not in_comment:
                in_text = not in_text
            elif c == "#" and not in_text:
                in_comment = True
            elif c in BIDI_CONTROLS:
                yield no, i + 1, c, "comment" if in_comment else ("text" if in_text else "code")


def _diagnostic(path, line, col, ch, where, refused, src) -> Diagnostic:
    code = char_name(ch).split()[0]
    place = {"text": "in a text", "comment": "in a comment", "code": "here"}[where]
    message = f"an invisible direction character ({char_name(ch)}) {place}"
    hint = f"remove the invisible direction character {code}: it can make "
    hint += "a name or a text read differently from what it is" if where == "text" else \
        "the line read differently from what it is"
    if refused:
        return Diagnostic(path, line, col, message, hint, "error", src)
    shown = f"; it is shown as `{escaped(ch)}`" if where == "text" else ""
    return Diagnostic(path, line, col, message + shown, hint + f" (from language {REFUSED_FROM} on, it is an error)",
                      "warning", src)


def _escaped(v):
    """``v`` with the direction characters of its texts escaped (lists changed in place)."""
    if isinstance(v, str):
        return _ANY.sub(lambda m: escaped(m.group()), v) if _ANY.search(v) else v
    if isinstance(v, list):
        for i, x in enumerate(v):
            v[i] = _escaped(x)
        return v
    if isinstance(v, tuple):
        return tuple(_escaped(x) for x in v)
    if isinstance(v, dict):
        for k, x in v.items():
            v[k] = _escaped(x)
        return v
    return v


_KEEP = frozenset({"path", "source", "sources", "origins"})


def escape_texts(game: ast.GameFile) -> None:
    """Write every direction character in the game's texts (title, options, shown names, card
    values, menu labels, texts in rules) as its escape."""
    for n in list(ast.walk(game)):
        for f in type(n).__fields__:
            if f not in _KEEP:
                v = getattr(n, f)
                if isinstance(v, (str, list, tuple, dict)):
                    setattr(n, f, _escaped(v))
