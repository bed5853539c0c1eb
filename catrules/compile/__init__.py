"""The compiler: a checked game to its executable form, a :class:`~catrules.compile.program.Program`."""
