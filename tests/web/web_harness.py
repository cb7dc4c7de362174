"""The browser tests' harness: the real server on a loopback port, Debian's Chromium.

``LiveServer`` runs ``create_app`` (with the browser table mounted) under uvicorn in a
background thread, on a free 127.0.0.1 port, with a temporary SQLite database, a
``ManualClock`` (the test moves time: no sleeping, no flaky timers) and a
``SeededShuffler`` (known cards). ``Player`` drives one browser page through the UI
the way a person does: clicks, keys, and what is shown on the page.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from uth.cards import SeededShuffler
from uth.server.app import create_app
from uth.server.clock import ManualClock
from uth.server.config import Settings
from uth.server.web import mount_web

CHROMIUM = os.environ.get("UTH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

#: The tables of the browser tests: the packaged ones' rules and timers, with the
#: live table's Trips maximum lowered to 100 so that a test reaches a maximum.
TABLES_TOML = """
starting_balance = 1000

[[tables]]
id = "live-1"
name = "Live Ultimate Texas Hold'em"
names = { ru = "Живой Ультимейт Техас Холдем" }
rules = "live"
betting_seconds = 15
yellow_seconds = 5
decision_seconds = 10
pause_seconds = 4
overrides = { trips = { min = 5, max = 100 } }

[[tables]]
id = "casino-1"
name = "Casino table (7 seats)"
names = { ru = "Стол казино (7 мест)" }
rules = "casino"
betting_seconds = 20
yellow_seconds = 5
decision_seconds = 15
pause_seconds = 5
"""

#: The operator token of the test server (operator routes: balance adjustments).
OPERATOR_TOKEN = "browser-tests-operator-token"

BETTING_SECONDS = {"live-1": 15, "casino-1": 20}
DECISION_SECONDS = {"live-1": 10, "casino-1": 15}
PAUSE_SECONDS = {"live-1": 4, "casino-1": 5}


def browser_unavailable() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """The app under uvicorn in a thread, with a manual clock and seeded decks."""

    def __init__(
        self, tmp: Path, seed: int, port: int | None = None, tables_toml: str = TABLES_TOML
    ) -> None:
        import uvicorn

        self.tmp, self.seed, self.tables_toml = tmp, seed, tables_toml
        tables = tmp / "tables.toml"
        tables.write_text(tables_toml, encoding="utf-8")
        settings = Settings(
            database_url=f"sqlite:///{tmp / 'uth.db'}",
            tables_file=tables,
            operator_token=OPERATOR_TOKEN,
        )
        self.clock = ManualClock()
        self.app = create_app(settings, clock=self.clock, shuffler=SeededShuffler(seed))
        if not any(getattr(r, "path", None) == "/" for r in self.app.routes):
            mount_web(self.app)
        self.port = port or _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="websockets-sansio",
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="uvicorn", daemon=True)

    def start(self) -> None:
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)

    def restarted(self) -> LiveServer:
        """Stop this server and start a new one on the same port and database (a
        server restart: rounds left unfinished are voided at the start)."""
        self.stop()
        again = LiveServer(self.tmp, self.seed, self.port, self.tables_toml)
        again.start()
        return again

    def advance(self, seconds: float) -> None:
        """Move the server's clock (timers fire at once; nothing sleeps)."""
        self.clock.advance(seconds)

    def wait_phase(self, table_id: str, phase: str) -> None:
        """Wait until the table's loop is in ``phase`` (``GET /healthz``)."""
        deadline = time.monotonic() + 8
        while httpx.get(f"{self.url}/healthz").json()["tables"][table_id] != phase:
            assert time.monotonic() < deadline, f"{table_id} never reached {phase}"
            time.sleep(0.05)

    def operator(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST to an operator route (``/api/operator/...``); asserts a 200."""
        r = httpx.post(
            f"{self.url}/api/operator/{path}",
            json=body,
            headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
        )
        assert r.status_code == 200, r.text
        reply: dict[str, Any] = r.json()
        return reply

    def credit(self, player_id: int, amount: int) -> None:
        """Credit a player's balance through the operator route."""
        self.operator(f"players/{player_id}/adjust", {"amount": amount, "reason": "browser test"})


@contextmanager
def running_server(tmp: Path, seed: int, tables_toml: str = TABLES_TOML) -> Iterator[LiveServer]:
    server = LiveServer(tmp, seed, tables_toml=tables_toml)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Player:
    """One person at one browser page."""

    def __init__(self, page: Any, server: LiveServer) -> None:
        from playwright.sync_api import expect

        self.page = page
        self.server = server
        self.expect = expect
        self.console_errors: list[str] = []
        page.on(
            "console",
            lambda m: self.console_errors.append(m.text) if m.type == "error" else None,
        )
        page.on("pageerror", lambda e: self.console_errors.append(str(e)))
        self._cable_up = True
        self._links: list[tuple[Any, Any]] = []

    # -- the network ---------------------------------------------------------
    def install_cable(self) -> None:
        """Route the page's WebSockets through the test (before joining a table), so
        that ``cut_cable`` can drop them as a lost network would."""

        def handler(ws: Any) -> None:
            if not self._cable_up:
                ws.close(code=1011, reason="network down")
                return
            self._links.append((ws, ws.connect_to_server()))

        self.page.route_web_socket(re.compile(r"/ws/"), handler)

    def cut_cable(self) -> None:
        """Drop every WebSocket of the page, and refuse new ones until ``mend_cable``."""
        self._cable_up = False
        for page_side, server_side in self._links:
            page_side.close(code=1011, reason="network down")
            server_side.close()
        self._links.clear()

    def reconnect_now(self) -> None:
        """Press "Reconnect now" (by script: the page may already be back by itself,
        the overlay and its button gone; then it does nothing)."""
        self.page.evaluate("() => document.getElementById('btn-reconnect').click()")

    def push(self, message: dict[str, Any]) -> None:
        """Send ``message`` to the page on its latest WebSocket, as if from the server
        (after ``install_cable``)."""
        page_side, _server_side = self._links[-1]
        page_side.send(json.dumps(message))

    def mend_cable(self) -> None:
        """Let new WebSockets through again (the page reconnects on its own)."""
        self._cable_up = True

    # -- lobby -------------------------------------------------------------
    def open(self) -> None:
        self.page.goto(self.server.url + "/")
        self.expect(self.page.locator("body")).to_have_attribute("data-ready", "true")

    def sign_in(self, name: str) -> None:
        self.open()
        self.page.fill("#signin-name", name)
        self.page.click("#signin-btn")
        self.expect(self.page.locator("#me-name")).to_have_text(name)

    def player_id(self) -> int:
        """The signed-in player's account id (``GET /api/me`` with the page's token)."""
        pid: int = self.page.evaluate(
            """async () => {
            const m = await import('/static/api.js');
            return (await m.me()).id;
        }"""
        )
        return pid

    def join(self, table_id: str) -> None:
        self.page.click(f"[data-join='{table_id}']")
        self.expect(self.page.locator("#view-table")).to_be_visible()
        self.expect(self.page.locator("#view-table")).to_have_attribute("data-connected", "true")

    # -- table -------------------------------------------------------------
    def loc(self, selector: str) -> Any:
        return self.page.locator(selector)

    def expect_phase(self, phase: str) -> None:
        self.expect(self.loc("#view-table")).to_have_attribute("data-phase", phase)

    def wait_betting(self, game_number: str | None = None) -> str:
        """Wait until betting is open (in a round other than ``game_number``)."""
        self.expect_phase("betting")
        if game_number is not None:
            self.expect(self.loc("#t-game")).not_to_have_text(game_number)
        self.expect(self.loc("#chips [data-chip]").first).to_be_visible()
        return str(self.loc("#t-game").inner_text())

    def chip(self, value: int) -> None:
        self.loc(f"#chips [data-chip='{value}']").click()
        self.expect(self.loc(f"#chips [data-chip='{value}']")).to_have_attribute(
            "aria-pressed", "true"
        )

    def bet(self, spot: str, value: int, times: int = 1) -> None:
        self.chip(value)
        for _ in range(times):
            before = self.total()
            self.loc(f"#spot-{spot}").click()
            self.expect(self.loc("#t-total")).not_to_have_text(before)

    def total(self) -> str:
        return str(self.loc("#t-total").inner_text())

    def spot_amount(self, spot: str) -> Any:
        return self.loc(f"#spot-{spot} .chip-face")

    def expect_bets(self, **amounts: str) -> None:
        for spot, text in amounts.items():
            if text == "":
                self.expect(self.spot_amount(spot)).to_have_count(0)
            else:
                self.expect(self.spot_amount(spot)).to_have_text(text)

    def expect_balance(self, text: str) -> None:
        self.expect(self.loc("#t-balance")).to_have_text(text)

    def decide(self, action: str, *, key: str | None = None) -> None:
        button = self.loc(f"#decision-buttons [data-action='{action}']")
        self.expect(button).to_be_visible()
        before = self.decisions()
        if key is not None:
            self.page.keyboard.press(key)
        else:
            button.click()
        self.expect(self.loc("#view-table")).to_have_attribute(
            "data-decisions", " ".join([*before, action])
        )

    def decisions(self) -> list[str]:
        """The player's decisions so far this round (``auto:check`` for the timer's)."""
        text = self.loc("#view-table").get_attribute("data-decisions") or ""
        return text.split()

    def expect_decision(self, *actions: str) -> None:
        self.expect(self.loc("#decision")).to_be_visible()
        self.expect(self.loc("#decision-buttons [data-action]")).to_have_count(len(actions))
        for i, action in enumerate(actions):
            self.expect(self.loc("#decision-buttons [data-action]").nth(i)).to_have_attribute(
                "data-action", action
            )

    def close_betting(self, table_id: str = "live-1") -> None:
        """Let the betting window run out: the server deals."""
        self.server.advance(BETTING_SECONDS[table_id])

    def wait_pause_then_next(self, table_id: str, game_number: str) -> str:
        """After a showdown: wait for the pause, run it out, wait for the next round."""
        self.expect_phase("pause")
        self.server.advance(PAUSE_SECONDS[table_id])
        return self.wait_betting(game_number)


def visible_texts(page: Any) -> list[str]:
    """Every visible text node of the page (SVG text included), outside translate="no"."""
    texts: list[str] = page.evaluate(
        """() => {
        const out = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const text = n.textContent.trim();
          if (!text) continue;
          const el = n.parentElement;
          if (!el || el.closest('[translate="no"], script, style')) continue;
          if (el.closest('[hidden]')) continue;
          const dlg = el.closest('dialog');
          if (dlg && !dlg.open) continue;
          const box = el.getBoundingClientRect();
          const style = getComputedStyle(el);
          if (style.display === 'none' || style.visibility === 'hidden') continue;
          if (box.width === 0 && box.height === 0) continue;
          out.push(text);
        }
        const title = document.title.trim();
        if (title) out.push(title);
        for (const el of document.querySelectorAll('input[placeholder]')) {
          if (el.offsetParent !== null) out.push(el.placeholder);
        }
        return out;
    }"""
    )
    return texts


LATIN = re.compile(r"[A-Za-z]")
