"""Env steps per second: catrules games through OpenSpiel and PettingZoo/Gymnasium, against
OpenSpiel's own C++ hearts, in the same Python loop (random legal actions).

    python benchmarks/envs.py [--seconds 10] [--repeat 1]

Each row: the loop ``while not terminal: apply_action(random legal action)``; then the same loop
reading the information-state tensor of the player to act at every step, as an RL agent would
(hearts has no observation tensor; both give an information-state tensor): as pyspiel's list of
floats, then (catrules games registered with ``tensors="array"``) as a read-only array that is
not copied (hearts' tensor is always a list).  ``--bound``: also the same loop working out only
the running score at every step (``core.setup.running.rows``, the part of the tensor that the
engine's end rules and score cost), the most a catrules row could reach with a tensor costing
nothing else.
A step is one decision answered (a chance outcome counts as a step for OpenSpiel's hearts).
``--repeat K``: each figure is the best of K runs (the one least slowed by other work on the machine).
Hearts' figure with its tensor is timed again before each game's row and the best of all is the
ratios' base, so a load that changes during the run cannot flatter a ratio.

For counts of instructions, which other work on the machine does not change, ``--fixed PATH``
plays a fixed workload instead: ``--games K`` games of the game file (4 players; deals 0 to K-1,
the same random actions), reading the tensor as ``--tensor`` says (``none``, ``list``, ``array``)::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/envs.py --fixed games/meow.cat --games 10 --tensor list

The games are played inside ``functools.reduce`` (after one state made outside it, and its
tensor read when the games read theirs), so that adding ``--collect-atstart=no
--toggle-collect=functools_reduce`` to valgrind's options counts the games alone, without loading
the game and its environment, nor what is built at the first look (the score's code, written
and compiled once per game file).
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402

from catrules.envs.openspiel import register  # noqa: E402
from catrules.envs.single import gym_env  # noqa: E402


def spiel_loop(game, seconds: float, observe, running: bool = False) -> float:
    rng = random.Random(0)
    steps, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                if running:
                    core = state._core
                    if core.rows is None:
                        core.rows = [core.setup.running.rows(core.st, core.kept)]
                elif observe:
                    state.information_state_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.process_time() - t0)


def fixed(path: str, games: int, tensor: str) -> int:
    """Play ``games`` games of ``path`` (4 players, deals 0, 1...), reading the tensor or not; the steps."""
    g = pyspiel.load_game(register(str(ROOT / path), players=4, chance="deal", vocabulary="compact",
                                   tensors="array" if tensor == "array" else "list"))
    first = g.new_initial_state()                   # (made once before the games: see above)
    first.apply_action(0)
    if tensor != "none":        # what is built at the first look (the score's code), built outside
        first.information_state_tensor(first.current_player())

    def play(_a, _b) -> int:
        rng, steps = random.Random(0), 0
        for k in range(games):
            state = g.new_initial_state()
            state.apply_action(k)
            while not state.is_terminal():
                if tensor != "none":
                    state.information_state_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return functools.reduce(play, [0, 0])


def gym_loop(env, seconds: float) -> float:
    import numpy as np
    rng = np.random.default_rng(0)
    steps, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        _obs, info = env.reset()
        done = False
        while not done:
            _obs, _r, done, _t, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
    return steps / (time.process_time() - t0)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per run")
    ap.add_argument("--repeat", type=int, default=1, help="runs per figure, the best kept")
    ap.add_argument("--bound", action="store_true", help="also the loop working out only the running score")
    ap.add_argument("--fixed", metavar="PATH", help="a fixed workload of this game file instead (see above)")
    ap.add_argument("--games", type=int, default=10, help="games of the fixed workload")
    ap.add_argument("--tensor", choices=("none", "list", "array"), default="list", help="what it reads")
    a = ap.parse_args(argv)
    if a.fixed:
        print("steps", fixed(a.fixed, a.games, a.tensor))
        return

    def best(fn, *args) -> float:
        return max(fn(*args) for _ in range(max(a.repeat, 1)))

    rows = [("OpenSpiel hearts (C++)", pyspiel.load_game("hearts"), None)]
    for path, n in [("games/meow.cat", 4), ("games/catlady.cat", 3), ("games/flapcat.cat", 4)]:
        g, ga = (pyspiel.load_game(register(str(ROOT / path), players=n, chance="deal", vocabulary="compact",
                                            tensors=t)) for t in ("list", "array"))
        rows.append((f"catrules {Path(path).stem} {n}p (OpenSpiel)", g, ga))
    print(f"{'env':38} {'steps/s':>10} {'with info tensor':>18} {'as arrays':>10}" +
          (f" {'step + running score':>21}" if a.bound else ""))
    seen, arrays, bounds = {}, {}, {}
    for name, g, ga in rows:
        raw, tensor = best(spiel_loop, g, a.seconds, False), best(spiel_loop, g, a.seconds, True)
        seen[name] = tensor
        if ga is not None:
            # hearts timed again next to each game, the best kept: a load that changes during the
            # run slows hearts' figure as it slows the game's, and never flatters the ratio
            h = rows[0][0]
            seen[h] = max(seen[h], best(spiel_loop, rows[0][1], a.seconds, True))
        if ga is not None:
            arrays[name] = best(spiel_loop, ga, a.seconds, True)
        if a.bound and ga is not None:
            bounds[name] = best(spiel_loop, g, a.seconds, False, True)
        shown = f"{arrays[name]:10,.0f}" if name in arrays else f"{'(list)':>10}"
        bound = f" {bounds[name]:21,.0f}" if name in bounds else ""
        print(f"{name:38} {raw:10,.0f} {tensor:18,.0f} {shown}{bound}", flush=True)
    e = gym_env(str(ROOT / "games/meow.cat"), players=4, seed=0)
    print(f"{'catrules meow 4p (Gymnasium, 3 random bots)':38} {best(gym_loop, e, a.seconds):10,.0f} {'(always)':>18}")
    hearts = seen[rows[0][0]]
    print(f"hearts with its tensor, the best of its {len(rows)} turns: {hearts:,.0f} steps/s")
    for what, figures in (("with the tensor (lists)", seen), ("with the tensor (arrays)", arrays),
                          ("step + running score only", bounds)):
        if not figures:
            continue
        print(f"{what}, against hearts' list (the goal: 1/3 or more): " +
              ", ".join(f"{name.split(' (')[0].removeprefix('catrules ')} {v / hearts:.2f}"
                        for name, v in figures.items() if name != rows[0][0]))


if __name__ == "__main__":
    main()
