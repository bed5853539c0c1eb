"""Checking deals that may run short: ``top(deck, up to 9)`` (language 4).

In language 4 ``top(zone, n)`` takes exactly ``n`` cards (a zone that holds fewer stops the
game with an error in the rules' words, see :func:`catrules.runtime.errors.short_deal`);
``up to n`` says a short deal is intended and takes what there is.  Here: ``up to`` stands only
as the count of ``top``, and its count is a number.  Mixed into the checker's ``_Checker``.
"""

from __future__ import annotations

from ..lang import ast
from .types import NUMBER

#: The builtins whose argument at this position may be ``up to N``.
UP_TO_PLACES = {"top": 1}


class DealChecks:
    """The checker's methods for ``up to`` (mixed into ``_Checker``)."""

    def check_up_to_places(self, e: ast.Call) -> None:
        """An ``up to`` among ``e``'s arguments that is not the count of ``top(zone, ...)``."""
        for i, a in enumerate(e.args):
            if isinstance(a, ast.UpTo) and UP_TO_PLACES.get(e.name) != i:
                self.rep.error(a, "`up to` is a count of cards taken from a zone, only in `top(zone, up to N)`",
                               f"write the count alone here: `{e.name}(..., N)`")

    def expr_up_to(self, e: ast.UpTo, sc) -> object:
        t = self.expr(e.count, sc)
        self.need_number(e.count, t, "`up to`")
        return NUMBER
