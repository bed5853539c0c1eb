"""Web tables through Starlette's TestClient (no browser): whole games of every shipped game with
two people's pages, a bot and a spectator, recording every message each connection is sent.

No message names a card its player may not see: each message's view is the view of a game
redealt consistently with what the player sees (:meth:`State.sample_for`, as the
non-interference suite does), and every card a message names is one the player has seen by
then (worked out again by replaying the game from its seed and decisions, with the
non-interference suite's :func:`may_see_cards`).  Messages carry no token.
"""

from __future__ import annotations

import json
import random
import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="httpx (for Starlette's TestClient) is not installed")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import catrules
from catrules.web import tables as web_tables
from catrules.web.app import create_app
from catrules.web.pauses import paused_view
from catrules.web.tables import view_for
from test_noninterference import may_see_cards

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"meow": ROOT / "games" / "meow.cat", "catlady": ROOT / "games" / "catlady.cat",
         "flapcat": ROOT / "games" / "flapcat.cat"}


class Client(TestClient):
    """A TestClient that closes the pages still open when it closes (so a failing test ends), asking
    for 127.0.0.1 (the server refuses names it is not known by)."""

    def __init__(self, app, **kw):
        super().__init__(app, **{"base_url": "http://127.0.0.1", **kw})

    def websocket_connect(self, url, *args, **kw):
        return super().websocket_connect("ws://127.0.0.1" + url if url.startswith("/") else url, *args, **kw)

    def __exit__(self, *exc):
        for page in getattr(self, "pages", []):
            page.close()
        return super().__exit__(*exc)


def make_client(data_dir) -> Client:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Client(create_app(list(GAMES.values()), data_dir))


def new_table(client, game="meow", players=3, seats=("human", "human", "bot"), seed=1, options=()):
    r = client.post("/api/tables", json={"game": game, "players": players, "seats": list(seats), "seed": seed,
                                         "options": list(options)})
    assert r.status_code == 200, r.text
    made = r.json()
    tokens = {l["seat"]: l["link"].split("#", 1)[1] for l in made["links"]}
    tokens[None] = made["spectator"].split("#", 1)[1]
    return made["table"], tokens


class Page:
    """One connection, as a page would hold it: its seat and every message it was sent."""

    def __init__(self, client, token, seat):
        self.cm = client.websocket_connect("/ws")
        self.ws = self.cm.__enter__()
        self.closed = False
        client.pages = [*getattr(client, "pages", []), self]
        self.seat = seat
        self.got: list = []
        self.send({"type": "hello", "token": token})
        self.last = self.receive()
        assert self.last["type"] == "state", self.last
        self.settle()

    def send(self, obj) -> None:
        self.ws.send_text(obj if isinstance(obj, str) else json.dumps(obj))

    def receive(self) -> dict:
        m = self.ws.receive_json()
        self.got.append(m)
        if m["type"] == "state":
            self.last = m
        return m

    def settle(self) -> dict:
        """Receive until the last state waits for no bot (the bots play on the server's pool after
        an answer is shown, and each of their decisions is shown too); the last state."""
        while not settled(self.last):
            m = self.receive()
            assert m["type"] == "state", m
        return self.last

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.cm.__exit__(None, None, None)


def settled(m: dict) -> bool:
    """Whether a state message waits for no bot: the game is over or stopped, or only people are to answer."""
    v = m["view"]
    return bool(v.get("finished") or m.get("broken")) or all(m["kinds"][p] == "human" for p in v.get("waiting_for", []))


def play(pages: list, check=None, limit: int = 5000, stop=None) -> int:
    """Answer with each page's default (or first option) until the game ends (or ``stop()``);
    after every answer each page is sent its state, then one per batch of the bots' decisions
    until people are to answer again; the last (when the server is idle again: the table is as
    it was sent) is checked with ``check(page, message)``."""
    seats = [p for p in pages if p.seat is not None]
    n = 0
    while not pages[0].last["view"]["finished"] and n < limit:
        if stop is not None and stop(n):
            return n
        held = next((p for p in seats if p.seat in p.last.get("pause", {}).get("waiting", ())), None)
        if held is not None:        # a round's end: the table waits until each person continues
            held.send({"type": "continue", "ask": held.last["ask"]})
        else:
            me = next(p for p in seats if p.last["view"]["decisions"])
            d = me.last["view"]["decisions"][0]
            me.send({"type": "choose", "ask": me.last["ask"], "option": d["default"] or d["options"][0]["id"],
                     "time": 0.45})
        n += 1
        for p in pages:
            while True:
                m = p.receive()
                assert m["type"] == "state", m
                if settled(m):
                    if check is not None:
                        check(p, m)
                    break
    return n


# ------------------------------------------------------------------ the leak check

CARD_OPTION = re.compile(r"^c(\d+)$")


def cards_named(obj, out: set, in_event: bool = False) -> set:
    """Every card id a message names: card dicts, card options, and the card ids of events."""
    if isinstance(obj, dict):
        if "id" in obj and "type" in obj and "label" in obj and isinstance(obj["id"], int):
            out.add(obj["id"])
        if obj.get("kind") == "card" and isinstance(obj.get("id"), str):
            out.add(int(CARD_OPTION.match(obj["id"]).group(1)))
        if in_event or "t" in obj:
            ev = obj
            for c in ev.get("cards") or []:
                if isinstance(c, int):
                    out.add(c)
            if ev.get("t") == "counter":
                if isinstance(ev.get("card"), int):
                    out.add(ev["card"])
                if "zones" in ev and ev.get("value") is not None:
                    out.update(v for v in (ev["value"] if isinstance(ev["value"], list) else [ev["value"]])
                               if isinstance(v, int))
            for part in ev.get("parts") or []:
                if isinstance(part, dict) and isinstance(part.get("card"), int):
                    out.add(part["card"])
            for ch in ev.get("choices") or []:
                for o in ch.get("option") if isinstance(ch.get("option"), list) else [ch.get("option")]:
                    m = CARD_OPTION.match(o) if isinstance(o, str) else None
                    if m:
                        out.add(int(m.group(1)))
        for k, v in obj.items():
            if k == "my_choice":
                for o in v if isinstance(v, list) else [v]:
                    m = CARD_OPTION.match(o) if isinstance(o, str) else None
                    if m:
                        out.add(int(m.group(1)))
            cards_named(v, out, in_event)
    elif isinstance(obj, list):
        for x in obj:
            cards_named(x, out, in_event)
    return out


def seen_by_step(game, table) -> dict:
    """Per viewer (a player, or ``None``), the cards seen by each point of the game's history:
    replayed from its seed and decisions, after every answer."""
    st = game.new_state(table.n, seed=table.seed, options=table.options, log=True, ask_forced=True)
    idx = st.prog.slot_index(st.layout)
    viewers = [*range(table.n), None]
    known = {v: set() for v in viewers}
    out = {v: [] for v in viewers}

    def look():
        vis = st.layout.visible
        for v in viewers:
            k = known[v]
            for s, zone in enumerate(st.z):
                if vis(s, v):
                    for c in catrules.runtime.state.cards_in(zone):
                        k.add(c)
            for ev in st.log:
                t = ev["t"]
                if t in ("move", "exchange", "counter") and (v is not None and may_see_cards(st, ev, v)
                                                             or v is None and _public(st, ev, idx)):
                    k.update(ev.get("cards") or [])
                    if t == "counter":
                        if isinstance(ev.get("card"), int):
                            k.add(ev["card"])
                        if "zones" in ev:
                            vals = ev["value"] if isinstance(ev.get("value"), list) else [ev.get("value")]
                            k.update(x for x in vals if isinstance(x, int))
                if t in ("reveal", "race"):
                    for ch in ev["choices"]:
                        srcs = ch.get("from") if isinstance(ch.get("from"), list) else [ch.get("from")]
                        if ch["player"] == v or "from" not in ch or any(
                                s is not None and vis(idx[s], v) for s in srcs):
                            for o in ch["option"] if isinstance(ch["option"], list) else [ch["option"]]:
                                m = CARD_OPTION.match(o) if isinstance(o, str) else None
                                if m:
                                    k.add(int(m.group(1)))
                if t == "announce":
                    for part in ev.get("parts") or []:
                        if isinstance(part, dict) and isinstance(part.get("card"), int) \
                                and vis(st.loc[part["card"]], v):
                            k.add(part["card"])
            for d in st.pending():
                if d.player == v:
                    k.update(o.value for o in d.options if o.kind == "card")
            out[v].append(frozenset(k))
        st.log.clear()

    look()
    for entry in table.state.history:
        st.apply(entry[0], entry[1], entry[2] if len(entry) > 2 else None)
        look()
    return out


def _public(st, ev, idx) -> bool:
    vis = st.layout.visible
    if ev["t"] == "move":
        return vis(idx[ev["from"]], None) or vis(idx[ev["to"]], None)
    if ev["t"] == "exchange":
        return any(vis(idx[z], None) for z in ev["zones"])
    return all(vis(idx[z], None) for z in ev.get("zones", ())) and ("zone" not in ev or vis(idx[ev["zone"]], None))


class LeakCheck:
    """Checks every message as it arrives (the server is idle then: the table is as it was sent)."""

    def __init__(self, client, table_id, tokens):
        self.table = client.app.state.registry.table(table_id)
        self.tokens = tokens
        self.rng = random.Random(5)
        self.log: list = []           # (viewer, history length, cards named)
        self.problems: list = []

    def __call__(self, page, m) -> None:
        t = self.table
        text = json.dumps(m)
        for tok in self.tokens.values():
            if tok in text:
                self.problems.append(f"a token in a message to {page.seat}")
        self.log.append((page.seat, len(t.state.history), cards_named(m, set())))
        # the view is the same in games redealt consistently with what the viewer sees
        redeal_for = [page.seat] if page.seat is not None else list(range(t.n))
        for p in redeal_for:
            other = t.state.sample_for(p, self.rng, keep_future=True)
            expect = view_for(other, page.seat, t.answers)
            if "pause" in m:        # after a round's end: the next round is left out (catrules.web.pauses)
                expect = dict(paused_view(expect), waiting_for=m["pause"]["waiting"])
            if expect != m["view"]:
                diff = [k for k in m["view"] if expect.get(k) != m["view"][k]]
                self.problems.append(f"seat {page.seat}: the view depends on hidden cards ({diff})")
                return

    def finish(self, game) -> list:
        seen = seen_by_step(game, self.table)
        for viewer, h, named in self.log:
            extra = named - seen[viewer][h]
            if extra:
                faces = [game.card(c)["label"] for c in sorted(extra)[:4]]
                self.problems.append(f"seat {viewer} was sent cards it never saw: {faces}")
        return self.problems


def whole_game(tmp_path, game, players=3, seats=("human", "human", "bot"), seed=3, options=()):
    with make_client(tmp_path) as client:
        tid, tokens = new_table(client, game, players, seats, seed, options)
        pages = [Page(client, tokens[s], s) for s in (0, 1, None)]
        check = LeakCheck(client, tid, tokens)
        for p in pages:
            check(p, p.last)
        n = play(pages, check)
        problems = check.finish(catrules.load_game(GAMES[game]))
        for p in pages:
            p.close()
        return pages, n, problems, check


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_sends_each_seat_only_what_it_may_see(tmp_path, game):
    pages, n, problems, check = whole_game(tmp_path, game)
    assert pages[0].last["view"]["finished"] and pages[0].last["view"]["winners"]
    assert n > 20
    assert not problems, problems[:5]
    # the check looked at something: hands, and cards that went from hidden to seen
    assert sum(len(c) for _v, _h, c in check.log) > 100
    # at the start the spectator is sent no more cards than a player (fewer: not their hand)
    spect = next(c for v, _h, c in check.log if v is None)
    mine = next(c for v, _h, c in check.log if v == 0)
    assert spect <= mine
    if game == "meow":               # hands are dealt at once (Cat Lady's are open; Flap Cat's empty)
        assert spect < mine


def test_the_leak_check_finds_unfiltered_events(tmp_path, monkeypatch):
    monkeypatch.setattr("catrules.play.core.visible_event", lambda st, ev, p: ev)
    _pages, _n, problems, _c = whole_game(tmp_path, "meow")
    assert any("never saw" in p for p in problems)


def test_the_leak_check_finds_a_view_of_hidden_cards(tmp_path, monkeypatch):
    real = web_tables.view_for

    def leaky(state, seat, answers):
        view = real(state, seat, answers)
        if seat is not None:     # a page also shown the next player's hand
            view["zones"] = real(state, (seat + 1) % state.n, answers)["zones"]
        return view
    monkeypatch.setattr(web_tables, "view_for", leaky)
    _pages, _n, problems, _c = whole_game(tmp_path, "meow")
    assert any("never saw" in p for p in problems)
