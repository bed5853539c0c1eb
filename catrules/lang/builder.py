"""Lark's parse tree -> :mod:`catrules.lang.ast` nodes, with positions (like Lark's create_ast example).

:mod:`catrules.lang.parser` parses a game file with the grammar, then this
transformer turns every rule of the tree into an AST node that keeps its
line and column.  Numbers and card rows are checked against the limits of
game files here (:mod:`catrules.limits`), each mistake a located error.
The rules of expressions are in :mod:`catrules.lang.builder_exprs`, a part of the same transformer.
"""

from __future__ import annotations

from lark import Token, v_args

from . import ast, header_lines
from .builder_exprs import ExprRules, _pos
from .copies import CopyCounts
from .menu_names import menu_name, written_default
from .upto import counted, up_to
from ..errors import Reporter
from ..limits import DECK_LIMIT, GRID_LIMIT, RANGE_LIMIT
from ..limits import FILE_NUMBER_LIMIT as NUMBER_LIMIT


def _tpos_t(tok: Token) -> tuple:
    return (tok.line or 0, tok.column or 0)


@v_args(meta=True)
class _ToAst(ExprRules):
    def __init__(self, rep: Reporter, path: str, parse_expr=None):
        super().__init__()
        self.rep = rep
        self.path = path
        self.deck = 0              # cards declared so far
        self.version = 0           # the language version, once the header is read
        self.parse_expr = parse_expr   # text of one expression -> parse tree (for `{...}` in texts)

    # ---- numbers and limits ----
    def _int(self, tok, limit: int = NUMBER_LIMIT, what: str = "a number larger than {limit:,}",
             hint: str = "") -> int:
        """An INT token as a number, reporting one beyond ``limit``."""
        digits = str(tok).lstrip("0") or "0"
        if len(digits) > 18 or int(digits) > limit:
            self.rep.error(_tpos_t(tok), what.format(limit=limit),
                           hint or f"numbers in a game file go up to {NUMBER_LIMIT:,}")
            return 0
        return int(digits)

    # ---- values in card rows ----
    def pos_int(self, meta, ch):
        return self._int(ch[0])

    def neg_int(self, meta, ch):
        return -self._int(ch[0])

    def vnone(self, meta, ch):
        return None

    def vlist(self, meta, ch):
        return tuple(_plain(c) for c in ch if c is not None)

    def value_enum(self, meta, ch):
        return [_plain(c) for c in ch]

    def value_range(self, meta, ch):
        a, b = int(ch[0]), int(ch[1])
        if abs(b - a) >= RANGE_LIMIT:
            self.rep.error(meta, f"a range of {abs(b - a) + 1:,} values (at most {RANGE_LIMIT:,})",
                           "a game has at most {:,} cards; list the values or use a smaller range"
                           .format(DECK_LIMIT))
            return [a]
        return list(range(a, b + 1)) if a <= b else list(range(a, b - 1, -1))

    def attr_pair(self, meta, ch):
        return (str(ch[0]), _plain(ch[1]), _pos(meta))

    def attr_pairs(self, meta, ch):
        return list(ch)

    def card_row(self, meta, ch):
        copies, pairs = ch[0], ch[1]
        n = self._int(copies, DECK_LIMIT, "more copies in one card row than a game may have cards "
                      "({limit:,})", f"a game has at most {DECK_LIMIT:,} cards") if copies is not None else 1
        return ("row", n, pairs or [], _pos(meta))

    def card_row_counted(self, meta, ch):
        return ("row", ast.CopyCount(ch[0], **_pos(meta)), ch[1] or [], _pos(meta))

    def card_for(self, meta, ch):
        return ("for", str(ch[0]), ch[1], ch[2:], _pos(meta))

    def card_with(self, meta, ch):
        return ("with", ch[0], ch[1:], _pos(meta))

    def cards(self, meta, ch):
        name, zone, items = ch[0], ch[1], ch[2:]
        rows: list[ast.CardRow] = []
        counting = CopyCounts(self.rep, items, self.version)

        def expand(item, ctx, loops=frozenset()):
            kind = item[0]
            if self.deck > DECK_LIMIT:
                return
            if kind == "row":
                item = counting.row(item, ctx)
                if item is None:
                    return
                self.deck += item[1]
                if self.deck > DECK_LIMIT:
                    self.rep.error((item[3]["line"], item[3]["column"]),
                                   f"the game declares more than {DECK_LIMIT:,} cards",
                                   "a game has at most {:,} cards over all its card types".format(DECK_LIMIT))
                    return
                attrs_ = dict(ctx)
                for k, v, _ in item[2]:
                    attrs_[k] = counting.value(v, ctx, loops)
                rows.append(ast.CardRow(item[1], attrs_, **item[3]))
            elif kind == "for":
                for v in item[2]:
                    for sub in item[3]:
                        expand(sub, {**ctx, item[1]: v}, loops | {item[1]})
            else:
                new = dict(ctx)
                for k, v, _ in item[1]:
                    new[k] = counting.value(v, ctx, loops)
                for sub in item[2]:
                    expand(sub, new, loops)

        for it in items:
            expand(it, {})
        return ast.CardType(str(name), str(zone), rows, zone_line=zone.line, zone_column=zone.column,
                            counted=counting.counted, **_pos(meta))

    # ---- declarations ----
    def header(self, meta, ch):
        self.version = self._int(ch[0])
        title = ch[1] if ch[1] is not None else None         # left out: a variant's base says it
        lo, hi = ch[2] if ch[2] is not None else (None, None)
        return ("header", self.version, title, lo, hi, _pos(meta))

    def header_game(self, meta, ch):
        return ch[0][1:-1]

    def header_players(self, meta, ch):
        return (self._int(ch[0]), self._int(ch[1]))

    def show_symbol(self, meta, ch):
        return ast.ShowSymbol(str(ch[0]), ch[1][1:-1], **_pos(meta))

    def show_face(self, meta, ch):
        return ast.ShowCard("face", str(ch[0]), str(ch[1]), ch[2], **_pos(meta))

    def show_text(self, meta, ch):
        return ast.ShowCard("text", str(ch[0]), str(ch[1]), ch[2], **_pos(meta))

    def how_line(self, meta, ch):
        return ch[0][1:-1]

    def how_to_play(self, meta, ch):
        node = ast.HowToPlay(list(ch), **_pos(meta))
        if 0 < self.version < 3:
            self.rep.error(node, f"`how to play` is language 3, and this file says `catrules {self.version}`",
                           "write `catrules 3` on the first line")
        elif not any(t.strip() for t in node.lines):
            self.rep.error(node, "the `how to play` text is empty",
                           'write what a person needs to know to play, a line of text each: "Goal: ..."')
        return node

    def option(self, meta, ch):
        return ast.Option(str(ch[0]), ch[1][1:-1], ch[2] if len(ch) > 2 else None, **_pos(meta))

    def option_value(self, meta, ch):
        v = ch[0]
        return (str(v) if isinstance(v, Token) else v, meta.line, meta.column)

    def option_enum(self, meta, ch):
        return ast.OptionValues(ch[0][0], list(ch[1:]), line=ch[0][1], column=ch[0][2])

    def option_range(self, meta, ch):
        return ast.OptionValues(ch[0][0], list(ch[1:]), span=True, line=ch[0][1], column=ch[0][2])

    def zone_prop(self, meta, ch):
        for c in ch:
            if c.type == "INT":
                self._int(c, GRID_LIMIT, "a grid side larger than {limit:,}", f"a grid has at most "
                          f"{GRID_LIMIT} rows and {GRID_LIMIT} columns")
        return (tuple(str(c) for c in ch), _pos(meta))

    def zone(self, meta, ch):
        return ast.Zone(str(ch[0]), list(ch[1:]), **_pos(meta))

    def per_player(self, meta, ch):
        return "player"

    def per_card(self, meta, ch):
        return "card"

    def counter(self, meta, ch):
        secret, name, owner, declared, value = ch
        return ast.Counter(str(name), owner == "player", value, per_card=owner == "card", declared=declared,
                           secret=secret is not None, **_pos(meta))

    def counter_type(self, meta, ch):
        return str(ch[-1])

    def params(self, meta, ch):
        return [str(c) for c in ch if c is not None]

    def define(self, meta, ch):
        return ast.Define(str(ch[0]), ch[1] if ch[1] is not None else [], ch[2], **_pos(meta))

    def action(self, meta, ch):
        return ast.Action(str(ch[0]), ch[1], ch[2], **_pos(meta))

    def trigger(self, meta, ch):
        var, zone, owner, source, guard, body = ch
        src, src_owner = source if source is not None else (None, None)
        return ast.Trigger(str(var), str(zone), str(owner) if owner is not None else None, guard, body,
                           source=src, source_owner=src_owner, **_pos(meta))

    def trigger_from(self, meta, ch):
        return (str(ch[0]), str(ch[1]) if ch[1] is not None else None)

    def setup(self, meta, ch):
        return ("setup", ch[0], _pos(meta))

    def flow(self, meta, ch):
        return ("flow", ch[0], _pos(meta))

    def phase(self, meta, ch):
        return ast.Phase(str(ch[0]), ch[1], **_pos(meta))

    def score_item(self, meta, ch):
        note, name, value, only_if = ch
        return ast.ScoreItem(str(name), value, counted=note is None, only_if=only_if, **_pos(meta))

    def score(self, meta, ch):
        return ("score", list(ch))

    def rank_by(self, meta, ch):
        return ast.RankBy(str(ch[0]), ch[1], **_pos(meta))

    def ties_share(self, meta, ch):
        return None

    def ties_race(self, meta, ch):
        return ("race", _pos(meta))

    def winner(self, meta, ch):
        return ("winner", [c for c in ch if c is not None])

    # ---- variants ----
    def extends(self, meta, ch):
        return ast.Extends(ch[0][1:-1], **_pos(meta))

    def replace(self, meta, ch):
        return ast.Replace(ch[0], **_pos(meta))

    def removable(self, meta, ch):
        return str(ch[0])

    def remove_named(self, meta, ch):
        return ast.Remove(ch[0], str(ch[1]), **_pos(meta))

    def remove_cards_where(self, meta, ch):
        return ast.Remove("cards", str(ch[0]), ch[1], **_pos(meta))

    def remove_some_cards(self, meta, ch):
        if self._int(ch[0]) == 0:
            self.rep.error((ch[0].line, ch[0].column), "`remove 0 cards` removes nothing",
                           "write how many cards to remove (1 or more), or leave the line out")
        return ast.Remove("cards", str(ch[1]), ch[2], count=self._int(ch[0]), **_pos(meta))

    def remove_trigger(self, meta, ch):
        head = self.trigger(meta, [ch[0], ch[1], ch[2], ch[3], None, []])
        return ast.Remove("trigger", head.zone, head=head, **_pos(meta))

    def more(self, meta, ch):
        return ast.More(self.cards(meta, [ch[0], ch[0], *ch[1:]]), **_pos(meta))

    def start(self, meta, ch):
        header = ch[0]
        _, version, title, lo, hi, hpos = header
        g = ast.GameFile(self.path, version, title, lo, hi, **hpos)
        for item in ch[1:]:
            if item is None:                # no `extends` line
                continue
            if isinstance(item, ast.Extends):
                g.extends = item
            elif isinstance(item, (ast.Replace, ast.Remove, ast.More)):
                g.edits.append(item)
            elif isinstance(item, ast.Option):
                g.options.append(item)
            elif isinstance(item, ast.CardType):
                g.cards.append(item)
            elif isinstance(item, ast.Zone):
                g.zones.append(item)
            elif isinstance(item, ast.Counter):
                g.counters.append(item)
            elif isinstance(item, ast.Define):
                g.defines.append(item)
            elif isinstance(item, ast.Action):
                g.actions.append(item)
            elif isinstance(item, ast.Trigger):
                g.triggers.append(item)
            elif isinstance(item, ast.Phase):
                g.phases.append(item)
            elif isinstance(item, ast.ShowSymbol):
                g.symbol_names.append(item)
            elif isinstance(item, ast.ShowCard):
                g.card_shows.append(item)
            elif isinstance(item, ast.HowToPlay):
                if g.how_to_play is not None:
                    self.rep.error(item, "a second `how to play` block",
                                   f"a game has one how-to-play text: add these lines to the one on line "
                                   f"{g.how_to_play.line}")
                else:
                    g.how_to_play = item
            elif isinstance(item, tuple):
                kind = item[0]
                if kind == "setup":
                    if g.setup:
                        self.rep.error((item[2]["line"], item[2]["column"]), "a second `setup` block",
                                       "put all setup steps in one block")
                    g.setup, g.setup_pos = item[1], (item[2]["line"], item[2]["column"])
                elif kind == "flow":
                    if g.flow:
                        self.rep.error((item[2]["line"], item[2]["column"]), "a second `flow` block",
                                       "a game has one flow; call phases from it with `play`")
                    g.flow, g.flow_pos = item[1], (item[2]["line"], item[2]["column"])
                elif kind == "score":
                    g.score.extend(item[1])
                elif kind == "winner":
                    for r in item[1]:
                        if isinstance(r, tuple):
                            g.tie_race = r[1]["line"]
                        else:
                            g.ranking.append(r)
        header_lines.check(self.rep, g, hpos)
        return g

    # ---- statements ----
    def block(self, meta, ch):
        return list(ch)

    def move(self, meta, ch):
        return ast.Move(ch[0], ch[1], **_pos(meta))

    def shuffle(self, meta, ch):
        return ast.Shuffle(ch[0], **_pos(meta))

    def fill(self, meta, ch):
        return ast.Fill(ch[0], ch[1], **_pos(meta))

    def exchange(self, meta, ch):
        return ast.Exchange(ch[0], ch[1], **_pos(meta))

    def assign(self, meta, ch):
        return ast.Assign(str(ch[0]), ch[1], ch[2], **_pos(meta))

    def add(self, meta, ch):
        return ast.Add(ch[0], str(ch[1]), ch[2], **_pos(meta))

    def choose_opts(self, meta, ch):
        pref, default, asking = ch
        direction = key = named = None
        if default is not None:
            if default[0] == "by":
                direction, key = default[1], default[2]
            else:
                named = default[1]
        return ast.ChooseOpts(pref, direction, key, named, asking, **_pos(meta))

    def default_by(self, meta, ch):
        return ("by", str(ch[0]), ch[1])

    def default_is(self, meta, ch):
        return ("is", ch[0])

    def asking(self, meta, ch):
        return ch[0]

    def must_race(self, meta, ch):
        return False

    def may_race(self, meta, ch):
        return True

    def nothing(self, meta, ch):
        return ast.Nothing(**_pos(meta))

    def how_many(self, meta, ch):
        n = ch[0]
        return ast.Const(self._int(n), line=n.line, column=n.column) if isinstance(n, Token) else n

    def up_to(self, meta, ch):
        return up_to(self.how_many(meta, ch[1:]))

    def any_number(self, meta, ch):
        return up_to(None, "any")

    def choose(self, meta, ch):
        openly, actor, count, var, source, opts = ch
        count, mode = counted(count)
        return ast.Choose(str(actor), str(var), source, opts, public=openly is not None, count=count,
                          up_to=mode, **_pos(meta))

    def play(self, meta, ch):
        return ast.Play(str(ch[0]), **_pos(meta))

    def do(self, meta, ch):
        return ast.Do(str(ch[0]), ch[1] or [], **_pos(meta))

    def announce(self, meta, ch):
        return ast.Announce(ch[0], **_pos(meta))

    def end_game(self, meta, ch):
        return ast.EndGame(**_pos(meta))

    def tally(self, meta, ch):
        return ast.Tally(ch[0], **_pos(meta))

    def stop(self, meta, ch):
        return ast.StopLoop(**_pos(meta))

    def elif_(self, meta, ch):  # noqa: D102
        return (ch[0], ch[1])

    def if_stmt(self, meta, ch):
        cond, body = ch[0], ch[1]
        rest = ch[2:]
        otherwise = rest[-1] if rest else None
        elifs = [c for c in rest[:-1]]
        return ast.If([(cond, body)] + elifs, otherwise, **_pos(meta))

    def repeat_times(self, meta, ch):
        return ast.RepeatTimes(ch[0], ch[1], **_pos(meta))

    def repeat_until(self, meta, ch):
        return ast.RepeatUntil(ch[0], ch[1], **_pos(meta))

    def repeat_while(self, meta, ch):
        return ast.RepeatUntil(ch[0], ch[1], negate=True, **_pos(meta))

    def clockwise_from(self, meta, ch):
        return ("from", ch[0])

    def in_order(self, meta, ch):
        return ("in", ch[0])

    def for_players(self, meta, ch):
        var, order, body = ch
        start = order[1] if order and order[0] == "from" else None
        among = order[1] if order and order[0] == "in" else None
        return ast.ForPlayers(str(var), start, among, body, **_pos(meta))

    def for_each(self, meta, ch):
        return ast.ForEach(str(ch[0]), ch[1], ch[2], **_pos(meta))

    def menu_item(self, meta, ch):
        raw = ch[0][1:-1]
        said = menu_name(self, ch[0])        # language 4: the name said with values, or None
        return (raw, ch[1], ch[2], _pos(meta)) + ((said,) if said is not None else ())

    def menu_stmt(self, meta, ch):
        openly, actor, default, asking = ch[:4]
        default = written_default(self, default)     # `default "take {c}"` names a choice as written
        opts = None
        if default is not None or asking is not None:
            opts = ast.ChooseOpts(default_is=default[1] if default is not None else None, asking=asking,
                                  **_pos(meta))
            if default is not None and default[0] == "by":
                opts.default_dir, opts.default_key, opts.default_is = default[1], default[2], None
        items = list(ch[4:])
        said = [it[4] if len(it) > 4 else None for it in items]
        return ast.Menu(str(actor), [it[:4] for it in items], public=openly is not None, opts=opts,
                        labels=said if any(x is not None for x in said) else None, **_pos(meta))

    def prefer_key(self, meta, ch):
        return (str(ch[0]), ch[1])

    def allot_wants(self, meta, ch):
        return ("wants", ch[0], _pos(meta))

    def allot_serves(self, meta, ch):
        return ("serves", str(ch[0]), _pos(meta))

    def allot_spare(self, meta, ch):
        return ("spare", ch[0], _pos(meta))

    def allot_maximal(self, meta, ch):
        return ("maximal", True, _pos(meta))

    def allot_note(self, meta, ch):
        return ("note", str(ch[1]), _pos(meta))

    def allot_prefer(self, meta, ch):
        return ("prefer", list(ch), _pos(meta))

    def allot_stmt(self, meta, ch):
        node = ast.Allot(ch[0], ch[1], ch[2], **_pos(meta))
        for what, value, pos in ch[3:]:
            if what in node.clause_pos:
                self.rep.error((pos["line"], pos["column"]), f"`{what}` appears twice in this `allot`",
                               "keep one of them")
            node.clause_pos[what] = pos
            setattr(node, what, value)
        return node

    def secret_stmt(self, meta, ch):
        player, among, count, var, source, opts, body = ch
        count, mode = counted(count)
        return ast.Together("secret", str(player), among, str(var), source, opts, body, count=count,
                            up_to=mode, **_pos(meta))

    def race_stmt(self, meta, ch):
        player, among, optional, var, source, opts, body = ch
        return ast.Together("race", str(player), among, str(var), source, opts, body, optional=optional,
                            **_pos(meta))


def _plain(v):
    if isinstance(v, Token):
        if v.type == "STRING":
            return str(v)[1:-1]
        if v.type == "INT":
            return int(v) if len(v) <= 18 else 0
        return ast.Sym(str(v))
    return v
