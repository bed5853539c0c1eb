"""The catrules grammar (``catrules.lark``), installed as ``catrules.grammars``."""
