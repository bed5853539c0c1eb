"""Zone families at run time: which member zone a key names, and a family's cards together.

A family (``zone discard: shared, pile, one per colour``) is compiled to one ordinary zone per
value (see :mod:`catrules.check.families`); a member named by a key computed while the game runs
(``discard(c.colour)``) is found here, and a key with no member stops the game in the
language's words.
"""

from __future__ import annotations

from ..errors import RulesError


def member_index(key, table: dict, family: str) -> int:
    """The zone index of the member of ``family`` for ``key`` (``table``: value -> index)."""
    zi = table.get(key) if type(key) is not bool else None
    if zi is None:
        values = ", ".join(str(v) for v in table)
        shown = "none" if key is None else key
        raise RulesError(f"there is no zone `{family}({shown})`: `{family}` has one zone for each of {values}",
                         hint=f"make sure the value given to `{family}(...)` is one of these")
    return zi


def family_cards(st, indices: tuple, owner) -> list:
    """Every card in the members (zone ``indices``) of a family, together; ``owner``: whose
    members (None: a shared family)."""
    z, base = st.z, st.layout.base
    out = []
    for zi in indices:
        out += z[base[zi] if owner is None else base[zi] + owner]
    return out
