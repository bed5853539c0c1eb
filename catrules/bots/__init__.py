"""Bots: seats that decide on their own, from their own view.

* :mod:`~catrules.bots.basic`: ``random`` and ``greedy``, and ``make_seat`` for a seat spec;
* :mod:`~catrules.bots.ismcts`: a bot that searches imagined games (ISMCTS).
"""
