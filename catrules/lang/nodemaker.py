"""How the node classes of :mod:`catrules.lang.ast` are made: their fields and a written ``__init__``.

:func:`node` writes each class's ``__init__`` from its annotated fields, as attrs or
dataclasses would, but in a fraction of their time (the AST module is imported before every
first prompt, see ``docs/benchmarks.rst``, "Cold start"): the sources are kept until
:func:`write_inits` compiles them all at once, which :mod:`catrules.lang.ast` does when its
classes are made; a node class made later has its ``__init__`` written at once.
"""

from __future__ import annotations


class Factory:
    """The default of a field that is a new object for each node (``Factory(list)``)."""
    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make


_MISSING = object()


def fields(cls) -> tuple:
    """The names of a node class's fields, the base classes' first."""
    return cls.__fields__


def node(cls):
    """Make ``cls`` a node class: its annotated fields (after its bases' ones) become the
    arguments of ``__init__``, in order, with the class's values as defaults; ``line`` and
    ``column`` are keywords only.  Nodes compare by identity; ``repr`` shows every field."""
    names, defaults = [], {}
    for base in reversed(cls.__mro__):
        for name in base.__dict__.get("__annotations__", ()):
            if name not in defaults:
                names.append(name)
            defaults[name] = base.__dict__.get(name, defaults.get(name, _MISSING))
    for name in cls.__dict__.get("__annotations__", ()):
        if isinstance(cls.__dict__.get(name), Factory):
            delattr(cls, name)              # the instance always has its own
    kw = ("line", "column")
    k = len(_INITS)                         # numbers this class's default names
    args, body, ns = [], [], {"_MISSING": _MISSING}
    for name in names:
        d = defaults[name]
        if d is _MISSING:
            args.append(name)
            body.append(f"    self.{name} = {name}")
        elif isinstance(d, Factory):
            ns[f"_make_{k}_{name}"] = d.make
            args.append(f"{name}=_MISSING")
            body.append(f"    self.{name} = _make_{k}_{name}() if {name} is _MISSING else {name}")
        else:
            ns[f"_default_{k}_{name}"] = d
            args.append(f"{name}=_default_{k}_{name}")
            body.append(f"    self.{name} = {name}")
    pos = [a for a, n in zip(args, names) if n not in kw]
    kws = [a for a, n in zip(args, names) if n in kw]
    sig = ", ".join(["self"] + pos + (["*"] + kws if kws else []))
    fn = f"_init_{k}"
    _INITS.append((cls, fn, f"def {fn}({sig}):\n" + "\n".join(body or ["    pass"]) + "\n", ns))
    cls.__fields__ = tuple(names)
    if _WRITTEN:                            # a node class made after this module was loaded
        write_inits()
    return cls


#: (class, function name, source, names it uses) of every node class, until :func:`write_inits`
_INITS: list = []
_WRITTEN = False


def write_inits() -> None:
    """Compile every node class's ``__init__`` at once (one compile is much cheaper than 56)."""
    ns: dict = {}
    for _cls, _fn, _src, used in _INITS:
        ns.update(used)             # names are numbered per class (see node): nothing clashes
    exec("".join(src for _c, _f, src, _u in _INITS), ns)
    for cls, fn, _src, _used in _INITS:
        init = ns[fn]
        init.__name__, init.__qualname__ = "__init__", f"{cls.__qualname__}.__init__"
        cls.__init__ = init
    _INITS.clear()
    globals()["_WRITTEN"] = True
