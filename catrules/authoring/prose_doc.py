"""The rulebook's document and its three renderings: plain text, Markdown and HTML.

A document is a list of blocks: ``("h", level, text)``, ``("p", text)`` and ``("ul",
items)`` where an item is ``(text, sub_items)``.  Texts carry the inline marks of
:mod:`catrules.authoring.prose_exprs` (code, emphasis, strong), rendered here: backticks
and asterisks in Markdown (everything else escaped), elements in HTML (everything else
escaped with :func:`html.escape`), bare words in plain text.
"""

from __future__ import annotations

import html
import re
import textwrap

from .prose_exprs import CODE, CODE_END, EM, EM_END, STRONG, STRONG_END

FORMATS = ("text", "markdown", "html")
WIDTH = 78
_MARKS = re.compile(f"({CODE}.*?{CODE_END}|{EM}|{EM_END}|{STRONG}|{STRONG_END})", re.S)


def render(doc: list, fmt: str, title: str) -> str:
    """``doc`` in the format ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "markdown":
        return _markdown(doc)
    if fmt == "html":
        return _html(doc, title)
    return _text(doc)


def plain(text: str) -> str:
    """``text`` without its marks (code spans keep their backticks)."""
    return _inline(text, lambda s: s, lambda c: f"`{c}`", ("", ""), ("", ""))


def _inline(text: str, esc, code, em, strong) -> str:
    out = []
    for part in _MARKS.split(text):
        if part.startswith(CODE):
            out.append(code(part[1:-1]))
        elif part in (EM, EM_END):
            out.append(em[part == EM_END])
        elif part in (STRONG, STRONG_END):
            out.append(strong[part == STRONG_END])
        else:
            out.append(esc(part))
    return "".join(out)


# ------------------------------------------------------------------- text
def _text(doc: list) -> str:
    out: list = []
    for block in doc:
        if block[0] == "h":
            text = plain(block[2])
            under = {1: "=", 2: "-"}.get(block[1])
            out += [text, under * len(text), ""] if under else [text, ""]
        elif block[0] == "p":
            out += textwrap.wrap(plain(block[1]), WIDTH, break_on_hyphens=False) + [""]
        else:
            out += _text_items(block[1], 0) + [""]
    return "\n".join(out).rstrip() + "\n"


def _text_items(items: list, depth: int) -> list:
    out = []
    pad = "  " * depth
    for text, sub in items:
        out += textwrap.wrap(plain(text), WIDTH, initial_indent=pad + "- ", subsequent_indent=pad + "  ",
                             break_on_hyphens=False) or [pad + "-"]
        out += _text_items(sub, depth + 1)
    return out


# --------------------------------------------------------------- markdown
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|&])")


def _md(text: str) -> str:
    def code(c):
        fence = "``" if "`" in c else "`"
        pad = " " if c.startswith("`") or c.endswith("`") else ""
        return f"{fence}{pad}{c}{pad}{fence}"
    return _inline(text, lambda s: _MD_SPECIAL.sub(r"\\\1", s), code, ("*", "*"), ("**", "**"))


def _markdown(doc: list) -> str:
    out: list = []
    for block in doc:
        if block[0] == "h":
            out += ["#" * block[1] + " " + _md(block[2]), ""]
        elif block[0] == "p":
            out += [_md(block[1]), ""]
        else:
            out += _md_items(block[1], 0) + [""]
    return "\n".join(out).rstrip() + "\n"


def _md_items(items: list, depth: int) -> list:
    out = []
    for text, sub in items:
        out.append("  " * depth + "- " + _md(text))
        out += _md_items(sub, depth + 1)
    return out


# ------------------------------------------------------------------- html
def _h(text: str) -> str:
    return _inline(text, lambda s: html.escape(s, quote=True), lambda c: f"<code>{html.escape(c)}</code>",
                   ("<em>", "</em>"), ("<strong>", "</strong>"))


def _html(doc: list, title: str) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{html.escape(title)}</title>", "</head>", "<body>"]
    for block in doc:
        if block[0] == "h":
            out.append(f"<h{block[1]}>{_h(block[2])}</h{block[1]}>")
        elif block[0] == "p":
            out.append(f"<p>{_h(block[1])}</p>")
        else:
            out += _html_items(block[1])
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def _html_items(items: list) -> list:
    out = ["<ul>"]
    for text, sub in items:
        if sub:
            out += [f"<li>{_h(text)}"] + _html_items(sub) + ["</li>"]
        else:
            out.append(f"<li>{_h(text)}</li>")
    out.append("</ul>")
    return out
