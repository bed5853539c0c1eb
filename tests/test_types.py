"""The checker's types: each test is a small game that a check of its own catches (or, for
the runtime fixes, that plays differently) and that passed unnoticed before."""

from pathlib import Path

import pytest

import catrules
from catrules.errors import GameFileError

ROOT = Path(__file__).resolve().parent.parent

HEAD = """catrules 2
game "T"
players 3 to 3
cards token in deck:
    for each value in 1 to 4:
        card with colour green, bonus 10
zone deck: shared, hidden
zone hand: per player, owner
zone pile: shared
"""


def errors(src):
    with pytest.raises(GameFileError) as exc:
        catrules.load_source(src, "t.cat")
    return [d for d in exc.value.diagnostics if d.severity == "error"]


def only_error(src):
    ds = errors(src)
    assert len(ds) == 1, [d.format() for d in ds]
    return ds[0]


def deal(body):
    return "setup:\n    for each player p:\n        move top(deck) to hand of p\n" + body


# --------------------------------------------------- 1. values of the wrong type

def test_comparing_a_player_with_a_symbol_is_an_error():
    d = only_error(HEAD + "flow:\n    for each player p:\n        if p == green:\n            announce \"x\"\n")
    assert (d.line, d.column) == (12, 12)
    assert d.message == "this compares a player with a symbol, so it is always false"
    assert "compare like with like" in d.hint


def test_repeat_needs_a_number_not_a_zone():
    d = only_error(HEAD + "counter leader = 0\nflow:\n    repeat hand of leader times:\n        announce \"x\"\n")
    assert (d.line, d.column) == (12, 12)
    assert d.message == "`repeat ... times` needs a number; this is a zone of cards"
    assert d.hint == "count a list first: `repeat count(hand of p) times:`"


def test_a_counter_that_may_be_none_needs_a_guard_before_zone_of():
    # the last value set may be none (set to a value that is never none, it would be narrowed)
    src = HEAD + "counter current = none\nflow:\n    current = best(players, count(hand of it))\n" \
        "    current = first(hand of 0).value\n    move top(deck) to hand of current\n"
    d = only_error(src)
    assert (d.line, d.column) == (14, 31)
    assert d.message == "`hand of ...` needs a player, and this may be none"
    assert d.hint == "check it first: `if current != none:` (or `current != none and ...`)"


@pytest.mark.parametrize("use", [
    "    if current != none:\n        move top(deck) to hand of current\n",
    "    if current == none:\n        announce \"none\"\n    else:\n        move top(deck) to hand of current\n",
    "    if current != none and count(hand of current) > 0:\n        announce \"x\"\n",
    "    n = if current == none then 0 else count(hand of current)\n    announce \"n\"\n    add n to turns\n",
])
def test_a_guard_narrows_maybe_none(use):
    src = HEAD + "counter current = none\ncounter turns = 0\nflow:\n" \
        "    current = best(players, count(hand of it))\n" + use
    catrules.load_source(src, "t.cat")


def test_next_needs_a_player_and_owner_a_card():
    d = only_error(HEAD + "flow:\n    for each c in deck:\n        move c to hand of next(c)\n")
    assert (d.line, d.column) == (12, 32)
    assert d.message == "`next` needs a player; this is a card"
    d = only_error(HEAD + "flow:\n    for each player p:\n        move top(deck) to hand of owner(p)\n")
    assert d.message == "`owner` needs a card; this is a player"
    d = only_error(HEAD + "counter last = none\nflow:\n    last = last(players where count(hand of it) > 1)\n"
                          "    move top(deck) to hand of next(last)\n")
    assert (d.line, d.column) == (13, 36)
    assert d.message == "`next` needs a player, and this may be none"


def test_arithmetic_on_what_may_be_none():
    d = only_error(HEAD + "counter total = 0\nflow:\n    total = top(deck).value + 1\n")
    assert (d.line, d.column) == (12, 23)
    assert d.message == "`+` needs a number, and this may be none"
    assert d.hint == "check it first: `if top(deck).value != none:` (or `top(deck).value != none and ...`)" \
        or d.hint == "check it is not none first"


def test_first_of_a_list_known_not_to_be_empty_is_someone():
    catrules.load_source(HEAD + "flow:\n    w = players where count(hand of it) > 0\n"
                                "    if count(w) == 1:\n        move top(deck) to hand of first(w)\n", "t.cat")


# --------------------------------------------------------- 2. misspelt assignment

def test_setting_a_misspelt_counter_is_an_error():
    src = HEAD + "counter first_player = 0\nflow:\n    first_playr = next(first_player)\n" \
        "    move top(deck) to hand of first_player\n"
    d = only_error(src)
    assert (d.line, d.column) == (12, 5)
    assert d.message == "`first_playr` is set here but never used: it is a new local variable, not a counter"
    assert d.hint == "did you mean `first_player`?"


def test_a_local_that_is_read_is_fine():
    catrules.load_source(HEAD + "flow:\n    q = next(0)\n    move top(deck) to hand of q\n", "t.cat")


# ------------------------------------------------------- 3. a card value's name

def test_a_card_value_with_the_name_of_a_counter_is_an_error():
    d = only_error(HEAD + "counter green = 0\nflow:\n    add 1 to green\n")
    assert (d.line, d.column) == (6, 9)
    assert d.message == "card value `green` is also the name of a counter"
    assert "rename the value or the counter" in d.hint


def test_a_card_value_may_share_the_name_of_an_action():
    catrules.load_source(HEAD + "action green(p):\n    move top(deck) to hand of p\n"
                                "flow:\n    do green(0)\n", "t.cat")


# -------------------------------------------------- 4. players stay players

PLAYERS = HEAD + """counter victim = none
define targets(p) = others(p)
flow:
    for each player p:
        p chooses t from [next(p), previous(p)]
        p chooses u from targets(p)
        victim = u
"""


def test_players_from_a_list_literal_and_a_definition_are_offered_as_players():
    g = catrules.load_source(PLAYERS, "t.cat")
    st = g.new_state(players=3, seed=1)
    (d,) = st.pending()
    assert [(o.id, o.label) for o in d.options] == [("p2", "player 2"), ("p3", "player 3")]
    st.apply(0, "p2")
    (d,) = st.pending()
    assert [(o.id, o.label) for o in d.options] == [("p2", "player 2"), ("p3", "player 3")]
    st.apply(0, "p3")
    assert st.view(None)["counters"]["victim"] == {"player": 2}


# --------------------------------------------------- 5. naming the element

def test_a_named_element_leaves_the_outer_it_alone():
    src = deal("flow:\n    announce \"x\"\n") + \
        "score:\n    beats = count(hand of player where count(each d in deck where d.value < it.value) > 0)\n" \
        "    total_value = sum(each c in hand of player, c.value + c.bonus)\n"
    g = catrules.load_source(HEAD + src, "t.cat")
    st = g.new_state(players=3, seed=2)
    for pl, row in enumerate(st.score_now()):
        (mine,) = [c for c in range(4) if st.loc[c] == st.layout.base[1] + pl]
        v = g.card(mine)["value"]
        assert row["total_value"] == v + 10
        assert row["beats"] == int(any(g.card(c)["value"] < v for c in range(4) if st.loc[c] == st.layout.base[0]))


def test_max_of_two_numbers_inside_an_aggregate_keeps_the_element():
    # `max(value, bonus)`: `bonus` is the element's, not none (it used to end in a Python TypeError)
    g = catrules.load_source(HEAD + deal("flow:\n    announce \"x\"\n") +
                             "score:\n    best_part = sum(hand of player, max(value, bonus))\n", "t.cat")
    st = g.new_state(players=3, seed=1)
    assert [r["best_part"] for r in st.score_now()] == [10, 10, 10]


def test_an_inner_it_that_hides_an_outer_one_is_a_warning():
    score = "score:\n    n = count(hand of player where count(deck where it.value < 2) > 0)\n"
    g = catrules.load_source(HEAD + deal("flow:\n    announce \"x\"\n") + score, "t.cat")
    (w,) = [w for w in g.warnings if "hides" in w.message]
    assert (w.line, w.column) == (16, 42)
    assert w.message == "this `it` hides the `it` of the list around it"
    assert w.hint.startswith("name the element")


def test_the_element_name_is_unknown_outside_its_list():
    d = only_error(HEAD + "flow:\n    n = count(each c in deck where c.value > 1)\n    add n + c.value to n\n")
    assert d.message == "unknown name `c`"


# ------------------------------------------------ 6. one mistake, one error

def test_a_misspelt_builtin_gives_one_error():
    d = only_error(HEAD + "score:\n    s = smu(hand of player, value)\nflow:\n    announce \"x\"\n")
    assert d.message == "unknown function `smu`" and d.hint == "did you mean `sum`?"
    ds = errors(HEAD + "score:\n    t = cuont(hand of player where value > 3)\nflow:\n    announce \"x\"\n")
    assert [d.message for d in ds] == ["unknown function `cuont`"]


def test_a_phase_named_like_a_zone_gives_one_error():
    d = only_error(HEAD + "phase pile:\n    announce \"x\"\nflow:\n    play pile\n")
    assert (d.line, d.column) == (10, 1)
    assert d.message == "`pile` is already the name of a zone"


# ---------------------------------------------------------------- shipped files

def test_every_shipped_game_file_checks_without_type_errors_or_hidden_its():
    files = sorted((ROOT / "games").glob("*.cat")) + sorted((ROOT / "docs" / "examples").glob("*.cat")) + \
        sorted((ROOT / "tests" / "games").glob("*.cat"))
    assert len(files) > 30
    for f in files:
        g = catrules.load_game(f)
        assert not [w for w in g.warnings if "hides" in w.message], f


# ------------------------------------------------ pick cases that cannot match its key

def test_a_pick_whose_cases_can_never_match_its_key_is_a_warning_at_the_key():
    # `pick(players, ...)`: the list of players, not how many there are; it played `else` every time
    body = "flow:\n    for each player p:\n        move top(deck, pick(players, 3: 1, else: 0)) to hand of p\n"
    g = catrules.load_source(HEAD + body, "t.cat")
    (w,) = [w for w in g.warnings if "pick" in w.message]
    assert (w.line, w.column) == (12, 29)
    assert w.message == ("this `pick` compares a list of players with its cases, each a number: no case can "
                         "match, so it always gives its `else` value")
    assert "count(players)" in w.hint
    fixed = catrules.load_source(HEAD + body.replace("pick(players", "pick(count(players)"), "t.cat")
    assert not [w for w in fixed.warnings if "pick" in w.message]


def test_a_pick_case_of_another_kind_is_a_warning_at_that_case():
    body = "counter k = 0\nflow:\n    k = pick(top(deck).colour, green: 1, 2: 5, else: 0)\n"
    g = catrules.load_source(HEAD + body, "t.cat")
    (w,) = [w for w in g.warnings if "pick" in w.message]
    assert (w.line, w.column) == (12, 42)
    assert w.message == "this case of `pick` is a number and the key is a symbol (or none), so it never matches"


def test_warnings_travel_with_the_errors_of_a_file_that_does_not_check():
    # the warning that an inner `it` hides the outer one says why the comparison is an error
    score = "score:\n    n = count(range(1, 4) where any(hand of player where value == it))\n"
    with pytest.raises(GameFileError) as exc:
        catrules.load_source(HEAD + deal("flow:\n    announce \"x\"\n") + score, "t.cat")
    assert [d.message for d in exc.value.diagnostics] == ["this compares a number with a card, so it is always false"]
    assert [w.message for w in exc.value.warnings] == ["this `it` hides the `it` of the list around it"]


@pytest.mark.parametrize("item, message", [
    ("cards", "`cards` is a word of the language, so it cannot name a score item"),
    ("pile", "score item `pile` has the name of a zone of the game"),
    ("bonus", "score item `bonus` has the name of a card attribute of the game"),
])
def test_a_score_item_named_by_a_word_of_the_language_is_told_so(item, message):
    # `cards = ...` was "has the name of something else in the game", which sent one looking
    # through the game for a `cards` that is not there
    d = only_error(HEAD + f"flow:\n    announce \"x\"\nscore:\n    {item} = count(hand)\n")
    assert d.message == message


def test_a_guard_that_leaves_when_none_lets_the_value_be_used_after_it():
    # `if q == none: stop` then `move ... to hand of q`: only the ways through the `if` that go
    # on to the next line count, and the one that does says q is someone
    loop = ("flow:\n    repeat while any(deck):\n        q = best(players where count(hand of it) < 1, 0)\n"
            "        if q == none:\n            {leave}\n        move top(deck) to hand of q\n")
    for leave in ("stop", "end game"):
        catrules.load_source(HEAD + loop.replace("{leave}", leave), "t.cat")
    d = only_error(HEAD + loop.replace("{leave}", "announce \"none left\""))
    assert d.message == "`hand of ...` needs a player, and this may be none"
    both = ("flow:\n    repeat while any(deck):\n        q = best(players where count(hand of it) < 1, 0)\n"
            "        if q == none:\n            if any(deck):\n                stop\n            else:\n"
            "                end game\n        move top(deck) to hand of q\n")
    catrules.load_source(HEAD + both, "t.cat")


def test_warnings_on_other_lines_than_the_errors_wait_until_the_file_checks():
    # an action not yet used is worth a warning once the file checks, not beside an unrelated error
    src = HEAD + "action give(p):\n    move top(deck) to hand of p\nflow:\n    move deck to pil\n"
    with pytest.raises(GameFileError) as exc:
        catrules.load_source(src, "t.cat")
    assert [d.message for d in exc.value.diagnostics] == ["unknown name `pil`"]
    assert exc.value.warnings == []
    fixed = catrules.load_source(src.replace("pil\n", "pile\n"), "t.cat")
    assert [w.message for w in fixed.warnings] == ["action `give` is never done"]


def test_a_misspelled_play_is_one_error_not_also_a_phase_never_played():
    src = HEAD + "phase deal:\n    shuffle deck\nflow:\n    play dael\n"
    assert [d.message for d in errors(src)] == ["unknown phase `dael`"]
    src = HEAD + "action give(p):\n    move top(deck) to hand of p\nflow:\n    do gve(first(players))\n"
    with pytest.raises(GameFileError) as exc:
        catrules.load_source(src, "t.cat")
    assert [d.message for d in exc.value.diagnostics] == ["unknown action `gve`"]
