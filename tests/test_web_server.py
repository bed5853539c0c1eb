"""Web tables: refused messages change nothing, a restarted server resumes every table exactly,
the lobby refuses bad tables, the pages load nothing from elsewhere, and ``catrules serve``."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="httpx (for Starlette's TestClient) is not installed")

import catrules
from catrules.cli import main
from test_web_protocol import GAMES, Page, cards_named, make_client, new_table, play, seen_by_step


def snapshot(client, tid):
    t = client.app.state.registry.table(tid)
    return json.dumps([t.state.to_dict(), t.answers, client.app.state.store.table(tid)["snapshot"]], sort_keys=True)


def test_refused_messages_change_nothing(tmp_path):
    with make_client(tmp_path) as client:
        tid, tokens = new_table(client, "meow", seed=1)
        a, b, s = Page(client, tokens[0], 0), Page(client, tokens[1], 1), Page(client, tokens[None], None)
        assert a.last["view"]["decisions"] and not b.last["view"]["decisions"]     # player 1 leads
        ask = a.last["ask"]
        mine = a.last["view"]["decisions"][0]["options"][0]["id"]
        hand_b = next(z for z in b.last["view"]["zones"] if z["zone"] == "hand" and z["owner"] == 1)
        card_b = f"c{hand_b['cards'][0]['id']}"
        before = snapshot(client, tid)
        refused = [
            (a, "this is not json", "not valid JSON"),
            (a, "[1, 2]", "JSON object"),
            (a, {"type": "choose"}, "ask"),
            (a, {"type": "choose", "ask": "0", "option": mine}, "ask"),
            (a, {"type": "choose", "ask": ask, "option": 7}, "option"),
            (a, '{"type": "choose", "ask": %d, "option": "%s", "time": NaN}' % (ask, mine), "not valid JSON"),
            (a, {"type": "choose", "ask": ask, "option": "x" * 5000}, "too long"),
            (a, {"type": "dance"}, "unknown message type"),
            (a, {"type": "hello", "token": tokens[1]}, "already belongs"),
            (b, {"type": "choose", "ask": ask, "option": card_b}, "not your turn"),                # out of turn
            (b, {"type": "choose", "ask": ask, "option": mine, "player": 0}, "cannot act for player 1"),
            (a, {"type": "choose", "ask": ask, "option": card_b}, "not one of your options"),       # unknown option
            (a, {"type": "choose", "ask": ask, "option": "c99999"}, "not one of your options"),
            (a, {"type": "choose", "ask": ask + 5, "option": mine}, "decision is over"),
            (s, {"type": "choose", "ask": ask, "option": mine}, "spectator"),
        ]
        for page, msg, why in refused:
            page.send(msg)
            m = page.receive()
            assert m["type"] == "error" and why in m["message"], (msg, m)
            assert snapshot(client, tid) == before, msg
        # the answer itself is taken; sent again (a replay), it is refused and changes nothing
        a.send({"type": "choose", "ask": ask, "option": mine})
        for p in (a, b, s):
            assert p.receive()["type"] == "state"
        after = snapshot(client, tid)
        assert after != before
        a.send({"type": "choose", "ask": ask, "option": mine})
        m = a.receive()
        assert m["type"] == "error" and "decision is over" in m["message"]
        assert snapshot(client, tid) == after
        # no refusal sent anybody a message: b and the spectator got the hello and one change only
        assert [m["type"] for m in b.got if m["type"] == "state"] == ["state", "state"]
        assert [m["type"] for m in s.got] == ["state", "error", "state"]
        for p in (a, b, s):
            p.close()


def test_a_connection_must_say_hello_with_a_valid_token(tmp_path):
    with make_client(tmp_path) as client:
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "choose", "ask": 0, "option": "c1"}))
            assert "hello" in ws.receive_json()["message"]
            ws.send_text(json.dumps({"type": "hello", "token": "not-a-token"}))
            assert "not valid" in ws.receive_json()["message"]


def drive_to(pages, answers):
    return play(pages, stop=lambda n: n >= answers)


def test_a_restarted_server_resumes_every_link_exactly(tmp_path, game="flapcat"):
    # the same game without a restart, for comparison
    with make_client(tmp_path / "straight") as client:
        tid, tokens = new_table(client, game, seed=5)
        pages = [Page(client, tokens[s], s) for s in (0, 1, None)]
        play(pages)
        straight = [p.last["view"] for p in pages]
        straight_history = client.app.state.registry.table(tid).state.history
    with make_client(tmp_path / "restart") as client:
        tid, tokens = new_table(client, game, seed=5)
        pages = [Page(client, tokens[s], s) for s in (0, 1, None)]
        drive_to(pages, 31)
        before = [p.last for p in pages]
        for p in pages:
            p.close()
    with make_client(tmp_path / "restart") as client:           # a new server on the same data
        assert not client.app.state.registry.tables             # nothing in memory: all from SQLite
        pages = [Page(client, tokens[s], s) for s in (0, 1, None)]
        for p, old in zip(pages, before):
            assert p.last["view"] == old["view"] and p.last["ask"] == old["ask"]
            # the recent events come back too, as that seat saw them
            k = min(3, len(old["events"]))
            assert [e["n"] for e in p.last["events"]][-k:] == [e["n"] for e in old["events"]][-k:] or not k
        play(pages)
        assert [p.last["view"] for p in pages] == straight
        assert client.app.state.registry.table(tid).state.history == straight_history


def test_half_answered_simultaneous_decision_survives_a_restart(tmp_path):
    with make_client(tmp_path) as client:
        tid, tokens = new_table(client, "flapcat", seed=2)
        a, b = Page(client, tokens[0], 0), Page(client, tokens[1], 1)
        d = a.last["view"]["decisions"][0]
        assert d["timed"] and b.last["view"]["decisions"]       # a race: both are asked
        a.send({"type": "choose", "ask": a.last["ask"], "option": d["options"][0]["id"], "time": 0.01})
        a.receive(), b.receive()
        assert a.last["view"]["answered"] and a.last["view"]["waiting_for"] == [1]
        t = client.app.state.registry.table(tid)
        # a page cannot be faster than people: its claim of 0.01 s is not believed (the server
        # measures the time), and no time is under 0.1 s
        assert t.answers[0][1] >= 0.1
        a.close(), b.close()
    with make_client(tmp_path) as client:
        a, b = Page(client, tokens[0], 0), Page(client, tokens[1], 1)
        assert a.last["view"]["answered"] and not a.last["view"]["decisions"]
        assert b.last["view"]["decisions"] and b.last["view"]["waiting_for"] == [1]
        a.send({"type": "choose", "ask": a.last["ask"], "option": d["options"][0]["id"], "time": 0.5})
        assert "already answered" in a.receive()["message"]
        a.close(), b.close()


def test_a_seats_log_holds_only_what_it_saw(tmp_path):
    with make_client(tmp_path) as client:
        tid, tokens = new_table(client, "meow", seed=4)
        pages = [Page(client, tokens[s], s) for s in (0, 1)]
        play(pages)
        pages[1].send({"type": "log"})
        lines = [json.loads(x) for x in pages[1].receive()["lines"]]
        assert lines[0]["type"] == "header" and lines[0]["viewer"] == 1 and lines[-1]["type"] == "result"
        assert all(t not in json.dumps(lines) for t in tokens.values())
        table = client.app.state.registry.table(tid)
        seen = seen_by_step(catrules.load_game(GAMES["meow"]), table)[1][-1]
        named = cards_named([x for x in lines if x["type"] == "event"], set())
        assert named and named <= seen
        # the full game names more: the other hands
        assert len(seen) < table.game.card_count
        for p in pages:
            p.close()


@pytest.mark.parametrize("spec, why", [
    ({"game": "chess", "players": 2}, "unknown game"),
    ({"game": "meow", "players": 1}, "2 to 6 players"),
    ({"game": "meow", "players": "3"}, "players"),
    ({"game": "meow", "players": 2, "seats": ["human"]}, "one seat per player"),
    ({"game": "meow", "players": 2, "seats": ["human", "wizard"]}, "unknown seat spec"),
    ({"game": "meow", "players": 2, "options": ["turbo"]}, "unknown option"),
    ({"game": "meow", "players": 2, "seed": -4}, "seed"),
    ([1, 2], "JSON object"),
])
def test_the_lobby_refuses_a_bad_table(tmp_path, spec, why):
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json=spec)
        assert r.status_code == 400 and why in r.json()["error"]
        assert client.app.state.store.count_tables() == 0


def test_a_game_whose_rules_fail_is_refused_in_words(tmp_path):
    from test_web_protocol import Client, create_app
    runaway = GAMES["meow"].parent.parent / "tests" / "games" / "runaway.cat"
    with Client(create_app([runaway], tmp_path)) as client:
        r = client.post("/api/tables", json={"game": "runaway", "players": 2})
        err = r.json()["error"]
        assert r.status_code == 400 and "could not start" in err and "chain of triggered effects" in err
        assert "Traceback" not in err and client.app.state.store.count_tables() == 0


def test_the_pages_load_nothing_from_elsewhere(tmp_path):
    import re
    with make_client(tmp_path) as client:
        games = client.get("/api/games").json()
        assert [g["title"] for g in games] == ["Meow", "Cat Lady", "Flap Cat!"]
        for path in ("/", "/play"):
            r = client.get(path)
            assert r.status_code == 200 and "default-src 'self'" in r.headers["content-security-policy"]
            refs = re.findall(r'(?:src|href)="([^"]+)"', r.text)
            assert refs and all(x.startswith("/static/") or x.startswith("data:") for x in refs), refs
            for x in refs:
                if x.startswith("/static/"):
                    body = client.get(x)
                    assert body.status_code == 200
                    assert not re.search(r"https?://", body.text), x     # no CDN, no font service


def test_serve_on_the_command_line(capsys):
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--host" in out and "127.0.0.1" in out
    assert main(["serve", "no-such-game.cat"]) == 2
    assert "no such game file" in capsys.readouterr().err
    assert main(["serve", str(GAMES["meow"]), "--port", "70000"]) == 2
    err = capsys.readouterr().err
    assert "not a port" in err and "Traceback" not in err
    assert main(["serve", str(GAMES["meow"]), "--data", str(GAMES["meow"])]) == 1      # a file, not a directory
    err = capsys.readouterr().err
    assert "cannot keep tables in" in err and "Traceback" not in err
