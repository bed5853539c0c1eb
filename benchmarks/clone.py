"""Benchmark State.clone: microseconds per clone of mid-game states of each shipped game.

    python benchmarks/clone.py [--states N] [--clones K] [--repeat R] [--playouts G] [--json]

For each entry, N mid-game states are made by random play (seeds 1..N, each stopped
half-way through its game: at half the decisions the same seed's whole game makes);
each state is cloned K times, R timings, the fastest counts.  Reported: µs per clone,
and µs per clone that then draws from the game's random source once (a copy-on-write
source pays its copy then, so both are shown), and the time of G whole random playouts
(games/s) so that a slower per-draw random source would show.  See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

ENTRIES = [("meow", "games/meow.cat", 4), ("catlady", "games/catlady.cat", 3),
           ("flapcat", "games/flapcat.cat", 4), ("flapcat", "games/flapcat.cat", 6)]


def play(state, rng: random.Random, stop: int | None = None) -> int:
    """Random play until the end (or ``stop`` decisions); returns the decisions made."""
    while not state.finished and (stop is None or state.decisions < stop):
        d = state.pending()[0]
        state.apply(d.player, rng.choice(d.options).id, rng.random() if d.timed else None)
    return state.decisions


def mid_game_states(game, players: int, count: int) -> list:
    out = []
    for seed in range(1, count + 1):
        whole = play(game.new_state(players=players, seed=seed), random.Random(seed))
        st = game.new_state(players=players, seed=seed)
        play(st, random.Random(seed), whole // 2)
        out.append(st)
    return out


def best_us(fn, states: list, clones: int, repeat: int) -> float:
    """The fastest of ``repeat`` timings, in µs per call of ``fn(state)``."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for st in states:
            for _ in range(clones):
                fn(st)
        best = min(best, time.perf_counter() - t0)
    return best / (len(states) * clones) * 1e6


def clone_and_draw(st) -> None:
    st.clone().rng.random()


def playouts(game, players: int, games: int, repeat: int) -> float:
    """Games per second of ``games`` random playouts (seeds 1..games), best of ``repeat``."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for seed in range(1, games + 1):
            st = game.new_state(players=players, seed=seed)
            play(st, random.Random(seed))
            st.scores()
        best = min(best, time.perf_counter() - t0)
    return games / best


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description="State.clone benchmark")
    ap.add_argument("--states", type=int, default=20, help="mid-game states per game (default 20)")
    ap.add_argument("--clones", type=int, default=200, help="clones of each state per timing (default 200)")
    ap.add_argument("--repeat", type=int, default=5, help="timings, the fastest counts (default 5)")
    ap.add_argument("--playouts", type=int, default=50, help="whole playouts timed per game (default 50)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args(argv)
    import catrules
    rows = []
    for name, path, players in ENTRIES:
        game = catrules.load_game(str(REPO_ROOT / path))
        states = mid_game_states(game, players, args.states)
        rows.append({
            "game": name, "players": players,
            "clone_us": best_us(lambda s: s.clone(), states, args.clones, args.repeat),
            "clone_draw_us": best_us(clone_and_draw, states, args.clones, args.repeat),
            "playouts_per_s": playouts(game, players, args.playouts, max(1, args.repeat // 2)),
        })
    if args.json:
        print(json.dumps({"python": sys.version.split()[0], **vars(args), "results": rows}, indent=2))
        return
    print(f"{args.states} mid-game states per game x {args.clones} clones, best of {args.repeat}; "
          f"{args.playouts} playouts; Python {sys.version.split()[0]}")
    print(f"{'game':<8} {'pl':>2} {'µs/clone':>9} {'µs/clone+draw':>14} {'playouts/s':>11}")
    for r in rows:
        print(f"{r['game']:<8} {r['players']:>2} {r['clone_us']:>9.1f} {r['clone_draw_us']:>14.1f} "
              f"{r['playouts_per_s']:>11.1f}")


if __name__ == "__main__":
    main()
