"""A race's clock at a person's screen: the count-in before it, and pauses.

A race starts for everyone at the same moment, after a short count-in (``3 2 1 go!``, as at a
real table): :data:`COUNT_IN` seconds in all, the same in every front end (the web page's is
the server's :data:`catrules.web.links.COUNT_IN`).  Its clock starts when the options are on
the screen, after the count-in.  A page opened over the table during a race (the history, the
keys, a card) pauses the clock: the time it stays open is not counted.
"""

from __future__ import annotations

import time
from typing import Callable, Optional

#: Seconds of the count-in before a race's options are shown.
COUNT_IN = 1.5
#: What the count-in says, a step each third of it ("go!" as the options come).
STEPS = ("3", "2", "1", "go!")


def count_in_steps(total: float = COUNT_IN) -> list:
    """``(text, seconds to wait after it)`` for each step of a count-in of ``total`` seconds."""
    wait = total / (len(STEPS) - 1)
    return [(s, wait if i < len(STEPS) - 1 else 0.0) for i, s in enumerate(STEPS)]


class RaceClock:
    """The clock of one race: started when the options are shown, paused while a page is open
    over them; :meth:`elapsed` is the time counted.  ``now``: the time source (seconds)."""

    def __init__(self, now: Callable[[], float] = time.monotonic):
        self.now = now
        self.started: Optional[float] = None
        self.paused_at: Optional[float] = None
        #: Seconds the clock was paused in all.
        self.paused = 0.0

    def start(self) -> None:
        self.started, self.paused_at, self.paused = self.now(), None, 0.0

    @property
    def running(self) -> bool:
        return self.started is not None and self.paused_at is None

    def pause(self) -> None:
        if self.running:
            self.paused_at = self.now()

    def resume(self) -> None:
        if self.paused_at is not None:
            self.paused += self.now() - self.paused_at
            self.paused_at = None

    def elapsed(self) -> float:
        """Seconds counted since the start, less the pauses (0 before the start)."""
        if self.started is None:
            return 0.0
        end = self.paused_at if self.paused_at is not None else self.now()
        return round(max(0.0, end - self.started - self.paused), 4)

    def stop(self) -> None:
        self.started = self.paused_at = None
        self.paused = 0.0
