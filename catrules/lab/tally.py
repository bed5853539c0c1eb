"""The sums of the balance lab: what the games of one condition add up to, and their figures.

:class:`Tally` is fed the records of :class:`catrules.lab.balance.PlayBalance` in game order
(the same sums for every ``--jobs``) and gives every figure of a condition with its interval
(:mod:`catrules.lab.stats`): the wins per seat, the first player and the turn positions
(:mod:`catrules.lab.turns`), the scores, the length, the drama and the skill games; the
per-choice figures are :class:`catrules.lab.choices.ChoiceTally`'s.
"""

from __future__ import annotations

from array import array
from typing import Optional

from . import stats as bs
from .choices import ChoiceTally
from .ladder import BOOTSTRAP, pairs, rating_gap

#: Fractions of a game's decisions at which the leader is looked at; 2/3 is the one of the verdict.
FRACTIONS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 2 / 3, 0.7, 0.8, 0.9)
TWO_THIRDS = FRACTIONS.index(2 / 3)
#: The stronger and the weaker bots of the skill games.
STRONG, WEAK = "greedy", "random"


class Tally:
    """What the games of one condition (a set of options) add up to, merged in game order."""

    def __init__(self, players: int, specs: list, options: list, items: list, turns=None):
        n = players
        self.map = turns                            # the game's TurnMap: the main loop's words
        self.loops: dict = {}                       # the main loop of each game: how many games
        self.position_wins = [0] * n                # wins by turn position (0 = the first player)
        self.position_turns = [[0, 0.0, 0.0] for _ in range(n)]    # turns taken: n, sum, squares
        self.choice = ChoiceTally(turns.text if turns is not None else None)
        self.players, self.specs, self.options = n, specs, options
        self.items = items                          # (name, counted)
        self.games = self.unfinished = self.shared = self.winners = 0
        self.wins = [0] * n
        self.totals = [array("d") for _ in range(n)]
        self.item_seat = [[[0, 0.0, 0.0] for _ in range(n)] for _ in items]    # n, sum, squares
        self.item_game = [[0, 0.0, 0.0] for _ in items]                        # of the players' mean
        self.decisions, self.choices = array("d"), array("d")
        self.first_seats = [0] * n
        self.first_wins = 0
        self.changes = array("i")
        self.at = [[0, 0] for _ in FRACTIONS]       # games with a single leader, of which won
        self.skill = {"games": 0, "unfinished": 0, "wins": 0, "winners": 0,
                      "seats": [[0, 0] for _ in range(n)]}
        self.skill_pairs: list = []                 # per skill game, its pairwise results (ladder.pairs)

    def add_main(self, rec: tuple) -> None:
        decisions, choices, totals, items, won, first, changes, codes = rec[:8]
        loop, turns, picks = rec[8:] if len(rec) > 8 else (None, (), ())
        self.games += 1
        if totals is None:
            self.unfinished += 1
            return
        if loop is not None:
            self.loops[loop] = self.loops.get(loop, 0) + 1
        if first >= 0 and turns:
            n = self.players
            for k in range(n):
                pl = (first + k) % n
                self.position_wins[k] += pl in won
                acc = self.position_turns[k]
                acc[0] += 1
                acc[1] += turns[pl]
                acc[2] += turns[pl] * turns[pl]
        self.choice.add(picks, won)
        self.decisions.append(decisions)
        self.choices.append(choices)
        for w in won:
            self.wins[w] += 1
        self.winners += len(won)
        self.shared += len(won) > 1
        for p, t in enumerate(totals):
            self.totals[p].append(t if t is not None else 0)
        for k in range(len(self.items)):
            vals = [row[k] for row in items]
            for p, v in enumerate(vals):
                if v is not None:
                    acc = self.item_seat[k][p]
                    acc[0] += 1
                    acc[1] += v
                    acc[2] += v * v
            if None not in vals:
                m = sum(vals) / len(vals)
                acc = self.item_game[k]
                acc[0] += 1
                acc[1] += m
                acc[2] += m * m
        if first >= 0:
            self.first_seats[first] += 1
            self.first_wins += first in won
        self.changes.append(changes)
        for k, c in enumerate(codes):
            if c >= 0:
                self.at[k][0] += 1
                self.at[k][1] += c

    def add_skill(self, rec: tuple) -> None:
        strong, won = rec[:2]
        s = self.skill
        s["games"] += 1
        if won is None:
            s["unfinished"] += 1
            return
        if len(rec) > 2:        # the pairwise results of the ladder: bot 1 the strong one, bot 0 a weak one
            seats = tuple(int(p == strong) for p in range(self.players))
            self.skill_pairs.append(pairs(seats, rec[2]))
        s["winners"] += len(won)
        s["wins"] += strong in won
        s["seats"][strong][0] += 1
        s["seats"][strong][1] += strong in won

    # ------------------------------------------------------------ figures
    def fair_share(self) -> float:
        """A seat's win rate if every seat had the same chances (shared wins count for each winner)."""
        done = self.games - self.unfinished
        return self.winners / (self.players * done) if done else 1 / self.players

    def figures(self) -> dict:
        """Every figure of this condition, JSON-ready (see ``docs/balance.rst``)."""
        done = self.games - self.unfinished
        fair = self.fair_share()
        r = bs.round6
        seats = []
        for p in range(self.players):
            lo, hi = bs.wilson(self.wins[p], done)
            seats.append({"seat": p + 1, "bot": self.specs[p], "wins": self.wins[p],
                          "rate": r(self.wins[p] / done if done else 0.0), "low": r(lo), "high": r(hi)})
        stat, df, pv = bs.chi_square_uniform(self.wins)
        worst = max(range(self.players), key=lambda p: (abs(seats[p]["rate"] - fair), -p))
        w = seats[worst]
        level, text = bs.fairness_verdict(f"seat {worst + 1}", w["rate"], w["low"], w["high"], fair, pv)
        if len(set(self.specs)) > 1:
            text += " (the seats have different bots: this is the bots' difference too)"
        out = {"options": list(self.options), "games": self.games, "finished": done,
               "unfinished": self.unfinished, "fair_share": r(fair),
               "wins": {"seats": seats, "shared_games": self.shared,
                        "test": {"name": "chi-square test of equal wins per seat", "statistic": r(stat),
                                 "df": df, "p_value": r(pv)},
                        "verdict": {"level": level, "text": text}},
               "first_player": self._first(fair), "scores": self._scores(),
               "length": {"decisions": bs.spread(self.decisions), "choices": bs.spread(self.choices)},
               "drama": self._drama(fair), "skill": self._skill()}
        return out

    def _first(self, fair: float) -> Optional[dict]:
        n = sum(self.first_seats)
        if not n:
            return None
        lo, hi = bs.wilson(self.first_wins, n)
        rate = self.first_wins / n
        pv = bs.binom_test(self.first_wins, n, fair)
        level, text = bs.fairness_verdict("the first player", rate, lo, hi, fair, pv)
        text += f" (the first player: {self.definition()})"
        r = bs.round6
        return {"games": n, "wins": self.first_wins, "rate": r(rate), "low": r(lo), "high": r(hi),
                "fair_share": r(fair), "test": {"name": "exact binomial test against the fair share",
                                                "p_value": r(pv)},
                "by_seat": list(self.first_seats), "verdict": {"level": level, "text": text},
                **self._turn_order(n)}

    def main_loop(self) -> Optional[tuple]:
        """The main loop of the most games (the earliest of equals)."""
        return max(self.loops, key=lambda k: (self.loops[k], -k[1])) if self.loops else None

    def definition(self) -> str:
        """What "the first player" is in this game, in words."""
        loop = self.main_loop()
        if loop is None or self.map is None:
            return "the first to take a turn of the game's main loop"
        unit = "the flow" if loop[0] == "flow" else "`" + loop[0].replace(":", " ", 1) + "`"
        return (f"the first to take a turn in the main loop `{self.map.loops.get(loop, loop[1])}` "
                f"(line {loop[1]}, in {unit}), the loop where most choices are made")

    def _turn_order(self, games: int) -> dict:
        r = bs.round6
        positions = []
        for k in range(self.players):
            lo, hi = bs.wilson(self.position_wins[k], games)
            n, s, q = self.position_turns[k]
            m, sd = bs.moments(n, s, q)
            tlo, thi = bs.mean_interval(n, m, sd)
            positions.append({"position": k + 1, "wins": self.position_wins[k],
                              "rate": r(self.position_wins[k] / games if games else 0.0), "low": r(lo), "high": r(hi),
                              "turns": {"games": n, "mean": r(m), "low": r(tlo), "high": r(thi)}})
        loop = self.main_loop()
        other = sum(self.loops.values()) - (self.loops[loop] if loop else 0)
        return {"definition": self.definition(),
                "main_loop": None if loop is None else {"unit": loop[0], "line": loop[1],
                                                        "text": self.map.loops.get(loop) if self.map else None,
                                                        "games": self.loops[loop], "other_games": other},
                "positions": positions}

    def _scores(self) -> dict:
        r = bs.round6
        edges = bs.histogram([x for t in self.totals for x in t], 30)["edges"]
        total = []
        for p, t in enumerate(self.totals):
            total.append({"seat": p + 1, **bs.spread(t, hist=False),
                          "histogram": bs.bin_counts(t, edges)})
        items = []
        for k, (name, counted) in enumerate(self.items):
            per = []
            for p in range(self.players):
                n, s, q = self.item_seat[k][p]
                m, sd = bs.moments(n, s, q)
                lo, hi = bs.mean_interval(n, m, sd)
                per.append({"seat": p + 1, "games": n, "mean": r(m), "low": r(lo), "high": r(hi)})
            n, s, q = self.item_game[k]
            m, sd = bs.moments(n, s, q)
            lo, hi = bs.mean_interval(n, m, sd)
            items.append({"name": name, "counted": counted, "seats": per,
                          "per_player": {"games": n, "mean": r(m), "sd": r(sd), "low": r(lo), "high": r(hi)}})
        return {"total": total, "histogram_edges": [r(e) for e in edges], "items": items}

    def _drama(self, fair: float) -> Optional[dict]:
        if not self.changes:
            return None
        r = bs.round6
        curve = []
        for f, (n, k) in zip(FRACTIONS, self.at):
            lo, hi = bs.wilson(k, n)
            curve.append({"fraction": r(f), "games": n, "wins": k, "rate": r(k / n if n else 0.0),
                          "low": r(lo), "high": r(hi)})
        some = sum(1 for c in self.changes if c > 0)
        lo, hi = bs.wilson(some, len(self.changes))
        changes = bs.spread(self.changes)
        tt = curve[TWO_THIRDS]
        level, text = bs.drama_verdict(tt["rate"], tt["low"], tt["high"], fair, changes["mean"])
        if not tt["games"]:
            level, text = "unknown", "no game had a single leader at two thirds of its decisions"
        return {"lead_changes": changes,
                "games_with_lead_change": {"games": len(self.changes), "count": some,
                                           "rate": r(some / len(self.changes)), "low": r(lo), "high": r(hi)},
                "leader_wins": curve, "two_thirds": tt, "verdict": {"level": level, "text": text}}

    def _skill(self) -> Optional[dict]:
        s = self.skill
        done = s["games"] - s["unfinished"]
        if not done:
            return None
        r = bs.round6
        fair = s["winners"] / (self.players * done)
        rate = s["wins"] / done
        lo, hi = bs.wilson(s["wins"], done)
        level, text = bs.skill_verdict(STRONG, WEAK, rate, lo, hi, fair, done)
        gap = None
        if self.skill_pairs:
            gap = rating_gap(self.skill_pairs, 2, strong=1, weak=0)
            gap["method"] = (f"Bradley-Terry on pairwise results of final rankings; 95% interval from "
                             f"{BOOTSTRAP} bootstrap resamples of the skill games")
            text += (f"; on the skill ladder {STRONG} rates {gap['elo']:+.0f} Elo above {WEAK} "
                     f"[{gap['elo_low']:+.0f}, {gap['elo_high']:+.0f}]")
        return {"games": s["games"], "finished": done, "unfinished": s["unfinished"], "strong": STRONG,
                "weak": WEAK, "wins": s["wins"], "rate": r(rate), "low": r(lo), "high": r(hi),
                "fair_share": r(fair), "skill_index": r((rate - fair) / (1 - fair) if fair < 1 else 0.0),
                "test": {"name": "exact binomial test against the fair share",
                         "p_value": r(bs.binom_test(s["wins"], done, fair))},
                "by_seat": [{"seat": p + 1, "games": g, "wins": w} for p, (g, w) in enumerate(s["seats"])],
                "verdict": {"level": level, "text": text}, "rating_gap": gap}

    def measures(self) -> list:
        """The figures that ``--compare`` compares: ``(key, label, kind, numbers)``; ``kind`` is
        ``p`` (a proportion: successes, trials) or ``m`` (a mean: count, mean, sd)."""
        done = self.games - self.unfinished
        out = [(f"wins.seat{p + 1}", f"seat {p + 1}'s win rate", "p", (self.wins[p], done))
               for p in range(self.players)]
        out.append(("first_player.rate", "the first player's win rate", "p",
                    (self.first_wins, sum(self.first_seats))))
        for p, t in enumerate(self.totals):
            s = bs.spread(t, hist=False)
            out.append((f"scores.total.seat{p + 1}", f"seat {p + 1}'s mean total", "m",
                        (len(t), s["mean"], s["sd"])))
        for k, (name, _c) in enumerate(self.items):
            n, s, q = self.item_game[k]
            out.append((f"scores.{name}", f"mean {name} per player", "m", (n, *bs.moments(n, s, q))))
        for key in ("decisions", "choices"):
            s = bs.spread(getattr(self, key), hist=False)
            out.append((f"length.{key}", f"{key} per game", "m", (len(getattr(self, key)), s["mean"], s["sd"])))
        s = bs.spread(self.changes, hist=False)
        out.append(("drama.lead_changes", "lead changes per game", "m", (len(self.changes), s["mean"], s["sd"])))
        out.append(("drama.games_with_lead_change", "games with a lead change", "p",
                    (sum(1 for c in self.changes if c > 0), len(self.changes))))
        out.append(("drama.two_thirds", "the leader at two thirds wins", "p",
                    (self.at[TWO_THIRDS][1], self.at[TWO_THIRDS][0])))
        sk = self.skill
        out.append(("skill.rate", f"one {STRONG} bot's win rate", "p", (sk["wins"], sk["games"] - sk["unfinished"])))
        out.append(("unfinished", "unfinished games", "p", (self.unfinished, self.games)))
        return [m for m in out if m[3][1 if m[2] == "p" else 0] > 0]


