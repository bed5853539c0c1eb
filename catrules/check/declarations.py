"""Declarations: the names a game file declares, and what each one is.

Options, zones (with their :class:`ZoneSpec`: shared or per player, who sees
them, their shape), card types and their rows (the card attributes, and the
symbols among their values), counters, definitions, actions, phases and score
items: each name means one thing, and a name the language uses, or one that is
already taken, is refused with a hint.  :class:`DeclarationChecks` is part of
the checker (:mod:`catrules.check.checker`), which runs it before the bodies.
"""

from __future__ import annotations

from ..lang import ast
from . import strictness
from .checked import ZoneSpec
from .visibility import check_counter_secret, check_zone_visibility, zone_visibility
from ..errors import suggest
from ..lang.parser import keywords
from .types import CARD, NUMBER, PLAYER, SYMBOL, TEXT, Type, describe, family, join, value_type

#: the types a counter may declare (``counter leader: player = 0``)
COUNTER_TYPES = {"player": PLAYER, "number": NUMBER, "card": CARD, "symbol": SYMBOL, "text": TEXT}

VISIBILITIES = ("public", "owner", "hidden")
SHAPES = ("pile", "row", "grid", "lines")


class DeclarationChecks:
    """Mixed into the checker: fills its name tables (``self.zones``, ``self.counters``...) from
    ``self.g``, reporting to ``self.rep``."""

    def _taken(self, name: str):
        for kind, table in (("zone", self.zones), ("zone", self.families), ("counter", self.counters), ("option", self.options),
                            ("definition", self.defines), ("action", self.actions), ("phase", self.phases),
                            ("card type", self.card_types)):
            if name in table:
                return kind
        return None

    def _declare(self, table: dict, node, name: str, kind: str, value) -> None:
        if name in keywords(self.g.version):
            self.rep.error(node, f"`{name}` is a word of the language, so it cannot name a {kind}",
                           f"call it something else, such as `my_{name}`")
            self.rejected.setdefault(name, kind)    # its uses are not reported again
            return
        other = self._taken(name)
        if other:
            hint = f"give this {kind} another name"
            if self.g.extends is not None and other == kind:      # a variant changes its base explicitly
                hint += f", or write `replace` before it to change the base game's {kind}"
            self.rep.error(node, f"`{name}` is already the name of a {other}", hint)
            self.rejected.setdefault(name, kind)
            return
        table[name] = value

    def declare(self) -> None:
        g, rep = self.g, self.rep
        for opt in g.options:
            self._declare(self.options, opt, opt.name, "option", opt)
        for z in g.zones:
            spec = self.zone_spec(z, len(self.zones))
            self._declare(self.families if spec.per else self.zones, z, z.name, "zone", spec)
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
        self.expand_families()
        for a in self.attributes:
            if a in keywords(self.g.version):
                rep.error(self.g.cards[0], f"card attribute `{a}` is a word of the language",
                          "rename the attribute")
            if self._taken(a):
                rep.error(self.g, f"card attribute `{a}` has the same name as a {self._taken(a)}",
                          "rename one of them")
        for c in g.counters:
            self._declare(self.counters, c, c.name, "counter", c)
            check_counter_secret(rep, c)
        for d in g.defines:
            self._declare(self.defines, d, d.name, "definition", d)
            self._check_params(d, "definition")
        for a in g.actions:
            self._declare(self.actions, a, a.name, "action", a)
            self._check_params(a, "action")
        for ph in g.phases:
            self._declare(self.phases, ph, ph.name, "phase", ph)
        if not g.flow:
            rep.error(self.g, "the game has no `flow:` block", "add `flow:` with the phases to play, in order")
        if not g.cards:
            rep.error(self.g, "the game declares no cards", "add `cards NAME in ZONE:` with card rows")
        self.check_card_values()
        seen = set()
        for item in g.score:
            if item.name in seen:
                rep.error(item, f"score item `{item.name}` appears twice")
            elif item.name in keywords(self.g.version):
                rep.error(item, f"`{item.name}` is a word of the language, so it cannot name a score item",
                          f"call it something else, such as `{item.name}_points`")
            elif self._taken(item.name) or item.name in self.attributes:
                what = self._taken(item.name) or "card attribute"
                rep.error(item, f"score item `{item.name}` has the name of a {what} of the game",
                          f"call it something else, such as `{item.name}_points`")
            seen.add(item.name)
            self.components.append(item.name)

    def declared_type(self, c: ast.Counter):
        """The type a counter declares (``counter leader: player = 0``), or ``None``."""
        if c.declared is None:
            return None
        if c.declared not in COUNTER_TYPES:
            self.rep.error(c, f"unknown type `{c.declared}` for a counter",
                           suggest(c.declared, COUNTER_TYPES) or "a counter holds a " + ", a ".join(COUNTER_TYPES))
            return None
        return COUNTER_TYPES[c.declared]

    def check_counter_value(self, node, c: ast.Counter, t: Type) -> None:
        """A value given to a counter of a declared type is of that type, and never none."""
        want = COUNTER_TYPES.get(c.declared or "")
        if want is None:
            return
        if t.kind == "none" or t.none:
            self.rep.error(node, f"counter `{c.name}` holds {describe(want)}, and this may be none",
                           "check it first (`if x != none:`), or declare the counter without a type: "
                           f"`counter {c.name} = none`")
        elif family(t) not in (None, family(want)) and not (want.kind == "player" and t.kind == "number"):
            self.rep.error(node, f"counter `{c.name}` holds {describe(want)}; this is {describe(t)}",
                           f"give it {describe(want)}, or declare another type")

    def _check_params(self, node, kind: str) -> None:
        """A parameter named twice would leave one of the two arguments unreachable."""
        seen = set()
        for name in node.params:
            if name in seen:
                self.rep.error(node, f"{kind} `{node.name}` names the parameter `{name}` twice",
                               "give each parameter its own name")
            seen.add(name)

    def check_card_values(self) -> None:
        """Each name means one thing: a card value may not be the name of a value the rules
        can name (a counter, zone, option, definition or card type: in the rules the name
        would mean that, never the card value); and learn each attribute's type from its values.
        Actions and phases are not values (`do NAME`, `play NAME`), so they may share a name."""
        seen = set()
        for ct in self.g.cards:
            for row in ct.rows:
                for k, v in row.attrs.items():
                    self.attr_types[k] = join(self.attr_types.get(k), value_type(v))
                    words = self.attr_words.setdefault(k, [])
                    words += [str(x) for x in (v if isinstance(v, tuple) else (v,))
                              if isinstance(x, ast.Sym) and str(x) not in words]
                    for item in (v if isinstance(v, tuple) else (v,)):
                        if isinstance(item, ast.Sym) and self._taken(str(item)) not in (None, "action", "phase") \
                                and (row.line, item) not in seen:
                            seen.add((row.line, item))
                            kind = self._taken(str(item))
                            strictness.report(self.rep, self.g.version, "card-value-name", row,
                                              f"card value `{item}` is also the name of a {kind}",
                                              f"in the rules `{item}` would mean the {kind}, never this "
                                              f"card value: rename the value or the {kind}")
        # a card without a value has none for it, but which cards have one is the game's
        # business: an attribute is not "maybe none" (that would flag correct games)
        self.attr_types = {k: t.maybe(False) for k, t in self.attr_types.items()}

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
            elif zone_visibility(w):
                spec.visibility = zone_visibility(w)
            elif w in (["pile"], ["row"], ["lines"]):
                spec.shape = w[0]
            elif len(w) == 4 and w[0] == "grid" and w[2] == "by" and w[1].isdigit() and w[3].isdigit():
                spec.shape, spec.rows, spec.cols = "grid", int(w[1]), int(w[3])
                if spec.rows < 1 or spec.cols < 1:
                    self.rep.error(p, "a grid needs at least one row and one column")
            elif len(w) == 3 and w[:2] == ["one", "per"] and w[2] != "player":
                spec.per = w[2]                 # a zone family (language 4): see check/families.py
            else:
                text = " ".join(w)
                known = ["shared", "per player", *VISIBILITIES, "secret", "public top", "pile", "row", "lines",
                         "grid 3 by 3", "one per ATTRIBUTE"]
                hint = suggest(text, known) or ("a zone is shared or per player; public, owner, hidden, "
                                                "secret or public top; "
                                                "a pile, a row, a grid R by C or lines; `one per ATTRIBUTE` for a family")
                self.rep.error(p, f"unknown zone property `{text}`", hint)
        if spec.visibility == "owner" and not spec.per_player:
            self.rep.error(z, f"zone `{z.name}` is shared, so it has no owner to see it",
                           "write `per player, owner` or make it public or hidden")
        check_zone_visibility(self.rep, z, spec)
        return spec
