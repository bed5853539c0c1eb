"""Games per second with greedy bots: one greedy bot and three random ones, and four greedy bots.

    python benchmarks/greedy.py                      # this checkout, every game, both seatings
    python benchmarks/greedy.py --src ../old --src . # two checkouts, taking turns (before/after)
    python benchmarks/greedy.py --src ../old --src . --games-from ../old --only catlady
                                                     # both playing the old checkout's game files

The time is the CPU time of the process that plays (``time.process_time``), best of
``--repeat`` runs: on a shared machine it moves less than the time on the clock.  Game ``i`` of
a run uses seed ``i + 1``, so every checkout plays the same deals (not the same games once the
bots differ).  Each checkout runs in a Python of its own, with that checkout's ``catrules``
first on the path and its own game files, or those of ``--games-from`` (a game whose rules
changed since the old checkout costs what its new rules cost: to compare the code alone, play
the old files in both, which a newer catrules still reads).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (game file, games per run) for each seating: the slow ones play fewer games.
GAMES = {"greedy+3 random": [("meow", 60), ("catlady", 24), ("flapcat", 8)],
         "4 greedy": [("meow", 16), ("catlady", 6), ("flapcat", 2)]}

PLAY = """
import json, sys, time
import catrules
try:
    from catrules.bots.basic import make_seat
    from catrules.play.match import Match
except ImportError:             # a checkout from before the packages (fc76f60)
    from catrules.bots import make_seat
    from catrules.match import Match
seats, game, n, repeat = json.loads(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
g = catrules.load_game(game)
best = None
for _ in range(repeat):
    t0 = time.process_time()
    for seed in range(1, n + 1):
        st = g.new_state(len(seats), seed=seed)
        Match(g, st, [make_seat(x) for x in seats]).run()
    t = time.process_time() - t0
    best = t if best is None else min(best, t)
print(n / best)
"""


def games_per_second(src: Path, seats: list, game: str, n: int, repeat: int, games_from=None) -> float:
    path = (games_from or src) / "games" / f"{game}.cat"
    out = subprocess.run([sys.executable, "-c", PLAY, json.dumps(seats), str(path), str(n), str(repeat)],
                         cwd=src, env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"greedy.py: {src}: {out.stderr.strip()[-1500:]}")
    return float(out.stdout.split()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", action="append", type=Path,
                    help="a checkout to measure (repeat to compare; default: this one)")
    ap.add_argument("--repeat", type=int, default=2, help="runs per figure, the best kept (default 2)")
    ap.add_argument("--games-from", type=Path, help="play this checkout's game files in every checkout")
    ap.add_argument("--only", action="append", choices=["meow", "catlady", "flapcat"], help="only this game (repeat)")
    args = ap.parse_args()
    srcs = [p.resolve() for p in (args.src or [ROOT])]
    print(f"games per second (CPU time, best of {args.repeat}); columns: " + ", ".join(str(s) for s in srcs))
    for seating, games in GAMES.items():
        seats = ["greedy"] * 4 if seating == "4 greedy" else ["greedy", "random", "random", "random"]
        for game, n in games:
            if args.only and game not in args.only:
                continue
            games_from = args.games_from.resolve() if args.games_from else None
            figures = [games_per_second(src, seats, game, n, args.repeat, games_from) for src in srcs]
            ratio = f"  x{figures[-1] / figures[0]:.2f}" if len(figures) > 1 else ""
            print(f"  {game:8s} {seating:16s} " + "  ".join(f"{f:8.2f}" for f in figures) + ratio)
    return 0


if __name__ == "__main__":
    sys.exit(main())
