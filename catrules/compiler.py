"""Compile a checked game into its executable form, a :class:`Program`.

The compiler walks the action graph (:mod:`catrules.graph`) unit by unit and
turns every statement into one or more *instructions*: small closures
``instr(state, frame)`` that the step loop in :mod:`catrules.engine` runs in
order, jumping by setting ``frame.pc``.  Every expression becomes a closure
``f(state, vars)``.  Names were resolved by the checker, so nothing is looked
up by name while a game runs.  The program is built once per game file and
shared by every state of that game.
"""

from __future__ import annotations

from typing import Callable

import attrs

from . import ast
from . import graph as graphmod
from .checker import Checked
from .codegen import CodeGen, _add, _fits
from .engine import CHAIN_LIMIT, STEP_LIMIT as STEP_GUARD, Frame, Option, cards_in
from .errors import CatrulesError, RulesError, suggest


# ====================================================================== layout

@attrs.define
class Layout:
    """Where each zone lives in a state's list of slots, for one player count."""
    n: int
    base: list
    slot_spec: list
    slot_owner: list
    slot_name: list
    slot_shape: list
    slot_zone: list
    players: list
    slot_simple: list = attrs.Factory(list)   # True for piles and rows

    def visible(self, slot: int, player) -> bool:
        vis = self.slot_spec[slot].visibility
        if vis == "public":
            return True
        if vis == "hidden":
            return False
        return player is not None and self.slot_owner[slot] == player


# ===================================================================== program

class Program:
    """A compiled game: card table, zones, code, triggers, scoring."""

    def __init__(self, checked: Checked, action_graph):
        g = checked.game
        self.checked = checked
        self.graph = action_graph
        self.title = g.title
        self.path = g.path
        self.version = g.version
        self.min_players = g.min_players
        self.max_players = g.max_players
        self.option_texts = {o.name: o.text for o in g.options}
        self.zones = sorted(checked.zones.values(), key=lambda z: z.index)
        self.zone_by_name = dict(checked.zones)
        self.attributes = list(checked.attributes)
        # cards
        self.card_type: list = []
        self.card_attrs: list = []
        self.initial_zone: list = []
        self.cards_of_type: dict = {}
        for ct in g.cards:
            zid = checked.zones[ct.zone].index
            ids = []
            for row in ct.rows:
                for _ in range(row.copies):
                    ids.append(len(self.card_type))
                    self.card_type.append(ct.name)
                    self.card_attrs.append(dict(row.attrs))
                    self.initial_zone.append(zid)
            self.cards_of_type[ct.name] = ids
        self.card_count = len(self.card_type)
        self.attr_col = {a: [ca.get(a) for ca in self.card_attrs] for a in self.attributes}
        self.card_label = [_card_label(ca) for ca in self.card_attrs]
        self.card_dicts = [{"id": i, "type": self.card_type[i], "label": self.card_label[i],
                            **{k: (list(v) if isinstance(v, tuple) else v) for k, v in self.card_attrs[i].items()}}
                           for i in range(self.card_count)]
        self.codes: dict = {}
        self.code_lines: dict = {}
        self.counters: list = []
        self.counter_kind: dict = {}
        self.triggers: dict = {}          # zone index -> list of trigger tuples
        self.score_items: list = []
        self.ranking: list = []
        self.has_setup = bool(g.setup)
        self.tallies = any(isinstance(n, ast.Tally) for n in ast.walk(
            [g.setup, g.flow] + [x.body for x in g.phases + g.actions + g.triggers]))
        self.tie_race = bool(g.tie_race)
        from .engine import Option
        self.card_options = [Option(f"c{i}", self.card_label[i], i, "card") for i in range(self.card_count)]
        self.player_options = [Option(f"p{i + 1}", f"player {i + 1}", i, "player") for i in range(self.max_players)]
        self._layouts: dict = {}
        self._slot_index: dict = {}

    # ---------------------------------------------------------------- setup
    def check_start(self, players: int, options) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise CatrulesError(f"{self.title} is for {self.min_players} to {self.max_players} players, "
                                f"not {players}")
        for o in options:
            if o not in self.option_texts:
                hint = suggest(o, self.option_texts)
                known = ", ".join(self.option_texts) or "none"
                raise CatrulesError(f"{self.title} has no option `{o}`" + (f"; {hint}" if hint else "") +
                                    f" (options: {known})")

    def layout(self, n: int) -> Layout:
        lay = self._layouts.get(n)
        if lay is not None:
            return lay
        base, spec, owner, name, shape, zid = [], [], [], [], [], []
        for z in self.zones:
            base.append(len(spec))
            owners = range(n) if z.per_player else [-1]
            for o in owners:
                spec.append(z)
                owner.append(o)
                name.append(z.name if o < 0 else f"{z.name} of player {o + 1}")
                shape.append(z.shape)
                zid.append(z.index)
        lay = Layout(n, base, spec, owner, name, shape, zid, list(range(n)), [x in ("pile", "row") for x in shape])
        self._layouts[n] = lay
        return lay

    def slot_index(self, lay: Layout) -> dict:
        """Slot name (as in events) -> slot index, for one layout."""
        idx = self._slot_index.get(lay.n)
        if idx is None:
            idx = self._slot_index[lay.n] = {name: i for i, name in enumerate(lay.slot_name)}
        return idx

    def line_of(self, key: str, pc: int) -> int:
        lines = self.code_lines.get(key, [])
        if 0 <= pc < len(lines):
            return lines[pc]
        return 0

    # -------------------------------------------------------------- options
    def option_id(self, kind: str, v) -> str:
        if v is None:
            return "none"
        if kind == "card":
            return f"c{v}"
        if kind == "player":
            return f"p{v + 1}"
        if kind == "number":
            return f"n{v}"
        if v is True:
            return "yes"
        if v is False:
            return "no"
        return str(v)

    def options_for(self, kind: str, values, st) -> list:
        """Option objects for the values of a decision (cached for cards and players)."""
        if values == [None]:
            return [NONE_OPTION]
        if kind == "card":
            co = self.card_options
            return [co[v] for v in values]
        if kind == "player":
            po = self.player_options
            return [po[v] for v in values]
        from .engine import Option
        return [Option(self.option_id(kind, v), self.option_label(kind, v, st), v, kind) for v in values]

    def option_value(self, kind: str, values, oid: str):
        """The value of option ``oid`` among ``values``, or raise ``LookupError``."""
        if oid == "none" and None in values:
            return None
        if kind == "card" and oid[:1] == "c" and oid[1:].isdigit():
            v = int(oid[1:])
            if v in values:
                return v
            raise LookupError(oid)
        for v in values:
            if self.option_id(kind, v) == oid:
                return v
        raise LookupError(oid)

    def option_label(self, kind: str, v, st=None) -> str:
        if kind == "card":
            return self.card_label[v]
        if kind == "player":
            return f"player {v + 1}"
        if isinstance(v, str) and st is not None and v[:4] in ("row:", "col:", "line", "plac"):
            return describe(st, v)
        return str(v)

    # ---------------------------------------------------------------- views
    def view(self, st, p) -> dict:
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
                e["lines"] = [[self.card_dicts[c] for c in x] for x in content] if vis else None
            elif spec.shape == "grid":
                e["rows"], e["cols"] = spec.rows, spec.cols
                e["count"] = sum(1 for c in content if c is not None)
                e["cells"] = [self.card_dicts[c] if c is not None else None for c in content] if vis else None
            else:
                e["count"] = len(content)
                e["cards"] = [self.card_dicts[c] for c in content] if vis else None
            zones.append(e)
        counters = {}
        for name, _pp, _i in self.counters:
            v = st.c[name]
            kind = self.counter_kind.get(name)
            decl = self.checked.counters[name]
            if isinstance(v, list) and decl.per_player:
                counters[name] = [self._show(st, kind, x, p) for x in v]
            elif decl.per_card:     # only the cards that have a value, keyed by card id
                vis = st.layout.visible
                counters[name] = {str(i): self._show(st, kind, x, p) for i, x in enumerate(v)
                                  if x is not None and vis(st.loc[i], p)}
            else:
                counters[name] = self._show(st, kind, v, p)
        pend = st.pending_
        out = {"game": self.title, "you": p, "players": st.n, "options": list(st.options), "zones": zones,
               "counters": counters, "finished": st.over,
               "decisions": [d.to_dict() for d in st.pending() if d.player == p],
               "waiting_for": st.waiting_for() if pend else [],
               "last_line": None}
        if pend is not None and pend["kind"] != "choose" and p is not None and p in pend["players"]:
            mine = pend["chosen"][p]
            if mine == "?" and pend.get("picks") and pend["picks"][p]:
                mine = pend["picks"][p]             # a choice of several cards, part made
            if isinstance(mine, list):
                out["my_choice"] = [self.option_id(pend["okind"], x) for x in mine]
            elif mine != "?":
                out["my_choice"] = self.option_id(pend["okind"], mine)
        if st.over:
            sc = st.scores()
            out["scores"] = sc
            out["winners"] = st.winners(sc)
        return out

    def _show(self, st, kind, v, p):
        if kind == "card" and isinstance(v, int) and not isinstance(v, bool):
            if 0 <= v < self.card_count and st.layout.visible(st.loc[v], p):
                return self.card_dicts[v]
            return {"hidden": True}
        if kind == "player" and isinstance(v, int) and not isinstance(v, bool):
            return {"player": v}
        if kind in ("line", "place") and isinstance(v, str) and v[:4] in ("row:", "col:", "line", "plac"):
            ref, nums = parse_ref(v)
            return {"ref": v, "label": describe(st, v), "zone": st.layout.slot_spec[nums[0]].name,
                    "line": ref, "index": nums[1]}
        return v


def _card_label(attrs_: dict) -> str:
    """A card's label: its ``name``, else its attribute values in the order its rows give them."""
    if "name" in attrs_:
        return str(attrs_["name"])
    parts = []
    for v in attrs_.values():
        if v is not None and v != ():
            parts.append("+".join(map(str, v)) if isinstance(v, tuple) else str(v))
    return " ".join(parts) or "card"


#: The one option of a choice with nothing to choose from: the player is still asked.
NONE_OPTION = Option("none", "nothing to choose", None, "none")


# ======================================================= lines, grids, places

def parse_ref(v: str):
    parts = v.split(":")
    return parts[0], [int(x) for x in parts[1:]]


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


def seers(st) -> list:
    """Per slot, the bitmask of the players who can see it (bit ``p`` for player ``p``)."""
    lay = st.layout
    cache = st.prog.__dict__.setdefault("_seers", {})
    out = cache.get(lay.n)
    if out is None:
        out = cache[lay.n] = [sum(1 << p for p in range(lay.n) if lay.visible(s, p))
                              for s in range(len(lay.slot_spec))]
    return out


def learn(st, cards, s0: int, s1: int) -> None:
    """Keep ``st.known`` (per card, the players who know which slot it is in) up to date after
    ``cards`` went from slot ``s0`` to ``s1``: whoever sees either slot knows where they are now;
    whoever sees neither no longer knows where any card left in ``s0`` is (one of them left,
    which one they cannot tell), nor where the moved cards went."""
    if s0 == s1:
        return
    sees = seers(st)
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
        for c in cards:
            if c is None:
                continue
            s0 = loc[c]
            if simple[s0]:
                z[s0].remove(c)
            else:
                _remove(st, c)
            dest.append(c)
            loc[c] = slot
            if s0 != slot:
                learn(st, (c,), s0, slot)
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


#: The one option of the race that `ties race` runs among tied players.
TIE_RACE_OPTION = "slap"


def _tie_race_code(line: int) -> list:
    """The `tiebreak` unit: players still tied after the ranking race; the order is kept for
    :meth:`State.winners` (the fastest wins)."""
    def start(st, fr):
        sc = st.scores(final=True)
        keys = st.rank_keys(sc)
        best = max(keys)
        tied = [pl for pl in range(st.n) if keys[pl] == best]
        if len(tied) < 2:
            fr.pc = 2           # past `done`: no tie, no race
            return False
        n = st.n
        opts, chosen = [None] * n, [None] * n
        for pl in tied:
            opts[pl], chosen[pl] = [TIE_RACE_OPTION], "?"
        st.pending_ = _pending("race", tied, opts, [None] * n, chosen, "value", "x", "order", line,
                               "a tie: race to break it (the fastest wins)")
        return True

    def done(st, fr):
        st.c["#tiebreak"] = [x[0] for x in fr.vars["order"]]
    return [start, done]


def _ask_one(st, V, who, options, default, kind, var, line, prompt, public=False, need=None):
    """Pause for one player's choice among ``options``.

    A choice with one legal option, or none (then the one option is ``none``), is a decision
    like any other: the engine answers it itself unless ``st.ask_forced``, and logs it the same
    way, so that a forced choice looks to everyone else exactly like a free one.  ``need`` is the number of cards of a ``chooses N cards`` choice.
    """
    n = st.n
    chosen, opts, dflt = [None] * n, [None] * n, [None] * n
    if need is not None and need <= 0:
        V[var] = []
        return None
    chosen[who], opts[who], dflt[who] = "?", (options or [None]), default
    p = _pending("choose", [who], opts, dflt, chosen, kind, var, None, line, prompt, public,
                 None if need is None else [need if pl == who else None for pl in range(n)])
    if st.answer_forced(p, who):
        return None
    st.pending_ = p
    return True


def _pending(kind, players, options, default, chosen, okind, var, slot, line, prompt, public=False,
             need=None) -> dict:
    """A pending decision as the state keeps it (plain data, saved with the game): per-player
    lists of options, defaults, answers ("?" while awaited) and race times, indexed by seat.

    ``need`` (per player) is set for a choice of several cards: each pick is one decision, the
    picks so far are kept in ``picks``.  ``public`` marks a choice everyone sees (``openly``).
    """
    p = {"kind": kind, "players": players, "options": options, "default": default, "chosen": chosen,
         "times": [None] * len(chosen), "okind": okind, "var": var, "slot": slot, "line": line,
         "prompt": prompt}
    if public:
        p["public"] = True
    if need is not None:
        p["need"] = need
        p["picks"] = [[] if x is not None else None for x in need]
    return p


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


# ============================================================= allotment search
#: The most complete allotments one ``allot`` statement may compare.
ALLOT_LIMIT = 1_000_000


def _apply_allotment(st, ss, si, used, ts, meals, note) -> None:
    gone = set(used)
    st.z[ss] = [c for c in st.z[ss] if c not in gone]
    st.z[si] = st.z[si] + list(used)
    for c in used:
        st.loc[c] = si
    if note is not None:
        col = st.c[note]
        for t, m in zip(ts, meals):
            col[t] = list(m) if m is not None else None


def _max_flow_plan(dem, caps, masks, spare):
    """Resources per type that meet the demands ``dem`` (per need), or None.

    A small max-flow: need k -> resource type t when the type serves k, and
    need k -> spare -> any type, at most ``spare`` units through the spare.
    Types that serve fewer needs are tried first, the spare last.
    """
    K, T = len(dem), len(caps)
    # nodes: 0 source, 1..K needs, K+1..K+T types, then spare in, spare out, sink
    src, sp_in, sp_out, snk = 0, K + T + 1, K + T + 2, K + T + 3
    n = K + T + 4
    cap = [[0] * n for _ in range(n)]
    adj = [[] for _ in range(n)]

    def edge(a, b, c):
        if b not in adj[a]:
            adj[a].append(b)
            adj[b].append(a)
        cap[a][b] += c
    big = sum(dem) + 1
    for k in range(K):
        if dem[k]:
            edge(src, 1 + k, dem[k])
            for t in range(T):
                if masks[t] >> k & 1:
                    edge(1 + k, 1 + K + t, big)
            if spare:
                edge(1 + k, sp_in, big)
    if spare:
        edge(sp_in, sp_out, spare)
        for t in range(T):
            edge(sp_out, 1 + K + t, big)
    for t in range(T):
        edge(1 + K + t, snk, caps[t])
    want = sum(dem)
    for _ in range(want):
        prev = [-1] * n
        prev[src] = src
        queue = [src]
        for a in queue:
            for b in adj[a]:
                if prev[b] < 0 and cap[a][b] > 0:
                    prev[b] = a
                    queue.append(b)
        if prev[snk] < 0:
            return None
        b = snk
        while b != src:
            a = prev[b]
            cap[a][b] -= 1
            cap[b][a] += 1
            b = a
    return [cap[snk][1 + K + t] for t in range(T)]


def _greedy_plan(dem, caps, masks, spare):
    """A quick try at :func:`_max_flow_plan`: needs with the fewest servers first, each
    from the type that serves the fewest needs (``masks`` are sorted that way); None if stuck."""
    left = list(caps)
    K = len(dem)
    order = sorted((k for k in range(K) if dem[k]), key=lambda k: sum(1 for m in masks if m >> k & 1))
    used = [0] * len(caps)
    spares = spare
    for k in order:
        for _ in range(dem[k]):
            for t, m in enumerate(masks):
                if m >> k & 1 and left[t]:
                    break
            else:
                if not spares:
                    return None
                t = max(range(len(left)), key=lambda i: left[i]) if left else None
                if t is None or not left[t]:
                    return None
                spares -= 1
            left[t] -= 1
            used[t] += 1
    return used


def solve_allotment(st, V, ss, si, ts, wants, serves, spare, keys, note, line, maximal=False):
    """Search every way to give each target one of its wanted lists of needs, or nothing.

    Returns ``(used cards, meal per target)`` for the way best by ``keys``.
    Resources that serve the same needs are interchangeable, so the search
    runs over the needs met (feasibility is a small max-flow, memoised by the
    demand); each complete way is scored by moving the cards and evaluating
    the keys, then undone.
    """
    needs: list = []
    alts = []
    for w in wants:
        row = []
        for meal in w:
            m = tuple(as_list(st, meal)) if isinstance(meal, (list, tuple)) else (meal,)
            for x in m:
                if x not in needs:
                    needs.append(x)
            row.append(m)
        alts.append(row)
    kidx = {x: i for i, x in enumerate(needs)}
    K = len(needs)
    res = list(st.z[ss])
    by_mask: dict = {}
    for r in res:
        mask = 0
        for i, x in enumerate(needs):
            if serves(st, r, x):
                mask |= 1 << i
        by_mask.setdefault(mask, []).append(r)
    order = sorted(by_mask, key=lambda m: (bin(m).count("1"), m))
    masks = order
    caps = [len(by_mask[m]) for m in order]
    vec_alts = []
    for row in alts:
        vr = []
        for m in row:
            v = [0] * K
            for x in m:
                v[kidx[x]] += 1
            vr.append(v)
        vec_alts.append(vr)
    memo: dict = {}
    total = len(res)
    # Hall's condition for the flow: for every set S of needs, what S asks for must fit
    # in the resources serving S plus up to `spare` of the others.
    hall = None
    if K <= 10:
        hall = []
        for S in range(1, 1 << K):
            c = sum(n for m, n in zip(masks, caps) if m & S)
            hall.append((S, [k for k in range(K) if S >> k & 1], c + min(spare, total - c)))

    def fits(dem):
        if hall is None:
            return plan_for(dem) is not None
        for S, ks, room in hall:
            need = 0
            for k in ks:
                need += dem[k]
            if need > room:
                return False
        return True

    def plan_for(dem):
        key = tuple(dem)
        if key not in memo:
            memo[key] = (_greedy_plan(dem, caps, masks, spare) or _max_flow_plan(dem, caps, masks, spare)
                         if any(dem) else [0] * len(caps))
        return memo[key]

    best = [None, None]
    chosen = [None] * len(ts)
    dem = [0] * K
    leaves = [0]
    orig_src, orig_into = st.z[ss], st.z[si]

    # with `maximal`, what every later target could add at most (to prune "nothing" early)
    n_t = len(ts)
    most_after = [[0] * K for _ in range(n_t + 1)]
    for i in range(n_t - 1 if maximal else -1, -1, -1):
        most_after[i] = [most_after[i + 1][k] + max((v[k] for v in vec_alts[i]), default=0) for k in range(K)]

    def fits_with(i, base):
        for v in vec_alts[i]:
            if fits([b + x for b, x in zip(base, v)]):
                return True
        return False

    def leaf():
        if maximal and any(chosen[i] is None and fits_with(i, dem) for i in range(n_t)):
            return                   # dominated: an unmet target could still be met
        leaves[0] += 1
        if leaves[0] > ALLOT_LIMIT:
            raise RulesError(f"`allot` compared {ALLOT_LIMIT:,} ways and was stopped", line, st.prog.path,
                             "offer fewer lists in `wants`, or fewer targets")
        per_type = plan_for(dem)
        if per_type is None:       # cannot happen when Hall's condition held; kept as a guard
            return
        used = [c for m, k in zip(masks, per_type) for c in by_mask[m][:k]]
        meals = [alts[i][a] if a is not None else None for i, a in enumerate(chosen)]
        _apply_allotment(st, ss, si, used, ts, meals, note)
        score = tuple((1 if hi else -1) * _num(f(st, V)) for hi, f in keys)
        st.z[ss], st.z[si] = orig_src, orig_into
        for c in used:
            st.loc[c] = ss
        if note is not None:
            col = st.c[note]
            for t in ts:
                col[t] = None
        if best[0] is None or score > best[0]:
            best[0], best[1] = score, (used, meals)

    def dfs(i):
        if i == len(ts):
            leaf()
            return
        for a, v in enumerate(vec_alts[i]):
            for k in range(K):
                dem[k] += v[k]
            if fits(dem):
                chosen[i] = a
                dfs(i + 1)
            for k in range(K):
                dem[k] -= v[k]
        chosen[i] = None
        if maximal and vec_alts[i] and fits_with(i, [d + m for d, m in zip(dem, most_after[i + 1])]):
            return                   # i would fit whatever comes after: leaving it out never pays
        dfs(i + 1)
    dfs(0)
    return best[1]


def _num(v):
    if isinstance(v, bool) or v is None:
        return int(bool(v))
    return v


def _chain_labels(st):
    return [f.key for f in st.frames if f.depth > 0 and f.key.startswith("trigger:")]


def _trigger_label(prog, key: str) -> str:
    return prog.checked.game.triggers[int(key.split(":")[1])].label


# ==================================================================== compiler

def compile_game(checked: Checked) -> Program:
    G = graphmod.build(checked)
    prog = Program(checked, G)
    _Compiler(prog, checked, G).run()
    return prog


class _Compiler:
    def __init__(self, prog: Program, checked: Checked, G):
        self.p = prog
        self.ck = checked
        self.G = G
        self.names = checked.names
        self.uid = 0
        self.node_of = {id(d["stmt"]): k for k, d in G.nodes(data=True) if "stmt" in d}
        self.gen = CodeGen(self)

    def run(self) -> None:
        g, p = self.ck.game, self.p
        p.var_kinds = {}
        for c in g.counters:
            per = "player" if c.per_player else "card" if c.per_card else None
            p.counters.append((c.name, per, self.ex(c.value)))
        self.infer_counter_kinds()
        self.unit("setup", "setup")
        self.unit("flow", "flow")
        for ph in g.phases:
            self.unit(graphmod.unit_key("phase", ph.name), graphmod.unit_key("phase", ph.name))
        for a in g.actions:
            self.unit(graphmod.unit_key("action", a.name), graphmod.unit_key("action", a.name))
        for i, t in enumerate(g.triggers):
            key = graphmod.unit_key("trigger", i)
            self.unit(key, key)
            zid = self.ck.zones[t.zone].index
            guard = self.ex(t.guard) if t.guard is not None else None
            src = self.ck.zones[t.source].index if t.source is not None else None
            p.triggers.setdefault(zid, []).append((key, t.var, t.owner, guard, src, t.source_owner))
        for item in g.score:
            p.score_items.append((item.name, item.counted, self.ex(item.value)))
        p.ranking = [(r.direction, self.ex(r.key)) for r in g.ranking] or [("highest", lambda st, V: V["total"])]
        if g.tie_race:
            p.codes["tiebreak"] = _tie_race_code(g.tie_race)
            p.code_lines["tiebreak"] = [g.tie_race] * 2
        self.note_var_kinds()

    def note_var_kinds(self) -> None:
        """``prog.var_kinds``: what each frame variable holds, where every binding of the name
        agrees (``card``, ``player``, ``number``...; ``value`` when unknown or mixed), so that a
        sampled state can rename the cards a variable refers to (:meth:`State.sample_for`)."""
        g = self.ck.game
        units = [g.setup, g.flow] + [x.body for x in g.phases + g.actions + g.triggers]
        seen: dict = {"player": {"player"}, "position": {"number"}, "racers": {"player"}}
        for t in g.triggers:
            seen.setdefault(t.var, set()).add("card")
            for o in (t.owner, t.source_owner):
                if o:
                    seen.setdefault(o, set()).add("player")
        params = {a.name: a.params for a in g.actions}

        def kind_of(e):
            if isinstance(e, ast.Where):
                return kind_of(e.source)
            if isinstance(e, ast.Attr) and e.name == "cards":
                return "card"
            if isinstance(e, ast.Name) and self.names.get(id(e), (None, None))[1] == "players":
                return "player"
            return self.kind_of(e)
        for n in ast.walk(units):
            if isinstance(n, (ast.Choose, ast.Together, ast.ForEach)):
                seen.setdefault(n.var, set()).add(kind_of(n.source))
            if isinstance(n, ast.ForPlayers):
                seen.setdefault(n.var, set()).add("player")
            if isinstance(n, ast.Together):
                seen.setdefault(n.player, set()).add("player")
            if isinstance(n, ast.Assign) and n.name not in self.ck.counters:
                seen.setdefault(n.name, set()).add(kind_of(n.value))
            if isinstance(n, ast.Add) and n.name not in self.ck.counters:
                seen.setdefault(n.name, set()).add("number")
            if isinstance(n, ast.Do):
                for k, a in zip(params.get(n.action, ()), n.args):
                    seen.setdefault(k, set()).add(kind_of(a))
        for name, kinds in seen.items():
            kinds.discard("none")
            self.p.var_kinds.setdefault(name, kinds.pop() if len(kinds) == 1 else "value")

    def infer_counter_kinds(self) -> None:
        """What each counter holds (card, player, number...), so views can show it properly."""
        g = self.ck.game
        units = [g.setup, g.flow] + [x.body for x in g.phases + g.actions + g.triggers]
        # what kind of value each variable is bound to by a choice or a loop
        self.var_kind = {}
        for n in ast.walk(units):
            if isinstance(n, (ast.Choose, ast.Together, ast.ForEach)):
                self.var_kind.setdefault(n.var, self.kind_of(n.source))
            if isinstance(n, (ast.ForPlayers, ast.Together)):
                self.var_kind.setdefault(n.var if isinstance(n, ast.ForPlayers) else n.player, "player")
        for c in g.counters:
            kinds = [self.kind_of(c.value)]
            for n in ast.walk(units):
                if isinstance(n, ast.Assign) and n.name == c.name:
                    kinds.append(self.kind_of(n.value))
            known = [k for k in kinds if k not in ("value", "none")]
            self.p.counter_kind[c.name] = known[0] if known else "value"

    # ------------------------------------------------------------------ units
    def unit(self, key: str, node: str) -> None:
        code: list = []
        lines: list = []
        self.code, self.lines, self.loops = code, lines, []
        self.block(graphmod.steps(self.G, node))
        self.p.codes[key] = code
        self.p.code_lines[key] = lines

    def emit(self, fn, line: int) -> int:
        self.code.append(fn)
        self.lines.append(line)
        return len(self.code) - 1

    def block(self, stmts) -> None:
        for s in stmts:
            self.stmt(s)

    def body_of(self, s, kind="body", **match):
        return graphmod.steps(self.G, self._node(s), kind, **match)

    def _node(self, s):
        """The graph node of statement ``s``."""
        return self.node_of[id(s)]

    def new_var(self) -> str:
        self.uid += 1
        return f"#{self.uid}"

    # -------------------------------------------------------------- statements
    def stmt(self, s) -> None:
        meth = getattr(self, "s_" + type(s).__name__)
        meth(s)

    def s_Move(self, s: ast.Move) -> None:
        cards = self.ex(s.cards)
        dest = self.dest(s.dest)
        key = f"{RESUME_MOVE}{len(self.code)}"      # the rest of a move paused by triggers

        def move(st, fr):
            V = fr.vars
            rest = V.pop(key, None)
            if rest is not None:
                slot, where, cs = rest[0], rest[1], rest[2:]
                if type(where) is list:
                    where = tuple(where)
            else:
                cs = cards(st, V)
                cs = list(cs) if type(cs) is list else as_list(st, cs)
                slot, where = dest(st, V)
            return move_cards(st, fr, cs, slot, where, key)
        self.emit(move, s.line)

    def s_Shuffle(self, s: ast.Shuffle) -> None:
        slot = self.slot(s.zone)

        def shuffle(st, fr):
            sl = slot(st, fr.vars)
            st.rng.shuffle(st.z[sl])
            if st.log is not None:
                st.log.append({"t": "shuffle", "zone": st.layout.slot_name[sl]})
        self.emit(shuffle, s.line)

    def s_Fill(self, s: ast.Fill) -> None:
        slot = self.slot(s.zone)
        source = self.ex(s.source)

        key = f"{RESUME_FILL}{len(self.code)}"      # [slot, next cell] while triggers run

        def fill(st, fr):
            V = fr.vars
            rest = V.pop(key, None)
            sl, start = rest if rest is not None else (slot(st, V), 0)
            cells = st.z[sl]
            for i in range(start, len(cells)):
                if cells[i] is None:
                    pile = source(st, V)
                    if not pile:
                        break
                    if move_cards(st, fr, [pile[-1]], sl, i):
                        V[key] = [sl, i + 1]      # its triggers run first, then the next cell
                        fr.pc -= 1
                        return True
            return False
        self.emit(fill, s.line)

    def s_Exchange(self, s: ast.Exchange) -> None:
        a, b = self.ex(s.first), self.ex(s.second)

        key = f"{RESUME_EXCHANGE}{len(self.code)}"  # [second card, from, to] while the first's triggers run

        def exchange(st, fr):
            V = fr.vars
            trigs = st.prog.triggers
            zone = st.layout.slot_zone
            rest = V.pop(key, None)
            if rest is not None:            # the first card's triggers are done: now the second's
                y, sy, sx = rest
                fired = []
                if trigs.get(zone[sx]):
                    _triggered(st, trigs[zone[sx]], y, sy, sx, fired)
                return _fire(st, fr, fired)
            x, y = a(st, V), b(st, V)
            sx, sy = st.loc[x], st.loc[y]
            px, py = _position(st, x), _position(st, y)
            _put(st, sx, px, y)
            _put(st, sy, py, x)
            st.loc[x], st.loc[y] = sy, sx
            learn(st, (x,), sx, sy)
            learn(st, (y,), sy, sx)
            if st.log is not None:
                st.log.append({"t": "exchange", "cards": [x, y], "zones": [st.layout.slot_name[sx],
                                                                            st.layout.slot_name[sy]],
                               "actor": st.actor})
            # each card enters the other's zone, so triggers on those zones fire as for `move`,
            # card by card: the second card's are tested once the first card's have run
            if sx == sy:
                return False
            fired = []
            if trigs.get(zone[sy]):
                _triggered(st, trigs[zone[sy]], x, sx, sy, fired)
            if fired:
                if trigs.get(zone[sx]):
                    V[key] = [y, sy, sx]
                    fr.pc -= 1
                return _fire(st, fr, fired)
            if trigs.get(zone[sx]):
                _triggered(st, trigs[zone[sx]], y, sy, sx, fired)
            return _fire(st, fr, fired)
        self.emit(exchange, s.line)

    def _target(self, s):
        name, owner = s.name, s.owner
        c = self.ck.counters.get(name)
        if c is None:
            return ("local", name, None)
        if c.per_player or c.per_card:
            return ("pcounter", name, self.ex(owner) if owner is not None else (lambda st, V: V["player"]))
        return ("counter", name, None)

    def s_Assign(self, s: ast.Assign) -> None:
        kind, name, owner = self._target(s)
        val = self.ex(s.value)
        # what is stored stays within the limits (_fits; see "Limits" in docs/language.rst)
        if kind == "local":
            def assign(st, fr):
                v = _fits(val(st, fr.vars))
                fr.vars[name] = list(v) if type(v) is list else v
        elif kind == "counter":
            def assign(st, fr):
                v = _fits(val(st, fr.vars))
                v = list(v) if type(v) is list else v
                if st.log is not None:
                    log_counter(st, name, None, st.c[name], v)
                st.c[name] = v
        else:
            def assign(st, fr):
                v = _fits(val(st, fr.vars))
                col, o = st.c[name], owner(st, fr.vars)
                if st.log is not None:
                    log_counter(st, name, o, col[o], v)
                col[o] = v
        self.emit(assign, s.line)

    def s_Add(self, s: ast.Add) -> None:
        kind, name, owner = self._target(s)
        amount = self.ex(s.amount)
        # _add keeps the sum within the limits (see "Limits" in docs/language.rst)
        if kind == "local":
            def add(st, fr):
                V = fr.vars
                V[name] = _add(V[name], amount(st, V))
        elif kind == "counter":
            def add(st, fr):
                old = st.c[name]
                st.c[name] = new = _add(old, amount(st, fr.vars))
                if st.log is not None:
                    log_counter(st, name, None, old, new)
        else:
            def add(st, fr):
                col, o = st.c[name], owner(st, fr.vars)
                old = col[o]
                col[o] = new = _add(old, amount(st, fr.vars))
                if st.log is not None:
                    log_counter(st, name, o, old, new)
        self.emit(add, s.line)

    def s_Announce(self, s: ast.Announce) -> None:
        text = s.text

        def announce(st, fr):
            if st.log is not None:
                st.log.append({"t": "announce", "text": text})
        self.emit(announce, s.line)

    def s_EndGame(self, s) -> None:
        def end_game(st, fr):
            st.frames.clear()
            if st.prog.tie_race:
                st.frames.append(Frame("tiebreak", 0, {}))
            if st.log is not None:
                st.log.append({"t": "end game"})
            return True
        self.emit(end_game, s.line)

    def s_Tally(self, s) -> None:
        def tally(st, fr):
            st.tally()
        self.emit(tally, s.line)

    def s_StopLoop(self, s) -> None:
        idx = self.emit(None, s.line)
        self.loops[-1].append(idx)

    def _patch_stops(self, stops, end):
        for i in stops:
            self.code[i] = _jump(end)

    def s_Play(self, s: ast.Play) -> None:
        key = graphmod.unit_key("phase", s.phase)
        name = s.phase

        def play(st, fr):
            if st.log is not None:
                st.log.append({"t": "phase", "name": name})
            st.frames.append(Frame(key, 0, {}, fr.depth))
            return True
        self.emit(play, s.line)

    def s_Do(self, s: ast.Do) -> None:
        key = graphmod.unit_key("action", s.action)
        params = self.ck.actions[s.action].params
        args = [self.ex(a) for a in s.args]

        def do(st, fr):
            V = fr.vars
            st.frames.append(Frame(key, 0, {k: a(st, V) for k, a in zip(params, args)}, fr.depth))
            return True
        self.emit(do, s.line)

    def s_If(self, s: ast.If) -> None:
        self._branches(s, [(self.ex(cond), cond.line) for cond, _body in s.branches], bool(s.otherwise))

    def _branches(self, s, tests, otherwise=False) -> None:
        """The first branch whose test holds runs (graph edges ``then``, ``else``), then the end."""
        ends = []
        for i, (test_fn, line) in enumerate(tests):
            test = self.emit(None, line)
            self.block(self.body_of(s, "then", branch=i))
            ends.append(self.emit(None, s.line))
            self.code[test] = _jump_unless(test_fn, len(self.code))
        if otherwise:
            self.block(self.body_of(s, "else"))
        end = len(self.code)
        for e in ends:
            self.code[e] = _jump(end)

    def _loop(self, s, step, init=None) -> None:
        """A loop: ``step(state, frame)`` readies the next round and says whether there is one.

        It is tested before the first round and again at the bottom of the body, which
        jumps straight back to the body's start (one instruction per round, not two).
        """
        if init is not None:
            self.emit(init, s.line)
        head = self.emit(None, s.line)
        self.loops.append([])
        self.block(self.body_of(s))
        body = head + 1
        tail = self.emit(None, s.line)
        end = len(self.code)

        def head_fn(st, fr):
            if not step(st, fr):
                fr.pc = end

        def tail_fn(st, fr):
            st.steps += 1
            if st.steps > STEP_GUARD:
                st.back_edge(fr)
            if step(st, fr):
                fr.pc = body
        self.code[head], self.code[tail] = head_fn, tail_fn
        self._patch_stops(self.loops.pop(), end)

    def s_RepeatTimes(self, s: ast.RepeatTimes) -> None:
        var = self.new_var()
        self.p.var_kinds[var] = "number"
        count = self.ex(s.count)

        def init(st, fr):
            fr.vars[var] = count(st, fr.vars)

        def step(st, fr):
            V = fr.vars
            if V[var] <= 0:
                return False
            V[var] -= 1
            return True
        self._loop(s, step, init)

    def s_RepeatUntil(self, s: ast.RepeatUntil) -> None:
        cond = self.ex(s.cond)
        negate = s.negate

        def step(st, fr):
            return bool(cond(st, fr.vars)) == negate
        self._loop(s, step)

    def _iterate(self, s, var, make_list, kind="value") -> None:
        lst, idx = self.new_var(), self.new_var()
        self.p.var_kinds[lst], self.p.var_kinds[idx] = kind, "number"    # for sampling

        def init(st, fr):
            fr.vars[lst] = make_list(st, fr.vars)
            fr.vars[idx] = 0

        def step(st, fr):
            V = fr.vars
            i = V[idx]
            items = V[lst]
            if i >= len(items):
                return False
            V[var] = items[i]
            V[idx] = i + 1
            return True
        self._loop(s, step, init)

    def s_ForPlayers(self, s: ast.ForPlayers) -> None:
        if s.start is not None:
            start = self.ex(s.start)

            def make(st, V):
                x, n = start(st, V), st.n
                return [(x + i) % n for i in range(n)]
        elif s.among is not None:
            among = self.ex(s.among)

            def make(st, V):
                return list(as_list(st, among(st, V)))
        else:
            def make(st, V):
                return list(range(st.n))
        self._iterate(s, s.var, make, "player")

    def s_ForEach(self, s: ast.ForEach) -> None:
        src = self.ex(s.source)
        self._iterate(s, s.var, lambda st, V: list(as_list(st, src(st, V))), self.kind_of(s.source))

    def _options(self, source, opts: ast.ChooseOpts, var: str):
        src = self.ex(source)
        pref = self.ex_element(opts.preferring, var) if opts.preferring is not None else None
        key = self.ex_element(opts.default_key, var) if opts.default_key is not None else None
        lowest = opts.default_dir == "lowest"

        def options(st, V):
            o = as_list(st, src(st, V))
            if pref is not None and o:
                ok = [x for x in o if pref(st, V, x)]
                o = ok if ok else list(o)
            else:
                o = list(o)
            default = None
            if key is not None and o:
                default = (min if lowest else max)(o, key=lambda x: key(st, V, x))
            return o, default
        return options

    def _prompt(self, source, kind: str, mode: str, count=None) -> str:
        if count is not None:
            n = count.value if isinstance(count, ast.Const) else "some"
            what = f"{n} card{'s' if n != 1 else ''}"
        else:
            what = None
        what = what or {"card": "a card", "player": "a player", "line": "a line", "place": "a place",
                "number": "a number"}.get(kind, "an option")
        src = source.source if isinstance(source, ast.Where) else source
        zone = ""
        if isinstance(src, (ast.Name, ast.Of)) and src.name in self.ck.zones:
            zone = f" from {src.name}"
        pre = {"choose": "Choose", "secret": "Secretly choose", "race": "Race! Grab"}[mode]
        return f"{pre} {what}{zone}"

    def _count(self, count, line: int):
        """``chooses N cards``: a function giving N, checked to be a whole number when it runs."""
        if count is None:
            return None
        fn = self.ex(count)
        path = self.p.path

        def need(st, V):
            k = fn(st, V)
            if type(k) is not int or k < 0:
                raise RulesError(f"the number of cards to choose is {k!r}, not a whole number of 0 or more",
                                 line, path, "make the count a number, such as `count(hand of p) - 1`")
            return k
        return need

    def s_Choose(self, s: ast.Choose) -> None:
        actor = self._actor(s.actor)
        options = self._options(s.source, s.opts, s.var)
        var = s.var
        kind = self.kind_of(s.source)
        prompt = self._prompt(s.source, kind, "choose", s.count)
        line, public = s.line, s.public
        need = self._count(s.count, s.line)

        def choose(st, fr):
            V = fr.vars
            o, default = options(st, V)
            return _ask_one(st, V, actor(st, V), o, default, kind, var, line, prompt, public,
                            need(st, V) if need is not None else None)
        self.emit(choose, s.line)

    def s_Menu(self, s: ast.Menu) -> None:
        actor = self._actor(s.actor)
        conds = [(label, self.ex(cond) if cond is not None else None) for label, cond, _b, _p in s.branches]
        var = self.new_var()
        line, public = s.line, s.public

        def menu(st, fr):
            V = fr.vars
            o = [label for label, c in conds if c is None or c(st, V)]
            return _ask_one(st, V, actor(st, V), o, None, "value", var, line, "Choose what to do", public)
        self.emit(menu, s.line)
        self._branches(s, [(lambda st, V, _l=label: V[var] == _l, pos["line"])
                           for label, _cond, _body, pos in s.branches])

    def s_Allot(self, s: ast.Allot) -> None:
        source, into = self.slot(s.source), self.slot(s.into)
        targets = self.ex(s.targets)
        wants = self.ex_element(s.wants, "it")
        serves = self.gen.ns[self.gen.define(self.ck.defines[s.serves])]
        spare = self.ex(s.spare) if s.spare is not None else (lambda st, V: 0)
        keys = [(d == "highest", self.ex(k)) for d, k in s.prefer]
        note, line, maximal = s.note, s.line, s.maximal

        def allot(st, fr):
            V = fr.vars
            ss, si = source(st, V), into(st, V)
            z, loc = st.z, st.loc
            back = list(z[si])                       # undo an earlier allotment first
            if back:
                z[si] = []
                z[ss].extend(back)
                for c in back:
                    loc[c] = ss
                learn(st, back, si, ss)
                _log_move(st, back, si, ss)
            ts = list(as_list(st, targets(st, V)))
            before = [st.c[note][t] for t in ts] if note is not None and st.log is not None else None
            if note is not None:
                for t in ts:
                    st.c[note][t] = None
            plan = solve_allotment(st, V, ss, si, ts, [as_list(st, wants(st, V, t)) for t in ts], serves,
                                   spare(st, V) or 0, keys, note, line, maximal)
            if plan is not None:
                used, meals = plan
                _apply_allotment(st, ss, si, used, ts, meals, note)
                if used:
                    learn(st, used, ss, si)
                    _log_move(st, used, ss, si)
            if before is not None:
                for t, b in zip(ts, before):
                    log_counter(st, note, t, b, st.c[note][t])
        self.emit(allot, s.line)

    def _actor(self, name):
        if name in self.ck.counters:
            return lambda st, V: st.c[name]
        return lambda st, V: V[name]

    def s_Together(self, s: ast.Together) -> None:
        among = self.ex(s.among) if s.among is not None else None
        options = self._options(s.source, s.opts, s.var)
        kind = self.kind_of(s.source)
        prompt = self._prompt(s.source, kind, s.mode, s.count)
        mode, pvar, var, line = s.mode, s.player, s.var, s.line
        need = self._count(s.count, s.line)
        slot, idx = self.new_var(), self.new_var()

        def together(st, fr):
            V = fr.vars
            who = list(as_list(st, among(st, V))) if among is not None else list(range(st.n))
            n = st.n
            opts, dflt, chosen = [None] * n, [None] * n, [None] * n
            needs = [None] * n if need is not None else None
            for pl in who:
                V[pvar] = pl
                V["player"] = pl
                o, d = options(st, V)
                if not o and mode == "race":
                    continue                # racing is seen by all: with nothing to grab, no race
                # everyone named is asked, with one option or none too: nobody learns who was forced
                opts[pl], dflt[pl], chosen[pl] = (o or [None]), d, "?"
                if needs is not None:
                    needs[pl] = need(st, V)
                    if needs[pl] == 0:
                        chosen[pl] = []
            who = [pl for pl in who if chosen[pl] is not None]
            p = _pending(mode, who, opts, dflt, chosen, kind, var, slot, line, prompt, False, needs)
            V[idx] = 0
            if not any(chosen[pl] == "?" for pl in who):
                st._resolve(p)
                return None
            for pl in who:
                if chosen[pl] == "?" and st.answer_forced(p, pl):
                    return None
            st.pending_ = p
            return True
        self.emit(together, s.line)
        head = self.emit(None, s.line)
        self.loops.append([])
        self.block(self.body_of(s))
        self.emit(_back(head), s.line)
        end = len(self.code)

        def head_fn(st, fr):
            V = fr.vars
            i = V[idx]
            items = V[slot]
            if i >= len(items):
                fr.pc = end
            else:
                pl, val, pos = items[i]
                st.actor = pl               # the body acts for this player (not whoever answered last)
                V[idx] = i + 1
                V[pvar] = pl
                V["player"] = pl
                V[var] = val
                V["position"] = pos
                if i == 0:
                    V["racers"] = [x[0] for x in items]
        self.code[head] = head_fn
        self._patch_stops(self.loops.pop(), end)

    # ----------------------------------------------------------- zones / dests
    def slot(self, node):
        """A closure giving the slot index of a zone reference."""
        spec = self.ck.zones[node.name]
        base = spec.index
        if not spec.per_player:
            return lambda st, V: st.layout.base[base]
        if isinstance(node, ast.Of):
            owner = self.ex(node.owner)
            return lambda st, V: st.layout.base[base] + owner(st, V)
        return lambda st, V: st.layout.base[base] + V["player"]

    def dest(self, node):
        if isinstance(node, ast.Call) and node.name == "bottom":
            slot = self.slot(node.args[0])
            return lambda st, V: (slot(st, V), 0)
        if isinstance(node, (ast.Name, ast.Of)) and self.names.get(id(node), (None,))[0] == "zone":
            slot = self.slot(node)
            return lambda st, V: (slot(st, V), None)
        value = self.ex(node)

        def place(st, V):
            v = value(st, V)
            if isinstance(v, str) and v.startswith("place:"):
                _k, nums = parse_ref(v)
                return nums[0], (nums[1], nums[2])
            raise RulesError(f"cannot move cards to {v!r}: not a zone or a place")
        return place

    # ------------------------------------------------------------ expressions
    def kind_of(self, e) -> str:
        """What ``e`` (or each element of it) is: player, card, number...; the checker's type
        when it knows one, so a list of players stays players whatever it is made from."""
        from .types import kind_name
        if e is None:
            return "none"
        known = kind_name(self.ck.types.get(id(e)))
        if known is not None and known != "none":
            return known
        if isinstance(e, ast.Where):
            return self.kind_of(e.source)
        if isinstance(e, (ast.Name, ast.Of)):
            r = self.names.get(id(e))
            if r and r[0] in ("zone", "cardtype"):
                return "card"
            if r and r[0] == "counter":
                return self.p.counter_kind.get(r[1].name, "value")
            if r and r[0] == "symbol":
                return "symbol"
            if r and r[0] == "local":
                return getattr(self, "var_kind", {}).get(e.name, "value")
            return "value"
        if isinstance(e, ast.Keyword):
            return "player"
        if isinstance(e, ast.Call):
            if e.name in ("top", "first", "last", "best", "worst", "random") and e.args:
                return self.kind_of(e.args[0])
            if e.name in ("others", "next", "previous", "owner"):
                return "player"
            if e.name in ("rows", "columns", "lines"):
                return "line"
            if e.name == "places":
                return "place"
            if e.name in ("count", "sum", "abs"):
                return "number"
            if e.name == "collect" or e.name == "join":
                return "value"
            return "value"
        if isinstance(e, ast.ListExpr):
            return self.kind_of(e.items[0]) if e.items else "value"
        if isinstance(e, ast.Const):
            if isinstance(e.value, bool):
                return "bool"
            if isinstance(e.value, int):
                return "number"
            return "none" if e.value is None else "symbol"
        if isinstance(e, ast.Attr) and e.name in ("before", "after"):
            return "card"
        if isinstance(e, ast.IfElse):
            k = self.kind_of(e.then)
            return k if k not in ("none", "value") else self.kind_of(e.other)
        if isinstance(e, ast.Binary) and e.op in "+-*/%":
            return "number"
        return "value"

    def ex(self, e) -> Callable:
        """A compiled function ``f(state, vars)`` for expression ``e``."""
        return self.gen.function(e)

    def ex_element(self, e, var: str) -> Callable:
        """``f(state, vars, x)`` for an expression evaluated per option (``it`` and ``var`` are x)."""
        return self.gen.function(e, params=("_it",), element_names=("it", var))

    @staticmethod
    def runtime_helpers() -> dict:
        return {"_L": as_list, "_everyone": _everyone, "_cards_in": _cards_in, "_place_attr": place_attr,
                "_either": _either, "_agg": _agg, "_minmax": _minmax_rt, "_best": _best_rt, "_first": _first,
                "_last": _last, "_top": _top_rt, "_owner": _owner_rt, "_others": _others_rt,
                "_random": _random_rt, "_grid_lines": _grid_lines, "_lines": _lines_rt, "_places": _places_rt,
                "_nopick": _nopick, "__builtins__": {"len": len, "sum": sum, "max": max, "min": min,
                                                     "bool": bool, "abs": abs,
                                                     "list": list, "range": range}}


def _everyone(st, zi, shape):
    b = st.layout.base[zi]
    out = []
    for pl in range(st.n):
        out.extend(_cards_in(st.z[b + pl], shape))
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


_MISSING = object()


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


def _jump(target):
    def jump(st, fr):
        fr.pc = target
    return jump


def _back(target):
    def back(st, fr):
        fr.pc = target
        st.steps += 1
        if st.steps > STEP_GUARD:
            st.back_edge(fr)
    return back


def _jump_unless(cond, target):
    def test(st, fr):
        if not cond(st, fr.vars):
            fr.pc = target
    return test
