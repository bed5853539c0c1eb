"""A readable summary of a game, generated from its file: ``catrules rules GAME``.

The summary is Markdown with fixed sections: the players and options, the
components (each card type with its counts by attribute, the zones and who
sees them, the counters), the flow (setup, flow, each phase and action as an
outline of its steps), every choice and who makes it, the triggers, the
score items and how the winner is found.  Everything comes from the checked
game (its syntax tree and the checker's tables); steps and conditions are
printed in the language's own words by :mod:`catrules.lang.source_text`, so the
summary cannot say something the file does not.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..lang import ast
from ..lang import source_text as st

#: An attribute with at most this many different values is counted value by value.
FEW_VALUES = 8

_SEES = {"public": "everyone", "owner": "its owner only", "hidden": "nobody (only how many cards)",
         "secret": "its owner only (the others not even how many)",
         "public top": "everyone the top card (and how many cards)"}


def summary(game) -> str:
    """The Markdown summary of a loaded game (:class:`catrules.api.Game`)."""
    checked = game.checked
    g = checked.game
    out: list = [f"# {g.title}", ""]
    out.append(f"A game for {_players(g)}, generated from `{Path(g.path).name}`.")
    out.append("")
    if g.options:
        valued = any(o.values is not None for o in g.options)
        out += ["Options (each one turned on by name" + (", or given a value: `NAME=VALUE`" if valued else "")
                + "):", ""]
        out += [f"- `{o.name}`: {o.text}" + _values(o) for o in g.options]
        out.append("")
    out += _components(g, checked)
    out += _flow(g)
    out += _choices(g)
    out += _triggers(g)
    out += _scoring(g)
    return "\n".join(out).rstrip() + "\n"


def _players(g) -> str:
    if g.min_players == g.max_players:
        return f"{g.min_players} players"
    return f"{g.min_players} to {g.max_players} players"


def _code(text: str) -> str:
    """``text`` as a Markdown code span (longer fences when the text holds backticks)."""
    fence = "``" if "`" in text else "`"
    return f"{fence}{text}{fence}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


# ============================================================== components

def _components(g, checked) -> list:
    out = ["## Components", "", "### Cards", ""]
    total = sum(r.copies for ct in g.cards for r in ct.rows)
    out += [f"{total} cards in all.", ""]
    for ct in g.cards:
        n = sum(r.copies for r in ct.rows)
        out.append(f"**{ct.name}**: {n} card{'s' if n != 1 else ''}, dealt into `{ct.zone}` at the start.")
        out.append("")
        names = []
        for row in ct.rows:
            names += [a for a in row.attrs if a not in names]
        for a in names:
            out.append(f"- `{a}`: {_attribute(ct.rows, a)}")
        if names:
            out.append("")
    out += ["### Zones", "", "| zone | of | who sees it | shape | cards at the start |",
            "|---|---|---|---|---|"]
    starts = Counter()
    for ct in g.cards:
        starts[ct.zone] += sum(r.copies for r in ct.rows)
    for z in sorted(checked.zones.values(), key=lambda z: z.index):
        shape = f"grid {z.rows} by {z.cols}" if z.shape == "grid" else z.shape
        out.append(f"| `{z.name}` | {'each player' if z.per_player else 'shared'} | "
                   f"{_SEES.get(z.visibility, z.visibility)} | {shape} | {starts.get(z.name, 0)} |")
    out.append("")
    if g.counters:
        out += ["### Counters", ""]
        for c in g.counters:
            whose = " (one per player)" if c.per_player else " (one per card)" if c.per_card else ""
            out.append(f"- `{c.name}`{whose}, at first {_code(st.expr(c.value))}")
        out.append("")
    return out


def _value(v) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return st._const(v)


def _attribute(rows, name: str) -> str:
    """How the cards of one type spread over the values of one attribute."""
    values = []
    for row in rows:
        values += [row.attrs.get(name)] * row.copies
    absent = sum(1 for v in values if v is None)
    present = [v for v in values if v is not None]
    tail = f"; none on {absent}" if absent and present else ""
    if not present:
        return f"none on all {absent}"
    if all(isinstance(v, (list, tuple)) for v in present):
        items = Counter(_value(x) for v in present for x in dict.fromkeys(v))   # cards, not copies
        empty = sum(1 for v in present if not v)
        parts = [f"`{k}` on {n}" for k, n in items.items()]
        if empty:
            parts.append(f"empty on {empty}")
        return "a list: " + ", ".join(parts) + tail
    numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in present)
    counts = Counter(_value(v) for v in (sorted(present) if numbers else present))
    if len(counts) <= FEW_VALUES:
        return ", ".join(f"`{k}` {n}" for k, n in counts.items()) + tail
    if numbers:
        return f"{len(counts)} different numbers from {min(present)} to {max(present)}" + tail
    return f"{len(counts)} different values" + tail


# ==================================================================== flow

def _flow(g) -> list:
    out = ["## Flow", "", "### The order of play", "",
           "After the setup, the flow plays the phases (and does the actions) like this:", ""]
    out += _plays(g, g.flow, 0, ()) or ["- (the flow plays no phase)"]
    out += ["", "The steps of each part of the game, in order (as written in the file).", ""]
    units = [("setup", g.setup), ("flow", g.flow)]
    units += [(f"phase {p.name}", p.body) for p in g.phases]
    units += [(st.action(a), a.body) for a in g.actions]
    for title, body in units:
        if not body and title == "setup":
            continue
        out += [f"### {title}", ""]
        out += _outline(body, 0) or ["- (nothing)"]
        out.append("")
    return out


def _plays(g, body: list, depth: int, inside: tuple) -> list:
    """The outline of ``body`` cut down to the phases it plays, the actions it does and the
    loops and branches around them; a phase played is opened in place, once per path."""
    pad = "  " * depth
    phases = {p.name: p.body for p in g.phases}
    actions = {a.name: a.body for a in g.actions}
    out: list = []
    for s in body:
        if isinstance(s, (ast.Play, ast.Do)):
            name = s.phase if isinstance(s, ast.Play) else s.action
            out.append(f"{pad}- {_code(st.stmt(s))}")
            sub = (phases if isinstance(s, ast.Play) else actions).get(name, [])
            if name not in inside:          # a phase playing itself is shown once
                out += _plays(g, sub, depth + 1, inside + (name,))
            continue
        if isinstance(s, ast.If):
            parts = [("if " if i == 0 else "else if ") + st.expr(c) for i, (c, _) in enumerate(s.branches)]
            subs = [b for _, b in s.branches]
            if s.otherwise:
                parts.append("else")
                subs.append(s.otherwise)
        elif isinstance(s, ast.Menu):
            parts = [st.menu_branch(label, cond) for label, cond, *_ in s.branches]
            subs = [br[2] for br in s.branches]
        else:
            parts, subs = [st.stmt(s)], ast.sub_bodies(s)
        for head, sub in zip(parts, subs):
            inner = _plays(g, sub, depth + 1, inside)
            if inner:
                out += [f"{pad}- {_code(head)}"] + inner
    return out


def _outline(body: list, depth: int) -> list:
    pad = "  " * depth
    out: list = []
    for s in body:
        if isinstance(s, ast.If):
            for i, (cond, sub) in enumerate(s.branches):
                out.append(f"{pad}- {_code(('if ' if i == 0 else 'else if ') + st.expr(cond))}")
                out += _outline(sub, depth + 1)
            if s.otherwise:
                out.append(f"{pad}- `else`")
                out += _outline(s.otherwise, depth + 1)
        elif isinstance(s, ast.Menu):
            out.append(f"{pad}- {_code(st.stmt(s))}")
            for label, cond, sub, *_ in s.branches:
                out.append(f"{pad}  - {_code(st.menu_branch(label, cond))}")
                out += _outline(sub, depth + 2)
        else:
            out.append(f"{pad}- {_code(st.stmt(s))}")
            sub = getattr(s, "body", None)
            if isinstance(sub, list):
                out += _outline(sub, depth + 1)
    return out


# ================================================================= choices

def _units(g) -> list:
    """(title, body) of every block of the game, the triggers too."""
    units = [("setup", g.setup), ("flow", g.flow)]
    units += [(f"phase {p.name}", p.body) for p in g.phases]
    units += [(f"action {a.name}", a.body) for a in g.actions]
    units += [(f"trigger line {t.line}", t.body) for t in g.triggers]
    return units


def choices(g) -> list:
    """Every choice of the game, in the order of the file: (unit, statement, who) where
    ``who`` says how the chooser is bound (a loop over players, an action's parameter)."""
    found: list = []

    def visit(body, unit, who, when):
        for s in body:
            cond = f", when {', '.join(when)}" if when else ""
            if isinstance(s, (ast.Choose, ast.Menu)):
                found.append((unit, s, who.get(s.actor, f"`{s.actor}`") + cond))
            elif isinstance(s, ast.Together):
                among = f" in {_code(st.expr(s.among))}" if s.among is not None else ""
                how = "at once, in secret" if s.mode == "secret" else "in a race, fastest first"
                found.append((unit, s, f"every player{among} ({how}){cond}"))
            inner = dict(who)
            if isinstance(s, ast.ForPlayers):
                inner[s.var] = f"each player ({_code(st.stmt(s))})"
            if isinstance(s, ast.Together):
                inner[s.player] = f"each player of the {'secret choice' if s.mode == 'secret' else 'race'}"
            if isinstance(s, ast.If):
                # a choice inside a branch is made only when the branch is taken
                seen = []
                for c, sub in s.branches:
                    visit(sub, unit, inner, when + [_code(_not(seen) + st.expr(c))])
                    seen.append(st.expr(c))
                if s.otherwise:
                    visit(s.otherwise, unit, inner, when + [_code(_not(seen).removesuffix(" and "))])
            elif isinstance(s, ast.Menu):
                for label, _c, sub, *_ in s.branches:
                    visit(sub, unit, inner, when + [f'after choosing "{label}"'])
            else:
                for sub in ast.sub_bodies(s):
                    visit(sub, unit, inner, when)

    for unit, body in _units(g):
        who = {}
        if unit.startswith("action "):
            params = next(a.params for a in g.actions if f"action {a.name}" == unit)
            who = {p: f"`{p}`, given to {unit}" for p in params}
        visit(body, unit, who, [])
    found.sort(key=lambda f: f[1].line)
    return found


def _not(conds: list) -> str:
    return "".join(f"not ({c}) and " for c in conds)


def _choices(g) -> list:
    found = choices(g)
    out = ["## Choices", "", f"Every decision a player makes ({len(found)} in the file).", ""]
    if not found:
        return out + ["The players make no choices: the game plays itself.", ""]
    out += ["| line | in | who chooses | what | prompt | default |", "|---|---|---|---|---|---|"]
    for unit, s, who in found:
        opts = s.opts
        if isinstance(s, ast.Menu):
            what = "one of " + ", ".join(st.menu_branch(label, cond) for label, cond, *_ in s.branches)
        else:
            many = f"{st.expr(s.count)} cards " if s.count is not None else ""
            many = {"up to": f"up to {many}", "any": "any number of cards "}.get(getattr(s, "up_to", None), many)
            what = f"{many}`{s.var}` from {_code(st.expr(s.source))}"
            if opts is not None and opts.preferring is not None:
                what += f", preferring {_code(st.expr(opts.preferring))}"
            if getattr(s, "optional", False):
                what += ", or nothing"
        if getattr(s, "public", False):
            what += " (openly: everyone sees the choice)"
        prompt = st.expr(opts.asking) if opts is not None and opts.asking is not None else ""
        default = ""
        if opts is not None and opts.default_dir is not None:
            default = f"{opts.default_dir} {st.expr(opts.default_key)}"
        elif opts is not None and opts.default_is is not None:
            default = st.expr(opts.default_is)
        out.append("| " + " | ".join(_cell(x) for x in (
            str(s.line), unit, who, what, _code(prompt) if prompt else "", _code(default) if default else ""))
            + " |")
    out.append("")
    return out


# ================================================================ triggers

def _triggers(g) -> list:
    out = ["## Triggers", ""]
    if not g.triggers:
        return out + ["None: nothing happens by itself when a card moves.", ""]
    out += ["What happens by itself when a card enters a zone:", ""]
    for t in g.triggers:
        out += [f"### {_code(st.trigger(t))} (line {t.line})", ""]
        out += _outline(t.body, 0) + [""]
    return out


# ================================================================= scoring

def _scoring(g) -> list:
    out = ["## Scoring", ""]
    counted = [s for s in g.score if s.counted]
    out.append(f"A player's total is the sum of {len(counted)} item{'s' if len(counted) != 1 else ''}"
               + (" (a `note` is shown, not counted):" if len(counted) != len(g.score) else ":"))
    out.append("")
    for s in g.score:
        kind = "" if s.counted else "note, not counted: "
        only = f", only in games with {_code(st.expr(s.only_if))}" if s.only_if is not None else ""
        out.append(f"- {kind}`{s.name}` = {_code(st.expr(s.value))}{only}")
    tallies = [s for _, body in _units(g) for s in _walk(body) if isinstance(s, ast.Tally)]
    if tallies:
        lines = ", ".join(str(t.line) for t in tallies)
        out += ["", f"The score is tallied during the game too (`tally`, line {lines}) and added up at the end."]
    out += ["", "## Winner", ""]
    ranking = [f"{r.direction} {st.expr(r.key)}" for r in g.ranking] or ["highest total"]
    out.append(f"1. {ranking[0]}")
    out += [f"{i}. then, among players still tied: {r}" for i, r in enumerate(ranking[1:], start=2)]
    last = ("players still tied race: the fastest wins" if g.tie_race
            else "players still tied share the win")
    out.append(f"{len(ranking) + 1}. {last}")
    out.append("")
    return out


def _walk(body: list):
    for s in body:
        yield s
        for sub in ast.sub_bodies(s):
            yield from _walk(sub)


def _values(o) -> str:
    """`` (values 2, 3, 4; default 3)`` for an option with values, else nothing."""
    if o.values is None:
        return ""
    from ..compile.option_settings import shown_values
    return " (values " + shown_values(o.values.default, o.values.choices()).replace(" (default", "; default")
