"""The table and the scores as rich renderables: what a view shows, for one viewer.

:func:`render_view` draws a view (shared zones, a row per player, the counters, the
viewer's own cards); :func:`score_table` the final scores, :func:`tally_table` a ``tally``
event, :func:`winners_line` who won.  Used by the line UI and the full-screen UI alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Optional

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from .pieces import Flow, ordinal

if TYPE_CHECKING:
    from .painter import Painter        # tables draw with a painter; the painter draws a tally with them


def render_view(p: Painter, view: dict, hide_zone: Optional[set] = None, mine: Iterable = ()) -> Group:
    """The table as ``view`` shows it: shared zones, a row per player, the shared counters; then
    the zones in ``mine`` (the viewer's private zones), card by card."""
    mine = list(mine)
    parts = [shared_part(p, view),
             *players_part(p, view, hide_zone), *counters_part(p, view)]
    if mine:
        parts.append(mine_part(p, mine))
    return Group(*[x for x in parts if x is not None])


def own_zones(p: Painter, view: dict) -> list:
    """The viewer's private zones that they can see (their hand...)."""
    return [z for z in view.get("zones", []) if z.get("owner") == p.me and z.get("visibility") == "owner"
            and z.get("cards") is not None]


def shared_part(p: Painter, view: dict, show_empty: bool = True):
    """The shared zones: open ones with their cards, closed ones as counts, empty ones in one line."""
    shared = [z for z in view.get("zones", []) if z.get("owner") is None]
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column()
    hidden, empty, rows = [], [], []
    for z in shared:
        name = p.sym(z["zone"])
        if z.get("count", 0) == 0:
            empty.append(name)
        elif not _open(z) and z.get("top") is not None:     # a pile with its top card face up
            rows.append((f"{name} (top of {z['count']})", {**z, "cards": [z["top"]]}))
        elif not _open(z):
            hidden.append(f"{name} {z['count']}")
        else:
            rows.append((name, z))
    counters = view.get("counters", {}) or {}
    for name, z in rows:
        marks = [(v["line"], v["index"], p.sym(k)) for k, v in counters.items()
                 if isinstance(v, dict) and v.get("zone") == z["zone"] and v.get("line") in ("row", "col")]
        grid.add_row(name, _zone_cards(p, z, marks=marks))
    if hidden:
        grid.add_row(Text("face down", style="dim"), Text(" · ".join(hidden)))
    if empty and show_empty:
        grid.add_row(Text("empty", style="dim"), Text(", ".join(empty), style="dim"))
    return grid if grid.row_count else None


def player_flow(p: Painter, view: dict, pl: int, empty: bool = False) -> Flow:
    """One player's zones and counters in as few lines as fit: ``hand: a · b   won: c   lead: 3``,
    a line breaking only between cards; a zone the viewer cannot see as a count, an empty one
    left out (with ``empty``, the player's private zones are listed even when empty), each line
    of a ``lines`` zone numbered."""
    pieces: list = []

    def group(name: str, items: list):
        # the zone's name stays on the line of its first card
        first = Text(f"{name}: ", style="bold")
        first.append_text(items[0][1] if isinstance(items[0], tuple) else items[0])
        pieces.append(("   ", first) if pieces else first)
        pieces.extend(items[1:])
    for z in view.get("zones", []):
        if z.get("owner") != pl:
            continue
        if not z.get("count") and not (empty and z.get("visibility") == "owner" and _open(z)):
            continue
        if not _open(z) and z.get("top") is not None:       # a pile with its top card face up
            items = [_top_of(z["count"]), p.card(z["top"])]
        elif not _open(z):
            n = z.get("count", 0)
            items = [Text(f"{n} card{'s' if n != 1 else ''}", style="dim")]
        elif z.get("lines") is not None:
            items = []
            for i, line in enumerate(z["lines"]):
                cards = p.card_pieces(line) or [Text("—", style="dim")]
                head = Text(f"{i + 1}: ", style="dim")
                head.append_text(cards[0])
                items += [("  ", head)] + cards[1:]
        else:
            cards = z.get("cards") if z.get("cards") is not None else [c for c in z.get("cells") or [] if c]
            items = p.card_pieces(cards, compress=True) or [Text("—", style="dim")]
        group(p.sym(z["zone"]), items)
    for k, v in _player_counters(view.get("counters", {}) or {}, view.get("players", 0)).items():
        if p.fresh((k, pl), v[pl], view):
            group(p.sym(k), [p.value(v[pl])])
    return Flow(pieces or [Text("no cards yet", style="dim")])


def others_part(p: Painter, view: dict, only: Optional[int] = None):
    """A row for each other player (or for player ``only``): their name, then :func:`player_flow`."""
    g = Table.grid(padding=(0, 1))
    g.add_column(no_wrap=True, style="bold")
    g.add_column()
    for pl in range(view.get("players", 0)):
        if pl != p.me and only in (None, pl):
            g.add_row(f"{pl + 1} {p.seat_name(pl)}", player_flow(p, view, pl))
    return g


def mine_part(p: Painter, zones: list):
    """The viewer's own zones, card by card."""
    g = Table.grid(padding=(0, 1))
    g.add_column(no_wrap=True, style="bold")
    g.add_column()
    for z in zones:
        cards = z.get("cards")
        body = _zone_cards(p, z) if cards is None else p.cards_flow(cards) if cards else Text("—", style="dim")
        g.add_row(f"your {p.sym(z['zone'])}", body)
    return g


def players_part(p: Painter, view: dict, hide_zone: Optional[set] = None, compact: bool = False) -> list:
    """A row per player: their zones (open ones with cards, others as counts) and their counters;
    ``hide_zone``: the viewer's zones shown as counts (listed elsewhere); ``compact``: no rule
    under the heading and no line of zones empty for everyone (a screen with little room)."""
    zones = view.get("zones", [])
    n = view.get("players", 0)
    me = view.get("you")
    per = [z for z in zones if z.get("owner") is not None]
    counters = view.get("counters", {}) or {}
    names = []
    for z in per:
        if z["zone"] not in names:
            names.append(z["zone"])
    by = {(z["zone"], z["owner"]): z for z in per}
    cols = [nm for nm in names if any(by.get((nm, pl), {}).get("count", 0) for pl in range(n))]
    pcounters = _player_counters(counters, n)
    out: list = []
    if n and (cols or pcounters):
        t = Table(box=None if compact else box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False,
                  expand=False, header_style="bold underline" if compact else "bold")
        t.add_column("player", no_wrap=True)
        for nm in cols:
            t.add_column(p.sym(nm))
        for k in pcounters:
            t.add_column(p.sym(k), justify="right")
        for pl in range(n):
            who = Text(("▸ " if pl == me else "  ") + f"{pl + 1} ")
            who.append(p.seat_name(pl), style="bold" if pl == me else "")
            row = [who]
            for nm in cols:
                z = by.get((nm, pl))
                row.append(_cell(p, z, pl == me and (hide_zone is None or nm in hide_zone)))
            for k, v in pcounters.items():               # a card named in a counter stays whole
                row.append(Flow([p.value(v[pl]) if p.fresh((k, pl), v[pl], view) else Text("")]))
            t.add_row(*row)
        out.append(t)
    quiet = [p.sym(nm) for nm in names if nm not in cols]
    if quiet and not compact:
        out.append(Text("empty for everyone: " + ", ".join(quiet), style="dim"))
    return out


def _player_counters(counters: dict, n: int) -> dict:
    return {k: v for k, v in counters.items() if isinstance(v, list) and len(v) == n and n > 1}


def counters_part(p: Painter, view: dict) -> list:
    """The shared counters in one line, then each counter of cards, grouped by whose cards they are."""
    line = shared_counters(p, view)
    return ([line] if line is not None else []) + card_counters(p, view)


def shared_counters(p: Painter, view: dict) -> Optional[Text]:
    """The counters that are not a player's nor a card's, in one line (``None``: there are none)."""
    counters = view.get("counters", {}) or {}
    pcounters = _player_counters(counters, view.get("players", 0))
    scounters = {k: v for k, v in counters.items()
                 if k not in pcounters and not _per_card(v) and p.fresh((k, None), v, view)}
    if not scounters:
        return None
    line = Text()
    for i, (k, v) in enumerate(scounters.items()):
        if i:
            line.append(" · ", style="dim")
        line.append(p.sym(k) + ": ", style="bold")
        line.append_text(p.value(v))
    return line


def card_counters(p: Painter, view: dict) -> list:
    """Each counter of cards, a row for each player whose cards have a value."""
    counters = view.get("counters", {}) or {}
    out: list = []
    owner = {}                              # card id -> the player whose zone holds it (None: shared)
    for z in view.get("zones", []):
        for c in _cards_of(z):
            owner[str(c["id"])] = z.get("owner")
    for k, v in counters.items():           # counters of each card: "meal  you  Shadow: tuna · ..."
        if not _per_card(v) or not v:
            continue
        groups: dict = {}
        for cid, x in v.items():
            piece = Text()
            cd = p.card_dict(int(cid))
            piece.append_text(p.card(cd) if cd else Text(f"card {cid}"))
            piece.append(": ")
            piece.append_text(p.value(x))
            groups.setdefault(owner.get(cid), []).append(piece)
        g = Table.grid(padding=(0, 1))
        g.add_column(no_wrap=True, style="bold")
        g.add_column(no_wrap=True)
        g.add_column()
        for i, (who, pieces) in enumerate(sorted(groups.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))):
            g.add_row(p.sym(k) + ":" if i == 0 else "", p.player(who, short=True) if who is not None else "",
                      Flow(pieces))
        out.append(g)
    return out


def _cards_of(z: dict) -> list:
    if z.get("cells") is not None:
        return [c for c in z["cells"] if c is not None]
    if z.get("lines") is not None:
        return [c for line in z["lines"] for c in line]
    return z.get("cards") or []


def _per_card(v) -> bool:
    """A counter of each card, as views show it: card id (a digit string) -> value."""
    return isinstance(v, dict) and (not v or all(isinstance(k, str) and k.isdigit() for k in v))


def _open(z: dict) -> bool:
    return z.get("cards") is not None or z.get("cells") is not None or z.get("lines") is not None


def _zone_cards(p: Painter, z: dict, limit: int = 12, marks=()):
    shape = z.get("shape")
    if shape == "grid" and z.get("cells") is not None:
        # a grid: rows and columns numbered so a line can be named ("row 2", "column 3");
        # a counter that holds a line of this grid (a token beside it) is drawn beside it
        g = Table.grid(padding=(0, 1))
        cols = max(1, z.get("cols", 1))
        g.add_column(style="dim", no_wrap=True)
        for _ in range(cols):
            g.add_column()
        col_marks = {i: name for kind, i, name in marks if kind == "col"}
        row_marks = {i: name for kind, i, name in marks if kind == "row"}
        # the column of row marks only when a row has one: an empty one made Rich wrap the last
        # column of cards (a short name over two lines) with room to spare
        tail = [Text("")] if row_marks else []
        if row_marks:
            g.add_column(style="bold yellow", no_wrap=True)
        head = [Text("")] + [Text(f"col {c + 1}" + (f" ▼ {col_marks[c]}" if c in col_marks else ""),
                                  style="bold yellow" if c in col_marks else "dim") for c in range(cols)]
        g.add_row(*head, *tail)
        cells = z["cells"]
        for r in range(z.get("rows", 1)):
            g.add_row(Text(f"row {r + 1}"),
                      *[(p.card(c) if c is not None else Text("·", style="dim"))
                        for c in cells[r * cols:(r + 1) * cols]],
                      *([Text(f"◀ {row_marks[r]}") if r in row_marks else Text("")] if row_marks else []))
        return g
    if shape == "lines" and z.get("lines") is not None:
        g = Table.grid(padding=(0, 1))
        g.add_column(style="dim", no_wrap=True)
        g.add_column()
        for i, line in enumerate(z["lines"]):
            g.add_row(f"{i + 1}:", p.cards_flow(line, limit) if line else Text("—", style="dim"))
        return g
    return p.cards_flow(z.get("cards") or [], limit, compress=True)


def _top_of(n: int) -> Text:
    """The count before the face-up top card of a ``public top`` pile: ``12 cards, top:``."""
    return Text(f"{n} card{'s' if n != 1 else ''}, top:", style="dim")


def _cell(p: Painter, z: Optional[dict], counted: bool):
    if z is not None and z.get("count", 0) is None:     # another player's secret zone
        return Text("hidden", style="dim")
    if z is None or z.get("count", 0) == 0:
        return Text("—", style="dim")
    if not counted and not _open(z) and z.get("top") is not None:    # its top card face up
        return Flow([_top_of(z["count"]), p.card(z["top"])])
    if counted or not _open(z):
        n = z["count"]
        return Text(f"{n} card{'s' if n != 1 else ''}", style="" if counted else "dim")
    if z.get("cards") is not None:
        return p.cards_flow(z["cards"], limit=12, compress=True)
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
        t.add_column(painter.sym(k) + (" (note)" if k in notes else ""), justify="right",
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
        t.add_row(Text(painter.sym(k) + (" (note)" if k in notes else ""), style="dim" if k in notes else ""),
                  *[Text(_num(row.get(k)), style="dim" if k in notes else "") for row in scores])
    t.add_section()
    t.add_row(Text(total_label, style="bold"), *[Text(_num(row.get("total")), style="bold") for row in scores])
    return t


def tally_table(ev: dict, painter: Painter, notes: Iterable[str] = ()) -> Table:
    """A ``tally`` event: each item of this score, this score's total and the running totals.
    Items that are 0 for everyone get no row of zeros: they are named in one line below."""
    scores, totals = ev.get("scores", []), ev.get("totals", [])
    items = [k for k in (scores[0] if scores else {}) if k != "total"]
    zero = [k for k in items if all(row.get(k) in (0, None) for row in scores)]
    t = _score_table_by_item(scores, (), painter, set(notes), [k for k in items if k not in zero],
                             title=tally_title(ev), total_label="this time")
    if totals:
        t.add_row(Text("running total", style="bold"),
                  *[Text(_num(row.get("total")), style="bold cyan") for row in totals])
    if zero:
        t.caption = "0 for everyone: " + ", ".join(painter.sym(k) for k in zero)
        t.caption_style, t.caption_justify = "dim", "left"
    return t


def tally_title(ev: dict) -> str:
    """``Score after round 1`` from the event's title, else which tally of the game this is."""
    title = ev.get("title")
    if isinstance(title, str) and title.strip():
        title = title.strip()
        return f"Score {title}" if title[:1].islower() else title
    n = ev.get("number")
    return f"Score at the {ordinal(n)} tally" if isinstance(n, int) else "Score so far"


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
