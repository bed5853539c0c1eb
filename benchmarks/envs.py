"""Env steps per second: catrules games through OpenSpiel and PettingZoo/Gymnasium, against
OpenSpiel's own C++ hearts, in the same Python loop (random legal actions).

    python benchmarks/envs.py [--seconds 10]

Each row: the loop ``while not terminal: apply_action(random legal action)``; then the same loop
reading the information-state tensor of the player to act at every step, as an RL agent would
(hearts has no observation tensor; both give an information-state tensor).
A step is one decision answered (a chance outcome counts as a step for OpenSpiel's hearts).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402

from catrules.envs.openspiel import register  # noqa: E402
from catrules.envs.single import gym_env  # noqa: E402


def spiel_loop(game, seconds: float, observe: bool) -> float:
    rng = random.Random(0)
    steps, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                if observe:
                    state.information_state_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.process_time() - t0)


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
    ap.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per row")
    a = ap.parse_args(argv)
    rows = [("OpenSpiel hearts (C++)", lambda o: spiel_loop(pyspiel.load_game("hearts"), a.seconds, o))]
    for path, n in [("games/meow.cat", 4), ("games/catlady.cat", 3), ("games/flapcat.cat", 4)]:
        g = pyspiel.load_game(register(str(ROOT / path), players=n, chance="deal", vocabulary="compact"))
        rows.append((f"catrules {Path(path).stem} {n}p (OpenSpiel)", lambda o, g=g: spiel_loop(g, a.seconds, o)))
    print(f"{'env':38} {'steps/s':>10} {'with info tensor':>18}")
    for name, fn in rows:
        print(f"{name:38} {fn(False):10,.0f} {fn(True):18,.0f}", flush=True)
    e = gym_env(str(ROOT / "games/meow.cat"), players=4, seed=0)
    print(f"{'catrules meow 4p (Gymnasium, 3 random bots)':38} {gym_loop(e, a.seconds):10,.0f} {'(always)':>18}")


if __name__ == "__main__":
    main()
