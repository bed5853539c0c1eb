"""Hostile save files and logs: a bounded run of tools/fuzz_files.py, the log digest, --force.

The full campaign is ``python tools/fuzz_files.py --count 1000 --seed 1``.
"""

import json
import sys
from pathlib import Path

import pytest

from catrules.cli import main
from catrules.play.replay import replay

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import fuzz_files  # noqa: E402

SAMPLE = 100
SEED = 20261124


@pytest.mark.parametrize("target", fuzz_files.TARGETS)
def test_a_sample_of_mutated_files_ends_cleanly(target):
    counts, bad = fuzz_files.campaign(target, SAMPLE, SEED, show_bad=False)
    assert not bad, "\n".join(map(str, bad))
    assert counts["clean-error"] > SAMPLE // 2, counts
    if target == "saves":
        assert counts["played"] > 0, counts          # mutants that still fit the game play on


def test_the_same_seed_gives_the_same_mutants(tmp_path):
    files = fuzz_files.originals(tmp_path, "logs")
    a = [fuzz_files.mutant(SEED, i, files, "logs") for i in range(30)]
    assert a == [fuzz_files.mutant(SEED, i, files, "logs") for i in range(30)]
    assert a != [fuzz_files.mutant(SEED + 1, i, files, "logs") for i in range(30)]


@pytest.fixture
def meow_log(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    path = tmp_path / "g.jsonl"
    assert main(["play", "games/meow.cat", "--seats", "random,random", "--seed", "3", "--quiet",
                 "--log", str(path)]) == 0
    return path


def _edit_header(path, **fields):
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head.update(fields)
    lines[0] = json.dumps(head, separators=(",", ":"), ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_full_log_replays_and_its_result_keeps_a_digest(meow_log, capsys):
    result = json.loads(meow_log.read_text().splitlines()[-1])
    assert result["type"] == "result" and len(result["digest"]) == 32
    assert main(["replay", str(meow_log)]) == 0
    assert "same game" in capsys.readouterr().out


@pytest.mark.parametrize("field,value", [("seats", ["greedy", "greedy"]), ("catrules", "9.9.9"),
                                         ("language", 99), ("title", "Meow (edited)")])
def test_an_edited_header_is_not_the_same_game(meow_log, capsys, field, value):
    _edit_header(meow_log, **{field: value})
    assert main(["replay", str(meow_log)]) == 1
    out = capsys.readouterr().out
    assert "same game" not in out and "DIFFERS" in out


def test_a_log_cut_before_its_result_is_reported_as_cut(meow_log, capsys):
    lines = meow_log.read_text().splitlines()
    meow_log.write_text("\n".join(lines[:-1]) + "\n")
    assert main(["replay", str(meow_log)]) == 1
    out = capsys.readouterr().out
    assert "no result line" in out and "same game" not in out


def test_a_log_with_crlf_line_ends_still_replays(meow_log):
    meow_log.write_bytes(meow_log.read_bytes().replace(b"\n", b"\r\n"))
    assert replay(meow_log).ok


@pytest.fixture
def changed_game(tmp_path):
    """A save of a copy of meow.cat, and that copy changed afterwards (a comment added)."""
    game_file = tmp_path / "mine.cat"
    game_file.write_text((ROOT / "games" / "meow.cat").read_text(encoding="utf-8"), encoding="utf-8")
    save = tmp_path / "mine.save.json"
    fuzz_files.make_save(str(game_file), 2, ["random", "random"], 3, 4, save)     # an absolute path
    with open(game_file, "a", encoding="utf-8") as f:
        f.write("\n# changed after the save\n")
    return game_file, save


def test_a_save_of_a_changed_game_file_is_refused_without_force(changed_game, capsys):
    game_file, save = changed_game
    assert main(["play", str(game_file), "--resume", str(save), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert str(save) in err and "--force" in err and "Traceback" not in err
    assert save.exists()


def test_force_resumes_a_save_of_a_changed_game_file(changed_game, capsys):
    game_file, save = changed_game
    assert main(["play", str(game_file), "--resume", str(save), "--quiet", "--force"]) == 0
    cap = capsys.readouterr()
    assert "--force" in cap.err and "Winner" in cap.out
