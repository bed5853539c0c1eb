"""Views: what one player (or a spectator) may see of a game, as plain data.

A view is what front ends draw and what a seat is given: the zones with the
cards the player may see and counts of the others, the counters (a card the
player cannot see shows as hidden), the player's own pending decisions, and
the scores.  Nothing hidden from the player is in it.
"""

from __future__ import annotations

from .ending import running
from .places import describe, parse_ref
from .visibility import HIDDEN, counter_seen, finer_zone


def view(prog, st, p) -> dict:
    """What player ``p`` (None: a spectator) may see of ``st``: every zone (its cards where ``p``
    sees it, else how many), the counters (hidden cards as ``{"hidden": true}``), ``p``'s own
    decisions and answer so far, and the scores at the end (or as they stand, where the whole
    score is public)."""
    lay = st.layout
    zones = []
    for slot, spec in enumerate(lay.slot_spec):
        own = lay.slot_owner[slot]
        vis = lay.visible(slot, p)
        content = st.z[slot]
        e = {"zone": spec.name, "owner": own if own >= 0 else None, "visibility": spec.visibility,
             "shape": spec.shape}
        if spec.shape == "lines":
            e["count"] = sum(len(x) for x in content)
            e["line_lengths"] = [len(x) for x in content]
            e["lines"] = [[prog.card_dicts[c] for c in x] for x in content] if vis else None
        elif spec.shape == "grid":
            e["rows"], e["cols"] = spec.rows, spec.cols
            e["count"] = sum(1 for c in content if c is not None)
            e["cells"] = [prog.card_dicts[c] if c is not None else None for c in content] if vis else None
        else:
            e["count"] = len(content)
            e["cards"] = [prog.card_dicts[c] for c in content] if vis else None
        zones.append(finer_zone(prog, lay, slot, p, e, content) if not vis else e)
    counters = {}
    for name, per, _i in prog.counters:
        v = st.c[name]
        kind = prog.counter_kind.get(name)
        if name in prog.counter_secret and not st.over:     # seen only by its owner (shared: nobody)
            counters[name] = [_show(prog, st, kind, x, p) if counter_seen(prog, name, i, p, False)
                              else dict(HIDDEN) for i, x in enumerate(v)] \
                if isinstance(v, list) and per == "player" else dict(HIDDEN)
        elif isinstance(v, list) and per == "player":
            counters[name] = [_show(prog, st, kind, x, p) for x in v]
        elif per == "card":     # only the cards that have a value, keyed by card id
            vis = st.layout.visible
            counters[name] = {str(i): _show(prog, st, kind, x, p) for i, x in enumerate(v)
                              if x is not None and vis(st.loc[i], p)}
        else:
            counters[name] = _show(prog, st, kind, v, p)
    pend = st.pending_
    out = {"game": prog.title, "you": p, "players": st.n, "options": list(st.options), "zones": zones,
           "counters": counters, "finished": st.over,
           "decisions": [d.to_dict() for d in st.pending() if d.player == p],
           "waiting_for": st.waiting_for() if pend else [],
           "last_line": None}
    if pend is not None and pend.kind != "choose" and p is not None and p in pend.players:
        mine = pend.chosen[p]
        if pend.awaits(p) and pend.picks and pend.picks[p]:
            mine = pend.picks[p]                # a choice of several cards, part made
            if pend.upto:                       # `up to`: done is no card
                mine = [x for x in mine if x is not None]
        if isinstance(mine, list):
            out["my_choice"] = [prog.option_id(pend.okind, x) for x in mine]
        elif not pend.awaits(p):
            out["my_choice"] = prog.option_id(pend.okind, mine)
    if st.over:
        sc = st.scores()
        out["scores"] = sc
        out["winners"] = st.winners(sc)
    else:
        # the score if the game ended now, the end's own rules played on a copy (all of it
        # public: the same for everyone), and what it leaves out
        rows, note = running(st)
        if rows is not None:
            out["running"] = rows
            if note:
                out["running_note"] = note
    return out

def _show(prog, st, kind, v, p):
    if kind == "card" and isinstance(v, int) and not isinstance(v, bool):
        if 0 <= v < prog.card_count and st.layout.visible(st.loc[v], p):
            return prog.card_dicts[v]
        return {"hidden": True}
    if kind == "player" and isinstance(v, int) and not isinstance(v, bool):
        return {"player": v}
    if kind in ("line", "place") and isinstance(v, str) and v[:4] in ("row:", "col:", "line", "plac"):
        ref, nums = parse_ref(v)
        return {"ref": v, "label": describe(st, v), "zone": st.layout.slot_spec[nums[0]].name,
                "line": ref, "index": nums[1]}
    return v
