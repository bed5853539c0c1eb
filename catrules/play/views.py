"""What each player sees: their view, worked out when looked at, and the part of each event
they may see (a seat, a log of one player, a web page are shown only that)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Optional

from ..runtime.said import seen_parts, words
from ..runtime.state import State
from ..runtime.visibility import counter_seen, move_count_seen


class LazyView(Mapping):
    """A player's view, worked out only if the seat looks at it (bots often do not)."""

    __slots__ = ("_state", "_player", "_view")

    def __init__(self, state: State, player: Optional[int]):
        self._state, self._player, self._view = state, player, None

    def _get(self) -> dict:
        if self._view is None:
            self._view = self._state.view(self._player)
        return self._view

    def __getitem__(self, key):
        return self._get()[key]

    def __iter__(self):
        return iter(self._get())

    def __len__(self):
        return len(self._get())


def visible_event(state: State, ev: dict, player: Optional[int]) -> Optional[dict]:
    """The part of ``ev`` that ``player`` may see (``None``: nothing of it)."""
    t = ev["t"]
    if t == "move":
        idx = state.prog.slot_index(state.layout)
        src, dst = idx.get(ev["from"]), idx.get(ev["to"])
        lay = state.layout
        if (src is not None and lay.visible(src, player)) or (dst is not None and lay.visible(dst, player)):
            return ev
        if not move_count_seen(lay, src, dst, player):     # between zones they cannot count
            return {**ev, "cards": None, "count": None}
        return {**ev, "cards": None, "count": len(ev["cards"])}
    if t == "decision":
        # The chooser sees their choice; others learn that a choice was made, and see what it
        # did through the events that follow (a reveal, cards that move into view), unless
        # the choice is made openly (said aloud at the table).
        # Which rule asked (the line) can tell which way the rules went on a hidden card: it
        # is left out too.
        return ev if ev["player"] == player or ev.get("public") else {**ev, "option": None, "line": None}
    if t in ("reveal", "race"):
        # A chosen card shows only to who can see the zone it lies in (its `from`): cards
        # chosen in secret are seen as far as the zones they go to are visible.
        if all("from" not in ch or ch["player"] == player for ch in ev["choices"]):
            return ev
        idx = state.prog.slot_index(state.layout)
        lay = state.layout
        choices = []
        for ch in ev["choices"]:
            if "from" in ch and ch["player"] != player:
                src = ch["from"]
                srcs = src if isinstance(src, list) else [src]
                seen = [s is not None and lay.visible(idx[s], player) for s in srcs]
                if not any(seen):
                    # nothing of it shows: not the card, nor where it was, nor how many
                    ch = {"player": ch["player"], "option": None}
                elif isinstance(src, list):
                    ch = {**ch, "option": [o if ok else None for o, ok in zip(ch["option"], seen)],
                          "from": [s if ok else None for s, ok in zip(src, seen)]}
            choices.append(ch)
        return {**ev, "choices": choices}
    if t == "announce" and "parts" in ev:
        # said aloud, but a card named in it shows only to who could see it where it lay
        parts, changed = seen_parts(state, ev["parts"], player)
        if not changed:
            return ev
        return {**ev, "parts": parts, "text": words(state, parts)}
    if t == "exchange":
        # both cards pass through both zones: whoever sees either zone sees both cards
        idx = state.prog.slot_index(state.layout)
        if any(state.layout.visible(idx[z], player) for z in ev["zones"]):
            return ev
        return {**ev, "cards": None}
    if t == "counter":
        # counters are public, but a card's own counter shows only while the card does, and
        # a value that is a card only to whoever can see that card (as in views)
        idx = state.prog.slot_index(state.layout)
        vis = state.layout.visible
        if "card" in ev and not vis(idx[ev["zone"]], player):
            return None
        if not counter_seen(state.prog, ev["name"], ev.get("owner"), player, False):
            return {**{k: v for k, v in ev.items() if k != "zones"}, "value": None, "hidden": True}
        zones = ev.get("zones")
        if zones is not None and not all(vis(idx[z], player) for z in zones):
            out = {k: v for k, v in ev.items() if k != "zones"}
            out["value"] = None
            out["hidden"] = True
            return out
        return ev
    return ev
