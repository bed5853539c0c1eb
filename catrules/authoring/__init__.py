"""Tools for designers: formatter, language server, highlighting, rules summary, graph drawing, new games."""
