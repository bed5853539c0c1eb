"""``catrules new NAME``: a small working game to start a new one from.

The template is a complete game (it checks with no warning, plays to the end
at every player count and is in the canonical layout of ``catrules fmt``), with
comments that point at the parts a designer changes first, and at the
documentation installed with catrules (``catrules docs language``).  It uses each kind
of declaration once, so that the file shows the shape of a game.
"""

from __future__ import annotations

import re

TEMPLATE = '''\
catrules 4
game "{title}"
players 2 to 4
# A starting point: change the cards, the zones, the phases and the score.
# `catrules check {stem}.cat` checks it, `catrules play {stem}.cat` plays it,
# `catrules rules {stem}.cat` sums it up.  `catrules docs language` shows the
# language reference (the catrules documentation comes with catrules:
# `catrules docs --list` lists its pages, `catrules docs tutorial` starts one).

option short: "Play two rounds instead of three"

# The cards: every combination of the values listed.
cards tile in deck:
    for each colour in red, blue:
        for each value in 1 to 9:
            card

show card c of tile as "{{c.colour}} {{c.value}}"

zone deck: shared, hidden, pile
zone hand: per player, owner, pile      # each player sees only their own hand
zone table: per player, public, pile    # what was played this round
zone won: per player, public, pile

counter leader = random(players)

setup:
    shuffle deck

flow:
    repeat (if short then 2 else 3) times:
        play round

phase round:
    for each player p:
        move top(deck, 2) to hand of p
    # everyone plays a card at the same time
    secretly each player p chooses c from hand of p default highest c.value \\
        asking "Play a card: the highest value takes the table":
        move c to table of p
    leader = owner(best(table of everyone, it.value))
    announce "{{leader}} wins the round with {{top(table of leader)}}"
    move table of everyone to won of leader
    move hand of everyone to deck
    shuffle deck

score:
    points = sum(won, value)

winner:
    highest total
    ties share
'''


def template(name: str) -> tuple[str, str]:
    """``(file stem, game text)`` for a new game called ``name``."""
    stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "mygame"
    title = re.sub(r"[^\w !?'.,&-]+", "", name).strip() or "My Game"
    return stem, TEMPLATE.format(title=title, stem=stem)
