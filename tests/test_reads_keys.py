"""The keys :mod:`catrules.runtime.reads` builds: symbols kept apart from texts, and nothing in
them the garbage collector must follow (a memo keeps thousands of them)."""

import gc

from catrules.allot.memo import wants_key
from catrules.lang.ast import Sym
from catrules.runtime.reads import value_key


def _untracked(key) -> bool:
    for _ in range(4):  # a tuple of untracked items leaves the collector's rounds there, a level a round
        gc.collect()
    return not gc.is_tracked(key)


def test_keys_of_symbols_are_not_followed_by_the_collector():
    for v in ([Sym("tuna"), Sym("milk")], [[Sym("tuna")], None, [Sym("milk"), Sym("milk")]],
              Sym("tuna"), [3, Sym("tuna")], ("a", Sym("b"))):
        assert _untracked(value_key(v)), v
    assert _untracked(wants_key([[[Sym("tuna"), Sym("milk")]], [Sym("milk")], []]))
    assert not _untracked((Sym("tuna"),))       # what they would be otherwise (the test can fail)


def test_symbols_and_texts_stay_apart_and_equal_values_equal():
    assert value_key(Sym("tuna")) != value_key("tuna")
    assert value_key([Sym("tuna")]) != value_key(["tuna"])
    assert value_key([[Sym("tuna")]]) != value_key([["tuna"]])
    assert value_key([Sym("tuna"), 3]) == value_key([Sym("tuna"), 3])
    assert value_key([[Sym("tuna")], None]) == value_key([[Sym("tuna")], None])
    assert value_key([[Sym("tuna")], None]) != value_key(([Sym("tuna")], None))
    assert value_key([(Sym("tuna"),)]) != value_key([[Sym("tuna")]])
    assert value_key([Sym("a"), Sym("b")]) != value_key([Sym("b"), Sym("a")])
    assert wants_key([[Sym("tuna")]]) != wants_key([["tuna"]])
    assert wants_key([[[Sym("tuna"), Sym("milk")]]]) == wants_key([[(Sym("tuna"), Sym("milk"))]])
    assert wants_key([[[Sym("tuna"), "milk"]]]) != wants_key([[[Sym("tuna"), Sym("milk")]]])
