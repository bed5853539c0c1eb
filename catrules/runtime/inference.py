"""What a choice tells the others: facts for imagined games.

A choice ``preferring P`` keeps the options ``P`` holds for when there are any.  So a
player who answers with a card that ``P`` does not hold for shows everyone who sees that
card that none of the cards ``P`` holds for was in the zone they chose from: a player who
does not follow the colour led has none of it.  The engine keeps such a *fact* (see
:func:`note_choice`); :func:`catrules.runtime.sampling.redeal` deals no card of the fact where it
was shown not to be, for every player who knows which card was played.

A fact lasts until a card that somebody cannot identify comes into that zone (a card
drawn face down: :func:`forget_arrivals`), since from then on any card may be there.
Only choices from one zone are inferred from (a choice from several zones tells which
zone was empty, which is harder to say and rarer).  Nothing here knows any game.
"""

from __future__ import annotations

from ..errors import RulesError


def note_choice(st, V: dict, index: int, player: int, value) -> None:
    """Keep the fact a choice shows, if any: ``prog.prefer_fns[index]`` is ``(prefer, where)``,
    two ``f(state, vars, card)`` (``where``: the choice's own filter, or None) of the choice
    just answered by ``player`` with ``value``, a card still where it was chosen from."""
    if st.known is None or type(value) is not int:
        return                      # nobody keeps track of what players know in this run
    prog = st.prog
    prefer, where = prog.prefer_fns[index]
    try:
        if prefer(st, V, value):
            return                  # a preferred card: it tells nothing of the others
    except (RulesError, LookupError, TypeError, AttributeError, ValueError):
        return
    slot = st.loc[value]
    zone = st.layout.slot_zone[slot]
    tz = prog.zone_types
    ctype = prog.card_type
    shown = []
    for x in range(prog.card_count):
        if zone not in tz[ctype[x]] or x == value:
            continue                # a card that can never be in that zone tells nothing
        try:
            if (where is None or where(st, V, x)) and prefer(st, V, x):
                shown.append(x)
        except (RulesError, LookupError, TypeError, AttributeError, ValueError):
            continue
    if shown:
        st.facts = st.facts + ((slot, frozenset(shown), value, player),)


def forget_arrivals(st, slot: int) -> None:
    """A card somebody cannot identify came into ``slot``: the facts about it no longer hold."""
    st.facts = tuple(f for f in st.facts if f[0] != slot)


def exclusions(st, player: int) -> dict:
    """Slot -> the cards ``player`` knows are not there (the facts they can tell: they know
    which card was played, and it was not their own choice)."""
    out: dict = {}
    known = st.known
    bit = 1 << player
    for slot, cards, played, who in st.facts:
        if who != player and known[played] & bit:
            out[slot] = out[slot] | cards if slot in out else cards
    return out
