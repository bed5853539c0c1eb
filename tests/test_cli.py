"""The ``catrules`` command line, run in-process through ``main(argv)`` (and once as a program)."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from catrules import __version__
from catrules.cli import main
from catrules.cli.play import NO_TTY_MESSAGE

ROOT = Path(__file__).resolve().parent.parent
MEOW = str(ROOT / "games" / "meow.cat")
GAMES = Path(__file__).resolve().parent / "games"

BROKEN = """\
catrules 1
game "Broken"
players 2 to 4

cards number in deck:
    for each value in 1 to 5:
        card

zone deck: shared, hidden, pile
zone hand: per player, owner, pile

flow:
    shuffle deck
    move top(deck) to hnd of first(players)

score:
    points = count(hand)
"""


@pytest.fixture(autouse=True)
def _clean(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CATRULES_FORCE_TTY", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def no_traceback(*texts):
    for t in texts:
        assert "Traceback" not in t


# ------------------------------------------------------------------- check

def test_check_broken_file_points_at_the_place(capsys, tmp_path):
    bad = tmp_path / "broken.cat"
    bad.write_text(BROKEN)
    code, out, err = run(capsys, "check", bad)
    assert code == 1
    assert f"{bad}:14:23:" in err
    lines = err.splitlines()
    i = next(k for k, ln in enumerate(lines) if "move top(deck) to hnd" in ln)
    assert lines[i + 1].strip() == "^"
    assert lines[i + 1].index("^") == lines[i].index("hnd")
    assert "hint:" in err and "hand" in err
    no_traceback(out, err)


def test_check_good_file(capsys):
    code, out, err = run(capsys, "check", MEOW)
    assert code == 0
    assert out.strip() == f"ok: {MEOW} (Meow, 81 cards, players 2-6)"


def test_check_several_files_and_a_missing_one(capsys, tmp_path):
    code, out, err = run(capsys, "check", MEOW, tmp_path / "nope.cat")
    assert code == 1
    assert "ok:" in out and "no such game file" in err
    no_traceback(out, err)


# ------------------------------------------------------------------- graph

def test_graph_dot_and_mermaid(capsys, tmp_path):
    code, out, _ = run(capsys, "graph", MEOW)
    assert code == 0 and out.startswith('digraph "Meow"') and "->" in out
    code, out, _ = run(capsys, "graph", MEOW, "--format", "mermaid")
    assert code == 0 and out.startswith("flowchart TD") and "-->" in out
    target = tmp_path / "g.mmd"
    code, out, err = run(capsys, "graph", MEOW, "--format", "mermaid", "-o", target)
    assert code == 0 and target.read_text().startswith("flowchart TD") and "wrote" in err


# -------------------------------------------------------------------- play

def test_play_bots_only_finishes_with_a_score_table(capsys):
    code, out, err = run(capsys, "play", MEOW, "--seats", "random,random,random", "--seed", "3")
    assert code == 0, err
    assert "Final score" in out
    assert "total" in out and "fish used (note)" in out
    assert "Winner" in out
    assert max(len(x) for x in out.splitlines()) <= 80


def test_play_quiet(capsys):
    code, out, _ = run(capsys, "play", MEOW, "--seats", "random,greedy", "--seed", "1", "--quiet")
    assert code == 0
    assert "Final score" in out and "→" not in out


def test_play_human_without_terminal(capsys):
    code, out, err = run(capsys, "play", MEOW)
    assert code == 2
    assert NO_TTY_MESSAGE in err
    assert NO_TTY_MESSAGE == ("catrules play needs a terminal for the human seat; "
                              "use --seats random,greedy,... to watch bots")


@pytest.mark.parametrize("argv, code, words", [
    (["play", MEOW, "--option", "expret", "--seats", "random,random"], 2, ["expert"]),
    (["play", MEOW, "--players", "9", "--seats", "random"], 2, ["2 to 6"]),
    (["play", MEOW, "--seats", "random,clever"], 2, ["clever", "hint"]),
    (["play", "nowhere.cat", "--seats", "random,random"], 1, ["no such game file"]),
    (["play", "--resume", "nowhere.save.json"], 1, ["no save file"]),
    (["play"], 2, ["resume"]),
    (["simulate", MEOW, "--players", "1"], 2, ["2 to 6"]),
    (["simulate", MEOW, "--bots", "random,random,random", "--players", "4"], 2, ["3 bots"]),
    (["replay", "nowhere.jsonl"], 1, ["no log file"]),
    (["frobnicate"], 2, ["invalid choice"]),
])
def test_user_errors_are_one_clear_message(capsys, argv, code, words):
    got, out, err = run(capsys, *argv)
    assert got == code
    for w in words:
        assert w in err
    no_traceback(out, err)


def test_unreadable_save(capsys, tmp_path):
    bad = tmp_path / "x.save.json"
    bad.write_text("{not json")
    code, out, err = run(capsys, "play", "--resume", bad)
    assert code == 1 and "not a catrules save file" in err
    no_traceback(out, err)


def test_runtime_rules_error_is_a_message(capsys):
    code, out, err = run(capsys, "play", GAMES / "runaway.cat", "--seats", "random,random")
    assert code == 1
    assert "chain of triggered effects" in err
    no_traceback(out, err)


def result_line(path):
    lines = [json.loads(x) for x in Path(path).read_text().splitlines()]
    return [x for x in lines if x["type"] == "result"][0]


def test_eof_saves_and_resume_finishes_the_same_game(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("CATRULES_FORCE_TTY", "1")
    common = [MEOW, "--seed", "11", "--seats", "human,greedy,random"]
    # the whole game, every answer Enter (the default option)
    code, out, err = run(capsys, "play", *common, "--log", "full.jsonl", stdin="\n" * 200,
                         monkeypatch=monkeypatch)
    assert code == 0, err
    assert "Final score" in out
    full = result_line("full.jsonl")

    # the same answers, but the input ends after five of them
    code, out, err = run(capsys, "play", *common, "--log", "part.jsonl", stdin="\n" * 5,
                         monkeypatch=monkeypatch)
    assert code == 1
    save = tmp_path / "meow-11.save.json"
    assert save.exists()
    assert "Game saved to meow-11.save.json" in out
    assert "catrules play --resume meow-11.save.json" in out.replace("\n", " ")
    data = json.loads(save.read_text())
    assert data["cli"]["seats"] == ["human", "greedy", "random"]

    # the log is written again only where the command line says (a save never picks a file to write)
    code, out, err = run(capsys, "play", "--resume", save, "--log", "part.jsonl", stdin="\n" * 200,
                         monkeypatch=monkeypatch)
    assert code == 0, err
    assert "Resumed" in out and "Final score" in out
    assert result_line("part.jsonl") == full
    assert Path("part.jsonl").read_text() == Path("full.jsonl").read_text()

    code, out, err = run(capsys, "replay", "part.jsonl", "--game", MEOW)    # the game is not beside the log
    assert code == 0, out + err
    assert "same game" in out


def test_ctrl_c_saves_with_code_130(capsys, monkeypatch):
    monkeypatch.setenv("CATRULES_FORCE_TTY", "1")

    class Interrupting(io.StringIO):
        def readline(self, *a):
            raise KeyboardInterrupt
    monkeypatch.setattr(sys, "stdin", Interrupting())
    code = main(["play", MEOW, "--seed", "4", "--seats", "human,random", "--save", "here.json"])
    out, err = capsys.readouterr()
    assert code == 130
    assert "Game saved to here.json" in out
    assert Path("here.json").exists()


def test_q_saves_and_quits(capsys, monkeypatch):
    monkeypatch.setenv("CATRULES_FORCE_TTY", "1")
    code, out, err = run(capsys, "play", MEOW, "--seed", "4", "--seats", "human,random", stdin="1\nq\n",
                         monkeypatch=monkeypatch)
    assert code == 0
    assert "Game saved to meow-4.save.json" in out


def test_play_screen_fits_80_columns(capsys, monkeypatch):
    monkeypatch.setenv("CATRULES_FORCE_TTY", "1")
    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = run(capsys, "play", MEOW, "--seed", "5", "--players", "6", stdin="\n" * 200,
                         monkeypatch=monkeypatch)
    assert code == 0, err
    assert max(len(x) for x in out.splitlines()) <= 80
    assert "Your choice" in out and "decision 1" in out


# ---------------------------------------------------------------- simulate

def _sim(capsys, *extra):
    code, out, err = run(capsys, "simulate", MEOW, "--players", "3", "--games", "4", "--seed", "2", *extra)
    assert code == 0, err
    return out, err


def test_simulate_json_is_deterministic(capsys):
    a = json.loads(_sim(capsys, "--json")[0])
    b = json.loads(_sim(capsys, "--json")[0])
    assert "timing" in a
    a.pop("timing"), b.pop("timing")
    assert a == b
    assert a["games"] == 4 and len(a["seats"]) == 3
    c = json.loads(_sim(capsys, "--json", "--bots", "greedy,random,random")[0])
    assert [s["spec"] for s in c["seats"]] == ["greedy", "random", "random"]
    d = json.loads(_sim(capsys, "--json", "--seats", "greedy,random,random")[0])   # as play names them
    d.pop("timing"), c.pop("timing")
    assert d == c


def test_simulate_leaves_nothing_frozen_for_a_caller_in_process(capsys):
    # the command freezes what is loaded while the games run (the collector skips it), and
    # unfreezes it after: a program that calls main() goes on with its objects collectable
    import gc
    assert gc.get_freeze_count() == 0
    _sim(capsys, "--json")
    assert gc.get_freeze_count() == 0


def test_simulate_table_and_log(capsys):
    out, err = _sim(capsys, "--log", "sim.jsonl")
    assert "wins" in out and "mean score" in out and "decisions per game" in out and "games/s" in out
    assert err == ""                      # no progress bar when stderr is not a terminal
    strip = lambda s: [x for x in s.splitlines() if not x.startswith("time:")]  # noqa: E731
    assert strip(out) == strip(_sim(capsys, "--log", "sim.jsonl")[0])
    code, out, _ = run(capsys, "replay", "sim.jsonl", "--game", MEOW)
    assert code == 0 and "in 4 games" in out


# ------------------------------------------------------------------ replay

def test_replay_reports_a_difference(capsys):
    code, _, _ = run(capsys, "play", MEOW, "--seats", "random,random", "--seed", "8", "--quiet", "--log", "g.jsonl")
    assert code == 0
    code, out, _ = run(capsys, "replay", "g.jsonl", "--game", MEOW)
    assert code == 0 and out.startswith("replayed ") and "same game" in out
    lines = Path("g.jsonl").read_text().splitlines()
    for k, ln in enumerate(lines):
        ev = json.loads(ln)
        if ev.get("event") == "decision":
            other = "c0" if ev["option"] != "c0" else "c1"
            lines[k] = ln.replace(f'"option":"{ev["option"]}"', f'"option":"{other}"')
            break
    Path("bad.jsonl").write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", "bad.jsonl", "--game", MEOW)
    assert code == 1 and "line" in out
    no_traceback(out, err)


# -------------------------------------------------------------------- help

@pytest.mark.parametrize("cmd", [[], ["play"], ["simulate"], ["check"], ["graph"], ["replay"]])
def test_help_teaches(capsys, cmd):
    code, out, _ = run(capsys, *cmd, "--help")
    assert code == 0
    assert "example" in out and "catrules" in out
    if cmd:
        assert "default" in out or cmd[0] in ("check", "replay")


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and __version__ in out


def test_python_dash_m(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "catrules", "check", MEOW], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and r.stdout.startswith("ok:")


def test_real_command_with_forced_tty(tmp_path):
    """The environment variable CATRULES_FORCE_TTY lets a script drive a human seat."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), CATRULES_FORCE_TTY="1", NO_COLOR="1")
    r = subprocess.run([sys.executable, "-m", "catrules", "play", MEOW, "--seed", "2", "--seats", "human,random"],
                       input="\n" * 3, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert "Game saved to meow-2.save.json" in r.stdout
    assert (tmp_path / "meow-2.save.json").exists()
    env.pop("CATRULES_FORCE_TTY")
    r = subprocess.run([sys.executable, "-m", "catrules", "play", MEOW], input="", capture_output=True,
                       text=True, env=env, cwd=tmp_path)
    assert r.returncode == 2 and NO_TTY_MESSAGE in r.stderr


def test_resume_a_game_saved_at_its_first_decision(capsys, monkeypatch):
    monkeypatch.setenv("CATRULES_FORCE_TTY", "1")
    code, out, _ = run(capsys, "play", MEOW, "--seed", "21", "--seats", "human,human", stdin="",
                       monkeypatch=monkeypatch)
    assert code == 1 and Path("meow-21.save.json").exists()
    code, out, err = run(capsys, "play", "--resume", "meow-21.save.json", stdin="\n" * 200,
                         monkeypatch=monkeypatch)
    assert code == 0, err
    assert "Final score" in out


# ------------------------------------------------------- play: save files

def test_a_save_is_removed_when_its_game_ends_and_decisions_number_on(capsys, monkeypatch):
    monkeypatch.setenv("CATRULES_FORCE_TTY", "1")
    code, out, _ = run(capsys, "play", MEOW, "--seed", "6", "--seats", "human,random", stdin="\n" * 5,
                       monkeypatch=monkeypatch)
    assert code == 1 and "decision 5" in out and "decision 6" in out
    save = Path("meow-6.save.json")
    assert json.loads(save.read_text())["cli"]["decisions"][0] == 5     # answered, kept in the save
    # the sixth decision was asked, not answered: after the resume it is asked again as decision 6
    code, out, err = run(capsys, "play", "--resume", save, stdin="\n" * 200, monkeypatch=monkeypatch)
    assert code == 0, err
    assert "decision 6" in out and "decision 1 " not in out and "decision 5 " not in out
    assert not save.exists() and "save file meow-6.save.json is removed" in out


def test_an_existing_save_is_never_overwritten_without_asking(capsys, monkeypatch):
    monkeypatch.setenv("CATRULES_FORCE_TTY", "1")
    Path("meow-4.save.json").write_text("an earlier game")
    Path("meow-4-2.save.json").write_text("another one")
    code, out, _ = run(capsys, "play", MEOW, "--seed", "4", "--seats", "human,random", stdin="1\nq\n",
                       monkeypatch=monkeypatch)
    assert code == 0
    assert Path("meow-4.save.json").read_text() == "an earlier game"
    assert Path("meow-4-2.save.json").read_text() == "another one"
    assert json.loads(Path("meow-4-3.save.json").read_text())["catrules_save"] == 1
    assert "meow-4.save.json already exists" in out and "Game saved to meow-4-3.save.json" in out
    # the save a game was resumed from is its own: it is updated in place
    code, out, _ = run(capsys, "play", "--resume", "meow-4-3.save.json", stdin="1\nq\n", monkeypatch=monkeypatch)
    assert code == 0 and "Game saved to meow-4-3.save.json" in out and not Path("meow-4-4.save.json").exists()


def test_plain_and_pipes_get_the_line_ui(capsys, monkeypatch):
    """--plain, or an input or output that is not a terminal: the line UI; else the full screen."""
    import catrules
    from catrules.cli import play as cli_play
    from catrules.frontends.terminal import TerminalSeat
    from catrules.frontends.tui import TuiSeat
    monkeypatch.setenv("CATRULES_FORCE_TTY", "1")
    monkeypatch.setattr(cli_play, "_real_terminal", lambda: True)
    code, out, _ = run(capsys, "play", MEOW, "--plain", "--seed", "4", "--seats", "human,random",
                       stdin="q\n", monkeypatch=monkeypatch)
    assert code == 0 and "Your choice" in out and "decision 1" in out
    monkeypatch.undo()
    assert not cli_play._real_terminal()             # pytest's input is not a terminal
    game = catrules.load_game(MEOW)
    seats = cli_play._make_seats(["human", "random"], game, None, ["you", "random"], full_screen=True)
    assert isinstance(seats[0], TuiSeat)
    seats = cli_play._make_seats(["human", "random"], game, None, ["you", "random"], full_screen=False)
    assert isinstance(seats[0], TerminalSeat)


def test_an_option_of_another_command_is_named_with_the_one_meant(capsys):
    # `simulate` says --bots and `play` says --seats: a player who knows one types it in the other
    meow = str(Path(__file__).resolve().parent.parent / "games" / "meow.cat")
    assert main(["play", meow, "--bots", "human,greedy"]) == 2
    e = capsys.readouterr().err
    assert "unrecognized arguments: --bots human,greedy" in e
    assert "did you mean `--seats` for `--bots`? `catrules play --help` explains every option" in e
    assert main(["simulate", meow, "--gmes", "3"]) == 2
    assert "did you mean `--games` for `--gmes`?" in capsys.readouterr().err
    assert main(["check", meow, "--frobnicate"]) == 2
    e = capsys.readouterr().err
    assert "did you mean" not in e and "`catrules check --help` explains every option" in e
