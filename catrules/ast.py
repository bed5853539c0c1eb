"""The abstract syntax tree of a game file.

Every node is an attrs class that keeps the source position (``line``,
``column``) of the text it came from, so that the checker and the runtime can
point at the exact place of a mistake. :mod:`catrules.parser` builds these
nodes from the Lark parse tree; nothing else creates them.
"""

from __future__ import annotations

from typing import Any, Optional

import attrs


class Sym(str):
    """A bare word in card data (``green``): a symbol, not quoted text."""
    __slots__ = ()


@attrs.define(eq=False)
class Node:
    line: int = attrs.field(kw_only=True, default=0)
    column: int = attrs.field(kw_only=True, default=0)

    @property
    def pos(self) -> tuple[int, int]:
        return (self.line, self.column)


# ---- expressions ------------------------------------------------------------

@attrs.define(eq=False)
class Expr(Node):
    pass


@attrs.define(eq=False)
class Const(Expr):
    """A number, string, true/false or none."""
    value: Any


@attrs.define(eq=False)
class Name(Expr):
    """A bare name: a variable, counter, zone, option, attribute or symbol."""
    name: str


@attrs.define(eq=False)
class Keyword(Expr):
    """``player``, ``players`` or ``everyone``."""
    word: str


@attrs.define(eq=False)
class Attr(Expr):
    """``card.attribute``."""
    target: Expr
    name: str


@attrs.define(eq=False)
class Of(Expr):
    """``thing of owner``: a per-player zone or counter, or a card attribute."""
    name: str
    owner: Expr


@attrs.define(eq=False)
class Call(Expr):
    name: str
    args: list


@attrs.define(eq=False)
class ListExpr(Expr):
    items: list


@attrs.define(eq=False)
class Unary(Expr):
    op: str          # "-" or "not"
    operand: Expr


@attrs.define(eq=False)
class Binary(Expr):
    op: str          # + - * / % == != < > <= >= in "not in" and or
    left: Expr
    right: Expr


@attrs.define(eq=False)
class IfElse(Expr):
    cond: Expr
    then: Expr
    other: Expr


@attrs.define(eq=False)
class Text(Expr):
    """Text with values: ``"{p} wins the trick"``.  ``parts`` are strings and expressions; the
    values are shown as people read them (a player, a card's face, a symbol's display name)."""
    parts: list


@attrs.define(eq=False)
class Where(Expr):
    """``collection where condition``; the condition sees each element as ``it``.

    ``each NAME in collection [where condition]`` names the element instead
    (``var``), leaving an outer ``it`` alone; without a condition it is the
    whole collection, whose element a per-element argument (``sum(each c in
    l, c.value)``) also sees as ``NAME``.
    """
    source: Expr
    cond: Optional[Expr]
    var: Optional[str] = None


@attrs.define(eq=False)
class Pick(Expr):
    """``pick(key, k1: v1, k2: v2, else: v)``."""
    key: Expr
    cases: list      # list of (Expr, Expr)
    default: Optional[Expr]


# ---- statements ---------------------------------------------------------------

@attrs.define(eq=False)
class Stmt(Node):
    pass


@attrs.define(eq=False)
class Move(Stmt):
    cards: Expr
    dest: Expr


@attrs.define(eq=False)
class Shuffle(Stmt):
    zone: Expr


@attrs.define(eq=False)
class Fill(Stmt):
    zone: Expr
    source: Expr


@attrs.define(eq=False)
class Exchange(Stmt):
    first: Expr
    second: Expr


@attrs.define(eq=False)
class Assign(Stmt):
    name: str
    owner: Optional[Expr]
    value: Expr


@attrs.define(eq=False)
class Add(Stmt):
    amount: Expr
    name: str
    owner: Optional[Expr]


@attrs.define(eq=False)
class ChooseOpts(Node):
    preferring: Optional[Expr] = None
    default_dir: Optional[str] = None   # "lowest" | "highest"
    default_key: Optional[Expr] = None
    default_is: Optional[Expr] = None   # ``default EXPR``: the option that is this value
    asking: Optional[Expr] = None       # ``asking "..."``: the prompt (text)


@attrs.define(eq=False)
class Choose(Stmt):
    """``p chooses c from options [preferring cond] [default lowest key]``."""
    actor: str
    var: str
    source: Expr
    opts: ChooseOpts
    public: bool = False              # ``openly``: everyone sees the option chosen
    count: Optional[Expr] = None      # ``chooses 3 cards``: several cards, ``var`` is their list


@attrs.define(eq=False)
class Play(Stmt):
    phase: str


@attrs.define(eq=False)
class Do(Stmt):
    action: str
    args: list


@attrs.define(eq=False)
class Announce(Stmt):
    text: Expr                # a text, with values in braces


@attrs.define(eq=False)
class Nothing(Stmt):
    """``do nothing``: a statement for a branch with nothing to do."""


@attrs.define(eq=False)
class EndGame(Stmt):
    pass


@attrs.define(eq=False)
class StopLoop(Stmt):
    pass


@attrs.define(eq=False)
class Tally(Stmt):
    """Score now: add each player's score items to their running totals and show them."""
    title: Optional[Expr] = None      # ``tally "after round {r}"``: what the tally is called


@attrs.define(eq=False)
class If(Stmt):
    branches: list            # list of (cond Expr, body list)
    otherwise: Optional[list]


@attrs.define(eq=False)
class RepeatTimes(Stmt):
    count: Expr
    body: list


@attrs.define(eq=False)
class RepeatUntil(Stmt):
    cond: Expr
    body: list
    negate: bool = False      # True for ``repeat while``


@attrs.define(eq=False)
class ForPlayers(Stmt):
    var: str
    start: Optional[Expr]     # clockwise from ...
    among: Optional[Expr]     # in ...
    body: list


@attrs.define(eq=False)
class ForEach(Stmt):
    var: str
    source: Expr
    body: list


@attrs.define(eq=False)
class Together(Stmt):
    """A simultaneous choice: ``secretly each player`` or ``race each player``.

    Every player in ``among`` chooses from ``source`` at the same time; no
    choice is seen before all are made.  The body then runs once per player,
    in seat order for a secret choice, fastest first for a race.
    """
    mode: str                 # "secret" | "race"
    player: str
    among: Optional[Expr]
    var: str
    source: Expr
    opts: ChooseOpts
    body: list
    count: Optional[Expr] = None      # ``chooses 3 cards``: several cards each (secret only)
    optional: bool = False            # ``race ... may choose``: a player may sit the race out


@attrs.define(eq=False)
class Menu(Stmt):
    """``p chooses:`` with named branches; a branch is offered while its condition holds."""
    actor: str
    branches: list            # list of (label str, cond Expr or None, body list)
    public: bool = False      # ``openly``: everyone sees the branch chosen
    opts: Optional[ChooseOpts] = None   # ``default "label"`` and ``asking "..."``


@attrs.define(eq=False)
class Allot(Stmt):
    """``allot R to T into Z:`` share resource cards among target cards the best way.

    Each target takes one of the lists of needs ``wants`` gives for it, or
    nothing; a resource meets a need when the ``serves`` definition says so,
    and up to ``spare`` resources may meet any need.  Of every way that fits,
    the one best by the ``prefer`` keys is kept: used resources move into
    ``into`` and ``note`` records each target's list of needs (none if unmet).
    """
    source: Expr
    targets: Expr
    into: Expr
    wants: Optional[Expr] = None
    serves: Optional[str] = None
    spare: Optional[Expr] = None
    note: Optional[str] = None
    prefer: list = attrs.Factory(list)   # list of (direction, Expr)
    maximal: bool = False                # only ways where no unmet target could still be met
    clause_pos: dict = attrs.Factory(dict)


# ---- declarations ---------------------------------------------------------------

@attrs.define(eq=False)
class Option(Node):
    name: str
    text: str


@attrs.define(eq=False)
class CardRow(Node):
    copies: int
    attrs: dict               # attribute -> python value


@attrs.define(eq=False)
class CardType(Node):
    name: str
    zone: str
    rows: list                # list of CardRow, already expanded
    zone_line: int = 0
    zone_column: int = 0


@attrs.define(eq=False)
class Zone(Node):
    name: str
    props: list               # list of (words tuple, line, column)


@attrs.define(eq=False)
class Counter(Node):
    name: str
    per_player: bool
    value: Expr
    per_card: bool = False    # ``counter NAME of each card``: one value per card


@attrs.define(eq=False)
class Define(Node):
    name: str
    params: list
    body: Expr


@attrs.define(eq=False)
class Action(Node):
    name: str
    params: list
    body: list


@attrs.define(eq=False)
class Trigger(Node):
    var: str
    zone: str
    owner: Optional[str]
    guard: Optional[Expr]
    body: list
    source: Optional[str] = None          # `from ZONE`: only cards coming from that zone
    source_owner: Optional[str] = None    # `from ZONE of NAME`: NAME is the zone's owner

    @property
    def label(self) -> str:
        src = f" from {self.source}" if self.source else ""
        return f"when card enters {self.zone}{src} (line {self.line})"


@attrs.define(eq=False)
class Phase(Node):
    name: str
    body: list


@attrs.define(eq=False)
class ScoreItem(Node):
    name: str
    value: Expr
    counted: bool = True
    only_if: Optional[Expr] = None    # ``= ... if OPTIONS``: the item exists only in such games


@attrs.define(eq=False)
class ShowSymbol(Node):
    """``show wild_card as "WILD!"``: how a symbol is written for people."""
    symbol: str
    text: str


@attrs.define(eq=False)
class ShowCard(Node):
    """``show card c of piece as TEXT`` (``face``) or ``describe card ...`` (``text``)."""
    what: str                 # "face" | "text"
    var: str
    card_type: str
    value: Expr


@attrs.define(eq=False)
class RankBy(Node):
    direction: str            # "highest" | "lowest"
    key: Expr


@attrs.define(eq=False)
class Extends(Node):
    """``extends "base.cat"``: the path as written (relative to the variant's file)."""
    target: str


@attrs.define(eq=False)
class Replace(Node):
    """``replace DECLARATION``: the declaration stands in for the base's of that kind and name."""
    item: Any                 # an AST node, or ("setup" | "flow" | "score" | "winner", ...)


@attrs.define(eq=False)
class Remove(Node):
    """``remove KIND NAME`` or ``remove cards of TYPE where COND``."""
    kind: str                 # option | cards | zone | counter | define | action | phase | score
    name: str
    cond: Optional[Expr] = None


@attrs.define(eq=False)
class GameFile(Node):
    path: str
    version: int
    title: str
    min_players: int
    max_players: int
    options: list = attrs.Factory(list)
    cards: list = attrs.Factory(list)
    zones: list = attrs.Factory(list)
    counters: list = attrs.Factory(list)
    defines: list = attrs.Factory(list)
    actions: list = attrs.Factory(list)
    triggers: list = attrs.Factory(list)
    phases: list = attrs.Factory(list)
    setup: list = attrs.Factory(list)
    flow: list = attrs.Factory(list)
    score: list = attrs.Factory(list)
    ranking: list = attrs.Factory(list)     # RankBy; "ties share" is the default
    tie_race: int = 0                       # line of `ties race` (players still tied race), or 0
    symbol_names: list = attrs.Factory(list)   # ShowSymbol
    card_shows: list = attrs.Factory(list)     # ShowCard
    source: str = ""
    setup_pos: tuple = (0, 0)
    flow_pos: tuple = (0, 0)
    extends: Optional["Extends"] = None      # `extends "base.cat"`: a variant of that game
    edits: list = attrs.Factory(list)        # Replace and Remove, in file order
    origins: dict = attrs.Factory(dict)      # id(node) -> path, for nodes from a base file
    sources: dict = attrs.Factory(dict)      # path -> text, of every base file

    @property
    def bodies(self) -> list:
        """The statement blocks of the game: setup, flow, every phase, action and trigger."""
        return [self.setup, self.flow] + [x.body for x in self.phases + self.actions + self.triggers]


def walk(node):
    """Yield ``node`` and every node below it (statements and expressions)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Node):
            yield n
            for f in attrs.fields(type(n)):
                v = getattr(n, f.name)
                if isinstance(v, (Node, list, tuple)):
                    stack.append(v)
        elif isinstance(n, (list, tuple)):
            stack.extend(n)
