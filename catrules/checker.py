"""Meaning checks on a parsed game file, and the name table the compiler uses.

The checker walks the AST once, resolving every name (a local variable, a
counter, a zone, a card attribute, an option, a definition, a symbol...) and
reporting every mistake it finds, not just the first: unknown names with a
"did you mean" hint, wrong argument counts, zones used without an owner,
phases that are never played, a language version newer than this interpreter,
and (as a warning) a cycle of triggers that can fire forever while using
nothing up.  Its result, :class:`Checked`, maps each name node to what it
means, so that :mod:`catrules.compiler` never has to guess.
"""

from __future__ import annotations

from typing import Optional

import attrs
import networkx as nx

from . import ast
from .errors import GameFileError, Reporter, suggest
from .parser import LANGUAGE_VERSION, keywords

#: Builtin functions: name -> (fewest, most arguments, index of the argument
#: evaluated once per element of the first one, or None).
BUILTINS = {
    "count": (1, 1, None), "sum": (1, 2, 1), "max": (1, 2, 1), "min": (1, 2, 1),
    "best": (2, 2, 1), "worst": (2, 2, 1), "first": (1, 1, None), "last": (1, 1, None),
    "top": (1, 2, None), "bottom": (1, 1, None), "owner": (1, 1, None), "next": (1, 2, None),
    "previous": (1, 2, None), "random": (1, 1, None), "any": (1, 1, None), "others": (1, 1, None),
    "rows": (1, 1, None), "columns": (1, 1, None), "lines": (1, 1, None), "places": (1, 1, None),
    "abs": (1, 1, None), "range": (2, 2, None), "copies": (2, 2, None), "collect": (2, 2, 1),
    "join": (1, 1, None),
}

#: Attributes of places and lines (values of lines and grid zones).
PLACE_ATTRS = {"index", "cards", "new", "start", "end", "before", "after", "line", "position"}

VISIBILITIES = ("public", "owner", "hidden")
SHAPES = ("pile", "row", "grid", "lines")
MAX_PLAYERS = 12


@attrs.define
class ZoneSpec:
    name: str
    index: int
    per_player: bool = False
    visibility: str = "public"
    shape: str = "pile"
    rows: int = 0
    cols: int = 0
    line: int = 0


@attrs.define
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


class _Scope:
    """What a name may mean here: the local variables, whether ``it`` and bare card
    attributes are about an element, whether ``player`` means someone, loop depth."""
    __slots__ = ("locals", "element", "player", "loops")

    def __init__(self, locals_, element=False, player=False, loops=0):
        self.locals = locals_
        self.element = element
        self.player = player
        self.loops = loops

    def with_(self, **kw):
        s = _Scope(self.locals, self.element, self.player, self.loops)
        for k, v in kw.items():
            setattr(s, k, v)
        return s


def check(game: ast.GameFile) -> Checked:
    """Check ``game``; raise :class:`GameFileError` listing every error found."""
    return _Checker(game).run()


class _Checker:
    def __init__(self, game: ast.GameFile):
        self.g = game
        self.rep = Reporter(game.path, game.source)
        self.names: dict = {}
        self.zones: dict = {}
        self.attributes: list = []
        self.symbols: set = set()
        self.counters: dict = {}
        self.options: dict = {}
        self.defines: dict = {}
        self.actions: dict = {}
        self.phases: dict = {}
        self.card_types: dict = {}
        self.components: list = []

    # ------------------------------------------------------------------ top
    def run(self) -> Checked:
        g, rep = self.g, self.rep
        if g.version > LANGUAGE_VERSION:
            rep.error(g, f"this game is written for catrules language {g.version}; this interpreter reads "
                         f"language {LANGUAGE_VERSION} and older",
                      "upgrade catrules (python -m pip install -U catrules) to play it")
            raise GameFileError(rep.items)
        if g.version < 1:
            rep.error(g, f"there is no catrules language {g.version}", f"write `catrules {LANGUAGE_VERSION}`")
        if not (1 <= g.min_players <= g.max_players <= MAX_PLAYERS):
            rep.error(g, f"players {g.min_players} to {g.max_players} is not a possible range",
                      f"write `players A to B` with 1 <= A <= B <= {MAX_PLAYERS}")
        self.declare()
        self.check_bodies()
        self.check_reachability()
        self.check_trigger_cycles()
        self.check_define_cycles()
        rep.raise_if_errors()
        return Checked(g, self.zones, self.attributes, self.symbols, self.counters, self.options, self.defines,
                       self.actions, self.phases, self.names, rep.warnings, self.card_types,
                       self.components)

    def _taken(self, name: str):
        for kind, table in (("zone", self.zones), ("counter", self.counters), ("option", self.options),
                            ("definition", self.defines), ("action", self.actions), ("phase", self.phases),
                            ("card type", self.card_types)):
            if name in table:
                return kind
        return None

    def _declare(self, table: dict, node, name: str, kind: str, value) -> None:
        if name in keywords():
            self.rep.error(node, f"`{name}` is a word of the language, so it cannot name a {kind}",
                           f"call it something else, such as `my_{name}`")
            return
        other = self._taken(name)
        if other:
            self.rep.error(node, f"`{name}` is already the name of a {other}", f"give this {kind} another name")
            return
        table[name] = value

    def declare(self) -> None:
        g, rep = self.g, self.rep
        for opt in g.options:
            self._declare(self.options, opt, opt.name, "option", opt)
        for z in g.zones:
            self._declare(self.zones, z, z.name, "zone", self.zone_spec(z, len(self.zones)))
        for ct in g.cards:
            self._declare(self.card_types, ct, ct.name, "card type", ct)
            if ct.zone not in self.zones:
                rep.error((ct.zone_line, ct.zone_column), f"unknown zone `{ct.zone}`",
                          suggest(ct.zone, self.zones) or "declare it with `zone NAME: ...`")
            for row in ct.rows:
                if row.copies < 1:
                    rep.error(row, "a card row needs at least one copy")
                for k, v in row.attrs.items():
                    if k not in self.attributes:
                        self.attributes.append(k)
                    for item in (v if isinstance(v, tuple) else (v,)):
                        if isinstance(item, ast.Sym):
                            self.symbols.add(str(item))
            if not ct.rows:
                rep.error(ct, f"card type `{ct.name}` has no cards")
        for a in self.attributes:
            if a in keywords():
                rep.error(self.g.cards[0], f"card attribute `{a}` is a word of the language",
                          "rename the attribute")
            if self._taken(a):
                rep.error(self.g, f"card attribute `{a}` has the same name as a {self._taken(a)}",
                          "rename one of them")
        for c in g.counters:
            self._declare(self.counters, c, c.name, "counter", c)
        for d in g.defines:
            self._declare(self.defines, d, d.name, "definition", d)
        for a in g.actions:
            self._declare(self.actions, a, a.name, "action", a)
        for ph in g.phases:
            self._declare(self.phases, ph, ph.name, "phase", ph)
        if not g.flow:
            rep.error(self.g, "the game has no `flow:` block", "add `flow:` with the phases to play, in order")
        if not g.cards:
            rep.error(self.g, "the game declares no cards", "add `cards NAME in ZONE:` with card rows")
        seen = set()
        for item in g.score:
            if item.name in seen:
                rep.error(item, f"score item `{item.name}` appears twice")
            elif self._taken(item.name) or item.name in keywords() or item.name in self.attributes:
                rep.error(item, f"score item `{item.name}` has the name of something else in the game",
                          f"call it something else, such as `{item.name}_points`")
            seen.add(item.name)
            self.components.append(item.name)

    def zone_spec(self, z: ast.Zone, index: int) -> ZoneSpec:
        spec = ZoneSpec(z.name, index, line=z.line)
        for words, pos in z.props:
            p = (pos["line"], pos["column"])
            w = list(words)
            if w == ["shared"]:
                spec.per_player = False
            elif w == ["per", "player"]:
                spec.per_player = True
            elif len(w) == 1 and w[0] in VISIBILITIES:
                spec.visibility = w[0]
            elif w in (["pile"], ["row"], ["lines"]):
                spec.shape = w[0]
            elif len(w) == 4 and w[0] == "grid" and w[2] == "by" and w[1].isdigit() and w[3].isdigit():
                spec.shape, spec.rows, spec.cols = "grid", int(w[1]), int(w[3])
                if spec.rows < 1 or spec.cols < 1:
                    self.rep.error(p, "a grid needs at least one row and one column")
            else:
                text = " ".join(w)
                known = ["shared", "per player", *VISIBILITIES, "pile", "row", "lines", "grid 3 by 3"]
                hint = suggest(text, known) or ("a zone is shared or per player; public, owner or hidden; "
                                                "a pile, a row, a grid R by C or lines")
                self.rep.error(p, f"unknown zone property `{text}`", hint)
        if spec.visibility == "owner" and not spec.per_player:
            self.rep.error(z, f"zone `{z.name}` is shared, so it has no owner to see it",
                           "write `per player, owner` or make it public or hidden")
        return spec

    # ------------------------------------------------------------- bodies
    def unit_locals(self, params, body) -> set:
        """Every local variable of a block: parameters, and names set, chosen or looped over."""
        names = set(params)
        for n in ast.walk(body):
            if isinstance(n, ast.Assign) and n.name not in self.counters and n.owner is None:
                names.add(n.name)
            elif isinstance(n, ast.Choose):
                names.add(n.var)
            elif isinstance(n, (ast.ForPlayers, ast.ForEach)):
                names.add(n.var)
            elif isinstance(n, ast.Together):
                names.update((n.var, n.player))
                if n.mode == "race":
                    names.update(("position", "racers"))
        return names

    def check_bodies(self) -> None:
        g = self.g
        for c in g.counters:
            self.expr(c.value, _Scope(set(), player=c.per_player))
        for d in g.defines:
            self.expr(d.body, _Scope(set(d.params)))
        for a in g.actions:
            self.block(a.body, _Scope(self.unit_locals(a.params, a.body)))
        for t in g.triggers:
            spec = self.zones.get(t.zone)
            if spec is None:
                self.rep.error(t, f"unknown zone `{t.zone}`", suggest(t.zone, self.zones))
            elif t.owner and not spec.per_player:
                self.rep.error(t, f"zone `{t.zone}` is shared, so `of {t.owner}` names no one",
                               "drop `of ...` or make the zone per player")
            params = [t.var] + ([t.owner] if t.owner else [])
            if t.source is not None:
                src = self.zones.get(t.source)
                if src is None:
                    self.rep.error(t, f"unknown zone `{t.source}` after `from`", suggest(t.source, self.zones))
                elif t.source_owner and not src.per_player:
                    self.rep.error(t, f"zone `{t.source}` is shared, so `from {t.source} of {t.source_owner}` "
                                      "names no one", "drop `of ...` after the zone")
                if t.source_owner:
                    if t.source_owner == t.owner or t.source_owner == t.var:
                        self.rep.error(t, f"`{t.source_owner}` names two things in this trigger",
                                       "use another name for the owner of the zone the card comes from")
                    params.append(t.source_owner)
            sc = _Scope(self.unit_locals(params, t.body), player=bool(spec and spec.per_player))
            if t.guard is not None:
                self.expr(t.guard, sc)
            self.block(t.body, sc)
        for body in (g.setup, g.flow):
            self.block(body, _Scope(self.unit_locals([], body)))
        for ph in g.phases:
            self.block(ph.body, _Scope(self.unit_locals([], ph.body)))
        for item in g.score:
            self.expr(item.value, _Scope(set(), player=True))
        for r in g.ranking:
            self.expr(r.key, _Scope({"total", *self.components}, player=True))

    def block(self, body, sc: _Scope) -> None:
        for st in body:
            self.stmt(st, sc)

    def stmt(self, s, sc: _Scope) -> None:
        rep = self.rep
        if isinstance(s, ast.Move):
            self.expr(s.cards, sc)
            self.dest(s.dest, sc)
        elif isinstance(s, ast.Shuffle):
            self.zone_expr(s.zone, sc, "shuffle")
        elif isinstance(s, ast.Fill):
            z = self.zone_expr(s.zone, sc, "fill")
            if z is not None and z.shape != "grid":
                rep.error(s.zone, f"`fill` works on grid zones; `{z.name}` is a {z.shape}",
                          "declare the zone as `grid R by C`, or use `move top(...) to ...`")
            self.expr(s.source, sc)
        elif isinstance(s, ast.Exchange):
            self.expr(s.first, sc)
            self.expr(s.second, sc)
        elif isinstance(s, (ast.Assign, ast.Add)):
            self.assign_target(s, sc)
            self.expr(s.value if isinstance(s, ast.Assign) else s.amount, sc)
        elif isinstance(s, ast.Choose):
            self.actor(s, s.actor, sc)
            self.expr(s.source, sc)
            self.choose_opts(s.opts, s.var, sc)
        elif isinstance(s, ast.Play):
            if s.phase not in self.phases:
                rep.error(s, f"unknown phase `{s.phase}`", suggest(s.phase, self.phases) or
                          "declare it with `phase NAME:`")
        elif isinstance(s, ast.Do):
            a = self.actions.get(s.action)
            if a is None:
                rep.error(s, f"unknown action `{s.action}`", suggest(s.action, self.actions) or
                          "declare it with `action NAME(...):`")
            elif len(s.args) != len(a.params):
                rep.error(s, f"action `{s.action}` takes {len(a.params)} argument(s), not {len(s.args)}",
                          f"write `do {s.action}({', '.join(a.params)})`")
            for arg in s.args:
                self.expr(arg, sc)
        elif isinstance(s, (ast.Announce, ast.EndGame)):
            pass
        elif isinstance(s, ast.Tally):
            if not self.g.score:
                rep.error(s, "`tally` with no `score:` block", "add a `score:` block: `tally` adds its items "
                          "to each player's running totals")
        elif isinstance(s, ast.StopLoop):
            if sc.loops == 0:
                rep.error(s, "`stop` outside a loop", "`stop` leaves the innermost repeat or for each")
        elif isinstance(s, ast.If):
            for cond, body in s.branches:
                self.expr(cond, sc)
                self.block(body, sc)
            if s.otherwise:
                self.block(s.otherwise, sc)
        elif isinstance(s, ast.RepeatTimes):
            self.expr(s.count, sc)
            self.block(s.body, sc.with_(loops=sc.loops + 1))
        elif isinstance(s, ast.RepeatUntil):
            self.expr(s.cond, sc)
            self.block(s.body, sc.with_(loops=sc.loops + 1))
        elif isinstance(s, ast.ForPlayers):
            if s.start is not None:
                self.expr(s.start, sc)
            if s.among is not None:
                self.expr(s.among, sc)
            self.block(s.body, sc.with_(loops=sc.loops + 1))
        elif isinstance(s, ast.ForEach):
            self.expr(s.source, sc)
            self.block(s.body, sc.with_(loops=sc.loops + 1))
        elif isinstance(s, ast.Menu):
            self.actor(s, s.actor, sc)
            seen = set()
            for label, cond, body, pos in s.branches:
                if label in seen:
                    rep.error((pos["line"], pos["column"]), f"the choice \"{label}\" is offered twice",
                              "give each branch its own name")
                seen.add(label)
                if cond is not None:
                    self.expr(cond, sc)
                self.block(body, sc)
        elif isinstance(s, ast.Allot):
            self.allot(s, sc)
        elif isinstance(s, ast.Together):
            if s.among is not None:
                self.expr(s.among, sc)
            inner = sc.with_(player=True)
            self.expr(s.source, inner)
            self.choose_opts(s.opts, s.var, inner)
            self.block(s.body, inner.with_(loops=0))
        else:  # pragma: no cover - the parser makes no other statement
            rep.error(s, f"unknown statement {type(s).__name__}")

    def allot(self, s: ast.Allot, sc: _Scope) -> None:
        rep = self.rep
        for node, verb in ((s.source, "allot from"), (s.into, "allot into")):
            spec = self.zone_expr(node, sc, verb)
            if spec is not None and spec.shape not in ("pile", "row"):
                rep.error(node, f"`{verb}` needs a pile or a row; `{spec.name}` is a {spec.shape}",
                          "allot from and into a pile of resource cards")
        self.expr(s.targets, sc)
        for what, hint in (("wants", "wants LIST_OF_NEED_LISTS (for the target `it`)"),
                           ("serves", "serves DEFINITION (resource, need)"),
                           ("prefer", "prefer highest EXPR [then lowest EXPR]")):
            if what not in s.clause_pos:
                rep.error(s, f"`allot` needs a `{what}` line", f"add `{hint}` in its block")
        if s.wants is not None:
            self.expr(s.wants, sc.with_(element=True, locals=sc.locals | {"it"}))
        if s.serves is not None:
            d = self.defines.get(s.serves)
            pos = s.clause_pos["serves"]
            where = (pos["line"], pos["column"])
            if d is None:
                rep.error(where, f"unknown definition `{s.serves}`", suggest(s.serves, self.defines) or
                          "declare it with `define NAME(resource, need) = ...`")
            elif len(d.params) != 2:
                rep.error(where, f"`{s.serves}` takes {len(d.params)} argument(s); `serves` needs 2",
                          "define it with two parameters: a resource card and a need")
        if s.spare is not None:
            self.expr(s.spare, sc)
        if s.note is not None:
            c = self.counters.get(s.note)
            pos = s.clause_pos["note"]
            if c is None or not c.per_card:
                rep.error((pos["line"], pos["column"]), f"`note` needs a counter of each card, not `{s.note}`",
                          f"declare `counter {s.note} of each card = none`")
        for _direction, key in s.prefer:
            self.expr(key, sc)

    def actor(self, node, name: str, sc: _Scope) -> None:
        if name not in sc.locals and name not in self.counters:
            self.rep.error(node, f"unknown player `{name}`",
                           suggest(name, sc.locals | set(self.counters)) or
                           "the chooser is a player variable, such as the `p` of `for each player p`")

    def choose_opts(self, opts: ast.ChooseOpts, var: str, sc: _Scope) -> None:
        el = sc.with_(element=True, locals=sc.locals | {"it", var})
        if opts.preferring is not None:
            self.expr(opts.preferring, el)
        if opts.default_key is not None:
            self.expr(opts.default_key, el)

    def assign_target(self, s, sc: _Scope) -> None:
        name, owner = s.name, s.owner
        c = self.counters.get(name)
        if owner is not None:
            self.expr(owner, sc)
            if c is None:
                self.rep.error(s, f"unknown counter `{name}`", suggest(name, self.counters) or
                               "declare it with `counter NAME of each player = 0`")
            elif not (c.per_player or c.per_card):
                self.rep.error(s, f"counter `{name}` is shared, so `of ...` names no one", "drop `of ...`")
            return
        if c is not None and c.per_card:
            self.rep.error(s, f"counter `{name}` belongs to each card: say whose", f"write `{name} of c = ...`")
            return
        if c is not None and c.per_player:
            if not sc.player:
                self.rep.error(s, f"counter `{name}` belongs to each player: say whose",
                               f"write `{name} of p = ...`")
            return
        if isinstance(s, ast.Add) and c is None and name not in sc.locals:
            self.rep.error(s, f"unknown counter `{name}`", suggest(name, self.counters | dict.fromkeys(sc.locals)))
        if name in self.zones or name in self.options or name in self.defines or name in self.attributes:
            self.rep.error(s, f"`{name}` is not a counter or a variable, so it cannot be set")

    def dest(self, node, sc: _Scope) -> None:
        if isinstance(node, ast.Call) and node.name == "bottom":
            if len(node.args) != 1:
                self.rep.error(node, "`bottom` takes 1 argument", "write `bottom(deck)`")
            else:
                self.zone_expr(node.args[0], sc, "move to the bottom of")
            return
        if self.is_zone_ref(node, sc):
            self.zone_expr(node, sc, "move to")
        else:
            self.expr(node, sc)

    def is_zone_ref(self, node, sc) -> bool:
        if isinstance(node, ast.Name):
            return node.name in self.zones and node.name not in sc.locals
        if isinstance(node, ast.Of):
            return node.name in self.zones
        return False

    def zone_expr(self, node, sc: _Scope, verb: str) -> Optional[ZoneSpec]:
        if isinstance(node, ast.Name) and node.name in self.zones and node.name not in sc.locals:
            spec = self.zones[node.name]
            if spec.per_player and not sc.player:
                self.rep.error(node, f"zone `{node.name}` belongs to each player: say whose",
                               f"write `{node.name} of p`")
            self.names[id(node)] = ("zone", spec)
            return spec
        if isinstance(node, ast.Of) and node.name in self.zones:
            spec = self.zones[node.name]
            self.names[id(node)] = ("zone", spec)
            if isinstance(node.owner, ast.Keyword) and node.owner.word == "everyone":
                self.rep.error(node, f"cannot {verb} the zones of everyone at once", "name one player's zone")
            elif not spec.per_player:
                self.rep.error(node, f"zone `{node.name}` is shared, so `of ...` names no one", "drop `of ...`")
            else:
                self.expr(node.owner, sc)
            return spec
        name = node.name if isinstance(node, (ast.Name, ast.Of)) else None
        self.rep.error(node, f"`{verb}` needs a zone here",
                       (suggest(name, self.zones) if name else "") or "name a zone, such as `deck` or `hand of p`")
        return None

    # ---------------------------------------------------------- expressions
    def expr(self, e, sc: _Scope) -> None:
        rep = self.rep
        if isinstance(e, ast.Const) or isinstance(e, ast.Keyword):
            if isinstance(e, ast.Keyword) and e.word == "player" and not sc.player:
                rep.error(e, "`player` means nobody here",
                          "`player` is the scored player in score and winner blocks, the zone's owner in a "
                          "trigger, and the chooser in `secretly`/`race` blocks; use a variable instead")
            return
        if isinstance(e, ast.Name):
            self.names[id(e)] = self.resolve(e, sc)
            return
        if isinstance(e, ast.Attr):
            self.expr(e.target, sc)
            if e.name not in self.attributes and e.name not in PLACE_ATTRS:
                rep.error(e, f"unknown attribute `{e.name}`",
                          suggest(e.name, self.attributes + sorted(PLACE_ATTRS)) or
                          "attributes come from the card rows (`with colour red, ...`)")
            return
        if isinstance(e, ast.Of):
            if e.name in self.zones:
                spec = self.zones[e.name]
                self.names[id(e)] = ("zone", spec)
                if not spec.per_player:
                    rep.error(e, f"zone `{e.name}` is shared, so `of ...` names no one", f"write just `{e.name}`")
                if not (isinstance(e.owner, ast.Keyword) and e.owner.word == "everyone"):
                    self.expr(e.owner, sc)
            elif e.name in self.counters:
                self.names[id(e)] = ("counter", self.counters[e.name])
                c = self.counters[e.name]
                if not (c.per_player or c.per_card):
                    rep.error(e, f"counter `{e.name}` is shared, so `of ...` names no one", f"write just `{e.name}`")
                self.expr(e.owner, sc)
            elif e.name in self.attributes:
                self.names[id(e)] = ("attr", e.name)
                self.expr(e.owner, sc)
            else:
                rep.error(e, f"unknown zone, counter or attribute `{e.name}`",
                          suggest(e.name, list(self.zones) + list(self.counters) + self.attributes))
            return
        if isinstance(e, ast.Call):
            self.call(e, sc)
            return
        if isinstance(e, ast.ListExpr):
            for it in e.items:
                self.expr(it, sc)
            return
        if isinstance(e, ast.Unary):
            self.expr(e.operand, sc)
            return
        if isinstance(e, ast.Binary):
            self.expr(e.left, sc)
            self.expr(e.right, sc)
            return
        if isinstance(e, ast.IfElse):
            self.expr(e.cond, sc)
            self.expr(e.then, sc)
            self.expr(e.other, sc)
            return
        if isinstance(e, ast.Where):
            self.expr(e.source, sc)
            self.expr(e.cond, sc.with_(element=True, locals=sc.locals | {"it"}))
            return
        if isinstance(e, ast.Pick):
            self.expr(e.key, sc)
            for k, v in e.cases:
                self.expr(k, sc)
                self.expr(v, sc)
            if e.default is not None:
                self.expr(e.default, sc)
            return
        rep.error(e, f"unexpected expression {type(e).__name__}")  # pragma: no cover

    def call(self, e: ast.Call, sc: _Scope) -> None:
        rep = self.rep
        if e.name in self.defines:
            d = self.defines[e.name]
            if len(e.args) != len(d.params):
                rep.error(e, f"`{e.name}` takes {len(d.params)} argument(s), not {len(e.args)}",
                          f"write `{e.name}({', '.join(d.params)})`")
            for a in e.args:
                self.expr(a, sc)
            self.names[id(e)] = ("define", d)
            return
        if e.name not in BUILTINS:
            if e.name in self.actions:
                rep.error(e, f"`{e.name}` is an action, not a value", f"run it as a statement: `do {e.name}(...)`")
            else:
                rep.error(e, f"unknown function `{e.name}`",
                          suggest(e.name, list(BUILTINS) + list(self.defines)) or
                          "see the list of builtin functions in the language reference")
            for a in e.args:
                self.expr(a, sc)
            return
        lo, hi, per_el = BUILTINS[e.name]
        if not lo <= len(e.args) <= hi:
            want = str(lo) if lo == hi else f"{lo} or {hi}"
            rep.error(e, f"`{e.name}` takes {want} argument(s), not {len(e.args)}")
        if e.name == "bottom":
            rep.error(e, "`bottom(...)` is a place to move cards to, not a value", "write `move c to bottom(deck)`")
        self.names[id(e)] = ("builtin", e.name)
        for i, a in enumerate(e.args):
            if per_el is not None and i == per_el:
                self.expr(a, sc.with_(element=True, locals=sc.locals | {"it"}))
            elif e.name == "top" and i == 0 and not isinstance(a, (ast.Where, ast.Call)):
                self.zone_expr(a, sc, "take the top of")
            else:
                self.expr(a, sc)

    def resolve(self, e: ast.Name, sc: _Scope):
        n = e.name
        if sc.element and n in self.attributes and n not in sc.locals:
            return ("attr", n)
        if n in sc.locals:
            return ("local", n)
        if n in self.counters:
            c = self.counters[n]
            if c.per_player and not sc.player:
                self.rep.error(e, f"counter `{n}` belongs to each player: say whose", f"write `{n} of p`")
            if c.per_card:
                self.rep.error(e, f"counter `{n}` belongs to each card: say whose", f"write `{n} of c`")
            return ("counter", c)
        if n in self.zones:
            spec = self.zones[n]
            if spec.per_player and not sc.player:
                self.rep.error(e, f"zone `{n}` belongs to each player: say whose", f"write `{n} of p`")
            return ("zone", spec)
        if n in self.options:
            return ("option", n)
        if n in self.defines:
            d = self.defines[n]
            if d.params:
                self.rep.error(e, f"`{n}` takes {len(d.params)} argument(s)", f"write `{n}({', '.join(d.params)})`")
            return ("define", d)
        if n in self.card_types:
            return ("cardtype", n)
        if n in self.symbols:
            return ("symbol", n)
        if n in self.attributes:
            self.rep.error(e, f"`{n}` is a card attribute: say whose",
                           f"write `c.{n}` for a card c, or use it inside `where`")
            return ("symbol", n)
        cands = (list(sc.locals) + list(self.counters) + list(self.zones) + list(self.options) +
                 list(self.defines) + list(self.symbols) + list(self.card_types) +
                 (self.attributes if sc.element else []))
        self.rep.error(e, f"unknown name `{n}`", suggest(n, cands) or
                       "it is not a variable, counter, zone, option, definition or card value")
        return ("symbol", n)

    # ------------------------------------------------------ whole-game checks
    def check_reachability(self) -> None:
        g = self.g
        graph = nx.DiGraph()
        graph.add_node("flow")
        units = [("flow", g.flow), ("setup", g.setup)] + [(f"phase:{p.name}", p.body) for p in g.phases] + \
                [(f"action:{a.name}", a.body) for a in g.actions] + \
                [(f"trigger:{i}", t.body) for i, t in enumerate(g.triggers)]
        for key, body in units:
            graph.add_node(key)
            for n in ast.walk(body):
                if isinstance(n, ast.Play) and n.phase in self.phases:
                    graph.add_edge(key, f"phase:{n.phase}")
                elif isinstance(n, ast.Do) and n.action in self.actions:
                    graph.add_edge(key, f"action:{n.action}")
        roots = ["flow", "setup"] + [f"trigger:{i}" for i in range(len(g.triggers))]
        reach = set()
        for r in roots:
            reach |= {r} | nx.descendants(graph, r)
        for p in g.phases:
            if f"phase:{p.name}" not in reach:
                self.rep.error(p, f"phase `{p.name}` is never played",
                               f"add `play {p.name}` to the flow or to a phase, or remove the phase")
        for a in g.actions:
            if f"action:{a.name}" not in reach:
                self.rep.warning(a, f"action `{a.name}` is never done", f"use it with `do {a.name}(...)`")
        # Phases that play each other: one error per group (strongly connected component), found in
        # linear time; listing every simple cycle can take exponential time and memory.
        order = {f"phase:{p.name}": i for i, p in enumerate(g.phases)}
        only_phases = graph.subgraph(order)
        for comp in nx.strongly_connected_components(only_phases):
            first = min(comp, key=order.get)
            if len(comp) == 1 and not only_phases.has_edge(first, first):
                continue
            cyc = _cycle_through(only_phases, comp, first)
            names = [c.split(":", 1)[1] for c in cyc]
            node = self.phases[names[0]]
            more = f"; {len(comp)} phases play each other" if len(comp) > len(names) - 1 else ""
            shown = names if len(names) <= 8 else names[:7] + ["...", names[-1]]
            self.rep.error(node, f"phase `{names[0]}` plays itself (" + " -> ".join(shown) + ")" + more,
                           "use `repeat` inside a phase instead of playing it again")

    def check_trigger_cycles(self) -> None:
        trig = self.g.triggers
        graph = nx.DiGraph()
        for i, t in enumerate(trig):
            graph.add_node(i)
        body_moves = {i: self.moves_in(t.body) for i, t in enumerate(trig)}
        for i, t in enumerate(trig):
            for dest, _src in body_moves[i]:
                for j, u in enumerate(trig):
                    if u.zone == dest:
                        graph.add_edge(i, j)
        # One warning per group of triggers that can fire each other (a strongly connected
        # component), not one per cycle: the number of cycles can grow exponentially.
        for comp in nx.strongly_connected_components(graph):
            first = min(comp)
            if len(comp) == 1 and not graph.has_edge(first, first):
                continue
            zones = {trig[i].zone for i in comp}
            consumes = any(src and not (src <= zones) for i in comp for _d, src in body_moves[i])
            if not consumes:
                cyc = _cycle_through(graph, comp, first)
                labels = [trig[i].label for i in cyc]
                if len(labels) > 8:
                    labels = labels[:7] + ["...", labels[-1]]
                self.rep.warning(trig[cyc[0]], f"these triggers can fire each other forever without using "
                                               f"anything up: {' -> '.join(labels)}",
                                 "give one a guard (`if ...`) or make it take cards from a zone that runs out")

    def check_define_cycles(self) -> None:
        """A definition may not use itself, directly or through other definitions.

        A definition is a formula: it has no statement that could stop a repetition, so one that
        uses itself would never finish (repeat with `repeat` or `for each` in an action instead).
        """
        g = self.g
        graph = nx.DiGraph()
        order = {d.name: i for i, d in enumerate(g.defines)}
        for d in g.defines:
            graph.add_node(d.name)
            for n in ast.walk(d.body):
                if isinstance(n, (ast.Call, ast.Name)):
                    kind = self.names.get(id(n), (None, None))
                    if kind[0] == "define" and getattr(kind[1], "name", None) in order:
                        graph.add_edge(d.name, kind[1].name)
        for comp in nx.strongly_connected_components(graph):
            first = min(comp, key=order.get)
            if len(comp) == 1 and not graph.has_edge(first, first):
                continue
            cyc = _cycle_through(graph, comp, first)
            if len(cyc) > 8:
                cyc = cyc[:7] + ["...", cyc[-1]]
            how = "itself" if len(comp) == 1 else "itself through other definitions (" + " -> ".join(cyc) + ")"
            self.rep.error(self.defines[first], f"definition `{first}` uses {how}",
                           "a definition is a formula and cannot repeat; repeat with `repeat` or "
                           "`for each` in an action instead")

    def moves_in(self, body) -> list:
        """(destination zone, set of source zones) for each move in ``body``.

        A card variable chosen from a zone counts as coming from that zone.
        """
        chosen: dict = {}
        for n in ast.walk(body):
            if isinstance(n, (ast.Choose, ast.Together)):
                chosen[n.var] = self.zone_names(n.source)
        out = []
        for n in ast.walk(body):
            if isinstance(n, ast.Move):
                dest = n.dest.args[0] if isinstance(n.dest, ast.Call) and n.dest.args else n.dest
                dname = dest.name if isinstance(dest, (ast.Name, ast.Of)) and dest.name in self.zones else None
                src = self.zone_names(n.cards)
                for name in [x.name for x in ast.walk(n.cards) if isinstance(x, ast.Name)]:
                    src |= chosen.get(name, set())
                if dname:
                    out.append((dname, src))
        return out

    def zone_names(self, e) -> set:
        return {x.name for x in ast.walk(e) if isinstance(x, (ast.Name, ast.Of)) and x.name in self.zones}


def _cycle_through(graph, comp, first) -> list:
    """A shortest cycle through ``first`` inside the strongly connected ``comp``: [first, ..., first]."""
    if graph.has_edge(first, first):
        return [first, first]
    sub = graph.subgraph(comp)
    best = None
    for nxt in sub.successors(first):
        path = nx.shortest_path(sub, nxt, first)
        if best is None or len(path) < len(best):
            best = path
    return [first] + best
