"""Per-choice statistics of the balance lab: how often each option of each decision is taken,
and how taking it goes with winning.

A *prompt* is a decision of the game file, named by its source line (its text as written);
an *option* is the label a player reads (a card's face, a menu's text, a number).  Over the
games, each (game, player) who answered a prompt at least once *faced* it; of those, the
ones who took an option at least once are its *takers*, the others its *non-takers*.  For each
option: the times it was taken (its share of the prompt's answers), the win rate of its takers
and of its non-takers (Wilson intervals) and their difference (Newcombe's interval).  An
option is *dominant* when its takers' interval lies wholly above its non-takers' (and each
side has at least :data:`LEAST` player-games): taking it goes with winning, clearly.  That
is an association, not a cause: a player ahead may take it because they are ahead.
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
        self.faced: dict = {}       # line -> [player-games, of which won, answers]

    def add(self, counts: tuple, won: tuple) -> None:
        """One finished game: ``counts`` as :meth:`Watch.choice_counts` gives them."""
        faced = set()
        for line, label, pl, k in counts:
            key = (line, label)
            self.times[key] = self.times.get(key, 0) + k
            t = self.took.setdefault(key, [0, 0])
            t[0] += 1
            t[1] += pl in won
            f = self.faced.setdefault(line, [0, 0, 0])
            f[2] += k
            if (line, pl) not in faced:
                faced.add((line, pl))
                f[0] += 1
                f[1] += pl in won

    def figures(self) -> list:
        """One entry per prompt with two or more options taken, the most answered first."""
        r = bs.round6
        out = []
        lines = sorted(self.faced, key=lambda ln: (-self.faced[ln][2], ln))
        for line in lines:
            n_faced, w_faced, answers = self.faced[line]
            keys = sorted((k for k in self.times if k[0] == line), key=lambda k: (-self.times[k], k[1]))
            if len(keys) < 2:
                continue
            options = []
            for key in keys[:MOST_OPTIONS]:
                n1, w1 = self.took[key]
                n0, w0 = n_faced - n1, w_faced - w1
                lo1, hi1 = bs.wilson(w1, n1)
                lo0, hi0 = bs.wilson(w0, n0)
                d, dlo, dhi = bs.diff_proportions(w0, n0, w1, n1)
                dominant = n1 >= LEAST and n0 >= LEAST and lo1 > hi0
                options.append({"option": key[1], "times": self.times[key], "share": r(self.times[key] / answers),
                                "takers": {"games": n1, "wins": w1, "rate": r(w1 / n1 if n1 else 0.0),
                                           "low": r(lo1), "high": r(hi1)},
                                "others": {"games": n0, "wins": w0, "rate": r(w0 / n0 if n0 else 0.0),
                                           "low": r(lo0), "high": r(hi0)},
                                "difference": r(d), "low": r(dlo), "high": r(dhi), "dominant": dominant})
            out.append({"line": line, "prompt": self.text(line), "answers": answers, "player_games": n_faced,
                        "options": options, "more_options": max(0, len(keys) - MOST_OPTIONS)})
            if len(out) >= MOST_PROMPTS:
                break
        return out


#: Dominant options named in the verdicts (the JSON has them all).
MOST_VERDICTS = 3


def dominant_verdicts(prompts: list) -> list:
    """The words for the dominant options (the first :data:`MOST_VERDICTS`; how many more)."""
    out = []
    for pr in prompts:
        for o in pr["options"]:
            if o["dominant"]:
                t, x = o["takers"], o["others"]
                out.append(f"a dominant choice at line {pr['line']} (`{pr['prompt']}`): players who take "
                           f"\u201c{o['option']}\u201d win {bs.pct(t['rate'])} [{bs.pct(t['low'])}, "
                           f"{bs.pct(t['high'])}], those who do not {bs.pct(x['rate'])} [{bs.pct(x['low'])}, "
                           f"{bs.pct(x['high'])}] (taken in {bs.pct(o['share'])} of the answers)")
    if len(out) > MOST_VERDICTS:
        out = out[:MOST_VERDICTS] + [f"{len(out) - MOST_VERDICTS} more dominant choices (in the report)"]
    return out
