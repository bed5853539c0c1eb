"""How things are shown: ``show SYMBOL as "..."`` and ``show``/``describe card``.

A card's face and description are worked out once per game, from the card
alone, so they may not read the game's state (zones, counters, options,
players, or a builtin such as ``owner``), not even through a definition.
:class:`ShowChecks` is part of the checker (:mod:`catrules.check.checker`).
"""

from __future__ import annotations

from ..lang import ast
from ..errors import suggest
from .types import Scope as _Scope, cards_of

#: Builtins that read the game's state (a card's face may not use them).
STATEFUL_BUILTINS = frozenset({"owner", "others", "next", "previous", "random", "tallied"})


class ShowChecks:
    """Mixed into the checker: needs ``self.g``, ``self.rep``, the name tables and ``text_expr``."""

    def check_shows(self) -> None:
        """``show SYMBOL as "..."`` and ``show/describe card c of TYPE as TEXT``: a face uses the
        card alone (its attributes, definitions of them), so it can be worked out once."""
        seen = {}
        for sh in self.g.symbol_names:
            if sh.symbol in seen:
                self.rep.error(sh, f"`{sh.symbol}` is already shown as \"{seen[sh.symbol]}\"", "keep one `show`")
            elif sh.symbol not in self.symbols:
                self.rep.error(sh, f"`{sh.symbol}` is not a value of any card", suggest(sh.symbol, self.symbols)
                               or "`show NAME as ...` names a bare word of the card rows, such as a colour")
            seen.setdefault(sh.symbol, sh.text)
        done = set()
        for sh in self.g.card_shows:
            verb = "show" if sh.what == "face" else "describe"
            if sh.card_type not in self.card_types:
                if self.rejected.get(sh.card_type) == "card type":
                    continue                    # its declaration has the error already
                self.rep.error(sh, f"unknown card type `{sh.card_type}`", suggest(sh.card_type, self.card_types)
                               or "name a card type of a `cards NAME in ZONE:` block")
                continue
            if (sh.what, sh.card_type) in done:
                self.rep.error(sh, f"a second `{verb} card` for `{sh.card_type}`", "keep one")
            done.add((sh.what, sh.card_type))
            self.text_expr(sh.value, _Scope({sh.var}, unit=f"show:{sh.line}",
                                            elem={sh.var: cards_of([sh.card_type])}), f"`{verb} card`")
            bad = self._stateful(sh.value, {sh.var}, set())
            if bad is not None:
                self.rep.error(bad, f"a card's {'face' if sh.what == 'face' else 'description'} shows the "
                                    "card alone; this uses the game's state",
                               "use the card's attributes (`c.name`), numbers, symbols and definitions "
                               "of those; narrate the rest with `announce`")

    def _stateful(self, e, local: set, seen: set):
        """The first node of ``e`` that reads the game's state (zones, counters, options,
        players), following definitions; ``None`` if there is none."""
        for n in ast.walk(e):
            if isinstance(n, ast.Keyword):
                return n
            if isinstance(n, ast.Name) and n.name not in local:
                if n.name in self.zones or n.name in self.counters or n.name in self.options \
                        or n.name in self.card_types:
                    return n
                d = self.defines.get(n.name)
                if d is not None and n.name not in seen:
                    seen.add(n.name)
                    if self._stateful(d.body, set(d.params), seen) is not None:
                        return n
            if isinstance(n, ast.Call):
                d = self.defines.get(n.name)
                if d is not None and n.name not in seen:
                    seen.add(n.name)
                    if self._stateful(d.body, set(d.params), seen) is not None:
                        return n
                elif d is None and n.name in STATEFUL_BUILTINS:
                    return n
        return None
