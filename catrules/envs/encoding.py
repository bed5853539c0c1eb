"""What the RL environments share: a game's fixed action vocabulary and the view encoder.

Reinforcement-learning programs want a fixed, finite set of actions and observations of a
fixed size; a catrules game offers options with stable ids (``c12``, ``p2``, ``n3``, ``none``,
``yes``, a menu label, ``place:11:0:2``...) that change from decision to decision.  A
:class:`Spec` makes, for one game file, player count and set of game options:

* the **action vocabulary**: every option id the game can offer, in a fixed order, from the
  game file (every card, every player, ``none``, ``yes``/``no``, numbers, symbols and menu
  labels, the rows and columns of grids, the lines and places of zones of lines), completed
  by ``explore`` seeded random games played when the spec is made (ids that only play shows,
  and how many lines a zone of lines holds).  An id that appears later and is not in the
  vocabulary raises :class:`UnknownOption`, which names it;
* the **observation encoder** (:class:`Encoder`): a player's view (:meth:`State.view`, never
  the state) as a vector of float32, and as text.

Nothing here knows any game: everything comes from the compiled program.  The layout of the
vector and the rules for rewards are documented in ``docs/environments.rst``.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import numpy as np

from ..lang import ast
from ..api import Game, load_game
from ..errors import CatrulesError
from ..runtime.decisions import TIE_RACE_OPTION
from ..runtime.option_ids import NO, NONE, YES, card_id, is_numbered, number_id, player_id
from ..runtime.zone_names import ZoneName
from ..check.types import kind_name
from .attributes import attribute_matrix, attribute_values
from .vocabulary import Keys, compact

#: Seeded random games played when a spec is made, to find what the game file does not say.
EXPLORE_GAMES = 20
#: The widest range of numbers made actions from the game file alone (else only its numbers).
NUMBER_SPAN = 1000
#: A zone of lines gets ``2 * most + LINE_MARGIN`` lines and positions, where ``most`` is the
#: most that the explored games showed (at most the number of cards that may go there).
LINE_MARGIN = 2
#: A random game stopped after this many decisions is taken for one that never ends.
LONGEST_GAME = 200_000
#: Observations are numbers of at most this size (the engine's saved-number limit).
OBS_LIMIT = 1e30
#: How the final result is turned into rewards (see :func:`final_returns`).
REWARDS = ("win", "score")

_DECISION_KINDS = {"choose": 0, "secret": 1, "race": 2}
#: The action vocabularies (see :class:`Spec` and :mod:`catrules.envs.vocabulary`).
VOCABULARIES = ("ids", "compact")


class UnknownOption(CatrulesError):
    """An option id that is not in an environment's action vocabulary."""


def load(game) -> Game:
    """A :class:`~catrules.api.Game` from a game or the path of a game file."""
    return game if isinstance(game, Game) else load_game(game)


def answer(state, decision, option_id: str, reaction_time=None) -> None:
    """Apply ``decision.player``'s answer; a race is answered with ``reaction_time`` seconds, or
    (None) with a time drawn from the game's seeded model of reaction times."""
    t = None
    if decision.timed:
        t = reaction_time if reaction_time is not None else state.reaction_time()
    state.apply(decision.player, option_id, t)


def final_returns(state, reward: str) -> list:
    """Each player's return once the game is over (zeros before).

    ``"win"``: a winner gets ``1 / number of winners``, the others 0 (the returns add up to 1).
    ``"score"``: the player's total minus the best total of the others (their lead)."""
    n = state.n
    if not state.finished:
        return [0.0] * n
    rows = state.scores()
    if reward == "win":
        won = state.winners(rows)
        return [1.0 / len(won) if p in won else 0.0 for p in range(n)]
    totals = [float(r["total"]) for r in rows]
    return [totals[p] - max((totals[q] for q in range(n) if q != p), default=0.0) for p in range(n)]


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise CatrulesError(f"unknown reward {reward!r}: use 'win' (a share of the win) or 'score' "
                            "(the lead over the best other player)")
    return reward


# ------------------------------------------------------------------ the vocabulary

def choice_kinds(prog) -> set:
    """What the game's choices offer, from the checker's types: card, player, number, symbol,
    bool, line, place, menu (labels), or unknown."""
    ck = prog.checked
    kinds = set()
    for n in ast.walk(ck.game.bodies):
        if isinstance(n, (ast.Choose, ast.Together)):
            kinds.add(kind_name(ck.types.get(id(n.source))) or "unknown")
        elif isinstance(n, ast.Menu):
            kinds.add("menu")
    return kinds


def _constants(prog) -> tuple:
    """The whole numbers and texts the game file writes (in rules and on cards)."""
    ints, texts = set(), set()

    def note(v):
        if isinstance(v, bool):
            return
        if isinstance(v, int):
            ints.add(v)
        elif isinstance(v, str):
            texts.add(str(v))
        elif isinstance(v, tuple):
            for x in v:
                note(x)
    for n in ast.walk(prog.checked.game.bodies):
        if isinstance(n, ast.Const):
            note(n.value)
    for attrs in prog.card_attrs:
        for v in attrs.values():
            note(v)
    return ints, texts


def _numbers(prog, players: int, ints: set) -> list:
    top = max([prog.card_count, players, *ints])
    low = min([0, *ints])
    if top - low <= NUMBER_SPAN:
        return list(range(low, top + 1))
    return sorted(ints | set(range(0, min(prog.card_count, NUMBER_SPAN) + 1)))


def _references(prog, players: int, kinds: set, seen_lines: dict, factor: int = 2) -> list:
    """Rows and columns of grids; lines and places of zones of lines, as many as the explored
    games needed, times ``factor``, plus a margin (never more than the cards that may go there)."""
    lay = prog.layout(players)
    unknown = "unknown" in kinds
    out = []
    tz = prog.zone_types
    for s, sp in enumerate(lay.slot_spec):
        if sp.shape == "grid" and ("line" in kinds or unknown):
            out += [f"row:{s}:{i}" for i in range(sp.rows)] + [f"col:{s}:{j}" for j in range(sp.cols)]
        elif sp.shape == "lines" and kinds & {"line", "place", "unknown"}:
            cap = sum(len(prog.cards_of_type[t]) for t, zs in tz.items() if sp.index in zs)
            most, longest = seen_lines.get(sp.index, (0, 0))
            n_lines = min(cap, factor * most + LINE_MARGIN)
            length = min(cap, factor * longest + LINE_MARGIN)
            if "line" in kinds or unknown:
                out += [f"line:{s}:{i}" for i in range(n_lines)]
            if "place" in kinds or unknown:
                out.append(f"place:{s}:-1:0")
                out += [f"place:{s}:{i}:{k}" for i in range(n_lines) for k in range(length + 1)]
    return out


class Explored:
    """What seeded random games showed: option ids, lines per zone of lines, game lengths."""

    def __init__(self):
        self.ids: set = set()
        self.by_player: dict = {}      # player -> the option ids offered to them
        self.lines: dict = {}          # zone index -> (most lines, longest line)
        self.lengths: list = []        # decisions answered per game

    def note_lines(self, st, line_slots) -> None:
        for s in line_slots:
            zone = st.z[s]
            zi = st.layout.slot_zone[s]
            most, longest = self.lines.get(zi, (0, 0))
            self.lines[zi] = (max(most, len(zone)), max([longest, *map(len, zone)]))


def explore(game: Game, players: int, options, games: int) -> Explored:
    """Play ``games`` seeded random games (game seeds 0, 1, ...; uniform choices; races answered
    with the game's model of reaction times) and note what they showed."""
    out = Explored()
    lay = game.program.layout(players)
    line_slots = [s for s, sp in enumerate(lay.slot_spec) if sp.shape == "lines"]
    for i in range(games):
        st = game.new_state(players, seed=i, options=options)
        rng = random.Random(i)
        steps = 0
        while not st.finished:
            out.note_lines(st, line_slots)
            pending = st.pending()
            for d in pending:
                ids = [o.id for o in d.options]
                out.ids.update(ids)
                out.by_player.setdefault(d.player, set()).update(ids)
            d = pending[0]
            answer(st, d, rng.choice(d.options).id)
            steps += 1
            if steps > LONGEST_GAME:
                raise CatrulesError(f"{game.title}: a random game (seed {i}) did not end after {LONGEST_GAME} "
                                    "decisions; an environment needs games that end")
        out.note_lines(st, line_slots)
        out.lengths.append(steps)
    return out


class Spec:
    """One game file, player count and set of options, made ready for an RL environment:
    ``actions`` (the vocabulary: option ids, or keys with ``vocabulary="compact"``, see
    :mod:`catrules.envs.vocabulary`), ``index`` (action name -> action number), ``encoder``, and
    what exploring showed (``longest``: the most decisions a game took).  ``base``: a list of
    action names (another spec's ``actions``) that come first, in their order, so that an action
    number means the same in both (a game and its variant)."""

    def __init__(self, game: Game, players: int, options=(), explore_games: int = EXPLORE_GAMES,
                 extra_actions=(), vocabulary: str = "ids", base=()):
        if vocabulary not in VOCABULARIES:
            raise CatrulesError(f"unknown vocabulary {vocabulary!r}: use 'ids' (an action per option id) or "
                                "'compact' (an action per card identity, place of a zone as seen by the "
                                "player, label...)")
        prog = game.program
        prog.check_start(players, options)
        self.game, self.program, self.players = game, prog, players
        self.options = sorted(set(options))
        self.explore_games = explore_games
        seen = explore(game, players, self.options, explore_games)
        self.longest = max(seen.lengths, default=0)
        kinds = choice_kinds(prog)
        unknown = "unknown" in kinds
        ints, texts = _constants(prog)
        actions = [NONE]
        if "bool" in kinds or unknown:
            actions += [YES, NO]
        actions += [card_id(i) for i in range(prog.card_count)]
        actions += [player_id(i) for i in range(players)]
        if "number" in kinds or unknown:
            actions += [number_id(v) for v in _numbers(prog, players, ints)]
        names = set()
        if kinds & {"symbol", "unknown"}:          # symbols, and texts (their type is "symbol" too)
            names |= {str(s) for s in prog.checked.symbols} | texts
        for n in ast.walk(prog.checked.game.bodies):
            if isinstance(n, ast.Menu):
                names |= {label for label, *_ in n.branches}
        if prog.tie_race:
            names.add(TIE_RACE_OPTION)
        actions += sorted(names - set(actions))
        factor = 1 if vocabulary == "compact" else 2
        actions += [r for r in _references(prog, players, kinds, seen.lines, factor) if r not in names]
        known = set(actions)
        actions += sorted((seen.ids | set(extra_actions)) - known)
        plain = {NONE, YES, NO}
        self.names = [a for a in actions if a not in plain and not is_numbered(a)]
        self.vocabulary = vocabulary
        self.keys = None
        self.ids_count = len(actions)
        if vocabulary == "compact":
            self.keys = Keys(prog, players)
            extra = {(p, x) for x in extra_actions for p in range(players)}
            by_player = [seen.by_player.get(p, set()) | {x for q, x in extra if q == p} for p in range(players)]
            actions = compact(actions, self.keys, by_player, players)
        if base:
            have = set(base)
            actions = list(base) + [a for a in actions if a not in have]
        self.actions = actions
        self.index = {a: i for i, a in enumerate(actions)}
        self._numbers: dict = {}            # (option id, player) -> action number, as they come
        self.encoder = Encoder(prog, players, self.names)

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def key(self, option_id: str, player: int) -> str:
        """The action name of an option id offered to ``player``: the id itself, or its compact key."""
        return option_id if self.keys is None else self.keys.key(option_id, player)

    def option_id(self, decision, action: int) -> str:
        """The option id of ``decision`` that action number ``action`` stands for (the first option
        with that key, in the compact vocabulary)."""
        name = self.actions[action]
        if self.keys is None:
            return name
        key = self.keys.key
        for o in decision.options:
            if key(o.id, decision.player) == name:
                return o.id
        return name

    def action(self, decision, option_id: str) -> int:
        """The action number of one option of ``decision``; :class:`UnknownOption` if it has none."""
        i = self._numbers.get((option_id, decision.player))
        if i is None:
            i = self.index.get(option_id if self.keys is None else self.keys.key(option_id, decision.player))
            if i is not None:
                self._numbers[(option_id, decision.player)] = i
        if i is None:
            raise UnknownOption(
                f"{self.game.title}: option {option_id!r} (player {decision.player + 1}) is not in the action "
                f"vocabulary of this environment ({len(self.actions)} actions, from the game file and "
                f"{self.explore_games} random games); make the environment with a larger explore= or with "
                f"extra_actions=[{option_id!r}]")
        return i

    def legal(self, decision) -> list:
        """The sorted action numbers of ``decision``'s options (each once)."""
        if self.keys is None:
            return sorted(self.action(decision, o.id) for o in decision.options)
        return sorted({self.action(decision, o.id) for o in decision.options})

    def actions_of(self, decision) -> tuple:
        """``(legal, options)``: :meth:`legal` of ``decision``, and each legal action's option id
        (what :meth:`option_id` gives), worked out together."""
        options = {}
        for o in decision.options:
            options.setdefault(self.action(decision, o.id), o.id)
        return sorted(options), options

    def mask(self, decision=None) -> np.ndarray:
        """1 for each legal action of ``decision`` (all 0 for None), as int8."""
        m = np.zeros(len(self.actions), np.int8)
        if decision is not None:
            m[self.legal(decision)] = 1
        return m


_SPECS: dict = {}


def spec(game, players: int, options=(), explore: int = EXPLORE_GAMES, extra_actions=(), vocabulary: str = "ids",
         base=()) -> Spec:
    """The :class:`Spec` of a game (or game file path), made once per process for the same game
    text, player count, options, ``explore``, ``extra_actions``, ``vocabulary`` and ``base``."""
    g = load(game)
    if not isinstance(players, int) or isinstance(players, bool):
        raise CatrulesError(f"players must be a whole number, not {players!r}")
    if not isinstance(explore, int) or explore < 0:
        raise CatrulesError(f"explore must be a number of games (0 or more), not {explore!r}")
    source = g.source
    key = (str(Path(g.path).resolve()) if g.path else "", hashlib.sha256(source.encode()).hexdigest(),
           players, tuple(sorted(set(options))), explore, tuple(extra_actions), vocabulary, tuple(base))
    sp = _SPECS.get(key)
    if sp is None:
        sp = _SPECS[key] = Spec(g, players, options, explore, extra_actions, vocabulary, base)
    return sp


# ------------------------------------------------------------------ observations

class Encoder:
    """A player's view as a fixed-length float32 vector (``encode``) and as text (``text``).

    The vector is made of named segments (``segments``: name, start, length), in this order:
    ``seat`` (one-hot), ``cards`` (per card, one-hot over the slots of the layout where the
    player sees it, plus a last column "not seen"), ``places`` (per card: its position in its
    slot, 1-based, and its line in a zone of lines, 1-based, both over the number of cards),
    ``counts`` (cards per slot, over the number of cards), one segment per counter
    (``counter NAME``), ``waiting`` (who must answer now), ``decision`` (the player's own pending
    decision: choose, secret, race; and whether they answered a simultaneous one already),
    ``scores`` (each total as shown, and whether it is shown), ``finished``, then the attribute
    planes: ``card attributes`` (per card, one-hot per attribute value:
    :func:`~catrules.envs.attributes.attribute_values`,
    the same in every observation, for models that read a card's row) and ``attributes by slot``
    (per slot, per attribute value, the cards the player sees there that have it, over the
    number of cards).
    """

    def __init__(self, prog, players: int, names: list):
        self.prog, self.n, self.N = prog, players, prog.card_count
        self.slots = len(prog.layout(players).slot_spec)
        self.names = {a: i for i, a in enumerate(names)}
        self.segments, self.offset = [], {}
        n, N, S = players, self.N, self.slots
        self._add("seat", n)
        self._add("cards", N * (S + 1))
        self._add("places", 2 * N)
        self._add("counts", S)
        self.counters = []
        for name, _per, _init in prog.counters:
            decl = prog.checked.counters[name]
            kind = prog.counter_kind.get(name)
            cells = n if decl.per_player else N if decl.per_card else 1
            width = self._width(kind)
            self.counters.append((name, kind, cells, width, "card" if decl.per_card else
                                  "player" if decl.per_player else None))
            self._add(f"counter {name}", cells * width)
        self._add("waiting", n)
        self._add("decision", 4)
        self._add("scores", n + 1)
        self._add("finished", 1)
        self.features = attribute_values(prog)
        self.attrs = attribute_matrix(prog, self.features)
        F = len(self.features)
        self._add("card attributes", N * F)
        self._add("attributes by slot", S * F)
        self.size = sum(length for _name, _start, length in self.segments)

    def _add(self, name: str, length: int) -> None:
        start = sum(x[2] for x in self.segments)
        self.segments.append((name, start, length))
        self.offset[name] = start

    def _width(self, kind) -> int:
        if kind in ("number", "bool"):
            return 2                                    # value, is none
        if kind == "player":
            return self.n + 1                           # one-hot seat, none
        if kind == "card":
            return self.N + 2                           # one-hot card, not seen, none
        return 2 + len(self.names) + 1                  # value, none, one-hot name, other

    def encode(self, view: dict) -> np.ndarray:
        """The vector of ``view`` (a :meth:`State.view`): nothing else is read."""
        x = np.zeros(self.size, np.float32)
        o, n, N, S = self.offset, self.n, self.N, self.slots
        if view.get("you") is not None:
            x[o["seat"] + view["you"]] = 1
        S1 = S + 1
        cards, places, counts = o["cards"], o["places"], o["counts"]
        x[cards + S:cards + N * S1:S1] = 1              # not seen, until seen
        F = len(self.features)
        by_slot = x[o["attributes by slot"]:o["attributes by slot"] + S * F].reshape(S, F) if F else None
        for slot, z in enumerate(view["zones"]):
            # how many (-1: another player's secret zone, not even that)
            x[counts + slot] = z["count"] / max(N, 1) if z["count"] is not None else -1.0
            ids = []
            for cid, pos, line in _placed(z):
                row = cards + cid * S1
                x[row + S] = 0
                x[row + slot] = 1
                x[places + 2 * cid] = pos / N
                x[places + 2 * cid + 1] = line / N
                ids.append(cid)
            if ids and F:
                by_slot[slot] = self.attrs[ids].sum(0) / N
        if F:
            x[o["card attributes"]:o["card attributes"] + N * F] = self.attrs.ravel()
        shown = view.get("counters", {})
        for name, kind, cells, width, per in self.counters:
            at = o[f"counter {name}"]
            v = shown.get(name)
            if per == "card":
                for key, cv in (v or {}).items():
                    self._cell(x, at + int(key) * width, kind, cv)
            elif per == "player":
                for p, cv in enumerate((v or [])[:cells]):
                    self._cell(x, at + p * width, kind, cv)
            else:
                self._cell(x, at, kind, v)
        for p in view.get("waiting_for", ()):
            x[o["waiting"] + p] = 1
        for d in view.get("decisions", ()):
            x[o["decision"] + _DECISION_KINDS.get(d["kind"], 0)] = 1
        if "my_choice" in view:
            x[o["decision"] + 3] = 1
        rows = view.get("scores") or view.get("running")
        if rows:
            for p, r in enumerate(rows[:n]):
                x[o["scores"] + p] = _number(r.get("total", 0))
            x[o["scores"] + n] = 1
        x[o["finished"]] = 1 if view.get("finished") else 0
        return x

    def _cell(self, x, at: int, kind, v) -> None:
        if kind in ("number", "bool"):
            if v is None:
                x[at + 1] = 1
            elif isinstance(v, (int, float)):
                x[at] = _number(v)
        elif kind == "player":
            if isinstance(v, dict) and isinstance(v.get("player"), int) and 0 <= v["player"] < self.n:
                x[at + v["player"]] = 1
            elif v is None:
                x[at + self.n] = 1
        elif kind == "card":
            if isinstance(v, dict) and isinstance(v.get("id"), int):
                x[at + v["id"]] = 1
            elif isinstance(v, dict) and v.get("hidden"):
                x[at + self.N] = 1
            elif v is None:
                x[at + self.N + 1] = 1
        else:
            if v is None:
                x[at + 1] = 1
                return
            if isinstance(v, (int, float)):
                x[at] = _number(v)
                return
            name = v.get("ref") if isinstance(v, dict) else v if isinstance(v, str) else None
            i = self.names.get(name) if name is not None else None
            x[at + 2 + (i if i is not None else len(self.names))] = 1

    def text(self, view: dict) -> str:
        """``view`` as lines of text (zones, counters, decisions, scores), for people."""
        you = view.get("you")
        out = [f"{view.get('game')}: " + (f"what player {you + 1} sees" if you is not None else "what everyone sees")]
        for z in view["zones"]:
            name = ZoneName(z["zone"], z.get("owner")).text
            seen = list(_placed(z))
            visible = z.get("cards", z.get("cells", z.get("lines"))) is not None
            if not visible:
                out.append(f"{name}: {z['count']} card(s), not seen")
                continue
            labels = {cid: _label(c) for cid, c in _cards_of(z)}
            if z["shape"] == "lines":
                body = " | ".join(" ".join(f"{card_id(c['id'])} {_label(c)}" for c in line) for line in z["lines"])
            else:
                body = ", ".join(f"{card_id(cid)} {labels[cid]}" for cid, _p, _l in seen)
            out.append(f"{name}: {body or 'empty'}")
        for name, v in view.get("counters", {}).items():
            out.append(f"counter {name}: {_value_text(v)}")
        waiting = view.get("waiting_for") or []
        if waiting:
            out.append("waiting for: " + ", ".join(f"player {p + 1}" for p in waiting))
        for d in view.get("decisions", ()):
            out.append(f"to decide ({d['kind']}): {d['prompt']}")
            out.append("  options: " + ", ".join(o["id"] if o["label"] == o["id"] else f"{o['id']} ({o['label']})"
                                                  for o in d["options"]))
        if "my_choice" in view:
            out.append(f"your answer so far: {view['my_choice']}")
        rows = view.get("scores") or view.get("running")
        if rows:
            what = "final scores" if view.get("scores") else "scores now"
            out.append(f"{what}: " + ", ".join(f"player {p + 1} {r.get('total')}" for p, r in enumerate(rows)))
        if view.get("winners") is not None:
            out.append("winners: " + ", ".join(f"player {p + 1}" for p in view["winners"]))
        return "\n".join(out)


def _number(v) -> float:
    return float(max(-OBS_LIMIT, min(OBS_LIMIT, v)))


def _cards_of(z: dict):
    if z.get("cards") is not None:
        yield from ((c["id"], c) for c in z["cards"])
    elif z.get("cells") is not None:
        yield from ((c["id"], c) for c in z["cells"] if c is not None)
    elif z.get("lines") is not None:
        yield from ((c["id"], c) for line in z["lines"] for c in line)
    elif z.get("top") is not None:                  # a `public top` pile: its top card alone
        yield z["top"]["id"], z["top"]


def _placed(z: dict):
    """``(card id, position from 1, line from 1 or 0)`` of each card a zone of a view shows."""
    if z.get("cards") is not None:
        for i, c in enumerate(z["cards"]):
            yield c["id"], i + 1, 0
    elif z.get("cells") is not None:
        for i, c in enumerate(z["cells"]):
            if c is not None:
                yield c["id"], i + 1, 0
    elif z.get("lines") is not None:
        for li, line in enumerate(z["lines"]):
            for i, c in enumerate(line):
                yield c["id"], i + 1, li + 1
    elif z.get("top") is not None:                  # a `public top` pile: its top card alone
        yield z["top"]["id"], z["count"], 0


def _label(c: dict) -> str:
    return str(c.get("face") or c.get("label"))


def _value_text(v) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_value_text(x) for x in v) + "]"
    if isinstance(v, dict):
        if "id" in v:
            return f"{card_id(v['id'])} {_label(v)}"
        if v.get("hidden"):
            return "a card not seen"
        if "player" in v and len(v) == 1:
            return f"player {v['player'] + 1}"
        if "ref" in v:
            return f"{v['ref']} ({v.get('label')})"
        return "{" + ", ".join(f"{k}: {_value_text(x)}" for k, x in v.items()) + "}"
    return "none" if v is None else str(v)
