"""The page and the server's messages, seen from the wire: a message type the page does
not know is logged (``console.warn`` with its type), never dropped silently, and the
page plays on; a snapshot that carries the dealer's revealed hand (``dealer``, see
docs/protocol.md) draws it face up after a reload at the showdown.

The page's WebSockets go through the test (Playwright's ``route_web_socket``), which
adds a message or a field on the way, as a newer server would.
"""

from __future__ import annotations

import json
import re
from typing import Any

from web_harness import Player


def test_unknown_message_is_logged(new_player: Any) -> None:
    p: Player = new_player()
    p.install_cable()
    p.sign_in("Gus")
    p.join("live-1")
    p.wait_betting()
    with p.page.expect_console_message(lambda m: m.type == "warning") as logged:
        p.push({"type": "jackpot_won", "amount": 5})
    assert logged.value.text == 'uth: unknown message type "jackpot_won"; ignored'
    # The page plays on: a bet is placed and shown.
    p.bet("ante", 25)
    p.expect_bets(ante="25", blind="25")
    assert p.console_errors == []


def test_reload_at_showdown_draws_the_dealer_from_the_snapshot(new_player: Any) -> None:
    """A reload during the pause after the showdown: with the dealer's hand in the
    snapshot (``dealer``: the ``dealer_revealed`` fields) the dealer's cards are drawn
    face up with the announcement, as before the reload."""
    p: Player = new_player()
    revealed: dict[str, Any] = {}

    def handler(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "dealer_revealed":
                revealed.update({k: v for k, v in msg.items() if k != "type"})
            if msg.get("type") == "snapshot" and msg.get("phase") == "pause" and revealed:
                msg["dealer"] = dict(revealed)
                message = json.dumps(msg)
            ws.send(message)

        server.on_message(from_server)

    p.page.route_web_socket(re.compile(r"/ws/"), handler)
    p.sign_in("Hal")
    p.join("live-1")
    p.wait_betting()
    p.bet("ante", 25)
    p.close_betting()
    p.decide("play_4x")
    p.expect_phase("pause")
    dealer = p.loc("#dealer-cards")
    faces = [dealer.locator(".card").nth(i).get_attribute("data-card") for i in range(2)]
    assert faces == revealed["cards"]
    announced = p.loc("#announcement").inner_text()

    p.page.reload()
    p.expect(p.loc("#view-table")).to_have_attribute("data-connected", "true")
    p.expect_phase("pause")
    p.expect(p.loc("#result .result-head")).to_have_text("You win 125")
    for i, card in enumerate(revealed["cards"]):
        p.expect(dealer.locator(".card").nth(i)).to_have_attribute("data-card", card)
    p.expect(p.loc("#announcement")).to_have_text(announced)
    assert p.console_errors == []
