"""Checks that came after files were written, and whom they bind.

Compatibility is a promise: a file written for language N keeps checking and
playing as it did.  A check that came in after some files were written is an
error only in files that say the version that brought it (or a later one);
in older files it is a warning that names that version, with the same fix.
:data:`ERROR_FROM` says, for each such check, the first version whose files
get an error (found with ``git log -S`` on the checker, see the Compatibility
section of docs/language.rst).
"""

from __future__ import annotations

#: check -> the first language version whose files get an error for it
ERROR_FROM = {
    "none": 1,                # `none` itself where a player or a number is needed: it stops every time
    # came in with the typed checker while language 1 was the newest (before language 2):
    "maybe-none": 2,          # a value that may be none as an owner, in arithmetic, in next/previous/others
    "card-value-name": 2,     # a card value that is also the name of a card type, counter, zone...
    "compare-kinds": 2,       # == / != / in between values that can never be equal
    # came in while language 3 was the newest: errors from language 4 on
    "counter-target": 4,      # COUNTER of X = / add ... to COUNTER of X: X a player (or card), not none
    "maybe-none-late": 4,     # owner(...) may be none; sum/max/min of values that may be none
}


def severity(check: str, version: int) -> str:
    """``error`` or ``warning``: how ``check`` binds a file that says ``catrules version``."""
    return "error" if version >= ERROR_FROM[check] else "warning"


def report(rep, version: int, check: str, node, message: str, hint: str = "") -> None:
    """Report ``message`` as an error or, in a file older than the check, a warning that says so."""
    if severity(check, version) == "error":
        rep.error(node, message, hint)
        return
    since = ERROR_FROM[check]
    note = f"(an error in files of language {since} and later; this file says `catrules {version}`)"
    rep.warning(node, message, f"{hint} {note}" if hint else note)
