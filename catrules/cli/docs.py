"""The ``catrules docs`` command: the documentation's pages, read in the terminal from the installed package.

The pages are the ``docs/*.rst`` of the source as plain text
(:mod:`catrules.authoring.docs_text`): an installed catrules carries them in
``catrules/docs_pages/`` (written when the wheel is built); a source checkout renders
``docs/`` itself.  A page goes through a pager only when the output is a terminal and the
page is longer than it.
"""

from __future__ import annotations

import difflib
import re
import shutil
import sys
from importlib import resources
from pathlib import Path

from .common import FORMATTER, Failure, UsageError

DESCRIPTION = """\
Show a page of the catrules documentation, from the files installed with
catrules (no network needed): the language reference is `catrules docs
language`.  TOPIC is a page's name, the start of one, or words of its title.
With no TOPIC, the front page.  --find shows only the sections of the page
(of every page, with no TOPIC) that contain the words, wherever the lines break.
"""

EPILOG = """\
examples:
  catrules docs --list
  catrules docs language
  catrules docs language --find "up to"
  catrules docs --find "ties share"
"""


def add_parser(sub) -> None:
    sp = sub.add_parser("docs", help="read the documentation (the language reference...) in the terminal",
                        description=DESCRIPTION, epilog=EPILOG, formatter_class=FORMATTER)
    sp.add_argument("topic", nargs="?", metavar="TOPIC", help="the page: `language`, `cli`... (see --list)")
    sp.add_argument("--list", action="store_true", help="list the pages with their titles")
    sp.add_argument("--find", metavar="WORDS", help="show only the sections that contain WORDS (any case)")
    sp.add_argument("--no-pager", action="store_true", help="never page the output, even in a terminal")
    sp.set_defaults(func=run)


# ================================================================ where the pages are

class Pages:
    """The pages by name, read from the installed copies or rendered from a source checkout."""

    def __init__(self):
        from ..authoring.docs_text import PAGES_FOLDER, page_names
        shipped = resources.files("catrules") / PAGES_FOLDER
        source = Path(__file__).resolve().parents[2] / "docs"
        if shipped.is_dir():
            self.files = {p.name[:-4]: p for p in shipped.iterdir() if p.name.endswith(".txt")}
            self.rendered = True
        elif (source / "language.rst").is_file() and (source / "conf.py").is_file():
            self.files = {name: source / f"{name}.rst" for name in page_names(source)}
            self.rendered = False
        else:
            raise Failure("the documentation pages are not installed with this catrules",
                          "reinstall catrules from a wheel or from its source folder")
        self.names = sorted(self.files)

    def text(self, name: str) -> str:
        if self.rendered:
            return self.files[name].read_text(encoding="utf-8")
        from ..authoring.docs_text import render
        return render(self.files[name])

    def title(self, name: str) -> str:
        from ..authoring.docs_text import title
        return title(self.text(name)) or name

    def find(self, topic: str) -> str:
        """The page ``topic`` names: its name, the start of a name, or words of a title."""
        wanted = topic.strip().lower()
        if wanted.endswith(".rst"):
            wanted = wanted[:-4]
        if wanted in self.files:
            return wanted
        matches = [n for n in self.names if n.startswith(wanted)] or \
            [n for n in self.names if wanted and wanted in self.title(n).lower()]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise UsageError(f"“{topic}” could be several pages: {', '.join(matches)}", "give more of the name")
        close = difflib.get_close_matches(wanted, self.names, n=3)
        hint = (f"did you mean {' or '.join(close)}? " if close else "") + "`catrules docs --list` lists the pages"
        raise UsageError(f"there is no page called “{topic}”", hint)


# ================================================================ sections and search

def sections(text: str) -> list[str]:
    """A rendered page cut at each heading (a section runs to the next heading, whatever its level)."""
    from ..authoring.docs_text import is_underline
    lines = text.splitlines()
    starts = [i for i in range(len(lines) - 1) if lines[i].strip() and is_underline(lines[i + 1], lines[i])]
    if not starts or starts[0] != 0:
        starts = [0] + starts
    bounds = starts + [len(lines)]
    return ["\n".join(lines[a:b]).strip("\n") for a, b in zip(bounds, bounds[1:])]


def pattern(words: str) -> re.Pattern:
    """The words, in any case, with any spacing or line break between them."""
    parts = words.split()
    if not parts:
        raise UsageError("--find needs a word to look for", 'for example: catrules docs language --find "up to"')
    return re.compile(r"\s+".join(re.escape(p) for p in parts), re.IGNORECASE)


def found(pages: Pages, names: list, words: str) -> str:
    """The sections of the pages ``names`` that contain ``words``, each under its page's name."""
    wanted = pattern(words)
    out = []
    for name in names:
        hits = [s for s in sections(pages.text(name)) if wanted.search(s)]
        for section in hits:
            out.append(f"[catrules docs {name}]\n\n{section}" if len(names) > 1 else section)
    if not out:
        where = f"the page “{names[0]}”" if len(names) == 1 else "any page"
        raise Failure(f"“{words}” is not in {where}",
                      f'`catrules docs --find "{words}"` searches every page' if len(names) == 1
                      else "try fewer or other words")
    return "\n\n\n".join(out) + "\n"


# ================================================================ the command

def run(args) -> int:
    pages = Pages()
    if args.list:
        if args.topic or args.find:
            raise UsageError("--list takes no TOPIC and no --find", "`catrules docs --list` alone")
        width = max(len(n) for n in pages.names)
        show("".join(f"{name:<{width}}  {pages.title(name)}\n" for name in pages.names), args)
        return 0
    if args.find is not None:
        names = [pages.find(args.topic)] if args.topic else pages.names
        show(found(pages, names, args.find), args)
        return 0
    show(pages.text(pages.find(args.topic or "index")), args)
    return 0


def show(text: str, args) -> None:
    """Print ``text``; through a pager when the output is a terminal that it does not fit."""
    if not args.no_pager and sys.stdout.isatty() and text.count("\n") >= shutil.get_terminal_size().lines:
        import pydoc
        pydoc.pager(text)
    else:
        sys.stdout.write(text)
