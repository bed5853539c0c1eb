"""Sphinx configuration for the catrules documentation.

Build with ``python -m sphinx -W -b html docs docs/_build/html`` from the
repository root.
"""

import os
import sys

# Make the catrules package importable from the source tree (for the lexer).
sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

from catrules.highlight import CatrulesLexer  # noqa: E402

project = "catrules"
author = "the catrules authors"
copyright = "the catrules authors"

extensions = []

root_doc = "index"
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["_build", "examples", "Thumbs.db", ".DS_Store"]

highlight_language = "none"
pygments_style = "sphinx"

html_theme = "alabaster"
html_title = "catrules"
html_static_path = ["_static"]
html_theme_options = {
    "description": "Card games as text files",
    "fixed_sidebar": False,
}


def setup(app):
    app.add_lexer("catrules", CatrulesLexer)
