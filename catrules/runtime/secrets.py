"""What an imagined game (:mod:`catrules.runtime.sampling`) makes of finer visibility
(language 4): the face-up top card of a ``public top`` pile stays as it is, the cards of the
other players' ``secret`` zones (which they hold, and how many) are dealt among those zones
again, and the other players' ``secret`` counters are imagined from what the player knows.

Each depends only on what the player may see and on the random source, as the rest of an
imagined game does; nothing here knows any game.
"""

from __future__ import annotations

import random

from .errors import _STOPS


def face_up_tops(st, slots) -> set:
    """The top cards of the ``public top`` piles among ``slots``: seen by everyone."""
    lay, z = st.layout, st.z
    return {z[s][-1] for s in slots if lay.top_shown(s) and z[s]}


def secret_families(lay, player: int) -> list:
    """Per ``secret`` zone (piles and rows), the slots of the players other than ``player``."""
    fams: dict = {}
    for s, spec in enumerate(lay.slot_spec):
        if spec.visibility == "secret" and lay.slot_owner[s] != player and lay.slot_simple[s]:
            fams.setdefault(spec.index, []).append(s)
    return [fams[k] for k in sorted(fams)]


def resplit_secret(st, player: int, rng: random.Random, keep) -> None:
    """Deal the cards of the others' ``secret`` zones that ``player`` cannot place (not known to
    them, not in ``keep``) among those zones again, each to one of them at random: how many each
    holds is as unknown as which cards.  In place; the cards are then renamed and shuffled with
    the other unknown cards by :func:`catrules.runtime.sampling.redeal`."""
    bit = 1 << player
    known, z, loc = st.known, st.z, st.loc
    for slots in secret_families(st.layout, player):
        if len(slots) < 2:
            continue
        free = []
        for s in slots:
            stay = [c for c in z[s] if known[c] & bit or c in keep]
            if len(stay) < len(z[s]):
                free += [c for c in z[s] if not (known[c] & bit or c in keep)]
                z[s][:] = stay
        for c in sorted(free):                  # in order of their number: not of where they lay
            s = slots[rng.randrange(len(slots))]
            z[s].append(c)
            loc[c] = s


def imagine_secret_counters(st, player: int) -> None:
    """The others' values of a ``secret`` counter of each player are imagined as ``player``'s
    own; a shared secret counter (seen by nobody) as its start value."""
    prog = st.prog
    if not prog.counter_secret:
        return
    starts = {name: init for name, _per, init in prog.counters}
    for name in sorted(prog.counter_secret):
        v = st.c[name]
        if prog.counter_per.get(name) == "player":
            own = v[player]
            st.c[name] = [list(own) if isinstance(own, list) else own for _ in v]
        elif prog.counter_per.get(name) is None:
            try:
                st.c[name] = starts[name](st, {})
            except _STOPS:
                pass                # a start value that cannot be worked out now: left as it is
