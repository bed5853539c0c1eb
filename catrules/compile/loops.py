"""Loops of a unit (``repeat``, ``for each``) as the compiler writes them: a Python loop where no
pause can happen inside, else a head block that the blocks of the body come back to (see
:mod:`catrules.compile.units`).  A mixin of :class:`catrules.compile.compiler._Compiler`.
"""

from __future__ import annotations

from ..lang import ast
from .. import limits
from .units import Suite


class LoopStatements:
    """``repeat N times``, ``repeat until``, ``for each player`` and ``for each`` (the compiler's
    ``s_*`` methods for them) and the loop they share."""

    def _loop(self, s, line: int, native_head: str, init=(), test: str = "", step=(), each=()) -> None:
        """A loop.  With no pause inside: ``native_head`` (a Python ``for``/``while``) then
        ``each`` lines, the body and the loop guard.  With a pause inside: ``init`` lines, then a
        head block that leaves when ``test`` holds, runs the ``step`` lines and the body, and goes
        back to the head."""
        w = self.w
        self.old += 2 if init else 1            # format 1: the start of the loop, its head
        guard = [("st.steps += 1", line), (f"if st.steps > {limits.STEP_LIMIT}: _loop_guard(st, {line})", line)]
        if not self.pauses(s):
            with Suite(w, native_head, line):
                for text in each:
                    w.put(text, line)
                self._loop_body(s, None, guard)
            return
        for text in init:
            w.put(text, line)
        head, end = w.new_block(line), w.new_block(line)
        # into the loop and out of it by calling the block (see UnitWriter.chain); back to its
        # head by returning AGAIN to the head's own Python loop, so that a long loop nests no calls
        w.chain(head, line)
        w.loop_head(head, line)
        with Suite(w, f"if {test}:", line):
            w.chain(end, line)
        for text in step:
            w.put(text, line)
        self._loop_body(s, end, guard)
        w.back(head, line)
        w.start_block(line, end)

    def _loop_body(self, s, end, guard: list) -> None:
        """A loop's body (``stop`` goes to block ``end``, or breaks a Python loop when None),
        then the guard against a loop that never ends."""
        self.loops.append(end)
        if id(s) in self.ck.no_way_out:
            # a loop the checker proved nothing can leave: a game played by bots alone is stopped
            # as soon as it enters it (see catrules.lab.simulate.decision_budget)
            self.w.put(f"st.no_way_out = {s.line}", s.line)
        self.block(self.body_of(s))
        self.loops.pop()
        self.old += 1                           # format 1: the jump back
        for text, ln in guard:
            self.w.put(text, ln)

    def s_RepeatTimes(self, s: ast.RepeatTimes) -> None:
        var = self.new_var()
        self.p.var_kinds[var] = "number"
        count = self.src(s.count)
        self._loop(s, s.line, f"for {self.tmp('r')} in _times({count}):",
                   init=[f"V[{var!r}] = {count}"], test=f"V[{var!r}] <= 0", step=[f"V[{var!r}] -= 1"])

    def s_RepeatUntil(self, s: ast.RepeatUntil) -> None:
        cond = self.src(s.cond)
        self._loop(s, s.line, f"while bool({cond}) == {s.negate!r}:", test=f"bool({cond}) != {s.negate!r}")

    def _iterate(self, s, var, items: str, kind="value") -> None:
        lst, idx = self.new_var(), self.new_var()
        self.p.var_kinds[lst], self.p.var_kinds[idx] = kind, "number"    # for sampling
        x = self.tmp("x")
        self._loop(s, s.line, f"for {x} in {items}:", each=[f"V[{var!r}] = {x}"],
                   init=[f"V[{lst!r}] = {items}", f"V[{idx!r}] = 0"],
                   test=f"V[{idx!r}] >= len(V[{lst!r}])",
                   step=[f"V[{var!r}] = V[{lst!r}][V[{idx!r}]]", f"V[{idx!r}] += 1"])

    def s_ForPlayers(self, s: ast.ForPlayers) -> None:
        if s.start is not None:
            items = f"_clockwise(st, {self.src(s.start)})"
        elif s.among is not None:
            items = f"list(_L(st, {self.src(s.among)}))"
        else:
            items = "list(range(st.n))"
        self._iterate(s, s.var, items, "player")

    def s_ForEach(self, s: ast.ForEach) -> None:
        self._iterate(s, s.var, f"list(_L(st, {self.src(s.source)}))", self.kind_of(s.source))
