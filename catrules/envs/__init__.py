"""Interfaces for reinforcement-learning programs: any game file as an environment.

* :mod:`catrules.envs.pettingzoo`: a PettingZoo AEC environment (``env(path, players=4)``);
* :mod:`catrules.envs.openspiel`: an OpenSpiel Python game (``register(path, players=4)``);
* :mod:`catrules.envs.parallel`: a PettingZoo ParallelEnv (``parallel_env(path, players=4)``);
* :mod:`catrules.envs.single`: a Gymnasium environment for one seat against catrules bots, and a
  vector of them (``gym_env``, ``vector_env``);
* :mod:`catrules.envs.history`, :mod:`catrules.envs.attributes`, :mod:`catrules.envs.vocabulary`:
  the information-state memory, the card attribute planes, the compact action vocabulary;
* :mod:`catrules.envs.encoding`: what all share: the fixed action vocabulary of a game and
  the encoder of a player's view into a vector of numbers.

They are optional extras (``pip install 'catrules[rl]'``: PettingZoo, Gymnasium, NumPy,
OpenSpiel); importing :mod:`catrules` imports none of them, nor does importing this package.
The docs: ``docs/environments.rst``.
"""
