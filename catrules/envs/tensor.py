"""The observation vector read straight from the engine state, without building a view.

:meth:`Encoder.encode <catrules.envs.encoding.Encoder.encode>` reads a player's view
(:meth:`State.view`): a dict of every zone, counter, decision and score, built for people and
front ends (card dicts, prompts, labels) and then mostly thrown away.  :class:`StateEncoder`
writes the same vector, value for value, from the state itself, applying the same visibility
rules as a view does (``Layout.visible``, ``count_seen``, ``top_shown``, secret counters): the
static parts (the "not seen" column, the card attribute planes) come from a vector made once,
the cards a player sees are written in a few array operations; :meth:`StateEncoder.changes`
gives the entries that changed since a player's last vector, from the zones that changed
(:mod:`catrules.envs.lists` keeps OpenSpiel's lists up to date with them).

``tests/test_envs_tensor.py`` compares both encoders on many states of many games.  Nothing
here knows any game.
"""

from __future__ import annotations

import numpy as np

from ..runtime.decisions import UNANSWERED
from ..runtime.ending import running
from .encoding import OBS_LIMIT

_DECISION_KINDS = {"choose": 0, "secret": 1, "race": 2}
_HIDDEN = {"hidden": True}
_REF_PREFIXES = ("row:", "col:", "line", "plac")

# how a slot shows to one player: its cards, only how many, its top card (and how many), nothing
_CARDS, _COUNT, _TOP, _NOTHING = 0, 1, 2, 3



def _count(shape: str, content) -> int:
    """How many cards a zone's content holds, by its shape (lines: a list per line; grid: None
    where a place is empty)."""
    if shape == "lines":
        return sum(map(len, content))
    if shape == "grid":
        return len(content) - content.count(None)
    return len(content)

class StateEncoder:
    """``encode(st, p)``: the vector :class:`~catrules.envs.encoding.Encoder` makes of
    ``st.view(p)``, from ``st`` (``p`` None: a spectator)."""

    def __init__(self, enc):
        self.enc = enc
        prog = enc.prog
        self.prog, self.n, self.N, self.S = prog, enc.n, enc.N, enc.slots
        self.lay = prog.layout(enc.n)
        self.shapes = [sp.shape for sp in self.lay.slot_spec]
        o = enc.offset
        N, S1 = self.N, self.S + 1
        base = np.zeros(enc.size, np.float32)
        base[o["cards"] + self.S:o["cards"] + N * S1:S1] = 1        # not seen, until seen
        self.F = len(enc.features)
        if self.F:
            base[o["card attributes"]:o["card attributes"] + N * self.F] = enc.attrs.ravel()
        self.base = base
        self._plans: dict = {}
        self._fasts: dict = {}
        self._group: dict = {}
        self.base_lists: dict = {}          # the static vector as a list, per length (catrules.envs.lists)
        # k / N as the float32 vector holds it, k a count, a position or a line (a grid's place:
        # up to its number of places): worked out in float64 (places, counts), or in float32 for
        # the attribute sums (as numpy divides a float32 sum)
        N1 = max(self.N, 1)
        top = max([self.N, *(sp.rows * sp.cols for sp in self.lay.slot_spec if sp.shape == "grid")]) + 2
        self.parts = [float(np.float32(k / N1)) for k in range(top)]
        self.shares = [float(np.float32(k) / np.float32(N1)) for k in range(self.N + 2)]
        self.attr_lists = [np.flatnonzero(row).tolist() for row in enc.attrs]
        first = o[f"counter {enc.counters[0][0]}"] if enc.counters else o["waiting"]
        self.tail = (first, o["finished"] + 1)      # the segments written anew each time
        self.tail_at = (o["waiting"], o["decision"], o["scores"], o["finished"])
        self.counters = [(name, per, kind, cells, width, o[f"counter {name}"])
                         for (name, per, _init), (_n, kind, cells, width, _p) in zip(prog.counters, enc.counters)]

    def plan(self, p) -> list:
        """Per slot, how it shows to ``p``: ``(slot, how, shape)``."""
        out = self._plans.get(p)
        if out is None:
            lay, out = self.lay, []
            for s, shape in enumerate(self.shapes):
                if lay.visible(s, p):
                    how = _CARDS
                elif not lay.count_seen(s, p):
                    how = _NOTHING
                elif lay.top_shown(s):
                    how = _TOP
                else:
                    how = _COUNT
                out.append((s, how, shape))
            self._plans[p] = out
        return out

    def encode(self, st, p, seen: "Seen | None" = None, rows=None) -> np.ndarray:
        """The observation vector of ``p`` in ``st`` (a new array).  ``seen``: what this encoder
        gave ``p`` last in the same game (it is brought up to date; only the zones that changed
        since are encoded again).  ``rows``: the scores as they stand (``Seen.scores``), if known."""
        if seen is None or seen.x is None:
            x = self.fresh(st, p)
            if seen is not None:
                self.remember(st, p, seen)
        else:
            x = seen.x.copy()
            self.changes(st, p, seen, memoryview(x))
        t0, t1 = self.tail
        x[t0:t1] = 0
        self._tail(memoryview(x), st, p, rows)         # (an entry through a memoryview: one C call)
        if seen is not None:
            seen.x = x
            x = x.copy()
        return x

    def fresh(self, st, p) -> np.ndarray:
        """The vector of ``p`` in ``st`` but for the counters, decisions, scores and end (zeros there)."""
        x = self.base.copy()
        if p is not None:
            x[self.enc.offset["seat"] + p] = 1
        self._zones(x, st, p, self.enc.offset)
        return x

    def remember(self, st, p, seen) -> None:
        """Note in ``seen`` the zones of ``st`` as ``p`` sees them, for :meth:`changes`."""
        seen.have = self._have(st, p)
        seen.snap = [_copy(z) for z in st.z]
        for s in self._groups(p)[1]:
            seen.snap[s] = len(st.z[s])             # only how many is shown

    def _tail(self, x, st, p, rows) -> None:
        """The counters, who is waiting, the player's decision, the scores and the end."""
        waiting, decision, scores, finished = self.tail_at
        if self.counters:
            self._counters(x, st, p)
        pend = st.pending_
        if pend is not None:
            auto = pend.auto or ()
            chosen = pend.chosen
            for q in pend.players:
                if chosen[q] is UNANSWERED or q in auto:
                    x[waiting + q] = 1
            if p is not None and p in pend.players:
                if chosen[p] is UNANSWERED:
                    x[decision + _DECISION_KINDS.get(pend.kind, 0)] = 1
                if pend.kind != "choose" and _has_choice(pend, p):
                    x[decision + 3] = 1
        if rows is None:
            rows = scores_now(st)
        if rows:
            q = scores
            for r in rows[:self.n]:
                v = r.get("total", 0)
                # (_number, inline: a whole number within the limit, the most common total)
                x[q] = float(v) if type(v) is int and -OBS_LIMIT <= v <= OBS_LIMIT else _number(v)
                q += 1
            x[scores + self.n] = 1
        x[finished] = 1 if st.over else 0

    def _have(self, st, p) -> list:
        """Per slot, how many of the cards ``p`` sees there have each attribute value."""
        out = []
        for s, how, shape in self.plan(p):
            h = [0] * self.F
            for c, _i, _l in self._placed(s, how, shape, st.z[s])[1]:
                for f in self.attr_lists[c]:
                    h[f] += 1
            out.append(h)
        return out

    def _placed(self, s, how, shape, content) -> tuple:
        """``(count, [(card, position, line)...])`` of slot ``s`` as its plan shows it."""
        count = _count(shape, content)
        if how == _CARDS:
            if shape == "lines":
                return count, [(c, i, li) for li, line in enumerate(content, 1) for i, c in enumerate(line, 1)]
            if shape == "grid":
                return count, [(c, i, 0) for i, c in enumerate(content, 1) if c is not None]
            return count, [(c, i, 0) for i, c in enumerate(content, 1)]
        if how == _TOP and content:
            return count, [(content[-1], count, 0)]
        return count, []

    def changes(self, st, p, seen, w=None):
        """``{entry: value}``: what changed in the zones since ``seen`` (the zones last encoded,
        brought up to date here), each value as the vector holds it (a float32, as a float): in a
        slot whose cards show in order, the cards after the part that stayed the same; in a slot
        that shows only how many, that number; else the whole slot.  ``w``: where to write them
        instead (the vector itself, as a list or a memoryview: written in an order whose last
        value of each entry is the dict's); returned."""
        o, S = self.enc.offset, self.S
        counts, places = o["counts"], o["places"]
        z, snap = st.z, seen.snap
        shown, counted, rest = self._groups(p)
        part = self.parts
        if w is None:
            w = {}
        gone, came, moved = [], [], []
        for s in counted:                           # only how many: the number alone
            n = len(z[s])
            if n != snap[s]:
                snap[s] = n
                w[counts + s] = part[n]
        for s in shown:                             # cards in order: after the common start
            old, new = snap[s], z[s]
            if old == new:
                continue
            k, n = len(old), len(new)
            if n < k or new[:k] != old:
                k = _common(old, new)
            # (a card is in one place: a slot that only grew or only shrank needs no sets)
            if k == len(old):
                came.append((s, new[k:]))
            elif k == n:
                gone.append((s, old[k:]))
            else:
                olds, news = set(old[k:]), set(new[k:])
                gone.append((s, [c for c in old[k:] if c not in news]))
                came.append((s, [c for c in new[k:] if c not in olds]))
            w[counts + s] = part[n]
            snap[s] = new[:]
            if k < n:
                moved.append((new, k))
        for s, how, shape in rest:                  # the lines or places that changed, or the whole slot
            old, new = snap[s], z[s]
            if old == new:
                continue
            if how == _CARDS:
                was, now = _differ(shape, old, new)
                gone.append((s, was))
                came.append((s, now))
                count = _count(shape, new)
            else:
                gone.append((s, [c for c, _i, _l in self._placed(s, how, shape, old)[1]]))
                count, placed = self._placed(s, how, shape, new)
                came.append((s, placed))
            w[counts + s] = part[count] if how != _NOTHING else -1.0
            snap[s] = _copy(new)
        if gone:
            self._gone(w, gone, seen.have)
        # the places of the cards after each common start: after the gone cards' zeros, which
        # they overwrite where a card moved within its slot or to another one
        for new, k in moved:
            for c in new[k:]:
                k += 1
                w[places + 2 * c] = part[k]
        if came:
            self._came(w, came, seen.have)
        return w

    def _gone(self, w: dict, gone: list, have: list) -> None:
        """The entries of the cards that left each slot of ``gone`` (``(slot, cards)``): not seen
        there, no place (written again afterwards where they moved within a slot or to another)."""
        o, S1, S, F = self.enc.offset, self.S + 1, self.S, self.F
        cards, places, by = o["cards"], o["places"], o["attributes by slot"]
        attrs, share = self.attr_lists, self.shares
        for s, placed in gone:
            h, at = have[s], by + s * F
            for c in placed:
                row = cards + c * S1
                w[row + s] = 0.0
                w[row + S] = 1.0
                i = places + 2 * c
                w[i] = 0.0
                w[i + 1] = 0.0
                for f in attrs[c]:
                    n = h[f] = h[f] - 1
                    w[at + f] = share[n]

    def _came(self, w: dict, came: list, have: list) -> None:
        """The entries of the cards that came to each slot of ``came`` (``(slot, cards)``, a card
        as ``(card, position, line)`` where the slot shows more than the order: its place is
        written by :meth:`changes` otherwise)."""
        o, S1, S, F = self.enc.offset, self.S + 1, self.S, self.F
        cards, places, by = o["cards"], o["places"], o["attributes by slot"]
        attrs, share, P = self.attr_lists, self.shares, self.parts
        for s, placed in came:
            h, at = have[s], by + s * F
            for c in placed:
                if type(c) is tuple:
                    c, i, li = c
                    if i:
                        w[places + 2 * c] = P[i]
                    w[places + 2 * c + 1] = P[li]
                else:
                    w[places + 2 * c + 1] = 0.0
                row = cards + c * S1
                w[row + S] = 0.0
                w[row + s] = 1.0
                for f in attrs[c]:
                    n = h[f] = h[f] + 1
                    w[at + f] = share[n]

    def _groups(self, p) -> tuple:
        """:meth:`plan` of ``p`` for :meth:`changes`: the slots whose cards show in order, the
        slots that show only how many cards (piles and rows), and the others that show anything."""
        out = self._group.get(p)
        if out is None:
            shown, counted, rest = [], [], []
            for s, how, shape in self.plan(p):
                plain = shape not in ("lines", "grid")
                if how == _CARDS and plain:
                    shown.append(s)
                elif how == _COUNT and plain:
                    counted.append(s)
                elif how != _NOTHING:
                    rest.append((s, how, shape))
            out = self._group[p] = (shown, counted, rest)
        return out

    def _fast(self, p) -> tuple:
        """:meth:`plan` of ``p`` grouped for :meth:`_zones`: the slots whose cards show in order
        (as a list and an array), the other slots that show cards, the slots that show nothing,
        and the slots whose count is not their length (lines, grids)."""
        out = self._fasts.get(p)
        if out is None:
            plan = self.plan(p)
            simple = [s for s, how, shape in plan if how == _CARDS and shape not in ("lines", "grid")]
            other = [(s, how, shape) for s, how, shape in plan if how in (_CARDS, _TOP) and s not in simple]
            nothing = [s for s, how, _shape in plan if how == _NOTHING]
            odd = [(s, shape) for s, _how, shape in plan if shape in ("lines", "grid")]
            out = self._fasts[p] = (simple, np.array(simple, np.intp), other, nothing, odd)
        return out

    def _zones(self, x, st, p, o) -> None:
        """The cards ``p`` sees, where, in what place, and the counts, written on ``x`` (which
        holds :attr:`base` there): the slots whose cards show in order in a few array operations."""
        N, S = self.N, self.S
        z = st.z
        simple, simple_a, other, nothing, odd = self._fast(p)
        counts = list(map(len, z))
        for s, shape in odd:
            counts[s] = _count(shape, z[s])
        cnt = np.array(counts, np.float64) / max(N, 1)
        if nothing:
            cnt[nothing] = -1.0
        x[o["counts"]:o["counts"] + S] = cnt
        ids = []
        for s in simple:
            ids += z[s]
        lens = np.array([counts[s] for s in simple], np.intp)
        ends = np.cumsum(lens)
        starts = ends - lens
        slots = np.repeat(simple_a, lens)
        pos = np.arange(1, len(ids) + 1) - np.repeat(starts, lens)
        lines = None
        full = lens > 0
        groups, group_at = simple_a[full], starts[full]
        if other:
            more, mpos, mlines, mslots, mgroups, mstarts = self._other(other, z, len(ids))
            if more:
                ids += more
                slots = np.concatenate([slots, np.array(mslots, np.intp)])
                pos = np.concatenate([pos, np.array(mpos, np.intp)])
                lines = np.concatenate([np.zeros(len(ids) - len(more)), np.array(mlines, np.float64)])
                groups = np.concatenate([groups, np.array(mgroups, np.intp)])
                group_at = np.concatenate([group_at, np.array(mstarts, np.intp)])
        if not ids:
            return
        cid = np.array(ids, np.intp)
        rows = o["cards"] + cid * (S + 1)
        x[rows + S] = 0
        x[rows + slots] = 1
        at = o["places"] + 2 * cid
        x[at] = pos / N
        if lines is not None:
            x[at + 1] = lines / N
        if self.F:
            by_slot = x[o["attributes by slot"]:o["attributes by slot"] + S * self.F].reshape(S, self.F)
            by_slot[groups] = np.add.reduceat(self.enc.attrs[cid], group_at, axis=0) / N

    @staticmethod
    def _other(other, z, at) -> tuple:
        """The cards of the slots of ``other`` (lines, grids, tops): ``(ids, positions, lines,
        slots, slots with cards, where each starts)``, the first at index ``at``."""
        ids, pos, lines, slots, groups, starts = [], [], [], [], [], []
        for s, how, shape in other:
            content = z[s]
            k = len(ids)
            if how == _TOP:
                if content:
                    ids.append(content[-1])
                    pos.append(len(content))
                    lines.append(0)
            elif shape == "lines":
                for li, line in enumerate(content, 1):
                    ids += line
                    pos += range(1, len(line) + 1)
                    lines += [li] * len(line)
            else:                                   # a grid: None where a place is empty
                for i, c in enumerate(content, 1):
                    if c is not None:
                        ids.append(c)
                        pos.append(i)
                lines += [0] * (len(ids) - k)
            if len(ids) > k:
                slots += [s] * (len(ids) - k)
                groups.append(s)
                starts.append(at + k)
        return ids, pos, lines, slots, groups, starts

    def _counters(self, x, st, p) -> None:
        """The counters as a view shows them, placed as :meth:`Encoder.encode` places them."""
        secret = self.prog.counter_secret
        for name, per, kind, cells, width, at in self.counters:
            v = st.c[name]
            if name in secret and not st.over:          # seen only by its owner (shared: nobody)
                if not (isinstance(v, list) and per == "player"):
                    if per is None:                     # (a hidden value of each player or card: never)
                        self.enc._cell(x, at, kind, dict(_HIDDEN))
                    continue
                for q, cv in enumerate(v[:cells]):
                    if q == p:
                        self._cell(x, at + q * width, st, kind, cv, p)
                    else:
                        self.enc._cell(x, at + q * width, kind, dict(_HIDDEN))
            elif isinstance(v, list) and per == "player":
                for q, cv in enumerate(v[:cells]):
                    self._cell(x, at + q * width, st, kind, cv, p)
            elif per == "card":
                vis, loc = self.lay.visible, st.loc
                for i, cv in enumerate(v):
                    if cv is not None and vis(loc[i], p):
                        self._cell(x, at + i * width, st, kind, cv, p)
            elif per is None:
                self._cell(x, at, st, kind, v, p)

    def _cell(self, x, at: int, st, kind, v, p) -> None:
        """``Encoder._cell`` of ``v`` as a view shows it to ``p`` (:meth:`_shown`); a player, a
        card, a number or none written straight away."""
        if type(v) is int:
            if kind == "player":
                if 0 <= v < self.n:
                    x[at + v] = 1
                return
            if kind == "card":
                x[at + (v if 0 <= v < self.N and self.lay.visible(st.loc[v], p) else self.N)] = 1
                return
            if kind in ("number", "bool"):
                x[at] = float(v) if -OBS_LIMIT <= v <= OBS_LIMIT else _number(v)
                return
        elif v is None:
            if kind == "player":
                x[at + self.n] = 1
                return
            if kind == "card":
                x[at + self.N + 1] = 1
                return
        self.enc._cell(x, at, kind, self._shown(st, kind, v, p))

    def _shown(self, st, kind, v, p):
        """``v`` as a view shows it, as far as the encoder reads it."""
        if isinstance(v, bool) or not isinstance(v, (int, str)):
            return v
        if kind == "card" and isinstance(v, int):
            if 0 <= v < self.N and self.lay.visible(st.loc[v], p):
                return {"id": v}
            return dict(_HIDDEN)
        if kind == "player" and isinstance(v, int):
            return {"player": v}
        if kind in ("line", "place") and isinstance(v, str) and v[:4] in _REF_PREFIXES:
            return {"ref": v}
        return v


class Seen:
    """What a :class:`StateEncoder` gave one player last in one game: the vector and the zones."""

    __slots__ = ("x", "snap", "have")

    def __init__(self):
        self.x, self.snap, self.have = None, None, None


def scores_now(st):
    """The score rows a view shows: the final scores once over, else the running score (or None)."""
    if st.over:
        return st.scores() or None
    return running(st)[0]


def _common(a: list, b: list) -> int:
    """How many cards two lists have the same at their start."""
    k, n, m = 0, len(a), len(b)
    if m < n:                               # (not min(): a builtin's call costs more here)
        n = m
    while k < n and a[k] == b[k]:
        k += 1
    return k


def _differ(shape: str, old: list, new: list) -> tuple:
    """``(cards, placed)``: the cards of a slot whose cards all show (lines or a grid), in the lines
    or places where ``old`` and ``new`` differ, and ``new``'s cards there as ``(card, position,
    line)``.  (A card is in one place: one in a line or place that stayed the same is there in
    both, so its entries stay as they are; so are those of the cards at the start of a line that
    changed, up to the first difference: the same card at the same position of the same line.)"""
    k = len(old) if len(old) < len(new) else len(new)
    if shape == "lines":
        was, now = [], []
        for li in range(k):
            a, b = old[li], new[li]
            if a != b:
                j = _common(a, b)
                was += a[j:]
                now += [(c, i, li + 1) for i, c in enumerate(b[j:], j + 1)]
        was += [c for line in old[k:] for c in line]
        now += [(c, i, li) for li, line in enumerate(new[k:], k + 1) for i, c in enumerate(line, 1)]
        return was, now
    if shape == "grid":
        changed = [i for i in range(k) if old[i] != new[i]]
        was = [old[i] for i in changed if old[i] is not None] + [c for c in old[k:] if c is not None]
        now = [(new[i], i + 1, 0) for i in changed if new[i] is not None]
        now += [(c, i, 0) for i, c in enumerate(new[k:], k + 1) if c is not None]
        return was, now
    return list(old), [(c, i, 0) for i, c in enumerate(new, 1)]


def _copy(content: list) -> list:
    return [list(x) if isinstance(x, list) else x for x in content]


def _has_choice(pend, p) -> bool:
    """Does a view show ``p``'s answer so far (``my_choice``) to the simultaneous decision ``pend``?"""
    if pend.awaits(p) and pend.picks and pend.picks[p]:
        return True
    return isinstance(pend.chosen[p], list) or not pend.awaits(p)


def _number(v) -> float:
    """``v`` within the limit, as a float (``min`` and ``max`` only outside it: they cost a
    microsecond; the same value, -0.0 and True too; NaN as before)."""
    if -OBS_LIMIT <= v <= OBS_LIMIT:
        return float(v)
    return float(max(-OBS_LIMIT, min(OBS_LIMIT, v)))
