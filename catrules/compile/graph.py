"""The action graph: a game's phases and steps as a networkx ``DiGraph``.

Nodes are *units* (the setup, the flow, each phase, action and trigger),
*steps* (one per statement, labelled with its source text and line), a
*join* after each ``if`` and ``p chooses:`` where its branches meet again,
and an *end* per unit (the flow's end is the end of the game: the score).
Edges say how control moves:

==========  ===============================================================
``start``   a unit to its first step
``next``    a step (or a join) to the step after it in the same block
``body``    a loop or ``secretly``/``race`` step to the first step inside it
``then``    an ``if``/menu step to the first step of a branch (``branch`` =
            index, ``label`` = the branch's condition or menu text)
``else``    an ``if`` step to the first step of its ``else`` block
``skip``    an ``if`` without ``else`` to its join (no branch taken)
``join``    the last step of a branch to the join of its ``if`` or menu
``loop``    the last step of a loop body back to the loop
``return``  the last step of a unit to the unit's end
``stop``    a ``stop`` to where the game goes on after its loop
``end``     an ``end game`` to the end of the game
``play``    a ``play`` step to the phase it runs (``call``: ``do`` to an action)
``trigger`` a ``move`` step to a trigger on the zone it moves cards into
==========  ===============================================================

A ``next`` edge with ``dead=True`` leads from a ``stop`` or ``end game`` to
statements after it in its block, which never run; it keeps the block whole.
A loop's ``next`` edge is its way out once it is done.

Each step has ``stmt``, ``label``, ``line``, ``unit``, ``depth`` (its
nesting in the unit) and ``order`` (its place in the unit, as in the file).
The compiler walks this graph (:func:`steps`) to build the executable form;
``catrules graph`` exports it as Graphviz dot, Mermaid or SVG
(:mod:`catrules.authoring.graph_render`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lang import ast
from ..lang import source_text as text
from ..check.checked import Checked
from .light_graph import DiGraph

if TYPE_CHECKING:                      # the real graph type, for readers; not imported to play
    import networkx as nx

END = "end"
LOOPS = (ast.RepeatTimes, ast.RepeatUntil, ast.ForPlayers, ast.ForEach, ast.Together)


def unit_key(kind: str, name) -> str:
    return f"{kind}:{name}"


def build(checked: Checked) -> nx.DiGraph:
    g = checked.game
    G = DiGraph(title=g.title)       # networkx's interface, without importing it (Game.graph converts)
    units = [("setup", "setup", g.setup, g.setup_pos[0]), ("flow", "flow", g.flow, g.flow_pos[0])]
    units += [(unit_key("phase", p.name), f"phase {p.name}", p.body, p.line) for p in g.phases]
    units += [(unit_key("action", a.name), text.action(a), a.body, a.line) for a in g.actions]
    units += [(unit_key("trigger", i), text.trigger(t), t.body, t.line) for i, t in enumerate(g.triggers)]
    b = _Builder(G)
    for key, label, body, line in units:
        G.add_node(key, type="unit", label=label, line=line, unit=key, depth=0, order=0)
        b.order = 0
        b.nodes(body, key, 0)
        end = END if key == "flow" else f"{key}:end"
        b.order += 1
        G.add_node(end, type="end", unit=key, depth=0, order=b.order, line=0,
                   label="end of the game: score" if end == END else f"end of {label.split('(')[0]}")
        G.add_edge(key, b.wire(body, end, "return", None) if body else end, kind="start")
    # calls and triggers
    trig_by_zone: dict = {}
    for i, t in enumerate(g.triggers):
        trig_by_zone.setdefault(t.zone, []).append(unit_key("trigger", i))
    for node, data in list(G.nodes(data=True)):
        st = data.get("stmt")
        if isinstance(st, ast.Play):
            G.add_edge(node, unit_key("phase", st.phase), kind="play")
        elif isinstance(st, ast.Do):
            G.add_edge(node, unit_key("action", st.action), kind="call")
        elif isinstance(st, ast.Move):
            dest = st.dest.args[0] if isinstance(st.dest, ast.Call) and st.dest.args else st.dest
            zname = getattr(dest, "name", None)
            for tk in trig_by_zone.get(zname, []):
                G.add_edge(node, tk, kind="trigger")
    return G


def _blocks(st) -> list:
    """The blocks inside statement ``st``: (edge kind, attributes, statements)."""
    if isinstance(st, ast.If):
        out = [("then", {"branch": i, "label": "then" if i == 0 else "else if " + text.expr(c)}, b)
               for i, (c, b) in enumerate(st.branches)]
        return out + ([("else", {"label": "else"}, st.otherwise)] if st.otherwise else [])
    if isinstance(st, ast.Menu):
        return [("then", {"branch": i, "label": text.menu_branch(label, cond)}, b)
                for i, (label, cond, b, _pos) in enumerate(st.branches)]
    if isinstance(st, LOOPS):
        return [("body", {}, st.body)]
    return []


class _Builder:
    """Adds a unit's nodes in file order, then wires them knowing what follows each block."""

    def __init__(self, G: nx.DiGraph):
        self.G = G
        self.count = 0
        self.order = 0
        self.key: dict = {}      # id(statement) -> node
        self.join: dict = {}     # id(if or menu) -> its join node

    def nodes(self, body, unit: str, depth: int) -> None:
        for st in body:
            self.count += 1
            self.order += 1
            key = self.key[id(st)] = f"s{self.count}"
            self.G.add_node(key, type="step", stmt=st, label=text.stmt(st), line=st.line, unit=unit,
                            depth=depth, order=self.order)
            for _kind, _attrs, block in _blocks(st):
                self.nodes(block, unit, depth + 1)
            if isinstance(st, (ast.If, ast.Menu)):
                self.order += 1
                j = self.join[id(st)] = "j" + key[1:]
                self.G.add_node(j, type="join", label="", line=st.line, unit=unit, depth=depth,
                                order=self.order, of=key)
                self.G.nodes[key]["join"] = j

    def wire(self, body, cont: str, cont_kind: str, loop_exit) -> str:
        """Edges inside ``body``, whose last step goes on to ``cont``; returns its first node.

        ``loop_exit`` is where a ``stop`` here goes: what follows the innermost loop.
        """
        G = self.G
        keys = [self.key[id(st)] for st in body]
        for i, st in enumerate(body):
            key = keys[i]
            after, kind = (keys[i + 1], "next") if i + 1 < len(body) else (cont, cont_kind)
            out = self.join.get(id(st), key)       # an if/menu goes on from its join
            for bkind, attrs, block in _blocks(st):
                if bkind == "body":
                    G.add_edge(key, self.wire(block, key, "loop", after), kind="body")
                else:
                    G.add_edge(key, self.wire(block, out, "join", loop_exit), kind=bkind, **attrs)
            if isinstance(st, ast.If) and not st.otherwise:
                G.add_edge(key, out, kind="skip", label="else")
            if isinstance(st, (ast.StopLoop, ast.EndGame)):
                if isinstance(st, ast.StopLoop):
                    G.add_edge(key, loop_exit, kind="stop")
                else:
                    G.add_edge(key, END, kind="end")
                if i + 1 < len(body):
                    G.add_edge(key, after, kind="next", dead=True)
            else:
                G.add_edge(out, after, kind=kind)
        return keys[0]


def steps(G: nx.DiGraph, start: str | None, kind: str = "start", **match) -> list:
    """The statements of a block: from ``start`` follow one ``kind`` edge, then ``next`` edges.

    An ``if`` or menu goes on from its join; the block ends at an edge out of it
    (``join``, ``loop``, ``return``).
    """
    out = []
    node = None
    for _, v, d in G.out_edges(start, data=True):
        if d["kind"] == kind and all(d.get(k) == val for k, val in match.items()):
            node = v
            break
    while node is not None and G.nodes[node].get("type") == "step":
        data = G.nodes[node]
        out.append(data["stmt"])
        node = next((v for _, v, d in G.out_edges(data.get("join", node), data=True) if d["kind"] == "next"),
                    None)
    return out


# ---------------------------------------------------------------- export

_CHOICES = (ast.Choose, ast.Together, ast.Menu)
_EDGE_TEXT = {"loop": "again", "stop": "stop", "end": "end game", "play": "play",
              "call": "do", "trigger": "trigger"}


def node_text(d: dict) -> str:
    """A node's label with its game-file line: ``move c to discard (line 12)``."""
    label = d.get("label", "")
    return f"{label} (line {d['line']})" if d.get("line") and d.get("type") != "join" else label


def edge_text(G: nx.DiGraph, u: str, v: str, d: dict) -> str:
    """What an edge says: a branch's condition, ``else``, ``again``, ``done`` (out of a loop)..."""
    if "label" in d:
        return d["label"]
    if d["kind"] == "next" and d.get("dead"):
        return "never reached"
    if d["kind"] in ("next", "join", "return") and isinstance(G.nodes[u].get("stmt"), LOOPS):
        return "done"
    return _EDGE_TEXT.get(d["kind"], "")


def is_choice(d: dict) -> bool:
    return isinstance(d.get("stmt"), _CHOICES)


def to_dot(G: nx.DiGraph) -> str:
    lines = [f'digraph "{_esc(G.graph.get("title", "game"))}" {{', '  rankdir=TB;',
             '  node [fontname="Helvetica", fontsize=10];']
    for n, d in G.nodes(data=True):
        kind = d.get("type")
        if kind == "unit":
            shape = "box, style=\"rounded,filled\", fillcolor=\"#f4d58d\""
        elif kind == "join":
            shape = "point, width=0.12"
        elif kind == "end":
            shape = "box, style=\"rounded,dashed\""
        elif is_choice(d):
            shape = "diamond, style=filled, fillcolor=\"#f6a76a\""
        else:
            shape = "box"
        lines.append(f'  "{n}" [label="{_esc(node_text(d))}", shape={shape}];')
    for u, v, d in G.edges(data=True):
        k = d["kind"]
        style = {"loop": ", style=dashed", "trigger": ", style=bold, color=red", "play": ", color=blue",
                 "call": ", color=blue", "stop": ", color=darkorange", "end": ", color=darkred"}.get(k, "")
        if d.get("dead"):
            style = ", style=dotted, color=gray"
        lines.append(f'  "{u}" -> "{v}" [label="{_esc(edge_text(G, u, v, d))}"{style}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_mermaid(G: nx.DiGraph) -> str:
    ids = {n: f"n{i}" for i, n in enumerate(G.nodes)}
    lines = ["flowchart TD"]
    for n, d in G.nodes(data=True):
        label = _mermaid_text(node_text(d))
        if d.get("type") == "unit":
            lines.append(f'  {ids[n]}(["{label}"])')
        elif d.get("type") == "join":
            lines.append(f"  {ids[n]}(( ))")
        elif d.get("type") == "end":
            lines.append(f'  {ids[n]}(["{label}"])')
        elif is_choice(d):
            lines.append(f'  {ids[n]}{{"{label}"}}')
        else:
            lines.append(f'  {ids[n]}["{label}"]')
    for u, v, d in G.edges(data=True):
        lab = _mermaid_text(edge_text(G, u, v, d))
        arrow = "-.->" if d["kind"] in ("loop", "trigger") or d.get("dead") else "-->"
        lab = f'|"{lab}"|' if lab else ""
        lines.append(f"  {ids[u]} {arrow}{lab} {ids[v]}")
    return "\n".join(lines) + "\n"


def _mermaid_text(s: str) -> str:
    # Mermaid reads a quoted label up to the next '"': write quotes as an entity.
    return str(s).replace('"', "#quot;")


def _esc(s: str) -> str:
    return str(s).replace("\\", "\\\\").replace('"', '\\"')
