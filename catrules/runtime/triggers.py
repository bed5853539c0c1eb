"""Triggers: which effects a card entering a zone sets off, and running them (a chain has a depth limit)."""

from __future__ import annotations

from ..errors import RulesError
from ..limits import CHAIN_LIMIT
from .frames import Frame


def _triggered(st, trig, c, s0, slot, fired) -> None:
    """Collect the triggers that card ``c`` sets off by entering ``slot`` from ``s0``."""
    lay = st.layout
    owner = lay.slot_owner[slot]
    for key, var, owner_var, guard, src, src_owner in trig:
        if src is not None and lay.slot_zone[s0] != src:
            continue
        V = {var: c, "player": owner if owner >= 0 else None}
        if owner_var:
            V[owner_var] = owner
        if src_owner:
            so = lay.slot_owner[s0]
            V[src_owner] = so if so >= 0 else None
        if guard is None or guard(st, V):
            fired.append((key, V))


def _fire(st, fr, fired) -> bool:
    """Run the triggered effects at once (the last pushed runs first), guarding the chain's depth."""
    if not fired:
        return False
    prog = st.prog
    depth = fr.depth + 1
    if depth > CHAIN_LIMIT:
        labels = [k for k in _chain_labels(st)] + [fired[0][0]]
        raise RulesError(f"a chain of triggered effects went {CHAIN_LIMIT} links deep and was stopped: "
                         + " -> ".join(_trigger_label(prog, k) for k in labels[-6:]),
                         prog.trigger_lines[int(fired[0][0].split(":")[1])], prog.path,
                         "give the trigger a guard (`if ...`) so that the chain ends")
    for key, V in reversed(fired):
        st.frames.append(Frame(key, 0, V, depth))
    return True


def _chain_labels(st):
    return [f.key for f in st.frames if f.depth > 0 and f.key.startswith("trigger:")]


def _trigger_label(prog, key: str) -> str:
    return prog.trigger_labels[int(key.split(":")[1])]
