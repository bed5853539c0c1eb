"""The warnings of a lint from simulation (:mod:`catrules.lab.lint`): its tallies in words.

Each finding is a :class:`~catrules.errors.Diagnostic` of severity ``warning`` at the game
file's line (with the line and a caret) where one applies, and says how often it was seen:
"in 0 of 200 games".  Nothing here plays a game.
"""

from __future__ import annotations

from ..errors import Diagnostic
from ..lang import ast

#: The statements that ask a player something.
CHOICES = (ast.Choose, ast.Together, ast.Menu)

BUDGET_HINT = ("check that every loop can end, e.g. a `repeat until` whose condition random players "
               "reach; --max-decisions sets the budget")


def counts_text(counts) -> str:
    """``[2, 3, 4, 6]`` as "2-4 and 6 players"."""
    counts = sorted(set(counts))
    runs, start = [], None
    for i, n in enumerate(counts):
        if start is None:
            start = n
        if i + 1 == len(counts) or counts[i + 1] != n + 1:
            runs.append(str(n) if start == n else f"{start}-{n}")
            start = None
    text = runs[0] if len(runs) == 1 else ", ".join(runs[:-1]) + " and " + runs[-1]
    return f"{text} player" + ("" if counts == [1] else "s")


def _up_to_hint(call: str, asked: int, version: int) -> str:
    """How language 4 says that a short deal is intended (``top(zone, up to N)``)."""
    inner = call.strip("`")
    zone = inner[4:-1].rsplit(",", 1)[0].strip() if inner.startswith("top(") and "," in inner else "zone"
    fix = f"`top({zone}, up to {asked})`"
    if version >= 4:
        return f"write {fix} where a short deal is intended"
    return (f"in language 4 (`catrules 4`), write {fix} where a short deal is intended "
            f"(there `{inner if inner != '...' else 'top(zone, N)'}` stops the game when the zone runs short)")


def _games(k: int, total: int) -> str:
    return f"in {k} of {total} game{'s' if total != 1 else ''}"


def _call_text(text: str, start: int) -> str:
    """The call that begins at ``start`` of a line (to its closing parenthesis)."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
    return text[start:].strip()


class Findings:
    """Builds the warnings of one lint: the game, its source, the tallies of each player count."""

    def __init__(self, game, g, tallies: list, games: int, budget: int):
        self.game, self.g, self.tallies, self.budget = game, g, tallies, budget
        self.total = games * len(tallies)
        self.all_counts = counts_text([t.players for t in tallies])
        self.path = str(game.path)
        # a variant's nodes from its base files keep their own file (ast.GameFile.origins)
        self.sources = {self.path: (g.source or game.source or "").splitlines()}
        self.sources.update({p: t.splitlines() for p, t in (g.sources or {}).items()})
        self.files: dict = {}               # line -> the files of the statements at that line
        for n in ast.walk(g):
            if isinstance(n, ast.Stmt) and n is not g:
                self.files.setdefault(n.line, set()).add(g.origins.get(id(n), self.path))
        self.out: list = []

    def file_of(self, line: int, node=None) -> str:
        """The file of ``node``, or of the statements at ``line`` when they are all in one file."""
        if node is not None:
            return self.g.origins.get(id(node), self.path)
        files = self.files.get(line, ())
        return next(iter(files)) if len(files) == 1 else self.path

    def text(self, line: int, path: str) -> str:
        lines = self.sources.get(path, ())
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def warn(self, line: int, column: int, message: str, hint: str = "", node=None) -> None:
        path = self.file_of(line, node)
        text = self.text(line, path)
        if text and column < 1:             # at the statement's first word
            column = len(text) - len(text.lstrip()) + 1
        self.out.append(Diagnostic(path, line if text else 0, column if text else 0, message,
                                   hint, "warning", text))

    def sum(self, name: str, key) -> int:
        return sum(getattr(t, name)[key] for t in self.tallies)

    def short_deals(self) -> None:
        lines = sorted({line for t in self.tallies for line in t.short})
        for line in lines:
            recs = [(t.players, t.short[line]) for t in self.tallies if line in t.short]
            k = sum(r[0] for _n, r in recs)
            asked, got = max((r[1] for _n, r in recs), key=lambda w: (w[0] - w[1], w[0]))
            text = self.text(line, self.file_of(line))
            at = text.find("top(")
            call = f"`{_call_text(text, at)}`" if at >= 0 else "`top(...)`"
            self.warn(line, at + 1 if at >= 0 else 1,
                      f"a short deal: {call} asked for {asked} card{'s' if asked != 1 else ''} and moved {got} "
                      f"({_games(k, self.total)}, at {counts_text([n for n, _r in recs])})",
                      "the zone held fewer cards than asked for: deal fewer, add cards, or allow fewer players; "
                      + _up_to_hint(call, asked, self.g.version))

    def choices(self) -> None:
        nodes = sorted((s for s in ast.walk(self.g) if isinstance(s, CHOICES)), key=lambda s: (s.line, s.column))
        for s in nodes:
            arose = self.sum("lines", s.line)
            if not arose:
                what = "this menu" if isinstance(s, ast.Menu) else "this choice"
                self.warn(s.line, s.column, f"{what} never arose ({_games(0, self.total)}, at {self.all_counts})",
                          "random players never got here: check the conditions and loops around it", node=s)
            elif isinstance(s, ast.Menu):
                self.menu(s, arose)

    def menu(self, s, arose: int) -> None:
        for label, cond, _body, pos in s.branches:
            offered = self.sum("offered", (s.line, label))
            line, column = pos.get("line", s.line), pos.get("column", s.column)
            if not offered:
                self.warn(line, column, f"the menu move \"{label}\" was never offered: its condition never held "
                          f"when the menu arose ({_games(0, self.total)}; the menu arose {arose} times)",
                          "check its `if` condition: it may never be true", node=s)
            elif not self.sum("taken", (s.line, label)):
                self.warn(line, column, f"the menu move \"{label}\" was never taken: offered "
                          f"{_games(offered, self.total)}, random players never chose it",
                          "it may be offered too seldom to matter", node=s)

    def deciders(self) -> None:
        never: dict = {}
        for t in self.tallies:
            if t.games and t.deciders:
                for p in range(t.players):
                    if not t.deciders[p]:
                        never.setdefault(p, []).append(t)
        for p, ts in sorted(never.items()):
            games = sum(t.games for t in ts)
            self.warn(0, 0, f"player {p + 1} never decides at {counts_text([t.players for t in ts])} "
                      f"({_games(0, games)}) while others do",
                      "a player with nothing to decide only watches: check the turns")

    def endings(self) -> None:
        stuck = [t for t in self.tallies if t.unfinished]
        if stuck:
            k = sum(t.unfinished for t in stuck)
            self.warn(0, 0, f"the game may never end: {k} of {self.total} games passed {self.budget:,} decisions "
                      f"and were stopped (at {counts_text([t.players for t in stuck])})", BUDGET_HINT)
        messages: dict = {}
        for t in self.tallies:
            for message, (k, line, hint) in t.errors.items():
                rec = messages.setdefault(message, [0, line, hint, []])
                rec[0] += k
                rec[3].append(t.players)
        for message, (k, line, hint, counts) in messages.items():
            self.warn(line, 0, f"the game stopped with a rules error {_games(k, self.total)} "
                      f"(at {counts_text(counts)}): {message}", hint)


def findings(game, g, tallies: list, games: int, budget: int) -> list:
    """The warnings of a lint, in the order of the file's lines (those of no line last)."""
    f = Findings(game, g, tallies, games, budget)
    f.short_deals()
    f.choices()
    f.endings()
    f.deciders()
    return sorted(f.out, key=lambda d: (d.line == 0, d.path != f.path, d.path, d.line))
