"""The header's `game` and `players` lines: required in a game, optional in a variant (language 4).

A file with ``extends`` may leave either line out, and then has its base's (see
:mod:`catrules.lang.variants`); a file without ``extends`` says both.  The builder
leaves a line that is not there as ``None`` and calls :func:`check` once the whole
file is read.
"""

from __future__ import annotations

from ..errors import Reporter


def missing(g) -> list:
    """The header lines ``g`` leaves out, as the language writes them."""
    out = []
    if g.title is None:
        out.append('`game "..."`')
    if g.min_players is None:
        out.append("`players ... to ...`")
    return out


def check(rep: Reporter, g, hpos: dict) -> None:
    """Refuse a header that leaves out a line where the file cannot do so."""
    gone = missing(g)
    if not gone:
        return
    at = (hpos["line"], hpos["column"])
    lines = " and ".join(gone)
    if g.extends is None:
        rep.error(at, f"the header has no {lines} line" + ("s" if len(gone) > 1 else ""),
                  f'a game file starts with `catrules {g.version}`, `game "Title"` and `players 2 to 4`; only a variant '
                  "(a file with `extends \"base.cat\"`) may leave them out and take its base's")
    elif g.version < 4:
        rep.error(at, f"leaving out {lines} in a variant is language 4, and this file says "
                      f"`catrules {g.version}`", "write `catrules 4` on the first line")
