"""Turn order as the game file defines it, and the choices each player makes, for the balance lab.

Nothing here knows a game: it reads the game's own structure (its flow, phases and
actions, :mod:`catrules.lang.ast`) and the running state's frames
(:attr:`catrules.runtime.state.State.frames`, each the running block of a unit with its
variables), with no hook in the engine.

**The main loop.**  A choice is *in a loop* of the game when the statement of the flow
that runs it is a loop (``repeat``, ``for each``), or a ``play`` / ``do`` whose phase or
action runs it in one of *its* top-level loops (followed down the frames).  A choice made
by a statement outside any loop (the setup, a token placed once before
the turns begin, a tie-break race) is in none.  The *main loop* of a game is the loop in
which most of its choices are made (the earliest of equals).

**Turns.**  In the main loop, a *turn* is a run of choices made by one player alone in
one run of the phases on the stack and one step of every ``for each player`` loop
running: a new turn begins when another player chooses, when a phase is played anew,
or when a ``for each player`` loop moves on.  A choice made by several players at once
(``secretly``, ``race``) belongs to no turn and ends the one before.  The *first player*
is whoever takes the main loop's first turn, when the main loop's first choice is one
player's (none when it is a secret choice or a race); the turn positions are the seats
counted from the first player in seat order (position 1 the first player, 2 the next
seat...).

**Choices.**  :class:`Watch` also notes every answer: the decision's source line, the
label of the option taken (as a player reads it) and who took it.

The watch runs as the match's check after each step (:meth:`catrules.play.match.Match.run`),
where the state waits at its next decision; it needs the step-by-step path (the state
keeps a log: ``new_state(..., log=True)``), where the same bots play the same game as on
the fast path.
"""

from __future__ import annotations

from collections import Counter
from typing import Optional

from ..lang import ast

#: The statements that are loops.
LOOPS = (ast.RepeatTimes, ast.RepeatUntil, ast.ForPlayers, ast.ForEach)


def _end_line(stmt) -> int:
    return max((getattr(n, "line", 0) or 0 for n in ast.walk(stmt)), default=stmt.line)


class TurnMap:
    """What the game file says about its loops: each unit's top-level statements with their
    line spans, and the ``for each player`` variables of each unit (picklable)."""

    def __init__(self, game):
        g = game.checked.game
        units = [("flow", g.flow)] + [(f"phase:{p.name}", p.body) for p in g.phases]
        units += [(f"action:{a.name}", a.body) for a in g.actions]
        self.top = {}
        self.player_vars = {}
        self.loops = {}                     # (unit, line) -> the loop's first line of source
        src = (getattr(g, "source", "") or "").splitlines()
        self.source = src
        for key, body in units:
            spans = []
            for s in body:
                kind = "loop" if isinstance(s, LOOPS) else "into" if isinstance(s, (ast.Play, ast.Do)) else ""
                spans.append((s.line, _end_line(s), kind))
                if kind == "loop":
                    self.loops[(key, s.line)] = self.text(s.line)
            self.top[key] = spans
            self.player_vars[key] = tuple(sorted({n.var for n in ast.walk(body) if isinstance(n, ast.ForPlayers)}))

    def text(self, line: int) -> str:
        """The statement on source line ``line`` as written (stripped, comments kept out, the lines
        it is carried on to with ``\\`` or inside brackets joined), or ``line N``."""
        if 0 < line <= len(self.source):
            parts = [self.source[line - 1].split("#")[0].strip()]
            depth = 0
            while line < len(self.source) and len(parts) < 20:      # a bracket in a text: stop
                depth = max(depth + sum(parts[-1].count(b) for b in "([") - sum(parts[-1].count(b) for b in ")]"), 0)
                if not parts[-1].endswith("\\") and not depth:
                    break
                parts[-1] = parts[-1].rstrip("\\").rstrip()
                line += 1
                parts.append(self.source[line - 1].split("#")[0].strip())
            t = " ".join(parts)
            return t if len(t) <= 70 else t[:67] + "..."
        return f"line {line}"

    def where(self, st) -> Optional[tuple]:
        """The loop ``(unit, line)`` the state's waiting decision is in, or None (see the module)."""
        frames = st.frames
        prog = st.prog
        k = 0
        while k < len(frames) and frames[k].key == "tiebreak":
            k += 1
        if k == len(frames) or frames[k].key != "flow":
            return None
        for fr in frames[k:]:
            spans = self.top.get(fr.key)
            if spans is None:
                return None
            line = prog.line_of(fr.key, fr.pc - 1)
            hit = next((s for s in spans if s[0] <= line <= s[1]), None)
            if hit is None or not hit[2]:
                return None
            if hit[2] == "loop":
                return (fr.key, hit[0])
        return None

    def signature(self, st) -> tuple:
        """What says a turn goes on: the phases running (by identity) and the ``for each player``
        variables of every frame."""
        phases = tuple(fr for fr in st.frames if fr.key.startswith("phase:"))
        values = tuple(fr.vars.get(v) for fr in st.frames for v in self.player_vars.get(fr.key, ()))
        return phases, values


def _same(a: Optional[tuple], b: tuple) -> bool:
    if a is None or len(a[0]) != len(b[0]) or a[1] != b[1]:
        return False
    return all(x is y for x, y in zip(a[0], b[0]))


class Watch:
    """The match's check after each step: the budget and the leader (``inner``, a
    :class:`catrules.lab.balance.Tracker`), the loops and turns, and every answer."""

    looks = True

    def __init__(self, st, turns: TurnMap, inner=None):
        self.st, self.map, self.inner = st, turns, inner
        self.loops: dict = {}       # (unit, line) -> [choices, first is one player's, takers, last sig, last who]
        self.picks: Counter = Counter()     # (line, label, player) -> times
        self.offered: Counter = Counter()   # (line, label, player) -> times among the options
        self.even: Counter = Counter()      # (line, label, player) -> times an even pick would take it
        self.seen = 0
        self.open = None            # the pending decision being answered, its line and labels

    def __call__(self) -> None:
        if self.inner is not None:
            self.inner()
        self.look()

    def look(self) -> None:
        st = self.st
        h = st.history
        if self.open is not None and len(h) > self.seen:
            _p, line, labels = self.open
            for entry in h[self.seen:]:
                pl = entry[0]
                label = labels.get(pl, {}).get(entry[1], entry[1])
                self.picks[(line, label, pl)] += 1
        self.seen = len(h)
        p = st.pending_
        if p is None:
            self.open = None
            return
        if self.open is not None and self.open[0] is p:
            return                  # the same decision, more cards to pick
        labels = {}
        line = p.line or 0
        for pl in st.choosers():
            labels[pl] = {o.id: o.label for o in st.decision_for(pl).options}
            n = len(labels[pl])
            for label in labels[pl].values():
                self.offered[(line, label, pl)] += 1
                self.even[(line, label, pl)] += 1 / n
        self.open = (p, line, labels)
        self._turn(p)

    def _turn(self, p) -> None:
        st = self.st
        loop = self.map.where(st)
        if loop is None:
            return
        one = p.kind == "choose" and len(p.players) == 1
        rec = self.loops.get(loop)
        if rec is None:
            rec = self.loops[loop] = [0, one, [], None, -1]
        rec[0] += 1
        if not one:
            rec[3] = None
            return
        who = p.players[0]
        sig = self.map.signature(st)
        if who != rec[4] or not _same(rec[3], sig):
            rec[2].append(who)
        rec[3], rec[4] = sig, who

    def summary(self, players: int) -> tuple:
        """``(main loop, first player or -1, turns per player)`` of the game so far; the main loop
        None when no choice was made in a loop."""
        if not self.loops:
            return None, -1, ()
        best = max(self.loops, key=lambda k: self.loops[k][0])      # the earliest of equals
        n, one, takers, _s, _w = self.loops[best]
        if not one or not takers:
            return best, -1, ()
        counts = [0] * players
        for t in takers:
            counts[t] += 1
        return best, takers[0], tuple(counts)

    def choice_counts(self) -> tuple:
        """Every option offered or taken: ``((line, label, player, times taken, times offered,
        times an even pick would take it), ...)`` in a fixed order (an option is offered once per
        decision that lists it; an even pick takes each of ``n`` options ``1/n`` of the time)."""
        keys = set(self.picks) | set(self.offered)
        return tuple(sorted((*k, self.picks.get(k, 0), self.offered.get(k, 0), round(self.even.get(k, 0.0), 9))
                            for k in keys))
