"""Saves and logs validated as data before use, and the game file they may make catrules read.

Each case that once ended in a Python traceback (an empty `frames`, a decision with no
options, a log header's `viewer` of the wrong kind, a race time of 400 digits) is now one
error in words naming the file and the field; a save's or log's `game` is read only where
docs/logs.rst says (beside it or here, a regular `.cat` file once links are resolved), and
nothing read from such a file is ever shown.
"""

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from catrules import api
from catrules.bots.basic import make_seat
from catrules.cli import main
from catrules.errors import SaveError
from catrules.play.match import Match
from catrules.play.validate import Int, Invalid, Items, Maybe, Num, Record, Row, Text, check

ROOT = Path(__file__).resolve().parent.parent
MEOW = ROOT / "games" / "meow.cat"
RACE = ROOT / "tests" / "games" / "race.cat"
SECRET = "password-line-that-must-never-be-shown"
PYTHON_WORDS = ("Traceback", "IndexError", "ValueError", "TypeError", "OverflowError", "KeyError", "randrange")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    for w in PYTHON_WORDS:
        assert w not in out + err, out + err
    return code, out, err


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder of its own, and a current folder elsewhere (neither holds the repository's games)."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    (tmp_path / "saves").mkdir()
    return tmp_path / "saves"


def _save(folder: Path, game_file: Path = MEOW, decisions: int = 3) -> Path:
    game = api.load_game(game_file)
    st = game.new_state(2, seed=5)
    for _ in range(decisions):
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    path = folder / "g.save.json"
    Match(game, st, [make_seat("random"), make_seat("random")]).save(path, extra={"cli": {"seats": ["random"] * 2}})
    return path


def _edit(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _log(capsys, folder: Path, game_file: Path = MEOW, seats: str = "random,random") -> Path:
    path = folder / "g.jsonl"
    code, _out, err = run(capsys, "play", game_file, "--seats", seats, "--seed", "6", "--quiet", "--log", path)
    assert code == 0, err
    return path


def _edit_lines(path: Path, change) -> None:
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    change(lines)
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))


# ------------------------------------------------------------ the schema layer

def test_a_spec_names_the_field_and_never_echoes_the_value():
    spec = Record({"seats": Items(Text()), "viewer": Maybe(Int(0, 3)), "time": Num(0, 10),
                   "block": Row([Text(), Int(0)], "a block")}, required=("seats",))
    check({"seats": ["a"], "viewer": None, "time": 2.5, "block": ["x", 1]}, spec)
    cases = [({}, "`seats` is missing"),
             ({"seats": ["a", 7]}, "`seats[1]` should be a text, not a whole number"),
             ({"seats": [], "viewer": SECRET}, "`viewer` should be a whole number from 0 to 3, not a text"),
             ({"seats": [], "time": 10 ** 400}, "`time` should be a number from 0 to 10, not a number outside"),
             ({"seats": [], "time": float("nan")}, "not a number that is not finite"),
             ({"seats": [], "time": True}, "not true"),
             ({"seats": [], "block": ["x", -1]}, "`block[1]`")]
    for value, words in cases:
        with pytest.raises(Invalid) as info:
            check(value, spec)
        assert words in str(info.value) and SECRET not in str(info.value)


# ------------------------------------------------------ saves: known tracebacks

def test_a_save_with_no_running_block_is_refused_in_words(capsys, folder):
    path = _save(folder)
    _edit(path, lambda d: d["state"].update(frames=[]))
    code, _out, err = run(capsys, "play", MEOW, "--resume", path, "--seats", "random,random", "--quiet")
    assert code == 1 and "cannot resume" in err and "`frames` is empty" in err


def test_a_pending_decision_with_no_options_is_refused_in_words(capsys, folder):
    path = _save(folder)

    def empty(d):
        p = d["state"]["pending"]
        for x in p["players"]:
            p["options"][x] = []
    _edit(path, empty)
    code, _out, err = run(capsys, "play", MEOW, "--resume", path, "--seats", "random,random", "--quiet")
    assert code == 1 and "choose among no options" in err


@pytest.mark.parametrize("time", [10 ** 400, -1, 10 ** 9, "1.5", True])
def test_a_saved_reaction_time_must_be_a_bounded_number(folder, time):
    game = api.load_game(MEOW)
    state = Match.read_save(_save(folder))["state"]
    state["history"][0] = state["history"][0][:2] + [time]
    with pytest.raises(SaveError, match="time is a number of seconds from 0"):
        game.restore(state)


@pytest.mark.parametrize("field,value,words", [
    ("state", {"players": "2", "frames": [], "over": False}, "`state.players` should be a whole number"),
    ("state", {"players": 2, "frames": [["flow", 0, {}]], "over": False}, "`state.frames[0]` should be a running block"),
    ("bot_rng", [3, [1] * 10, None], "`bot_rng[1]` has 10 items"),
    ("game", ["x.cat"], "`game` should be a text, not a list of 1 item"),
    ("cli", {"seats": "random,random"}, "`cli.seats` should be a list"),
    ("cli", {"seats": ["random"], "decisions": [-5]}, "`cli.decisions[0]` should be a whole number from 0"),
])
def test_a_damaged_save_names_its_file_and_field(capsys, folder, field, value, words):
    path = _save(folder)
    _edit(path, lambda d: d.update({field: value}))
    code, _out, err = run(capsys, "play", MEOW, "--resume", path, "--seats", "random,random", "--quiet")
    assert code == 1 and str(path) in err and words in err, err


# ------------------------------------------------------- logs: known tracebacks

@pytest.mark.parametrize("viewer,words", [("1", "not a text"), ([1], "not a list of 1 item"), (2, "from 0 to 1"),
                                          (-1, "from 0 to")])
def test_a_log_header_viewer_of_the_wrong_kind_is_refused_in_words(capsys, folder, viewer, words):
    path = _log(capsys, folder)
    _edit_lines(path, lambda ls: ls[0].update(viewer=viewer))
    code, _out, err = run(capsys, "replay", path, "--game", MEOW)
    assert code == 1 and f"{path}:1:" in err and "`viewer`" in err and words in err, err


@pytest.mark.parametrize("time", [10 ** 400, -0.5, 10 ** 7, "0.3", [0.3], False])
def test_a_logged_race_time_must_be_a_finite_bounded_number(capsys, folder, time):
    path = _log(capsys, folder, RACE, "random,random:fast")

    def change(lines):
        k = next(i for i, x in enumerate(lines) if x.get("event") == "decision" and x.get("time") is not None)
        lines[k]["time"] = time
    _edit_lines(path, change)
    code, _out, err = run(capsys, "replay", path, "--game", RACE)
    assert code == 1 and "`time` should be a number from 0 to" in err, err


def test_a_logged_nan_time_is_refused_as_it_is_read(capsys, folder):
    path = _log(capsys, folder, RACE, "random,random:fast")
    lines = path.read_text().splitlines()
    k = next(i for i, x in enumerate(lines) if '"event":"decision"' in x and '"time":null' not in x)
    lines[k] = re.sub(r'"time":[0-9.e+-]+', '"time":NaN', lines[k])
    path.write_text("\n".join(lines) + "\n")
    code, _out, err = run(capsys, "replay", path, "--game", RACE)
    assert code == 1 and f"{path}:{k + 1}:" in err and "NaN" in err


@pytest.mark.parametrize("field,value", [("players", "two"), ("players", 0), ("seats", "random"),
                                         ("options", [["x"]]), ("seed", 1.5), ("game", {"a": 1})])
def test_a_log_header_field_of_the_wrong_kind_is_refused_in_words(capsys, folder, field, value):
    path = _log(capsys, folder)
    _edit_lines(path, lambda ls: ls[0].update({field: value}))
    code, _out, err = run(capsys, "replay", path, "--game", MEOW)
    assert code == 1 and f"{path}:1: this header line is damaged: its field `{field}" in err, err


# ---------------------------------------------------- the game file they name

def _secret_file(tmp_path: Path) -> Path:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET + "\nmore\n")
    return secret


def test_a_save_naming_a_link_to_another_file_is_refused_and_nothing_is_read(capsys, folder, tmp_path):
    path = _save(folder)
    (folder / "x.cat").symlink_to(_secret_file(tmp_path))
    _edit(path, lambda d: (d.update(game=str(folder / "x.cat")), d["cli"].update(game_abs=str(folder / "x.cat"))))
    code, out, err = run(capsys, "play", "--resume", path, "--seats", "random,random", "--quiet")
    assert code == 1 and "does not end in .cat" in err and "not a .cat game file" in err
    assert SECRET not in out + err and "catrules play GAME.cat --resume" in err


def test_a_log_naming_a_link_to_another_file_is_refused_and_nothing_is_read(capsys, folder, tmp_path):
    path = _log(capsys, folder)
    (folder / "x.cat").symlink_to(_secret_file(tmp_path))
    _edit_lines(path, lambda ls: ls[0].update(game="x.cat"))
    code, out, err = run(capsys, "replay", path)
    assert code == 1 and "does not end in .cat" in out and "--game GAME.cat" in out
    assert SECRET not in out + err


def test_a_file_beside_a_log_that_is_not_a_game_is_not_echoed(capsys, folder, tmp_path):
    path = _log(capsys, folder)
    (folder / "x.cat").write_text(SECRET + "\n")
    _edit_lines(path, lambda ls: ls[0].update(game="x.cat"))
    code, out, err = run(capsys, "replay", path)
    assert code == 1 and "does not load" in out and "line 1, column" in out and "catrules check" in out
    assert SECRET not in out + err
    # the same file named on the command line is the person's own: its problems are shown in full
    code, out, err = run(capsys, "replay", path, "--game", folder / "x.cat")
    assert code == 1 and SECRET in out + err


def test_a_save_naming_a_file_beside_it_that_is_not_a_game_is_not_echoed(capsys, folder):
    path = _save(folder)
    (folder / "x.cat").write_text(SECRET + "\n")
    _edit(path, lambda d: d.update(game="x.cat"))
    code, out, err = run(capsys, "play", "--resume", path, "--seats", "random,random", "--quiet")
    assert code == 1 and "does not load" in err and SECRET not in out + err


def test_a_game_file_outside_both_folders_is_read_only_when_named(capsys, folder, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(MEOW, elsewhere / "meow.cat")
    path = _log(capsys, folder, elsewhere / "meow.cat")
    (folder / "link.cat").symlink_to(elsewhere / "meow.cat")       # a link beside the log to a .cat elsewhere
    for name in (str(elsewhere / "meow.cat"), "link.cat"):
        _edit_lines(path, lambda ls: ls[0].update(game=name))
        code, out, _err = run(capsys, "replay", path)
        assert code == 1 and "outside the folder of the log" in out and "--game GAME.cat" in out
    code, out, err = run(capsys, "replay", path, "--game", elsewhere / "meow.cat")
    assert code == 1 and "digest" in out                              # replayed; only the edited header differs
    _edit_lines(path, lambda ls: ls[0].update(game=str(elsewhere / "meow.cat")))
    code, out, err = run(capsys, "replay", path, "--game", elsewhere / "meow.cat")
    assert code == 0 and "same game" in out


def test_a_log_replays_through_a_link_that_stays_in_its_folder(capsys, folder):
    (folder / "games").mkdir()
    shutil.copy(MEOW, folder / "games" / "meow.cat")
    (folder / "m.cat").symlink_to(folder / "games" / "meow.cat")
    path = _log(capsys, folder, folder / "m.cat")         # the current folder is elsewhere
    code, out, _err = run(capsys, "replay", path)
    assert code == 0 and "same game" in out


def test_a_save_resumes_with_its_own_game_file_elsewhere_but_not_with_another(capsys, folder, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(MEOW, elsewhere / "meow.cat")
    path = _save(folder, elsewhere / "meow.cat")
    # the game it was saved with: its bytes have the save's fingerprint
    code, out, err = run(capsys, "play", "--resume", path, "--seats", "random,random", "--quiet")
    assert code == 0, err
    path = _save(folder, elsewhere / "meow.cat")
    (elsewhere / "meow.cat").write_text(MEOW.read_text() + "\n# changed\n")
    code, out, err = run(capsys, "play", "--resume", path, "--seats", "random,random", "--quiet")
    assert code == 1 and "outside the folder of the save" in err and "catrules play GAME.cat --resume" in err
    # named on the command line, it is read (and then checked against the save)
    code, out, err = run(capsys, "play", elsewhere / "meow.cat", "--resume", path, "--seats", "random,random",
                         "--quiet", "--force")
    assert code == 0, err


@pytest.mark.parametrize("make", ["dangling", "loop", "folder", "fifo"])
def test_a_game_path_that_is_no_regular_file_is_refused_in_words(capsys, folder, make):
    path = _save(folder)
    target = folder / "x.cat"
    if make == "dangling":
        target.symlink_to(folder / "gone.cat")
    elif make == "loop":
        target.symlink_to(folder / "y.cat")
        (folder / "y.cat").symlink_to(target)
    elif make == "folder":
        target.mkdir()
    else:
        os.mkfifo(target)                     # reading it would wait forever
    _edit(path, lambda d: d.update(game="x.cat"))
    code, _out, err = run(capsys, "play", "--resume", path, "--seats", "random,random", "--quiet")
    assert code == 1 and ("no readable file" in err or "not a regular file" in err), err
