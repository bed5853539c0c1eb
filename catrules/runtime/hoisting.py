"""The parts of score items that are the same for every player, worked out once per scoring.

The written scorer (:func:`catrules.runtime.scoring.write_scorer`) works out every item for each
player in turn.  A part of an item that does not depend on the player (``max(players,
leftover(it))`` in ``leftover(player) == max(players, leftover(it))``, say) gives the same value
for each of them, since the table does not change while it is scored; here such parts are found
in the code the compiler wrote and taken out of the per-player loop, to be worked out once before
it.  Only calls are taken out, and only those that read nothing but the table and the game's own
functions, none of which draws at random or notes statistics (:data:`_IMPURE`).  A part taken out
is worked out even where the item would not have asked for it (a branch not taken); if that
fails, the written scorer fails and the state scores item by item, as the game file says.
Nothing here knows a game.
"""

from __future__ import annotations

import ast
import builtins
import types

#: Names whose presence in a function's code (or in a function it calls) keeps it in the loop:
#: it may draw at random, note statistics, or do something beyond reading the table.
_IMPURE = frozenset({"_random", "rng", "trng", "note_short", "stats", "shuffle", "random", "log",
                     "exec", "eval", "open", "print", "input", "__import__", "setattr", "delattr",
                     "globals", "locals", "vars", "compile"})

_COMPS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def hoist(bodies: list, ns: dict, blocked: set, prefix: str = "_h", at_least: int = 1,
          free: frozenset = frozenset()) -> tuple:
    """``(new bodies, [(name, code)...])``: each body (Python expression text) with its largest
    calls that read none of the names ``blocked`` replaced by names ``_h0``, ``_h1``..., and the
    code of each such name; only calls written ``at_least`` times in all the bodies.  ``free``:
    names such a call may read besides the table and the game's pure functions."""
    pure = _Purity(ns)
    trees, stops, counts = [], [], {}
    for body in bodies:
        tree = ast.parse(body, mode="eval")
        walrus = {n.target.id for n in ast.walk(tree) if isinstance(n, ast.NamedExpr)}
        stop = set(blocked) | walrus
        trees.append(tree)
        stops.append(stop)
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and _invariant(n, stop, pure, free):
                code = ast.unparse(n)
                counts[code] = counts.get(code, 0) + 1
    found: dict = {}
    out = []
    for body, tree, stop in zip(bodies, trees, stops):
        hoister = _Hoister(stop, pure, found, free, {c for c, k in counts.items() if k >= at_least}, prefix)
        tree.body = hoister.visit(tree.body)
        out.append(ast.unparse(tree.body) if hoister.taken else body)     # untouched: as written
    return out, [(name, code) for code, name in found.items()]


class _Hoister(ast.NodeTransformer):
    """Replaces the largest player-independent pure calls by names (see :func:`hoist`)."""

    def __init__(self, stop: set, pure: "_Purity", found: dict, free: frozenset, wanted: set, prefix: str):
        self.stop, self.pure, self.found, self.free = stop, pure, found, free
        self.wanted, self.prefix = wanted, prefix
        self.taken = 0

    def generic_visit(self, node):
        if isinstance(node, ast.Call) and _invariant(node, self.stop, self.pure, self.free):
            code = ast.unparse(node)
            if code in self.wanted:
                name = self.found.setdefault(code, f"{self.prefix}{len(self.found)}")
                self.taken += 1
                return ast.copy_location(ast.Name(id=name, ctx=ast.Load()), node)
        return super().generic_visit(node)


def _invariant(node, stop: set, pure: "_Purity", free: frozenset) -> bool:
    """Does the call ``node`` read none of ``stop``, only pure names (and ``free``), bind nothing?"""
    if any(isinstance(n, (ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.Starred))
           for n in ast.walk(node)):
        return False
    if any(isinstance(n, ast.Attribute) and n.attr in _IMPURE for n in ast.walk(node)):
        return False
    names = _free(node)
    return not names & stop and all(n == "st" or n in free or pure.name(n) for n in names)


def _free(node) -> set:
    """The names an expression reads that it does not bind itself (lambdas, comprehensions)."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Lambda):
        a = node.args
        bound = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
        bound |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
        inner = _free(node.body)
        for d in a.defaults + [d for d in a.kw_defaults if d is not None]:
            inner |= _free(d)
        return inner - bound
    if isinstance(node, _COMPS):
        targets = set()
        outer = _free(node.generators[0].iter)
        inner = set()
        for i, g in enumerate(node.generators):
            targets |= {n.id for n in ast.walk(g.target) if isinstance(n, ast.Name)}
            if i:
                inner |= _free(g.iter)
            for c in g.ifs:
                inner |= _free(c)
        for part in ((node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,)):
            inner |= _free(part)
        return outer | (inner - targets)
    out: set = set()
    for child in ast.iter_child_nodes(node):
        out |= _free(child)
    return out


class _Purity:
    """Which names of the game's namespace read only (see :data:`_IMPURE`), worked out once each."""

    def __init__(self, ns: dict):
        self.ns = ns
        b = ns.get("__builtins__", builtins.__dict__)
        self.builtins = b if isinstance(b, dict) else b.__dict__
        self.known: dict = {}

    def name(self, name: str) -> bool:
        if name in _IMPURE:
            return False
        if name in self.ns:
            return self.value(self.ns[name])
        return name in self.builtins

    def value(self, v, depth: int = 0) -> bool:
        if isinstance(v, (types.BuiltinFunctionType, int, float, str, bool, type(None), tuple,
                          list, dict, frozenset, set)) or type(v) is object:     # a marker
            return True
        if isinstance(v, type):
            return issubclass(v, BaseException) or v in (int, float, str, bool, list, tuple, dict, set,
                                                           frozenset, range, zip, map, filter, enumerate,
                                                           reversed, sorted, len, min, max, sum, any, all)
        if not isinstance(v, types.FunctionType) or depth > 50:
            return False
        key = id(v.__code__)
        if key in self.known:
            return self.known[key] is not False     # None: being worked out (a function that asks itself)
        self.known[key] = None
        ok = True
        for n in _code_names(v.__code__):
            if n in _IMPURE:
                ok = False
                break
            g = v.__globals__
            if n in g and not self.value(g[n], depth + 1):
                ok = False
                break
        self.known[key] = ok
        return ok


def _code_names(code) -> set:
    """The global and attribute names a code object (and the functions written inside it) reads."""
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _code_names(c)
    return out
