"""Compile a checked game into its executable form, a :class:`~catrules.compile.program.Program`.

The compiler walks the action graph (:mod:`catrules.compile.graph`) unit by unit and
writes each unit (setup, flow, phase, action, trigger) as Python source: a
few *blocks* split where the game may pause, written and compiled by
:mod:`catrules.compile.units`, which the step loop in :mod:`catrules.runtime.state`
runs by the frame's ``pc``.  Statements with no pause are plain Python there;
a few (shuffles, allotments, announcements, and the statements that may
pause) are closures the blocks call.  Names were resolved by the checker, so
nothing is looked up by name while a game runs.  The program is built once
per game file and shared by every state of that game.

Its parts: here the walk over the units and the statements that move cards,
set counters, branch and loop; choices (``chooses``, menus, ``secretly`` and
``race``) in :mod:`catrules.compile.choices`; what the game says
(announcements, tally titles, card faces and shown names) in
:mod:`catrules.compile.said`; the kind of value each expression and variable
holds in :mod:`catrules.compile.kinds`; expressions, as generated Python
source, in :mod:`catrules.compile.codegen`.  What the generated code calls while a
game runs is in the package :mod:`catrules.runtime`.
"""

from __future__ import annotations

from typing import Callable

from ..lang import ast
from . import graph as graphmod
from ..allot.search import _apply_allotment, solve_allotment
from ..allot.keys import KeyModel
from ..check.checked import Checked
from .codegen import CodeGen, Env
from .units import Suite, UnitWriter
from ..runtime.blocks import UNIT_HELPERS, _by_total
from .choices import ChoiceStatements
from .loops import LoopStatements
from .straight import StraightUnits
from ..runtime.decisions import _tie_race_code
from .kinds import ValueKinds
from .said import SaidStatements
from ..runtime.frames import Frame
from ..errors import RulesError
from .program import Program
from .zone_types import type_zones
from . import families
from ..runtime.randoms import shuffle as _shuffle
from ..runtime.said import say
from ..runtime.game_options import _optv
from ..runtime import (RESUME_EXCHANGE, RESUME_FILL, RESUME_MOVE, _agg, _best_rt, _cards_in, _either, _everyone, _fire, _first, _grid_lines, _last, _lines_rt, _log_move, _minmax_rt, _nopick, _others_rt, _owner_rt, _places_rt, _position, _put, _random_rt, _top_rt, _triggered, as_list, learn, log_counter, move_cards, parse_ref, place_attr)


# ==================================================================== compiler

def compile_game(checked: Checked, lean: bool = False) -> Program:
    """The program of a checked game.  ``lean``: the second compilation the bot fast path runs
    (see :meth:`Program.lean_codes`): the same blocks, with definitions written out where they
    are asked (an error there names the line that asks; the fast path replays it)."""
    G = graphmod.build(checked)
    prog = Program(checked, G)
    prog.zone_types = type_zones(prog)
    _Compiler(prog, checked, G, lean).run()
    prog.compile_game = compile_game
    return prog


class _Compiler(ChoiceStatements, LoopStatements, StraightUnits, SaidStatements, ValueKinds):
    def __init__(self, prog: Program, checked: Checked, G, lean: bool = False):
        self.lean = lean
        self.p = prog
        self.ck = checked
        self.G = G
        self.names = checked.names
        self.uid = 0
        self.tmpn = 0
        self.node_of = {id(d["stmt"]): k for k, d in G.nodes(data=True) if "stmt" in d}
        self.gen = CodeGen(self)
        self.gen.ns.update(UNIT_HELPERS)
        self.serial = 0
        self._pauses: dict = {}
        self._action_pauses: dict = {}
        #: the zones some trigger watches: a move there may pause
        self.trigger_zones = {i for t in checked.game.triggers for i in families.named_indices(checked, t.zone)}

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
            guard = self.ex(t.guard) if t.guard is not None else None
            for zid in families.named_indices(self.ck, t.zone):         # a family: each of its zones
                for src in families.named_indices(self.ck, t.source) if t.source is not None else [None]:
                    p.triggers.setdefault(zid, []).append((key, t.var, t.owner, guard, src, t.source_owner))
        for item in g.score:
            p.score_items.append((item.name, item.counted, self.ex(item.value)))
            if item.only_if is not None:
                p.score_only_if[item.name] = self.ex(item.only_if)
        self.shows(g)
        p.ranking = [(r.direction, self.ex(r.key)) for r in g.ranking] or [("highest", _by_total)]
        if g.tie_race:
            p.codes["tiebreak"] = _tie_race_code(g.tie_race)
            p.code_lines["tiebreak"] = [g.tie_race] * 2
        self.note_var_kinds()

    # ------------------------------------------------------------------ units
    def unit(self, key: str, node: str) -> None:
        """Write unit ``key`` as blocks of Python source (see :mod:`catrules.compile.units`)."""
        straight = self.straight_body(key)      # the lean compilation: the unit in one run, if it can be
        self.serial += 1
        self.w = UnitWriter(key, self.gen.ns, self.serial, self.lean)
        self.loops = []
        # where each statement stood in the instruction list of state format 1, so that a game
        # saved then resumes (see State.from_dict): the frame's pc there -> its block here
        self.old, self.at, self.old_pcs = 0, 0, {}
        self.block(graphmod.steps(self.G, node))
        self.p.old_pcs[key] = self.old_pcs
        self.splice_straight(key, straight)
        fns, lines, table, filename = self.w.finish(self.p.path)
        self.p.codes[key] = fns
        self.p.code_lines[key] = lines
        self.p.line_tables[filename] = table
        self.p.unit_sources[key] = self.w.source

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

    def tmp(self, hint: str = "t") -> str:
        """A fresh Python local for generated code."""
        self.tmpn += 1
        return f"_{hint}{self.tmpn}"

    def pause(self, fn, line: int) -> None:
        """A statement that may pause (see :meth:`UnitWriter.pause`); it stood at ``self.old`` in
        the instruction list of state format 1, which :attr:`old_pcs` maps to its blocks."""
        k = len(self.w.blocks)
        self.w.pause(fn, line)
        self.old_pcs[self.at] = k                # a move paused by triggers runs again
        self.old_pcs[self.at + 1] = k + 1        # after the pause

    def src(self, e) -> str:
        """The Python source of expression ``e`` (see :mod:`catrules.compile.codegen`), inline in a block."""
        return self.gen._gen_top(e, Env())

    # --------------------------------------------------------------- pauses
    def pauses(self, s) -> bool:
        """Whether statement ``s`` (or one inside it) may pause the game: a choice, a unit started
        (``play``, ``do``, the end of the game), or a move that can set off a trigger."""
        key = id(s)
        said = self.straight_pauses(s) if self.straight else None     # see catrules.compile.straight
        if said is not None:
            return said
        if key not in self._pauses:
            if isinstance(s, (ast.Choose, ast.Menu, ast.Together, ast.Play, ast.EndGame)):
                r = True
            elif isinstance(s, ast.Do):
                r = self.action_pauses(s.action)
            elif isinstance(s, ast.Move):
                r = self.move_slot(s.dest) is None
            elif isinstance(s, ast.Fill):
                r = bool(families.zone_indices(self.ck, self.names[id(s.zone)][1]) & self.trigger_zones)
            elif isinstance(s, ast.Exchange):
                r = bool(self.trigger_zones)
            else:
                r = any(self.pauses(c) for c in self.inner(s))
            self._pauses[key] = r
        return self._pauses[key]

    def action_pauses(self, name: str) -> bool:
        """Whether action ``name`` may pause; one that starts itself again, directly or not, is
        taken to (it runs in frames of its own, whose depth is watched)."""
        if name not in self._action_pauses:
            self._action_pauses[name] = True        # while looking: a cycle pauses
            steps = graphmod.steps(self.G, graphmod.unit_key("action", name))
            self._action_pauses[name] = any(self.pauses(s) for s in steps)
        return self._action_pauses[name]

    def inner(self, s) -> list:
        """The statements directly inside ``s`` (its bodies and branches)."""
        node = self._node(s)
        out = []
        for _, _v, d in self.G.out_edges(node, data=True):
            if d["kind"] in ("body", "then", "else"):
                match = {"branch": d["branch"]} if "branch" in d else {}
                out.extend(graphmod.steps(self.G, node, d["kind"], **match))
        return out

    # -------------------------------------------------------------- statements
    def stmt(self, s) -> None:
        meth = getattr(self, "s_" + type(s).__name__)
        self.at = self.old                      # the statement's first instruction in format 1
        if not isinstance(s, _COMPOUND):
            self.old += 1
        meth(s)

    def move_slot(self, node):
        """``(slot source, where)`` for a move to a zone that no trigger watches; None otherwise
        (a place, or a zone with triggers: such a move may pause)."""
        where = None
        if isinstance(node, ast.Call) and node.name == "bottom":
            node, where = node.args[0], 0
        if not (isinstance(node, (ast.Name, ast.Of, ast.Call)) and self.names.get(id(node), (None,))[0] == "zone"):
            return None
        spec = self.names[id(node)][1]
        if spec.index in self.trigger_zones or spec.index < 0:
            return None
        return self.slot_src(node), where

    def slot_src(self, node) -> str:
        spec = self.names[id(node)][1]
        if not spec.per_player:
            return f"st.layout.base[{spec.index}]"
        owner = self.src(node.owner) if isinstance(node, ast.Of) else "V['player']"
        return f"(st.layout.base[{spec.index}] + {owner})"

    def s_Move(self, s: ast.Move) -> None:
        plain = self.move_slot(s.dest)
        if plain is not None:                   # no trigger can fire: moved where it stands
            slot, where = plain
            t = self.ck.types.get(id(s.cards))
            if t is not None and t.kind == "card" and where is None:     # one card (or none)
                if not self.move_one_straight(self.src(s.cards), slot, s.line):
                    self.w.put(f"{'_move1b' if self.lean else '_move1'}(st, {self.src(s.cards)}, {slot})", s.line)
            elif where is not None or not (self.move_all_straight(self.src(s.cards), slot, s.line)
                                           or self.move_top_straight(self.src(s.cards), slot, s.line)):
                self.w.put(f"_move(st, fr, _cardlist(st, {self.src(s.cards)}), {slot}, {where!r})", s.line)
            return
        cards = self.ex(s.cards)
        dest = self.dest(s.dest)
        key = f"{RESUME_MOVE}{self.at}"      # the rest of a move paused by triggers

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
        self.pause(move, s.line)

    def s_Shuffle(self, s: ast.Shuffle) -> None:
        slot = self.slot(s.zone)

        def shuffle(st, fr):
            sl = slot(st, fr.vars)
            _shuffle(st.rng, st.z[sl])
            if st.log is not None:
                st.log.append({"t": "shuffle", "zone": st.layout.slot_name[sl]})
        self.w.call(shuffle, s.line)

    def s_Fill(self, s: ast.Fill) -> None:
        slot = self.slot(s.zone)
        source = self.ex(s.source)

        key = f"{RESUME_FILL}{self.at}"      # [slot, next cell] while triggers run

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
        (self.pause if self.pauses(s) else self.w.call)(fill, s.line)

    def s_Exchange(self, s: ast.Exchange) -> None:
        a, b = self.ex(s.first), self.ex(s.second)

        key = f"{RESUME_EXCHANGE}{self.at}"  # [second card, from, to] while the first's triggers run

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
        (self.pause if self.pauses(s) else self.w.call)(exchange, s.line)

    def s_Assign(self, s: ast.Assign) -> None:
        name, owner = s.name, s.owner
        c = self.ck.counters.get(name)
        w, line, t = self.w, s.line, self.tmp()
        # what is stored stays within the limits (_fits; see "Limits" in docs/language.rst)
        vt = self.ck.types.get(id(s.value))
        if vt is not None and vt.kind in ("card", "player"):
            if not self.best_straight(s.value, t, line):    # (a straight pass writes `best` out)
                w.put(f"{t} = {self.src(s.value)}", line)   # one card or player: an id, never too big
        else:
            w.put(f"{t} = _kept({self.src(s.value)})", line)
        if c is None:
            w.put(f"V[{name!r}] = {t}", line)
        elif c.per_player or c.per_card:
            col, o = self.tmp("c"), self.tmp("o")
            w.put(f"{col} = st.c[{name!r}]", line)
            w.put(f"{o} = {self.src(owner) if owner is not None else chr(86) + '[' + repr('player') + ']'}", line)
            w.put(f"if st.log is not None: _log_counter(st, {name!r}, {o}, {col}[{o}], {t})", line)
            w.put(f"{col}[{o}] = {t}", line)
        else:
            w.put(f"if st.log is not None: _log_counter(st, {name!r}, None, st.c[{name!r}], {t})", line)
            w.put(f"st.c[{name!r}] = {t}", line)

    def s_Add(self, s: ast.Add) -> None:
        name, owner = s.name, s.owner
        c = self.ck.counters.get(name)
        w, line = self.w, s.line
        # _add keeps the sum within the limits (see "Limits" in docs/language.rst)
        if c is None:
            w.put(f"V[{name!r}] = _addv(V[{name!r}], {self.src(s.amount)})", line)
            return
        old, new = self.tmp("o"), self.tmp("n")
        if c.per_player or c.per_card:
            col, o = self.tmp("c"), self.tmp("p")
            w.put(f"{col} = st.c[{name!r}]", line)
            w.put(f"{o} = {self.src(owner) if owner is not None else chr(86) + '[' + repr('player') + ']'}", line)
            w.put(f"{old} = {col}[{o}]", line)
            w.put(f"{col}[{o}] = {new} = _addv({old}, {self.src(s.amount)})", line)
            w.put(f"if st.log is not None: _log_counter(st, {name!r}, {o}, {old}, {new})", line)
        else:
            w.put(f"{old} = st.c[{name!r}]", line)
            w.put(f"st.c[{name!r}] = {new} = _addv({old}, {self.src(s.amount)})", line)
            w.put(f"if st.log is not None: _log_counter(st, {name!r}, None, {old}, {new})", line)

    def s_Nothing(self, s) -> None:
        self.w.put("pass", s.line)

    def s_EndGame(self, s) -> None:
        def end_game(st, fr):
            st.frames.clear()
            if st.prog.tie_race:
                st.frames.append(Frame("tiebreak", 0, {}))
            if st.log is not None:
                st.log.append({"t": "end game"})
            return True
        self.pause(end_game, s.line)

    def s_StopLoop(self, s) -> None:
        end = self.loops[-1]
        if end is None:                     # a loop written as a Python loop
            self.w.put("break", s.line)
        else:
            self.w.chain(end, s.line)

    def s_Play(self, s: ast.Play) -> None:
        if self.play_straight(s):
            return
        key = graphmod.unit_key("phase", s.phase)
        name = s.phase

        def play(st, fr):
            if st.log is not None:
                st.log.append({"t": "phase", "name": name})
            st.frames.append(Frame(key, 0, {}, fr.depth))
            return True
        self.pause(play, s.line)

    def s_Do(self, s: ast.Do) -> None:
        key = graphmod.unit_key("action", s.action)
        params = self.ck.actions[s.action].params
        if not self.pauses(s):                  # runs where it is called, with no frame of its own
            given = ", ".join(f"{k!r}: {self.src(a)}" for k, a in zip(params, s.args))
            self.w.put(f"_do_now(st, fr, {key!r}, {{{given}}})", s.line)
            return
        args = [self.ex(a) for a in s.args]

        def do(st, fr):
            V = fr.vars
            st.frames.append(Frame(key, 0, {k: a(st, V) for k, a in zip(params, args)}, fr.depth))
            return True
        self.pause(do, s.line)

    def s_If(self, s: ast.If) -> None:
        self._branches(s, [(self.src(cond), cond.line, self.body_of(s, "then", branch=i))
                           for i, (cond, _body) in enumerate(s.branches)],
                       self.body_of(s, "else") if s.otherwise else None)

    def _branches(self, s, tests, otherwise=None) -> None:
        """The first branch whose test holds runs, then what follows.  Without a pause inside, a
        Python ``if``; with one, each branch ends by going to a block where the rest goes on."""
        w = self.w
        join = w.new_block(s.line) if self.pauses(s) else None
        for i, (test, line, body) in enumerate(tests):
            with Suite(w, f"{'if' if i == 0 else 'elif'} {test}:", line):
                self.old += 1                   # format 1: the test
                self.block(body)
                self.old += 1                   # format 1: the jump to the end
                if join is not None:
                    w.chain(join, s.line)
        if otherwise is not None or join is not None:
            with Suite(w, "else:", s.line):
                self.block(otherwise or [])
                if join is not None:
                    w.chain(join, s.line)
        if join is not None:
            w.start_block(s.line, join)

    def s_Allot(self, s: ast.Allot) -> None:
        source, into = self.slot(s.source), self.slot(s.into)
        targets = self.ex(s.targets)
        wants = self.ex_element(s.wants, "it")
        serves = self.gen.ns[self.gen.define(self.ck.defines[s.serves])]
        spare = self.ex(s.spare) if s.spare is not None else (lambda st, V: 0)
        keys = [(d == "highest", self.ex(k)) for d, k in s.prefer]
        note, line, maximal = s.note, s.line, s.maximal
        model = KeyModel(self, s)

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
                                   spare(st, V) or 0, keys, note, line, maximal, model)
            if plan is not None:
                used, meals = plan
                _apply_allotment(st, ss, si, used, ts, meals, note)
                if used:
                    learn(st, used, ss, si)
                    _log_move(st, used, ss, si)
            if before is not None:
                for t, b in zip(ts, before):
                    log_counter(st, note, t, b, st.c[note][t])
        self.w.call(allot, s.line)

    # ----------------------------------------------------------- zones / dests
    def slot(self, node):
        """A closure giving the slot index of a zone reference."""
        spec = self.names[id(node)][1]
        if spec.index < 0:
            return families.slot_fn(self, node, spec)
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
        if isinstance(node, (ast.Name, ast.Of, ast.Call)) and self.names.get(id(node), (None,))[0] == "zone":
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
    def ex(self, e) -> Callable:
        """A compiled function ``f(state, vars)`` for expression ``e``."""
        return self.gen.function(e)

    def ex_element(self, e, var: str, sure: bool = False) -> Callable:
        """``f(state, vars, x)`` for an expression evaluated per option (``it`` and ``var`` are x;
        ``sure``: x can only be a card id, see :class:`~catrules.compile.codegen.Env`)."""
        return self.gen.function(e, params=("_it",), element_names=("it", var), sure=sure)

    @staticmethod
    def runtime_helpers() -> dict:
        return {"_L": as_list, "_everyone": _everyone, "_cards_in": _cards_in, "_place_attr": place_attr,
                "_either": _either, "_agg": _agg, "_minmax": _minmax_rt, "_best": _best_rt, "_first": _first,
                "_last": _last, "_top": _top_rt, "_owner": _owner_rt, "_others": _others_rt,
                "_random": _random_rt, "_grid_lines": _grid_lines, "_lines": _lines_rt, "_places": _places_rt,
                "_nopick": _nopick, "_say": say, "_optv": _optv, **families.HELPERS,
                "__builtins__": {"len": len, "sum": sum, "max": max, "min": min, "bool": bool, "abs": abs,
                                 "list": list, "range": range}}


#: Statements of several instructions in state format 1 (they count their own).
_COMPOUND = (ast.If, ast.Menu, ast.Together, ast.RepeatTimes, ast.RepeatUntil, ast.ForPlayers, ast.ForEach)
