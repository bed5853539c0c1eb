"""A compiled game, :class:`Program`, and where its zones live in a state (:class:`Layout`).

The compiler (:mod:`catrules.compile.compiler`) fills a program once per game file:
its card table, its code, triggers and scoring; every state of that game
shares it.  The program also turns option values into the stable ids and
labels of decisions, and works out each player's view.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from ..lang import ast
from ..check.checked import Checked
from .closing import closing_of, reads_public, round_end_lines
from ..errors import CatrulesError, GameFileError
from .option_settings import is_setting, normal_options
from ..runtime.decisions import NONE_OPTION, SIT_OUT, Option
from ..runtime.option_ids import card_id, option_id, option_value, player_id
from ..runtime.places import describe
from ..runtime.views import view
from ..runtime.said import symbol_text
from ..runtime.zone_names import ZoneName


# ====================================================================== layout

@dataclasses.dataclass(slots=True)
class Layout:
    """Where each zone lives in a state's list of slots, for one player count."""
    n: int
    base: list
    slot_spec: list
    slot_owner: list
    slot_name: list
    slot_shape: list
    slot_zone: list
    players: list
    slot_simple: list = dataclasses.field(default_factory=list)   # True for piles and rows
    seers: list = dataclasses.field(default_factory=list)         # per slot, the bitmask of the players who see it
    watchers: list = dataclasses.field(default_factory=list)      # seers, and bit n if the table sees it (public)
    unseen: dict = dataclasses.field(default_factory=dict)        # per player, the slots they cannot see (sampling)
    slot_zone_name: list = dataclasses.field(default_factory=list)  # per slot, its ZoneName (slot_name is its text)
    start: tuple = ()      # (cards per slot, slot per card) as a game starts (see state_fields.start_cards)

    def visible(self, slot: int, player) -> bool:
        """Does ``player`` (None: a spectator) see the cards of ``slot``?  (Of a ``public top``
        pile, only its top card is seen: :meth:`top_shown`.)"""
        vis = self.slot_spec[slot].visibility
        if vis == "public":
            return True
        if vis == "hidden" or vis == "public top":
            return False
        return player is not None and self.slot_owner[slot] == player     # owner, secret

    def count_seen(self, slot: int, player) -> bool:
        """Does ``player`` see how many cards ``slot`` holds?  Everyone does, but of another
        player's ``secret`` zone."""
        return self.slot_spec[slot].visibility != "secret" or (player is not None and
                                                              self.slot_owner[slot] == player)

    def top_shown(self, slot: int) -> bool:
        """Is the top card of ``slot`` face up for everyone (a ``public top`` pile)?"""
        return self.slot_spec[slot].visibility == "public top"


# ===================================================================== program

class Program:
    """A compiled game: card table, zones, code, triggers, scoring."""

    def __init__(self, checked: Checked, action_graph):
        g = checked.game
        self.checked = checked
        self.graph = action_graph
        self.title = g.title
        self.path = g.path
        #: the game file's text (runtime errors quote its lines)
        self.source = getattr(g, "source", "") or ""
        self.version = g.version
        self.min_players = g.min_players
        self.max_players = g.max_players
        self.option_texts = {o.name: o.text for o in g.options}
        #: option with values -> (default, allowed values) (language 4)
        self.option_values = {o.name: (o.values.default, o.values.choices()) for o in g.options if o.values}
        #: the lines of the game's `how to play` text (empty if it has none)
        self.how_to_play = list(g.how_to_play.lines) if getattr(g, "how_to_play", None) else []
        self.zones = sorted(checked.zones.values(), key=lambda z: z.index)
        self.zone_by_name = dict(checked.zones)
        self.attributes = list(checked.attributes)
        self._read_cards(g, checked)
        self.codes: dict = {}
        #: the blocks of the lean compilation, once asked for (:meth:`lean_codes`), and what
        #: compiles it (``compile_game``, set by the compiler)
        self.lean: Optional[dict] = None
        self.compile_game = None
        self.code_lines: dict = {}
        #: per generated file name, the game-file line of each of its source lines (from 1)
        self.line_tables: dict = {}
        #: per unit, the Python source of its blocks (to read, e.g. when debugging the compiler)
        self.unit_sources: dict = {}
        #: per unit, where a frame saved in state format 1 resumes: its pc then -> a block now
        self.old_pcs: dict = {}
        self.counters: list = []
        self.counter_kind: dict = {}
        #: counter name -> "player" (one per player), "card" (one per card) or None (one)
        self.counter_per = {c.name: "player" if c.per_player else "card" if c.per_card else None
                            for c in g.counters}
        #: the `secret` counters: each value seen only by its owner (a shared one by nobody)
        self.counter_secret = frozenset(c.name for c in g.counters if getattr(c, "secret", False))
        self.triggers: dict = {}          # zone index -> list of trigger tuples
        #: per trigger (``trigger:N``): its game-file line and how errors name it
        self.trigger_lines = [t.line for t in g.triggers]
        self.trigger_labels = [t.label for t in g.triggers]
        #: card type -> the zone indices where the rules can ever put a card of it
        #: (:mod:`catrules.compile.zone_types`, set by the compiler)
        self.zone_types: dict = {}
        self.score_items: list = []
        self.score_only_if: dict = {}     # score item -> f(options) for `= ... if OPTIONS`
        self._items_for: dict = {}
        self._scorers: dict = {}
        self.ranking: list = []
        self.has_setup = bool(g.setup)
        self.tallies = any(isinstance(n, ast.Tally) for n in ast.walk(g.bodies))
        self.tie_race = bool(g.tie_race)
        self.card_options = [Option(card_id(i), self.card_face[i], i, "card") for i in range(self.card_count)]
        self.player_options = [Option(player_id(i), f"player {i + 1}", i, "player") for i in range(self.max_players)]
        self._layouts: dict = {}
        self._slot_index: dict = {}
        self.score_public = _score_is_public(checked)
        #: the end's own rules (:mod:`catrules.compile.closing`): the phases the flow plays after
        #: its last loop, the other statements there (not run for the running score), and
        #: whether those phases read only public zones
        self.closing, self.closing_left, self.closing_public = closing_of(checked)
        self.round_end_lines = round_end_lines(checked)
        self.prompt_fns: list = []        # `asking "..."` with values: f(state, vars) -> parts
        self.menu_labels: dict = {}       # (menu's answer var, name as written) -> f(state, vars) -> parts
        # per choice `preferring P` from one zone: (P, its filter), f(state, vars, card) each
        # (what an answer tells the others: catrules.runtime.inference)
        self.prefer_fns: list = []

    def _read_cards(self, g, checked: Checked) -> None:
        """The cards, by id from 0 in file order (a row's copies one after the other): type,
        attributes, starting zone, labels, and the per-attribute columns read by the blocks."""
        self.card_type: list = []
        self.card_attrs: list = []
        self.initial_zone: list = []
        self.cards_of_type: dict = {}
        for ct in g.cards:
            zid = checked.zones[ct.zone].index
            ids = []
            for row in ct.rows:
                for _ in range(row.copies):
                    ids.append(len(self.card_type))
                    self.card_type.append(ct.name)
                    self.card_attrs.append(dict(row.attrs))
                    self.initial_zone.append(zid)
            self.cards_of_type[ct.name] = ids
        self.card_count = len(self.card_type)
        self.attr_col = {a: [ca.get(a) for ca in self.card_attrs] for a in self.attributes}
        self.card_label = [_card_label(ca) for ca in self.card_attrs]
        self.display_names: dict = {}    # symbol -> how people read it (`show x as "..."`)
        self.card_face = list(self.card_label)      # short text, for lists (`show card`)
        self.card_text: list = [None] * self.card_count   # full description (`describe card`)
        self.card_dicts = [{"id": i, "type": self.card_type[i], "label": self.card_label[i],
                            **{k: (list(v) if isinstance(v, tuple) else v) for k, v in self.card_attrs[i].items()}}
                           for i in range(self.card_count)]

    def set_faces(self) -> None:
        """Cards carry their face and description (worked out by the compiler) to front ends."""
        for i, d in enumerate(self.card_dicts):
            if self.card_face[i] != self.card_label[i]:
                d["face"] = self.card_face[i]
            if self.card_text[i] is not None:
                d["text"] = self.card_text[i]
        self.card_options = [Option(card_id(i), self.card_face[i], i, "card") for i in range(self.card_count)]

    def items_for(self, options) -> list:
        """The score items of a game played with ``options`` (an item with `if OPTIONS`
        exists only in games where they hold)."""
        key = tuple(options)
        items = self._items_for.get(key)
        if items is None:
            if not self.score_only_if:
                items = self.score_items
            else:
                opts = _Options(frozenset(options))
                items = [it for it in self.score_items
                         if it[0] not in self.score_only_if or self.score_only_if[it[0]](opts, {})]
            self._items_for[key] = items
        return items

    def scorer(self, options):
        """``(score_rows(st), rank_keys(st, rows))`` for a game played with ``options``: the
        score items and the ranking keys of every player, each written as one function (see
        :mod:`catrules.runtime.scoring`); None where an expression has no source to write."""
        key = tuple(options)
        if key not in self._scorers:
            from ..runtime.scoring import write_scorer
            self._scorers[key] = write_scorer(self.items_for(options), self.ranking)
        return self._scorers[key]

    # ---------------------------------------------------------------- setup
    def check_start(self, players: int, options) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise CatrulesError(f"{self.title} is for {self.min_players} to {self.max_players} players, "
                                f"not {players}")
        self.normal_options(options)

    def normal_options(self, options) -> list:
        """``options`` checked and in their one order (:func:`~.option_settings.normal_options`)."""
        return normal_options(self.title, self.option_texts, self.option_values, options)

    def is_option_setting(self, o) -> bool:
        """Whether ``o`` is one entry of a state's list of options (``short``, ``rounds=4``)."""
        return is_setting(self.option_texts, self.option_values, o)

    def layout(self, n: int) -> Layout:
        lay = self._layouts.get(n)
        if lay is not None:
            return lay
        base, spec, owner, name, shape, zid, zone_name = [], [], [], [], [], [], []
        for z in self.zones:
            base.append(len(spec))
            owners = range(n) if z.per_player else [-1]
            for o in owners:
                spec.append(z)
                owner.append(o)
                zone_name.append(ZoneName(z.name, o if o >= 0 else None))
                name.append(zone_name[-1].text)
                shape.append(z.shape)
                zid.append(z.index)
        lay = Layout(n, base, spec, owner, name, shape, zid, list(range(n)), [x in ("pile", "row") for x in shape])
        lay.slot_zone_name = zone_name
        lay.seers = [sum(1 << p for p in range(n) if lay.visible(s, p)) for s in range(len(spec))]
        # the same, with bit n for who watches the table (no player: the public zones)
        lay.watchers = [lay.seers[s] | (1 << n if lay.visible(s, None) else 0) for s in range(len(spec))]
        self._layouts[n] = lay
        return lay

    def slot_index(self, lay: Layout) -> dict:
        """Slot name (as in events) -> slot index, for one layout."""
        idx = self._slot_index.get(lay.n)
        if idx is None:
            idx = self._slot_index[lay.n] = {name: i for i, name in enumerate(lay.slot_name)}
        return idx

    def lean_codes(self) -> dict:
        """The blocks the bot fast path runs (:meth:`catrules.runtime.state.State.run`): a second,
        lean compilation of the same game, made the first time it is asked for.  Its blocks are
        those of :attr:`codes`, block for block (a frame's ``pc`` means the same in both), and do
        the same to the state; definitions are written out where they are asked, so an error
        inside one names the line that asks (the fast path replays an error on :attr:`codes`).
        A game the lean compilation cannot write (a definition written out too deep) runs
        :attr:`codes`."""
        if self.lean is None:
            try:
                lean = self.compile_game(self.checked, lean=True).codes if self.compile_game else self.codes
            except Exception:               # noqa: BLE001  (a guard: what it cannot write runs as written)
                lean = self.codes
            if list(lean) != list(self.codes) or any(len(lean[k]) != len(v) for k, v in self.codes.items()):
                lean = self.codes           # a guard: the same blocks, or none of them
            self.lean = lean
        return self.lean

    def line_of(self, key: str, pc: int) -> int:
        lines = self.code_lines.get(key, [])
        if 0 <= pc < len(lines):
            return lines[pc]
        return 0

    # -------------------------------------------------------------- options
    option_id = staticmethod(option_id)         # the id of a value (catrules.runtime.option_ids)

    def options_for(self, kind: str, values, st) -> list:
        """Option objects for the values of a decision (cached for cards and players)."""
        if values == [None]:
            return [NONE_OPTION]
        if None in values:                 # `may choose`: one may sit the race out
            return [SIT_OUT if v is None else self.options_for(kind, [v], st)[0] for v in values]
        if kind == "card":
            co = self.card_options
            return [co[v] for v in values]
        if kind == "player":
            po = self.player_options
            return [po[v] for v in values]
        return [Option(self.option_id(kind, v), self.option_label(kind, v, st), v, kind) for v in values]

    option_value = staticmethod(option_value)   # the value of an id among the values offered

    def option_label(self, kind: str, v, st=None) -> str:
        if kind == "card":
            return self.card_face[v]
        if kind == "player":
            return f"player {v + 1}"
        if isinstance(v, str) and st is not None and v[:4] in ("row:", "col:", "line", "plac"):
            return describe(st, v)
        if isinstance(v, str) and kind in ("symbol", "value") and v.isidentifier():
            return symbol_text(v, self.display_names)
        return str(v)

    # ---------------------------------------------------------------- views
    def view(self, st, p) -> dict:
        """What player ``p`` (None: a spectator) may see of ``st`` (see :mod:`catrules.runtime.views`)."""
        return view(self, st, p)


def _score_is_public(checked) -> bool:
    """Does the score read only what everyone sees?  Then a player may be shown the running
    score while the game goes on."""
    return reads_public(checked, [item.value for item in checked.game.score])


class _Options:
    """What an option-only condition reads of a state: its options."""
    __slots__ = ("options",)
    memo = None                     # definitions keep nothing here (see State.memo)

    def __init__(self, options):
        self.options = options


def _card_label(attrs_: dict) -> str:
    """A card's label: its ``name``, else its attribute values in the order its rows give them."""
    if "name" in attrs_:
        return str(attrs_["name"])
    parts = []
    for v in attrs_.values():
        if v is not None and v != ():
            parts.append("+".join(map(str, v)) if isinstance(v, tuple) else str(v))
    return " ".join(parts) or "card"


