"""Moving cards: from slot to slot, card by card, with the triggers they set off.

Each card's triggers are tested as it arrives and run to the end before the
next card moves; what each player comes to know of where cards are is kept up
to date (``State.known``, for bots that must not cheat); moves and counters
are logged as events.
"""

from __future__ import annotations

from ..errors import RulesError
from .frames import cards_in
from .inference import forget_arrivals
from .places import _position
from .triggers import _fire, _triggered


def _remove(st, c: int) -> int:
    s0 = st.loc[c]
    zone = st.z[s0]
    shape = st.layout.slot_shape[s0]
    if shape == "grid":
        zone[zone.index(c)] = None
    elif shape == "lines":
        for li, line in enumerate(zone):
            if c in line:
                line.remove(c)
                if not line:
                    del zone[li]
                break
    else:
        zone.remove(c)
    return s0


def _insert(st, c: int, slot: int, where) -> None:
    zone = st.z[slot]
    shape = st.layout.slot_shape[slot]
    if shape == "grid":
        if where is None:
            try:
                where = zone.index(None)
            except ValueError:
                raise RulesError(f"{st.layout.slot_name[slot]} is full") from None
        elif zone[where] is not None:
            raise RulesError(f"that cell of {st.layout.slot_name[slot]} is taken")
        zone[where] = c
    elif shape == "lines":
        if where is None or where[0] < 0 or where[0] >= len(zone):
            zone.append([c])
        else:
            zone[where[0]].insert(where[1], c)
    elif where == 0:
        zone.insert(0, c)
    else:
        zone.append(c)
    st.loc[c] = slot


def learn(st, cards, s0: int, s1: int) -> None:
    """Keep ``st.known`` (per card, the players who know which slot it is in) up to date after
    ``cards`` went from slot ``s0`` to ``s1``: whoever sees either slot knows where they are now;
    whoever sees neither no longer knows where any card left in ``s0`` is (one of them left,
    which one they cannot tell), nor where the moved cards went.  Nothing while ``st.known`` is
    None: nobody reads it in that run (see :class:`catrules.play.autoplay.Autoplay`).  Also
    ``st.saw`` (per card, who saw its last move: whoever sees either slot, and bit ``n`` when
    one is public, for who watches the table), kept always."""
    watch = st.layout.watchers
    seen = watch[s0] | watch[s1]
    saw = st.saw
    for c in cards:                     # who saw them move (see catrules.runtime.said)
        saw[c] = seen
    known = st.known
    if s0 == s1 or known is None:
        return
    sees = st.layout.seers
    see = sees[s0] | sees[s1]
    blind = ((1 << st.n) - 1) & ~see
    if blind:
        keep = ~blind
        zone = st.z[s0]
        for d in (zone if st.layout.slot_simple[s0] else cards_in(zone)):
            known[d] &= keep
        if st.facts:                    # a card some cannot identify came in: any card may be there
            forget_arrivals(st, s1)
    for c in cards:
        known[c] = see
    see_tops(st, s0, s1)


def see_tops(st, *slots) -> None:
    """The top card of a ``public top`` pile among ``slots`` is known to every player."""
    lay, known = st.layout, st.known
    if known is None:
        return
    for s in slots:
        if lay.top_shown(s) and st.z[s]:
            known[st.z[s][-1]] = (1 << st.n) - 1


def move_cards(st, fr, cards: list, slot: int, where=None, key=None) -> bool:
    """Move ``cards`` one by one to ``slot`` (at ``where``), logging them and setting off triggers.

    Each card's triggers are tested as it arrives and run to the end (they may pause for
    decisions) before the next card moves, exactly as if the cards had been moved one by one:
    when a card sets something off and cards remain, the rest is kept in the frame's variable
    ``key`` (plain data: ``[slot, where, card, ...]``) and the move runs again once the
    triggers are done.  Returns True when the step loop must look again (frames were pushed).
    """
    prog = st.prog
    lay = st.layout
    trig = prog.triggers.get(lay.slot_zone[slot])
    log = st.log
    if log is None and not trig and where is None and lay.slot_simple[slot]:
        # the common case: piles and rows, no triggers, no log
        z, loc, simple = st.z, st.loc, lay.slot_simple
        dest = z[slot]
        if cards and cards[0] is not None:
            s0 = loc[cards[0]]
            k = len(cards)
            if simple[s0] and s0 != slot and z[s0][-k:] == cards:
                # the top cards of one pile or row, in order (a deal, a whole pile): as one
                del z[s0][-k:]
                dest.extend(cards)
                for c in cards:
                    loc[c] = slot
                learn(st, cards, s0, slot)
                return False
        groups = []                             # (source slot, cards) in a row, for `learn`
        track = st.known is not None            # else nobody keeps track: no groups
        saw, watch = st.saw, lay.watchers
        into = watch[slot]
        prev = group = None
        for c in cards:
            if c is None:
                continue
            s0 = loc[c]
            if simple[s0]:
                zs = z[s0]
                if zs[-1] == c:                 # most moves take cards from the top
                    zs.pop()
                else:
                    zs.remove(c)
            else:
                _remove(st, c)
            dest.append(c)
            loc[c] = slot
            saw[c] = watch[s0] | into           # who saw it move (see learn)
            if track and s0 != slot:
                if s0 != prev:
                    prev, group = s0, [c]
                    groups.append((s0, group))
                else:
                    group.append(c)
        for s0, cs in groups:
            learn(st, cs, s0, slot)
        return False
    return _move_watched(st, fr, cards, slot, where, key, trig)


def _move_watched(st, fr, cards: list, slot: int, where, key, trig) -> bool:
    """:func:`move_cards` card by card, where triggers watch, the game is logged, or the cards
    go to a given place or a grid or lines: each card logged and its triggers set off as it arrives."""
    log = st.log
    groups = []
    lines = log is not None and st.layout.slot_shape[slot] == "lines"
    for i, c in enumerate(cards):
        if c is None:
            continue
        s0 = _remove(st, c)
        _insert(st, c, slot, where)
        learn(st, (c,), s0, slot)
        if lines:                               # each card with its line and position
            li, pos = _position(st, c)
            _log_move(st, [c], s0, slot, line=li + 1, position=pos + 1)
        elif log is not None:
            if groups and groups[-1][0] == s0:
                groups[-1][1].append(c)
            else:
                groups.append((s0, [c]))
        if trig:
            fired = []
            _triggered(st, trig, c, s0, slot, fired)
            if fired:
                for g0, cs in groups:
                    _log_move(st, cs, g0, slot)
                rest = [x for x in cards[i + 1:] if x is not None]
                if rest:
                    if key is None:
                        raise RulesError("internal: a move of several cards that cannot resume")
                    fr.vars[key] = [slot, list(where) if isinstance(where, tuple) else where] + rest
                    fr.pc -= 1              # run the move again for the rest, after the triggers
                return _fire(st, fr, fired)
    for g0, cs in groups:
        _log_move(st, cs, g0, slot)
    return False


def move_one(st, c, slot: int) -> None:
    """Move card ``c`` (or nothing, for none) to the top of ``slot``, a zone no trigger watches."""
    if c is None:
        return
    lay = st.layout
    if st.log is not None or not lay.slot_simple[slot]:
        move_cards(st, None, [c], slot)
        return
    loc = st.loc
    s0 = loc[c]
    if lay.slot_simple[s0]:
        zs = st.z[s0]
        if zs[-1] == c:
            zs.pop()
        else:
            zs.remove(c)
    else:
        _remove(st, c)
    st.z[slot].append(c)
    loc[c] = slot
    see = lay.seers[s0] | lay.seers[slot]
    if see == (1 << st.n) - 1 or st.known is None or s0 == slot:
        st.saw[c] = lay.watchers[s0] | lay.watchers[slot]     # who saw it move (see learn)
        if s0 != slot and st.known is not None:
            st.known[c] = see           # everyone sees one end: nobody loses track of anything
            see_tops(st, s0, slot)
    else:
        learn(st, (c,), s0, slot)


def move_one_blind(st, c, slot: int) -> None:
    """:func:`move_one` for the lean blocks (no log: see State.run): the same, written for
    piles and rows while nobody keeps track of what each player knows (``st.known`` is None)."""
    if c is None:
        return
    lay, loc = st.layout, st.loc
    s0 = loc[c]
    simple = lay.slot_simple
    if st.known is not None or not simple[slot] or not simple[s0]:
        move_one(st, c, slot)
        return
    zs = st.z[s0]
    if zs[-1] == c:
        zs.pop()
    else:
        zs.remove(c)
    st.z[slot].append(c)
    loc[c] = slot
    w = lay.watchers
    st.saw[c] = w[s0] | w[slot]         # who saw it move (see learn)


#: Frame variables that keep a card-moving statement's place while triggers it set off run
#: (plain data, saved with the game): ``[slot, where, card...]``, ``[slot, next cell]``,
#: ``[card, from slot, to slot]``.
RESUME_MOVE, RESUME_FILL, RESUME_EXCHANGE = "#move@", "#fill@", "#exchange@"


def log_counter(st, name: str, owner, old, new) -> None:
    """Log a change of a counter (nothing if its value stays the same).

    ``{"t": "counter", "name", "value"}``, with ``owner`` (the player) for a counter of each
    player, or ``card`` and that card's ``zone`` for a counter of each card; a value of cards
    also has ``zones``, where those cards are (the event is filtered by them:
    :func:`catrules.play.match.visible_event`).
    """
    if old == new and type(old) is type(new):
        return
    prog = st.prog
    names = st.layout.slot_name
    ev = {"t": "counter", "name": name}
    if owner is not None:
        if prog.counter_per[name] == "card":
            ev["card"] = owner
            ev["zone"] = names[st.loc[owner]]
        else:
            ev["owner"] = owner
    ev["value"] = list(new) if type(new) is list else new
    if prog.counter_kind.get(name) == "card" and new is not None:
        ids = new if type(new) is list else [new]
        if all(type(c) is int and 0 <= c < prog.card_count for c in ids):
            ev["zones"] = [names[st.loc[c]] for c in ids]
    st.log.append(ev)


def _log_move(st, cards, fr_slot, to_slot, **extra) -> None:
    if st.log is not None:
        lay = st.layout
        ev = {"t": "move", "cards": list(cards), "from": lay.slot_name[fr_slot],
              "to": lay.slot_name[to_slot], "actor": st.actor, **extra}
        for key, s in (("from_top", fr_slot), ("to_top", to_slot)):
            if lay.top_shown(s):            # a `public top` pile: its top card now, face up
                ev[key] = st.z[s][-1] if st.z[s] else None
        st.log.append(ev)
