"""A small directed graph with networkx's interface, for building the action graph.

Building and walking the action graph (:mod:`catrules.compile.graph`, the compiler)
needs a few calls only; importing networkx costs more than the rest of a
cold start of ``catrules play``. So the graph is built with this class, and
:meth:`DiGraph.to_networkx` makes the real networkx graph (same nodes, edges
and data, in the same order) when a command asks for it (``Game.graph``).
"""

from __future__ import annotations


class _Nodes:
    """``G.nodes``: ``G.nodes[n]`` is n's data, ``G.nodes(data=True)`` the pairs, iteration the nodes."""
    __slots__ = ("_d",)

    def __init__(self, d):
        self._d = d

    def __getitem__(self, n):
        return self._d[n]

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __contains__(self, n):
        return n in self._d

    def __call__(self, data=False):
        return list(self._d.items()) if data else list(self._d)


class DiGraph:
    """Nodes and edges with attribute dicts, in insertion order (as networkx keeps them)."""

    def __init__(self, **attrs):
        self.graph = dict(attrs)
        self._node: dict = {}
        self._succ: dict = {}

    @property
    def nodes(self) -> _Nodes:
        return _Nodes(self._node)

    def add_node(self, n, **attrs) -> None:
        if n not in self._node:
            self._node[n] = {}
            self._succ[n] = {}
        self._node[n].update(attrs)

    def add_edge(self, u, v, **attrs) -> None:
        for n in (u, v):
            if n not in self._node:
                self.add_node(n)
        self._succ[u].setdefault(v, {}).update(attrs)

    def out_edges(self, n=None, data=False) -> list:
        """Edges out of ``n`` (all edges when None), as networkx lists them."""
        starts = self._succ if n is None else ([n] if n in self._succ else [])
        return [(u, v, d) if data else (u, v) for u in starts for v, d in self._succ[u].items()]

    def edges(self, data=False) -> list:
        return self.out_edges(None, data)

    def to_networkx(self):
        import networkx as nx
        G = nx.DiGraph(**self.graph)
        for n, d in self._node.items():
            G.add_node(n, **d)
        for u, v, d in self.out_edges(None, data=True):
            G.add_edge(u, v, **d)
        return G
