"""Rotated seatings for simulations: each bot spec plays each seat equally often.

With ``simulate(..., rotate=True)`` (``catrules simulate --rotate``), game ``i`` seats the
specs turned ``i`` places: player ``p`` is played by ``specs[(p - i) % players]``, so over a
multiple of ``players`` games every spec sits in every seat the same number of times and a
seat's advantage (moving first, say) falls on every spec alike.  :class:`SpecTally` sums the
games per spec (a spec named twice counts both seats: its games are seat-games) with a 95%
Wilson interval for its win rate, next to the fair share ``1 / players``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .stats import wilson


def rotated(specs, i: int) -> tuple:
    """The seating of game ``i``: the specs turned ``i`` places (player ``p`` gets
    ``specs[(p - i) % players]``)."""
    n = len(specs)
    return tuple(specs[(p - i) % n] for p in range(n))


@dataclass
class SpecStats:
    """What one bot spec achieved over a rotated simulation, over all the seats it sat in."""
    spec: str
    seat_games: int = 0             # games played, once per seat it sat in (finished games only)
    wins: int = 0                   # shared wins included
    win_rate: float = 0.0
    low: float = 0.0                # 95% Wilson interval of the win rate
    high: float = 1.0
    fair: float = 0.0               # the fair share: 1 / players
    score_mean: Optional[float] = None

    def to_dict(self) -> dict:
        return {"spec": self.spec, "seat_games": self.seat_games, "wins": self.wins, "win_rate": self.win_rate,
                "interval": [self.low, self.high], "fair_share": self.fair, "score_mean": self.score_mean}


class SpecTally:
    """Sums finished games per spec for a rotated simulation of ``specs``."""

    def __init__(self, specs):
        self.specs = tuple(specs)
        self.order = list(dict.fromkeys(self.specs))       # each spec once, in the order given
        self.games = {s: 0 for s in self.order}
        self.wins = {s: 0 for s in self.order}
        self.sums = {s: 0.0 for s in self.order}

    def add(self, i: int, totals, won) -> None:
        """Game ``i`` ended with ``totals`` (one per player) and the winners ``won``."""
        seating = rotated(self.specs, i)
        for p, spec in enumerate(seating):
            self.games[spec] += 1
            self.sums[spec] += totals[p]
            if p in won:
                self.wins[spec] += 1

    def stats(self) -> list:
        """One :class:`SpecStats` per spec, in the order first given."""
        out = []
        fair = round(1 / len(self.specs), 6)
        for s in self.order:
            n, k = self.games[s], self.wins[s]
            low, high = wilson(k, n)
            out.append(SpecStats(s, n, k, round(k / n, 6) if n else 0.0, round(low, 6), round(high, 6), fair,
                                 round(self.sums[s] / n, 6) if n else None))
        return out


def format_specs(stats: list, games: int, players: int) -> list:
    """The lines of the per-spec table of a rotated simulation."""
    lines = [f"seats rotated: each spec sat in each seat {_equal(games, players)}", "",
             f"{'bot':<20}{'seat-games':>11}{'wins':>7}{'win rate':>10}  {'95% interval':<15}{'fair':>6}"
             f"{'mean score':>11}",
             "-" * 80]
    for s in stats:
        mean = "-" if s.score_mean is None else f"{s.score_mean:.2f}"
        spec = s.spec if len(s.spec) <= 19 else s.spec[:16] + "..."
        lines.append(f"{spec:<20}{s.seat_games:>11}{s.wins:>7}{s.win_rate * 100:>9.1f}%  "
                     f"{s.low * 100:5.1f}-{s.high * 100:5.1f}%   {s.fair * 100:>5.1f}%{mean:>11}")
    return lines


def _equal(games: int, players: int) -> str:
    if games % players == 0:
        return f"{games // players} time{'s' if games // players != 1 else ''}"
    return (f"{games // players} or {games // players + 1} times ({games} games is not a multiple "
            f"of {players}: not quite equally)")
