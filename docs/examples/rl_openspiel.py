"""Meow as an OpenSpiel game: OpenSpiel's own test, then its ISMCTS against two random players."""

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from catrules.envs.openspiel import register

name = register("games/meow.cat", players=3)       # "catrules_meow_3p"
game = pyspiel.load_game(name, {"seed": 1})
pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)

evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
bot = ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=20,
                       random_state=np.random.RandomState(1))
rng = np.random.RandomState(2)
state = game.new_initial_state()
while not state.is_terminal():
    if state.current_player() == 0:
        action = bot.step(state)                    # player 1: ISMCTS
    else:
        action = rng.choice(state.legal_actions())  # players 2 and 3: random
    state.apply_action(action)
print(state.returns())
