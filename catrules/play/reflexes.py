"""Race times: bots' reflexes, modelled on people's, and the time recorded for a seat's answer.

Bots' race times are modelled on people's measured choice reaction times (sources in
docs/bots.rst, "Reflexes"): the Hick-Hyman law, time = a + b * log2(options + 1), with
a = 0.273 s, the median of Human Benchmark's online simple reaction test (a click or a key on
a visual signal), and b = 0.15 s per bit, the usual slope of the law.  For four options it
gives 0.62 s, which is about what a person needs to pick a card and press a key.
"""

from __future__ import annotations

import math
from typing import Optional

#: Seconds: the median simple reaction time at a computer (Human Benchmark, about 0.273 s).
SIMPLE_REACTION = 0.273
#: Seconds per bit (a doubling of the options): the Hick-Hyman slope, about 0.15 s.
HICK_SLOPE = 0.15
#: A reflex is the median time of a race among this many options (the four-choice task).
REFLEX_OPTIONS = 4
#: Standard deviation of the logarithm of a time: Human Benchmark's mean (0.284 s) over its
#: median (0.273 s) is exp(spread**2 / 2) for a log-normal distribution.
REFLEX_SPREAD = 0.28
#: Seconds: no bot answers faster (faster than about 0.1 s a person anticipates, not reacts).
FASTEST = 0.1
#: Reflex settings for bots: the median reaction time in seconds of a race among four options.
REFLEXES = {"fast": 0.45, "normal": 0.6, "slow": 0.8}
#: The medians a seat may ask for, in seconds (``bot:0.8``).
REFLEX_RANGE = (0.15, 5.0)


def hick_time(options: int) -> float:
    """The Hick-Hyman law: a person's median time to answer a choice among ``options`` (at least 1)."""
    return SIMPLE_REACTION + HICK_SLOPE * math.log2(max(1, options) + 1)


def reflex_median(reflex="normal", options: int = REFLEX_OPTIONS) -> float:
    """The median race time of a bot with ``reflex`` (a name of :data:`REFLEXES` or seconds) in a
    race among ``options``: the reflex's median for four options, scaled by the Hick-Hyman law
    (a quick bot is quick at every number of options)."""
    median = REFLEXES[reflex] if isinstance(reflex, str) else float(reflex)
    return median * hick_time(options) / hick_time(REFLEX_OPTIONS)


def reaction_time(state, reflex="normal", options: int = REFLEX_OPTIONS) -> float:
    """A bot's race time with ``reflex`` in a race among ``options``, drawn from ``state``'s
    source for race times (see :meth:`catrules.play.seats.Table.reaction_time`)."""
    return state.reaction_time(reflex_median(reflex, options), REFLEX_SPREAD, FASTEST)


def race_time_of(state, seat, decision, time: Optional[float]) -> float:
    """The race time recorded for a seat's answer to ``decision``: a seat that gives none gets a
    normal bot's; a seat's ``handicap`` comes off the time it gave, never below zero."""
    if time is None:
        return reaction_time(state, "normal", len(decision.options))
    handicap = getattr(seat, "handicap", 0.0)
    return round(max(0.0, float(time) - handicap), 4) if handicap else time
