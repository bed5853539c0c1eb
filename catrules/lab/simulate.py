"""Simulations: let bots play a game many times and sum up who won and how.

:func:`simulate` plays ``games`` games through :class:`~catrules.play.match.Match`
with bot seats (:func:`catrules.bots.basic.make_seat`).  Game ``i`` (from 0) uses
the seed ``seed * 1_000_003 + i``, so the same arguments always give the same
games and the same :class:`SimResult` (apart from the timing), and any one
game can be played again on its own with its seed.  A game that passes the
decision budget (``max_decisions``) is stopped and counted as unfinished: it
has no winner and no scores, and the summary says how many.  With ``log_path`` every
game is written, one after another, to one JSON Lines log
(:mod:`catrules.play.logs`) that :func:`catrules.play.replay.replay` can check.
``jobs`` processes or a Dask ``cluster`` can play the games
(:mod:`catrules.lab.parallel`): :class:`PlayGame` plays one game anywhere, and
the results are summed in game order, so the summary and the log are the same.
With ``rotate`` the seats turn from game to game (:mod:`catrules.lab.rotation`).
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

from ..bots.basic import make_seat
from ..errors import CatrulesError, OverBudget  # noqa: F401 - OverBudget: catrules.lab.simulate's own name too
from ..play.match import Match
from .rotation import SpecTally, rotated

#: A simulated game that asks for more decisions than this is stopped and counted as unfinished
#: (a game that may never end); ``simulate(max_decisions=...)`` and ``--max-decisions`` change it.
#: Said once, in :mod:`catrules.limits`.
from ..limits import DECISION_LIMIT  # noqa: E402

#: Game ``i`` of a simulation with seed ``s`` uses the seed ``s * SEED_STRIDE + i``.
SEED_STRIDE = 1_000_003


def game_seed(seed: int, i: int) -> int:
    """The seed of game ``i`` (from 0) of a simulation started with ``seed``."""
    return seed * SEED_STRIDE + i


@dataclass
class SeatStats:
    """What one seat achieved over a simulation."""
    seat: int                       # player index, from 0
    spec: str                       # the seat spec, e.g. "random" or "bot:fast"
    wins: int = 0                   # games won, shared wins included
    win_rate: float = 0.0           # wins / games
    score_mean: float = 0.0         # mean total score
    score_min: Optional[float] = None
    score_max: Optional[float] = None

    def to_dict(self) -> dict:
        return {"seat": self.seat, "spec": self.spec, "wins": self.wins, "win_rate": self.win_rate,
                "score_mean": self.score_mean, "score_min": self.score_min, "score_max": self.score_max}


@dataclass
class SimResult:
    """The summary of a simulation.  Every field but the timing depends only on the arguments."""
    game: str                       # the game's title
    path: str                       # the game file
    players: int
    games: int
    seed: int
    options: list
    seats: list                     # one SeatStats per player
    shared_games: int = 0           # games won by more than one player (each of them counts a win)
    decisions_mean: float = 0.0     # mean number of decisions per game (State.decisions)
    unfinished: int = 0             # games stopped by the decision budget (no winner, no scores)
    max_decisions: int = DECISION_LIMIT
    elapsed: float = 0.0            # seconds for the whole simulation (timing)
    log_path: Optional[str] = None
    rotate: bool = False            # seats rotated over the games (catrules.lab.rotation)
    specs: Optional[list] = None    # with rotate: one SpecStats per bot spec

    @property
    def games_per_second(self) -> float:
        return self.games / self.elapsed if self.elapsed > 0 else 0.0

    def to_dict(self) -> dict:
        """A JSON-ready summary in a fixed key order; the timing is apart, under ``"timing"``."""
        return {
            "game": self.game, "path": self.path, "players": self.players, "games": self.games,
            "seed": self.seed, "options": list(self.options),
            "seats": [s.to_dict() for s in self.seats],
            "shared_games": self.shared_games, "decisions_mean": self.decisions_mean,
            "unfinished_games": self.unfinished, "max_decisions": self.max_decisions,
            "log": self.log_path,
            **({"rotate": True, "specs": [s.to_dict() for s in self.specs]} if self.rotate else {}),
            "timing": {"elapsed_seconds": round(self.elapsed, 3),
                       "games_per_second": round(self.games_per_second, 2)},
        }

    def format_table(self) -> str:
        """A text table of at most 80 columns."""
        opts = ", ".join(self.options) if self.options else "none"
        head = (f"{self.game}: {self.games} game{'s' if self.games != 1 else ''}, {self.players} players, "
                f"seed {self.seed}, options: {opts}")
        lines = [_clip(head), "",
                 f"{'player':>6}  {'seat':<14}{'wins':>7}{'win rate':>10}{'mean score':>12}{'min':>8}{'max':>8}",
                 "-" * 65]
        for s in self.seats:
            lines.append(f"{s.seat + 1:>6}  {_clip('rotated' if self.rotate else s.spec, 13):<14}{s.wins:>7}{s.win_rate * 100:>9.1f}%"
                         f"{_num(s.score_mean, 2):>12}{_num(s.score_min):>8}{_num(s.score_max):>8}")
        if self.rotate:
            from .rotation import format_specs
            lines += [""] + format_specs(self.specs, self.games, self.players)
        lines.append("")
        lines.append(f"decisions per game: {self.decisions_mean:.1f}    "
                     f"games with a shared win: {self.shared_games}")
        if self.unfinished:
            lines.append(_clip(f"unfinished: {self.unfinished} game{'s' if self.unfinished != 1 else ''} stopped "
                               f"past {self.max_decisions:,} decisions or in a loop with no way out"))
            lines.append("  (not counted above; `catrules check` warns of a loop with no way out)")
        lines.append(f"time: {self.elapsed:.2f} s ({self.games_per_second:.1f} games/s)")
        if self.log_path:
            lines.append(_clip(f"log: {self.log_path}"))
        return "\n".join(lines)


def _num(v, digits: int = 0) -> str:
    if v is None:
        return "-"
    if digits:
        return f"{v:.{digits}f}"
    return f"{v:g}" if isinstance(v, float) else str(v)


def _clip(s: str, width: int = 80) -> str:
    return s if len(s) <= width else s[:width - 3] + "..."


def _seat_specs(seats, players: int) -> list:
    if isinstance(seats, str):
        specs = [seats] * players
    else:
        specs = list(seats)
        if len(specs) != players:
            raise ValueError(f"{len(specs)} seat specs for {players} players: give one per player, "
                             "or one spec for every seat")
    for s in specs:
        make_seat(s, programs=True)     # a ValueError for a bad spec, before any game is played
    return specs


def simulate(game, players: int, games: int, seed: int, seats: Sequence[str] | str = "random", options=(),
             log_path: Optional[str | Path] = None,
             progress: Optional[Callable[[int, int], None]] = None, viewer: Optional[int] = None,
             max_decisions: Optional[int] = None, jobs: int = 1, cluster: Optional[str] = None,
             rotate: bool = False) -> SimResult:
    """Play ``games`` games of ``game`` (a loaded game or a game file) with bot seats.

    ``seats`` is one seat spec for every player or a list of one per player (see
    :func:`catrules.bots.basic.make_seat`).  ``progress(done, total)`` is called as games are done.
    ``viewer`` (a player from 0) makes the log hold only what that player may see.
    A game that asks for more than ``max_decisions`` decisions (default :data:`DECISION_LIMIT`)
    is stopped and counted in ``SimResult.unfinished``; wins and scores are over the others.
    ``jobs`` processes play the games (0 = every core), or the workers of the Dask scheduler at
    ``cluster`` (see :mod:`catrules.lab.parallel`); the result and the log are the same for every
    choice, only the timing differs.  A game that goes wrong raises :class:`SimulationError`.
    With ``rotate``, game ``i`` seats the specs turned ``i`` places (:mod:`catrules.lab.rotation`)
    and ``SimResult.specs`` sums the games per spec; the seat rows are then per seat, whoever sat there.
    """
    from .parallel import GameText, WorkerError, map_in_order, resolve_jobs
    if isinstance(game, (str, Path)):
        from ..api import load_game
        game = load_game(game)
    if not isinstance(games, int) or games < 0:
        raise ValueError(f"the number of games must be a whole number of at least 0, not {games!r}")
    if not isinstance(seed, int):
        raise ValueError(f"the seed must be a whole number, not {seed!r}")
    budget_limit = decision_limit(max_decisions)
    workers = resolve_jobs(jobs)
    specs = _seat_specs(seats, players)
    options = sorted(set(options))
    game.check_start(players, options)     # a wrong player count or option fails here
    if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < players):
        raise ValueError(f"the viewer must be one of the {players} players, not {viewer!r}")

    here = cluster is None and workers == 1
    play = PlayGame(game if here else GameText.of(game), players, tuple(specs), tuple(options), seed,
                    budget_limit, log_path is not None, viewer, bool(rotate))
    sums = _Sums(players, SpecTally(specs) if rotate else None)
    log_file = open(log_path, "w", encoding="utf-8") if log_path is not None else None
    tell = None if progress is None else (lambda done: progress(done, games))
    start = time.perf_counter()
    try:
        # merged in game order, whatever order the workers finish in: the sums come out the same
        for i, played in enumerate(map_in_order(play, range(games), workers, cluster, tell)):
            if log_file is not None:
                log_file.write(played[3])
            sums.add(i, played)
    except WorkerError as exc:
        i = exc.index
        raise SimulationError(f"simulated game {i + 1} of {games} (seed {game_seed(seed, i)}) stopped: "
                              f"{exc.message}", exc.hint) from None
    finally:
        if log_file is not None:
            log_file.close()
    elapsed = time.perf_counter() - start
    return SimResult(game.title, str(game.path), players, games, seed, options, sums.seat_stats(specs, games),
                     sums.shared, round(sums.decisions / max(games, 1), 6), sums.unfinished, budget_limit,
                     elapsed, str(log_path) if log_path is not None else None, bool(rotate),
                     sums.tally.stats() if sums.tally is not None else None)


class _Sums:
    """What :func:`simulate` adds up over the games, in game order: wins, score sums and bounds
    per seat, shared wins, decisions, unfinished games, and the per-spec tally when rotating."""

    def __init__(self, players: int, tally):
        self.tally = tally
        self.wins = [0] * players
        self.sums = [0.0] * players
        self.lows: list = [None] * players
        self.highs: list = [None] * players
        self.shared = self.decisions = self.unfinished = 0

    def add(self, i: int, played: tuple) -> None:
        """Game ``i``'s ``(decisions, totals, winners, log text)`` (see :class:`PlayGame`)."""
        game_decisions, totals, won, _log = played
        self.decisions += game_decisions
        if totals is None:
            self.unfinished += 1
            return
        for w in won:
            self.wins[w] += 1
        if len(won) > 1:
            self.shared += 1
        if self.tally is not None:
            self.tally.add(i, totals, won)
        for p, t in enumerate(totals):
            self.sums[p] += t
            self.lows[p] = t if self.lows[p] is None or t < self.lows[p] else self.lows[p]
            self.highs[p] = t if self.highs[p] is None or t > self.highs[p] else self.highs[p]

    def seat_stats(self, specs: list, games: int) -> list:
        n = max(games - self.unfinished, 1)        # wins and scores are over the games that ended
        return [SeatStats(p, specs[p], self.wins[p], round(self.wins[p] / n, 6), round(self.sums[p] / n, 6),
                          self.lows[p], self.highs[p]) for p in range(len(specs))]


class SimulationError(CatrulesError):
    """A simulated game that went wrong: which one (its number and seed) and why, in words."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass(frozen=True)
class PlayGame:
    """Plays game ``i`` of a simulation; picklable, so that another process can play it.

    ``game`` is a loaded game, or a :class:`~catrules.lab.parallel.GameText` that a worker loads
    once.  A call returns ``(decisions, totals, winners, log text)``; ``totals`` is ``None``
    for a game stopped by the decision budget."""
    game: object
    players: int
    specs: tuple
    options: tuple
    seed: int
    budget: int
    log: bool
    viewer: Optional[int]
    rotate: bool = False

    def __call__(self, i: int) -> tuple:
        game = self.game.load() if hasattr(self.game, "load") else self.game
        s = game_seed(self.seed, i)
        specs = rotated(self.specs, i) if self.rotate else self.specs
        seats = [make_seat(x, programs=True) for x in specs]
        # a seat that is shown the game (a program's) needs its events even with no log written
        shown = self.log or any(getattr(x, "wants_events", True) for x in seats)
        try:
            return self._play(game, Match.new(game, self.players, seats, seed=s, options=self.options,
                                              log=shown), s, specs)
        finally:
            close_seats(seats)

    def _play(self, game, match: Match, s: int, specs: tuple) -> tuple:
        from ..play.logs import LogWriter
        state = match.state
        out = io.StringIO() if self.log else None
        writer = None
        if out is not None:
            writer = LogWriter(out, game, self.players, list(self.options), s, list(specs),
                               viewer=self.viewer).attach(match)
        try:
            match.run(decision_budget(state, self.budget))
        except OverBudget:
            if writer is not None:
                writer.close()          # a log without a result line: replay says it is cut off
            return state.decisions, None, (), out.getvalue() if out is not None else ""
        if writer is not None:
            writer.close()
        if not state.finished:
            raise CatrulesError("the game stopped before its end")
        scores = state.scores()
        won = tuple(state.winners(scores))
        return (state.decisions, tuple(row["total"] for row in scores), won,
                out.getvalue() if out is not None else "")


def close_seats(seats: list) -> None:
    """End the seats that hold something (a program still running in a game stopped early)."""
    for seat in seats:
        close = getattr(seat, "close", None)
        if close is not None:
            close()


def decision_limit(max_decisions) -> int:
    """The decisions a game may take (``max_decisions``, or :data:`DECISION_LIMIT` for None);
    raises ``ValueError`` for anything but a whole number of at least 1."""
    limit = DECISION_LIMIT if max_decisions is None else max_decisions
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ValueError(f"the decision budget must be a whole number of at least 1, not {max_decisions!r}")
    return limit


def decision_budget(state, limit: int) -> Callable[[], None]:
    """A check for :meth:`Match.run` that raises :class:`OverBudget` once ``state`` has asked for
    more than ``limit`` decisions: bots alone would play a game that never ends forever."""
    def check() -> None:
        if state.decisions > limit:
            raise OverBudget(limit)
        if state.no_way_out is not None:        # a loop the checker proved endless: no need to wait
            raise OverBudget(limit, state.no_way_out)
    check.looks = False             # it reads counts the rules keep, never a card (see catrules.play.autoplay)
    check.limit = limit             # the budget, for the bots (see Match.run)
    return check
