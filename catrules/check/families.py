"""Zone families (language 4): ``zone discard: shared, public, pile, one per colour``.

A family is one member zone per value that a card attribute takes among the game's cards, in
the order the values first appear in the card declarations.  Each member is an ordinary zone
of the checked game (named ``discard(red)``), placed after the declared zones, so views, saves,
bots and logs see plain zones.  In the rules a member is named with a call form: ``discard(red)``,
``discard(c.colour)``, ``expedition(c.colour) of p``.  A constant key names its member when
the game is checked (an unknown one is an error here); any other key picks the member when the
statement runs (the name table then holds the family's own spec, whose ``index`` is -1).  The
bare family name reads every member's cards together and cannot be a destination.

:class:`FamilyChecks` is mixed into the checker, beside the declaration and expression checks.
"""

from __future__ import annotations

import dataclasses

from ..errors import suggest
from ..lang import ast
from .checked import FamilySpec
from .types import CARD, SYMBOL, Type, describe, family, list_of, value_type


def member_name(family_name: str, value) -> str:
    """The name of a member zone, as the rules write it: ``discard(red)``, ``pile(3)``."""
    shown = f'"{value}"' if isinstance(value, str) and not value.isidentifier() else value
    return f"{family_name}({shown})"


def is_family_form(node, families: dict) -> bool:
    """Does ``node`` name a zone family or one of its members (``discard``, ``discard(k)``,
    ``expedition(k) of p``)?"""
    if isinstance(node, ast.Of):
        return node.key is not None or node.name in families
    return isinstance(node, (ast.Name, ast.Call)) and node.name in families


class FamilyChecks:
    """Mixed into the checker: declares the families and checks the names of their members."""

    def family_values(self, attr: str) -> list:
        """The values ``attr`` takes among the cards, in the order they first appear."""
        out = []
        for ct in self.g.cards:
            for row in ct.rows:
                v = row.attrs.get(attr)
                if v is None or isinstance(v, tuple):
                    continue
                v = str(v) if isinstance(v, ast.Sym) else v
                if v not in out:
                    out.append(v)
        return out

    def expand_families(self) -> None:
        """Give each declared family (a ZoneSpec with ``per`` in ``self.families``) its members."""
        for name, spec in list(self.families.items()):
            z = next((z for z in self.g.zones if z.name == name), self.g)
            if spec.per not in self.attributes:
                self.rep.error(z, f"`one per {spec.per}`: no card has an attribute `{spec.per}`",
                               suggest(spec.per, self.attributes) or
                               "name an attribute of the cards, such as `one per colour`")
            if spec.shape not in ("pile", "row"):
                self.rep.error(z, f"a zone family is a pile or a row, not a {spec.shape}",
                               "write `pile` or `row`, or declare the zones one by one")
            if any(isinstance(row.attrs.get(spec.per), tuple) for ct in self.g.cards for row in ct.rows):
                self.rep.error(z, f"`one per {spec.per}`: some cards have a list for `{spec.per}`",
                               "a family needs one value per card")
            values = self.family_values(spec.per)
            fam = FamilySpec(name, spec.per, values, {}, dataclasses.replace(spec, index=-1, family=name))
            for v in values:
                m = dataclasses.replace(spec, name=member_name(name, v), index=len(self.zones), per="",
                                        family=name, key=v)
                self.zones[m.name] = fam.members[v] = m
            self.families[name] = fam
        for ct in self.g.cards:
            if ct.zone in self.families:
                self.rep.error((ct.zone_line, ct.zone_column), f"`{ct.zone}` is a family of zones, one per "
                               f"{self.families[ct.zone].attr}", "let the cards start in a plain zone "
                               "(`zone deck: shared, hidden`) and deal them from there")

    def family_spec(self, name: str):
        """The declared properties of family ``name`` (a trigger's zone), or None."""
        fam = self.families.get(name)
        return fam.spec if fam is not None else None

    # ---------------------------------------------------------------- uses
    def family_ref(self, node, sc, verb: str = "") -> Type:
        """Check a family form (see :func:`is_family_form`) and note what it names; ``verb``: the
        statement wants one zone (a destination, a zone to shuffle...)."""
        fam = self.families.get(node.name)
        if fam is None:                       # `f(x) of p` where f is no family
            self.rep.error(node, f"`{node.name}(...) of ...`: `{node.name}` is not a zone family",
                           suggest(node.name, self.families) or
                           "only a zone declared with `one per ATTRIBUTE` takes a value before `of`")
            self.expr(node.key, sc)
            self.expr(node.owner, sc)
            return Type()
        owner = node.owner if isinstance(node, ast.Of) else None
        key = node.key if isinstance(node, ast.Of) else \
            (node.args[0] if isinstance(node, ast.Call) and len(node.args) == 1 else None)
        if isinstance(node, ast.Call) and len(node.args) != 1:
            self.rep.error(node, f"`{node.name}(...)` names one zone of the family by one value",
                           f"write `{node.name}({self._example(fam)})`")
        self._family_owner(node, fam, owner, sc)
        if key is None and not isinstance(node, ast.Call):
            self.names[id(node)] = ("family", fam)
            if verb:
                self.rep.error(node, f"cannot {verb} `{node.name}`: it is a family of zones, one per {fam.attr}",
                               f"name one of them: `{node.name}({self._example(fam)})` or "
                               f"`{node.name}(c.{fam.attr})`")
            return list_of(CARD)
        spec = self._member(fam, key, sc) if key is not None else fam.spec
        self.names[id(node)] = ("zone", spec)
        self.types[id(node)] = t = Type("zone", CARD)
        return t

    def _family_owner(self, node, fam: FamilySpec, owner, sc) -> None:
        shown = f"{node.name}(...)" if not (isinstance(node, ast.Of) and node.key is None) else node.name
        if owner is None:
            if fam.spec.per_player and not sc.player:
                self.rep.error(node, f"zone `{node.name}` belongs to each player: say whose", f"write `{shown} of p`")
        elif not fam.spec.per_player:
            self.rep.error(node, f"zone `{node.name}` is shared, so `of ...` names no one", f"write just `{shown}`")
            self.expr(owner, sc)
        elif isinstance(owner, ast.Keyword) and owner.word == "everyone":
            self.rep.error(node, f"`{shown} of everyone`: name one player's zone", f"write `{shown} of p`")
        else:
            self.need_owner(node, owner, self.expr(owner, sc), node.name, "a player")

    def _member(self, fam: FamilySpec, key, sc):
        """The member a key names: its spec for a constant key, the family's for any other."""
        n = key.name if isinstance(key, ast.Name) else None
        if n is not None and n not in sc.locals and not (sc.element and n in self.attributes) and not any(
                n in t for t in (self.counters, self.defines, self.zones, self.options, self.families)):
            self.names[id(key)] = ("symbol", n)
            self.types[id(key)] = SYMBOL
            return self._constant(fam, key, n)
        if isinstance(key, ast.Const) and key.value is not None:
            self.types[id(key)] = value_type(key.value)
            return self._constant(fam, key, key.value)
        t = self.expr(key, sc)
        want = self.attr_types.get(fam.attr)
        if want is not None and family(t) not in (None, family(want)):
            self.rep.error(key, f"the zones of `{fam.name}` are one per {fam.attr}, which is "
                                f"{describe(want)}; this is {describe(t)}",
                           f"write `{fam.name}(c.{fam.attr})` for a card c, or a value such as "
                           f"`{fam.name}({self._example(fam)})`")
        return fam.spec

    def _constant(self, fam: FamilySpec, key, value):
        if value in fam.members:
            return fam.members[value]
        shown = [str(v) for v in fam.values]
        self.rep.error(key, f"`{fam.name}` has no zone for `{value}`: it has one per {fam.attr} "
                            f"({', '.join(shown[:8])}{', ...' if len(shown) > 8 else ''})",
                       suggest(str(value), shown) or f"write `{fam.name}({self._example(fam)})`")
        return fam.spec

    @staticmethod
    def _example(fam: FamilySpec) -> str:
        return str(fam.values[0]) if fam.values else fam.attr
