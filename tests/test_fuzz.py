"""A bounded sample of the mutation fuzzer (tools/fuzz.py): every mutant of the repository's game
files must end in a located error or in played games, never a traceback or a runaway.

Work is bounded by steps (the fuzzer's loop-round limit and decision budget), not by time.
The full campaign is ``python tools/fuzz.py --count 10000 --seed 1 --jobs 2``.
"""

import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import fuzz  # noqa: E402
import fuzz_saves  # noqa: E402

SAMPLE = 300
SEED = 20261123


@pytest.fixture(scope="module")
def sources():
    return [(str(f.relative_to(ROOT)), f.read_text(encoding="utf-8")) for f in fuzz.game_files()]


def test_the_fuzzer_covers_every_game_file_of_the_repository(sources):
    names = {n for n, _ in sources}
    assert {"games/meow.cat", "games/flapcat.cat", "games/catlady.cat"} <= names
    assert any(n.startswith("docs/examples/") for n in names) and any(n.startswith("tests/games/") for n in names)


def test_the_same_seed_gives_the_same_mutants(sources):
    a = [fuzz.mutant(SEED, i, sources) for i in range(50)]
    b = [fuzz.mutant(SEED, i, sources) for i in range(50)]
    assert a == b
    assert a != [fuzz.mutant(SEED + 1, i, sources) for i in range(50)]
    ops = {op for _n, o, _t in (fuzz.mutant(SEED, i, sources) for i in range(400)) for op in o}
    assert ops == {name for name, _f, _w in fuzz.MUTATIONS}


def test_a_sample_of_mutants_ends_cleanly(sources):
    counts = Counter()
    bad = []
    for i in range(SAMPLE):
        name, ops, text = fuzz.mutant(SEED, i, sources)
        outcome, detail = fuzz.run_one(name, text, SEED + i, games=1)
        counts[outcome] += 1
        if outcome in fuzz.BAD:
            bad.append((i, name, ops, outcome, detail))
    assert not bad, "\n".join(map(str, bad))
    # the sample exercises both sides: rejected files and games that run
    assert counts["rejected"] > SAMPLE // 3 and counts["played"] + counts["rules-error"] > SAMPLE // 10, counts


def test_the_outcome_table_lists_every_outcome():
    text = fuzz.table(Counter({"rejected": 3, "played": 1}))
    for o in fuzz.OUTCOMES:
        assert o in text
    assert "total" in text and "75.0%" in text


SAVES_SAMPLE = 40


def test_a_sample_of_hostile_saves_and_logs_ends_in_words(tmp_path):
    """The save and log fuzzer at small size: every targeted case (the four that once were
    tracebacks, times, deep nesting, huge lists, game paths that are links, pipes, folders) and
    a few wrong kinds at random end in an error in words naming the file, or load normally."""
    res = fuzz_saves.campaign(SAVES_SAMPLE, SEED, tmp_path)
    assert not res["bad"], "\n".join(map(str, res["bad"]))
    assert res["cases"] == len(fuzz_saves._targeted({})) + SAVES_SAMPLE
    refused = {(name, target) for name, target, outcome in res["outcomes"] if outcome == "clean-error"}
    for case in [("empty-frames", "save"), ("no-options", "save"), ("viewer=1", "log"), ("viewer=[1]", "log"),
                 ("race-time=" + str(10 ** 400)[:8], "race"), ("race-time=NaN", "race"),
                 ("race-time=-1", "race"), ("saved-time=Infinity", "save"), ("deep", "save"), ("deep", "log"),
                 ("huge-list", "save"), ("huge-list", "log"), ("game=LINK", "save"), ("game=LINK", "log"),
                 ("game=PIPE", "save"), ("game=FOLDER", "log")]:
        assert case in refused, case
    assert res["counts"]["clean-error"] > SAVES_SAMPLE // 2, res["counts"]


def test_the_saves_fuzzer_is_deterministic():
    import random
    orig = {"save": {"state": {"players": 2, "frames": [], "history": [[0, "c1"]]}, "game": "g.cat"},
            "log": [{"type": "header", "viewer": None}, {"event": "decision", "time": None}, {"type": "result"}],
            "race": [{"type": "header"}, {"event": "decision", "time": 0.5}, {"type": "result"}]}

    def names(seed):
        rng = random.Random(seed)
        return [fuzz_saves._random_case(rng, orig)[:2] for _ in range(30)]
    assert names("a") == names("a") and names("a") != names("b")
