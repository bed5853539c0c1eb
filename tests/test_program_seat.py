"""A seat played by another program over JSON lines (catrules/play/program_seat.py).

The programs are small Python scripts run with this interpreter: the documented example bot,
and test bots written here that dump what they read, answer wrongly, hang or end at once.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import time
from pathlib import Path

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.cli import main
from catrules.cli.common import split_specs as _split_specs
from catrules.play.seats import Choice, Seat
from catrules.play.program_seat import ProgramSeat, _parse_answer, parse_spec, program_seat
from catrules.play.match import Match

ROOT = Path(__file__).resolve().parent.parent
MEOW = ROOT / "games" / "meow.cat"
RACE = ROOT / "docs" / "examples" / "race.cat"
EXAMPLE = ROOT / "docs" / "examples" / "bots" / "first_legal.py"
PY = shlex.quote(sys.executable)

#: Writes every line it reads to the file named first, answers the default (or the first option).
DUMPER = """\
import json, sys
with open(sys.argv[1], "w") as out:
    for line in sys.stdin:
        out.write(line)
        out.flush()
        m = json.loads(line)
        if m["type"] == "decide":
            d = m["decision"]
            print(json.dumps({"option": d["default"] or d["options"][0]["id"]}), flush=True)
"""

#: Answers every decide first with a line that is not JSON, then with an unknown id; then,
#: with the argument "mend", with the default, else with the unknown id again.
WRONG = """\
import json, sys
mend = sys.argv[1:] == ["mend"]
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "decide":
        decision = m["decision"]
        print("nonsense {", flush=True)
    elif m["type"] == "error" and m["tries_left"] > 0:
        if mend and m["tries_left"] == 1:
            print(json.dumps(decision["default"] or decision["options"][0]["id"]), flush=True)
        else:
            print(json.dumps({"option": "no-such-option"}), flush=True)
"""

#: Answers every race with the reaction time given as its argument, else the default.
TIMED = """\
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "decide":
        d = m["decision"]
        answer = {"option": d["default"] or d["options"][0]["id"]}
        if d["timed"]:
            answer["reaction_time"] = float(sys.argv[1])
        print(json.dumps(answer), flush=True)
"""


@pytest.fixture(scope="module")
def meow():
    return catrules.load_game(MEOW)


@pytest.fixture
def bots(tmp_path):
    for name, text in (("dumper.py", DUMPER), ("wrong.py", WRONG), ("timed.py", TIMED),
                       ("hang.py", "import time\ntime.sleep(3600)\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


class DefaultSeat(Seat):
    """In-process: the default, else the first option (what the example bot answers)."""

    def decide(self, view, decision):
        return Choice(decision.default or decision.options[0].id)


def children() -> set:
    """This process's child processes (Linux: from /proc), zombies included, but for the
    resource tracker that a pool of processes (--jobs) leaves for the life of this process."""
    if not os.path.isdir("/proc/self"):
        pytest.skip("child processes are counted from /proc")
    me, out = os.getpid(), set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            line = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == me and b"resource_tracker" not in line:
            out.add(int(pid))
    return out


def play(game, seat0, seed=5, players=3, others="random"):
    seats = [seat0] + [make_seat(others) if others != "default" else DefaultSeat() for _ in range(players - 1)]
    state = game.new_state(players, seed=seed, log=True)
    Match(game, state, seats).run()
    assert state.finished
    return state


def cmd(*words) -> str:
    return "cmd:" + " ".join([PY] + [shlex.quote(str(w)) for w in words])


def quiet(spec: str, warnings: list) -> ProgramSeat:
    seat = program_seat(spec)
    seat.warn = warnings.append
    return seat


# ------------------------------------------------------------------- a game

def test_the_example_bot_plays_as_the_same_choices_made_here(meow):
    before = children()
    warnings: list = []
    seat = quiet(cmd(EXAMPLE), warnings)
    by_program = play(meow, seat)
    here = play(meow, DefaultSeat())
    assert by_program.history == here.history and by_program.scores() == here.scores()
    assert warnings == [] and seat.gone is None
    # the program ended on its own once its input closed, and was waited for
    assert seat.proc.returncode == 0 and children() == before


def test_same_seed_same_answers_same_game_and_other_answers_another(meow):
    games = [play(meow, quiet(cmd(EXAMPLE, "--random", seed), [])) for seed in (7, 7, 8)]
    assert games[0].history == games[1].history
    assert games[0].history != games[2].history


# ------------------------------------------------------------ what it is shown

def _card_ids(message) -> set:
    """Every card a message names: cards in views and counters, cards of events, option ids."""
    found = set()

    def walk(x, key=None):
        if isinstance(x, dict):
            if isinstance(x.get("id"), int) and "label" in x:
                found.add(x["id"])
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            if key == "cards":
                found.update(c for c in x if isinstance(c, int))
            for v in x:
                walk(v, key if key == "option" else None)
        elif isinstance(x, str) and re.fullmatch(r"c\d+", x):
            found.add(int(x[1:]))
    walk(message)
    return found


def _hand_ids(view, owner) -> set:
    return {c["id"] for z in view["zones"] if z["zone"] == "hand" and z["owner"] == owner for c in z["cards"]}


def test_the_program_is_shown_only_its_players_view(meow, bots):
    dump = bots / "seen.jsonl"
    given: list = []        # what the match gave the seat, and the cards of the other hands then

    def plain(x):
        return json.loads(json.dumps(x))

    class Watched(ProgramSeat):
        def _record(self, kind, view, events=None):
            st = self.table.state
            hidden = set().union(*(_hand_ids(st.view(p), p) for p in (1, 2)))
            given.append((kind, plain(st.view(0)), plain(events), hidden))

        def show(self, view, events):
            self._record("show", view, events)
            super().show(view, events)

        def decide(self, view, decision):
            self._record("decide", view)
            return super().decide(view, decision)

    seat = Watched(parse_spec(cmd(bots / "dumper.py", dump))[0])
    state = play(meow, seat)
    messages = [json.loads(line) for line in dump.read_text().splitlines()]
    assert messages[0] == {"type": "hello", "protocol": 1, "game": "Meow", "player": 0, "players": 3,
                           "options": [], "timeout": 10.0, "tries": 3}
    assert messages[-1]["type"] == "finish" and messages[-1]["winners"] == state.winners()
    middle = messages[1:-1]
    assert [m["type"] for m in middle] == [g[0] for g in given]
    assert sum(1 for g in given if g[0] == "decide") == sum(1 for rec in state.history if rec[0] == 0) > 10
    assert sum(1 for g in given if g[3]) > 10            # other hands held cards to hide
    deals = 0
    for m, (kind, view, events, hidden) in zip(middle, given):
        assert m["view"] == view and m.get("events") == events     # the player's view, nothing else
        assert "seed" not in json.dumps(m)
        assert not (_card_ids({"view": m["view"], "decision": m.get("decision")}) & hidden), \
            "a card of another player's hand was shown"
        for ev in m.get("events", []):
            if ev["t"] == "move" and ev["to"].startswith("hand of player ") and ev["to"] != "hand of player 1":
                deals += 1
                assert ev["cards"] is None and ev["count"] > 0     # another hand: how many, not which
    assert deals >= 2


# -------------------------------------------------------------- bad answers

def test_a_bad_answer_is_explained_and_asked_again(meow, bots):
    dump_warnings: list = []
    seat = quiet(cmd(bots / "wrong.py", "mend"), dump_warnings)
    state = play(meow, seat, seed=2)
    assert dump_warnings == [] and seat.gone is None
    assert state.history == play(meow, DefaultSeat(), seed=2).history


def test_after_three_bad_answers_the_default_is_taken_with_a_warning(meow, bots, tmp_path):
    warnings: list = []
    seat = quiet(cmd(bots / "wrong.py"), warnings)
    state = play(meow, seat, seed=2)
    assert state.history == play(meow, DefaultSeat(), seed=2).history
    mine = sum(1 for rec in state.history if rec[0] == 0)
    assert len(warnings) == mine
    assert "gave no legal answer in 3 tries" in warnings[0] and "no-such-option" in warnings[0]


def test_the_error_messages_say_what_was_wrong():
    legal = ["c1", "c2"]
    assert _parse_answer(b'{"option": "c2"}\n', legal, False) == (Choice("c2"), "")
    assert _parse_answer(b'"c1"\n', legal, False) == (Choice("c1"), "")
    assert _parse_answer(b"c1\n", legal, False) == (Choice("c1"), "")
    for line, why in ((b"c3\n", "neither JSON nor an option id"), (b'"c3"', "'c3' is not an option"),
                      (b"{}", 'no "option"'), (b'{"option": 1}', "an id in quotes"), (b"\n", "empty"),
                      (b"\xff\n", "not UTF-8"), (b'{"option": "c1", "reaction_time": -1}', "reaction_time")):
        choice, problem = _parse_answer(line, legal, True)
        assert choice is None and why in problem, (line, problem)
    # a race time is taken as given, but no faster than bots may be; elsewhere it is ignored
    assert _parse_answer(b'{"option": "c1", "reaction_time": 0.8}', legal, True)[0] == Choice("c1", 0.8)
    assert _parse_answer(b'{"option": "c1", "reaction_time": 0}', legal, True)[0] == Choice("c1", 0.1)
    assert _parse_answer(b'{"option": "c1", "reaction_time": 0.8}', legal, False)[0] == Choice("c1")


def test_a_race_time_given_is_recorded_and_without_one_it_is_a_bots(bots):
    race = catrules.load_game(RACE)
    timed = play(race, quiet(cmd(bots / "timed.py", 0.35), []), players=2, others="default")
    races = [rec for rec in timed.history if len(rec) > 2]
    assert races and all(rec[2] == 0.35 for rec in races if rec[0] == 0)
    untimed = play(race, quiet(cmd(EXAMPLE), []), players=2, others="default")
    assert untimed.history == play(race, DefaultSeat(), players=2, others="default").history


# ------------------------------------------------------- programs that fail

def test_a_program_that_hangs_is_timed_out_and_the_game_goes_on(meow, bots):
    before = children()
    warnings: list = []
    seat = quiet("cmd:0.3:" + cmd(bots / "hang.py")[4:], warnings)
    start = time.monotonic()
    state = play(meow, seat)
    assert time.monotonic() - start < 5
    assert state.history == play(meow, DefaultSeat()).history
    assert len(warnings) == 1 and "did not answer within 0.3 s" in warnings[0]
    assert seat.proc.returncode is not None and children() == before


@pytest.mark.parametrize("code", [0, 3])
def test_a_program_that_ends_at_once_leaves_the_defaults(meow, code):
    before = children()
    warnings: list = []
    seat = quiet(cmd("-c", f"import sys; sys.exit({code})"), warnings)
    state = play(meow, seat)
    assert state.history == play(meow, DefaultSeat()).history
    assert len(warnings) == 1 and f"ended (exit code {code})" in warnings[0]
    assert children() == before


# ------------------------------------------------------------- seat specs

def test_seat_specs_keep_the_commands_case_and_say_what_is_wrong(tmp_path):
    seat = make_seat(f"CMD:2.5:{PY} My_Bot.PY --Level 3", programs=True)
    assert isinstance(seat, ProgramSeat) and seat.proc is None        # nothing started yet
    assert seat.argv == [sys.executable, "My_Bot.PY", "--Level", "3"] and seat.timeout == 2.5
    assert make_seat(cmd(EXAMPLE), programs=True).timeout == 10.0
    script = tmp_path / "bot.py"
    script.write_text("")
    for spec, why in (("cmd:", "no command"), ("cmd:0:python x", "out of range"),
                      (f"cmd:{PY} 'x", "close its quotes"), ("cmd:no-such-program-here x", "on the PATH"),
                      ("cmd:./no/such/bot.py", "no program file"), (f"cmd:{script}", "not executable")):
        with pytest.raises(ValueError, match=why):
            make_seat(spec, programs=True)


def test_a_program_seat_is_made_only_where_asked_for(tmp_path):
    """Seat specs also come from the web lobby's form: one there must never run a command."""
    marker = tmp_path / "ran"
    spec = cmd("-c", f"open({str(marker)!r}, 'w')")
    with pytest.raises(ValueError, match="cannot be used here"):
        make_seat(spec)
    from catrules.web.store import Store
    from catrules.web.registry import Registry
    from catrules.web.tables import WebError
    lobby = Registry(Store(tmp_path / "tables.db"), [MEOW])
    with pytest.raises(WebError, match="cannot be used here"):
        lobby.create({"game": "meow", "players": 3, "seats": ["human", spec, "random"]})
    assert not marker.exists()


def test_seats_split_on_commas_outside_quotes():
    assert _split_specs("cmd:python bot.py,random,random") == ["cmd:python bot.py", "random", "random"]
    assert _split_specs("cmd:python bot.py --w '1,2', greedy") == ["cmd:python bot.py --w '1,2'", "greedy"]


def test_the_command_line_simulates_and_plays_with_a_program_seat(capsys):
    before = children()
    seats = f"{cmd(EXAMPLE)},random,random"
    results = []
    for jobs in ("1", "2"):
        assert main(["simulate", str(MEOW), "--players", "3", "--games", "2", "--seats", seats,
                     "--jobs", jobs, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        del out["timing"]
        results.append(out)
    assert results[0] == results[1]         # each worker process starts its own programs
    assert results[0]["seats"][0]["spec"] == cmd(EXAMPLE)
    assert main(["play", str(MEOW), "--seats", seats, "--seed", "3", "--quiet"]) == 0
    assert "Winner" in capsys.readouterr().out
    assert main(["simulate", str(MEOW), "--players", "3", "--seats", f"{PY} 'x,random"]) == 2
    assert "is not closed" in capsys.readouterr().err
    assert children() == before


def test_the_protocol_page_shows_the_messages_of_a_real_game():
    import importlib.util
    spec = importlib.util.spec_from_file_location("protocol_examples", ROOT / "tools" / "protocol_examples.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    page = (ROOT / "docs" / "protocol.rst").read_text(encoding="utf-8")
    found = tool.examples()
    assert set(found) == {"hello", "show", "decide", "error", "finish"}
    for name, text in found.items():
        assert tool.literal(text) in page, f"docs/protocol.rst: the {name} example is not the real one " \
                                           "(python tools/protocol_examples.py prints it)"
