"""Compile a checked game into its executable form, a :class:`~catrules.program.Program`.

The compiler walks the action graph (:mod:`catrules.graph`) unit by unit and
turns every statement into one or more *instructions*: small closures
``instr(state, frame)`` that the step loop in :mod:`catrules.engine` runs in
order, jumping by setting ``frame.pc``.  Every expression becomes a closure
``f(state, vars)``.  Names were resolved by the checker, so nothing is looked
up by name while a game runs.  The program is built once per game file and
shared by every state of that game.

Its parts: here the walk over the units and the statements that move cards,
set counters, branch and loop; choices (``chooses``, menus, ``secretly`` and
``race``) in :mod:`catrules.compile_choices`; what the game says
(announcements, tally titles, card faces and shown names) in
:mod:`catrules.compile_said`; the kind of value each expression and variable
holds in :mod:`catrules.compile_kinds`; expressions, as generated Python
source, in :mod:`catrules.codegen`.  What the instructions call while a game
runs is in :mod:`catrules.runtime`.
"""

from __future__ import annotations

from typing import Callable

from . import ast
from . import graph as graphmod
from .allot import _apply_allotment, solve_allotment
from .allot_keys import KeyModel
from .checker import Checked
from .codegen import CodeGen, _add, _fits
from .compile_choices import ChoiceStatements, _tie_race_code
from .compile_kinds import ValueKinds
from .compile_said import SaidStatements
from .engine import STEP_LIMIT as STEP_GUARD, Frame
from .errors import RulesError
from .program import Program
from .said import say
from .runtime import (RESUME_EXCHANGE, RESUME_FILL, RESUME_MOVE, _agg, _best_rt, _cards_in, _either,
                      _everyone, _fire, _first, _grid_lines, _jump, _jump_unless, _last, _lines_rt, _log_move,
                      _minmax_rt, _nopick, _others_rt, _owner_rt, _places_rt, _position, _put, _random_rt, _top_rt,
                      _triggered, as_list, learn, log_counter, move_cards, parse_ref, place_attr)


# ==================================================================== compiler

def compile_game(checked: Checked) -> Program:
    G = graphmod.build(checked)
    prog = Program(checked, G)
    _Compiler(prog, checked, G).run()
    return prog


class _Compiler(ChoiceStatements, SaidStatements, ValueKinds):
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
            if item.only_if is not None:
                p.score_only_if[item.name] = self.ex(item.only_if)
        self.shows(g)
        p.ranking = [(r.direction, self.ex(r.key)) for r in g.ranking] or [("highest", lambda st, V: V["total"])]
        if g.tie_race:
            p.codes["tiebreak"] = _tie_race_code(g.tie_race)
            p.code_lines["tiebreak"] = [g.tie_race] * 2
        self.note_var_kinds()

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

    def s_Nothing(self, s) -> None:
        self.emit(_nothing, s.line)

    def s_EndGame(self, s) -> None:
        def end_game(st, fr):
            st.frames.clear()
            if st.prog.tie_race:
                st.frames.append(Frame("tiebreak", 0, {}))
            if st.log is not None:
                st.log.append({"t": "end game"})
            return True
        self.emit(end_game, s.line)

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
        self.emit(allot, s.line)

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
                "_nopick": _nopick, "_say": say, "__builtins__": {"len": len, "sum": sum, "max": max, "min": min,
                                                     "bool": bool, "abs": abs,
                                                     "list": list, "range": range}}


def _nothing(st, fr):
    """``do nothing``."""
