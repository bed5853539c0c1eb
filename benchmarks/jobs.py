"""How much faster ``simulate --jobs N`` plays than ``--jobs 1``: games/s of each, and their ratio.

    python benchmarks/jobs.py                                   # Meow, 4 players, 2000 games, jobs 1 and 2
    python benchmarks/jobs.py --game games/catlady.cat --games 1000 --jobs 1 2 --repeat 3

Each repeat times every ``--jobs`` value in turn (so that a busy machine slows them alike) and
the fastest run of each is kept.  The time is simulate()'s own, start-up of the workers included;
loading the game file is not timed.  Every run must give the same result, or this stops.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catrules.api import load_game          # noqa: E402
from catrules.lab.simulate import simulate      # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default=str(ROOT / "games" / "meow.cat"))
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    game = load_game(args.game)
    best: dict = {}
    answer = None
    for _ in range(args.repeat):
        for jobs in args.jobs:
            res = simulate(game, args.players, args.games, args.seed, jobs=jobs)
            d = res.to_dict()
            del d["timing"]
            if answer is None:
                answer = d
            elif d != answer:
                print(f"--jobs {jobs} gave another result", file=sys.stderr)
                return 1
            best[jobs] = max(best.get(jobs, 0.0), res.games_per_second)
    base = best[args.jobs[0]]
    print(f"{game.title} ({args.players} players, {args.games} games, best of {args.repeat}):")
    for jobs in args.jobs:
        print(f"  --jobs {jobs}: {best[jobs]:8.1f} games/s   x{best[jobs] / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
