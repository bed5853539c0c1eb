"""The table and the scores as rich renderables: what a view shows, for one viewer.

:func:`render_view` draws a view (shared zones, a row per player, the counters, the
viewer's own cards); :func:`score_table` the final scores, :func:`tally_table` a ``tally``
event, :func:`winners_line` who won.  Used by the line UI and the full-screen UI alike.
"""

from __future__ import annotations

from typing import Iterable, Optional

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from .painter import Painter, nice

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
