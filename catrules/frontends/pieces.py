"""Pieces of text the painter and the tables share: safe text, cards laid out between lines, names.

:func:`plain` and :func:`clean` write out the control characters of text that came from
outside (a log, a save, a seat's name); :class:`Flow` and :func:`flow_text` lay out pieces
(cards) so that a line breaks only between two of them; :func:`nice`, :func:`face` and
:func:`ordinal` are how names, cards and ranks read.
"""

from __future__ import annotations

import re
from typing import Optional

from rich.cells import cell_len
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

#: Characters a terminal may act on (C0 and C1 controls, DEL; tab and newline are harmless).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def plain(s: str) -> str:
    """``s`` with every control character written out (``\\x1b``), so that text from a log,
    a save or a seat name can never clear the screen, retitle the window or write a link.
    (Markup like ``[bold]`` needs nothing: it is always drawn as :class:`Text`, never parsed.)"""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", s)


def clean(obj):
    """A copy of an event (dicts, lists, texts) with :func:`plain` texts, keys included."""
    if isinstance(obj, str):
        return plain(obj)
    if isinstance(obj, dict):
        return {clean(k): clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean(x) for x in obj]
    return obj


def bullets(lines: list) -> Table:
    """Lines with a bullet each; a line that wraps stays indented under its bullet."""
    g = Table.grid(padding=(0, 1))
    g.add_column(style="dim", no_wrap=True)
    g.add_column()
    for ln in lines:
        g.add_row("•", ln)
    return g


def flow_text(pieces: list, width: Optional[int] = None, start: int = 0, sep: str = " · ") -> Text:
    """Pieces joined by ``sep``; with ``width``, a line breaks only between two pieces."""
    out = Text()
    col = start
    for i, piece in enumerate(pieces):
        gap = sep
        if isinstance(piece, tuple):        # (its own separator, the piece)
            gap, piece = piece
        n = cell_len(piece.plain)
        if i:
            prev = pieces[i - 1][1] if isinstance(pieces[i - 1], tuple) else pieces[i - 1]
            gap = " " if prev.plain.endswith(":") else gap     # "19 cards, up to the top: ..."
            if width is not None and col + len(gap) + n > width:
                out.append("\n")          # the line break separates the pieces
                col = 0
            else:
                out.append(gap, style="dim")
                col += len(gap)
        out.append_text(piece)
        col += n
    return out


class Flow:
    """Pieces of text (cards) laid out at the width they get, breaking only between pieces:
    a card is never cut in two, whatever the width of the table cell it lies in."""

    def __init__(self, pieces: list, sep: str = " · "):
        self.pieces = pieces
        self.sep = sep

    def _texts(self) -> list:
        return [p[1] if isinstance(p, tuple) else p for p in self.pieces]

    @property
    def plain(self) -> str:
        return flow_text(self.pieces, None, 0, self.sep).plain

    def __rich_console__(self, console, options):
        yield flow_text(self.pieces, options.max_width, 0, self.sep)

    def __rich_measure__(self, console, options):
        lens = [cell_len(p.plain) for p in self._texts()] or [1]
        total = sum(lens) + len(self.sep) * (len(lens) - 1)
        return Measurement(min(max(lens), options.max_width), min(total, options.max_width))


def face(card: dict) -> str:
    """A card's short text for lists: its ``face`` if the game gives one, else its label."""
    return str(card.get("face") or card.get("label", card.get("id")))


def nice(name: str) -> str:
    return str(name).replace("_", " ")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


#: Events kept when earlier ones are left out: what the game says, and what settles something.
SAID = ("announce", "reveal", "race", "tally", "end game", "end")


def keep_said(events: list, tail: int) -> tuple:
    """``(kept, left_out)``: the last ``tail`` events, and before them only those of :data:`SAID`
    (the outcome of a race answered a while ago is not lost among the moves after it), with
    how many were left out.  Fewer than ``tail`` events are kept whole."""
    if len(events) <= tail:
        return list(events), 0
    head = events[:-tail]
    kept = [ev for ev in head if isinstance(ev, dict) and ev.get("t") in SAID]
    return kept + list(events[-tail:]), len(head) - len(kept)
