"""How the scores came about: the events of a round's end or of the game's end, for every front end.

A game's end-of-game rules and a round's end run between two decisions: cats are fed, a fish
cancels a fish bone, cards left in hand go beside their owner, a ``tally`` counts the round.
Those are the events after the last decision before the game's ``end`` event (or before the
round's ``tally``), as the viewer was shown them.  The full-screen table and the web page both
take them from here; ``--plain`` prints every event as it comes, so it shows them anyway.
Nothing here knows a game.
"""

from __future__ import annotations

from typing import Optional

#: Events that say nothing about how a score came about.
_QUIET = ("decision", "end", "end game")


def last_ending(numbered: list, since: int = 0) -> Optional[dict]:
    """The latest end among ``numbered`` (``(n, event)`` pairs as a viewer saw them, oldest
    first) after position ``since``: the game's end, else a round's tally.  Returns
    ``{"kind": "end" or "round", "tally": the tally event or None, "events": [(n, event)...]}``
    (the events since the last decision up to it, the tally itself left out), or None."""
    at = None
    for i in range(len(numbered) - 1, since - 1, -1):
        if numbered[i][1].get("t") in ("end", "tally"):
            at = i
            break
    if at is None:
        return None
    start = at
    while start > 0 and numbered[start - 1][1].get("t") != "decision":
        start -= 1
    evs = numbered[start:at + 1]
    kind = "end" if numbered[at][1].get("t") == "end" else "round"
    tallies = [ev for _n, ev in evs if ev.get("t") == "tally"]
    return {"kind": kind, "tally": tallies[-1] if tallies else None,
            "events": [(n, ev) for n, ev in evs if ev.get("t") not in _QUIET + ("tally",)]}
