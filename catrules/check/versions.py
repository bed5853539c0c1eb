"""What each version of the language added, and the check that a file names a version that has it.

A file says which language it is written in (``catrules 3``); it may not use what later versions
added (it would play differently, or not at all, with an older interpreter), and it is told which
version to write.  The lines a variant takes from its base are judged by the version the base says.
"""

from __future__ import annotations

from ..lang import ast
from .visibility import zone_visibility_added


def _added_in(n, defines) -> tuple | None:
    """(version, what) for a construct that a language version added, else ``None``."""
    if isinstance(n, (ast.Choose, ast.Menu)) and n.public:
        return 2, "`openly`"
    if isinstance(n, (ast.Choose, ast.Together)) and n.up_to is not None:
        return 4, "choosing `up to N cards` or `any number of cards`"
    if isinstance(n, (ast.Choose, ast.Together)) and n.count is not None:
        return 2, "choosing several cards at once"
    if isinstance(n, ast.Where) and n.var is not None:
        return 2, "`each NAME in ...`"
    if isinstance(n, ast.Call) and n.name == "tallied" and n.name not in defines:
        return 2, "`tallied`"
    if isinstance(n, (ast.ShowSymbol, ast.ShowCard)):
        return 3, "`show` and `describe`"
    if isinstance(n, ast.Nothing):
        return 3, "`do nothing`"
    if isinstance(n, ast.Announce) and not (isinstance(n.text, ast.Const) and isinstance(n.text.value, str)):
        return 3, "`announce` with values"
    if isinstance(n, ast.Tally) and n.title is not None:
        return 3, "a tally's title"
    if isinstance(n, ast.ChooseOpts) and (n.default_is is not None or n.asking is not None):
        return 3, "`default VALUE` and `asking`" if n.default_is is not None else "`asking`"
    if isinstance(n, ast.Menu) and n.opts is not None:
        return 3, "a menu's `default` and `asking`"
    if isinstance(n, ast.Together) and n.optional:
        return 3, "`may choose`"
    if isinstance(n, ast.ScoreItem) and n.only_if is not None:
        return 3, "a score item's `if`"
    if isinstance(n, ast.Counter) and n.declared is not None:
        return 3, "a counter's declared type"
    if isinstance(n, ast.CopyCount):
        return 4, "a copy count worked out from values (`(EXPR) cards`)"
    if isinstance(n, ast.Zone) and any(tuple(w[:2]) == ("one", "per") for w, _ in n.props):
        return 4, "a zone family (`one per ...`)"
    if isinstance(n, ast.Counter) and n.secret:
        return 4, "`secret counter`"
    if isinstance(n, ast.Zone) and zone_visibility_added(n):
        return 4, "a zone that is `secret` or `public top`"
    if isinstance(n, ast.UpTo):
        return 4, "`up to` in a count (`top(deck, up to 9)`)"
    if isinstance(n, ast.OptionValues):
        return 4, "an option with values"
    return None


def check_version(g, defines, rep, version: int) -> None:
    """A file that names an older language may not use what later versions added (it still
    plays as written; the checks and the hiding of choices are the same for all)."""
    for n in ast.walk([g.setup, g.flow, g.score, g.defines, g.counters, g.symbol_names, g.card_shows,
                       g.zones, g.options, [ct.counted for ct in g.cards]] +
                      [x.body for x in g.phases + g.actions + g.triggers]):
        what = _added_in(n, defines)
        # a base file's lines are judged by the version that file says
        if what and what[0] > g.versions.get(g.origins.get(id(n)), version):
            rep.error(n, f"{what[1]} is language {what[0]}, and this file says `catrules {version}`",
                      f"write `catrules {what[0]}` on the first line")
