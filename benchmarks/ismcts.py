"""How well the ISMCTS bot plays, and how fast it searches.

    python benchmarks/ismcts.py --game games/meow.cat --games 400 --jobs 2
    python benchmarks/ismcts.py --game games/catlady.cat --games 100 --bot ismcts:300
    python benchmarks/ismcts.py --speed      # iterations per second, every game, with and without a horizon
    python benchmarks/ismcts.py --speed --repeat 3   # the fastest of three runs of each
    python benchmarks/ismcts.py --speed --src ../old --src . --games-from ../old --repeat 3
                                                     # two checkouts in turns, the same game files

One ISMCTS seat (``--bot``, default ``ismcts:1s``: a second of work a decision) against greedy seats (``--others``): game ``i`` uses seed ``i + 1`` and puts
the ISMCTS seat at seat ``i mod players``, so every seat is played as often (the first
player's advantage, if any, is shared out).  Reported: the ISMCTS seat's share of the wins
(a shared win counts ``1/k``), with its 95% interval (Wilson's, on the games it won outright
or shared), against ``1/players``, the share of a seat no better than the others, and the
mean wall-clock seconds of its searches.
``--speed`` reports the search's iterations per CPU second in each seed game, without and with
a horizon of 40 decisions: the first eight searches (``--searches``) of the bot at seat 1 against
three random players, seed 1 (CPU time, as the machine is shared; ``--repeat K`` keeps the
fastest of ``K`` runs of the same searches, the one least slowed by the machine's load).
``--src DIR`` (repeated) compares checkouts in the same run: each figure is measured by a Python
of its own with that checkout's ``catrules`` first on the path, the checkouts taking turns
(``--repeat`` rounds, the fastest of each kept), and the last column is the last checkout's
figure over the first's.  ``--games-from DIR`` plays that checkout's game files in all of them
(an older catrules cannot read a newer file; a newer one reads the older files).  A goal such
as "twice as many iterations a second as at commit X" is measured this way, X checked out
beside this tree, never against a figure taken on another day: the machine's speed moves by a
third from day to day.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not os.environ.get("PYTHONPATH"):      # PYTHONPATH=/other/tree: measure that tree's catrules
    sys.path.insert(0, str(ROOT))

import catrules  # noqa: E402
try:
    from catrules.bots.basic import make_seat  # noqa: E402
    from catrules.play.match import Match  # noqa: E402
    from catrules.lab.parallel import GameText, map_in_order  # noqa: E402
except ImportError:     # a checkout from before the packages (6f83de1, when issue 27 was filed), for --src
    from catrules.bots import make_seat  # noqa: E402
    from catrules.match import Match  # noqa: E402
    from catrules.parallel import GameText, map_in_order  # noqa: E402


class PlayOne:
    """One game (picklable, for ``--jobs``): ``(seed, seat of the bot, its win share, iterations,
    seconds, searches)``."""

    def __init__(self, text: GameText, players: int, bot: str, others: str):
        self.text, self.players, self.bot, self.others = text, players, bot, others

    def __call__(self, i: int) -> tuple:
        g = self.text.load()
        me = i % self.players
        seats = [make_seat(self.bot if k == me else self.others) for k in range(self.players)]
        its = secs = 0.0
        searches = 0
        bot = seats[me]
        search = bot.search

        def counted(*a, **k):
            nonlocal its, secs, searches
            out = search(*a, **k)
            its += bot.last["iterations"]
            secs += bot.last["seconds"]
            searches += 1
            return out
        bot.search = counted
        st = g.new_state(self.players, seed=i + 1)
        Match(g, st, seats).run()
        w = st.winners()
        return i + 1, me, (1 / len(w) if me in w else 0.0), its, secs, searches


class _Enough(BaseException):
    """Enough searches measured."""


def speed(g, spec: str, searches: int) -> tuple:
    """(iterations, CPU seconds, searches) of the first ``searches`` searches of ``spec`` at seat 1
    against three random players, seed 1 (CPU time: the machine is shared)."""
    seats = [make_seat(spec)] + [make_seat("random") for _ in range(3)]
    bot, its, secs, n = seats[0], 0, 0.0, 0
    search = bot.search

    def counted(*a, **k):
        nonlocal its, secs, n
        t = time.process_time()
        out = search(*a, **k)
        its, secs, n = its + bot.last["iterations"], secs + time.process_time() - t, n + 1
        if n >= searches:
            raise _Enough
        return out
    bot.search = counted
    try:
        Match(g, g.new_state(4, seed=1), seats).run()
    except _Enough:
        pass
    return its, secs, n


GAMES = ("meow", "catlady", "flapcat")
BOTS = ("ismcts:200", "ismcts:200:40")


def speeds(games_dir: Path, searches: int, repeat: int = 1) -> dict:
    """``{"GAME BOT": [iterations per CPU second, searches]}`` for every seed game and both bots,
    the fastest of ``repeat`` runs (the same searches each time: the fastest run is the one least
    slowed by the load)."""
    out = {}
    for name in GAMES:
        g = catrules.load_game(games_dir / f"{name}.cat")
        for bot in BOTS:
            its, secs, n = min((speed(g, bot, searches) for _ in range(repeat)), key=lambda r: r[1])
            out[f"{name} {bot}"] = [its / secs, n]
    return out


def compare(srcs: list, games_from, searches: int, repeat: int) -> None:
    """The checkouts ``srcs`` in turns, ``repeat`` rounds: the fastest figure of each, and the
    last checkout's over the first's."""
    best: list = [{} for _ in srcs]
    for r in range(repeat):
        for k, src in enumerate(srcs):
            games_dir = (games_from or src) / "games"
            cmd = [sys.executable, str(Path(__file__).resolve()), "--speed-json", str(games_dir),
                   "--searches", str(searches)]
            run = subprocess.run(cmd, cwd=src, env={**os.environ, "PYTHONPATH": str(src)},
                                 capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"ismcts.py: {src}: {run.stderr.strip()[-1500:]}")
            for key, (v, _n) in json.loads(run.stdout.splitlines()[-1]).items():
                best[k][key] = max(v, best[k].get(key, 0.0))
            print(f"  round {r + 1} of {repeat}: {src} done", file=sys.stderr, flush=True)
    print(f"iterations per CPU second (the first {searches} searches of seed 1 against 3 random, "
          f"the fastest of {repeat} runs); columns: " + ", ".join(str(s) for s in srcs))
    for key in best[0]:
        figures = [b[key] for b in best]
        ratio = f"  x{figures[-1] / figures[0]:.2f}" if len(figures) > 1 else ""
        print(f"  {key:24s} " + "  ".join(f"{f:8.0f}" for f in figures) + ratio)


def wilson(k: float, n: int, z: float = 1.96) -> tuple:
    """Wilson's 95% interval for ``k`` successes in ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, mid - half), min(1.0, mid + half))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="games/meow.cat")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--start", type=int, default=0, help="the first game's number (to split a long run)")
    ap.add_argument("--bot", default="ismcts:1s")
    ap.add_argument("--others", default="greedy")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--speed", action="store_true", help="iterations per second, every game of games/")
    ap.add_argument("--searches", type=int, default=8, help="with --speed: the searches measured per game")
    ap.add_argument("--repeat", type=int, default=1, help="with --speed: runs per figure, the fastest kept "
                    "(a loaded machine only slows a run down)")
    ap.add_argument("--src", action="append", type=Path,
                    help="with --speed: a checkout to measure (repeat to compare them in turns)")
    ap.add_argument("--games-from", type=Path, help="with --src: play this checkout's game files in every checkout")
    ap.add_argument("--speed-json", type=Path, help=argparse.SUPPRESS)   # one run, for --src
    args = ap.parse_args()
    if args.speed_json:
        print(json.dumps(speeds(args.speed_json, args.searches)))
        return 0
    if args.speed and args.src:
        compare([p.resolve() for p in args.src], args.games_from.resolve() if args.games_from else None,
                args.searches, args.repeat)
        return 0
    if args.speed:
        print(f"catrules from {Path(catrules.__file__).parent.parent}")
        best = f", the fastest of {args.repeat} runs" if args.repeat > 1 else ""
        for key, (rate, n) in speeds(ROOT / "games", args.searches, args.repeat).items():
            name, bot = key.split()
            print(f"{name:8s} {rate:8.0f} iterations per CPU second  ({bot} against 3 random, "
                  f"the first {n} searches of seed 1{best})")
        return 0
    g = catrules.load_game(args.game)
    t0 = time.time()
    rows = []
    for r in map_in_order(PlayOne(GameText.of(g), args.players, args.bot, args.others), range(args.start, args.start + args.games),
                          args.jobs):
        rows.append(r)
        print(f"  game {r[0]}: seat {r[1] + 1}, won {r[2]:g}, {r[5]} searches, {r[4]:.0f} s searching", file=sys.stderr, flush=True)
        if len(rows) % 10 == 0:
            share = sum(x[2] for x in rows) / len(rows)
            print(f"  {len(rows)} games: {share:.1%}", file=sys.stderr, flush=True)
    n = len(rows)
    share = sum(r[2] for r in rows) / n
    lo, hi = wilson(share * n, n)
    its, secs = sum(r[3] for r in rows), sum(r[4] for r in rows)
    first = f" (games {args.start + 1} to {args.start + n})" if args.start else ""
    print(f"{g.title}, {args.players} players, {n} games{first}: {args.bot} against {args.players - 1}x {args.others}")
    print(f"  wins {share:.1%} = {share * n:g} of {n} (95% interval {lo:.1%} to {hi:.1%}); a seat no better than the others: "
          f"{1 / args.players:.1%}")
    for seat in range(args.players):
        sub = [r[2] for r in rows if r[1] == seat]
        if sub:
            print(f"  at seat {seat + 1}: {sum(sub) / len(sub):.1%} of {len(sub)}")
    searches = sum(r[5] for r in rows)
    print(f"  search: {its / secs:.0f} iterations/s; {secs / max(1, searches):.2f} s (wall) a search on average "
          f"over {searches} searches; {time.time() - t0:.0f} s in all with --jobs {args.jobs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
