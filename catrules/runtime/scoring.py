"""Scores: the score block, tallies, the ranking by the ``winner:`` block, the winners.

The functions here are those of :class:`catrules.runtime.state.State` of the same names.

A bot that looks ahead scores thousands of imagined tables (:meth:`catrules.runtime.state.State.score_now`
and :meth:`~catrules.runtime.state.State.rank_keys`); item by item, each is a call of its own and a
dictionary of variables per player.  Here the expressions the compiler wrote for the score block
and the ``winner:`` block are written again, together, as one function each, compiled in the
game's namespace, the parts of the items that are the same for every player worked out once
before the per-player loop (:mod:`catrules.runtime.hoisting`).  It is only a faster way to the
same values: where it fails, the state scores item by item again, which names the item that
failed and its line.
"""

from __future__ import annotations

import ast
from typing import Callable, NamedTuple, Optional

from ..errors import RulesError
from ..limits import STEP_LIMIT
from .errors import _STOPS, _fn_line, _quote, _reraise
from .hoisting import hoist
from .memo_gate import Gate
from .reads import KEY_HELPERS, NoKey, key_code, reads_of

#: The most tables a scorer remembers (then it forgets them all and starts again).
MEMO_SIZE = 2048
_PLAIN = (int, float, str, bool, type(None))


def write_scorer(items: list, ranking: list):
    """``(score_rows, rank_keys)`` for score ``items`` (``(name, counted, fn)``) and ``ranking``
    (``(direction, fn)``), or None if an expression was not written by the compiler."""
    fns = [fn for _n, _c, fn in items] + [fn for _d, fn in ranking]
    if not items or any(getattr(fn, "body", None) is None for fn in fns):
        return None
    # the game's namespace, where the compiler wrote them (a copy, which may also test types)
    ns = dict(items[0][2].__globals__)
    ns["__builtins__"] = {**ns.get("__builtins__", {}), "isinstance": isinstance, "int": int, "float": float}
    ns["_group"] = _group
    groups = player_groups(items, ns)
    grouped = {i for _code, idx in groups for i in idx}
    plain = [i for i in range(len(items)) if i not in grouped]
    bodies, once = hoist([items[i][2].body for i in plain], ns, {"V", "_pl"})
    # a call on the player written more than once in the items: once per player
    bodies, each = hoist(bodies, ns, set(), "_p", 2, frozenset({"V", "_pl"} | {n for n, _c in once}))
    lines = ["def score_rows(st):",
             "    out = []"]
    lines += [f"    {name} = {code}" for name, code in once]     # the same for every player
    lines += ["    for _pl in range(st.n):",
              "        V = {'player': _pl}"]
    for g, (code, idx) in enumerate(groups):
        ns[f"_gk{g}"] = eval("lambda st, V: " + code, {**KEY_HELPERS, "__builtins__": {}})
        exec(f"def _gw{g}(st, V):\n    return (" + "".join(f"{items[i][2].body}, " for i in idx) + ")\n", ns)
        ns[f"_gc{g}"], ns[f"_gg{g}"] = {}, Gate()
        lines.append(f"        {''.join(f'_v{i}, ' for i in idx)}= _group(st, V, _gc{g}, _gk{g}, _gw{g}, _gg{g})")
    lines += [f"        {name} = {code}" for name, code in each]
    for i, body in zip(plain, bodies):
        lines.append(f"        _v{i} = {body}")
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
    rows = memoised(local["score_rows"], [fn.body for _n, _c, fn in items], ns)
    rows.with_keys = outcome_memo(items, ranking, ns, getattr(rows, "reads", None))
    return rows, local["rank_keys"]


def player_groups(items: list, ns: dict) -> list:
    """``[(key code, [item indices])]``: the score items worth remembering per player, grouped by
    what they read (:mod:`catrules.runtime.reads`): the scored player's zones (and shared zones,
    counters), not every player's (the bot's options change one player's cards: the others' values
    are found again), and work enough to be worth a key (a list gone over, a definition asked).
    The others stay as written, their common parts worked out once (:mod:`catrules.runtime.hoisting`)."""
    out: dict = {}
    for i, (_n, _c, fn) in enumerate(items):
        r = reads_of([fn.body], ns)
        if r is None or not r.own or r.every or r.owned or not _worth_a_key(fn.body):
            continue
        out.setdefault(key_code(r), []).append(i)
    return list(out.items())


def _worth_a_key(body: str) -> bool:
    for n in ast.walk(ast.parse(body, mode="eval")):
        if isinstance(n, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp, ast.Lambda)):
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id.startswith(("_d_", "_minmax")):
            return True
    return False


def _group(st, V, cache: dict, key_of, work, gate: Gate) -> tuple:
    """The values of a group of score items for the player ``V`` names (:func:`player_groups`),
    remembered by the key of what they read; the steps they counted counted again on a hit.
    While its ``gate`` rests (look-ups seldom hit), worked out without a key."""
    if gate.rest:
        gate.rest -= 1
        return work(st, V)
    try:
        key = key_of(st, V)
    except NoKey:
        return work(st, V)
    hit = cache.get(key)
    if hit is not None and st.steps + hit[1] <= STEP_LIMIT:
        gate.hits += 1
        gate.asked += 1
        st.steps += hit[1]
        return hit[0]
    gate.judge()
    before = st.steps
    vals = work(st, V)
    if all(type(v) in _PLAIN for v in vals):
        if len(cache) >= MEMO_SIZE:
            cache.clear()
        cache[key] = (vals, st.steps - before)
    return vals


def memoised(score_rows, bodies: list, ns: dict):
    """``score_rows`` remembering its rows by the contents of exactly what the score items read
    (:mod:`catrules.runtime.reads`): the same contents, the same rows, without working them out
    again.  As written when what they read cannot be told."""
    reads = reads_of(bodies, ns, frozenset({"player"}))
    if reads is None:
        return score_rows
    key_of = eval("lambda st, V: " + key_code(reads), {**KEY_HELPERS, "__builtins__": {}})
    cache: dict = {}
    no_vars: dict = {}
    gate = Gate()

    def rows(st):
        if st.stats is not None:            # a lint counts what the scoring does: every time
            return score_rows(st)
        if gate.rest:                       # look-ups seldom hit (a game played once through)
            gate.rest -= 1
            return score_rows(st)
        try:
            key = key_of(st, no_vars)
        except NoKey:
            return score_rows(st)
        return by_key(st, key)

    def by_key(st, key):
        hit = cache.get(key)
        # the steps the scoring counted (lists it built) are counted again, unless they would
        # pass the limit: then it is worked out again, to stop where it stops
        if hit is not None and st.steps + hit[1] <= STEP_LIMIT:
            gate.hits += 1
            gate.asked += 1
            st.steps += hit[1]
            return [dict(r) for r in hit[0]]
        gate.judge()
        before = st.steps
        out = score_rows(st)
        if all(type(v) in _PLAIN for r in out for v in r.values()):
            if len(cache) >= MEMO_SIZE:
                cache.clear()
            cache[key] = ([dict(r) for r in out], st.steps - before)
        return out
    rows.by_key = by_key                # the rows of a key worked out already (see outcome)
    rows.memo = cache
    rows.gate = gate
    rows.fresh = score_rows             # without the memo (tests compare the two)
    rows.reads = reads
    return rows


class _Both(NamedTuple):
    """The memo of whole outcomes (:func:`outcome`)."""
    key_of: Callable            # f(st, V): the key of what the rows and the keys read
    memo: dict                  # key -> (rows, keys, steps counted)
    same: bool                  # the same key as the rows' memo (a miss looks there with it)


def outcome_memo(items: list, ranking: list, ns: dict, rows_reads) -> Optional[_Both]:
    """A memo of whole outcomes, rows and ranking keys together (:func:`outcome`), keyed by the
    contents of exactly what the score items and the ``winner:`` keys read (the keys also read
    the player's row: no more than the rows do); None when that cannot be told."""
    names = frozenset({"player", "total"} | {name for name, _c, _f in items})
    reads = reads_of([fn.body for _n, _c, fn in items] + [fn.body for _d, fn in ranking], ns, names)
    if reads is None:
        return None
    return _Both(eval("lambda st, V: " + key_code(reads), {**KEY_HELPERS, "__builtins__": {}}), {},
                 reads == rows_reads)


def outcome(st) -> tuple:
    """``(rows, keys)``: every player's score (:func:`scores`) and ranking key (:func:`rank_keys`)
    for a bot's look-ahead, the same values.  Unless a lint counts what the game does or the game
    tallies (its rows add the tallies so far: the rows' memo alone), they are remembered
    together by the contents of what they read (:func:`outcome_memo`), with the steps they
    counted (counted again on a hit, unless past the limit: then worked out again, to stop where
    it stops).  The rows given are copies."""
    prog = st.prog
    scorer = prog.scorer(st.options) if st.stats is None and not prog.tallies else None
    both = getattr(scorer[0], "with_keys", None) if scorer is not None else None
    if both is None:
        rows = scores(st)
        return rows, rank_keys(st, rows)
    try:
        key = both.key_of(st, _NO_VARS)
    except NoKey:
        rows = scores(st)
        return rows, rank_keys(st, rows)
    memo = both.memo
    hit = memo.get(key)
    if hit is not None and st.steps + hit[2] <= STEP_LIMIT:
        st.steps += hit[2]
        return list(map(dict, hit[0])), list(hit[1])
    before = st.steps
    rows = _rows_of_key(st, scorer, key) if both.same else score_now(st)
    keys = rank_keys(st, rows)
    if all(type(v) in _PLAIN for r in rows for v in r.values()) and \
            all(type(v) in _PLAIN for k in keys for v in k):
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[key] = ([dict(r) for r in rows], tuple(keys), st.steps - before)
    return rows, keys


def _rows_of_key(st, scorer, key) -> list:
    """:func:`score_now` for a table whose rows' memo key is ``key``, worked out already."""
    by_key = getattr(scorer[0], "by_key", None)
    if by_key is None:
        return score_now(st)
    st.memo = {}
    try:
        return by_key(st, key)
    except Exception:               # noqa: BLE001 - item by item below names the item that failed
        pass
    finally:
        st.memo = None
    return _item_by_item(st)


_NO_VARS: dict = {}


def written_rows(st, scorer) -> list:
    """Every player's score row by the written ``scorer`` (:func:`write_scorer`); definitions keep
    what they work out meanwhile (``st.memo``: the table does not change while it is scored)."""
    st.memo = {}
    try:
        return scorer[0](st)
    finally:
        st.memo = None


def written_keys(st, scorer, rows: list) -> list:
    """Every player's ranking key by the written ``scorer``, as :func:`written_rows`."""
    st.memo = {}
    try:
        return scorer[1](st, rows)
    finally:
        st.memo = None


def score_now(st) -> list:
    """The score block evaluated on the table as it is now, for every player."""
    scorer = st.prog.scorer(st.options)
    if scorer is not None:
        try:
            return written_rows(st, scorer)
        except Exception:           # noqa: BLE001 - item by item below names the item that failed
            pass
    return _item_by_item(st)


def _item_by_item(st) -> list:
    """The score block item by item, as the game file says (an error names its item and line)."""
    out = []
    for pl in range(st.n):
        V = {"player": pl}
        row = {}
        total = 0
        for name, counted, fn in st.prog.items_for(st.options):
            try:
                v = fn(st, V)
            except _STOPS as exc:
                _reraise(exc, st.prog, fn, f"score item `{name}`")
            row[name] = v
            if counted:
                total += v if isinstance(v, (int, float)) else 0
        row["total"] = total
        out.append(row)
    return out


def scores(st, final: Optional[bool] = None) -> list:
    """Each player's score: a dict of the named components plus ``total``.

    In a game that uses ``tally``, the final score is the sum of the tallies (a note keeps
    its latest value); before the end (``final`` false, the default while the game runs) the
    score also counts what a tally would add now, so that bots can weigh their moves.
    """
    if not st.prog.tallies:
        return score_now(st)
    final = st.over if final is None else final
    kept = st.c.get("#tally")
    if kept is None:
        kept = [{name: 0 for name, _c, _f in st.prog.items_for(st.options)} | {"total": 0}
                for _ in range(st.n)]
    if final:
        return [dict(r) for r in kept]
    return add_rows(st.prog.items_for(st.options), kept, score_now(st))


def tally(st, title: Optional[str] = None) -> list:
    """Score now (the ``tally`` statement): add this score to the running totals and log it
    (with the tally's ``title``, if the game file gives one)."""
    now = score_now(st)
    kept = st.c.get("#tally")
    rows = now if kept is None else add_rows(st.prog.items_for(st.options), kept, now)
    st.c["#tally"] = rows          # new dicts every time: clones share the old ones
    st.c["#tallies"] = st.c.get("#tallies", 0) + 1
    if st.log is not None:
        ev = {"t": "tally", "number": st.c["#tallies"], "scores": now, "totals": rows}
        if title is not None:
            ev["title"] = title
        st.log.append(ev)
    return now


def tallied(st, pl, item: str = "total"):
    """Player ``pl``'s running total (or one score item's) over the tallies so far; 0 before the first."""
    kept = st.c.get("#tally")
    return 0 if kept is None else kept[pl][item]


def rank_keys(st, rows: list) -> list:
    """Each player's ranking key by the `winner:` block (higher is better)."""
    scorer = st.prog.scorer(st.options)
    if scorer is not None:
        try:
            return written_keys(st, scorer, rows)
        except Exception:           # noqa: BLE001 - key by key below names what failed
            pass
    keys = []
    for pl in range(st.n):
        V = {"player": pl, **rows[pl]}
        k = []
        for direction, fn in st.prog.ranking:
            try:
                v = fn(st, V)
                k.append(v if direction == "highest" else -v)
            except _STOPS as exc:
                _reraise(exc, st.prog, fn, "the `winner:` key")
        keys.append(tuple(k))
    return keys


def winners(st, rows: Optional[list] = None) -> list:
    """The players who win (more than one when tied players share, unless they raced)."""
    sc = rows or scores(st)
    keys = rank_keys(st, sc)
    try:
        best = max(keys)
    except TypeError:
        fn = st.prog.ranking[0][1] if st.prog.ranking else None
        line = _fn_line(fn)
        raise RulesError("the `winner:` keys are not all numbers, so the players cannot be ranked" +
                         _quote(st.prog, line, 0), line, st.prog.path,
                         "rank by numbers (none or a list cannot be compared)") from None
    tied = [pl for pl in range(st.n) if keys[pl] == best]
    order = st.c.get("#tiebreak")
    if len(tied) > 1 and order:
        return [next(pl for pl in order if pl in tied)]
    return tied

# ---------------------------------------------------------------- views


def add_rows(items, kept: list, now: list) -> list:
    """Running totals plus a new score: counted items add up, notes keep the newest value."""
    out = []
    for a, b in zip(kept, now):
        row = {}
        for name, counted, _fn in items:
            row[name] = a.get(name, 0) + b[name] if counted else b[name]
        row["total"] = a.get("total", 0) + b["total"]
        out.append(row)
    return out
