"""Checks of menu names (see :mod:`catrules.lang.menu_names`): the values in braces of a
``catrules 4`` menu name are checked like those of any text that is said (names, types), each
where its choice is offered; in an older file braces in a menu name stay as written, with a
warning that language 4 fills them in."""

from __future__ import annotations

from ..lang import ast
from ..lang.menu_names import LANGUAGE
from .types import not_none


class MenuNameChecks:
    """A part of the checker (:class:`catrules.check.checker._Checker`)."""

    def menu_names(self, s: ast.Menu, sc) -> None:
        if self.g.version < LANGUAGE:
            for label, _cond, _body, pos in s.branches:
                if "{" in label or "}" in label:
                    self.rep.warning((pos["line"], pos["column"]),
                                     f"the braces of the choice \"{label}\" are shown as written: this file "
                                     f"says `catrules {self.g.version}`",
                                     f"`catrules {LANGUAGE}` fills in the values in braces of a menu name")
            return
        for (_label, cond, _body, _pos), said in zip(s.branches, s.labels or ()):
            if said is not None:
                # shown only while the choice is offered: its condition holds
                self.text_expr(said, sc.knowing(not_none(cond, True)) if cond is not None else sc,
                               "a menu choice's name")
