"""Checking a choice of a variable number of cards (language 4): ``chooses up to N cards`` and
``chooses any number of cards`` (see :mod:`catrules.lang.upto`).

The options must be cards, as for ``chooses N cards``; a count written as a number must be at
least 1 (``up to 0 cards`` chooses nothing); a count worked out is a number (below 0 it stops the
game, in the game's words, when it runs).
"""

from __future__ import annotations

from ..lang import ast
from .types import describe, element, family


def check_up_to(ck, s, sc, source_type) -> None:
    """Check the count of choice ``s`` (its ``up_to`` set) for checker ``ck`` in scope ``sc``."""
    if family(element(source_type)) not in (None, "card"):
        what = "`chooses any number of cards`" if s.up_to == "any" else "`chooses up to N cards`"
        ck.rep.error(s.source, f"{what} chooses among cards; the options here are {describe(source_type)}",
                     "choose one option at a time: `chooses x from ...`")
    count = s.count
    if count is None:
        return
    v = count.value if isinstance(count, ast.Const) else None
    if isinstance(v, int) and not isinstance(v, bool):
        if v < 1:
            ck.rep.error(count, f"`up to {v} cards` lets the player choose nothing at all",
                         "write a number of 1 or more, such as `chooses up to 2 cards c from ...`")
        return
    ck.need_number(count, ck.expr(count, sc), "the most cards to choose")
