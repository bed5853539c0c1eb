"""catrules: card games written as rules files, played by one generic interpreter.

The pipeline, one module each: :mod:`~catrules.lang.parser` (grammar -> AST in
:mod:`~catrules.lang.ast`), :mod:`~catrules.check.checker` (meaning checks),
:mod:`~catrules.compile.graph` (the action graph), :mod:`~catrules.compile.compiler` (the
executable form), :mod:`~catrules.runtime.state` (state and step loop),
:mod:`~catrules.api` (the public API), :mod:`~catrules.bots.basic` and
:mod:`~catrules.frontends` (who decides), :mod:`~catrules.cli` (commands).
"""

from .api import Game, load_game, load_source
from .runtime.state import Decision, Option, State
from .errors import CatrulesError, GameFileError, IllegalChoice, RulesError
from .lang.parser import LANGUAGE_VERSION

__version__ = "0.1.0"

__all__ = ["Game", "load_game", "load_source", "Decision", "Option", "State", "CatrulesError", "GameFileError",
           "IllegalChoice", "RulesError", "LANGUAGE_VERSION", "__version__"]
