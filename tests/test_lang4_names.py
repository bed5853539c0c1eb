"""Language 4: values in a menu move's name, and card rows whose copy count is worked out
from values (``(EXPR) cards``)."""

import json
from pathlib import Path

import pytest

import catrules
from catrules.authoring.fmt import format_text
from catrules.authoring.prose import prose
from catrules.bots.basic import make_seat
from catrules.errors import GameFileError
from catrules.play.logs import LogWriter
from catrules.play.match import Match
from catrules.play.replay import replay
from catrules.testing import ScriptedSeat

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"

MENU = """catrules {v}
game "M"
players 2 to 2
cards chip in bag:
    for each value in 1 to 6:
        card
zone bag: shared, hidden, pile
zone pot: shared, public, pile
zone hand: per player, owner, pile
flow:
    shuffle bag
    for each player p:
        move top(bag, 2) to hand of p
    move top(bag) to pot
    for each player p:
        c = first(hand of p)
        p chooses{default}:
            "keep {{c}} (pot {{count(pot)}})":
                move c to pot
            "spy {{first(hand of next(p))}}" if any(hand of next(p)):
                do nothing
            "pass":
                do nothing
"""

KEEP = "keep {c} (pot {count(pot)})"
SPY = "spy {first(hand of next(p))}"


def menu(v=4, default=""):
    return MENU.format(v=v, default=default)


def errors(src):
    with pytest.raises(GameFileError) as exc:
        catrules.load_source(src, "t.cat")
    return exc.value.diagnostics


def faces(game):
    return game.program.card_face


# ------------------------------------------------------------------ menu names: parse, check

def test_a_menu_name_with_values_is_parsed_as_a_text_and_its_id_is_as_written():
    g = catrules.load_source(menu(), "t.cat")
    st = g.new_state(2, seed=4)
    d = st.pending()[0]
    assert [o.id for o in d.options] == [KEEP, SPY, "pass"]
    mine = st.values_for(0)
    assert mine == [KEEP, SPY, "pass"]
    c = st.frames[-1].vars["c"]
    assert d.options[0].label == f"keep {faces(g)[c]} (pot 1)"
    assert "{" not in d.options[1].label and d.options[2].label == "pass"


def test_the_label_hides_a_card_the_chooser_cannot_see():
    for visibility, hidden in (("owner", True), ("public", False)):
        src = menu().replace("zone hand: per player, owner, pile", f"zone hand: per player, {visibility}, pile")
        g = catrules.load_source(src, "t.cat")
        for seed in range(3):
            st = g.new_state(2, seed=seed)
            theirs = next(z for z in st.view(1)["zones"] if z["zone"] == "hand" and z["owner"] == 1)
            faces_ = {f"spy {c['label']}" for c in theirs["cards"]}
            label = st.pending()[0].options[1].label
            seen = st.view(0)["decisions"][0]["options"][1]     # what the web page and views carry
            assert seen["id"] == SPY and seen["label"] == label
            if hidden:
                assert label == "spy a hidden card"
            else:
                assert label in faces_


def test_each_viewer_reads_the_values_as_they_are_now():
    g = catrules.load_source(menu(), "t.cat")
    st = g.new_state(2, seed=2)
    first = st.pending()[0]
    assert first.options[0].label.endswith("(pot 1)")
    st.apply(0, KEEP)                       # player 1's card goes to the pot
    second = st.pending()[0]
    assert second.player == 1
    assert second.options[0].label.endswith("(pot 2)")
    assert [o.id for o in second.options] == [o.id for o in first.options]   # ids stable


def test_default_names_the_move_as_written():
    g = catrules.load_source(menu(default=' default "keep {c} (pot {count(pot)})"'), "t.cat")
    st = g.new_state(2, seed=1)
    assert st.pending()[0].default == KEEP


def test_a_default_that_names_no_move_is_an_error():
    ds = errors(menu(default=' default "keep {c}"'))
    assert any('no choice "keep {c}"' in d.message for d in ds)


def test_the_values_of_a_menu_name_are_checked_with_line_and_column():
    src = menu().replace("{count(pot)}", "{count(pott)}").replace("{first(hand of next(p))}", "{c.valu}")
    ds = errors(src)
    msgs = {d.message: d for d in ds}
    pott = msgs["unknown name `pott`"]
    assert (pott.line, pott.column) == (18, src.splitlines()[17].index("pott") + 1)
    assert "pot" in pott.hint
    valu = msgs["unknown attribute `valu`"]
    assert valu.line == 20 and src.splitlines()[19][valu.column - 1:].startswith("valu")


def test_a_menu_name_with_a_bad_brace_is_an_error():
    ds = errors(menu().replace('"pass":', '"pass {":'))
    assert any("`{` with no `}`" in d.message for d in ds)


def test_two_moves_with_the_same_name_as_written_are_an_error():
    ds = errors(menu().replace('"pass":', '"keep {c} (pot {count(pot)})":'))
    assert any("offered twice" in d.message for d in ds)


def test_an_older_file_keeps_the_braces_and_gets_a_warning():
    g = catrules.load_source(menu(v=3), "t.cat")
    warns = [w for w in g.warnings if "braces" in w.message]
    assert len(warns) == 2
    assert warns[0].severity == "warning" and warns[0].line == 18 and "catrules 4" in warns[0].hint
    st = g.new_state(2, seed=4)
    d = st.pending()[0]
    assert [o.label for o in d.options] == [KEEP, SPY, "pass"]      # shown as written


def test_an_older_file_with_a_wrong_value_in_braces_still_checks():
    src = menu(v=3).replace("{count(pot)}", "{nothing_here}")
    g = catrules.load_source(src, "t.cat")
    assert any("braces" in w.message for w in g.warnings)


def test_a_file_of_language_4_without_braces_has_no_warning():
    g = catrules.load_game(EXAMPLES / "menu.cat")
    assert not [w for w in g.warnings if "braces" in w.message]


# ------------------------------------------------------------------ menu names: play, logs, saves

def test_a_log_keeps_the_ids_and_replays(tmp_path):
    path = tmp_path / "m.cat"
    path.write_text(menu(), encoding="utf-8")
    g = catrules.load_game(path)
    log = tmp_path / "g.jsonl"
    state = g.new_state(2, seed=5, log=True)
    seats = [ScriptedSeat([KEEP]), ScriptedSeat([SPY])]
    match = Match(g, state, seats)
    with LogWriter(log, g, 2, (), 5, ["scripted", "scripted"]) as w:
        w.attach(match)
        match.run()
    events = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    options = [e["option"] for e in events if e.get("event") == "decision"]
    assert options == [KEEP, SPY]
    rep = replay(log)
    assert rep.ok, rep.format()


def test_a_scripted_seat_may_name_the_move_by_its_label():
    g = catrules.load_source(menu(), "t.cat")
    st = g.new_state(2, seed=5, log=True)
    label = st.pending()[0].options[2].label
    match = Match(g, st, [ScriptedSeat([label]), ScriptedSeat(["pass"])])
    match.run()
    assert st.history == [[0, "pass"], [1, "pass"]]


def test_a_saved_state_restores_with_the_same_ids_and_labels():
    g = catrules.load_source(menu(), "t.cat")
    st = g.new_state(2, seed=6)
    st.apply(0, SPY)
    before = st.pending()[0]
    back = g.restore(json.loads(json.dumps(st.to_dict())))
    after = back.pending()[0]
    assert [(o.id, o.label) for o in after.options] == [(o.id, o.label) for o in before.options]


def test_bots_play_the_example_with_values():
    g = catrules.load_game(EXAMPLES / "menu-values.cat")
    for players in (2, 3):
        for spec in ("random", "greedy"):
            st = g.new_state(players, seed=players, log=True)
            Match(g, st, [make_seat(spec) for _ in range(players)]).run()
            assert st.over
            chosen = [e["option"] for e in st.log if e["t"] == "decision"]
            assert chosen and all(o in ("keep {c}", "take {top(pot)} (with {count(pot)} chips)") for o in chosen)


def test_the_terminal_shows_the_filled_in_label():
    from catrules.frontends.painter import Painter
    g = catrules.load_source(menu(), "t.cat")
    st = g.new_state(2, seed=4)
    d = st.pending()[0]
    shown = [Painter(g, me=0, names=["a", "b"]).option(o).plain for o in d.options]
    assert shown == [o.label for o in d.options]
    assert shown[0].startswith("keep ") and "{" not in shown[0] and shown[1] == "spy a hidden card"


def test_prose_says_the_menu_name_with_its_values():
    g = catrules.load_source(menu(), "t.cat")
    text = prose(g)
    assert "spy [the first card of" in text and "{first" not in text


def test_fmt_keeps_a_menu_name_with_values():
    src = format_text(menu())
    assert format_text(src) == src
    assert '        "keep {c} (pot {count(pot)})":\n' in src and '"spy {first(hand of next(p))}" if' in src


# ------------------------------------------------------------------ copy counts

COPIES = """catrules {v}
game "C"
players 2 to 2
cards tile in deck:
{rows}
zone deck: shared, hidden, pile
zone hand: per player, owner, pile
flow:
    shuffle deck
    for each player p:
        move top(deck) to hand of p
"""


def copies(rows, v=4):
    return COPIES.format(v=v, rows=rows)


def rows_of(src):
    from catrules.lang.parser import parse
    g = parse(src, "t.cat")
    return [(r.copies, dict(r.attrs)) for r in g.cards[0].rows]


def test_a_count_from_the_loop_variable():
    src = copies("    for each value in 1 to 5:\n        (value) cards\n")
    assert rows_of(src) == [(n, {"value": n}) for n in range(1, 6)]
    g = catrules.load_source(src, "t.cat")
    assert g.card_count == 15


def test_arithmetic_if_and_symbols_in_a_count():
    src = copies("    for each kind in wild, plain:\n"
                 "        for each value in 1 to 3:\n"
                 "            (if kind == wild then 2 else 13 - value * 4) cards\n")
    assert [n for n, _ in rows_of(src)] == [2, 2, 2, 9, 5, 1]
    g = catrules.load_source(src, "t.cat")
    assert g.card_count == 21


def test_a_count_of_zero_makes_no_card_and_with_blocks_are_seen():
    src = copies("    with colour red:\n        for each value in 0 to 2:\n"
                 "            (if colour == red then value % 2 else 5) cards with shade dark\n")
    assert rows_of(src) == [(1, {"colour": "red", "value": 1, "shade": "dark"})]


def test_the_rules_list_the_resulting_cards():
    g = catrules.load_game(EXAMPLES / "copies.cat")
    assert g.card_count == 38
    text = prose(g)
    assert "38 step cards" in text


@pytest.mark.parametrize("rows, message, hint", [
    ("    for each value in 1 to 4:\n        (valu) cards\n", "unknown name `valu`", "`value`"),
    ("    for each value in 1 to 4:\n        (3 - value) cards\n", "this copy count is -1 here (value 4)",
     "0 or more"),
    ("    for each kind in a, b:\n        (kind == a) cards\n", "true or false, not a whole number",
     "whole number"),
    ("    for each value in 0 to 2:\n        (6 / value) cards\n", "`/` by zero", "other than 0"),
    ("    for each value in 1 to 2:\n        (count(deck)) cards\n", "a copy count cannot say this", "loops"),
    ("    for each kind in a, b:\n        (kind + 1) cards\n", "`+` needs whole numbers", "loops"),
])
def test_a_bad_count_is_a_located_error_with_a_hint(rows, message, hint):
    src = copies(rows)
    ds = errors(src)
    bad = [d for d in ds if message in d.message]
    assert len(bad) == 1, [d.message for d in ds]          # reported once, not once per card
    d = bad[0]
    assert d.line == 6 and d.column > 9 and hint in d.hint
    assert d.format().startswith("t.cat:6:")


def test_a_count_beyond_the_deck_limit_is_an_error():
    ds = errors(copies("    for each value in 1 to 3:\n        (value * 1000000) cards\n"))
    assert any("more than" in d.message and "cards" in d.message for d in ds)


def test_an_older_file_gets_the_language_4_error():
    ds = errors(copies("    for each value in 1 to 3:\n        (value) cards\n", v=3))
    assert [d.message for d in ds] == \
        ["a copy count worked out from values (`(EXPR) cards`) is language 4, and this file says `catrules 3`"]
    assert ds[0].line == 6 and ds[0].hint == "write `catrules 4` on the first line"


def test_fmt_prints_a_count_canonically():
    ugly = copies("    for each value in 1 to 3:\n        ( 13-value )  cards   with bonus -1\n")
    nice = copies("    for each value in 1 to 3:\n        (13 - value) cards with bonus -1\n")
    assert format_text(ugly) == format_text(nice)
    assert "        (13 - value) cards with bonus -1\n" in format_text(ugly)
    assert rows_of(format_text(ugly)) == rows_of(ugly)


def test_plain_rows_keep_their_meaning():
    src = copies("    3 cards with value -1\n    card with value 2\n")
    assert rows_of(src) == [(3, {"value": -1}), (1, {"value": 2})]
    assert "    3 cards with value -1\n    card with value 2\n" in format_text(src)


def test_the_examples_play_at_every_player_count():
    for name in ("copies.cat", "menu-values.cat"):
        g = catrules.load_game(EXAMPLES / name)
        assert not g.warnings
        for n in range(g.min_players, g.max_players + 1):
            st = g.new_state(n, seed=n)
            Match(g, st, [make_seat("random") for _ in range(n)]).run()
            assert st.over


def test_a_loop_name_in_a_row_is_the_loop_value_in_language_4_only():
    rows = "    for each n in 1 to 3:\n        (n) cards with value n\n    with kind n:\n        card\n"
    assert rows_of(copies(rows)) == [(1, {"n": 1, "value": 1}), (2, {"n": 2, "value": 2}),
                                     (3, {"n": 3, "value": 3}), (1, {"kind": "n"})]
    old = copies(rows.replace("(n) cards", "2 cards"), v=3)
    got = rows_of(old)
    assert [r[1]["value"] for r in got[:3]] == ["n", "n", "n"] and got[0][0] == 2
    assert catrules.load_source(old, "t.cat").card_count == 7
