"""The cache of checked games (catrules/check/game_cache.py) and what a start imports.

Each test points the per-user cache at its own directory (``XDG_CACHE_HOME``)
and counts the parses by wrapping :func:`catrules.lang.parser.parse_file`.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import catrules
from catrules.check import game_cache
from catrules.lang import parser

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(game_cache.ENV_OFF, raising=False)
    parses = []
    real = parser.parse_file

    def counting(path, *a, **k):
        parses.append(str(path))
        return real(path, *a, **k)
    monkeypatch.setattr(parser, "parse_file", counting)
    return tmp_path / "cache" / "catrules", parses


def play(game, players, seed):
    """A seeded game with seeded random choices: its scores and every decision."""
    st = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    while not st.finished:
        d = st.pending()[0]
        if d.kind == "race":
            st.apply(d.player, rng.choice(d.options).id, reaction_time=rng.random())
        else:
            st.apply(d.player, rng.choice(d.options).id)
    return st.scores(), st.history


@pytest.mark.parametrize("name, players", [("meow", 4), ("catlady", 2), ("flapcat", 4)])
def test_a_cached_game_plays_the_same(cache, name, players):
    folder, parses = cache
    path = str(ROOT / "games" / f"{name}.cat")
    first = catrules.load_game(path)
    assert len(parses) == 1 and len(list(folder.glob("game-*.pickle"))) == 1
    again = catrules.load_game(path)
    assert len(parses) == 1                      # from the cache: not parsed again
    assert again.warnings == first.warnings and again.title == first.title
    for seed in (1, 2):
        assert play(again, players, seed) == play(first, players, seed)


def test_a_corrupt_cache_file_is_rebuilt_silently(cache):
    folder, parses = cache
    path = str(ROOT / "games" / "meow.cat")
    catrules.load_game(path)
    (pickled,) = folder.glob("game-*.pickle")
    pickled.write_bytes(b"not a pickle at all")
    game = catrules.load_game(path)              # no error: parsed again, and stored again
    assert len(parses) == 2 and play(game, 3, 5)[0]
    catrules.load_game(path)
    assert len(parses) == 2                      # the rebuilt file serves the next start


def test_a_changed_file_is_parsed_again(cache, tmp_path):
    _folder, parses = cache
    path = tmp_path / "meow.cat"
    shutil.copy(ROOT / "games" / "meow.cat", path)
    catrules.load_game(path)
    catrules.load_game(path)
    assert len(parses) == 1
    path.write_text(path.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    catrules.load_game(path)
    assert len(parses) == 2


def test_a_cache_file_others_may_write_is_not_trusted(cache):
    folder, parses = cache
    path = str(ROOT / "games" / "meow.cat")
    catrules.load_game(path)
    (pickled,) = folder.glob("game-*.pickle")
    os.chmod(pickled, 0o666)
    catrules.load_game(path)
    assert len(parses) == 2
    os.chmod(folder, 0o777)                      # nor a directory others may write
    catrules.load_game(path)
    assert len(parses) == 3


def test_variants_and_the_switch_are_not_cached(cache, tmp_path, monkeypatch):
    folder, parses = cache
    shutil.copy(ROOT / "games" / "meow.cat", tmp_path / "base.cat")
    variant = tmp_path / "v.cat"
    variant.write_text('catrules 3\ngame "V"\nplayers 2 to 4\nextends "base.cat"\n', encoding="utf-8")
    catrules.load_game(variant)
    catrules.load_game(variant)
    assert parses.count(str(variant)) == 2
    monkeypatch.setenv(game_cache.ENV_OFF, "1")
    catrules.load_game(ROOT / "games" / "meow.cat")
    catrules.load_game(ROOT / "games" / "meow.cat")
    assert parses.count(str(ROOT / "games" / "meow.cat")) == 2


def test_the_package_imports_without_the_parser_or_the_solver():
    # what a start needs first: no lark (a cached game is not parsed), no scipy, no textual
    code = ("import sys, catrules, catrules.cli, catrules.cli.play; "
            "print(sorted(m for m in ('lark', 'scipy', 'textual') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_a_cached_game_loads_without_the_checks(tmp_path):
    # a second start unpickles the checked game and compiles it: the checker's modules, which
    # only a parse needs, are not imported (a checked game and its zones live in catrules.check.checked)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop(game_cache.ENV_OFF, None)
    code = ("import sys, catrules; catrules.load_game('games/meow.cat'); "
            "checking = ['catrules.check.' + m for m in ('checker', 'declarations', 'exprs', 'shows', 'checked', "
            "'game_checks')]; print(sorted(m for m in sys.modules if m in checking or m == 'lark'))")
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env,
                           check=True)
    assert "catrules.check.checker" in first.stdout                 # parsed and checked, then stored
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env,
                           check=True)
    assert again.stdout.strip() == "['catrules.check.checked']"
