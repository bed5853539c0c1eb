"""Hostile input: game files at and beyond the limits, runtime errors in the language's words,
damaged save files and logs.  Each must end in a clear, located message, never a traceback."""

import json
from pathlib import Path

import pytest

from catrules import api
from catrules.cli import main
from catrules.errors import GameFileError, RulesError, SaveError
from catrules.play.match import Match

ROOT = Path(__file__).resolve().parent.parent
MEOW = str(ROOT / "games" / "meow.cat")

BASE = """\
catrules 1
game "Hostile"
players 2 to 4

cards number in deck:
    for each value in 1 to 5:
        card

zone deck: shared, hidden, pile
zone hand: per player, public, pile

counter pot = 0

"""
FLOW = """\
flow:
    shuffle deck
    for each player p:
        move top(deck, 2) to hand of p

score:
    points = count(hand)
"""

PYTHON_WORDS = ("Traceback", "TypeError", "KeyError", "IndexError", "ValueError", "NoneType", "OverflowError",
                "RecursionError", "MemoryError", "ZeroDivisionError", "AttributeError")


@pytest.fixture(autouse=True)
def _clean(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CATRULES_FORCE_TTY", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")


def located(source: str):
    """The diagnostics of a game file that must be rejected, each with a line."""
    with pytest.raises(GameFileError) as info:
        api.load_source(source, "hostile.cat")
    ds = info.value.diagnostics
    assert ds and all(d.line > 0 for d in ds), str(info.value)
    return ds


def stops(source: str, players: int = 2) -> RulesError:
    """The RulesError a game stops with, located and in the language's words."""
    game = api.load_source(source, "hostile.cat")
    with pytest.raises(RulesError) as info:
        st = game.new_state(players, seed=1)
        for _ in range(200):
            if st.finished:
                break
            d = st.pending()[0]
            st.apply(d.player, d.options[0].id, 0.5 if d.timed else None)
        st.scores()
        st.winners()
    exc = info.value
    assert exc.line > 0 and exc.path == "hostile.cat", str(exc)
    for w in PYTHON_WORDS:
        assert w not in str(exc)
    return exc


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    for w in ("Traceback",):
        assert w not in out + err
    return code, out, err


# ------------------------------------------------------------- game-file limits

@pytest.mark.parametrize("number", ["1000000001", "99999999999999999999", "9" * 5000])
def test_a_number_beyond_the_limit_is_located(number):
    d, = located(BASE + FLOW.replace("top(deck, 2)", f"top(deck, {number})"))
    assert d.line == 17 and "larger than 1,000,000,000" in d.message


def test_a_huge_range_in_card_rows_is_located():
    d, = located(BASE.replace("1 to 5", "1 to 1000000000") + FLOW)
    assert d.line == 6 and "range of 1,000,000,000 values" in d.message


def test_a_huge_card_row_and_a_huge_deck_are_located():
    d, = located(BASE.replace("        card\n", "        20000 cards\n") + FLOW)
    assert d.line == 7 and "more copies in one card row than a game may have cards (10,000)" in d.message
    nested = BASE.replace("    for each value in 1 to 5:\n        card\n",
                          "    for each a in 1 to 1000:\n        for each b in 1 to 1000:\n            card\n")
    d, = located(nested + FLOW)
    assert "more than 10,000 cards" in d.message and d.line == 8


def test_a_huge_grid_is_located():
    ds = located(BASE + "zone board: shared, public, grid 1000 by 1000\n\n" + FLOW)
    assert ds[0].line == 14 and "a grid side larger than 100" in ds[0].message


@pytest.mark.parametrize("nest", [
    "(" * 300 + "2" + ")" * 300, "[" * 300 + "2" + "]" * 300, "not " * 300 + "true",
    " + ".join(["2"] * 300), "if true then " * 300 + "2" + " else 0" * 300, "- " * 300 + "2",
])
def test_deep_nesting_is_located(nest):
    d, = located(BASE + FLOW.replace("count(hand)", nest))
    assert "nested too deeply" in d.message and d.line == 20


def test_nesting_a_real_game_needs_is_fine():
    api.load_source(BASE + FLOW.replace("count(hand)", "(" * 40 + "count(hand)" + ")" * 40 + " + 1" * 40))


@pytest.mark.parametrize("text", [
    BASE + FLOW + "\x00", BASE.replace("counter", "\x07counter") + FLOW, BASE + FLOW.replace("flow", "fl\u202eow"),
])
def test_odd_characters_are_located(text):
    located(text)


@pytest.mark.parametrize("change", [
    lambda t: t.replace("\n", "\r\n"), lambda t: "\ufeff" + t, lambda t: t.rstrip("\n"),
])
def test_crlf_bom_and_no_final_newline_work(change):
    game = api.load_source(change(BASE + FLOW), "hostile.cat")
    assert game.new_state(2, seed=1).finished


def test_a_game_file_that_is_not_utf8_is_located(tmp_path):
    p = tmp_path / "latin1.cat"
    p.write_bytes((BASE + FLOW).encode("utf-8").replace(b"counter pot", b"counter p\xe9t"))
    with pytest.raises(GameFileError) as info:
        api.load_game(p)
    d, = info.value.diagnostics
    assert d.line == 12 and "not UTF-8" in d.message


# ------------------------------------------------------ recursion and cycles

def test_a_definition_that_uses_itself_is_rejected():
    d, = located(BASE + "define f(x) = f(x)\n\n" + FLOW)
    assert d.message == "definition `f` uses itself" and d.line == 14
    ds = located(BASE + "define f(x) = g(x)\ndefine g(x) = if x > 0 then f(x - 1) else 0\n\n" + FLOW)
    assert [d.line for d in ds] == [14] and "(f -> g -> f)" in ds[0].message


def test_an_action_that_does_itself_stops_in_words():
    src = BASE + "action again():\n    pot = pot + 1\n    do again()\n\n" + FLOW.replace(
        "    shuffle deck\n", "    shuffle deck\n    do again()\n")
    exc = stops(src)
    assert "more than 500 deep" in str(exc) and "`action again` keeps starting itself" in str(exc)


def test_many_phases_playing_each_other_give_one_error_quickly():
    phases = "".join(f"phase p{i}:\n" + "".join(f"    play p{j}\n" for j in range(10)) for i in range(10))
    actions = "".join(f"action a{i}():\n" + "".join(f"    do a{j}()\n" for j in range(12)) for i in range(12))
    src = BASE + phases + actions + FLOW.replace("    shuffle deck\n", "    shuffle deck\n    play p0\n    do a0()\n")
    ds = located(src)
    assert len(ds) == 1 and "10 phases play each other" in ds[0].message


# ------------------------------------------------------- runtime in words

@pytest.mark.parametrize("expr, words", [
    ("pot / 0", "division by zero"),
    ("pot % 0", "division by zero"),
    ("first([]) + 1", "a value here is none, so it cannot add none and a number"),
    ("top(deck, none)", "a value here is none, so it cannot be compared with a number"),
    ("1000000000 * 1000000000 * 10", "a number beyond the limit"),
    ("count(range(1, 1000000000))", "range(1, 1000000000) would hold"),
    ("count(copies(1, 1000000000))", "copies(..., 1000000000)"),
])
def test_runtime_errors_name_the_line_in_words(expr, words):
    exc = stops(BASE + FLOW.replace("    shuffle deck\n", f"    shuffle deck\n    pot = {expr}\n"))
    assert words in str(exc) and exc.line == 16


def test_a_number_that_keeps_doubling_stops_at_the_limit():
    src = BASE + FLOW.replace("    shuffle deck\n", "    shuffle deck\n    pot = 1\n    repeat 100 times:\n"
                                                    "        pot = pot + pot\n")
    exc = stops(src)
    assert "a number beyond the limit of 1,000,000,000,000,000,000" in str(exc) and exc.line == 18


def test_errors_in_score_items_counter_starts_and_winner_keys_are_located():
    exc = stops(BASE + FLOW.replace("count(hand)", "count(hand) / pot"))
    assert exc.line == 20 and "division by zero in score item `points`" in str(exc)
    exc = stops(BASE.replace("counter pot = 0", "counter pot = 1 / 0") + FLOW)
    assert exc.line == 12 and "the start value of counter `pot`" in str(exc)
    exc = stops(BASE + FLOW + "\nwinner:\n    highest total / pot\n")
    assert exc.line == 23 and "the `winner:` key" in str(exc)


def test_injection_through_names_text_and_numbers_stays_data():
    evil = ['"__import__(\'os\').system(\'touch pwned\')"', '"\\"); open(\'pwned\', \'w\'); (\\""',
            "__import__", "__builtins__", "open", "_L", "exec"]
    for e in evil:
        src = BASE + FLOW.replace("count(hand)", f"count(hand) + count([{e}])")
        try:
            game = api.load_source(src, "hostile.cat")
            game.new_state(2, seed=1).scores()
        except (GameFileError, RulesError):
            pass
    assert not Path("pwned").exists()


# ------------------------------------------------------------- save files

def _save(tmp_path) -> Path:
    from catrules.bots.basic import make_seat
    game = api.load_game(MEOW)
    st = game.new_state(2, seed=5)
    for _ in range(3):
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    path = tmp_path / "meow.save.json"
    Match(game, st, [make_seat("random"), make_seat("random")]).save(
        path, extra={"cli": {"seats": ["random", "random"], "log": str(tmp_path / "elsewhere" / "log.jsonl")}})
    return path


def _mutations(data: dict):
    state = data["state"]
    yield "zones", {**state, "zones": state["zones"][:-1]}
    yield "card", {**state, "zones": [[999999]] + state["zones"][1:]}
    yield "twice", {**state, "zones": [state["zones"][0] + state["zones"][0][:1]] + state["zones"][1:]}
    yield "players", {**state, "players": 99}
    yield "options", {**state, "options": ["nope"]}
    yield "frames", {**state, "frames": [["phase:nowhere", 0, {}, 0]]}
    yield "pc", {**state, "frames": [["flow", 10 ** 6, {}, 0]]}
    yield "vars", {**state, "frames": [["flow", 0, {"x": 10 ** 31}, 0]]}
    yield "counters", {**state, "counters": {}}
    yield "pending", {**state, "pending": {"kind": "choose"}}
    yield "rng", {**state, "rng": [3, [1, 2], None]}
    yield "history", {**state, "history": [["x", 1]]}
    yield "type", {**state, "players": "2"}
    yield "missing", {k: v for k, v in state.items() if k != "zones"}
    yield "list", [1, 2, 3]


def test_damaged_saved_states_are_refused_in_words(tmp_path):
    data = Match.read_save(_save(tmp_path))
    game = api.load_game(MEOW)
    for name, bad in _mutations(data):
        with pytest.raises(SaveError) as info:
            game.restore(bad)
        for w in PYTHON_WORDS:
            assert w not in str(info.value), (name, str(info.value))


@pytest.mark.parametrize("content", [
    b"", b"{", b'{"catrules_save": 1', b"\xff\xfe\x00garbage", b"[" * 100_000 + b"]" * 100_000,
    b'{"catrules_save": 1, "state": {"players": ' + b"9" * 5000 + b"}}", b'{"catrules_save": NaN}',
    b'{"catrules_save": 1, "state": []}', b'{"catrules_save": 1, "state": {}, "game": 7}', b"[1, 2]",
])
def test_read_save_refuses_damaged_files(tmp_path, content):
    p = tmp_path / "x.save.json"
    p.write_bytes(content)
    with pytest.raises(SaveError):
        Match.read_save(p)


def test_resume_a_damaged_save_is_one_clear_error(capsys, tmp_path):
    path = _save(tmp_path)
    data = json.loads(path.read_text())
    for name, bad in _mutations(Match.read_save(path)):
        path.write_text(json.dumps({**data, "state": bad}))
        code, out, err = run(capsys, "play", MEOW, "--resume", path, "--seats", "random,random")
        assert code == 1 and ("cannot resume" in err or "not a catrules save file" in err), (name, err)
    for cut in (10, 200, len(json.dumps(data)) // 2):
        path.write_text(json.dumps(data)[:cut])
        code, out, err = run(capsys, "play", "--resume", path)
        assert code == 1 and "not a catrules save file" in err


def test_a_save_of_another_game_is_not_resumed_with_it(capsys, tmp_path):
    path = _save(tmp_path)
    other = tmp_path / "other.cat"
    other.write_text(Path(MEOW).read_text().replace('game "Meow"', 'game "Meow, changed"'))
    code, out, err = run(capsys, "play", other, "--resume", path, "--seats", "random,random")
    assert code == 1 and "another game file" in err


def test_a_save_does_not_choose_files_to_read_or_write(capsys, tmp_path):
    path = _save(tmp_path)
    data = json.loads(path.read_text())
    secret = tmp_path / "secret.txt"
    secret.write_text("password\n")
    path.write_text(json.dumps({**data, "game": str(secret), "cli": {**data["cli"], "game_abs": str(secret)}}))
    code, out, err = run(capsys, "play", "--resume", path, "--seats", "random,random")
    assert code == 1 and "not a .cat game file" in err and "password" not in out + err
    # the saved log path is not written: a log goes only where --log says
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "play", MEOW, "--resume", path, "--seats", "random,random", "--quiet")
    assert code == 0, err
    assert not (tmp_path / "elsewhere").exists()


# ------------------------------------------------------------------- logs

def _log(capsys, tmp_path) -> Path:
    code, out, err = run(capsys, "play", MEOW, "--seats", "random,random", "--seed", "3", "--quiet",
                         "--log", tmp_path / "g.jsonl")
    assert code == 0, err
    return tmp_path / "g.jsonl"


def test_replay_of_damaged_logs_is_one_clear_error(capsys, tmp_path):
    log = _log(capsys, tmp_path)
    good = log.read_bytes()
    lines = good.split(b"\n")
    header = json.loads(lines[0])
    damaged = [
        good[: len(good) // 2],                                    # truncated
        lines[0] + b"\n" + b"\xff\xfe bad bytes\n" + b"\n".join(lines[1:]),
        lines[0] + b"\n" + b'{"type": "event", "n": ' + b"7" * 5000 + b"}\n",
        lines[0] + b"\n" + b'{"type": "event", "time": NaN}\n',
        lines[0] + b"\n" + b"[" * 100_000 + b"]" * 100_000 + b"\n",
        json.dumps({**header, "game": "/etc/passwd"}).encode() + b"\n" + b"\n".join(lines[1:]),
        json.dumps({**header, "players": "four"}).encode() + b"\n" + b"\n".join(lines[1:]),
        json.dumps({**header, "seed": [1]}).encode() + b"\n" + b"\n".join(lines[1:]),
        json.dumps({**header, "options": ["nope"]}).encode() + b"\n" + b"\n".join(lines[1:]),
        b"\n".join(lines).replace(b'"player":0', b'"player":"zero"', 1),
        b"\n".join(lines).replace(b'"option":"c', b'"option":"zz', 1),
        b"",
        b"42\n",
    ]
    for i, content in enumerate(damaged):
        log.write_bytes(content)
        code, out, err = run(capsys, "replay", log)
        assert code == 1, (i, out, err)
        assert (out + err).strip(), i
        assert "root:" not in out + err


def test_a_simulated_game_that_never_ends_stops_after_its_decision_budget():
    from catrules.lab import simulate as sim
    src = BASE + """\
flow:
    shuffle deck
    repeat until false:
        for each player p:
            p chooses c from deck
            move c to hand of p
            move c to deck

score:
    points = count(hand)
"""
    game = api.load_source(src, "hostile.cat")
    result = sim.simulate(game, players=2, games=2, seed=1, max_decisions=50)
    assert result.unfinished == 2 and "unfinished: 2 games stopped past 50 decisions or in a loop with no way out" in result.format_table()


def test_lists_built_over_and_over_stop_within_the_step_limit():
    exc = stops(BASE + FLOW.replace("    shuffle deck\n", "    shuffle deck\n"
                                    "    pot = count(range(1, 999999) where count(range(1, 999999)) > 0)\n"))
    assert "built lists of more than 2,000,000 items" in str(exc) and exc.line == 16


def test_add_keeps_counters_within_the_limit():
    src = BASE + FLOW.replace("    shuffle deck\n", "    shuffle deck\n    pot = 1\n    repeat 100 times:\n"
                                                    "        add pot to pot\n")
    exc = stops(src)
    assert "a number beyond the limit" in str(exc) and exc.line == 18


@pytest.mark.parametrize("expr, words", [
    ("[1] < 2", "`<` compares numbers; this is a list of numbers"),
    ("next(none)", "`next` needs a player, and this may be none"),
    ("count([1] * 1000000000)", "`*` needs a number; this is a list of numbers"),
])
def test_what_the_types_show_is_refused_before_the_game_runs(expr, words):
    (d,) = located(BASE + FLOW.replace("count(hand)", expr))
    assert d.line == 20 and words in d.message


def test_moving_a_chosen_number_as_a_card_is_refused_by_the_checker():
    # a number is not a card, though both are numbered inside: the checker sees the types
    ds = located(BASE + FLOW.replace("        move top(deck, 2) to hand of p\n",
                                     "        move top(deck, 2) to hand of p\n"
                                     "        p chooses c from [5, 6]\n"
                                     "        move c to deck\n"))
    assert [(d.line, d.message) for d in ds] == [(19, "`move` moves cards; this is a number")]


@pytest.mark.parametrize("expr, words", [
    ("count(lines(players))", "`lines` needs a grid zone or a zone of lines"),
    ("count(lines(deck))", "`lines` needs a grid zone or a zone of lines; `deck` is a pile"),
    ("count(rows(deck))", "`rows` needs a grid zone; `deck` is a pile"),
    ("count(places(hand))", "`places` needs a zone of lines; `hand` is a pile"),
])
def test_grid_and_lines_builtins_on_other_zones_are_located(expr, words):
    d, = located(BASE + FLOW.replace("count(hand)", expr))
    assert d.line == 20 and words in d.message


def test_winner_keys_that_are_not_numbers_are_located():
    exc = stops(BASE + FLOW + "\nwinner:\n    highest if player == first(players) then none else 1\n")
    assert exc.line == 23 and "cannot be ranked" in str(exc)


def test_a_race_word_used_outside_its_race_says_where_it_has_a_value():
    # `position` before any race: "set it before using it" sent one looking for where to set it
    src = BASE + FLOW.replace("    shuffle deck\n", "    shuffle deck\n    if position == 1:\n        pot = 1\n"
                                                    "    race each player p chooses c from [1]:\n"
                                                    "        pot = position\n")
    exc = stops(src)
    assert exc.line == 16 and "`position` has no value here" in str(exc)
    assert "set in a race's block" in exc.hint
