"""Grammar, parser and checker: positions, hints, and the meaning checks."""

from pathlib import Path

import pytest

import catrules
from catrules.lang import ast
from catrules.errors import GameFileError
from catrules.lang.parser import parse

ROOT = Path(__file__).resolve().parents[1]

HEAD = 'catrules 1\ngame "T"\nplayers 2 to 4\n'
BASE = HEAD + """cards token in deck:
    for each value in 1 to 3:
        card with colour red
zone deck: shared, hidden
zone hand: per player, owner
"""


def errors(src):
    with pytest.raises(GameFileError) as exc:
        catrules.load_source(src, "t.cat")
    return exc.value.diagnostics


def one_error(src):
    ds = errors(src)
    return ds[0]


# ------------------------------------------------------------------- grammar

def test_every_shipped_game_and_example_parses_and_checks():
    files = sorted((ROOT / "games").glob("*.cat")) + sorted((ROOT / "tests" / "games").glob("*.cat"))
    assert files
    for f in files:
        g = catrules.load_game(f)
        assert g.title


def test_card_rows_expand_for_each_and_with():
    g = parse(HEAD + """cards c in deck:
    with kind a:
        for each value in 1, 2:
            2 cards
    3 cards with kind b, value -1, tags [x, y], label "A b"
zone deck: shared
flow:
    shuffle deck
""")
    rows = g.cards[0].rows
    assert [(r.copies, r.attrs) for r in rows] == [
        (2, {"kind": "a", "value": 1}), (2, {"kind": "a", "value": 2}),
        (3, {"kind": "b", "value": -1, "tags": ("x", "y"), "label": "A b"})]
    assert isinstance(rows[0].attrs["kind"], ast.Sym) and not isinstance(rows[2].attrs["label"], ast.Sym)


def test_syntax_error_has_position_caret_and_hint():
    d = one_error(BASE + "flow\n    shuffle deck\n")
    assert (d.line, d.column) == (9, 5)
    text = d.format()
    assert text.startswith("t.cat:9:5: error:")
    assert "flow" in text.splitlines()[1]
    assert text.splitlines()[2].strip() == "^"
    assert "`:`" in d.hint


def test_unexpected_character_is_explained():
    d = one_error(BASE + "flow:\n    shuffle deck $\n")
    assert d.line == 10 and "unexpected character `$`" in d.message


def test_a_phase_given_parameters_points_to_an_action():
    # a newcomer's first guess for "a turn of player p"; the hint names the action that says it
    d = one_error(BASE + "flow:\n    for each player p:\n        play turn(p)\nphase turn:\n    shuffle deck\n")
    assert (d.line, d.column) == (11, 18)
    assert "`action turn(p):`" in d.hint and "`do turn(p)`" in d.hint
    d = one_error(BASE + "flow:\n    do turn(1, 2)\nphase turn(who, n):\n    shuffle deck\n")
    assert (d.line, d.column) == (11, 11)
    assert "`action turn(who, n):`" in d.hint and "`do turn(who, n)`" in d.hint


def test_habits_of_other_languages_are_named_with_the_form_to_write():
    # the parser stopped after the first word ("unexpected `sum`"); the word is what is wrong
    d = one_error(BASE + "counter n = 0\nflow:\n    while n < 3:\n        add 1 to n\n")
    assert (d.line, d.column) == (11, 5)
    assert d.message == "a statement does not start with `while`" and "`repeat while CONDITION:`" in d.hint
    d = one_error(BASE + "counter n = 0\nflow:\n    if n > 1:\n        n = 0\n    elif n < 0:\n        n = 1\n")
    assert (d.line, d.message, d.hint) == (13, "`elif` is not a word of the language", "write `else if CONDITION:`")
    d = one_error(BASE + 'flow:\n    say "hello"\n')
    assert d.message == "`say` is not a word of the language" and '`announce "..."`' in d.hint
    # a name of the file's own is not taken for a habit: its mistake is named as it is
    d = one_error(BASE + "counter draw of each player = 0\nflow:\n    draw of first(players) == 3\n")
    assert (d.message, d.hint) == ("the line ends too early", "expected `=`")


def test_words_in_another_order_and_a_double_slash_get_the_form_to_write():
    d = one_error(BASE + "flow:\n    each player p secretly chooses c from hand of p:\n        shuffle deck\n")
    assert d.hint.startswith("everyone choosing at once is `secretly each player p chooses c from ...:`")
    d = one_error(BASE + "counter n = 0\nflow:\n    n = count(deck) // 2\n")
    assert (d.message, d.hint) == ("unexpected `/`", "`/` divides whole numbers and rounds down already: "
                                                     "write one `/`")


@pytest.mark.parametrize("rules, place, hint", [
    ("action deal(p):\n    move top(deck) to hand of p\nflow:\n    for each player p:\n        deal(p)\n",
     (13, 13), "`deal` is an action: run it with `do deal(p)`"),
    ("flow:\n    shuffle deck\n    deal_all()\n",
     None, "a statement does not start with a call: `do deal_all()` runs an action"),
    ("define half(n) = n / 2\nflow:\n    half(4)\n",
     None, "`half` is a definition: it gives a value, to use where a value goes (`x = half(4)`)"),
], ids=["action", "no-such-action", "definition"])
def test_an_action_run_without_do_is_told_how_to_run_it(rules, place, hint):
    d = one_error(BASE + rules)
    if place is not None:
        assert (d.line, d.column) == place
    assert d.hint == hint


def test_one_equals_sign_in_a_condition_is_taken_for_a_comparison():
    d = one_error(BASE + "flow:\n    if count(deck) = 3:\n        shuffle deck\n")
    assert (d.line, d.column, d.message) == (10, 20, "unexpected `=`")
    assert d.hint.startswith("to compare two values write `==`")


def test_a_bracket_left_open_is_pointed_at_not_the_next_line():
    # the line goes on while a bracket is open, so the parser stops on the next line
    d = one_error(BASE + "flow:\n    move top(deck to hand of first(players)\n    shuffle deck\n")
    assert (d.line, d.column, d.message) == (10, 13, "this `(` is not closed")
    assert d.hint.startswith("close it with `)`") and "(line 11)" in d.hint


def test_a_tab_in_the_indentation_is_named():
    # a tab counts as four spaces: here it does not indent the block deeper than its line
    d = one_error(BASE + "flow:\n    repeat 2 times:\n\tshuffle deck\n")
    assert (d.line, d.message) == (11, "a tab in this line's indentation")
    assert d.hint.startswith("indent with spaces")
    # a file indented with tabs throughout plays; its other mistakes are named as they are
    d = one_error(BASE + "flow:\n\tshuffle deck\n\tif true\n\t\tshuffle deck\n")
    assert (d.line, d.message, d.hint) == (11, "the line ends too early", "expected `:`")


def test_bad_indentation_is_located():
    d = one_error(BASE + "flow:\n    shuffle deck\n  shuffle deck\n")
    assert d.line == 11 and "indentation" in d.message


def test_a_misspelled_first_word_is_named_with_the_nearest_word():
    d = one_error(BASE + "flow:\n    shufle deck\n")
    assert (d.line, d.column) == (10, 5)
    assert d.message == "`shufle` is not a word of the language" and d.hint == "did you mean `shuffle`?"
    d = one_error(BASE + "flow:\n    for each player p:\n        mvoe top(deck) to hand of p\n")
    assert (d.line, d.column) == (11, 9) and d.hint == "did you mean `move`?"


def test_a_first_word_near_no_word_keeps_the_parser_message():
    d = one_error(BASE + "flow:\n    zzq deck\n")
    assert d.message == "unexpected `deck`" and "did you mean" not in d.hint


def test_an_unexpected_indentation_points_at_the_indented_line():
    # the block's first line sets its indentation: the next line, deeper, opens nothing
    d = one_error(BASE + "flow:\n   shuffle deck\n\n    # why\n    shuffle deck\n")
    assert (d.line, d.column) == (13, 5) and d.message == "unexpected indentation"
    assert "ending with `:`" in d.hint


def test_a_text_left_open_is_named():
    d = one_error(BASE + 'flow:\n    announce "hello\n')
    assert (d.line, d.column) == (10, 14) and d.message == "a text that is not closed"
    assert 'end the text with `"`' in d.hint


def test_a_file_without_its_version_line_is_told_to_start_with_one():
    d = one_error('game "T"\nplayers 2 to 4\n')
    assert (d.line, d.column) == (1, 1) and "`catrules " in d.hint and "first line" in d.hint


def test_file_ending_too_early():
    d = one_error(BASE + "flow:\n")
    assert "ends too early" in d.message or "end" in d.message


def test_keyword_cannot_name_a_zone():
    d = one_error(BASE + "zone move: shared\nflow:\n    shuffle deck\n")
    assert d.line == 9 and "word of the language" in d.message


# ------------------------------------------------------------------- checker

def test_unknown_zone_suggests_the_nearest_name():
    d = one_error(BASE + "flow:\n    move top(deck) to hnd of 1\n")
    assert "unknown" in d.message and "hnd" in d.message
    assert d.hint == "did you mean `hand`?"
    assert (d.line, d.column) == (10, 23)


def test_every_error_is_reported_not_just_the_first():
    ds = errors(BASE + "flow:\n    shuffle dek\n    move top(deck) to hnd of 1\n    play nowhere\n")
    assert [d.line for d in ds] == [10, 11, 12]


def test_unknown_attribute_and_symbol():
    ds = errors(BASE + "flow:\n    x = count(deck where colur == red)\n    y = count(deck where colour == rde)\n")
    msgs = " | ".join(d.message + " " + d.hint for d in ds)
    assert "colur" in msgs and "did you mean `colour`?" in msgs
    assert "rde" in msgs and "did you mean `red`?" in msgs


def test_wrong_argument_counts():
    ds = errors(BASE + "define twice(x) = x * 2\naction deal(p, n):\n    move top(deck, n) to hand of p\n"
                       "flow:\n    a = count(deck, 2)\n    b = twice(1, 2)\n    do deal(1)\n")
    msgs = [d.message for d in ds]
    assert "`count` takes 1 argument(s), not 2" in msgs
    assert "`twice` takes 1 argument(s), not 2" in msgs
    assert "action `deal` takes 2 argument(s), not 1" in msgs


def test_unreachable_phase_is_an_error():
    d = one_error(BASE + "phase lost:\n    shuffle deck\nflow:\n    shuffle deck\n")
    assert d.message == "phase `lost` is never played" and d.line == 9


def test_phase_playing_itself_is_an_error():
    d = one_error(BASE + "phase a:\n    play a\nflow:\n    play a\n")
    assert "plays itself" in d.message


def test_per_player_zone_needs_an_owner():
    d = one_error(BASE + "flow:\n    shuffle hand\n")
    assert "belongs to each player" in d.message and d.hint == "write `hand of p`"


def test_shared_zone_cannot_have_an_owner():
    d = one_error(BASE + "flow:\n    shuffle deck of 1\n")
    assert "shared" in d.message


def test_unknown_zone_property():
    d = one_error(HEAD + "cards token in deck:\n    card\nzone deck: shared, hiden\nflow:\n    shuffle deck\n")
    assert "unknown zone property `hiden`" in d.message and "hidden" in d.hint


def test_newer_language_version_is_refused_with_a_clear_message():
    from catrules import LANGUAGE_VERSION
    newer = LANGUAGE_VERSION + 1
    d = one_error(f'catrules {newer}\ngame "T"\nplayers 2 to 4\n')
    assert f"catrules language {newer}" in d.message and "upgrade" in d.hint


def test_a_version_1_file_plays_but_may_not_use_what_version_2_added():
    from catrules import api
    old = (Path(__file__).parent / "games" / "reveal.cat").read_text().replace("catrules 2", "catrules 1", 1)
    api.load_source(old, "old.cat").new_state(3, seed=1)              # a version 1 file still works
    new = (Path(__file__).parent / "games" / "passing.cat").read_text().replace("catrules 2", "catrules 1", 1)
    with pytest.raises(GameFileError) as e:
        api.load_source(new, "old.cat")
    msgs = [(d.line, d.message) for d in e.value.diagnostics]
    assert msgs == [(25, "choosing several cards at once is language 2, and this file says `catrules 1`"),
                    (30, "`openly` is language 2, and this file says `catrules 1`")]
    assert all(d.hint == "write `catrules 2` on the first line" for d in e.value.diagnostics)


def test_stop_outside_a_loop():
    d = one_error(BASE + "flow:\n    stop\n")
    assert "`stop` outside a loop" in d.message


def test_player_outside_a_player_context():
    d = one_error(BASE + "flow:\n    x = player\n")
    assert "`player` means nobody here" in d.message


def test_a_refused_name_is_reported_once_not_at_each_use():
    # `highest` is a word of the language: the definition is refused, and its three uses
    # (a name, a call's argument, an `of`) are not reported again as unknown names
    ds = errors(BASE + "define highest = 3\nflow:\n    x = highest + count(hand of highest)\n"
                       "    if x > first(highest):\n        shuffle deck\n")
    assert [d.line for d in ds] == [9] and "word of the language" in ds[0].message


def test_duplicate_names():
    d = one_error(BASE + "counter deck = 0\nflow:\n    shuffle deck\n")
    assert "already the name of a zone" in d.message


def test_missing_flow():
    d = one_error(BASE)
    assert "no `flow:` block" in d.message


def test_trigger_cycle_warning_only_when_nothing_is_consumed():
    src = BASE + "zone a: shared\nzone b: shared\nwhen card c enters a:\n    move c to b\n" \
                 "when card c enters b:\n    move c to a\nflow:\n    move top(deck) to a\n"
    with pytest.raises(catrules.RulesError):
        catrules.load_source(src, "t.cat").new_state(players=2, seed=1)
    g = catrules.load_source(src, "t.cat")
    assert len(g.warnings) == 1 and "forever" in g.warnings[0].message
    consuming = BASE + "zone a: shared\nwhen card c enters a:\n    move top(deck) to a\nflow:\n    move top(deck) to a\n"
    assert catrules.load_source(consuming, "t.cat").warnings == []


def test_missing_file_is_a_game_file_error():
    with pytest.raises(GameFileError) as exc:
        catrules.load_game(ROOT / "no-such-file.cat")
    assert "cannot read" in str(exc.value)


def test_unknown_option_and_player_count_are_refused_at_start():
    g = catrules.load_game(ROOT / "games" / "meow.cat")
    with pytest.raises(catrules.CatrulesError, match="expert"):
        g.new_state(players=3, options=["exprt"])
    with pytest.raises(catrules.CatrulesError, match="2 to 6"):
        g.new_state(players=7)


def test_an_unknown_name_in_other_capitals_or_a_function_without_brackets():
    d = one_error(BASE + "counter again = False\nflow:\n    shuffle deck\n")
    assert (d.message, d.hint) == ("unknown name `False`", "names are case-sensitive: write `false`")
    d = one_error(BASE + "flow:\n    for each player p in others:\n        shuffle deck\n")
    assert d.message == "unknown name `others`" and d.hint.startswith("`others` is a function")


def test_an_unknown_word_compared_with_a_card_attribute_lists_the_attributes_words():
    src = BASE.replace("card with colour red", "card with colour red\n        card with colour blue")
    d = one_error(src + "flow:\n    move deck where colour == purple to deck\n")
    assert (d.message, d.hint) == ("unknown name `purple`", "a card's `colour` is one of `red`, `blue`")
    d = one_error(src + "flow:\n    if top(deck).colour in [red, bleu]:\n        shuffle deck\n")
    assert d.hint == "did you mean `blue`? a card's `colour` is one of `red`, `blue`"
