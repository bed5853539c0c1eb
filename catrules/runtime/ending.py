"""The running score: each player's score if the game ended now, with the end's own rules.

A game often does something once the play is over and before the count: cards are matched
with others, one cancels another's penalty.  The score block alone, on the table as it is,
would count as if none of that had happened.  So the running score plays the game's closing (the phases its flow plays after its
last loop: ``Program.closing``, worked out by :mod:`catrules.compile.closing`) on a copy of
the table, answering each choice there with its default, and scores that copy (once the game is
in its closing, the closing goes on from where it is).

It is shown only where it depends on nothing hidden: the score block and the closing read only
public zones (``Program.score_public``, ``Program.closing_public``), and the copy's later
shuffles and draws use a fixed random source of their own, not the game's.  So every viewer
gets the same figure, and it cannot tell anyone a card they do not see.  What cannot be run is
said in a note next to the figure: statements after the last loop other than ``play`` (they
are not run), a round's end before its tally (``Program.round_end_lines``), or a closing that
could not be played out.  Nothing here knows a game.
"""

from __future__ import annotations

from ..errors import CatrulesError
from ..limits import IMAGINED_STEP_LIMIT, STEP_LIMIT
from .frames import Frame

#: How many choices the closing may ask on the copy before it is given up.
CHOICE_LIMIT = 2000


def running(st) -> tuple:
    """``(rows, note)``: every player's score if the game ended now (None where it must not be
    shown: the game is over, or the score reads something not everyone sees) and a note of what
    the figure leaves out ("" when nothing)."""
    prog = st.prog
    if st.over or not prog.score_public or not prog.score_items:
        return None, ""
    notes = []
    if prog.round_end_lines:
        notes.append("without the round's end (line " + ", ".join(map(str, prog.round_end_lines)) + ")")
    if not prog.closing:
        return st.scores(), _join(notes)
    if not prog.closing_public:
        notes.insert(0, "before the end's rules (they read hidden cards)")
        return st.scores(), _join(notes)
    try:
        rows = _closed(st)
    except CatrulesError:
        rows = None
    rows, chose = rows if rows is not None else (None, False)
    if rows is None:
        notes.insert(0, "before the end's rules (they could not be played out now)")
        return st.scores(), _join(notes)
    if prog.closing_left:
        notes.insert(0, "without the end's " + ", ".join(prog.closing_left))
    if chose:
        notes.insert(0, "the end's choices as their defaults")
    return rows, _join(notes)


def _closed(st):
    """``(rows, chose)``: the score after the closing phases are played on a copy of ``st``, and
    whether a choice was taken as its default there; None if they do not end."""
    cp = st._imagine()
    cp.log = None
    cp.steps = cp.steps_from = STEP_LIMIT - IMAGINED_STEP_LIMIT
    # never the game's own future: sources of their own, seeded only if the closing draws (seeding
    # two costs about a fifth of a running score, and most closings never draw)
    kind = type(cp)
    kind.rng.seed_later(cp, 0)
    kind.trng.seed_later(cp, 1)
    keys = [f.key for f in st.frames]
    at = keys.index("flow") if "flow" in keys else len(keys)
    if at + 1 < len(keys) and keys[at + 1] in st.prog.closing:
        # already in the end's rules: they go on from here (a secret choice of several players
        # is not played out: the others' answers are hidden)
        if st.pending_ is not None and st.pending_.kind != "choose":
            return None
    else:
        cp.pending_ = None
        cp.frames = [Frame(key, 0, {}) for key in reversed(st.prog.closing)]
    tallies = cp.c.get("#tallies", 0)
    cp.run()
    chose = False
    for _ in range(CHOICE_LIMIT):
        asked = cp.pending() if cp.pending_ is not None else []
        if not asked:
            break
        d = asked[0]
        chose = True
        cp.apply(d.player, d.default if d.default is not None else d.options[0].id,
                 1.0 if d.timed else None)
    if cp.pending_ is not None or cp.frames:
        return None
    # a tally among the end's rules: the game's final score is the tallies' sum
    return cp.scores(final=cp.c.get("#tallies", 0) != tallies), chose


def _join(notes: list) -> str:
    return "; ".join(notes)
