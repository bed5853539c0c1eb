"""The PettingZoo ParallelEnv, the Gymnasium single-agent wrapper and the vectorised env (catrules.envs).

They need the ``rl`` extra (in the ``test`` extra); without it they are skipped.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from catrules.errors import CatrulesError, IllegalChoice  # noqa: E402
from catrules.envs.parallel import parallel_env  # noqa: E402
from catrules.envs.single import gym_env, vector_env  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MEOW = str(ROOT / "games" / "meow.cat")
FLAPCAT = str(ROOT / "games" / "flapcat.cat")
BIDS = str(ROOT / "tests" / "games" / "sealed_bids.cat")


@pytest.mark.parametrize("path,players", [(BIDS, 3), (FLAPCAT, 3), (MEOW, 3)])
def test_parallel_api_test(path, players):
    from pettingzoo.test import parallel_api_test
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        parallel_api_test(parallel_env(path, players=players, seed=2), num_cycles=1000)


def test_a_secret_choice_is_one_parallel_step_for_everyone_asked():
    e = parallel_env(BIDS, players=3, seed=1)
    obs, _ = e.reset()
    asked = [a for a in e.agents if obs[a]["action_mask"].any()]
    assert len(asked) == 3                          # everyone bids at once
    before = len(e.game_state.history)
    rng = np.random.default_rng(0)
    actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in e.agents}
    e.step(actions)
    assert len(e.game_state.history) == before + 3
    bad = {a: int(np.flatnonzero(obs[a]["action_mask"] == 0)[0]) for a in e.agents}
    with pytest.raises(IllegalChoice, match="not legal now"):
        e.step(bad)


def test_gymnasium_check_env():
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym_env(MEOW, players=3, seed=1))
        check_env(gym_env(FLAPCAT, players=3, seed=1, opponents=["greedy", "random"], vocabulary="compact"))


def test_the_wrapper_plays_one_seat_against_bots_to_the_end():
    e = gym_env(MEOW, players=3, seat=1, seed=4, illegal="raise")
    obs, info = e.reset(seed=4)
    steps, done, reward = 0, False, 0.0
    while not done:
        d = e.game_state.pending()
        assert any(x.player == 1 for x in d)        # the agent is asked whenever step returns
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, done, _trunc, info = e.step(int(legal[-1]))
        steps += 1
    assert e.game_state.finished and steps > 3
    assert reward == (1.0 / len(e.game_state.winners()) if 1 in e.game_state.winners() else 0.0)
    e.reset()
    with pytest.raises(IllegalChoice):
        e.step(int(np.flatnonzero(e.action_masks() == 0)[0]))
    with pytest.raises(CatrulesError, match="one seat spec for all"):
        gym_env(MEOW, players=3, opponents=["random"])
    with pytest.raises(CatrulesError, match="valid seat specs"):
        gym_env(MEOW, players=3, opponents="wizard")


def test_the_vector_env_steps_copies_together():
    v = vector_env(MEOW, 3, players=3, seed=10)
    obs, info = v.reset(seed=0)
    assert obs.shape[0] == 3 and info["action_mask"].shape[0] == 3
    ends = 0
    for _ in range(200):
        acts = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in info["action_mask"]]
        obs, r, term, trunc, info = v.step(acts)
        ends += int(term.sum())
    assert ends >= 3
