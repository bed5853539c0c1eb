"""Language 4: short deals (`top(deck, N)` takes exactly N, `top(deck, up to N)` what there is), and
texts that name a card to every player who saw it move (in every language version)."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import catrules
from catrules.authoring.fmt import format_text
from catrules.authoring.prose import prose
from catrules.errors import GameFileError, RulesError, SaveError
from catrules.lab.lint import lint_play
from catrules.play.views import visible_event
from catrules.runtime.state import State

ROOT = Path(__file__).resolve().parents[1]


def deal_game(version: int, count: str, cards: int = 6, counter: str = "") -> str:
    return f"""catrules {version}
game "Deal"
players 2 to 2

cards number in deck:
    for each value in 1 to {cards}:
        card

zone deck: shared, hidden, pile
zone hand: per player, owner, pile
{counter}
flow:
    move top(deck, {count}) to hand of 0

score:
    points = count(hand)

winner:
    highest total
"""


def run(game, players=2, seed=1, **kw):
    st = game.new_state(players, seed=seed, **kw)
    rng = random.Random(seed)
    while not st.finished:
        d = st.pending()[0]
        st.apply(d.player, rng.choice(d.options).id)
    return st


# ------------------------------------------------------------------ short deals

def test_a_short_deal_stops_a_language_4_game_in_the_rules_words():
    game = catrules.load_source(deal_game(4, "9"), "deal.cat")
    with pytest.raises(RulesError) as exc:
        game.new_state(2, seed=1)
    err = exc.value
    assert err.line == 13
    assert "the rules take 9 cards from the top of deck, which holds only 6 (a short deal)" in err.message
    assert "top(deck, up to 9)" in err.hint
    assert "Error" not in str(err) and "Traceback" not in str(err)


def test_a_deal_that_is_not_short_takes_exactly_n():
    st = catrules.load_source(deal_game(4, "4"), "deal.cat").new_state(2, seed=1)
    assert len(st.z[st.layout.slot_name.index("hand of player 1")]) == 4
    assert len(st.z[st.layout.slot_name.index("deck")]) == 2


def test_up_to_takes_what_there_is_and_the_lint_does_not_call_it_short():
    game = catrules.load_source(deal_game(4, "up to 9"), "deal.cat")
    stats: dict = {}
    st = State.new(game.program, 2, (), 1, stats=stats)
    assert len(st.z[st.layout.slot_name.index("hand of player 1")]) == 6
    assert "short" not in stats
    assert not [w for w in lint_play(game, 3, 1, [2]) if "short" in w.message]


def test_up_to_with_enough_cards_takes_n():
    st = catrules.load_source(deal_game(4, "up to 4"), "deal.cat").new_state(2, seed=1)
    assert len(st.z[st.layout.slot_name.index("hand of player 1")]) == 4


def test_older_files_keep_taking_what_there_is_and_the_lint_names_up_to():
    game = catrules.load_source(deal_game(3, "9"), "deal.cat")
    st = run(game)
    assert len(st.z[st.layout.slot_name.index("hand of player 1")]) == 6
    warnings = [w for w in lint_play(game, 3, 1, [2]) if "short deal" in w.message]
    assert len(warnings) == 1
    assert "`top(deck, up to 9)`" in warnings[0].hint and "language 4" in warnings[0].hint


def test_a_language_4_short_deal_in_the_lint_names_up_to():
    game = catrules.load_source(deal_game(4, "9"), "deal.cat")
    msgs = [(w.message, w.hint) for w in lint_play(game, 2, 1, [2])]
    assert any("a short deal" in m and "top(deck, up to 9)" in h for m, h in msgs), msgs


def test_up_to_is_language_4():
    with pytest.raises(GameFileError) as exc:
        catrules.load_source(deal_game(3, "up to 9"), "deal.cat")
    text = str(exc.value)
    assert "language 4" in text and "catrules 3" in text and "up to" in text


def test_a_counter_named_up_still_counts_in_language_3():
    game = catrules.load_source(deal_game(3, "up", counter="counter up = 2\n"), "deal.cat")
    st = run(game)
    assert len(st.z[st.layout.slot_name.index("hand of player 1")]) == 2


def test_up_is_a_word_of_language_4():
    # `up` is a word of language 4 (`chooses up to 3 cards`): a counter cannot take it as a name
    with pytest.raises(GameFileError) as exc:
        catrules.load_source(deal_game(4, "up", counter="counter up = 2\n"), "deal.cat")
    assert "`up` is a word of the language" in str(exc.value)


@pytest.mark.parametrize("count, words", [("down to 3", "`down to` is not a count"),
                                          ("count(up to 3)", "`up to` is a count of cards taken")])
def test_up_to_in_the_wrong_place_is_a_located_error(count, words):
    with pytest.raises(GameFileError) as exc:
        catrules.load_source(deal_game(4, count), "deal.cat")
    text = str(exc.value)
    assert words in text and "deal.cat:13:" in text and "hint:" in text


def test_up_to_needs_a_number():
    with pytest.raises(GameFileError) as exc:
        catrules.load_source(deal_game(4, "up to deck"), "deal.cat")
    assert "`up to` needs a number" in str(exc.value)


def test_up_to_is_formatted_and_said_in_prose():
    src = deal_game(4, "up   to 9")
    out = format_text(src, "deal.cat")
    assert "top(deck, up to 9)" in out
    text = prose(catrules.load_source(out, "deal.cat"))
    assert "the top 9 cards of the deck (fewer if it holds fewer)" in text


# ------------------------------------------------------------------ seen cards

SEEN = """catrules {version}
game "Seen"
players 2 to 3

cards number in deck:
    for each value in 1 to 12:
        card

zone deck: shared, hidden, pile
zone market: shared, public, row
zone hand: per player, owner, pile

flow:
    a = 0
    b = 1
    move top(deck, 3) to market
    a chooses c from market
    move c to hand of a
    announce "took {{c}}"
    b chooses d from hand of b asking "player 1 took {{c}}: give a card"
    move top(deck) to hand of a
    announce "drew {{top(hand of a)}}"
    move c to deck
    announce "buried {{c}}"
    b chooses e from hand of b asking "player 1 buried {{c}}"

setup:
    move top(deck, 2) to hand of 1

score:
    points = count(hand)

winner:
    highest total
"""


def seen_game(version=4):
    return catrules.load_source(SEEN.format(version=version), "seen.cat")


def announcements(st, viewer):
    return [visible_event(st, ev, viewer)["text"] for ev in st.log if ev["t"] == "announce"]


def played(version=4, players=2):
    game = seen_game(version)
    st = game.new_state(players, seed=5, log=True)
    prompts = []
    while not st.finished:
        for d in st.pending():
            prompts.append((d.player, d.prompt))
            st.apply(d.player, d.options[0].id)
            break
    return st, prompts


@pytest.mark.parametrize("version", [3, 4])
def test_a_card_is_named_to_who_saw_it_move_and_hidden_to_the_others(version):
    st, _ = played(version)
    took = [ev for ev in st.log if ev["t"] == "announce"][0]["parts"][1]["card"]
    face = st.prog.card_face[took]
    owner, other = announcements(st, 0), announcements(st, 1)
    # from the public market into a hand: everyone saw it
    assert owner[0] == other[0] == f"took {face}"
    # from the hidden deck into a hand: only the drawer
    assert owner[1].startswith("drew ") and "hidden" not in owner[1]
    assert other[1] == "drew a hidden card"
    # moved again unseen (hand to the hidden deck): the others no longer see it
    assert owner[2] == f"buried {face}"
    assert other[2] == "buried a hidden card"
    assert announcements(st, None) == ["took " + face, "drew a hidden card", "buried a hidden card"]


def test_a_third_player_who_saw_the_move_sees_the_name_too():
    st, _ = played(4, players=3)
    assert announcements(st, 2)[:2] == [announcements(st, 0)[0], "drew a hidden card"]


def test_prompts_name_a_card_to_who_saw_it_move_only():
    st, prompts = played()
    asked = [p for who, p in prompts if who == 1]
    assert asked[0].startswith("player 1 took ") and "hidden" not in asked[0]
    assert asked[1] == "player 1 buried a hidden card"


def test_what_players_get_carries_no_record_of_who_saw():
    st, _ = played(players=3)
    assert any("seen" in p for ev in st.log if ev["t"] == "announce" for p in ev["parts"] if isinstance(p, dict))
    for viewer in (0, 1, 2, None):
        for ev in st.log:
            seen = visible_event(st, ev, viewer)
            assert "seen" not in json.dumps(seen.get("parts", []))


def test_who_saw_is_saved_and_resumes_exactly_and_old_saves_mean_nobody_saw():
    game = seen_game()
    st = game.new_state(2, seed=5, log=True)
    st.apply(0, st.pending()[0].options[0].id)          # the market card goes into hand 0
    d = json.loads(json.dumps(st.to_dict()))
    assert any(d["saw"])
    back = State.from_dict(game.program, d)
    assert back.saw == st.saw and json.dumps(back.to_dict()) == json.dumps(d)
    old = {k: v for k, v in d.items() if k != "saw"}
    assert State.from_dict(game.program, old).saw == [0] * game.card_count
    bad = {**d, "saw": [99] * game.card_count}
    with pytest.raises(SaveError, match="saw"):
        State.from_dict(game.program, bad)


def test_a_card_dealt_into_a_hand_was_seen_by_its_owner_alone():
    game = catrules.load_source(deal_game(4, "2"), "deal.cat")
    st = game.new_state(2, seed=1)
    hand = st.z[st.layout.slot_name.index("hand of player 1")]
    assert [st.saw[c] for c in hand] == [1, 1]
    assert st.to_dict()["saw"] == st.saw


def test_a_card_passed_between_hands_is_named_to_both_players_not_to_who_watches_the_table():
    src = SEEN.format(version=4).replace("    move c to deck\n    announce \"buried {c}\"",
                                         "    move c to hand of b\n    announce \"passed {c}\"")
    assert "passed" in src
    st = catrules.load_source(src, "seen.cat").new_state(3, seed=5, log=True)
    while not st.finished:
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    face = st.prog.card_face[[ev for ev in st.log if ev["t"] == "announce"][0]["parts"][1]["card"]]
    assert [announcements(st, v)[2] for v in (0, 1, 2, None)] == \
        [f"passed {face}"] * 2 + ["passed a hidden card"] * 2


def test_a_players_log_names_the_market_card_to_the_other_player(tmp_path):
    path = tmp_path / "seen.cat"
    path.write_text(SEEN.format(version=4))
    log = tmp_path / "p2.jsonl"
    subprocess.run([sys.executable, "-m", "catrules", "play", str(path), "--seats", "random,random",
                    "--seed", "3", "--quiet", "--log", str(log), "--viewer", "2"],
                   cwd=ROOT, check=True, capture_output=True)
    said = [json.loads(x) for x in log.read_text().splitlines()]
    texts = [x["text"] for x in said if x.get("event") == "announce"]
    assert texts[0].startswith("took ") and "hidden" not in texts[0]
    assert texts[1:] == ["drew a hidden card", "buried a hidden card"]


@pytest.mark.parametrize("name", ["seen-cards.cat", "short-deal.cat"])
def test_the_examples_are_language_4(name):
    text = (ROOT / "docs" / "examples" / name).read_text()
    assert text.startswith("catrules 4\n")
    assert (name == "short-deal.cat") == ("up to" in text)


@pytest.mark.parametrize("path", ["games/meow.cat", "games/catlady.cat", "docs/examples/seen-cards.cat"])
def test_who_saw_is_the_same_on_every_path_a_move_takes(path):
    # logged (card by card), unlogged, and while nobody keeps track of who knows what (bots
    # that only pick): the record of who saw each card move comes out the same
    game = catrules.load_game(ROOT / path)
    runs = []
    for log, blind in ((True, False), (False, False), (False, True)):
        st = game.new_state(game.min_players + 1 if game.max_players > game.min_players else game.min_players,
                            seed=7, log=log)
        if blind:
            st.known = None
        rng = random.Random(7)
        while not st.finished:
            d = st.pending()[0]
            st.apply(d.player, rng.choice(d.options).id, rng.random() if d.timed else None)
        runs.append(st.saw)
    assert runs[0] == runs[1] == runs[2] and any(runs[0])
