"""What the checker hands on: a checked game (:class:`Checked`) and its zones (:class:`ZoneSpec`).

Apart from :mod:`catrules.check.checker`, so that a game loaded from the cache
(:mod:`catrules.check.game_cache`) is unpickled, compiled and played without importing the
checks themselves.
"""

from __future__ import annotations

import dataclasses

from ..lang import ast


@dataclasses.dataclass(slots=True)
class ZoneSpec:
    """A zone as declared: shared or per player, who sees it, its shape (a grid's size)."""
    name: str
    index: int
    per_player: bool = False
    visibility: str = "public"
    shape: str = "pile"
    rows: int = 0
    cols: int = 0
    line: int = 0
    per: str = ""             # `one per ATTR`: the attribute of a zone family (language 4)
    family: str = ""          # a family member (or, with index -1, the member a key picks at run time)
    key: object = None        # a member's value of the family's attribute


@dataclasses.dataclass
class FamilySpec:
    """A zone family (``zone discard: shared, pile, one per colour``): one member zone per value
    of the attribute, in the order the values first appear in the card declarations."""
    name: str
    attr: str
    values: list
    members: dict             # value -> ZoneSpec (each also in ``Checked.zones``)
    spec: ZoneSpec            # the declared properties; ``spec.index`` is -1


@dataclasses.dataclass
class Checked:
    """A game file that passed the checks, with its name table."""
    game: ast.GameFile
    zones: dict                  # name -> ZoneSpec
    attributes: list             # card attribute names in first-seen order
    symbols: set
    counters: dict               # name -> ast.Counter
    options: dict
    defines: dict
    actions: dict
    phases: dict
    names: dict                  # id(node) -> (kind, detail)
    warnings: list
    card_types: dict             # name -> ast.CardType
    components: list             # score item names
    types: dict = dataclasses.field(default_factory=dict)   # id(expression node) -> types.Type
    counter_types: dict = dataclasses.field(default_factory=dict)   # counter name -> types.Type (what it may hold)
    local_types: dict = dataclasses.field(default_factory=dict)     # (unit, variable name) -> types.Type
    no_way_out: set = dataclasses.field(default_factory=set)        # ids of loops nothing can leave
    families: dict = dataclasses.field(default_factory=dict)        # zone family name -> FamilySpec
