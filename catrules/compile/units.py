"""Writing one unit (a phase, action, trigger, setup or flow) as Python source.

A unit becomes a handful of generated functions, its *blocks*, written as
Python source and compiled once per game file, as Jinja compiles a template.
The engine's step loop (:meth:`catrules.runtime.state.State.run`) calls the block a
frame's ``pc`` names, having set ``pc`` to the next block; a block runs plain
Python (loops, branches, moves, counters) and ends by naming the block to go
to, or by returning True when the game must look again: a decision is
pending, or a frame was pushed (``play``, ``do``, triggers).

So blocks split only where the game may pause: at choices, at the blocks a
unit starts and at moves that can set off triggers.  A loop or a branch with
no pause inside is written as a Python loop or ``if``; one with a pause
inside becomes several blocks that jump to each other through ``pc``.  The
frame keeps only what must survive a pause (``fr.vars`` and ``fr.pc``), so a
state stays plain data: cloned, saved and resumed as before.

Generated code holds no text of the game file: names and texts become
dictionary keys written with :func:`repr`, or objects bound in the
namespace under names made here.  Each source line remembers the game-file
line it comes from (:attr:`UnitWriter.lines`), so a runtime error names its
line as the game file has it (:func:`catrules.runtime.errors.error_line`).
"""

from __future__ import annotations

#: Stands for "past the unit's last block" until the number of blocks is known.
_END = "__END__"
#: How many blocks may call the next one in a row (see :meth:`UnitWriter.chain`), far below
#: Python's own limit on nested calls.
CHAIN_DEPTH = 16


class _Again:
    """What a block returns when it goes back to the head of its loop (:meth:`UnitWriter.back`):
    false, so the engine's loop goes on at the frame's ``pc`` as after any block."""
    __slots__ = ()

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "AGAIN"


AGAIN = _Again()


class UnitWriter:
    """The blocks of one unit as they are written: source lines, each with its game-file line."""

    def __init__(self, key: str, ns: dict, serial: int, lean: bool = False):
        self.key = key
        self.lean = lean                # the lean compilation (see _pasted)
        self.ns = ns                    # the namespace the blocks are compiled in (shared per game)
        self.serial = serial            # makes the names of this unit's functions unique
        self.blocks: list = []          # per block: ("src", [(indent, text, line)]) or ("fn", callable)
        self.block_lines: list = []     # per block: the game-file line it starts at
        self.cur = -1
        self.indent = 1
        self.bound = 0
        self.chained: dict = {}         # block -> how many blocks call each other to reach it
        self.heads: set = set()         # the blocks that are the heads of loops
        ns["AGAIN"] = AGAIN
        self.start_block(0)

    # ------------------------------------------------------------- blocks
    def new_block(self, line: int) -> int:
        self.blocks.append(("src", []))
        self.block_lines.append(line)
        return len(self.blocks) - 1

    def start_block(self, line: int, b: int | None = None) -> int:
        """Go on writing in block ``b`` (a new one by default), at its top level."""
        if b is None:
            b = self.new_block(line)
        self.cur, self.indent = b, 1
        return b

    def put(self, text: str, line: int) -> None:
        kind, body = self.blocks[self.cur]
        if kind != "src":
            raise AssertionError("writing into a block that is a function")
        if not body and line:
            self.block_lines[self.cur] = line
        body.append((self.indent, text, line))

    def goto(self, b, line: int) -> None:
        """Leave the current block for block ``b`` (or ``_END``)."""
        self.put(f"fr.pc = {b}", line)
        self.put("return False", line)

    def chain(self, b: int, line: int) -> None:
        """Go on in block ``b`` (the block after a pause, not written yet) by calling it from here:
        one trip through the engine's loop fewer.  A run of such calls stays short (CHAIN_DEPTH);
        past it, the block is reached through the loop as by :meth:`goto`."""
        depth = self.chained.get(self.cur, 0) + 1
        if depth > CHAIN_DEPTH:
            self.goto(b, line)
            return
        self.chained[b] = max(self.chained.get(b, 0), depth)
        self.put(f"fr.pc = {b}", line)
        self.put(f"return _u{self.serial}_b{b}(st, fr)", line)

    def loop_head(self, b: int, line: int) -> None:
        """Go on writing in block ``b``, the head of a loop: the blocks it calls that come back
        to it (:meth:`back`) return :data:`AGAIN`, and it goes round again in a Python loop of
        its own rather than through the engine's."""
        self.heads.add(b)
        self.start_block(line, b)

    def back(self, head: int, line: int) -> None:
        """Go back to the loop's ``head``."""
        self.put(f"fr.pc = {head}", line)
        self.put("return AGAIN", line)

    def bind(self, obj, hint: str = "f") -> str:
        """A name for ``obj`` in the generated code's namespace."""
        self.bound += 1
        name = f"_u{self.serial}_{hint}{self.bound}"
        self.ns[name] = obj
        return name

    def pause(self, fn, line: int) -> None:
        """A statement that may pause (``fn(st, fr)`` returns True then): it becomes a block of its
        own, called with ``pc`` already on the next block; the writing goes on in that next block.
        A move paused by triggers sets ``pc`` back by one to run again for the rest of its cards."""
        k = len(self.blocks)
        # called from here, with pc on the next block: one step of the engine's loop fewer; the
        # block of its own is where a paused move runs again
        self.put(f"fr.pc = {k + 1}", line)
        self.put(f"return {self.bind(fn)}(st, fr)", line)
        self.blocks.append(("fn", fn))
        self.block_lines.append(line)
        self.start_block(line)

    def call(self, fn, line: int, logged: bool = False) -> None:
        """A statement that never pauses, run where it stands (only while a log is kept, if
        ``logged``: it does nothing else)."""
        if logged:
            self.put(f"if st.log is not None: {self.bind(fn)}(st, fr)", line)
        else:
            self.put(f"{self.bind(fn)}(st, fr)", line)

    # ---------------------------------------------------------- finishing
    def finish(self, path: str) -> tuple:
        """Compile the blocks: ``(functions, first line of each, line table, file name)``."""
        end = str(len(self.blocks))
        self.goto(_END, 0)
        src, table = [], [0]            # table[i]: the game-file line of source line i (from 1)
        order = []
        passes = self._passes_on()
        bodies = [self._threaded(body, passes) if kind == "src" else None for kind, body in self.blocks]
        for b, (kind, _body) in enumerate(self.blocks):
            if kind == "fn":
                order.append(None)
                continue
            name = f"_u{self.serial}_b{b}"
            order.append(name)
            src.append(f"def {name}(st, fr):")
            table.append(self.block_lines[b])
            src.append("    V = fr.vars")
            table.append(self.block_lines[b])
            if b in self.heads:
                src.append("    while True:")
                table.append(self.block_lines[b])
            self._write(b, bodies, end, src, table)
        filename = f"<catrules {path} {self.key}>"
        code = compile("\n".join(src) + "\n", filename, "exec")
        exec(code, self.ns)
        fns = [self.ns[name] if name is not None else self.blocks[b][1] for b, name in enumerate(order)]
        self.source = "\n".join(src)
        return fns, list(self.block_lines), table, filename

    def _write(self, b: int, bodies: list, end: str, src: list, table: list) -> None:
        """Write block ``b``'s body (``bodies[b]``) into ``src``, each line's game-file line into ``table``."""
        head = b in self.heads
        call = f"return _u{self.serial}_b"
        for indent, text, line in bodies[b]:
            if text == f"fr.pc = {_END}":   # only there: a text of the game may hold anything
                text = f"fr.pc = {end}"
            if head:
                indent += 1
                if text.startswith(call):
                    inner = self._pasted(b, int(text[len(call):-len("(st, fr)")]), bodies)
                    if inner is not None:
                        # the lean compilation: the block called written here, back at the head's top
                        for i, t, at in inner:
                            src.append("    " * (indent + i - 1) + t)
                            table.append(at)
                        src.append("    " * indent + "continue")
                        table.append(line)
                        continue
                    # a block called from the head: back here if it came back to this head
                    for t in (f"_r = {text[7:]}", f"if _r is not AGAIN or fr.pc != {b}:",
                              "    return _r", "continue"):
                        src.append("    " * indent + t)
                        table.append(line)
                    continue
            src.append("    " * indent + text)
            table.append(line)

    #: the longest block (in lines) the lean compilation writes into the head of its loop
    PASTE_LIMIT = 40

    def _pasted(self, head: int, b: int, bodies: list):
        """The lean compilation only: the lines of block ``b``, called from loop head ``head``, to
        write in the head in place of the call (one call fewer per round): a block of source that
        calls no block and ends by coming back to ``head``; its last line (``return AGAIN``) is
        left out.  None otherwise."""
        body = bodies[b] if self.lean and 0 <= b < len(bodies) else None
        if body is None or b in self.heads or len(body) > self.PASTE_LIMIT or len(body) < 2:
            return None
        if body[-2][:2] != (1, f"fr.pc = {head}") or body[-1][:2] != (1, "return AGAIN"):
            return None
        if any(t.startswith(("return", "continue", "break", "for ", "while ")) or f"= {_END}" in t
               for _i, t, _l in body[:-1]):
            return None
        return body[:-1]

    def _passes_on(self) -> dict:
        """The blocks that only go on to another block (an empty branch's end, say): block ->
        (the block it goes to, how: its last line)."""
        call = f"return _u{self.serial}_b"
        out = {}
        for b, (kind, body) in enumerate(self.blocks):
            if kind != "src" or b in self.heads or len(body) != 2:
                continue
            (i1, t1, _l1), (i2, t2, _l2) = body
            if i1 != 1 or i2 != 1 or not t1.startswith("fr.pc = "):
                continue
            to = t1[len("fr.pc = "):]
            if t2 == f"{call}{to}(st, fr)" or t2 in ("return False", "return AGAIN"):
                out[str(b)] = (to, t2)
        return out

    def _threaded(self, body: list, passes: dict) -> list:
        """``body`` with each call of a block that only goes on replaced by going on at once
        (one call fewer; the block stays, for a game resumed there)."""
        call = f"return _u{self.serial}_b"
        out = []
        k = 0
        while k < len(body):
            indent, text, line = body[k]
            nxt = body[k + 1][1] if k + 1 < len(body) else ""
            to = text[len("fr.pc = "):] if text.startswith("fr.pc = ") else None
            if to in passes and nxt == f"{call}{to}(st, fr)":
                seen = set()
                how = nxt
                while to in passes and to not in seen and how.startswith(call):
                    seen.add(to)
                    to, how = passes[to]
                if how.startswith(call):
                    how = f"{call}{to}(st, fr)"
                out.append((indent, f"fr.pc = {to}", line))
                out.append((indent, how, line))
                k += 2
                continue
            out.append(body[k])
            k += 1
        return out


class Suite:
    """``with Suite(w, "if x:", line):`` writes an indented suite (with ``pass``, never empty); the
    writing goes on after it at the level of its head, in the block the head is in."""

    def __init__(self, w: UnitWriter, head: str, line: int):
        self.w, self.head, self.line = w, head, line

    def __enter__(self):
        w = self.w
        w.put(self.head, self.line)
        self.at = (w.cur, w.indent, len(w.blocks[w.cur][1]))
        w.indent += 1
        return w

    def __exit__(self, *exc):
        w = self.w
        cur, indent, n = self.at
        if w.cur == cur and len(w.blocks[cur][1]) == n:
            w.put("pass", self.line)        # an empty suite
        # back where the suite began, also when a pause inside it moved the writing on to other
        # blocks (the suite then ended by going to the block where the rest goes on)
        w.cur, w.indent = cur, indent
        return False
