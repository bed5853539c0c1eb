"""Checks of the whole game, over the graph of what plays, does or sets off what.

Phases that are never played or that play themselves, actions never done,
definitions that use themselves, and chains of triggers that can fire each
other forever: each found once per group (strongly connected components),
however large the game.  Also loops with no way out (a game that may never end)
and `pick` cases that are not fixed values.  :class:`WholeGameChecks` is part of the checker
(:mod:`catrules.check.checker`), which calls these after the per-statement checks.
"""

from __future__ import annotations

from ..errors import nearest
from ..lang import ast


class WholeGameChecks:
    """Mixed into the checker: needs ``self.g`` (the game), ``self.rep`` and the name tables."""

    def check_reachability(self) -> None:
        import networkx as nx          # only when checking: a cached game never needs it
        g = self.g
        graph = nx.DiGraph()
        graph.add_node("flow")
        units = [("flow", g.flow), ("setup", g.setup)] + [(f"phase:{p.name}", p.body) for p in g.phases] + \
                [(f"action:{a.name}", a.body) for a in g.actions] + \
                [(f"trigger:{i}", t.body) for i, t in enumerate(g.triggers)]
        for key, body in units:
            graph.add_node(key)
            for n in ast.walk(body):
                # a misspelled `play turns` is taken as the `turn` its error suggests, so that `turn`
                # is not also reported as never played (one mistake, one error)
                if isinstance(n, ast.Play):
                    to = n.phase if n.phase in self.phases else nearest(n.phase, self.phases)
                    if to is not None:
                        graph.add_edge(key, f"phase:{to}")
                elif isinstance(n, ast.Do):
                    to = n.action if n.action in self.actions else nearest(n.action, self.actions)
                    if to is not None:
                        graph.add_edge(key, f"action:{to}")
        roots = ["flow", "setup"] + [f"trigger:{i}" for i in range(len(g.triggers))]
        reach = set()
        for r in roots:
            reach |= {r} | nx.descendants(graph, r)
        for p in g.phases:
            if f"phase:{p.name}" not in reach and self.phases.get(p.name) is p:
                self.rep.error(p, f"phase `{p.name}` is never played",
                               f"add `play {p.name}` to the flow or to a phase, or remove the phase")
        for a in g.actions:
            if f"action:{a.name}" not in reach:
                self.rep.warning(a, f"action `{a.name}` is never done", f"use it with `do {a.name}(...)`")
        # Phases that play each other: one error per group (strongly connected component), found in
        # linear time; listing every simple cycle can take exponential time and memory.
        order = {f"phase:{p.name}": i for i, p in enumerate(g.phases)}
        only_phases = graph.subgraph(order)
        for comp in nx.strongly_connected_components(only_phases):
            first = min(comp, key=order.get)
            if len(comp) == 1 and not only_phases.has_edge(first, first):
                continue
            cyc = _cycle_through(only_phases, comp, first)
            names = [c.split(":", 1)[1] for c in cyc]
            node = self.phases[names[0]]
            more = f"; {len(comp)} phases play each other" if len(comp) > len(names) - 1 else ""
            shown = names if len(names) <= 8 else names[:7] + ["...", names[-1]]
            self.rep.error(node, f"phase `{names[0]}` plays itself (" + " -> ".join(shown) + ")" + more,
                           "use `repeat` inside a phase instead of playing it again")

    def check_trigger_cycles(self) -> None:
        import networkx as nx          # only when checking: a cached game never needs it
        trig = self.g.triggers
        graph = nx.DiGraph()
        for i, t in enumerate(trig):
            graph.add_node(i)
        body_moves = {i: self.moves_in(t.body) for i, t in enumerate(trig)}
        for i, t in enumerate(trig):
            for dest, _src in body_moves[i]:
                for j, u in enumerate(trig):
                    if u.zone == dest:
                        graph.add_edge(i, j)
        # One warning per group of triggers that can fire each other (a strongly connected
        # component), not one per cycle: the number of cycles can grow exponentially.
        for comp in nx.strongly_connected_components(graph):
            first = min(comp)
            if len(comp) == 1 and not graph.has_edge(first, first):
                continue
            zones = {trig[i].zone for i in comp}
            consumes = any(src and not (src <= zones) for i in comp for _d, src in body_moves[i])
            if not consumes:
                cyc = _cycle_through(graph, comp, first)
                labels = [trig[i].label for i in cyc]
                if len(labels) > 8:
                    labels = labels[:7] + ["...", labels[-1]]
                self.rep.warning(trig[cyc[0]], f"these triggers can fire each other forever without using "
                                               f"anything up: {' -> '.join(labels)}",
                                 "give one a guard (`if ...`) or make it take cards from a zone that runs out")

    def check_define_cycles(self) -> None:
        """A definition may not use itself, directly or through other definitions.

        A definition is a formula: it has no statement that could stop a repetition, so one that
        uses itself would never finish (repeat with `repeat` or `for each` in an action instead).
        """
        import networkx as nx          # only when checking: a cached game never needs it
        g = self.g
        graph = nx.DiGraph()
        order = {d.name: i for i, d in enumerate(g.defines)}
        for d in g.defines:
            graph.add_node(d.name)
            for n in ast.walk(d.body):
                if isinstance(n, (ast.Call, ast.Name)):
                    kind = self.names.get(id(n), (None, None))
                    if kind[0] == "define" and getattr(kind[1], "name", None) in order:
                        graph.add_edge(d.name, kind[1].name)
        for comp in nx.strongly_connected_components(graph):
            first = min(comp, key=order.get)
            if len(comp) == 1 and not graph.has_edge(first, first):
                continue
            cyc = _cycle_through(graph, comp, first)
            if len(cyc) > 8:
                cyc = cyc[:7] + ["...", cyc[-1]]
            how = "itself" if len(comp) == 1 else "itself through other definitions (" + " -> ".join(cyc) + ")"
            self.rep.error(self.defines[first], f"definition `{first}` uses {how}",
                           "a definition is a formula and cannot repeat; repeat with `repeat` or "
                           "`for each` in an action instead")

    def moves_in(self, body) -> list:
        """(destination zone, set of source zones) for each move in ``body``.

        A card variable chosen from a zone counts as coming from that zone.
        """
        chosen: dict = {}
        for n in ast.walk(body):
            if isinstance(n, (ast.Choose, ast.Together)):
                chosen[n.var] = self.zone_names(n.source)
        out = []
        for n in ast.walk(body):
            if isinstance(n, ast.Move):
                dest = n.dest.args[0] if isinstance(n.dest, ast.Call) and n.dest.args else n.dest
                dname = dest.name if isinstance(dest, (ast.Name, ast.Of)) and dest.name in self.zones else None
                src = self.zone_names(n.cards)
                for name in [x.name for x in ast.walk(n.cards) if isinstance(x, ast.Name)]:
                    src |= chosen.get(name, set())
                if dname:
                    out.append((dname, src))
        return out

    def zone_names(self, e) -> set:
        return {x.name for x in ast.walk(e) if isinstance(x, (ast.Name, ast.Of)) and x.name in self.zones}


    # ------------------------------------------------------------ games that never end
    def check_endless_loops(self) -> None:
        """Warn of a `repeat while true` / `repeat until false` that nothing can leave: no `stop`
        of its own, and no `end game` in it or in what it does or plays (triggers too, since a
        move in the loop may set one off).  Found statically; simulations also have a budget."""
        g = self.g
        units = {f"phase:{p.name}": p.body for p in g.phases}
        units.update({f"action:{a.name}": a.body for a in g.actions})
        ends = {k for k, body in units.items() if any(isinstance(n, ast.EndGame) for n in ast.walk(body))}
        calls = {k: set(_calls(body)) for k, body in units.items()}
        changed = True
        while changed:          # units that can end the game through what they call (a fixpoint)
            changed = False
            for k, callees in calls.items():
                if k not in ends and callees & ends:
                    ends.add(k)
                    changed = True
        for t in g.triggers:
            if any(isinstance(n, ast.EndGame) for n in ast.walk(t.body)) or set(_calls(t.body)) & ends:
                return          # a trigger may end the game from inside any loop: nothing to say
        for body in g.bodies:
            for n in ast.walk(body):
                if not (isinstance(n, ast.RepeatUntil) and isinstance(n.cond, ast.Const)
                        and n.cond.value is n.negate):
                    continue
                if _leaves(n.body) or any(isinstance(x, ast.EndGame) for x in ast.walk(n.body)) \
                        or set(_calls(n.body)) & ends:
                    continue
                self.no_way_out.add(id(n))
                words = "repeat while true" if n.negate else "repeat until false"
                self.rep.warning(n, f"this `{words}` has no way out (no `stop` in it, no `end game` in it or in "
                                    "what it does), so the game never ends",
                                 "add `stop` or `end game` where the game should end, or a condition that can "
                                 "change; a game played by bots alone is stopped as soon as it goes round it")

    def check_pick_keys(self) -> None:
        """A `pick` case written as a name means whatever the name means where it stands: a
        variable or counter named like a card value hides that value, silently."""
        for n in ast.walk(self.g):
            if not isinstance(n, ast.Pick):
                continue
            for k, _ in n.cases:
                if not isinstance(k, ast.Name):
                    continue
                kind = self.names.get(id(k), ("symbol",))[0]
                if kind in ("local", "counter", "option") and k.name in self.symbols:
                    self.rep.error(k, f"the case `{k.name}` of `pick` is the {_KIND[kind]} `{k.name}` here, "
                                      f"not the card value `{k.name}`",
                                   f"rename the {_KIND[kind]}, so that `{k.name}` means the card value")
                elif kind in ("counter", "option"):
                    self.rep.warning(k, f"the case `{k.name}` of `pick` is compared with the value of "
                                        f"{_KIND[kind]} `{k.name}` (not a fixed value: it may change)",
                                     f"write the value itself as the case, or compare with `if ... == "
                                     f"{k.name} then ... else ...` to say that the {_KIND[kind]} is meant")


def _cycle_through(graph, comp, first) -> list:
    """A shortest cycle through ``first`` inside the strongly connected ``comp``: [first, ..., first]."""
    import networkx as nx
    if graph.has_edge(first, first):
        return [first, first]
    sub = graph.subgraph(comp)
    best = None
    for nxt in sub.successors(first):
        path = nx.shortest_path(sub, nxt, first)
        if best is None or len(path) < len(best):
            best = path
    return [first] + best

_KIND = {"local": "variable", "counter": "counter", "option": "option"}
_LOOPS = (ast.RepeatTimes, ast.RepeatUntil, ast.ForPlayers, ast.ForEach, ast.Together)


def _calls(body):
    """The phases and actions a block plays or does."""
    for n in ast.walk(body):
        if isinstance(n, ast.Play):
            yield f"phase:{n.phase}"
        elif isinstance(n, ast.Do):
            yield f"action:{n.action}"


def _leaves(body) -> bool:
    """Whether a `stop` in this loop body (not in a loop inside it) leaves the loop."""
    stack = [body]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.StopLoop):
            return True
        if isinstance(n, _LOOPS):
            continue
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, ast.Stmt):
            for f in ast.fields(type(n)):
                v = getattr(n, f)
                if isinstance(v, (ast.Node, list, tuple)):
                    stack.append(v)
    return False

