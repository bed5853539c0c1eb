"""Observations with card attributes, and the compact action vocabulary (catrules.envs).

They need the ``rl`` extra (in the ``test`` extra); without it they are skipped.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

import catrules  # noqa: E402
from catrules.errors import CatrulesError  # noqa: E402
from catrules.envs import encoding  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MEOW = str(ROOT / "games" / "meow.cat")
FLAPCAT = str(ROOT / "games" / "flapcat.cat")
FLAPCAT_VARIANT = str(ROOT / "games" / "variants" / "flapcat-donate-two.cat")
CATLADY = str(ROOT / "games" / "catlady.cat")


def segment(sp, name):
    (start, length), = [(s, n) for nm, s, n in sp.encoder.segments if nm == name]
    return start, length


def test_attribute_planes_show_a_known_card_where_the_player_sees_it():
    sp = encoding.spec(MEOW, 3)
    game = catrules.load_game(MEOW)
    features = sp.encoder.features
    green, one = features.index(("colour", "green")), features.index(("value", 1))
    assert ("type", "cat") in features and ("type", "award") in features
    F, C = len(features), game.card_count
    st = game.new_state(3, seed=2)
    view = st.view(0)
    x = sp.encoder.encode(view)
    at, length = segment(sp, "card attributes")
    assert length == C * F
    rows = x[at:at + length].reshape(C, F)
    for cid in (0, 40, C - 1):                      # each card's row: its own attribute values
        card = game.card(cid)
        want = {("type", card["type"])} | {(k, v) for k, v in card.items() if (k, v) in features}
        assert {features[i] for i in np.flatnonzero(rows[cid])} == want
    assert rows[0, green] == 1 and rows[0, one] == 1         # c0 is "green 1"
    # by slot: player 1's hand holds exactly the green cards the view shows there
    slot = next(i for i, z in enumerate(view["zones"]) if z["zone"] == "hand" and z.get("owner") == 0)
    hand = [c["id"] for c in view["zones"][slot]["cards"]]
    at, length = segment(sp, "attributes by slot")
    planes = x[at:at + length].reshape(-1, F)
    greens = sum(game.card(c).get("colour") == "green" for c in hand)
    assert planes[slot, green] == pytest.approx(greens / C) and greens > 0
    assert planes[slot].sum() > 0
    # another player's hand is not seen: no attribute counted there
    other = next(i for i, z in enumerate(view["zones"]) if z["zone"] == "hand" and z.get("owner") == 1)
    assert not planes[other].any()


def test_attributes_with_too_many_values_are_left_out():
    feats = encoding.spec(CATLADY, 3).encoder.features
    assert not any(name == "name" for name, _v in feats)       # 61 different names
    assert ("kind", "stray") in feats or any(name == "kind" for name, _v in feats)


def test_the_compact_vocabulary_is_smaller_and_names_what_actions_mean():
    ids = encoding.spec(FLAPCAT, 4)
    small = encoding.spec(FLAPCAT, 4, vocabulary="compact")
    assert small.num_actions < ids.num_actions // 2
    assert not any(a.startswith("c") and a[1:].isdigit() for a in small.actions)
    assert any(a.startswith("place:cats:own:") for a in small.actions)
    assert not any(a.split(":")[1:2] and a.split(":")[1].isdigit() for a in small.actions if a.startswith("place"))
    with pytest.raises(CatrulesError, match="'ids'.*'compact'"):
        encoding.spec(FLAPCAT, 4, vocabulary="short")


@pytest.mark.parametrize("path,players", [(FLAPCAT, 3), (CATLADY, 3), (MEOW, 4)])
def test_compact_actions_play_the_options_they_name(path, players):
    sp = encoding.spec(path, players, vocabulary="compact")
    game = catrules.load_game(path)
    st = game.new_state(players, seed=7)
    rng = random.Random(7)
    while not st.finished:
        d = st.pending()[0]
        legal = sp.legal(d)
        assert len(legal) == len(set(legal)) and legal
        names = {sp.key(o.id, d.player) for o in d.options}
        assert {sp.actions[a] for a in legal} == names
        a = rng.choice(legal)
        oid = sp.option_id(d, a)
        assert oid in {o.id for o in d.options} and sp.key(oid, d.player) == sp.actions[a]
        encoding.answer(st, d, oid)


def test_the_vocabulary_is_stable_across_a_game_and_its_variant():
    base = encoding.spec(FLAPCAT, 3, vocabulary="compact")
    variant = encoding.spec(FLAPCAT_VARIANT, 3, vocabulary="compact", base=base.actions)
    assert variant.actions[:base.num_actions] == base.actions
    # a card has the same action in both, and the action names that card
    game, vgame = catrules.load_game(FLAPCAT), catrules.load_game(FLAPCAT_VARIANT)
    for cid in (0, 10, 40):
        k = base.key(f"c{cid}", 0)
        assert variant.key(f"c{cid}", 0) == k and k.endswith(game.card(cid)["label"])
        assert vgame.card(cid)["label"] == game.card(cid)["label"]
    # the variant plays with it
    st = vgame.new_state(3, seed=3)
    rng = random.Random(3)
    while not st.finished:
        d = st.pending()[0]
        encoding.answer(st, d, variant.option_id(d, rng.choice(variant.legal(d))))
