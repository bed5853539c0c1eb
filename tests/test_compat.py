"""Compatibility as a promise: a file written for language N keeps checking and playing as it did.

tests/games/old/ holds the corpus: games written the old way (a counter that starts as none used
as a player, a card value that is also a card type's name; language 1, 2 and 3 headers) and the
older versions of the shipped games, examples and test games recovered from git history (the
latest revision of each that said ``catrules 1`` or ``catrules 2``).  Each one checks (a check
newer than the file is a warning with its fix) and plays to the end.
"""

import random
import subprocess
import sys
from pathlib import Path

import pytest

import catrules
from catrules.check import strictness
from catrules.errors import GameFileError, RulesError

ROOT = Path(__file__).resolve().parent.parent
OLD = ROOT / "tests" / "games" / "old"
CORPUS = sorted(OLD.glob("*.cat"))


def play(game, players, seed, limit=5000):
    st = game.new_state(players=players, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not st.finished and n < limit:
        d = st.pending()[0]
        st.apply(d.player, rng.choice(d.options).id, rng.random() if d.timed else None)
        n += 1
    return st


def test_the_corpus_holds_every_older_version():
    versions = {p.read_text().split("\n", 1)[0] for p in CORPUS}
    assert {"catrules 1", "catrules 2", "catrules 3"} <= versions
    assert len(CORPUS) >= 60            # the older shipped games, examples and test games


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_an_older_file_checks_and_plays_to_the_end(path):
    game = catrules.load_game(path)     # raises GameFileError on any error
    for seed in range(2):
        if path.name.startswith("test-runaway"):      # made to be stopped, as tests/games/runaway.cat is
            with pytest.raises(RulesError, match="a chain of triggered effects went 100 links deep"):
                play(game, max(game.min_players, 2), seed)
            continue
        st = play(game, max(game.min_players, 2), seed)
        assert st.finished, f"{path.name} seed {seed} did not end"


def warnings_of(name):
    return [(d.line, d.message, d.hint) for d in catrules.load_game(OLD / name).warnings]


def test_a_counter_that_starts_as_none_used_as_a_player_warns_in_language_1():
    (w,) = warnings_of("leader_v1.cat")
    line, message, hint = w
    assert (line, message) == (27, "`won of ...` needs a player, and this may be none")
    assert hint.startswith("check it first: `if leader != none:`")
    assert "an error in files of language 2 and later; this file says `catrules 1`" in hint


def test_current_and_p_warn_in_language_1():
    assert [(w[0], w[1]) for w in warnings_of("current_v1.cat")] == [
        (24, "`hand of ...` needs a player, and this may be none"),
        (25, "`next` needs a player, and this may be none")]     # then `current` is someone: no more


def test_a_card_value_named_like_a_card_type_warns_in_language_1():
    ws = [(w[0], w[1]) for w in warnings_of("chameleon_v1.cat")]
    assert (9, "card value `chameleon` is also the name of a card type") in ws
    assert (12, "card value `fly` is also the name of a card type") in ws


def test_the_same_shapes_are_errors_in_the_versions_that_brought_them():
    src = (OLD / "leader_v1.cat").read_text().replace("catrules 1", "catrules 2", 1)
    with pytest.raises(GameFileError) as exc:
        catrules.load_source(src, "t.cat")
    assert [d.message for d in exc.value.diagnostics] == ["`won of ...` needs a player, and this may be none"]
    src = (OLD / "chameleon_v1.cat").read_text().replace("catrules 1", "catrules 2", 1)
    with pytest.raises(GameFileError):
        catrules.load_source(src, "t.cat")


@pytest.mark.parametrize("name, check", [("tricks_v2.cat", "counter-target"), ("bids_v3.cat", "counter-target")])
def test_a_counter_target_that_checked_in_language_2_and_3_is_a_warning(name, check):
    ws = warnings_of(name)
    assert [w[1] for w in ws] == [
        f"`{'tricks' if 'tricks' in name else 'bid'} of ...` needs a player, and this may be none"]
    assert f"language {strictness.ERROR_FROM[check]} and later" in ws[0][2]


def test_catrules_check_exits_0_with_warnings_on_an_older_file():
    out = subprocess.run([sys.executable, "-m", "catrules", "check", str(OLD / "leader_v1.cat")],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "warning: `won of ...` needs a player, and this may be none" in out.stdout + out.stderr
