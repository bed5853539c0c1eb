"""The statistics of the balance lab (:mod:`catrules.lab.balance`), written with :mod:`math` alone.

Everything here is small and exact enough for reports, so that the core of
catrules needs no scipy (the tests compare these functions with scipy's):

* :func:`wilson`: the Wilson score interval of a proportion (good down to a
  few games, never outside 0..1, unlike the textbook ``p ± 1.96·SE``);
* :func:`mean_interval`: the mean of a sample with a Student *t* interval;
* :func:`binom_test`: the exact two-sided binomial test (scipy's ``binomtest``:
  the outcomes no more likely than the one observed);
* :func:`chi_square_uniform`: Pearson's test that counts are all equal, its
  p-value from the regularized incomplete gamma function (:func:`chi2_sf`);
* :func:`diff_proportions` (Newcombe's hybrid score interval, method 10) and
  :func:`diff_means` (Welch) for ``--compare``;
* :func:`quantiles` (linear interpolation, numpy's default), :func:`histogram`, :func:`spread`;
* :func:`compare`: every figure of ``--compare`` with and without the option.

The verdicts in words and their thresholds are here too (``*_verdict``): see
``docs/balance.rst`` for how to read them.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from typing import Optional, Sequence

#: The two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054
#: Student t, two-sided 95%, for 1 to 30 degrees of freedom (beyond: a Cornish-Fisher expansion).
_T95 = (12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157,
        2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922,
        2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831,
        2.048407, 2.045230, 2.042272)

#: A p-value below this is "likely" (a real effect); below SUSPECT, "possibly".
SIGNIFICANT = 0.01
SUSPECT = 0.05
#: A seat (or the first player) this far from its fair share, relative to it, is unfair, not
#: "slightly unbalanced": 10% of a 25% share is 2.5 points.
UNFAIR_RELATIVE = 0.10
#: The leader at two thirds wins at least this often: the game is decided early.
DECIDED_EARLY = 0.90
#: ... at least this often: a lead usually holds.
LEAD_HOLDS = 0.70
#: Skill index ((rate - fair) / (1 - fair)) thresholds: below MOSTLY_LUCK mostly luck, from
#: SKILL_DOMINATES on skill dominates, between them skill matters.
MOSTLY_LUCK = 0.15
SKILL_DOMINATES = 0.40


# ------------------------------------------------------------------ intervals

def wilson(k: int, n: int, z: float = Z95) -> tuple:
    """The Wilson score interval ``(low, high)`` of ``k`` successes in ``n`` trials; (0, 1) for none."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (0.0 if k == 0 else max(0.0, centre - half)), (1.0 if k == n else min(1.0, centre + half))


def t95(df: float) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (``df`` >= 1)."""
    if df < 1:
        df = 1
    if df <= 30 and float(df).is_integer():
        return _T95[int(df) - 1]
    if df < 30:                     # between two rows: t is nearly linear in 1/df
        lo = int(df)
        w = (1 / lo - 1 / df) / (1 / lo - 1 / (lo + 1))
        return _T95[lo - 1] + w * (_T95[lo] - _T95[lo - 1])
    return _t_from_z(Z95, df)


def _t_from_z(z: float, df: float) -> float:
    """Student's t quantile from the normal one ``z``: the Cornish-Fisher expansion in ``1/df``."""
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def moments(n: int, total: float, squares: float) -> tuple:
    """``(mean, sd)`` from a count, a sum and a sum of squares (sd 0 for fewer than 2)."""
    if n <= 0:
        return 0.0, 0.0
    mean = total / n
    if n < 2:
        return mean, 0.0
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    return mean, math.sqrt(var)


def mean_interval(n: int, mean: float, sd: float) -> tuple:
    """The 95% t interval ``(low, high)`` of a mean (the mean itself for fewer than 2 values)."""
    if n < 2:
        return mean, mean
    half = t95(n - 1) * sd / math.sqrt(n)
    return mean - half, mean + half


# ------------------------------------------------------------------ tests

def binom_test(k: int, n: int, p: float) -> float:
    """The exact two-sided binomial test of ``k`` successes in ``n`` trials against ``p``: the
    probability of an outcome no more likely than ``k`` (scipy's ``binomtest``)."""
    if n <= 0:
        return 1.0
    if p <= 0.0:
        return 1.0 if k == 0 else 0.0
    if p >= 1.0:
        return 1.0 if k == n else 0.0
    logs = _binom_logpmf(n, p)
    here = logs[k]
    if abs(k - n * p) < 1e-12:
        return 1.0
    limit = here + math.log1p(1e-7)            # scipy's relative tolerance
    top = max(logs)
    total = sum(math.exp(v - top) for v in logs if v <= limit)
    return min(1.0, total * math.exp(top))


def _binom_logpmf(n: int, p: float) -> list:
    """``log P(X = i)`` for i in 0..n, X ~ Binomial(n, p), by the ratio of successive terms."""
    lp, lq = math.log(p), math.log1p(-p)
    out = [0.0] * (n + 1)
    v = n * lq
    out[0] = v
    ratio = lp - lq
    for i in range(n):
        v += math.log((n - i) / (i + 1)) + ratio
        out[i + 1] = v
    return out


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x)."""
    if x <= 0:
        return 1.0
    lg = math.lgamma(a)
    if x < a + 1:                   # the series of P, then Q = 1 - P
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - lg))
    # the continued fraction of Q (modified Lentz)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - lg) * h)


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X ~ chi-square with ``df`` degrees of freedom."""
    return gamma_q(df / 2, x / 2)


def chi_square_uniform(counts: Sequence[int]) -> tuple:
    """Pearson's chi-square test that ``counts`` come from equal chances: ``(statistic, df, p)``."""
    total = sum(counts)
    k = len(counts)
    if k < 2 or total == 0:
        return 0.0, max(k - 1, 0), 1.0
    expected = total / k
    stat = sum((c - expected) ** 2 for c in counts) / expected
    return stat, k - 1, chi2_sf(stat, k - 1)


# ------------------------------------------------------------------ differences

def diff_proportions(k1: int, n1: int, k2: int, n2: int) -> tuple:
    """``(p2 - p1, low, high)``: the difference of two proportions, second minus first, with
    Newcombe's hybrid score 95% interval (from the two Wilson intervals)."""
    if n1 <= 0 or n2 <= 0:
        return 0.0, -1.0, 1.0
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    return d, d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


def diff_means(n1: int, m1: float, s1: float, n2: int, m2: float, s2: float, tests: int = 1) -> tuple:
    """``(m2 - m1, low, high)``: the difference of two means, second minus first, with Welch's
    95% interval (Welch-Satterthwaite degrees of freedom).  ``tests``: how many such intervals
    are read together; each is then widened to ``1 - 0.05 / tests`` (Bonferroni), so that all of
    them hold together 95% of the time."""
    d = m2 - m1
    if n1 < 2 or n2 < 2:
        return d, d, d
    v1, v2 = s1 * s1 / n1, s2 * s2 / n2
    se = math.sqrt(v1 + v2)
    if se == 0:
        return d, d, d
    df = (v1 + v2) ** 2 / ((v1 * v1 / (n1 - 1)) + (v2 * v2 / (n2 - 1)))
    half = (t95(df) if tests <= 1 else t_quantile(df, 0.05 / tests)) * se
    return d, d - half, d + half


def t_quantile(df: float, alpha: float) -> float:
    """The two-sided ``1 - alpha`` quantile of Student's t, by the Cornish-Fisher expansion of
    :func:`_t_from_z` around the normal quantile (within 0.2% of scipy's ``t.ppf`` from 15 degrees of
    freedom and ``alpha`` down to 1e-4; the lab reads it with 19 or more)."""
    from statistics import NormalDist
    return _t_from_z(NormalDist().inv_cdf(1 - alpha / 2), max(df, 1.0))


# ------------------------------------------------------------------ distributions

def quantiles(values: Sequence[float], qs: Sequence[float]) -> list:
    """The quantiles ``qs`` (0..1) of ``values`` by linear interpolation (numpy's default)."""
    v = sorted(values)
    if not v:
        return [None for _ in qs]
    out = []
    for q in qs:
        h = (len(v) - 1) * q
        lo = math.floor(h)
        hi = min(lo + 1, len(v) - 1)
        out.append(v[lo] + (h - lo) * (v[hi] - v[lo]))
    return out


def histogram(values: Sequence[float], most_bins: int = 40) -> dict:
    """``{"edges": [...], "counts": [...]}``: one bin per whole number when every value is whole
    and they span at most ``most_bins``, else ``most_bins`` equal bins."""
    if not values:
        return {"edges": [], "counts": []}
    lo, hi = min(values), max(values)
    whole = all(float(x).is_integer() for x in values)
    if whole and hi - lo + 1 <= most_bins:
        lo, hi = int(lo), int(hi)
        counts = [0] * (hi - lo + 1)
        for x in values:
            counts[int(x) - lo] += 1
        return {"edges": [x - 0.5 for x in range(lo, hi + 2)], "counts": counts}
    if hi == lo:
        return {"edges": [lo - 0.5, hi + 0.5], "counts": [len(values)]}
    width = (hi - lo) / most_bins
    counts = [0] * most_bins
    for x in values:
        counts[min(most_bins - 1, int((x - lo) / width))] += 1
    return {"edges": [lo + i * width for i in range(most_bins + 1)], "counts": counts}


# ------------------------------------------------------------------ words

def pct(x: float, digits: int = 1) -> str:
    """A proportion as a percentage: ``0.3104`` -> ``31.0%``."""
    return f"{x * 100:.{digits}f}%"


def plus_minus(rate: float, low: float, high: float) -> str:
    """``31.0% ± 2.0%``: the rate and the larger half of its interval."""
    return f"{pct(rate)} ± {pct(max(rate - low, high - rate))}"


def p_text(p: float) -> str:
    """A p-value in words for a report."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}" if p < 0.1 else f"p = {p:.2f}"


def fairness_verdict(who: str, rate: float, low: float, high: float, fair: float, p: float) -> tuple:
    """``(level, sentence)`` about ``who`` (``seat 1``, ``the first player``) winning ``rate``
    against a ``fair`` share, with the test's p-value ``p``.  Levels: ``unfair``, ``slight``,
    ``possible``, ``fair``."""
    head = f"{who} wins {plus_minus(rate, low, high)} (fair share {pct(fair)}, {p_text(p)})"
    far = abs(rate - fair) >= UNFAIR_RELATIVE * fair
    if p < SIGNIFICANT and far:
        side = "an advantage" if rate > fair else "a handicap"
        return "unfair", f"{head}: likely unfair, {side} of {abs(rate - fair) * 100:.1f} points"
    if p < SIGNIFICANT:
        return "slight", f"{head}: slightly unbalanced (real, but under {UNFAIR_RELATIVE:.0%} of the fair share)"
    if p < SUSPECT:
        return "possible", f"{head}: possibly unbalanced; play more games to tell"
    return "fair", f"{head}: no sign of unfairness"


def drama_verdict(rate: float, low: float, high: float, fair: float, changes: float) -> tuple:
    """``(level, sentence)`` on how often the leader at two thirds wins (``decided``, ``holds``,
    ``open``) and the mean number of lead changes."""
    head = f"the leader at two thirds of the game wins {plus_minus(rate, low, high)}"
    tail = f"; {changes:.1f} lead changes per game"
    if rate >= DECIDED_EARLY:
        return "decided", f"{head}: decided early, little drama at the end{tail}"
    if rate >= LEAD_HOLDS:
        turn = 1 / max(1e-9, 1 - rate)
        return "holds", f"{head}: a lead usually holds, about 1 game in {turn:.0f} turns around{tail}"
    return "open", f"{head} (a meaningless lead would win {pct(fair)}): open to the end{tail}"


def skill_verdict(strong: str, weak: str, rate: float, low: float, high: float, fair: float,
                  games: int) -> tuple:
    """``(level, sentence)`` on how often one ``strong`` bot beats ``weak`` ones: ``luck``,
    ``unclear`` (too few games to tell), ``mostly-luck``, ``skill`` or ``skill-dominates``; the
    skill index is (rate - fair) / (1 - fair)."""
    index = (rate - fair) / (1 - fair) if fair < 1 else 0.0
    head = (f"one {strong} bot against {weak} bots wins {plus_minus(rate, low, high)} "
            f"(fair share {pct(fair)}, skill index {index:.2f})")
    if low <= fair:
        most = (high - fair) / (1 - fair) if fair < 1 else 0.0
        if most < MOSTLY_LUCK:
            return "luck", f"{head}: luck dominates, the stronger bot does no better than its fair share"
        return "unclear", (f"{head}: no clear sign of skill in {games} games, "
                           "too few to tell (give more --skill-games)")
    if index < MOSTLY_LUCK:
        return "mostly-luck", f"{head}: mostly luck"
    if index < SKILL_DOMINATES:
        return "skill", f"{head}: skill matters"
    return "skill-dominates", f"{head}: skill dominates"


def effect_text(label: str, d: float, low: float, high: float, unit: str = "") -> str:
    """``decisions per game: -20.1 ± 0.3``, with ``points`` for proportions (unit ``pts``)."""
    if unit == "pts":
        return f"{label}: {d * 100:+.1f} ± {max(d - low, high - d) * 100:.1f} points"
    return f"{label}: {d:+.3g} ± {max(d - low, high - d):.2g}"


def is_clear(low: float, high: float) -> bool:
    """An interval that leaves out 0: a clear effect."""
    return low > 0 or high < 0


def round6(x: Optional[float]):
    """A float kept to 6 decimals (whole numbers stay as they are) for the JSON."""
    if x is None or isinstance(x, int):
        return x
    r = round(float(x), 6)
    return 0.0 if r == 0 else r


# ------------------------------------------------------------------ samples and comparisons

def spread(values: Sequence[float], hist: bool = True) -> dict:
    """Mean with its interval, sd, quantiles (and a :func:`histogram`) of a sample."""
    r = round6
    n = len(values)
    m, sd = moments(n, sum(values), sum(v * v for v in values))
    lo, hi = mean_interval(n, m, sd)
    q = quantiles(values, (0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0))
    out = {"games": n, "mean": r(m), "low": r(lo), "high": r(hi), "sd": r(sd),
           **{k: r(v) for k, v in zip(("min", "p5", "p25", "median", "p75", "p95", "max"), q)}}
    if hist:
        h = histogram(list(values))
        out["histogram"] = {"edges": [r(e) for e in h["edges"]], "counts": h["counts"]}
    return out


def bin_counts(values: Sequence[float], edges: list) -> list:
    """How many of ``values`` fall in each bin between ``edges`` (the ends take what is beyond)."""
    counts = [0] * max(0, len(edges) - 1)
    for v in values:
        counts[min(len(counts) - 1, max(0, bisect_right(edges, v) - 1))] += 1
    return counts


def compare(without: list, with_: list, option: str) -> dict:
    """Every figure with ``option`` minus the same figure without it, with its 95% interval.

    ``without`` and ``with_`` are lists of measures ``(key, label, kind, numbers)`` (see
    :meth:`catrules.lab.balance.Tally.measures`): a proportion (``p``: successes, trials) or a mean
    (``m``: count, mean, sd).  The games of the two sides are treated as independent samples;
    with the same seeds they are often alike, which makes these intervals wider than they
    need be, never narrower."""
    r = round6
    theirs = {m[0]: m for m in with_}
    effects = []
    for key, label, kind, x in without:
        if key not in theirs:
            continue
        y = theirs[key][3]
        if kind == "p":
            d, lo, hi = diff_proportions(x[0], x[1], y[0], y[1])
            old, new = x[0] / x[1], y[0] / y[1]
        else:
            d, lo, hi = diff_means(x[0], x[1], x[2], y[0], y[1], y[2])
            old, new = x[1], y[1]
        effects.append({"figure": key, "label": label, "unit": "proportion" if kind == "p" else "mean",
                        "without": r(old), "with": r(new), "difference": r(d), "low": r(lo), "high": r(hi),
                        "clear": is_clear(lo, hi)})
    clear = [e for e in effects if e["clear"]]
    # the clearest first: the farthest from 0 for the width of its interval
    clear.sort(key=lambda e: -abs(e["difference"]) / max(1e-12, (e["high"] - e["low"]) / 2))
    words = [effect_text(e["label"], e["difference"], e["low"], e["high"], "pts" if e["unit"] == "proportion"
                         else "") for e in clear[:6]]
    chance = f" (of {len(effects)} figures, about 1 in 20 may look clear by chance)"
    if clear:
        verdict = (f"with {option}, {len(clear)} of {len(effects)} figures change clearly: " + "; ".join(words) +
                   ("; ..." if len(clear) > 6 else "") + chance)
    else:
        verdict = f"with {option}, no figure changes clearly (every interval of a difference includes 0)"
    only = sorted(set(theirs) ^ {m[0] for m in without})
    return {"option": option, "effects": effects, "only_in_one": only, "verdict": verdict}
