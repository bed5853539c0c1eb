"""Screenshots of web tables for the docs ("Play in a browser"): docs/_static/web-*.png.

Starts a server on a free port, makes a table of each shipped game in the lobby (two people
and a bot, a fixed seed), plays a few decisions in two headless Chromium pages (Playwright,
the system's chromium), and photographs player 1's page at desktop width, one at phone width,
and the lobby.  Run: ``python tools/web_screenshots.py`` (needs the web extra and Playwright).
"""

from __future__ import annotations

import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from catrules.web.app import create_app  # noqa: E402

OUT = ROOT / "docs" / "_static"
GAMES = {"meow": ("Meow", 12), "catlady": ("Cat Lady", 9), "flapcat": ("Flap Cat!", 14)}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def until(page, js: str, timeout: float = 15) -> None:
    t0 = time.time()
    while not page.evaluate(js):
        if time.time() - t0 > timeout:
            raise TimeoutError(js)
        time.sleep(0.02)


def step(pages, count: int) -> None:
    """Answer ``count`` decisions in the pages (the default, else the first legal option)."""
    done = 0
    t0 = time.time()
    while done < count and time.time() - t0 < 30:
        for p in pages:
            st = p.evaluate("[document.body.dataset.state, document.body.dataset.ask, document.body.dataset.sent]")
            if st[0] == "deciding" and st[1] != st[2]:
                if p.query_selector("#take-default"):
                    p.keyboard.press("Enter")
                else:
                    p.click("#choices button.choice, #table .card.legal, #players .card.legal, #players .pick")
                done += 1
        time.sleep(0.03)
    time.sleep(0.3)


def main() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with tempfile.TemporaryDirectory() as data:
        app = create_app([ROOT / "games" / f"{g}.cat" for g in GAMES], data)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                               ws="websockets-sansio"))
        th = threading.Thread(target=server.run, daemon=True)
        th.start()
        while not server.started:
            time.sleep(0.01)
        url = f"http://127.0.0.1:{port}"
        with sync_playwright() as pw:
            b = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for key, (title, moves) in GAMES.items():
                lobby = b.new_page(viewport={"width": 900, "height": 700})
                lobby.goto(url + "/")
                lobby.select_option("#game", label=title)
                lobby.fill("#players", "3")
                lobby.dispatch_event("#players", "input")
                lobby.fill("#seed", "7")
                lobby.click("#create")
                lobby.wait_for_selector("#links:not([hidden])")
                if key == "meow":
                    lobby.screenshot(path=str(OUT / "web-lobby.png"), full_page=True)
                links = lobby.eval_on_selector_all(".seat-link a", "a => a.map(x => x.href)")
                lobby.close()
                desk = b.new_page(viewport={"width": 1200, "height": 900})
                other = b.new_page(viewport={"width": 390, "height": 800}, is_mobile=True)
                desk.goto(links[0])
                other.goto(links[1])
                for p in (desk, other):
                    until(p, "document.body.dataset.state")
                step([desk, other], moves)
                for _ in range(20):       # player 1's turn: the picture shows a decision
                    if desk.evaluate("document.body.dataset.state") == "deciding":
                        break
                    step([other], 1)
                desk.screenshot(path=str(OUT / f"web-{key}.png"), full_page=True)
                if key == "flapcat":
                    other.screenshot(path=str(OUT / f"web-{key}-phone.png"), full_page=False)
                desk.close()
                other.close()
            b.close()
        server.should_exit = True
        th.join(10)
    print("written:", ", ".join(sorted(p.name for p in OUT.glob("web-*.png"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
