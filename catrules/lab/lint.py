"""Lint from simulation: what random games show of a game file that its text cannot.

:func:`lint_play` plays ``games`` games of random players at each player count asked for
(game ``i`` with the seed ``seed * 1_000_003 + i``, as a simulation: the same arguments
give the same findings) and turns what it saw into warnings (:class:`~catrules.errors.Diagnostic`,
at the game file's line where one applies):

* a short deal: ``top(zone, n)`` asked for more cards than the zone held (the runtime notes it
  in ``State.stats``, see :func:`catrules.runtime.values.note_short`);
* a choice (``chooses``, ``secretly``, ``race``, a menu) that never arose;
* a menu move that was never offered (its condition never held) or never taken;
* a player who never decides at some player count;
* games that passed the decision budget (a game that may never end), and games stopped by a
  rules error (each distinct error once, at its line).

Every decision is watched as it is asked (the match's check after each step, on the
step-by-step path: the state keeps a log, and asks forced choices too, so that a menu with
one move left is seen offering it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from ..bots.basic import make_seat
from ..errors import CatrulesError, Diagnostic, OverBudget, RulesError
from ..lang import ast
from ..play.match import Match
from ..runtime.state import State
from .lint_findings import findings
from .simulate import decision_budget, decision_limit, game_seed


class Seen:
    """The match's check after each step: the decision budget, then every decision asked
    (its line), the menu moves offered and taken (by line and label) and who answered."""

    looks = True

    def __init__(self, st, menus: set, budget: Callable[[], None]):
        self.st, self.menus, self.budget = st, menus, budget
        self.lines: set = set()         # lines of the decisions asked
        self.offered: set = set()       # (menu line, label)
        self.taken: set = set()         # (menu line, label)
        self.deciders: set = set()      # players who answered something
        self.seen = 0                   # answers in the state's history looked at
        self.open = None                # (pending, its line, option id -> value)

    def __call__(self) -> None:
        self.budget()
        self.look()

    def look(self) -> None:
        st = self.st
        h = st.history
        if len(h) > self.seen:
            ids = self.open[2] if self.open is not None else {}
            line = self.open[1] if self.open is not None else 0
            for entry in h[self.seen:]:
                self.deciders.add(entry[0])
                if line in self.menus and entry[1] in ids:
                    self.taken.add((line, ids[entry[1]]))
            self.seen = len(h)
        p = st.pending_
        if p is None or (self.open is not None and self.open[0] is p):
            self.open = None if p is None else self.open
            return
        line = p.line or 0
        self.lines.add(line)
        ids = {}
        if line in self.menus:
            for pl in st.choosers():
                for o in st.decision_for(pl).options:
                    ids[o.id] = o.value
                    self.offered.add((line, o.value))
        self.open = (p, line, ids)


@dataclass
class Tally:
    """What the games at one player count showed, summed over the games."""
    players: int
    games: int = 0
    lines: Counter = field(default_factory=Counter)      # choice line -> games it arose in
    offered: Counter = field(default_factory=Counter)    # (menu line, label) -> games
    taken: Counter = field(default_factory=Counter)      # (menu line, label) -> games
    deciders: Counter = field(default_factory=Counter)   # player -> games they decided in
    short: dict = field(default_factory=dict)            # line -> [games, worst (asked, got)]
    unfinished: int = 0
    errors: dict = field(default_factory=dict)           # message -> [games, line, hint]

    def add(self, seen: Seen, stats: dict) -> None:
        self.games += 1
        self.lines.update(seen.lines)
        self.offered.update(seen.offered)
        self.taken.update(seen.taken)
        self.deciders.update(seen.deciders)
        worst: dict = {}
        for line, asked, got in stats.get("short", ()):
            w = worst.get(line)
            if w is None or asked - got > w[0] - w[1]:
                worst[line] = (asked, got)
        for line, w in worst.items():
            rec = self.short.setdefault(line, [0, w])
            rec[0] += 1
            if w[0] - w[1] > rec[1][0] - rec[1][1]:
                rec[1] = w


def play_one(game, players: int, options: tuple, seed: int, budget: int, menus: set, tally: Tally) -> None:
    """Play one game of random players and add what it showed to ``tally``."""
    stats: dict = {}
    try:
        st = State.new(game.program, players, options, seed, log=True, ask_forced=True, stats=stats)
    except RulesError as exc:
        seen = Seen(None, menus, lambda: None)
        tally.add(seen, stats)
        _error(tally, exc)
        return
    seen = Seen(st, menus, decision_budget(st, budget))
    seats = [make_seat("random") for _ in range(players)]
    seen.look()
    try:
        Match(game, st, seats).run(seen)
    except OverBudget:
        tally.unfinished += 1
    except CatrulesError as exc:
        _error(tally, exc)
    seen.look()
    tally.add(seen, stats)


def _error(tally: Tally, exc: Exception) -> None:
    message = getattr(exc, "message", None) or str(exc).split("\n")[0]
    rec = tally.errors.setdefault(message, [0, getattr(exc, "line", 0) or 0, getattr(exc, "hint", "") or ""])
    rec[0] += 1


def lint_play(game, games: int, seed: int, counts: Sequence[int], options=(),
              max_decisions: Optional[int] = None,
              progress: Optional[Callable[[int, int], None]] = None) -> list:
    """Play ``games`` games at each player count of ``counts`` and return the warnings
    (:class:`~catrules.errors.Diagnostic`), in the order of the file (those of no line last)."""
    budget = decision_limit(max_decisions)
    options = tuple(sorted(set(options)))
    for n in counts:
        game.check_start(n, options)
    g = game.checked.game
    menus = {s.line for s in ast.walk(g) if isinstance(s, ast.Menu)}
    tallies = []
    done, total = 0, games * len(counts)
    for n in counts:
        tally = Tally(n)
        for i in range(games):
            play_one(game, n, options, game_seed(seed, i), budget, menus, tally)
            done += 1
            if progress is not None:
                progress(done, total)
        tallies.append(tally)
    return findings(game, g, tallies, games, budget)
