"""The action graph drawn as SVG, in pure Python (no Graphviz needed).

Each unit (the setup, the flow, a phase, an action, a trigger) is a box of its
steps, one row per step in file order and indented by nesting, like the game
file itself.  Inside a unit the edges are drawn square: a step goes down to the
next one, a branch to the right, branches meet again at a dot (the join), and
a loop's way back, a ``stop`` and an ``end game`` run up or down on the right.
The units stand in columns by how deep they are played or done from the flow;
``play``, ``do`` and trigger edges curve from column to column.

The text is monospaced, so its width is known without measuring fonts, and the
same graph always gives the same bytes.
"""

from __future__ import annotations

import textwrap
from xml.sax.saxutils import escape

import networkx as nx

from ..lang import ast
from ..compile.graph import END, LOOPS, is_choice

FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"
SIZE = 12
CHAR_W = 7.25         # a monospaced character at 12px is 0.6em wide; a little slack
LINE_H = 15
WRAP = 48             # characters per line of a step's text
PAD = 8
IND = 28              # indentation per nesting level
SPINE = 10            # where a step's edges run down, from the left of its box
RAIL = 20             # where branches run back to their join
GUTTER = 34           # line numbers
GAP = 14              # between rows
COL_GAP = 110
UNIT_GAP = 28
MARGIN = 16
LEGEND_H = 34

INK, MUTED, BLUE, RED, ORANGE, GREEN = "#333333", "#8a8a8a", "#2b5fb3", "#c0392b", "#c26a12", "#3b7a2a"
_FILL = {"unit": "#f4d58d", "choice": "#fde3cf", "loop": "#e3eefc", "if": "#e7f3dc", "call": "#dfe7fb",
         "jump": "#fbe0e0", "step": "#ffffff", "end": "#f3f3f3"}
_EDGE = {"loop": (MUTED, "5,3"), "stop": (ORANGE, "5,3"), "end": (RED, "5,3"), "play": (BLUE, ""),
         "call": (BLUE, ""), "trigger": (RED, "6,3")}
_RIGHT = ("loop", "stop", "end")         # edges that jump: drawn on the right of a unit


class _Box:
    __slots__ = ("key", "x", "y", "w", "h", "depth", "lines", "style", "line", "join")

    def __init__(self, key, depth, lines, style, line=0, join=False):
        self.key, self.depth, self.lines, self.style, self.line, self.join = key, depth, lines, style, line, join
        self.x = self.y = 0.0
        if join:
            self.w = self.h = 8.0
        else:
            extra = 12 if style == "choice" else 0
            self.w = max(max(len(t) for t in lines) * CHAR_W + 2 * PAD + extra, IND + SPINE + 20)
            self.h = len(lines) * LINE_H + 8

    @property
    def cy(self):
        return self.y + self.h / 2

    @property
    def right(self):
        return self.x + self.w


def _style(d: dict) -> str:
    st = d.get("stmt")
    if d.get("type") in ("unit", "end"):
        return d["type"]
    if is_choice(d):
        return "choice"
    if isinstance(st, LOOPS):
        return "loop"
    if isinstance(st, ast.If):
        return "if"
    if isinstance(st, (ast.Play, ast.Do)):
        return "call"
    if isinstance(st, (ast.StopLoop, ast.EndGame)):
        return "jump"
    return "step"


def _wrap(s: str) -> list:
    return textwrap.wrap(s, WRAP, subsequent_indent="  ", break_on_hyphens=False) or [""]


class _Unit:
    """One unit laid out in its own coordinates: boxes, branch captions, edges."""

    def __init__(self, G: nx.DiGraph, key: str):
        self.key = key
        members = sorted((n for n, d in G.nodes(data=True) if d.get("unit") == key),
                         key=lambda n: G.nodes[n]["order"])
        self.boxes = {}
        for n in members:
            d = G.nodes[n]
            depth = d.get("depth", 0)
            if d["type"] == "join":
                self.boxes[n] = _Box(n, depth, [], "join", join=True)
            else:
                label = "end" if d["type"] == "end" and n != END else d["label"]
                self.boxes[n] = _Box(n, depth, _wrap(label), _style(d), d.get("line", 0))
        # a branch that does not start right under its `if` gets its condition written above it
        captions = {}
        for u, v, d in G.edges(data=True):
            if v in self.boxes and d["kind"] in ("then", "else") and (
                    d["kind"] == "else" or d.get("branch") or isinstance(G.nodes[u]["stmt"], ast.Menu)):
                captions[v] = _wrap(d["label"])
        self.captions = []
        y = 0.0
        for n in members:
            b = self.boxes[n]
            b.x = GUTTER + b.depth * IND + (SPINE - b.w / 2 if b.join else 0)
            if n in captions:
                self.captions.append((GUTTER + b.depth * IND, y, captions[n]))
                y += len(captions[n]) * LINE_H + 2
            b.y = y
            y += b.h + (GAP - 4 if b.join else GAP)
        self.h = y - GAP
        self.edges = [(u, v, d) for u, v, d in G.edges(data=True) if u in self.boxes and v in self.boxes]
        self.paths = []
        self._route()
        self.w = max([b.right for b in self.boxes.values()] + [r + 10 for r, _s in self.rails])

    def _route(self) -> None:
        B = self.boxes
        jumps = []
        for u, v, d in self.edges:
            U, V, kind = B[u], B[v], d["kind"]
            if kind in _RIGHT or V.y < U.y:
                jumps.append((u, v, d))
                continue
            if V.depth > U.depth:
                x = GUTTER + V.depth * IND + SPINE
                if V.y - (U.y + U.h) <= GAP + 0.5:          # right under it: straight down
                    pts = [(x, U.y + U.h), (x, V.y)]
                else:                                        # a later branch: down the trunk, then right
                    x0 = GUTTER + U.depth * IND + SPINE
                    pts = [(x0, U.y + U.h), (x0, V.cy), (V.x, V.cy)]
            elif V.depth == U.depth:
                x = GUTTER + U.depth * IND + SPINE
                pts = [(x, U.y + U.h), (x, V.y)]
            else:                                            # back out to a join (or the step after)
                # out of the bottom and left in the gap under it: the trunk comes in from the left
                x = GUTTER + V.depth * IND + RAIL
                sx, below = U.x + (U.w / 2 if U.join else 5), U.y + U.h + 5
                pts = [(sx, U.y + U.h), (sx, below), (x, below)]
                pts += [(x, V.cy), (V.right, V.cy)] if V.join else [(x, V.y)]
            self.paths.append((pts, kind, d))
        # jumps run on rails right of every box they pass; the shortest first, nearest the boxes
        self.rails = []
        jumps.sort(key=lambda e: (abs(B[e[1]].y - B[e[0]].y), B[e[0]].y))
        for u, v, d in jumps:
            U, V = B[u], B[v]
            # out above the middle, in below it: a loop's own way back never crosses an outer one's
            y1, y2 = U.cy - (0 if U.join else 3), V.cy + (0 if V.join else 3)
            lo, hi = min(y1, y2), max(y1, y2)
            r = max(b.right for b in B.values() if b.y <= hi and b.y + b.h >= lo) + 12
            for r2, (lo2, hi2) in self.rails:
                if lo2 <= hi and hi2 >= lo:
                    r = max(r, r2 + 8)
            self.rails.append((r, (lo, hi)))
            self.paths.append(([(U.right, y1), (r, y1), (r, y2), (V.right, y2)], d["kind"], d))


def _columns(G: nx.DiGraph, units: list) -> dict:
    """Column of each unit: how many ``play``/``do``/trigger hops from the setup or the flow."""
    calls = nx.DiGraph()
    calls.add_nodes_from(units)
    for u, v, d in sorted(G.edges(data=True), key=lambda e: (G.nodes[e[0]].get("order", 0), e[0], e[1])):
        if d["kind"] in ("play", "call", "trigger"):
            calls.add_edge(G.nodes[u]["unit"], v)
    col = {}
    for root in [u for u in ("setup", "flow") if u in calls]:
        for n, depth in nx.single_source_shortest_path_length(calls, root).items():
            col[n] = min(col.get(n, depth), depth)
    last = max(col.values(), default=0) + 1
    return {u: col.get(u, last) for u in units}


def to_svg(G: nx.DiGraph) -> str:
    """The whole action graph as one SVG document."""
    # a unit with no step and no line (a game without `setup:`) is left out
    units = [n for n, d in G.nodes(data=True) if d.get("type") == "unit"
             and (d.get("line") or G.nodes[next(iter(G.successors(n)))].get("type") != "end")]
    lay = {u: _Unit(G, u) for u in units}
    col = _columns(G, units)
    # place units column by column; a unit starts level with its first caller when there is room
    pos: dict = {}
    x = MARGIN
    top = MARGIN + LEGEND_H
    for c in sorted(set(col.values())):
        members = [u for u in units if col[u] == c]

        def wanted(u):
            ys = [pos[G.nodes[s]["unit"]][1] + lay[G.nodes[s]["unit"]].boxes[s].y
                  for s, _v, d in G.in_edges(u, data=True) if d["kind"] in ("play", "call", "trigger")
                  and G.nodes[s]["unit"] in pos]
            return min(ys) if ys else top
        members.sort(key=lambda u: (wanted(u), units.index(u)))
        y = top
        for u in members:
            y = max(y, wanted(u) - 4)
            pos[u] = (x, y)
            y += lay[u].h + 2 * PAD + UNIT_GAP
        x += max(lay[u].w for u in members) + 2 * PAD + COL_GAP
    legend, legend_w = _legend(G.graph.get("title", "game"))
    width = max(x - COL_GAP + MARGIN, legend_w + MARGIN)
    height = max(pos[u][1] + lay[u].h + 2 * PAD for u in units) + MARGIN
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
           f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="{FONT}" font-size="{SIZE}">',
           f"<title>{escape(G.graph.get('title', 'game'))}: action graph</title>", _defs(),
           f'<rect width="{_n(width)}" height="{_n(height)}" fill="#ffffff"/>']
    out += legend
    for u in units:
        out += _draw_unit(G, lay[u], *pos[u])
    out += _draw_calls(G, lay, pos, col)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _draw_unit(G, L: _Unit, ox: float, oy: float) -> list:
    X, Y = ox + PAD, oy + PAD
    out = [f'<g class="unit" id="{_id(L.key)}">',
           f'<rect x="{_n(ox)}" y="{_n(oy)}" width="{_n(L.w + 2 * PAD)}" height="{_n(L.h + 2 * PAD)}" '
           f'rx="8" fill="#fafafa" stroke="#d0d0d0"/>']
    for pts, kind, d in L.paths:
        out.append(_path([(X + px, Y + py) for px, py in pts], kind, d))
    for cx, cy, lines in L.captions:
        for i, t in enumerate(lines):
            out.append(f'<text x="{_n(X + cx)}" y="{_n(Y + cy + 11 + i * LINE_H)}" fill="{GREEN}" '
                       f'font-style="italic">{escape(t)}</text>')
    for b in L.boxes.values():
        out += _draw_box(G, b, X, Y)
    out.append("</g>")
    return out


def _draw_box(G, b: _Box, X: float, Y: float) -> list:
    d = G.nodes[b.key]
    x, y = X + b.x, Y + b.y
    cls = {"unit": "unit-head", "end": "end", "join": "join"}.get(d["type"], "step")
    title = escape(d.get("label", "") + (f" (line {d['line']})" if d.get("line") and not b.join else ""))
    out = [f'<g class="{cls}" id="{_id(b.key)}"><title>{title}</title>']
    if b.join:
        out.append(f'<circle cx="{_n(x + b.w / 2)}" cy="{_n(y + b.h / 2)}" r="4" fill="{INK}"/>')
        return out + ["</g>"]
    fill = _FILL[b.style]
    stroke = {"choice": ORANGE, "call": BLUE, "jump": RED, "end": MUTED}.get(b.style, INK)
    if b.style == "choice":                 # a choice: pointed ends
        e = 6
        pts = [(x, y + b.h / 2), (x + e, y), (x + b.w - e, y), (x + b.w, y + b.h / 2), (x + b.w - e, y + b.h),
               (x + e, y + b.h)]
        out.append(f'<polygon points="{" ".join(f"{_n(px)},{_n(py)}" for px, py in pts)}" fill="{fill}" '
                   f'stroke="{stroke}"/>')
    else:
        rx = 9 if b.style in ("unit", "end") else 3
        dash = ' stroke-dasharray="4,3"' if b.style == "end" else ""
        out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(b.w)}" height="{_n(b.h)}" rx="{rx}" '
                   f'fill="{fill}" stroke="{stroke}"{dash}/>')
    tx = x + PAD + (6 if b.style == "choice" else 0)
    weight = ' font-weight="bold"' if b.style == "unit" else ""
    for i, t in enumerate(b.lines):
        out.append(f'<text x="{_n(tx)}" y="{_n(y + 15 + i * LINE_H)}" fill="{INK}"{weight} '
                   f'xml:space="preserve">{escape(t)}</text>')
    if b.line:
        out.append(f'<text x="{_n(X + GUTTER - 6)}" y="{_n(y + 15)}" fill="{MUTED}" font-size="10" '
                   f'text-anchor="end">{b.line}</text>')
    return out + ["</g>"]


def _draw_calls(G, lay: dict, pos: dict, col: dict) -> list:
    """``play``, ``do``, trigger (and far ``end game``) edges between units, as curves."""
    out = []
    for u, v, d in G.edges(data=True):
        su, tu = G.nodes[u]["unit"], G.nodes[v]["unit"]
        if su == tu:
            continue
        S, T = lay[su], lay[tu]
        sx, sy = pos[su]
        tx, ty = pos[tu]
        b, t = S.boxes[u], T.boxes[v]
        y1 = sy + PAD + b.cy
        y2 = ty + PAD + t.cy
        if col[tu] > col[su]:                       # forward: out of the right side, into the left
            x0, x1 = sx + PAD + b.right, sx + S.w + 2 * PAD
            x2, x3 = tx, tx + PAD + t.x
            c1, c2 = x1 + COL_GAP / 2, x2 - COL_GAP / 2
        elif col[tu] < col[su]:                     # back: out of the left side, into the right
            x0, x1 = sx + PAD + b.x, sx
            x2, x3 = tx + T.w + 2 * PAD, tx + PAD + t.right
            c1, c2 = x1 - COL_GAP / 2, x2 + COL_GAP / 2
        else:                                       # same column: round on the right
            x0, x1 = sx + PAD + b.right, sx + S.w + 2 * PAD
            x2, x3 = tx + T.w + 2 * PAD, tx + PAD + t.right
            c1 = c2 = max(x1, x2) + COL_GAP / 2
        color, dash = _EDGE[d["kind"]]
        dash = f' stroke-dasharray="{dash}"' if dash else ""
        # a curve ends at the unit's border: inside, the unit's first line is the target
        end = "" if t.key == tu else f" H{_n(x3)}"
        out.append(f'<path class="edge {d["kind"]}" d="M{_n(x0)},{_n(y1)} H{_n(x1)} C{_n(c1)},{_n(y1)} '
                   f'{_n(c2)},{_n(y2)} {_n(x2)},{_n(y2)}{end}" fill="none" stroke="{color}" '
                   f'stroke-width="1.3"{dash} marker-end="url(#arrow-{_marker(color)})"/>')
    return out


def _path(pts: list, kind: str, d: dict) -> str:
    color, dash = _EDGE.get(kind, (INK, ""))
    if d.get("dead"):
        color, dash = MUTED, "2,3"
    dash = f' stroke-dasharray="{dash}"' if dash else ""
    dpath = "M" + " L".join(f"{_n(x)},{_n(y)}" for x, y in pts)
    return (f'<path class="edge {kind}" d="{dpath}" fill="none" stroke="{color}"{dash} '
            f'marker-end="url(#arrow-{_marker(color)})"/>')


_MARKERS = {INK: "ink", MUTED: "muted", BLUE: "blue", RED: "red", ORANGE: "orange"}


def _marker(color: str) -> str:
    return _MARKERS[color]


def _defs() -> str:
    marks = "".join(
        f'<marker id="arrow-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        f'orient="auto-start-reverse"><path d="M0,1 L9,5 L0,9 z" fill="{color}"/></marker>'
        for color, name in _MARKERS.items())
    return f"<defs>{marks}</defs>"


def _legend(title: str) -> tuple:
    out = [f'<text x="{MARGIN}" y="{MARGIN + 12}" font-weight="bold" font-size="14">'
           f'{escape(title)}: action graph</text>']
    items = [("step", "step"), ("choice", "a player chooses"), ("if", "if"), ("loop", "loop"),
             ("call", "play / do"), ("jump", "stop / end game")]
    x = MARGIN + (len(title) + 16) * 8.5
    for style, words in items:
        out.append(f'<rect x="{_n(x)}" y="{MARGIN + 2}" width="18" height="12" rx="2" fill="{_FILL[style]}" '
                   f'stroke="{INK}"/><text x="{_n(x + 24)}" y="{MARGIN + 12}">{escape(words)}</text>')
        x += 24 + len(words) * CHAR_W + 18
    for color, words in ((MUTED, "again (loop)"), (BLUE, "runs a phase or action"), (RED, "trigger")):
        out.append(f'<path d="M{_n(x)},{MARGIN + 8} H{_n(x + 26)}" stroke="{color}" '
                   f'marker-end="url(#arrow-{_marker(color)})"/><text x="{_n(x + 32)}" y="{MARGIN + 12}">'
                   f'{escape(words)}</text>')
        x += 32 + len(words) * CHAR_W + 18
    return out, x


def _id(key: str) -> str:
    return "n-" + "".join(c if c.isalnum() or c in "-_" else "-" for c in key)


def _n(v: float) -> str:
    """A coordinate, written the same way every time."""
    return f"{v:.1f}".rstrip("0").rstrip(".")
