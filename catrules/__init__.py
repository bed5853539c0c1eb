"""catrules: card games written as rules files, played by one generic interpreter.

The pipeline, one package per step (see ``docs/architecture.rst``):
:mod:`~catrules.lang` (a game file's text -> an AST), :mod:`~catrules.check` (meaning checks),
:mod:`~catrules.compile` (the action graph and the executable form, a
:class:`~catrules.compile.program.Program`; the ``allot`` search is in :mod:`~catrules.allot`),
:mod:`~catrules.runtime` (the :class:`State` and its step loop, which run the Program),
:mod:`~catrules.api` (the public API, whose names are this package's own),
:mod:`~catrules.play` (a match and its seats), :mod:`~catrules.bots` and
:mod:`~catrules.frontends` (who decides), then :mod:`~catrules.web`, :mod:`~catrules.envs`,
:mod:`~catrules.lab` and :mod:`~catrules.authoring`, and :mod:`~catrules.cli` (the commands).
"""

from .api import Game, load_game, load_source
from .runtime.state import Decision, Option, State
from .errors import CatrulesError, GameFileError, IllegalChoice, RulesError
from .lang.parser import LANGUAGE_VERSION

__version__ = "0.1.0"

__all__ = ["Game", "load_game", "load_source", "Decision", "Option", "State", "CatrulesError", "GameFileError",
           "IllegalChoice", "RulesError", "LANGUAGE_VERSION", "__version__"]
