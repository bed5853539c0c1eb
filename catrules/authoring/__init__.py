"""Tools for designers of game files.

* :mod:`~catrules.authoring.fmt`: the formatter (``catrules fmt``);
* :mod:`~catrules.authoring.lsp`: the language server (``catrules lsp``);
* :mod:`~catrules.authoring.highlight`: highlighting with Pygments;
* :mod:`~catrules.authoring.summary`: a game's summary (``catrules rules``);
* :mod:`~catrules.authoring.graph_render`: the action graph drawn as SVG;
* :mod:`~catrules.authoring.new`: a small working game to start from (``catrules new``).
"""
