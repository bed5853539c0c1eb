"""The language's statements in English, for the rulebook (``catrules rules --prose``).

:class:`StatementPhraser` turns a block of statements into list items ``(text, sub_items)``
with the comments of the file beside them (:mod:`catrules.authoring.prose_notes`); the
expressions are phrased by :class:`catrules.authoring.prose_exprs.Phraser`.  A branch that
the players' number and the options of a given game decide is kept or left out.
"""

from __future__ import annotations

from ..lang import ast
from .prose_exprs import em, strong, words


class StatementPhraser:
    def __init__(self, ph, notes):
        self.ph = ph
        self.notes = notes

    def block(self, body: list) -> list:
        out: list = []
        for s in body:
            out += self.stmt(s)
        return out

    def stmt(self, s) -> list:
        note = self.notes.about(s)
        method = getattr(self, "_" + type(s).__name__.lower(), None)
        if method is None:
            text, sub = self.ph.as_written(s, stmt=True), []
        else:
            got = method(s)
            if isinstance(got, list):       # an `if`: its branches (or the steps the options decide)
                if note and got:
                    got[0] = (f"{got[0][0]} ({note})", got[0][1])
                return got
            text, sub = got
        text = text + (":" if sub else ".")
        if note:
            text += f" ({note})"
        return [(text, sub)]

    # ------------------------------------------------------------ simple steps
    def x(self, e) -> str:
        return self.ph.expr(e)

    def cards(self, e) -> str:
        return f"every card of {self.x(e)}" if self.ph.cardish(e) and not isinstance(e, ast.Where) else self.x(e)

    def _move(self, s):
        return f"Move {self.cards(s.cards)} to {self.x(s.dest)}", []

    def _shuffle(self, s):
        return f"Shuffle {self.x(s.zone)}", []

    def _fill(self, s):
        return f"Fill every empty place of {self.x(s.zone)} from {self.x(s.source)}, as far as it has cards", []

    def _exchange(self, s):
        return f"Exchange {self.x(s.first)} and {self.x(s.second)}: they trade places", []

    def _whose(self, name, owner) -> str:
        thing = words(name)
        return f"{self.x(owner)}'s {thing}" if owner is not None else thing

    def _assign(self, s):
        if s.name in self.ph.counters:
            return f"Set {self._whose(s.name, s.owner)} to {self.x(s.value)}", []
        return f"Let {words(s.name)} be {self.x(s.value)}", []

    def _add(self, s):
        return f"Add {self.x(s.amount)} to {self._whose(s.name, s.owner)}", []

    def _play(self, s):
        return f"Play the {em(words(s.phase))} phase (see below)", []

    def _do(self, s):
        args = ", ".join(self.x(a) for a in s.args)
        return f"Do {em(words(s.action))}({args}) (see Actions)", []

    def _announce(self, s):
        return f"The game announces {self.x(s.text)}", []

    def _nothing(self, s):
        return "Nothing happens", []

    def _endgame(self, s):
        return strong("The game ends") + " at once", []

    def _stoploop(self, s):
        return "Stop: the repetition around this step ends", []

    def _tally(self, s):
        title = f" ({self.x(s.title)})" if s.title is not None else ""
        return f"Tally the score now{title}: each player's score items are added to their running total", []

    # ------------------------------------------------------------ blocks
    def _if(self, s):
        items, first = [], True
        for cond, body in s.branches:
            v = self.ph.value(cond)
            if v is False:
                continue
            if v is True:
                if first:
                    return self.block(body)
                items.append(("Otherwise:", self.block(body)))
                return _chain(items)
            items.append((f"{'If' if first else 'Otherwise, if'} {self.x(cond)}:", self.block(body)))
            first = False
        if s.otherwise:
            if first:
                return self.block(s.otherwise)
            items.append(("Otherwise:", self.block(s.otherwise)))
        if first:
            return []
        return _chain(items)

    def _repeattimes(self, s):
        return f"Repeat {self.x(s.count)} times", self.block(s.body)

    def _repeatuntil(self, s):
        if s.negate and isinstance(s.cond, ast.Const) and s.cond.value is True:
            return "Repeat, until a step says stop", self.block(s.body)
        return f"Repeat {'while' if s.negate else 'until'} {self.x(s.cond)}", self.block(s.body)

    def _forplayers(self, s):
        text = f"For each player {s.var}"
        if s.among is not None:
            text += f" among {self.x(s.among)}"
        text += f", clockwise from {self.x(s.start)}" if s.start is not None else ", in seat order"
        return text, self.block(s.body)

    def _foreach(self, s):
        return f"For each {words(s.var)} in {self.x(s.source)}", self.block(s.body)

    # ------------------------------------------------------------ choices
    def choice_text(self, actor: str, verb: str, s) -> str:
        many = f"{self.x(s.count)} cards " if s.count is not None else ""
        many = {"up to": f"up to {many}", "any": "any number of cards "}.get(getattr(s, "up_to", None), many)
        text = f"{actor} {verb} {many}{strong(s.var)} from {self.x(s.source)}"
        return text + self.options(s.opts)

    def options(self, o) -> str:
        if o is None:
            return ""
        out = ""
        if o.preferring is not None:
            out += (f"; one where {self.ph.element(o.preferring)} must be chosen if there is one "
                    f"(otherwise any may be)")
        if o.default_dir is not None:
            out += f"; suggested: the one with the {o.default_dir} {self.x(o.default_key).removeprefix('the ')}"
        if o.default_is is not None:
            out += f"; suggested: {self.x(o.default_is)}"
        if o.asking is not None:
            out += f"; the question is {self.x(o.asking)}"
        return out

    def _choose(self, s):
        who = strong(self.x(ast.Name(s.actor)))
        verb = "openly chooses (everyone sees the choice)" if s.public else "chooses"
        return self.choice_text(who, verb, s), []

    def _together(self, s):
        among = f" among {self.x(s.among)}" if s.among is not None else ""
        if s.mode == "secret":
            head = f"Each player {strong(s.player)}{among}, all at once and in secret,"
            then = "then, for each of them in seat order"
        else:
            head = f"Race: each player {strong(s.player)}{among}, as fast as they can,"
            if s.optional:
                head += " (a player may stay out of the race)"
            then = "then, for each of them, fastest first"
        return f"{self.choice_text(head, 'chooses', s)}; {then}", self.block(s.body)

    def _menu(self, s):
        who = strong(self.x(ast.Name(s.actor)))
        openly = " openly (everyone sees the choice)" if s.public else ""
        text = f"{who} chooses{openly} one of these{self.options(s.opts)}"
        for (label, *_), said in zip(s.branches, s.labels or ()):
            if said is not None:                # the default named as written: said with its values
                text = text.replace(f"“{label}”", self.x(said))
        items = []
        for i, (label, cond, body, *_) in enumerate(s.branches):
            v = self.ph.value(cond) if cond is not None else True
            if v is False:
                continue
            only = f" (offered only if {self.x(cond)})" if cond is not None and v is not True else ""
            said = s.labels[i] if s.labels else None        # language 4: the name with its values
            name = self.x(said) if said is not None else f"“{label}”"
            items.append((f"{name}{only}:", self.block(body) or [("Nothing happens.", [])]))
        return text, items

    def _allot(self, s):
        ph = self.ph
        sub = []
        if s.wants is not None:
            sub.append(f"each of them needs one of the lists {ph.element(s.wants)}, or gets nothing")
        if s.serves is not None:
            sub.append(f"a card meets a need when {em(words(s.serves))}(the card, the need) holds (see Definitions)")
        if s.spare is not None:
            sub.append(f"up to {ph.expr(s.spare)} of the cards may meet any need")
        if s.maximal:
            sub.append("a target that could still be met is never left out")
        if s.prefer:
            keys = ", then ".join(f"the {d} {ph.expr(k).removeprefix('the ')}" for d, k in s.prefer)
            sub.append(f"of all the ways that fit, the one with {keys} is chosen")
        if s.note is not None:
            sub.append(f"what each target gets is noted as its {words(s.note)} (nothing if it gets nothing)")
        head = (f"Share {self.x(s.source)} among {self.x(s.targets)} the best way; "
                f"the cards used go into {self.x(s.into)}")
        return head, [(t + ".", []) for t in sub]


def _chain(items: list) -> list:
    """The branches of an ``if`` as list items, the first carrying the others' place."""
    return [(t.removesuffix(":") + (":" if sub else "."), sub) for t, sub in items]
