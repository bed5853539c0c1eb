"""Compiling choices: one player's choice, a menu, secret and race choices, and how a
pending decision (:class:`~catrules.runtime.decisions.Pending`) is built.

Part of the compiler (:mod:`catrules.compile.compiler`, whose ``_Compiler`` mixes
:class:`ChoiceStatements` in).  A choice pauses the game with a *pending
decision*, saved with the state; a forced choice (one legal option,
or none) is a decision like any other (:func:`_ask_one`).  ``secretly`` and
``race`` choices ask several players at once, then loop over their answers
(:meth:`ChoiceStatements.s_Together`), on the same helpers.
"""

from __future__ import annotations

import ast as pyast
import re

from ..lang import ast
from ..errors import RulesError
from ..runtime.decisions import UNANSWERED, Pending, _ask_one
from ..runtime.option_ids import option_id
from .units import Suite
from .upto import most_cards, prompt_words
from ..runtime.places import as_list


def _copied(listing: str):
    """``(X, X)`` when the generated expression ``listing`` is ``list(X)`` alone and ``X`` an item
    (a zone's cards, say), else None; the run tests that ``X`` is a list before drawing from it."""
    try:
        e = pyast.parse(listing, mode="eval").body
    except SyntaxError:
        return None
    if (isinstance(e, pyast.Call) and isinstance(e.func, pyast.Name) and e.func.id == "list"
            and len(e.args) == 1 and not e.keywords and isinstance(e.args[0], pyast.Subscript)):
        x = pyast.get_source_segment(listing, e.args[0])
        return f"({x})", x
    return None


def _is_zone(src) -> bool:
    """Whether the generated expression ``src`` is a slot's own list of cards, ``st.z[...]``."""
    try:
        e = pyast.parse(src, mode="eval").body if src else None
    except SyntaxError:
        return False
    return (isinstance(e, pyast.Subscript) and isinstance(e.value, pyast.Attribute) and e.value.attr == "z"
            and isinstance(e.value.value, pyast.Name) and e.value.value.id == "st")


#: a default key that is one printed column of the option (``default lowest c.value``): its code
_COLUMN_KEY = re.compile(r"_[at]_\w+\[_it\]")


def _column_of(key, ns: dict):
    """The card -> value table a default key reads, when the key is nothing but that look-up
    (a dict or tuple of fixed values: looking up twice gives the same); else None."""
    body = getattr(key, "body", None)
    if body is None or not _COLUMN_KEY.fullmatch(body):
        return None
    col = ns.get(body[:body.index("[")])
    return col if type(col) in (dict, tuple) else None


def _best_of(o: list, pick, column: dict, key, st, V):
    """The default among the options ``o``: ``pick`` (min or max) by ``key``, a key that only
    looks up ``column``: asked in C (the column's ``__getitem__``: no Python call per option).
    Should that fail in any way, the key's own code runs again, to fail as it always did (with
    its line in the game file), so that every answer and every error stays the same."""
    try:
        return pick(o, key=column.__getitem__)
    except Exception:       # noqa: BLE001 - redone below, where it raises as it always did
        pass
    return pick(o, key=lambda x: key(st, V, x))


class ChoiceStatements:
    """The compiler's methods for choices (mixed into ``_Compiler``)."""

    def _options(self, source, opts: ast.ChooseOpts, var: str):
        listed = self.gen.options_function(source, opts.preferring, var)
        key = (self.ex_element(opts.default_key, var, self.gen.sure_cards(source))
               if opts.default_key is not None else None)
        named = self.ex(opts.default_is) if opts.default_is is not None else None
        lowest = opts.default_dir == "lowest"
        pick = min if lowest else max
        column = _column_of(key, self.gen.ns)

        def options(st, V, with_default=True):
            o = listed(st, V)
            default = None
            if not with_default:        # a bot of the fast path has no use for it
                pass
            elif key is not None and o:
                default = _best_of(o, pick, column, key, st, V) if column is not None else \
                    pick(o, key=lambda x: key(st, V, x))
            elif named is not None:
                d = named(st, V)            # `default VALUE`: that option, if it is one now
                default = d if d in o else None
            return o, default
        options.listed = listed     # the options alone, for the bot fast path of s_Choose
        options.prefers = self._prefers(source, opts.preferring, var)
        return options

    def _prefers(self, source, preferring, var: str):
        """For a choice ``preferring P`` from one zone (maybe ``where`` filtered), the index in
        ``prog.prefer_fns`` of ``(P, filter)``, with which the engine keeps what an answer that
        ``P`` does not hold for tells the others (:mod:`catrules.runtime.inference`); else None."""
        if preferring is None:
            return None
        cond = None
        if isinstance(source, ast.Where):
            if source.cond is None:
                return None
            cond = self.ex_element(source.cond, source.var or var)
            source = source.source
        r = self.ck.names.get(id(source)) if isinstance(source, (ast.Name, ast.Of)) else None
        if not r or r[0] != "zone":
            return None
        self.p.prefer_fns.append((self.ex_element(preferring, var, self.gen.sure_cards(source)), cond))
        return len(self.p.prefer_fns) - 1

    def _asking(self, opts, fallback: str, var=None):
        """``(text, ask)``: the prompt as plain text, and for one said with values the
        ``[index, var]`` of its function in ``prog.prompt_fns``, worked out only when a player
        reads it (see :meth:`catrules.runtime.state.State._asked`); ``var`` is bound to that player."""
        if opts is None or opts.asking is None:
            return fallback, None
        if isinstance(opts.asking, ast.Const):
            return str(opts.asking.value), None
        self.p.prompt_fns.append(self.ex(opts.asking))
        return fallback, [len(self.p.prompt_fns) - 1, var]

    def _prompt(self, source, kind: str, mode: str, count=None, up_to=None) -> str:
        if up_to is not None:
            what = up_to
        elif count is not None:
            n = count.value if isinstance(count, ast.Const) else "some"
            what = f"{n} card{'s' if n != 1 else ''}"
        else:
            what = None
        what = what or {"card": "a card", "player": "a player", "line": "a line", "place": "a place",
                "number": "a number"}.get(kind, "an option")
        src = source.source if isinstance(source, ast.Where) else source
        zone = ""
        if isinstance(src, (ast.Name, ast.Of)) and src.name in self.ck.zones:
            zone = f" from {src.name}"
        pre = {"choose": "Choose", "secret": "Secretly choose", "race": "Race! Grab"}[mode]
        return f"{pre} {what}{zone}"

    def _count(self, count, line: int, what: str = "the number of cards to choose"):
        """``chooses N cards``: a function giving N, checked to be a whole number when it runs
        (``what`` names it in the stop)."""
        if count is None:
            return None
        fn = self.ex(count)
        path = self.p.path

        def need(st, V, options=None):
            k = fn(st, V)
            if type(k) is not int or k < 0:
                raise RulesError(f"{what} is {k!r}, not a whole number of 0 or more",
                                 line, path, "make the count a number, such as `count(hand of p) - 1`")
            return k
        return need

    def s_Choose(self, s: ast.Choose) -> None:
        actor = self._actor(s.actor)
        options = self._options(s.source, s.opts, s.var)
        var = s.var
        kind = self.kind_of(s.source)
        upto = s.up_to is not None
        words = prompt_words(s) if upto else None
        prompt, ask = self._asking(s.opts, self._prompt(s.source, kind, "choose", s.count, words))
        line, public = s.line, s.public
        need = most_cards(self, s) if upto else self._count(s.count, s.line)

        def choose(st, fr):
            V = fr.vars
            o, default = options(st, V)
            return _ask_one(st, V, actor(st, V), o, default, kind, var, line, prompt, public,
                            need(st, V, o) if need is not None else None, ask, prefers, upto)
        prefers = options.prefers if need is None else None
        if need is None:
            self._picked_here(s.actor, var, options.listed, kind, line, prefers)
            if self.straight:               # answered in place: no block of its own (catrules.compile.straight)
                return
        self.pause(choose, s.line)

    def _picked_here(self, actor: str, var: str, listed, kind: str, line: int, prefers=None) -> None:
        """The bot fast path (see catrules.play.autoplay) of a choice of one value: a bot that picks
        answers here, in the block, among ``listed(st, V)``, and the game goes on in the next
        block; anyone else is asked by the choice's own block, which comes next."""
        w = self.w
        who = f"st.c[{actor!r}]" if actor in self.ck.counters else f"V[{actor!r}]"
        name = listed.__name__ if listed.__name__.startswith("_options") else w.bind(listed, "m")
        w.put("_a = st.auto", line)
        if self.straight:                   # a straight pass (catrules.compile.straight): no pause
            extra = "" if prefers is None else f", V, {prefers}"
            parts = getattr(listed, "parts", None)
            listing = (self._preferred_here(parts, line) if parts is not None
                       else getattr(listed, "inline", None) or name + "(st, V)")
            if kind == "card":
                # drawn from without the copy the option list is (a zone's own list, say)
                bare = (f"({parts[1]} if {parts[1]} else {parts[0]})", parts[3]) if parts is not None \
                    else _copied(listing)
                self._drawn_here(who, var, listing, extra, prefers, line, bare)
            else:
                w.put(f"V[{var!r}] = _a.choose(st, {who}, {listing}, {kind!r}{extra})", line)
            return
        # the lean blocks run only where every seat picks (State.run): no need to ask
        with Suite(w, "if True:" if self.lean else f"if _a is not None and _a.pickers[{who}] is not None:", line):
            extra = "" if prefers is None else f", V, {prefers}"      # what the answer tells others
            listing = getattr(listed, "inline", None) if self.lean else None     # lean: written here
            w.put(f"V[{var!r}] = _a.choose(st, {who}, {listing or name + '(st, V)'}, {kind!r}{extra})", line)
            w.chain(len(w.blocks) + 1, line)    # past the block the choice is about to get

    def _drawn_here(self, who: str, var: str, listing: str, extra: str, prefers, line: int, bare) -> None:
        """In a straight pass, a card chosen by a seat whose pick is a uniform draw
        (:attr:`Autoplay.draws <catrules.play.autoplay.Autoplay>`): :meth:`Autoplay.choose
        <catrules.play.autoplay.Autoplay.choose>` written out for two or more cards, the same
        draws, counts and history entry, with no call (a trick game makes one per card played).
        Anything else (one card or none, another seat, a ``preferring`` whose answer others
        learn from) goes through ``choose`` as before.  ``bare``: ``(X, S)`` when the options are
        ``list(X)``, a copy of a list the draw may read as it is (the run tests that it is a
        list, unless ``S``, the source of its cards, is a zone's own list), else None."""
        w, t = self.w, self.tmp("d")
        p, o, n, dr, k, i, v, me = (f"{t}{x}" for x in "ponrkive")
        w.put(f"{p} = {who}", line)
        bare, source = bare or (None, None)
        w.put(f"{o} = {bare or listing}", line)
        blind = "" if prefers is None else " and st.known is None"    # else the answer is noted
        typ = w.bind(type, "type")              # the namespace has no builtins of its own
        # a pile's or row's own list needs no test (nor does a list made here)
        same = f"{typ}({o}) is {w.bind(list, 'list')} and " if bare and not _is_zone(source) else ""
        with Suite(w, f"if {same}({n} := len({o})) > 1 and ({dr} := _a.draws[{p}]) is not None{blind}:", line):
            for text in ("st.decisions += 1", f"st.actor = {p}"):
                w.put(text, line)
            with Suite(w, "if _a.after is not None:", line):
                w.put("_a.after()", line)
            w.put(f"{k} = {n}.bit_length()", line)
            w.put(f"{i} = {dr}({k})", line)
            with Suite(w, f"while {i} >= {n}:", line):
                w.put(f"{i} = {dr}({k})", line)
            w.put(f"V[{var!r}] = {v} = {o}[{i}]", line)
            w.put("st.steps = st.steps_from", line)
            w.put(f"{me} = _a.card_entries[{p}]", line)
            if bare and _is_zone(source) and self.all_simple():   # a pile's or row's cards: card ids
                w.put(f"st.history.append({me}[{v}])", line)
            else:
                num, oid = w.bind(int, "int"), w.bind(option_id, "option_id")
                w.put(f"st.history.append({me}[{v}] if {typ}({v}) is {num} and 0 <= {v} < len({me}) "
                      f"else [{p}, {oid}('card', {v})])", line)
        with Suite(w, "else:", line):
            w.put(f"V[{var!r}] = _a.choose(st, {p}, {f'list({o})' if bare else o}, 'card'{extra})", line)

    def _preferred_here(self, parts: tuple, line: int) -> str:
        """In a straight pass, the options of a choice ``preferring`` worked out by statements
        (see :meth:`CodeGen._preferring_parts <catrules.compile.codegen.CodeGen._preferring_parts>`):
        the same values, tests and errors as its one expression; returns the expression of the list."""
        o, ok, k, src, test, side = parts
        w = self.w
        w.put(f"{o} = {src}", line)
        w.put(f"{ok} = []", line)
        with Suite(w, f"if {o}:", line):            # none: ``list(None)`` below fails as it would
            if side is not None:
                w.put(f"{k} = {side}", line)
            with Suite(w, f"for _it in {o}:", line):
                with Suite(w, f"if {test}:", line):
                    w.put(f"{ok}.append(_it)", line)
        return f"({ok} if {ok} else list({o}))"

    def s_Menu(self, s: ast.Menu) -> None:
        actor = self._actor(s.actor)
        conds = [(label, self.ex(cond) if cond is not None else None) for label, cond, _b, _p in s.branches]
        var = self.new_var()
        line, public = s.line, s.public
        prompt, ask = self._asking(s.opts, "Choose what to do")
        named = s.opts.default_is.value if s.opts is not None and s.opts.default_is is not None else None
        for (label, _c, _b, _p), said in zip(s.branches, s.labels or ()):
            if said is not None:                # language 4: the label a player reads, with values
                self.p.menu_labels[(var, label)] = self.ex(said)

        def labels(st, V):
            return [label for label, c in conds if c is None or c(st, V)]

        def menu(st, fr):
            V = fr.vars
            o = labels(st, V)
            return _ask_one(st, V, actor(st, V), o, named if named in o else None, "value", var, line,
                            prompt, public, None, ask)
        self.old += 1                           # format 1: the menu's instruction
        self._picked_here(s.actor, var, labels, "value", line)
        self.pause(menu, s.line)
        self._branches(s, [(f"V[{var!r}] == {label!r}", pos["line"], self.body_of(s, "then", branch=i))
                           for i, (label, _cond, _body, pos) in enumerate(s.branches)])

    def _actor(self, name):
        if name in self.ck.counters:
            return lambda st, V: st.c[name]
        return lambda st, V: V[name]

    def s_Together(self, s: ast.Together) -> None:
        among = self.ex(s.among) if s.among is not None else None
        options = self._options(s.source, s.opts, s.var)
        kind = self.kind_of(s.source)
        upto = getattr(s, "up_to", None) is not None
        words = prompt_words(s) if upto else None
        prompt, ask = self._asking(s.opts, self._prompt(s.source, kind, s.mode, s.count, words), s.player)
        mode, pvar, var, line, optional = s.mode, s.player, s.var, s.line, s.optional
        need = most_cards(self, s) if upto else self._count(s.count, s.line)
        slot, idx = self.new_var(), self.new_var()

        def together(st, fr):
            V = fr.vars
            who = list(as_list(st, among(st, V))) if among is not None else list(range(st.n))
            n = st.n
            opts, dflt, chosen = [None] * n, [None] * n, [None] * n
            needs = [None] * n if need is not None else None
            auto = st.auto
            wanted = auto is None or not auto.plain      # bots that only pick read no default
            for pl in who:
                V[pvar] = pl
                V["player"] = pl
                o, d = options(st, V, wanted)
                if not o and mode == "race":
                    continue                # racing is seen by all: with nothing to grab, no race
                if optional:
                    o = o + [None]          # `may choose`: "not me" sits the race out
                # everyone named is asked, with one option or none too: nobody learns who was forced
                opts[pl], dflt[pl], chosen[pl] = (o or [None]), d, UNANSWERED
                if needs is not None:
                    needs[pl] = need(st, V, o)
                    if needs[pl] == 0:
                        chosen[pl] = []
            who = [pl for pl in who if chosen[pl] is not None]
            p = Pending(mode, who, opts, dflt, chosen, kind, var, slot, line, prompt, False, needs, ask)
            if optional:
                p.optional = True
            if upto:
                p.upto = True               # `up to`: "none" (done) may end each player's picks
            V[idx] = 0
            if UNANSWERED not in chosen:        # those not asked hold None or []
                st._resolve(p)
                return None
            for pl in who:
                if chosen[pl] is UNANSWERED and st.answer_forced(p, pl):
                    return None
            st.pending_ = p
            if auto is not None:
                return auto(st, p)
            return True
        self.old += 1                           # format 1: the choice's instruction
        self.pause(together, s.line)
        # then the body, once per answer: in seat order, or fastest first in a race
        items = f"V[{slot!r}]"
        each = ["st.actor = {0}[0]", "V[{1!r}] = {0}[0]", "V['player'] = {0}[0]", "V[{2!r}] = {0}[1]",
                "V['position'] = {0}[2]"]
        x, i = self.tmp("x"), self.tmp("i")
        native = [t.format(x, pvar, var) for t in each] + [f"if {i} == 0: V['racers'] = [_y[0] for _y in {items}]"]
        step = ([f"{x} = {items}[V[{idx!r}]]"] + [t.format(x, pvar, var) for t in each]
                + [f"if V[{idx!r}] == 0: V['racers'] = [_y[0] for _y in {items}]", f"V[{idx!r}] += 1"])
        self._loop(s, s.line, f"for {i} in range(len({items})):", each=[f"{x} = {items}[{i}]"] + native,
                   test=f"V[{idx!r}] >= len({items})", step=step)
