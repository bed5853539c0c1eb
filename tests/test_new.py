"""`catrules new NAME`: a small working game to start from, and the examples of the CLI
reference for `new` and `fmt`, run as the page shows them."""

import random
import re
import shlex
from pathlib import Path

import pytest

import catrules
from catrules.cli import main
from catrules.authoring.fmt import format_text

ROOT = Path(__file__).resolve().parents[1]


def test_the_template_checks_plays_and_is_formatted(tmp_path, capsys):
    assert main(["new", "Tile Duel", "--dir", str(tmp_path)]) == 0
    path = tmp_path / "tile-duel.cat"
    game = catrules.load_game(path)
    assert game.title == "Tile Duel" and not game.warnings
    text = path.read_text()
    assert format_text(text, str(path)) == text
    for players in range(game.min_players, game.max_players + 1):
        for options in ([], ["short"]):
            st = game.new_state(players, seed=players, options=options, log=True)
            rng = random.Random(players)
            while not st.finished:
                d = st.pending()[0]
                st.apply(d.player, rng.choice(d.options).id, rng.random() if d.timed else None)
            assert len(st.scores()) == players
            assert any(e["t"] == "announce" and "wins the round" in e["text"] for e in st.log)


def test_an_existing_file_is_never_overwritten(tmp_path, capsys):
    path = tmp_path / "tile-duel.cat"
    path.write_text("mine")
    assert main(["new", "Tile Duel", "--dir", str(tmp_path)]) == 1
    assert path.read_text() == "mine"
    assert "already exists" in capsys.readouterr().err


def _console_blocks(section: str):
    page = (ROOT / "docs" / "cli.rst").read_text()
    body = page.split(f"\n{section}\n", 1)[1].split("\n\n\ncatrules ", 1)[0]
    for block in re.findall(r"\.\. code-block:: console\n\n((?:   .*\n?)+)", body):
        yield [line[3:] for line in block.splitlines()]


@pytest.mark.parametrize("section", ["catrules new", "catrules fmt"])
def test_the_cli_reference_examples_run_as_shown(section, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    if section == "catrules fmt":       # a game file that is not in the canonical layout
        (tmp_path / "games").mkdir()
        messy = (ROOT / "docs" / "examples" / "minimal.cat").read_text().replace("    ", "  ")
        (tmp_path / "games" / "mygame.cat").write_text(messy)
    blocks = list(_console_blocks(section))
    assert blocks
    for lines in blocks:
        commands = [i for i, line in enumerate(lines) if line.startswith("$ ")]
        for k, i in enumerate(commands):
            shown = lines[i + 1:commands[k + 1] if k + 1 < len(commands) else len(lines)]
            main(shlex.split(lines[i][2:])[1:])
            out = capsys.readouterr()
            printed = [x.rstrip() for x in (out.out + out.err).splitlines()]
            assert printed == [x.rstrip() for x in shown], lines[i]


@pytest.mark.parametrize("given, written", [("mygame.cat", "mygame.cat"), ("games/Duel.cat", "games/Duel.cat")])
def test_a_file_name_is_taken_as_the_file(given, written, tmp_path, capsys):
    # a user who types the file name gets that file, not "mygame-cat.cat"
    (tmp_path / "games").mkdir()
    assert main(["new", given, "--dir", str(tmp_path)]) == 0
    path = tmp_path / written
    assert sorted(p.name for p in tmp_path.rglob("*.cat")) == [path.name]
    assert catrules.load_game(path).title == Path(given).stem
