"""The searching bot's tree kept from one decision to the next, where its information allows.

After a search, the bot takes an option; its tree holds, under that option's edge, what the
search imagined from there on.  When the bot's very next decision follows its own choice with
nothing between (no other player chose, no forced choice: the game's count of decisions went
up by one) *and* the bot's view now is the view that the imagined games showed it there, that
part of the tree is about the decision the bot now faces, seen as the bot sees it: it is kept
as the new search's root (with the children of the bot's own decisions only), and the new
search adds to it.  Otherwise the tree is dropped and the search starts anew.

What "the view the imagined games showed" is: after the search, :func:`remember` plays the
chosen option in :data:`CHECKS` fresh imagined games (from the bot's own random source) and
notes the bot's view at the next decision.  Only when it is the bot's own decision alone in
every one of them, and the views are the same in all (the choice showed the bot nothing it
could not know before: a card it drew, a card another player revealed), is the subtree kept,
with that view; the next search keeps it only if the real view is that very one.  So the bot
still decides from its view and its imagined games alone: the check compares two views of its
own player.  Nothing here knows any game.
"""

from __future__ import annotations

import random

from ..errors import RulesError

#: Imagined games that must agree on the bot's next view before a subtree is kept.
CHECKS = 2


class Kept:
    """A subtree kept for the bot's next decision: its ``node``, the ``view`` (as text) in which
    it applies and the game's count of ``decisions`` then."""
    __slots__ = ("node", "view", "decisions")

    def __init__(self, node, view: str, decisions: int):
        self.node, self.view, self.decisions = node, view, decisions


def view_text(view) -> str:
    """A player's view as text, to compare two of them (a lazy view is worked out)."""
    return repr(dict(view))


def remember(table, me: int, node, option: str, rng: random.Random):
    """The :class:`Kept` subtree ``node`` (reached by ``me`` choosing ``option`` now), or None
    when the imagined games do not all show ``me`` the same view at ``me``'s next decision
    (see the module)."""
    if node is None or not node.children:
        return None
    seen = None
    for _ in range(CHECKS):
        st = table.sample(me, rng)
        if st.decision_kind() != "choose":
            return None                 # a decision with others: their answers are unknown
        try:
            st.apply(me, option)
        except RulesError:
            return None
        if st.choosers() != [me] or st.decision_kind() != "choose":
            return None
        text = view_text(st.view(me))
        if seen is not None and text != seen:
            return None                 # the choice shows the bot something it cannot know yet
        seen = text
    now = getattr(table, "decisions", None)
    return None if now is None else Kept(node, seen, now + 1)


def reuse(kept, table, view, me: int):
    """The root to search from: the kept subtree when it fits the bot's decision now (see the
    module; its children of other players' decisions left out), else None."""
    if kept is None or getattr(table, "decisions", None) != kept.decisions or view is None:
        return None
    if view_text(view) != kept.view:
        return None
    node = kept.node
    node.children = {a: ch for a, ch in node.children.items() if ch.player == me}
    return node
