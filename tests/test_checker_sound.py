"""The checker is sound where it speaks and complete enough not to nag: what fails at run
time is reported before the game runs (an error in files of the version that brought the
check, a warning with the fix in older ones), what cannot fail is not refused (narrowing
after a guard, a filter or an assignment), and a counter may declare its type."""

import random
import re
from pathlib import Path

import pytest

import catrules
from catrules.check import strictness
from catrules.check.types import MAYBE_NONE_BUILTINS
from catrules.errors import GameFileError, RulesError

ROOT = Path(__file__).resolve().parent.parent


def head(version=3):
    return f"""catrules {version}
game "T"
players 3 to 3
cards token in deck:
    for each value in 1 to 6:
        card with colour green
zone deck: shared, hidden, pile
zone hand: per player, owner
zone won: per player, public
"""


def diagnostics(src):
    """(errors, warnings) of a game text."""
    try:
        game = catrules.load_source(src, "t.cat")
    except GameFileError as exc:
        return [d for d in exc.diagnostics if d.severity == "error"], []
    return [], list(game.warnings)


def messages(ds):
    return [d.message for d in ds]


LEADER = "counter leader = none\ncounter tricks of each player = 0\n"
MAYBE = "flow:\n    leader = best(players where count(hand of it) > 5, 1)\n"


# ------------------------------------------------------------ counter targets

@pytest.mark.parametrize("stmt", ["    add 1 to tricks of leader\n", "    tricks of leader = 3\n"])
def test_writing_a_counter_of_a_player_that_may_be_none_is_reported(stmt):
    errs, warns = diagnostics(head() + LEADER + MAYBE + stmt)
    assert errs == [] or messages(errs) == ["`tricks of ...` needs a player, and this may be none"]
    found = errs or warns
    assert messages(found) == ["`tricks of ...` needs a player, and this may be none"]
    assert "if leader != none:" in found[0].hint
    if warns:   # an older file that checked keeps checking: a warning that names the version
        assert f"language {strictness.ERROR_FROM['counter-target']}" in warns[0].hint


def test_writing_a_players_counter_of_a_card_is_reported():
    src = head() + LEADER + "flow:\n    for each c in deck:\n        add 1 to tricks of c\n"
    errs, warns = diagnostics(src)
    assert messages(errs + warns) == ["`tricks of ...` needs a player; this is a card"]


def test_counter_targets_are_errors_from_their_version_and_warnings_before():
    assert strictness.severity("counter-target", strictness.ERROR_FROM["counter-target"]) == "error"
    assert strictness.severity("counter-target", strictness.ERROR_FROM["counter-target"] - 1) == "warning"
    assert strictness.severity("maybe-none", 1) == "warning"
    assert strictness.severity("maybe-none", 2) == "error"


def test_a_guarded_counter_target_is_fine():
    src = head() + LEADER + MAYBE + "    if leader != none:\n        add 1 to tricks of leader\n"
    assert diagnostics(src) == ([], [])


# ------------------------------------------------------------ builtins that may give none

def test_owner_may_be_none():
    src = head() + "counter tricks of each player = 0\nflow:\n    add 1 to tricks of owner(top(deck))\n"
    errs, warns = diagnostics(src)
    assert messages(errs + warns) == ["`tricks of ...` needs a player, and this may be none"]


def test_owner_of_a_card_in_a_players_zone_after_a_guard_is_fine():
    src = head() + "flow:\n    c = top(deck)\n    if c != none:\n        move c to hand of 0\n" \
        "        p = owner(c)\n        if p != none:\n            move top(deck) to won of p\n"
    assert diagnostics(src) == ([], [])


def test_sum_over_a_counter_that_may_be_none_is_reported():
    src = head() + "counter bid of each player = none\nflow:\n    bid of 0 = 2\n" \
        "score:\n    bids = sum(players, bid of it)\n"
    errs, warns = diagnostics(src)
    assert messages(errs + warns) == ["`sum` adds numbers, and this may be none"]


def test_the_docs_list_the_builtins_that_may_give_none():
    text = (ROOT / "docs" / "language.rst").read_text()
    para = text[text.index("**Maybe none.**"):]
    para = para[:para.index("\n\n")]
    listed = set(re.findall(r"``(\w+)``", para.split("may be")[0])) - {"none"}
    assert listed == set(MAYBE_NONE_BUILTINS)
    section = text[text.index("\nBuiltin functions\n"):text.index("\nTypes\n-----")]
    for name in MAYBE_NONE_BUILTINS:       # and each one's entry in the builtins table says so
        start = re.search(rf"\n``(?:[^\n]*``)?{name}\([^\n]*\n   ", section).start()
        entry = section[start:section.index("\n``", start + 1)]
        assert "``none``" in entry, name


# ------------------------------------------------------------ narrowing

def test_a_choice_from_a_list_filtered_by_not_none_is_someone():
    src = head() + "flow:\n    for each player p:\n" \
        "        p chooses c from [first(deck), last(deck)] where it != none\n" \
        "        add c.value to score_of\n        move c to hand of p\n"
    src = src.replace("flow:", "counter score_of = 0\nflow:")
    assert diagnostics(src) == ([], [])


def test_a_named_element_filtered_by_not_none_is_someone():
    src = head() + "counter total = 0\nflow:\n" \
        "    for each c in each d in [top(deck), first(deck)] where d != none:\n        add c.value to total\n"
    assert diagnostics(src) == ([], [])


def test_an_assignment_of_a_value_that_is_never_none_narrows():
    src = head() + "counter leader = none\nflow:\n    leader = first(players)\n" \
        "    move top(deck) to won of leader\n"
    assert diagnostics(src) == ([], [])


def test_an_if_that_sets_what_was_none_narrows_after_it():
    src = head() + "counter leader = none\nflow:\n    leader = best(players where count(hand of it) > 1, 1)\n" \
        "    if leader == none:\n        leader = 0\n    move top(deck) to won of leader\n"
    assert diagnostics(src) == ([], [])


def test_a_later_assignment_that_may_be_none_undoes_the_narrowing():
    src = head() + "counter leader = none\nflow:\n    leader = first(players)\n" \
        "    leader = best(players where count(hand of it) > 1, 1)\n    move top(deck) to won of leader\n"
    errs, _ = diagnostics(src)
    assert messages(errs) == ["`won of ...` needs a player, and this may be none"]


def test_a_loop_that_may_set_none_undoes_the_narrowing():
    src = head() + "counter leader = none\nflow:\n    leader = first(players)\n    repeat 2 times:\n" \
        "        move top(deck) to won of leader\n        leader = last(players where count(hand of it) > 1)\n"
    errs, _ = diagnostics(src)
    assert messages(errs) == ["`won of ...` needs a player, and this may be none"]


def test_a_trigger_that_sets_a_counter_to_none_undoes_the_narrowing():
    src = head() + "counter leader = none\nwhen card c enters won of q:\n    leader = none\n" \
        "flow:\n    leader = first(players)\n    move top(deck) to won of leader\n" \
        "    move top(deck) to hand of leader\n"
    errs, _ = diagnostics(src)
    assert [(d.line, d.message) for d in errs] == [(16, "`hand of ...` needs a player, and this may be none")]


# ------------------------------------------------------------ a counter's declared type

TYPED = head() + """counter leader: player = 0
counter tricks of each player = 0
flow:
    repeat 2 times:
        move top(deck) to won of leader
        add 1 to tricks of leader
        leader = next(leader)
score:
    taken = tricks
winner:
    highest total
"""


def test_a_counter_with_a_declared_type_needs_no_guard():
    game = catrules.load_source(TYPED, "t.cat")
    assert game.warnings == []
    st = game.new_state(players=3, seed=1)
    assert st.finished and sorted(s["taken"] for s in st.scores()) == [0, 1, 1]


def test_a_typed_counter_refuses_a_value_that_may_be_none():
    src = TYPED.replace("leader = next(leader)", "leader = best(players where count(hand of it) > 1, 1)")
    errs, _ = diagnostics(src)
    assert messages(errs) == ["counter `leader` holds a player, and this may be none"]


def test_a_typed_counter_refuses_a_value_of_another_type():
    errs, _ = diagnostics(TYPED.replace("counter leader: player = 0", "counter leader: player = green"))
    assert messages(errs) == ["counter `leader` holds a player; this is a symbol"]
    errs, _ = diagnostics(TYPED.replace("leader: player", "leader: colour"))
    assert messages(errs) == ["unknown type `colour` for a counter"]


def test_a_typed_counter_is_language_3():
    errs, _ = diagnostics(TYPED.replace("catrules 3", "catrules 2"))
    assert messages(errs) == ["a counter's declared type is language 3, and this file says `catrules 2`"]


def test_fmt_prints_a_typed_counter():
    from catrules.authoring.fmt import format_text
    src = (ROOT / "tests" / "games" / "typed_counter.cat").read_text()
    out = format_text(src.replace("counter leader: player = 0", "counter leader :player=0"), "t.cat")
    assert "counter leader: player = 0\n" in out and out == src


def test_the_typed_counter_example_game_checks_and_plays():
    game = catrules.load_game(ROOT / "tests" / "games" / "typed_counter.cat")
    assert game.warnings == []
    for seed in range(3):
        st = game.new_state(players=3, seed=seed)
        rng = random.Random(seed)
        while not st.finished:
            d = st.pending()[0]
            st.apply(d.player, rng.choice(d.options).id, rng.random() if d.timed else None)


# ------------------------------------------------------------ a property: accepted means no type stop

FRAGMENTS = [
    "move top(deck) to hand of {p}", "add 1 to tricks of {p}", "tricks of {p} = 2",
    "add {n} to total", "total = {n}", "leader = {p}", "move top(deck) to won of {p}",
    "if {p} != none:\n{i}    add 1 to tricks of {p}", "x = {n}\n{i}add x to total",
]
PLAYERS = ["leader", "first(players)", "owner(top(deck))", "next(0)", "best(players, count(hand of it))",
           "last(players where count(hand of it) > 2)", "0", "p", "top(deck)"]
NUMBERS = ["1", "count(deck)", "top(deck).value", "sum(hand of 0, value)", "tricks of 0", "total",
           "first(deck).value", "max(players, tricks of it)"]


def random_program(rng):
    lines = []
    for _ in range(rng.randint(1, 5)):
        frag = rng.choice(FRAGMENTS)
        nested = rng.random() < 0.3
        i = "        " if nested else "    "
        text = frag.format(p=rng.choice(PLAYERS), n=rng.choice(NUMBERS), i=i)
        if nested:
            lines.append("    for each player p:")
        lines.append(i + text)
    return head() + "counter leader = none\ncounter tricks of each player = 0\ncounter total = 0\n" \
        "flow:\n    shuffle deck\n" + "\n".join(lines) + "\n"


#: the run-time stops the docs list (section "Stops during play")
LISTED_STOPS = ("none", "beyond the limit")


def test_programs_the_checker_accepts_stop_only_as_the_docs_say():
    rng = random.Random(26)
    accepted = 0
    for _ in range(150):
        src = random_program(rng)
        try:
            game = catrules.load_source(src, "t.cat")
        except GameFileError:
            continue
        if game.warnings:
            continue                    # a warning is the checker speaking
        accepted += 1
        for seed in range(2):
            try:
                st = game.new_state(players=3, seed=seed)
                while not st.finished:
                    d = st.pending()[0]
                    st.apply(d.player, d.options[0].id)
            except RulesError as exc:
                assert not any(w in str(exc) for w in ("none", "a card", "a player")), (src, str(exc))
    assert accepted > 20
