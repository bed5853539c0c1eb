"""The front-end interface: what every seat at the table implements.

A *seat* is whoever decides for one player: a person at a terminal, a bot, a
scripted list of choices, or (later) a program over JSON lines or a web page.
Seats never touch the game state.  The :class:`~catrules.play.match.Match` that
runs the game calls them with that player's *view* (a dict: only what the
player may see) and a :class:`~catrules.runtime.state.Decision`, and they answer
with a :class:`Choice`.  Everything a seat needs beyond its view goes
through the :class:`Table` handed to it.

Order of calls for one seat::

    start(table, player)              once, before the first decision
    show(view, events)                whenever something the player may see happened
    decide(view, decision) -> Choice  when the player must choose (several seats may be
                                      asked for one simultaneous decision, in seat order;
                                      no seat learns another's choice before all have chosen)
    finish(view)                      once, at the end (view has "scores" and "winners")
"""

from __future__ import annotations

import random
from typing import Optional, Protocol

import dataclasses


@dataclasses.dataclass(slots=True)
class Choice:
    """A seat's answer: an option id, and for a race the reaction time in seconds."""
    option: str
    reaction_time: Optional[float] = None


class Table(Protocol):
    """What the match offers a seat, without giving away the state."""

    #: A random source for bots, seeded from the game's seed and saved with the game.
    rng: "random.Random"
    #: The game's seed, and how many decisions it has taken so far (optional: a bot may seed a
    #: random source of its own from them, without drawing from :attr:`rng`).
    seed: int
    decisions: int

    def reaction_time(self, reflex="normal", options: int = 4) -> float:
        """A bot's reaction time in seconds for a race among ``options``, drawn from the game's
        seeded source; ``reflex`` is a name (``"fast"``, ``"normal"``, ``"slow"``) or the median
        time in seconds of a race among four options (see :func:`catrules.play.reflexes.reflex_median`)."""

    def lookahead(self, player: int, option: str, samples: int = 1) -> list:
        """``player``'s score after choosing ``option``, for each of ``samples`` states that are
        consistent with that player's view (cards they cannot see are dealt at random), once
        the choice has played out (:func:`catrules.play.lookahead.follow`). Each item is the list of
        every player's score dict."""

    def lookahead_options(self, player: int, options: list, samples: int = 1) -> list:
        """:meth:`lookahead` for every option of a decision at once, each option played in the
        same ``samples`` states (optional: a bot falls back on :meth:`lookahead` per option)."""


    def sample(self, player: int, rng: "random.Random" = None):
        """An imagined game for a bot's search: a copy of the game consistent with everything
        ``player`` has seen, the cards they cannot see dealt again at random (drawn from
        ``rng``, else from :attr:`rng`), with a future of its own (optional: for searching bots)."""


class Seat:
    """Base class of seats; subclasses override :meth:`decide` and maybe :meth:`show`."""

    #: Shown in tables and logs.
    name: str = "seat"
    #: True for a person: the match then needs a terminal.
    interactive: bool = False
    #: False for seats that ignore :meth:`show` (bots): the match then builds no view for it.
    wants_events: bool = True
    #: Seconds taken off every race time this seat gives (a person's head start against bots);
    #: the match records the time less the handicap, never below zero.
    handicap: float = 0.0

    def start(self, table: Table, player: int) -> None:
        self.table = table
        self.player = player

    def show(self, view: dict, events: list) -> None:
        """Something happened that this player may see (events are already filtered)."""

    def decide(self, view: dict, decision) -> Choice:  # pragma: no cover - abstract
        raise NotImplementedError

    def finish(self, view: dict) -> None:
        """The game is over."""
