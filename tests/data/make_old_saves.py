"""How tests/data/old_saves.json was built, with the code of commit fc76f60 (Mersenne Twister states saved as lists); kept to show what the fixture holds, not rerun by the tests."""
import json, random, sys
sys.path.insert(0, ".")
import catrules

CASES = [("games/meow.cat", 4, 3), ("games/catlady.cat", 3, 2), ("games/flapcat.cat", 4, 5)]

def choose(st, rng):
    d = st.pending()[0]
    st.apply(d.player, rng.choice(d.options).id, round(rng.random(), 4) if d.timed else None)

out = []
for path, players, seed in CASES:
    g = catrules.load_game(path)
    st = g.new_state(players=players, seed=seed)
    rng = random.Random(seed)
    while st.decisions < 12:
        choose(st, rng)
    saved = json.loads(json.dumps(st.to_dict()))
    race = bool(st.pending_ and st.pending_["kind"] == "race")
    # the rest of the game, choices from this source; bots' reaction times drawn from the game's trng
    rest = random.Random(seed + 100)
    while not st.finished:
        d = st.pending()[0]
        st.apply(d.player, rest.choice(d.options).id, st.reaction_time() if d.timed else None)
    out.append({"game": path, "players": players, "seed": seed, "state": saved,
                "history": st.history, "scores": st.scores(), "decisions": st.decisions})
json.dump({"about": "saved states written by catrules at commit fc76f60 (before copy-on-write random "
           "sources), each with the rest of its game: choices from random.Random(seed + 100), race times "
           "from State.reaction_time()", "cases": out}, open("tests/data/old_saves.json", "w"))
print([ (c["game"], c["decisions"]) for c in out])
