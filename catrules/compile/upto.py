"""Compiling a choice of a variable number of cards (language 4): ``chooses up to N cards``,
``chooses any number of cards``.

Such a choice is the pending decision of a choice of several cards (each pick one decision, the
picks so far kept with it: :class:`~catrules.runtime.decisions.Pending`), with ``upto`` set: at
every pick the player may also choose ``none``, "done", and ``need`` is the most cards.
"""

from __future__ import annotations


def most_cards(compiler, s):
    """``need(st, V, options)``: the most cards choice ``s`` takes, worked out when it runs.

    ``up to N``: N, a whole number of 0 or more (the game stops in its own words otherwise); fewer
    options than N only offer what there is.  ``any number``: every option, and at least one pick,
    so that a player with nothing to choose is still asked (``none``, forced), as any other."""
    if s.up_to == "any":
        def every(st, V, options=None):
            return max(1, len([v for v in options or () if v is not None]))
        return every
    return compiler._count(s.count, s.line, "the most cards to choose (`up to`)")


def prompt_words(s) -> str:
    """What an ``up to`` choice asks for, in its prompt (``up to 3 cards``)."""
    if s.up_to == "any":
        return "any number of cards"
    n = getattr(s.count, "value", None)
    return f"up to {n} card{'s' if n != 1 else ''}" if isinstance(n, int) else "up to some cards"
