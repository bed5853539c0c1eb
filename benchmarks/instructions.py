"""Machine instructions per game: the interpreter and the hand-written Meow, counted by Valgrind.

Timings on a shared 2-core machine move with its load by 20% or more from one run to the next.
The number of instructions a game takes does not: Valgrind's ``callgrind`` tool counts them
exactly (about 50 times slower than running), the same on a busy machine as on a quiet one.
Each side plays ``--games`` random games and, in a second run, ``--games`` more; the difference
of the two counts, divided by the games, leaves out Python's start-up and the loading of the game.

    python benchmarks/instructions.py                         # Meow, 4 players, both sides
    python benchmarks/instructions.py --game games/catlady.cat --only interpreter

Needs ``valgrind`` (Debian: ``apt-get install valgrind``).  The ratio of instructions is close
to the ratio of times in ``run.py`` on a quiet machine, not the same (instructions differ in cost).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

INTERPRETER = """
import sys
import catrules
from catrules.bots.basic import make_seat
from catrules.play.match import Match
game = catrules.load_game(sys.argv[1])
players, first, n = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
for seed in range(first, first + n):
    st = Match.new(game, players, [make_seat("random") for _ in range(players)], seed=seed).run()
    st.winners(st.scores())
"""

HANDWRITTEN = """
import sys
sys.path.insert(0, {bench!r})
import handwritten_meow
players, first, n = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
for seed in range(first, first + n):
    handwritten_meow.play_random_game(players, seed)
"""


def count(script: str, game: str, players: int, games: int) -> int:
    """Instructions of a run of ``script`` playing ``games`` games (start-up included)."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", script, game, str(players), "1", str(games)],
                         capture_output=True, text=True, cwd=ROOT)
    m = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or m is None:
        sys.exit(f"instructions.py: the run failed:\n{out.stderr[-2000:]}")
    return int(m.group(1))


def per_game(script: str, game: str, players: int, games: int) -> float:
    return (count(script, game, players, 2 * games) - count(script, game, players, games)) / games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="games/meow.cat", help="game file (default: games/meow.cat)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=50, help="games per run (default 50; two runs a side)")
    ap.add_argument("--only", choices=("interpreter", "handwritten"))
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py: valgrind is missing (Debian: apt-get install valgrind)")
    # load the game once first, so that the counted runs find it in the cache of checked games
    subprocess.run([sys.executable, "-c", "import catrules, sys; catrules.load_game(sys.argv[1])", args.game],
                   cwd=ROOT, check=True)
    rows = []
    if args.only != "handwritten":
        rows.append(("interpreter", per_game(INTERPRETER, args.game, args.players, args.games)))
    if args.only != "interpreter":
        if Path(args.game).name != "meow.cat":
            sys.exit("instructions.py: the hand-written side is Meow only (use --only interpreter)")
        rows.append(("hand-written", per_game(HANDWRITTEN.format(bench=str(ROOT / "benchmarks")), args.game,
                                              args.players, args.games)))
    print(f"{args.game}, {args.players} players, instructions per random game:")
    for name, n in rows:
        print(f"  {name:13s} {n / 1e6:8.2f} million")
    if len(rows) == 2:
        print(f"  ratio         {rows[0][1] / rows[1][1]:8.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
