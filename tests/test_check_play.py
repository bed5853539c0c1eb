"""``catrules check --play N``: lint from random games (catrules.lab.lint), on test games made
to show each finding and on the shipped games."""

from pathlib import Path

import pytest

from catrules.api import load_game
from catrules.cli import main
from catrules.lab.lint import lint_play
from catrules.lab.lint_findings import counts_text

ROOT = Path(__file__).resolve().parents[1]
LINT = ROOT / "tests" / "games" / "lint"


def lint(name, games=20, counts=None, options=(), max_decisions=None, seed=1):
    game = load_game(LINT / name if not str(name).startswith("/") else name)
    counts = counts or list(range(game.min_players, game.max_players + 1))
    return lint_play(game, games, seed, counts, options, max_decisions)


def messages(found):
    return [d.message for d in found]


def test_a_short_deal_is_found_at_its_line_for_the_counts_that_run_short():
    found = lint("short_deal.cat")
    short = [d for d in found if "short deal" in d.message]
    assert len(short) == 1
    d = short[0]
    assert (d.line, d.column, d.severity) == (19, 14, "warning")
    assert "`top(deck, 5)` asked for 5 cards and moved 0" in d.message
    assert "in 40 of 100 games, at 5-6 players" in d.message      # 20 games at each of 5 counts
    assert d.source_line.strip() == "move top(deck, 5) to hand of p"
    # the players left without cards never decide
    assert any("player 5 never decides at 5-6 players" in m for m in messages(found))
    assert any("player 6 never decides at 6 players" in m for m in messages(found))


def test_no_short_deal_where_the_deck_suffices():
    found = lint("short_deal.cat", counts=[2, 3, 4])
    assert found == []


def test_menu_moves_and_choices_that_never_arise():
    found = lint("dead_ends.cat")
    by_line = {d.line: d.message for d in found if d.line}
    assert "the menu move \"take two\" was never offered" in by_line[23]
    assert "in 0 of 40 games" in by_line[23]
    assert "this choice never arose (in 0 of 40 games, at 2-3 players)" == by_line[28]
    # the moves that were offered and taken are not reported, nor the choice inside one
    assert 20 not in by_line and 21 not in by_line and 26 not in by_line
    assert any(m.startswith("player 2 never decides at 2-3 players") for m in messages(found))
    assert any(m.startswith("player 3 never decides at 3 players") for m in messages(found))
    assert not any("player 1 " in m for m in messages(found))


def test_games_that_never_end_and_rules_errors_are_counted():
    found = lint("stuck.cat", games=30, max_decisions=200)
    errors = [d for d in found if "rules error" in d.message]
    endless = [d for d in found if "may never end" in d.message]
    assert len(errors) == 1 and len(endless) == 1
    e = errors[0]
    assert e.line == 24 and "division by zero" in e.message and e.hint
    k_err = int(e.message.split("rules error in ")[1].split(" of")[0])
    k_end = int(endless[0].message.split("never end: ")[1].split(" of")[0])
    assert k_err > 0 and k_end > 0 and k_err + k_end == 30     # every game is one or the other
    assert "passed 200 decisions" in endless[0].message


def test_the_same_seed_gives_the_same_warnings_and_another_may_not():
    a = [d.format() for d in lint("stuck.cat", games=15, max_decisions=100, seed=4)]
    b = [d.format() for d in lint("stuck.cat", games=15, max_decisions=100, seed=4)]
    assert a == b


def test_meow_expert_short_variant_is_caught_only_with_the_option():
    found = lint("meow_33.cat", games=5, counts=[4], options=["expert"])
    assert len(found) == 1
    d = found[0]
    # the deal is in the base file, at its line there
    deal = next(i for i, ln in enumerate(open(d.path, encoding="utf-8"), 1) if "move top(deck, 9) to hand of p" in ln)
    assert d.path.endswith("games/meow.cat") and d.line == deal
    assert "`top(deck, 9)` asked for 9 cards and moved 6 (in 5 of 5 games, at 4 players)" in d.message
    assert lint("meow_33.cat", games=5, counts=[4]) == []


@pytest.mark.parametrize("name,options", [("meow.cat", ()), ("meow.cat", ("expert",)), ("catlady.cat", ()),
                                          ("flapcat.cat", ())])
def test_the_shipped_games_deal_in_full_end_and_stop_with_no_error(name, options):
    # a few games: a rare choice (Flap Cat's second grab in a race) may not arise in so few,
    # but no deal may run short, no game may run on or stop, and every seat decides
    game = load_game(ROOT / "games" / name)
    found = lint_play(game, 3, 1, list(range(game.min_players, game.max_players + 1)), options)
    assert [d.format() for d in found if "never arose" not in d.message] == []


def test_the_command_prints_warnings_and_exits_0(capsys):
    code = main(["check", str(LINT / "dead_ends.cat"), "--play", "10"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "dead_ends.cat:23:21: warning: the menu move \"take two\" was never offered" in err
    assert "^" in err and "hint:" in err
    assert "4 warnings)" in out and out.startswith("ok: ")


def test_the_command_checks_its_options(capsys):
    assert main(["check", str(LINT / "stuck.cat"), "--players", "2"]) == 2
    assert "--players goes with --play" in capsys.readouterr().err
    assert main(["check", str(LINT / "stuck.cat"), "--play", "0"]) == 2
    assert main(["check", str(LINT / "stuck.cat"), "--play", "2", "--players", "5"]) == 2
    assert "for 2 to 2 players, not 5" in capsys.readouterr().err
    assert main(["check", str(LINT / "stuck.cat"), "--play", "2", "--option", "nope"]) == 2
    assert main(["check", str(LINT / "stuck.cat"), "--play", "2", "--max-decisions", "0"]) == 2


def test_a_file_with_errors_still_fails(tmp_path, capsys):
    bad = tmp_path / "bad.cat"
    bad.write_text("catrules 3\ngame \"Bad\"\nplayers 2 to 2\nflow:\n    move nothing to hnd\n")
    assert main(["check", str(bad), "--play", "3"]) == 1


def test_counts_text():
    assert counts_text([2, 3, 4, 6]) == "2-4 and 6 players"
    assert counts_text([4]) == "4 players"
    assert counts_text([2, 4, 6]) == "2, 4 and 6 players"
