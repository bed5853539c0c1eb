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
    """The integer program's answer: (choice per target, the keys' values), or None."""
    lib = _milp()
    if lib is None:
        return None
    prog = _Program(lib, polys, vec_alts, masks, caps, spare)
    if prog.n == 0:                    # nothing to choose: every target eats nothing
        return [None] * prog.n_t, tuple((1 if hi else -1) * p.c for hi, p in polys)
    prog.add_constraints()
    x = prog.best_keys()
    if x is None:
        return None
    return prog.tie_break(x)


class _Program:
    """The integer program of one allotment: its columns (variables), its rows (constraints)
    and bounds, and HiGHS asked for the best keys, then for the search's tie-break."""

    def __init__(self, lib, polys, vec_alts, masks, caps, spare):
        self.np, self.Bounds, self.LinearConstraint, self.milp = lib
        self.vec_alts, self.masks, self.caps, self.spare = vec_alts, masks, caps, spare
        self.n_t, self.G = len(vec_alts), len(masks)
        self.K = max((len(v) for row in vec_alts for v in row), default=0)
        self.hall = self.K <= 10     # few needs: Hall's condition, as the search checks it; else a flow
        self.col = 0
        self._choice_columns()
        self._flow_columns()
        self._objectives(polys)
        self.n = self.col
        self.rows, self.lo, self.up = [], [], []
        self.sizes = [len(r) for r in vec_alts]

    # ---- variables
    def _choice_columns(self) -> None:
        """x[t][a]: target t eats its wanted list a."""
        self.xi = []                  # xi[t][a] -> column
        for row in self.vec_alts:
            self.xi.append(list(range(self.col, self.col + len(row))))
            self.col += len(row)
        self.n_x = self.col

    def _flow_columns(self) -> None:
        """For the flow (many needs): y[k,g] units of need k from resource type g; s[k] spares
        standing in for need k, z[g] spares taken from type g."""
        K, G, masks = self.K, self.G, self.masks
        self.yk = {}
        for k in range(K if not self.hall else 0):
            for g in range(G):
                if masks[g] >> k & 1:
                    self.yk[k, g] = self.col
                    self.col += 1
        self.sk = self.zg = None
        if self.spare and not self.hall:
            self.sk = list(range(self.col, self.col + K))
            self.col += K
            self.zg = list(range(self.col, self.col + G))
            self.col += G

    def _objectives(self, polys) -> None:
        """Each key as (sign, linear costs by column) and its constant; a column per product
        of two targets' choices, from every key's pair terms."""
        xi = self.xi
        self.objs, self.consts, self.pairs = [], [], {}
        pairs = self.pairs
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
                                pairs[key] = self.col
                                self.col += 1
                            lin[pairs[key]] = lin.get(pairs[key], 0) + r
            self.objs.append((sign, lin))
            self.consts.append(const)

    # ---- constraints
    def row(self, coefs, a, b) -> None:
        r = self.np.zeros(self.n)
        for j, v in coefs:
            r[j] += v
        self.rows.append(r)
        self.lo.append(a)
        self.up.append(b)

    def add_constraints(self) -> None:
        """At most one list per target; the needs met fit the resources; the products; the bounds."""
        inf = self.np.inf
        for t in range(self.n_t):
            if self.xi[t]:
                self.row([(j, 1) for j in self.xi[t]], -inf, 1)
        if self.hall:
            self._hall_rows()
        self._flow_rows()
        self._product_rows()
        self._bounds()

    def _hall_rows(self) -> None:
        """For every set S of needs: what S asks for fits in the cards serving S plus up to
        `spare` others (rows that no choice can break are left out)."""
        K, vec_alts, xi, spare = self.K, self.vec_alts, self.xi, self.spare
        total = sum(self.caps)
        for S in range(1, 1 << K):
            served = sum(c for m, c in zip(self.masks, self.caps) if m & S)
            room = served + min(spare, total - served)
            coefs = [(xi[t][a], sum(v[k] for k in range(K) if S >> k & 1))
                     for t, r in enumerate(vec_alts) for a, v in enumerate(r)]
            most = sum(max((sum(v[k] for k in range(K) if S >> k & 1) for v in r), default=0)
                       for r in vec_alts)
            if most > room:
                self.row([(j, v) for j, v in coefs if v], -self.np.inf, room)

    def _flow_rows(self) -> None:
        """With many needs: the units of each need come from the types serving it or the
        spares; no type gives more than it has (no rows with Hall's condition)."""
        K, G, yk, sk, zg, spare = self.K, self.G, self.yk, self.sk, self.zg, self.spare
        inf = self.np.inf
        for k in range(K if not self.hall else 0):
            coefs = [(yk[k, g], 1) for g in range(G) if (k, g) in yk]
            if spare:
                coefs.append((sk[k], 1))
            coefs += [(self.xi[t][a], -v[k]) for t, r in enumerate(self.vec_alts) for a, v in enumerate(r) if v[k]]
            self.row(coefs, 0, 0)
        for g in range(G if not self.hall else 0):
            coefs = [(yk[k, g], 1) for k in range(K) if (k, g) in yk]
            if spare:
                coefs.append((zg[g], 1))
            self.row(coefs, -inf, self.caps[g])
        if spare and not self.hall:
            self.row([(j, 1) for j in sk] + [(j, -1) for j in zg], 0, 0)
            self.row([(j, 1) for j in sk], -inf, spare)

    def _product_rows(self) -> None:
        """w = x[s,a] * x[t,b]: at most x[s,a] summed over t's choices b (t eats one list at most),
        the same the other way round; at least x[s,a] + x[t,b] - 1 only where some key would
        gain from a w below the product (everywhere else a w below it never helps any program)."""
        owner = {j: t for t, cols in enumerate(self.xi) for j in cols}
        groups: dict = {}
        for (a, b), w in self.pairs.items():
            groups.setdefault((a, owner[b]), []).append(w)
            groups.setdefault((b, owner[a]), []).append(w)
            if any(sign * lin.get(w, 0) < 0 for sign, lin in self.objs):
                self.row([(a, 1), (b, 1), (w, -1)], -self.np.inf, 1)
        for (a, _t), ws in groups.items():
            self.row([(w, 1) for w in ws] + [(a, -1)], -self.np.inf, 0)

    def _bounds(self) -> None:
        """The choices and products are 0/1, the flows whole numbers from 0."""
        np, n = self.np, self.n
        self.integrality = np.zeros(n)
        self.integrality[:self.n_x] = 1
        self.lb, self.ub = np.zeros(n), np.full(n, np.inf)
        self.ub[:self.n_x] = 1
        for w in self.pairs.values():
            self.ub[w] = 1
        self.opts = dict(HIGHS_OPTIONS)

    # ---- HiGHS
    def solve(self, cost, infeasible=None):
        """HiGHS's answer, or None; ``infeasible`` when it proves there is none."""
        np, rows = self.np, self.rows
        A = np.array(rows) if rows else np.zeros((0, self.n))
        cons = [self.LinearConstraint(A, np.array(self.lo), np.array(self.up))] if rows else []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            res = self.milp(cost, integrality=self.integrality, bounds=self.Bounds(self.lb, self.ub),
                            constraints=cons, options=dict(self.opts))
        if res.status == 2 and infeasible is not None:
            return infeasible
        if res.status != 0 or res.x is None:
            return None
        return res

    def rank_cost(self, t, weight):
        """Cost of the ranks from target t on: t's times ``weight``, each later one's once (a
        target's rank is its wanted list's index, or its number of lists for nothing)."""
        cost = self.np.zeros(self.n)
        for s in range(t, self.n_t):
            for b, j in enumerate(self.xi[s]):
                cost[j] = (b - self.sizes[s]) * (weight if s == t else 1)
        return cost

    def exact(self, xv):
        """The choices rounded to 0/1, each w the product it stands for."""
        xv = self.np.round(xv)
        for (a, b), w in self.pairs.items():
            xv[w] = xv[a] * xv[b]
        return xv

    # ---- the keys: one program when safe weights exist (a later key's whole range is less
    # than one unit of the one before), else one per key
    def _span(self, lin):
        """How far the key can move: per target its best choice less its worst, plus the products."""
        out = sum(abs(v) for c, v in lin.items() if c >= self.n_x)
        for cols in self.xi:
            vs = [lin.get(c, 0) for c in cols] + [0]
            out += max(vs) - min(vs)
        return out + 1

    def _stages(self):
        """The keys' weights (each above the whole span of those after it) and the programs
        to solve: all keys in one when the weights stay exact, else one per key."""
        spans = [self._span(lin) for _sign, lin in self.objs]
        weights, w_ = [], 1
        for span in reversed(spans):
            weights.append(w_)
            w_ *= span
        weights.reverse()
        low = 1 + sum(self.sizes)                   # the ranks' sum, second to the keys
        n_keys = len(self.objs)
        stages = [list(range(n_keys))] if w_ * low < COMBINE_BELOW else [[j] for j in range(n_keys)]
        return weights, low, stages

    def best_keys(self):
        """The program's answer with every key at its best (and, in one program, the least
        ranks' sum second), or None; rows added hold the keys there for what follows."""
        np, n, objs = self.np, self.n, self.objs
        weights, low, self.stages = self._stages()
        stages = self.stages
        x = None
        self.key_rows = len(self.rows)             # the rows below hold the keys at their best
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
                cost += self.rank_cost(0, 1)
            res = self.solve(cost)
            if res is None:
                return None
            x = res.x
            xv = self.exact(x)
            self.best_keys_cost = (keys_cost, float(keys_cost @ xv))
            # keep these keys at their best for what follows, one row each (whole numbers: half a
            # unit is safe; small rows keep the later programs easy for HiGHS)
            for j in stage:
                sign, lin = objs[j]
                got = sum(sign * v * xv[c] for c, v in lin.items())
                self.row([(c, sign * v) for c, v in lin.items()], round(got) - 0.5, np.inf)
        if x is None:
            res = self.solve(np.zeros(n))
            if res is None:
                return None
            x = res.x
        return x

    def key_values(self, xv):
        """The search's score: sign * (const + sum), from the 0/1 choices (w as products)."""
        xv = self.exact(xv)
        return tuple(round(sign * (const + sum(v * xv[c] for c, v in lin.items())))
                     for (sign, lin), const in zip(self.objs, self.consts))

    # ---- the search's own tie-break: target by target, the least rank
    def chosen(self, xv, t):
        for a, j in enumerate(self.xi[t]):
            if xv[j] > 0.5:
                return a
        return None

    def fix(self, t, a) -> None:
        for b, j in enumerate(self.xi[t]):
            self.lb[j] = self.ub[j] = 1 if b == a else 0

    def tie_break(self, x):
        """Among the best ways, the search's: target by target, the least rank it can have;
        (choice per target, the keys' values), or None if HiGHS does not answer."""
        n_t, xi, sizes = self.n_t, self.xi, self.sizes
        t = 0
        while t < n_t:
            a = self.chosen(x, t)
            if a == 0 or not xi[t]:
                self.fix(t, a)
                t += 1
                continue
            if len(self.stages) == 1:
                smaller = self._smaller_rank_keeps_keys(t, a)
                if smaller is None:
                    return None
                if not smaller:                         # worse keys: t keeps its rank
                    self.fix(t, a)
                    t += 1
                    continue
            res = self.solve(self.rank_cost(t, 1 + sum(sizes[t + 1:])))      # t's rank first, then the rest
            if res is None:
                return None
            x = res.x
            self.fix(t, self.chosen(x, t))
            t += 1
        return [self.chosen(x, t) for t in range(n_t)], self.key_values(x)

    def _smaller_rank_keeps_keys(self, t, a):
        """Can t have a smaller rank than ``a`` with the best keys? Asked as "the best keys when it
        does" (without the rows that hold the keys): HiGHS proves that far quicker than
        infeasibility. None if HiGHS does not answer."""
        rows, lo, up, key_rows = self.rows, self.lo, self.up, self.key_rows
        r = self.sizes[t] if a is None else a
        held = rows[key_rows:], lo[key_rows:], up[key_rows:]
        del rows[key_rows:], lo[key_rows:], up[key_rows:]
        self.row([(j, 1) for j in self.xi[t][:r]], 1, self.np.inf)
        res = self.solve(self.best_keys_cost[0], infeasible=False)
        del rows[key_rows:], lo[key_rows:], up[key_rows:]
        rows.extend(held[0]), lo.extend(held[1]), up.extend(held[2])
        if res is None:
            return None
        return not (res is False or res.fun > self.best_keys_cost[1] + 0.5)
