"""Meaning checks on a parsed game file, and the name table the compiler uses.

The checker walks the AST, resolving every name (a local variable, a
counter, a zone, a card attribute, an option, a definition, a symbol...) and
reporting every mistake it finds, not just the first: unknown names with a
"did you mean" hint, wrong argument counts, zones used without an owner,
phases that are never played, a language version newer than this interpreter
(or constructs newer than the version a file names), and (as a warning) a
cycle of triggers that can fire forever while using nothing up.  Here are the
top (:func:`check`) and the checks of each statement; the declarations are
checked in :mod:`catrules.check.declarations`, the card faces and shown names
in :mod:`catrules.check.shows`, the whole game in :mod:`catrules.check.game_checks`,
and the type of every expression in :mod:`catrules.check.types`.  Its result,
:class:`Checked`, maps each name node to what it means, so that
:mod:`catrules.compile.compiler` never has to guess.
"""

from __future__ import annotations

from ..errors import GameFileError, Reporter, suggest
from ..lang import ast
from ..lang.parser import LANGUAGE_VERSION
from ..lang.upto import several
from .bidi import check_bidi
from .checked import Checked, ZoneSpec  # noqa: F401 - catrules.check.checker's own names too
from .deals import DealChecks
from .declarations import DeclarationChecks
from .exprs import ExprChecker
from .families import FamilyChecks, is_family_form
from .flow import FlowFacts
from .game_checks import WholeGameChecks
from .menu_names import MenuNameChecks
from .option_values import OptionValueChecks
from .shows import ShowChecks
from .types import ANY, CARD, NUMBER, PLAYER, Scope as _Scope, Type, describe, element, family, list_of, \
    not_none
from .upto import check_up_to
from .versions import check_version
from .visibility import check_secret_tallies, check_secret_texts

MAX_PLAYERS = 12


def check(game: ast.GameFile) -> Checked:
    """Check ``game``; raise :class:`GameFileError` listing every error found."""
    return _Checker(game).run()


class _Checker(FlowFacts, ExprChecker, WholeGameChecks, DeclarationChecks, ShowChecks, MenuNameChecks,
               FamilyChecks, DealChecks, OptionValueChecks):
    def __init__(self, game: ast.GameFile):
        self.g = game
        self.rep = Reporter(game.path, game.source, game.origins, game.sources)
        self.names: dict = {}
        self.zones: dict = {}
        self.families: dict = {}              # zone family name -> FamilySpec (check/families.py)
        self.attributes: list = []
        self.symbols: set = set()
        self.counters: dict = {}
        self.options: dict = {}
        self.defines: dict = {}
        self.actions: dict = {}
        self.phases: dict = {}
        self.card_types: dict = {}
        self.components: list = []
        self.rejected: dict = {}          # names whose declaration was refused -> kind
        self.types: dict = {}
        self.texts_ok: set = set()        # ids of texts with values that stand where a text is said
        self.attr_types: dict = {}
        self.attr_words: dict = {}        # card attribute -> the words (symbols) its cards have, in order
        self.compared = None              # the attribute the name being checked is compared with
        # what the last typing pass learnt: (unit, local) / counter / definition / (kind, name, i) -> Type
        self.local_types: dict = {}
        self.counter_types: dict = {}
        self.define_types: dict = {}
        self.param_types: dict = {}
        self.counters_set_none: set = set()   # counters some statement sets to what may be none
        self.declared: dict = {}              # counter -> the type it declares (`counter x: player = 0`)
        self.flow_out: dict = {}              # id of an `if` or a menu -> what every way through it shows
        self.no_way_out: set = set()          # ids of the loops that nothing can leave

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
        elif g.version < LANGUAGE_VERSION:
            check_version(g, self.defines, self.rep, g.version)
        check_bidi(g, rep)
        if not (1 <= g.min_players <= g.max_players <= MAX_PLAYERS):
            rep.error(g, f"players {g.min_players} to {g.max_players} is not a possible range",
                      f"write `players A to B` with 1 <= A <= B <= {MAX_PLAYERS}")
        self.declare()
        self.check_option_values()
        self.declared = {c.name: t for c in g.counters if self.counters.get(c.name) is c
                         for t in [self.declared_type(c)] if t is not None}
        self.check_typed()
        self.check_valued_conditions()
        self.check_reachability()
        self.check_trigger_cycles()
        self.check_define_cycles()
        self.check_endless_loops()
        self.check_pick_keys()
        check_secret_texts(g, self.names, rep)
        check_secret_tallies(g, self.names, rep)
        rep.raise_if_errors()
        return Checked(g, self.zones, self.attributes, self.symbols, self.counters, self.options, self.defines,
                       self.actions, self.phases, self.names, rep.warnings, self.card_types,
                       self.components, self.types, dict(self.counter_types), dict(self.local_types),
                       set(self.no_way_out), self.families)

    def check_typed(self) -> None:
        """Check the bodies, after quiet passes that learn the types of locals, counters,
        definitions and parameters from how they are set and used."""
        loud = self.rep
        last = None
        for _ in range(6):
            self.rep = Reporter(self.g.path, "")
            self.typing_pass()
            now = (self.local_types, self.counter_types, self.define_types, self.param_types,
                   self.counters_set_none)
            if now == last:
                break
            last = now
        self.rep = loud
        self.typing_pass()
        self.check_unread()

    def typing_pass(self) -> None:
        self._local_new, self._counter_new, self._define_new, self._param_new = {}, {}, {}, {}
        self._set_none_new = set()
        self.reads: set = set()
        self.assigned: dict = {}      # (unit, local) -> first Assign node
        self.check_bodies()
        self.local_types, self.counter_types = self._local_new, self._counter_new
        self.define_types, self.param_types = self._define_new, self._param_new
        self.counters_set_none = self._set_none_new

    def check_unread(self) -> None:
        """A local variable that is set but never read is a mistake, usually a misspelt counter."""
        for (unit, name), node in self.assigned.items():
            if (unit, name) in self.reads or any(d.line == node.line for d in self.rep.errors):
                continue                  # read, or the line has a mistake already
            others = list(self.counters) + [n for (u, n) in self.assigned if u == unit and n != name] + \
                [n for (u, n) in self.reads if u == unit]
            self.rep.error(node, f"`{name}` is set here but never used: it is a new local variable, "
                                 "not a counter", suggest(name, others) or
                           f"to keep the value, declare `counter {name} = ...`; otherwise remove this line")

    # ------------------------------------------------------------- bodies
    def unit_locals(self, params, body) -> set:
        """Every local variable of a block: parameters, and names set, chosen or looped over."""
        names = set(params)
        for n in ast.walk(body):
            if isinstance(n, ast.Assign) and n.name not in self.counters and n.owner is None:
                names.add(n.name)
            elif isinstance(n, ast.Choose) or isinstance(n, (ast.ForPlayers, ast.ForEach)):
                names.add(n.var)
            elif isinstance(n, ast.Together):
                names.update((n.var, n.player))
                if n.mode == "race":
                    names.update(("position", "racers"))
        return names

    def check_bodies(self) -> None:
        g = self.g
        for c in g.counters:
            t = self.expr(c.value, _Scope(set(), player=c.per_player, unit="counters"))
            self.check_counter_value(c.value, c, t)
            self.note_counter(c.name, t)
        for d in g.defines:
            self.allow_texts(d.body)
            self._define_new[d.name] = self.expr(d.body, _Scope(set(d.params), unit=f"define:{d.name}",
                                                                elem=self.params_of(("define", d.name), d.params)))
        for a in g.actions:
            self.block(a.body, _Scope(self.unit_locals(a.params, a.body), unit=f"action:{a.name}",
                                      elem=self.params_of(("action", a.name), a.params)))
        for t in g.triggers:
            spec = self.zones.get(t.zone) or self.family_spec(t.zone)
            if spec is None:
                self.rep.error(t, f"unknown zone `{t.zone}`", suggest(t.zone, self.zones))
            elif t.owner and not spec.per_player:
                self.rep.error(t, f"zone `{t.zone}` is shared, so `of {t.owner}` names no one",
                               "drop `of ...` or make the zone per player")
            params = [t.var] + ([t.owner] if t.owner else [])
            if t.source is not None:
                src = self.zones.get(t.source) or self.family_spec(t.source)
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
            sc = _Scope(self.unit_locals(params, t.body), player=bool(spec and spec.per_player),
                        unit=f"trigger:{t.line}", elem={t.var: CARD, **{n: PLAYER for n in params[1:]}})
            if t.guard is not None:
                self.expr(t.guard, sc)
            self.block(t.body, sc)
        for unit, body in (("setup", g.setup), ("flow", g.flow)):
            self.block(body, _Scope(self.unit_locals([], body), unit=unit))
        for ph in g.phases:
            self.block(ph.body, _Scope(self.unit_locals([], ph.body), unit=f"phase:{ph.name}"))
        for item in g.score:
            t = self.expr(item.value, _Scope(set(), player=True, unit="score"))
            if item.counted and family(t) not in (None, "number") and \
                    not any(d.line == item.line for d in self.rep.errors):      # one error per mistake
                self.rep.error(item.value, f"score item `{item.name}` adds up to the total, and this is "
                                           f"{describe(t)}, not a number",
                               "count a list with `count(...)`, add its values with `sum(...)`; or make "
                               "the item a `note`, shown but not counted")
            if item.only_if is not None:
                self.expr(item.only_if, _Scope(set(), unit="score"))
                bad = next((n for n in ast.walk(item.only_if) if not (
                    isinstance(n, ast.Name) and self._taken(n.name) is None) and not (
                    isinstance(n, ast.Name) and n.name in self.options or isinstance(n, ast.Const)
                    and isinstance(n.value, bool) or isinstance(n, ast.Unary) and n.op == "not"
                    or isinstance(n, ast.Binary) and n.op in ("and", "or"))), None)
                if bad is not None:
                    self.rep.error(bad, "a score item's `if` names the game's options only",
                                   "the item then exists only in games played with them: "
                                   "`= ... if longest or advanced`; use `if ... then ... else` for the rest")
        self.check_shows()
        scores = dict.fromkeys(["total", *self.components], NUMBER)
        for r in g.ranking:
            self.expr(r.key, _Scope(set(scores), player=True, unit="winner", elem=scores))

    def block(self, body, sc: _Scope) -> frozenset:
        """Check the statements of a block; what is known not to be none at its end."""
        narrow = sc.narrow
        for st in body:
            self.stmt(st, sc if sc.narrow == narrow else sc.with_(narrow=narrow))
            narrow = self.flow_after(st, narrow)
        return narrow

    def stmt(self, s, sc: _Scope) -> None:
        for kind in type(s).__mro__:
            check = _STMT_CHECKS.get(kind)
            if check is not None:
                getattr(self, check)(s, sc)
                return
        self.rep.error(s, f"unknown statement {type(s).__name__}")  # pragma: no cover - the parser makes no other

    # the check of each kind of statement (see _STMT_CHECKS)
    def stmt_move(self, s: ast.Move, sc: _Scope) -> None:
        t = self.expr(s.cards, sc)
        what = element(t) if t.kind == "list" else t
        if family(what) in ("number", "truth value", "symbol"):
            self.rep.error(s.cards, f"`move` moves cards; this is {describe(t)}",
                           "move a card, a list of cards or a zone's cards (`move c to deck`)")
        self.dest(s.dest, sc)

    def stmt_shuffle(self, s: ast.Shuffle, sc: _Scope) -> None:
        self.zone_expr(s.zone, sc, "shuffle")

    def stmt_fill(self, s: ast.Fill, sc: _Scope) -> None:
        z = self.zone_expr(s.zone, sc, "fill")
        if z is not None and z.shape != "grid":
            self.rep.error(s.zone, f"`fill` works on grid zones; `{z.name}` is a {z.shape}",
                           "declare the zone as `grid R by C`, or use `move top(...) to ...`")
        self.expr(s.source, sc)

    def stmt_exchange(self, s: ast.Exchange, sc: _Scope) -> None:
        self.expr(s.first, sc)
        self.expr(s.second, sc)

    def stmt_assign(self, s, sc: _Scope) -> None:
        """`set` and `add`."""
        self.assign_target(s, sc)
        t = self.expr(s.value if isinstance(s, ast.Assign) else s.amount, sc)
        if isinstance(s, ast.Add):
            self.need_number(s.amount, t, "`add`")
        self.note_set(s, t if isinstance(s, ast.Assign) else NUMBER, sc)

    def stmt_choose(self, s: ast.Choose, sc: _Scope) -> None:
        self.actor(s, s.actor, sc)
        t = self.expr(s.source, sc)
        self.choose_count(s.count, sc, s.source, t, s)
        self.note_local(sc, s.var, list_of(element(t)) if several(s) else element(t))
        self.choose_opts(s.opts, s.var, t, sc)

    def stmt_play(self, s: ast.Play, sc: _Scope) -> None:
        if s.phase not in self.phases and self.rejected.get(s.phase) != "phase":
            self.rep.error(s, f"unknown phase `{s.phase}`", suggest(s.phase, self.phases) or
                           "declare it with `phase NAME:`")

    def stmt_do(self, s: ast.Do, sc: _Scope) -> None:
        a = self.actions.get(s.action)
        if a is None:
            self.rep.error(s, f"unknown action `{s.action}`", suggest(s.action, self.actions) or
                           "declare it with `action NAME(...):`")
        elif len(s.args) != len(a.params):
            self.rep.error(s, f"action `{s.action}` takes {len(a.params)} argument(s), not {len(s.args)}",
                           f"write `do {s.action}({', '.join(a.params)})`")
        self.note_args(("action", s.action), [self.expr(arg, sc) for arg in s.args])

    def stmt_announce(self, s: ast.Announce, sc: _Scope) -> None:
        self.text_expr(s.text, sc, "`announce`")

    def stmt_plain(self, s, sc: _Scope) -> None:
        """`end the game`, `do nothing`: nothing to check."""

    def stmt_tally(self, s: ast.Tally, sc: _Scope) -> None:
        if not self.g.score:
            self.rep.error(s, "`tally` with no `score:` block", "add a `score:` block: `tally` adds its items "
                           "to each player's running totals")
        if s.title is not None:
            self.text_expr(s.title, sc, "a tally's title")

    def stmt_stop(self, s: ast.StopLoop, sc: _Scope) -> None:
        if sc.loops == 0:
            self.rep.error(s, "`stop` outside a loop", "`stop` leaves the innermost repeat or for each")

    def stmt_if(self, s: ast.If, sc: _Scope) -> None:
        known = frozenset()           # what the earlier conditions being false tells
        outs = []
        for cond, body in s.branches:
            self.expr(cond, sc.knowing(known))
            outs.append(self.block(body, sc.knowing(known | not_none(cond, True))))
            known |= not_none(cond, False)
        outs.append(self.block(s.otherwise or [], sc.knowing(known)))
        self.branches_out(s, outs, [b for _, b in s.branches] + [s.otherwise or []])

    def stmt_repeat_times(self, s: ast.RepeatTimes, sc: _Scope) -> None:
        self.need_number(s.count, self.expr(s.count, sc), "`repeat ... times`",
                         "count a list first: `repeat count(hand of p) times:`")
        self.block(s.body, sc.with_(loops=sc.loops + 1, narrow=self.loop_facts(s.body, sc.narrow)))

    def stmt_repeat_until(self, s: ast.RepeatUntil, sc: _Scope) -> None:
        sc = sc.with_(narrow=self.loop_facts(s.body, sc.narrow))
        self.expr(s.cond, sc)
        self.block(s.body, sc.with_(loops=sc.loops + 1))

    def stmt_for_players(self, s: ast.ForPlayers, sc: _Scope) -> None:
        if s.start is not None:
            self.expr(s.start, sc)
        if s.among is not None:
            self.expr(s.among, sc)
        self.note_local(sc, s.var, PLAYER)
        self.block(s.body, sc.with_(loops=sc.loops + 1, narrow=self.loop_facts(s.body, sc.narrow)))

    def stmt_for_each(self, s: ast.ForEach, sc: _Scope) -> None:
        self.note_local(sc, s.var, element(self.expr(s.source, sc)))
        self.block(s.body, sc.with_(loops=sc.loops + 1, narrow=self.loop_facts(s.body, sc.narrow)))

    def stmt_menu(self, s: ast.Menu, sc: _Scope) -> None:
        self.actor(s, s.actor, sc)
        seen, outs = set(), []
        for label, cond, body, pos in s.branches:
            if label in seen:
                self.rep.error((pos["line"], pos["column"]), f"the choice \"{label}\" is offered twice",
                               "give each branch its own name")
            seen.add(label)
            if cond is not None:
                self.expr(cond, sc)
            outs.append(self.block(body, sc.knowing(not_none(cond, True)) if cond is not None else sc))
        self.branches_out(s, outs, [b[2] for b in s.branches])
        self.menu_opts(s, sc)
        self.menu_names(s, sc)

    def stmt_together(self, s: ast.Together, sc: _Scope) -> None:
        if s.among is not None:
            self.expr(s.among, sc)
        inner = sc.with_(player=True)
        t = self.expr(s.source, inner)
        self.choose_count(s.count, inner, s.source, t, s)
        self.note_local(sc, s.player, PLAYER)
        self.note_local(sc, s.var, list_of(element(t)) if several(s) else element(t))
        if s.mode == "race":
            self.note_local(sc, "position", NUMBER)
            self.note_local(sc, "racers", list_of(PLAYER))
        self.choose_opts(s.opts, s.var, t, inner)
        self.block(s.body, inner.with_(loops=0, narrow=self.loop_facts(s.body, sc.narrow)))

    def allot(self, s: ast.Allot, sc: _Scope) -> None:
        rep = self.rep
        for node, verb in ((s.source, "allot from"), (s.into, "allot into")):
            spec = self.zone_expr(node, sc, verb)
            if spec is not None and spec.shape not in ("pile", "row"):
                rep.error(node, f"`{verb}` needs a pile or a row; `{spec.name}` is a {spec.shape}",
                          "allot from and into a pile of resource cards")
        targets = self.expr(s.targets, sc)
        for what, hint in (("wants", "wants LIST_OF_NEED_LISTS (for the target `it`)"),
                           ("serves", "serves DEFINITION (resource, need)"),
                           ("prefer", "prefer highest EXPR [then lowest EXPR]")):
            if what not in s.clause_pos:
                rep.error(s, f"`allot` needs a `{what}` line", f"add `{hint}` in its block")
        if s.wants is not None:
            self.expr(s.wants, sc.bind("it", element(targets), element=True))
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
            self.note_counter(s.note, ANY)
        for _direction, key in s.prefer:
            self.expr(key, sc)

    def tallied(self, e: ast.Call) -> None:
        """``tallied(p, ITEM)``: ITEM is a bare score item name; warn if the game never tallies."""
        if len(e.args) == 2 and not (isinstance(e.args[1], ast.Name) and e.args[1].name in self.components):
            what = e.args[1].name if isinstance(e.args[1], ast.Name) else ""
            self.rep.error(e.args[1], f"`{what}` is not a score item" if what else "`tallied(p, ITEM)` "
                           "takes the name of a score item", suggest(what, self.components) or
                           f"name an item of the `score:` block ({', '.join(self.components) or 'none'}), "
                           "or write `tallied(p)` for the total")
        g = self.g
        never = "`tallied` is always 0: the game never runs `tally`"
        if any(d.message == never for d in self.rep.items):
            return                           # the warning is given once
        if not any(isinstance(n, ast.Tally) for n in ast.walk(g.bodies)):
            self.rep.warning(e, never, "add `tally` where the rules score a round")

    def actor(self, node, name: str, sc: _Scope) -> None:
        self.reads.add((sc.unit, name))
        if name not in sc.locals and name not in self.counters:
            self.rep.error(node, f"unknown player `{name}`",
                           suggest(name, sc.locals | set(self.counters)) or
                           "the chooser is a player variable, such as the `p` of `for each player p`")

    def choose_count(self, count, sc: _Scope, source=None, t: Type = ANY, s=None) -> None:
        """``chooses N cards``: N is a whole number (at least 1 when written as a number), and the
        options are cards."""
        if s is not None and s.up_to is not None:
            return check_up_to(self, s, sc, t)
        if count is None:
            return
        if family(element(t)) not in (None, "card"):
            self.rep.error(source, f"`chooses N cards` chooses among cards; the options here are {describe(t)}",
                           "choose one option at a time: `chooses x from ...`")
        if isinstance(count, ast.Const):
            if not isinstance(count.value, int) or isinstance(count.value, bool) or count.value < 1:
                self.rep.error(count, f"a choice takes at least 1 card, not {count.value!r}",
                               "write `chooses 2 cards c from ...`, or `chooses c from ...` for one")
            return
        self.need_number(count, self.expr(count, sc), "the number of cards to choose")

    def choose_opts(self, opts: ast.ChooseOpts, var: str, source: Type, sc: _Scope) -> None:
        el = sc.bind("it", element(source), element=True).bind(var, element(source))
        if opts.preferring is not None:
            self.expr(opts.preferring, el)
        if opts.default_key is not None:
            self.expr(opts.default_key, el)
        if opts.default_is is not None:
            # the option that is this value (worked out before the choice, so not from `var`)
            t, want = self.expr(opts.default_is, sc), element(source)
            if family(t) and family(want) and family(t) != family(want):
                self.rep.error(opts.default_is, f"the default is {describe(t)}, and the options are "
                                                f"{describe(want)}s", "name one of the options, or use "
                               "`default highest KEY`")
        if opts.asking is not None:
            self.text_expr(opts.asking, sc, "`asking`")

    def menu_opts(self, s: ast.Menu, sc: _Scope) -> None:
        """A menu's ``default "label"`` names one of its branches; ``asking`` is its prompt."""
        o = s.opts
        if o is None:
            return
        if o.default_key is not None:
            self.rep.error(o, "a menu's default names one of its choices", 'write `default "LABEL"`')
        d = o.default_is
        if d is not None:
            labels = [b[0] for b in s.branches]
            if not (isinstance(d, ast.Const) and isinstance(d.value, str)):
                self.rep.error(d, "a menu's default names one of its choices in quotes",
                               "write `default \"" + (labels[0] if labels else "LABEL") + "\"`")
            elif d.value not in labels:
                self.rep.error(d, f"this menu has no choice \"{d.value}\"",
                               suggest(d.value, labels) or "name one of the quoted choices below")
        if o.asking is not None:
            self.text_expr(o.asking, sc, "`asking`")

    def assign_target(self, s, sc: _Scope) -> None:
        name, owner = s.name, s.owner
        c = self.counters.get(name)
        if owner is not None:
            ot = self.expr(owner, sc)
            if c is None:
                self.rep.error(s, f"unknown counter `{name}`", suggest(name, self.counters) or
                               "declare it with `counter NAME of each player = 0`")
            elif not (c.per_player or c.per_card):
                self.rep.error(s, f"counter `{name}` is shared, so `of ...` names no one", "drop `of ...`")
            else:                             # checked like a zone's owner (a check of language 4)
                self.need_owner(s, owner, ot, name, "a player" if c.per_player else "a card", "counter-target")
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

    def note_set(self, s, t: Type, sc: _Scope) -> None:
        """Learn from `NAME [of X] = value` / `add`: the counter or local variable may hold ``t``."""
        if s.name in self.counters:
            if isinstance(s, ast.Assign):
                self.check_counter_value(s.value, self.counters[s.name], t)
            self.note_counter(s.name, t)
            if t.kind in ("none", "any") or t.none:
                self._set_none_new.add(s.name)
        elif s.owner is None and s.name in sc.locals:
            self.note_local(sc, s.name, t)
            if isinstance(s, ast.Assign):
                self.assigned.setdefault((sc.unit, s.name), s)

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
        if is_family_form(node, self.families) and not (isinstance(node, ast.Name) and node.name in sc.locals):
            return True
        if isinstance(node, ast.Name):
            return node.name in self.zones and node.name not in sc.locals
        if isinstance(node, ast.Of):
            return node.name in self.zones
        return False


#: The check of each kind of statement: a method of :class:`_Checker`.
_STMT_CHECKS = {
    ast.Move: "stmt_move", ast.Shuffle: "stmt_shuffle", ast.Fill: "stmt_fill", ast.Exchange: "stmt_exchange",
    ast.Assign: "stmt_assign", ast.Add: "stmt_assign", ast.Choose: "stmt_choose", ast.Play: "stmt_play",
    ast.Do: "stmt_do", ast.Announce: "stmt_announce", ast.EndGame: "stmt_plain", ast.Nothing: "stmt_plain",
    ast.Tally: "stmt_tally", ast.StopLoop: "stmt_stop", ast.If: "stmt_if", ast.RepeatTimes: "stmt_repeat_times",
    ast.RepeatUntil: "stmt_repeat_until", ast.ForPlayers: "stmt_for_players", ast.ForEach: "stmt_for_each",
    ast.Menu: "stmt_menu", ast.Allot: "allot", ast.Together: "stmt_together",
}
