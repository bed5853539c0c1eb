"""Bots' race times at a table with people: a model of a person reading the options, adapted
to the people present.

With nobody at the table (a simulation) bots keep the seeded reaction model of
:mod:`catrules.play.reflexes`.  With people, a bot's time in a race is drawn around the
people's own pace (docs/bots.rst, "Races against people"):

* **The model** (the prior, before anyone has raced): a person sees the options, reads them
  until they find the one they want, and presses a key::

      time = BASE + HICK_SLOPE * log2(options + 1) + READING * words read
      words read = the options' words * (options + 1) / (2 * options)

  ``BASE`` is a simple reaction and a key press, the Hick-Hyman term the choice (Hick 1952,
  Hyman 1953), ``READING`` the seconds per word of silent reading (238 words a minute,
  Brysbaert 2019); a person stops reading at the option they look for, on average half-way
  (a self-terminating search, Treisman and Gelade 1980).
* **The people's pace**: each person's race time (as measured, before their handicap) over
  the model's time for that race, the last :data:`KEEP` of them; the median of their
  logarithms and their spread, blended with the model's (ratio 1, spread
  :data:`PRIOR_SPREAD`) counted as :data:`PRIOR_WEIGHT` races at first, less with each race
  until :data:`KEEP` races are in (then the people's alone).
* **The draw**: each bot's time is log-normal, with the people's spread (at least
  :data:`LEAST_SPREAD`) and a median set so that a person at the people's pace is the fastest
  of ``N`` bots with the level's chance: ``1/(N+1)`` at ``even``, 1.5 times that at ``easy``,
  half of it at ``hard`` (:func:`offset`).  A bot's reflex scales its time (``fast`` 0.75).

Everything is drawn from the game's seeded source for race times and reads only race times
already recorded, so the same answers give the same game; :meth:`Pace.record` is kept in saves.
"""

from __future__ import annotations

import functools
import math
import statistics
from typing import Optional

from .reflexes import FASTEST, REFLEXES, reflex_median

#: Seconds: a simple reaction at a computer (0.27 s, see reflexes) and pressing one of several keys.
BASE = 0.5
#: Seconds per bit of choice (Hick-Hyman slope).
HICK_SLOPE = 0.15
#: Seconds per word read: 60 / 238, silent reading of non-fiction (Brysbaert 2019).
READING = 60 / 238
#: The people's race times kept (the most recent), and the weight of the model in races.
KEEP = 9
PRIOR_WEIGHT = 3
#: Standard deviation of the logarithm of a person's time (the model's), and the least a bot has.
PRIOR_SPREAD = 0.3
LEAST_SPREAD = 0.15
#: The levels: a person at the people's pace is the fastest of N bots with this times 1/(N+1).
LEVELS = {"easy": 1.5, "even": 1.0, "hard": 0.5}
DEFAULT_LEVEL = "even"


def words(labels) -> int:
    """The words of the options' labels (at least one per option)."""
    return sum(max(1, len(str(x).split())) for x in labels)


def model_time(options: int, n_words: Optional[int] = None) -> float:
    """The model's median time for a person to answer a race among ``options`` whose labels
    have ``n_words`` words in all (one word each if not known)."""
    n = max(1, options)
    w = n if n_words is None else max(n, n_words)
    return BASE + HICK_SLOPE * math.log2(n + 1) + READING * w * (n + 1) / (2 * n)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


#: Points and weights of the normal distribution for :func:`win_chance` (a fine grid).
_GRID = [i / 10 for i in range(-60, 61)]
_WEIGHTS = [math.exp(-u * u / 2) for u in _GRID]
_TOTAL = sum(_WEIGHTS)


def win_chance(z: float, person: float, bot: float, n: int) -> float:
    """The chance that a person with log-times N(0, ``person``) beats ``n`` bots whose
    log-times are N(``z``, ``bot``) each."""
    return sum(w * (1.0 - _phi((person * u - z) / bot)) ** n for u, w in zip(_GRID, _WEIGHTS)) / _TOTAL


@functools.lru_cache(maxsize=4096)
def offset(person: float, bot: float, n: int, share: float) -> float:
    """The shift of the bots' log-median from the person's for which a person wins ``share`` of
    the races against ``n`` bots (:func:`win_chance`), found by bisection."""
    lo, hi = -6.0, 6.0
    for _ in range(50):
        mid = (lo + hi) / 2
        if win_chance(mid, person, bot, n) < share:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


class Pace:
    """The pace of the people at one table and the level the bots race at."""

    def __init__(self, level: str = DEFAULT_LEVEL, record=None):
        if level not in LEVELS:
            raise ValueError(f"unknown race level {level!r}: choose {', '.join(LEVELS)}")
        self.level = level
        #: log(person's time / model's time) of the people's latest races, oldest first.
        self.logs: list = [float(x) for x in (record or [])][-KEEP:]

    def record(self) -> list:
        """What a save keeps: the people's latest race times over the model's (logarithms)."""
        return [round(x, 6) for x in self.logs]

    def note(self, decision, seconds: float) -> None:
        """A person answered ``decision`` (a race) in ``seconds``, as measured."""
        expected = model_time(len(decision.options), words(o.label for o in decision.options))
        self.logs = (self.logs + [math.log(max(FASTEST, seconds) / expected)])[-KEEP:]

    def people(self) -> tuple:
        """(log-median, spread) of the people's times over the model's, blended with the model."""
        n = len(self.logs)
        if not n:
            return 0.0, PRIOR_SPREAD
        med = statistics.median(self.logs)
        spread = 1.4826 * statistics.median(abs(x - med) for x in self.logs) if n >= 3 else PRIOR_SPREAD
        prior = PRIOR_WEIGHT * max(0.0, 1.0 - n / KEEP)
        return n * med / (n + prior), (n * spread + prior * PRIOR_SPREAD) / (n + prior)

    def median(self, options: int, n_words: Optional[int], bots: int, reflex="normal") -> tuple:
        """(median, spread) of a bot's time in a race among ``options`` against a person, with
        ``bots`` bots racing."""
        mu, person = self.people()
        bot = max(person, LEAST_SPREAD)
        share = min(0.95, LEVELS[self.level] / (max(1, bots) + 1))
        z = offset(round(person, 4), round(bot, 4), max(1, bots), share)
        scale = reflex_median(reflex, 4) / REFLEXES["normal"]
        return model_time(options, n_words) * math.exp(mu + z) * scale, bot

    def draw(self, trng, options: int, n_words: Optional[int], bots: int, reflex="normal") -> float:
        """A bot's race time, drawn from ``trng`` (the game's source for race times)."""
        med, spread = self.median(options, n_words, bots, reflex)
        return round(max(FASTEST, med * trng.lognormvariate(0.0, spread)), 4)
