"""Variants of language 4: replace or remove a trigger by its head, `more cards`, `remove N cards
of ... where`, and a header that leaves out `game` and `players` (the base's are used).

Each edit is checked as built (the merged game's triggers and card rows), played to the end,
refused in words with its line and column when it names nothing, and refused in a `catrules 3`
variant as language 4."""

from __future__ import annotations

from pathlib import Path

import pytest

import catrules
from catrules.errors import GameFileError
from catrules.lang.parser import parse_file
from catrules.testing import play_until

ROOT = Path(__file__).resolve().parent.parent

BASE = '''catrules 4
game "Base"
players 2 to 4

cards chip in bag:
    for each colour in red, blue:
        for each value in 1 to 3:
            2 cards

zone bag: shared, hidden, pile
zone hand: per player, public, pile
zone pile: shared, public, pile

counter drawn = 0
counter red_piled = 0
counter blue_piled = 0

when card c enters hand from bag:
    add 1 to drawn

when card c enters pile if c.colour == red:
    add 1 to red_piled

when card c enters pile if c.colour == blue:
    add 1 to blue_piled

flow:
    shuffle bag
    for each player p:
        move top(bag, 2) to hand of p
    for each player p:
        move hand of p to pile

score:
    points = count(hand of player)
    note drawn_cards = drawn
    note reds = red_piled
    note blues = blue_piled
'''

HEAD = 'catrules 4\ngame "V"\nplayers 2 to 3\nextends "base.cat"\n'


def _variant(tmp_path, body, header=HEAD) -> Path:
    (tmp_path / "base.cat").write_text(BASE)
    path = tmp_path / "v.cat"
    path.write_text(header + body)
    return path


def _errors(path) -> list:
    with pytest.raises(GameFileError) as exc:
        catrules.load_game(path)
    return exc.value.diagnostics


def _notes(path, players=2, seed=1) -> list:
    state = play_until(catrules.load_game(path).new_state(players=players, seed=seed))
    assert state.finished
    return state.scores()


# ---- triggers ----------------------------------------------------------------------

def test_replace_a_trigger_by_its_head(tmp_path):
    path = _variant(tmp_path, "replace when card x enters hand from bag:\n    add 10 to drawn\n")
    g = parse_file(path)
    assert [t.zone for t in g.triggers] == ["hand", "pile", "pile"]       # in the base's place
    assert g.triggers[0].var == "x" and g.triggers[0].line == 5 and g.origins.get(id(g.triggers[0])) is None
    scores = _notes(path, players=3)
    assert [s["drawn_cards"] for s in scores] == [60, 60, 60]          # 6 cards drawn, 10 each
    assert _notes(tmp_path / "base.cat", players=3)[0]["drawn_cards"] == 6


def test_a_head_without_from_names_the_only_trigger_on_its_zone(tmp_path):
    path = _variant(tmp_path, "remove when card c enters hand\n")
    assert [t.zone for t in parse_file(path).triggers] == ["pile", "pile"]
    assert _notes(path)[0]["drawn_cards"] == 0
    assert _notes(path)[0]["reds"] + _notes(path)[0]["blues"] == 4


def test_a_head_without_from_names_the_trigger_without_from_among_several(tmp_path):
    body = ("when card c enters hand:\n    add 100 to drawn\n")
    (tmp_path / "base.cat").write_text(BASE.replace("flow:", body + "\nflow:"))
    path = tmp_path / "v.cat"
    path.write_text(HEAD + "remove when card c enters hand\n")
    [t] = [t for t in parse_file(path).triggers if t.zone == "hand"]
    assert t.source == "bag"
    assert _notes(path)[0]["drawn_cards"] == 4
    path.write_text(HEAD + "remove when card c enters hand from bag\n")
    [t] = [t for t in parse_file(path).triggers if t.zone == "hand"]
    assert t.source is None
    assert _notes(path)[0]["drawn_cards"] == 400


def test_a_head_that_names_several_triggers_is_an_error_listing_them(tmp_path):
    [d] = _errors(_variant(tmp_path, "remove when card c enters pile\n"))
    assert (d.path.endswith("v.cat"), d.line, d.column) == (True, 5, 1)
    assert "2 triggers of the base game have this head (lines 21, 24)" in d.message
    assert "`when card c enters hand from bag` (base.cat line 18)" in d.hint
    assert "`when card c enters pile` (base.cat line 24)" in d.hint


def test_a_head_that_names_no_trigger_is_an_error_listing_them(tmp_path):
    [d] = _errors(_variant(tmp_path, "\nreplace when card c enters bag:\n    add 1 to drawn\n"))
    assert (d.line, d.column) == (6, 1)
    assert "the base game has no trigger on `bag`" in d.message and "base.cat line 21" in d.hint
    [d] = _errors(_variant(tmp_path, "remove when card c enters hand from pile\n"))
    assert (d.line, d.column) == (5, 1)
    assert "no trigger on `hand` from `pile`" in d.message


# ---- cards -------------------------------------------------------------------------

def test_more_cards_join_the_base_type(tmp_path):
    path = _variant(tmp_path, "more cards chip:\n    with colour green:\n        3 cards with value 4\n")
    g = parse_file(path)
    [chip] = g.cards
    assert chip.zone == "bag" and len(chip.rows) == 7
    assert (chip.rows[-1].copies, chip.rows[-1].attrs) == (3, {"colour": "green", "value": 4})
    game = catrules.load_game(path)
    assert game.card_count == 15
    assert sorted(game.card(c)["value"] for c in range(15))[-3:] == [4, 4, 4]
    for players in (2, 3):
        assert _notes(path, players=players)


def test_more_cards_errors(tmp_path):
    [d] = _errors(_variant(tmp_path, "more cards chips:\n    card with colour red, value 9\n"))
    assert (d.line, d.column) == (5, 1) and "no card type `chips`" in d.message and "chip" in d.hint
    [d] = _errors(_variant(tmp_path, "more cards chip:\n    card with colour red, valu 9\n"))
    assert (d.line, d.column) == (6, 5) and "have no attribute `valu`" in d.message and "value" in d.hint
    [d] = _errors(_variant(tmp_path, "more cards chip:\n    card with value 9\n"))
    assert (d.line, d.column) == (6, 5) and "every card of `chip` has a `colour`" in d.message


def test_more_cards_beyond_the_deck_limit_is_an_error(tmp_path):
    [d] = _errors(_variant(tmp_path, "more cards chip:\n    9990 cards with colour red, value 1\n"))
    assert (d.line, d.column) == (5, 1) and "more than 10,000 cards" in d.message
    assert catrules.load_game(_variant(tmp_path, "more cards chip:\n    9988 cards with colour red, value 1\n")
                              ).card_count == 10_000


def test_remove_some_of_several_identical_cards(tmp_path):
    path = _variant(tmp_path, "remove 1 card of chip where colour == red and value == 3\n")
    [chip] = parse_file(path).cards
    assert [(r.copies, r.attrs["colour"], r.attrs["value"]) for r in chip.rows if r.copies != 2] == [(1, "red", 3)]
    game = catrules.load_game(path)
    assert game.card_count == 11
    assert _notes(path, players=3)
    path = _variant(tmp_path, "remove 3 cards of chip where value == 3\n")
    [chip] = parse_file(path).cards
    assert [(r.copies, r.attrs["colour"]) for r in chip.rows if r.attrs["value"] == 3] == [(1, "blue")]


def test_remove_more_cards_than_match_is_an_error_saying_how_many(tmp_path):
    [d] = _errors(_variant(tmp_path, "remove 3 cards of chip where colour == red and value == 3\n"))
    assert (d.line, d.column) == (5, 1)
    assert "only 2 cards of `chip` match" in d.message
    [d] = _errors(_variant(tmp_path, "remove 2 cards of chip where colour == green\n"))
    assert "no card of `chip` matches" in d.message
    [d] = _errors(_variant(tmp_path, "remove 0 cards of chip where colour == red\n"))
    assert (d.line, d.column) == (5, 8) and "removes nothing" in d.message


def test_edits_apply_in_file_order(tmp_path):
    path = _variant(tmp_path, "more cards chip:\n    3 cards with colour green, value 4\n"
                              "remove 2 cards of chip where colour == green\n")
    assert catrules.load_game(path).card_count == 13


# ---- the header --------------------------------------------------------------------

@pytest.mark.parametrize("header,title,players", [
    ('catrules 4\nextends "base.cat"\n', "Base", (2, 4)),
    ('catrules 4\ngame "Mine"\nextends "base.cat"\n', "Mine", (2, 4)),
    ('catrules 4\nplayers 2 to 3\nextends "base.cat"\n', "Base", (2, 3)),
    ('catrules 4\ngame "Mine"\nplayers 3 to 3\nextends "base.cat"\n', "Mine", (3, 3)),
])
def test_a_variant_may_leave_out_game_and_players(tmp_path, header, title, players):
    game = catrules.load_game(_variant(tmp_path, "", header))
    assert (game.title, game.min_players, game.max_players) == (title, *players)


def test_a_game_without_extends_still_needs_game_and_players(tmp_path):
    path = tmp_path / "g.cat"
    path.write_text(BASE.replace('game "Base"\n', ""))
    [d] = _errors(path)
    assert (d.line, d.column) == (1, 1) and 'the header has no `game "..."` line' in d.message
    assert "extends" in d.hint
    path.write_text(BASE.replace('players 2 to 4\n', ""))
    [d] = _errors(path)
    assert "no `players ... to ...` line" in d.message


# ---- language 4 ----------------------------------------------------------------------

OLD = 'catrules 3\ngame "V"\nplayers 2 to 3\nextends "base.cat"\n'


@pytest.mark.parametrize("body,what", [
    ("replace when card c enters hand:\n    stop\n", "`replace when card ...`"),
    ("remove when card c enters hand\n", "`remove when card ...`"),
    ("more cards chip:\n    card with colour red, value 1\n", "`more cards`"),
    ("remove 1 card of chip where value == 1\n", "`remove N cards of ...`"),
])
def test_a_catrules_3_variant_gets_the_language_4_error(tmp_path, body, what):
    [d] = _errors(_variant(tmp_path, body, OLD))
    assert (d.line, d.column) == (5, 1)
    assert d.message == f"{what} is language 4, and this file says `catrules 3`"
    assert d.hint == "write `catrules 4` on the first line"


def test_a_catrules_3_variant_must_restate_its_header(tmp_path):
    [d] = _errors(_variant(tmp_path, "", 'catrules 3\nextends "base.cat"\n'))
    assert (d.line, d.column) == (1, 1)
    assert "is language 4, and this file says `catrules 3`" in d.message


PLAIN = '''catrules 3
game "Old"
players 2 to 4

cards n in deck:
    2 cards with kind plain, value 1
    card with kind odd, value 2

zone deck: shared, hidden
zone hand: per player, public
counter extra of each player = 0

flow:
    shuffle deck
    for each player p:
        move top(deck) to hand of p
        if any(hand of p where kind == odd):
            add 1 to extra of p

score:
    points = sum(hand, value) + extra
'''


@pytest.mark.parametrize("old,new", [("deck", "more"), ("extra", "more"), ("kind plain", "kind more")])
def test_older_files_may_still_use_more_as_a_name(tmp_path, old, new):
    """A zone, a counter or a card value named `more` in a `catrules 3` file: it plays as when
    the name was another."""
    a, b = tmp_path / "a.cat", tmp_path / "b.cat"
    a.write_text(PLAIN)
    b.write_text(PLAIN.replace(old, new))
    assert "more" in b.read_text()
    for seed in range(1, 4):
        assert _notes(a, players=3, seed=seed) == _notes(b, players=3, seed=seed)
    if old == "extra":                      # in language 4 `more` is a word of the language
        b.write_text(PLAIN.replace(old, new).replace("catrules 3", "catrules 4"))
        assert any("`more` is a word of the language" in d.message for d in _errors(b))


# ---- the docs' example ------------------------------------------------------------------

def test_the_docs_example_variant(tmp_path):
    path = ROOT / "docs" / "examples" / "variant-edits.cat"
    g = parse_file(path)
    base = parse_file(ROOT / "docs" / "examples" / "rounds.cat")
    assert (g.title, g.min_players, g.max_players) == ("Gift Rounds, generous", base.min_players, base.max_players)
    [gift] = g.cards
    assert sum(r.copies for r in gift.rows if r.attrs["kind"] == "echo") == 1
    assert sum(r.copies for r in gift.rows if r.attrs.get("value") == 5) == 2
    [t] = g.triggers
    assert t.source == "hand" and t.line == 13 and str(path).endswith(g.path.split("/")[-1])
    for players in range(g.min_players, g.max_players + 1):
        assert _notes(path, players=players, seed=players)
