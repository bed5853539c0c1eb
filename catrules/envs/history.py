"""What a player remembers, for the information-state tensor: a fixed-size summary of their history.

An information state is everything one player has seen and done.  Its string
(:mod:`catrules.envs.openspiel`) is exact: a digest of the game's event log as the player saw it.
Its tensor has a fixed size, so it summarises that history in :class:`Memory` segments that follow
the observation vector (:class:`catrules.envs.encoding.Encoder`):

* ``went to``: per card, one-hot over the slots of the layout: the slot the player last saw the
  card go to (a move they could see), the last column "never seen moving";
* ``moved by``: per card, one-hot over the seats: who moved it there (the player who was acting
  then), the last column "nobody seen";
* ``my actions``: per action of the vocabulary, how many times the player chose it;
* ``my decisions``: how many decisions the player answered.

Nothing here knows any game; the events are the engine's own (:func:`catrules.play.views.visible_event`).
"""

from __future__ import annotations

import numpy as np


class Memory:
    """The layout of a player's remembered history, and how one visible event changes it."""

    def __init__(self, sp):
        self.spec = sp
        self.C, self.N, self.A = sp.program.card_count, sp.players, sp.num_actions
        self.S = len(sp.program.layout(sp.players).slot_spec)
        self.slot_of = {name: i for i, name in enumerate(sp.program.layout(sp.players).slot_name)}
        C, S, N, A = self.C, self.S, self.N, self.A
        self.segments = [("went to", 0, C * (S + 1)), ("moved by", C * (S + 1), C * (N + 1)),
                         ("my actions", C * (S + 2 + N), A), ("my decisions", C * (S + 2 + N) + A, 1)]
        self.size = C * (S + 2 + N) + A + 1
        self._mask: dict | None = None                  # zone name -> a bit per player who sees it
        self._chosen_memo: dict = {}                    # (player, option id) -> entries (_chosen)

    def fresh(self) -> np.ndarray:
        """The memory of a player who has seen nothing yet."""
        m = np.zeros(self.size, np.float32)
        C, S, N = self.C, self.S, self.N
        m[S:C * (S + 1):S + 1] = 1                      # never seen moving
        m[C * (S + 1) + N:C * (S + 1) + C * (N + 1):N + 1] = 1   # moved by nobody seen
        return m

    def catch_up(self, m: np.ndarray, player: int, lay, events, parsed: bool = False) -> None:
        """Change ``m`` by ``events`` of the engine's log, as ``player`` saw them: the same as
        :meth:`note` of each event's visible part (:func:`catrules.play.views.visible_event`), one
        after the other, without making that part (see :meth:`changes`), and written at once:
        where each card went last, and the choices counted.  ``parsed``: ``events`` are
        :meth:`parse`'s items rather than the log's events."""
        went, chose = self.changes(player, lay, events, parsed)
        if went:
            C, N = self.C, self.N
            S1, N1, base = self.S + 1, N + 1, C * (self.S + 1)
            cs = np.fromiter(went, np.intp, len(went))
            where = np.array(list(went.values()), np.intp).reshape(-1, 2)
            rows = m[:base].reshape(C, S1)
            rows[cs] = 0
            rows[cs, where[:, 0]] = 1
            by = m[base:base + C * N1].reshape(C, N1)
            by[cs] = 0
            by[cs, where[:, 1]] = 1
        for i in chose:
            m[i] += 1

    def tracker(self, m) -> tuple:
        """``(slot, seat)`` per card of a memory ``m`` (an array): where its ``went to`` and its
        ``moved by`` rows hold their one, for :meth:`catch_up_tracked`."""
        C, S1, N1 = self.C, self.S + 1, self.N + 1
        base = C * S1
        return (np.asarray(m[:base]).reshape(C, S1).argmax(1).tolist(),
                np.asarray(m[base:base + C * N1]).reshape(C, N1).argmax(1).tolist())

    def catch_up_tracked(self, x, at: int, track: tuple, player: int, items, exact: bool, out=None) -> None:
        """:meth:`catch_up` of a memory held from ``x[at]`` (an array, or a list of floats with
        ``exact``: the float32 values), from :meth:`parse`'s ``items``, written entry by entry:
        ``track`` (:meth:`tracker`, kept up to date here) says where each card's ones are, so a
        move changes four entries, without the array operations of :meth:`catch_up`.  ``out``:
        a dict that takes the new values instead of ``x`` (read where it has none), to write
        them all at once with the observation's."""
        w = x if out is None else out
        slots, seats = track
        S1, N1 = self.S + 1, self.N + 1
        base = at + self.C * S1
        bit = 1 << player
        for it in items:
            if it is None:
                continue
            if len(it) == 4:
                if not it[3] & bit:
                    continue
                slot, who = it[1], it[2]
                for c in it[0]:
                    was = slots[c]
                    if was != slot:
                        row = at + c * S1
                        w[row + was] = 0.0
                        w[row + slot] = 1.0
                        slots[c] = slot
                    was = seats[c]
                    if was != who:
                        row = base + c * N1
                        w[row + was] = 0.0
                        w[row + who] = 1.0
                        seats[c] = who
            else:
                for q, option in it[0]:
                    if q == player:
                        for i in self._chosen(player, option):
                            j = at + i
                            v = w[j] if out is None or j in out else x[j]
                            # a count: a whole number, exact in float32 below 2 ** 24
                            w[j] = v + 1.0 if v < 16777215.0 or not exact else float(np.float32(v) + np.float32(1))

    def parse(self, lay, events, out: list) -> None:
        """Add to ``out`` one item per event, what it can change in any player's memory: None
        (nothing), ``(cards, slot, who, seers)`` for a move (``seers``: a bit per player who sees
        either zone), or ``(choices,)``, the ``(player, option)`` of a decision or a reveal.
        Worked out once per game, read by every player (:meth:`changes`)."""
        masks = self._masks(lay)
        C, N, slot_of = self.C, self.N, self.slot_of
        add = out.append
        for ev in events:
            t = ev["t"]
            if t == "move":
                cards = ev.get("cards")
                slot = slot_of.get(ev.get("to"))
                seers = masks.get(ev["from"], 0) | masks.get(ev["to"], 0) if cards else 0
                if not seers or slot is None:
                    add(None)
                    continue
                actor = ev.get("actor")
                who = actor if isinstance(actor, int) and 0 <= actor < N else N
                add(([c for c in cards if isinstance(c, int) and 0 <= c < C], slot, who, seers))
            elif t == "decision":
                option = ev.get("option")
                add((((ev.get("player"), option),),) if option is not None else None)
            elif t in ("reveal", "race"):
                chosen = tuple((ch.get("player"), ch.get("option")) for ch in ev.get("choices", ())
                               if ch.get("option") is not None)
                add((chosen,) if chosen else None)
            else:
                add(None)

    def _masks(self, lay) -> dict:
        """Per zone name, a bit per player who sees it."""
        masks = self._mask
        if masks is None:
            masks = self._mask = {name: sum(1 << p for p in range(self.N) if lay.visible(s, p))
                                           for name, s in self.slot_of.items()}
        return masks

    def changes(self, player: int, lay, events, parsed: bool = False) -> tuple:
        """``(went, chose)``: what ``events`` (or :meth:`parse`'s items, ``parsed``) change in
        ``player``'s memory: ``{card: (slot, seat of who moved it)}`` of the moves they saw (the
        last of each card), and the entries of their choices (an entry as often as it is added
        one).  A move shows its cards to who sees either zone; a player's own choices are always
        theirs to see; nothing else changes a memory."""
        if not parsed:
            items: list = []
            self.parse(lay, events, items)
            events = items
        went, chose = {}, []
        bit = 1 << player
        for it in events:
            if it is None:
                continue
            if len(it) == 4:
                if it[3] & bit:
                    where = it[1], it[2]
                    for c in it[0]:
                        went[c] = where
            else:
                for q, option in it[0]:
                    if q == player:
                        chose += self._chosen(player, option)
        return went, chose

    def note(self, m: np.ndarray, player: int, ev: dict) -> None:
        """Change ``m`` (``player``'s memory) by one event as ``player`` saw it."""
        t = ev["t"]
        if t == "move":
            cards = ev.get("cards")
            slot = self.slot_of.get(ev.get("to"))
            if not cards or slot is None:
                return
            S1, N1, base = self.S + 1, self.N + 1, self.C * (self.S + 1)
            actor = ev.get("actor")
            who = actor if isinstance(actor, int) and 0 <= actor < self.N else self.N
            for c in cards:
                if isinstance(c, int) and 0 <= c < self.C:
                    m[c * S1:(c + 1) * S1] = 0
                    m[c * S1 + slot] = 1
                    m[base + c * N1:base + (c + 1) * N1] = 0
                    m[base + c * N1 + who] = 1
        elif t == "decision":
            if ev.get("player") == player and ev.get("option") is not None:
                self._chose(m, player, ev["option"])
        elif t in ("reveal", "race"):
            for ch in ev.get("choices", ()):
                if ch.get("player") == player and ch.get("option") is not None:
                    self._chose(m, player, ch["option"])

    def _chose(self, m: np.ndarray, player: int, option) -> None:
        for i in self._chosen(player, option):
            m[i] += 1

    def _chosen(self, player: int, option) -> list:
        """The entries one choice of ``player`` adds one to: its actions, and the decisions
        (remembered per player and option id: the vocabulary's key of an id costs)."""
        ids = option if type(option) is str else tuple(option) if type(option) is list and all(
            type(o) is str for o in option) else None
        key = (player, ids)
        out = self._chosen_memo.get(key) if ids is not None else None
        if out is None:
            out = self._entries(player, option)
            if ids is not None:
                if len(self._chosen_memo) > 65536:
                    self._chosen_memo.clear()
                self._chosen_memo[key] = out
        return out

    def _entries(self, player: int, option) -> list:
        """:meth:`_chosen`, worked out."""
        at = self.C * (self.S + 2 + self.N)
        out = []
        for option_id in option if isinstance(option, list) else [option]:
            i = self.spec.index.get(self.spec.key(option_id, player)) if isinstance(option_id, str) else None
            if i is not None:
                out.append(at + i)
        out.append(at + self.A)
        return out


class ParsedLog:
    """The log of one game, parsed once (:meth:`Memory.parse`) for every player's memory."""

    __slots__ = ("memory", "st", "items")

    def __init__(self, memory: Memory, st):
        self.memory, self.st, self.items = memory, st, []

    def since(self, i: int) -> list:
        """The items of the log's events from the ``i``-th on."""
        log, items = self.st.log, self.items
        if len(items) > len(log):                   # (the log never shrinks; if it did, parse again)
            del items[:]
        if len(items) < len(log):
            self.memory.parse(self.st.layout, log[len(items):], items)
        return items[i:]
