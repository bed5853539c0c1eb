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

import re

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
    # a card that can never be in that zone tells nothing
    cards = _may_be_in(prog, st.layout.slot_zone[slot])
    shown = None
    column = _column_test(prefer) if where is None else None
    if column is not None:          # ``c.COLUMN == VALUE``: the value once, the column in a loop
        try:
            col, side = column
            v = side(st, V)
            shown = [x for x in cards if x != value and col[x] == v]
        except Exception:           # noqa: BLE001 - card by card below, as it always was
            shown = None
    if shown is None and st.stats is None:  # nobody counts what expressions do: a failed try is redone
        before = st.steps
        try:                        # every card at once (the common case: nothing fails)
            if where is None:
                shown = [x for x in cards if x != value and prefer(st, V, x)]
            else:
                shown = [x for x in cards if x != value and where(st, V, x) and prefer(st, V, x)]
        except _SKIPPED:
            st.steps = before       # card by card below, the steps counted once
            shown = None
    if shown is None:
        shown = []
        for x in cards:
            if x == value:
                continue
            try:
                if (where is None or where(st, V, x)) and prefer(st, V, x):
                    shown.append(x)
            except _SKIPPED:
                continue
    if shown:
        st.facts = st.facts + ((slot, frozenset(shown), value, player),)


#: a preference that compares a printed column of the card with a value read from a counter or
#: a variable (``preferring COLUMN == X.COLUMN``, X a counter or variable): its generated code
_COLUMN_TEST = re.compile(r"\(?(_[at]_\w+)\[_it\] == (_a_\w+\[(?:st\.c|V)\[('[A-Za-z_][A-Za-z_0-9]*')\]\])\)?")

#: per preference (by id, the function kept to check): (its column, its value's function) or None
_COLUMN_TESTS: dict = {}


def _column_test(prefer):
    """``(column, f(st, V))`` when ``prefer(st, V, x)`` is nothing but ``column[x] == f(st, V)``,
    two look-ups of fixed tables and of a counter or variable (no step counted, nothing
    written, the same value for every card); else None."""
    got = _COLUMN_TESTS.get(id(prefer))
    if got is not None and got[0] is prefer:
        return got[1]
    if len(_COLUMN_TESTS) >= 4096:
        _COLUMN_TESTS.clear()
    body = getattr(prefer, "body", None)
    m = _COLUMN_TEST.fullmatch(body) if type(body) is str else None
    out = None
    if m is not None:
        ns = prefer.__globals__
        col, other = ns.get(m.group(1)), ns.get(m.group(2)[:m.group(2).index("[")])
        if type(col) in (dict, tuple) and type(other) is dict:
            out = (col, eval("lambda st, V: " + m.group(2), ns))
    _COLUMN_TESTS[id(prefer)] = (prefer, out)
    return out


#: what a card's test may raise and be left out for (the card tells nothing)
_SKIPPED = (RulesError, LookupError, TypeError, AttributeError, ValueError)

#: per program (by id, the program kept to check) and zone: the cards whose type may lie there
_MAY_BE_IN: dict = {}


def _may_be_in(prog, zone) -> tuple:
    """The cards of ``prog`` whose type can ever be in ``zone``, in order of their number (worked
    out once: a choice that tells something goes over every card of the game)."""
    key = (id(prog), zone)
    got = _MAY_BE_IN.get(key)
    if got is None or got[0] is not prog:
        if len(_MAY_BE_IN) >= 4096:     # programs come and go (a server): start again
            _MAY_BE_IN.clear()
        tz, ctype = prog.zone_types, prog.card_type
        got = _MAY_BE_IN[key] = (prog, tuple(x for x in range(prog.card_count) if zone in tz[ctype[x]]))
    return got[1]


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
