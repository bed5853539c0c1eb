"""The compact action vocabulary: actions named by what they mean, not by line or slot numbers.

The vocabulary of option ids (:class:`catrules.envs.encoding.Spec`, ``vocabulary="ids"``) has an
action per card id and per place of every player's zone of lines, numbered by slot.  The
compact one (``vocabulary="compact"``) names each option by a **key** that means the same in any
game and variant that has the thing it names:

* a card: ``card:<type>:<label>``, its identity (type and attributes), not its number; identical
  cards share the action (a decision that offers two of them gets the first, in the order the
  decision lists them);
* a row, column, line or place of a zone: ``place:<zone>:<whose>:<line>:<position>`` (and
  ``row:``, ``col:``, ``line:``), ``<whose>`` being ``own`` (the deciding player's), ``+k`` (the
  player k seats after them) or ``-`` (a zone of the table), not a slot number; places appear only
  for the zones the explored games offered (every player's own, in practice);
* anything else keeps its option id (``none``, ``yes``, ``p2``, ``n3``, a menu label, a symbol).

Nothing here knows any game: keys come from the compiled program's card table and layout.
"""

from __future__ import annotations

from ..runtime.option_ids import card_of

#: the kinds of option ids that name a part of a zone (``kind:slot:...``)
_ZONE_PARTS = ("place", "line", "row", "col")


class Keys:
    """The key of an option id for one game, player count (``key(option_id, player)``)."""

    def __init__(self, prog, players: int):
        self.n = players
        lay = prog.layout(players)
        self.zone = [zn.zone if hasattr(zn, "zone") else str(zn) for zn in lay.slot_zone_name] or \
            list(lay.slot_name)
        self.owner = list(lay.slot_owner)
        self.card = [f"card:{prog.card_type[c]}:{prog.card_label[c]}" for c in range(prog.card_count)]

    def key(self, option_id: str, player: int) -> str:
        c = card_of(option_id)
        if c is not None:
            return self.card[c]
        kind, _, rest = option_id.partition(":")
        if kind in _ZONE_PARTS and rest:
            slot, _, where = rest.partition(":")
            try:
                s = int(slot)
            except ValueError:
                return option_id
            if 0 <= s < len(self.zone):
                return f"{kind}:{self.zone[s]}:{self.whose(s, player)}" + (f":{where}" if where else "")
        return option_id

    def whose(self, slot: int, player: int) -> str:
        owner = self.owner[slot]
        if owner is None or not isinstance(owner, int) or owner < 0:
            return "-"
        return "own" if owner == player else f"+{(owner - player) % self.n}"


def zone_part(key: str):
    """``(kind, zone, whose)`` of a key that names a part of a zone, else None."""
    parts = key.split(":")
    if parts[0] in _ZONE_PARTS and len(parts) >= 3:
        return tuple(parts[:3])
    return None


def compact(ids: list, keys: Keys, seen: list, players: int) -> list:
    """The compact vocabulary from the vocabulary of option ids ``ids`` and what the explored games
    offered each player (``seen``: per player, a set of option ids): every key in the order of
    ``ids`` (each id's keys for every deciding player), parts of zones only where explored games
    offered that zone (with that ``whose``), then the keys explored games showed."""
    offered = set()
    for p, ids_p in enumerate(seen):
        for oid in ids_p:
            offered.add(keys.key(oid, p))
    zones = {zone_part(k) for k in offered} - {None}
    out, have = [], set()
    for oid in ids:
        for p in range(players):
            k = keys.key(oid, p)
            part = zone_part(k)
            if k in have or (part is not None and part not in zones):
                continue
            have.add(k)
            out.append(k)
    out += sorted(offered - have)
    return out
