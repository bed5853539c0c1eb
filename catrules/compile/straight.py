"""The lean compilation's straight units: a whole unit written as one run of Python.

Under the bot fast path where nobody looks between decisions (:attr:`Autoplay.plain
<catrules.play.autoplay.Autoplay>`), a choice of one value never pauses: the bot answers where it
arises.  A unit whose only pauses are such choices (a trick game's turn, say) then needs none of its
blocks: the lean compilation writes it a second time as one block, its loops as Python loops and
its choices answered in place, and puts that run at the top of the unit's first block, taken
when the run is plain.  A ``play`` of a unit written so runs it where it stands, with no frame on
the state's stack.  The unit's blocks stay as they were (a frame's ``pc`` means the same in both
compilations), for a game that resumes inside the unit and for runs where something looks.

Nothing the straight run leaves half done is read: an error is replayed on the instrumented
blocks (:mod:`catrules.runtime.lean_replay`); a check that stops the game between decisions
(a decision budget, a playout's horizon) reads counts, not frames.
"""

from __future__ import annotations

import ast as pyast
import re

from ..lang import ast
from . import graph as graphmod
from ..runtime.frames import Frame
from .choices import _is_zone
from .codegen import Env
from .units import Suite, UnitWriter


#: what a straight run reads through a local (see :meth:`StraightUnits.splice_straight`)
_LOCAL_OF = {"st.z[": "_S_z[", "st.c[": "_S_c[", "st.layout.base[": "_S_base[", "st.loc[": "_S_loc[",
             "st.saw[": "_S_saw[", "st.layout.watchers[": "_S_w[", "st.known is None": "_S_blind"}
_LOCALS = re.compile(r"(?<![\w.])(?:st\.z\[|st\.c\[|st\.layout\.base\[|st\.loc\[|st\.saw\[|"
                     r"st\.layout\.watchers\[|st\.known is None)")
#: the head that binds those locals
_LOCALS_HEAD = ("_S_z, _S_c, _S_base, _S_loc, _S_saw, _S_w = st.z, st.c, st.layout.base, st.loc, st.saw, "
                "st.layout.watchers; _S_blind = st.known is None")


#: everyone's pile or row (what ``X of everyone`` is written as, see CodeGen)
_EVERYONE = re.compile(r"_everyone\(st, (\d+), '(?:pile|row)'\)")
#: a frame variable read or set in a straight run, a use of the frame's dictionary, of the frame
_VAR = re.compile(r"V\[('[A-Za-z_][A-Za-z_0-9]*'|'#[0-9]+')\]")
_V_USE = re.compile(r"(?<![\w.'])V(?!\w)")
_FR_USE = re.compile(r"(?<![\w.'])fr(?!\w)")
#: a unit played in a straight run and its frame's local (see :meth:`StraightUnits.play_straight`)
_PLAYED = re.compile(r"\[('[^'\\]*'|\"[^\"\\]*\")\]\[0\]\(st, (_S_p\d+)\)")
_PLAY_FRAME = re.compile(r"_S_p\d+")
#: a choice's dictionary for what its answer tells (read only while players' knowledge is kept)
_CHOICE_V = ", V, "


def _vars_in_locals(body: list) -> list:
    """``body`` with its frame variables in Python locals, when nothing else reads the frame: the
    run's own phase starts with no variables and drops its frame at the end, so nobody reads them
    after; a choice that may note what its answer tells gets them as a dictionary then.  The
    frame goes only to a move (for triggers, which a straight run has none of) and to what runs
    only with a log (never on the fast path).  Else ``body`` as it is."""
    out = []
    for i, t, ln in body:
        logged = t.startswith("if st.log is not None:")
        if not logged:
            t = t.replace(_CHOICE_V, ", (None if _S_blind else _frame_vars(_locals())), ")
        t = _VAR.sub(lambda m: "_S_v_" + m.group(1)[1:-1] if m.group(1)[1] != "#"
                     else "_S_h_" + m.group(1)[2:-1], t)
        rest = t.replace("_move(st, fr, ", "").replace("fr.depth", "")
        if not logged and (_V_USE.search(rest) or _FR_USE.search(rest)):
            return body
        out.append((i, t, ln))
    return out


class StraightUnits:
    """The compiler's straight pass (a mixin of :class:`catrules.compile.compiler._Compiler`)."""

    #: while a straight pass writes: a choice of one value does not pause (see :meth:`pauses`)
    straight = False

    def straight_ok(self, key: str) -> bool:
        """Whether unit ``key`` can be written straight (worked out once)."""
        oks = self.__dict__.setdefault("_straight", {})
        if not self.lean or not key.startswith("phase:"):
            return False
        if key not in oks:
            oks[key] = False                    # while writing it: a unit that plays itself is not straight
            oks[key] = self._write_straight(key) is not None
        return oks[key]

    def straight_body(self, key: str):
        """The lines of unit ``key`` written as one block (``[(indent, text, line)]``), or None:
        not the lean compilation, or the unit may pause for more than a choice of one value.
        Written where the unit's own pass starts, so that what it notes in the program (the
        index of a ``preferring``) is what that pass notes."""
        return self._write_straight(key) if self.straight_ok(key) else None

    def _write_straight(self, key: str):
        p = self.p
        saved = {k: v for k, v in vars(self).items() if k not in ("_straight", "gen", "p")}
        kept = {k: (list(v) if isinstance(v, list) else dict(v)) for k, v in vars(p).items()
                if isinstance(v, (list, dict))}
        self.straight = True
        self._pauses, self._action_pauses = {}, dict(self._action_pauses)
        self.serial += 1
        self.w = UnitWriter(key, self.gen.ns, f"{self.serial}s", True)
        self.loops, self.old, self.at, self.old_pcs = [], 0, 0, {}
        try:
            self.block(graphmod.steps(self.G, key))
            blocks = self.w.blocks
            body = blocks[0][1] if len(blocks) == 1 and blocks[0][0] == "src" else None
        except Exception:               # noqa: BLE001  (what it cannot write runs as the blocks do)
            body = None
        finally:
            serial = self.serial
            for k in [k for k in vars(self) if k not in saved and k not in ("_straight", "gen", "p")]:
                delattr(self, k)
            vars(self).update(saved)
            self.serial = serial                # the names bound meanwhile stay taken
            for k, v in kept.items():           # what the pass noted in the program, undone
                cur = getattr(p, k)
                if isinstance(cur, list):
                    cur[:] = v
                else:
                    cur.clear()
                    cur.update(v)
        if body is None or any(t.startswith(("return", "fr.pc")) for _i, t, _l in body):
            return None
        played = {n for _i, t, _l in body for _u, n in _PLAYED.findall(t)}
        if {n for _i, t, _l in body for n in _PLAY_FRAME.findall(t)} != played:
            return None                         # a guard: every frame it plays on is made as it starts
        return body

    def straight_pauses(self, s):
        """:meth:`pauses` in a straight pass: a choice of one value and a ``play`` of a unit
        written straight do not pause; an action is as in the other passes; None: as they say."""
        if isinstance(s, ast.Choose):
            return False if s.count is None and s.up_to is None else None
        if isinstance(s, ast.Play):
            return not self.straight_ok(graphmod.unit_key("phase", s.phase))
        if isinstance(s, ast.Do):
            self.straight = False
            try:
                return self.action_pauses(s.action)
            finally:
                self.straight = True
        return None

    def play_straight(self, s) -> bool:
        """In a straight pass, ``play`` of a unit written straight: its first block called here
        on a frame of its own that the state's stack never holds.  False: not written so."""
        key = graphmod.unit_key("phase", s.phase)
        if not self.straight or not self.straight_ok(key):
            return False
        w = self.w
        codes, name = w.bind(self.p.codes, "codes"), self.tmp("S_p")
        # the frame is made once per run of this unit (see splice_straight), emptied for each play
        w.put(f"if {name}.vars: {name}.vars.clear()", s.line)
        w.put(f"{codes}[{key!r}][0](st, {name})", s.line)
        return True

    def move_one_straight(self, card: str, slot: str, line: int) -> bool:
        """In a straight pass, a card moved alone: :func:`~catrules.runtime.moves.move_one_blind`
        written out (between piles and rows while nobody keeps track of what each player knows;
        else the call).  False: not a straight pass."""
        if not self.straight:
            return False
        t = self.tmp("m")
        c, to, at, z = f"{t}c", f"{t}s", f"{t}o", f"{t}z"
        w = self.w
        w.put(f"{c}, {to} = {card}, {slot}", line)
        # every zone a pile or row: no slot to test (a slot's shape is its zone's)
        test = ("" if self.all_simple() else
                f" and st.layout.slot_simple[{to}] and st.layout.slot_simple[st.loc[{c}]]")
        with Suite(w, f"if {c} is not None and st.known is None{test}:", line):
            for text in (f"{at} = st.loc[{c}]", f"{z} = st.z[{at}]",
                         f"{z}.pop() if {z}[-1] == {c} else {z}.remove({c})",
                         f"st.z[{to}].append({c})", f"st.loc[{c}] = {to}",
                         f"st.saw[{c}] = st.layout.watchers[{at}] | st.layout.watchers[{to}]"):
                w.put(text, line)
        with Suite(w, "else:", line):
            w.put(f"_move1b(st, {c}, {to})", line)
        return True

    def all_simple(self) -> bool:
        """Whether every zone of the game is a pile or a row (then every slot of every layout is
        simple: :attr:`~catrules.compile.program.Layout.slot_simple`)."""
        return all(z.shape in ("pile", "row") for z in self.p.zones)

    def move_all_straight(self, cards: str, slot: str, line: int) -> bool:
        """In a straight pass, a move of everyone's pile or row (``X of everyone``) to ``slot``:
        :func:`~catrules.runtime.moves.move_cards` written out pile by pile (while nobody keeps
        track of what each player knows and nothing is logged, to a pile or row not among them;
        else the call); a move of one pile or row whole, likewise.  False: not a straight pass,
        or other cards."""
        m = _EVERYONE.fullmatch(cards)
        if self.straight and m is None and _is_zone(cards):
            return self._move_zone_straight(cards, slot, line)
        if not self.straight or m is None:
            return False
        t = self.tmp("m")
        to, lo, d, into, s, zs, w, c = (f"{t}{x}" for x in ("s", "b", "d", "i", "o", "z", "w", "c"))
        out = self.w
        out.put(f"{to}, {lo} = {slot}, st.layout.base[{m.group(1)}]", line)
        with Suite(out, f"if st.known is None and st.log is None and (_lay := st.layout).slot_simple[{to}] "
                        f"and not {lo} <= {to} < {lo} + st.n:", line):
            out.put(f"{d}, {into} = st.z[{to}], _lay.watchers[{to}]", line)
            with Suite(out, f"for {s} in range({lo}, {lo} + st.n):", line):
                out.put(f"{zs} = st.z[{s}]", line)
                with Suite(out, f"if {zs}:", line):
                    out.put(f"{w} = _lay.watchers[{s}] | {into}", line)
                    self._take_all(zs, d, to, w, c, line)
        with Suite(out, "else:", line):
            out.put(f"_move(st, fr, _cardlist(st, {cards}), {to}, None)", line)
        return True

    def _move_zone_straight(self, zone: str, slot: str, line: int) -> bool:
        """A pile's or row's cards, all of them, moved to ``slot``: as :func:`~catrules.runtime.moves.move_cards`
        moves them (the whole list at once, bottom first), written out while nobody keeps track
        or logs, between two piles or rows; else the call."""
        t = self.tmp("m")
        z, to, at, w, c = (f"{t}{x}" for x in ("z", "s", "o", "w", "c"))
        out = self.w
        out.put(f"{z}, {to} = {zone}, {slot}", line)
        with Suite(out, f"if st.known is None and st.log is None and {z} "
                        f"and (_lay := st.layout).slot_simple[{to}] and _lay.slot_simple[({at} := st.loc[{z}[0]])] "
                        f"and {at} != {to} and {z} is st.z[{at}]:", line):
            out.put(f"{w} = _lay.watchers[{at}] | _lay.watchers[{to}]", line)
            self._take_all(z, f"st.z[{to}]", to, w, c, line)
        with Suite(out, "else:", line):
            out.put(f"_move(st, fr, _cardlist(st, {z}), {to}, None)", line)
        return True

    def _take_all(self, cards: str, into: str, to: str, w: str, c: str, line: int) -> None:
        """The lines that move every card of the list ``cards`` onto the list ``into`` (slot
        ``to``, watchers ``w``; ``c`` the loop's name), bottom first, leaving ``cards`` empty."""
        out = self.w
        with Suite(out, f"for {c} in {cards}:", line):
            out.put(f"st.loc[{c}] = {to}", line)
            out.put(f"st.saw[{c}] = {w}", line)
        out.put(f"{into} += {cards}", line)
        out.put(f"{cards}.clear()", line)

    def move_top_straight(self, cards: str, slot: str, line: int) -> bool:
        """In a straight pass, a move of ``top(Z, N)`` (a deal) to ``slot``: the top ``N`` cards of
        the pile or row taken off as one slice, top first, as :func:`~catrules.runtime.moves.move_cards`
        takes them one by one (while nobody keeps track or logs, between two piles or rows, with
        cards enough; else the call).  False: not a straight pass, or other cards."""
        try:
            call = pyast.parse(cards, mode="eval").body
        except SyntaxError:
            return False
        if not (self.straight and isinstance(call, pyast.Call) and isinstance(call.func, pyast.Name)
                and call.func.id == "_top" and len(call.args) == 4 and not call.keywords
                and isinstance(call.args[2], pyast.Name) and call.args[2].id == "st"):
            return False
        t = self.tmp("m")
        z, n, to, at, cs, w, c = (f"{t}{x}" for x in ("z", "n", "s", "o", "l", "w", "c"))
        zone, count = pyast.unparse(call.args[0]), pyast.unparse(call.args[1])
        out = self.w
        out.put(f"{z}, {n}, {to} = {zone}, {count}, {slot}", line)
        with Suite(out, f"if st.known is None and st.log is None and 0 < {n} <= len({z}) "
                        f"and (_lay := st.layout).slot_simple[{to}] and _lay.slot_simple[({at} := st.loc[{z}[-1]])] "
                        f"and {at} != {to} and {z} is st.z[{at}]:", line):
            for text in (f"{cs} = {z}[-{n}:]", f"del {z}[-{n}:]", f"{cs}.reverse()", f"st.z[{to}] += {cs}",
                         f"{w} = _lay.watchers[{at}] | _lay.watchers[{to}]"):
                out.put(text, line)
            with Suite(out, f"for {c} in {cs}:", line):
                out.put(f"st.loc[{c}] = {to}", line)
                out.put(f"st.saw[{c}] = {w}", line)
        with Suite(out, "else:", line):
            rest = ", ".join(pyast.unparse(a) for a in call.args[2:])
            out.put(f"_move(st, fr, _cardlist(st, _top({z}, {n}, {rest})), {to}, None)", line)
        return True

    def best_straight(self, e, into: str, line: int) -> bool:
        """In a straight pass, ``best(L, key)`` or ``worst`` whose value is stored in ``into``: the
        loop of :func:`~catrules.runtime.values._best_rt` written out (no function per item).
        False: not a straight pass, or another expression."""
        if not (self.straight and isinstance(e, ast.Call) and e.name in ("best", "worst") and len(e.args) == 2
                and self.names.get(id(e), (None,))[0] != "define"):
            return False
        try:
            src, it, key = self.gen._per(e, Env())
        except (AttributeError, KeyError, TypeError, IndexError, ValueError, RecursionError):
            return False                        # the expression's own pass says what is wrong
        k, top = self.tmp("k"), self.tmp("b")
        w = self.w
        w.put(f"{into} = {top} = None", line)
        every = _EVERYONE.fullmatch(src)
        if every is not None:           # everyone's piles gone over where they lie, not joined first
            pile, b = self.tmp("z"), f"st.layout.base[{every.group(1)}]"
            outer = Suite(w, f"for {pile} in st.z[{b}:{b} + st.n]:", line)
            outer.__enter__()
            src = pile
        with Suite(w, f"for {it} in {src}:", line):
            w.put(f"{k} = {key}", line)
            with Suite(w, f"if {into} is None or {k} {'>' if e.name == 'best' else '<'} {top}:", line):
                w.put(f"{into}, {top} = {it}, {k}", line)
        if every is not None:
            outer.__exit__(None, None, None)
        return True

    def splice_straight(self, key: str, body) -> None:
        """Put ``body``, the straight run of unit ``key`` (if any), at the top of its first block."""
        w = self.w
        if body is None or 0 in w.heads or w.blocks[0][0] != "src":
            return
        played = dict.fromkeys(m for _i, t, _l in body for m in _PLAYED.findall(t))
        line = w.block_lines[0]
        head = [(1, "if st.auto.plain:", line)]
        if not any('"' in t for _i, t, _l in body):     # no text that could hold what is replaced
            # the state's lists of cards, its counters and its layout, read through locals: a
            # run never puts other objects in those fields (it changes what they hold)
            body = [(i, _LOCALS.sub(lambda m: _LOCAL_OF[m.group(0)], t), ln) for i, t, ln in body]
            head.append((2, _LOCALS_HEAD, line))
            body = _vars_in_locals(body)
        # a loop over the players clockwise only goes through them: a list made once per first player
        body = [(i, t.replace(" in _clockwise(st, ", " in _clockwise_seq(st, ") if t.startswith("for ") else t, ln)
                for i, t, ln in body]
        # the frames of the units it plays, one each, made as it starts (a trick game plays a turn
        # nine times a round): a frame and its dictionary cost more than emptying them
        frame = w.bind(Frame, "Frame")
        for unit, name in played:
            head.append((2, f"{name} = {frame}({unit}, 0, {{}}, fr.depth)", line))
        head += [(i + 1, t, ln) for i, t, ln in body]
        head += [(2, "fr.pc = __END__", line), (2, "return False", line)]
        w.blocks[0][1][:0] = head
