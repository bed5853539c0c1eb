"""The balance lab (catrules balance): its statistics against known values, its verdicts on an
unfair and a fair game, the same report for every --jobs, the JSON, the HTML with its plots,
--compare, and the command line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import catrules
from catrules.lab import stats as bs
from catrules.lab.balance import DEFAULT_SKILL_GAMES, FRACTIONS, balance
from catrules.cli import main
from catrules.lab.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
MEOW = ROOT / "games" / "meow.cat"
HEAD_START = ROOT / "tests" / "games" / "head_start.cat"      # seat 1 plays first and always wins


@pytest.fixture(scope="module")
def meow():
    return catrules.load_game(MEOW)


@pytest.fixture(scope="module")
def head_start():
    return catrules.load_game(HEAD_START)


def without_timing(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "timing"}


# ------------------------------------------------------------------ statistics

def test_wilson_interval_of_newcombes_example():
    # Newcombe (1998), Statistics in Medicine 17: 81 of 263 gives 0.2553 to 0.3662
    lo, hi = bs.wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    assert bs.wilson(0, 10)[0] == 0.0 and bs.wilson(10, 10)[1] == 1.0
    assert bs.wilson(0, 0) == (0.0, 1.0)


def test_difference_of_proportions_of_newcombes_example():
    # Newcombe (1998), method 10: 56/70 against 48/80, a difference of 0.2 from 0.0524 to 0.3339
    d, lo, hi = bs.diff_proportions(48, 80, 56, 70)
    assert (round(d, 4), round(lo, 4), round(hi, 4)) == (0.2, 0.0524, 0.3339)


def test_tests_and_quantiles_agree_with_scipy():
    stats = pytest.importorskip("scipy.stats")
    for k, n, p in [(31, 100, 0.25), (2539, 10000, 0.258), (0, 10, 0.3), (10, 10, 0.5), (7, 20, 0.1)]:
        assert math.isclose(bs.binom_test(k, n, p), stats.binomtest(k, n, p).pvalue, rel_tol=1e-9)
    for x, df in [(1.33, 3), (30, 3), (0.5, 1), (100, 5), (7.8, 3), (0.0, 2)]:
        assert math.isclose(bs.chi2_sf(x, df), stats.chi2.sf(x, df), rel_tol=1e-9)
    for df in (1, 5, 30, 31, 100, 10_000):
        assert math.isclose(bs.t95(df), stats.t.ppf(0.975, df), rel_tol=1e-4)
    counts = [2609, 2582, 2597, 2532]
    assert math.isclose(bs.chi_square_uniform(counts)[2], stats.chisquare(counts).pvalue, rel_tol=1e-9)
    d, lo, hi = bs.diff_means(50, 10.0, 2.0, 60, 11.0, 3.0)
    v1, v2 = 2.0 ** 2 / 50, 3.0 ** 2 / 60
    df = (v1 + v2) ** 2 / (v1 ** 2 / 49 + v2 ** 2 / 59)           # Welch-Satterthwaite
    assert lo < d < hi and math.isclose(hi - d, stats.t.ppf(0.975, df) * math.sqrt(v1 + v2), rel_tol=1e-4)


def test_quantiles_and_histograms():
    assert bs.quantiles([1, 2, 3, 4], [0, 0.5, 1, 0.25]) == [1, 2.5, 4, 1.75]
    h = bs.histogram([3, 3, 5])
    assert h == {"edges": [2.5, 3.5, 4.5, 5.5], "counts": [2, 0, 1]}
    assert sum(bs.histogram([x / 7 for x in range(100)], 10)["counts"]) == 100


def test_verdict_thresholds():
    assert bs.fairness_verdict("seat 1", 0.31, 0.29, 0.33, 0.25, 1e-6)[1].startswith(
        "seat 1 wins 31.0% ± 2.0% (fair share 25.0%, p < 0.001): likely unfair")
    assert bs.fairness_verdict("seat 1", 0.255, 0.25, 0.26, 0.25, 0.001)[0] == "slight"
    assert bs.fairness_verdict("seat 1", 0.26, 0.24, 0.28, 0.25, 0.03)[0] == "possible"
    assert bs.fairness_verdict("seat 1", 0.25, 0.24, 0.26, 0.25, 0.7)[0] == "fair"
    assert bs.drama_verdict(0.95, 0.94, 0.96, 0.25, 0.3)[0] == "decided"
    assert bs.drama_verdict(0.5, 0.45, 0.55, 0.25, 3)[0] == "open"
    assert bs.skill_verdict("greedy", "random", 0.3, 0.2, 0.4, 0.25, 100)[0] == "unclear"
    assert bs.skill_verdict("greedy", "random", 0.26, 0.24, 0.28, 0.25, 4000)[0] == "luck"
    assert bs.skill_verdict("greedy", "random", 0.8, 0.75, 0.85, 0.25, 400)[0] == "skill-dominates"


# ------------------------------------------------------------------ the leader's samples

class FakeState:
    """Decisions go by; player 1 leads for the first half, then player 0."""

    def __init__(self, n):
        self.n, self.decisions, self.scored = n, 0, 0
        self.no_way_out = None          # never in a loop with no way out

    def scores(self):
        return [{"total": 0}, {"total": 0}]

    def rank_keys(self, rows):
        self.scored += 1
        return [(1,), (0,)] if self.decisions > self.n // 2 else [(0,), (1,)]


@pytest.mark.parametrize("every", [1, 7])
def test_the_leader_is_sampled_evenly_at_a_bounded_cost(every):
    from catrules.lab.balance import MARKS, Tracker
    st = FakeState(1000)
    track = Tracker(st, 10_000, every)
    for d in range(1, 1001):
        st.decisions = d
        track()
    assert MARKS // 2 <= len(track.marks) < MARKS
    gaps = {b[0] - a[0] for a, b in zip(track.marks, track.marks[1:])}
    # 1000 decisions, scored 40 + 20 + 20... times: a few per doubling of the length, never 1000
    assert len(gaps) == 1 and st.scored < 4 * MARKS
    changes, codes = track.drama((0,))
    assert changes == 1
    assert codes == tuple(0 if f <= 0.5 else 1 for f in FRACTIONS)      # player 1 led, player 0 won
    assert Tracker(st, 10_000).drama((0, 1))[0] == 0                       # no samples, a shared win


# ------------------------------------------------------------------ verdicts on games

def test_an_unfair_game_is_flagged(head_start):
    r = balance(head_start, 4, 120, seed=3, skill_games=8).to_dict()
    res = r["results"][0]
    assert res["wins"]["seats"][0]["wins"] == 120 and res["wins"]["verdict"]["level"] == "unfair"
    assert res["wins"]["test"]["p_value"] < 1e-6
    fp = res["first_player"]
    assert fp["by_seat"] == [120, 0, 0, 0] and fp["verdict"]["level"] == "unfair"
    assert res["drama"]["verdict"]["level"] == "decided"
    assert res["drama"]["lead_changes"]["mean"] == 0
    # the greedy bot wins exactly when it sits in seat 1: no better than its fair share
    assert res["skill"]["rate"] == 0.25 and res["skill"]["verdict"]["level"] == "unclear"
    assert r["verdicts"][0].startswith("seat 1 wins 100.0%") and "likely unfair" in r["verdicts"][0]


def test_a_fair_game_is_not_flagged(meow):
    res = balance(meow, 4, 400, seed=1, skill_games=0).to_dict()["results"][0]
    assert res["wins"]["verdict"]["level"] == "fair"
    assert res["first_player"]["verdict"]["level"] == "fair"
    assert sorted(res["first_player"]["by_seat"]) != [0, 0, 0, 400]      # Meow's first player is random
    assert res["skill"] is None
    curve = [x["rate"] for x in res["drama"]["leader_wins"]]
    assert len(curve) == len(FRACTIONS) and curve[-1] > curve[0] > res["fair_share"]


def test_a_game_whose_first_choice_is_a_race_has_no_first_player():
    game = catrules.load_game(ROOT / "games" / "flapcat.cat")
    d = balance(game, 3, 12, seed=1, skill_games=0).to_dict()
    assert d["results"][0]["first_player"] is None
    assert any(v.startswith("no first player") for v in d["verdicts"])


# ------------------------------------------------------------------ determinism and the JSON

def test_same_figures_for_every_jobs_and_the_same_games_as_simulate(meow):
    one = balance(meow, 3, 150, seed=5, skill_games=6, jobs=1).to_dict()
    two = balance(meow, 3, 150, seed=5, skill_games=6, jobs=2).to_dict()
    assert json.dumps(without_timing(one)) == json.dumps(without_timing(two))
    sim = simulate(meow, 3, 150, 5)
    assert [s["wins"] for s in one["results"][0]["wins"]["seats"]] == [s.wins for s in sim.seats]
    assert one["results"][0]["length"]["decisions"]["mean"] == pytest.approx(sim.decisions_mean)


def test_the_json_has_every_figure(meow):
    d = balance(meow, 4, 60, seed=2, skill_games=4).to_dict()
    assert d["catrules_balance"] == 1 and d["games"] == 60 and d["bots"] == ["random"] * 4
    assert list(d)[-1] == "timing" and set(d["timing"]) == {"elapsed_seconds"}
    res = d["results"][0]
    assert set(res) == {"options", "games", "finished", "unfinished", "fair_share", "wins", "first_player",
                        "scores", "length", "drama", "skill"}
    for s in res["wins"]["seats"]:
        assert s["low"] <= s["rate"] <= s["high"]
    assert [i["name"] for i in res["scores"]["items"]] == ["food", "fishbones_kept", "fish_used", "vases"]
    assert [i["counted"] for i in res["scores"]["items"]] == [True, True, False, True]
    assert len(res["scores"]["total"]) == 4
    assert sum(res["scores"]["total"][0]["histogram"]) == 60
    assert set(res["length"]) == {"decisions", "choices"}
    assert res["drama"]["two_thirds"]["fraction"] == round(2 / 3, 6)
    assert res["skill"]["games"] == 4 and [s["games"] for s in res["skill"]["by_seat"]] == [1, 1, 1, 1]
    assert d["comparison"] is None and all(isinstance(v, str) for v in d["verdicts"])
    json.dumps(d, allow_nan=False)


def test_compare_gives_every_difference_with_its_interval(meow):
    d = balance(meow, 4, 80, seed=1, skill_games=0, compare_option="expert").to_dict()
    assert [r["options"] for r in d["results"]] == [[], ["expert"]]
    comp = d["comparison"]
    keys = [e["figure"] for e in comp["effects"]]
    assert {"wins.seat1", "first_player.rate", "scores.total.seat1", "scores.food", "length.decisions",
            "drama.two_thirds", "drama.lead_changes"} <= set(keys)
    for e in comp["effects"]:
        assert e["low"] <= e["difference"] <= e["high"]
        assert e["difference"] == pytest.approx(e["with"] - e["without"], abs=1e-5)
        assert e["clear"] == (e["low"] > 0 or e["high"] < 0)
    assert comp["verdict"].startswith("with expert")
    with pytest.raises(ValueError, match="already"):
        balance(meow, 4, 5, options=["expert"], compare_option="expert")


def test_a_game_that_goes_wrong_is_named_with_its_seed(tmp_path):
    from catrules.lab.balance import BalanceError
    bad = tmp_path / "bad.cat"
    bad.write_text('''catrules 1
game "Sometimes Bad"
players 2 to 2
cards c in deck:
    for each value in 0 to 9:
        card
zone deck: shared
zone hand: per player, public, pile
counter x = 0
flow:
    for each player p:
        p chooses c from deck
        x = 12 / c.value
        move c to hand of p
score:
    points = 0
''')
    with pytest.raises(BalanceError, match=r"^game 1 of 40 \(seed 1000003\) stopped: .*division by zero"):
        balance(bad, 2, 40, seed=1, skill_games=0)          # game 0 goes wrong (played first, here)
    for jobs in (1, 2):                                     # game 5: the same one for every --jobs
        with pytest.raises(BalanceError, match=r"^game 6 of 40 \(seed 2000011\) stopped: .*division by zero"):
            balance(bad, 2, 40, seed=2, skill_games=0, jobs=jobs)


# ------------------------------------------------------------------ the report

def test_the_html_report_embeds_the_plots(tmp_path, meow):
    pytest.importorskip("matplotlib")
    from catrules.lab.report import write_report
    d = balance(meow, 4, 40, seed=1, skill_games=4, compare_option="expert").to_dict()
    written = write_report(d, tmp_path / "r.html", tmp_path / "r.json", tmp_path / "png")
    text = (tmp_path / "r.html").read_text()
    assert text.count("data:image/png;base64,") == 7            # wins, scores, items, length, drama, skill, compare
    assert "likely unfair" not in text and "Verdicts" in text and "catrules balance" in text
    assert json.loads((tmp_path / "r.json").read_text()) == json.loads(json.dumps(d))
    pngs = sorted(p.name for p in (tmp_path / "png").iterdir())
    assert len(pngs) == 7 and len(written) == 9
    assert (tmp_path / "png" / "balance-wins.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------ the command line

def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_end_to_end_and_the_same_report_for_every_jobs(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    outs = []
    for jobs in (1, 2):
        html = tmp_path / f"j{jobs}" / "hs.html"
        html.parent.mkdir()
        code, out, err = run(capsys, "balance", HEAD_START, "--games", 60, "--skill-games", 4, "--jobs", jobs,
                             "-o", html)
        assert code == 0, err
        assert "seat 1 wins 100.0%" in out and "likely unfair" in out and "wrote" in out
        outs.append((html.read_bytes(), json.loads(html.with_suffix(".json").read_text())))
    assert outs[0][0] == outs[1][0]
    assert without_timing(outs[0][1]) == without_timing(outs[1][1])
    assert outs[0][1]["path"] == str(HEAD_START)


def test_cli_default_output_and_json_only(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "balance", MEOW, "--games", 20, "--skill-games", 0, "--json-only",
                         "--players", 3)
    assert code == 0, err
    assert (tmp_path / "meow-balance.json").exists() and not (tmp_path / "meow-balance.html").exists()
    assert json.loads((tmp_path / "meow-balance.json").read_text())["players"] == 3


def test_cli_without_matplotlib_writes_the_json_and_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    from catrules.lab import report as balance_report

    def no_matplotlib():
        raise balance_report.ReportError("the report's plots need matplotlib, which is not installed",
                                         balance_report.INSTALL_HINT)
    monkeypatch.setattr(balance_report, "_pyplot", no_matplotlib)
    code, out, err = run(capsys, "balance", HEAD_START, "--games", 10, "--skill-games", 0, "-o", tmp_path / "x.html")
    assert code == 1
    assert "pip install 'catrules[balance]'" in err and "Traceback" not in err
    assert (tmp_path / "x.json").exists() and not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("argv,words", [
    (["--option", "nope"], "has no option `nope`"),
    (["--compare", "nope"], "has no option `nope`"),
    (["--compare", "expert", "--option", "expert"], "also given with --option"),
    (["--players", "9"], "is for 2 to 6 players, not 9"),
    (["--bots", "human"], "bots only"),
    (["--bots", "random,greedy"], "2 bots for 4 players"),
    (["--games", "0"], "--games must be 1 or more"),
    (["--skill-games", "-1"], "--skill-games must be 0 or more"),
    (["--jobs", "x"], "--jobs takes a number"),
])
def test_cli_usage_errors(capsys, tmp_path, argv, words):
    code, out, err = run(capsys, "balance", MEOW, "-o", tmp_path / "r.html", *argv)
    assert code == 2 and words in err and "Traceback" not in err
    assert not (tmp_path / "r.json").exists()


def test_cli_help_teaches(capsys):
    code, out, _ = run(capsys, "balance", "--help")
    assert code == 0
    assert "examples:" in out and "--compare" in out and "likely unfair" in out
    assert f"default: {DEFAULT_SKILL_GAMES}" in out


def test_the_t_quantile_for_many_intervals_read_together_matches_scipy():
    # the lab widens its intervals by Bonferroni (diff_means(..., tests=K)): 0.05 / K two-sided
    scipy_t = pytest.importorskip("scipy.stats").t
    for df in (19, 30, 100, 1000):
        for alpha in (0.05, 0.005, 0.001, 1e-4):
            assert bs.t_quantile(df, alpha) == pytest.approx(scipy_t.ppf(1 - alpha / 2, df), rel=2e-3)
    assert bs.t_quantile(40, 0.05) == pytest.approx(bs.t95(40))
