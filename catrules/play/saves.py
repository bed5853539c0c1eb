"""Save files: a game paused at a decision, written so that it resumes exactly.

A save holds the state (:meth:`~catrules.runtime.state.State.to_dict`), the bots' random
source and a fingerprint of the game file's text (:func:`game_digest`), so that it resumes
only with that game; a front end may add its own keys (``extra``).  Reading one refuses
anything that is not a save, or a damaged one, with a :class:`~catrules.errors.SaveError`.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Optional

from .. import __version__
from ..errors import SaveError
from ..limits import NUMBER_LIMIT
from ..runtime.randoms import rng_in, rng_out
from .strict_json import BadJSON, read_json
from .validate import Anything, Flag, Int, Invalid, Items, Maybe, Record, Row, Text, check

SAVE_FORMAT = 1
#: The largest save file read (a save of a 10,000-card game is far smaller).
SAVE_SIZE_LIMIT = 64 << 20
#: The most players a saved game may have (a game's own limit is checked when it resumes).
PLAYERS_LIMIT = 10_000

#: What a save holds, field by field, before the game it saves is known (the state is checked
#: in depth against its game when it resumes: :mod:`catrules.runtime.saved_state`).
_BLOCK = Row([Text(), Int(0, NUMBER_LIMIT), Record({}), Int(0, NUMBER_LIMIT)],
             "a running block [name, position, variables, depth]")
_PENDING = Record({"players": Items(Int(0, PLAYERS_LIMIT - 1), PLAYERS_LIMIT, least=1),
                   "options": Items(Maybe(Items(Anything(), NUMBER_LIMIT)), PLAYERS_LIMIT),
                   "chosen": Items(Anything(), PLAYERS_LIMIT), "times": Items(Anything(), PLAYERS_LIMIT)})
_STATE = Record({"format": Int(1, 99), "players": Int(1, PLAYERS_LIMIT), "options": Items(Text()), "seed": Int(),
                 "over": Flag(), "decisions": Int(0, NUMBER_LIMIT), "steps": Int(0, NUMBER_LIMIT),
                 "frames": Items(_BLOCK, NUMBER_LIMIT), "pending": Maybe(_PENDING), "history": Items(Anything(), NUMBER_LIMIT)},
                required=("players", "frames", "over"))
#: What a save holds, field by field, before the game it saves is known (the state is checked
#: in depth against its game when it resumes: :mod:`catrules.runtime.saved_state`).
SAVE = Record({"version": Maybe(Text(100)), "game": Text(), "game_title": Maybe(Text()),
               "game_digest": Maybe(Text(64)), "state": _STATE,
               "bot_rng": Row([Int(), Items(Int(0, 2 ** 32 - 1), 625, least=625), Anything()], "a random source")},
              required=("state",))


def game_digest(game) -> str:
    """A fingerprint of a game file's text, kept in saves so that they resume only with that game."""
    return hashlib.sha256(game.source.encode("utf-8")).hexdigest()[:32]


def save(path: str | Path, game, state, bot_rng: random.Random, extra: Optional[dict] = None) -> None:
    """Write a save file of ``state`` (a game of ``game``) from which it resumes exactly."""
    data = {"catrules_save": SAVE_FORMAT, "version": __version__, "game": str(game.path),
            "game_title": game.title, "game_digest": game_digest(game),
            "state": state.to_dict(), "bot_rng": rng_out(bot_rng.getstate()), **(extra or {})}
    tmp = Path(str(path) + ".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    tmp.replace(path)


def read_save(path: str | Path) -> dict:
    """The data of a save file; raises :class:`~catrules.errors.SaveError` (a ``ValueError``) for a
    file that is not a save or is damaged, and ``OSError`` for one that cannot be read."""
    p = Path(path)
    with open(p, "rb") as f:
        raw = f.read(SAVE_SIZE_LIMIT + 1)
    if len(raw) > SAVE_SIZE_LIMIT:
        raise SaveError(f"{path} is not a catrules save file (larger than {SAVE_SIZE_LIMIT >> 20} MB)")
    try:
        data = read_json(raw)
    except BadJSON as exc:
        raise SaveError(f"{path} is not a catrules save file ({exc.why})") from None
    if not isinstance(data, dict) or data.get("catrules_save") != SAVE_FORMAT:
        raise SaveError(f"{path} is not a catrules save file")
    if not isinstance(data.get("state"), dict):
        raise SaveError(f"{path} is damaged: it holds no saved game")
    try:
        check(data, SAVE)
    except Invalid as exc:
        raise SaveError(f"{path} is damaged: its field {exc}") from None
    if "bot_rng" in data:
        try:
            bot_rng(data)
        except SaveError:
            raise SaveError(f"{path} is damaged: its field `bot_rng` is not a random source") from None
    return data


def check_save_game(game, data: dict) -> None:
    """Raise :class:`SaveError` if ``data`` (from :func:`read_save`) saves a game of another game file
    (its fingerprint differs, or is missing or damaged)."""
    digest = data.get("game_digest")
    if type(digest) is not str:
        raise SaveError("the save file is damaged: it holds no fingerprint of its game file")
    if digest != game_digest(game):
        title = data.get("game_title")
        named = f"of {title!r} " if isinstance(title, str) and title != game.title else ""
        raise SaveError(f"this save is of another game file {named}(or of an older version of "
                        f"{game.path}): it cannot be resumed with {game.path}")


def fingerprint_of(data: dict):
    """``f(bytes) -> bool``: bytes of a game file are those of the game a save's ``data`` saves
    (its fingerprint, :func:`game_digest`); ``None`` for a save that keeps none."""
    digest = data.get("game_digest")
    if type(digest) is not str:
        return None
    return lambda raw: hashlib.sha256(raw).hexdigest()[:32] == digest


def bot_rng(data: dict) -> random.Random:
    """The bots' random source kept in a save's ``data``."""
    try:
        return rng_in(data["bot_rng"])
    except (KeyError, IndexError, TypeError, ValueError, OverflowError):
        raise SaveError("the save file is damaged: the bots' random source") from None
