"""The compiler: a checked game to its executable form, a :class:`~catrules.compile.program.Program`.

* :mod:`~catrules.compile.compiler`: walks the game unit by unit and fills the Program;
* :mod:`~catrules.compile.units`: one unit written as Python blocks, split where the game may pause;
* :mod:`~catrules.compile.codegen`: expressions written as Python;
* :mod:`~catrules.compile.choices`, :mod:`~catrules.compile.said`, :mod:`~catrules.compile.kinds`:
  choices, texts with values, and the kind of value each expression holds;
* :mod:`~catrules.compile.graph`: the action graph, built on :mod:`~catrules.compile.light_graph`;
* :mod:`~catrules.compile.program`: the Program and where zones live in a state.

The code it writes calls the run time (:mod:`catrules.runtime`) and the ``allot`` search
(:mod:`catrules.allot`); neither imports the compiler.
"""
