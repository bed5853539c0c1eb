"""Whether a memo is worth asking: a memo's own hits and misses decide, as it goes.

The score memos (:mod:`catrules.runtime.scoring`) serve bots that look ahead, which score the
same tables again and again.  A game played once through (random seats, ``simulate``) scores
each finished table once: every look-up misses, and its key and the copy kept for the memo
cost more than the scoring itself.  A :class:`Gate` counts a memo's look-ups; when a whole
window of them found (almost) nothing, the memo is passed by for a while, then tried again.
Passing it by changes no value, step count or error: a miss works the values out the same way.
"""

from __future__ import annotations

#: Look-ups counted before the memo's worth is judged.
WINDOW = 64
#: Passed by when fewer than one look-up in this many hit in the window.
RARE = 8
#: Calls that pass the memo by before it is tried again for a window.
REST = 1024


class Gate:
    """A memo's count of look-ups and hits; ``rest`` > 0: pass the memo by (and count down)."""

    __slots__ = ("asked", "hits", "rest")

    def __init__(self):
        self.asked = self.hits = self.rest = 0

    def judge(self) -> None:
        """After a look-up that missed: at the end of a window, rest when hits were rare."""
        self.asked += 1
        if self.asked >= WINDOW:
            if self.hits * RARE < self.asked:
                self.rest = REST
            self.asked = self.hits = 0
