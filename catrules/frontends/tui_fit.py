"""How the full-screen table's areas share the screen, and what came before a resumed game.

:func:`allot` shares the screen's lines between the areas (each gets its least first, then
more in order of need), :func:`measure` counts the lines a renderable takes at a width,
:func:`crop_blocks` keeps a line of each of several blocks (the other players) when they
do not all fit, :class:`Lines` draws lines already rendered, and :func:`past_events`
rebuilds the events a player saw before a save by replaying the saved game's choices.
Nothing here knows a game.
"""

from __future__ import annotations

from typing import Optional

from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from .pieces import bullets


class Lines:
    """Lines of segments (from ``Console.render_lines``) drawn as they are."""

    def __init__(self, lines: list):
        self.lines = lines

    def __rich_console__(self, console, options):
        for line in self.lines:
            yield from line
            yield Segment.line()        # each line ends in one (Textual counts them for the height)


def render(console, renderable, width: int) -> list:
    """The lines of ``renderable`` drawn ``width`` cells wide (no line is cut at the bottom)."""
    return console.render_lines(renderable, console.options.update(width=max(1, width), height=None),
                                pad=False)


def measure(console, renderable, width: int) -> int:
    """How many lines ``renderable`` takes ``width`` cells wide."""
    return len(render(console, renderable, width))


def allot(total: int, parts: list) -> list:
    """Share ``total`` lines between areas: ``parts`` is ``(least, wanted)`` for each area in the
    order in which they get more.  Each area gets its least (as far as there is room), then,
    in order, up to what it wants; the areas later take none of an earlier one's share."""
    heights = []
    left = total
    for least, _want in parts:
        h = max(0, min(least, left))
        heights.append(h)
        left -= h
    for i, (_least, want) in enumerate(parts):
        more = max(0, min(want - heights[i], left))
        heights[i] += more
        left -= more
    return heights


def crop_blocks(console, blocks: list, width: int, height: int):
    """``blocks`` (one renderable each, the other players) in ``height`` lines: all of them when
    they fit; else each keeps its first line and the lines left go to the blocks in order,
    a cut block ending in "…".  Returns ``(Lines, cut)``."""
    drawn = [render(console, b, width) for b in blocks]
    if sum(len(d) for d in drawn) <= height:
        return Lines([ln for d in drawn for ln in d]), False
    keep = [min(1, len(d)) for d in drawn]
    left = height - sum(keep)
    while left > 0:
        grew = False
        for i, d in enumerate(drawn):
            if left > 0 and keep[i] < len(d):
                keep[i] += 1
                left -= 1
                grew = True
        if not grew:
            break
    lines = []
    dim = Style(dim=True)
    for d, k in zip(drawn, keep):
        part = [list(ln) for ln in d[:k]]
        if k < len(d) and part:
            part[-1] = Segment.adjust_line_length(part[-1], max(0, width - 2)) + [Segment(" …", dim)]
        lines.extend(part)
    return Lines(lines), True


def newest_whole(console, lines: list, width: int, height: int):
    """The newest of ``lines`` (events, oldest first) that fit ``height`` lines ``width`` cells
    wide, each whole and with its bullet: the top line of the area is never the cut end of an
    event (the newest is kept even when it alone is taller: its start is shown, the rest is in
    the history)."""
    if not lines:
        return Text("nothing yet", style="dim")
    keep, used = [], 0
    for x in reversed(lines):
        h = measure(console, bullets([x]), width)
        if keep and used + h > height:
            break
        keep.append(x)
        used += h
    return bullets(keep[::-1])


def past_events(game, state, player: int, decisions: int) -> tuple:
    """The events ``player`` saw before ``state`` (a resumed game) and where their decisions
    came, as :class:`~catrules.frontends.tui.TuiSeat` keeps them: ``(events, marks)``.  A save
    holds the game's choices, not its events: they are rebuilt by playing the choices again
    from the deal (the same seed deals the same game).  ``decisions``: how many decisions the
    player has made (the number of the last one).  ``([], [])`` when the choices do not replay
    (a save resumed with ``--force`` after its game file changed)."""
    from ..play.views import visible_event
    history = list(getattr(state, "history", None) or [])
    if not history:
        return [], []
    try:
        st = game.new_state(state.n, seed=state.seed, options=state.options, log=True,
                            ask_forced=state.ask_forced)
        own = sum(1 for rec in history if rec[0] == player)
        events, marks, k = [], [], decisions - own
        for rec in history:
            _collect(st, player, events, visible_event)
            if rec[0] == player:
                k += 1
                marks.append((len(events), k))
            st.apply(rec[0], rec[1], rec[2] if len(rec) > 2 else None)
        _collect(st, player, events, visible_event)
    except Exception:       # noqa: BLE001 -- a history that does not replay: the past is not shown
        return [], []
    return events, marks


def _collect(st, player: int, events: list, visible_event) -> None:
    for ev in st.log:
        seen: Optional[dict] = visible_event(st, ev, player)
        if seen is not None:
            events.append(seen)
    st.log.clear()
