"""catrules: card games written as rules files, played by one generic interpreter.

The pipeline, one module each: :mod:`~catrules.parser` (grammar -> AST in
:mod:`~catrules.ast`), :mod:`~catrules.checker` (meaning checks),
:mod:`~catrules.graph` (the action graph), :mod:`~catrules.compiler` (the
executable form), :mod:`~catrules.engine` (state and step loop),
:mod:`~catrules.api` (the public API), :mod:`~catrules.bots` and
:mod:`~catrules.frontends` (who decides), :mod:`~catrules.cli` (commands).
"""

from .api import Game, load_game, load_source
from .engine import Decision, Option, State
from .errors import CatrulesError, GameFileError, IllegalChoice, RulesError
from .parser import LANGUAGE_VERSION

__version__ = "0.1.0"

__all__ = ["Game", "load_game", "load_source", "Decision", "Option", "State", "CatrulesError", "GameFileError",
           "IllegalChoice", "RulesError", "LANGUAGE_VERSION", "__version__"]
