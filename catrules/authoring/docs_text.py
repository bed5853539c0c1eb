"""The documentation's pages as plain text, for ``catrules docs``: reStructuredText made readable.

One function renders one page of ``docs/`` (:func:`render`): the headings stay as they are
(a title over a line of ``=``), code blocks stay indented, a ``literalinclude`` is replaced
by the lines it quotes (with Sphinx's ``lines``, ``start-at``/``start-after``,
``end-at``/``end-before`` and ``dedent``, in Sphinx's order), a picture by its description,
and roles are read out (``:doc:`cli``` -> ```catrules docs cli```, ``:mod:`~a.b``` -> ``b``,
````x```` -> ```x```).  The installed
package carries these renderings (written when the wheel is built, see ``setup.py``); a
source checkout renders ``docs/`` when asked, so the two cannot say different things.

This module imports nothing from catrules: the build loads it on its own, by its path.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

#: Where the built package keeps the rendered pages, relative to the ``catrules`` package.
PAGES_FOLDER = "docs_pages"
_DIRECTIVE = re.compile(r"^(\s*)\.\. ([a-z-]+)::\s*(.*)$")
_OPTION = re.compile(r"^\s+:([a-z-]+):\s*(.*)$")
_ROLE = re.compile(r":(?:[a-z]+:)?([a-z]+):`(~?)([^`]*?)(?:\s*<([^>]*)>)?`")
_HEADING_MARKS = set("=-~^\"'`#*+.")
#: Directives whose body is kept (indented) with their line and options left out.
_KEEP_BODY = {"code-block", "code", "container", "list-table", "note", "warning", "tip", "toctree"}


def page_names(docs: Path) -> list[str]:
    """The pages of a docs folder: its top-level ``.rst`` files, by name without the suffix."""
    return sorted(p.stem for p in docs.glob("*.rst"))


def render_all(docs: Path) -> dict[str, str]:
    """Every page of ``docs`` rendered, by name."""
    return {name: render(docs / f"{name}.rst") for name in page_names(docs)}


def title(text: str) -> str:
    """The first heading of a rendered page (its name when it has none)."""
    lines = text.splitlines()
    for i in range(len(lines) - 1):
        if lines[i].strip() and is_underline(lines[i + 1], lines[i]):
            return lines[i].strip()
    return ""


def is_underline(line: str, above: str) -> bool:
    """Whether ``line`` underlines the heading ``above`` (one repeated mark, at least as long)."""
    mark = line.rstrip()
    return bool(mark) and mark[0] in _HEADING_MARKS and set(mark) == {mark[0]} and \
        len(mark) >= len(above.rstrip()) > 0 and not above.startswith(" ")


def render(path: Path) -> str:
    """One page of the docs as plain text."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[str] = []
    prose: list[str] = []               # lines of text, read out together (a ``literal`` may span two)
    i = 0
    while i < len(lines):
        match = _DIRECTIVE.match(lines[i])
        if match or re.match(r"^\.\. ", lines[i]) or lines[i].strip() == "..":
            out.append(_inline("\n".join(prose)))
            prose = []
        if match:
            i = _directive(lines, i, match, path.parent, out)
        elif re.match(r"^\.\. ", lines[i]) or lines[i].strip() == "..":
            i = _skip_block(lines, i + 1, 0)                       # a comment or a label
        else:
            prose.append(lines[i])
            i += 1
    out.append(_inline("\n".join(prose)))
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def _inline(text: str) -> str:
    """Roles and links read out, double backquotes made single, in lines of text."""
    def role(m):
        kind, shown, target = m.group(1), m.group(3).strip(), m.group(4)
        if kind == "doc":               # another page: how to read it here
            page = (target or shown).strip().rsplit("/", 1)[-1]
            return f"`catrules docs {page}`" if target is None else f"{shown} (`catrules docs {page}`)"
        if target is None and m.group(2) == "~":
            shown = shown.rsplit(".", 1)[-1]
        return shown
    text = _ROLE.sub(role, text)
    text = re.sub(r"(?<![`\w])`([^`]+?)(?:\s*<[^>]*>)?`__?(?!\w)", r'"\1"', text)    # a link or a section
    text = re.sub(r"\b([A-Z][A-Za-z]+)_(?=[\s).,;:]|$)", r'"\1"', text)
    return re.sub(r"``(.+?)``", r"`\1`", text, flags=re.S)


def _options(lines, i, indent):
    """The directive's ``:name: value`` options from line ``i``; (options, next line)."""
    opts = {}
    while i < len(lines):
        m = _OPTION.match(lines[i])
        if not m or len(lines[i]) - len(lines[i].lstrip()) <= indent:
            break
        opts[m.group(1)] = m.group(2).strip()
        i += 1
    return opts, i


def _skip_block(lines, i, indent):
    """The line after the block indented deeper than ``indent`` that starts at ``i``."""
    while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
        i += 1
    return i


def _directive(lines, i, match, folder, out) -> int:
    """Render the directive at line ``i`` into ``out``; the line after it."""
    indent, name, argument = len(match.group(1)), match.group(2), match.group(3).strip()
    opts, j = _options(lines, i + 1, indent)
    pad = " " * (indent + 4)
    if name == "literalinclude":
        if "caption" in opts:
            out.append(" " * indent + _inline(opts["caption"]) + ":")
            out.append("")
        quoted = _included(folder / argument, opts)
        out.extend(pad + line if line.strip() else "" for line in quoted)
        out.append("")
        return j
    if name in ("image", "figure"):
        out.append(" " * indent + f"[picture: {opts.get('alt', Path(argument).name)}]")
        return _skip_block(lines, j, indent) if name == "figure" else j
    if name in _KEEP_BODY:
        if "caption" in opts and name != "toctree":
            out.append(" " * indent + _inline(opts["caption"]) + ":")
        end = _skip_block(lines, j, indent)
        if name == "toctree":
            out.append(" " * indent + "Pages (`catrules docs PAGE`):")
        out.extend(_inline(line) for line in lines[j:end])
        return end
    return _skip_block(lines, j, indent)                            # contents and the like


def _included(path: Path, opts: dict) -> list[str]:
    """The lines a ``literalinclude`` quotes (Sphinx's filters, in Sphinx's order)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        if "_generated" in path.parts:
            return [f"({path.name}: made when the HTML documentation is built, not shown here)"]
        return [f"({path.name}: not found)"]
    for key, keep in (("start-at", True), ("start-after", False)):
        if key in opts:
            at = next((n for n, line in enumerate(lines) if opts[key] in line), None)
            lines = lines if at is None else lines[at if keep else at + 1:]
    for key, keep in (("end-at", True), ("end-before", False)):
        if key in opts:
            at = next((n for n, line in enumerate(lines) if opts[key] in line), None)
            lines = lines if at is None else lines[:at + 1 if keep else at]
    if "lines" in opts:
        lines = [lines[n] for n in _line_numbers(opts["lines"], len(lines))]
    if "dedent" in opts:
        cut = int(opts["dedent"]) if opts["dedent"] else None
        lines = textwrap.dedent("\n".join(lines) + "\n").splitlines() if cut is None else \
            [line[cut:] if line[:cut].strip() == "" else line.lstrip() for line in lines]
    return lines


def _line_numbers(spec: str, count: int) -> list[int]:
    """Sphinx's ``:lines: 1-3,5,8-`` as 0-based indexes into ``count`` lines."""
    picked = []
    for part in spec.split(","):
        part = part.strip()
        if "-" in part:
            start, _, end = part.partition("-")
            first = int(start) if start.strip() else 1
            last = int(end) if end.strip() else count
            picked.extend(range(first - 1, min(last, count)))
        elif part:
            picked.append(int(part) - 1)
    return [n for n in picked if 0 <= n < count]
