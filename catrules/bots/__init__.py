"""Bots: seats that decide on their own, from their own view.

* :mod:`~catrules.bots.basic`: ``random`` and ``greedy``, and ``make_seat`` for a seat spec;
* :mod:`~catrules.bots.ismcts`: a bot that searches imagined games (ISMCTS).

``make_seat`` and the basic bots are also importable from here, as when the bots were one
module (``from catrules.bots import make_seat``).
"""

from .basic import BOT_KINDS, GreedyBot, RandomBot, make_seat  # noqa: F401
