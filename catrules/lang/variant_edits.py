"""The edits of a variant that language 4 added: triggers named by their head, more cards, some cards.

``replace when card c enters ZONE ...:`` and ``remove when card c enters ZONE ...`` name a
trigger of the base by its head (triggers have no names): the zone it watches, and the
zone its cards come ``from`` if the head says one.  ``more cards TYPE:`` adds card rows to a
card type of the base; ``remove N cards of TYPE where ...`` takes out N of the cards that
match.  Each is checked against the base: a head that names no trigger or several, an
attribute the base's cards do not have, fewer cards than asked for are errors in the
variant's words.  :mod:`catrules.lang.variants` calls these while it merges.
"""

from __future__ import annotations

from . import ast
from ..errors import Reporter, suggest
from ..limits import DECK_LIMIT


def too_new(edit) -> str:
    """What an edit of language 4 is (for the "is language 4" error), or "" for an older one."""
    if isinstance(edit, ast.More):
        return "`more cards`"
    if isinstance(edit, ast.Replace) and isinstance(edit.item, ast.Trigger):
        return "`replace when card ...`"
    if isinstance(edit, ast.Remove) and edit.kind == "trigger":
        return "`remove when card ...`"
    if isinstance(edit, ast.Remove) and edit.count:
        return "`remove N cards of ...`"
    return ""


def head_text(t: ast.Trigger) -> str:
    """A trigger's head as the language writes it (without its condition)."""
    out = f"when card {t.var} enters {t.zone}"
    if t.owner:
        out += f" of {t.owner}"
    if t.source:
        out += f" from {t.source}" + (f" of {t.source_owner}" if t.source_owner else "")
    return out


def _matches(base: ast.GameFile, head: ast.Trigger) -> list:
    """The indexes of the base's triggers that ``head`` names: the same zone, the same `from` zone if
    it says one; of several, the one whose head says no more than ``head`` does."""
    found = [i for i, t in enumerate(base.triggers)
             if t.zone == head.zone and (head.source is None or t.source == head.source)]
    if len(found) > 1:
        exact = [i for i in found if base.triggers[i].source == head.source]
        found = exact or found
    return found


def _listing(base: ast.GameFile, origin) -> str:
    if not base.triggers:
        return "the base game has no trigger"
    return "the base game's triggers: " + "; ".join(
        f"`{head_text(t)}` ({origin(t)} line {t.line})" for t in base.triggers)


def _one(base: ast.GameFile, edit, head: ast.Trigger, word: str, rep: Reporter, origin):
    """The index of the one trigger ``head`` names, or ``None`` (an error said)."""
    found = _matches(base, head)
    if len(found) == 1:
        return found[0]
    said = f"`{word} {head_text(head)}`"
    if not found:
        rep.error(edit, f"{said}: the base game has no trigger on `{head.zone}`"
                  + (f" from `{head.source}`" if head.source else ""), _listing(base, origin))
    else:
        lines = ", ".join(str(base.triggers[i].line) for i in found)
        rep.error(edit, f"{said}: {len(found)} triggers of the base game have this head (lines {lines}), "
                  "so it does not say which", _listing(base, origin))
    return None


def replace_trigger(base: ast.GameFile, edit: ast.Replace, rep: Reporter, origin) -> None:
    """``replace when card ...:``: the new trigger stands where the base's one was (it runs in its turn)."""
    i = _one(base, edit, edit.item, "replace", rep, origin)
    if i is not None:
        base.triggers[i] = edit.item


def remove_trigger(base: ast.GameFile, edit: ast.Remove, rep: Reporter, origin) -> None:
    """``remove when card ...``: the base's trigger with that head is taken out."""
    i = _one(base, edit, edit.head, "remove", rep, origin)
    if i is not None:
        del base.triggers[i]


def more_cards(base: ast.GameFile, edit: ast.More, rep: Reporter) -> None:
    """``more cards TYPE:``: the rows join the base's type, after its own, if their attributes are its."""
    more = edit.cards
    known = [c.name for c in base.cards]
    if more.name not in known:
        rep.error(edit, f"`more cards {more.name}`: the base game has no card type `{more.name}`",
                  suggest(more.name, known) or "to add a new card type, write `cards NAME in ZONE:`")
        return
    target = base.cards[known.index(more.name)]
    have = {k for row in target.rows for k in row.attrs}
    always = {k for k in have if all(k in row.attrs for row in target.rows)}
    bad = False
    for row in more.rows:
        unknown = [k for k in row.attrs if k not in have]
        for k in unknown:
            rep.error(row, f"the cards of `{more.name}` have no attribute `{k}`",
                      suggest(k, sorted(have)) or "their attributes are "
                      + ", ".join(f"`{a}`" for a in sorted(have)))
            bad = True
        lacking = sorted(always - set(row.attrs))
        if lacking and not unknown:
            rep.error(row, f"every card of `{more.name}` has {_names(lacking)}, and these cards have not",
                      f"give them {_names(lacking)} too (`with {lacking[0]} ...`)")
            bad = True
    if bad:
        return
    if sum(row.copies for c in base.cards for row in c.rows) + sum(row.copies for row in more.rows) > DECK_LIMIT:
        rep.error(edit, f"with these cards the game has more than {DECK_LIMIT:,} cards",
                  f"a game has at most {DECK_LIMIT:,} cards over all its card types")
        return
    target.rows.extend(more.rows)


def _names(attrs: list) -> str:
    return " and ".join(f"a `{a}`" for a in attrs)


def take_some(cards: ast.CardType, matched: list, edit: ast.Remove, rep: Reporter) -> None:
    """``remove N cards of TYPE where ...``: N of the matching cards go, the first ones in the base's order."""
    total = sum(row.copies for row in matched)
    if total < edit.count:
        rep.error(edit, f"`remove {edit.count} cards of {cards.name}`: only {total} "
                  f"card{'s' if total != 1 else ''} of `{cards.name}` match", "remove at most as many cards as "
                  "match, or write `remove cards of ... where ...` to remove every card that matches")
        return
    left = edit.count
    for row in matched:
        take = min(left, row.copies)
        row.copies -= take
        left -= take
    cards.rows = [row for row in cards.rows if row.copies > 0]
