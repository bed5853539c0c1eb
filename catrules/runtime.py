"""What compiled games do while they run: places and lines, moving cards, triggers, logs.

The instructions the compiler makes (:mod:`catrules.compiler`) and the
expression code it generates (:mod:`catrules.codegen`) call these helpers:
references to rows, columns, lines and places (``row:SLOT:I``...), moving
cards with the triggers they set off (card by card), what each player comes
to know of where cards are, the log events of moves and counters, and the
jumps of branches and loops.
"""

from __future__ import annotations

from .engine import Frame, cards_in
from .errors import RulesError
from .limits import CHAIN_LIMIT


# ======================================================= lines, grids, places

#: the parsed references seen so far: a game uses few, but would parse each again on every use
_REFS: dict = {}
_REFS_KEPT = 50_000          # more than any game uses; past it the memory starts again


def parse_ref(v: str) -> tuple:
    """A reference's kind and numbers: ``"place:3:1:0"`` is ``("place", (3, 1, 0))``.

    References stay texts (they are option ids, log entries and saved values as they are);
    each is parsed once."""
    r = _REFS.get(v)
    if r is None:
        parts = v.split(":")
        r = (parts[0], tuple(int(x) for x in parts[1:]))
        if len(_REFS) >= _REFS_KEPT:
            _REFS.clear()
        _REFS[v] = r
    return r


def ref_cards(st, v) -> list:
    kind, nums = parse_ref(v)
    zone = st.z[nums[0]]
    if kind == "row":
        spec = st.layout.slot_spec[nums[0]]
        cells = zone[nums[1] * spec.cols:(nums[1] + 1) * spec.cols]
        return [c for c in cells if c is not None]
    if kind == "col":
        spec = st.layout.slot_spec[nums[0]]
        return [zone[r * spec.cols + nums[1]] for r in range(spec.rows) if zone[r * spec.cols + nums[1]] is not None]
    if kind == "line":
        return list(zone[nums[1]]) if nums[1] < len(zone) else []
    if kind == "place":
        return []
    raise RulesError(f"`{v}` is not a collection of cards")


def describe(st, v: str) -> str:
    kind, nums = parse_ref(v)
    prog = st.prog
    if kind == "row":
        return f"row {nums[1] + 1}"
    if kind == "col":
        return f"column {nums[1] + 1}"
    zname = st.layout.slot_spec[nums[0]].name
    if kind == "line":
        cards = ref_cards(st, v)
        return f"{zname} {nums[1] + 1} ({', '.join(prog.card_label[c] for c in cards)})"
    if kind == "place":
        i, pos = nums[1], nums[2]
        if i < 0:
            return f"a new line in {zname}"
        line = st.z[nums[0]][i]
        if pos == 0:
            return f"{zname} {i + 1}: at the start, before {prog.card_label[line[0]]}"
        if pos >= len(line):
            return f"{zname} {i + 1}: at the end, after {prog.card_label[line[-1]]}"
        return f"{zname} {i + 1}: between {prog.card_label[line[pos - 1]]} and {prog.card_label[line[pos]]}"
    return v


def place_attr(st, v, name):
    """An attribute of a place, a line, a row or a column (values that are strings)."""
    if v is None:
        return None
    kind, nums = parse_ref(v)
    if kind != "place":
        if name == "index":
            return nums[1] + 1
        if name == "cards":
            return ref_cards(st, v)
        if name == "new":
            return False
        raise RulesError(f"a {kind} has no `{name}`")
    i, pos = nums[1], nums[2]
    if name == "new":
        return i < 0
    if name == "position":
        return pos + 1
    if i < 0:                                   # a new line: nothing before, after or in it
        return {"start": False, "end": False, "index": 0, "cards": []}.get(name)
    line = st.z[nums[0]][i]
    if name == "start":
        return pos == 0
    if name == "end":
        return pos >= len(line)
    if name == "before":
        return line[pos - 1] if pos > 0 else None
    if name == "after":
        return line[pos] if pos < len(line) else None
    if name == "line":
        return f"line:{nums[0]}:{i}"
    if name == "index":
        return i + 1
    return list(line)                           # cards


def as_list(st, v) -> list:
    t = type(v)
    if t is list:
        return v
    if v is None:
        return []
    if t is str and ":" in v:
        return ref_cards(st, v)
    if t is tuple:
        return list(v)
    return [v]


# ================================================================= moving cards

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
    which one they cannot tell), nor where the moved cards went."""
    if s0 == s1:
        return
    sees = st.layout.seers
    see = sees[s0] | sees[s1]
    blind = ((1 << st.n) - 1) & ~see
    known = st.known
    if blind:
        keep = ~blind
        zone = st.z[s0]
        for d in (zone if st.layout.slot_simple[s0] else cards_in(zone)):
            known[d] &= keep
    for c in cards:
        known[c] = see


def move_cards(st, fr, cards: list, slot: int, where=None, key=None) -> bool:
    """Move ``cards`` one by one to ``slot`` (at ``where``), logging them and setting off triggers.

    Each card's triggers are tested as it arrives and run to the end (they may pause for
    decisions) before the next card moves, exactly as if the cards had been moved one by one:
    when a card sets something off and cards remain, the rest is kept in the frame's variable
    ``key`` (plain data: ``[slot, where, card, ...]``) and the instruction runs again once the
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
        groups = []                             # (source slot, cards) in a row, for `learn`
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
            if s0 != slot:
                if s0 != prev:
                    prev, group = s0, [c]
                    groups.append((s0, group))
                else:
                    group.append(c)
        for s0, cs in groups:
            learn(st, cs, s0, slot)
        return False
    groups = []
    lines = log is not None and lay.slot_shape[slot] == "lines"
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
    if s0 != slot:
        learn(st, (c,), s0, slot)


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
                         prog.checked.game.triggers[int(fired[0][0].split(":")[1])].line, prog.path,
                         "give the trigger a guard (`if ...`) so that the chain ends")
    for key, V in reversed(fired):
        st.frames.append(Frame(key, 0, V, depth))
    return True


#: Frame variables that keep a card-moving statement's place while triggers it set off run
#: (plain data, saved with the game): ``[slot, where, card...]``, ``[slot, next cell]``,
#: ``[card, from slot, to slot]``.
RESUME_MOVE, RESUME_FILL, RESUME_EXCHANGE = "#move@", "#fill@", "#exchange@"


def log_counter(st, name: str, owner, old, new) -> None:
    """Log a change of a counter (nothing if its value stays the same).

    ``{"t": "counter", "name", "value"}``, with ``owner`` (the player) for a counter of each
    player, or ``card`` and that card's ``zone`` for a counter of each card; a value of cards
    also has ``zones``, where those cards are (the event is filtered by them:
    :func:`catrules.match.visible_event`).
    """
    if old == new and type(old) is type(new):
        return
    prog = st.prog
    names = st.layout.slot_name
    ev = {"t": "counter", "name": name}
    if owner is not None:
        if prog.checked.counters[name].per_card:
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
        st.log.append({"t": "move", "cards": list(cards), "from": st.layout.slot_name[fr_slot],
                       "to": st.layout.slot_name[to_slot], "actor": st.actor, **extra})


def _chain_labels(st):
    return [f.key for f in st.frames if f.depth > 0 and f.key.startswith("trigger:")]


def _trigger_label(prog, key: str) -> str:
    return prog.checked.game.triggers[int(key.split(":")[1])].label


def _everyone(st, zi, shape):
    b = st.layout.base[zi]
    z = st.z
    out = []
    if shape in ("pile", "row"):
        for s in range(b, b + st.n):
            out += z[s]
        return out
    for s in range(b, b + st.n):
        out += cards_in(z[s])
    return out


def _either(st, v, name, col):
    if v is None:
        return None
    return place_attr(st, v, name) if isinstance(v, str) else col[v]


def _agg(fn, vals):
    return fn(vals) if vals else 0


def _minmax_rt(fn, st, a, f):
    if isinstance(a, (int, float)) and not isinstance(a, bool):
        return fn(a, f(None))
    vals = [f(x) for x in as_list(st, a)]
    return fn(vals) if vals else 0


def _best_rt(items, f, highest):
    top = topk = None
    for x in items:
        k = f(x)
        if top is None or (k > topk if highest else k < topk):
            top, topk = x, k
    return top


def _first(x):
    return x[0] if x else None


def _last(x):
    return x[-1] if x else None


def _top_rt(x, n):
    return x[::-1][:n] if n > 0 else []


def _owner_rt(st, c):
    if c is None:
        return None
    o = st.layout.slot_owner[st.loc[c]]
    return o if o >= 0 else None


def _others_rt(st, p):
    n = st.n
    return [(p + i) % n for i in range(1, n)]


def _random_rt(st, x):
    return x[st.rng.randrange(len(x))] if x else None


def _grid_lines(slot, kind, k):
    return [f"{kind}:{slot}:{i}" for i in range(k)]


def _lines_rt(st, slot):
    return [f"line:{slot}:{i}" for i in range(len(st.z[slot]))]


def _places_rt(st, s):
    out = [f"place:{s}:-1:0"]
    for i, line in enumerate(st.z[s]):
        out.extend(f"place:{s}:{i}:{k}" for k in range(len(line) + 1))
    return out


def _nopick(k, line):
    raise RulesError(f"pick: no case for {k!r} and no `else:`", line)




def _cards_in(zone, shape):
    """A zone's cards: the live list of a pile or row, a new list for grids and lines."""
    return zone if shape in ("pile", "row") else cards_in(zone)


def _position(st, c):
    zone = st.z[st.loc[c]]
    if zone and type(zone[0]) is list:
        for i, line in enumerate(zone):
            if c in line:
                return (i, line.index(c))
    return zone.index(c)


def _put(st, slot, pos, c):
    zone = st.z[slot]
    if isinstance(pos, tuple):
        zone[pos[0]][pos[1]] = c
    else:
        zone[pos] = c


