"""A rulebook in English, generated from a checked game: ``catrules rules GAME --prose``.

The game's own "how to play" text comes first, if it has one (``how to play:``).  Then the
sections follow a printed rulebook: the components (card types with their counts,
attributes and the cards' own descriptions, the zones and who sees them, the counters),
the setup, the order of play and each phase in order, the actions and what happens by
itself, every choice with its conditions, the definitions that decide things (how a trick
or a race is won), the end of the game, the scoring item by item, the winner, the options
and variants, and last the places the rulebook could only quote as written.  The words are
the game's own where it has some (title, option texts, prompts, card descriptions, the
comments beside a declaration or step); the rest is phrased by
:mod:`catrules.authoring.prose_exprs` and :mod:`catrules.authoring.prose_stmts`.  Nothing
here knows a game.
"""

from __future__ import annotations

from ..lang import ast
from ..lang.howto import paragraphs
from .prose_doc import render
from .prose_exprs import Phraser, em, strong, words
from .prose_notes import Notes
from .prose_parts import choices, components, definitions, ending, options_part, scoring
from .prose_stmts import StatementPhraser


class Context:
    """What the sections share: the game, the phrasers, the comments."""

    def __init__(self, game, players=None, options=None):
        self.game = game
        self.checked = game.checked
        self.g = self.checked.game
        self.players = players
        self.options = None if options is None and players is None else list(options or [])
        self.ph = Phraser(self.checked, players, self.options)
        self.notes = Notes(self.g)
        self.sp = StatementPhraser(self.ph, self.notes)


def prose(game, fmt: str = "text", players: int | None = None, options=None) -> str:
    """The rulebook of a loaded game (:class:`catrules.api.Game`) in ``fmt`` (text, markdown
    or html); with ``players`` or ``options``, of a game with that many players and those
    options on (the others off)."""
    cx = Context(game, players, options)
    return render(document(cx), fmt, cx.g.title)


def document(cx: Context) -> list:
    g = cx.g
    doc: list = [("h", 1, g.title)] + how_to_play(g)
    who = (f"{g.min_players} players" if g.min_players == g.max_players
           else f"{g.min_players} to {g.max_players} players")
    doc.append(("p", f"A game for {who}. This rulebook is generated from the game file, "
                     f"which is what the program plays."))
    intro = cx.notes.header()
    if intro:
        doc.append(("p", intro))
    if cx.options is not None:
        on = ", ".join(em(words(o)) for o in cx.options) or "none"
        count = f"{cx.players} players" if cx.players is not None else "any number of players"
        doc.append(("p", f"This rulebook is for a game with {count}; options on: {on}."))
    doc += components(cx)
    doc += _setup(cx)
    doc += _play(cx)
    doc += choices(cx)
    doc += definitions(cx)
    doc += ending(cx)
    doc += scoring(cx)
    doc += options_part(cx)
    doc += _unphrased(cx)
    return doc


def how_to_play(g) -> list:
    """The game's own `how to play` text, first (its paragraphs, its items as a list), then the
    heading of the rulebook proper; nothing for a game without one."""
    if g.how_to_play is None:
        return []
    out: list = [("h", 2, "How to play")]
    for kind, text in paragraphs(g.how_to_play.lines):
        if kind == "item" and out[-1][0] == "ul":
            out[-1][1].append((text, []))
        else:
            out.append(("ul", [(text, [])]) if kind == "item" else ("p", text))
    return out + [("h", 2, "The rules in full")]


def _setup(cx) -> list:
    g = cx.g
    out = [("h", 2, "Setup"), ("p", "Every card starts in the zone its type is dealt into (see Cards).")]
    if g.counters:
        items = []
        for c in g.counters:
            whose = " (one for each player)" if c.per_player else " (one for each card)" if c.per_card else ""
            if getattr(c, "secret", False):
                whose += " (secret: seen only by its owner)" if c.per_player else " (secret: seen by nobody)"
            note = cx.notes.about(c)
            items.append((f"{words(c.name)}{whose} starts as {cx.ph.expr(c.value)}." + (f" ({note})" if note else ""),
                          []))
        out += [("p", "The game keeps track of:"), ("ul", items)]
    steps = cx.sp.block(g.setup)
    if steps:
        out += [("p", "Then, before play begins:"), ("ul", steps)]
    return out


def phase_order(g) -> list:
    """The phases in the order the flow first plays them, then those played from elsewhere."""
    order: list = []
    byname = {p.name: p for p in g.phases}

    def visit(body):
        for n in _in_order(body):
            if isinstance(n, ast.Play) and n.phase in byname and n.phase not in order:
                order.append(n.phase)
                visit(byname[n.phase].body)
    for body in (g.setup, g.flow):
        visit(body)
    for a in g.actions + g.triggers:
        visit(a.body)
    return [byname[n] for n in order] + [p for p in g.phases if p.name not in order]


def _in_order(body):
    """The statements of ``body`` and of its blocks, in the order of the file."""
    for s in body:
        yield s
        if isinstance(s, ast.If):
            subs = [b for _, b in s.branches] + ([s.otherwise] if s.otherwise else [])
        elif isinstance(s, ast.Menu):
            subs = [br[2] for br in s.branches]
        else:
            subs = [s.body] if isinstance(getattr(s, "body", None), list) else []
        for sub in subs:
            yield from _in_order(sub)


def _play(cx) -> list:
    g = cx.g
    out = [("h", 2, "Order of play"), ("p", "After the setup, the game goes like this:"),
           ("ul", cx.sp.block(g.flow) or [("Nothing: the game ends at once.", [])])]
    for p in phase_order(g):
        out.append(("h", 3, f"The {words(p.name)} phase"))
        note = cx.notes.about(p)
        if note:
            out.append(("p", note))
        out.append(("ul", cx.sp.block(p.body) or [("Nothing happens.", [])]))
    if g.actions:
        out += [("h", 2, "Actions"), ("p", "Steps that the rules above carry out by name (“Do …”).")]
        for a in g.actions:
            out.append(("h", 3, f"{words(a.name)}({', '.join(a.params)})"))
            note = cx.notes.about(a)
            if note:
                out.append(("p", note))
            out.append(("ul", cx.sp.block(a.body) or [("Nothing happens.", [])]))
    if g.triggers:
        out.append(("h", 2, "What happens by itself"))
        for t in g.triggers:
            note = cx.notes.about(t)
            where = f"{words(t.owner)}'s {em(words(t.zone))}" if t.owner else f"the {em(words(t.zone))}"
            head = f"Whenever a card {strong(t.var)} enters {where}"
            if t.source:
                src = f"{words(t.source_owner)}'s {em(words(t.source))}" if t.source_owner else f"the {em(words(t.source))}"
                head += f" from {src}"
            if t.guard is not None:
                head += f", if {cx.ph.expr(t.guard)}"
            out.append(("ul", [(head + ":" + (f" ({note})" if note else ""), cx.sp.block(t.body))]))
    return out


def _unphrased(cx) -> list:
    out = [("h", 2, "Quoted as written")]
    seen = list(dict.fromkeys(cx.ph.unphrased))
    if not seen:
        return out + [("p", "Every rule above is phrased in words: nothing had to be quoted from the file.")]
    out.append(("p", "These expressions could not be phrased in words; the rulebook quotes them "
                     "as the file writes them:"))
    out.append(("ul", [(f"line {line}: " + "\x01" + text + "\x02", []) for line, text in seen]))
    return out
