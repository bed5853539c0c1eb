"""The balance lab: play a game many times with bots and measure how fair, dramatic and skilful it is.

:func:`balance` plays ``games`` games exactly as :func:`catrules.lab.simulate.simulate` does
(game ``i`` with the seed ``seed * 1_000_003 + i``, the same bots, so the same games and
the same wins) and records for each game more than who won:

* the winners, every player's total and each numeric score item (``score:`` block);
* its length: decisions (every answer, forced ones too) and choices (answers among two
  or more options, the game's ``history``);
* the *first player*: whoever makes the game's first choice (the first decision that is
  not forced; none when several players make it at once, a secret choice or a race);
* the leader as the game goes: the player ahead by the game's ``winner:`` block
  (:meth:`~catrules.runtime.state.State.rank_keys` of :meth:`~catrules.runtime.state.State.scores`,
  the running score), sampled every ``k``-th decision.  ``k`` starts at the length of game 0
  (played once more first, the same for every ``--jobs``) over :data:`PER_GAME`, and whenever
  :data:`MARKS` samples are kept, :class:`Tracker` drops every other one and doubles ``k``:
  a game gets about 30 evenly spread samples (20 to 40 if it is much longer), for as many
  scorings.
  From them: the lead changes, and for each fraction of :data:`FRACTIONS` of the game's
  decisions whether the leader then (the last sample at or before it) won.

Then ``skill_games`` more games (seeds ``seed * 1_000_003 + 500_000 + j``) put one greedy bot
against random bots, its seat turning round the table, to see how often the stronger
bot wins.  With ``compare`` every game is played again, same seeds, with that option on.

Every game is one item of :func:`catrules.lab.parallel.map_in_order` (all in one pool), merged in
order into a :class:`Tally` per condition; :meth:`Tally.figures` gives the figures (with the
intervals and tests of :mod:`catrules.lab.stats`), and :class:`BalanceResult` the JSON,
the verdicts and the text.  The report is drawn by :mod:`catrules.lab.report`.
Nothing here knows a game: seats, scores and the leader come from the game file.
"""

from __future__ import annotations

import time
from array import array
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from . import stats as bs
from ..bots.basic import make_seat
from ..errors import CatrulesError, OverBudget
from ..play.match import Match
from .simulate import SimulationError, _seat_specs, decision_budget, decision_limit, game_seed

#: Skill games played by default (one greedy bot against random ones, its seat turning).
DEFAULT_SKILL_GAMES = 200
#: Skill game ``j`` uses the seed of game ``SKILL_SEED_OFFSET + j`` of the simulation.
SKILL_SEED_OFFSET = 500_000
#: The stronger and the weaker bots of the skill games.
STRONG, WEAK = "greedy", "random"
#: Samples of the leader kept per game before every other one is dropped.
MARKS = 40
#: Samples of the leader aimed at in a game as long as game 0.
PER_GAME = 30
#: Fractions of a game's decisions at which the leader is looked at; 2/3 is the one of the verdict.
FRACTIONS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 2 / 3, 0.7, 0.8, 0.9)
TWO_THIRDS = FRACTIONS.index(2 / 3)
#: The JSON's format number.
FORMAT = 1
MAIN, SKILL = 0, 1


class BalanceError(SimulationError):
    """A game of a balance run went wrong: which one (its number and seed) and why."""


# ================================================================== one game

def leader(st) -> int:
    """The player ahead now by the ``winner:`` block on the running scores; -1 for a tie (or
    scores that cannot be worked out on this table)."""
    try:
        keys = st.rank_keys(st.scores())
        best = max(keys)
    except Exception:           # noqa: BLE001 - a score that needs the end of the game: no leader
        return -1
    top = [p for p, k in enumerate(keys) if k == best]
    return top[0] if len(top) == 1 else -1


class Tracker:
    """The match's check after each step (see :meth:`catrules.play.match.Match.run`): stops a game over
    its decision budget and samples the leader."""

    looks = False               # reads the table, never a decision's defaults (catrules.play.autoplay)

    def __init__(self, st, budget: int, every: int = 1):
        self.st, self.budget = st, budget
        self.marks: list = []   # (decisions so far, leader)
        self.every = every
        self.due = every

    def __call__(self) -> None:
        st = self.st
        d = st.decisions
        if d > self.budget:
            raise OverBudget(self.budget)
        if d >= self.due:
            self.marks.append((d, leader(st)))
            if len(self.marks) >= MARKS:
                self.marks = self.marks[::2]
                self.every *= 2
            self.due = self.marks[-1][0] + self.every

    def drama(self, winners: tuple) -> tuple:
        """``(lead changes, codes)``: per fraction of :data:`FRACTIONS`, -1 (no single leader
        then), 0 (the leader lost) or 1 (the leader won)."""
        lead = [who for _d, who in self.marks if who >= 0]
        if len(winners) == 1:
            lead.append(winners[0])
        changes = sum(1 for a, b in zip(lead, lead[1:]) if a != b)
        total = self.st.decisions
        ds = [d for d, _w in self.marks]
        codes = []
        for f in FRACTIONS:
            k = bisect_right(ds, f * total) - 1
            who = self.marks[k][1] if k >= 0 else -1
            codes.append(-1 if who < 0 else int(who in winners))
        return changes, tuple(codes)


def first_chooser(st) -> int:
    """Who is to choose in a new game (it runs to its first choice; a forced one is answered by
    the engine): -1 for none, or when several players answer it together (a secret choice, a race)."""
    kind = st.decision_kind()
    if kind is None:
        return -1
    waiting = st.choosers()
    return waiting[0] if len(waiting) == 1 and kind != "race" else -1


def _number(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


@dataclass(frozen=True)
class PlayBalance:
    """Plays one game of a balance run, anywhere (picklable).  An item is ``(condition, kind, i)``:
    ``conditions[condition]`` are the options, ``kind`` is :data:`MAIN` or :data:`SKILL`."""
    game: object
    players: int
    specs: tuple
    conditions: tuple
    seed: int
    budget: int
    every: int = 1              # the leader is sampled every so many decisions (at first)

    def __call__(self, item: tuple) -> tuple:
        cond, kind, i = item
        game = self.game.load() if hasattr(self.game, "load") else self.game
        options = self.conditions[cond]
        return (self._main if kind == MAIN else self._skill)(game, options, i)

    def _main(self, game, options, i: int) -> tuple:
        """``(decisions, choices, totals, items, winners, first, lead changes, codes)``; totals
        None for a game stopped by the budget."""
        st = game.new_state(self.players, seed=game_seed(self.seed, i), options=options)
        track = Tracker(st, self.budget, self.every)
        first = first_chooser(st)
        try:
            Match(game, st, [make_seat(x) for x in self.specs]).run(track)
        except OverBudget:
            return st.decisions, len(st.history), None, None, (), -1, 0, ()
        if not st.finished:
            raise CatrulesError("the game stopped before its end")
        rows = st.scores()
        won = tuple(st.winners(rows))
        names = [n for n, _c in game.score_items_for(st.options)]
        totals = tuple(_number(r["total"]) for r in rows)
        items = tuple(tuple(_number(r.get(n)) for n in names) for r in rows)
        changes, codes = track.drama(won)
        return st.decisions, len(st.history), totals, items, won, first, changes, codes

    def _skill(self, game, options, j: int) -> tuple:
        """``(the strong bot's seat, winners)``; winners None for a game stopped by the budget."""
        strong = j % self.players
        st = game.new_state(self.players, seed=game_seed(self.seed, SKILL_SEED_OFFSET + j), options=options)
        seats = [make_seat(STRONG if p == strong else WEAK) for p in range(self.players)]
        try:
            Match(game, st, seats).run(decision_budget(st, self.budget))
        except OverBudget:
            return strong, None
        if not st.finished:
            raise CatrulesError("the game stopped before its end")
        return strong, tuple(st.winners(st.scores()))


# ================================================================== sums

class Tally:
    """What the games of one condition (a set of options) add up to, merged in game order."""

    def __init__(self, players: int, specs: list, options: list, items: list):
        n = players
        self.players, self.specs, self.options = n, specs, options
        self.items = items                          # (name, counted)
        self.games = self.unfinished = self.shared = self.winners = 0
        self.wins = [0] * n
        self.totals = [array("d") for _ in range(n)]
        self.item_seat = [[[0, 0.0, 0.0] for _ in range(n)] for _ in items]    # n, sum, squares
        self.item_game = [[0, 0.0, 0.0] for _ in items]                        # of the players' mean
        self.decisions, self.choices = array("d"), array("d")
        self.first_seats = [0] * n
        self.first_wins = 0
        self.changes = array("i")
        self.at = [[0, 0] for _ in FRACTIONS]       # games with a single leader, of which won
        self.skill = {"games": 0, "unfinished": 0, "wins": 0, "winners": 0,
                      "seats": [[0, 0] for _ in range(n)]}

    def add_main(self, rec: tuple) -> None:
        decisions, choices, totals, items, won, first, changes, codes = rec
        self.games += 1
        if totals is None:
            self.unfinished += 1
            return
        self.decisions.append(decisions)
        self.choices.append(choices)
        for w in won:
            self.wins[w] += 1
        self.winners += len(won)
        self.shared += len(won) > 1
        for p, t in enumerate(totals):
            self.totals[p].append(t if t is not None else 0)
        for k in range(len(self.items)):
            vals = [row[k] for row in items]
            for p, v in enumerate(vals):
                if v is not None:
                    acc = self.item_seat[k][p]
                    acc[0] += 1
                    acc[1] += v
                    acc[2] += v * v
            if None not in vals:
                m = sum(vals) / len(vals)
                acc = self.item_game[k]
                acc[0] += 1
                acc[1] += m
                acc[2] += m * m
        if first >= 0:
            self.first_seats[first] += 1
            self.first_wins += first in won
        self.changes.append(changes)
        for k, c in enumerate(codes):
            if c >= 0:
                self.at[k][0] += 1
                self.at[k][1] += c

    def add_skill(self, rec: tuple) -> None:
        strong, won = rec
        s = self.skill
        s["games"] += 1
        if won is None:
            s["unfinished"] += 1
            return
        s["winners"] += len(won)
        s["wins"] += strong in won
        s["seats"][strong][0] += 1
        s["seats"][strong][1] += strong in won

    # ------------------------------------------------------------ figures
    def fair_share(self) -> float:
        """A seat's win rate if every seat had the same chances (shared wins count for each winner)."""
        done = self.games - self.unfinished
        return self.winners / (self.players * done) if done else 1 / self.players

    def figures(self) -> dict:
        """Every figure of this condition, JSON-ready (see ``docs/balance.rst``)."""
        done = self.games - self.unfinished
        fair = self.fair_share()
        r = bs.round6
        seats = []
        for p in range(self.players):
            lo, hi = bs.wilson(self.wins[p], done)
            seats.append({"seat": p + 1, "bot": self.specs[p], "wins": self.wins[p],
                          "rate": r(self.wins[p] / done if done else 0.0), "low": r(lo), "high": r(hi)})
        stat, df, pv = bs.chi_square_uniform(self.wins)
        worst = max(range(self.players), key=lambda p: (abs(seats[p]["rate"] - fair), -p))
        w = seats[worst]
        level, text = bs.fairness_verdict(f"seat {worst + 1}", w["rate"], w["low"], w["high"], fair, pv)
        if len(set(self.specs)) > 1:
            text += " (the seats have different bots: this is the bots' difference too)"
        out = {"options": list(self.options), "games": self.games, "finished": done,
               "unfinished": self.unfinished, "fair_share": r(fair),
               "wins": {"seats": seats, "shared_games": self.shared,
                        "test": {"name": "chi-square test of equal wins per seat", "statistic": r(stat),
                                 "df": df, "p_value": r(pv)},
                        "verdict": {"level": level, "text": text}},
               "first_player": self._first(fair), "scores": self._scores(),
               "length": {"decisions": bs.spread(self.decisions), "choices": bs.spread(self.choices)},
               "drama": self._drama(fair), "skill": self._skill()}
        return out

    def _first(self, fair: float) -> Optional[dict]:
        n = sum(self.first_seats)
        if not n:
            return None
        lo, hi = bs.wilson(self.first_wins, n)
        rate = self.first_wins / n
        pv = bs.binom_test(self.first_wins, n, fair)
        level, text = bs.fairness_verdict("the first player", rate, lo, hi, fair, pv)
        r = bs.round6
        return {"games": n, "wins": self.first_wins, "rate": r(rate), "low": r(lo), "high": r(hi),
                "fair_share": r(fair), "test": {"name": "exact binomial test against the fair share",
                                                "p_value": r(pv)},
                "by_seat": list(self.first_seats), "verdict": {"level": level, "text": text}}

    def _scores(self) -> dict:
        r = bs.round6
        edges = bs.histogram([x for t in self.totals for x in t], 30)["edges"]
        total = []
        for p, t in enumerate(self.totals):
            total.append({"seat": p + 1, **bs.spread(t, hist=False),
                          "histogram": bs.bin_counts(t, edges)})
        items = []
        for k, (name, counted) in enumerate(self.items):
            per = []
            for p in range(self.players):
                n, s, q = self.item_seat[k][p]
                m, sd = bs.moments(n, s, q)
                lo, hi = bs.mean_interval(n, m, sd)
                per.append({"seat": p + 1, "games": n, "mean": r(m), "low": r(lo), "high": r(hi)})
            n, s, q = self.item_game[k]
            m, sd = bs.moments(n, s, q)
            lo, hi = bs.mean_interval(n, m, sd)
            items.append({"name": name, "counted": counted, "seats": per,
                          "per_player": {"games": n, "mean": r(m), "sd": r(sd), "low": r(lo), "high": r(hi)}})
        return {"total": total, "histogram_edges": [r(e) for e in edges], "items": items}

    def _drama(self, fair: float) -> Optional[dict]:
        if not self.changes:
            return None
        r = bs.round6
        curve = []
        for f, (n, k) in zip(FRACTIONS, self.at):
            lo, hi = bs.wilson(k, n)
            curve.append({"fraction": r(f), "games": n, "wins": k, "rate": r(k / n if n else 0.0),
                          "low": r(lo), "high": r(hi)})
        some = sum(1 for c in self.changes if c > 0)
        lo, hi = bs.wilson(some, len(self.changes))
        changes = bs.spread(self.changes)
        tt = curve[TWO_THIRDS]
        level, text = bs.drama_verdict(tt["rate"], tt["low"], tt["high"], fair, changes["mean"])
        if not tt["games"]:
            level, text = "unknown", "no game had a single leader at two thirds of its decisions"
        return {"lead_changes": changes,
                "games_with_lead_change": {"games": len(self.changes), "count": some,
                                           "rate": r(some / len(self.changes)), "low": r(lo), "high": r(hi)},
                "leader_wins": curve, "two_thirds": tt, "verdict": {"level": level, "text": text}}

    def _skill(self) -> Optional[dict]:
        s = self.skill
        done = s["games"] - s["unfinished"]
        if not done:
            return None
        r = bs.round6
        fair = s["winners"] / (self.players * done)
        rate = s["wins"] / done
        lo, hi = bs.wilson(s["wins"], done)
        level, text = bs.skill_verdict(STRONG, WEAK, rate, lo, hi, fair, done)
        return {"games": s["games"], "finished": done, "unfinished": s["unfinished"], "strong": STRONG,
                "weak": WEAK, "wins": s["wins"], "rate": r(rate), "low": r(lo), "high": r(hi),
                "fair_share": r(fair), "skill_index": r((rate - fair) / (1 - fair) if fair < 1 else 0.0),
                "test": {"name": "exact binomial test against the fair share",
                         "p_value": r(bs.binom_test(s["wins"], done, fair))},
                "by_seat": [{"seat": p + 1, "games": g, "wins": w} for p, (g, w) in enumerate(s["seats"])],
                "verdict": {"level": level, "text": text}}

    def measures(self) -> list:
        """The figures that ``--compare`` compares: ``(key, label, kind, numbers)``; ``kind`` is
        ``p`` (a proportion: successes, trials) or ``m`` (a mean: count, mean, sd)."""
        done = self.games - self.unfinished
        out = [(f"wins.seat{p + 1}", f"seat {p + 1}'s win rate", "p", (self.wins[p], done))
               for p in range(self.players)]
        out.append(("first_player.rate", "the first player's win rate", "p",
                    (self.first_wins, sum(self.first_seats))))
        for p, t in enumerate(self.totals):
            s = bs.spread(t, hist=False)
            out.append((f"scores.total.seat{p + 1}", f"seat {p + 1}'s mean total", "m",
                        (len(t), s["mean"], s["sd"])))
        for k, (name, _c) in enumerate(self.items):
            n, s, q = self.item_game[k]
            out.append((f"scores.{name}", f"mean {name} per player", "m", (n, *bs.moments(n, s, q))))
        for key in ("decisions", "choices"):
            s = bs.spread(getattr(self, key), hist=False)
            out.append((f"length.{key}", f"{key} per game", "m", (len(getattr(self, key)), s["mean"], s["sd"])))
        s = bs.spread(self.changes, hist=False)
        out.append(("drama.lead_changes", "lead changes per game", "m", (len(self.changes), s["mean"], s["sd"])))
        out.append(("drama.games_with_lead_change", "games with a lead change", "p",
                    (sum(1 for c in self.changes if c > 0), len(self.changes))))
        out.append(("drama.two_thirds", "the leader at two thirds wins", "p",
                    (self.at[TWO_THIRDS][1], self.at[TWO_THIRDS][0])))
        sk = self.skill
        out.append(("skill.rate", f"one {STRONG} bot's win rate", "p", (sk["wins"], sk["games"] - sk["unfinished"])))
        out.append(("unfinished", "unfinished games", "p", (self.unfinished, self.games)))
        return [m for m in out if m[3][1 if m[2] == "p" else 0] > 0]


# ================================================================== the run

@dataclass
class BalanceResult:
    """A balance run: its settings, one figures dict per condition, the comparison, the verdicts."""
    game: str
    path: str
    players: int
    games: int
    seed: int
    bots: list
    options: list
    compare: Optional[str]
    skill_games: int
    max_decisions: int
    results: list                       # Tally.figures() of each condition: without, then with --compare
    comparison: Optional[dict] = None
    elapsed: float = 0.0                # seconds (timing: not part of the figures)
    tallies: list = field(default_factory=list, repr=False)

    def verdicts(self) -> list:
        """The verdicts in words, in the report's order."""
        out = []
        for res in self.results:
            head = "" if not self.compare else f"{'without' if res is self.results[0] else 'with'} {self.compare}: "
            for key in ("wins", "first_player", "drama", "skill"):
                fig = res.get(key)
                if fig:
                    out.append(head + fig["verdict"]["text"])
                elif key == "first_player" and res["finished"]:
                    out.append(head + "no first player: the first choice of every game is made by several "
                                      "players at once (a secret choice or a race)")
            d = res["length"]["decisions"]
            if d["games"]:
                out.append(head + f"games last {d['median']:.0f} decisions (median; 90% of games "
                                  f"between {d['p5']:.0f} and {d['p95']:.0f})")
            if res["unfinished"]:
                out.append(head + f"{res['unfinished']} games passed {self.max_decisions:,} decisions and "
                                  "were stopped (left out of every figure)")
        if self.comparison:
            out.append(self.comparison["verdict"])
        return out

    def to_dict(self) -> dict:
        """The JSON: the same bytes for the same arguments (``timing`` apart, at the end)."""
        return {"catrules_balance": FORMAT, "game": self.game, "path": self.path, "players": self.players,
                "games": self.games, "seed": self.seed, "bots": list(self.bots), "options": list(self.options),
                "compare": self.compare, "skill_games": self.skill_games, "max_decisions": self.max_decisions,
                "verdicts": self.verdicts(), "results": self.results, "comparison": self.comparison,
                "timing": {"elapsed_seconds": round(self.elapsed, 3)}}


def balance(game, players: int, games: int, seed: int = 1, bots: Sequence[str] | str = "random",
            options=(), compare_option: Optional[str] = None, skill_games: int = DEFAULT_SKILL_GAMES,
            max_decisions: Optional[int] = None, jobs: int = 1,
            progress: Optional[Callable[[int, int], None]] = None) -> BalanceResult:
    """Play and measure ``game`` (a loaded game or a file): see the module's documentation.

    ``bots`` is one seat spec for every player or one per player (:func:`catrules.bots.basic.make_seat`);
    ``compare_option`` an option to play the same games with as well; ``progress(done, total)``
    is told as games are done.  The result is the same for every ``jobs``."""
    from .parallel import GameText, WorkerError, map_in_order, resolve_jobs, run_chunk
    if isinstance(game, str) or hasattr(game, "__fspath__"):
        from ..api import load_game
        game = load_game(game)
    for what, v, least in (("number of games", games, 1), ("number of skill games", skill_games, 0)):
        if not isinstance(v, int) or isinstance(v, bool) or v < least:
            raise ValueError(f"the {what} must be a whole number of at least {least}, not {v!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"the seed must be a whole number, not {seed!r}")
    budget = decision_limit(max_decisions)
    workers = resolve_jobs(jobs)
    specs = _seat_specs(bots, players)
    options = sorted(set(options))
    conditions = [tuple(options)]
    if compare_option is not None:
        if compare_option in options:
            raise ValueError(f"--compare {compare_option} is already one of the options: the games are played "
                             "without it and with it")
        conditions.append(tuple(sorted(options + [compare_option])))
    for cond in conditions:
        game.check_start(players, cond)        # a wrong player count or option fails here
    items = [(c, MAIN, i) for c in range(len(conditions)) for i in range(games)]
    items += [(c, SKILL, j) for c in range(len(conditions)) for j in range(skill_games)]
    tallies = [Tally(players, specs, list(c), game.score_items_for(c))
               for c in conditions]
    tell = None if progress is None else (lambda done: progress(done, len(items)))
    start = time.perf_counter()
    try:
        # game 0 once here first: how often to sample the leader, the same for every --jobs
        pilot, failure = run_chunk(PlayBalance(game, players, tuple(specs), tuple(conditions), seed, budget),
                                   0, [items[0]])
        if failure is not None:
            raise failure
        every = max(1, pilot[0][0] // PER_GAME) if pilot[0][2] is not None else 1
        play = PlayBalance(game if workers == 1 else GameText.of(game), players, tuple(specs), tuple(conditions),
                           seed, budget, every)
        for k, rec in enumerate(map_in_order(play, items, workers, None, tell)):
            cond, kind, _i = items[k]
            (tallies[cond].add_main if kind == MAIN else tallies[cond].add_skill)(rec)
    except WorkerError as exc:
        cond, kind, i = items[exc.index]
        which = (f"game {i + 1} of {games} (seed {game_seed(seed, i)})" if kind == MAIN else
                 f"skill game {i + 1} of {skill_games} (seed {game_seed(seed, SKILL_SEED_OFFSET + i)})")
        with_opts = f" with {', '.join(conditions[cond])}" if conditions[cond] else ""
        raise BalanceError(f"{which}{with_opts} stopped: {exc.message}", exc.hint) from None
    elapsed = time.perf_counter() - start
    results = [t.figures() for t in tallies]
    comparison = bs.compare(tallies[0].measures(), tallies[1].measures(), compare_option) if compare_option is not None else None
    return BalanceResult(game.title, str(game.path), players, games, seed, specs, options, compare_option,
                         skill_games, budget, results, comparison, elapsed, tallies)
