"""Menu names with values (language 4): ``"take {c} (with {count(pot)} chips)":``.

In a ``catrules 4`` file the name of a menu item is a text with values in braces, like an
``announce`` text.  Its *id* (what logs, saves, scripted seats, ``default "..."`` and bots say) is
the name as written, braces and all, so it stays the same whatever the values are; the *label* a
player reads is the name with the values filled in as that player may see them.  In older files
braces in a menu name are plain characters (the checker warns about them).
"""

from __future__ import annotations

from . import ast

LANGUAGE = 4        # the language version that fills in a menu name's values


def menu_name(builder, tok):
    """The name of a menu item (a STRING token) said with values, or None when it has none
    (or the file's language leaves braces as written)."""
    raw = str(tok)[1:-1]
    if builder.version < LANGUAGE or ("{" not in raw and "}" not in raw):
        return None
    said = builder._text(raw, tok.line or 0, (tok.column or 0) + 1)
    return said if isinstance(said, ast.Text) else None


def written_default(builder, default):
    """A menu's ``default "take {c}"`` (``("is", expr)``) names a choice by its name as written:
    in language 4 the text's values are not filled in there."""
    if builder.version < LANGUAGE or default is None or default[0] != "is":
        return default
    d = default[1]
    written = getattr(d, "written", None)
    if written is None:
        return default
    return ("is", ast.Const(written, line=d.line, column=d.column))
