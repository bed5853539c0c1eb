"""Train a small agent for Meow (4 players) against random bots, then measure it against random.

The agent plays seat 1 of ``catrules.envs.single.gym_env``; the three other seats are catrules'
random bots.  NumPy only.  Its policy is a softmax over the legal actions (the action mask), each
action scored from the observation vector alone:

* a card's action (``c<k>`` in the vocabulary) is scored by its attribute values (the card's row
  of the observation's ``card attributes`` segment) times a weight matrix times a summary of the
  table: the ``attributes by slot`` segment, the attributes of the first card of each slot (from
  the ``cards`` and ``places`` segments: the token at stake in Meow), and the ``decision``
  segment; so what is learnt for one card carries over to the cards that look like it;
* every action has a bias of its own.

It learns by REINFORCE with a baseline: a decision's return is the final lead over the best other
player (``reward="score"``) minus the lead the ``scores`` segment showed when it was taken (what
happened after it), less the running mean of those returns; Adam, a batch of games per update.

Then it plays ``--eval-games`` new games, always its most likely legal action, and a random
agent plays the same games (same seeds) in the same seat: the report gives both win shares with
95% Wilson intervals (a fair share is 25%).  Run from the repository's folder::

    python docs/examples/rl_train_meow.py --episodes 8000 --eval-games 2000
"""

import argparse
import math
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # one small product at a time: threads only wait
os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402  (after the thread settings)

from catrules.envs.encoding import final_returns  # noqa: E402
from catrules.envs.single import gym_env  # noqa: E402

GAME, PLAYERS = "games/meow.cat", 4


class Reader:
    """Reads the parts of an observation vector the policy uses, by the encoder's segments."""

    def __init__(self, env):
        enc, setup = env.setup.encoder, env.setup
        seg = {name: (start, start + length) for name, start, length in enc.segments}
        self.seg, self.players, self.features = seg, env.players, len(enc.features)
        self.cards = (seg["places"][1] - seg["places"][0]) // 2
        self.slots = (seg["cards"][1] - seg["cards"][0]) // self.cards - 1
        self.card_of = np.array([int(a[1:]) if a[:1] == "c" and a[1:].isdigit() else -1 for a in setup.actions])

    def part(self, obs, name):
        a, b = self.seg[name]
        return obs[a:b]

    def attributes(self, obs):
        """Per action, the attribute values of its card (zeros for an action that is not a card)."""
        per_card = self.part(obs, "card attributes").reshape(self.cards, self.features)
        rows = np.zeros((len(self.card_of), self.features), np.float32)
        is_card = self.card_of >= 0
        rows[is_card] = per_card[self.card_of[is_card]]
        return rows

    def table(self, obs):
        """The summary of the table the card's attributes are weighed against."""
        where = self.part(obs, "cards").reshape(self.cards, self.slots + 1)[:, :self.slots]
        position = self.part(obs, "places")[0::2] * self.cards           # then its line: [1::2]
        first = where * np.isclose(position, 1.0)[:, None]                  # card k is first in slot s
        per_card = self.part(obs, "card attributes").reshape(self.cards, self.features)
        return np.concatenate([self.part(obs, "attributes by slot"), (first.T @ per_card).ravel(),
                               self.part(obs, "decision"), [1.0]]).astype(np.float32)

    def lead(self, obs, seat):
        scores = self.part(obs, "scores")[:self.players]
        return float(scores[seat] - max(np.delete(scores, seat)))


class Policy:
    """Softmax over the legal actions of ``bias[a] + attributes[a] @ w @ table``."""

    def __init__(self, reader, actions):
        self.reader = reader
        self.w = np.zeros((reader.features, len(reader.table(np.zeros(reader.seg["attributes by slot"][1])))),
                          np.float32)
        self.bias = np.zeros(actions, np.float32)

    def inputs(self, obs):
        return self.reader.attributes(obs), self.reader.table(obs)

    def probabilities(self, inputs, mask):
        rows, table = inputs
        z = self.bias + rows @ (self.w @ table)
        z = np.where(mask > 0, z - z[mask > 0].max(), -np.inf)
        p = np.exp(z)
        return p / p.sum()

    def gradient(self, inputs, mask, action):
        """d log p(action) / d (w, bias)."""
        rows, table = inputs
        g = -self.probabilities(inputs, mask)
        g[action] += 1.0
        return np.outer(g @ rows, table), g


class Adam:
    def __init__(self, params, lr):
        self.lr, self.t = lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def ascend(self, params, grads):
        self.t += 1
        for p, g, m, v in zip(params, grads, self.m, self.v):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p += self.lr * (m / (1 - 0.9 ** self.t)) / (np.sqrt(v / (1 - 0.999 ** self.t)) + 1e-8)


def play(env, reader, seed, choose):
    """One game; ``choose(obs, mask)`` picks the action.  Returns (steps, final lead, win share)."""
    obs, info = env.reset(seed=seed)
    steps, done, final = [], False, 0.0
    while not done:
        mask = info["action_mask"]
        a = choose(obs, mask)
        steps.append((obs, mask, a, reader.lead(obs, env.seat)))
        obs, final, done, _, info = env.step(a)
    return steps, final, final_returns(env.game_state, "win")[env.seat]


def train(env, reader, policy, episodes, batch, lr, rng):
    """REINFORCE with a running-mean baseline over the decisions' returns (what happened after each)."""
    adam = Adam([policy.w, policy.bias], lr)
    baseline, scale = 0.0, 10.0
    grad_w, grad_b = np.zeros_like(policy.w), np.zeros_like(policy.bias)

    def sample(obs, mask):
        return int(rng.choice(len(mask), p=policy.probabilities(policy.inputs(obs), mask)))

    for ep in range(episodes):
        steps, final, _ = play(env, reader, 10_000 + ep, sample)
        for obs, mask, a, lead in steps:
            ret = final - lead
            gw, gb = policy.gradient(policy.inputs(obs), mask, a)
            grad_w += (ret - baseline) / scale * gw
            grad_b += (ret - baseline) / scale * gb
            baseline += 0.001 * (ret - baseline)
            scale += 0.001 * (abs(ret - baseline) - scale)
        if (ep + 1) % batch == 0:
            adam.ascend([policy.w, policy.bias], [grad_w / batch, grad_b / batch])
            grad_w[:], grad_b[:] = 0.0, 0.0


def evaluate(env, reader, games, choose):
    """The win share over ``games`` games (seeds 1, 2, ...)."""
    return sum(play(env, reader, seed, choose)[2] for seed in range(1, games + 1)) / games


def wilson(share, n, z=1.96):
    """The 95% Wilson interval of a share out of n games."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=8000, help="training games (default 8000)")
    ap.add_argument("--eval-games", type=int, default=2000, help="games to measure each agent (default 2000)")
    ap.add_argument("--batch", type=int, default=8, help="games per update (default 8)")
    ap.add_argument("--lr", type=float, default=0.01, help="Adam's step size (default 0.01)")
    ap.add_argument("--seed", type=int, default=1, help="the random seed of the learner (default 1)")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    env = gym_env(GAME, players=PLAYERS, seat=0, opponents="random", reward="score")
    reader = Reader(env)
    policy = Policy(reader, env.action_space.n)
    start = time.perf_counter()
    train(env, reader, policy, args.episodes, args.batch, args.lr, rng)
    trained = time.perf_counter() - start

    def best(obs, mask):
        return int(np.argmax(np.where(mask > 0, policy.probabilities(policy.inputs(obs), mask), -1.0)))

    other = np.random.default_rng([args.seed, 1])            # the baseline's own: whatever training drew
    agent = evaluate(env, reader, args.eval_games, best)
    chance = evaluate(env, reader, args.eval_games, lambda obs, mask: int(other.choice(np.flatnonzero(mask))))
    n = args.eval_games
    print(f"Meow, {PLAYERS} players, seat 1 against 3 random bots; a fair share is 25%")
    print(f"training: {args.episodes} games in {trained:.0f} s")
    for name, share in (("trained agent", agent), ("random agent", chance)):
        lo, hi = wilson(share, n)
        print(f"{name:14} wins {share:6.1%} of {n} games (95% interval {lo:.1%} to {hi:.1%})")
    print(f"total time: {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
