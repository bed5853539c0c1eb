"""Meaning checks: every name, kind and type of a parsed game, and the whole game, with hints.

* :mod:`~catrules.check.checker`: the checker, which walks the AST and reports every mistake;
* :mod:`~catrules.check.declarations`: what each declared name is;
* :mod:`~catrules.check.exprs`: a type for every expression;
* :mod:`~catrules.check.types`: the types and the rules they follow;
* :mod:`~catrules.check.shows`: card faces and shown names;
* :mod:`~catrules.check.game_checks`: checks of the whole game (phases never played, endless loops);
* :mod:`~catrules.check.checked`: what the checker hands on to the compiler;
* :mod:`~catrules.check.game_cache`: checked games kept between starts.
"""
