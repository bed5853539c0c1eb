"""`catrules fmt`: the canonical layout keeps a game's meaning and comments, and is stable."""

import random
from pathlib import Path

import pytest

import catrules
from catrules.lang import ast
from catrules.cli import main
from catrules.authoring.fmt import WIDTH, format_text
from catrules.lang.parser import parse

ROOT = Path(__file__).resolve().parents[1]
ALL_FILES = (sorted((ROOT / "games").glob("*.cat")) + sorted((ROOT / "tests" / "games").glob("*.cat"))
             + sorted((ROOT / "docs" / "examples").glob("*.cat")))
PLAYED = sorted((ROOT / "games").glob("*.cat")) + [ROOT / "tests" / "games" / n
                                                    for n in ("bank.cat", "feeding.cat", "lines.cat", "talk.cat")]
_POSITIONS = {"origins", "sources", "line", "column", "clause_pos", "zone_line", "zone_column", "setup_pos", "flow_pos",
              "tie_race", "source", "path"}


def _shape(n):
    """A tree without its positions (as in test_graph), so that moved lines compare equal."""
    if isinstance(n, ast.Zone):
        return ("Zone", n.name, tuple(prop[0] for prop in n.props))
    if isinstance(n, ast.Node):
        return (type(n).__name__,) + tuple(_shape(getattr(n, f)) for f in ast.fields(type(n))
                                           if f not in _POSITIONS or f == "source"
                                           and not isinstance(n, ast.GameFile))
    if isinstance(n, (list, tuple)):
        return tuple(_shape(x) for x in n)
    if isinstance(n, dict):
        return tuple(sorted((k, _shape(v)) for k, v in n.items() if k not in _POSITIONS))
    return n


def _comments(text):
    return [line[line.index("#"):].strip() for line in text.splitlines() if "#" in line.split('"')[0::2][-1]
            or line.lstrip().startswith("#")]


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_formatting_keeps_the_tree_and_the_comments_and_is_stable(path):
    text = path.read_text()
    once = format_text(text, str(path))
    assert format_text(once, str(path)) == once
    assert _shape(parse(once, str(path))) == _shape(parse(text, str(path)))
    assert sorted(_comments(once)) == sorted(_comments(text))
    assert "\n\n\n" not in once and once.endswith("\n") and not once.endswith("\n\n")
    for line in once.splitlines():
        assert line == line.rstrip()
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 4 == 0, line


def _events(path, text, players, seed):
    game = catrules.load_source(text, str(path))
    st = game.new_state(players=players, seed=seed, log=True)
    rng = random.Random(seed)
    for _ in range(20000):
        if st.finished:
            break
        d = st.pending()[0]
        st.apply(d.player, rng.choice(d.options).id, 0.5 if d.timed else None)
    assert st.finished
    return _no_lines(st.log), st.scores()


def _no_lines(x):
    if isinstance(x, dict):
        return {k: _no_lines(v) for k, v in x.items() if k != "line"}
    if isinstance(x, list):
        return [_no_lines(v) for v in x]
    return x


@pytest.mark.parametrize("path", PLAYED, ids=lambda p: p.name)
def test_the_formatted_game_plays_the_same_games(path):
    text = path.read_text()
    once = format_text(text, str(path))
    game = catrules.load_source(text, str(path))
    for seed in (1, 2):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        assert _events(path, once, players, seed) == _events(path, text, players, seed)


MESSY = '''\
catrules 3
game   "Messy"
players 2 to 4
# the deck
cards tile in deck:
  for each value in 1 to 3:
      card
  card with value -1   # a minus one
zone deck: shared,hidden,pile
zone hand: per player,owner,pile


counter total=0
define big(c)=c.value>2 and (c.value*2+1)%3==0
flow:
  for each player p:
      # each draws
      move top( deck ,1 ) to hand of p
      total = total+count( hand of p )-1
score:
  cards = count(hand of player)
'''

CANON = '''\
catrules 3
game "Messy"
players 2 to 4

# the deck
cards tile in deck:
    for each value in 1 to 3:
        card
    card with value -1  # a minus one

zone deck: shared, hidden, pile
zone hand: per player, owner, pile

counter total = 0
define big(c) = c.value > 2 and (c.value * 2 + 1) % 3 == 0

flow:
    for each player p:
        # each draws
        move top(deck, 1) to hand of p
        total = total + count(hand of p) - 1

score:
    cards = count(hand of player)
'''


def test_a_messy_file_gets_the_canonical_layout():
    assert format_text(MESSY) == CANON
    assert format_text(CANON) == CANON


def test_long_lines_are_wrapped_inside_brackets_or_with_a_backslash():
    long_sum = " + ".join(f"count(hand of p{i % 3})" for i in range(8))
    text = (f'catrules 3\ngame "x"\nplayers 2 to 2\nzone hand: per player, owner, pile\n'
            f'define total(p0, p1, p2) = {long_sum}\n'
            f'define pairs = [{", ".join(str(i * 1000) for i in range(30))}]\n')
    out = format_text(text)
    assert all(len(line) <= WIDTH for line in out.splitlines())
    assert " \\\n    + count(" in out                         # outside brackets: a `\` before a `+`
    assert "[0, 1000," in out and ",\n    " in out           # inside brackets: after a comma
    assert _shape(parse(out)) == _shape(parse(text))
    assert format_text(out) == out


def test_check_names_the_files_that_would_change_and_writes_nothing(tmp_path, capsys):
    messy, canon = tmp_path / "messy.cat", tmp_path / "canon.cat"
    messy.write_text(MESSY)
    canon.write_text(CANON)
    assert main(["fmt", "--check", str(messy), str(canon)]) == 1
    out, err = capsys.readouterr()
    assert out == f"would reformat: {messy}\n" and "1 file would change" in err
    assert messy.read_text() == MESSY
    assert main(["fmt", str(messy), str(canon)]) == 0
    assert capsys.readouterr().out == f"formatted: {messy}\n"
    assert messy.read_text() == CANON
    assert main(["fmt", "--check", str(messy), str(canon)]) == 0


def test_a_bad_file_is_reported_in_the_language_words_and_left_alone(tmp_path, capsys):
    bad = tmp_path / "bad.cat"
    bad.write_text('catrules 3\ngame "x"\nplayers 2 to\n')
    assert main(["fmt", str(bad), str(tmp_path / "missing.cat")]) == 1
    err = capsys.readouterr().err
    assert "bad.cat:3:13: error: the line ends too early" in err and "no such game file" in err
    assert "Traceback" not in err
    assert bad.read_text() == 'catrules 3\ngame "x"\nplayers 2 to\n'
