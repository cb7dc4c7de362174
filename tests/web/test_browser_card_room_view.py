"""The card-room table's view (issue 13) against the protocol's messages, the server
played by the test: the page's WebSocket is answered by the test alone (Playwright's
``route_web_socket`` without a server behind it), so that each message of the card
room (``offer``, ``banker``, ``state`` with ``player_dealer`` and ``turn``, the
settlement's ``coverage``) is drawn and checked on its own, in English and Russian.
The round played against the real server is in ``test_browser_card_room.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_harness import LATIN, TABLES_TOML, LiveServer, Player, running_server, visible_texts

CARD_ROOM_TOML = (
    TABLES_TOML
    + """
[[tables]]
id = "california-1"
name = "California card room (player-dealer)"
names = { ru = "Калифорнийский кард-рум (игрок-дилер)" }
rules = "california"
betting_seconds = 20
yellow_seconds = 5
decision_seconds = 15
pause_seconds = 5
offer_seconds = 15
"""
)

GAME = "20261130-180000-0001"
FAR = "2099-01-01T00:00:00+00:00"
NO_BETS = {"ante": 0, "blind": 0, "trips": 0, "bad_beat": 0, "play": 0}


def own(phase: str, balance: float, **extra: Any) -> dict[str, Any]:
    return {
        "phase": phase,
        "balance": balance,
        "bets": NO_BETS,
        "total_bet": 0,
        "legal_actions": [],
        "can_undo": False,
        "can_double": False,
        "can_repeat": False,
        "decisions": [],
        "hand": None,
        **extra,
    }


@pytest.fixture
def server(tmp_path: Path, seed: int) -> Iterator[LiveServer]:
    """The browser tests' server with a California table (its lobby entry and rules)."""
    with running_server(tmp_path, seed, CARD_ROOM_TOML) as s:
        yield s


class FakeTable:
    """The page's table socket, answered by the test: ``sent`` collects the page's
    commands; ``send`` pushes a message; a ``snapshot`` command is answered with
    ``self.snapshot``."""

    def __init__(self, player: Player, snapshot: dict[str, Any]) -> None:
        self.sent: list[dict[str, Any]] = []
        self.snapshot = snapshot
        self.ws: Any = None
        player.page.route_web_socket(re.compile(r"/ws/"), self._handler)

    def _handler(self, ws: Any) -> None:
        self.ws = ws
        ws.on_message(self._from_page)

    def _from_page(self, message: str | bytes) -> None:
        cmd = json.loads(message)
        if cmd["type"] == "auth":
            self.send(self.snapshot)
            return
        self.sent.append(cmd)
        if cmd["type"] == "snapshot":
            self.send({"type": "accepted", "id": cmd["id"], "snapshot": self.snapshot})

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def command(self, player: Player, kind: str) -> dict[str, Any]:
        """The page's first command of type ``kind`` (waits up to 5 s for it)."""
        for _ in range(100):
            found = [c for c in self.sent if c["type"] == kind]
            if found:
                return found[0]
            player.page.wait_for_timeout(50)
        raise AssertionError(f"the page sent no {kind}: {self.sent}")


def snapshot(phase: str, seat: int | None, balance: float) -> dict[str, Any]:
    return {
        "type": "snapshot",
        "player": {"id": 1, "name": "Ann", "seat": seat},
        "game_number": GAME,
        "phase": phase,
        "light": "red",
        "now": "2026-11-30T18:00:00+00:00",
        "deadline": None,
        "seconds_left": None,
        "hole_cards": [],
        "player_hand": [],
        "board": [],
        "state": own(phase, balance),
        "table_bets": {"players": 0, "total": 0, "listed": []},
        "last_result": None,
        "paused": None,
        "last_bets": None,
        "player_dealer": None,
        "turn": None,
    }


def test_offer_banker_bank_left_and_turn(new_player: Any) -> None:
    p: Player = new_player()
    table = FakeTable(p, snapshot("pause", None, 1000))
    p.sign_in("Ann")
    p.join("california-1")
    seats = p.loc("#seats .seat")
    p.expect(seats).to_have_count(7)
    p.expect(p.loc("#cardroom")).to_be_visible()
    # Between rounds: a Sit button on every empty seat.
    p.expect(p.loc("#seats .btn-sit")).to_have_count(7)
    p.loc("#seats .seat[data-seat='1'] .btn-sit").click()
    sit = table.command(p, "sit")
    assert sit["seat"] == 1
    table.send({"type": "accepted", "id": sit["id"], "state": own("pause", 1000)})
    p.expect(p.loc("#seats .seat[data-seat='1'] .seat-name")).to_have_text("Ann")
    p.expect(p.loc("#seats .btn-sit")).to_have_count(6)

    # The offer to another player first: everyone sees it; then to Ann, with the form.
    offer = {"type": "offer", "player_id": 2, "name": "Bob", "seat": 2, "deadline": FAR}
    offer |= {"min_bank": 100, "max_bank": 100000, "to_you": False}
    table.send(offer)
    p.expect(p.loc("#cr-offer-text")).to_have_text("The bank is offered to Bob (seat 2).")
    p.expect(p.loc("#offer-form")).to_be_hidden()
    table.send(offer | {"player_id": 1, "name": "Ann", "seat": 1, "to_you": True})
    p.expect(p.loc("#offer-form")).to_be_visible()
    p.expect(p.loc("#offer-bank")).to_have_value("100")
    p.expect(p.loc("#offer-range")).to_have_text("from 100 to 100,000")
    p.expect(p.loc("#cr-declined")).to_have_text("Declined or passed over: Bob")
    p.page.fill("#offer-bank", "500")
    p.loc("#btn-accept").click()
    answer = table.command(p, "answer_offer")
    assert {k: answer[k] for k in ("accept", "bank")} == {"accept": True, "bank": 500}
    table.send({"type": "accepted", "id": answer["id"], "state": own("offer", 500)})
    p.expect(p.loc("#offer-form")).to_be_hidden()
    table.send(
        {"type": "banker", "player_id": 1, "name": "Ann", "seat": 1, "bank": 500}
        | {"declined": ["Bob"]}
    )
    p.expect(p.loc("#cr-banker")).to_have_text("You bank 500.")
    p.expect(p.loc("#cr-bank-left")).to_have_text("500")
    p.expect(p.loc("#seats .seat[data-seat='1']")).to_have_class(re.compile(r"\bdealer\b"))

    # Decisions in turn: Bob's seat lit with its timer; the bank going down.
    table.send(
        {
            "type": "table_bets",
            "players": 1,
            "total": 20,
            "listed": [{"id": 2, "name": "Bob", "seat": 2, "total": 20, "ante": 10}],
        }
    )
    table.send(
        {
            "type": "state",
            "state": own("pre_flop", 500),
            "player_dealer": {"player_id": 1, "name": "Ann", "seat": 1, "bank": 500}
            | {"bank_left": 470},
            "turn": {"seat": 2, "player_id": 2, "deadline": FAR},
        }
    )
    p.expect(p.loc("#seats .seat[data-seat='2']")).to_have_class(re.compile(r"\bturn\b"))
    p.expect(p.loc("#seats .seat[data-seat='2'] .seat-count")).to_have_text(re.compile(r"^\d+s$"))
    p.expect(p.loc("#cr-bank-left")).to_have_text("470")
    p.expect(p.loc("#cr-turn")).to_have_text("Bob decides (seat 2).")

    # Russian: every visible text of the card room in Russian.
    p.loc(".lang-btn[data-lang='ru']").click()
    p.expect(p.loc("#cr-banker")).to_have_text("Вы держите банк 500.")
    # (the players' names are data: taken out before looking for Latin letters)
    texts = [re.sub(r"\b(Ann|Bob)\b", "", t) for t in visible_texts(p.page)]
    assert [t for t in texts if LATIN.search(t)] == []
    assert p.console_errors == []


def test_showdown_coverage_and_back_line_bet(new_player: Any) -> None:
    p: Player = new_player()
    snap = snapshot("betting", None, 1000) | {"light": "green", "deadline": FAR}
    snap["table_bets"] = {
        "players": 1,
        "total": 20,
        "listed": [{"id": 2, "name": "Bob", "seat": 2, "total": 20, "ante": 10}],
    }
    snap["player_dealer"] = {"player_id": 3, "name": "Cy", "seat": 4, "bank": 300}
    snap["player_dealer"] |= {"bank_left": 300}
    table = FakeTable(p, snap)
    p.sign_in("Ann")
    p.join("california-1")
    # Not seated: a back-line bet behind Bob's seat (not behind the player-dealer's).
    p.expect(p.loc("#seats .btn-behind")).to_have_count(1)
    p.loc("#seats .seat[data-seat='2'] .btn-behind").click()
    p.expect(p.loc("#seats .seat[data-seat='2']")).to_have_class(re.compile(r"\bbehind\b"))
    p.expect(p.loc("#cr-behind")).to_contain_text("behind seat 2")
    p.chip(5)
    p.loc("#spot-ante").click()
    bet = table.command(p, "place_bet")
    assert {k: bet[k] for k in ("spot", "amount", "behind")} == {
        "spot": "ante",
        "amount": 5,
        "behind": 2,
    }
    # The showdown: which wagers had action, which were collected at the fold, which
    # came back uncovered.
    table.send(
        {
            "type": "settlement",
            "game_number": GAME,
            "outcome": "win",
            "category": "flush",
            "best_five": ["Ah", "Jh", "9h", "6h", "2h"],
            "wagers": {
                "ante": {"stake": 10, "result": "win", "net": 10}
                | {"bank_left": 290, "coverage": "action"},
                "blind": {"stake": 10, "result": "win", "net": 15}
                | {"bank_left": 275, "coverage": "partial"},
                "play": {"stake": 40, "result": "push", "net": 0}
                | {"bank_left": 275, "coverage": "returned_uncovered"},
                "trips": {"stake": 0, "result": "no_action", "net": 0}
                | {"bank_left": None, "coverage": "action"},
                "bad_beat": {"stake": 0, "result": "no_action", "net": 0}
                | {"bank_left": None, "coverage": "action"},
            },
            "net": 25,
            "balance": 1025,
        }
    )
    rows = p.loc("#result tbody tr")
    p.expect(rows).to_have_count(3)
    p.expect(p.loc("#result tr[data-wager='ante'] td.coverage")).to_have_text("Action")
    p.expect(p.loc("#result tr[data-wager='blind'] td.coverage")).to_have_text("Partly covered")
    p.expect(p.loc("#result tr[data-wager='play'] td.coverage")).to_have_text(
        "Returned: not covered"
    )
    p.loc(".lang-btn[data-lang='ru']").click()
    p.expect(p.loc("#result tr[data-wager='play'] td.coverage")).to_have_text(
        "Возвращена: не покрыта банком"
    )
    assert p.console_errors == []


#: Who sits where in the tests below: Cy banks at seat 4, Bob at seat 2, Ann at 3.
SEATS = [
    {"seat": 2, "player_id": 2, "name": "Bob"},
    {"seat": 3, "player_id": 1, "name": "Ann"},
    {"seat": 4, "player_id": 3, "name": "Cy"},
]
CY_BANKS = {"player_id": 3, "name": "Cy", "seat": 4, "bank": 500, "bank_left": 500}


def test_the_bank_goes_down_hand_by_hand_and_a_reload_shows_the_end(new_player: Any) -> None:
    """The showdown's bank_left messages arrive in one burst: the page draws each in
    turn (the seat just settled marked), then the last; a snapshot draws the bank as
    it is at once (issue 13, "the bank going down as it happens")."""
    p: Player = new_player()
    snap = snapshot("showdown", None, 1000) | {"seats": SEATS, "player_dealer": CY_BANKS}
    table = FakeTable(p, snap)
    p.sign_in("Ann")
    p.join("california-1")
    p.expect(p.loc("#cr-bank-left")).to_have_text("500")
    # Every text the bank-left figure takes, in order (a MutationObserver in the page).
    p.page.evaluate(
        """() => {
        const node = document.getElementById('cr-bank-left');
        window.bankSeen = [];
        new MutationObserver(() => {
          if (window.bankSeen.at(-1) !== node.textContent) window.bankSeen.push(node.textContent);
        }).observe(node, { childList: true, characterData: true, subtree: true });
    }"""
    )
    note = {"type": "bank_left", "game_number": GAME}
    for pid, seat, left in ((2, 2, 520), (1, 3, 480), (1, 2, 450)):
        table.send({**note, "player_id": pid, "seat": seat, "bank_left": left})
    table.send(
        {
            "type": "state",
            "state": own("settled", 1000),
            "player_dealer": CY_BANKS | {"bank_left": 450},
            "turn": None,
        }
    )
    p.expect(p.loc("#cr-bank-left")).to_have_text("450")
    assert p.page.evaluate("window.bankSeen") == ["520", "480", "450"]
    p.expect(p.loc("#seats .seat.settled")).to_have_count(1)
    p.expect(p.loc("#seats .seat[data-seat='2']")).to_have_class(re.compile(r"\bsettled\b"))
    # A burst again, then a reload (a snapshot): the end at once, no steps after it.
    p.page.evaluate("window.bankSeen = []")
    for seat, left in ((2, 300), (3, 200)):
        table.send({**note, "player_id": 2, "seat": seat, "bank_left": left})
    table.send({**snap, "player_dealer": CY_BANKS | {"bank_left": 200}})
    p.expect(p.loc("#cr-bank-left")).to_have_text("200")
    p.page.wait_for_timeout(1200)  # longer than two steps: nothing more is drawn
    assert p.page.evaluate("window.bankSeen")[-1] == "200"
    assert p.console_errors == []


def test_a_seated_player_bets_behind_another_seat(new_player: Any) -> None:
    """Ann sits at seat 3 and bets behind Bob's seat 2 too: her chips go to that
    hand while it is picked, Undo names it, and both hands' results are shown."""
    p: Player = new_player()
    snap = snapshot("betting", 3, 1000) | {"light": "green", "deadline": FAR}
    snap |= {"seats": SEATS, "player_dealer": CY_BANKS}
    table = FakeTable(p, snap)
    p.sign_in("Ann")
    p.join("california-1")
    # Behind Bob's seat only: not behind her own, not behind the player-dealer's.
    p.expect(p.loc("#seats .btn-behind")).to_have_count(1)
    p.loc("#seats .seat[data-seat='2'] .btn-behind").click()
    p.expect(p.loc("#cr-behind")).to_contain_text("behind seat 2")
    p.chip(5)
    p.loc("#spot-ante").click()
    bet = table.command(p, "place_bet")
    assert {k: bet[k] for k in ("spot", "amount", "behind")} == {
        "spot": "ante",
        "amount": 5,
        "behind": 2,
    }
    line = {"behind": 2, "bets": NO_BETS | {"ante": 5, "blind": 5}, "total_bet": 10}
    line |= {"can_undo": True, "can_double": True, "can_repeat": False}
    state = own("betting", 970, back_line=line)
    table.send({"type": "accepted", "id": bet["id"], "state": state})
    p.expect(p.loc("#spot-ante")).to_contain_text("5")
    # Other players' bets: both of Ann's rows left out; Eve's bet behind seat 2 says so.
    row = {"trips": 0, "bad_beat": 0}
    listed = [
        {"id": 2, "name": "Bob", "seat": 2, "ante": 10, "total": 20} | row,
        {"id": 1, "name": "Ann", "seat": 3, "ante": 10, "total": 20} | row,
        {"id": 5, "name": "Eve", "seat": None, "ante": 5, "total": 10, "behind": 2} | row,
        {"id": 1, "name": "Ann", "seat": None, "ante": 5, "total": 10, "behind": 2} | row,
    ]
    table.send({"type": "table_bets", "players": 3, "total": 60, "listed": listed})
    p.expect(p.loc("#others .others-total")).to_have_text("Players betting: 2 · total 30")
    p.expect(p.loc("#others .other-name")).to_have_text(["Bob seat 2", "Eve behind seat 2"])
    p.loc("#btn-undo").click()
    assert {k: v for k, v in table.command(p, "undo").items() if k != "id"} == {
        "type": "undo",
        "behind": 2,
        "game_number": GAME,
    }
    # Back to her own seat: the note says where her back-line bets are.
    p.loc("#seats .seat[data-seat='2'] .btn-behind").click()
    p.expect(p.loc("#cr-behind")).to_have_text(
        "Your bets behind seat 2: 10. Click that seat to change them."
    )
    # The showdown: her seat's result, and the back-line hand's below it.
    wagers = {"ante": {"stake": 10, "result": "win", "net": 10}}
    settled = {"type": "settlement", "game_number": GAME, "outcome": "win"}
    settled |= {"category": "pair", "best_five": [], "wagers": wagers, "net": 30}
    table.send(settled | {"balance": 1030})
    table.send(settled | {"net": -10, "balance": 1020, "behind": 2})
    p.expect(p.loc("#result .result-head")).to_have_text("You win 30")
    p.expect(p.loc("#result-behind")).to_have_text("Behind seat 2: you lose 10")
    p.loc(".lang-btn[data-lang='ru']").click()
    p.expect(p.loc("#result-behind")).to_have_text("За местом 2: проигрыш 10")
    p.expect(p.loc("#others .other-name")).to_have_text(["Bob место 2", "Eve за местом 2"])
    # The empty seats' label fits its box whole (not cut to "Свобо…").
    empty = p.loc("#seats .seat-empty")
    p.expect(empty).to_have_text(["Свободно"] * 4)
    cut = empty.evaluate_all("ns => ns.filter(n => n.scrollWidth > n.clientWidth).length")
    assert cut == 0
    assert p.console_errors == []
