"""A choice of a variable number of cards (``chooses up to N cards``, ``chooses any number of
cards``) as a pending decision: the picks of a choice of several cards, each one decision, with
``none`` ("done") offered at every pick.

The pending decision (:class:`~catrules.runtime.decisions.Pending`) has ``upto`` set and
``need`` the most cards; the player picks cards one at a time, and ``none`` ends the picks (with
none picked too); once ``need`` cards are picked, or no card is left but ``none``, the choice
ends as any choice of several cards does.

In a secret choice, the picks after ``none`` are still asked (``none`` the only option, a
forced pick, as the picks past the hand of ``chooses 3 cards``): every player makes ``need``
picks, so that the number of decisions logged tells nobody how many cards were chosen.  A
choice made in the open ends at ``none``.  ``none`` is the id every decision already knows (a
choice with nothing to choose), so logs, saves and action vocabularies need no new id.
"""

from __future__ import annotations

from .decisions import Option
from .option_ids import NONE

#: The option that ends the picks of an ``up to`` choice.
DONE_OPTION = Option(NONE, "done (no more cards)", None, "none")


def values_left(options: list, got: list) -> list:
    """The values a player may still pick: the cards not picked yet, then ``none`` (done); only
    ``none`` once the player said done (the picks left of a secret choice: see the module)."""
    if None in got:
        return [None]
    return [v for v in options if v is not None and v not in got] + [None]


def with_done(options: list) -> list:
    """The Option objects of a pick, ``none`` shown as "done"."""
    return [DONE_OPTION if o.value is None else o for o in options]


def progress(got: list, most: int) -> str:
    """What the prompt adds: how many cards are picked, and how many are allowed."""
    picked = len([v for v in got if v is not None])
    if None in got:
        return f"({picked} chosen: done)"
    return f"({picked} chosen, at most {most}; choose done to stop)"
