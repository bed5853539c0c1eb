"""Expressions -> Python functions, generated once per game (like Jinja's compiler).

Each expression of a game file becomes the source of a small Python function
``f(state, vars)``, compiled with :func:`compile` when the game is loaded.
The source is produced only from the checked AST: every name becomes a
dictionary key or a column of the card table written with :func:`repr`,
every constant is written with :func:`repr`, and the functions see only the
helpers below, so a game file cannot run Python of its own.  Generating code
instead of nesting closures removes a Python call per AST node; see
``benchmarks/`` for the effect.
"""

from __future__ import annotations

import re

from ..lang import ast
from ..lang.source_text import expr as zone_words
from ..check.types import PLACE_ATTRS
from ..errors import Diagnostic, GameFileError, source_line
from ..runtime.places import PLACE_GETTERS
from ..runtime.values import GUARDS
from ..limits import NUMBER_LIMIT
from . import families
from .columns import CardColumns, Env
from .invariant import hoisted

#: generated code that only reads a local or a card's column: pure and cheap to repeat
_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z_0-9]*(\[[A-Za-z_][A-Za-z_0-9]*\])?")


#: generated code that reads a variable of the block: pure and cheap to repeat
_VAR = re.compile(r"V\['[A-Za-z_][A-Za-z_0-9]*'\]")


#: What a definition's memory (``st.memo``) holds for arguments not worked out yet.
_MISS = object()


class CodeGen(CardColumns):
    """Turns checked expressions into Python source; :meth:`function` compiles one."""

    def __init__(self, compiler):
        self.c = compiler
        self.ck = compiler.ck
        self.names = compiler.names
        self.prog = compiler.p
        self.ns: dict = dict(compiler.runtime_helpers())
        self.ns.update(GUARDS)
        self.ns.update(PLACE_GETTERS.values())
        self.count = 0
        self.defines: dict = {}
        self.calls = None               # writing a definition: the definitions it asks
        self.draws: dict = {}           # per definition: whether it draws at random
        self.ns["_MISS"] = _MISS
        self.ns["_Unhashable"] = TypeError
        #: the lean compilation (:func:`catrules.compile.compiler.compile_game` with ``lean``): a
        #: definition is written out where it is asked (see :meth:`inline`)
        self.lean = getattr(compiler, "lean", False)
        self.bodies: dict = {}          # per definition: the code of its body in its own function

    # ------------------------------------------------------------ functions
    def function(self, e, params=(), element_names=None, name="expr", sure=False):
        """Compile ``e`` to ``f(st, V, *params)``; ``element_names`` bind to the first param
        (``sure``: which can only be a card id, see :class:`Env`)."""
        env = Env()
        if element_names:
            env = Env({n: params[0] for n in element_names}, 1,
                      frozenset({params[0]}) if sure else frozenset())
        body = self._gen_top(e, env)
        self.count += 1
        fname = f"_{name}{self.count}"
        args = ", ".join(("st", "V") + tuple(params))
        src = f"def {fname}({args}):\n    return {body}\n"
        self._compile(src, e)
        fn = self.ns[fname]
        fn.source = src
        fn.body = body                  # for code that writes several expressions in one function
        return fn

    def options_function(self, source, preferring, var: str):
        """``f(st, V)``: the options of a choice from ``source`` as a list of their own, keeping
        those ``preferring`` holds for (``it`` and ``var`` name the option) if any; all otherwise."""
        src = self.listy(source, self._gen_top(source, Env()))
        self.count += 1
        fname = f"_options{self.count}"
        if preferring is None:
            body = f"    return list({src})\n"
        else:
            test = self._gen_top(preferring, Env({"it": "_it", var: "_it"}, 1,
                                                 frozenset({"_it"}) if self.sure_cards(source) else frozenset()))
            body = (f"    _o = {src}\n"
                    f"    _ok = [_it for _it in _o if {test}]\n"
                    "    return _ok if _ok else list(_o)\n")
        src_text = f"def {fname}(st, V):\n{body}"
        self._compile(src_text, preferring if preferring is not None else source)
        fn = self.ns[fname]
        fn.source = src_text
        if self.lean:                   # the same as one expression, to write in a block
            o, ok = f"_o{self.count}", f"_ok{self.count}"
            fn.inline = f"list({src})" if preferring is None else self._inline_preferring(src, test)
            fn.parts = None if preferring is None else self._preferring_parts(src, test)
        return fn

    def _preferring_parts(self, src: str, test: str) -> tuple:
        """What a straight run writes as statements for the options of a choice ``preferring``
        (no function made and called per choice, as a comprehension is): the names of the options,
        of those kept and of the side of ``test`` read once (or None), ``src``, the test, that side."""
        o, ok, k = f"_o{self.count}", f"_ok{self.count}", f"_k{self.count}"
        split = hoisted(test, k)
        test, side = split if split is not None else (test, None)
        return o, ok, (k if side is not None else None), src, test, side

    def _inline_preferring(self, src: str, test: str) -> str:
        """The options of a choice ``preferring`` as one expression (see :meth:`options_function`),
        the side of ``test`` that does not change from option to option read once when it can be
        (:mod:`catrules.compile.invariant`)."""
        o, ok, k = f"_o{self.count}", f"_ok{self.count}", f"_k{self.count}"
        split = hoisted(test, k)
        once = ""
        if split is not None:
            test, side = split
            once = f" and (not {o} or [({k} := {side})])"
        return (f"(({ok} if ({ok} := [_it for _it in {o} if {test}]) else list({o})) "
                f"if ({o} := {src}) is not None{once} else list({o}))")

    def define(self, d) -> str:
        """The global name of the function for ``define`` d, compiling it on first use.

        While the table cannot change (a score being worked out: ``st.memo`` is a dictionary,
        see :mod:`catrules.runtime.scoring`), a definition that goes over a list or asks other
        definitions keeps its value per arguments there, so that ``finished(player)`` asked by
        five score items for every player is worked out once per player.  A definition that
        draws at random (itself or through another) is never kept."""
        key = id(d)
        if self.calls is not None:      # asked while writing another definition
            self.calls.append(key)
        if key in self.defines:
            return self.defines[key]
        fname = f"_d_{d.name}"
        self.defines[key] = fname
        env = Env({p: f"_p_{p}" for p in d.params}, 1)
        saved, self.calls = self.calls, []
        try:
            body = self._gen_top(d.body, env)
            calls = self.calls
        finally:
            self.calls = saved
        # draws: itself, or a definition it asks (one still being written, as when it asks
        # itself, counts as drawing: never kept)
        draws = "_random(" in body or any(self.draws.get(c, True) for c in calls)
        self.draws[key] = draws
        self.bodies[key] = body
        args = "".join(f", _p_{p}" for p in d.params)
        if draws or not calls and " for " not in body:
            src = f"def {fname}(st{args}):\n    return {body}\n"
        else:
            self.count += 1
            kargs = "".join(f"_p_{p}, " for p in d.params)
            src = (f"def {fname}(st{args}):\n"
                   "    _m = st.memo\n"
                   "    if _m is None:\n"
                   f"        return {body}\n"
                   f"    _k = ({self.count}, {kargs})\n"
                   "    try:\n"
                   "        _v = _m.get(_k, _MISS)\n"
                   "    except _Unhashable:         # a list among the arguments: not kept\n"
                   "        _k, _v = None, _MISS\n"
                   "    if _v is _MISS:\n"
                   f"        _v = {body}\n"
                   "        if _k is not None:\n"
                   "            _m[_k] = _v\n"
                   "    return _v\n")
        self._compile(src, d.body if getattr(d.body, "line", 0) else d)    # errors point into the body
        self.ns[fname].source = src     # what it reads: catrules.runtime.reads (the score memo)
        return fname

    #: the longest body :meth:`inline` writes out where it is asked
    INLINE_LIMIT = 600

    def inline(self, d, args, env):
        """The lean compilation only: the code of definition ``d``'s body with its parameters
        standing for ``args`` (each a local, a variable of the block or a card's column, read again where
        the parameter is), to write where it is asked instead of a call; None when it stays a call (it draws at
        random or asks itself, its body is long or reads a variable of the block, an argument
        is more than a name).  An error inside it names the line where it is asked, not the
        definition's: the fast path runs the instrumented code again to report it
        (:meth:`catrules.runtime.state.State.run`)."""
        key = id(d)
        if not self.lean or self.draws.get(key, True):
            return None
        own = self.bodies.get(key, "V[")
        if "V[" in own or len(own) > self.INLINE_LIMIT or not all(_SIMPLE.fullmatch(a) or _VAR.fullmatch(a) for a in args):
            return None
        body = self.gen(d.body, Env(dict(zip(d.params, args)), env.depth, env.sure))
        return f"({body})" if len(body) <= 4 * self.INLINE_LIMIT else None

    def _gen_top(self, e, env) -> str:
        """The code of a whole expression; a guard turns a slip past the checker into a located error."""
        try:
            return self.gen(e, env)
        except (AttributeError, KeyError, TypeError, IndexError, ValueError):
            raise GameFileError([self._diagnostic(e, "this expression cannot be worked out: a value in it is "
                                                     "not of the kind its place needs",
                                                  "check each part: a zone, a card, a player, a number...")]
                                ) from None
        except RecursionError:
            raise GameFileError([self._diagnostic(e, "this expression is nested too deeply",
                                                  "split it with `define`")]) from None

    def _diagnostic(self, node, message: str, hint: str = "") -> Diagnostic:
        line, col = getattr(node, "line", 0) or 0, getattr(node, "column", 0) or 0
        return Diagnostic(self.prog.path, line, col, message, hint, "error",
                          source_line(getattr(self.c.ck.game, "source", "") or "", line))

    def _compile(self, src: str, node) -> None:
        """Compile one function; the file name says where in the game file it comes from."""
        line, col = getattr(node, "line", 0) or 0, getattr(node, "column", 0) or 0
        try:
            code = compile(src, f"<catrules {self.prog.path}:{line}:{col}>", "exec")
        except (SyntaxError, RecursionError, MemoryError):
            # Python's own nesting limits (about 200 brackets) are below the parser's.
            raise GameFileError([Diagnostic(self.prog.path, line, col, "this expression is nested too deeply",
                                            "split it with `define`", "error",
                                            source_line(getattr(self.c.ck.game, "source", "") or "", line))]
                                ) from None
        exec(code, self.ns)

    def const(self, value) -> str:
        if isinstance(value, (int, str, bool, type(None), float, tuple)):
            return repr(value)
        self.count += 1
        name = f"_k{self.count}"
        self.ns[name] = value
        return name

    # ---------------------------------------------------------- expressions
    def gen(self, e, env: Env) -> str:
        return getattr(self, "g_" + type(e).__name__)(e, env)

    def g_Const(self, e, env):
        return self.const(e.value)

    def g_Text(self, e, env):
        """A text with values: ``_say`` works it out into parts (see :mod:`catrules.runtime.said`);
        each value goes with what the checker knows it is, as players and cards are numbers."""
        from ..check.types import kind_name
        items = []
        for part in e.parts:
            if isinstance(part, str):
                items.append(repr(part))
                continue
            t = self.ck.types.get(id(part))
            kind = kind_name(t) if t is not None else None
            if kind in ("player", "card") and t.kind in ("list", "zone", "line"):
                kind += "s"
            items.append(f"({kind if kind in ('player', 'card', 'players', 'cards') else 'value'!r}, "
                         f"{self.gen(part, env)})")
        return f"_say(st, ({', '.join(items)},))"

    def g_Keyword(self, e, env):
        if e.word == "player":
            return env.locals.get("player", "V['player']")
        return "st.layout.players"

    def g_Name(self, e, env, resolved=None):
        kind, detail = resolved or self.names[id(e)]
        n = e.name
        if kind == "local":
            if n in env.locals:
                return env.locals[n]
            return f"V[{n!r}]"
        if kind == "attr":
            return self.card_column(detail, env.locals['it'], env)
        if kind == "counter":
            if detail.per_player:
                return f"st.c[{n!r}][{self.g_Keyword(ast.Keyword('player'), env)}]"
            return f"st.c[{n!r}]"
        if kind == "zone":
            return self.zone(detail, None, env)
        if kind == "family":
            return families.family_code(self, detail, self.g_Keyword(ast.Keyword("player"), env)
                                        if detail.spec.per_player else None)
        if kind == "option":
            if n in self.prog.option_values:     # an option with values (language 4)
                return f"_optv(st.options, {n + '=' !r}, {self.prog.option_values[n][0]!r})"
            return f"({n!r} in st.options)"
        if kind == "define":
            fname = self.define(detail)
            return self.inline(detail, (), env) or f"{fname}(st)"
        if kind == "cardtype":
            return self.const(self.prog.cards_of_type[n])
        return repr(n)

    def zone(self, spec, owner, env, node=None) -> str:
        zi = spec.index if spec.index >= 0 else families.index_code(self, spec, node, env)
        shape = spec.shape
        if owner == "everyone":
            return f"_everyone(st, {zi}, {shape!r})"
        if not spec.per_player:
            ref = f"st.z[st.layout.base[{zi}]]"
        else:
            own = owner if owner is not None else self.g_Keyword(ast.Keyword("player"), env)
            ref = f"st.z[st.layout.base[{zi}] + {own}]"
        if shape in ("pile", "row"):
            return ref
        return f"_cards_in({ref}, {shape!r})"

    def g_Of(self, e, env):
        kind, detail = self.names[id(e)]
        if kind == "family":
            return families.family_code(self, detail, self.gen(e.owner, env))
        if kind == "zone":
            if isinstance(e.owner, ast.Keyword) and e.owner.word == "everyone":
                return self.zone(detail, "everyone", env)
            return self.zone(detail, self.gen(e.owner, env), env, e)
        owner = self.gen(e.owner, env)
        if kind == "counter":
            return f"st.c[{e.name!r}][{owner}]"
        return self.card_column(detail, owner, env)

    def g_Attr(self, e, env):
        target = self.gen(e.target, env)
        name = e.name
        is_card = name in self.prog.attr_col
        if is_card and name not in PLACE_ATTRS:
            return self.card_column(name, target, env)
        if not is_card:
            if name in PLACE_GETTERS:
                return f"{PLACE_GETTERS[name][0]}(st, {target})"
            return f"_place_attr(st, {target}, {name!r})"
        return f"_either(st, {target}, {name!r}, {self.column(name)})"

    def g_ListExpr(self, e, env):
        return "[" + ", ".join(self.gen(i, env) for i in e.items) + "]"

    def g_Unary(self, e, env):
        x = self.gen(e.operand, env)
        return f"(not {x})" if e.op == "not" else f"(-{x})"

    _OPS = {"and": "and", "or": "or", "==": "==", "!=": "!=", "<": "<", ">": ">", "<=": "<=", ">=": ">=",
            "+": "+", "-": "-", "*": "*", "/": "//", "%": "%"}

    def g_Binary(self, e, env):
        a, b = self.gen(e.left, env), self.gen(e.right, env)
        if e.op == "in":
            return f"({a} in {self.listy(e.right, b)})"
        if e.op == "not in":
            return f"({a} not in {self.listy(e.right, b)})"
        if e.op == "*":
            if self.lean and all(getattr(self.ck.types.get(id(x)), "kind", None) == "number" for x in (e.left, e.right)):
                la, lb = self._bound(e.left), self._bound(e.right)
                if la is not None and lb is not None and la * lb <= NUMBER_LIMIT:
                    return f"({a} * {b})"     # never past the limit: no guard
                # two numbers: the product worked out here, the guard called only past the limit
                self.count += 1
                r = f"_w{self.count}"
                return f"({r} if -{NUMBER_LIMIT} <= ({r} := {a} * {b}) <= {NUMBER_LIMIT} else _big({r}))"
            return f"_mul({a}, {b})"
        return f"({a} {self._OPS[e.op]} {b})"

    def _bound(self, e, depth: int = 0):
        """The largest size (absolute value) number expression ``e`` can have, seen from its
        shape alone (whole constants, ``if``, ``-``, a definition's body); None: not known."""
        if depth > 30:
            return None
        if isinstance(e, ast.Const):
            return abs(e.value) if type(e.value) is int else None
        if isinstance(e, ast.Unary) and e.op == "-":
            return self._bound(e.operand, depth + 1)
        if isinstance(e, ast.IfElse):
            a, b = self._bound(e.then, depth + 1), self._bound(e.other, depth + 1)
            return None if a is None or b is None else max(a, b)
        if isinstance(e, ast.Call) and self.names.get(id(e), (None,))[0] == "define":
            return self._bound(self.names[id(e)][1].body, depth + 1)
        return None

    # `*` is the one operator that can make a huge number or list in one step, so it goes through a
    # guard.  `+` and `-` grow a value by at most its own size: a value that keeps growing has to be
    # stored again and again, and `=` and `add` check what they store (compiler.s_Assign, s_Add).

    def g_IfElse(self, e, env):
        return f"({self.gen(e.then, env)} if {self.gen(e.cond, env)} else {self.gen(e.other, env)})"

    def listy(self, node, code: str) -> str:
        """Code for ``node`` as a list of cards/values (skips the conversion when it is one already)."""
        if isinstance(node, (ast.Where, ast.ListExpr)):
            return code
        if isinstance(node, (ast.Name, ast.Of)) and self.names.get(id(node), (None,))[0] in ("zone", "cardtype"):
            return code
        if isinstance(node, ast.Keyword) and node.word in ("players", "everyone"):
            return code
        if (isinstance(node, ast.Call) and node.name in ("lines", "places")
                and self.names.get(id(node), (None,))[0] != "define"):
            return code                         # built as a list of its own
        return f"_L(st, {code})"

    def g_Where(self, e, env):
        src = self.listy(e.source, self.gen(e.source, env))
        if e.cond is None:
            return src
        sure = self.sure_cards(e.source)
        inner, it = env.named(e.var, sure) if e.var else env.element(sure=sure)
        return f"[{it} for {it} in {src} if {self.gen(e.cond, inner)}]"

    def g_Pick(self, e, env):
        key = self.gen(e.key, env)
        # a key that is a name or a column of a name is read again per case: cheaper than a call
        k = key if _SIMPLE.fullmatch(key) else f"_k{env.depth}"
        default = self.gen(e.default, env) if e.default is not None else f"_nopick({k}, {e.line})"
        expr = default
        for kx, vx in reversed(e.cases):
            expr = f"({self.gen(vx, env)} if {k} == {self.gen(kx, env)} else {expr})"
        return expr if k == key else f"(lambda {k}: {expr})({key})"

    def g_Call(self, e, env):
        kind, detail = self.names[id(e)]
        if kind == "define":
            fname = self.define(detail)
            args = [self.gen(a, env) for a in e.args]
            return self.inline(detail, args, env) or f"{fname}(st{''.join(', ' + a for a in args)})"
        if kind == "zone":                      # a zone family's member: `discard(red)`
            return self.zone(detail, None, env, e)
        return getattr(self, "b_" + e.name)(e, env)

    # -------------------------------------------------------------- builtins
    def _arg_list(self, e, env, i=0):
        return self.listy(e.args[i], self.gen(e.args[i], env))

    def _per(self, e, env):
        """(source list code, element variable, per-element code)."""
        src = self._arg_list(e, env)
        first = e.args[0]
        sure = self.sure_cards(first)
        inner, it = env.named(first.var, sure) if isinstance(first, ast.Where) and first.var else env.element(sure=sure)
        return src, it, self.gen(e.args[1], inner)

    def b_count(self, e, env):
        return f"len({self._arg_list(e, env)})"

    def b_sum(self, e, env):
        if len(e.args) == 1:
            return f"sum({self._arg_list(e, env)})"
        first = e.args[0]
        if isinstance(first, ast.Where) and first.cond is not None:
            # `sum(Z where C, F)`: one pass, F of the items C holds for (not a list of them first)
            src = self.listy(first.source, self.gen(first.source, env))
            sure = self.sure_cards(first.source)
            inner, it = env.named(first.var, sure) if first.var else env.element(sure=sure)
            return f"sum([{self.gen(e.args[1], inner)} for {it} in {src} if {self.gen(first.cond, inner)}])"
        src, it, f = self._per(e, env)
        return f"sum([{f} for {it} in {src}])"

    def _minmax(self, e, env, fn):
        if len(e.args) == 1:
            return f"_agg({fn}, {self._arg_list(e, env)})"
        t = self.ck.types.get(id(e.args[0]))
        if t is not None and t.kind == "number":     # max(a, b) of two numbers: b as it stands
            return f"{fn}({self.gen(e.args[0], env)}, {self.gen(e.args[1], env)})"
        a = self.gen(e.args[0], env)
        first = e.args[0]
        sure = self.sure_cards(first)
        inner, it = env.named(first.var, sure) if isinstance(first, ast.Where) and first.var else env.element(sure=sure)
        return f"_minmax({fn}, st, {a}, lambda {it}: {self.gen(e.args[1], inner)})"

    def b_max(self, e, env):
        return self._minmax(e, env, "max")

    def b_min(self, e, env):
        return self._minmax(e, env, "min")

    def b_best(self, e, env):
        src, it, f = self._per(e, env)
        return f"_best({src}, lambda {it}: {f}, True)"

    def b_worst(self, e, env):
        src, it, f = self._per(e, env)
        return f"_best({src}, lambda {it}: {f}, False)"

    def b_first(self, e, env):
        return f"_first({self._arg_list(e, env)})"

    def b_last(self, e, env):
        return f"_last({self._arg_list(e, env)})"

    def b_top(self, e, env):
        z = self.gen(e.args[0], env)
        if len(e.args) == 1:
            return f"_last({z})"
        n = e.args[1]
        if isinstance(n, ast.UpTo):             # a short deal intended: what there is, no note
            return f"_top({z}, {self.gen(n.count, env)})"
        if self.prog.version >= 4:              # exactly n, else an error in the rules' words
            return f"_top({z}, {self.gen(n, env)}, st, {self.const(zone_words(e.args[0]))})"
        return f"_top({z}, {self.gen(n, env)}, st)"

    def g_UpTo(self, e, env):
        return self.gen(e.count, env)

    def b_owner(self, e, env):
        return f"_owner(st, {self.gen(e.args[0], env)})"

    def b_next(self, e, env):
        k = self.gen(e.args[1], env) if len(e.args) > 1 else "1"
        return f"(({self.gen(e.args[0], env)} + {k}) % st.n)"

    def b_previous(self, e, env):
        k = self.gen(e.args[1], env) if len(e.args) > 1 else "1"
        return f"(({self.gen(e.args[0], env)} - {k}) % st.n)"

    def b_others(self, e, env):
        return f"_others(st, {self.gen(e.args[0], env)})"

    def b_random(self, e, env):
        return f"_random(st, {self._arg_list(e, env)})"

    def b_any(self, e, env):
        return f"bool({self._arg_list(e, env)})"

    def b_abs(self, e, env):
        return f"abs({self.gen(e.args[0], env)})"

    def b_range(self, e, env):
        return f"_range(st, {self.gen(e.args[0], env)}, {self.gen(e.args[1], env)})"

    def b_copies(self, e, env):
        return f"_copies(st, {self.gen(e.args[0], env)}, {self.gen(e.args[1], env)})"

    def b_collect(self, e, env):
        src, it, f = self._per(e, env)
        return f"[{f} for {it} in {src}]"

    def b_join(self, e, env):
        return f"[_x for _l in {self._arg_list(e, env)} for _x in _L(st, _l)]"

    def b_tallied(self, e, env):
        item = e.args[1].name if len(e.args) > 1 else "total"
        return f"st.tallied({self.gen(e.args[0], env)}, {item!r})"

    _SHAPES_FOR = {"rows": ("grid",), "columns": ("grid",), "lines": ("grid", "lines"), "places": ("lines",)}

    def _zone_slot(self, e, env):
        node = e.args[0]
        spec = self.ck.zones.get(getattr(node, "name", None)) if isinstance(node, (ast.Name, ast.Of)) else None
        shapes = self._SHAPES_FOR.get(e.name, ())
        if spec is None or (shapes and spec.shape not in shapes):
            # a guard: the checker should have refused this already
            want = " or a ".join("zone of lines" if x == "lines" else "grid zone" for x in shapes)
            got = f"; `{spec.name}` is a {spec.shape}" if spec is not None else ""
            raise GameFileError([self._diagnostic(node, f"`{e.name}` needs a {want}{got}",
                                                  f"write `{e.name}(ZONE)` with a zone declared as "
                                                  + " or ".join("`lines`" if x == "lines" else "`grid R by C`"
                                                                for x in shapes))])
        spec = self.ck.zones[node.name]
        if spec.per_player:
            own = self.gen(node.owner, env) if isinstance(node, ast.Of) else self.g_Keyword(ast.Keyword("player"), env)
            return spec, f"(st.layout.base[{spec.index}] + {own})"
        return spec, f"st.layout.base[{spec.index}]"

    def b_rows(self, e, env):
        spec, slot = self._zone_slot(e, env)
        return f"_grid_lines({slot}, 'row', {spec.rows})"

    def b_columns(self, e, env):
        spec, slot = self._zone_slot(e, env)
        return f"_grid_lines({slot}, 'col', {spec.cols})"

    def b_lines(self, e, env):
        spec, slot = self._zone_slot(e, env)
        if spec.shape == "grid":
            return f"(_grid_lines({slot}, 'row', {spec.rows}) + _grid_lines({slot}, 'col', {spec.cols}))"
        return f"_lines(st, {slot})"

    def b_places(self, e, env):
        _spec, slot = self._zone_slot(e, env)
        return f"_places(st, {slot})"
