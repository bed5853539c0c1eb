"""How tests/data/format1_saves.json was built: with the code of commit fc76f60 (state format 1,
a frame's pc counting instructions), games paused at many decisions, each with the rest of its
game.  Kept to show what the fixture holds, not rerun by the tests:

    git worktree add /tmp/old fc76f60 && cd /tmp/old && python /path/to/make_format1_saves.py OUT
"""
import json, random, sys
sys.path.insert(0, ".")
import catrules

GAMES = [("games/meow.cat", 4), ("games/catlady.cat", 3), ("games/flapcat.cat", 4),
         ("tests/games/chain.cat", 2), ("tests/games/gifts.cat", 3), ("tests/games/lines.cat", 2),
         ("tests/games/order.cat", 2), ("tests/games/reveal.cat", 3), ("tests/games/race.cat", 3),
         ("tests/games/passing.cat", 3), ("docs/examples/menu.cat", 2)]


def step(st, rng):
    d = st.pending()[0]
    st.apply(d.player, rng.choice(d.options).id, round(rng.random(), 4) if d.timed else None)


out = []
for path, players in GAMES:
    g = catrules.load_game(path)
    for seed in (1, 2):
        st = g.new_state(players=players, seed=seed)
        rng = random.Random(seed)
        k = 0
        while not st.finished:
            if k % 17 == 4:
                saved = json.loads(json.dumps(st.to_dict()))
                twin = catrules.runtime.state.State.from_dict(g.program, json.loads(json.dumps(saved)))
                rest = random.Random(seed * 1000 + k)
                while not twin.finished:
                    step(twin, rest)
                out.append({"game": path, "seed": seed, "at": k, "state": saved, "rest": twin.history[len(saved["history"]):],
                            "scores": twin.scores()})
            step(st, rng)
            k += 1
for c in out:           # rebuilt by the test from the seed and the history: the same draws
    del c["state"]["rng"], c["state"]["trng"]
json.dump({"about": "states saved in format 1 by catrules at commit fc76f60, each with the rest of "
           "its game (choices and race times from random.Random(seed * 1000 + at)); the random sources are "
           "left out (a test rebuilds them by replaying the history from the seed)", "cases": out},
          open(sys.argv[1], "w"), separators=(",", ":"))
print(len(out))
