"""Imagined games: a copy of a state consistent with what one player has seen.

Bots search and the non-interference test redeal what a player cannot see
(:meth:`catrules.runtime.state.State.sample_for`).  This module deals the unknown cards
again among the places they may be (:func:`redeal`; where each card type can ever be was
worked out when the game was compiled: ``Program.zone_types``) and renames
every reference to a card that moved, so the copy stays a game the rules could
have produced.  Nothing here knows any game.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from .randoms import shuffler as _shuffler
from .frames import cards_in
from .inference import exclusions
from .option_ids import card_id, card_of
from .secrets import face_up_tops, imagine_secret_counters, resplit_secret


def redeal(st, player: int, rng: random.Random, plan=None):
    """Rename the cards ``player`` does not know and shuffle the slots they cannot see
    (see :meth:`State.sample_for`); in place.

    Returns what it worked out of ``st`` before any draw (the slots and cards to deal, the cards
    in front of the player, the facts a choice showed), or None where a draw came first (the
    secret cards split again): given back as ``plan`` to deal another copy of the same state,
    the same work is not done again, and the draws are the same."""
    if plan is None:
        plan = _plan(st, player, rng)
        if plan is None:
            return None                     # the player sees every place: nothing to imagine
    unseen, shown, groups, excluded, again = plan
    shuffle = _shuffler(rng)
    perm = {}
    for cs, slots, in_order in groups:
        if len(cs) > 1:
            # dealt from the cards in order of their number, not of where they are: the same
            # imagined game whatever the player cannot see (a bot's choice cannot depend on it)
            new = in_order[:]
            shuffle(new)
            if excluded and not excluded.keys().isdisjoint(slots):
                new = _respecting(new, slots, excluded)
            if new != cs:
                # every card of the group, in one go (a card that stays itself renames to itself)
                perm.update(zip(cs, new))
    if perm:
        _rename(st, perm, unseen)
    if st.prog.counter_secret:
        imagine_secret_counters(st, player)
    _shuffle_unseen(st, st.layout, unseen, shown, shuffle)
    return plan if again else None


def _plan(st, player: int, rng: random.Random):
    """What :func:`redeal` deals in ``st``: (the slots ``player`` cannot see, the cards shown to
    them there, per group its cards, their slots and its cards in order of their number (the groups
    in an order the hidden cards do not set), the facts a choice showed, whether a copy of the
    same state may be dealt from it again); None when the player sees every place.  The secret cards are split again first (drawing from
    ``rng``): a plan made after that draw is not dealt again."""
    prog, lay = st.prog, st.layout
    unseen = _unseen(lay, player)
    if not unseen:
        return None
    # the cards of the player's own pending decision are in front of them: known, and kept
    # exactly where they are (a choice from the top cards of a face-down pile, say)
    shown: set = set()
    pend = st.pending_
    if pend is not None and pend.okind == "card" and player in pend.players:
        _card_ids(pend.options[player], shown, prog.card_count)
        _card_ids(pend.chosen[player], shown, prog.card_count)
    shown |= face_up_tops(st, unseen)            # a `public top` pile's top: everyone sees it
    facts = _facts(prog, lay)
    if facts.secret:
        resplit_secret(st, player, rng, shown | _referenced_unsure(st))
    groups = _unknown_groups(st, unseen, 1 << player, shown, facts.group_of)
    excluded = exclusions(st, player) if st.facts else None
    # in an order the hidden cards do not set
    ordered = [groups[g] + (sorted(groups[g][0]),)
               for g in (sorted(groups, key=sorted) if len(groups) > 1 else groups)]
    return unseen, shown, ordered, excluded, not facts.secret


def _unknown_groups(st, unseen: list, bit: int, shown: set, group_of: list) -> dict:
    """The cards of the slots ``unseen`` that the player (``bit``) does not know, but for those
    ``shown`` or held by a value of unsure kind, by group: group -> (cards, their slots), in the
    order of the slots and of the cards in each."""
    known, z, simple = st.known, st.z, st.layout.slot_simple
    groups: dict = {}                       # where the cards may be -> (cards, their slots)
    pinned = None                           # worked out only if some card is unknown: it reads every value
    for s in unseen:
        zone = z[s]
        if not zone:
            continue
        unknown = [c for c in (zone if simple[s] and None not in zone else cards_in(zone)) if not known[c] & bit]
        if not unknown:
            continue
        if pinned is None:
            pinned = _referenced_unsure(st) | shown
        if pinned:
            unknown = [c for c in unknown if c not in pinned]
            if not unknown:
                continue
        kinds = set(map(group_of.__getitem__, unknown))
        if len(kinds) == 1:                 # one group (the common case): in one go
            g = kinds.pop()
            got = groups.get(g)
            if got is None:
                groups[g] = (unknown, [s] * len(unknown))
            else:
                got[0].extend(unknown)
                got[1].extend([s] * len(unknown))
            continue
        for c in unknown:
            g = group_of[c]
            got = groups.get(g)
            if got is None:
                groups[g] = ([c], [s])
            else:
                got[0].append(c)
                got[1].append(s)
    return groups


def _shuffle_unseen(st, lay, unseen: list, shown: set, shuffle) -> None:
    """The order of a slot the player cannot see is unknown to them: each is shuffled in place,
    but for the cards in front of them, from the cards in order of their number (an order that
    hidden cards did not set)."""
    z, simple = st.z, lay.slot_simple
    for s in unseen:
        zone = z[s]
        if not zone:
            continue                        # nothing to shuffle: no draws either
        if simple[s] and None not in zone and (not shown or shown.isdisjoint(zone)):
            zone.sort()
            shuffle(zone)                   # every card of a pile or row: the same draws, in place
            continue
        if lay.slot_shape[s] == "lines":
            places = [(line, k) for line in zone for k in range(len(line)) if line[k] not in shown]
        else:
            places = [(zone, k) for k in range(len(zone)) if zone[k] is not None and zone[k] not in shown]
        if len(places) > 1:
            cs = sorted(z_[k] for z_, k in places)
            shuffle(cs)
            for (z_, k), c in zip(places, cs):
                z_[k] = c


class _Facts(NamedTuple):
    """What :func:`redeal` asks of a game again and again, worked out once per layout."""
    layout: object
    secret: bool                # a secret counter or zone: the others' secret cards are split again
    group_of: list              # per card, where cards of its type may ever be (its group)
    card_counters: tuple        # counters that hold cards or a value per card (renamed)
    plain_counters: frozenset   # counters known to hold no card ids (never pinned)


#: per layout (by id, the layout kept to check): its :class:`_Facts`
_FACTS: dict = {}


def _facts(prog, lay) -> _Facts:
    got = _FACTS.get(id(lay))
    if got is not None and got.layout is lay:
        return got
    tz, ctype = prog.zone_types, prog.card_type
    kind, per = prog.counter_kind, prog.counter_per
    names = set(kind) | set(per)
    got = _FACTS[id(lay)] = _Facts(
        lay, bool(prog.counter_secret) or any(sp.visibility == "secret" for sp in lay.slot_spec),
        [tz[ctype[c]] for c in range(prog.card_count)],
        tuple(sorted(n for n in names if per.get(n) == "card" or kind.get(n) == "card")),
        frozenset(n for n in names if kind.get(n, "value") != "value"))
    return got


def _respecting(cards: list, slots: list, excluded: dict) -> list:
    """``cards`` (already shuffled) dealt to places in ``slots``, none where a fact showed it is not
    (``excluded``: slot -> cards): each place with such facts first takes the first card in the
    shuffled order that may be there, then the other places take the rest in order.  Where no
    card may go, the fact is ignored (it can only be stale)."""
    rest = list(cards)
    out: list = [None] * len(slots)
    for i, s in enumerate(slots):
        bad = excluded.get(s)
        if bad is None:
            continue
        k = next((k for k, c in enumerate(rest) if c not in bad), 0)
        out[i] = rest.pop(k)
    it = iter(rest)
    return [c if c is not None else next(it) for c in out]


def sort_others_options(st, player: int) -> None:
    """The others' options of the card decision pending now in order of their number: in an
    imagined game, an order that their hidden cards did not set."""
    pend = st.pending_
    if pend is not None and pend.okind == "card":
        opts = pend.options
        for pl in pend.players:
            if pl != player and opts[pl] and None not in opts[pl]:
                opts[pl] = sorted(opts[pl])


def _unseen(lay, player: int) -> list:
    """The slots ``player`` cannot see (kept with the layout: it never changes)."""
    cache = lay.unseen
    if player not in cache:
        cache[player] = [s for s in range(len(lay.slot_spec)) if not lay.visible(s, player)]
    return cache[player]


def _card_ids(v, out: set, count: int) -> None:
    t = type(v)
    if t is int:
        if 0 <= v < count:
            out.add(v)
    elif t is list or t is tuple:
        add = out.add
        for x in v:                         # a value may be a long list: its numbers without a call each
            tx = type(x)
            if tx is int:
                if 0 <= x < count:
                    add(x)
            elif tx is list or tx is tuple:
                _card_ids(x, out, count)


def _referenced_unsure(st) -> set:
    """Card ids held by values whose kind is not known to be card or not card (such a card
    stays where it is when a state is sampled, since renaming a number would break the game)."""
    prog = st.prog
    n = prog.card_count
    out: set = set()
    kinds = prog.var_kinds
    for fr in st.frames:
        for k, v in fr.vars.items():
            if k.startswith(_RESUME):
                continue
            if kinds.get(k, "value") == "value":
                _card_ids(v, out, n)
    plain = _facts(prog, st.layout).plain_counters
    for name, v in st.c.items():
        if name[:1] != "#" and name not in plain:
            _card_ids(v, out, n)
    return out


_RESUME = ("#move@", "#fill@", "#exchange@")


def _ren(v, perm):
    t = type(v)
    if t is int:
        return perm.get(v, v)
    if t is list:
        return [_ren(x, perm) for x in v]
    return v


def _ren_id(oid, perm):
    """A card option id (``c12``) renamed through ``perm``; other ids unchanged."""
    c = card_of(oid)
    return oid if c is None else card_id(perm.get(c, c))


def _rename(st, perm: dict, slots=None) -> None:
    """Rename cards everywhere: card ``old`` becomes ``perm[old]`` (a permutation), in the
    zones (only ``slots``, if given: the cards renamed lie there) and in every value that holds
    cards (by its kind)."""
    prog = st.prog
    get = perm.get
    for zone in (st.z if slots is None else [st.z[s] for s in slots]):
        if not zone:
            continue
        if type(zone[0]) is list:
            for line in zone:
                line[:] = map(get, line, line)
        else:
            zone[:] = map(get, zone, zone)          # none (an empty cell) stays none
    loc, known, saw = st.loc, st.known, st.saw
    oloc, oknown, osaw = list(loc), list(known), list(saw)
    for old, new in perm.items():
        loc[new] = oloc[old]
        known[new] = oknown[old]
        saw[new] = osaw[old]
    kinds = prog.var_kinds
    for fr in st.frames:
        V = fr.vars
        for k, v in V.items():
            if k[:1] == "#":
                if k.startswith("#move@"):
                    V[k] = v[:2] + _ren(v[2:], perm)
                elif k.startswith("#exchange@"):
                    V[k] = [get(v[0], v[0])] + v[1:]
                elif kinds.get(k) == "card":
                    V[k] = _ren(v, perm)
            elif kinds.get(k) == "card":
                V[k] = _ren(v, perm)
    per, c = prog.counter_per, st.c
    for name in _facts(prog, st.layout).card_counters:
        if name not in c:
            continue
        v = c[name]
        card_valued = prog.counter_kind.get(name) == "card"
        if per.get(name) == "card":
            col = list(v)
            for old, new in perm.items():
                col[new] = v[old]
            c[name] = _ren(col, perm) if card_valued else col
        elif card_valued:
            c[name] = _ren(v, perm)
    p = st.pending_
    if p is not None and p.okind == "card":
        p.options = [_ren(o, perm) if o is not None else None for o in p.options]
        p.default = [_ren(d, perm) for d in p.default]
        p.chosen = [_ren(c, perm) if type(c) in (int, list) else c for c in p.chosen]
        if p.picks is not None:
            p.picks = [_ren(x, perm) if x is not None else None for x in p.picks]
        if p.answers:                         # secret answers waiting for the reveal (events)
            p.answers = [{**ev, "option": _ren_id(ev["option"], perm)} for ev in p.answers]
