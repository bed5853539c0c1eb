"""The expression half of the checker: names resolved, a type for every expression.

:class:`ExprChecker` gives each expression of a game file a :class:`~catrules.check.types.Type` and
reports type mistakes (a number where a card is needed, a value that may be none used
unchecked...); the types themselves and the rules they follow are in :mod:`catrules.check.types`.
"""

from __future__ import annotations

from ..lang import ast
from ..errors import suggest
from . import strictness
from .families import is_family_form
from .option_values import option_type
from .types import (ANY, BOOL, BUILTINS, CARD, LINE, LISTY, NONE, NUMBER, PLACE, PLACE_ATTRS, PLACE_ATTR_TYPES,
                    MAYBE_NONE_BUILTINS, PLAYER, SYMBOL, Scope, TEXT, Type, _none_hint, cards_of,
                    describe, element, family, join, list_of, not_none, path, uses_element)


class ExprChecker:
    """The expression half of the checker: resolves each name, gives each expression
    a :class:`Type` (kept in ``self.types``) and reports type mistakes.

    Mixed into :class:`catrules.check.checker._Checker`, which provides the tables
    (zones, counters, attributes...) and the reporter.
    """

    # ------------------------------------------------------------ helpers
    def local_type(self, sc: Scope, n: str) -> Type:
        if n in sc.elem:
            return sc.elem[n]
        return self.local_types.get((sc.unit, n), ANY)

    def note_local(self, sc: Scope, n: str, t: Type) -> None:
        key = (sc.unit, n)
        self._local_new[key] = join(self._local_new.get(key), t)

    def note_counter(self, n: str, t: Type) -> None:
        declared = self.declared.get(n)
        self._counter_new[n] = declared if declared is not None else join(self._counter_new.get(n), t)

    def note_args(self, key, types) -> None:
        for i, t in enumerate(types):
            self._param_new[key + (i,)] = join(self._param_new.get(key + (i,)), t)

    def params_of(self, key, params) -> dict:
        """The types of parameters, from the arguments given; a value that may be none is
        reported where it is passed (``ZONE of X``...), not inside the definition."""
        return {p: self.param_types.get(key + (i,), ANY).maybe(False) for i, p in enumerate(params)}

    def strict(self, check: str, node, message: str, hint: str = "") -> None:
        """A check that came after some files were written: an error from the version that brought
        it, a warning with the fix in older files (:mod:`catrules.check.strictness`)."""
        strictness.report(self.rep, self.g.version, check, node, message, hint)

    @staticmethod
    def none_check(t: Type) -> str:
        """Which check a value that may be none falls under: the first one, or one added later."""
        if t.kind == "none":
            return "none"
        return "maybe-none-late" if t.late else "maybe-none"

    def need_number(self, node, t: Type, what: str, hint: str = "") -> None:
        if t.kind == "none" or t.none:
            self.strict(self.none_check(t), node, f"{what} needs a number, and this may be none", _none_hint(node))
        elif family(t) not in (None, "number"):
            self.rep.error(node, f"{what} needs a number; this is {describe(t)}",
                           hint or "count a list with `count(...)`, add numbers up with `sum(...)`")

    def need_owner(self, node, owner, t: Type, what: str, want: str, check: str = "") -> None:
        """``ZONE of X``, ``COUNTER of X``: X must be a ``want`` (player or card) and not none.
        ``check``: the check a mistake falls under when it is not the first typed checker's."""
        if t.kind == "none" or t.none:
            self.strict(check or self.none_check(t), owner, f"`{what} of ...` needs {want}, and this may be none",
                        _none_hint(owner))
        elif family(t) not in (None, "number" if want == "a player" else "card"):
            report = (lambda *a: self.strict(check, *a)) if check else self.rep.error
            report(owner, f"`{what} of ...` needs {want}; this is {describe(t)}",
                           "name a player, such as the `p` of `for each player p`, `owner(c)` or `next(p)`"
                           if want == "a player" else "name a card, such as the `c` of `for each c in ...`")

    def element_scope(self, src_node, src_t: Type, sc: Scope, inner, binder) -> Scope:
        """The scope of ``inner``, evaluated once per element of ``src_node``."""
        el = element(src_t)
        if isinstance(src_node, ast.Where) and src_node.var:
            return sc.bind(src_node.var, el)
        if sc.element and inner is not None and uses_element(inner, self.attributes, sc.elem.get("it", ANY)):
            self.rep.warning(binder, "this `it` hides the `it` of the list around it",
                             "name the element: `each c in LIST where c.value > 3`, "
                             "`sum(each c in LIST, c.value)`")
        return sc.bind("it", el, element=True)

    # ---------------------------------------------------------- texts
    def allow_texts(self, e) -> None:
        """``e`` is said (a text position): a text with values is allowed in it, also as a
        branch of ``if ... then ... else`` or a case of ``pick``."""
        stack = [e]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.Text):
                self.texts_ok.add(id(n))
            elif isinstance(n, ast.IfElse):
                stack += [n.then, n.other]
            elif isinstance(n, ast.Pick):
                stack += [v for _k, v in n.cases] + ([n.default] if n.default is not None else [])

    def text_expr(self, e, sc: Scope, what: str) -> None:
        """A text that is said: ``announce``, ``asking``, a tally's title, a card's face."""
        self.allow_texts(e)
        t = self.expr(e, sc)
        if t.kind not in ("any", "text"):
            self.rep.error(e, f"{what} says a text; this is {describe(t)}",
                           'write it in quotes, with values in braces: "{p} wins"')

    # ---------------------------------------------------------- expressions
    def expr(self, e, sc: Scope) -> Type:
        t = self._expr(e, sc)
        if t.none and sc.narrow and path(e) in sc.narrow:
            t = t.maybe(False)
        self.types[id(e)] = t
        return t

    def _expr(self, e, sc: Scope) -> Type:
        for kind in type(e).__mro__:
            check = _EXPR_CHECKS.get(kind)
            if check is not None:
                return getattr(self, check)(e, sc)
        self.rep.error(e, f"unexpected expression {type(e).__name__}")  # pragma: no cover
        return ANY

    # the type of each kind of expression (see _EXPR_CHECKS)
    def expr_const(self, e: ast.Const, sc: Scope) -> Type:
        v = e.value
        return NONE if v is None else BOOL if isinstance(v, bool) else NUMBER if isinstance(v, int) else TEXT

    def expr_keyword(self, e: ast.Keyword, sc: Scope) -> Type:
        if e.word == "player" and not sc.player:
            self.rep.error(e, "`player` means nobody here",
                           "`player` is the scored player in score and winner blocks, the zone's owner in a "
                           "trigger, and the chooser in `secretly`/`race` blocks; use a variable instead")
        return PLAYER if e.word == "player" else list_of(PLAYER)

    def expr_name(self, e: ast.Name, sc: Scope) -> Type:
        r = self.names[id(e)] = self.resolve(e, sc)
        kind = r[0]
        if kind == "local":
            self.reads.add((sc.unit, e.name))
            return self.local_type(sc, e.name)
        if kind == "attr":
            return self.attr_types.get(e.name, ANY)
        if kind == "counter":
            return self.counter_types.get(e.name, ANY)
        if kind == "zone":
            return Type("zone", CARD)
        if kind == "family":
            return list_of(CARD)
        if kind == "option":
            return option_type(self.options[e.name])
        if kind == "define":
            return self.define_types.get(e.name, ANY)
        if kind == "cardtype":
            return list_of(cards_of([e.name]))
        return SYMBOL if e.name in self.symbols else ANY

    def expr_attr(self, e: ast.Attr, sc: Scope) -> Type:
        rep = self.rep
        tt = self.expr(e.target, sc)
        if e.name not in self.attributes and e.name not in PLACE_ATTRS:
            rep.error(e, f"unknown attribute `{e.name}`",
                      suggest(e.name, self.attributes + sorted(PLACE_ATTRS)) or
                      "attributes come from the card rows (`with colour red, ...`)")
            return ANY
        if tt.kind in ("number", "bool", "symbol", "text", "player", "list", "zone"):
            rep.error(e, f"`.{e.name}` is an attribute of a card or a place; this is {describe(tt)}",
                      "write `c.NAME` for a card c, or use the attribute inside `where`")
            return ANY
        if e.name in self.attributes and e.name in PLACE_ATTRS:
            t = ANY
        elif e.name in self.attributes:
            t = self.attr_types.get(e.name, ANY)
        else:
            t = PLACE_ATTR_TYPES[e.name]
        return t.maybe() if tt.none else t

    def expr_list(self, e: ast.ListExpr, sc: Scope) -> Type:
        t = None
        for it in e.items:
            t = join(t, self.expr(it, sc))
        return list_of(t or ANY)

    def expr_unary(self, e: ast.Unary, sc: Scope) -> Type:
        t = self.expr(e.operand, sc)
        if e.op == "not":
            return BOOL
        self.need_number(e.operand, t, "`-`")
        return NUMBER

    def expr_if_else(self, e: ast.IfElse, sc: Scope) -> Type:
        self.expr(e.cond, sc)
        a = self.expr(e.then, sc.knowing(not_none(e.cond, True)))
        b = self.expr(e.other, sc.knowing(not_none(e.cond, False)))
        return join(a, b)

    def expr_where(self, e: ast.Where, sc: Scope) -> Type:
        src = self.expr(e.source, sc)
        el = element(src)
        if e.cond is not None:
            if e.var:
                inner = sc.bind(e.var, el)
            else:
                inner = self.element_scope(e.source, src, sc, e.cond, e)
            self.expr(e.cond, inner)
            if (e.var or "it") in not_none(e.cond, True):
                el = el.maybe(False)          # `where it != none`: the elements kept are someone
        return list_of(el)

    def expr_text(self, e: ast.Text, sc: Scope) -> Type:
        if id(e) not in self.texts_ok:
            self.rep.error(e, "a text with values in braces can only be said: in `announce`, `asking`, "
                              "`tally`, a card's `show`/`describe`, or a definition",
                           "keep the values in variables, and write the text where it is said")
        for part in e.parts:
            if not isinstance(part, str):
                self.expr(part, sc)
        return TEXT

    def expr_pick(self, e: ast.Pick, sc: Scope) -> Type:
        kt = self.expr(e.key, sc)
        t, never = None, []
        for k, v in e.cases:
            ct = self.expr(k, sc)
            if family(kt) and family(ct) and family(kt) != family(ct):
                never.append((k, ct))
            t = join(t, self.expr(v, sc))
        if e.default is not None:
            t = join(t, self.expr(e.default, sc))
        if never:
            self.pick_never_matches(e, kt, never)
        return t or ANY

    def pick_never_matches(self, e: ast.Pick, kt: Type, never: list) -> None:
        """Cases of ``pick`` that can never equal its key: a warning (a file that checked before
        keeps checking), at the key when no case can match, else at each case that cannot."""
        hint = ("count a list with `count(...)`: `pick(count(players), 2: 6, else: 4)`"
                if family(kt) == "list" else "compare like with like: a number with numbers, a card's "
                                             "attribute with its values (`pick(c.colour, red: 3, else: 0)`)")
        then = "it always gives its `else` value" if e.default is not None else "the game stops at it"
        if len(never) == len(e.cases):
            self.rep.warning(e.key, f"this `pick` compares {describe(kt)} with its cases, each "
                                    f"{describe(never[0][1])}: no case can match, so {then}", hint)
            return
        for k, ct in never:
            self.rep.warning(k, f"this case of `pick` is {describe(ct)} and the key is {describe(kt)}, "
                                f"so it never matches", hint)

    def binary(self, e: ast.Binary, sc: Scope) -> Type:
        op, rep = e.op, self.rep
        if op in ("and", "or"):
            self.expr(e.left, sc)
            self.expr(e.right, sc.knowing(not_none(e.left, op == "and")))
            return BOOL
        lt = self.expr(e.left, sc)
        self.compared = (_attribute_of(e.left, self.attributes, sc)
                         if op in ("==", "!=", "in", "not in") and isinstance(e.right, (ast.Name, ast.ListExpr))
                         else None)
        try:
            rt = self.expr(e.right, sc)
        finally:
            self.compared = None
        if op in ("==", "!="):
            fa, fb = family(lt), family(rt)
            if fa and fb and fa != fb:
                self.strict("compare-kinds", e, f"this compares {describe(lt)} with {describe(rt)}, so it is always "
                             f"{'false' if op == '==' else 'true'}",
                          "compare like with like: a player with a player (`p == leader`), "
                          "a card's attribute with a card value (`c.colour == green`)")
            return BOOL
        if op in ("in", "not in"):
            fb = family(rt)
            if fb not in (None, "list"):
                rep.error(e.right, f"`{op}` needs a list on its right; this is {describe(rt)}",
                          "write `x in LIST`, such as `c in hand of p` or `colour in [red, green]`")
            else:
                fa, fe = family(lt), family(element(rt))
                if fa and fe and fa != fe:
                    self.strict("compare-kinds", e, f"this looks for {describe(lt)} in {describe(rt)}, so it is always "
                                 f"{'false' if op == 'in' else 'true'}", "look for like in like")
            return BOOL
        if op in ("<", ">", "<=", ">="):
            for node, t in ((e.left, lt), (e.right, rt)):
                if family(t) not in (None, "number", "player"):
                    rep.error(node, f"`{op}` compares numbers; this is {describe(t)}",
                              "compare numbers, such as `c.value > 3` or `count(hand of p) < 2`")
            return BOOL
        if op == "+" and {lt.kind, rt.kind} <= {*LISTY, "any"} and {lt.kind, rt.kind} != {"any"}:
            return list_of(join(element(lt), element(rt)))
        self.need_number(e.left, lt, f"`{op}`")
        self.need_number(e.right, rt, f"`{op}`")
        return NUMBER

    def of(self, e: ast.Of, sc: Scope) -> Type:
        rep = self.rep
        if e.key is not None or e.name in self.families:
            return self.family_ref(e, sc)
        if e.name in self.zones:
            spec = self.zones[e.name]
            self.names[id(e)] = ("zone", spec)
            if not spec.per_player:
                rep.error(e, f"zone `{e.name}` is shared, so `of ...` names no one", f"write just `{e.name}`")
            elif not (isinstance(e.owner, ast.Keyword) and e.owner.word == "everyone"):
                self.need_owner(e, e.owner, self.expr(e.owner, sc), e.name, "a player")
            return Type("zone", CARD)
        if e.name in self.counters:
            self.names[id(e)] = ("counter", self.counters[e.name])
            c = self.counters[e.name]
            ot = self.expr(e.owner, sc)
            if not (c.per_player or c.per_card):
                rep.error(e, f"counter `{e.name}` is shared, so `of ...` names no one", f"write just `{e.name}`")
            else:
                self.need_owner(e, e.owner, ot, e.name, "a player" if c.per_player else "a card")
            return self.counter_types.get(e.name, ANY)
        if e.name in self.attributes:
            self.names[id(e)] = ("attr", e.name)
            ot = self.expr(e.owner, sc)
            t = self.attr_types.get(e.name, ANY)
            return t.maybe() if ot.none else t
        if e.name not in self.rejected:         # else its declaration was refused, with an error
            rep.error(e, f"unknown zone, counter or attribute `{e.name}`",
                      suggest(e.name, list(self.zones) + list(self.counters) + self.attributes))
        self.expr(e.owner, sc)
        return ANY

    def call(self, e: ast.Call, sc: Scope) -> Type:
        rep = self.rep
        if e.name in self.families and e.name not in self.defines:
            return self.family_ref(e, sc)
        self.check_up_to_places(e)
        if e.name in self.defines:
            d = self.defines[e.name]
            if len(e.args) != len(d.params):
                rep.error(e, f"`{e.name}` takes {len(d.params)} argument(s), not {len(e.args)}",
                          f"write `{e.name}({', '.join(d.params)})`")
            self.note_args(("define", e.name), [self.expr(a, sc) for a in e.args])
            self.names[id(e)] = ("define", d)
            return self.define_types.get(e.name, ANY)
        if e.name not in BUILTINS:
            if e.name in self.actions:
                rep.error(e, f"`{e.name}` is an action, not a value", f"run it as a statement: `do {e.name}(...)`")
            elif e.name not in self.rejected:   # else its declaration was refused, with an error
                rep.error(e, f"unknown function `{e.name}`",
                          suggest(e.name, list(BUILTINS) + list(self.defines)) or
                          "see the list of builtin functions in the language reference")
            # the arguments may be per element (`sum(l, value)` misspelt): no follow-on errors
            for i, a in enumerate(e.args):
                self.expr(a, sc if i == 0 else sc.bind("it", ANY, element=True))
            return ANY
        lo, hi, per_el = BUILTINS[e.name]
        if not lo <= len(e.args) <= hi:
            want = str(lo) if lo == hi else f"{lo} or {hi}"
            rep.error(e, f"`{e.name}` takes {want} argument(s), not {len(e.args)}")
        if e.name == "bottom":
            rep.error(e, "`bottom(...)` is a place to move cards to, not a value", "write `move c to bottom(deck)`")
        self.names[id(e)] = ("builtin", e.name)
        if e.name == "tallied":
            self.tallied(e)
        ts = []
        for i, a in enumerate(e.args):
            if e.name == "tallied" and i == 1:
                ts.append(ANY)                # a score item's name, checked by tallied()
                continue
            if i == 1 and per_el == 1 and e.name in ("max", "min") and ts[0].kind == "number":
                t = self.expr(a, sc)          # max(a, b) of two numbers: b is not per element
                self.need_number(a, t, f"`{e.name}(a, b)`")
            elif i == 1 and per_el == 1:
                t = self.expr(a, self.element_scope(e.args[0], ts[0], sc, a, e))
            elif e.name == "top" and i == 0 and not isinstance(a, (ast.Where, ast.Call)):
                self.zone_expr(a, sc, "take the top of")
                t = Type("zone", CARD)
                self.types[id(a)] = t
            else:
                t = self.expr(a, sc)
            ts.append(t)
        if len(ts) < lo:
            return ANY
        want = {"next": "number", "previous": "number", "others": "number", "owner": "card"}.get(e.name)
        if want == "number" and (ts[0].kind == "none" or ts[0].none):
            self.strict(self.none_check(ts[0]), e.args[0], f"`{e.name}` needs a player, and this may be none",
                        _none_hint(e.args[0]))
        elif e.name in ("sum", "max", "min") and self.adds_none(ts):
            self.strict("maybe-none-late", e.args[-1], f"`{e.name}` adds numbers, and this may be none"
                        if e.name == "sum" else f"`{e.name}` compares numbers, and this may be none",
                        _none_hint(e.args[-1]) if len(e.args) == 1 else
                        "give the counter a start value, or leave none out: `... where ... != none`")
        elif want and family(ts[0]) not in (None, want):
            rep.error(e.args[0], f"`{e.name}` needs {'a player' if want == 'number' else 'a card'}; "
                                 f"this is {describe(ts[0])}",
                      f"write `{e.name}(p)` for a player p" if want == "number" else "write `owner(c)` for a card c")
        t = self.builtin_type(e.name, ts)
        if e.name == "owner" and self.from_shared_zone(e.args[0]):
            t = t.maybe(late=True)        # a card drawn from a shared zone has no owner
        if (isinstance(e.args[0], ast.Keyword) and e.args[0].word != "player") or \
                "some " + str(path(e.args[0])) in sc.narrow:
            t = t.maybe(False)            # there is always a player; a list known not to be empty
        return t

    def from_shared_zone(self, card) -> bool:
        """Is ``card`` taken from a shared zone (``top(deck)``, ``first(pool where ...)``)? Its
        owner is then none.  Of a card whose zone the checker cannot tell, ``owner`` is taken
        to be someone (a correct game is never refused for what the checker does not know)."""
        if not (isinstance(card, ast.Call) and card.name in MAYBE_NONE_BUILTINS and card.args):
            return False
        src = card.args[0]
        while isinstance(src, ast.Where):
            src = src.source
        spec = self.names.get(id(src))
        return bool(spec and spec[0] == "zone" and not spec[1].per_player)

    @staticmethod
    def adds_none(ts: list) -> bool:
        """``sum``/``max``/``min`` over values that may be none (a counter that starts as none)."""
        if len(ts) == 2 and ts[0].kind in LISTY:
            return ts[1].none and ts[1].kind != "any"
        return len(ts) == 1 and element(ts[0]).none and element(ts[0]).kind != "any"

    @staticmethod
    def builtin_type(name: str, ts: list) -> Type:
        if name in ("count", "sum", "abs", "max", "min", "tallied"):
            return NUMBER
        if name == "any":
            return BOOL
        if name in MAYBE_NONE_BUILTINS and name != "owner" and not (name == "top" and len(ts) == 2):
            return element(ts[0]).maybe()
        if name == "top":
            return list_of(element(ts[0]))
        if name in ("owner", "next", "previous"):
            return PLAYER
        if name == "others":
            return list_of(PLAYER)
        if name in ("rows", "columns", "lines"):
            return list_of(LINE)
        if name == "places":
            return list_of(PLACE)
        if name == "range":
            return list_of(NUMBER)
        if name in ("copies", "collect"):
            return list_of(ts[0] if name == "copies" else ts[1])
        if name == "join":
            return list_of(element(element(ts[0])))
        return ANY

    def resolve(self, e: ast.Name, sc: Scope):
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
        if n in self.families:
            fam = self.families[n]
            if fam.spec.per_player and not sc.player:
                self.rep.error(e, f"zone `{n}` belongs to each player: say whose", f"write `{n} of p`")
            return ("family", fam)
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
        if n not in self.rejected:              # else its declaration was refused, with an error
            self.rep.error(e, f"unknown name `{n}`", _unknown_hint(n, cands, self.compared, self.attr_words))
        return ("symbol", n)

    def zone_expr(self, node, sc: Scope, verb: str):
        if is_family_form(node, self.families) and not (isinstance(node, ast.Name) and node.name in sc.locals):
            self.family_ref(node, sc, verb)
            r = self.names.get(id(node))
            return r[1] if r and r[0] == "zone" else None
        if isinstance(node, ast.Name) and node.name in self.zones and node.name not in sc.locals:
            spec = self.zones[node.name]
            if spec.per_player and not sc.player:
                self.rep.error(node, f"zone `{node.name}` belongs to each player: say whose",
                               f"write `{node.name} of p`")
            self.names[id(node)] = ("zone", spec)
            self.types[id(node)] = Type("zone", CARD)
            return spec
        if isinstance(node, ast.Of) and node.name in self.zones:
            spec = self.zones[node.name]
            self.names[id(node)] = ("zone", spec)
            self.types[id(node)] = Type("zone", CARD)
            if isinstance(node.owner, ast.Keyword) and node.owner.word == "everyone":
                self.rep.error(node, f"cannot {verb} the zones of everyone at once", "name one player's zone")
            elif not spec.per_player:
                self.rep.error(node, f"zone `{node.name}` is shared, so `of ...` names no one", "drop `of ...`")
            else:
                self.need_owner(node, node.owner, self.expr(node.owner, sc), node.name, "a player")
            return spec
        name = node.name if isinstance(node, (ast.Name, ast.Of)) else None
        self.rep.error(node, f"`{verb}` needs a zone here",
                       (suggest(name, self.zones) if name else "") or "name a zone, such as `deck` or `hand of p`")
        return None


#: The type of each kind of expression: a method of :class:`ExprChecker`.
_EXPR_CHECKS = {
    ast.Const: "expr_const", ast.Keyword: "expr_keyword", ast.Name: "expr_name", ast.Attr: "expr_attr",
    ast.Of: "of", ast.Call: "call", ast.ListExpr: "expr_list", ast.Unary: "expr_unary", ast.Binary: "binary",
    ast.IfElse: "expr_if_else", ast.Where: "expr_where", ast.Text: "expr_text", ast.Pick: "expr_pick",
    ast.UpTo: "expr_up_to",
}


def _attribute_of(e, attributes, sc):
    """The card attribute ``e`` reads (``c.colour``, or ``colour`` alone inside ``where``), else None."""
    if isinstance(e, ast.Attr):
        return e.name
    if isinstance(e, ast.Name) and e.name in attributes and sc.element and e.name not in sc.locals:
        return e.name
    return None


def _unknown_hint(n: str, cands: list, compared=None, attr_words=None) -> str:
    """The hint of an unknown name: compared with a card attribute, that attribute's words; a
    builtin function written without its brackets; a name in other capitals (names are
    case-sensitive); the nearest name; or what a name may be."""
    words = (attr_words or {}).get(compared) if compared else None
    if words:
        near = suggest(n, words)
        listed = ", ".join(f"`{w}`" for w in words[:12]) + (", ..." if len(words) > 12 else "")
        return (f"{near} " if near else "") + f"a card's `{compared}` is one of {listed}"
    if n in BUILTINS:
        return f"`{n}` is a function: give it its arguments in brackets, such as `{n}(...)`"
    same = [c for c in list(cands) + ["true", "false", "none"] if c.lower() == n.lower()]
    if same:
        return f"names are case-sensitive: write `{same[0]}`"
    return suggest(n, cands) or "it is not a variable, counter, zone, option, definition or card value"
