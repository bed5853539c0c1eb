"""Benchmark random playouts: the catrules interpreter against hand-written code.

    python benchmarks/run.py [--games N] [--players P] [--seed S] [--game FILE]
                             [--option NAME ...] [--only interpreter|handwritten]
                             [--all] [--warmup N] [--repeat R] [--json]
    python benchmarks/run.py --feeding [SITUATION] [--repeat R] [--json]

Both sides play the same number of games with the same seeds (S, S+1, ...),
every choice made uniformly at random among the legal options. A *decision*
is a choice among two or more options. The batch of games is timed R times,
the two sides taking turns, and the fastest timing counts; the report also gives
the median of each repeat's own ratio, which a machine whose speed drifts moves less
(``--games 300 --repeat 40`` suits it). A game without a
hand-written baseline (Cat Lady, Flap Cat!) is measured through the interpreter only:
``--game games/catlady.cat --players 2``, or ``--all`` for every entry.

``--feeding`` measures instead Cat Lady's end-of-game feeding (the ``allot``
search) on fixed situations (see catlady_feeding.py): the time per feeding,
the fastest of R timings. See benchmarks/README.md and docs/benchmarks.rst.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
for _p in (str(REPO_ROOT), str(BENCH_DIR)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import catlady_feeding  # noqa: E402  (needs the path set above)
import handwritten_meow  # noqa: E402

# Give up on a playout that makes this many moves without finishing.
MAX_MOVES = 1_000_000


@dataclass
class Entry:
    """One game to measure. ``handwritten`` is a baseline, if one exists:
    play(players, seed, expert) -> {"decisions": int, ...}."""

    name: str
    game: str  # path relative to the repository root
    players: int
    handwritten: Callable[..., dict] | None = None


# Games measured by --all. Add an entry here for each new game file; only
# games with a hand-written baseline get the comparison.
ENTRIES = [
    Entry("meow", "games/meow.cat", 4, handwritten_meow.play_random_game),
    Entry("catlady", "games/catlady.cat", 2),
    Entry("catlady", "games/catlady.cat", 3),
    Entry("catlady", "games/catlady.cat", 4),
    Entry("flapcat", "games/flapcat.cat", 2),
    Entry("flapcat", "games/flapcat.cat", 4),
    Entry("flapcat", "games/flapcat.cat", 6),
]


def entry_for(game: str, players: int) -> Entry:
    """The entry for a --game argument (a known entry keeps its baseline)."""
    wanted = (REPO_ROOT / game).resolve()
    for e in ENTRIES:
        if (REPO_ROOT / e.game).resolve() == wanted:
            return Entry(e.name, e.game, players, e.handwritten)
    return Entry(Path(game).stem, game, players, None)


# --- the interpreter side ---------------------------------------------------

def import_catrules():
    """Import the interpreter, or exit with a message saying what is missing."""
    try:
        import catrules
    except Exception as exc:  # ImportError, or a half-written package
        sys.exit(
            f"run.py: cannot import the interpreter (catrules): {type(exc).__name__}: {exc}\n"
            "Measure only the hand-written baseline with:  python benchmarks/run.py --only handwritten"
        )
    if not hasattr(catrules, "load_game"):
        sys.exit(
            "run.py: catrules has no load_game() yet (the interpreter API is not there).\n"
            "Measure only the hand-written baseline with:  python benchmarks/run.py --only handwritten"
        )
    return catrules


def interpreter_playout(game, players: int, seed: int, options: tuple) -> int:
    """One random playout as ``catrules simulate`` plays it: a match of random bots made by
    ``Match.new`` (the game starts inside the match's run), which answer inside the running game
    (the bot fast path, catrules/play/autoplay.py); returns the decisions made."""
    from catrules.bots.basic import make_seat
    from catrules.play.match import Match
    match = Match.new(game, players, [make_seat("random") for _ in range(players)], seed=seed, options=options)
    state = match.run()
    state.winners(state.scores())  # part of a playout: the result is computed
    return state.decisions


def api_playout(game, players: int, seed: int, options: tuple) -> int:
    """One random playout through the state's API, as a program would drive it (``pending()`` and
    ``apply()``, a decision object per choice); returns the decisions made."""
    state = game.new_state(players=players, seed=seed, options=options)
    rng = random.Random(seed)
    choice = rng.choice
    moves = 0
    while not state.finished:
        pending = state.pending()
        if not pending:
            raise RuntimeError(f"seed {seed}: the game is not finished but nothing is pending")
        d = pending[0]  # pending() may change after each apply
        if d.kind == "race":
            state.apply(d.player, choice(d.options).id, reaction_time=rng.random())
        else:
            state.apply(d.player, choice(d.options).id)
        moves += 1
        if moves > MAX_MOVES:
            raise RuntimeError(f"seed {seed}: no end after {MAX_MOVES} moves")
    state.scores()  # part of a playout: the result is computed
    return state.decisions


def interpreter_runner(catrules, entry: Entry, options: tuple, playout=interpreter_playout):
    """Load the game; return (play(seed) -> decisions, load seconds)."""
    t0 = time.perf_counter()
    game = catrules.load_game(str(REPO_ROOT / entry.game))
    load_s = time.perf_counter() - t0
    return (lambda seed: playout(game, entry.players, seed, options)), load_s


# --- the hand-written side --------------------------------------------------

def handwritten_runner(entry: Entry, options: tuple):
    """Return play(seed) -> decisions for the entry's hand-written baseline."""
    unknown = set(options) - {"expert"}
    if unknown:
        sys.exit(f"run.py: the hand-written {entry.name} knows no option {sorted(unknown)}")
    expert = "expert" in options
    play, players = entry.handwritten, entry.players
    return lambda seed: play(players, seed, expert)["decisions"]


# --- measuring --------------------------------------------------------------

def time_batch(play, games: int, seed: int) -> tuple[float, int]:
    """Play games seed, seed+1, ...; return (seconds, decisions)."""
    decisions = 0
    t0 = time.perf_counter()
    for i in range(games):
        decisions += play(seed + i)
    return time.perf_counter() - t0, decisions


def measure(sides: dict, games: int, seed: int, warmup: int, repeat: int) -> dict:
    """Time each side (name -> play) on the same seeds. The sides take turns
    in every repeat, so that a busy machine slows them alike; the fastest
    repeat counts (as timeit does). Returns name -> (best seconds, decisions, all times)."""
    for play in sides.values():
        for i in range(warmup):
            play(seed - warmup + i)
    times = {name: [] for name in sides}
    decisions = {}
    for _ in range(repeat):
        for name, play in sides.items():
            seconds, dec = time_batch(play, games, seed)
            if name in decisions and decisions[name] != dec:
                raise RuntimeError(f"{name}: the same seeds made {decisions[name]} then {dec} decisions "
                                   "(playouts are not deterministic)")
            decisions[name] = dec
            times[name].append(seconds)
    return {name: (min(times[name]), decisions[name], times[name]) for name in sides}


def _result(entry: Entry, impl: str, games: int, decisions: int, seconds: float, **extra) -> dict:
    return {
        "game": entry.name,
        "file": entry.game,
        "players": entry.players,
        "impl": impl,
        "games": games,
        "seconds": seconds,
        "games_per_s": games / seconds if seconds else float("inf"),
        "decisions": decisions,
        "decisions_per_s": decisions / seconds if seconds else float("inf"),
        "decisions_per_game": decisions / games if games else 0.0,
        **extra,
    }


# --- Cat Lady's feeding -----------------------------------------------------

def run_feeding(args) -> dict:
    """Time the feeding situations of catlady_feeding.py (all, or the one asked for)."""
    catrules = import_catrules()
    game = catrules.load_game(str(REPO_ROOT / catlady_feeding.GAME))
    names = [args.feeding] if args.feeding != "all" else list(catlady_feeding.SITUATIONS)
    if args.search:                  # the search alone, as before the solver (minutes on 18 cats)
        from catrules.allot import search as allot
        allot.USE_SOLVER = False
    return {
        "game": catlady_feeding.GAME,
        "repeat": args.repeat,
        "python": sys.version.split()[0],
        "feeding": [catlady_feeding.time_feeding(game, name, repeat=args.repeat) for name in names],
    }


def print_feeding(report: dict) -> None:
    print(f"Cat Lady's end-of-game feeding ({report['game']}), {catlady_feeding.PLAYERS} players: "
          f"time per feeding,\nbest of {report['repeat']} timings, Python {report['python']}")
    header = f"{'situation':<14} {'holding':<50} {'ms/feeding':>11} {'feedings/s':>11} {'ways':>9}"
    print(header)
    print("-" * len(header))
    for r in report["feeding"]:
        ways = "?" if r["ways"] is None else f"{r['ways']:,}"
        print(f"{r['situation']:<14} {r['description']:<50} {r['seconds'] * 1000:>11.2f} "
              f"{1 / r['seconds'] if r['seconds'] else float('inf'):>11.1f} {ways:>9}")
    print(f"A feeding is 2 passes of one allot per player ({2 * catlady_feeding.PLAYERS} allots); ways: the "
          "complete ways of\nfeeding its searches compared (they prune the rest).")


# --- command line -----------------------------------------------------------

def run(args) -> dict:
    options = tuple(args.option)
    if args.all:
        entries = ENTRIES
    else:
        entries = [entry_for(args.game, args.players)]
    want_interp = args.only in (None, "interpreter")
    want_hand = args.only in (None, "handwritten")
    if args.only == "handwritten" and not any(e.handwritten for e in entries):
        sys.exit(f"run.py: no hand-written baseline for {', '.join(e.game for e in entries)}")
    catrules = import_catrules() if want_interp else None

    results, ratios = [], []
    for entry in entries:
        sides, extra = {}, {}
        if want_interp:
            sides["interpreter"], load_s = interpreter_runner(catrules, entry, options)
            extra["interpreter"] = {"load_seconds": load_s}
            if args.api:
                sides["api"], _load = interpreter_runner(catrules, entry, options, api_playout)
        if want_hand and entry.handwritten is not None:
            sides["handwritten"] = handwritten_runner(entry, options)
        measured = measure(sides, args.games, args.seed, args.warmup, args.repeat)
        got = {}
        for name, (seconds, decisions, all_times) in measured.items():
            got[name] = _result(entry, name, args.games, decisions, seconds,
                                all_seconds=all_times, **extra.get(name, {}))
            results.append(got[name])
        interp, hand = got.get("interpreter"), got.get("handwritten")
        if interp and hand:
            ratios.append({
                "game": entry.name,
                "players": entry.players,
                # how many times slower the interpreter is (per game played)
                "interpreter_over_handwritten": hand["games_per_s"] / interp["games_per_s"],
                # the same per decision; differs if the two count decisions differently
                "per_decision": hand["decisions_per_s"] / interp["decisions_per_s"]
                if interp["decisions"] and hand["decisions"] else None,
                # the median of each repeat's own ratio (the two sides timed one after the
                # other): a machine whose speed drifts moves both sides of a pair alike, so this
                # is steadier than the ratio of the fastest timings; many short repeats suit it
                "paired_median": statistics.median(
                    a / b for a, b in zip(interp["all_seconds"], hand["all_seconds"])),
            })
    return {
        "games": args.games,
        "seed": args.seed,
        "options": list(options),
        "warmup": args.warmup,
        "repeat": args.repeat,
        "python": sys.version.split()[0],
        "results": results,
        "ratios": ratios,
    }


def print_table(report: dict) -> None:
    opts = f", options {', '.join(report['options'])}" if report["options"] else ""
    print(f"{report['games']} games per implementation (seeds {report['seed']}..{report['seed'] + report['games'] - 1}{opts}), "
          f"best of {report['repeat']} timings, Python {report['python']}")
    header = f"{'game':<10} {'pl':>2}  {'implementation':<14} {'seconds':>8} {'games/s':>10} {'decisions/s':>12} {'dec/game':>9}"
    print(header)
    print("-" * len(header))
    for r in report["results"]:
        print(f"{r['game']:<10} {r['players']:>2}  {r['impl']:<14} {r['seconds']:>8.3f} "
              f"{r['games_per_s']:>10.1f} {r['decisions_per_s']:>12.0f} {r['decisions_per_game']:>9.1f}")
        if "load_seconds" in r:
            print(f"{'':<16}({r['file']} loaded in {r['load_seconds'] * 1000:.1f} ms, not timed)")
    for q in report["ratios"]:
        line = f"{q['game']} ({q['players']} players): interpreter is {q['interpreter_over_handwritten']:.1f}x slower than hand-written per game"
        if q["per_decision"] is not None:
            line += f", {q['per_decision']:.1f}x per decision"
        print(line + f" (repeat by repeat, the median ratio: {q['paired_median']:.2f}x)")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description="Random-playout benchmark: interpreter vs hand-written.")
    ap.add_argument("--games", type=int, default=300, help="games measured per implementation (default 300)")
    ap.add_argument("--players", type=int, default=4, help="players (default 4; --all uses each entry's own)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed+i (default 1)")
    ap.add_argument("--game", default="games/meow.cat", help="game file, relative to the repository root")
    ap.add_argument("--option", action="append", default=[], metavar="NAME",
                    help="game option, e.g. --option expert (repeatable)")
    ap.add_argument("--only", choices=("interpreter", "handwritten"), help="measure one side only")
    ap.add_argument("--api", action="store_true",
                    help="also time the interpreter driven through pending()/apply(), one decision "
                         "object per choice (as a program drives it), besides the simulate path")
    ap.add_argument("--all", action="store_true", help="measure every game in the ENTRIES list")
    ap.add_argument("--warmup", type=int, default=10, help="unmeasured games played first (default 10)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="time the games this many times, keep the fastest (default 3)")
    ap.add_argument("--feeding", nargs="?", const="all", choices=["all", *catlady_feeding.SITUATIONS],
                    metavar="SITUATION",
                    help="measure Cat Lady's end-of-game feeding instead of playouts: every situation, "
                         f"or one of: {', '.join(catlady_feeding.SITUATIONS)} (uses --repeat)")
    ap.add_argument("--search", action="store_true",
                    help="with --feeding: the allot search alone, without the solver (slow: minutes on 18 cats)")
    ap.add_argument("--json", action="store_true", help="print a JSON object instead of a table")
    args = ap.parse_args(argv)
    if args.games < 1 or args.repeat < 1 or args.warmup < 0:
        ap.error("--games and --repeat must be at least 1, --warmup at least 0")
    if args.feeding:
        report = run_feeding(args)
        if args.json:
            print(json.dumps(report, indent=2))
        else:
            print_feeding(report)
        return
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)


if __name__ == "__main__":
    main()
