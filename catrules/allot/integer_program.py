"""The `allot` statement by an integer program (HiGHS through ``scipy.optimize.milp``).

First :mod:`catrules.allot.dp` is asked (exact, and quicker where its tables stay
small); this integer program answers when they would not. Used when every ``prefer`` key splits into terms of one or two targets' choices
(:mod:`catrules.allot.keys`); :mod:`catrules.allot.search` falls back to its search
otherwise, or when scipy is not installed (it is the optional ``solver`` extra).

The program: a 0/1 variable ``x[t,a]`` per target t and wanted list a (at most
one per target; none means "nothing"); the needs met must fit the resources
(Hall's condition over the sets of needs, as the search checks it, or a flow
when there are more than 10 needs); a term of two targets gets a variable
``w = x[s,a] * x[t,b]``, exact for 0/1 values. The keys are maximised at once,
weighted so that a later key never outweighs one unit of an earlier one (one
program per key when such weights would be too large), and the sum of the
targets' ranks (below) comes second.

Ties: the search keeps the first best way in its order (target by target,
wanted lists in their order, nothing last), and goldens depend on it. So
among the best ways this picks the same one: target by target, the least
rank it can have. Where the answer in hand gives a target its first list,
that is the least; otherwise a program asks whether the best keys can be
had with a smaller rank, and if so another finds the least rank.
"""

from __future__ import annotations

import warnings


#: Weights for the keys at once only below this (doubles stay exact far above it).
COMBINE_BELOW = 2 ** 40
#: HiGHS options; beyond scipy's own few they go to HiGHS verbatim (scipy warns, silenced).
#: scipy turns off only ``log_to_console``; ``output_flag`` is HiGHS's switch for all its output.
HIGHS_OPTIONS = {"mip_rel_gap": 0, "presolve": True, "output_flag": False}


def _milp():
    try:
        import numpy as np
        from scipy.optimize import Bounds, LinearConstraint, milp
    except ImportError:          # scipy is an extra: without it the search does everything
        return None
    return np, Bounds, LinearConstraint, milp


#: False: always the integer program (tests compare it with the dynamic programming).
USE_DP = True
#: Which found the last answer computed afresh: "dp" or "milp" (for tests and benchmarks).
last_engine = None

#: Answers by problem (the same allot again, as in a second pass, costs nothing): a pure
#: function of its input, so this cannot change a game.
_memo: dict = {}


def best_choice(polys, vec_alts, masks, caps, spare):
    """The choice per target (index of its wanted list, or None) that the search would keep,
    and the keys' values there; None when scipy is missing or HiGHS does not answer."""
    key = repr(([(hi, p.c, sorted(p.lin.items()), sorted(p.quad.items())) for hi, p in polys],
                vec_alts, masks, caps, spare))
    if key not in _memo:
        if len(_memo) > 64:
            _memo.clear()
        try:
            _memo[key] = _dp_or_milp(polys, vec_alts, masks, caps, spare)
        except Exception:        # noqa: BLE001 - a solver failure leaves the work to the search
            _memo[key] = None
    got = _memo[key]
    return None if got is None else (list(got[0]), got[1])


def _dp_or_milp(polys, vec_alts, masks, caps, spare):
    """The dynamic programming's answer when the tables stay small, else the integer program's."""
    global last_engine
    if USE_DP:
        from . import dp as allot_dp
        got = allot_dp.best_choice(polys, vec_alts, masks, caps, spare)
        if got is not None:
            last_engine = "dp"
            return got
    last_engine = "milp"
    return _best_choice(polys, vec_alts, masks, caps, spare)


def _best_choice(polys, vec_alts, masks, caps, spare):
    lib = _milp()
    if lib is None:
        return None
    np, Bounds, LinearConstraint, milp = lib
    n_t, G = len(vec_alts), len(masks)
    K = max((len(v) for row in vec_alts for v in row), default=0)
    # ---- variables
    xi = []                       # xi[t][a] -> column
    col = 0
    for row in vec_alts:
        xi.append(list(range(col, col + len(row))))
        col += len(row)
    n_x = col
    hall = K <= 10               # few needs: Hall's condition, as the search checks it; else a flow
    yk = {}
    for k in range(K if not hall else 0):
        for g in range(G):
            if masks[g] >> k & 1:
                yk[k, g] = col
                col += 1
    sk = zg = None
    if spare and not hall:
        sk = list(range(col, col + K))
        col += K
        zg = list(range(col, col + G))
        col += G
    # products of two targets' choices, from every key's pair terms
    objs, consts, pairs = [], [], {}
    for hi, p in polys:
        sign = 1 if hi else -1
        lin, const = {}, p.c
        for t, r in p.lin.items():
            const += r[0]
            for a in range(1, len(r)):
                lin[xi[t][a - 1]] = lin.get(xi[t][a - 1], 0) + r[a] - r[0]
        for (s, t), m in p.quad.items():
            base = m[0][0]
            const += base
            for i in range(1, len(m)):
                lin[xi[s][i - 1]] = lin.get(xi[s][i - 1], 0) + m[i][0] - base
            for j in range(1, len(m[0])):
                lin[xi[t][j - 1]] = lin.get(xi[t][j - 1], 0) + m[0][j] - base
            for i in range(1, len(m)):
                for j in range(1, len(m[0])):
                    r = m[i][j] - m[i][0] - m[0][j] + base
                    if r:
                        key = (xi[s][i - 1], xi[t][j - 1])
                        if key not in pairs:
                            pairs[key] = col
                            col += 1
                        lin[pairs[key]] = lin.get(pairs[key], 0) + r
        objs.append((sign, lin))
        consts.append(const)
    n = col
    if n == 0:                    # nothing to choose: every target eats nothing
        return [None] * n_t, tuple((1 if hi else -1) * p.c for hi, p in polys)
    # ---- constraints
    rows, lo, up = [], [], []

    def row(coefs, a, b):
        r = np.zeros(n)
        for j, v in coefs:
            r[j] += v
        rows.append(r)
        lo.append(a)
        up.append(b)
    for t in range(n_t):
        if xi[t]:
            row([(j, 1) for j in xi[t]], -np.inf, 1)
    if hall:
        # for every set S of needs: what S asks for fits in the cards serving S plus up to
        # `spare` others (rows that no choice can break are left out)
        total = sum(caps)
        for S in range(1, 1 << K):
            served = sum(c for m, c in zip(masks, caps) if m & S)
            room = served + min(spare, total - served)
            coefs = [(xi[t][a], sum(v[k] for k in range(K) if S >> k & 1))
                     for t, r in enumerate(vec_alts) for a, v in enumerate(r)]
            most = sum(max((sum(v[k] for k in range(K) if S >> k & 1) for v in r), default=0)
                       for r in vec_alts)
            if most > room:
                row([(j, v) for j, v in coefs if v], -np.inf, room)
    for k in range(K if not hall else 0):
        coefs = [(yk[k, g], 1) for g in range(G) if (k, g) in yk]
        if spare:
            coefs.append((sk[k], 1))
        coefs += [(xi[t][a], -v[k]) for t, r in enumerate(vec_alts) for a, v in enumerate(r) if v[k]]
        row(coefs, 0, 0)
    for g in range(G if not hall else 0):
        coefs = [(yk[k, g], 1) for k in range(K) if (k, g) in yk]
        if spare:
            coefs.append((zg[g], 1))
        row(coefs, -np.inf, caps[g])
    if spare and not hall:
        row([(j, 1) for j in sk] + [(j, -1) for j in zg], 0, 0)
        row([(j, 1) for j in sk], -np.inf, spare)
    # w = x[s,a] * x[t,b]: at most x[s,a] summed over t's choices b (t eats one list at most),
    # the same the other way round; at least x[s,a] + x[t,b] - 1 only where some key would
    # gain from a w below the product (everywhere else a w below it never helps any program)
    owner = {j: t for t, cols in enumerate(xi) for j in cols}
    groups: dict = {}
    for (a, b), w in pairs.items():
        groups.setdefault((a, owner[b]), []).append(w)
        groups.setdefault((b, owner[a]), []).append(w)
        if any(sign * lin.get(w, 0) < 0 for sign, lin in objs):
            row([(a, 1), (b, 1), (w, -1)], -np.inf, 1)
    for (a, _t), ws in groups.items():
        row([(w, 1) for w in ws] + [(a, -1)], -np.inf, 0)
    integrality = np.zeros(n)
    integrality[:n_x] = 1
    lb, ub = np.zeros(n), np.full(n, np.inf)
    ub[:n_x] = 1
    for w in pairs.values():
        ub[w] = 1
    opts = dict(HIGHS_OPTIONS)
    sizes = [len(r) for r in vec_alts]

    def solve(cost, infeasible=None):
        """HiGHS's answer, or None; ``infeasible`` when it proves there is none."""
        A = np.array(rows) if rows else np.zeros((0, n))
        cons = [LinearConstraint(A, np.array(lo), np.array(up))] if rows else []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            res = milp(cost, integrality=integrality, bounds=Bounds(lb, ub), constraints=cons,
                       options=dict(opts))
        if res.status == 2 and infeasible is not None:
            return infeasible
        if res.status != 0 or res.x is None:
            return None
        return res

    def rank_cost(t, weight):
        """Cost of the ranks from target t on: t's times ``weight``, each later one's once (a
        target's rank is its wanted list's index, or its number of lists for nothing)."""
        cost = np.zeros(n)
        for s in range(t, n_t):
            for b, j in enumerate(xi[s]):
                cost[j] = (b - sizes[s]) * (weight if s == t else 1)
        return cost

    def exact(xv):
        """The choices rounded to 0/1, each w the product it stands for."""
        xv = np.round(xv)
        for (a, b), w in pairs.items():
            xv[w] = xv[a] * xv[b]
        return xv

    # ---- the keys: one program when safe weights exist (a later key's whole range is less
    # than one unit of the one before), else one per key
    def span(lin):
        """How far the key can move: per target its best choice less its worst, plus the products."""
        out = sum(abs(v) for c, v in lin.items() if c >= n_x)
        for cols in xi:
            vs = [lin.get(c, 0) for c in cols] + [0]
            out += max(vs) - min(vs)
        return out + 1
    spans = [span(lin) for _sign, lin in objs]
    weights, w_ = [], 1
    for span in reversed(spans):
        weights.append(w_)
        w_ *= span
    weights.reverse()
    low = 1 + sum(sizes)                       # the ranks' sum, second to the keys
    stages = [list(range(len(objs)))] if w_ * low < COMBINE_BELOW else [[j] for j in range(len(objs))]
    x = None
    key_rows = len(rows)                       # the rows below hold the keys at their best
    for stage in stages:
        mult = low if len(stages) == 1 else 1
        lin_all: dict = {}
        for j in stage:
            sign, lin = objs[j]
            for c, v in lin.items():
                lin_all[c] = lin_all.get(c, 0) + sign * v * (weights[j] if len(stages) == 1 else 1)
        cost = np.zeros(n)
        for c, v in lin_all.items():
            cost[c] = -v * mult
        keys_cost = cost.copy()
        if len(stages) == 1:
            cost += rank_cost(0, 1)
        res = solve(cost)
        if res is None:
            return None
        x = res.x
        xv = exact(x)
        best_keys = (keys_cost, float(keys_cost @ xv))
        # keep these keys at their best for what follows, one row each (whole numbers: half a
        # unit is safe; small rows keep the later programs easy for HiGHS)
        for j in stage:
            sign, lin = objs[j]
            got = sum(sign * v * xv[c] for c, v in lin.items())
            row([(c, sign * v) for c, v in lin.items()], round(got) - 0.5, np.inf)
    if x is None:
        res = solve(np.zeros(n))
        if res is None:
            return None
        x = res.x

    def key_values(xv):
        """The search's score: sign * (const + sum), from the 0/1 choices (w as products)."""
        xv = exact(xv)
        return tuple(round(sign * (const + sum(v * xv[c] for c, v in lin.items())))
                     for (sign, lin), const in zip(objs, consts))
    # ---- the search's own tie-break: target by target, the least rank

    def chosen(xv, t):
        for a, j in enumerate(xi[t]):
            if xv[j] > 0.5:
                return a
        return None

    def fix(t, a):
        for b, j in enumerate(xi[t]):
            lb[j] = ub[j] = 1 if b == a else 0
    t = 0
    while t < n_t:
        a = chosen(x, t)
        if a == 0 or not xi[t]:
            fix(t, a)
            t += 1
            continue
        if len(stages) == 1:
            # can t have a smaller rank at all? Asked as "the best keys when it does" (without
            # the rows that hold the keys): HiGHS proves that far quicker than infeasibility
            r = sizes[t] if a is None else a
            held = rows[key_rows:], lo[key_rows:], up[key_rows:]
            del rows[key_rows:], lo[key_rows:], up[key_rows:]
            row([(j, 1) for j in xi[t][:r]], 1, np.inf)
            res = solve(best_keys[0], infeasible=False)
            del rows[key_rows:], lo[key_rows:], up[key_rows:]
            rows.extend(held[0]), lo.extend(held[1]), up.extend(held[2])
            if res is None:
                return None
            if res is False or res.fun > best_keys[1] + 0.5:      # worse keys: t keeps its rank
                fix(t, a)
                t += 1
                continue
        res = solve(rank_cost(t, 1 + sum(sizes[t + 1:])))      # t's rank first, then the rest
        if res is None:
            return None
        x = res.x
        fix(t, chosen(x, t))
        t += 1
    return [chosen(x, t) for t in range(n_t)], key_values(x)
