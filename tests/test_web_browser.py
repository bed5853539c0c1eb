"""Web tables in a real browser: headless Chromium (the distribution's package) driven by Playwright.

For each shipped game: a table made in the lobby with two people's seats and a bot, each
person's link opened in a browser of its own (one at phone width), played to the end with
the keyboard (Enter takes the default) and clicks, the server stopped and started again in
the middle (the pages reconnect and go on where they were), one page trying to act for the
other, and at the end the score, the log download and stepping through it.
Skipped, saying why, where Playwright or Chromium is missing.
"""

from __future__ import annotations

import json
import logging
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")

from catrules.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = [ROOT / "games" / f for f in ("meow.cat", "catlady.cat", "flapcat.cat")]
CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), "/usr/bin/chromium")
                 if p and Path(p).exists()), None)
#: Without the background-networking flags a closed network floods Chromium with refused connections.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (Debian: apt-get install chromium)")


class Server:
    """A real uvicorn server in a thread, on a free port; stop and start it again on the same data."""

    def __init__(self, data: Path):
        self.data = data
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.url = f"http://127.0.0.1:{self.port}"
        self.records: list = []
        handler = logging.Handler()
        handler.emit = lambda rec: self.records.append(rec.getMessage())
        for name in ("uvicorn", "uvicorn.access", "uvicorn.error"):
            logging.getLogger(name).addHandler(handler)
            logging.getLogger(name).setLevel(logging.INFO)
        self.start()

    def start(self) -> None:
        app = create_app(GAME_FILES, self.data)
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_config=None,
                                                    access_log=True, ws="websockets-sansio"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path)
    yield s
    s.stop()


def open_table(browser, server, game: str) -> tuple:
    """Make a table in the lobby (3 players: two people and a random bot); the two people's links."""
    lobby = browser.new_page()
    lobby.goto(server.url + "/")
    lobby.select_option("#game", label=game)
    lobby.fill("#players", "3")
    lobby.dispatch_event("#players", "input")
    assert lobby.eval_on_selector_all("#seats select", "s => s.map(x => x.value)") == ["human", "human", "bot"]
    lobby.select_option("#seats select[data-seat='2']", "random")     # a quick bot: short tests
    lobby.fill("#seed", "7")
    lobby.click("#create")
    lobby.wait_for_selector("#links:not([hidden])")
    links = lobby.eval_on_selector_all(".seat-link a", "a => a.map(x => x.href)")
    spectator = lobby.eval_on_selector(".spectator-link a", "a => a.href")
    lobby.close()
    return links, spectator


#: One look at a page: 0 nothing to do; 1 answered (the default button clicked); 2 a default to
#: take with Enter; 3 no default (a legal option must be clicked).  A round's end is answered
#: with Continue (clicked, or Enter).
LOOK = """(keys) => {
  const b = document.body.dataset;
  if (b.state === 'paused') {             // a round's end: Continue (Enter presses it too)
    const c = document.getElementById('continue');
    if (!c || c.disabled) return 0;
    if (keys) return 2;
    c.click();
    return 1;
  }
  if (b.state !== 'deciding' || b.ask === b.sent) return 0;
  const d = document.getElementById('take-default');
  if (!d) return 3;
  if (keys) return 2;
  d.click();
  return 1;
}"""


def act(page, keys: bool) -> bool:
    """If the page has a decision it has not answered, answer it: the default (with Enter on a page
    used with ``keys``, else a click on its button), else a click on the first legal option."""
    look = page.evaluate(LOOK, keys)
    if look == 2:
        page.keyboard.press("Enter")
    elif look == 3:
        page.click("#choices button.choice, #table .card.legal, #table .line-pick, #players .card.legal, #players .pick")
    return look > 0


def play_until(pages, done, timeout=60) -> int:
    """Play until ``done()``; the game must move on (a page answers) every ``timeout`` seconds (a
    whole Flap Cat! game, a count-in before each race, takes longer than that on a busy machine)."""
    n, t0 = 0, time.time()
    while not done():
        acted = False
        for i, p in enumerate(pages):
            acted = act(p, keys=i == 1) or acted
        n += acted
        if acted:
            t0 = time.time()
        else:
            time.sleep(0.005)
        assert time.time() - t0 < timeout, "the game did not move on"
    return n


def wait(page, js: str, timeout: float = 15) -> None:
    """Wait until ``js`` is true on the page (polled: the pages' CSP forbids wait_for_function's eval)."""
    t0 = time.time()
    while not page.evaluate(js):
        assert time.time() - t0 < timeout, f"never true: {js}"
        time.sleep(0.01)


def settled(pages) -> list:
    """The pages' views once no message is on its way (the same over three looks, 0.1 s apart)."""
    looks = []
    while len(looks) < 3 or looks[-1] != looks[-2] or looks[-2] != looks[-3]:
        time.sleep(0.1)
        looks.append([p.evaluate("JSON.stringify([msg.ask, msg.view])") for p in pages])
        assert len(looks) < 100, "the pages never settled"
    return looks[-1]


def state(page) -> str:
    return page.evaluate("document.body.dataset.state || ''")


@pytest.mark.parametrize("game", ["Meow", "Cat Lady", "Flap Cat!"])
def test_a_whole_game_in_two_browsers_with_a_restart(browser, server, game):
    links, spectator = open_table(browser, server, game)
    tokens = [x.split("#")[1] for x in [*links, spectator]]
    desk = browser.new_context(viewport={"width": 1200, "height": 900})
    phone = browser.new_context(viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True)
    errors: list = []
    a, b = desk.new_page(), phone.new_page()
    for p in (a, b):
        p.on("pageerror", lambda e: errors.append(str(e)))
        p.on("requestfailed", lambda r: errors.append("failed: " + r.url) if "/ws" not in r.url else None)
    a.goto(links[0])
    b.goto(links[1])
    for p in (a, b):
        wait(p, "document.body.dataset.state")
    # cards come from the game's own faces, and only legal options can be clicked
    assert a.query_selector_all(".card") and not a.query_selector_all("span.card.legal")
    # a seat trying to act for the other is refused and nothing changes
    ask_b = b.evaluate("document.body.dataset.ask")
    a.evaluate("send({type: 'choose', ask: msg.ask, option: 'c0', player: 1})")
    wait(a, "(document.body.dataset.error || '').includes('cannot act for player 2')")
    assert b.evaluate("document.body.dataset.ask") == ask_b
    # play half the game, stop the server, start it again: the pages reconnect where they were
    moves = play_until([a, b], lambda: int(a.evaluate("document.body.dataset.ask")) >= 40)
    before = settled([a, b])
    server.stop()
    for p in (a, b):
        wait(p, "document.getElementById('status').textContent.startsWith('reconnecting')")
    server.start()
    for p in (a, b):
        wait(p, "document.getElementById('status').textContent === 'connected'")
    assert settled([a, b]) == before
    # a closed tab, opened again, is where it was
    b.close()
    b = phone.new_page()
    b.goto(links[1])
    wait(b, "document.getElementById('status').textContent === 'connected'")
    assert settled([a, b]) == before
    moves += play_until([a, b], lambda: state(a) == "over" and state(b) == "over")
    assert moves > 10
    if game == "Flap Cat!":     # its rounds' ends waited for both: one Continue clicked, one with Enter
        assert a.evaluate("document.body.dataset.continued") and b.evaluate("document.body.dataset.continued")
    # the end: the score by item and the winners; the phone page fits its screen
    assert a.inner_text("#scores").count("total") >= 1 and "Winner" in a.inner_text("#scores")
    assert b.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    # the log: downloaded as JSON Lines, and stepped through forward and back
    with a.expect_download() as dl:
        a.click("#download")
    lines = [json.loads(x) for x in Path(dl.value.path()).read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["viewer"] == 0 and lines[-1]["type"] == "result"
    a.click("#replay-open")
    a.wait_for_selector("#replay:not([hidden])")
    assert a.inner_text("#replay-pos").startswith("1 /")
    a.keyboard.press("ArrowRight")
    a.click("#forward")
    assert a.inner_text("#replay-pos").startswith("3 /")
    a.click("#back")
    assert a.inner_text("#replay-pos").startswith("2 /")
    # a spectator sees the end too, and no page, log line or server log shows another seat's token
    s = browser.new_page()
    s.goto(spectator)
    wait(s, "document.body.dataset.state === 'over'")
    for page, mine in ((a, tokens[0]), (b, tokens[1]), (s, tokens[2])):
        html = page.content() + page.evaluate("JSON.stringify([...events.values()])")
        assert not [t for t in tokens if t != mine and t in html]
    assert server.records and not [r for r in server.records if any(t in r for t in tokens)]
    assert not errors, errors
    s.close()
    desk.close()
    phone.close()
