"""Per-choice statistics of the balance lab: how often each option of each decision is taken,
and how taking it goes with winning.

A *prompt* is a decision of the game file, named by its source line (its text as written);
an *option* is the label a player reads (a card's face, a menu's text, a number).  Over the
games, each (game, player) who answered a prompt at least once *faced* it.  An option is
*offered* to a player-game when it was among that player's options at least once; of those,
the ones who took it at least once are its *takers*, the others its *non-takers*.  For each
option: the times it was taken (its share of the prompt's answers), the win rate of its takers
and of its non-takers (Wilson intervals) and their difference (Newcombe's interval).

An option is *dominant* when the winners preferred it, when it was offered, clearly more than
the others did.  The preference of one player-game offered it: the times taken less the times
an even pick among the options would have taken it, per offer (0 for a player who picks
evenly; a player always taking one of two options offered prefers it by +0.5).  The winners'
mean preference is set against the others' (Welch's interval of the difference, widened for
the number of options judged together by Bonferroni, :func:`catrules.lab.stats.diff_means`),
with at least :data:`LEAST` player-games among takers and non-takers each.

Not "took it at least once", nor the share of offers taken: a player who answers more often
(more turns, as where a good answer earns another turn) takes every option at least once more
often; a player who holds a strong card is offered it and plays it sooner or later (the card,
not the choice, goes with winning); and a player with fewer options (fewer cards left) takes
each of them more often.  With any of these, taking goes with winning while no choice is
better than another.  It stays an association, not a cause: a player ahead may take an option
because they are ahead.
"""

from __future__ import annotations

from . import stats as bs

#: Player-games each side needs before an option can be called dominant.
LEAST = 20
#: Options kept per prompt in the figures (the most taken), and prompts (the most answered).
MOST_OPTIONS = 40
MOST_PROMPTS = 30


class ChoiceTally:
    """Sums over games of the answers noted by :class:`catrules.lab.turns.Watch`."""

    def __init__(self, text=None):
        self.text = text or (lambda line: f"line {line}")
        self.times: dict = {}       # (line, label) -> answers
        self.took: dict = {}        # (line, label) -> [player-games, of which won]
        self.offered: dict = {}     # (line, label) -> [player-games, of which won]
        self.faced: dict = {}       # line -> [player-games, of which won, answers]
        self.shares: dict = {}      # (line, label) -> [winners' sum of preferences, squares, others' ...]

    def add(self, counts: tuple, won: tuple) -> None:
        """One finished game: ``counts`` as :meth:`Watch.choice_counts` gives them."""
        answered: dict = {}         # (line, player) -> answers in this game
        for line, label, pl, k, _o, _e in counts:
            answered[line, pl] = answered.get((line, pl), 0) + k
        for line, label, pl, k, o, even in counts:
            if not answered[line, pl]:
                continue            # offered in a decision the game ended before it was answered
            key, win = (line, label), pl in won
            if k:
                self.times[key] = self.times.get(key, 0) + k
                t = self.took.setdefault(key, [0, 0])
                t[0] += 1
                t[1] += win
            if o:
                f = self.offered.setdefault(key, [0, 0])
                f[0] += 1
                f[1] += win
                share, sh = (k - even) / o, self.shares.setdefault(key, [0.0, 0.0, 0.0, 0.0])
                side = 0 if win else 2
                sh[side] += share
                sh[side + 1] += share * share
        for (line, pl), k in answered.items():
            if k:
                f = self.faced.setdefault(line, [0, 0, 0])
                f[0] += 1
                f[1] += pl in won
                f[2] += k

    def figures(self) -> list:
        """One entry per prompt with two or more options taken, the most answered first."""
        r = bs.round6
        out = []
        lines = sorted(self.faced, key=lambda ln: (-self.faced[ln][2], ln))
        for line in lines:
            n_faced, _w, answers = self.faced[line]
            keys = sorted((k for k in self.times if k[0] == line), key=lambda k: (-self.times[k], k[1]))
            if len(keys) < 2:
                continue
            options = []
            for key in keys[:MOST_OPTIONS]:
                n1, w1 = self.took[key]
                n_off, w_off = self.offered.get(key, (n1, w1))
                n0, w0 = n_off - n1, w_off - w1
                lo1, hi1 = bs.wilson(w1, n1)
                lo0, hi0 = bs.wilson(w0, n0)
                d, dlo, dhi = bs.diff_proportions(w0, n0, w1, n1)
                options.append({"option": key[1], "times": self.times[key], "share": r(self.times[key] / answers),
                                "offered": n_off,
                                "takers": {"games": n1, "wins": w1, "rate": r(w1 / n1 if n1 else 0.0),
                                           "low": r(lo1), "high": r(hi1)},
                                "others": {"games": n0, "wins": w0, "rate": r(w0 / n0 if n0 else 0.0),
                                           "low": r(lo0), "high": r(hi0)},
                                "difference": r(d), "low": r(dlo), "high": r(dhi), "dominant": False,
                                "_key": key, "_offered": (w_off, n_off - w_off)})
            out.append({"line": line, "prompt": self.text(line), "answers": answers, "player_games": n_faced,
                        "options": options, "more_options": max(0, len(keys) - MOST_OPTIONS)})
            if len(out) >= MOST_PROMPTS:
                break
        self._judge(out)
        return out

    def _judge(self, prompts: list) -> None:
        """Each option's ``chosen_by``: the mean preference for it (taken less an even pick's
        takes, per offer) of the winners and of the others (player-games offered it), with the
        difference's interval widened for every option that can be judged (Bonferroni);
        ``dominant`` where that interval lies above 0."""
        r = bs.round6
        judged = {id(o) for pr in prompts for o in pr["options"]
                  if o["takers"]["games"] >= LEAST and o["others"]["games"] >= LEAST}
        for pr in prompts:
            for o in pr["options"]:
                (nw, no), sh = o.pop("_offered"), self.shares.get(o.pop("_key"), [0.0] * 4)
                mw, sw = bs.moments(nw, sh[0], sh[1])
                mo, so = bs.moments(no, sh[2], sh[3])
                d, lo, hi = bs.diff_means(no, mo, so, nw, mw, sw, tests=max(1, len(judged)))
                o["chosen_by"] = {"winners": r(mw), "others": r(mo), "difference": r(d), "low": r(lo),
                                  "high": r(hi), "tests": len(judged)}
                o["dominant"] = id(o) in judged and lo > 0


#: Dominant options named in the verdicts (the JSON has them all).
MOST_VERDICTS = 3


def dominant_verdicts(prompts: list) -> list:
    """The words for the dominant options (the first :data:`MOST_VERDICTS`; how many more)."""
    out = []
    for pr in prompts:
        for o in pr["options"]:
            if o["dominant"]:
                t, x = o["takers"], o["others"]
                c = o["chosen_by"]
                out.append(f"a dominant choice at line {pr['line']} (`{pr['prompt']}`): offered \u201c{o['option']}"
                           f"\u201d, the winners took it {_points(c['winners'])} points more often than an even "
                           f"pick, the others {_points(c['others'])} (difference {_points(c['difference'])} "
                           f"[{_points(c['low'])}, {_points(c['high'])}], {c['tests']} options judged "
                           f"together); players who take it win {bs.pct(t['rate'])} [{bs.pct(t['low'])}, "
                           f"{bs.pct(t['high'])}], those who do not {bs.pct(x['rate'])} [{bs.pct(x['low'])}, "
                           f"{bs.pct(x['high'])}]")
    if len(out) > MOST_VERDICTS:
        out = out[:MOST_VERDICTS] + [f"{len(out) - MOST_VERDICTS} more dominant choices (in the report)"]
    return out


def _points(x: float) -> str:
    """A difference of two shares in percentage points: ``+18.8``."""
    return f"{x * 100:+.1f}"
