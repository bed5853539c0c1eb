"""The decision budget of the bots at a web table: a game that never ends stops.

Bots decide at a web table one decision at a time, off the request path
(:meth:`~catrules.web.tables.WebTable.play_bots`), so the referee's own count of decisions in a
row never sees more than one.  The table counts them instead: from a person's last answer (or
from when the table was loaded), the bots may take :data:`~catrules.limits.DECISION_LIMIT`
decisions; past it the table stops in the words of the command line
(:func:`catrules.play.core.bots_over_budget`).  A table of bots alone counts from the game's
start, and gives its searching bots that budget (``decision_limit``), so that they stop a game
that cannot end within it at once, as ``catrules play`` does (:mod:`catrules.bots.runaway`).
Nothing here knows a game.
"""

from __future__ import annotations

from ..limits import DECISION_LIMIT
from ..play.core import bots_over_budget


class BotBudget:
    """Mixed into :class:`~catrules.web.tables.WebTable` (which has ``state``, ``match`` and
    ``_people``)."""

    #: The game's decision count from which the bots' decisions in a row are counted.
    bots_from = 0

    def budget_start(self) -> None:
        """Begin counting (a new or loaded table): bots alone from the game's start."""
        alone = not self._people()
        self.bots_from = 0 if alone else self.state.decisions
        if alone:
            self.match.decision_limit = DECISION_LIMIT

    def person_answered(self) -> None:
        """A person answered: the bots' run starts again."""
        self.bots_from = self.state.decisions

    def budget_check(self) -> None:
        """Raise the budget's :class:`~catrules.errors.RulesError` once the bots went past it."""
        if self.state.decisions - self.bots_from > DECISION_LIMIT:
            raise bots_over_budget()
