"""Scoring a table at once: every score item and ranking key of every player in one function.

A bot that looks ahead scores thousands of imagined tables (:meth:`catrules.engine.State.score_now`
and :meth:`~catrules.engine.State.rank_keys`); item by item, each is a call of its own and a
dictionary of variables per player.  Here the expressions the compiler wrote for the score block
and the ``winner:`` block are written again, together, as one function each, compiled in the
game's namespace.  It is only a faster way to the same values: where it fails, the state scores
item by item again, which names the item that failed and its line.
"""

from __future__ import annotations


def write_scorer(items: list, ranking: list):
    """``(score_rows, rank_keys)`` for score ``items`` (``(name, counted, fn)``) and ``ranking``
    (``(direction, fn)``), or None if an expression was not written by the compiler."""
    fns = [fn for _n, _c, fn in items] + [fn for _d, fn in ranking]
    if not items or any(getattr(fn, "body", None) is None for fn in fns):
        return None
    # the game's namespace, where the compiler wrote them (a copy, which may also test types)
    ns = dict(items[0][2].__globals__)
    ns["__builtins__"] = {**ns.get("__builtins__", {}), "isinstance": isinstance, "int": int, "float": float}
    lines = ["def score_rows(st):",
             "    out = []",
             "    for _pl in range(st.n):",
             "        V = {'player': _pl}"]
    for i, (_name, _counted, fn) in enumerate(items):
        lines.append(f"        _v{i} = {fn.body}")
    # the total adds the counted items in order, a value that is not a number as 0
    total = "".join(f" + (_v{i} if isinstance(_v{i}, (int, float)) else 0)"
                    for i, (_n, counted, _f) in enumerate(items) if counted)
    row = ", ".join(f"{name!r}: _v{i}" for i, (name, _c, _f) in enumerate(items))
    lines.append(f"        out.append({{{row}, 'total': 0{total}}})")
    lines.append("    return out")
    lines += ["def rank_keys(st, rows):",
              "    out = []",
              "    for _pl in range(st.n):",
              "        V = {'player': _pl, **rows[_pl]}",
              "        out.append((" + "".join((f"({fn.body}), " if d == "highest" else f"-({fn.body}), ")
                                             for d, fn in ranking) + "))",
              "    return out"]
    local: dict = {}
    exec(compile("\n".join(lines) + "\n", "<catrules score>", "exec"), ns, local)
    return local["score_rows"], local["rank_keys"]
