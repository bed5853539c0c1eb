"""A game's "how to play" text (``how to play:`` and its lines) as paragraphs, for every front end.

The lines of the block are texts in quotes.  Lines next to each other make one
paragraph (joined by a space, so that each front end wraps it to its own width);
an empty text (``""``) ends a paragraph; a line that starts with ``- `` starts a
list item, which goes on over the next lines until an empty text or another item.
Nothing in the text is a value: braces and other characters are shown as written.
"""

from __future__ import annotations

#: How a line starts a list item.
ITEM = "- "


def paragraphs(lines) -> list:
    """``[(kind, text)]`` with ``kind`` ``"p"`` (a paragraph) or ``"item"`` (a list item)."""
    out: list = []
    kind, words = None, []

    def close() -> None:
        if words:
            out.append((kind, " ".join(words)))
        words.clear()

    for raw in lines:
        text = " ".join(str(raw).split())
        if not text:
            close()
            kind = None
        elif str(raw).lstrip().startswith(ITEM):
            close()
            kind = "item"
            words.append(text[len(ITEM.strip()):].strip())
        else:
            if kind is None:
                kind = "p"
            words.append(text)
    close()
    return out


def plain(lines, width: int = 78) -> str:
    """The text wrapped to ``width`` columns: paragraphs apart by an empty line, items as ``•``."""
    import textwrap
    out: list = []
    prev = None
    for kind, text in paragraphs(lines):
        if out and not (kind == "item" and prev == "item"):
            out.append("")
        if kind == "item":
            out.extend(textwrap.wrap(text, width, initial_indent="• ", subsequent_indent="  ") or ["•"])
        else:
            out.extend(textwrap.wrap(text, width) or [""])
        prev = kind
    return "\n".join(out)
