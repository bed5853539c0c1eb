"""Sections of the rulebook (:mod:`catrules.authoring.prose`): components, choices,
definitions, the end of the game, scoring and winner, options and variants."""

from __future__ import annotations

from collections import Counter

from ..lang import ast
from .prose_exprs import em, strong, words
from ..compile.option_settings import shown_values

#: A card type with more different descriptions than this shows only the first ones.
MANY_TEXTS = 60
#: An attribute with at most this many different values is counted value by value.
FEW_VALUES = 8

_SEES = {"public": "everyone sees its cards", "owner": "only its owner sees its cards",
         "hidden": "nobody sees its cards, only how many there are",
         "secret": "only its owner sees its cards, and the others do not see how many there are",
         "public top": "everyone sees its top card and how many there are, not the cards below"}


def _noted(text: str, note: str) -> str:
    return text + (f" ({note})" if note else "")


# ================================================================ components

def components(cx) -> list:
    g = cx.g
    total = sum(r.copies for ct in g.cards for r in ct.rows)
    out = [("h", 2, "Components"), ("h", 3, "Cards"), ("p", f"{total} cards in all.")]
    texts = _texts(cx.game)
    for ct in g.cards:
        n = sum(r.copies for r in ct.rows)
        head = f"{strong(f'{n} {words(ct.name)} card' + ('s' if n != 1 else ''))}, dealt into the {em(words(ct.zone))}."
        out.append(("p", head))
        note = cx.notes.about(ct)
        inner = cx.notes.inside(ct, ct.line + 1, _block_end(cx, ct))
        if note or inner:
            out.append(("p", " ".join(x for x in (note, inner) if x)))
        names: list = []
        for row in ct.rows:
            names += [a for a in row.attrs if a not in names]
        if names:
            out.append(("ul", [(f"{words(a)}: {_attribute(cx, ct.rows, a)}", []) for a in names]))
        out += _descriptions(texts.get(ct.name, []))
    if g.symbol_names:
        shown = ", ".join(f"{words(s.symbol)} as “{s.text}”" for s in g.symbol_names)
        out.append(("p", f"On the cards, {shown}."))
    out += _zones(cx)
    return out


def _block_end(cx, node) -> int:
    """The last line of a declaration's block (before the next line at column 0)."""
    lines = (cx.g.source or "").splitlines()
    i = node.line
    while i < len(lines) and (not lines[i].strip() or lines[i][0] in " \t"):
        i += 1
    return i


def _texts(game) -> dict:
    """card type -> the description of each of its cards (compiled by the program)."""
    prog = game.program
    out: dict = {}
    for i, d in enumerate(prog.card_dicts):
        text = prog.card_text[i]
        if text:
            out.setdefault(d.get("type"), []).append(text)
    return out


def _descriptions(texts: list) -> list:
    if not texts:
        return []
    counts = Counter(texts)
    items = [(("" if k == 1 else f"{k} cards: ") + t, []) for t, k in counts.items()]
    if len(items) > MANY_TEXTS:
        return [("p", f"The cards read ({len(items)} different texts; the first {MANY_TEXTS // 4}):"),
                ("ul", items[:MANY_TEXTS // 4])]
    return [("p", "The cards read:"), ("ul", items)]


def _attribute(cx, rows, name: str) -> str:
    values = []
    for row in rows:
        values += [row.attrs.get(name)] * row.copies
    absent = sum(1 for v in values if v is None)
    present = [v for v in values if v is not None]
    tail = f"; none on {absent}" if absent and present else ""
    if not present:
        return f"none on all {absent}"
    show = lambda v: cx.ph.expr(ast.Const(v))        # noqa: E731
    if all(isinstance(v, (list, tuple)) for v in present):
        items = Counter(show(x) for v in present for x in dict.fromkeys(v))
        empty = sum(1 for v in present if not v)
        parts = [f"{k} on {n}" for k, n in items.items()] + ([f"empty on {empty}"] if empty else [])
        return "a list: " + ", ".join(parts) + tail
    numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in present)
    counts = Counter(show(v) for v in (sorted(present) if numbers else present))
    if len(counts) <= FEW_VALUES:
        return ", ".join(f"{k} on {n}" for k, n in counts.items()) + tail
    if numbers:
        return f"{len(counts)} different numbers from {show(min(present))} to {show(max(present))}" + tail
    return f"{len(counts)} different values" + tail


def _zones(cx) -> list:
    items = []
    starts = Counter()
    for ct in cx.g.cards:
        starts[ct.zone] += sum(r.copies for r in ct.rows)
    decl = {z.name: z for z in cx.g.zones}
    for z in sorted(cx.checked.zones.values(), key=lambda z: z.index):
        shape = f"a grid of {z.rows} by {z.cols}" if z.shape == "grid" else f"a {z.shape}"
        whose = "one for each player" if z.per_player else "shared"
        text = f"{em(words(z.name))}: {whose}, {shape}; {_SEES.get(z.visibility, z.visibility)}"
        if starts.get(z.name):
            text += f"; {starts[z.name]} cards at the start"
        items.append((_noted(text + ".", cx.notes.about(decl[z.name]) if z.name in decl else ""), []))
    return [("h", 3, "Zones"), ("ul", items)]


# ================================================================ choices

def choices(cx) -> list:
    found: list = []
    g = cx.g
    ph = cx.ph

    def visit(body, unit, when):
        for s in body:
            if isinstance(s, (ast.Choose, ast.Menu, ast.Together)):
                found.append((unit, s, list(when)))
            if isinstance(s, ast.If):
                before = []
                for c, sub in s.branches:
                    visit(sub, unit, when + before + [ph.expr(c)])
                    before.append(f"not ({ph.expr(c)})")
                if s.otherwise:
                    visit(s.otherwise, unit, when + before)
            elif isinstance(s, ast.Menu):
                for label, _c, sub, *_ in s.branches:
                    visit(sub, unit, when + [f"after choosing “{label}”"])
            else:
                for sub in ast.sub_bodies(s):
                    visit(sub, unit, when)

    units = [("the setup", g.setup), ("the order of play", g.flow)]
    units += [(f"the {words(p.name)} phase", p.body) for p in g.phases]
    units += [(f"the action {words(a.name)}", a.body) for a in g.actions]
    units += [(f"what happens when a card enters {words(t.zone)}", t.body) for t in g.triggers]
    for unit, body in units:
        visit(body, unit, [])
    found.sort(key=lambda f: f[1].line)
    out = [("h", 2, "Choices"), ("p", f"Every decision a player makes ({len(found)} in all).")]
    if not found:
        return out + [("p", "The players make no choices: the game plays itself.")]
    items = []
    for unit, s, when in found:
        text, sub = cx.sp.stmt(s)[0]
        text = text.removesuffix(":").removesuffix(".")
        head = f"In {unit} (line {s.line}): {text}"
        if when:
            head += "; only when " + ", and ".join(when)
        opts = [(t, []) for t, _ in sub] if isinstance(s, ast.Menu) else []
        items.append((head + ("; the options:" if opts else "."), opts))
    return out + [("ul", items)]


# ================================================================ definitions

def definitions(cx) -> list:
    g = cx.g
    out = [("h", 2, "How things are decided"),
           ("p", "The rules above use these definitions (the comparisons, orderings and counts "
                 "that decide who wins a trick, a race or a point).")]
    if not g.defines:
        return out[:1] + [("p", "The game has no definitions.")]
    texts = {d.name for d in g.defines if _wording(cx, d.body, set())}
    rules = [_define_item(cx, d) for d in g.defines if d.name not in texts]
    out.append(("ul", rules or [("None: the rules above say everything.", [])]))
    if texts:
        out += [("h", 3, "Wording"),
                ("p", "These definitions only word things for the players: the cards' faces and "
                      "descriptions and the game's messages.")]
        out.append(("ul", [_define_item(cx, d) for d in g.defines if d.name in texts]))
    return out


def _define_item(cx, d) -> tuple:
    name = strong(words(d.name)) + (f"({', '.join(d.params)})" if d.params else "")
    text, sub = _definition(cx, d.body)
    return (_noted(f"{name} {text}", cx.notes.about(d)), sub)


def _wording(cx, e, seen: set) -> bool:
    """``e`` always gives a text (its leaves are texts or other such definitions)."""
    if isinstance(e, ast.Text) or (isinstance(e, ast.Const) and isinstance(e.value, str)
                                   and not isinstance(e.value, ast.Sym)):
        return True
    if isinstance(e, ast.Pick):
        return all(_wording(cx, v, seen) for _k, v in e.cases) and (
            e.default is None or _wording(cx, e.default, seen))
    if isinstance(e, ast.IfElse):
        return _wording(cx, e.then, seen) and _wording(cx, e.other, seen)
    if isinstance(e, ast.Call) and e.name in cx.ph.defines and e.name not in seen:
        return _wording(cx, cx.ph.defines[e.name].body, seen | {e.name})
    return False


def _definition(cx, body) -> tuple:
    ph = cx.ph
    body = ph.fold(body)
    if isinstance(body, ast.Pick):
        sub = [(f"for {ph.expr(k)}: {ph.expr(v)}", []) for k, v in body.cases]
        if body.default is not None:
            sub.append((f"otherwise: {ph.expr(body.default)}", []))
        return f"depends on {ph.expr(body.key)}:", sub
    if isinstance(body, ast.IfElse) and isinstance(ph.fold(body.other), ast.IfElse):
        sub = []
        while isinstance(body, ast.IfElse):
            sub.append((f"if {ph.expr(body.cond)}: {ph.expr(body.then)}", []))
            body = ph.fold(body.other)
        sub.append((f"otherwise: {ph.expr(body)}", []))
        return "is, taking the first case that holds:", sub
    if _truth(body):
        return f"holds when {ph.expr(body)}.", []
    return f"is {ph.expr(body)}.", []


def _truth(e) -> bool:
    """``e`` is a condition (a comparison, ``and``/``or``/``not``, ``any``)."""
    if isinstance(e, ast.Binary):
        return e.op in ("and", "or", "==", "!=", "<", ">", "<=", ">=", "in", "not in")
    if isinstance(e, ast.Unary):
        return e.op == "not"
    return isinstance(e, ast.Call) and e.name == "any"


# ================================================================ end, score

def ending(cx) -> list:
    g = cx.g
    steps = [_short(cx, s) for s in g.flow]
    steps = [s for s in steps if s]
    text = "The game ends when the order of play is over"
    text += (": " + "; then ".join(steps) + "." if steps else ".")
    out = [("h", 2, "End of the game"), ("p", text)]
    ends = [n for body in g.bodies for n in ast.walk(body) if isinstance(n, ast.EndGame)]
    if ends:
        out.append(("p", f"It also ends at once where a step says so (line{'s' if len(ends) > 1 else ''} "
                         + ", ".join(str(n.line) for n in ends) + ")."))
    out.append(("p", "Then the score is counted (see Scoring)."))
    return out


def _short(cx, s) -> str:
    plays = [n.phase for n in ast.walk(s) if isinstance(n, ast.Play)]
    names = " and ".join(f"the {em(words(p))} phase" for p in dict.fromkeys(plays))
    if not names:
        return ""
    if isinstance(s, ast.RepeatTimes):
        return f"{names}, {cx.ph.expr(s.count)} times"
    if isinstance(s, ast.RepeatUntil):
        return f"{names}, repeated {'while' if s.negate else 'until'} {cx.ph.expr(s.cond)}"
    return names


def scoring(cx) -> list:
    g = cx.g
    items = [s for s in g.score if s.only_if is None or cx.ph.value(s.only_if) is not False]
    counted = [s for s in items if s.counted]
    out = [("h", 2, "Scoring"),
           ("p", f"At the end, each player's total is the sum of {len(counted)} "
                 f"item{'s' if len(counted) != 1 else ''}; in each, “the player” is the player scored "
                 f"and “their” zones are that player's.")]
    lines = []
    for s in items:
        text = f"{strong(words(s.name))}: {cx.ph.expr(s.value)}"
        if not s.counted:
            text += " (shown, not added to the total)"
        if s.only_if is not None and cx.ph.value(s.only_if) is not True:
            text += f" (only in games where {cx.ph.expr(s.only_if)})"
        lines.append((_noted(text + ".", cx.notes.about(s)), []))
    out.append(("ul", lines))
    tallies = [n for body in g.bodies for n in ast.walk(body) if isinstance(n, ast.Tally)]
    if tallies:
        out.append(("p", "The score is also tallied during the game (see the steps that tally it); "
                         "the running totals add up to the final score."))
    out += [("h", 2, "Winner")]
    ranking = [f"the {r.direction} {cx.ph.expr(r.key)}" for r in g.ranking] or ["the highest total"]
    win = [(f"The player with {ranking[0]} wins.", [])]
    win += [(f"If players are tied, then {r} among them.", []) for r in ranking[1:]]
    last = ("Players still tied race: the fastest wins." if g.tie_race
            else "Players still tied share the win.")
    win.append((last, []))
    notes = [cx.notes.about(r) for r in g.ranking]
    out.append(("ul", win))
    if any(notes):
        out.append(("p", " ".join(n for n in notes if n)))
    return out


# ================================================================ options

def options_part(cx) -> list:
    g = cx.g
    out = [("h", 2, "Variants and options")]
    if g.extends is not None:
        out.append(("p", f"This game is a variant of {em(g.extends.target)}; it changes the base game:"))
        edits = []
        for e in g.edits:
            if isinstance(e, ast.More):
                what = f"adds cards to the cards {words(e.cards.name)}"
            elif isinstance(e, ast.Remove) and e.head is not None:
                what = f"removes the trigger on {words(e.name)}"
            elif isinstance(e, ast.Remove):
                what = f"removes {e.count if e.count else 'the'} {e.kind} {words(e.name)}"
                if e.cond is not None:
                    what += f" (the cards where {cx.ph.element(e.cond)})"
            elif isinstance(e.item, ast.Trigger):
                what = f"replaces the trigger on {words(e.item.zone)}"
            else:
                item = e.item
                kind = type(item).__name__.lower() if isinstance(item, ast.Node) else str(item[0])
                what = f"replaces the {kind} {words(getattr(item, 'name', ''))}".rstrip()
            edits.append((_noted(what + f" (line {e.line}).", cx.notes.about(e)), []))
        out.append(("ul", edits or [("nothing is removed or replaced; it only adds", [])]))
    if not g.options:
        return out + [("p", "The game has no options.")]
    items = []
    for o in g.options:
        uses = _uses(g, o.name)
        state = ""
        if o.values is not None:            # an option with values (language 4)
            state = "; one of " + shown_values(o.values.default, o.values.choices())
            if cx.options is not None:
                state += f" ({cx.ph.value(ast.Name(o.name))} in this rulebook)"
        elif cx.options is not None:
            state = " (on in this rulebook)" if o.name in cx.options else " (off in this rulebook)"
        where = f" It changes {', '.join(uses)}." if uses else ""
        items.append((f"{strong(words(o.name))}: {o.text}{state}.{where}", []))
    how = "Each option is turned on by name when a game starts" + (
        ", or given one of its values (NAME=VALUE)" if any(o.values is not None for o in g.options) else "")
    return out + [("p", how + ":"), ("ul", items)]


def _uses(g, name: str) -> list:
    units = [("the setup", g.setup), ("the order of play", g.flow)]
    units += [(f"the {words(p.name)} phase", p.body) for p in g.phases]
    units += [(f"the action {words(a.name)}", a.body) for a in g.actions]
    units += [(f"the score item {words(s.name)}", [s]) for s in g.score]
    units += [(f"the definition {words(d.name)}", [d]) for d in g.defines]
    return [u for u, body in units
            if any(isinstance(n, ast.Name) and n.name == name for n in ast.walk(body))]
