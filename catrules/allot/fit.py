"""Whether demands fit the resources of an ``allot``: demands packed into ints, Hall's
condition, a small max-flow (and a quick greedy try at it), memoised within a search.

A demand is how many resources each need asks; resources that serve the same needs are one
type.  :mod:`catrules.allot.search` walks the ways and asks here whether each fits.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, NamedTuple, Optional


def _max_flow_plan(dem, caps, masks, spare):
    """Resources per type that meet the demands ``dem`` (per need), or None.

    A small max-flow: need k -> resource type t when the type serves k, and
    need k -> spare -> any type, at most ``spare`` units through the spare.
    Types that serve fewer needs are tried first, the spare last.
    """
    K, T = len(dem), len(caps)
    # nodes: 0 source, 1..K needs, K+1..K+T types, then spare in, spare out, sink
    src, sp_in, sp_out, snk = 0, K + T + 1, K + T + 2, K + T + 3
    n = K + T + 4
    cap = [[0] * n for _ in range(n)]
    adj = [[] for _ in range(n)]

    def edge(a, b, c):
        if b not in adj[a]:
            adj[a].append(b)
            adj[b].append(a)
        cap[a][b] += c
    big = sum(dem) + 1
    for k in range(K):
        if dem[k]:
            edge(src, 1 + k, dem[k])
            for t in range(T):
                if masks[t] >> k & 1:
                    edge(1 + k, 1 + K + t, big)
            if spare:
                edge(1 + k, sp_in, big)
    if spare:
        edge(sp_in, sp_out, spare)
        for t in range(T):
            edge(sp_out, 1 + K + t, big)
    for t in range(T):
        edge(1 + K + t, snk, caps[t])
    want = sum(dem)
    for _ in range(want):
        prev = [-1] * n
        prev[src] = src
        queue = [src]
        for a in queue:
            for b in adj[a]:
                if prev[b] < 0 and cap[a][b] > 0:
                    prev[b] = a
                    queue.append(b)
        if prev[snk] < 0:
            return None
        b = snk
        while b != src:
            a = prev[b]
            cap[a][b] -= 1
            cap[b][a] += 1
            b = a
    return [cap[snk][1 + K + t] for t in range(T)]


def _greedy_plan(dem, caps, masks, spare, by_servers=None):
    """A quick try at :func:`_max_flow_plan`: needs with the fewest servers first, each
    from the type that serves the fewest needs (``masks`` are sorted that way); None if stuck.
    ``by_servers``: :func:`_by_servers` of ``masks``, when worked out once for many demands."""
    left = list(caps)
    if by_servers is None:
        by_servers = _by_servers(masks, len(dem))
    order = [k for k in by_servers if dem[k]]
    used = [0] * len(caps)
    spares = spare
    for k in order:
        n = dem[k]
        # unit by unit, each from the first type that serves it and has some left: so as many
        # as it has from each such type in turn, then the spare for the rest
        for t, m in enumerate(masks):
            if m >> k & 1 and left[t]:
                got = left[t] if left[t] < n else n
                left[t] -= got
                used[t] += got
                n -= got
                if not n:
                    break
        for _ in range(n):
            if not spares:
                return None
            t = max(range(len(left)), key=lambda i: left[i]) if left else None
            if t is None or not left[t]:
                return None
            spares -= 1
            left[t] -= 1
            used[t] += 1
    return used


def _by_servers(masks, K) -> list:
    """The needs ``0..K-1``, those served by the fewest types first (ties in their order)."""
    return sorted(range(K), key=lambda k: sum(1 for m in masks if m >> k & 1))


class _Packing(NamedTuple):
    """How a demand (units per need) is packed into one int: ``field`` bits at each shift."""
    row_max: list               # per target, the most of each need one of its lists asks
    most: list                  # per need, what all targets together could ask
    field: int
    shifts: list


class _Fit(NamedTuple):
    """Whether demands fit the resources, memoised (see :func:`_feasibility`)."""
    fits: Callable              # fits(demand)
    fits_with: Callable         # fits_with(target, demand): one of its lists still fits
    plan_for: Callable          # plan_for(demand): resources used per type, or None
    fit_memo: dict
    with_memo: list
    offset: int = 0             # with Hall's condition summed in the demands (:func:`_hall_sums`):
    guards: Optional[int] = None    # a demand fits when ``not (demand + offset) & guards``


class _Sums(NamedTuple):
    """Hall's condition carried in the packed demands (:func:`_hall_sums`)."""
    mult: list                  # per need, what one unit of it adds to a packed demand
    offset: int
    guards: Optional[int]       # None: not carried (the flow decides)


def _packing(vec_alts, K) -> _Packing:
    """A demand (cubes wanted per need) is packed into one int, `width` bits a need, so that
    adding a wanted list is one addition and memo keys hash fast; no need can overflow
    into the next since no field exceeds what all targets together could ask for."""
    zero = (0,) * K
    row_max = [tuple(map(max, *row)) if len(row) > 1 else row[0] if row else zero for row in vec_alts]
    most = [sum(col) for col in zip(*row_max)] or zero   # per need, what all targets could ask
    width = max(max(most, default=0), 1).bit_length()
    return _Packing(row_max, most, (1 << width) - 1, [width * k for k in range(K)])


def _pack(v, shifts) -> int:
    d = 0
    for x, sh in zip(v, shifts):
        d |= x << sh
    return d


def _pack_sums(v, mult) -> int:
    """A wanted list (units per need) packed with what it adds to each of Hall's sums."""
    d = 0
    for x, m in zip(v, mult):
        if x:
            d += x * m
    return d


def _hall_sums(hall, packing: _Packing) -> _Sums:
    """Hall's sums carried in the packed demands: above the needs' fields, one field per
    condition of ``hall`` holds what its needs ask (a sum over needs, so adding wanted lists
    adds them too), wide enough for all the targets together to ask, with a guard bit on top:
    ``demand + offset`` sets a guard exactly where a sum passes its room, so a demand's
    feasibility is one addition and one ``&``, the same answer as the condition by condition
    test.  Not carried (``guards`` None) when ``hall`` is None."""
    shifts = packing.shifts
    mult = [1 << sh for sh in shifts]
    if hall is None:
        return _Sums(mult, 0, None)
    base = packing.field.bit_length() * len(shifts)
    B = 1 << (sum(packing.most) + 1).bit_length()      # above any sum and any room (< the sum)
    width = B.bit_length() + 1
    where = {sh: k for k, sh in enumerate(shifts)}
    offset = guards = 0
    for c, (shs, room) in enumerate(hall):
        at = base + c * width
        for sh in shs:
            mult[where[sh]] += 1 << at
        offset += (B - 1 - room) << at
        guards += B << at
    return _Sums(mult, offset, guards)


def _hall_conditions(masks, caps, spare, total, packing: _Packing):
    """Hall's condition for the flow: for every set S of needs, what S asks for must fit
    in the resources serving S plus up to `spare` of the others. [(shifts of S's needs, room)]
    for the sets some demand could break; None above 10 needs (the flow decides then)."""
    K = len(packing.shifts)
    if K > 10:
        return None
    hall = []
    most, shifts = packing.most, packing.shifts
    for S, ks in _subsets(K):
        c = 0
        for m, n in zip(masks, caps):
            if m & S:
                c += n
        room = c + min(spare, total - c)
        asked = 0
        for k in ks:
            asked += most[k]
        if asked > room:         # else no demand of the search can break it
            hall.append(([shifts[k] for k in ks], room))
    return hall


def _feasibility(hall, masks, caps, spare, packing: _Packing, packed, sums: Optional[_Sums] = None) -> _Fit:
    """Whether a demand fits (by Hall's condition, else a plan found), and whether some list
    of a target still fits on top of a demand: the search meets the same demands again and
    again, so the answers are memoised.  With ``sums`` carrying Hall's condition in the
    demands (``packed`` made with its ``mult``), a demand's fit is read off it, not memoised."""
    field, shifts = packing.field, packing.shifts
    memo: dict = {}
    by_servers = _by_servers(masks, len(shifts))
    fit_memo: dict = {}
    with_memo = [{} for _ in packed]
    offset, guards = (sums.offset, sums.guards) if sums is not None else (0, None)

    def fits(dem):
        if guards is not None:
            return not (dem + offset) & guards
        got = fit_memo.get(dem)
        if got is None:
            if hall is None:
                got = plan_for(dem) is not None
            else:
                got = True
                for shs, room in hall:
                    need = 0
                    for sh in shs:
                        need += dem >> sh & field
                    if need > room:
                        got = False
                        break
            fit_memo[dem] = got
        return got

    def plan_for(dem):
        if dem not in memo:
            d = tuple([(dem >> sh) & field for sh in shifts])
            memo[dem] = (_greedy_plan(d, caps, masks, spare, by_servers) or _max_flow_plan(d, caps, masks, spare)
                         if dem else [0] * len(caps))
        return memo[dem]

    def fits_with(i, base):
        memo_i = with_memo[i]
        got = memo_i.get(base)
        if got is None:
            got = False
            if guards is not None:
                at = base + offset
                for v in packed[i]:
                    if not (at + v) & guards:
                        got = True
                        break
            else:
                for v in packed[i]:
                    d = base + v
                    ok = fit_memo.get(d)
                    if ok or ok is None and fits(d):
                        got = True
                        break
            memo_i[base] = got
        return got
    return _Fit(fits, fits_with, plan_for, fit_memo, with_memo, offset, guards)


@lru_cache(maxsize=None)
def _subsets(K):
    """Every non-empty set of K needs: (bits, the needs in it)."""
    return tuple((S, tuple(k for k in range(K) if S >> k & 1)) for S in range(1, 1 << K))
