"""The language: a game file's text to its abstract syntax tree.

* :mod:`~catrules.lang.parser`: the file read with the grammar (``catrules.lark``: Lark, LALR,
  indentation); syntax errors with a caret and a hint;
* :mod:`~catrules.lang.builder` and :mod:`~catrules.lang.builder_exprs`: Lark's tree to AST nodes;
* :mod:`~catrules.lang.ast`: the node classes, each with its line and column;
* :mod:`~catrules.lang.variants`: a variant merged with the file it extends;
* :mod:`~catrules.lang.source_text`: an AST printed back in the language's words;
* :mod:`~catrules.lang.howto`: the `how to play` text as paragraphs for people;
* :mod:`~catrules.lang.grammar_cache`: where the built grammar is kept between runs.
"""
