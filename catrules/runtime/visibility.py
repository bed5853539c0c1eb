"""Finer visibility (language 4) as views and events show it: a ``secret`` zone (another
player sees neither its cards nor how many), a ``public top`` pile (everyone sees its top card
and how many, not the cards below) and ``secret`` counters (a value seen only by its owner; a
shared one by nobody while the game lasts).

Who sees a zone's cards, its count and its top is the layout's to say
(``Layout.visible``, ``Layout.count_seen``, ``Layout.top_shown``); this module applies that to
a view's zone entry, to a counter's value and to the count of a move event.
"""

from __future__ import annotations

#: What a view or an event shows in place of a value the player may not see.
HIDDEN = {"hidden": True}


def finer_zone(prog, lay, slot: int, p, entry: dict, content) -> dict:
    """``entry``, a view's zone entry for ``p``, without the count of a secret zone they may not
    count, and with the top card of a ``public top`` pile."""
    if not lay.count_seen(slot, p):
        for k in ("count", "line_lengths"):
            if k in entry:
                entry[k] = None
    elif lay.top_shown(slot) and entry.get("cards") is None:
        entry["top"] = prog.card_dicts[content[-1]] if content else None
    return entry


def counter_seen(prog, name: str, owner, p, over: bool) -> bool:
    """Does ``p`` (None: a spectator) see the value of counter ``name`` of ``owner`` (None: the
    shared one)?  A secret counter shows only to its owner until the game is over."""
    if name not in prog.counter_secret or over:
        return True
    return owner is not None and p is not None and owner == p


def move_count_seen(lay, src, dst, p) -> bool:
    """Does ``p`` learn how many cards went from slot ``src`` to ``dst`` (either may be None:
    a zone not in this game)?  Yes if they may count either zone."""
    return any(s is not None and lay.count_seen(s, p) for s in (src, dst))
