"""Compiling what a game says: announcements, tally titles, card faces and shown names.

Part of the compiler (:mod:`catrules.compile.compiler`, whose ``_Compiler`` mixes
:class:`SaidStatements` in).  A text with values is kept as its parts (cards
stay cards, so that each player's view can hide those they may not see: see
:mod:`catrules.runtime.said`, and :func:`~catrules.runtime.said.seen_text` for a title); a
card's face and description, which use the card alone, are worked out once
per game file.
"""

from __future__ import annotations

from ..lang import ast
from ..errors import GameFileError, RulesError
from ..runtime.said import plain, say, seen_text, words


class SaidStatements:
    """The compiler's methods for texts (mixed into ``_Compiler``)."""

    def shows(self, g) -> None:
        """Display names of symbols, and each card's face and description, worked out once (a
        face uses the card alone, as the checker made sure)."""
        p = self.p
        p.display_names = {sh.symbol: sh.text for sh in g.symbol_names}
        faces, texts = {}, {}
        for sh in g.card_shows:
            fn = self.gen.function(sh.value, params=("_c",), element_names=(sh.var,))
            (faces if sh.what == "face" else texts)[sh.card_type] = (fn, sh)
        if not faces and not texts:
            return
        st = _CardOnly(p)
        for i in range(p.card_count):
            for table, out in ((faces, p.card_face), (texts, p.card_text)):
                got = table.get(p.card_type[i])
                if got is None:
                    continue
                fn, sh = got
                try:
                    out[i] = plain(say(st, (("value", fn(st, {}, i)),)), p.card_label.__getitem__)
                except (RulesError, LookupError, TypeError, ValueError, AttributeError, ZeroDivisionError):
                    raise GameFileError([self.gen._diagnostic(
                        sh.value, f"card {p.card_label[i]!r} cannot be shown this way: a value is missing "
                                  "or of the wrong kind", "check the attributes it uses exist on every card "
                                  "of the type (use `if c.x != none then ... else ...`)")]) from None
        p.set_faces()

    def s_Announce(self, s: ast.Announce) -> None:
        if isinstance(s.text, ast.Const):
            text = str(s.text.value)

            def announce(st, fr):
                if st.log is not None:
                    st.log.append({"t": "announce", "text": text})
        else:
            said = self.ex(s.text)

            def announce(st, fr):
                if st.log is not None:
                    st.log.append(said_event(st, {"t": "announce"}, said(st, fr.vars)))
        self.w.call(announce, s.line, logged=True)

    def s_Tally(self, s) -> None:
        title = self.ex(s.title) if s.title is not None else None

        def tally(st, fr):
            st.tally(seen_text(st, title(st, fr.vars)) if title is not None else None)
        self.w.call(tally, s.line)


class _CardOnly:
    """The state a card's face is worked out in: the program, no table."""
    __slots__ = ("prog", "loc")
    memo = None                     # definitions keep nothing here (see State.memo)

    def __init__(self, prog):
        self.prog = prog
        self.loc = None


def said_event(st, ev: dict, value) -> dict:
    """An event that says a text: its parts, and the text as plain words."""
    parts = list(value) if isinstance(value, (list, tuple)) else [str(value)]
    ev["parts"] = parts
    ev["text"] = words(st, parts)
    return ev

