"""Language 4: choosing up to N cards, or any number of cards (``p chooses up to 3 cards c from
hand of p``, ``up to (n) cards``, ``any number of cards``): the text, the checker, the running
game (``none`` is "done" at every pick), what others see, and every consumer of decisions."""

import io
import random
from pathlib import Path

import pytest
from rich.console import Console

from catrules import api
from catrules.errors import GameFileError, RulesError
from catrules.lang import ast
from catrules.lang.parser import parse
from catrules.lang.source_text import stmt as stmt_text
from catrules.play.match import Match
from catrules.play.views import visible_event
from catrules.testing import ScriptedSeat, zone

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "choose-up-to.cat"

HEAD = """catrules {v}
game "Up"
players 2 to 3

cards number in deck:
    for each suit in red, blue:
        for each value in 1 to 8:
            card

zone deck: shared, hidden, pile
zone hand: per player, owner, pile
zone discard: shared, public, pile
zone passed: per player, owner, pile

"""

PLAIN = HEAD + """flow:
    shuffle deck
    for each player p:
        move top(deck, 4) to hand of p
    for each player p:
        p chooses up to 3 cards c from hand of p
        move c to discard
        move top(deck, count(c)) to hand of p

score:
    kept = count(hand)
"""

SECRET = HEAD + """flow:
    shuffle deck
    for each player p:
        move top(deck, 4) to hand of p
    secretly each player p chooses up to 2 cards c from hand of p:
        move c to passed of p

score:
    kept = count(hand)
"""


def load(text, name="up.cat"):
    return api.load_source(text, name)


def console():
    return Console(file=io.StringIO(), width=100, highlight=False)


def choices_of(g):
    return [n for n in ast.walk(g) if isinstance(n, (ast.Choose, ast.Together))]


# ------------------------------------------------------------------ the text

def test_the_three_forms_parse_with_their_count_and_mode():
    text = PLAIN.format(v=4).replace("        move c to discard\n",
                                     "        p chooses up to (count(hand of p) - 1) cards d from hand of p\n"
                                     "        p chooses any number of cards e from hand of p\n"
                                     "        move c to discard\n")
    g = parse(text, "up.cat")
    a, b, c = sorted(choices_of(g), key=lambda n: n.line)
    assert (a.up_to, a.count.value, a.var) == ("up to", 3, "c")
    assert b.up_to == "up to" and isinstance(b.count, ast.Binary) and b.var == "d"
    assert (c.up_to, c.count, c.var) == ("any", None, "e")
    assert [stmt_text(x) for x in (a, b, c)] == [
        "p chooses up to 3 cards c from hand of p",
        "p chooses up to (count(hand of p) - 1) cards d from hand of p",
        "p chooses any number of cards e from hand of p"]
    one = parse(text.replace("up to 3 cards", "up to 1 card"), "up.cat")
    assert stmt_text(sorted(choices_of(one), key=lambda n: n.line)[0]).startswith("p chooses up to 1 card c ")


def test_fmt_keeps_the_forms_and_round_trips():
    from catrules.authoring.fmt import format_text as format_source
    text = SECRET.format(v=4).replace("up to 2 cards", "up  to   2 cards")
    out = format_source(text, "up.cat")
    assert "secretly each player p chooses up to 2 cards c from hand of p:" in out
    assert format_source(out, "up.cat") == out
    assert format_source(EXAMPLE.read_text(), str(EXAMPLE)) == EXAMPLE.read_text()


def test_prose_says_the_count():
    from catrules.authoring.prose import prose
    words = " ".join(prose(load(SECRET.format(v=4))).split())
    assert "chooses up to 2 cards" in words
    words = " ".join(prose(api.load_game(EXAMPLE)).split())
    assert "any number of cards" in words


# ------------------------------------------------------------------ the checker

def test_up_to_zero_is_an_error_with_its_place_and_a_hint():
    text = PLAIN.format(v=4).replace("up to 3 cards", "up to 0 cards")
    with pytest.raises(GameFileError) as e:
        load(text)
    (d,) = e.value.diagnostics
    assert (d.line, d.column) == (20, 25)
    assert "`up to 0 cards`" in d.message and "nothing" in d.message and "1 or more" in d.hint
    assert "up.cat:20:25:" in str(e.value)


def test_up_to_a_text_and_any_number_of_players_are_errors():
    text = PLAIN.format(v=4).replace("up to 3 cards", 'up to ("x") cards')
    with pytest.raises(GameFileError) as e:
        load(text)
    assert any("number" in d.message and d.line == 20 for d in e.value.diagnostics)
    text = PLAIN.format(v=4).replace("p chooses up to 3 cards c from hand of p",
                                     "p chooses any number of cards c from players")
    with pytest.raises(GameFileError) as e:
        load(text)
    (d,) = [d for d in e.value.diagnostics if d.line == 20]
    assert "chooses among cards" in d.message and d.column == 46 and d.hint


@pytest.mark.parametrize("form", ["up to 3 cards", "any number of cards"])
def test_a_language_3_file_gets_the_language_4_error(form):
    text = PLAIN.format(v=3).replace("up to 3 cards", form)
    with pytest.raises(GameFileError) as e:
        load(text)
    (d,) = e.value.diagnostics
    assert "is language 4, and this file says `catrules 3`" in d.message and d.line == 20
    assert d.hint == "write `catrules 4` on the first line"


OLD_NAMES = """catrules 3
game "Old names"
players 2 to 3

cards tile in deck:
    for each value in 1 to 6:
        card

zone deck: shared, hidden, pile
zone hand: per player, owner, pile
zone table: shared, public, pile

counter up = 0
counter any = 0
counter number of each player = 0

flow:
    shuffle deck
    for each player p:
        move top(deck, 2) to hand of p
    for each player p:
        p chooses c from hand of p
        move c to table
        up = up + c.value
        add 1 to any
        add 1 to number of p

score:
    got = number
"""

OLD_VARS = OLD_NAMES.replace("""        p chooses c from hand of p
        move c to table
        up = up + c.value
""", """        p chooses up from hand of p
        move up to table
        p chooses any from hand of p
        move any to table
""").replace("counter up = 0\ncounter any = 0\n", "")


def play_first(st):
    while st.pending():
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    return st


def test_a_language_3_file_may_name_counters_up_any_and_number():
    g = load(OLD_NAMES, "old.cat")
    st = play_first(g.new_state(2, seed=3))
    assert st.finished and st.c["number"] == [1, 1] and st.c["any"] == 2
    assert st.c["up"] == sum(g.card(c)["value"] for c in zone(st, "table", None))
    assert [r["total"] for r in st.scores()] == [1, 1]
    # the same file in language 4: `up` is a word now, `any` and `number` stay names
    with pytest.raises(GameFileError) as e:
        load(OLD_NAMES.replace("catrules 3", "catrules 4"), "new.cat")
    lines = {d.line for d in e.value.diagnostics}
    assert 13 in lines and not lines & {14, 15}
    assert all("word of the language" in d.message for d in e.value.diagnostics if d.line == 13)
    renamed = OLD_NAMES.replace("catrules 3", "catrules 4").replace("up", "upper")
    st = play_first(load(renamed, "new.cat").new_state(2, seed=3))
    assert st.c["number"] == [1, 1] and st.c["any"] == 2


def test_a_language_3_file_may_call_a_chosen_card_up_or_any():
    g = load(OLD_VARS, "old.cat")
    st = play_first(g.new_state(3, seed=3))
    assert st.finished and len(zone(st, "table", None)) == 6 and st.c["number"] == [1, 1, 1]


# ------------------------------------------------------------------ the running game

def test_done_at_once_chooses_nothing_and_the_prompt_says_how_many():
    st = load(PLAIN.format(v=4)).new_state(2, seed=1)
    (d,) = st.pending()
    assert d.prompt == "Choose up to 3 cards from hand (0 chosen, at most 3; choose done to stop)"
    assert [o.id for o in d.options][-1] == "none" and d.options[-1].label.startswith("done")
    assert len(d.options) == 5          # the four cards of the hand, and done
    hand = zone(st, "hand", 0)
    st.apply(0, "none")
    assert zone(st, "hand", 0) == hand and not zone(st, "discard", None)
    (d,) = st.pending()
    assert d.player == 1


def test_picks_end_at_done_or_at_the_most():
    st = load(PLAIN.format(v=4)).new_state(2, seed=1)
    first = zone(st, "hand", 0)[:2]
    for c in first:
        st.apply(0, f"c{c}")
    (d,) = st.pending()
    assert d.player == 0 and "(2 chosen, at most 3;" in d.prompt
    assert {o.value for o in d.options} == (set(zone(st, "hand", 0)) - set(first)) | {None}
    st.apply(0, "none")
    assert sorted(zone(st, "discard", None)) == sorted(first)
    assert len(zone(st, "hand", 0)) == 4
    three = zone(st, "hand", 1)[:3]
    for c in three:                     # the third pick ends the choice: nobody says done
        st.apply(1, f"c{c}")
    assert st.finished and set(three) <= set(zone(st, "discard", None))


def test_fewer_cards_than_the_most_offers_what_there_is():
    text = PLAIN.format(v=4).replace("move top(deck, 4)", "move top(deck, 1)")
    st = load(text).new_state(2, seed=1)
    (d,) = st.pending()
    assert len(d.options) == 2          # the one card, and done
    st.apply(0, d.options[0].id)
    (d,) = st.pending()
    assert d.player == 0 and [o.id for o in d.options] == ["none"] and d.default == "none"
    st.apply(0, "none")
    assert st.pending()[0].player == 1


def test_a_count_worked_out_below_zero_stops_in_the_games_words_and_zero_asks_nothing():
    text = PLAIN.format(v=4).replace("up to 3 cards", "up to (count(hand of p) - 5) cards")
    with pytest.raises(RulesError) as e:
        load(text).new_state(2, seed=1)
    assert e.value.line == 20 and "whole number of 0 or more" in str(e.value) and "-1" in str(e.value)
    assert "Error" not in str(e.value)
    text = PLAIN.format(v=4).replace("up to 3 cards", "up to (count(hand of p) - 4) cards")
    st = load(text).new_state(2, seed=1)
    assert st.finished                  # up to 0: c is the empty list, nobody is asked


def test_any_number_goes_up_to_every_card_and_an_empty_hand_is_still_asked():
    text = PLAIN.format(v=4).replace("up to 3 cards", "any number of cards")
    st = load(text).new_state(2, seed=1)
    hand = zone(st, "hand", 0)
    for c in hand:
        st.apply(0, f"c{c}")
    assert sorted(zone(st, "discard", None)) == sorted(hand)
    text = text.replace("move top(deck, 4)", "move top(deck, 0)")
    st = load(text).new_state(2, seed=1, ask_forced=True)
    (d,) = st.pending()
    assert [o.id for o in d.options] == ["none"]


# ------------------------------------------------------------------ secret: hidden stays hidden

def play_secret(picks, seed=1):
    """A 3-player secret `up to 2` choice where player k picks ``picks[k]`` cards then says done;
    returns the state and the events."""
    st = load(SECRET.format(v=4)).new_state(3, seed=seed, log=True, ask_forced=True)
    made = [0, 0, 0]
    while st.pending():
        d = st.pending()[0]
        p = d.player
        assert d.kind == "secret"
        if made[p] < picks[p]:
            st.apply(p, next(o.id for o in d.options if o.id != "none"))
        else:
            assert d.options[-1].id == "none"
            st.apply(p, "none")
        made[p] += 1
    return st, made


def test_a_secret_choice_makes_as_many_picks_whatever_was_chosen():
    st_a, made_a = play_secret([0, 1, 2])
    st_b, made_b = play_secret([2, 0, 1])
    assert made_a == made_b == [2, 2, 2]
    assert [len(zone(st_a, "passed", p)) for p in range(3)] == [0, 1, 2]
    assert [len(zone(st_b, "passed", p)) for p in range(3)] == [2, 0, 1]
    for viewer in range(3):
        seen_a = [visible_event(st_a, e, viewer) for e in st_a.log if e["t"] in ("decision", "reveal")]
        seen_b = [visible_event(st_b, e, viewer) for e in st_b.log if e["t"] in ("decision", "reveal")]
        # what a player sees of the others' answers is the same, however many cards they chose
        others = [[e if e["t"] == "decision" else [ch for ch in e["choices"] if ch["player"] != viewer]
                   for e in seen if e.get("player") != viewer] for seen in (seen_a, seen_b)]
        assert others[0] == others[1] and len(others[0]) == 2 * 2 + 1
        (reveal,) = [e for e in seen_a if e["t"] == "reveal"]
        for ch in reveal["choices"]:
            if ch["player"] != viewer:
                assert ch == {"player": ch["player"], "option": None}


def test_while_a_secret_choice_is_open_a_view_shows_only_ones_own_picks():
    st = load(SECRET.format(v=4)).new_state(3, seed=2, log=True, ask_forced=True)
    d = next(d for d in st.pending() if d.player == 1)
    card = d.options[0].id
    st.apply(1, card)
    assert st.view(1)["my_choice"] == [card]
    for p in (0, 2):
        assert "my_choice" not in st.view(p)
        assert not [e for e in st.log if e["t"] == "decision"]      # kept for the reveal
    st.apply(0, "none")                 # done at once: the second pick is done again, forced
    d = next(d for d in st.pending() if d.player == 0)
    assert [o.id for o in d.options] == ["none"] and "(0 chosen: done)" in d.prompt
    assert d.default == "none" and st.view(0)["my_choice"] == []
    assert sorted(st.waiting_for()) == [0, 1, 2]


def test_a_save_in_the_middle_of_a_secret_choice_resumes():
    from catrules.runtime.state import State
    g = load(SECRET.format(v=4))
    st = g.new_state(3, seed=2, ask_forced=True)
    st.apply(0, "none")
    data = st.to_dict()
    assert data["pending"]["upto"] is True
    back = State.from_dict(g.program, data)
    assert back.pending()[0].options[0].id == "none" and len(back.pending()) == 3
    assert [o.id for o in back.decision_for(0).options] == ["none"]
    from catrules.errors import SaveError
    for bad in ("yes", 1):
        data["pending"]["upto"] = bad
        with pytest.raises(SaveError, match="upto"):
            State.from_dict(g.program, data)
    del data["pending"]["upto"]         # a save of before language 4 has no `upto`: a fixed choice
    old = State.from_dict(g.program, data)
    assert old.pending_.upto is None and "(1 of 2)" in old.decision_for(1).prompt


# ------------------------------------------------------------------ consumers

def test_scripted_seats_play_a_match_with_done():
    g = load(PLAIN.format(v=4))
    st = g.new_state(2, seed=1, log=True)
    hand0 = zone(st, "hand", 0)
    seats = [ScriptedSeat([f"c{hand0[0]}", "done (no more cards)"]), ScriptedSeat(["none"])]
    Match(g, st, seats).run()
    assert st.finished and zone(st, "discard", None) == [hand0[0]]


def test_the_terminal_seat_picks_cards_then_done():
    from catrules.frontends.terminal import TerminalSeat
    g = load(PLAIN.format(v=4))
    st = g.new_state(2, seed=1)
    answers = iter(["1", "done (no more cards)"])
    asked = []

    def ask(prompt=""):
        asked.append(prompt)
        return next(answers)
    seat = TerminalSeat(console=console(), input=ask, game=g)
    seat.start(None, 0)
    first = zone(st, "hand", 0)[0]
    for _ in range(2):
        (d,) = st.pending()
        ch = seat.decide(st.view(0), d)
        st.apply(0, ch.option)
    out = seat.console.file.getvalue()
    assert "(0 chosen, at most 3; choose done to stop)" in out and "(1 chosen, at most 3;" in out
    assert "5 done (no more cards)" in out and "4 done (no more cards)" in out
    assert zone(st, "discard", None) == [first] and st.pending()[0].player == 1


@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts:30"])
def test_bots_play_the_example_to_its_end(bot):
    from catrules.lab.simulate import simulate
    r = simulate(EXAMPLE, players=3, games=2 if bot.startswith("ismcts") else 6, seed=5, seats=bot)
    assert r.unfinished == 0 and sum(s.wins for s in r.seats) >= r.games


def test_random_choices_pick_various_numbers_of_cards():
    g = load(PLAIN.format(v=4))
    sizes = set()
    for seed in range(30):
        st = g.new_state(2, seed=seed)
        rng = random.Random(seed)
        while st.pending():
            d = st.pending()[0]
            st.apply(d.player, rng.choice(d.options).id)
        sizes.add(len(zone(st, "discard", None)))
    assert len(sizes) >= 4


def test_env_masks_are_the_legal_options_with_done():
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from catrules.envs.pettingzoo import env
    e = env(str(EXAMPLE), players=3, seed=4)
    e.reset()
    rng = random.Random(1)
    dones = 0
    while not e.game_state.finished:
        d = e.game_state.pending()[0]
        obs = e.observe(e.agent_selection)
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert [e.spec.actions[i] for i in legal] == sorted((o.id for o in d.options), key=e.spec.index.get)
        dones += "none" in [o.id for o in d.options]
        e.step(rng.choice(legal))
    assert dones > 0


def test_check_play_lint_finds_nothing_to_warn_of():
    from catrules.lab.lint import lint_play
    g = api.load_game(EXAMPLE)
    assert lint_play(g, 20, 1, [2, 3, 4]) == []


def test_a_log_replays(tmp_path):
    from catrules.lab.simulate import simulate
    from catrules.play.replay import replay
    log = tmp_path / "up.jsonl"
    simulate(EXAMPLE, players=3, games=3, seed=2, log_path=log)
    r = replay(log)
    assert r.ok and len(r.games) == 3, r.format()


def test_the_web_sends_each_seat_only_what_it_may_see(tmp_path, monkeypatch):
    pytest.importorskip("starlette")
    import test_web_protocol as wp
    monkeypatch.setitem(wp.GAMES, "choose-up-to", EXAMPLE)
    pages, n, problems, check = wp.whole_game(tmp_path, "choose-up-to", seats=("human", "human", "bot"))
    assert pages[0].last["view"]["finished"] and n > 5
    assert not problems, problems[:5]
    for p in pages:
        p.close()


def test_a_prompt_said_with_values_tells_the_picks_too():
    text = PLAIN.format(v=4).replace("p chooses up to 3 cards c from hand of p",
                                     'p chooses up to 3 cards c from hand of p asking "Swap cards, {p}"')
    st = load(text).new_state(2, seed=1, log=True)
    (d,) = st.pending()
    assert d.prompt == "Swap cards, player 1 (0 chosen, at most 3; choose done to stop)"
    st.apply(0, d.options[0].id)
    (d,) = st.pending()
    assert d.prompt == "Swap cards, player 1 (1 chosen, at most 3; choose done to stop)"
