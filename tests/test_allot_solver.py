"""The `allot` solver (catrules/allot/integer_program.py, allot_keys.py) against the search.

The solver must keep exactly the allotment the search keeps: the same best
value and, among ties, the same way (which target eats which list, which
resource cards go where), since games and goldens depend on it.  Each test
plays the same situation twice, solver on and off, and compares the whole
state.  ``SOLVER_FROM = 0`` makes even small situations go to the solver.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import catrules
from catrules.allot import search as allot, dp as allot_dp, integer_program as allot_solver
from catrules.allot.keys import KeyModel, NotLinear
from catrules.testing import card, put, zone

pytest.importorskip("scipy")

ROOT = Path(__file__).resolve().parents[1]

HEADER = 'catrules 1\ngame "T"\nplayers 2 to 2\n'


def _pets(rng, n=12):
    out = []
    for i in range(n):
        needs = rng.choice([["meat"], ["fish"], ["seed"], ["meat", "meat"], ["meat", "fish"],
                            ["fish", "seed", "seed"], ["meat", "fish", "seed"]])
        alt = rng.choice([["seed"], ["fish"], ["meat", "meat"], ["fish", "fish"]])
        out.append(f'    card with name "P{i}", points {rng.randint(0, 6)}, kind {rng.choice(["cat", "dog"])}, '
                   f'needs [{", ".join(needs)}], alt [{", ".join(alt)}]')
    return "\n".join(out)


# A game paused at one decision of the first player; the test puts pets and food in
# place, then that decision runs the allot. VALUE and PREFER vary per test.
GAME = HEADER + '''
cards pet in pets:
{pets}
cards bowl in pantry:
    for each kind in meat, fish, seed:
        10 cards
    4 cards with kind wild
zone pets: shared, public, pile
zone pantry: shared, public, pile
zone home: per player, public, pile
zone food: per player, public, pile
zone eaten: per player, public, pile
counter meal of each card = none
counter spares = 0
define feeds(b, need) = b.kind == need or b.kind == wild
define fed(c) = meal of c != none
define fed_of(p, k) = count(home of p where fed(it) and it.kind == k)
define value(p) = {value}
flow:
    for each player p:
        if p == first(players):
            p chooses c from pets
    for each player p:
        allot food of p to home of p into eaten of p:
            wants [it.needs, it.alt]
            serves feeds
            spare spares
{maximal}            note meal
            prefer {prefer}
score:
    pets_value = value(player)
winner:
    highest total
'''

LINEAR = "sum(home of p, if fed(it) then it.points else -2)"
PAIRS = LINEAR + " + fed_of(p, cat) * fed_of(p, dog) - 2 * count(home of p where fed(it) and it.points == 0)"


def game(value=LINEAR, prefer="highest value(p) then lowest count(food of p)", maximal=False, seed=0):
    src = GAME.format(pets=_pets(random.Random(seed)), value=value, prefer=prefer,
                      maximal="            maximal\n" if maximal else "")
    return catrules.load_source(src)


def situation(g, rng, pets=7, bowls=8, spares=0):
    st = g.new_state(2, seed=1)
    names = rng.sample(range(12), pets)
    for i in names:
        put(st, card(g, name=f"P{i}"), "home", 0)
    pantry = zone(st, "pantry")
    put(st, rng.sample(pantry, bowls), "food", 0)
    st.c["spares"] = spares
    return st


def both(st, monkeypatch):
    """(state after the solver, state after the search, how the solver's run was decided)."""
    monkeypatch.setattr(allot, "SOLVER_FROM", 0)
    out = []
    methods = []
    for use in (True, False):
        monkeypatch.setattr(allot, "USE_SOLVER", use)
        allot_solver._memo.clear()
        s = st.clone()
        d = s.pending()[0]
        seen = []
        real = allot.solve_allotment

        def watch(*a, **k):
            r = real(*a, **k)
            seen.append(allot.last_method)
            return r
        monkeypatch.setattr(allot, "solve_allotment", watch)
        import catrules.compile.compiler as comp
        monkeypatch.setattr(comp, "solve_allotment", watch)
        s.apply(d.player, d.options[0].id)
        monkeypatch.setattr(comp, "solve_allotment", real)
        monkeypatch.setattr(allot, "solve_allotment", real)
        assert s.over
        out.append(s)
        methods.append(seen)
    return out[0], out[1], methods[0]


def same(a, b):
    assert a.c["meal"] == b.c["meal"]
    assert a.z == b.z                     # the same cubes in the same piles, in the same order
    assert a.scores() == b.scores()


@pytest.mark.parametrize("engine", ["dp", "milp"])
@pytest.mark.parametrize("case, value, maximal", [(1, LINEAR, False), (2, LINEAR, True), (3, PAIRS, False),
                                                  (4, PAIRS, True)])
def test_the_solver_keeps_the_searchs_allotment_in_random_situations(case, value, maximal, engine, monkeypatch):
    # both engines: the dynamic programming (allot_dp), and the integer program it leaves big ones to
    monkeypatch.setattr(allot_solver, "USE_DP", engine == "dp")
    g = game(value=value, maximal=maximal)
    rng = random.Random(case)
    solved = 0
    for _ in range(12):
        st = situation(g, rng, pets=rng.randint(3, 8), bowls=rng.randint(2, 10), spares=rng.randint(0, 1))
        a, b, methods = both(st, monkeypatch)
        same(a, b)
        solved += methods[0] == "solver"
        assert methods[0] != "solver" or allot_solver.last_engine == engine
    assert solved >= 9          # (a way that the search rejects, e.g. not maximal, is left to it)


def test_ties_go_where_the_search_puts_them(monkeypatch):
    # Every pet worth the same and every meal one bowl: many best ways, one chosen.
    g = game(value="count(home of p where fed(it))", prefer="highest value(p)")
    rng = random.Random(5)
    for _ in range(6):
        st = situation(g, rng, pets=8, bowls=5)
        a, b, methods = both(st, monkeypatch)
        assert methods[0] == "solver"
        same(a, b)


@pytest.mark.parametrize("prefer", [
    # a product of three targets' choices (and more): not a sum of pair terms
    "highest fed_of(p, cat) * fed_of(p, dog) * count(home of p where fed(it))",
    # looks at which resource cards are left, not only how many
    "highest value(p) then lowest count(food of p where kind == wild)",
    # the choosing value of an `if` depends on the choice, over many targets
    "highest if count(home of p where fed(it)) > 3 then 10 else value(p)",
])
def test_other_preferences_fall_back_to_the_search(prefer, monkeypatch):
    g = game(prefer=prefer)
    rng = random.Random(11)
    for _ in range(3):
        st = situation(g, rng, pets=6, bowls=6)
        a, b, methods = both(st, monkeypatch)
        assert methods[0] == "search"
        same(a, b)


def test_without_scipy_the_search_does_it(monkeypatch):
    monkeypatch.setattr(allot_solver, "_milp", lambda: None)
    monkeypatch.setattr(allot_dp, "_numpy", lambda: None)
    g = game()
    st = situation(g, random.Random(3), pets=6, bowls=6)
    a, b, methods = both(st, monkeypatch)
    assert methods[0] == "search"
    same(a, b)


def test_small_allotments_stay_with_the_search():
    # below SOLVER_FROM ways the search is quick: the solver (and scipy) is not used
    g = game()
    st = situation(g, random.Random(4), pets=3, bowls=4)
    d = st.pending()[0]
    st.apply(d.player, d.options[0].id)
    assert allot.last_method == "search"


def _model(g, st):
    """The KeyModel of g's allot, with what the compiled statement would give it."""
    stmt = next(s for s in _statements(g.program.checked.game) if type(s).__name__ == "Allot")
    comp = _compiler_of(g)
    ts = zone(st, "home", 0)
    alts = [[tuple(g.card(c)["needs"]), tuple(g.card(c)["alt"])] for c in ts]
    ss, si = st.layout.base[comp.ck.zones["food"].index], st.layout.base[comp.ck.zones["eaten"].index]
    return comp, stmt, KeyModel(comp, stmt), (ss, si, ts, alts)


def test_key_tables_are_what_the_interpreter_computes():
    # The split of a key, evaluated at random choices, equals the key run by the game.
    g = game(value=PAIRS)
    rng = random.Random(8)
    st = situation(g, rng, pets=6, bowls=6)
    comp, stmt, model, (ss, si, ts, alts) = _model(g, st)
    V = {"p": 0, "player": 0}
    polys = model.polys(st, V, ss, si, ts, alts)
    assert polys[0][1].quad                      # fed cats times fed dogs: terms of two targets
    key = comp.ex(stmt.prefer[0][1])
    for _ in range(30):
        ks = {t: rng.randrange(3) for t in range(len(ts))}
        for t, c in enumerate(ts):
            st.c["meal"][c] = None if ks[t] == 0 else list(alts[t][ks[t] - 1])
        assert polys[0][1].value(ks) == key(st, V)


def test_a_key_of_three_targets_at_once_is_refused():
    g = game(prefer="highest fed_of(p, cat) * fed_of(p, dog) * count(home of p where fed(it))")
    st = situation(g, random.Random(8), pets=6, bowls=6)
    _comp, _stmt, model, (ss, si, ts, alts) = _model(g, st)
    with pytest.raises(NotLinear):
        model.polys(st, {"p": 0, "player": 0}, ss, si, ts, alts)


# ------------------------------------------------------------- Cat Lady


def _feeding_module():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import catlady_feeding
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return catlady_feeding


@pytest.fixture(scope="module")
def catlady():
    return catrules.load_game(ROOT / "games" / "catlady.cat")


def _catlady_both(cf, catlady, holdings, monkeypatch):
    monkeypatch.setitem(cf.SITUATIONS, "test", ("test", holdings))
    st = cf.build(catlady, "test")
    monkeypatch.setattr(allot, "SOLVER_FROM", 0)
    got = []
    for use in (True, False):
        monkeypatch.setattr(allot, "USE_SOLVER", use)
        got.append(cf.feed(st.clone()))
    same(*got)
    return got


def test_catlady_spread_situation_solved_as_searched(catlady, monkeypatch):
    cf = _feeding_module()
    _catlady_both(cf, catlady, cf.SITUATIONS["spread"][1], monkeypatch)


def test_catlady_random_feedings_solved_as_searched(catlady, monkeypatch):
    # one player with a few cats of every kind (pair terms: colour bonuses, Truffle) and cubes
    cf = _feeding_module()
    rng = random.Random(2)
    strays = ["Cow", "Waffle", "Truffle", "Alvin", "Dinah", "Luna", "Florence", "Macak"]
    deck = ["Henriette", "Pumpkin", "Sox", "Keaton", "Bronte", "Zeus", "Lily", "Shadow", "Bell"]
    for _ in range(4):
        cats = rng.sample(strays, 3) + rng.sample(deck, 3)
        cubes = [rng.choice(["chicken", "tuna", "milk", "wild"]) for _ in range(rng.randint(4, 7))]
        _catlady_both(cf, catlady, {0: (cats, cubes)}, monkeypatch)


# ------------------------------------------------------------- helpers

def _statements(gamefile):
    out = []

    def walk(body):
        for s in body or []:
            out.append(s)
            for attr in ("body", "then", "other", "orelse"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    walk(sub)
    walk(gamefile.flow)
    return out


def _compiler_of(g):
    from catrules.compile.compiler import _Compiler
    from catrules.compile.program import Program
    ck = g.program.checked
    return _Compiler(Program(ck, g.program.graph), ck, g.program.graph)


# ------------------------------------------------------------- the dynamic programming alone

def _random_problem(rng, n_t, keys=2):
    """Targets' wanted lists over 3 needs, resources by the needs they serve, and keys with
    terms of one and two targets: small values, so that ties are common."""
    from catrules.allot.keys import Poly
    vec_alts = [[tuple(rng.randint(0, 2) for _ in range(3)) for _ in range(rng.randint(0, 3))]
                for _ in range(n_t)]
    masks = sorted({rng.randint(1, 7) for _ in range(3)}, key=lambda m: (bin(m).count("1"), m))
    caps = [rng.randint(1, 4) for _ in masks]
    polys = []
    for _ in range(keys):
        lin = {t: [rng.randint(-2, 3) for _ in range(len(r) + 1)] for t, r in enumerate(vec_alts)
               if rng.random() < 0.7}
        quad = {}
        for _ in range(rng.randint(0, 4) if n_t > 1 else 0):
            s, t = sorted(rng.sample(range(n_t), 2))
            quad[s, t] = [[rng.randint(-1, 2) for _ in range(len(vec_alts[t]) + 1)]
                          for _ in range(len(vec_alts[s]) + 1)]
        polys.append((rng.random() < 0.7, Poly(rng.randint(-3, 3), lin, quad)))
    return polys, vec_alts, masks, caps, rng.randint(0, 1)


def _brute_force(polys, vec_alts, masks, caps, spare):
    """Every way, in the search's order (the first target outermost, lists in order, nothing
    last), fit by the search's max-flow; the first best is kept."""
    import itertools
    best = None
    for choice in itertools.product(*[list(range(len(r))) + [None] for r in vec_alts]):
        dem = [0, 0, 0]
        for t, a in enumerate(choice):
            if a is not None:
                dem = [x + y for x, y in zip(dem, vec_alts[t][a])]
        if allot._max_flow_plan(dem, caps, masks, spare) is None:
            continue
        ks = {t: 0 if a is None else a + 1 for t, a in enumerate(choice)}
        score = tuple((1 if hi else -1) * p.value(ks) for hi, p in polys)
        if best is None or score > best[1]:
            best = (list(choice), score)
    return best


@pytest.mark.parametrize("max_total", [allot_dp.MAX_TOTAL, 2 ** 9])
def test_the_dynamic_programming_keeps_what_every_way_tried_keeps(max_total, monkeypatch):
    # with 2**9, the ranks of only a few targets at a time fit below the keys: ranked in turns
    monkeypatch.setattr(allot_dp, "MAX_TOTAL", max_total)
    turns = []
    sweep = allot_dp._sweep_tables

    def counted(*a):
        turns[-1] += 1
        return sweep(*a)
    monkeypatch.setattr(allot_dp, "_sweep_tables", counted)
    rng = random.Random(21)
    solved = 0
    for _ in range(60):
        problem = _random_problem(rng, rng.randint(0, 6), keys=rng.randint(1, 3))
        turns.append(0)
        got = allot_dp.best_choice(*problem)
        if got is None:               # only when even the keys alone pass 2**9
            assert max_total == 2 ** 9
            continue
        assert (list(got[0]), got[1]) == _brute_force(*problem)
        solved += 1
    assert solved >= 50
    assert sum(t > 1 for t in turns) >= (10 if max_total == 2 ** 9 else 0)


def test_ties_among_many_targets_go_to_the_first_ones():
    # 40 targets alike (3**40 ways: their ranks take more than 64 bits), 7 resources: the
    # search would feed the first 7 with their first list
    from catrules.allot.keys import Poly
    vec_alts = [[(1,), (1,)] for _ in range(40)]
    polys = [(True, Poly(0, {t: [0, 1, 1] for t in range(40)}))]
    got = allot_dp.best_choice(polys, vec_alts, [1], [7], 0)
    assert got == ([0] * 7 + [None] * 33, (7,))


def test_the_dynamic_programming_leaves_big_tables_to_the_integer_program(monkeypatch):
    rng = random.Random(22)
    problem = _random_problem(rng, 6)
    assert allot_dp.best_choice(*problem) is not None
    monkeypatch.setattr(allot_dp, "MAX_TABLE", 1)
    assert allot_dp.best_choice(*problem) is None
    allot_solver._memo.clear()
    got = allot_solver.best_choice(*problem)
    assert allot_solver.last_engine == "milp"
    assert (got[0], got[1]) == _brute_force(*problem)


def test_the_dynamic_programming_refuses_numbers_past_64_bits():
    from catrules.allot.keys import Poly
    # three keys whose ranges multiply past 2**60: the weights would not stay exact
    vec_alts = [[(1,)], [(1,)]]
    polys = [(True, Poly(0, {0: [0, 2 ** 22], 1: [0, 1]})) for _ in range(3)]
    assert allot_dp.best_choice(polys, vec_alts, [1], [1], 0) is None
    allot_solver._memo.clear()
    got = allot_solver.best_choice(polys, vec_alts, [1], [1], 0)
    assert (got[0], got[1]) == _brute_force_1need(polys, vec_alts)


def _brute_force_1need(polys, vec_alts):
    # one resource, one need: at most one target eats
    best = None
    for choice in ([0, None], [None, 0], [None, None]):
        ks = {t: 0 if a is None else 1 for t, a in enumerate(choice)}
        score = tuple((1 if hi else -1) * p.value(ks) for hi, p in polys)
        if best is None or score > best[1]:
            best = (choice, score)
    return best


def test_catlady_worst_case_the_same_by_both_engines(catlady, monkeypatch):
    # one player with 18 cats, 20 cubes (benchmarks/catlady_feeding.py): too many ways for the
    # search, so the dynamic programming is held to the integer program (which is checked
    # against the search above), meal by meal and cube by cube
    cf = _feeding_module()
    st = cf.build(catlady, "one-player-18")
    got = []
    for use_dp in (True, False):
        monkeypatch.setattr(allot_solver, "USE_DP", use_dp)
        got.append(cf.feed(st.clone()))
        assert allot_solver.last_engine == ("dp" if use_dp else "milp")
    same(*got)
