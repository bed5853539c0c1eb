"""The abstract syntax tree of a game file.

Every node is a class made by :func:`node` that keeps the source position (``line``,
``column``) of the text it came from, so that the checker and the runtime can
point at the exact place of a mistake. :mod:`catrules.lang.parser` builds these
nodes from the Lark parse tree; nothing else creates them.

:func:`node` (:mod:`catrules.lang.nodemaker`) writes each class's ``__init__`` from its
annotated fields, all at once when this module's classes are made.
"""

from __future__ import annotations

from typing import Any, Optional

from .nodemaker import Factory, fields, node, write_inits  # noqa: F401 - fields: part of this module's interface


class Sym(str):
    """A bare word in card data (``green``): a symbol, not quoted text."""
    __slots__ = ()


@node
class Node:
    line: int = 0               # keywords only (see :func:`node`)
    column: int = 0

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__fields__) + ")"

    @property
    def pos(self) -> tuple[int, int]:
        return (self.line, self.column)


# ---- expressions ------------------------------------------------------------

@node
class Expr(Node):
    pass


@node
class Const(Expr):
    """A number, string, true/false or none."""
    value: Any


@node
class Name(Expr):
    """A bare name: a variable, counter, zone, option, attribute or symbol."""
    name: str


@node
class Keyword(Expr):
    """``player``, ``players`` or ``everyone``."""
    word: str


@node
class Attr(Expr):
    """``card.attribute``."""
    target: Expr
    name: str


@node
class Of(Expr):
    """``thing of owner``: a per-player zone or counter, or a card attribute."""
    name: str
    owner: Expr
    key: Optional[Expr] = None    # ``expedition(c.colour) of p``: a member of a zone family


@node
class Call(Expr):
    name: str
    args: list


@node
class UpTo(Expr):
    """``up to N``: a count that may be short (``top(deck, up to 9)``, language 4)."""
    count: Expr


@node
class ListExpr(Expr):
    items: list


@node
class Unary(Expr):
    op: str          # "-" or "not"
    operand: Expr


@node
class Binary(Expr):
    op: str          # + - * / % == != < > <= >= in "not in" and or
    left: Expr
    right: Expr


@node
class IfElse(Expr):
    cond: Expr
    then: Expr
    other: Expr


@node
class Text(Expr):
    """Text with values: ``"{p} wins the trick"``.  ``parts`` are strings and expressions; the
    values are shown as people read them (a player, a card's face, a symbol's display name)."""
    parts: list


@node
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


@node
class Pick(Expr):
    """``pick(key, k1: v1, k2: v2, else: v)``."""
    key: Expr
    cases: list      # list of (Expr, Expr)
    default: Optional[Expr]


# ---- statements ---------------------------------------------------------------

@node
class Stmt(Node):
    pass


@node
class Move(Stmt):
    cards: Expr
    dest: Expr


@node
class Shuffle(Stmt):
    zone: Expr


@node
class Fill(Stmt):
    zone: Expr
    source: Expr


@node
class Exchange(Stmt):
    first: Expr
    second: Expr


@node
class Assign(Stmt):
    name: str
    owner: Optional[Expr]
    value: Expr


@node
class Add(Stmt):
    amount: Expr
    name: str
    owner: Optional[Expr]


@node
class ChooseOpts(Node):
    preferring: Optional[Expr] = None
    default_dir: Optional[str] = None   # "lowest" | "highest"
    default_key: Optional[Expr] = None
    default_is: Optional[Expr] = None   # ``default EXPR``: the option that is this value
    asking: Optional[Expr] = None       # ``asking "..."``: the prompt (text)


@node
class Choose(Stmt):
    """``p chooses c from options [preferring cond] [default lowest key]``."""
    actor: str
    var: str
    source: Expr
    opts: ChooseOpts
    public: bool = False              # ``openly``: everyone sees the option chosen
    count: Optional[Expr] = None      # ``chooses 3 cards``: several cards, ``var`` is their list
    up_to: Optional[str] = None       # "up to" (``up to N cards``: N at most), "any" (``any number of cards``)


@node
class Play(Stmt):
    phase: str


@node
class Do(Stmt):
    action: str
    args: list


@node
class Announce(Stmt):
    text: Expr                # a text, with values in braces


@node
class Nothing(Stmt):
    """``do nothing``: a statement for a branch with nothing to do."""


@node
class EndGame(Stmt):
    pass


@node
class StopLoop(Stmt):
    pass


@node
class Tally(Stmt):
    """Score now: add each player's score items to their running totals and show them."""
    title: Optional[Expr] = None      # ``tally "after round {r}"``: what the tally is called


@node
class If(Stmt):
    branches: list            # list of (cond Expr, body list)
    otherwise: Optional[list]


@node
class RepeatTimes(Stmt):
    count: Expr
    body: list


@node
class RepeatUntil(Stmt):
    cond: Expr
    body: list
    negate: bool = False      # True for ``repeat while``


@node
class ForPlayers(Stmt):
    var: str
    start: Optional[Expr]     # clockwise from ...
    among: Optional[Expr]     # in ...
    body: list


@node
class ForEach(Stmt):
    var: str
    source: Expr
    body: list


@node
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
    up_to: Optional[str] = None       # as :class:`Choose`'s (secret only)


@node
class Menu(Stmt):
    """``p chooses:`` with named branches; a branch is offered while its condition holds."""
    actor: str
    branches: list            # list of (label str, cond Expr or None, body list)
    public: bool = False      # ``openly``: everyone sees the branch chosen
    opts: Optional[ChooseOpts] = None   # ``default "label"`` and ``asking "..."``
    labels: Optional[list] = None       # language 4: per branch, its name said with values (Text) or None


@node
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
    prefer: list = Factory(list)   # list of (direction, Expr)
    maximal: bool = False                # only ways where no unmet target could still be met
    clause_pos: dict = Factory(dict)


# ---- declarations ---------------------------------------------------------------

@node
class Option(Node):
    name: str
    text: str
    values: Optional["OptionValues"] = None     # ``= 3 from 2, 3, 4`` (version 4): an option with a value


@node
class CardRow(Node):
    copies: int
    attrs: dict               # attribute -> python value


@node
class CardType(Node):
    name: str
    zone: str
    rows: list                # list of CardRow, already expanded
    zone_line: int = 0
    zone_column: int = 0
    counted: list = Factory(list)   # CopyCount: each `(EXPR) cards` row as written (language 4)


@node
class CopyCount(Node):
    """``(EXPR) cards``: a card row's copy count worked out from its loops' values (language 4)."""
    expr: Expr


@node
class Zone(Node):
    name: str
    props: list               # list of (words tuple, line, column)


@node
class Counter(Node):
    name: str
    per_player: bool
    value: Expr
    per_card: bool = False    # ``counter NAME of each card``: one value per card
    declared: Optional[str] = None    # ``counter NAME: player = ...``: its declared type, never none
    secret: bool = False      # ``secret counter ...``: seen only by its owner (a shared one: by nobody)


@node
class Define(Node):
    name: str
    params: list
    body: Expr


@node
class Action(Node):
    name: str
    params: list
    body: list


@node
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


@node
class Phase(Node):
    name: str
    body: list


@node
class ScoreItem(Node):
    name: str
    value: Expr
    counted: bool = True
    only_if: Optional[Expr] = None    # ``= ... if OPTIONS``: the item exists only in such games


@node
class ShowSymbol(Node):
    """``show wild_card as "WILD!"``: how a symbol is written for people."""
    symbol: str
    text: str


@node
class ShowCard(Node):
    """``show card c of piece as TEXT`` (``face``) or ``describe card ...`` (``text``)."""
    what: str                 # "face" | "text"
    var: str
    card_type: str
    value: Expr


@node
class RankBy(Node):
    direction: str            # "highest" | "lowest"
    key: Expr


@node
class OptionValues(Node):
    """``= DEFAULT from A, B, C`` or ``= DEFAULT from LO to HI``; the node's place is the default's."""
    default: Any                  # a whole number or a name (str)
    listed: list                  # the values as written, ``(value, line, column)`` each; LO and HI for a range
    span: bool = False            # ``from LO to HI``: every whole number from LO to HI

    def choices(self) -> list:
        """Every allowed value, in order."""
        if self.span:
            return list(range(self.listed[0][0], self.listed[1][0] + 1))
        return [v for v, _l, _c in self.listed]


@node
class Extends(Node):
    """``extends "base.cat"``: the path as written (relative to the variant's file)."""
    target: str


@node
class Replace(Node):
    """``replace DECLARATION``: the declaration stands in for the base's of that kind and name."""
    item: Any                 # an AST node, or ("setup" | "flow" | "score" | "winner", ...)


@node
class Remove(Node):
    """``remove KIND NAME``, ``remove [N] cards of TYPE where COND`` or ``remove when card ...``."""
    kind: str                 # option | cards | zone | counter | define | action | phase | score | trigger
    name: str
    cond: Optional[Expr] = None
    count: int = 0            # `remove N cards of ...`: how many (0: every card that matches)
    head: Any = None          # `remove when card ...`: a Trigger without a body, the head to match


@node
class More(Node):
    """``more cards TYPE:`` (language 4): a CardType whose rows join the base's type of that name."""
    cards: Any


@node
class HowToPlay(Node):
    """``how to play:`` and its lines of text (without quotes): what a person reads before playing.
    See :mod:`catrules.lang.howto` for how the lines make paragraphs."""
    lines: list


@node
class GameFile(Node):
    path: str
    version: int
    title: str
    min_players: int
    max_players: int
    options: list = Factory(list)
    cards: list = Factory(list)
    zones: list = Factory(list)
    counters: list = Factory(list)
    defines: list = Factory(list)
    actions: list = Factory(list)
    triggers: list = Factory(list)
    phases: list = Factory(list)
    setup: list = Factory(list)
    flow: list = Factory(list)
    score: list = Factory(list)
    ranking: list = Factory(list)     # RankBy; "ties share" is the default
    tie_race: int = 0                       # line of `ties race` (players still tied race), or 0
    symbol_names: list = Factory(list)   # ShowSymbol
    card_shows: list = Factory(list)     # ShowCard
    source: str = ""
    setup_pos: tuple = (0, 0)
    flow_pos: tuple = (0, 0)
    extends: Optional["Extends"] = None      # `extends "base.cat"`: a variant of that game
    how_to_play: Optional["HowToPlay"] = None  # `how to play:`: the text for people, or none
    edits: list = Factory(list)        # Replace, Remove and More, in file order
    origins: dict = Factory(dict)      # id(node) -> path, for nodes from a base file
    sources: dict = Factory(dict)      # path -> text, of every base file
    versions: dict = Factory(dict)     # path -> the language version that base file says

    @property
    def bodies(self) -> list:
        """The statement blocks of the game: setup, flow, every phase, action and trigger."""
        return [self.setup, self.flow] + [x.body for x in self.phases + self.actions + self.triggers]


def sub_bodies(s) -> list:
    """The statement blocks directly inside statement ``s``: an ``if``'s branches and its
    ``else``, a menu's arms, a loop's or a block's body; none for a simple statement."""
    if isinstance(s, If):
        return [b for _, b in s.branches] + ([s.otherwise] if s.otherwise else [])
    if isinstance(s, Menu):
        return [br[2] for br in s.branches]
    body = getattr(s, "body", None)
    return [body] if isinstance(body, list) else []


def walk(node):
    """Yield ``node`` and every node below it (statements and expressions)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Node):
            yield n
            for f in type(n).__fields__:
                v = getattr(n, f)
                if isinstance(v, (Node, list, tuple)):
                    stack.append(v)
        elif isinstance(n, (list, tuple)):
            stack.extend(n)


write_inits()
