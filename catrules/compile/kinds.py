"""What kind of value each expression, variable and counter of a game holds.

Part of the compiler (:mod:`catrules.compile.compiler`, whose ``_Compiler`` mixes
:class:`ValueKinds` in).  A kind is a word (``card``, ``player``, ``number``,
``line``, ``place``, ``symbol``..., ``value`` when unknown or mixed), taken
from the checker's types (:mod:`catrules.check.types`) where it knows one.  Views
use it to show a counter or an option properly, and a sampled state
(:meth:`State.sample_for`) to rename the cards a variable refers to.
"""

from __future__ import annotations

from ..lang import ast


class ValueKinds:
    """The compiler's methods for kinds (mixed into ``_Compiler``): needs ``self.ck`` (the checked
    game), ``self.names`` and ``self.p`` (the program)."""

    def note_var_kinds(self) -> None:
        """``prog.var_kinds``: what each frame variable holds, where every binding of the name
        agrees (``card``, ``player``, ``number``...; ``value`` when unknown or mixed), so that a
        sampled state can rename the cards a variable refers to (:meth:`State.sample_for`)."""
        g = self.ck.game
        units = g.bodies
        seen: dict = {"player": {"player"}, "position": {"number"}, "racers": {"player"}}
        for t in g.triggers:
            seen.setdefault(t.var, set()).add("card")
            for o in (t.owner, t.source_owner):
                if o:
                    seen.setdefault(o, set()).add("player")
        params = {a.name: a.params for a in g.actions}

        def kind_of(e):
            if isinstance(e, ast.Where):
                return kind_of(e.source)
            if isinstance(e, ast.Attr) and e.name == "cards":
                return "card"
            if isinstance(e, ast.Name) and self.names.get(id(e), (None, None))[1] == "players":
                return "player"
            return self.kind_of(e)
        for n in ast.walk(units):
            if isinstance(n, (ast.Choose, ast.Together, ast.ForEach)):
                seen.setdefault(n.var, set()).add(kind_of(n.source))
            if isinstance(n, ast.ForPlayers):
                seen.setdefault(n.var, set()).add("player")
            if isinstance(n, ast.Together):
                seen.setdefault(n.player, set()).add("player")
            if isinstance(n, ast.Assign) and n.name not in self.ck.counters:
                seen.setdefault(n.name, set()).add(kind_of(n.value))
            if isinstance(n, ast.Add) and n.name not in self.ck.counters:
                seen.setdefault(n.name, set()).add("number")
            if isinstance(n, ast.Do):
                for k, a in zip(params.get(n.action, ()), n.args):
                    seen.setdefault(k, set()).add(kind_of(a))
        for name, kinds in seen.items():
            kinds.discard("none")
            self.p.var_kinds.setdefault(name, kinds.pop() if len(kinds) == 1 else "value")

    def infer_counter_kinds(self) -> None:
        """What each counter holds (card, player, number...), so views can show it properly: the
        type the checker found for it (:mod:`catrules.check.types`); and, for :meth:`kind_of` on a local
        variable whose type is unknown, what a choice or a loop binds it to."""
        from ..check.types import kind_name
        g = self.ck.game
        units = g.bodies
        self.var_kind = {}
        for n in ast.walk(units):
            if isinstance(n, (ast.Choose, ast.Together, ast.ForEach)):
                self.var_kind.setdefault(n.var, self.kind_of(n.source))
            if isinstance(n, (ast.ForPlayers, ast.Together)):
                self.var_kind.setdefault(n.var if isinstance(n, ast.ForPlayers) else n.player, "player")
        for c in g.counters:
            kind = kind_name(self.ck.counter_types.get(c.name))
            self.p.counter_kind[c.name] = kind if kind not in (None, "none") else "value"

    def kind_of(self, e) -> str:
        """What ``e`` (or each element of it) is: player, card, number...; the checker's type
        when it knows one, so a list of players stays players whatever it is made from."""
        from ..check.types import kind_name
        if e is None:
            return "none"
        known = kind_name(self.ck.types.get(id(e)))
        if known is not None and known != "none":
            return known
        if isinstance(e, ast.Where):
            return self.kind_of(e.source)
        if isinstance(e, (ast.Name, ast.Of)):
            r = self.names.get(id(e))
            if r and r[0] in ("zone", "cardtype"):
                return "card"
            if r and r[0] == "counter":
                return self.p.counter_kind.get(r[1].name, "value")
            if r and r[0] == "symbol":
                return "symbol"
            if r and r[0] == "local":
                return getattr(self, "var_kind", {}).get(e.name, "value")
            return "value"
        if isinstance(e, ast.Keyword):
            return "player"
        if isinstance(e, ast.Call):
            if e.name in ("top", "first", "last", "best", "worst", "random") and e.args:
                return self.kind_of(e.args[0])
            if e.name in ("others", "next", "previous", "owner"):
                return "player"
            if e.name in ("rows", "columns", "lines"):
                return "line"
            if e.name == "places":
                return "place"
            if e.name in ("count", "sum", "abs"):
                return "number"
            if e.name == "collect" or e.name == "join":
                return "value"
            return "value"
        if isinstance(e, ast.ListExpr):
            return self.kind_of(e.items[0]) if e.items else "value"
        if isinstance(e, ast.Const):
            if isinstance(e.value, bool):
                return "bool"
            if isinstance(e.value, int):
                return "number"
            return "none" if e.value is None else "symbol"
        if isinstance(e, ast.Attr) and e.name in ("before", "after"):
            return "card"
        if isinstance(e, ast.IfElse):
            k = self.kind_of(e.then)
            return k if k not in ("none", "value") else self.kind_of(e.other)
        if isinstance(e, ast.Binary) and e.op in "+-*/%":
            return "number"
        return "value"
