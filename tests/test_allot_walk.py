"""The `allot` search's walk (catrules/allot/search.py, catrules/allot/fit.py) on its own.

The walk cuts whole branches under `maximal` (a target left out that fits whatever the later
targets ask dominates every way of the branch) and reads a demand's fit off Hall's sums carried
in the packed demand.  Neither may change which ways are scored nor their order: here the walk's
complete ways are compared, in order, with every way listed plainly (each target's lists in
order, then nothing; the first target outermost) and filtered by a fit test worked out apart,
on random shapes of resources and wants.
"""

from __future__ import annotations

import itertools
import random

import pytest

from catrules.allot import fit as F
from catrules.allot import search as S


def _shape(rng):
    K = rng.randint(1, 4)
    masks = sorted({rng.randrange(0, 1 << K) for _ in range(rng.randint(1, 4))},
                   key=lambda m: (bin(m).count("1"), m))
    caps = [rng.randint(1, 4) for _ in masks]
    n_t = rng.randint(1, 6)
    vec_alts = []
    for _ in range(n_t):
        row = []
        for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
            v = tuple(rng.randint(0, 2) for _ in range(K))
            row.append(v if any(v) else tuple(1 if k == 0 else 0 for k in range(K)))
        vec_alts.append(row)
    return K, masks, caps, rng.randint(0, 2), vec_alts


def _fits_apart(dem, masks, caps, spare):
    """By the max-flow alone."""
    return F._max_flow_plan(list(dem), caps, masks, spare) is not None


def _ways_apart(vec_alts, masks, caps, spare, maximal, K):
    """Every way in the search's order that fits (and, with `maximal`, leaves out no target
    that could still be met): ``(choice per target, demand per need)``."""
    def plus(d, v):
        return tuple(x + y for x, y in zip(d, v))
    out = []
    for choice in itertools.product(*[list(range(len(r))) + [None] for r in vec_alts]):
        d = (0,) * K
        for i, a in enumerate(choice):
            if a is not None:
                d = plus(d, vec_alts[i][a])
        if not _fits_apart(d, masks, caps, spare):
            continue
        if maximal and any(a is None and any(_fits_apart(plus(d, v), masks, caps, spare) for v in vec_alts[i])
                           for i, a in enumerate(choice)):
            continue
        out.append((choice, d))
    return out


def _ways_walked(K, masks, caps, spare, vec_alts, maximal, total):
    packing = F._packing(vec_alts, K)
    hall = F._hall_conditions(masks, caps, spare, total, packing)
    sums = F._hall_sums(hall, packing)
    packed = [[F._pack_sums(v, sums.mult) for v in row] for row in vec_alts]
    fit = F._feasibility(hall, masks, caps, spare, packing, packed, sums)
    chosen = [None] * len(vec_alts)
    out = []

    def leaf(dem):
        d = tuple((dem >> sh) & packing.field for sh in packing.shifts)
        out.append((tuple(chosen), d))
    most_after = S._most_after(packing, sums.mult, len(vec_alts), maximal)
    S._depth_first(packed, fit, most_after, maximal, chosen, leaf)(0, 0, ())
    return out


@pytest.mark.parametrize("maximal", [False, True])
def test_the_walk_meets_every_way_kept_in_order(maximal):
    rng = random.Random(5 + maximal)
    cut = 0
    for _ in range(400):
        K, masks, caps, spare, vec_alts = _shape(rng)
        if not any(vec_alts):
            continue
        total = sum(caps)
        want = _ways_apart(vec_alts, masks, caps, spare, maximal, K)
        got = _ways_walked(K, masks, caps, spare, vec_alts, maximal, total)
        assert got == want, (masks, caps, spare, vec_alts)
        cut += len(want) < len(list(itertools.product(*[range(len(r) + 1) for r in vec_alts])))
    assert cut > 50          # ways were left out: the walk's cuts had work to do


def test_hall_sums_give_the_condition_by_condition_answer():
    rng = random.Random(9)
    for _ in range(300):
        K, masks, caps, spare, vec_alts = _shape(rng)
        packing = F._packing(vec_alts, K)
        hall = F._hall_conditions(masks, caps, spare, sum(caps), packing)
        sums = F._hall_sums(hall, packing)
        plain = F._feasibility(hall, masks, caps, spare, packing, [[F._pack(v, packing.shifts) for v in r]
                                                                   for r in vec_alts])
        summed = F._feasibility(hall, masks, caps, spare, packing, [[F._pack_sums(v, sums.mult) for v in r]
                                                                    for r in vec_alts], sums)
        for dem in itertools.product(*[range(m + 1) for m in packing.most]):
            assert summed.fits(F._pack_sums(dem, sums.mult)) == plain.fits(F._pack(dem, packing.shifts)) \
                == _fits_apart(dem, masks, caps, spare), (dem, masks, caps, spare)
