"""The Python API: load a game file, start games, and play them.

This small surface is what the command line, the front ends and the bots
use; nothing reaches around it::

    import catrules
    game = catrules.load_game("games/mygame.cat")
    state = game.new_state(players=4, seed=1)
    while not state.finished:
        decision = state.pending()[0]
        state.apply(decision.player, decision.options[0].id)
    print(state.scores(), state.winners())

A :class:`~catrules.runtime.state.State` offers ``pending()``, ``apply()``,
``view(player)``, ``clone()``, ``scores()``, ``winners()``, ``to_dict()``;
:meth:`Game.restore` reads back a ``to_dict()``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

from .runtime.state import State


class Game:
    """A checked, compiled game file, ready to start any number of games."""

    def __init__(self, program, warnings=()):
        self.program = program
        self.warnings = list(warnings)

    @property
    def title(self) -> str:
        return self.program.title

    @property
    def path(self) -> str:
        return self.program.path

    @path.setter
    def path(self, path: str) -> None:
        """The name logs and errors give the game file (a copy loaded elsewhere keeps its first name)."""
        self.program.path = path

    @property
    def source(self) -> str:
        """The game file's text (empty if it was not kept)."""
        return getattr(self.program.checked.game, "source", "") or ""

    @property
    def min_players(self) -> int:
        return self.program.min_players

    @property
    def max_players(self) -> int:
        return self.program.max_players

    @property
    def options(self) -> dict:
        """Option name -> description."""
        return dict(self.program.option_texts)

    @property
    def option_values(self) -> dict:
        """Option with values (language 4) -> ``{"default": value, "values": [value, ...]}``."""
        return {name: {"default": d, "values": list(vs)} for name, (d, vs) in self.program.option_values.items()}

    def normal_options(self, options) -> list:
        """``options`` as a game keeps them (``short``, ``rounds=4``): checked, sorted, each once, a
        value at its default left out; an :class:`~catrules.compile.option_settings.OptionError`
        (a :class:`~catrules.errors.CatrulesError`, with a ``hint``) for one the game does not offer."""
        return self.program.normal_options(options)

    @property
    def how_to_play(self) -> list:
        """The game's "how to play" text as ``[(kind, text)]``, ``kind`` ``"p"`` (a paragraph) or
        ``"item"`` (a list item); empty if the file has no ``how to play:`` block."""
        from .lang.howto import paragraphs
        return paragraphs(getattr(self.program, "how_to_play", ()))

    @property
    def how_to_play_text(self) -> str:
        """The same as plain text wrapped to 78 columns ("" if there is none)."""
        from .lang.howto import plain
        return plain(getattr(self.program, "how_to_play", ()))

    @property
    def graph(self):
        """The action graph (a networkx DiGraph, made from the compiler's light one on first use)."""
        if not hasattr(self, "_nx_graph"):
            G = self.program.graph
            self._nx_graph = G.to_networkx() if hasattr(G, "to_networkx") else G
        return self._nx_graph

    @property
    def card_count(self) -> int:
        return self.program.card_count

    @property
    def score_items(self) -> list:
        """The score items in order: ``(name, counted)``; ``note`` items are not counted."""
        return [(name, counted) for name, counted, _fn in self.program.score_items]

    @property
    def display_names(self) -> dict:
        """How the game writes its symbols for people (``show wild_card as "WILD!"``)."""
        return self.program.display_names

    @property
    def checked(self):
        """The checked game (its syntax tree and name tables), for tools that read the rules
        themselves: the rules summary, the vocabulary of an RL environment."""
        return self.program.checked

    @property
    def has_tallies(self) -> bool:
        """Whether the rules tally the scores during the game (``tally``), not only at the end."""
        return self.program.tallies

    def counter_kind(self, name: str) -> Optional[str]:
        """What kind of value counter ``name`` holds (``"card"``, ``"player"``, ...; None if unknown)."""
        return self.program.counter_kind.get(name)

    def counter_secret(self, name: str) -> bool:
        """Whether counter ``name`` is ``secret`` (seen only by its owner while the game lasts)."""
        return name in self.program.counter_secret

    def score_items_for(self, options) -> list:
        """The score items of a game played with ``options``, ``(name, counted)`` each (an item
        with ``if OPTIONS`` exists only in games where they hold)."""
        return [(name, counted) for name, counted, _fn in self.program.items_for(tuple(options))]

    def check_start(self, players: int, options=()) -> None:
        """Raise :class:`~catrules.errors.CatrulesError`, saying why, unless a game can start with
        ``players`` and ``options``."""
        self.program.check_start(players, options)

    def card(self, card_id: int) -> dict:
        """A card's attributes (``id``, ``type``, ``label`` and its own)."""
        return self.program.card_dicts[card_id]

    def new_state(self, players: int, seed: Optional[int] = None, options: Iterable[str] = (),
                  log: bool = False, ask_forced: bool = False) -> State:
        """Start a game; it runs until the first decision.  With ``ask_forced``, a choice with a
        single legal option is asked too (see :class:`~catrules.runtime.state.State`)."""
        return State.new(self.program, players, options, seed, log, ask_forced)

    def restore(self, data: dict) -> State:
        """A state from :meth:`State.to_dict`, exactly where it paused."""
        return State.from_dict(self.program, data)


# The parser (and lark), the checker and the compiler are imported when a game is loaded,
# not with the package: a cached game needs neither the parser nor the checker.
def _build(tree) -> Game:
    from .check import checker
    return _compiled(checker.check(tree))


def _compiled(checked) -> Game:
    from .compile import compiler
    return Game(compiler.compile_game(checked), checked.warnings)


def load_source(source: str, path: str = "<game>") -> Game:
    """Parse, check and compile game text (raises :class:`GameFileError`)."""
    from .lang import parser
    return _build(parser.parse(source, path))


def load_game(path: str | Path) -> Game:
    """Load a game file (raises :class:`GameFileError` with every problem found).

    A game loaded before is taken from the private cache of checked games
    (:mod:`catrules.check.game_cache`) when its text, path and catrules are unchanged."""
    from .check import game_cache
    try:
        data = Path(path).read_bytes()
    except OSError:
        data = None                          # parse_file reports it in the language's words
    if data is not None:
        checked = game_cache.load(data, str(path))
        if checked is not None:
            return _compiled(checked)
    from .check import checker
    from .lang import parser
    checked = checker.check(parser.parse_file(path))
    if data is not None:
        game_cache.store(data, str(path), checked)
    return _compiled(checked)
