"""The `allot` search (catrules/allot/search.py) against a brute force written apart.

The search prunes (Hall's condition, subsets no demand can break, ways left out
under `maximal`) and memoises within one call; none of that may change what it
keeps. Here every `allot` of random situations also runs through a plain
enumeration of every way, in the search's order (each target's lists in order,
then nothing; the first target outermost), feasibility by trying every
resource for every wanted unit, and both must keep the same meals.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import pytest

import catrules
import catrules.compile.compiler as comp
from catrules.allot import search as allot
from catrules.runtime import as_list

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_allot_solver as solver_tests  # noqa: E402  (its generic pets game)


def brute_force(st, V, ss, si, ts, wants, serves, spare, keys, note, line, maximal=False, model=None):
    """The meals per target of the best way, by trying every way."""
    alts = [[tuple(as_list(st, m)) if isinstance(m, (list, tuple)) else (m,) for m in w] for w in wants]
    res = list(st.z[ss])
    known: dict = {}

    def feasible(meals):
        units = tuple(sorted(x for m in meals if m for x in m))
        if units not in known:
            def go(j, free, spares):
                if j == len(units):
                    return True
                for r in free:
                    rest = free - {r}
                    if serves(st, r, units[j]) and go(j + 1, rest, spares):
                        return True
                    if spares and go(j + 1, rest, spares - 1):
                        return True
                return False
            known[units] = go(0, frozenset(res), spare)
        return known[units]

    def used_for(meals):
        # any cards that serve: the keys of these games count cards, never which ones
        units = [x for m in meals if m for x in m]
        free, used, spares = list(res), [], spare
        for x in units:
            for r in free:
                if serves(st, r, x):
                    break
            else:
                r, spares = free[0], spares - 1
            free.remove(r)
            used.append(r)
        return used

    best = None
    for choice in itertools.product(*[list(range(len(r))) + [None] for r in alts]):
        meals = [alts[i][a] if a is not None else None for i, a in enumerate(choice)]
        if not feasible(meals):
            continue
        if maximal and any(a is None and any(feasible(meals[:i] + [m] + meals[i + 1:]) for m in alts[i])
                           for i, a in enumerate(choice)):
            continue
        used = used_for(meals)
        orig_src, orig_into = st.z[ss], st.z[si]
        allot._apply_allotment(st, ss, si, used, ts, meals, note)
        score = tuple((1 if hi else -1) * allot._num(f(st, V)) for hi, f in keys)
        st.z[ss], st.z[si] = orig_src, orig_into
        for c in used:
            st.loc[c] = ss
        if note is not None:
            for t in ts:
                st.c[note][t] = None
        if best is None or score > best[0]:
            best = (score, meals)
    return None if best is None else best[1]


@pytest.fixture
def checked(monkeypatch):
    """Every allot runs the search and the brute force; returns how many were compared."""
    monkeypatch.setattr(allot, "USE_SOLVER", False)
    count = [0]
    real = allot.solve_allotment

    def both(*a, **k):
        got = real(*a, **k)
        want = brute_force(*a, **k)
        assert (got[1] if got is not None else None) == want
        count[0] += 1
        return got
    monkeypatch.setattr(comp, "solve_allotment", both)
    return count


@pytest.mark.parametrize("maximal", [False, True])
def test_the_search_keeps_what_every_way_tried_keeps(maximal, checked):
    rng = random.Random(11 + maximal)
    for case in range(12):
        g = solver_tests.game(value=rng.choice([solver_tests.LINEAR, solver_tests.PAIRS]),
                              prefer=rng.choice(["highest value(p) then lowest count(food of p)",
                                                 "highest value(p)", "lowest count(food of p)",
                                                 "highest count(food of p)"]),
                              maximal=maximal, seed=case)
        st = solver_tests.situation(g, rng, pets=rng.randint(0, 6), bowls=rng.randint(0, 7),
                                    spares=rng.randint(0, 2))
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
        assert st.over
    assert checked[0] == 24


def test_catlady_feedings_keep_what_every_way_tried_keeps(checked):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import catlady_feeding as cf
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    g = catrules.load_game(ROOT / "games" / "catlady.cat")
    rng = random.Random(3)
    strays = ["Cow", "Waffle", "Truffle", "Alvin", "Dinah", "Luna", "Florence", "Macak"]
    deck = ["Henriette", "Pumpkin", "Sox", "Keaton", "Bronte", "Zeus", "Lily", "Shadow", "Bell"]
    for n in range(6):
        cats = rng.sample(strays, rng.randint(0, 3)) + rng.sample(deck, rng.randint(0, 4))
        cubes = [rng.choice(["chicken", "tuna", "milk", "wild"]) for _ in range(rng.randint(0, 6))]
        cf.SITUATIONS[f"t{n}"] = ("test", {0: (cats, cubes)})
        try:
            cf.feed(cf.build(g, f"t{n}"))
        finally:
            del cf.SITUATIONS[f"t{n}"]
    assert checked[0] == 6 * 2 * 4     # two passes over the 4 players



def test_serves_kept_per_card_only_when_it_reads_nothing_of_the_table():
    """The needs a card serves are kept across searches (``_masks_kept``) only for a ``serves``
    whose code reads its card's columns and its need alone, never the table."""
    assert allot._pure("def _d_f(st, _p_c, _p_need):\n    return _a_flavour[_p_c] == _p_need\n")
    assert not allot._pure("def _d_f(st, _p_c, _p_need):\n    return len(st.z[3]) > 0\n")
    assert not allot._pure("def _d_f(st, _p_c, _p_need):\n    return _d_g(st, _p_c)\n")
    assert not allot._pure(None)

    def pure(st, c, need):
        return c % 2 == need
    pure.source = "def pure(st, c, need):\n    return _a_x[c] == need\n"
    kept = allot._masks_kept(pure, [0, 1])
    assert kept == {} and allot._masks_kept(pure, [0, 1]) is kept
    assert allot._masks_kept(pure, [True, 1]) is not kept        # 1 and True stay apart

    def impure(st, c, need):
        return bool(st)
    impure.source = "def impure(st, c, need):\n    return bool(st)\n"
    assert allot._masks_kept(impure, [0]) is None
