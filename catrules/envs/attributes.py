"""Card attributes as features: one-hot per attribute value, from the game's card types and attributes.

A card's attributes never change (``Game.card(id)``); an observation shows them next to where
the player sees each card (:class:`catrules.envs.encoding.Encoder`), as RLCard's and OpenSpiel's
card games show suits and ranks.  Nothing here knows any game: the features are every value of
every attribute the game file declares.
"""

from __future__ import annotations

import numpy as np

#: An attribute with more distinct values than this (names, descriptions) is left out of the
#: attribute planes (see :func:`attribute_values`).
ATTRIBUTE_VALUES = 40


def _values_of(v) -> list:
    if isinstance(v, (list, tuple)):
        return [x for x in v if isinstance(x, (int, str)) and not isinstance(x, bool)] + \
            [x for x in v if isinstance(x, bool)]
    return [] if v is None else [v]


def attribute_values(prog) -> list:
    """The card features of the attribute planes, as ``(attribute, value)`` pairs in a fixed order:
    the card's type (if the game has several), then each attribute the game declares, every value
    some card has (a list's items each), sorted; an attribute with more than
    :data:`ATTRIBUTE_VALUES` distinct values is left out (names, descriptions)."""
    out = []
    types = sorted(set(prog.card_type))
    if len(types) > 1:
        out += [("type", t) for t in types]
    for name in prog.attributes:
        vals = {x for v in prog.attr_col[name] for x in _values_of(v)}
        if 0 < len(vals) <= ATTRIBUTE_VALUES:
            out += [(name, v) for v in sorted(vals, key=lambda x: (type(x).__name__, x))]
    return out


def attribute_matrix(prog, features: list) -> np.ndarray:
    """Per card, 1 for each ``(attribute, value)`` of ``features`` it has (float32, cards x features)."""
    col = {f: i for i, f in enumerate(features)}
    m = np.zeros((prog.card_count, len(features)), np.float32)
    for c in range(prog.card_count):
        i = col.get(("type", prog.card_type[c]))
        if i is not None:
            m[c, i] = 1
        for name in prog.attributes:
            for x in _values_of(prog.card_attrs[c].get(name)):
                i = col.get((name, x))
                if i is not None:
                    m[c, i] = 1
    return m
