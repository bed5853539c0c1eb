"""Language 4, finer visibility: ``secret`` zones (the others see neither the cards nor how
many), ``public top`` piles (everyone sees the top card and how many) and ``secret counter``
(a value only its owner sees; a shared one nobody sees while the game lasts).

Hidden stays hidden: a player's view, their events (as logs and seats get them), the web
state message and the bots' imagined games carry only what that player may see.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from catrules import api
from catrules.errors import GameFileError
from catrules.play.views import visible_event
from catrules.testing import put, slot, zone

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "visibility.cat"

#: A small game: chips move from a hidden bag into secret zones and from one secret zone to
#: another's, a secret bid of each player, a shared secret counter, a discard with a public top.
SRC = """catrules 4
game "Vis"
players 3 to 3

cards chip in bag:
    12 cards with value 1

cards number in deck:
    for each rank in 1 to 9:
        1 card

zone bag: shared, hidden
zone deck: shared, hidden
zone chips: per player, secret
zone hand: per player, owner
zone discard: shared, public top

secret counter bid of each player = 0
secret counter pot = 0

setup:
    for each player p:
        move top(bag) to chips of p
        move top(bag) to chips of p
        move top(deck) to hand of p
        move top(deck) to hand of p

phase turn:
    for each player p:
        p chooses c from hand of p
        move c to discard
        add c.rank to bid of p
        add 1 to pot
        move top(chips of p) to chips of next(p)

flow:
    play turn
    play turn

score:
    chip_count = count(chips) + bid
"""


def errors(src: str) -> list:
    with pytest.raises(GameFileError) as exc:
        api.load_source(src, "t.cat")
    return exc.value.diagnostics


def one_error(src: str):
    ds = errors(src)
    assert len(ds) == 1, [d.message for d in ds]
    return ds[0]


def started(seed=1, log=True):
    game = api.load_source(SRC, "vis.cat")
    return game, game.new_state(3, seed=seed, log=log)


def answer_all(st, rng, rounds=1):
    for _ in range(rounds):
        for d in st.pending():
            st.apply(d.player, rng.choice(d.options).id)


def zone_entry(view, name, owner=None):
    return next(z for z in view["zones"] if z["zone"] == name and z["owner"] == owner)


# ------------------------------------------------------------------ the checker

def test_a_tally_during_the_game_may_not_show_a_score_that_reads_a_secret():
    # the score reads the secret bid (and the secret chips): a tally would show the totals to all
    src = SRC.replace("flow:\n    play turn\n    play turn\n", "flow:\n    play turn\n    tally\n    play turn\n")
    d = one_error(src)
    assert "tally" in d.message and "secret" in d.message and d.line == src.splitlines().index("    tally") + 1
    assert "reveal it first" in d.hint
    # the same tally over a score of public things is fine, and so is the secret score without a tally
    api.load_source(src.replace("chip_count = count(chips) + bid", "chip_count = 1"), "t.cat")
    api.load_source(SRC, "t.cat")


def test_secret_needs_a_zone_of_each_player():
    d = one_error(SRC.replace("zone chips: per player, secret", "zone chips: shared, secret")
                  .replace("chips of p", "chips").replace("chips of next(p)", "chips"))
    assert "shared" in d.message and "secret" in d.message
    assert d.line == SRC.splitlines().index("zone chips: per player, secret") + 1
    assert "per player, secret" in d.hint


def test_public_top_needs_a_pile():
    d = one_error(SRC.replace("zone discard: shared, public top", "zone discard: shared, public top, row"))
    assert "only a pile" in d.message and d.hint
    assert d.line == SRC.splitlines().index("zone discard: shared, public top") + 1


def test_a_counter_of_each_card_cannot_be_secret():
    d = one_error(SRC.replace("secret counter pot = 0", "secret counter pot = 0\nsecret counter mark of each card = 0"))
    assert "cannot be secret" in d.message and d.hint


def test_an_unknown_visibility_is_named_with_the_new_words():
    d = one_error(SRC.replace("per player, secret", "per player, secrte"))
    assert "secrte" in d.message and "secret" in d.hint


def test_a_text_may_not_show_a_secret_counter():
    src = SRC.replace("        add 1 to pot\n", "        add 1 to pot\n        announce \"{p} bids {bid of p}\"\n")
    d = one_error(src)
    assert "bid" in d.message and "secret" in d.message and "copy it" in d.hint
    # revealing it on purpose: through a counter that is not secret
    ok = src.replace('announce "{p} bids {bid of p}"', 'shown = bid of p\n        announce "{p} bids {shown}"') \
        .replace("secret counter pot = 0", "secret counter pot = 0\ncounter shown = 0")
    api.load_source(ok, "t.cat")


@pytest.mark.parametrize("old, what", [
    ("zone chips: per player, secret", "a zone that is `secret` or `public top`"),
    ("zone discard: shared, public top", "a zone that is `secret` or `public top`"),
    ("secret counter bid of each player = 0", "`secret counter`"),
])
def test_older_files_are_told_the_language(old, what):
    src = SRC.replace("catrules 4", "catrules 3")
    ds = [d for d in errors(src) if d.line == src.splitlines().index(old) + 1]
    assert ds and ds[0].message == f"{what} is language 4, and this file says `catrules 3`"
    assert "catrules 4" in ds[0].hint


@pytest.mark.parametrize("named", ["zone", "counter", "value"])
def test_secret_is_still_a_name_in_older_files(named):
    names = {"zone": ("secret", "pile", "n"), "counter": ("deck", "secret", "n"), "value": ("deck", "n", "secret")}
    z, c, v = names[named]
    src = f"""catrules 3
game "Old"
players 2 to 2

cards card_ in {z}:
    4 cards with kind {v}

zone {z}: shared, hidden
zone hand: per player, owner
counter {c} = 0

setup:
    for each player p:
        move top({z}) to hand of p

flow:
    {c} = count({z})

score:
    points = count(hand where it.kind == {v}) + {c}
"""
    game = api.load_source(src, "old.cat")
    st = game.new_state(2, seed=3)
    assert st.finished and st.scores() == [{"points": 3, "total": 3}] * 2
    if named != "value":
        with pytest.raises(GameFileError):             # in language 4 it is a word
            api.load_source(src.replace("catrules 3", "catrules 4"), "new.cat")


# ------------------------------------------------------------------ views

def test_a_secret_zone_shows_its_owner_everything_and_the_others_nothing():
    _game, st = started()
    for p in range(3):
        v = st.view(p)
        own = zone_entry(v, "chips", p)
        assert own["count"] == 2 and len(own["cards"]) == 2
        for q in range(3):
            if q != p:
                other = zone_entry(v, "chips", q)
                assert other["count"] is None and other["cards"] is None
        # an owner zone still shows how many
        assert zone_entry(v, "hand", (p + 1) % 3)["count"] == 2
    spect = st.view(None)
    assert all(zone_entry(spect, "chips", q)["count"] is None for q in range(3))


def test_a_public_top_pile_shows_its_top_card_and_count_only():
    _game, st = started()
    rng = random.Random(2)
    answer_all(st, rng)                      # player 1 put a card on the discard
    answer_all(st, rng)
    pile = st.z[slot(st, "discard")]
    assert len(pile) == 2
    for p in (None, 0, 1, 2):
        d = zone_entry(st.view(p), "discard")
        assert d["count"] == 2 and d["cards"] is None
        assert d["top"]["id"] == pile[-1]
    # the top card leaves: the card under it shows
    put(st, [pile[-1]], "deck")
    assert zone_entry(st.view(1), "discard")["top"]["id"] == st.z[slot(st, "discard")][-1]


def test_secret_counters_show_only_to_their_owner_until_the_end():
    _game, st = started()
    rng = random.Random(4)
    answer_all(st, rng, rounds=2)
    assert not st.finished
    bids = st.c["bid"]
    assert any(bids)
    for p in range(3):
        c = st.view(p)["counters"]
        assert c["bid"][p] == bids[p]
        assert all(c["bid"][q] == {"hidden": True} for q in range(3) if q != p)
        assert c["pot"] == {"hidden": True}
    assert st.view(None)["counters"]["bid"] == [{"hidden": True}] * 3
    answer_all(st, rng, rounds=10)
    assert st.finished
    assert st.view(1)["counters"]["bid"] == st.c["bid"]          # the end shows everything


def test_no_running_score_when_the_score_reads_something_secret():
    _game, st = started()
    assert "running" not in st.view(0)
    public = api.load_source(SRC.replace("zone chips: per player, secret", "zone chips: per player, public")
                             .replace("secret counter bid", "counter bid"), "pub.cat")
    assert "running" in public.new_state(3, seed=1).view(0)
    only_bid = api.load_source(SRC.replace("zone chips: per player, secret", "zone chips: per player, public"),
                               "bid.cat")
    assert "running" not in only_bid.new_state(3, seed=1).view(0)


# ------------------------------------------------------------------ events

def test_events_hide_secret_counters_and_counts_between_zones_one_cannot_count():
    _game, st = started()
    rng = random.Random(6)
    answer_all(st, rng)
    log = list(st.log)
    passes = [ev for ev in log if ev["t"] == "move" and ev["from"].startswith("chips") and ev["to"].startswith("chips")]
    assert passes
    for ev in passes:
        giver = int(ev["from"].split()[-1]) - 1
        taker = int(ev["to"].split()[-1]) - 1
        third = ({0, 1, 2} - {giver, taker}).pop()
        seen = visible_event(st, ev, third)
        assert seen["cards"] is None and seen["count"] is None          # not even how many
        assert visible_event(st, ev, None)["count"] is None
        assert visible_event(st, ev, giver)["cards"] == ev["cards"]     # the giver sees them go
    # from the bag (whose count everyone sees) into a secret zone: how many, not which
    deal = api.load_source(SRC, "vis.cat").new_state(3, seed=1, log=True)
    into = [ev for ev in deal.log if ev["t"] == "move" and ev["to"] == "chips of player 2"]
    assert into and all(visible_event(deal, ev, 0) == {**ev, "cards": None, "count": 1} for ev in into)
    counters = [ev for ev in log if ev["t"] == "counter"]
    assert {ev["name"] for ev in counters} == {"bid", "pot"}
    for ev in counters:
        for p in range(3):
            seen = visible_event(st, ev, p)
            if ev["name"] == "bid" and ev["owner"] == p:
                assert seen == ev
            else:
                assert seen["value"] is None and seen["hidden"]


def test_a_move_onto_a_public_top_pile_names_the_top_card_for_everyone():
    _game, st = started()
    answer_all(st, random.Random(1))
    ev = next(e for e in st.log if e["t"] == "move" and e["to"] == "discard")
    c = ev["cards"][0]
    assert ev["to_top"] == c
    other = visible_event(st, ev, (ev["actor"] + 1) % 3)
    assert other["cards"] is None and other["to_top"] == c


def test_a_players_log_shows_no_secret(tmp_path):
    log = tmp_path / "game.jsonl"
    r = subprocess.run([sys.executable, "-m", "catrules", "play", str(EXAMPLE), "--players", "3", "--seats",
                        "random,random,random", "--seed", "5", "--viewer", "2", "--log", str(log)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    events = [{**x, "t": x["event"]} for x in lines if x.get("type") == "event"]
    bids = [e for e in events if e["t"] == "counter" and e.get("name") == "bid"]
    assert bids and all(e["value"] is None for e in bids if e["owner"] != 1)
    assert any(e["value"] is not None for e in bids if e["owner"] == 1)
    into_others = [e for e in events if e["t"] == "move" and e.get("to", "").startswith("chips of player")
                   and e["to"] != "chips of player 2" and e.get("from", "").startswith("chips")
                   and e["from"] != "chips of player 2"]
    assert into_others and all(e["count"] is None and e["cards"] is None for e in into_others)


# ------------------------------------------------------------------ imagined games (bots)

def test_imagined_games_keep_the_view_and_deal_secret_counts_again():
    _game, st = started(seed=3)
    answer_all(st, random.Random(3))
    me = 0
    others = [slot(st, "chips", q) for q in (1, 2)]
    total = sum(len(st.z[s]) for s in others)
    splits = set()
    top = st.z[slot(st, "discard")][-1]
    for k in range(40):
        b = st.sample_for(me, random.Random(k))
        assert b.view(me) == st.view(me)
        assert sum(len(b.z[s]) for s in others) == total
        splits.add(tuple(len(b.z[s]) for s in others))
        assert b.z[slot(b, "discard")][-1] == top                   # the face-up card stays
        assert b.c["bid"] == [st.c["bid"][me]] * 3                   # the others' bids: imagined
        assert b.c["pot"] == 0                                       # nobody's: its start value
        assert zone(b, "chips", me) == zone(st, "chips", me)
    assert len(splits) > 1                                           # how many is unknown too


def test_an_imagined_game_does_not_depend_on_the_others_secrets():
    _game, st = started(seed=3)
    answer_all(st, random.Random(3))
    other = st.clone()
    # another player's secret counter and chips differ: player 1's imagined games are the same
    other.c["bid"][2] += 7
    mine, theirs = slot(other, "chips", 1), slot(other, "chips", 2)
    unknown = [c for c in other.z[mine] if not other.known_now()[c] & 1]
    assert unknown
    put(other, unknown[:1], "chips", 2)
    a = st.sample_for(0, random.Random(9))
    b = other.sample_for(0, random.Random(9))
    assert a.c == b.c
    assert [len(a.z[s]) for s in (mine, theirs)] == [len(b.z[s]) for s in (mine, theirs)]


def test_the_searching_bot_and_greedy_play_the_example():
    from catrules.bots.basic import make_seat
    from catrules.play.match import Match
    game = api.load_game(EXAMPLE)
    st = game.new_state(3, seed=2, log=True)
    Match(game, st, [make_seat("ismcts:10"), make_seat("greedy"), make_seat("random")]).run()
    assert st.finished


# ------------------------------------------------------------------ the web page

def test_the_web_state_message_carries_only_what_the_seat_may_see(tmp_path):
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    pytest.importorskip("httpx", reason="httpx (for Starlette's TestClient) is not installed")
    import warnings
    from test_web_protocol import Client, Page, play
    from catrules.web.app import create_app
    from catrules.web.tables import view_for
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = Client(create_app([EXAMPLE], tmp_path))
    with client:
        r = client.post("/api/tables", json={"game": "visibility", "players": 3, "seats": ["human", "human", "bot"],
                                             "seed": 4, "options": []})
        assert r.status_code == 200, r.text
        made = r.json()
        tokens = {l["seat"]: l["link"].split("#", 1)[1] for l in made["links"]}
        table = client.app.state.registry.table(made["table"])
        pages = [Page(client, tokens[0], 0), Page(client, tokens[1], 1)]
        looked = []

        def check(page, m):
            v = m["view"]
            if v["finished"]:
                return
            text = json.dumps(m)
            for q in range(3):
                chips = zone_entry(v, "chips", q)
                if q == page.seat:
                    assert chips["count"] == len(table.state.z[slot(table.state, "chips", q)])
                else:
                    assert chips["count"] is None and chips["cards"] is None
                    assert v["counters"]["bid"][q] == {"hidden": True}
            assert "running" not in v
            top = zone_entry(v, "discard")
            pile = table.state.z[slot(table.state, "discard")]
            assert (top.get("top") or {}).get("id") == (pile[-1] if pile else None)
            # the view is the same in games redealt consistently with what the seat sees
            other = table.state.sample_for(page.seat, random.Random(len(looked)), keep_future=True)
            assert view_for(other, page.seat, table.answers) == v
            for c in table.state.z[slot(table.state, "chips", 1 - page.seat)]:
                assert f'"id": {c}, "type": "chip"' not in text
            looked.append(page.seat)

        n = play(pages, check)
        for p in pages:
            p.close()
    assert n > 5 and len(looked) >= 8


def test_the_rl_observation_reads_only_the_view():
    pytest.importorskip("numpy")
    import numpy as np
    from catrules.envs import encoding
    game = api.load_game(EXAMPLE)
    sp = encoding.spec(game, 3, explore=2)
    st = game.new_state(3, seed=2)
    rng = random.Random(2)
    answer_all(st, rng, rounds=2)
    x = sp.encoder.encode(st.view(0))
    at = sp.encoder.offset["counts"]
    assert x[at + slot(st, "chips", 1)] == -1.0 and x[at + slot(st, "chips", 0)] > 0
    # another player's chips and bid do not change player 1's observation
    other = st.clone()
    other.c["bid"][2] += 5
    giver = 1 if other.z[slot(other, "chips", 1)] else 2
    put(other, [other.z[slot(other, "chips", giver)][-1]], "chips", 3 - giver)
    assert np.array_equal(sp.encoder.encode(other.view(0)), x)
    # the face-up top card of the discard is in it
    top = st.z[slot(st, "discard")][-1]
    S1 = sp.encoder.slots + 1
    assert x[sp.encoder.offset["cards"] + top * S1 + slot(st, "discard")] == 1
