"""Compiling the names of zone families' members (language 4; see :mod:`catrules.check.families`).

The checker's name table gives a member named by a constant key its own zone spec, which
compiles like any zone; a member named by a key computed at run time has the family's spec
(``index`` -1): its zone index is looked up when the statement runs
(:func:`catrules.runtime.families.member_index`).  The bare family name reads all members.
"""

from __future__ import annotations

from ..lang import ast
from ..runtime.families import family_cards, member_index

#: the helpers the generated code calls
HELPERS = {"_member": member_index, "_family_cards": family_cards}


def families_of(ck) -> dict:
    return getattr(ck, "families", None) or {}


def zone_indices(ck, spec) -> set:
    """The zone indices ``spec`` (a zone, a member, or a member picked at run time) may name."""
    if spec.index >= 0:
        return {spec.index}
    fam = families_of(ck).get(spec.family or spec.name)
    return {m.index for m in fam.members.values()} if fam else set()


def named_indices(ck, name: str) -> list:
    """The zone indices of a zone or of every member of a family, by name (a trigger's zone)."""
    if name in ck.zones:
        return [ck.zones[name].index]
    fam = families_of(ck).get(name)
    return [m.index for m in fam.members.values()] if fam else []


def key_node(node):
    """The key expression of a member's name: ``discard(KEY)``, ``expedition(KEY) of p``."""
    if isinstance(node, ast.Of):
        return node.key
    return node.args[0] if isinstance(node, ast.Call) and node.args else None


def index_code(gen, spec, node, env) -> str:
    """Code for the zone index of a member picked at run time."""
    fam = families_of(gen.ck)[spec.family]
    table = {v: m.index for v, m in fam.members.items()}
    return f"_member({gen.gen(key_node(node), env)}, {table!r}, {fam.name!r})"


def family_code(gen, fam, owner_code) -> str:
    """Code for every card of a family (of one owner)."""
    idx = tuple(m.index for m in fam.members.values())
    return f"_family_cards(st, {idx!r}, {owner_code})"


def slot_fn(comp, node, spec):
    """A closure ``f(state, vars)`` giving the slot of a member picked at run time."""
    fam = families_of(comp.ck)[spec.family]
    table = {v: m.index for v, m in fam.members.items()}
    key = comp.ex(key_node(node))
    name = fam.name
    if not spec.per_player:
        return lambda st, V: st.layout.base[member_index(key(st, V), table, name)]
    if isinstance(node, ast.Of):
        owner = comp.ex(node.owner)
        return lambda st, V: st.layout.base[member_index(key(st, V), table, name)] + owner(st, V)
    return lambda st, V: st.layout.base[member_index(key(st, V), table, name)] + V["player"]
