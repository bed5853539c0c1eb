"""The small functions for a place's attributes, and the remembered lists of lines and places,
give what the general ``place_attr`` and a fresh construction give, all through a game."""

import random

import catrules
from catrules.runtime.places import PLACE_GETTERS, _lines_rt, _places_rt, place_attr


def _states():
    """Flap Cat! states at every decision of a game played with random answers."""
    g = catrules.load_game("games/flapcat.cat")
    st = g.new_state(4, seed=7)
    rng = random.Random(3)
    for _ in range(400):
        if st.finished:
            break
        yield st
        d = rng.choice(st.pending())
        st.apply(d.player, rng.choice(d.options).id, 0.5 if d.timed else None)


def test_getters_agree_with_place_attr():
    seen_new = seen_between = 0
    for st in _states():
        for slot, zone in enumerate(st.z):
            if not zone or type(zone[0]) is not list:
                continue
            places = _places_rt(st, slot)
            assert places == [f"place:{slot}:-1:0"] + [f"place:{slot}:{i}:{k}" for i, line in enumerate(zone)
                                                        for k in range(len(line) + 1)]
            assert _lines_rt(st, slot) == [f"line:{slot}:{i}" for i in range(len(zone))]
            for v in places + _lines_rt(st, slot):
                for name, (_, fn) in PLACE_GETTERS.items():
                    if v.startswith("line") and name != "new":
                        continue            # a line has no start, end...: both raise the same error
                    assert fn(st, v) == place_attr(st, v, name), (v, name)
                if v.startswith("line"):
                    continue
                seen_new += v.endswith(":-1:0")
                seen_between += place_attr(st, v, "before") is not None and place_attr(st, v, "after") is not None
    assert seen_new and seen_between
    for name, (_, fn) in PLACE_GETTERS.items():
        assert fn(None, None) is None


def test_remembered_lists_are_copies():
    st = next(s for s in _states() if any(z and type(z[0]) is list for z in s.z))
    slot = next(i for i, z in enumerate(st.z) if z and type(z[0]) is list)
    first = _places_rt(st, slot)
    first.append("junk")
    assert "junk" not in _places_rt(st, slot)
    lines = _lines_rt(st, slot)
    lines.clear()
    assert _lines_rt(st, slot)
