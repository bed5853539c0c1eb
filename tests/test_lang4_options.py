"""Options with values (language 4): ``option rounds: "..." = 3 from 2, 3, 4``.

Parse, canonical layout, the checker's types and errors, ``--option rounds=4`` on the
command line (and its refusals), states, saves and logs keeping ``rounds=4`` (replayed),
the balance lab, the rulebook, the web lobby (via the app's HTTP API), variants, and old
files that do not change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catrules.api import load_game, load_source
from catrules.cli import main
from catrules.errors import CatrulesError, GameFileError
from catrules.lang.parser import parse

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "option-values.cat"
OLD_OPTIONS = ROOT / "docs" / "examples" / "options.cat"

GAME = '''catrules 4
game "Rounds"
players 2 to 3

option short: "Short game"
option rounds: "Number of rounds" = 3 from 2, 3, 4
option mode: "How to count" = plain from plain, double
option bonus: "Bonus points" = 0 from 0 to 5

cards number in deck:
    for each value in 1 to 9:
        card

zone deck: shared, hidden, pile
zone hand: per player, public, pile
counter played = 0

flow:
    shuffle deck
    repeat rounds times:
        add 1 to played
        for each player p:
            move top(deck) to hand of p

score:
    points = if mode == double then 2 * sum(hand, value) else sum(hand, value)
    extra = bonus
    rounds_played = played

winner:
    highest total
'''


def one_error(src: str) -> str:
    with pytest.raises(GameFileError) as e:
        load_source(src, "t.cat")
    assert len(e.value.diagnostics) >= 1
    return str(e.value)


def with_option(line: str, use: str = "") -> str:
    """GAME with its `rounds` option line replaced (and a line added to the flow)."""
    src = GAME.replace('option rounds: "Number of rounds" = 3 from 2, 3, 4', line)
    if use:
        src = src.replace("    shuffle deck\n", "    shuffle deck\n" + use, 1)
    return src


# ------------------------------------------------------------------ parse, fmt, check

def test_parse_keeps_default_values_and_positions():
    g = parse(GAME, "t.cat")
    opts = {o.name: o for o in g.options}
    assert opts["short"].values is None
    r = opts["rounds"].values
    assert (r.default, r.choices(), r.span) == (3, [2, 3, 4], False)
    assert (r.line, r.column) == (6, 37)
    assert [c for _v, _l, c in r.listed] == [44, 47, 50]
    assert opts["mode"].values.choices() == ["plain", "double"]
    b = opts["bonus"].values
    assert b.span and b.choices() == [0, 1, 2, 3, 4, 5]


def test_fmt_keeps_the_declaration_and_round_trips(tmp_path):
    from catrules.authoring.fmt import format_text as format_source
    messy = GAME.replace("= 3 from 2, 3, 4", "=3   from 2 ,3,4").replace("= 0 from 0 to 5", "=  0 from 0   to 5")
    out = format_source(messy)
    assert 'option rounds: "Number of rounds" = 3 from 2, 3, 4' in out
    assert 'option bonus: "Bonus points" = 0 from 0 to 5' in out
    assert format_source(out) == out == GAME


def test_checker_types_a_number_and_a_symbol():
    game = load_source(GAME, "t.cat")
    assert game.option_values == {"rounds": {"default": 3, "values": [2, 3, 4]},
                                  "mode": {"default": "plain", "values": ["plain", "double"]},
                                  "bonus": {"default": 0, "values": [0, 1, 2, 3, 4, 5]}}
    plain, double = play_out(game, seed=8), play_out(game, seed=8, options=["mode=double", "bonus=4"])
    for a, b, pl in zip(plain.scores(), double.scores(), range(2)):
        assert a["points"] > 0 and b["points"] == 2 * a["points"]      # the same deal: seed 8
        assert (a["extra"], b["extra"]) == (0, 4)


@pytest.mark.parametrize("line, where, words", [
    ('option rounds: "R" = 5 from 2, 3, 4', "6:22", "the default `5` of option `rounds` is not one of its values"),
    ('option rounds: "R" = 3 from 2, 3, 3', "6:35", "the value `3` is listed twice"),
    ('option rounds: "R" = 3 from 2, x, 4', "6:32", "all whole numbers or all names"),
    ('option rounds: "R" = 3 from 6 to 2', "6:34", "the range 6 to 2 is empty"),
    ('option rounds: "R" = 3 from 1 to 500', "6:34", "at most 100 values"),
    ('option rounds: "R" = deck from deck, hand', "6:32", "also the name of a zone"),
])
def test_declaration_errors_have_place_and_hint(line, where, words):
    text = one_error(with_option(line))
    assert f"t.cat:{where}: error:" in text and words in text and "hint:" in text


def test_on_off_option_used_as_a_number_is_an_error():
    text = one_error(with_option('option rounds: "R" = 3 from 2, 3, 4', "    repeat short times:\n        shuffle deck\n"))
    assert "t.cat:20:12" in text and "needs a number; this is a truth value" in text


def test_valued_option_used_as_a_condition_is_an_error():
    text = one_error(with_option('option rounds: "R" = 3 from 2, 3, 4', "    if rounds:\n        shuffle deck\n"))
    assert "t.cat:20:8" in text and "option `rounds` has values, so it is a number, not a condition" in text
    assert "rounds > 2" in text
    text = one_error(with_option('option rounds: "R" = 3 from 2, 3, 4', "    if not mode:\n        shuffle deck\n"))
    assert "a symbol, not a condition" in text and "mode == plain" in text


def test_a_symbol_option_compared_with_a_number_is_an_error():
    text = one_error(with_option('option rounds: "R" = 3 from 2, 3, 4', "    repeat mode times:\n        shuffle deck\n"))
    assert "t.cat:20:12" in text and "needs a number" in text and "a symbol" in text


def test_language_3_file_may_not_use_an_option_with_values():
    text = one_error(GAME.replace("catrules 4", "catrules 3"))
    assert "t.cat:6:37" in text
    assert "an option with values is language 4, and this file says `catrules 3`" in text
    assert "write `catrules 4`" in text


def test_language_3_file_with_the_same_names_is_unchanged():
    """`from`, `to`, `rounds`, `plain` as names in a language-3 file keep working: the feature adds
    no word."""
    src = ('catrules 3\ngame "Old"\nplayers 2 to 2\n\noption rounds: "R"\n\ncards number in deck:\n'
           '    for each value in 1 to 4:\n        card\n\nzone deck: shared, hidden, pile\n'
           'zone hand: per player, public, pile\ncounter plain = 0\n\nflow:\n    if rounds:\n'
           '        add 1 to plain\n    for each player p:\n        move top(deck) to hand of p\n\n'
           'score:\n    points = plain + sum(hand, value)\n\nwinner:\n    highest total\n')
    game = load_source(src, "old.cat")
    on = game.new_state(2, seed=5, options=["rounds"])
    off = game.new_state(2, seed=5)
    assert on.options == ["rounds"] and off.options == []
    for st in (on, off):
        while not st.over:
            d = st.pending()[0]
            st.apply(d.player, d.options[0].id)
    assert on.c["plain"] == 1 and off.c["plain"] == 0


# ------------------------------------------------------------------ states

def play_out(game, players=2, seed=3, options=()):
    st = game.new_state(players, seed=seed, options=options)
    while not st.over:
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    return st


def test_value_changes_the_game_and_default_is_not_kept():
    game = load_source(GAME, "t.cat")
    assert play_out(game).c["played"] == 3
    assert play_out(game, options=["rounds=2"]).c["played"] == 2
    assert play_out(game, options=["rounds=4"]).c["played"] == 4
    st = game.new_state(2, seed=1, options=["rounds=3", "short", "mode=double", "bonus=5"])
    assert st.options == ["bonus=5", "mode=double", "short"]
    assert game.normal_options(["rounds=3"]) == []
    assert game.normal_options(["rounds=4", "rounds=4"]) == ["rounds=4"]


@pytest.mark.parametrize("given, words", [
    (["rounds=7"], "`7` is not a value of option `rounds`"),
    (["rounds"], "option `rounds` takes a value: 2, 3, 4 (default 3)"),
    (["short=1"], "option `short` is on or off"),
    (["rounds=2", "rounds=4"], "given twice"),
    (["laps=2"], "has no option `laps`"),
])
def test_bad_settings_are_refused_in_words(given, words):
    game = load_source(GAME, "t.cat")
    with pytest.raises(CatrulesError) as e:
        game.new_state(2, seed=1, options=given)
    assert words in str(e.value)


def test_saved_state_keeps_the_value_and_refuses_one_not_offered():
    game = load_source(GAME, "t.cat")
    st = game.new_state(2, seed=4, options=["rounds=4"])
    d = st.to_dict()
    assert d["options"] == ["rounds=4"]
    back = game.restore(json.loads(json.dumps(d)))
    assert back.options == ["rounds=4"]
    while not back.over:
        dd = back.pending()[0]
        back.apply(dd.player, dd.options[0].id)
    assert back.c["played"] == 4
    for bad in (["rounds=9"], ["rounds=3"], ["rounds"]):      # not offered; the default is never kept
        d2 = dict(d, options=bad)
        with pytest.raises(CatrulesError):
            game.restore(d2)


# ------------------------------------------------------------------ command line

@pytest.fixture()
def game_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    p = tmp_path / "rounds.cat"
    p.write_text(GAME)
    return p


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_simulate_with_a_value_changes_the_game(game_file, capsys):
    res = {}
    for opt in (None, "rounds=2", "rounds=4"):
        extra = ["--option", opt] if opt else []
        code, out, err = run(capsys, "simulate", game_file, "--games", "3", "--seed", "1", "--json", *extra)
        assert code == 0, err
        data = json.loads(out)
        res[opt] = data
    assert res[None]["options"] == [] and res["rounds=4"]["options"] == ["rounds=4"]
    # the same seeds deal the same first cards; each round more adds a card and 1 to `rounds_played`
    for seat in range(2):
        means = [res[k]["seats"][seat]["score_mean"] for k in ("rounds=2", None, "rounds=4")]
        assert means[0] < means[1] < means[2]


@pytest.mark.parametrize("opt, words", [
    ("rounds=7", ["`7` is not a value of option `rounds`", "its values: 2, 3, 4 (default 3)"]),
    ("rounds", ["option `rounds` takes a value", "rounds=4"]),
    ("short=yes", ["option `short` is on or off"]),
    ("bogus", ["has no option `bogus`", "rounds=2|3|4"]),
])
def test_cli_refuses_bad_values_with_a_hint(game_file, capsys, opt, words):
    for cmd in (["play", game_file, "--seats", "random,random"], ["simulate", game_file, "--games", "1"]):
        code, out, err = run(capsys, *cmd, "--option", opt)
        assert code == 2
        assert "Traceback" not in err
        for w in words:
            assert w in err


def test_cli_play_log_keeps_the_value_and_replays(game_file, capsys):
    code, out, err = run(capsys, "play", game_file, "--seats", "random,random", "--seed", "2", "--quiet",
                         "--option", "rounds=4,mode=double", "--log", "g.jsonl")
    assert code == 0, err
    lines = [json.loads(x) for x in Path("g.jsonl").read_text().splitlines()]
    assert lines[0]["options"] == ["mode=double", "rounds=4"]
    assert sum(1 for x in lines if x.get("event") == "move") == 8           # 4 rounds x 2 players
    from catrules.play.replay import replay
    assert replay("g.jsonl").ok
    code, out, err = run(capsys, "replay", "g.jsonl")
    assert code == 0, err + out
    # the default given on the command line is not written: the same log as without it
    code, _o, err = run(capsys, "play", game_file, "--seats", "random,random", "--seed", "2", "--quiet",
                        "--option", "rounds=3", "--log", "d.jsonl")
    code, _o, err = run(capsys, "play", game_file, "--seats", "random,random", "--seed", "2", "--quiet",
                        "--log", "n.jsonl")
    strip = lambda p: [l for l in Path(p).read_text().splitlines() if '"timing"' not in l]      # noqa: E731
    assert json.loads(Path("d.jsonl").read_text().splitlines()[0])["options"] == []
    assert strip("d.jsonl") == strip("n.jsonl")


def test_replay_refuses_a_value_the_game_does_not_offer(game_file, capsys):
    code, out, err = run(capsys, "play", game_file, "--seats", "random,random", "--seed", "2", "--quiet",
                         "--option", "rounds=4", "--log", "g.jsonl")
    text = Path("g.jsonl").read_text().replace('"rounds=4"', '"rounds=9"', 1)
    Path("bad.jsonl").write_text(text)
    from catrules.play.replay import replay
    rep = replay("bad.jsonl")
    assert not rep.ok
    assert "is not a value of option `rounds`" in rep.first_failure.message


def test_balance_sweeps_every_value(game_file, capsys):
    code, out, err = run(capsys, "balance", game_file, "--games", "6", "--skill-games", "0", "--json-only",
                         "--bots", "random", "-o", "b.html", "--sweep", "rounds")
    assert code == 0, err
    data = json.loads(Path("b.json").read_text())
    assert data["conditions"] == ["rounds=2", "rounds=3 (default)", "rounds=4"]
    assert [r["options"] for r in data["sweep"]["rows"]] == [["rounds=2"], [], ["rounds=4"]]
    from catrules.lab.report import command
    assert "--sweep rounds " in command(data)
    code, out, err = run(capsys, "balance", game_file, "--games", "6", "--skill-games", "0", "--json-only",
                         "--bots", "random", "-o", "c.html", "--compare", "rounds=4", "--option", "rounds=2")
    assert code == 0, err
    data = json.loads(Path("c.json").read_text())
    assert data["conditions"] == ["rounds=2", "rounds=4"]
    code, out, err = run(capsys, "balance", game_file, "--games", "6", "--compare", "rounds=3")
    assert code == 2 and "played at rounds=3 already" in err
    code, out, err = run(capsys, "balance", game_file, "--games", "6", "--sweep", "short=2")
    assert code == 2 and "on or off, they take no values" in err


def test_rules_show_values_and_default(game_file, capsys):
    code, out, err = run(capsys, "rules", game_file)
    assert code == 0
    assert "- `rounds`: Number of rounds (values 2, 3, 4; default 3)" in out
    assert "- `bonus`: Bonus points (values 0 to 5; default 0)" in out
    code, out, err = run(capsys, "rules", game_file, "--prose", "--option", "rounds=4")
    assert code == 0
    assert "one of 2, 3, 4 (default 3) (4 in this rulebook)" in " ".join(out.split())
    assert "Repeat 4 times" in out
    code, out, err = run(capsys, "rules", game_file, "--prose")
    assert "Repeat rounds (the option) times" in out


# ------------------------------------------------------------------ variants

def test_a_variant_replaces_an_option_with_values(tmp_path):
    (tmp_path / "base.cat").write_text(GAME)
    (tmp_path / "short.cat").write_text(
        'catrules 4\ngame "Rounds, short"\nplayers 2 to 3\nextends "base.cat"\n\n'
        'replace option rounds: "Number of rounds" = 2 from 2, 3\n')
    game = load_game(tmp_path / "short.cat")
    assert game.option_values["rounds"] == {"default": 2, "values": [2, 3]}
    assert play_out(game).c["played"] == 2
    with pytest.raises(CatrulesError):
        game.new_state(2, options=["rounds=4"])
    (tmp_path / "bad.cat").write_text(
        'catrules 4\ngame "Rounds, bad"\nplayers 2 to 3\nextends "base.cat"\n\n'
        'replace option rounds: "Number of rounds" = 5 from 2, 3\n')
    with pytest.raises(GameFileError) as e:
        load_game(tmp_path / "bad.cat")
    assert "bad.cat:6:" in str(e.value) and "not one of its values" in str(e.value)


# ------------------------------------------------------------------ old files

def test_old_on_off_options_are_unchanged():
    game = load_game(OLD_OPTIONS)
    assert game.option_values == {}
    st = game.new_state(2, seed=1, options=["short", "double", "short"])
    assert st.options == ["double", "short"]
    a = play_out(game, seed=9, options=["short"])
    b = play_out(game, seed=9, options=["short"])
    assert a.to_dict() == b.to_dict()


def test_the_example_plays_with_every_value():
    game = load_game(EXAMPLE)
    for opts in ([], ["rounds=2"], ["hand_size=4", "rounds=4"], ["scoring=low"]):
        st = play_out(game, players=4, seed=2, options=opts)
        assert st.options == opts
    high, low = play_out(game, players=2, seed=5), play_out(game, players=2, seed=5, options=["scoring=low"])
    for a, b in zip(high.scores(), low.scores()):       # the same cards chosen: v against 7 - v, 3 rounds
        assert a["total"] + b["total"] == 7 * 3


# ------------------------------------------------------------------ web lobby

def test_web_lobby_offers_values_and_the_server_checks_them(tmp_path):
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    pytest.importorskip("httpx", reason="httpx (for Starlette's TestClient) is not installed")
    import warnings
    from test_web_protocol import Client
    from catrules.web.app import create_app
    gf = tmp_path / "rounds.cat"
    gf.write_text(GAME)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = Client(create_app([gf], tmp_path / "data"))
    with client:
        games = client.get("/api/games").json()
        g = games[0]
        assert g["option_values"]["rounds"] == {"default": 3, "values": [2, 3, 4]}
        assert "short" in g["options"] and "short" not in g["option_values"]
        spec = {"game": g["id"], "players": 2, "seats": ["random", "random"], "seed": 3}
        for bad, words in ((["rounds=9"], "is not a value of option `rounds`"), (["rounds"], "takes a value"),
                           (["laps=2"], "unknown option"), ([5], "list of names")):
            r = client.post("/api/tables", json=dict(spec, options=bad))
            assert r.status_code == 400 and words in r.json()["error"], r.text
        assert client.app.state.store.count_tables() == 0
        r = client.post("/api/tables", json=dict(spec, seats=["human", "random"],
                                                 options=["rounds=4", "short", "rounds=4"]))
        assert r.status_code == 200, r.text
        tid = r.json()["table"]
        assert client.app.state.store.table(tid)["options"] == ["rounds=4", "short"]
        assert client.app.state.registry.table(tid).state.options == ["rounds=4", "short"]
    lobby = (ROOT / "catrules" / "web" / "static" / "lobby.js").read_text()
    assert "option_values" in lobby and "#options select" in lobby
