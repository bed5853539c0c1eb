"""The ``allot`` statement: share resource cards among targets the best way.

* :mod:`~catrules.allot.search`: the search the compiled code calls;
* :mod:`~catrules.allot.fit`: whether demands fit the resources (Hall's condition, a max-flow);
* :mod:`~catrules.allot.keys`: the ``prefer`` keys split into terms a solver reads (from their AST);
* :mod:`~catrules.allot.dp`: a dynamic programming over those terms, tried first;
* :mod:`~catrules.allot.integer_program`: an integer program (HiGHS, optional) when its tables are too big.
"""
