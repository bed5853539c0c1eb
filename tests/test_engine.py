"""The engine: determinism, cloning, saving, decisions, views and guards."""

import json
import random
from pathlib import Path

import pytest

import catrules
from catrules.compile import graph as graphmod
from catrules.testing import zone

ROOT = Path(__file__).resolve().parents[1]
MEOW = ROOT / "games" / "meow.cat"


@pytest.fixture(scope="module")
def meow():
    return catrules.load_game(MEOW)


def play_random(st, rng, limit=None):
    n = 0
    while not st.finished and (limit is None or n < limit):
        d = st.pending()[0]
        st.apply(d.player, rng.choice(d.options).id, rng.random() if d.timed else None)
        n += 1
    return st


def test_same_seed_and_choices_give_the_same_game(meow):
    a = play_random(meow.new_state(players=4, seed=11, log=True), random.Random(5))
    b = play_random(meow.new_state(players=4, seed=11, log=True), random.Random(5))
    assert a.log == b.log and a.scores() == b.scores()
    c = play_random(meow.new_state(players=4, seed=12, log=True), random.Random(5))
    assert c.log != a.log


def test_clone_is_independent(meow):
    st = meow.new_state(players=3, seed=2)
    cl = st.clone()
    d = cl.pending()[0]
    cl.apply(d.player, d.options[0].id)
    assert st.decisions == 0 and cl.decisions == 1
    assert zone(st, "hand", d.player) != zone(cl, "hand", d.player)


def test_save_mid_game_as_json_and_resume_exactly(meow):
    rng = random.Random(3)
    st = play_random(meow.new_state(players=5, seed=9), rng, limit=37)
    data = json.loads(json.dumps(st.to_dict()))
    back = meow.restore(data)
    assert [d.to_dict() for d in back.pending()] == [d.to_dict() for d in st.pending()]
    r1, r2 = random.Random(8), random.Random(8)
    play_random(st, r1)
    play_random(back, r2)
    assert st.scores() == back.scores() and st.history == back.history


def test_illegal_choices_are_refused(meow):
    st = meow.new_state(players=3, seed=1)
    d = st.pending()[0]
    other = (d.player + 1) % 3
    with pytest.raises(catrules.IllegalChoice):
        st.apply(other, d.options[0].id)
    with pytest.raises(catrules.IllegalChoice):
        st.apply(d.player, "c9999")
    legal = {o.id for o in d.options}
    not_in_hand = next(f"c{i}" for i in range(54) if f"c{i}" not in legal)
    with pytest.raises(catrules.IllegalChoice, match="not a legal option"):
        st.apply(d.player, not_in_hand)
    assert st.decisions == 0


def test_view_hides_other_hands_and_hidden_zones(meow):
    st = meow.new_state(players=3, seed=1)
    v = st.view(0)
    hands = {z["owner"]: z for z in v["zones"] if z["zone"] == "hand"}
    assert hands[0]["cards"] is not None and len(hands[0]["cards"]) == 9
    assert hands[1]["cards"] is None and hands[1]["count"] == 9
    deck = next(z for z in v["zones"] if z["zone"] == "deck")
    assert deck["cards"] is None
    spectator = st.view(None)
    assert all(z["cards"] is None for z in spectator["zones"] if z["zone"] == "hand")
    text = json.dumps(v)
    for c in zone(st, "hand", 1):            # no card of player 2's hand appears anywhere
        assert f'"id": {c},' not in text


def test_decision_options_have_stable_ids_and_labels(meow):
    st = meow.new_state(players=2, seed=3)
    d = st.pending()[0]
    for o in d.options:
        assert o.id == f"c{o.value}" and o.label == meow.card(o.value)["label"]
    assert d.default in {o.id for o in d.options}


def test_a_loop_that_never_decides_is_stopped():
    src = """catrules 1
game "Loop"
players 2 to 2
cards c in pile:
    card
zone pile: shared
counter x = 0
flow:
    repeat while true:
        x = x + 1
"""
    g = catrules.load_source(src, "loop.cat")
    with pytest.raises(catrules.RulesError, match="never ends"):
        g.new_state(players=2, seed=1)


def test_runtime_error_names_the_line():
    src = """catrules 1
game "Bad"
players 2 to 2
cards c in pile:
    card with value 1
zone pile: shared
counter x = none
flow:
    x = count(pile) / (count(pile) - 1)
"""
    g = catrules.load_source(src, "bad.cat")
    with pytest.raises(catrules.RulesError) as exc:
        g.new_state(players=2, seed=1)
    assert exc.value.line == 9 and "bad.cat:9" in str(exc.value)


def test_action_graph_has_units_steps_and_triggers(meow):
    G = meow.graph
    kinds = {d["kind"] for _, _, d in G.edges(data=True)}
    assert {"start", "next", "body", "then", "else", "loop", "play"} <= kinds
    assert G.nodes["phase:turn"]["type"] == "unit"
    assert any(G.has_edge("flow", v) for v in G.successors("flow"))
    dot, mer = graphmod.to_dot(G), graphmod.to_mermaid(G)
    assert dot.startswith('digraph "Meow"') and "phase turn" in dot
    assert mer.startswith("flowchart TD") and "phase turn" in mer
    chain = catrules.load_game(ROOT / "tests" / "games" / "chain.cat").graph
    assert any(d["kind"] == "trigger" for _, _, d in chain.edges(data=True))


def test_generated_code_sees_only_its_helpers(meow):
    # the generated functions' globals hold only the runtime helpers and a few builtins
    fn = next(iter(meow.program.counters))[2]
    allowed = set(fn.__globals__["__builtins__"])
    assert allowed == {"len", "sum", "max", "min", "bool", "abs", "list", "range"}


def test_text_in_a_game_file_is_data_never_code():
    src = '''catrules 1
game "Quotes"
players 2 to 2
cards c in pile:
    card with label "it's a \\\\ test'); __import__('os').system('false'); ('"
zone pile: shared
counter same = false
flow:
    same = first(pile).label == "it's a \\\\ test'); __import__('os').system('false'); ('"
score:
    matched = if same then 1 else 0
'''
    g = catrules.load_source(src, "quotes.cat")
    st = g.new_state(players=2, seed=1)
    assert st.finished and st.c["same"] is True
    assert g.card(0)["label"].startswith("it's a \\\\ test')")
