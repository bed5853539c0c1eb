"""The language: a game file's text to its abstract syntax tree (grammar, parser, AST, variants)."""
