"""Language constructs on the small game tests/games/gifts.cat: triggers that look where a card
came from (`from ZONE of NAME`), `exchange` setting triggers off, `tally` (scores per round that
add up) and `ties race` (players still tied race; the fastest wins)."""

from pathlib import Path

import pytest

from catrules.api import load_game, load_source
from catrules.errors import CatrulesError
from catrules.testing import card, put, refresh, zone

HERE = Path(__file__).parent
GIFTS = HERE / "games" / "gifts.cat"


@pytest.fixture(scope="module")
def game():
    return load_game(GIFTS)


def decide(st, player, label):
    """Apply ``player``'s option: a card given as "kind value", or an option id."""
    for d in st.pending():
        if d.player == player:
            for o in d.options:
                a = st.prog.card_attrs[o.value] if o.kind == "card" else {}
                if o.id == label or f"{a.get('kind')} {a.get('value')}" == label:
                    st.apply(player, o.id, 0.5 if d.timed else None)
                    return
            raise AssertionError(f"no option {label!r}: {[o.label for o in d.options]}")
    raise AssertionError(f"player {player} has nothing to decide")


def arrange_round(st, hands):
    """Give each player the named hand (lists of (kind, value)) and work the decision out again."""
    g = st.prog
    for p, hand in enumerate(hands):
        for c in zone(st, "hand", p):
            put(st, c, "deck")
    for p, hand in enumerate(hands):
        for kind, value in hand:
            cid = next(i for i in range(g.card_count) if g.card_attrs[i]["kind"] == kind
                       and g.card_attrs[i]["value"] == value and st.loc[i] == st.layout.base[g.zone_by_name["deck"].index])
            put(st, cid, "hand", p)
    refresh(st)


def test_own_card_entering_does_not_echo(game):
    st = game.new_state(2, seed=3, log=True)
    arrange_round(st, [[("echo", 0), ("plain", 4)], [("plain", 1), ("plain", 2)]])
    decide(st, 0, "echo 0")             # the echo enters player 1's table from their own hand
    assert [d.player for d in st.pending()] == [1]
    decide(st, 1, "plain 2")
    # the trades give plain cards to tables and take the echo into a hand: nothing echoes,
    # and the round is tallied
    echo = card(game, kind="echo")
    assert st.c["#tallies"] == 1
    assert all(e.get("line") != 19 for e in st.log if e["t"] == "decision")
    assert st.prog.card_attrs[echo]["kind"] == "echo"


def test_exchange_sets_off_the_trigger_of_the_zone_a_card_enters(game):
    st = game.new_state(2, seed=3, log=True)
    arrange_round(st, [[("plain", 4), ("plain", 3)], [("echo", 0), ("plain", 1)]])
    decide(st, 0, "plain 3")            # player 1 keeps plain 4 in hand
    decide(st, 1, "plain 1")            # player 2 keeps the echo in hand
    # player 1 trades plain 4 for player 2's plain 1 (no echo); player 2 trades the echo for
    # player 1's plain 3: the echo enters player 1's table from player 2's hand
    echo = card(game, kind="echo")
    log = [e for e in st.log if e["t"] in ("exchange", "move", "tally")]
    i = next(k for k, e in enumerate(log) if e["t"] == "exchange" and echo in e["cards"])
    assert log[i]["zones"] == ["hand of player 2", "table of player 1"]
    # at once, before the round is tallied, player 1 gives their last hand card on
    give = log[i + 1]
    assert give["t"] == "move" and give["from"] == "hand of player 1" and give["to"] == "table of player 2"
    assert log[i + 2]["t"] == "tally"
    # player 2's table: the plain 4 they traded for, and the plain 1 given on by the echo
    assert log[i + 2]["scores"][1]["points"] == 4 + 1


def test_tally_adds_rounds_and_notes_keep_the_latest(game):
    st = game.new_state(2, seed=5, log=True)
    rounds = []
    while not st.finished:
        for d in st.pending():
            st.apply(d.player, d.default or d.options[0].id, 0.4 + d.player / 10 if d.timed else None)
        rounds = [e for e in st.log if e["t"] == "tally"]
    assert len(rounds) == 2
    final = st.scores()
    for p in range(2):
        assert final[p]["points"] == rounds[0]["scores"][p]["points"] + rounds[1]["scores"][p]["points"]
        assert final[p]["total"] == final[p]["points"]
        assert final[p]["echoes"] == rounds[1]["scores"][p]["echoes"]    # a note: the latest tally
        assert rounds[1]["totals"][p]["points"] == final[p]["points"]


def test_scores_while_playing_count_what_a_tally_would_add(game):
    st = game.new_state(2, seed=5)
    now = st.scores()
    assert st.c.get("#tally") is None
    assert [r["points"] for r in now] == [sum(game.program.card_attrs[c]["value"] for c in zone(st, "table", p))
                                          for p in range(2)]


TIE = """catrules 1
game "Tie"
players 2 to 3
cards token in pool:
    3 cards with value 1
zone pool: shared, public
zone mine: per player, public
flow:
    for each player p:
        move top(pool) to mine of p
    tally
score:
    points = sum(mine, value)
winner:
    highest total
    ties race
"""


def test_ties_race_among_tied_players_only_and_the_fastest_wins():
    g = load_source(TIE)
    st = g.new_state(3, seed=1)
    ds = st.pending()
    assert sorted(d.player for d in ds) == [0, 1, 2]
    assert all(d.timed and d.kind == "race" for d in ds)
    assert [o.id for o in ds[0].options] == ["slap"]
    st.apply(0, "slap", 0.9)
    st.apply(1, "slap", 0.3)
    st.apply(2, "slap", 0.5)
    assert st.finished
    assert st.winners() == [1]
    assert [r["total"] for r in st.scores()] == [1, 1, 1]


def test_ties_race_is_not_run_without_a_tie():
    src = TIE.replace("3 cards with value 1", "card with value 1\n    card with value 2\n    card with value 3")
    g = load_source(src)
    st = g.new_state(3, seed=1)
    assert st.finished and st.pending() == []
    assert st.winners() == [0]          # the first player took the top card, the 3


def test_tie_race_survives_save_and_resume():
    g = load_source(TIE)
    st = g.new_state(2, seed=1)
    st.apply(0, "slap", 0.7)
    st2 = g.restore(st.to_dict())
    st2.apply(1, "slap", 0.2)
    assert st2.winners() == [1]


def test_end_game_still_runs_the_tie_race():
    src = TIE.replace("    tally\n", "    tally\n    end game\n")
    st = load_source(src).new_state(2, seed=1)
    assert [d.player for d in st.pending()] == [0, 1]


@pytest.mark.parametrize("src, msg", [
    (TIE.replace("    tally\n", "    tally\n").replace("score:\n    points = sum(mine, value)\n", ""),
     "`tally` with no `score:` block"),
    (TIE.replace("flow:", "when card c enters mine of q from heap:\n    stop\nflow:"), "unknown zone `heap`"),
    (TIE.replace("flow:", "when card c enters mine of q from pool of r:\n    tally\nflow:"),
     "zone `pool` is shared"),
    (TIE.replace("flow:", "when card c enters mine of q from mine of q:\n    tally\nflow:"),
     "names two things"),
])
def test_checker_errors_for_the_new_constructs(src, msg):
    with pytest.raises(CatrulesError) as e:
        load_source(src)
    assert msg in str(e.value)
