"""What a part of a game reaches: the nodes under some statements or expressions, followed into
the definitions they use and (optionally) the phases they play and the actions they do.

Several questions walk a game file this way (does the score read only public zones, does a tally
read a secret counter, what can the running score depend on); they differ only in what they do
with each node.  Nothing here knows a game.
"""

from __future__ import annotations

from ..lang import ast


def reached(game, names: dict, roots: list, *, plays: bool = True, walk=ast.walk):
    """Every node under ``roots`` with its resolution in ``names`` (``(kind, detail)`` or None),
    following the definitions it uses and, when ``plays``, the phases it plays and the actions it
    does, each once.  ``walk``: how to list the nodes under one root (it may yield other values
    too, such as texts; they come with None)."""
    by_phase = {ph.name: ph for ph in game.phases} if plays else {}
    by_action = {a.name: a for a in game.actions} if plays else {}
    seen: set = set()
    stack = list(roots)
    while stack:
        for n in walk(stack.pop()):
            if plays:
                if isinstance(n, ast.Play) and ("p", n.phase) not in seen and n.phase in by_phase:
                    seen.add(("p", n.phase))
                    stack.append(by_phase[n.phase].body)
                elif isinstance(n, ast.Do) and ("a", n.action) not in seen and n.action in by_action:
                    seen.add(("a", n.action))
                    stack.append(by_action[n.action].body)
            r = names.get(id(n)) if isinstance(n, ast.Node) else None
            if r is not None and r[0] == "define" and id(r[1]) not in seen:
                seen.add(id(r[1]))
                stack.append(r[1].body)
            yield n, r
