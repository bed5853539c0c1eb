"""Variants: a game file that names its base (``extends "../base.cat"``), merged before checking.

The base is parsed first (and merged in turn, if it extends another file).  The
variant's ``replace`` and ``remove`` lines then edit the base's declarations, and
the variant's own declarations are added after them; the header (name, players,
language) is the variant's.  The result is one :class:`~catrules.lang.ast.GameFile`
that the checker checks as a whole.  A plain redeclaration is left for the
checker to refuse ("already the name of ..."): overriding is always explicit.
Nodes that came from a base file are listed in ``origins`` so that an error on
them points into that file.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import ast, variant_edits
from ..errors import Reporter, RulesError, suggest
from ..runtime.values import _mul

#: How many files a chain of variants may hold (each one is parsed, and deep chains would
#: run out of Python's stack).
CHAIN_LIMIT = 32

# declaration class -> (GameFile list, the word that names its kind in the language)
_SLOTS = {
    ast.Option: ("options", "option"), ast.CardType: ("cards", "cards"), ast.Zone: ("zones", "zone"),
    ast.Counter: ("counters", "counter"), ast.Define: ("defines", "define"), ast.Action: ("actions", "action"),
    ast.Phase: ("phases", "phase"), ast.ScoreItem: ("score", "score"),
    ast.ShowSymbol: ("symbol_names", "show"), ast.ShowCard: ("card_shows", "show card"),
}
_BY_WORD = {word: attr for attr, word in _SLOTS.values()}
_ADDED = ("options", "cards", "zones", "counters", "defines", "actions", "triggers", "phases", "score",
          "symbol_names", "card_shows")


def _key(item) -> str:
    if isinstance(item, ast.ShowSymbol):
        return item.symbol
    if isinstance(item, ast.ShowCard):
        return f"{item.what} {item.card_type}"
    return item.name


def extend(variant: ast.GameFile, parse_file, chain: tuple) -> ast.GameFile:
    """The game ``variant`` describes: its base (read with ``parse_file(path, chain)``) edited."""
    rep = Reporter(variant.path, variant.source)
    ext = variant.extends
    if variant.version < 3:
        rep.error(ext, f"`extends` is language 3, and this file says `catrules {variant.version}`",
                  "write `catrules 3` on the first line")
        rep.raise_if_errors()
    base_path = Path(variant.path).parent / ext.target
    real = os.path.realpath(base_path)
    if real in chain:
        rep.error(ext, f"`{ext.target}` leads back to this file: a cycle of variants",
                  "a variant names its base; a base never names one of its variants")
        rep.raise_if_errors()
    if len(chain) > CHAIN_LIMIT:
        rep.error(ext, f"more than {CHAIN_LIMIT} files extend one another here",
                  "let a variant extend the game it changes, not a long chain of variants")
        rep.raise_if_errors()
    if not base_path.is_file():
        rep.error(ext, f"there is no game file `{ext.target}` to extend",
                  "the path is relative to this file's folder (write `extends \"../base.cat\"` from a subfolder)")
        rep.raise_if_errors()
    base = parse_file(base_path, chain)        # which adds the base to the chain
    # every node of the base with the file it came from (its own base's nodes keep theirs)
    where = {id(n): base.origins.get(id(n), base.path) for n in ast.walk(base) if n is not base}
    sources = dict(base.sources)
    sources[base.path] = base.source
    versions = dict(base.versions)
    versions[base.path] = base.version

    def origin(node) -> str:
        return Path(where.get(id(node), variant.path)).name

    for edit in variant.edits:
        newer = variant_edits.too_new(edit)
        if newer and variant.version < 4:
            rep.error(edit, f"{newer} is language 4, and this file says `catrules {variant.version}`",
                      "write `catrules 4` on the first line")
        elif isinstance(edit, ast.More):
            variant_edits.more_cards(base, edit, rep)
        elif isinstance(edit, ast.Replace) and isinstance(edit.item, ast.Trigger):
            variant_edits.replace_trigger(base, edit, rep, origin)
        elif isinstance(edit, ast.Replace):
            _replace(base, edit, rep)
        elif edit.kind == "trigger":
            variant_edits.remove_trigger(base, edit, rep, origin)
        else:
            _remove(base, edit, rep)
    _add(base, variant, rep)
    rep.raise_if_errors()

    base.path, base.source = variant.path, variant.source
    if variant.title is not None:               # a variant that leaves out `game` or `players` has its base's
        base.title = variant.title
    if variant.min_players is not None:
        base.min_players, base.max_players = variant.min_players, variant.max_players
    base.version = variant.version
    base.line, base.column = variant.line, variant.column
    base.extends, base.edits = variant.extends, []
    base.sources, base.versions = sources, versions
    base.origins = {id(n): where[id(n)] for n in ast.walk(base) if id(n) in where}
    return base


def _replace(base: ast.GameFile, edit: ast.Replace, rep: Reporter) -> None:
    item = edit.item
    if isinstance(item, ast.HowToPlay):
        if base.how_to_play is None:
            rep.error(edit, "`replace how to play`: the base game has no `how to play` text",
                      "to add one, write `how to play:` without `replace`")
        base.how_to_play = item
        return
    if isinstance(item, tuple):               # setup, flow, score, winner: blocks without a name
        kind = item[0]
        had = {"setup": base.setup, "flow": base.flow, "score": base.score,
               "winner": base.ranking or base.tie_race}[kind]
        if not had:
            rep.error(edit, f"`replace {kind}`: the base game has no `{kind}` block",
                      f"to add one, write `{kind}:` without `replace`")
        elif kind in ("setup", "flow"):
            setattr(base, kind, item[1])
            setattr(base, f"{kind}_pos", (item[2]["line"], item[2]["column"]))
        elif kind == "score":
            base.score = list(item[1])
        else:
            base.ranking = [r for r in item[1] if not isinstance(r, tuple)]
            base.tie_race = next((r[1]["line"] for r in item[1] if isinstance(r, tuple)), 0)
        return
    attr, word = _SLOTS[type(item)]
    found = _find(base, attr, _key(item))
    if found is None:
        rep.error(edit, f"`replace {word} {_key(item)}`: the base game has no {word} `{_key(item)}`",
                  _hint(base, attr, _key(item), "to add it, write it without `replace`"))
        return
    getattr(base, attr)[found] = item


def _remove(base: ast.GameFile, edit: ast.Remove, rep: Reporter) -> None:
    attr = _BY_WORD[edit.kind]
    found = _find(base, attr, edit.name)
    if found is None:
        rep.error(edit, f"`remove {edit.kind} {edit.name}`: the base game has no {edit.kind} `{edit.name}`",
                  _hint(base, attr, edit.name, "only what the base game declares can be removed"))
        return
    if edit.cond is None:
        del getattr(base, attr)[found]
        return
    cards = base.cards[found]
    try:
        matched = [row for row in cards.rows if _holds(edit.cond, row.attrs)]
    except _NotStatic as exc:
        rep.error(exc.node, "`remove cards ... where` reads the cards' attributes, numbers, symbols and "
                  "lists only", "compare attributes by their names: `where value > 15 and colour == blue`")
        return
    except RulesError as exc:           # a value beyond the limits (a huge list made by `*`)
        rep.error(edit, f"`remove cards ... where`: {exc.message}", exc.hint)
        return
    if not matched:
        rep.error(edit, f"no card of `{edit.name}` matches, so nothing is removed",
                  "the condition reads each card's attributes by their names (`where value > 15`)")
    elif edit.count:
        variant_edits.take_some(cards, matched, edit, rep)
    else:
        gone = {id(m) for m in matched}
        cards.rows = [row for row in cards.rows if id(row) not in gone]


def _add(base: ast.GameFile, variant: ast.GameFile, rep: Reporter) -> None:
    for attr in _ADDED:
        getattr(base, attr).extend(getattr(variant, attr))
    for kind in ("setup", "flow"):
        if getattr(variant, kind):
            if getattr(base, kind):
                rep.error(getattr(variant, f"{kind}_pos"), f"a second `{kind}` block: the base game has one",
                          f"write `replace {kind}:` to use this one instead")
            else:
                setattr(base, kind, getattr(variant, kind))
                setattr(base, f"{kind}_pos", getattr(variant, f"{kind}_pos"))
    if variant.how_to_play is not None:
        if base.how_to_play is not None:
            rep.error(variant.how_to_play, "a second `how to play` text: the base game has one",
                      "write `replace how to play:` to use this one instead")
        else:
            base.how_to_play = variant.how_to_play
    if variant.ranking or variant.tie_race:
        if base.ranking or base.tie_race:
            at = variant.ranking[0] if variant.ranking else (variant.tie_race, 1)
            rep.error(at, "a second `winner` block: the base game has one",
                      "write `replace winner:` to use this one instead")
        else:
            base.ranking, base.tie_race = variant.ranking, variant.tie_race


def _find(base: ast.GameFile, attr: str, key: str):
    return next((i for i, x in enumerate(getattr(base, attr)) if _key(x) == key), None)


def _hint(base: ast.GameFile, attr: str, key: str, otherwise: str) -> str:
    return suggest(key, [_key(x) for x in getattr(base, attr)]) or otherwise


class _NotStatic(Exception):
    def __init__(self, node):
        super().__init__()
        self.node = node


_COMPARE = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b, "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b, "+": lambda a, b: a + b, "-": lambda a, b: a - b,
    "*": _mul, "%": lambda a, b: a % b if b else 0, "/": lambda a, b: a // b if b else 0,
}


def _holds(cond: ast.Expr, attrs: dict):
    """The value of ``cond`` for one card row: attributes by name, other bare words are symbols."""
    def value(e):
        if isinstance(e, ast.Const):
            return e.value
        if isinstance(e, ast.Name):
            return attrs[e.name] if e.name in attrs else ast.Sym(e.name)
        if isinstance(e, ast.ListExpr):
            return [value(x) for x in e.items]
        if isinstance(e, ast.Unary):
            v = value(e.operand)
            return (not v) if e.op == "not" else -v
        if isinstance(e, ast.Binary):
            if e.op == "and":
                return value(e.left) and value(e.right)
            if e.op == "or":
                return value(e.left) or value(e.right)
            if e.op in _COMPARE:
                try:
                    return _COMPARE[e.op](value(e.left), value(e.right))
                except TypeError:        # a card without the attribute (none) compared with a number
                    return False
        raise _NotStatic(e)
    return bool(value(cond))
