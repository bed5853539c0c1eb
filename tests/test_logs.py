"""Game logs: header, events with full cards, result, viewer filtering, replay and tampering."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.play.logs import LogError, LogWriter, iter_games, read_log
from catrules.play.replay import replay
from catrules.play.match import Match
from catrules.testing import ScriptedSeat

ROOT = Path(__file__).resolve().parent.parent
MEOW = ROOT / "games" / "meow.cat"
EXAMPLES = ROOT / "docs" / "examples"


@pytest.fixture(scope="module")
def meow():
    return catrules.load_game(MEOW)


def write_game(game, path, players=4, seed=7, specs=None, viewer=None, options=()):
    specs = specs or ["greedy"] + ["random"] * (players - 1)
    seats = [make_seat(s) for s in specs]
    state = game.new_state(players, seed=seed, options=options, log=True)
    match = Match(game, state, seats)
    with LogWriter(path, game, players, options, seed, specs, viewer=viewer) as w:
        w.attach(match)
        match.run()
    return state


def lines(path):
    return [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines()]


def save(path, objs):
    Path(path).write_text("".join(json.dumps(o) + "\n" for o in objs), encoding="utf-8")


def hand_after_each_event(full: list, zone: str) -> list:
    """From a full log: the set of card ids in ``zone`` after each event line (index = line index)."""
    inside: set = set()
    out = []
    for ln in full:
        if ln["type"] == "event" and ln["event"] == "move":
            ids = {c["id"] for c in ln["cards"]}
            if ln["to"] == zone:
                inside |= ids
            elif ln["from"] == zone:
                inside -= ids
        out.append(set(inside))
    return out


def card_ids_in(obj) -> set:
    """Every card id in a log line (card dicts anywhere inside it)."""
    found = set()
    if isinstance(obj, dict):
        if "id" in obj and "type" in obj and "label" in obj:
            found.add(obj["id"])
        for v in obj.values():
            found |= card_ids_in(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= card_ids_in(v)
    return found


# --------------------------------------------------------------------- writing

def test_header_events_and_result(tmp_path, meow):
    path = tmp_path / "g.jsonl"
    state = write_game(meow, path, players=4, seed=7, options=["expert"])
    log = lines(path)
    h = log[0]
    assert h == {"type": "header", "catrules": catrules.__version__, "language": catrules.LANGUAGE_VERSION,
                 "game": str(MEOW), "title": "Meow", "players": 4, "options": ["expert"], "seed": 7,
                 "seats": ["greedy", "random", "random", "random"], "viewer": None}
    events = log[1:-1]
    assert all(e["type"] == "event" for e in events)
    assert [e["n"] for e in events] == list(range(1, len(state.log) + 1))
    assert [e["event"] for e in events] == [ev["t"] for ev in state.log]
    assert events[-1]["event"] == "end"
    assert {"shuffle", "phase", "move", "decision", "end"} <= {e["event"] for e in events}
    result = {k: v for k, v in log[-1].items() if k != "digest"}     # the digest: see test_hostile_files
    assert result == json.loads(json.dumps({"type": "result", "scores": state.scores(),
                                            "winners": state.winners(), "decisions": state.decisions}))
    assert all("total" in row and "food" in row for row in result["scores"])


def test_cards_are_written_in_full(tmp_path, meow):
    path = tmp_path / "g.jsonl"
    write_game(meow, path)
    moves = [e for e in lines(path) if e.get("event") == "move"]
    assert moves
    for m in moves:
        assert set(m) >= {"cards", "from", "to", "actor", "count"}
        assert m["count"] == len(m["cards"])
        for c in m["cards"]:
            # in full but for the long description, which a player reads with the game
            assert c == {k: v for k, v in meow.card(c["id"]).items() if k != "text"}
            assert {"id", "type", "label"} <= set(c)
    kinds = {c["type"] for m in moves for c in m["cards"]}
    assert kinds == {"cat", "award"}
    assert any("colour" in c for m in moves for c in m["cards"])
    # the card moved right after a decision is moved by the player who decided
    log = lines(path)
    after = [(d, m) for d, m in zip(log, log[1:]) if d.get("event") == "decision" and m.get("event") == "move"]
    assert after and all(m["actor"] == d["player"] for d, m in after)
    assert all(m["from"].endswith(f" of player {d['player'] + 1}") for d, m in after)


def test_decision_events(tmp_path):
    game = catrules.load_game(EXAMPLES / "race.cat")
    path = tmp_path / "race.jsonl"
    state = write_game(game, path, players=3, seed=3, specs=["random:fast", "greedy", "random:slow"])
    decisions = [e for e in lines(path) if e.get("event") == "decision"]
    assert len(decisions) == state.decisions
    for d in decisions:
        assert set(d) == {"type", "n", "event", "player", "kind", "option", "line", "time"}
    races = [d for d in decisions if d["kind"] == "race"]
    assert races and all(isinstance(d["time"], float) for d in races)
    assert all(d["time"] is None for d in decisions if d["kind"] == "choose")
    assert any(e.get("event") == "race" and "times" in e for e in lines(path))


def test_writer_to_an_open_file_and_seed_from_state(meow):
    buf = io.StringIO()
    state = meow.new_state(2, seed=99, log=True)
    match = Match(meow, state, [make_seat("random"), make_seat("random")])
    w = LogWriter(buf, meow, 2, seats=()).attach(match)
    match.run()
    w.close()
    out = [json.loads(x) for x in buf.getvalue().splitlines()]
    assert out[0]["seed"] == 99
    assert out[0]["seats"] == ["random", "random"]
    assert out[-1]["type"] == "result"
    assert sum(1 for x in out if x["type"] == "result") == 1
    assert not buf.closed


def test_writer_checks_its_arguments(meow):
    state = meow.new_state(3, seed=1, log=True)
    with pytest.raises(ValueError):
        LogWriter(io.StringIO(), meow, 3, viewer=3)
    with pytest.raises(ValueError, match="seed"):
        LogWriter(io.StringIO(), meow, 3, seed=2).attach(state)
    with pytest.raises(ValueError, match="players"):
        LogWriter(io.StringIO(), meow, 4).attach(state)


# ---------------------------------------------------------------------- viewer

def test_viewer_log_keeps_hidden_cards_hidden(tmp_path, meow):
    full_path, mine_path = tmp_path / "full.jsonl", tmp_path / "p0.jsonl"
    write_game(meow, full_path, seed=5)
    write_game(meow, mine_path, seed=5, viewer=0)
    full, mine = lines(full_path), lines(mine_path)
    assert mine[0]["viewer"] == 0
    assert len(full) == len(mine)                     # same events, filtered
    other_hand = hand_after_each_event(full, "hand of player 2")
    own_hand = hand_after_each_event(full, "hand of player 1")
    # the full log shows player 2's hand (so the check below is not empty) ...
    assert any(other_hand[i] & card_ids_in(full[i]) for i in range(len(full)))
    leaked = [i + 1 for i in range(len(mine)) if other_hand[i] & card_ids_in(mine[i])]
    assert leaked == []
    # ... and player 1 sees their own hand being dealt
    assert any(own_hand[i] & card_ids_in(mine[i]) for i in range(len(mine)))
    # the deal to another hand shows only how many cards
    deals = [e for e in mine if e.get("event") == "move" and e["to"] == "hand of player 2"]
    assert deals and all(e["cards"] is None and e["count"] == 9 for e in deals)
    # others' choices are left out, one's own are kept
    decisions = [e for e in mine if e.get("event") == "decision"]
    assert all((e["option"] is None) == (e["player"] != 0) for e in decisions)
    # the result is the same for everyone (each log's digest is of its own lines)
    assert mine[-1]["digest"] != full[-1]["digest"]
    assert {**mine[-1], "digest": None} == {**full[-1], "digest": None}


def test_viewer_log_cannot_be_replayed(tmp_path, meow):
    path = tmp_path / "p1.jsonl"
    write_game(meow, path, viewer=1)
    rep = replay(path)
    assert not rep.ok
    assert rep.line == 1
    assert "cannot be replayed" in rep.message and "view" in rep.message


# ---------------------------------------------------------------------- replay

@pytest.mark.parametrize("name, players", [("race.cat", 3), ("secret.cat", 4), ("exchange.cat", 2)])
def test_replay_of_example_games(tmp_path, name, players):
    game = catrules.load_game(EXAMPLES / name)
    path = tmp_path / "g.jsonl"
    write_game(game, path, players=players, seed=12, specs=["greedy"] + ["random:fast"] * (players - 1))
    rep = replay(path)
    assert rep.ok, rep.format()
    assert rep.games[0].finished


def test_replay_of_a_fresh_log(tmp_path, meow):
    path = tmp_path / "g.jsonl"
    state = write_game(meow, path, specs=["greedy", "greedy", "random", "bot:fast"])
    rep = replay(path)
    assert rep.ok, rep.format()
    assert rep.games[0].events == len(state.log)
    assert "ok" in rep.format()


def other_legal_option(game, log: list, target: int) -> str:
    """Replay the decisions before log line ``target`` and return another legal option there."""
    h = log[0]
    st = game.new_state(h["players"], h["seed"], h["options"], ask_forced=True)   # every logged answer is applied
    for ln in log[1:target]:
        if ln.get("event") == "decision":
            st.apply(ln["player"], ln["option"], ln["time"])
    d = next(d for d in st.pending() if d.player == log[target]["player"])
    return next(o.id for o in d.options if o.id != log[target]["option"])


def test_replay_finds_a_changed_decision(tmp_path, meow):
    path = tmp_path / "g.jsonl"
    write_game(meow, path)
    log = lines(path)
    # a decision in the middle of the game with more than one legal option
    candidates = [i for i, ln in enumerate(log) if ln.get("event") == "decision"]
    for target in candidates[len(candidates) // 2:]:
        try:
            other = other_legal_option(meow, log, target)
            break
        except StopIteration:
            continue
    log[target]["option"] = other
    save(path, log)
    rep = replay(path)
    assert not rep.ok
    # the changed decision itself is applied; the card it moves (or the counter that
    # names it, such as Meow's led card) is the first difference
    assert rep.line == target + 2                     # log lines count from 1
    assert rep.expected == log[target + 1]
    field = {"move": "cards", "counter": "value"}[rep.got["event"]]
    assert rep.got[field] != rep.expected[field]
    assert f"decision on line {target + 1}" in rep.message


def test_replay_finds_a_changed_card(tmp_path, meow):
    path = tmp_path / "g.jsonl"
    write_game(meow, path)
    log = lines(path)
    target = [i for i, ln in enumerate(log) if ln.get("event") == "move"][40]
    log[target]["cards"][0]["value"] = 99
    save(path, log)
    rep = replay(path)
    assert not rep.ok
    assert rep.line == target + 1
    assert rep.expected["cards"][0]["value"] == 99
    assert rep.got["cards"][0]["value"] != 99
    assert f"line {target + 1}" in rep.format()


def test_replay_finds_a_changed_result(tmp_path, meow):
    path = tmp_path / "g.jsonl"
    write_game(meow, path)
    log = lines(path)
    log[-1]["scores"][0]["total"] += 1
    save(path, log)
    rep = replay(path)
    assert not rep.ok and rep.line == len(log)


def test_replay_finds_a_missing_decision(tmp_path, meow):
    path = tmp_path / "g.jsonl"
    write_game(meow, path)
    log = lines(path)
    target = [i for i, ln in enumerate(log) if ln.get("event") == "decision"][10]
    del log[target]
    save(path, log)
    rep = replay(path)
    assert not rep.ok and rep.line == target + 1


def test_replay_of_an_unfinished_game(tmp_path, meow):
    path = tmp_path / "g.jsonl"
    state = meow.new_state(2, seed=3, log=True)
    first = state.pending()[0]
    seats = [ScriptedSeat([first.options[0].id] if first.player == p else []) for p in range(2)]
    match = Match(meow, state, seats)
    with LogWriter(path, meow, 2, (), 3, ["scripted", "scripted"]) as w:
        w.attach(match)
        with pytest.raises(AssertionError, match="ran out"):
            match.run()
        match.flush_events()
    log = lines(path)
    assert log[-1]["type"] == "event"                 # no result: the game is not over
    rep = replay(path)
    assert rep.ok, rep.format()
    assert not rep.games[0].finished


def test_several_games_in_one_log(tmp_path, meow):
    path = tmp_path / "many.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for seed in (1, 2, 3):
            state = meow.new_state(3, seed=seed, log=True)
            match = Match(meow, state, [make_seat("random") for _ in range(3)])
            LogWriter(f, meow, 3, (), seed, ["random"] * 3).attach(match)
            match.run()
    games = read_log(path)
    assert [g.header["seed"] for g in games] == [1, 2, 3]
    assert all(g.result is not None for g in games)
    assert [g.header_line for g in games] == [g.header_line for g in iter_games(path)]
    assert games[1].header_line == games[0].result_line + 1
    assert replay(path).ok
    # spoil the second game only
    log = lines(path)
    i = games[1].events[30][0] - 1
    log[i]["n"] += 1
    save(path, log)
    rep = replay(path)
    assert [g.ok for g in rep.games] == [True, False, True]
    assert rep.line == i + 1


def test_game_file_is_found_next_to_the_log(tmp_path, monkeypatch):
    folder = tmp_path / "saved"
    folder.mkdir()
    shutil.copy(MEOW, folder / "meow.cat")
    monkeypatch.chdir(folder)
    game = catrules.load_game("meow.cat")            # a relative path goes into the header
    write_game(game, "g.jsonl", players=2)
    monkeypatch.chdir(tmp_path)
    assert replay(folder / "g.jsonl").ok
    (folder / "meow.cat").unlink()
    rep = replay(folder / "g.jsonl")
    assert not rep.ok and "not found" in rep.message


def test_damaged_logs(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header", "game": "x"}\nnot json\n', encoding="utf-8")
    with pytest.raises(LogError, match=":2:"):
        read_log(bad)
    bad.write_text('{"type": "event", "n": 1}\n', encoding="utf-8")
    with pytest.raises(LogError, match="before any header"):
        read_log(bad)
    bad.write_text("", encoding="utf-8")
    with pytest.raises(LogError, match="no game"):
        read_log(bad)
