"""How the scores came about: the events of a round's end or of the game's end, for every front end.

A game's end-of-game rules and a round's end run between two decisions: cards are matched
or cancel others, cards left in hand are moved, a ``tally`` counts the round.
Those are the events after the last decision before the game's ``end`` event (or before the
round's ``tally``), as the viewer was shown them; for the game's end, from where its closing
phases began (``Program.closing``, :mod:`catrules.compile.closing`); only the game's own
announcements when it made any.  The full-screen table and the web page both
take them from here; ``--plain`` prints every event as it comes, so it shows them anyway.
Nothing here knows a game.
"""

from __future__ import annotations

from typing import Optional

#: Events that say nothing about how a score came about.
_QUIET = ("decision", "end", "end game")


def last_ending(numbered: list, since: int = 0, game=None) -> Optional[dict]:
    """The latest end among ``numbered`` (``(n, event)`` pairs as a viewer saw them, oldest
    first) after position ``since``: the game's end, else a round's tally.  Returns
    ``{"kind": "end" or "round", "tally": the tally event or None, "events": [(n, event)...]}``,
    or None.  The events are those since the last decision up to it (for the game's end, since
    the first of its closing phases began, when ``game`` is given: choices made there, a card
    cancelling a penalty, are part of it); when the game announced anything there, only its
    announcements (its own words), else every event.  The tally itself is left out."""
    at = None
    for i in range(len(numbered) - 1, since - 1, -1):
        if numbered[i][1].get("t") in ("end", "tally"):
            at = i
            break
    if at is None:
        return None
    kind = "end" if numbered[at][1].get("t") == "end" else "round"
    start = at
    while start > 0 and numbered[start - 1][1].get("t") != "decision":
        start -= 1
    if kind == "end" and game is not None:
        start = min([start] + _closing_starts(numbered[:at], closing_names(game)))
    evs = numbered[start:at + 1]
    tallies = [ev for _n, ev in evs if ev.get("t") == "tally"]
    said = [(n, ev) for n, ev in evs if ev.get("t") == "announce"]
    shown = said or [(n, ev) for n, ev in evs if ev.get("t") not in _QUIET + ("tally",)]
    return {"kind": kind, "tally": tallies[-1] if tallies else None, "events": shown}


def closing_names(game) -> list:
    """The names of the phases a game plays after its last loop (``Program.closing``)."""
    prog = getattr(game, "program", None)
    return [k.split(":", 1)[1] for k in getattr(prog, "closing", ()) if k.startswith("phase:")]


def _closing_starts(numbered: list, names: list) -> list:
    """Where the last run of each closing phase began (its ``phase`` event), if it was shown."""
    out = []
    for name in names:
        at = next((i for i in range(len(numbered) - 1, -1, -1)
                   if numbered[i][1].get("t") == "phase" and numbered[i][1].get("name") == name), None)
        if at is not None:
            out.append(at)
    return out
