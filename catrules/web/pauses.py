"""The pause after a round's end at a web table: everyone seated reads the tally before play goes on.

When a round ends (a ``tally`` event) and the game goes on, a table with people at it pauses
before its next decision: no bot decides, no answer is taken, and the pages are sent the
round's end but not the next round (:func:`paused_view`: no zones, counters nor running score;
no event after the tally; no decision, so a race's clock has not started).  The pause ends
when every seated person has pressed "Continue" (a ``continue`` message), or when its time is
up (``catrules serve --round-pause``, :data:`ROUND_PAUSE` seconds by default), whichever comes
first: a person who left does not hold the table longer than that.  Bots and spectators are
not waited for; a table of bots only never pauses.

A pause is part of the table's saved snapshot (who is still waited for, and until when, as
wall-clock time): a server restarted during a pause resumes it for the time that is left, and
one restarted after its time was up goes straight on.  Nothing here knows a game: a round's end
is the language's ``tally`` event.
"""

from __future__ import annotations

import time
from typing import Optional

#: The most seconds a table waits after a round's end for its people to continue (``--round-pause``).
ROUND_PAUSE = 60.0
#: What a paused table's view leaves out: the next round, until everyone has continued.
HIDDEN = ("zones", "counters", "running", "running_note", "last_line")


class Pause:
    """A table waiting for ``waiting`` (players) until ``until`` (``time.time()``); ``upto``:
    the number of the round's tally event (pages are sent no later event during the pause)."""

    def __init__(self, waiting, until: float, upto: int):
        self.waiting = sorted(set(waiting))
        self.until = float(until)
        self.upto = int(upto)

    def left(self, now: Optional[float] = None) -> float:
        """Seconds until the pause is over by itself (0 once it is)."""
        return max(0.0, self.until - (time.time() if now is None else now))

    def to_dict(self) -> dict:
        return {"waiting": list(self.waiting), "until": self.until, "upto": self.upto}

    @classmethod
    def from_dict(cls, d, players: int, now: Optional[float] = None) -> Optional["Pause"]:
        """The pause a snapshot holds, or ``None`` (none, malformed, or its time is up)."""
        if not isinstance(d, dict):
            return None
        try:
            waiting = [int(p) for p in d["waiting"] if 0 <= int(p) < players]
            pause = cls(waiting, float(d["until"]), int(d["upto"]))
        except (KeyError, TypeError, ValueError):
            return None
        if not pause.waiting or pause.left(now) <= 0:
            return None
        return pause

    def message(self) -> dict:
        """What a page is told: who is still waited for, and the whole seconds left."""
        return {"waiting": list(self.waiting), "seconds": int(self.left() + 0.999)}


def tally_number(shown: dict) -> Optional[int]:
    """The number of the latest ``tally`` among new events as the viewers were shown them
    (viewer -> ``[(n, event)]``), or ``None`` if no round ended."""
    found = [n for evs in shown.values() for n, ev in evs if ev.get("t") == "tally"]
    return max(found) if found else None


def paused_view(view: dict) -> dict:
    """A viewer's view while the table is paused: the next round left out, nothing to decide."""
    out = {k: v for k, v in view.items() if k not in HIDDEN}
    out["decisions"] = []
    return out


class Pausing:
    """The pause of a :class:`~catrules.web.tables.WebTable` (mixed into it): begun after the
    referee advanced past a round's end, ended by the people's ``continue`` or by its time."""

    #: Seconds a round's end waits for the people (0: no pause); the pause under way, or None.
    round_pause = ROUND_PAUSE
    pause: Optional[Pause] = None
    _tally: Optional[int] = None        # a round's tally filed since the last advance

    def _people(self) -> list:
        return [p for p, k in enumerate(self.kinds) if k == "human"]

    def _advance(self) -> None:
        """The referee plays on until someone must answer; a round that ended meanwhile (and not
        the game) pauses the table if people sit at it."""
        self._tally = None
        self.core.advance()
        n, self._tally = self._tally, None
        people = self._people()
        if n is not None and people and self.round_pause > 0 and not self.state.finished and not self.broken:
            self.pause = Pause(people, time.time() + self.round_pause, n)

    def _note_tally(self, shown: dict) -> None:
        n = tally_number(shown)
        if n is not None:
            self._tally = n

    def go_on(self, seat: Optional[int], ask: Optional[int] = None) -> Optional[str]:
        """A page's ``continue`` (sent with the ``ask`` it was shown): ``None`` once taken
        (saved), or why it is refused (nothing changes)."""
        with self.lock:
            if seat is None:
                return "a spectator's link cannot continue: the table waits for its players"
            if self.pause is None or (ask is not None and ask != self.ask):
                return "the table is not waiting for anyone to continue"
            if seat not in self.pause.waiting:
                return "you have already continued: the table waits for the others"
            before = self.pause
            rest = [p for p in before.waiting if p != seat]
            self.pause = Pause(rest, before.until, before.upto) if rest else None
            self._save()        # if it cannot be, the table goes back to the store's (still paused)
            return None

    def pause_over(self) -> bool:
        """End the pause if its time is up (saved); whether it was ended now."""
        with self.lock:
            if self.pause is None or self.pause.left() > 0:
                return False
            self.pause = None
            self._save()
            return True
