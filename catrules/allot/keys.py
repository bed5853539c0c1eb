"""The `prefer` keys of an ``allot`` as tables the solver can read, or :class:`NotLinear`.

For one situation (the targets, each with its wanted lists of needs), a key
becomes ``const + sum of terms``, each term a table of the choice of ONE
target (what it eats, or nothing) or of a PAIR of targets.  The solver
(:mod:`catrules.allot.integer_program`) turns that into an integer program.

How a key is split: ``+``, ``-``, ``*``, ``sum``, ``count``, ``where``,
``if``/``pick`` whose choosing value does not depend on the choice, and the
``define``\\ s they call are opened up; a product is multiplied out, and
every product of terms must involve at most two targets.  Every other part
is a *leaf*: it is run by the real interpreter (its compiled code) with the
targets' ``note`` counters set to each possible choice, while the state
watches what it reads.  A leaf that reads the resources' piles (or where a
resource card lies), or the notes of more than two targets, is not linear.
This is exact: a leaf that, for every choice of the targets it read, read no
other target's note computes the same value whatever the others eat.
"""

from __future__ import annotations

from itertools import product

from ..lang import ast
from ..runtime.values import _mul
from ..runtime import as_list
from .memo import listed


#: Values that key a part's kept Poly (equal values of these types behave alike).
_PLAIN = frozenset((int, bool, str, ast.Sym, type(None)))


class NotLinear(Exception):
    """The key is not a sum of terms of one or two targets' choices here: use the search."""


# ================================================================ polynomials
class Poly:
    """``c + sum_t lin[t][k_t] + sum_(s,t) quad[s,t][k_s][k_t]``; k = 0 is "nothing", k = a + 1
    option a. ``c`` may be any value when there is no term (a plain value)."""
    __slots__ = ("c", "lin", "quad")

    def __init__(self, c=0, lin=None, quad=None):
        self.c, self.lin, self.quad = c, lin or {}, quad or {}

    @property
    def const(self) -> bool:
        return not self.lin and not self.quad

    def terms(self):
        """(targets, table) for each term; table is the value, a row or a matrix."""
        yield (), self.c
        for t, row in self.lin.items():
            yield (t,), row
        for st, m in self.quad.items():
            yield st, m

    def plus(self, o: "Poly", sign: int = 1) -> "Poly":
        if self.const and o.const:
            return Poly(self.c + o.c if sign > 0 else self.c - o.c)
        out = Poly(_n(self.c) + sign * _n(o.c), {t: list(r) for t, r in self.lin.items()},
                   {k: [list(r) for r in m] for k, m in self.quad.items()})
        for t, r in o.lin.items():
            cur = out.lin.get(t)
            out.lin[t] = [a + sign * b for a, b in zip(cur, r)] if cur else [sign * b for b in r]
        for k, m in o.quad.items():
            cur = out.quad.get(k)
            out.quad[k] = ([[a + sign * b for a, b in zip(ra, rb)] for ra, rb in zip(cur, m)] if cur
                           else [[sign * b for b in r] for r in m])
        return out.norm()

    def norm(self) -> "Poly":
        """Terms that do not vary (a target whose every choice gives the same) become constant."""
        for t in [t for t, r in self.lin.items() if min(r) == max(r)]:
            self.c = _n(self.c) + self.lin.pop(t)[0]
        for k in [k for k, m in self.quad.items() if min(map(min, m)) == max(map(max, m))]:
            self.c = _n(self.c) + self.quad.pop(k)[0][0]
        return self

    def value(self, ks: dict):
        """The value when target t makes choice ``ks.get(t, 0)``."""
        v = self.c
        for t, r in self.lin.items():
            v += r[ks.get(t, 0)]
        for (s, t), m in self.quad.items():
            v += m[ks.get(s, 0)][ks.get(t, 0)]
        return v


def _n(v):
    """A number for a sum: bools count 0/1, anything else is not linear."""
    t = type(v)
    if t is int:
        return v
    if t is bool:
        return int(v)
    raise NotLinear("not a whole number")


def from_table(R, table, sizes) -> Poly:
    """A Poly from the values of a part that depends on the targets ``R`` (at most two)."""
    if not R:
        return Poly(table[()])
    if len(R) == 1:
        row = [_n(table[(k,)]) for k in range(sizes[R[0]])]
        return Poly(0, {R[0]: row}) if len(set(row)) > 1 else Poly(row[0])
    s, t = R
    if s > t:
        m = [[_n(table[(j, i)]) for j in range(sizes[s])] for i in range(sizes[t])]
        s, t = t, s
    else:
        m = [[_n(table[(i, j)]) for j in range(sizes[t])] for i in range(sizes[s])]
    return Poly(0, quad={(s, t): m}).norm()


def _at(R, tab, ks):
    if not R:
        return tab
    if len(R) == 1:
        return tab[ks[R[0]]]
    return tab[ks[R[0]]][ks[R[1]]]


def pointwise(fn, polys, sizes) -> Poly:
    """``fn`` of the values of polys that together depend on at most two targets."""
    R = sorted({t for p in polys for t in p.lin} | {t for p in polys for k in p.quad for t in k})
    if len(R) > 2:
        raise NotLinear("a part depends on more than two targets")
    table = {}
    for combo in product(*(range(sizes[t]) for t in R)):
        ks = dict(zip(R, combo))
        table[combo] = fn(*[p.value(ks) for p in polys])
    return from_table(tuple(R), table, sizes)


def multiply(a: Poly, b: Poly, sizes) -> Poly:
    """``a * b`` multiplied out: each product of two terms may involve two targets at most."""
    if a.const and b.const:
        return Poly(a.c * b.c)
    if a.const:
        a, b = b, a
    if b.const:
        k = _n(b.c)
        return Poly(_n(a.c) * k, {t: [v * k for v in r] for t, r in a.lin.items()},
                    {st: [[v * k for v in r] for r in m] for st, m in a.quad.items()}).norm()
    if not a.quad and not b.quad:
        return _multiply_lin(a, b)
    # every product of two terms is a table of (at most) two targets, added up in place
    c, lin, quad = 0, {}, {}
    for Ra, ta in a.terms():
        for Rb, tb in b.terms():
            R = tuple(sorted(set(Ra) | set(Rb)))
            if not R:
                c += _n(ta) * _n(tb)
            elif len(R) == 1:
                t = R[0]
                row = lin.setdefault(t, [0] * sizes[t])
                for k in range(sizes[t]):
                    ks = {t: k}
                    row[k] += _n(_at(Ra, ta, ks)) * _n(_at(Rb, tb, ks))
            elif len(R) == 2:
                s, t = R
                m = quad.setdefault(R, [[0] * sizes[t] for _ in range(sizes[s])])
                for i in range(sizes[s]):
                    r = m[i]
                    for j in range(sizes[t]):
                        ks = {s: i, t: j}
                        r[j] += _n(_at(Ra, ta, ks)) * _n(_at(Rb, tb, ks))
            else:
                raise NotLinear("a product involves more than two targets")
    return Poly(c, lin, quad).norm()


def _multiply_lin(a: Poly, b: Poly) -> Poly:
    """``multiply`` for two sums of one-target terms (the common case, done directly)."""
    ac, bc = _n(a.c), _n(b.c)
    lin = {t: [v * bc for v in r] for t, r in a.lin.items()}
    for t, r in b.lin.items():
        cur = lin.get(t)
        lin[t] = [x + ac * v for x, v in zip(cur, r)] if cur else [ac * v for v in r]
    quad = {}
    for s, ra in a.lin.items():
        for t, rb in b.lin.items():
            if s == t:
                lin[s] = [x + u * v for x, u, v in zip(lin[s], ra, rb)]
            elif s < t:
                m = [[u * v for v in rb] for u in ra]
                cur = quad.get((s, t))
                quad[s, t] = [[x + y for x, y in zip(p, q)] for p, q in zip(cur, m)] if cur else m
            else:
                m = [[u * v for v in ra] for u in rb]
                cur = quad.get((t, s))
                quad[t, s] = [[x + y for x, y in zip(p, q)] for p, q in zip(cur, m)] if cur else m
    return Poly(ac * bc, lin, quad).norm()


def total(polys) -> Poly:
    """``0 + p1 + p2 + ...`` as :meth:`Poly.plus` would give it, summed in one pass (the polys
    are not changed: they may be kept for reuse)."""
    c, lin, quad, plain = 0, {}, {}, True
    for p in polys:
        if plain:
            if p.const:
                c = c + p.c
                continue
            c, plain = _n(c), False
        c += _n(p.c)
        for t, r in p.lin.items():
            cur = lin.get(t)
            if cur is None:
                lin[t] = list(r)
            else:
                for i, v in enumerate(r):
                    cur[i] += v
        for k, m in p.quad.items():
            cur = quad.get(k)
            if cur is None:
                quad[k] = [list(r) for r in m]
            else:
                for ra, rb in zip(cur, m):
                    for i, v in enumerate(rb):
                        ra[i] += v
    return Poly(c) if plain else Poly(c, lin, quad).norm()


def truth(p: Poly, sizes) -> Poly:
    if p.const:
        return Poly(1 if p.c else 0)
    if not p.quad and len(p.lin) == 1:
        (t, row), = p.lin.items()
        c = _n(p.c)
        return Poly(0, {t: [1 if c + v else 0 for v in row]}).norm()
    return pointwise(lambda v: 1 if v else 0, [p], sizes)


# ================================================================ the watcher
class _Watch:
    """What one leaf read: targets' notes (by target index), or something it may not."""
    __slots__ = ("reads", "bad", "tidx", "slots", "cards")

    def __init__(self, tidx, slots, cards):
        self.reads, self.bad = set(), False
        self.tidx, self.slots, self.cards = tidx, slots, cards


def _watched(base, check):
    """A list type whose reads go through ``check``; iterating or searching it is a bad read."""
    class Watched(base):
        __slots__ = ("w", "src")

        def __getitem__(self, i):
            if type(i) is int:
                check(self.w, i)
                if self.src is not None:
                    self.src[i]         # read through the memo's copy: written down there
            else:
                self.w.bad = True
            return base.__getitem__(self, i)

        def __iter__(self):
            self.w.bad = True
            return base.__iter__(self)

        def __contains__(self, x):
            self.w.bad = True
            return base.__contains__(self, x)

        def __reversed__(self):
            self.w.bad = True
            return base.__reversed__(self)

        def index(self, *a):
            self.w.bad = True
            return base.index(self, *a)

        def count(self, x):
            self.w.bad = True
            return base.count(self, x)

        def copy(self):
            self.w.bad = True
            return base.copy(self)
    return Watched


def _note_read(w, i):
    t = w.tidx.get(i)
    if t is not None:
        w.reads.add(t)


def _slot_read(w, i):
    if i in w.slots:
        w.bad = True


def _loc_read(w, i):
    if i in w.cards:
        w.bad = True


_NoteCol, _Zones, _Locs = (_watched(list, _note_read), _watched(list, _slot_read), _watched(list, _loc_read))


# ================================================================ the splitter
class KeyModel:
    """Made once per ``allot`` statement when the game is compiled; :meth:`polys` per situation."""

    def __init__(self, compiler, stmt: ast.Allot):
        self.gen, self.names, self.zones = compiler.gen, compiler.names, compiler.ck.zones
        self.keys = [(d == "highest", k) for d, k in stmt.prefer]
        self.note = stmt.note
        self._fns: dict = {}
        # the code of what each target wants, for what the allotment reads (its memo: search.memo_key)
        self.wants_body = getattr(compiler.ex_element(stmt.wants, "it"), "body", None)

    def polys(self, st, V, ss, si, ts, alts) -> list:
        """One (highest?, Poly) per key, for targets ``ts`` whose options are ``alts``
        (tuples of needs); raises NotLinear. Leaves the state as it found it."""
        if self.note is None:
            raise NotLinear("no note: a key cannot see what a target eats")
        self.st, self.ss, self.si = st, ss, si
        self.ts, self.meals = ts, [[None] + [list(m) for m in row] for row in alts]
        self.sizes = [len(row) + 1 for row in alts]
        self.src_len, self.into_len = len(st.z[ss]), len(st.z[si])
        cards = set(st.z[ss]) | set(st.z[si])
        w = self.w = _Watch({c: i for i, c in enumerate(ts)}, {ss, si}, cards)
        col, z, loc = st.c[self.note], st.z, st.loc
        # (while the memo watches what a search reads, these are read-through copies: read through)
        (lcol, scol), (lz, sz), (lloc, sloc) = listed(col), listed(z), listed(loc)
        wcol, wz, wloc = _NoteCol(lcol), _Zones(lz), _Locs(lloc)
        wcol.w = wz.w = wloc.w = w
        wcol.src, wz.src, wloc.src = scol, sz, sloc
        st.c[self.note], st.z, st.loc = wcol, wz, wloc
        self.col = wcol
        self._seen = {}
        try:
            out = []
            for hi, k in self.keys:
                p = self.sym(k, V, None)
                if p.const:
                    p = Poly(_num(p.c))
                else:
                    p = Poly(_n(p.c), p.lin, p.quad)     # (p may be kept in _seen: not changed)
                out.append((hi, p))
            return out
        finally:
            st.c[self.note], st.z, st.loc = col, z, loc
            self.st = self.col = self._seen = None

    # ------------------------------------------------------------ structure
    def sym(self, e, V, it) -> Poly:
        # The same part meets the same values again and again (a define called from several
        # keys, a count inside a sum): within one call its Poly is kept, and never changed.
        key = got = None
        if type(it) in _PLAIN and all(type(v) in _PLAIN for v in V.values()):   # (else: not kept)
            key = (id(e), tuple([(k, v, type(v)) for k, v in V.items()]), it, type(it))  # 1 != True
            got = self._seen.get(key)
        if got is None:
            try:
                got = self._split(e, V, it)
            except NotLinear:
                got = None
            if got is None:
                got = self.leaf(e, V, it)
            if key is not None:
                self._seen[key] = got
        return got

    def _const(self, e, V, it):
        p = self.sym(e, V, it)
        if not p.const:
            raise NotLinear("a value that chooses depends on the choice")
        return p.c

    def _split(self, e, V, it):
        sizes = self.sizes
        if isinstance(e, ast.Const):
            return Poly(e.value)
        if isinstance(e, ast.Binary):
            if e.op in ("+", "-"):
                return self.sym(e.left, V, it).plus(self.sym(e.right, V, it), 1 if e.op == "+" else -1)
            if e.op == "*":
                a, b = self.sym(e.left, V, it), self.sym(e.right, V, it)
                return Poly(_mul(a.c, b.c)) if a.const and b.const else multiply(a, b, sizes)
            return None
        if isinstance(e, ast.Unary) and e.op == "-":
            a = self.sym(e.operand, V, it)
            return Poly(-a.c) if a.const else multiply(a, Poly(-1), sizes)
        if isinstance(e, ast.IfElse):
            return self.sym(e.then if self._const(e.cond, V, it) else e.other, V, it)
        if isinstance(e, ast.Pick):
            key = self._const(e.key, V, it)
            for kx, vx in e.cases:
                if key == self._const(kx, V, it):
                    return self.sym(vx, V, it)
            return self.sym(e.default, V, it) if e.default is not None else None
        kind, detail = self.names.get(id(e), (None, None))
        if kind == "define" and isinstance(e, (ast.Call, ast.Name)):
            args = [self._const(a, V, it) for a in getattr(e, "args", ())]
            return self.sym(detail.body, dict(zip(detail.params, args)), None)
        if isinstance(e, ast.Call) and e.name in ("count", "sum") and e.args:
            if e.name == "count" and len(e.args) == 1:
                z = self._zone_count(e.args[0], V, it)
                if z is not None:
                    return z
            return self._over(e, V, it)
        return None

    def _zone_count(self, node, V, it):
        """``count(the resources' pile)``: its size less (or, for ``into``, plus) what is eaten."""
        kind, spec = self.names.get(id(node), (None, None))
        if kind != "zone" or spec.shape not in ("pile", "row"):
            return None
        base = self.st.layout.base[spec.index]
        if spec.per_player:
            if not isinstance(node, ast.Of):
                return None
            slot = base + self._const(node.owner, V, it)
        else:
            slot = base
        if slot not in (self.ss, self.si):
            return None
        sign, n0 = (-1, self.src_len) if slot == self.ss else (1, self.into_len)
        lin = {t: [0] + [sign * len(m) for m in row[1:]] for t, row in enumerate(self.meals) if len(row) > 1}
        return Poly(n0, {t: r for t, r in lin.items() if any(r)})

    def _elements(self, node, V, it):
        """(the elements, conditions on them): ``where`` and defines opened up."""
        if isinstance(node, ast.Where):
            items, conds = self._elements(node.source, V, it)
            if node.cond is not None:
                conds = conds + [(node.cond, V, node.var, it)]
            return items, conds
        kind, detail = self.names.get(id(node), (None, None))
        if kind == "define" and isinstance(node, (ast.Call, ast.Name)):
            args = [self._const(a, V, it) for a in getattr(node, "args", ())]
            return self._elements(detail.body, dict(zip(detail.params, args)), None)
        return as_list(self.st, self._const(node, V, it)), []

    def _over(self, e, V, it):
        """``count(L)``, ``sum(L)``, ``sum(L, f)``: a sum over L's elements of condition x value."""
        sizes = self.sizes
        items, conds = self._elements(e.args[0], V, it)
        first = e.args[0]
        fvar = first.var if isinstance(first, ast.Where) and first.var else None
        terms = []
        for x in items:
            w = None                 # None: 1 (no condition yet)
            for cond, CV, var, outer in conds:
                cv, cit = ({**CV, var: x}, outer) if var else (CV, x)
                tr = truth(self.sym(cond, cv, cit), sizes)
                w = tr if w is None else multiply(w, tr, sizes)
                if w.const and not w.c:
                    break
            if w is not None and w.const and not w.c:
                continue
            if e.name == "count":
                val = Poly(1)
            elif len(e.args) == 1:
                val = Poly(x)
            else:
                val = self.sym(e.args[1], {**V, fvar: x} if fvar else V, it if fvar else x)
            terms.append(val if w is None else multiply(w, val, sizes))
        return total(terms)

    # ------------------------------------------------------------ leaves
    def leaf(self, e, V, it) -> Poly:
        """Run ``e`` for every choice of the targets whose notes it reads (two at most)."""
        fn = self._fns.get(id(e))
        if fn is None:
            fn = self._fns[id(e)] = self.gen.function(e, params=("_it",), element_names=("it",), name="key")
        st, w, col, meals, ts = self.st, self.w, self.col, self.meals, self.ts
        R: list = []
        while True:
            table, grown = {}, False
            for combo in product(*(range(self.sizes[t]) for t in R)):
                for t, k in zip(R, combo):
                    list.__setitem__(col, ts[t], meals[t][k])
                w.reads.clear()
                w.bad = False
                try:
                    v = fn(st, V, it)
                finally:
                    for t in R:
                        list.__setitem__(col, ts[t], None)
                if w.bad:
                    raise NotLinear("a part reads the resources")
                extra = w.reads.difference(R)
                if extra:
                    R += sorted(extra)
                    if len(R) > 2:
                        raise NotLinear(f"line {getattr(e, 'line', '?')}: a part reads what more than two "
                                        "targets eat")
                    grown = True
                    break
                table[combo] = v
            if not grown:
                return from_table(tuple(R), table, self.sizes)


def _num(v):
    if isinstance(v, bool) or v is None:
        return int(bool(v))
    return _n(v)
