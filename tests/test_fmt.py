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
#: Every game file in the repository.
ALL_FILES = sorted(p for d in ("games", "docs", "tests") for p in (ROOT / d).rglob("*.cat") if "_build" not in p.parts)


def _excluded():
    """The files .ci/fmt-exclude leaves out of `catrules fmt --check`, each with its reason."""
    found = {}
    for line in (ROOT / ".ci" / "fmt-exclude").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            path, _, reason = line.partition("#")
            found[path.strip()] = reason.strip()
    return found


EXCLUDED = _excluded()


def _excluded_by(rel: str):
    """The entry of .ci/fmt-exclude that leaves ``rel`` out (itself, or a folder ending in /), or None."""
    if rel in EXCLUDED:
        return rel
    return next((d for d in EXCLUDED if d.endswith("/") and rel.startswith(d)), None)


def _loads(path):
    try:
        catrules.load_game(path)
        return True
    except catrules.GameFileError:
        return False


#: Every game file that checks (the others are there for their errors).
PLAYED = [p for p in ALL_FILES if _loads(p)]
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


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_formatting_keeps_the_tree_and_the_comments_and_is_stable(path):
    text = path.read_text()
    once = format_text(text, str(path))
    assert format_text(once, str(path)) == once
    assert _shape(parse(once, str(path))) == _shape(parse(text, str(path)))
    assert sorted(_comments(once)) == sorted(_comments(text))
    assert "\n\n\n" not in once and once.endswith("\n") and not once.endswith("\n\n")
    lines = once.splitlines()
    for n, line in enumerate(lines):
        assert line == line.rstrip()
        indent = len(line) - len(line.lstrip(" "))
        # a multiple of 4, or a continuation aligned under the first token after an open bracket
        assert indent % 4 == 0 or any(len(p) > indent and p[indent - 1] in "([" for p in lines[max(0, n - 5):n]), line


def _events(path, text, players, seed):
    game = catrules.load_source(text, str(path))
    rng = random.Random(seed)
    st = None
    try:
        st = game.new_state(players=players, seed=seed, log=True)
        for _ in range(2000):
            if st.finished:
                break
            d = st.pending()[0]
            st.apply(d.player, rng.choice(d.options).id, 0.5 if d.timed else None)
    except catrules.CatrulesError as exc:      # a test game made to stop: it stops the same way
        return _no_lines(st.log if st else []), type(exc).__name__
    # a game made never to end (tests/games/never_ending) is compared over its first decisions
    return _no_lines(st.log), st.scores() if st.finished else "unfinished"


def _no_lines(x):
    if isinstance(x, dict):
        return {k: _no_lines(v) for k, v in x.items() if k != "line"}
    if isinstance(x, list):
        return [_no_lines(v) for v in x]
    return x


def test_the_files_that_are_not_formatted_are_few_and_each_says_why():
    assert len(PLAYED) >= 50 and len(ALL_FILES) >= 60
    files = {str(p.relative_to(ROOT)) for p in ALL_FILES}
    assert all(e in files or any(f.startswith(e) for f in files) for e in EXCLUDED), EXCLUDED
    assert all(len(reason) > 20 for reason in EXCLUDED.values()), EXCLUDED


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_game_file_is_in_the_canonical_layout_unless_excluded(path):
    rel = str(path.relative_to(ROOT))
    text = path.read_text()
    if _excluded_by(rel) == rel:
        assert format_text(text, rel) != text, f"{rel} is formatted: take it out of .ci/fmt-exclude"
    elif _excluded_by(rel):
        pass        # a folder kept as written: some of its files may happen to be in the layout
    else:
        assert format_text(text, rel) == text, f"run: catrules fmt {rel}"


@pytest.mark.parametrize("path", PLAYED, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_formatted_game_plays_the_same_games(path):
    text = path.read_text()
    once = format_text(text, str(path))
    game = catrules.load_source(text, str(path))
    for seed in (1, 2, 3):
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


def _game(body):
    return f'catrules 3\ngame "x"\nplayers 2 to 2\nzone deck: shared, hidden, pile\n{body}flow:\n    shuffle deck\n'


def test_a_comment_inside_a_cards_block_keeps_its_level():
    text = _game("cards tile in deck:\n    # the low ones\n    for each value in 1 to 3:\n        card\n"
                 "        # the end of the loop\n    # the last card\n    card with value 9\n    # after it\n\n")
    out = format_text(text)
    for comment in ("    # the low ones\n", "        # the end of the loop\n", "    # the last card\n",
                    "    # after it\n"):
        assert comment in out
    assert format_text(out) == out


def test_continuation_lines_aligned_under_a_bracket_stay_aligned():
    text = _game("define total(a, b) = max([count(a), count(b),\n"
                 "                          count(deck)])\n"
                 "define pairs = pick( 3, 1: 10,\n"
                 "                     2: 20, else: 0)\n")
    out = format_text(text)
    assert "max([count(a), count(b),\n                          count(deck)])" in out
    assert "pick(3, 1: 10,\n                    2: 20, else: 0)" in out        # under the 3, re-spaced
    assert format_text(out) == out


def test_a_long_pick_arm_is_never_split_after_its_key_and_its_rest_is_indented_further():
    arm = "x" * 90
    text = _game(f'define words(c) = pick(c,\n    1: "{arm}",\n'
                 f'    2: if c == 2 then "{"y" * 60}" else "{"z" * 30}",\n    else: "")\n')
    out = format_text(text)
    assert f'    1: "{arm}",\n' in out                      # too long, but a key keeps its value
    assert '    2: if c == 2 then "' in out and '\n        else "zzz' in out   # not read as a new arm
    assert format_text(out) == out
    assert _shape(parse(out)) == _shape(parse(text))


def test_a_choice_is_broken_before_its_prompt_not_inside_a_call():
    text = _game("").replace("flow:\n    shuffle deck\n",
        'flow:\n    for each player p:\n        p chooses k from top(deck, 3) default highest k.value asking '
        '"Keep one of the top 3 cards (the others go to the bottom)"\n')
    text = text.replace('zone deck: shared, hidden, pile\n',
                        'zone deck: shared, hidden, pile\ncards tile in deck:\n    4 cards with value 1\n\n')
    out = format_text(text)
    assert "top(deck, 3) default highest k.value \\\n            asking \"Keep one" in out
    assert format_text(out) == out
