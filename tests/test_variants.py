"""Variants that name their base (`extends`): the shipped variants play and differ where they
say; replace/remove, chains, cycles and errors that point into the right file."""

from __future__ import annotations

from pathlib import Path

import pytest

import catrules
from catrules.errors import GameFileError
from catrules.testing import play_until, zone

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
VARIANTS = GAMES / "variants"


def _errors(path) -> list:
    with pytest.raises(GameFileError) as exc:
        catrules.load_game(path)
    return exc.value.diagnostics


# ---- the shipped variants ------------------------------------------------------

@pytest.mark.parametrize("name", ["meow-short.cat", "catlady-4x4.cat", "flapcat-donate-two.cat"])
def test_each_variant_plays_to_the_end(name):
    game = catrules.load_game(VARIANTS / name)
    state = play_until(game.new_state(players=3, seed=5))
    assert state.finished and state.winners()


def test_short_meow_plays_two_rounds_of_nine_tokens():
    base = play_until(catrules.load_game(GAMES / "meow.cat").new_state(players=4, seed=2))
    short = play_until(catrules.load_game(VARIANTS / "meow-short.cat").new_state(players=4, seed=2))
    # three stacks of nine award tokens: the base uses all, the short game leaves one
    assert len(zone(base, "tokens")) == 0
    assert len(zone(short, "tokens")) == 9


def test_catlady_4x4_has_sixteen_cards_in_the_market_and_lines_of_four():
    base = catrules.load_game(GAMES / "catlady.cat").new_state(players=2, seed=1)
    big = catrules.load_game(VARIANTS / "catlady-4x4.cat").new_state(players=2, seed=1)
    assert len(zone(base, "market")) == 9
    assert len(zone(big, "market")) == 16
    start = len(zone(big, "deck"))
    # the first line taken is four cards, and all sixteen places are refilled
    play_until(big, lambda s: len(zone(s, "deck")) < start)
    assert start - len(zone(big, "deck")) == 4
    assert len(zone(big, "market")) == 16


def _donate_twice(path) -> int:
    """How often a player, having just given a card, is asked to DONATE again at once."""
    game = catrules.load_game(path)
    count = 0
    for seed in range(1, 7):
        state = game.new_state(players=3, seed=seed, ask_forced=True)
        last = None
        while not state.finished:
            d = state.pending()[0]
            if (last and last[1].startswith("Give ") and d.prompt.startswith("DONATE")
                    and d.player == last[0]):
                count += 1
            last = (d.player, d.prompt)
            state.apply(d.player, d.default or d.options[0].id, 0.5 if d.timed else None)
    return count


def test_flapcat_donate_gives_a_second_card():
    assert _donate_twice(GAMES / "flapcat.cat") == 0
    assert _donate_twice(VARIANTS / "flapcat-donate-two.cat") > 0


def test_simulate_accepts_a_variant(capsys):
    from catrules.cli import main
    code = main(["simulate", "--games", "3", str(VARIANTS / "meow-short.cat")])
    assert code in (0, None)
    assert "Meow (short)" in capsys.readouterr().out


# ---- the language of variants --------------------------------------------------

BASE = '''catrules 3
game "Base"
players 2 to 4

cards chip in bag:
    for each colour in red, blue:
        for each value in 1 to 10:
            card

zone bag: shared, hidden, pile
zone hand: per player, public, pile

define worth(c) = c.value

setup:
    shuffle bag

flow:
    for each player p:
        move top(bag, 2) to hand of p

score:
    points = sum(hand of player, worth(it))

winner:
    highest total
'''


def _write(tmp_path, name, text) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _variant(tmp_path, body, header='catrules 3\ngame "V"\nplayers 2 to 3\nextends "base.cat"\n') -> Path:
    _write(tmp_path, "base.cat", BASE)
    return _write(tmp_path, "v.cat", header + body)


def test_remove_cards_by_a_filter_and_replace_a_definition(tmp_path):
    path = _variant(tmp_path, "remove cards of chip where value > 6 and colour == blue\n"
                              "replace define worth(c) = c.value * 10\n")
    game = catrules.load_game(path)
    assert game.card_count == 16 and game.max_players == 3 and game.title == "V"
    state = play_until(game.new_state(players=2, seed=3))
    for p in range(2):
        assert state.scores()[p]["total"] == 10 * sum(game.card(c)["value"] for c in zone(state, "hand", p))


def test_replacing_what_the_base_lacks_is_an_error_with_a_hint(tmp_path):
    [d] = _errors(_variant(tmp_path, "replace define wurth(c) = 1\n"))
    assert d.path.endswith("v.cat") and d.line == 5
    assert "the base game has no define `wurth`" in d.message and "worth" in d.hint


def test_a_plain_redeclaration_is_still_an_error(tmp_path):
    [d] = _errors(_variant(tmp_path, "define worth(c) = 2\n"))
    assert "already the name of a definition" in d.message and "replace" in d.hint
    assert d.path.endswith("v.cat") and d.line == 5


def test_a_second_flow_needs_replace(tmp_path):
    [d] = _errors(_variant(tmp_path, "flow:\n    shuffle bag\n"))
    assert "second `flow`" in d.message and "replace flow" in d.hint


def test_errors_in_base_nodes_point_into_the_base_file(tmp_path):
    # the variant takes out a definition the base still uses: the base's use is the mistake's place
    ds = _errors(_variant(tmp_path, "remove define worth\n"))
    assert any(d.path.endswith("base.cat") and "worth" in d.message and d.line == 23
               and "worth" in d.source_line for d in ds), [d.format() for d in ds]


def test_chains_work_and_a_cycle_is_an_error(tmp_path):
    _variant(tmp_path, "remove cards of chip where colour == blue\n")
    w = _write(tmp_path, "w.cat", 'catrules 3\ngame "W"\nplayers 2 to 2\nextends "v.cat"\n'
               'remove cards of chip where value == 1\n')
    game = catrules.load_game(w)
    assert game.card_count == 9 and (game.min_players, game.max_players) == (2, 2)
    _write(tmp_path, "a.cat", 'catrules 3\ngame "A"\nplayers 2 to 2\nextends "b.cat"\n')
    _write(tmp_path, "b.cat", 'catrules 3\ngame "B"\nplayers 2 to 2\nextends "a.cat"\n')
    [d] = _errors(tmp_path / "a.cat")
    assert "cycle" in d.message and d.line == 4


def test_a_missing_base_and_an_old_language_are_errors(tmp_path):
    [d] = _errors(_write(tmp_path, "m.cat", 'catrules 3\ngame "M"\nplayers 2 to 2\nextends "nope.cat"\n'))
    assert "no game file `nope.cat`" in d.message and d.line == 4
    [d] = _errors(_variant(tmp_path, "", header='catrules 2\ngame "V"\nplayers 2 to 3\nextends "base.cat"\n'))
    assert "`extends` is language 3" in d.message


def test_a_filter_that_matches_nothing_is_an_error(tmp_path):
    [d] = _errors(_variant(tmp_path, "remove cards of chip where value > 99\n"))
    assert "no card of `chip` matches" in d.message


def test_older_files_may_still_use_the_new_words_as_names():
    game = catrules.load_source('catrules 2\ngame "Old"\nplayers 1 to 2\n'
                                'cards chip in remove:\n    card\nzone remove: shared, public, pile\ncounter replace = 1\n'
                                'define extends = replace + 1\n'
                                'flow:\n    replace = extends\n')
    assert game.min_players == 1


@pytest.mark.parametrize("path", sorted(VARIANTS.glob("*.cat")), ids=lambda p: p.name)
def test_the_lexer_highlights_the_variants(path):
    from pygments.token import Error
    from catrules.authoring.highlight import CatrulesLexer
    assert not [t for t in CatrulesLexer().get_tokens(path.read_text()) if t[0] is Error]


def test_a_very_long_chain_is_refused_in_words(tmp_path):
    _write(tmp_path, "g0.cat", BASE)
    for i in range(1, 60):
        _write(tmp_path, f"g{i}.cat", f'catrules 3\ngame "G{i}"\nplayers 2 to 2\nextends "g{i - 1}.cat"\n')
    assert catrules.load_game(tmp_path / "g20.cat").title == "G20"
    [d] = _errors(tmp_path / "g59.cat")
    assert "more than 32 files" in d.message


def test_a_huge_list_in_remove_where_is_refused_without_building_it(tmp_path):
    # found by tools/fuzz.py: `[1] * 1000000000` was worked out (8 GB) before the condition failed
    (tmp_path / "base.cat").write_text((ROOT / "docs" / "examples" / "scoring.cat").read_text())
    (tmp_path / "v.cat").write_text('catrules 3\ngame "V"\nplayers 2 to 3\nextends "base.cat"\n'
                                    "remove cards of number where colour == blue and value > ([1] * 1000000000)\n")
    with pytest.raises(GameFileError) as err:
        catrules.load_game(str(tmp_path / "v.cat"))
    assert "more than 1,000,000 items" in str(err.value)
