"""OpenSpiel with chance nodes (``chance="deal"``): serialisation, the deal, the information-state tensor.

They need the ``rl`` extra (in the ``test`` extra); without it they are skipped.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from catrules.errors import CatrulesError  # noqa: E402
from catrules.envs import encoding  # noqa: E402
from catrules.envs.openspiel import register  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MEOW = str(ROOT / "games" / "meow.cat")
FLAPCAT = str(ROOT / "games" / "flapcat.cat")
BIDS = str(ROOT / "tests" / "games" / "sealed_bids.cat")
RACE = str(ROOT / "tests" / "games" / "race.cat")


def dealt(path, players, **kw):
    return pyspiel.load_game(register(path, players=players, chance="deal", **kw))


@pytest.mark.parametrize("path,players,sims", [(MEOW, 3, 2), (BIDS, 3, 2), (RACE, 3, 4), (FLAPCAT, 2, 1)])
def test_random_sim_test_with_serialization(path, players, sims):
    pyspiel.random_sim_test(dealt(path, players), num_sims=sims, serialize=True, verbose=False)


def test_the_deal_is_a_chance_node_over_game_seeds():
    game = pyspiel.load_game(register(BIDS, players=3, chance="deal", deals=7), {"seed": 100})
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.max_chance_outcomes() == 7
    state = game.new_initial_state()
    assert state.is_chance_node() and state.engine_state() is None
    outcomes = state.chance_outcomes()
    assert [a for a, _p in outcomes] == list(range(7)) and sum(p for _a, p in outcomes) == pytest.approx(1)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "deal 3 (game seed 103)"
    state.apply_action(3)
    assert not state.is_chance_node() and state.engine_state().seed == 103
    with pytest.raises(CatrulesError, match="'sampled'.*'deal'"):
        register(BIDS, players=3, chance="every draw")
    with pytest.raises(CatrulesError, match="deals must be"):
        register(BIDS, players=3, chance="deal", deals=0, name="catrules_bids_no_deals")


def play(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("path,players,steps", [(MEOW, 3, 25), (FLAPCAT, 2, 30)])
def test_a_serialised_state_comes_back_the_same_and_plays_on_the_same(path, players, steps):
    game = dealt(path, players)
    state = play(game.new_initial_state(), random.Random(1), steps)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, back = pyspiel.deserialize_game_and_state(text)
    assert str(back) == str(state) and back.history() == state.history()
    for p in range(players):
        assert back.information_state_string(p) == state.information_state_string(p)
        assert back.information_state_tensor(p) == state.information_state_tensor(p)
    # the random sources came back too: both play on to the same end
    a, b = play(state, random.Random(2), 10 ** 5), play(back, random.Random(2), 10 ** 5)
    assert str(a) == str(b) and a.returns() == b.returns()


def test_the_information_state_tensor_remembers_the_players_own_history():
    game = dealt(MEOW, 3)
    sp = encoding.spec(MEOW, 3)
    size = game.information_state_tensor_size()
    state = play(game.new_initial_state(), random.Random(4), 1)     # dealt
    memory = game.new_initial_state().get_game().setup.memory
    assert size == sp.encoder.size + memory.size
    at = sp.encoder.size + dict((n, s) for n, s, _l in memory.segments)["my decisions"]
    acts = sp.encoder.size + dict((n, s) for n, s, _l in memory.segments)["my actions"]
    chosen, others, rng = [], 0, random.Random(5)
    while not state.is_terminal() and len(chosen) < 6:       # early: no choice is forced yet
        p = state.current_player()
        a = rng.choice(state.legal_actions())
        if p == 0:
            chosen.append(a)
        others += p == 1
        state.apply_action(a)
    x = np.array(state.information_state_tensor(0))
    assert len(x) == size
    assert x[at] == len(chosen)
    for a in set(chosen):
        assert x[acts + a] == chosen.count(a)
    assert x[acts:acts + sp.num_actions].sum() == len(chosen)
    assert np.array(state.information_state_tensor(1))[at] == others
    # a state resampled for player 1 gives player 1 the same tensor
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0., 1.))
    assert other.information_state_tensor(0) == state.information_state_tensor(0)


@pytest.mark.parametrize("chance", ["deal", "sampled"])
def test_legal_actions_and_chance_answered_in_python_are_pyspiels(chance):
    """``legal_actions`` (of the player to act, of each player, of chance) and ``is_chance_node``,
    answered in Python for the player to act, are what pyspiel's C++ answers, at every step."""
    game = pyspiel.load_game(register(BIDS, players=3, chance=chance, name=f"legal_test_bids_{chance}"))
    state = game.new_initial_state()
    rng = random.Random(3)
    steps = 0
    while not state.is_terminal():
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for p in range(3):
            assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert steps > 3 and state.legal_actions() == pyspiel.State.legal_actions(state) == []
    assert not state.is_chance_node()
