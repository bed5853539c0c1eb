"""Cat Lady's end-of-game feeding, measured on its own (``python benchmarks/run.py --feeding``).

At the end of Cat Lady each player's food cubes are shared among their cats
the way that scores best (the ``allot`` statement of ``phase feeding`` in
games/catlady.cat): two passes over the players, one ``allot`` per player and
pass. Its cost grows quickly with the cats and cubes one player holds, so it
is measured apart from the random playouts, on fixed situations:

* ``spread``: 4 players hold 12 cats and 20 cubes between them (3 cats and
  5 cubes each);
* ``one-player``: the worst case, one player of the 4 holds all 12 cats and
  all 20 cubes;
* ``one-player-18``: the same player holds 6 more cats of the deck (18 cats,
  still 20 cubes): the solver's target case (issue 11: under 50 ms; the
  search alone takes minutes, so ``--search`` is for a measure by hand).

The 12 cats could all be in one game and are chosen to make the search hard:
as the game's three strays, the three that take a varying amount of food
(Cow: any number of cubes; Waffle: 1 to 4 of one kind; Truffle: one cube of
any kind), and nine cats of the deck with long, overlapping meals. The 20
cubes are 6 chicken, 6 tuna, 5 milk and 3 wild (every wild food card of a
4-player game).

A situation is a 4-player game paused at its last decision: the market and
the deck are emptied (into the box), so the line the current player takes
now is the last of the game; applying that decision runs the feeding and
ends the game. :func:`time_feeding` times only that ``apply`` (the copy of the
paused game is made beforehand); the line taken holds no cards, so nearly all
the time is the feeding. The tests check that these situations are what they
say (tests/test_catlady_play.py), never their speed.
"""

from __future__ import annotations

import time

GAME = "games/catlady.cat"
PLAYERS = 4

#: The 12 cats of every situation, by name.
CATS = ["Cow", "Waffle", "Truffle",                       # strays: a game deals three
        "Henriette", "Alvin", "Dinah", "Luna", "Pumpkin", "Sox",
        "Chairman Meow", "Pablo Picatso", "Keaton"]
#: 6 more cats of the deck (printed meals, no ability) for the 18-cat situation.
MORE_CATS = ["Shadow", "Lily", "Blackberry", "Bronte", "Zeus", "Sir Cuddleface"]
#: The 20 food cubes, by flavour.
CUBES = ["chicken"] * 6 + ["tuna"] * 6 + ["milk"] * 5 + ["wild"] * 3

#: name -> (description, holdings: player -> (cat names, cube flavours)).
SITUATIONS = {
    "spread": ("4 players hold 12 cats and 20 cubes between them",
               {p: (CATS[p::PLAYERS], CUBES[p::PLAYERS]) for p in range(PLAYERS)}),
    "one-player": ("1 player holds 12 cats and 20 cubes",
                   {0: (CATS, CUBES)}),
    "one-player-18": ("1 player holds 18 cats and 20 cubes",
                      {0: (CATS + MORE_CATS, CUBES)}),
}


def build(game, name: str, seed: int = 1):
    """A 4-player Cat Lady game paused just before its feeding, set up as situation ``name``."""
    from catrules.testing import card, put, zone

    _desc, holdings = SITUATIONS[name]
    st = game.new_state(PLAYERS, seed=seed)
    d = st.pending()[0]                      # the cat token's first line (C03)
    st.apply(d.player, d.options[0].id)
    # Empty the market and the deck: the line taken next holds nothing and cannot be
    # refilled, so that turn is the last and the game goes on to the feeding.
    put(st, zone(st, "deck") + [c for c in zone(st, "market") if c is not None], "box")
    supply = zone(st, "supply")
    for p, (cats, cubes) in holdings.items():
        for cat in cats:
            put(st, card(game, name=cat), "cats", p)
        for flavour in cubes:
            cube = next(c for c in supply if game.card(c)["flavour"] == flavour)
            supply.remove(cube)
            put(st, cube, "cubes", p)
    d = st.pending()[0]
    if "where it != blocked" not in _source_line(game, d.line):
        raise RuntimeError(f"the situation does not stop where a line is taken (line {d.line} of {GAME})")
    return st


def _source_line(game, n: int) -> str:
    with open(game.path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    return lines[n - 1] if 0 < n <= len(lines) else ""


def feed(state):
    """Take the (empty) last line of a situation: the feeding runs and the game ends.

    The solver's memo of answers is emptied first: a game feeds once, so a feeding is
    timed with its first pass solved afresh (the second pass asks the same again)."""
    from catrules.allot import integer_program as allot_solver
    allot_solver._memo.clear()
    d = state.pending()[0]
    state.apply(d.player, d.options[0].id)
    if not state.finished:
        raise RuntimeError("the game did not end after the last line (is the situation still right?)")
    return state


def feed_counting(state):
    """:func:`feed`, also counting the complete ways of feeding that the ``allot`` searches
    compared; returns (state, ways), ways None if the search cannot be watched (the
    interpreter's internals changed)."""
    from catrules.allot import search as allot
    from catrules.compile import compiler

    inner = getattr(allot, "_apply_allotment", None)
    if inner is None:
        return feed(state), None
    calls = [0]

    def counting(*args, **kwargs):
        calls[0] += 1
        return inner(*args, **kwargs)

    # the search (allot) applies each way it compares; the compiled statement, its best
    allot._apply_allotment = compiler._apply_allotment = counting
    try:
        feed(state)
    finally:
        allot._apply_allotment = compiler._apply_allotment = inner
    # every way compared is applied once to score it, and each allot applies its best once more
    # (the solver's answer is applied once to check it, like one way compared)
    return state, max(calls[0] - 2 * PLAYERS, 0)


def time_feeding(game, name: str, repeat: int = 3, min_seconds: float = 0.2) -> dict:
    """Time the feeding of situation ``name``: ``repeat`` timings, the fastest counts.

    A first, untimed feeding counts the ways compared and sets how many feedings
    one timing plays (enough for ``min_seconds``, as timeit does)."""
    from catrules.allot import integer_program as allot_solver
    base = build(game, name)
    allot_solver.last_engine = None
    t0 = time.perf_counter()
    _st, ways = feed_counting(base.clone())
    engine = allot_solver.last_engine
    first = time.perf_counter() - t0
    number = max(1, int(min_seconds / first)) if first > 0 else 1
    times = []
    for _ in range(repeat):
        states = [base.clone() for _ in range(number)]
        t0 = time.perf_counter()
        for st in states:
            feed(st)
        times.append((time.perf_counter() - t0) / number)
    return {
        "situation": name,
        "description": SITUATIONS[name][0],
        "players": PLAYERS,
        "holders": sum(1 for cats, _cubes in SITUATIONS[name][1].values() if cats),
        "cats": sum(len(cats) for cats, _cubes in SITUATIONS[name][1].values()),
        "cubes": sum(len(cubes) for _cats, cubes in SITUATIONS[name][1].values()),
        "seconds": min(times),              # per feeding: 2 passes x 4 players' allot
        "all_seconds": times,
        "feedings_per_timing": number,
        "ways": ways,
        "engine": engine,                   # the solver's engine: "dp", "milp", or None (searched)
    }


def main(argv=None) -> None:
    """``python benchmarks/catlady_feeding.py --engine milp``: the situations fed by one engine of
    the ``allot`` (run.py --feeding uses the interpreter's own choice; this compares them)."""
    import argparse
    import sys
    from pathlib import Path

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--engine", choices=["dp", "milp", "search"], default="dp",
                    help="dp: the dynamic programming first (the default); milp: the integer program "
                         "(HiGHS) alone; search: no solver (minutes on 18 cats)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("situations", nargs="*", default=list(SITUATIONS))
    args = ap.parse_args(argv)
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    import catrules
    from catrules.allot import search as allot, integer_program as allot_solver
    allot_solver.USE_DP = args.engine == "dp"
    allot.USE_SOLVER = args.engine != "search"
    game = catrules.load_game(str(root / GAME))
    for name in args.situations:
        r = time_feeding(game, name, repeat=args.repeat)
        print(f"{name:<14} {r['seconds'] * 1000:9.2f} ms/feeding  engine {r['engine'] or 'search'}  "
              f"ways {r['ways']}  (timings: {', '.join(f'{t * 1000:.2f}' for t in r['all_seconds'])})")


if __name__ == "__main__":
    main()
