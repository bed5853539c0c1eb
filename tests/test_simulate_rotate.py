"""`catrules simulate --rotate`: each bot spec plays each seat equally often, summed per spec
with intervals (issue 27)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from catrules import cli
from catrules.lab.rotation import rotated
from catrules.lab.simulate import simulate

GAMES = Path(__file__).resolve().parent / "games"
EXPEDITION = GAMES / "expedition.cat"


def test_each_spec_sits_in_each_seat_equally(tmp_path):
    log = tmp_path / "games.jsonl"
    specs = ["greedy", "random", "random:fast"]
    r = simulate(GAMES / "marks.cat", players=3, games=9, seed=2, seats=specs, rotate=True, log_path=log)
    heads = [json.loads(x) for x in log.read_text().splitlines() if '"header"' in x or '"seats"' in x]
    seatings = [tuple(h["seats"]) for h in heads if "seats" in h]
    assert len(seatings) == 9
    for p in range(3):
        assert Counter(s[p] for s in seatings) == Counter({x: 3 for x in specs})
    assert seatings[1] == rotated(specs, 1) == ("random:fast", "greedy", "random")
    # the per-spec sums are the per-seat sums regrouped
    assert sum(s.wins for s in r.specs) == sum(s.wins for s in r.seats)
    assert all(s.seat_games == 9 for s in r.specs)
    assert all(s.low <= s.win_rate <= s.high for s in r.specs)


def test_a_spec_named_twice_counts_every_seat_it_sits_in():
    r = simulate(EXPEDITION, players=3, games=6, seed=1, seats=["greedy:look:300", "random", "random"], rotate=True)
    by = {s.spec: s for s in r.specs}
    assert list(by) == ["greedy:look:300", "random"]
    assert by["greedy:look:300"].seat_games == 6 and by["random"].seat_games == 12
    assert by["random"].fair == round(1 / 3, 6)


def test_the_stronger_bot_is_above_its_fair_share_whatever_the_seat():
    r = simulate(EXPEDITION, players=2, games=20, seed=5, seats=["greedy:look:300", "random"], rotate=True)
    look, rnd = r.specs
    assert look.low > look.fair > rnd.high
    # and with the seats turning, neither seat row belongs to one bot
    assert all(abs(s.win_rate - 0.5) <= 0.15 for s in r.seats)


def test_the_same_seats_without_rotate_are_unchanged():
    d = simulate(EXPEDITION, players=2, games=4, seed=1, seats=["greedy", "random"]).to_dict()
    assert "rotate" not in d and "specs" not in d
    assert [s["spec"] for s in d["seats"]] == ["greedy", "random"]


def test_the_command_line_table_and_json(capsys):
    code = cli.main(["simulate", str(EXPEDITION), "--players", "2", "--games", "4", "--bots", "greedy:look:200,random",
                     "--rotate"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "seats rotated: each spec sat in each seat 2 times" in out
    assert "95% interval" in out and "greedy:look:200" in out
    code = cli.main(["simulate", str(EXPEDITION), "--players", "2", "--games", "3", "--bots", "greedy,random",
                     "--rotate", "--json"])
    data = json.loads(capsys.readouterr()[0])
    assert data["rotate"] is True and [s["spec"] for s in data["specs"]] == ["greedy", "random"]
    assert [s["seat_games"] for s in data["specs"]] == [3, 3]


def test_rotating_one_bot_is_refused_in_words(capsys):
    code = cli.main(["simulate", str(EXPEDITION), "--players", "2", "--games", "2", "--bots", "greedy", "--rotate"])
    _out, err = capsys.readouterr()
    assert code != 0 and "--rotate needs different bots" in err and "Traceback" not in err
