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
bot wins, and by how much it outrates them on the skill ladder (:mod:`catrules.lab.ladder`:
the Bradley–Terry rating gap from the games' final rankings, with its bootstrap interval).  With ``compare`` every game is played again, same seeds, with that option on.

Every game is one item of :func:`catrules.lab.parallel.map_in_order` (all in one pool), merged in
order into a :class:`Tally` per condition; :meth:`Tally.figures` gives the figures (with the
intervals and tests of :mod:`catrules.lab.stats`), and :class:`BalanceResult` the JSON,
the verdicts and the text.  The report is drawn by :mod:`catrules.lab.report`.
Nothing here knows a game: seats, scores and the leader come from the game file.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from . import stats as bs
from ..bots.basic import make_seat
from ..errors import CatrulesError, OverBudget
from ..play.match import Match
from .simulate import SimulationError, _seat_specs, decision_budget, decision_limit, game_seed
from .tally import FRACTIONS, STRONG, TWO_THIRDS, WEAK, Tally  # noqa: F401 - FRACTIONS, TWO_THIRDS: names of here too
from .choices import dominant_verdicts
from .option_conditions import option_settings
from .ladder import places
from .turns import TurnMap, Watch

#: Skill games played by default (one greedy bot against random ones, its seat turning).
DEFAULT_SKILL_GAMES = 200
#: Skill game ``j`` uses the seed of game ``SKILL_SEED_OFFSET + j`` of the simulation.
SKILL_SEED_OFFSET = 500_000
#: Samples of the leader kept per game before every other one is dropped.
MARKS = 40
#: Samples of the leader aimed at in a game as long as game 0.
PER_GAME = 30
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
        if st.no_way_out is not None:
            raise OverBudget(self.budget, st.no_way_out)
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


def _number(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


@dataclass(frozen=True)
class Condition:
    """One way of playing the games of a run: which game (an index into the run's games), how
    many players, which options, the seat specs, and whether the specs turn round the table
    (game ``i`` seats spec ``(p + i) % players`` at seat ``p``: each rotation equally often)."""
    game: int
    players: int
    options: tuple
    specs: tuple
    rotate: bool = False
    label: str = ""

    def seats(self, i: int) -> list:
        n = self.players
        return [self.specs[(p + i) % n] for p in range(n)] if self.rotate else list(self.specs)


_MAPS: dict = {}


def turn_map(game):
    """The game's :class:`~catrules.lab.turns.TurnMap`, made once per loaded game."""
    got = _MAPS.get(id(game))
    if got is None or got[0] is not game:
        if len(_MAPS) > 8:
            _MAPS.clear()
        got = _MAPS[id(game)] = (game, TurnMap(game))
    return got[1]


@dataclass(frozen=True)
class PlayBalance:
    """Plays one game of a balance run, anywhere (picklable).  An item is ``(condition, kind, i)``:
    ``conditions[condition]`` is a :class:`Condition`, ``kind`` is :data:`MAIN` or :data:`SKILL`."""
    games: tuple
    conditions: tuple
    seed: int
    budget: int
    every: tuple = ()           # per condition: the leader is sampled every so many decisions (at first)

    def __call__(self, item: tuple) -> tuple:
        cond, kind, i = item
        c = self.conditions[cond]
        game = self.games[c.game]
        game = game.load() if hasattr(game, "load") else game
        if kind == MAIN:
            return self._main(game, c, i, self.every[cond] if self.every else 1)
        return self._skill(game, c, i)

    def _main(self, game, c: Condition, i: int, every: int) -> tuple:
        """``(decisions, choices, totals, items, winners, first, lead changes, codes, main loop,
        turns per player, answers)``; totals None for a game stopped by the budget."""
        # a log: the step-by-step path, where the watch sees each decision (the same game)
        st = game.new_state(c.players, seed=game_seed(self.seed, i), options=c.options, log=True)
        watch = Watch(st, turn_map(game), Tracker(st, self.budget, every))
        watch.look()
        try:
            Match(game, st, [make_seat(x) for x in c.seats(i)]).run(watch)
        except OverBudget:
            return st.decisions, len(st.history), None, None, (), -1, 0, (), None, (), ()
        if not st.finished:
            raise CatrulesError("the game stopped before its end")
        watch.look()
        rows = st.scores()
        won = tuple(st.winners(rows))
        names = [n for n, _c in game.score_items_for(st.options)]
        totals = tuple(_number(r["total"]) for r in rows)
        items = tuple(tuple(_number(r.get(n)) for n in names) for r in rows)
        changes, codes = watch.inner.drama(won)
        loop, first, turns = watch.summary(c.players)
        return (st.decisions, len(st.history), totals, items, won, first, changes, codes, loop, turns,
                watch.choice_counts())

    def _skill(self, game, c: Condition, j: int) -> tuple:
        """``(the strong bot's seat, winners, places)``; winners and places None for a game stopped by
        the budget (places: :func:`catrules.lab.ladder.places`, for the rating gap)."""
        strong = j % c.players
        seats = [make_seat(STRONG if p == strong else WEAK) for p in range(c.players)]
        # Match.new: bots alone start on the fast path, the same game as new_state + Match
        m = Match.new(game, c.players, seats, seed=game_seed(self.seed, SKILL_SEED_OFFSET + j),
                      options=c.options)
        st = m.state
        try:
            m.run(decision_budget(st, self.budget))
        except OverBudget:
            return strong, None, None
        if not st.finished:
            raise CatrulesError("the game stopped before its end")
        rows = st.scores()
        won = tuple(st.winners(rows))
        return strong, won, places(st, rows, won)


# ================================================================== the run

#: With ``bots="auto"``: greedy bots when the run's games, played by them, come to at most this
#: many decisions (game 0 played once by greedy bots times the games), else random ones.  A
#: count, not a time, so the same arguments choose the same bots on every machine.
AUTO_DECISIONS = 200_000


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
    results: list                       # Tally.figures() of each condition (see ``labels``)
    comparison: Optional[dict] = None
    elapsed: float = 0.0                # seconds (timing: not part of the figures)
    tallies: list = field(default_factory=list, repr=False)
    labels: list = field(default_factory=list)
    bots_note: str = ""
    sweep: Optional[dict] = None
    rotation: Optional[dict] = None
    choices: list = field(default_factory=list)

    def verdicts(self) -> list:
        """The verdicts in words, in the report's order."""
        out = []
        many = len(self.results) > 1
        for res, label, prompts in zip(self.results, self.labels, self.choices or [[]] * len(self.results)):
            head = f"{label}: " if many else ""
            for key in ("wins", "first_player", "drama", "skill"):
                fig = res.get(key)
                if fig:
                    out.append(head + fig["verdict"]["text"])
                    if key == "first_player" and fig.get("positions"):
                        out.append(head + position_text(fig["positions"]))
                elif key == "first_player" and res["finished"]:
                    out.append(head + "no first player: the first choice of the game's main loop is made by "
                                      "several players at once (a secret choice or a race)")
            d = res["length"]["decisions"]
            if d["games"]:
                out.append(head + f"games last {d['median']:.0f} decisions (median; 90% of games "
                                  f"between {d['p5']:.0f} and {d['p95']:.0f})")
            if res["unfinished"]:
                out.append(head + f"{res['unfinished']} games passed {self.max_decisions:,} decisions and "
                                  "were stopped (left out of every figure)")
            out += [head + v for v in dominant_verdicts(prompts)]
        if self.comparison:
            out.append(self.comparison["verdict"])
        if self.rotation:
            out.append(self.rotation["verdict"])
        return out

    def to_dict(self) -> dict:
        """The JSON: the same bytes for the same arguments (``timing`` apart, at the end)."""
        return {"catrules_balance": FORMAT, "game": self.game, "path": self.path, "players": self.players,
                "games": self.games, "seed": self.seed, "bots": list(self.bots), "options": list(self.options),
                "compare": self.compare, "skill_games": self.skill_games, "max_decisions": self.max_decisions,
                "verdicts": self.verdicts(), "results": self.results, "comparison": self.comparison,
                "conditions": list(self.labels), "bots_note": self.bots_note, "sweep": self.sweep,
                "rotation": self.rotation, "choices": self.choices,
                "timing": {"elapsed_seconds": round(self.elapsed, 3)}}


def position_text(positions: list) -> str:
    """The win rate and the turns of each turn position, in words."""
    parts = [f"position {p['position']} wins {bs.pct(p['rate'])} [{bs.pct(p['low'])}, {bs.pct(p['high'])}] "
             f"taking {p['turns']['mean']:.2f} turns [{p['turns']['low']:.2f}, {p['turns']['high']:.2f}]"
             for p in positions]
    return "by turn position (seat order from the first player): " + "; ".join(parts)


def _load(game):
    if isinstance(game, str) or hasattr(game, "__fspath__"):
        from ..api import load_game
        return load_game(game)
    return game


def _conditions(games: list, players, specs: list, options: list, compare_option, sweep_option,
                sweep_players) -> tuple:
    """The conditions of a run and their labels (see :func:`balance`)."""
    base = Condition(0, players, tuple(options), tuple(specs))
    conds, labels = [base], ["options: " + (", ".join(options) or "none")]
    option = compare_option or sweep_option
    if option is not None:
        settings = option_settings(games[0], options, option)
        conds = [Condition(0, players, tuple(o), tuple(specs)) for o, _label in settings]
        labels = [label for _o, label in settings]
    elif len(games) > 1:
        conds.append(Condition(1, players, tuple(options), tuple(specs)))
        labels = [str(g.path) for g in games]
    elif sweep_players:
        if len(set(specs)) > 1:
            raise ValueError("a sweep of player counts needs one bot for every seat")
        conds = [Condition(0, n, tuple(options), (specs[0],) * n) for n in sweep_players]
        labels = [f"{n} players" for n in sweep_players]
    if len(set(specs)) > 1 and len(conds) == 1:
        conds.append(Condition(0, players, tuple(options), tuple(specs), rotate=True))
        labels = ["seats as given", "seats rotated"]
    for c in conds:
        games[c.game].check_start(c.players, c.options)        # a wrong player count or option fails here
    return conds, labels


def balance(game, players: int, games: int, seed: int = 1, bots: Sequence[str] | str = "random",
            options=(), compare_option: Optional[str] = None, skill_games: int = DEFAULT_SKILL_GAMES,
            max_decisions: Optional[int] = None, jobs: int = 1,
            progress: Optional[Callable[[int, int], None]] = None, compare_game=None,
            sweep_option: Optional[str] = None, sweep_players: Sequence[int] = ()) -> BalanceResult:
    """Play and measure ``game`` (a loaded game or a file): see the module's documentation.

    ``bots`` is one seat spec for every player or one per player (:func:`catrules.bots.basic.make_seat`),
    or ``"auto"``: greedy bots when the run is small enough for them (:data:`AUTO_DECISIONS`),
    else random ones.  ``compare_option`` an option to play the same games with as well;
    ``compare_game`` another game file played on the same seeds; ``sweep_option`` an option
    off and on, ``sweep_players`` each player count.  Seat specs that differ are played as
    given and rotated too.  ``progress(done, total)`` is told as games are done.  The result
    is the same for every ``jobs``."""
    from .parallel import resolve_jobs
    game = _load(game)
    for what, v, least in (("number of games", games, 1), ("number of skill games", skill_games, 0)):
        if not isinstance(v, int) or isinstance(v, bool) or v < least:
            raise ValueError(f"the {what} must be a whole number of at least {least}, not {v!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"the seed must be a whole number, not {seed!r}")
    if sum(x is not None and x != () for x in (compare_option, compare_game, sweep_option)) + bool(sweep_players) > 1:
        raise ValueError("compare or sweep one thing at a time")
    budget = decision_limit(max_decisions)
    workers = resolve_jobs(jobs)
    the_games = [game] + ([_load(compare_game)] if compare_game is not None else [])
    auto = bots == "auto"
    specs = _seat_specs("greedy" if auto else bots, players)
    options = game.normal_options(options)
    conds, labels = _conditions(the_games, players, specs, options, compare_option, sweep_option, sweep_players)
    start = time.perf_counter()
    note = ""
    if auto:
        pilot = _pilot(the_games, conds[0], seed, budget, games)
        work = pilot * games * len(conds)
        if work <= AUTO_DECISIONS:
            note = (f"greedy bots (the default where they finish in reasonable time: about {work:,} "
                    f"decisions of greedy play, at most {AUTO_DECISIONS:,})")
        else:
            specs = ["random"] * players
            conds = [Condition(c.game, c.players, c.options, ("random",) * c.players) for c in conds]
            note = (f"random bots (greedy bots would play about {work:,} decisions, more than the default's "
                    f"{AUTO_DECISIONS:,}: give --bots greedy to use them anyway)")
    every = tuple(max(1, _pilot(the_games, c, seed, budget, games) // PER_GAME) for c in conds)
    tallies = _play(the_games, conds, seed, budget, every, games, skill_games, workers, progress)
    elapsed = time.perf_counter() - start
    results = [t.figures() for t in tallies]
    comparison = None
    if len(conds) == 2 and (compare_option is not None or compare_game is not None):
        what = compare_option if compare_option is not None else f"{the_games[1].path} instead"
        comparison = bs.compare(tallies[0].measures(), tallies[1].measures(), what)
    sweep = sweep_table(results, labels, tallies) if (sweep_option or sweep_players) else None
    if sweep is not None and sweep_option and sweep_option.partition("=")[0] in game.option_values:
        sweep["option"] = sweep_option          # an option with values: what the command line said
    rotation = rotation_check(results) if any(c.rotate for c in conds) else None
    return BalanceResult(game.title, str(game.path), players, games, seed, specs, options,
                         compare_option or (str(the_games[1].path) if compare_game is not None else None),
                         skill_games, budget, results, comparison, elapsed, tallies, labels, note, sweep,
                         rotation, [t.choice.figures() for t in tallies])


def _pilot(games: list, c: Condition, seed: int, budget: int, n: int) -> int:
    """The decisions of game 0 of condition ``c`` (played here, the same for every ``--jobs``)."""
    from .parallel import run_chunk
    out, failure = run_chunk(PlayBalance(tuple(games), (c,), seed, budget), 0, [(0, MAIN, 0)])
    if failure is not None:
        with_opts = f" with {', '.join(c.options)}" if c.options else ""
        raise BalanceError(f"game 1 of {n} (seed {game_seed(seed, 0)}){with_opts} stopped: {failure.message}",
                           failure.hint)
    return out[0][0]


def _play(games: list, conds: list, seed: int, budget: int, every: tuple, n: int, skill_games: int,
          workers: int, progress) -> list:
    """Every game of every condition, merged in order into one :class:`Tally` per condition."""
    from .parallel import GameText, WorkerError, map_in_order
    items = [(c, MAIN, i) for c in range(len(conds)) for i in range(n)]
    items += [(c, SKILL, j) for c in range(len(conds)) for j in range(skill_games)]
    tallies = [Tally(c.players, list(c.specs) if not c.rotate else ["rotated"] * c.players, list(c.options),
                     games[c.game].score_items_for(c.options), turn_map(games[c.game])) for c in conds]
    tell = None if progress is None else (lambda done: progress(done, len(items)))
    shipped = tuple(games) if workers == 1 else tuple(GameText.of(g) for g in games)
    play = PlayBalance(shipped, tuple(conds), seed, budget, every)
    try:
        for k, rec in enumerate(map_in_order(play, items, workers, None, tell)):
            cond, kind, _i = items[k]
            (tallies[cond].add_main if kind == MAIN else tallies[cond].add_skill)(rec)
    except WorkerError as exc:
        cond, kind, i = items[exc.index]
        which = (f"game {i + 1} of {n} (seed {game_seed(seed, i)})" if kind == MAIN else
                 f"skill game {i + 1} of {skill_games} (seed {game_seed(seed, SKILL_SEED_OFFSET + i)})")
        c = conds[cond]
        with_opts = f" with {', '.join(c.options)}" if c.options else ""
        if c.game:
            with_opts += f" of {games[c.game].path}"
        raise BalanceError(f"{which}{with_opts} stopped: {exc.message}", exc.hint) from None
    return tallies


def sweep_table(results: list, labels: list, tallies: list) -> dict:
    """The response table of a sweep: one row per condition, its main figures with intervals."""
    rows = []
    for res, label, t in zip(results, labels, tallies):
        fp = res["first_player"]
        d = res["length"]["decisions"]
        c = res["length"]["choices"]
        rows.append({"condition": label, "players": t.players, "options": res["options"],
                     "fair_share": res["fair_share"],
                     "first_player": None if not fp else {k: fp[k] for k in ("rate", "low", "high")},
                     "seats": [{k: s[k] for k in ("seat", "rate", "low", "high")} for s in res["wins"]["seats"]],
                     "decisions": {k: d.get(k) for k in ("mean", "low", "high")},
                     "choices": {k: c.get(k) for k in ("mean", "low", "high")},
                     "lead_changes": (res["drama"] or {}).get("lead_changes", {}).get("mean")})
    return {"rows": rows}


def rotation_check(results: list) -> dict:
    """Seats as given against seats rotated: does the seat effect belong to the bots?"""
    given, rotated = results[0]["wins"], results[-1]["wins"]
    a, b = given["verdict"]["level"] == "unfair", rotated["verdict"]["level"] == "unfair"
    if a and not b:
        text = ("warning: the bots, not the game, explain the seat imbalance: with the seats as given "
                f"{given['verdict']['text']}; with the bots' seats rotated (each rotation equally often) "
                "no seat is clearly favoured")
    elif a and b:
        text = "the seat imbalance stays with the bots' seats rotated: it is the game's, not the bots'"
    elif b:
        text = "with the bots' seats rotated a seat is favoured: " + rotated["verdict"]["text"]
    else:
        text = "no seat is clearly favoured, with the seats as given or rotated"
    return {"given": given["verdict"]["level"], "rotated": rotated["verdict"]["level"], "verdict": text}
