"""The action graph: a game's phases and steps as a networkx ``DiGraph``.

Nodes are *units* (the setup, the flow, each phase, action and trigger) and
*steps* (one per statement).  Edges say how control moves:

=========  ================================================================
``start``  a unit to its first step
``next``   a step to the step after it
``body``   a loop or ``secretly``/``race`` step to the first step inside it
``then``   an ``if`` step to the first step of a branch (``branch`` = index)
``else``   an ``if`` step to the first step of its ``else`` block
``loop``   the last step of a loop body back to the loop
``play``   a ``play`` step to the phase it runs (``do``: ``call`` to an action)
``trigger`` a ``move`` step to a trigger on the zone it moves cards into
=========  ================================================================

The compiler walks this graph to build the executable form; ``catrules
graph`` exports it as Graphviz dot or Mermaid.
"""

from __future__ import annotations

import networkx as nx

from . import ast
from .checker import Checked


def unit_key(kind: str, name) -> str:
    return f"{kind}:{name}"


def build(checked: Checked) -> nx.DiGraph:
    g = checked.game
    G = nx.DiGraph(title=g.title)
    units = [("setup", "setup", g.setup, g.setup_pos[0]), ("flow", "flow", g.flow, g.flow_pos[0])]
    units += [(unit_key("phase", p.name), f"phase {p.name}", p.body, p.line) for p in g.phases]
    units += [(unit_key("action", a.name), f"action {a.name}", a.body, a.line) for a in g.actions]
    units += [(unit_key("trigger", i), t.label, t.body, t.line) for i, t in enumerate(g.triggers)]
    counter = [0]
    for key, label, body, line in units:
        G.add_node(key, type="unit", label=label, line=line)
        first = _chain(G, body, counter, key)
        if first is not None:
            G.add_edge(key, first, kind="start")
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


def _chain(G, body, counter, unit) -> str | None:
    """Add one node per statement of ``body``; return the first node's key."""
    prev = first = None
    for st in body:
        counter[0] += 1
        key = f"s{counter[0]}"
        G.add_node(key, type="step", stmt=st, label=_label(st), line=st.line, unit=unit)
        if prev is None:
            first = key
        else:
            G.add_edge(prev, key, kind="next")
        prev = key
        if isinstance(st, ast.If):
            for i, (_cond, b) in enumerate(st.branches):
                f = _chain(G, b, counter, unit)
                if f:
                    G.add_edge(key, f, kind="then", branch=i)
            if st.otherwise:
                f = _chain(G, st.otherwise, counter, unit)
                if f:
                    G.add_edge(key, f, kind="else")
        elif isinstance(st, ast.Menu):
            for i, (_text, _cond, b, _pos) in enumerate(st.branches):
                f = _chain(G, b, counter, unit)
                if f:
                    G.add_edge(key, f, kind="then", branch=i)
        elif isinstance(st, (ast.RepeatTimes, ast.RepeatUntil, ast.ForPlayers, ast.ForEach, ast.Together)):
            f = _chain(G, st.body, counter, unit)
            if f:
                G.add_edge(key, f, kind="body")
                last = f
                while True:
                    nxt = [v for _, v, d in G.out_edges(last, data=True) if d["kind"] == "next"]
                    if not nxt:
                        break
                    last = nxt[0]
                G.add_edge(last, key, kind="loop")
    return first


def steps(G: nx.DiGraph, start: str | None, kind: str = "start", **match) -> list:
    """The statements of a chain: from ``start`` follow one ``kind`` edge, then ``next`` edges."""
    out = []
    node = None
    for _, v, d in G.out_edges(start, data=True):
        if d["kind"] == kind and all(d.get(k) == val for k, val in match.items()):
            node = v
            break
    while node is not None:
        out.append(G.nodes[node]["stmt"])
        node = next((v for _, v, d in G.out_edges(node, data=True) if d["kind"] == "next"), None)
    return out


def _label(st) -> str:
    name = type(st).__name__
    if isinstance(st, ast.Move):
        return "move"
    if isinstance(st, ast.Choose):
        return f"{st.actor} chooses {st.var}"
    if isinstance(st, ast.Menu):
        return f"{st.actor} chooses: " + " | ".join(b[0] for b in st.branches)
    if isinstance(st, ast.Allot):
        return "allot"
    if isinstance(st, ast.Together):
        return ("secretly" if st.mode == "secret" else "race") + f": each player chooses {st.var}"
    if isinstance(st, ast.Play):
        return f"play {st.phase}"
    if isinstance(st, ast.Do):
        return f"do {st.action}"
    if isinstance(st, ast.If):
        return "if"
    if isinstance(st, ast.RepeatTimes):
        return "repeat N times"
    if isinstance(st, ast.RepeatUntil):
        return "repeat while" if st.negate else "repeat until"
    if isinstance(st, ast.ForPlayers):
        return f"for each player {st.var}"
    if isinstance(st, ast.ForEach):
        return f"for each {st.var}"
    if isinstance(st, ast.Assign):
        return f"set {st.name}"
    if isinstance(st, ast.Add):
        return f"add to {st.name}"
    return name.lower()


# ---------------------------------------------------------------- export

_EDGE_STYLE = {"next": "", "start": "", "body": "body", "then": "then", "else": "else", "loop": "loop",
               "play": "play", "call": "do", "trigger": "trigger"}


def to_dot(G: nx.DiGraph) -> str:
    lines = [f'digraph "{_esc(G.graph.get("title", "game"))}" {{', '  rankdir=TB;',
             '  node [fontname="Helvetica", fontsize=10];']
    for n, d in G.nodes(data=True):
        if d.get("type") == "unit":
            shape = "box, style=\"rounded,filled\", fillcolor=\"#f4d58d\""
        elif isinstance(d.get("stmt"), (ast.Choose, ast.Together)):
            shape = "diamond, style=filled, fillcolor=\"#f6a76a\""
        else:
            shape = "box"
        lines.append(f'  "{n}" [label="{_esc(d.get("label", n))}\\n(line {d.get("line", 0)})", shape={shape}];')
    for u, v, d in G.edges(data=True):
        k = d["kind"]
        style = {"loop": ", style=dashed", "trigger": ", style=bold, color=red", "play": ", color=blue",
                 "call": ", color=blue"}.get(k, "")
        lab = _EDGE_STYLE.get(k, k)
        lines.append(f'  "{u}" -> "{v}" [label="{lab}"{style}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_mermaid(G: nx.DiGraph) -> str:
    ids = {n: f"n{i}" for i, n in enumerate(G.nodes)}
    lines = ["flowchart TD"]
    for n, d in G.nodes(data=True):
        text = _esc(d.get("label", n)).replace('"', "'") + f" (line {d.get('line', 0)})"
        if d.get("type") == "unit":
            lines.append(f'  {ids[n]}(["{text}"])')
        elif isinstance(d.get("stmt"), (ast.Choose, ast.Together)):
            lines.append(f'  {ids[n]}{{"{text}"}}')
        else:
            lines.append(f'  {ids[n]}["{text}"]')
    for u, v, d in G.edges(data=True):
        lab = _EDGE_STYLE.get(d["kind"], d["kind"])
        arrow = "-.->" if d["kind"] in ("loop", "trigger") else "-->"
        lines.append(f"  {ids[u]} {arrow}{'|' + lab + '|' if lab else ''} {ids[v]}")
    return "\n".join(lines) + "\n"


def _esc(s: str) -> str:
    return str(s).replace("\\", "\\\\").replace('"', '\\"')
