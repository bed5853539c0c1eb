"""The skill ladder: bots play a game in rotated seatings, and Bradley–Terry ratings say how strong each is.

:func:`ladder` plays ``games`` games of ``k`` bots (seat specs of
:func:`catrules.bots.basic.make_seat`) on ``players`` seats.  The seatings come from
:func:`seating`: game ``i`` plays the deal (seed) ``seed * 1_000_003 + i // k``, and the
``k`` games of a deal turn the bots round the table, so that over every ``k`` games each
bot sits in every seat equally often (with more seats than bots a bot has several seats;
with more bots than seats the deals cycle the bots' spacing, so that every two bots meet).

Each finished game gives pairwise results from its final ranking (:func:`places`: the
winners first, then the ``winner:`` block's keys): between every two seats of different bots,
1 to the better placed, ½ each for a tie.  :func:`fit` finds the Bradley–Terry ratings
(log-strengths, mean 0) that explain these results best (Hunter's MM algorithm), with a
prior of one drawn game between every two bots (so that a bot that always wins stays finite);
Elo numbers are the same ratings times ``400 / ln 10``.  The 95% intervals come from
:data:`BOOTSTRAP` resamples of the games (the pairwise results of one game are not
independent: resampling whole games keeps that), drawn from a source seeded by ``seed``; the
same resamples give each bot's rating above the next one down with its own interval (:func:`gaps`:
the ratings of two bots move together, so overlapping intervals of the two can hide a clear gap).
The result is the same for every ``jobs`` (a searching bot's budget in seconds is seconds of
work: counted, not timed).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from ..bots.basic import make_seat
from ..errors import CatrulesError, OverBudget
from ..play.match import Match
from .simulate import SimulationError, close_seats, decision_budget, decision_limit, game_seed

#: Bootstrap resamples of the games for the intervals.
BOOTSTRAP = 200
#: Elo points per unit of Bradley–Terry log-strength.
ELO = 400 / math.log(10)
#: Virtual drawn games between every two bots (keeps a bot that always wins finite).
PRIOR = 1.0
#: The JSON's format number.
FORMAT = 1
_ITERATIONS, _TOLERANCE = 5000, 1e-10


class LadderError(SimulationError):
    """A game of a ladder went wrong: which one (its number and seed) and why."""


# ================================================================== seatings

def strides(k: int) -> list:
    """The spacings of the bots round the table: the numbers below ``k`` prime to it (1 for k < 3)."""
    return [s for s in range(1, max(k, 2)) if math.gcd(s, k) == 1] or [1]


def seating(k: int, players: int, i: int) -> tuple:
    """The bots (indices from 0) of seats 0..players-1 in game ``i`` of a ladder of ``k`` bots.

    Game ``i`` is turn ``r = i % k`` of deal ``d = i // k``; seat ``p`` gets bot
    ``(r + p * s) % k``, with the spacing ``s`` cycling through :func:`strides` from deal to deal.
    For each seat, ``r`` running over ``0..k-1`` gives every bot once: each ``k`` games every bot
    sits in every seat once.  The spacing is prime to ``k``, so a game has as many different
    bots as it can (``min(k, players)``)."""
    d, r = divmod(i, k)
    ss = strides(k)
    s = ss[d % len(ss)]
    return tuple((r + p * s) % k for p in range(players))


def deal(k: int, i: int) -> int:
    """The deal of game ``i``: the ``k`` games of a deal share its seed."""
    return i // k


# ================================================================== one game

def places(st, rows: list, won: Sequence[int]) -> tuple:
    """Each player's place (0 the best; equal places for a tie): the winners first, then the others
    by the ``winner:`` block's keys (the same places for players with the same keys)."""
    n = len(rows)
    try:
        keys = st.rank_keys(rows)
        below = sorted({keys[p] for p in range(n) if p not in won}, reverse=True)
    except Exception:           # noqa: BLE001 - keys that cannot be ordered: winners ahead of the rest
        return tuple(0 if p in won else 1 for p in range(n))
    return tuple(0 if p in won else 1 + below.index(keys[p]) for p in range(n))


def pairs(seats: Sequence[int], place: Sequence[int]) -> tuple:
    """The pairwise results of one game: ``(a, b, points of a)`` for every two seats of
    different bots ``a < b`` (1 a placed better, 0 b did, 0.5 a tie)."""
    out = []
    n = len(seats)
    for p in range(n):
        for q in range(p + 1, n):
            a, b = seats[p], seats[q]
            if a == b:
                continue
            x = 1.0 if place[p] < place[q] else 0.0 if place[p] > place[q] else 0.5
            out.append((a, b, x) if a < b else (b, a, 1.0 - x))
    return tuple(out)


@dataclass(frozen=True)
class PlayLadder:
    """Plays game ``i`` of a ladder, anywhere (picklable); returns ``(seats, places, winners)``,
    places and winners None for a game stopped by the decision budget."""
    game: object
    players: int
    specs: tuple
    options: tuple
    seed: int
    budget: int

    def __call__(self, i: int) -> tuple:
        game = self.game.load() if hasattr(self.game, "load") else self.game
        k = len(self.specs)
        seats_of = seating(k, self.players, i)
        bots = [make_seat(self.specs[b], programs=True) for b in seats_of]
        shown = any(getattr(x, "wants_events", True) for x in bots)
        st = game.new_state(self.players, seed=game_seed(self.seed, deal(k, i)), options=self.options, log=shown)
        try:
            Match(game, st, bots).run(decision_budget(st, self.budget))
        except OverBudget:
            return seats_of, None, None
        finally:
            close_seats(bots)
        if not st.finished:
            raise CatrulesError("the game stopped before its end")
        rows = st.scores()
        won = tuple(st.winners(rows))
        return seats_of, places(st, rows, won), won


# ================================================================== ratings

def totals(games: Sequence[tuple], k: int) -> tuple:
    """``(points, meetings)``: ``points[a][b]`` what bot ``a`` scored against ``b``, ``meetings[a][b]``
    their pairwise results, from the games' :func:`pairs`."""
    points = [[0.0] * k for _ in range(k)]
    meet = [[0.0] * k for _ in range(k)]
    for game in games:
        for a, b, x in game:
            points[a][b] += x
            points[b][a] += 1.0 - x
            meet[a][b] += 1.0
            meet[b][a] += 1.0
    return points, meet


def fit(points: list, meet: list, prior: float = PRIOR) -> list:
    """Bradley–Terry log-strengths (mean 0) from pairwise ``points`` and ``meetings``
    (:func:`totals`), with ``prior`` drawn games between every two bots added."""
    k = len(points)
    n = [[meet[a][b] + (prior if a != b else 0.0) for b in range(k)] for a in range(k)]
    w = [sum(points[a]) + prior * (k - 1) / 2 for a in range(k)]
    pi = [1.0] * k
    for _ in range(_ITERATIONS):
        new = []
        for a in range(k):
            d = sum(n[a][b] / (pi[a] + pi[b]) for b in range(k) if b != a)
            new.append(w[a] / d if d > 0 else pi[a])
        g = math.exp(sum(math.log(x) for x in new) / k)
        new = [x / g for x in new]
        done = max(abs(math.log(x / y)) for x, y in zip(new, pi)) < _TOLERANCE
        pi = new
        if done:
            break
    return [math.log(x) for x in pi]


def bootstrap(games: Sequence[tuple], k: int, rounds: int = BOOTSTRAP, seed: int = 1) -> list:
    """The log-strengths of ``rounds`` resamples (with replacement) of ``games`` (pairs per game)."""
    rng = random.Random(f"ladder-bootstrap-{seed}")
    n = len(games)
    out = []
    for _ in range(rounds):
        pick = [games[rng.randrange(n)] for _ in range(n)] if n else []
        out.append(fit(*totals(pick, k)))
    return out


def interval(values: Sequence[float], level: float = 0.95) -> tuple:
    """The percentile interval of ``values`` (the middle ``level`` of them)."""
    v = sorted(values)
    if not v:
        return (0.0, 0.0)
    lo = v[int(math.floor((1 - level) / 2 * (len(v) - 1)))]
    hi = v[int(math.ceil((1 + level) / 2 * (len(v) - 1)))]
    return lo, hi


def rating_gap(games: Sequence[tuple], k: int, strong: int, weak: int, rounds: int = BOOTSTRAP,
               seed: int = 1) -> dict:
    """Bot ``strong``'s rating above bot ``weak`` (log-strength and Elo) with its bootstrap interval."""
    theta = fit(*totals(games, k))
    gaps = [t[strong] - t[weak] for t in bootstrap(games, k, rounds, seed)]
    lo, hi = interval(gaps)
    gap = theta[strong] - theta[weak]
    return {"rating": _r(gap), "low": _r(lo), "high": _r(hi),
            "elo": _r(gap * ELO), "elo_low": _r(lo * ELO), "elo_high": _r(hi * ELO)}


def gaps(theta: Sequence[float], samples: Sequence[Sequence[float]], order: Sequence[int],
         specs: Sequence[str]) -> list:
    """Each bot's rating above the next one in ``order`` (best first), with the 95% percentile
    interval of the same difference over the bootstrap ``samples``: one dict per neighbouring pair."""
    out = []
    for a, b in zip(order, order[1:]):
        lo, hi = interval([t[a] - t[b] for t in samples])
        gap = theta[a] - theta[b]
        out.append({"bot": specs[a], "over": specs[b], "rating": _r(gap), "low": _r(lo), "high": _r(hi),
                    "elo": _r(gap * ELO), "elo_low": _r(lo * ELO), "elo_high": _r(hi * ELO)})
    return out


def _r(x: float) -> float:
    return round(float(x), 6)


# ================================================================== the result

@dataclass
class LadderResult:
    """A ladder: its settings, each bot's figures (best first) and the pairwise table."""
    game: str
    path: str
    players: int
    games: int
    seed: int
    options: list
    bots: list                      # one dict per bot, in rating order (see :meth:`to_dict`)
    pairwise: list                  # pairwise[a][b]: points of bot a against bot b (input order)
    meetings: list
    unfinished: int = 0
    max_decisions: int = 0
    fair_share: float = 0.0
    rounds: int = BOOTSTRAP
    elapsed: float = 0.0
    specs: list = field(default_factory=list)
    gaps: list = field(default_factory=list)   # each bot over the next one down (see :func:`gaps`)

    def to_dict(self) -> dict:
        """The JSON: the same bytes for the same arguments (``timing`` apart, at the end)."""
        return {"catrules_ladder": FORMAT, "game": self.game, "path": self.path, "players": self.players,
                "games": self.games, "seed": self.seed, "options": list(self.options),
                "bots": list(self.specs), "unfinished_games": self.unfinished,
                "max_decisions": self.max_decisions, "fair_share": self.fair_share,
                "method": {"model": "Bradley-Terry on pairwise results of final rankings (ties 1/2)",
                           "prior": f"{PRIOR:g} drawn game between every two bots",
                           "elo": "400 / ln 10 per unit of log-strength; mean 0",
                           "interval": f"95% percentile bootstrap over games, {self.rounds} resamples"},
                "ratings": self.bots, "gaps": self.gaps,
                "pairwise": {"points": [[_r(x) for x in row] for row in self.pairwise],
                             "meetings": [[int(x) for x in row] for row in self.meetings]},
                "timing": {"elapsed_seconds": round(self.elapsed, 3)}}

    def format_table(self) -> str:
        """The ratings as a text table of at most 80 columns."""
        opts = ", ".join(self.options) if self.options else "none"
        head = (f"{self.game}: {self.games} game{'s' if self.games != 1 else ''}, {self.players} players, "
                f"seed {self.seed}, options: {opts}")
        lines = [_clip(head),
                 _clip(f"{len(self.specs)} bots, seats rotated: each deal is played {len(self.specs)} times, "
                       "every bot in every seat once"), "",
                 f"{'rank':>4}  {'bot':<16}{'seats':>6}{'win share':>11}{'pairwise':>10}"
                 f"{'rating':>8}{'Elo':>6}{'95% interval':>16}",
                 "-" * 79]
        for n, b in enumerate(self.bots, 1):
            iv = f"[{b['elo_low']:+.0f}, {b['elo_high']:+.0f}]"
            lines.append(f"{n:>4}  {_clip(b['bot'], 15):<16}{b['seats']:>6}{b['win_share'] * 100:>10.1f}%"
                         f"{b['pairwise_share'] * 100:>9.1f}%{b['rating']:>+8.2f}{b['elo']:>+6.0f}{iv:>16}")
        lines.append("")
        if self.gaps:
            lines.append("each bot over the next one down, Elo and 95% interval:")
            for g in self.gaps:
                iv = f"[{g['elo_low']:+.0f}, {g['elo_high']:+.0f}]"
                lines.append(_clip(f"  {_clip(g['bot'], 15) + ' over ' + _clip(g['over'], 15):<55}"
                                   f"{g['elo']:>+6.0f}{iv:>16}"))
            lines.append("")
        lines.append(f"win share: games won per seat played (fair share {self.fair_share * 100:.1f}%)")
        lines.append("pairwise: points against other bots' seats by final rank (a tie 1/2)")
        lines.append("rating: Bradley-Terry log-strength (mean 0); Elo = rating x 400/ln 10")
        lines.append(f"95% interval of the Elo: {self.rounds} bootstrap resamples of the games")
        if self.games % len(self.specs):
            lines.append(_clip(f"the last deal was played {self.games % len(self.specs)} of {len(self.specs)} times: "
                               f"give a multiple of {len(self.specs)} games for seats in balance"))
        if self.unfinished:
            lines.append(_clip(f"unfinished: {self.unfinished} game{'s' if self.unfinished != 1 else ''} passed "
                               f"{self.max_decisions:,} decisions and were stopped (not counted)"))
        lines.append(f"time: {self.elapsed:.2f} s")
        return "\n".join(lines)


def _clip(s: str, width: int = 80) -> str:
    return s if len(s) <= width else s[:width - 3] + "..."


# ================================================================== the run

def check_specs(bots: Sequence[str]) -> list:
    """The bots' seat specs, checked: at least two, all different, each one a bot (a ValueError
    that says which is wrong)."""
    specs = [s.strip() if isinstance(s, str) else s for s in bots]
    if len(specs) < 2:
        raise ValueError("a ladder needs two bots or more, e.g. random,greedy")
    seen = set()
    for s in specs:
        make_seat(s, programs=True)         # a ValueError for a bad spec, before any game is played
        if s.lower() in seen:
            raise ValueError(f"the bot {s!r} is listed twice: give each bot once")
        seen.add(s.lower())
    return specs


def ladder(game, players: int, bots: Sequence[str], games: int, seed: int = 1, options=(),
           max_decisions: Optional[int] = None, jobs: int = 1, cluster: Optional[str] = None,
           progress: Optional[Callable[[int, int], None]] = None, rounds: int = BOOTSTRAP) -> LadderResult:
    """Play ``games`` games of ``game`` (loaded or a file) between ``bots`` in rotated seatings
    and rate them: see the module's documentation.  ``progress(done, total)`` is told as games
    are done; the result is the same for every ``jobs`` (but the timing)."""
    from .parallel import GameText, WorkerError, map_in_order, resolve_jobs
    if isinstance(game, str) or hasattr(game, "__fspath__"):
        from ..api import load_game
        game = load_game(game)
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError(f"the number of games must be a whole number of at least 1, not {games!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"the seed must be a whole number, not {seed!r}")
    specs = check_specs(bots)
    budget = decision_limit(max_decisions)
    workers = resolve_jobs(jobs)
    options = sorted(set(options))
    game.check_start(players, options)
    here = cluster is None and workers == 1
    play = PlayLadder(game if here else GameText.of(game), players, tuple(specs), tuple(options), seed, budget)
    tell = None if progress is None else (lambda done: progress(done, games))
    start = time.perf_counter()
    records = []
    try:
        records = list(map_in_order(play, range(games), workers, cluster, tell))
    except WorkerError as exc:
        i = exc.index
        raise LadderError(f"ladder game {i + 1} of {games} (seed {game_seed(seed, deal(len(specs), i))}) "
                          f"stopped: {exc.message}", exc.hint) from None
    result = rate(records, specs, rounds, seed)
    result.game, result.path, result.players, result.games = game.title, str(game.path), players, games
    result.seed, result.options, result.max_decisions = seed, options, budget
    result.elapsed = time.perf_counter() - start
    return result


def rate(records: Sequence[tuple], specs: Sequence[str], rounds: int = BOOTSTRAP, seed: int = 1) -> LadderResult:
    """The ratings of ``specs`` from the games' ``(seats, places, winners)`` (:class:`PlayLadder`;
    places None for an unfinished game)."""
    k = len(specs)
    done = [(s, p, w) for s, p, w in records if p is not None]
    games = [pairs(s, p) for s, p, _w in done]
    points, meet = totals(games, k)
    theta = fit(points, meet)
    samples = bootstrap(games, k, rounds, seed)
    seats, wins = [0] * k, [0] * k
    played, winners = 0, 0
    for s, _p, w in done:
        played += len(s)
        winners += len(w)
        for p, b in enumerate(s):
            seats[b] += 1
            wins[b] += p in w
    rows = []
    for a in range(k):
        lo, hi = interval([t[a] for t in samples])
        got, met = sum(points[a]), sum(meet[a])
        rows.append({"bot": specs[a], "seats": seats[a], "wins": wins[a],
                     "win_share": _r(wins[a] / seats[a] if seats[a] else 0.0),
                     "pairwise_share": _r(got / met if met else 0.5),
                     "rating": _r(theta[a]), "low": _r(lo), "high": _r(hi),
                     "elo": _r(theta[a] * ELO), "elo_low": _r(lo * ELO), "elo_high": _r(hi * ELO)})
    order = sorted(range(k), key=lambda a: (-theta[a], a))
    return LadderResult("", "", 0, len(records), seed, [], [rows[a] for a in order], points, meet,
                        unfinished=len(records) - len(done), fair_share=_r(winners / played if played else 0.0),
                        rounds=rounds, specs=list(specs), gaps=gaps(theta, samples, order, specs))
