"""The terminal front end: a person plays one seat at a text terminal.

:class:`TerminalSeat` shows the player's *view* (what the game file lets that
player see: zones, counters, cards and their attributes), the events since
their last decision, and the legal options, numbered; the person answers
with a number.  :class:`Spectator` prints a game's public events for people
watching bots play, and :func:`score_table` the final scores.

Nothing here knows a game.  Cards are drawn from their attributes: each card
is coloured after the symbol value of its first attribute; a value that
names a colour (``red``, ``orange``, ``purple``...) gets that colour, any other
value one from a fixed palette.  Output goes through a :class:`rich.console.Console`,
so ``NO_COLOR`` is respected and everything wraps to the terminal's width
(80 columns is enough).
"""

from __future__ import annotations

import re
import sys
import time
from typing import Callable, Iterable, Optional

from rich import box
from rich.color import Color, ColorParseError
from rich.columns import Columns
from rich.console import Console, Group
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from .base import Choice, Seat

#: Symbol values that name a colour, and the rich colour drawn for them (when the
#: colour's own name is not a good terminal colour, or not a rich name at all).
#: Any other colour name rich knows (``red``, ``blue``, ``yellow``, ``purple``...) is used as it is.
NAMED_COLOURS = {
    "white": "bright_white", "black": "black on grey70", "orange": "dark_orange", "pink": "hot_pink",
    "grey": "grey62", "gray": "grey62", "brown": "orange4", "gold": "gold1", "silver": "grey82",
}
#: Colours for symbol values that are not colour names, in order of first appearance.
PALETTE = ["cyan", "magenta", "yellow", "turquoise2", "orchid", "medium_purple1", "light_salmon1",
           "aquamarine1", "khaki1", "plum1", "wheat1", "light_goldenrod1"]

_CARD_META = ("id", "type", "label")
_SLOT_OF_PLAYER = re.compile(r"^(.*) of player (\d+)$")


class Quit(Exception):
    """The person asked to stop (``q``): the command line saves the game."""


# ---------------------------------------------------------------- painting

class Painter:
    """Turns cards, players and events into rich text, for one viewer (``None``: a spectator)."""

    def __init__(self, game=None, me: Optional[int] = None, names: Optional[list] = None):
        self.game = game
        self.me = me
        self.names = list(names or [])
        self.n = len(self.names)       # number of players, once known
        self.width: Optional[int] = None   # the console's width, to break lines between cards
        self.cards: dict = {}          # id -> card dict
        self.styles: dict = {}         # symbol value -> style
        self._next = 0
        if game is not None:
            for i in range(game.card_count):
                self.learn(game.card(i))

    # cards ---------------------------------------------------------------
    def learn(self, card: dict) -> None:
        cid = card.get("id")
        if cid is not None and cid not in self.cards:
            self.cards[cid] = card
        key = self._key(card)
        if key is not None and key not in self.styles:
            self.styles[key] = self._style_for(key)

    def _style_for(self, value: str) -> str:
        low = value.lower()
        if low in NAMED_COLOURS:
            return NAMED_COLOURS[low]
        try:
            Color.parse(low)
            return low
        except ColorParseError:
            pass
        style = PALETTE[self._next % len(PALETTE)]
        self._next += 1
        return style

    @staticmethod
    def _key(card: dict) -> Optional[str]:
        for k, v in card.items():
            if k in _CARD_META:
                continue
            return v if isinstance(v, str) else None
        return None

    def card_dict(self, cid) -> Optional[dict]:
        c = self.cards.get(cid)
        if c is None and self.game is not None:
            try:
                c = self.game.card(cid)
            except (IndexError, KeyError, TypeError):
                return None
            self.learn(c)
        return c

    def card(self, card) -> Text:
        """One card (a card dict or a card id) as coloured text."""
        if isinstance(card, dict):
            if card.get("hidden"):
                return Text("a hidden card", style="dim")
            self.learn(card)
            c = card
        else:
            c = self.card_dict(card)
            if c is None:
                return Text(f"card {card}")
        style = self.styles.get(self._key(c), "") if self._key(c) is not None else ""
        return Text(str(c.get("label", c.get("id"))), style=("bold " + style).strip())

    def cards_text(self, cards: Iterable, limit: Optional[int] = None, compress: bool = False,
                   width: Optional[int] = None, start: int = 0) -> Text:
        """Cards separated by dots; ``limit`` keeps the last ones (the top of a pile).  With
        ``width``, lines break between cards (never inside one); ``start`` is how much of the
        first line is already used."""
        cards = list(cards)
        items: list = []
        if compress:
            for c in cards:
                label = self.card(c)
                if items and items[-1][0].plain == label.plain:
                    items[-1][1] += 1
                else:
                    items.append([label, 1])
        else:
            items = [[self.card(c), 1] for c in cards]
        out = Text()
        col = start
        if limit is not None and len(items) > limit:
            out.append(f"{len(cards)} cards, top: ", style="dim")
            col += len(out.plain)
            items = items[-limit:]
        for i, (label, n) in enumerate(items):
            piece = Text(f"{n}× " if n > 1 else "")
            piece.append_text(label)
            if i:
                if width is not None and col + 3 + len(piece.plain) > width:
                    out.append("\n")          # the line break separates the cards
                    col = 0
                else:
                    out.append(" · ", style="dim")
                    col += 3
            out.append_text(piece)
            col += len(piece.plain)
        return out

    def option(self, opt) -> Text:
        if getattr(opt, "kind", None) == "card" and isinstance(getattr(opt, "value", None), int):
            return self.card(opt.value)
        if getattr(opt, "kind", None) == "player" and isinstance(getattr(opt, "value", None), int):
            return Text(self.player(opt.value))
        return Text(str(opt.label))

    def option_id(self, oid: str) -> Text:
        """An option id from an event (``c12``, ``p2``, ``n3``, ``yes``...) as text."""
        if oid is None:
            return Text("a hidden choice", style="dim")
        if isinstance(oid, list):               # several cards chosen at once
            out = Text()
            for i, x in enumerate(oid):
                if i:
                    out.append(", ")
                out.append_text(self.option_id(x))
            return out
        if oid == "none":
            return Text("nothing", style="dim")
        if re.fullmatch(r"c\d+", oid):
            return self.card(int(oid[1:]))
        if re.fullmatch(r"p\d+", oid):
            return Text(self.player(int(oid[1:]) - 1))
        if re.fullmatch(r"n-?\d+", oid):
            return Text(oid[1:])
        return Text(oid)

    # players and zones ---------------------------------------------------
    def player(self, p, short: bool = False) -> str:
        if p is None:
            return "nobody"
        if p == self.me:
            return "you"
        name = self.names[p] if 0 <= p < len(self.names) and self.names[p] else ""
        if short or not name:
            return f"player {p + 1}"
        return f"player {p + 1} ({name})"

    def seat_name(self, p: int) -> str:
        """A short name for a table row: ``you``, the seat's name, or ``player N``."""
        if p == self.me:
            return "you"
        if 0 <= p < len(self.names) and self.names[p]:
            return str(self.names[p])
        return f"player {p + 1}"

    def slot(self, name: str) -> str:
        """A zone as events name it (``pile of player 2``), from the viewer's side."""
        m = _SLOT_OF_PLAYER.match(name or "")
        if m and self.me is not None and int(m.group(2)) == self.me + 1:
            return f"your {nice(m.group(1))}"
        return nice(name or "?")

    def value(self, v) -> Text:
        """A counter's value from a view."""
        if v is None:
            return Text("—", style="dim")
        if isinstance(v, dict):
            if "player" in v and len(v) == 1:
                return Text(self.player(v["player"], short=True))
            if v.get("hidden"):
                return Text("hidden", style="dim")
            if "ref" in v:                          # a line or a place
                return Text(str(v.get("label", v["ref"])))
            if "label" in v:
                return self.card(v)
        if isinstance(v, bool):
            return Text("yes" if v else "no")
        if isinstance(v, list):
            out = Text()
            for i, x in enumerate(v):
                if i:
                    out.append(", ")
                out.append_text(self.value(x))
            return out
        return Text(str(v))

    # events --------------------------------------------------------------
    def events(self, evs: list) -> list:
        """Events as lines; moves of several players' cards of one zone to one place make one line."""
        out = []
        i = 0
        while i < len(evs):
            ev = evs[i]
            m = _SLOT_OF_PLAYER.match(ev.get("from") or "") if ev.get("t") == "move" else None
            j = i + 1
            if ev.get("t") == "move":
                while j < len(evs) and evs[j].get("t") == "move" and evs[j].get("from") == ev.get("from") \
                        and evs[j].get("to") == ev.get("to"):
                    j += 1
                if j - i > 1:
                    cards = None if any(e.get("cards") is None for e in evs[i:j]) else \
                        [c for e in evs[i:j] for c in e["cards"]]
                    merged = {**ev, "cards": cards, "count": sum(len(e["cards"]) if e.get("cards") is not None
                                                                 else e.get("count", 0) for e in evs[i:j])}
                    out.append(self.event(merged))
                    i = j
                    continue
            md = _SLOT_OF_PLAYER.match(ev.get("to") or "") if ev.get("t") == "move" else None
            if md and ev.get("cards") is None:
                # the same number of hidden cards from one place to each of several players
                owners = [int(md.group(2))]
                while j < len(evs):
                    e2 = evs[j]
                    m2 = _SLOT_OF_PLAYER.match(e2.get("to") or "") if e2.get("t") == "move" else None
                    if not (m2 and m2.group(1) == md.group(1) and e2.get("from") == ev.get("from")
                            and e2.get("cards") is None and e2.get("count") == ev.get("count")
                            and int(m2.group(2)) not in owners):
                        break
                    owners.append(int(m2.group(2)))
                    j += 1
                if j - i > 1:
                    k = ev.get("count", 0)
                    line = Text(f"{self.slot(ev.get('from', ''))} → {self._players_of(md.group(1), owners)}  ")
                    line.append(f"{k} card{'s' if k != 1 else ''} each", style="dim")
                    out.append(line)
                    i = j
                    continue
            if m:
                owners = [int(m.group(2))]
                while j < len(evs):
                    e2 = evs[j]
                    m2 = _SLOT_OF_PLAYER.match(e2.get("from") or "") if e2.get("t") == "move" else None
                    if not (m2 and m2.group(1) == m.group(1) and e2.get("to") == ev.get("to")
                            and int(m2.group(2)) not in owners):
                        break
                    owners.append(int(m2.group(2)))
                    j += 1
            if j - i > 1:
                out.append(self._merged(evs[i:j], m.group(1), owners))
            else:
                line = self.event(ev)
                if line is not None:
                    out.append(line)
            i = j
        return out

    def _players_of(self, base: str, owners: list) -> str:
        if self.n and sorted(owners) == list(range(1, self.n + 1)):
            return f"{nice(base)} of everyone"
        return f"{nice(base)} of players {', '.join(str(o) for o in owners)}"

    def _merged(self, evs: list, base: str, owners: list) -> Text:
        src = self._players_of(base, owners)
        out = Text(f"{src} → {self.slot(evs[0].get('to', ''))}  ")
        hidden = 0
        shown = []
        for ev in evs:
            if ev.get("cards") is None:
                hidden += ev.get("count", 0)
            else:
                shown.extend(ev["cards"])
        if shown:
            out.append_text(self.cards_text(shown, width=self._ew(), start=len(out.plain)))
        if hidden:
            if shown:
                out.append(" · ", style="dim")
            out.append(f"{hidden} card{'s' if hidden != 1 else ''}", style="dim")
        return out

    def event(self, ev: dict) -> Optional[Text]:
        """One event (already filtered for the viewer) as a line, or ``None`` to leave it out."""
        t = ev.get("t")
        if t == "move":
            return self._move(ev)
        if t == "phase":
            return Text(f"— {nice(ev.get('name', ''))} —", style="dim")
        if t == "shuffle":
            return Text(f"{self.slot(ev.get('zone', ''))} shuffled", style="dim")
        if t in ("reveal", "race"):
            return self._together(ev)
        if t == "exchange":
            a, b = ev.get("zones", ["?", "?"])
            out = Text(f"{self.slot(a)} ⇄ {self.slot(b)}: ")
            if ev.get("cards"):
                out.append_text(self.cards_text(ev["cards"], width=self._ew(), start=len(out.plain)))
                out.append(" swapped")
            else:
                out.append("two cards swapped", style="dim")
            return out
        if t == "announce":
            return Text(str(ev.get("text", "")), style="bold")
        if t == "tally":
            return tally_table(ev, self, score_notes(self.game) if self.game is not None else ())
        if t in ("end game", "end"):
            return Text("the game is over", style="bold") if t == "end" else None
        if t == "decision":
            return None          # what a choice did shows in the events that follow it
        if t == "counter":
            return self._counter(ev)
        return Text(str(ev), style="dim")

    def _counter(self, ev: dict) -> Text:
        """A counter that changed: ``first player: player 2``, ``score of you: 5``."""
        name = nice(ev.get("name", ""))
        if ev.get("owner") is not None:
            name += f" of {self.player(ev['owner'], short=True)}"
        elif ev.get("card") is not None:
            name += f" of {self.card(ev['card']).plain}"
        out = Text(f"{name}: ", style="dim")
        v = ev.get("value")
        kind = self.game.program.counter_kind.get(ev.get("name")) if self.game is not None else None
        if ev.get("hidden"):
            out.append("a card you cannot see", style="dim")
        elif kind == "card" and isinstance(v, int) and not isinstance(v, bool):
            out.append_text(self.card(v))
        elif kind == "player" and isinstance(v, int) and not isinstance(v, bool):
            out.append(self.player(v, short=True))
        elif isinstance(v, str) and re.fullmatch(r"(row|col):\d+:\d+", v):
            what, _slot, i = v.split(":")
            out.append(f"{'row' if what == 'row' else 'column'} {int(i) + 1}")
        else:
            out.append_text(self.value(v))
        return out

    def _move(self, ev: dict) -> Text:
        src, dst = ev.get("from", ""), ev.get("to", "")
        ms, md = _SLOT_OF_PLAYER.match(src or ""), _SLOT_OF_PLAYER.match(dst or "")
        out = Text()
        if ms and md and ms.group(2) == md.group(2):
            who = self.player(int(ms.group(2)) - 1, short=True)
            out.append(f"{who}: {nice(ms.group(1))} → {nice(md.group(1))}")
        else:
            out.append(f"{self.slot(src)} → {self.slot(dst)}")
        out.append("  ")
        if ev.get("cards") is None:
            n = ev.get("count", 0)
            out.append(f"{n} card{'s' if n != 1 else ''}", style="dim")
        else:
            out.append_text(self.cards_text(ev["cards"], width=self._ew(), start=len(out.plain)))
        return out

    def _ew(self) -> Optional[int]:
        return self.width - 2 if self.width else None       # an event line is indented by a bullet

    def _together(self, ev: dict) -> Text:
        race = ev.get("t") == "race"
        out = Text("race: " if race else "reveal: ", style="bold")
        times = ev.get("times") or []
        for i, ch in enumerate(ev.get("choices", [])):
            if i:
                out.append(" · ", style="dim")
            if race:
                out.append(f"{ordinal(i + 1)} ")
            out.append(self.player(ch.get("player"), short=True) + " ")
            out.append_text(self.option_id(ch.get("option")))
            if race and i < len(times):
                out.append(f" {times[i]:.2f}s", style="dim")
        return out


def bullets(lines: list) -> Table:
    """Lines with a bullet each; a line that wraps stays indented under its bullet."""
    g = Table.grid(padding=(0, 1))
    g.add_column(style="dim", no_wrap=True)
    g.add_column()
    for ln in lines:
        g.add_row("•", ln)
    return g


def _stdin_is_tty() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def nice(name: str) -> str:
    return str(name).replace("_", " ")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# --------------------------------------------------------------- the table

def render_view(p: Painter, view: dict, hide_zone: Optional[set] = None, mine: Iterable = ()) -> Group:
    """The table as ``view`` shows it: shared zones, a row per player, the shared counters; then
    the zones in ``mine`` (the viewer's private zones), card by card."""
    parts: list = []
    zones = view.get("zones", [])
    n = view.get("players", 0)
    me = view.get("you")
    shared = [z for z in zones if z.get("owner") is None]
    per = [z for z in zones if z.get("owner") is not None]

    # shared zones: open ones with their cards, closed ones as counts, empty ones in one line
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column()
    hidden, empty, rows = [], [], []
    for z in shared:
        name = nice(z["zone"])
        if z.get("count", 0) == 0:
            empty.append(name)
            continue
        if not _open(z):
            hidden.append(f"{name} {z['count']}")
            continue
        rows.append((name, z))
    mine = list(mine)
    labels = [nm for nm, _ in rows] + [f"your {nice(z['zone'])}" for z in mine]
    labels += ["face down"] if hidden else []
    labels += ["empty"] if empty else []
    avail = (p.width - max(len(x) for x in labels) - 1) if (p.width and labels) else None
    counters = view.get("counters", {}) or {}
    for name, z in rows:
        marks = [(v["line"], v["index"], nice(k)) for k, v in counters.items()
                 if isinstance(v, dict) and v.get("zone") == z["zone"] and v.get("line") in ("row", "col")]
        grid.add_row(name, _zone_cards(p, z, width=avail, marks=marks))
    if hidden:
        grid.add_row(Text("face down", style="dim"), Text(" · ".join(hidden)))
    if empty:
        grid.add_row(Text("empty", style="dim"), Text(", ".join(empty), style="dim"))
    if grid.row_count:
        parts.append(grid)
    if mine:
        g2 = Table.grid(padding=(0, 1))
        g2.add_column(no_wrap=True, style="bold")
        g2.add_column()
        for z in mine:
            g2.add_row(f"your {nice(z['zone'])}", p.cards_text(z["cards"], width=avail))
        later = g2
    else:
        later = None

    # per-player zones and counters: one row per player
    names = []
    for z in per:
        if z["zone"] not in names:
            names.append(z["zone"])
    by = {(z["zone"], z["owner"]): z for z in per}
    cols = [nm for nm in names if any(by.get((nm, pl), {}).get("count", 0) for pl in range(n))]
    pcounters = {k: v for k, v in counters.items() if isinstance(v, list) and len(v) == n and n > 1}
    scounters = {k: v for k, v in counters.items() if k not in pcounters and not _per_card(v)}
    ccounters = {k: v for k, v in counters.items() if _per_card(v)}
    if n and (cols or pcounters):
        t = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False, expand=False)
        t.add_column("player", no_wrap=True)
        for nm in cols:
            t.add_column(nice(nm), overflow="fold")
        for k in pcounters:
            t.add_column(nice(k), justify="right")
        for pl in range(n):
            who = Text(("▸ " if pl == me else "  ") + f"{pl + 1} ")
            who.append(p.seat_name(pl), style="bold" if pl == me else "")
            row = [who]
            for nm in cols:
                z = by.get((nm, pl))
                row.append(_cell(p, z, pl == me and (hide_zone is None or nm in hide_zone)))
            for k, v in pcounters.items():
                row.append(p.value(v[pl]))
            t.add_row(*row)
        parts.append(t)
    quiet = [nice(nm) for nm in names if nm not in cols]
    if quiet:
        parts.append(Text("empty for everyone: " + ", ".join(quiet), style="dim"))
    if scounters:
        line = Text()
        for i, (k, v) in enumerate(scounters.items()):
            if i:
                line.append(" · ", style="dim")
            line.append(nice(k) + ": ", style="bold")
            line.append_text(p.value(v))
        parts.append(line)
    for k, v in ccounters.items():          # counters of each card: "meal: Shadow tuna · ..."
        if not v:
            continue
        line = Text(nice(k) + ": ", style="bold")
        for i, (cid, x) in enumerate(v.items()):
            if i:
                line.append(" · ", style="dim")
            cd = p.card_dict(int(cid))
            line.append_text(p.card(cd) if cd else Text(f"card {cid}"))
            line.append(": ")
            line.append_text(p.value(x))
        parts.append(line)
    if later is not None:
        parts.append(later)
    return Group(*parts)


def _per_card(v) -> bool:
    """A counter of each card, as views show it: card id (a digit string) -> value."""
    return isinstance(v, dict) and (not v or all(isinstance(k, str) and k.isdigit() for k in v))


def _open(z: dict) -> bool:
    return z.get("cards") is not None or z.get("cells") is not None or z.get("lines") is not None


def _zone_cards(p: Painter, z: dict, limit: int = 12, width: Optional[int] = None, marks=()):
    shape = z.get("shape")
    if shape == "grid" and z.get("cells") is not None:
        # a grid: rows and columns numbered so a line can be named ("row 2", "column 3");
        # a counter that holds a line of this grid (a token beside it) is drawn beside it
        g = Table.grid(padding=(0, 2))
        cols = max(1, z.get("cols", 1))
        g.add_column(style="dim", no_wrap=True)
        for _ in range(cols):
            g.add_column()
        g.add_column(style="bold yellow", no_wrap=True)
        col_marks = {i: name for kind, i, name in marks if kind == "col"}
        row_marks = {i: name for kind, i, name in marks if kind == "row"}
        head = [Text("")] + [Text(f"col {c + 1}" + (f" ▼ {col_marks[c]}" if c in col_marks else ""),
                                  style="bold yellow" if c in col_marks else "dim") for c in range(cols)]
        g.add_row(*head, Text(""))
        cells = z["cells"]
        for r in range(z.get("rows", 1)):
            g.add_row(Text(f"row {r + 1}"),
                      *[(p.card(c) if c is not None else Text("·", style="dim"))
                        for c in cells[r * cols:(r + 1) * cols]],
                      Text(f"◀ {row_marks[r]}") if r in row_marks else Text(""))
        return g
    if shape == "lines" and z.get("lines") is not None:
        out = Text()
        for i, line in enumerate(z["lines"]):
            if i:
                out.append("\n")
            out.append(f"{i + 1}: ", style="dim")
            out.append_text(p.cards_text(line, limit, width=width, start=len(f"{i + 1}: "))
                            if line else Text("—", style="dim"))
        return out
    return p.cards_text(z.get("cards") or [], limit, width=width)


def _cell(p: Painter, z: Optional[dict], counted: bool):
    if z is None or z.get("count", 0) == 0:
        return Text("—", style="dim")
    if counted or not _open(z):
        n = z["count"]
        return Text(f"{n} card{'s' if n != 1 else ''}", style="" if counted else "dim")
    if z.get("cards") is not None:
        return p.cards_text(z["cards"], limit=12, compress=True)
    return _zone_cards(p, z, 8)


def score_table(scores: list, winners: Iterable[int], painter: Painter, notes: Iterable[str] = ()) -> Table:
    """The final scores: one row per player, a column per score item (notes marked), the total."""
    notes = set(notes)
    winners = set(winners)
    items = [k for k in (scores[0] if scores else {}) if k != "total"]
    if len(items) > 5:
        return _score_table_by_item(scores, winners, painter, notes, items)
    t = Table(title="Final score", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, title_style="bold")
    t.add_column("player", no_wrap=True)
    for k in items:
        t.add_column(nice(k) + (" (note)" if k in notes else ""), justify="right",
                     style="dim" if k in notes else "")
    t.add_column("total", justify="right", style="bold")
    for pl, row in enumerate(scores):
        who = Text(("★ " if pl in winners else "  ") + f"{pl + 1} {painter.seat_name(pl)}")
        if pl in winners:
            who.stylize("bold")
        t.add_row(who, *[_num(row.get(k)) for k in items], _num(row.get("total")))
    return t


def _score_table_by_item(scores, winners, painter, notes, items, title="Final score",
                         total_label="total") -> Table:
    """Many score items: one row per item and a column per player, so it fits 80 columns."""
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, title_style="bold",
              title_justify="center" if title == "Final score" else "left")
    t.add_column("", no_wrap=True)
    for pl in range(len(scores)):
        head = ("★ " if pl in winners else "") + f"{pl + 1} {painter.seat_name(pl)}"
        t.add_column(head, justify="right", style="bold" if pl in winners else "", overflow="fold")
    for k in items:
        t.add_row(Text(nice(k) + (" (note)" if k in notes else ""), style="dim" if k in notes else ""),
                  *[Text(_num(row.get(k)), style="dim" if k in notes else "") for row in scores])
    t.add_section()
    t.add_row(Text(total_label, style="bold"), *[Text(_num(row.get("total")), style="bold") for row in scores])
    return t


def tally_table(ev: dict, painter: Painter, notes: Iterable[str] = ()) -> Table:
    """A ``tally`` event: each item of this score, this score's total and the running totals."""
    scores, totals = ev.get("scores", []), ev.get("totals", [])
    items = [k for k in (scores[0] if scores else {}) if k != "total"]
    t = _score_table_by_item(scores, (), painter, set(notes), items, title=f"Score {ev.get('number', '')}",
                             total_label="this time")
    if totals:
        t.add_row(Text("running total", style="bold"),
                  *[Text(_num(row.get("total")), style="bold cyan") for row in totals])
    return t


def winners_line(winners: list, painter: Painter) -> Text:
    names = [painter.player(w) for w in winners]
    if painter.me is not None and painter.me in winners:
        if len(winners) == 1:
            return Text("You win!", style="bold")
        return Text("You share the win with " + ", ".join(n for n in names if n != "you") + ".", style="bold")
    if len(names) == 1:
        return Text(f"Winner: {names[0]}", style="bold")
    return Text("Winners (shared): " + ", ".join(names), style="bold")


def score_notes(game) -> list:
    """The names of a game's ``note`` score items (shown, not counted)."""
    return [name for name, counted in game.score_items if not counted]


def _num(v) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


# ------------------------------------------------------------------ seats

class TerminalSeat(Seat):
    """A person at a terminal.

    ``console`` is where the screen goes (default: a new :class:`rich.console.Console`), ``input`` a
    callable like :func:`input` (it gets the prompt text) for tests; by default the console reads
    the keyboard.  ``game`` lets the seat name cards that left the player's sight; ``names`` are
    the other seats' names for the tables.  Typing ``q`` raises :class:`Quit`; end of input raises
    :class:`EOFError` and Ctrl-C :class:`KeyboardInterrupt`, which the command line turns into a
    save file.
    """

    name = "human"
    interactive = True

    def __init__(self, console: Optional[Console] = None, input: Optional[Callable[[str], str]] = None,
                 game=None, names: Optional[list] = None, show_scores: bool = True,
                 max_events: int = 40):
        self.console = console or Console(highlight=False)
        self._input = input
        self.game = game
        self.names = names
        self.show_scores = show_scores
        self.max_events = max_events
        self.events: list = []
        self.painter: Optional[Painter] = None
        self.decisions = 0

    def start(self, table, player: int) -> None:
        super().start(table, player)
        game = self.game if self.game is not None else getattr(table, "game", None)
        self.painter = Painter(game, player, self.names)
        title = getattr(game, "title", None) or "the game"
        self.console.print(Rule(Text(f"{title} · you are player {player + 1}", style="bold")))
        self.console.print(Text("Type the number of your choice and Enter; Enter alone takes the "
                                "default (*); ? shows the table again; q saves and quits.", style="dim"))

    def show(self, view: dict, events: list) -> None:
        self.painter.n = view.get("players", self.painter.n)
        self.events.extend(events)

    def _flush_events(self) -> None:
        lines = self.painter.events(self.events)
        self.events = []
        if not lines:
            return
        if len(lines) > self.max_events:
            skipped = len(lines) - self.max_events
            lines = [Text(f"… {skipped} earlier events", style="dim")] + lines[-self.max_events:]
        self.console.print(bullets(lines))

    def decide(self, view: dict, decision) -> Choice:
        c = self.console
        self.decisions += 1
        self.painter.n = view.get("players", self.painter.n)
        self.painter.width = c.width
        self._flush_events()
        opts = decision.options
        self._screen(view, decision)
        t0 = time.monotonic()
        while True:
            prompt = self._prompt(decision)
            try:
                raw = self._ask(prompt)
            except StopIteration:
                raise EOFError from None
            ans = (raw or "").strip()
            low = ans.lower()
            if low in ("q", "quit", "exit"):
                raise Quit()
            if low in ("?", "h", "help"):
                self._screen(view, decision)
                continue
            if not ans:
                if decision.default is not None:
                    return self._choice(decision, decision.default, t0)
                c.print(Text(f"This choice has no default: type a number from 1 to {len(opts)}.",
                             style="yellow"))
                continue
            if ans.isdigit():
                k = int(ans)
                if 1 <= k <= len(opts):
                    return self._choice(decision, opts[k - 1].id, t0)
                c.print(Text(f"{k} is not one of the options: type a number from 1 to {len(opts)}.",
                             style="yellow"))
                continue
            found = [o for o in opts if low in (o.id.lower(), str(o.label).lower())]
            if len(found) == 1:
                return self._choice(decision, found[0].id, t0)
            c.print(Text(f"{ans!r} is not an option: type a number from 1 to {len(opts)}"
                         + (", or Enter for the default." if decision.default is not None else "."),
                         style="yellow"))

    def _choice(self, decision, oid: str, t0: float) -> Choice:
        rt = round(time.monotonic() - t0, 4) if decision.timed else None
        if rt is not None:
            self.console.print(Text(f"your time: {rt:.2f} s", style="dim"))
        return Choice(oid, rt)

    def _ask(self, prompt: Text) -> str:
        if self._input is None:
            answer = self.console.input(prompt)
            if not _stdin_is_tty():
                self.console.print(Text(answer))    # scripted input: echo it as a terminal would
            return answer
        self.console.print(prompt, end="")
        answer = self._input(prompt.plain)
        self.console.print(Text(str(answer)))       # the echo a terminal would show
        return answer

    def _prompt(self, decision) -> Text:
        n = len(decision.options)
        t = Text("Your choice", style="bold")
        rng = "1" if n == 1 else f"1-{n}"
        t.append(f" [{rng}")
        if decision.default is not None:
            k = next((i for i, o in enumerate(decision.options) if o.id == decision.default), None)
            if k is not None:
                t.append(f", Enter = {k + 1}")
        t.append("]: ")
        return t

    def _screen(self, view: dict, decision):
        c = self.console
        p = self.painter
        title = Text(f"decision {self.decisions}", style="bold")
        c.print(Rule(title, style="dim"))
        # the player's own private zones are listed apart, unless the options are just those cards
        opt_cards = {o.value for o in decision.options if o.kind == "card"}
        mine = [z for z in view.get("zones", []) if z.get("owner") == p.me and z.get("visibility") == "owner"
                and z.get("cards") is not None]
        hide = {z["zone"] for z in mine}
        listed = [z for z in mine if z["cards"] and {x["id"] for x in z["cards"]} != opt_cards]
        p.width = c.width
        c.print(render_view(p, view, hide, listed))
        head = Text(str(decision.prompt or "Choose"), style="bold")
        if decision.kind == "race":
            head.append("  (a race: the clock is running)", style="bold yellow")
        elif decision.kind == "secret":
            head.append("  (secret until the reveal)", style="dim")
        c.print(head)
        cells = []
        for i, o in enumerate(decision.options):
            cell = Text(f"{i + 1:>2} ", style="bold")
            cell.append_text(p.option(o))
            if o.id == decision.default:
                cell.append("*", style="bold")
            cells.append(cell)
        c.print(Columns(cells, padding=(0, 3)))

    def finish(self, view: dict) -> None:
        self._flush_events()
        if self.show_scores and "scores" in view:
            self.console.print(Rule(Text("the end", style="bold"), style="dim"))
            self.painter.width = self.console.width
            self.console.print(render_view(self.painter, view, hide_zone=set()))   # the table as it ends
            self.console.print()
            self.console.print(score_table(view["scores"], view.get("winners", []), self.painter,
                                           score_notes(self.painter.game)))
            self.console.print(winners_line(view.get("winners", []), self.painter))


class Spectator:
    """Prints a game's public events (for people watching bots), then the scores.

    Feed it events with :meth:`event` (already filtered for a spectator, e.g. with
    :func:`catrules.match.visible_event` and player ``None``) and call :meth:`flush` to print
    what came in (moves of one zone to one place are printed as one line).
    """

    def __init__(self, console: Optional[Console] = None, game=None, names: Optional[list] = None,
                 quiet: bool = False):
        self.console = console or Console(highlight=False)
        self.painter = Painter(game, None, names)
        self.quiet = quiet
        self.events: list = []

    def event(self, ev: Optional[dict]) -> None:
        if not self.quiet and ev is not None:
            self.events.append(ev)

    def flush(self) -> None:
        self.painter.width = self.console.width
        lines = self.painter.events(self.events)
        self.events = []
        if lines:
            self.console.print(bullets(lines))

    def finish(self, scores: list, winners: list) -> None:
        self.flush()
        self.console.print()
        self.console.print(score_table(scores, winners, self.painter, score_notes(self.painter.game)))
        self.console.print(winners_line(winners, self.painter))
