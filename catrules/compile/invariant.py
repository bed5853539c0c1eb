"""A test of a choice's ``preferring``, with the side of its comparison that does not change from
option to option worked out once (the lean compilation's inline options).

``[_it for _it in O if (A == B)]`` reads ``B`` again for every option when ``B`` does not name
``_it`` (the colour led, say).  :func:`hoisted` splits such a test so that ``B`` is read once,
before the options are gone through and only when there is one (an empty list never read it,
so it never fails where the test would not).  Only a side made of names, constants, items and
attributes is taken: reading it has no effect and gives the same value each time.
"""

from __future__ import annotations

import ast
from typing import Optional

_PLAIN = (ast.Name, ast.Constant, ast.Subscript, ast.Attribute, ast.Load)


def _plain(node) -> bool:
    """Whether ``node`` only reads names, constants, items and attributes (no ``_it``)."""
    for n in ast.walk(node):
        if not isinstance(n, _PLAIN):
            return False
        if isinstance(n, ast.Name) and (n.id == "_it" or not isinstance(n.ctx, ast.Load)):
            return False
    return True


def hoisted(test: str, name: str) -> Optional[tuple]:
    """``(test with the unchanging side replaced by name, that side's text)``, or None when
    ``test`` is not one comparison of which exactly one side reads ``_it``."""
    try:
        tree = ast.parse(test.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(tree, ast.Compare) or len(tree.ops) != 1:
        return None
    left, right = tree.left, tree.comparators[0]
    if _plain(right) and not _plain(left):
        side, tree.comparators[0] = right, ast.Name(name, ast.Load())
    elif _plain(left) and not _plain(right):
        side, tree.left = left, ast.Name(name, ast.Load())
    else:
        return None
    if not any(isinstance(n, ast.Name) and n.id == "_it" for n in ast.walk(tree)):
        return None
    return f"({ast.unparse(tree)})", ast.unparse(side)
