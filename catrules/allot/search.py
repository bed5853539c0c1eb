"""The `allot` statement: share resource cards among targets the best way.

When the ``prefer`` keys split into terms of one or two targets' choices, a
solver finds the best way (:mod:`catrules.allot.integer_program`: a dynamic programming
over the needs met, or an integer program when its tables would be too big); otherwise
every way to give each target one of its wanted lists of needs (or nothing)
is tried, feasibility checked by Hall's condition and a small max-flow, each
complete way scored by the keys. Both keep the same way when several tie.
"""

from __future__ import annotations

import ast
from typing import Callable, NamedTuple, Optional

from ..errors import RulesError
from ..limits import STEP_LIMIT
from ..runtime import as_list
from ..runtime.reads import NoKey, value_key, reads_of
from ..runtime.reads import _PURE as _PURE_HELPERS
from . import integer_program, memo    # integer_program: light (scipy only when it solves)
from .fit import (_Fit, _feasibility, _hall_conditions, _hall_sums, _max_flow_plan, _pack,  # noqa: F401
                  _pack_sums, _packing, _Packing)


# ============================================================= allotment search
#: The most complete allotments one ``allot`` statement may compare.
ALLOT_LIMIT = 1_000_000
#: Try the solver (when the keys allow it) only from this many ways (the product over the
#: targets of their choices): below it the search is quick and numpy, scipy are not imported.
SOLVER_FROM = 4096
#: False: always search (tests compare the two).
USE_SOLVER = True
#: How the last allotment was found: "solver" or "search" (for tests and benchmarks).
last_method = None
#: The most allotments one statement remembers (then it forgets them all and starts again).
MEMO_SIZE = 4096


def _apply_allotment(st, ss, si, used, ts, meals, note) -> None:
    gone = set(used)
    st.z[ss] = [c for c in st.z[ss] if c not in gone]
    st.z[si] = st.z[si] + list(used)
    for c in used:
        st.loc[c] = si
    if note is not None:
        col = st.c[note]
        for t, m in zip(ts, meals):
            col[t] = list(m) if m is not None else None



class Allotment(NamedTuple):
    """One ``allot`` to solve: the resources in pile ``source`` go to pile ``into``, each of
    the ``targets`` getting one of its ``wants`` (lists of needs) or nothing."""
    source: int                 # the slot of the pile shared out
    into: int                   # the slot of the pile the used cards go to
    targets: list
    wants: list                 # per target, its wanted lists of needs (or single needs)
    serves: Callable            # serves(st, resource, need) -> truth
    spare: int                  # how many resources may stand in for any need
    keys: list                  # [(highest?, key(st, V))], the ``prefer`` line
    note: Optional[int]         # the counter column that records each target's meal, or None
    line: int                   # of the statement, for errors
    maximal: bool = False       # leave no target out that could still be met
    model: object = None        # a :class:`keys.KeyModel`: the solver may try first


class _Shape(NamedTuple):
    """An allotment read as needs: what each target wants, which resources serve what."""
    needs: list                 # every need wanted, in the order first wanted
    alts: list                  # per target, its wanted lists as tuples of needs
    vec_alts: list              # the same as counts per need
    by_mask: dict               # the resources by the set of needs they serve (bits)
    masks: list                 # those sets, fewest needs first
    caps: list                  # how many resources each set has


def solve_allotment(st, V, ss, si, ts, wants, serves, spare, keys, note, line, maximal=False, model=None):
    """:func:`best_allotment` of the :class:`Allotment` these arguments make (the compiled
    ``allot`` and tests call it so), remembered per statement by its inputs (:func:`memo_key`) and
    the values of what its search read (:mod:`catrules.allot.memo`)."""
    global last_method
    job = Allotment(ss, si, ts, wants, serves, spare, keys, note, line, maximal, model)
    key = memo_key(st, V, job)
    if key is None:
        return best_allotment(st, V, job)
    tables = model.memo.get(key)
    for reads, table in tables or ():
        try:
            hit = table.get(memo.values_of(st, reads))
        except NoKey:
            continue
        # the steps the keys counted (lists they built) are counted again, unless past the limit:
        # then it is worked out again, to stop where it stops
        if hit is not None and st.steps + hit.steps <= STEP_LIMIT:
            st.steps += hit.steps
            last_method = hit.method
            return memo.plan_of(hit, st.z[ss])
    before = st.steps
    (plan, shape), rec, finish = memo.recorded(st, model.memo_columns, lambda: _best(st, V, job))
    reads = memo.reads_of_record(rec, (ss, si))
    if key[0] and memo.touches(rec, st.z[ss] + st.z[si]):
        reads = None                    # a card of the piles looked at: their order may matter
    try:
        values = memo.values_of(st, reads) if reads is not None else None
    except NoKey:
        values = None
    finish()
    if values is not None:
        if tables is None:
            if len(model.memo) >= MEMO_SIZE:
                model.memo.clear()
            tables = model.memo[key] = []
        for r, table in tables:
            if r == reads:
                break
        else:
            table = {}
            tables.append((reads, table))
        table[values] = memo.kept_of(plan, shape.by_mask, st.steps - before, last_method)
    return plan


def memo_key(st, V, job: Allotment):
    """The inputs of an allotment, as its memo's key: the variables its keys read, the piles
    shared (the source as a set when its order cannot matter, see :mod:`catrules.allot.memo`),
    the targets, what they want, the spare, the game's options, the engine's switches; None when the code may read
    what :mod:`catrules.runtime.reads` cannot tell (or while a lint counts what the game does)."""
    model = job.model
    if model is None or st.stats is not None:
        return None
    how = getattr(model, "memo_how", False)
    if how is False:
        model.memo_how = how = _memo_how(job)
        model.memo, model.memo_unordered = {}, {}
        model.memo_columns = frozenset(how[1]) if how is not None else frozenset()
    if how is None:
        return None
    variables, columns, ordered, counters = how
    pile = st.z[job.source]
    c = st.c
    lay = st.layout
    try:
        at = (id(lay), st.n, job.source, job.into)
        kept = model.memo_unordered.get(at)
        if kept is None or kept[0] is not lay:      # the same for every table of a layout
            kept = model.memo_unordered[at] = (lay, not ordered.intersection(_zones_of(st, at[2:])))
        unordered = kept[1]
        if unordered:
            pile = sorted(pile)
        # counters read whole, and those read entry by entry that hold no list now, as they are
        whole = [(n in c, value_key(c.get(n))) for n in counters]
        if columns:
            whole += [value_key(c.get(n)) for n in columns if type(c.get(n)) is not list]
        return (unordered, tuple([value_key(V.get(v)) for v in variables]), tuple(whole), st.n,
                tuple(st.options),      # the keys may read them; a statement serves every game
                integer_program.USE_DP, USE_SOLVER,     # the engine switches too (tests compare them)
                SOLVER_FROM, job.source, job.into, tuple(pile), tuple(st.z[job.into]), tuple(job.targets),
                memo.wants_key(job.wants), value_key(job.spare), job.maximal)
    except (NoKey, TypeError):
        return None


def _zones_of(st, slots) -> list:
    """The zones (indices of the game's zones) of ``slots``; -1 for a slot not found so."""
    lay = st.layout
    out = []
    for s in slots:
        k = lay.slot_spec[s].index
        ok = 0 <= k < len(lay.base) and lay.base[k] <= s < lay.base[k] + st.n
        out.append(k if ok else -1)
    return out


def _memo_how(job: Allotment):
    """``(variables read, counters read entry by entry, zones read other than counted, counters
    read whole)`` for the keys, ``serves`` and the targets' wants
    (:func:`catrules.runtime.reads.reads_of`: None if it cannot be told)."""
    bodies = [getattr(fn, "body", None) for _hi, fn in job.keys] + [getattr(job.model, "wants_body", None)]
    src = getattr(job.serves, "source", None)
    if any(b is None for b in bodies) or src is None or not job.keys:
        return None
    name = job.serves.__name__
    reads = reads_of(bodies + [f"{name}(st, None, None)"], job.keys[0][1].__globals__)
    if reads is None:
        return None
    columns = reads.counters - reads.whole
    if job.note is not None and job.note not in reads.whole:
        columns |= {job.note}
    return (tuple(sorted(reads.variables)), tuple(sorted(columns)), reads.ordered | {-1},
            tuple(sorted(reads.counters - columns)))


def best_allotment(st, V, job: Allotment):
    """The way :func:`_best` finds (the way only)."""
    return _best(st, V, job)[0]


def _best(st, V, job: Allotment):
    """``(way, shape)``: search every way to give each target one of its wanted lists of needs, or nothing.

    Returns ``(used cards, meal per target)`` for the way best by the keys.
    Resources that serve the same needs are interchangeable, so the search
    runs over the needs met: a demand is packed into one int, its feasibility
    (Hall's condition, or a small max-flow) memoised within the call; each
    complete way is scored by moving the cards and evaluating the keys, then
    undone. ``job.model`` (an :class:`allot_keys.KeyModel`) lets the
    solver try first.
    """
    global last_method
    shape = _shape(st, job)
    packing = _packing(shape.vec_alts, len(shape.needs))
    hall = _hall_conditions(shape.masks, shape.caps, job.spare, len(st.z[job.source]), packing)
    sums = _hall_sums(hall, packing)
    mult = sums.mult
    packed = [[_pack_sums(v, mult) for v in row] for row in shape.vec_alts]
    fit = _feasibility(hall, shape.masks, shape.caps, job.spare, packing, packed, sums)
    chosen = [None] * len(job.targets)
    way = _way_maker(shape, chosen, fit.plan_for)
    score_of = _scorer(st, V, job)
    ways = 1
    for row in shape.alts:
        ways *= len(row) + 1
    if job.model is not None and USE_SOLVER and ways >= SOLVER_FROM:
        w = _by_solver(st, V, job, shape, packed, fit, chosen, way, score_of)
        if w is not None:
            last_method = "solver"
            return w, shape
    last_method = "search"
    best = [None, None]
    leaf = _leaf_keeper(st, job.line, way, score_of, best)
    most_after = _most_after(packing, mult, len(job.targets), job.maximal)
    _depth_first(packed, fit, most_after, job.maximal, chosen, leaf)(0, 0, ())
    return best[1], shape


def _shape(st, job: Allotment) -> _Shape:
    """The needs the targets want, as lists and as counts per need; the resources by the needs they serve."""
    needs: list = []
    alts = []
    for w in job.wants:
        row = []
        for meal in w:
            m = tuple(as_list(st, meal)) if isinstance(meal, (list, tuple)) else (meal,)
            for x in m:
                if x not in needs:
                    needs.append(x)
            row.append(m)
        alts.append(row)
    kidx = {x: i for i, x in enumerate(needs)}
    K = len(needs)
    by_mask: dict = {}
    serves = job.serves
    known = _masks_kept(serves, needs) if st.stats is None else None
    for r in list(st.z[job.source]):
        mask = known.get(r) if known is not None else None
        if mask is None:
            mask = 0
            for i, x in enumerate(needs):
                if serves(st, r, x):
                    mask |= 1 << i
            if known is not None:
                known[r] = mask
        by_mask.setdefault(mask, []).append(r)
    masks = sorted(by_mask, key=lambda m: (bin(m).count("1"), m))
    caps = [len(by_mask[m]) for m in masks]
    vec_alts = []
    for row in alts:
        vr = []
        for m in row:
            v = [0] * K
            for x in m:
                v[kidx[x]] += 1
            vr.append(tuple(v))
        vec_alts.append(vr)
    return _Shape(needs, alts, vec_alts, by_mask, masks, caps)


def _way_maker(shape: _Shape, chosen, plan_for):
    """way(demand): (the cards used, the meal per target) for the lists ``chosen`` now, or None."""
    by_mask, masks, alts = shape.by_mask, shape.masks, shape.alts
    used_memo: dict = {}

    def way(dem):
        used = used_memo.get(dem)
        if used is None:
            per_type = plan_for(dem)
            if per_type is None:       # cannot happen when Hall's condition held; kept as a guard
                return None
            used = used_memo[dem] = [c for m, k in zip(masks, per_type) for c in by_mask[m][:k]]
        return list(used), [alts[i][a] if a is not None else None for i, a in enumerate(chosen)]
    return way


def _scorer(st, V, job: Allotment):
    """score_of(used, meals): the keys' values (signed: higher is better) once that way is made, then undone."""
    ss, si, ts, note = job.source, job.into, job.targets, job.note
    z, loc = st.z, st.loc       # the search's own (maybe read-through) lists: the keys only read them
    orig_src, orig_into = z[ss], z[si]
    signed_keys = [(1 if hi else -1, f) for hi, f in job.keys]
    put, put_back = memo.places_writer(loc)
    col = st.c[note] if note is not None else None

    def score_of(used, meals):
        gone = set(used)
        z[ss] = [c for c in orig_src if c not in gone]
        z[si] = orig_into + used
        put(used, si)
        if col is not None:
            for t, m in zip(ts, meals):
                col[t] = list(m) if m is not None else None
        st.memo = {}                # the keys share definitions: worked out once for this way
        try:
            score = []
            for sign, f in signed_keys:
                v = f(st, V)
                score.append(sign * (v if type(v) is int else _num(v)))
        finally:
            st.memo = None
        z[ss], z[si] = orig_src, orig_into
        put_back(used, ss)
        if col is not None:
            for t in ts:
                col[t] = None
        return tuple(score)
    return score_of


def _by_solver(st, V, job: Allotment, shape: _Shape, packed, fit: _Fit, chosen, way, score_of):
    """The solver's way, checked: it fits, is maximal if asked, and scores what it said; else None."""
    from . import integer_program as allot_solver
    from .keys import NotLinear
    try:
        polys = job.model.polys(st, V, job.source, job.into, job.targets, shape.alts)
    except NotLinear:
        return None
    except Exception:          # noqa: BLE001 - the search meets (and reports) the same error
        return None
    got = allot_solver.best_choice(polys, shape.vec_alts, shape.masks, shape.caps, job.spare)
    if got is None:
        return None
    choice, score = got
    n_t = len(chosen)
    chosen[:] = choice
    dem = sum(packed[i][a] for i, a in enumerate(choice) if a is not None)
    try:
        if not fit.fits(dem) or (job.maximal and any(chosen[i] is None and fit.fits_with(i, dem)
                                                     for i in range(n_t))):
            return None
        w = way(dem)
        return w if w is not None and score_of(*w) == score else None
    finally:
        chosen[:] = [None] * n_t


def _leaf_keeper(st, line, way, score_of, best):
    """leaf(demand): score the complete way chosen now and keep it in ``best`` if better;
    stops the search past :data:`ALLOT_LIMIT` ways."""
    leaves = [0]

    def leaf(dem):
        leaves[0] += 1
        if leaves[0] > ALLOT_LIMIT:
            raise RulesError(f"`allot` compared {ALLOT_LIMIT:,} ways and was stopped", line, st.prog.path,
                             "offer fewer lists in `wants`, or fewer targets")
        w = way(dem)
        if w is None:
            return
        score = score_of(*w)
        if best[0] is None or score > best[0]:
            best[0], best[1] = score, w
    return leaf


def _most_after(packing: _Packing, mult, n_t, maximal):
    """With `maximal`, what every later target could add at most (to prune "nothing" early)."""
    most_after = [0] * (n_t + 1)
    for i in range(n_t - 1 if maximal else -1, -1, -1):
        most_after[i] = most_after[i + 1] + _pack_sums(packing.row_max[i], mult)
    return most_after


def _depth_first(packed, fit: _Fit, most_after, maximal, chosen, leaf):
    """dfs(target, demand so far, targets left out): every way from that target on, each
    target's lists in order, then nothing; ``leaf`` at each complete way.

    With `maximal`, a way is dropped when a target left out could still be met in it; a whole
    branch is dropped as soon as a target left out fits on top of the most the targets after
    it could ask (``most_after``): fitting is monotone (a smaller demand fits if a larger one
    does), so it would fit in every way of the branch.  A target none of whose lists fits now
    is left out without being noted: it fits in no way of the branch either.  Only ways that
    would be dropped are skipped, the others come in the same order."""
    fits, fits_with = fit.fits, fit.fits_with
    offset, guards = fit.offset, fit.guards
    carried = guards is not None       # Hall's sums in the demand: its fit is read off it
    offs = [[v + offset for v in row] for row in packed]
    n_t = len(chosen)

    def left_fits(us, d):
        """Does one of the targets ``us`` (left out) fit on top of demand ``d``?"""
        for u in us:
            if carried:
                for w in offs[u]:
                    if not (d + w) & guards:
                        return True
            elif fits_with(u, d):
                return True
        return False

    def dfs(i, dem, unmet):
        # `unmet`: the targets left out so far that could be met on top of `dem`
        if i == n_t:
            if not unmet or not left_fits(unmet, dem):
                leaf(dem)
            return
        while True:
            met = False
            for a, v in enumerate(packed[i]):
                nd = dem + v
                if not (nd + offset) & guards if carried else fits(nd):
                    met = True
                    chosen[i] = a
                    dfs(i + 1, nd, unmet)
            chosen[i] = None
            i += 1
            if maximal:
                # leaving it out never pays if it would fit whatever comes after; and a branch
                # in which a target left out fits whatever comes after holds only dominated ways
                top = dem + most_after[i]
                if carried:             # left_fits((i - 1,) + unmet, top), written out
                    if met:
                        for w in offs[i - 1]:
                            if not (top + w) & guards:
                                return
                    for u in unmet:
                        for w in offs[u]:
                            if not (top + w) & guards:
                                return
                elif left_fits((i - 1,) + unmet if met else unmet, top):
                    return
                if met:
                    unmet += (i - 1,)
            if i == n_t:
                leaf(dem)    # every target left out was just found not to fit on `dem`
                return
    return dfs


def _num(v):
    if isinstance(v, bool) or v is None:
        return int(bool(v))
    return v


def _masks_kept(serves, needs: list):
    """The needs each card serves (bits over ``needs``) found so far, to read and fill, when
    ``serves`` is a function of its card and need alone (its code reads neither the table nor a
    variable: :func:`_pure`): the same cards meet the same needs in search after search.  Else
    None.  Kept on the function (``allot_masks``: per needs, card -> bits): they go with the game."""
    by_needs = getattr(serves, "allot_masks", None)
    if by_needs is None:
        by_needs = {} if _pure(getattr(serves, "source", None)) else False
        try:
            serves.allot_masks = by_needs
        except AttributeError:
            return None
    if by_needs is False:
        return None
    try:
        at = (tuple(needs), tuple(map(type, needs)))     # 1 and True stay apart
        kept = by_needs.get(at)
    except TypeError:                   # a need that is a list: not kept
        return None
    if kept is None:
        if len(by_needs) >= 4096:
            by_needs.clear()
        kept = by_needs[at] = {}
    return kept


def _pure(source) -> bool:
    """Does the Python text ``source`` (one ``def``) use only its parameters, the cards' printed
    columns and constants (``_a_...``, ``_t_...``, ``_k...``), and helpers that never see the state?"""
    if not source:
        return False
    try:
        fn = ast.parse(source).body[0]
    except (SyntaxError, IndexError):
        return False
    if not isinstance(fn, ast.FunctionDef):
        return False
    params = {a.arg for a in fn.args.args}
    for n in ast.walk(fn):
        if isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Global, ast.Nonlocal, ast.Attribute)):
            return False
        if isinstance(n, ast.Name) and not (n.id in params and n.id != "st" or n.id.startswith(("_a_", "_t_", "_k"))
                                            or n.id in _PURE_HELPERS):
            return False
    return True
