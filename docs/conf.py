"""Sphinx configuration for the catrules documentation.

Build with ``python -m sphinx -W -b html docs docs/_build/html`` from the
repository root.
"""

import os
import sys

# Make the catrules package importable from the source tree (for the lexer).
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

from catrules.authoring.highlight import CatrulesLexer  # noqa: E402

project = "catrules"
author = "the catrules authors"
copyright = "the catrules authors"

extensions = []

root_doc = "index"
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["_build", "_generated", "examples", "Thumbs.db", ".DS_Store"]
# rules/ holds one page per shipped game, written at each build (write_rules_pages).

highlight_language = "none"
pygments_style = "sphinx"

html_theme = "alabaster"
html_title = "catrules"
# _generated/graphs holds the games' action graphs, drawn at each build (draw_game_graphs).
os.makedirs(os.path.join(os.path.dirname(os.path.abspath(__file__)), "_generated", "graphs"), exist_ok=True)
html_static_path = ["_static", "_generated"]
html_css_files = ["graphs.css", "code.css"]
html_theme_options = {
    "description": "Card games as text files",
    "fixed_sidebar": False,
}


# meow.rst quotes games/meow.cat by line numbers. If the game file changes,
# these anchors (line number -> how the line starts) no longer match and the
# build warns (an error with -W): update the ``:lines:`` in meow.rst and here.
MEOW_ANCHORS = {
    1: "catrules 4", 5: "# Rule ids", 7: "option expert", 9: "# M01", 25: "    4 cards with kind vase",
    27: "# How the cards read", 38: "    if c.colour == green", 41: "zone deck", 49: "zone box",
    51: "counter first_player", 53: "counter lead", 55: "# M10", 61: "define strength", 62: "# Why a card",
    69: "    else \"the highest", 71: "setup:", 74: "        move deck where", 77: "flow:", 80: "    play fish",
    82: "phase round:", 92: "    first_player = next", 94: "phase turn:", 110: "    move played of everyone",
    112: "phase fish:", 121: "            announce", 123: "score:", 127: "    vases =", 129: "winner:",
    131: "    ties share",
}


def check_meow_anchors(app):
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    path = os.path.join(app.srcdir, "..", "games", "meow.cat")
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for number, start in MEOW_ANCHORS.items():
        text = lines[number - 1] if number <= len(lines) else ""
        if not text.startswith(start):
            logger.warning("games/meow.cat line %d no longer starts with %r (it is %r): "
                           "update the :lines: ranges in docs/meow.rst", number, start, text,
                           location="meow")


def draw_game_graphs(app):
    """Draw each shipped game's action graph as _generated/graphs/GAME.svg (graphs.rst shows them)."""
    from sphinx.util import logging

    import catrules
    from catrules.authoring.graph_render import to_svg

    out = os.path.join(app.srcdir, "_generated", "graphs")
    os.makedirs(out, exist_ok=True)
    games = os.path.join(app.srcdir, "..", "games")
    for name in sorted(os.listdir(games)):
        if not name.endswith(".cat"):
            continue
        try:
            svg = to_svg(catrules.load_game(os.path.join(games, name)).graph)
        except catrules.GameFileError as exc:
            logging.getLogger(__name__).warning("games/%s does not load: %s", name, exc, location="graphs")
            continue
        target = os.path.join(out, name[:-4] + ".svg")
        old = open(target, encoding="utf-8").read() if os.path.exists(target) else None
        if svg != old:                  # rewrite only a changed picture, so the build stays incremental
            with open(target, "w", encoding="utf-8") as f:
                f.write(svg)


def write_compiled_example(app):
    """Write the Python the compiler makes of docs/examples/compiled.cat's flow (runtime.rst shows it)."""
    import catrules

    game = catrules.load_game(os.path.join(app.srcdir, "examples", "compiled.cat"))
    target = os.path.join(app.srcdir, "_generated", "compiled-flow.py")
    text = game.program.unit_sources["flow"] + "\n"
    old = open(target, encoding="utf-8").read() if os.path.exists(target) else None
    if text != old:
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)


def _game_files(games):
    """The shipped game files: games/*.cat, then the variants in games/variants/, if any."""
    found = []
    for folder in (games, os.path.join(games, "variants")):
        if os.path.isdir(folder):
            found += [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".cat")]
    return found


def rules_page(path, root):
    """The reST page of one game's summary: the Markdown of ``catrules rules`` as a literal block."""
    import catrules
    from catrules.authoring.summary import summary

    game = catrules.load_game(path)
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    title = f"{game.title}: the summary"
    body = "\n".join(("   " + line) if line else "" for line in summary(game).splitlines())
    return (f"{title}\n{'=' * len(title)}\n\n"
            f"Generated from ``{rel}`` at the build of this documentation, as\n"
            f"``catrules rules {rel}`` prints it.\n\n.. code-block:: markdown\n\n{body}\n")


def write_rules_pages(app):
    """Write rules/GAME.rst for each shipped game (summaries.rst lists them)."""
    from sphinx.util import logging

    import catrules

    root = os.path.join(app.srcdir, "..")
    out = os.path.join(app.srcdir, "rules")
    os.makedirs(out, exist_ok=True)
    wanted = set()
    for path in _game_files(os.path.join(root, "games")):
        stem = os.path.splitext(os.path.relpath(path, os.path.join(root, "games")))[0].replace(os.sep, "-")
        try:
            page = rules_page(path, root)
        except catrules.GameFileError as exc:
            logging.getLogger(__name__).warning("%s does not load: %s", path, exc, location="summaries")
            continue
        target = os.path.join(out, stem + ".rst")
        wanted.add(stem + ".rst")
        old = open(target, encoding="utf-8").read() if os.path.exists(target) else None
        if page != old:                 # rewrite only a changed page, so the build stays incremental
            with open(target, "w", encoding="utf-8") as f:
                f.write(page)
    for name in os.listdir(out):        # a game removed since the last build loses its page
        if name not in wanted:
            os.remove(os.path.join(out, name))


def setup(app):
    app.add_lexer("catrules", CatrulesLexer)
    app.connect("builder-inited", check_meow_anchors)
    app.connect("builder-inited", draw_game_graphs)
    app.connect("builder-inited", write_compiled_example)
    app.connect("builder-inited", write_rules_pages)
