"""``catrules rules``: the Markdown summary generated from a game file (catrules.authoring.summary)."""

import importlib.util
import re
from pathlib import Path

import pytest

import catrules
from catrules.lang import ast
from catrules.cli import main
from catrules.authoring.summary import choices, summary

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.cat"))
SECTIONS = ["## Components", "### Cards", "### Zones", "## Flow", "### The order of play",
            "## Choices", "## Triggers", "## Scoring", "## Winner"]

SMALL = '''\
catrules 3
game "Small"
players 2 to 3

option double: "Each card counts twice"

cards chip in bag:
    for each colour in red, blue:
        for each value in 1 to 3:
            card
    2 cards with colour gold, value 10, marks [star, moon]

zone bag: shared, hidden, pile
zone hand: per player, owner, pile
zone shown: per player, public, pile
zone pot: shared, public, row

counter moves of each player = 0

when card c enters pot if c.colour == gold:
    add 1 to moves of owner(c)

phase deal:
    for each player p:
        move top(bag, 2) to hand of p

flow:
    shuffle bag
    play deal
    secretly each player p chooses c from hand of p default highest c.value asking "Show a chip":
        move c to shown of p
    for each player p:
        if any(hand of p):
            p chooses asking "Your move, {p}":
                "to the pot":
                    openly p chooses c from hand of p asking "Which chip goes to the pot?"
                    move c to pot
                "keep it":
                    do nothing

score:
    chips = sum(shown, value)
    doubled = sum(shown, value) if double
    note gold = count(shown where colour == gold)

winner:
    highest total
    lowest gold
    ties race
'''


@pytest.fixture(scope="module")
def loaded():
    return {p.stem: catrules.load_game(p) for p in GAMES}


@pytest.fixture(scope="module")
def small():
    return catrules.load_source(SMALL, "small.cat")


def _section(text, title):
    """The lines of one ``## `` section."""
    return text.split(f"\n{title}\n", 1)[1].split("\n## ", 1)[0]


def _choice_rows(text):
    return [r for r in _section(text, "## Choices").splitlines() if re.match(r"\| \d+ \|", r)]


def _choice_nodes(g):
    return [n for body in g.bodies for n in ast.walk(body) if isinstance(n, (ast.Choose, ast.Menu, ast.Together))]


@pytest.mark.parametrize("name", [p.stem for p in GAMES])
def test_every_section_every_zone_item_and_choice_of_a_shipped_game(loaded, name):
    game = loaded[name]
    g = game.program.checked.game
    text = summary(game)
    assert text.startswith(f"# {g.title}\n")
    positions = [text.index(f"\n{s}\n") for s in SECTIONS]
    assert positions == sorted(positions)
    zones = _section(text, "## Components").split("### Zones", 1)[1]
    for z in g.zones:
        assert f"| `{z.name}` |" in zones
    for item in g.score:
        assert f"`{item.name}` = " in _section(text, "## Scoring")
    for o in g.options:
        assert f"- `{o.name}`: {o.text}" in text
    rows = _choice_rows(text)
    lines = sorted(n.line for n in _choice_nodes(g))
    assert [int(r.split("|")[1]) for r in rows] == lines
    assert f"({len(lines)} in the file)" in text
    for p in g.phases:
        assert f"### phase {p.name}\n" in text
    assert len(g.triggers) == _section(text, "## Triggers").count("### `when card")
    assert game.card_count == int(re.search(r"(\d+) cards in all", text).group(1))


def test_the_card_counts_of_meow(loaded):
    text = summary(loaded["meow"])
    assert "**cat**: 54 cards, dealt into `deck` at the start." in text
    assert "- `colour`: `green` 18, `blue` 18, `pink` 18" in text
    assert "- `value`: 18 different numbers from 1 to 18" in text
    assert "**award**: 27 cards" in text
    assert "- `kind`: `food` 11, `fishbone` 8, `fish` 4, `vase` 4" in text
    assert "| `hand` | each player | its owner only | pile | 0 |" in text
    assert "| `deck` | shared | nobody (only how many cards) | pile | 54 |" in text
    assert "- note, not counted: `fish_used` = `count(used)`" in text
    assert "  - `play round`\n    - `repeat 9 times`\n      - `play turn`" in text


def test_the_choices_say_who_chooses_when_and_with_which_prompt(loaded):
    meow = _choice_rows(summary(loaded["meow"]))
    assert "when `p == leader`" in meow[0] and '"Lead the trick: {first(row)} goes to the winner"' in meow[0]
    assert "when `not (p == leader)`" in meow[1] and "preferring `colour == lead.colour`" in meow[1]
    assert all("`lowest " in r for r in meow)
    flap = summary(loaded["flapcat"])
    assert "every player (in a race, fastest first)" in flap
    assert "every player (at once, in secret)" in flap
    assert 'after choosing "add it to a cat"' in flap
    assert "3. players still tied race: the fastest wins" in flap
    lady = summary(loaded["catlady"])
    assert "| `market` | shared | everyone | grid 3 by 3 | 0 |" in lady
    assert "2. then, among players still tied: highest cats_fed" in lady
    assert "- `colours`: a list: `black` on 9, `orange` on 9, `white` on 9; none on 80" in lady


def test_a_small_game_in_every_detail(small):
    text = summary(small)
    assert "A game for 2 to 3 players, generated from `small.cat`." in text
    assert "- `double`: Each card counts twice" in text
    assert "8 cards in all." in text
    assert "- `colour`: `red` 3, `blue` 3, `gold` 2" in text
    assert "- `value`: `1` 2, `2` 2, `3` 2, `10` 2" in text
    assert "- `marks`: a list: `star` on 2, `moon` on 2; none on 6" in text
    assert "| `pot` | shared | everyone | row | 0 |" in text
    assert "- `moves` (one per player), at first `0`" in text
    assert "### The order of play" in text and "- `play deal`\n" in text
    rows = _choice_rows(text)
    assert len(rows) == 3
    assert "every player (at once, in secret)" in rows[0] and '`"Show a chip"`' in rows[0]
    assert "`highest c.value`" in rows[0]
    assert "when `any(hand of p)`" in rows[1] and 'one of "to the pot", "keep it"' in rows[1]
    assert 'after choosing "to the pot"' in rows[2] and "(openly: everyone sees the choice)" in rows[2]
    assert "### `when card c enters pot if c.colour == gold` (line 20)" in text
    assert "- `add 1 to moves of owner(c)`" in _section(text, "## Triggers")
    scoring = _section(text, "## Scoring")
    assert "the sum of 2 items" in scoring
    assert "- `doubled` = `sum(shown, value)`, only in games with `double`" in scoring
    assert "1. highest total\n2. then, among players still tied: lowest gold\n" in text


def test_a_game_with_no_choice_and_no_trigger_says_so():
    text = summary(catrules.load_game(ROOT / "docs" / "examples" / "minimal.cat"))
    assert "The players make no choices: the game plays itself." in text
    assert "None: nothing happens by itself when a card moves." in text
    assert "2. players still tied share the win" in text
    assert choices(catrules.load_game(ROOT / "docs" / "examples" / "minimal.cat").program.checked.game) == []


def test_the_command_prints_or_writes_the_summary(tmp_path, capsys, loaded):
    assert main(["rules", str(ROOT / "games" / "meow.cat")]) == 0
    assert capsys.readouterr().out == summary(loaded["meow"])
    out = tmp_path / "meow.md"
    assert main(["rules", str(ROOT / "games" / "meow.cat"), "-o", str(out)]) == 0
    assert out.read_text() == summary(loaded["meow"])
    assert f"wrote {out}" in capsys.readouterr().err
    assert main(["rules", str(tmp_path / "nothing.cat")]) == 1
    assert "no such game file" in capsys.readouterr().err
    assert main(["rules", str(ROOT / "games" / "meow.cat"), "-o", str(tmp_path / "no" / "x.md")]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_the_example_in_the_cli_reference_is_what_the_command_prints(capsys):
    printed = summary(catrules.load_game(ROOT / "docs" / "examples" / "minimal.cat"))
    page = (ROOT / "docs" / "cli.rst").read_text()
    block = page.split("$ catrules rules docs/examples/minimal.cat\n", 1)[1]
    block = block.split(".. code-block:: markdown\n\n", 1)[1]
    lines = []
    for line in block.splitlines():
        if line and not line.startswith("   "):
            break
        lines.append(line[3:])
    assert "\n".join(lines).strip() + "\n" == printed


def test_the_docs_build_writes_one_page_per_shipped_game(tmp_path):
    spec = importlib.util.spec_from_file_location("docs_conf", ROOT / "docs" / "conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    assert [Path(p).name for p in conf._game_files(str(ROOT / "games"))][:len(GAMES)] == [p.name for p in GAMES]
    page = conf.rules_page(str(ROOT / "games" / "meow.cat"), str(ROOT))
    assert page.startswith("Meow: the summary\n=================\n")
    assert "   - `colour`: `green` 18, `blue` 18, `pink` 18" in page
    assert "summaries" in (ROOT / "docs" / "index.rst").read_text()
