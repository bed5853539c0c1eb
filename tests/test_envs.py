"""The RL environments (catrules.envs): PettingZoo's api_test, OpenSpiel's random simulation
test, what observations hide, determinism, action masks, resampling and OpenSpiel's ISMCTS.

They need the ``rl`` extra (in the ``test`` extra, so CI runs them); without it they are skipped.
"""

from __future__ import annotations

import contextlib
import io
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

import catrules  # noqa: E402
from catrules.errors import CatrulesError, IllegalChoice  # noqa: E402
from catrules.envs import encoding  # noqa: E402
from catrules.envs.openspiel import register  # noqa: E402
from catrules.envs.pettingzoo import env  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MEOW = str(ROOT / "games" / "meow.cat")
FLAPCAT = str(ROOT / "games" / "flapcat.cat")         # races and secret choices
BIDS = str(ROOT / "tests" / "games" / "sealed_bids.cat")   # secret choices
RACE = str(ROOT / "tests" / "games" / "race.cat")     # races
LINES = str(ROOT / "tests" / "games" / "lines.cat")   # places in zones of lines


def quiet(fn, *args, **kw):
    """Run a test of PettingZoo's (it prints, and warns about dict observations as it does for
    its own card games)."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def test_the_core_imports_none_of_the_extra():
    code = ("import sys, catrules, catrules.envs, catrules.cli\n"
            "bad = [m for m in ('numpy', 'pettingzoo', 'gymnasium', 'pyspiel') if m in sys.modules]\n"
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# ------------------------------------------------------------------ PettingZoo

@pytest.mark.parametrize("path,players", [(MEOW, 4), (BIDS, 3), (FLAPCAT, 3), (RACE, 2)])
def test_pettingzoo_api_test(path, players):
    from pettingzoo.test import api_test
    e = env(path, players=players, seed=3)
    quiet(api_test, e, num_cycles=1000)


@pytest.mark.parametrize("path,players", [(MEOW, 3), (FLAPCAT, 3)])
def test_pettingzoo_is_deterministic_for_a_seed(path, players):
    from pettingzoo.test.seed_test import check_environment_deterministic
    quiet(check_environment_deterministic, env(path, players=players), env(path, players=players), 500)
    a, b = env(path, players=players, seed=5), env(path, players=players, seed=5)
    for e in (a, b):
        e.reset()
        rng = random.Random(1)
        for agent in e.agent_iter():
            obs, _r, term, trunc, _i = e.last()
            e.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert a.game_state.to_dict() == b.game_state.to_dict()
    assert a.game_state.history and a.game_state.seed == b.game_state.seed


@pytest.mark.parametrize("path,players", [(MEOW, 4), (FLAPCAT, 3), (LINES, 2)])
def test_masks_are_the_legal_options_and_rewards_the_result(path, players):
    e = env(path, players=players, seed=11, reward="score")
    e.reset()
    rng = random.Random(2)
    steps = 0
    while not e.game_state.finished:
        agent = e.agent_selection
        st = e.game_state
        d = st.pending()[0]
        assert agent == f"player_{d.player + 1}"
        obs = e.observe(agent)
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert [e.spec.actions[i] for i in legal] == sorted((o.id for o in d.options), key=e.spec.index.get)
        for other in e.possible_agents:         # nobody else may act now
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        e.step(rng.choice(legal))
        steps += 1
    totals = [r["total"] for r in e.game_state.scores()]
    for p, agent in enumerate(e.possible_agents):
        lead = totals[p] - max(t for q, t in enumerate(totals) if q != p)
        assert e._cumulative_rewards[agent] == pytest.approx(lead)
    assert steps > 0


def test_a_wrong_action_is_refused_and_named():
    e = env(MEOW, players=3, seed=1)
    e.reset()
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalChoice, match=r"is not legal now; legal: .*action_mask"):
        e.step(illegal)


def test_text_observation_and_render():
    e = env(BIDS, players=3, seed=1, render_mode="ansi")
    e.reset()
    text = e.render()
    assert "what player 1 sees" in text and "to decide (secret)" in text
    assert text == e.observation_text()
    assert "not seen" in text                   # the others' hands


def test_wrong_settings_say_what_to_do():
    with pytest.raises(CatrulesError, match="'win'.*'score'"):
        env(MEOW, players=3, reward="money")
    with pytest.raises(CatrulesError, match="2 to 6 players"):
        env(MEOW, players=9)
    with pytest.raises(CatrulesError, match="render_mode"):
        env(MEOW, players=3, render_mode="rgb_array")
    with pytest.raises(CatrulesError, match="asked nobody anything"):
        env(ROOT / "docs" / "examples" / "minimal.cat", players=2)


# ------------------------------------------------------------- hidden stays hidden

@pytest.mark.parametrize("path,players,games", [(MEOW, 4, 3), (BIDS, 3, 3), (FLAPCAT, 3, 1)])
def test_an_observation_does_not_depend_on_what_the_player_cannot_see(path, players, games):
    """A twin of the state, the cards player p cannot see dealt again (everything else the same),
    gives p the same vector and text; the twins do differ, and others see the difference."""
    sp = encoding.spec(path, players)
    game = catrules.load_game(path)
    compared = twins_differ = others_see_it = 0
    for seed in range(games):
        st = game.new_state(players, seed=seed)
        rng = random.Random(seed)
        while not st.finished:
            for p in range(players):
                twin = st.sample_for(p, random.Random(compared), keep_future=True)
                mine, its = st.view(p), twin.view(p)
                assert np.array_equal(sp.encoder.encode(mine), sp.encoder.encode(its))
                assert sp.encoder.text(mine) == sp.encoder.text(its)
                compared += 1
                if twin.z != st.z:
                    twins_differ += 1
                    q = (p + 1) % players
                    if not np.array_equal(sp.encoder.encode(st.view(q)), sp.encoder.encode(twin.view(q))):
                        others_see_it += 1
            d = st.pending()[0]
            encoding.answer(st, d, rng.choice(d.options).id)
    assert compared > 100 and twins_differ > compared // 4 and others_see_it > 0


# ------------------------------------------------------------------ OpenSpiel

@pytest.mark.parametrize("path,players,sims", [(MEOW, 3, 2), (BIDS, 3, 3), (RACE, 3, 5), (FLAPCAT, 2, 1)])
def test_openspiel_random_sim_test(path, players, sims):
    game = pyspiel.load_game(register(path, players=players))
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_openspiel_registration():
    name = register(MEOW, players=3)
    assert name == "catrules_meow_3p" and register(MEOW, players=3) == name
    game = pyspiel.load_game(name)
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.num_distinct_actions() == encoding.spec(MEOW, 3).num_actions
    with pytest.raises(CatrulesError, match="another name="):
        register(MEOW, players=3, reward="score", name=name)
    assert register(MEOW, players=3, reward="score") == "catrules_meow_3p_score"


def play_out(state, rng):
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_openspiel_is_deterministic_and_returns_the_result():
    name = register(BIDS, players=3)
    a, b = (pyspiel.load_game(name, {"seed": 4}) for _ in range(2))
    sa, sb = (play_out(g.new_initial_state(), random.Random(0)) for g in (a, b))
    assert str(sa) == str(sb) and sa.history() == sb.history()
    assert sum(sa.returns()) == pytest.approx(1.0)
    st = sa.engine_state()
    winners = st.winners()
    assert [r > 0 for r in sa.returns()] == [p in winners for p in range(3)]
    assert st.seed == 4
    # the next state of a game object plays the next seed
    assert a.new_initial_state().engine_state().seed == 5


@pytest.mark.parametrize("path,players", [(BIDS, 3), (RACE, 3), (MEOW, 3), (FLAPCAT, 2)])
def test_resample_from_infostate_keeps_what_the_player_knows(path, players):
    game = pyspiel.load_game(register(path, players=players))
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    rng = random.Random(3)
    state = game.new_initial_state()
    checked = differ = 0
    while not state.is_terminal():
        for p in range(players):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.current_player() == state.current_player()
            differ += str(other) != str(state)
            checked += 1
        if rng.random() < 0.2:                  # a sample plays on to the end
            play_out(state.resample_from_infostate(state.current_player(), sampler), rng)
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 10 and differ > checked // 2


def test_openspiel_ismcts_plays_catrules_games():
    from open_spiel.python.algorithms import ismcts, mcts
    for path, players, moves in [(BIDS, 3, 4), (MEOW, 4, 1)]:
        game = pyspiel.load_game(register(path, players=players), {"seed": 2})
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
        bot = ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=20,
                               random_state=np.random.RandomState(1))
        state = game.new_initial_state()
        for _ in range(moves):
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)


# ------------------------------------------------------------------ vocabulary

def test_the_game_file_alone_gives_every_option_but_places():
    """Without exploring, the vocabulary of games without zones of lines already holds every
    option that random games offer (cards, players, menu labels, symbols, rows and columns)."""
    for path, players in [(MEOW, 4), (ROOT / "games" / "catlady.cat", 3), (BIDS, 3),
                          (ROOT / "tests" / "games" / "eights.cat", 3), (ROOT / "docs" / "examples" / "choices.cat", 3)]:
        sp = encoding.spec(path, players, explore=0)
        seen = encoding.explore(catrules.load_game(path), players, (), 5)
        assert seen.ids <= set(sp.actions), (path, seen.ids - set(sp.actions))
        assert sp.actions[0] == "none" and "c0" in sp.actions and f"p{players}" in sp.actions


def test_an_option_outside_the_vocabulary_is_named():
    sp = encoding.spec(LINES, 2, explore=0)       # two lines of two cards at most, then unknown
    game = catrules.load_game(LINES)
    with pytest.raises(encoding.UnknownOption, match=r"option 'place:\d+:\d+:\d+' \(player \d\).*explore=.*"
                                                     r"extra_actions=\['place"):
        for seed in range(50):
            st = game.new_state(2, seed=seed)
            rng = random.Random(seed)
            while not st.finished:
                d = st.pending()[0]
                sp.legal(d)
                encoding.answer(st, d, rng.choice(d.options).id)


# ------------------------------------------------------------------ the docs

@pytest.mark.parametrize("name", ["rl_pettingzoo.py", "rl_openspiel.py"])
def test_the_docs_examples_run(name):
    out = subprocess.run([sys.executable, str(ROOT / "docs" / "examples" / name)], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    returns = eval(out.strip().splitlines()[-1], {})     # a dict or list of returns, printed
    values = list(returns.values()) if isinstance(returns, dict) else returns
    assert sum(values) == pytest.approx(1.0) and all(v >= 0 for v in values)
