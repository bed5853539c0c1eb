"""The `allot` statement's best way by dynamic programming over the needs met.

For the same problem as :mod:`catrules.allot.integer_program` (keys split into terms of
one or two targets' choices), exact and usually far quicker than an integer
program: the targets are taken one at a time, and a table holds, for every
demand so far (how many resources each need takes), the best value of the
targets already taken. A target joined by a pair term to a target not yet
taken keeps its choice as one more axis of the table until that other one
is taken. At the end the demands that fit the resources (Hall's condition,
as the search checks it) are kept and the best is read.

One number says everything: the keys are weighted so that a later key never
outweighs one unit of an earlier one, and below them the targets' ranks (a
wanted list's index, or the number of lists for nothing) count as the digits
of one number, the first target the most significant. So the best number is
the search's way (the least ranks, target by target, among the best keys)
and its digits spell the choice: nothing is traced back. Exact in 64-bit
integers: when the ranks of all targets do not fit below the keys, the first
few are ranked, fixed, then the next few. None when the keys alone, the
needs (more than 10) or a table would be too large.
"""

from __future__ import annotations

#: No table (frontier axes x demands) above this many entries: the integer program then.
MAX_TABLE = 1 << 21
#: The largest magnitude a total may have (int64 holds 2**63; the rest is margin for "no way").
MAX_TOTAL = 1 << 60
_NEG = -(1 << 62)


def best_choice(polys, vec_alts, masks, caps, spare):
    """(choice per target: wanted list index or None, the keys' values), or None if too large."""
    np = _numpy()
    if np is None:
        return None
    n_t = len(vec_alts)
    if not n_t:
        return [], tuple((1 if hi else -1) * p.value({}) for hi, p in polys)
    K = max((len(v) for row in vec_alts for v in row), default=0)
    if K > 10:
        return None
    sizes = [len(row) + 1 for row in vec_alts]          # choice 0 is nothing, a + 1 list a
    keys = _keys(polys, sizes)
    if keys is None:
        return None
    lin_k, quad_k, bound = keys
    total = sum(caps)

    def room(S):
        """What a set S of needs can take: the cards serving S, plus `spare` of the others."""
        served = sum(c for m, c in zip(masks, caps) if m & S)
        return served + min(spare, total - served)
    cap = [room(1 << k) for k in range(K)]
    vecs = [[(0,) * K] + [tuple(v) + (0,) * (K - len(v)) for v in row] for row in vec_alts]
    adj = [set() for _ in range(n_t)]
    for s, t in quad_k:
        adj[s].add(t)
        adj[t].add(s)
    order = _order(vecs, sizes, adj, cap, K)
    if order is None:
        return None
    # The ranks below the keys, as many targets' as 64 bits hold (18 targets of a few lists: all); the
    # targets so ranked are then fixed and the next ones ranked, until every one is.
    allowed = [list(range(z)) for z in sizes]
    start, best_keys = 0, None
    while start < n_t:
        R, end = 1, start
        while end < n_t and (bound + 1) * R * sizes[end] < MAX_TOTAL:
            R *= sizes[end]
            end += 1
        if end == start:
            return None
        lin = [[v * R for v in row] for row in lin_k]
        quad = {st: [[v * R for v in r] for r in m] for st, m in quad_k.items()}
        W = R
        for t in range(start, end):          # target t's rank weighs all later ones' together
            W //= sizes[t]
            lin[t] = [v - W * ((sizes[t] - 1) if k == 0 else (k - 1)) for k, v in enumerate(lin[t])]
        best = _sweep_tables(np, lin, quad, vecs, allowed, order, adj, cap, room, K)
        if best is None:
            return None
        keys_best = -(-best // R)
        if best_keys is None:
            best_keys = keys_best
        elif keys_best != best_keys:         # a guard: fixing the first ranks keeps the best keys
            return None
        part = keys_best * R - best          # the digits, the last target least significant
        for t in range(end - 1, start - 1, -1):
            r = part % sizes[t]
            part //= sizes[t]
            allowed[t] = [0 if r == sizes[t] - 1 else r + 1]
        start = end
    ks = {t: a[0] for t, a in enumerate(allowed)}
    if _value(lin_k, quad_k, ks) != best_keys:       # a guard: the way gives the best keys
        return None
    choice = [None if k == 0 else k - 1 for k in (ks[t] for t in range(n_t))]
    return choice, tuple((1 if hi else -1) * p.value(ks) for hi, p in polys)


def _sweep_tables(np, lin, quad, vecs, allowed, order, adj, cap, room, K):
    """The best total of ``lin`` and ``quad`` over the ways that fit, targets taken in ``order``,
    each making only its ``allowed`` choices: the tables' axes are the open targets' choices,
    then the K demands."""
    sizes = [len(row) for row in vecs]
    V = np.zeros((1,) * K, dtype=np.int64)
    dims = [1] * K
    open_: list = []
    done: set = set()
    for t in order:
        done.add(t)
        choices = [(k_t, vecs[t][k_t]) for k_t in allowed[t]]
        grow = [min(dims[k] - 1 + max(v[k] for _k, v in choices), cap[k]) + 1 for k in range(K)]
        keep = bool(adj[t] - done)
        lead = [sizes[s] for s in open_]
        new = np.full(lead + ([sizes[t]] if keep else []) + grow, _NEG, dtype=np.int64)
        # the bonus of each choice of t: its own term, and its pair terms with open targets
        bonus = np.zeros(lead + [sizes[t]], dtype=np.int64) + np.array(lin[t], dtype=np.int64)
        for i, s in enumerate(open_):
            if s in adj[t]:
                m = np.array(quad[(s, t)] if s < t else _transpose(quad[(t, s)]), dtype=np.int64)
                shape = [1] * len(lead) + [sizes[t]]
                shape[i] = sizes[s]
                bonus = bonus + m.reshape(shape)
        extra = (None,) * K
        for k_t, v in choices:
            src, dst = [], []
            for k in range(K):
                n = min(dims[k], grow[k] - v[k])
                if n <= 0:
                    break
                src.append(slice(0, n))
                dst.append(slice(v[k], v[k] + n))
            else:
                b = bonus[(Ellipsis, k_t) + extra]
                if keep:
                    new[(Ellipsis, k_t) + tuple(dst)] = V[(Ellipsis,) + tuple(src)] + b
                else:
                    part = new[(Ellipsis,) + tuple(dst)]
                    np.maximum(part, V[(Ellipsis,) + tuple(src)] + b, out=part)
        V, dims = new, grow
        if keep:
            open_.append(t)
        for s in [s for s in open_ if not adj[s] - done]:     # every partner taken: best of s
            V = V.max(axis=open_.index(s))
            open_.remove(s)
    # the demands that fit (Hall's condition, only the rows the table can break)
    if K:
        grids = np.ogrid[tuple(slice(0, d) for d in dims)]
        ok = np.ones(dims, dtype=bool)
        for S in range(1, 1 << K):
            ks = [k for k in range(K) if S >> k & 1]
            r = room(S)
            if sum(dims[k] - 1 for k in ks) > r:
                ok &= sum(grids[k] for k in ks) <= r
        V = np.where(ok, V, _NEG)
    best = int(V.max())
    return None if best < _NEG // 2 else best


def _numpy():
    try:
        import numpy
    except ImportError:          # numpy comes with the optional solver extra (scipy)
        return None
    return numpy


def _transpose(m):
    return [list(col) for col in zip(*m)]


def _value(lin, quad, ks):
    return (sum(row[ks[t]] for t, row in enumerate(lin))
            + sum(m[ks[s]][ks[t]] for (s, t), m in quad.items()))


def _keys(polys, sizes):
    """The keys as one number: per target and per pair a table, each key weighted so that a
    later one never outweighs one unit of an earlier one (the constants left out: they move
    every way alike); and a bound on its size. None when it would not stay exact in 64 bits."""
    spans = []
    for _hi, p in polys:
        s = 1
        for row in p.lin.values():
            s += max(row) - min(row)
        for m in p.quad.values():
            s += max(map(max, m)) - min(map(min, m))
        spans.append(s)
    weights, w = [], 1
    for s in reversed(spans):
        weights.append(w)
        w *= s
    weights.reverse()
    lin = [[0] * z for z in sizes]
    quad: dict = {}
    for (hi, p), wt in zip(polys, weights):
        f = wt if hi else -wt
        for t, row in p.lin.items():
            lin[t] = [a + f * b for a, b in zip(lin[t], row)]
        for st, m in p.quad.items():
            cur = quad.get(st) or [[0] * len(r) for r in m]
            quad[st] = [[a + f * b for a, b in zip(ra, rb)] for ra, rb in zip(cur, m)]
    quad = {st: m for st, m in quad.items() if any(map(any, m))}
    bound = (sum(max(map(abs, row)) for row in lin)
             + sum(max(abs(x) for r in m for x in r) for m in quad.values()))
    if bound >= MAX_TOTAL:
        return None
    return lin, quad, bound


def _order(vecs, sizes, adj, cap, K):
    """The order to take the targets in, the cheaper of two: targets of many pair terms first
    (a vertex cover of the pairs, so the others never open an axis), then the rest, each time
    the one whose table grows least; or that greedy rule alone. None when a table would
    exceed :data:`MAX_TABLE`."""
    n_t = len(vecs)
    most = [[max(v[k] for v in row) for k in range(K)] for row in vecs]
    # a vertex cover of the pair terms: the most pairs first (then fewer choices, then first)
    deg = [set(a) for a in adj]
    cover = []
    while any(deg):
        t = min(range(n_t), key=lambda t: (-len(deg[t]), sizes[t], t))
        cover.append(t)
        for s in deg[t]:
            deg[s].discard(t)
        deg[t] = set()
    got = [_sweep(vecs, sizes, adj, cap, K, most, first) for first in (cover, [])]
    got = [g for g in got if g is not None]
    return min(got)[1] if got else None


def _sweep(vecs, sizes, adj, cap, K, most, first):
    """(work, order): ``first`` in its order, then greedily the target whose table is
    smallest; the work is the entries written. None past :data:`MAX_TABLE`."""
    left = [t for t in range(len(vecs)) if t not in first]
    done: set = set()
    open_: list = []
    dims = [1] * K
    order, work = [], 0
    while first or left:
        best = None
        for t in first[:1] or left:
            grow = [min(dims[k] - 1 + most[t][k], cap[k]) + 1 for k in range(K)]
            size = 1
            for d in grow:
                size *= d
            after = done | {t}
            if adj[t] - after:
                size *= sizes[t]
            peak = size
            for s in open_:
                peak *= sizes[s]
                if adj[s] - after:
                    size *= sizes[s]
            if best is None or (peak, size) < best[0]:
                best = ((peak, size), t, grow)
        (peak, _size), t, grow = best
        if peak > MAX_TABLE:
            return None
        work += peak * (1 if adj[t] - done - {t} else sizes[t])
        order.append(t)
        if first:
            first = first[1:]
        else:
            left.remove(t)
        done.add(t)
        dims = grow
        if adj[t] - done:
            open_.append(t)
        open_ = [s for s in open_ if adj[s] - done]
    return work, order
