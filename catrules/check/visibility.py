"""Finer visibility (language 4): a zone whose cards and count only its owner sees
(``secret``), a pile whose top card is face up (``public top``), and counters only their
owner sees (``secret counter``).

Here only what a declaration may say: the words of a zone's visibility and the mistakes a
designer can make with them.  Who then sees what is worked out in one place, the layout of a
compiled game (:class:`catrules.compile.program.Layout`), which views, events, bots' imagined
games and the running score all ask.
"""

from __future__ import annotations

from ..lang import ast
from .reach import reached

#: Visibility words of a zone, each one property: ``public``, ``owner``, ``hidden`` (language 1),
#: ``secret`` and ``public top`` (language 4).
NEW_VISIBILITIES = {("secret",): "secret", ("public", "top"): "public top"}


def zone_visibility(words: list):
    """The visibility a zone property of language 4 says, else None."""
    return NEW_VISIBILITIES.get(tuple(words))


def zone_visibility_added(zone) -> bool:
    """Does this zone declaration use a visibility of language 4?"""
    return any(tuple(words) in NEW_VISIBILITIES for words, _pos in zone.props)


def check_zone_visibility(rep, z, spec) -> None:
    """Report a visibility the zone's other properties rule out."""
    if spec.visibility == "secret" and not spec.per_player:
        rep.error(z, f"zone `{z.name}` is shared, so it has no owner to see it: only a zone of each "
                     "player can be secret",
                  "write `per player, secret`, or `hidden` for a shared zone nobody sees")
    if spec.visibility == "public top" and spec.shape != "pile":
        rep.error(z, f"zone `{z.name}` is a {spec.shape}: only a pile has a top card to show face up",
                  "make it a pile (leave out the shape), or make it public or hidden")


def check_counter_secret(rep, c) -> None:
    """A counter of each card has no owner to see it: it cannot be secret."""
    if c.secret and c.per_card:
        rep.error(c, f"counter `{c.name}` is one per card: a card has no owner to see it, so it "
                     "cannot be secret",
                  "make it `secret counter NAME of each player` or a plain counter of each card")


def check_secret_texts(game, names: dict, rep) -> None:
    """A text said to people (an announcement, a prompt, a tally's title, a card's face) is
    heard by every player: one that shows a secret counter would tell it to all of them."""
    if not any(c.secret for c in game.counters):
        return
    roots = [game.setup, game.flow, game.card_shows] + [x.body for x in game.phases + game.actions + game.triggers]
    told = set()
    for n in ast.walk(roots):
        said = []
        if isinstance(n, ast.Announce):
            said.append(n.text)
        elif isinstance(n, ast.Tally) and n.title is not None:
            said.append(n.title)
        elif isinstance(n, ast.ChooseOpts) and n.asking is not None:
            said.append(n.asking)
        elif isinstance(n, ast.ShowCard):
            said.append(n.value)
        for e in said:
            for x in ast.walk(e):
                r = names.get(id(x))
                if r and r[0] == "counter" and r[1].secret and id(x) not in told:
                    told.add(id(x))
                    rep.error(x, f"counter `{r[1].name}` is secret, and a text is seen by every player",
                              f"to reveal it on purpose, copy it into a counter that is not secret "
                              f"first (`shown = {r[1].name} of p`) and say that one")


def _secret_read(game, names: dict, roots: list):
    """The first node under ``roots`` (following definitions) that reads a secret counter or a
    secret zone, with its name; else None."""
    for x, r in reached(game, names, roots, plays=False):
        if not r:
            continue
        kind, detail = r
        if kind == "counter" and getattr(detail, "secret", False):
            return detail.name
        if kind == "zone" and getattr(detail, "visibility", None) == "secret":
            return getattr(x, "name", "a secret zone")
    return None


def check_secret_tallies(game, names: dict, rep) -> None:
    """A ``tally`` shows every player's score while the game goes on: a score that reads a secret
    counter or zone would tell everyone something of it (the final score is public anyway)."""
    tallies = [n for n in ast.walk([game.setup, game.flow] + [x.body for x in game.phases + game.actions +
                                                               game.triggers]) if isinstance(n, ast.Tally)]
    if not tallies:
        return
    read = _secret_read(game, names, [game.score])
    if read is None:
        return
    for t in tallies:
        rep.error(t, f"this `tally` shows every player's score during the game, and the score reads "
                     f"`{read}`, which is secret: the totals would tell the other players about it",
                  "reveal it first (move the cards to a zone everyone sees, or copy the counter into one "
                  "that is not secret) and score that, or leave the tally out (the final score is public)")
