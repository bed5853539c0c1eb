"""OpenSpiel's ISMCTS against catrules' own, on the same games (needs ``catrules[rl]``).

    python benchmarks/openspiel_ismcts.py --games 24 --iterations 100

Meow with three players: one searching seat (seat ``i mod 3`` in game ``i``, seed ``i + 1``)
against two random players, once with OpenSpiel's Python ISMCTS
(``open_spiel.python.algorithms.ismcts``, random rollouts, UCT constant 2, played through
:mod:`catrules.envs.openspiel`) and once with ``ismcts:N`` (``catrules.bots.ismcts``), both with
the same number of iterations per decision.  Reported for each: the searching seat's share of
the wins (a shared win counts ``1/k``) with Wilson's 95% interval, and the CPU time per
decision it searched (``time.process_time``; a decision with one option is not searched by
either).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from ismcts import wilson  # noqa: E402


def theirs(games: int, iterations: int, players: int) -> tuple:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    from catrules.envs.openspiel import register
    name = register(ROOT / "games" / "meow.cat", players=players, name=f"catrules_bench_meow_{players}p")
    share = cpu = 0.0
    moves = 0
    for i in range(games):
        me = i % players
        game = pyspiel.load_game(name, {"seed": i + 1})
        bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=np.random.RandomState(i)), uct_c=2.0, max_simulations=iterations,
            random_state=np.random.RandomState(i + 1000))
        # OpenSpiel's own resampling draws from a sampler it seeds at random: a seeded one here,
        # so that a run can be repeated
        sampler = pyspiel.UniformProbabilitySampler(i + 1, 0.0, 1.0)
        bot._resampler_cb = lambda st, player, sampler=sampler: st.resample_from_infostate(player, sampler)
        rng = random.Random(i)
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() == me and len(legal) > 1:
                t = time.process_time()
                action = bot.step(state)
                cpu += time.process_time() - t
                moves += 1
            else:
                action = rng.choice(legal)
            state.apply_action(action)
        r = state.returns()
        share += r[me] if r[me] > 0 else 0.0      # win reward: 1/k for each of k winners
    return share, cpu / max(1, moves)


def ours(games: int, iterations: int, players: int) -> tuple:
    import catrules
    from catrules.bots.basic import make_seat
    from catrules.play.match import Match
    g = catrules.load_game(ROOT / "games" / "meow.cat")
    share = cpu = 0.0
    moves = 0
    for i in range(games):
        me = i % players
        seats = [make_seat(f"ismcts:{iterations}" if k == me else "random") for k in range(players)]
        bot = seats[me]
        search = bot.search

        def timed(*a, **k):
            nonlocal cpu, moves
            t = time.process_time()
            out = search(*a, **k)
            cpu += time.process_time() - t
            moves += 1
            return out
        bot.search = timed
        st = g.new_state(players, seed=i + 1)
        Match(g, st, seats).run()
        w = st.winners()
        share += 1 / len(w) if me in w else 0.0
    return share, cpu / max(1, moves)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--players", type=int, default=3)
    args = ap.parse_args()
    print(f"Meow, {args.players} players, {args.games} games each: one searching seat "
          f"({args.iterations} iterations a decision) against random players")
    for label, fn in (("OpenSpiel ISMCTS", theirs), ("catrules ismcts", ours)):
        share, per_move = fn(args.games, args.iterations, args.players)
        lo, hi = wilson(share, args.games)
        print(f"  {label:17s} wins {share / args.games:6.1%} (95% interval {lo:.0%} to {hi:.0%}); "
              f"{per_move * 1000:7.1f} ms CPU per decision searched")
    print(f"  a random seat's share: about {1 / args.players:.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
