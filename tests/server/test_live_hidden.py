"""No card reaches a player before its time.

Every message each connection receives during a round is read, and every card
string in it is checked against the cards that connection may know at that
point: its own hole cards once dealt (or, on the live table, the one player hand
dealt face up for everyone, 004), the flop once ``flop_turned`` arrives, the turn
and river once ``turn_and_river_turned`` arrives, and the dealer's hole cards in
``dealer_revealed`` only. Another player's hole cards (folded or not) and the rest
of the deck are never allowed. Snapshots on reconnecting and the HTTP routes are
checked the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import LIVE_TABLE, Conn, cards_in, decks, live_server

SEED = 6
CASINO_TABLE = {**LIVE_TABLE, "rules": "casino", "name": "Casino table, private hole cards"}


class Watcher:
    """Follows one connection's messages and the cards it may know."""

    def __init__(
        self,
        conn: Conn,
        *,
        hole: tuple[str, ...],
        shared: tuple[str, ...],
        board: tuple[str, ...],
        dealer: tuple[str, ...],
    ) -> None:
        self.conn = conn
        self.hole, self.shared, self.board, self.dealer = hole, shared, board, dealer
        self.allowed: set[str] = set()
        self.checked = 0
        self.types: list[str] = []

    def check(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        self.types.append(kind)
        if kind == "hole_cards_dealt":
            assert tuple(message["cards"]) == self.hole, message
            self.allowed |= set(self.hole)
        elif kind == "player_hand_dealt":
            assert tuple(message["cards"]) == self.shared, message
            self.allowed |= set(self.shared)
        elif kind == "flop_turned":
            assert tuple(message["cards"]) == self.board[:3], message
            self.allowed |= set(self.board[:3])
        elif kind == "turn_and_river_turned":
            assert tuple(message["cards"]) == self.board[3:], message
            self.allowed |= set(self.board[3:])
        allowed = self.allowed | (set(self.dealer) if kind == "dealer_revealed" else set())
        shown = cards_in(message)
        assert shown <= allowed, (self.conn.name, kind, sorted(shown - allowed), message)
        self.checked += 1

    def read_until(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.conn.recv()
            self.check(message)
            if message["type"] == kind:
                return message

    def send(self, type_: str, **fields: Any) -> dict[str, Any]:
        reply = self.conn.cmd(type_, **fields)
        assert reply["type"] == "accepted", reply
        self.check(reply)
        while self.conn.pending:  # messages read while waiting for the reply
            self.check(self.conn.pending.popleft())
        return reply


@pytest.mark.parametrize("table", [CASINO_TABLE, LIVE_TABLE], ids=["private", "shared"])
def test_no_card_before_its_time(store_url: str, tmp_path: Path, table: dict[str, Any]) -> None:
    shared_hand = table["rules"] == "live"
    deck = decks(SEED, 1)[0]
    if shared_hand:  # one player hand for all, then the dealer, then the board
        holes = {"alice": deck[0:2], "bob": deck[0:2]}
        dealer, board = deck[2:4], deck[4:9]
    else:  # two cards to each hand in seat order, then the dealer, then the board
        holes = {"alice": deck[0:2], "bob": deck[2:4]}
        dealer, board = deck[4:6], deck[6:11]
    shared = deck[0:2] if shared_hand else ()

    with live_server(store_url, tmp_path, seed=SEED, tables=[table]) as srv:
        alice, bob, carol = srv.sign_in("alice"), srv.sign_in("bob"), srv.sign_in("carol")
        with srv.connect(alice) as a, srv.connect(bob) as b, srv.connect(carol) as c:
            wa = Watcher(a, hole=holes["alice"], shared=shared, board=board, dealer=dealer)
            wb = Watcher(b, hole=holes["bob"], shared=shared, board=board, dealer=dealer)
            # Carol watches without betting: she has no hole cards.
            wc = Watcher(c, hole=(), shared=shared, board=board, dealer=dealer)
            for w in (wa, wb, wc):
                w.check(w.conn.snapshot)
            wa.send("place_bet", spot="ante", amount=10)
            wb.send("place_bet", spot="ante", amount=10)
            wb.send("place_bet", spot="trips", amount=5)
            srv.advance_to(a.snapshot)
            for w in (wa, wb):
                w.read_until("decision_required")
            gn = a.snapshot["game_number"]
            # While the round is open, HTTP shows no card either.
            for player in (alice, bob):
                detail = srv.round_detail(player, gn)
                assert detail["status"] == "open"
                assert cards_in(detail) == set(), detail
            assert cards_in(srv.client.get("/api/tables/t1").json()) == set()
            assert cards_in(srv.history(alice)) == set()

            wa.send("decide", action="check")
            wb.send("decide", action="check")
            for w in (wa, wb):
                w.read_until("decision_required")
            wc.read_until("flop_turned")

            # A second connection of alice's, and carol reconnecting: the snapshot
            # holds their own cards (none for carol) and the flop, nothing else.
            with srv.connect(alice) as a2:
                snap = a2.snapshot
                assert snap["hole_cards"] == list(holes["alice"])
                assert snap["board"] == list(board[:3])
                assert cards_in(snap) == set(holes["alice"]) | set(board[:3]) | set(shared)
                reply = a2.ok("snapshot")
                assert cards_in(reply) == set(holes["alice"]) | set(board[:3]) | set(shared)
            with srv.connect(carol) as c2:
                assert c2.snapshot["hole_cards"] == []
                assert cards_in(c2.snapshot) == set(board[:3]) | set(shared)

            wa.send("decide", action="check")
            wb.send("decide", action="play_2x")
            wa.read_until("decision_required")
            wa.send("decide", action="fold")  # alice's hand is folded face down
            for w in (wa, wb, wc):
                revealed = w.read_until("dealer_revealed")
                assert revealed["cards"] == list(dealer)
            for w in (wa, wb):
                w.read_until("settlement")
            for w in (wa, wb, wc):
                w.read_until("pause")

        # Every message was checked; each saw the cards in order.
        for w in (wa, wb):
            order = [t for t in w.types if t in ("flop_turned", "turn_and_river_turned")]
            assert order == ["flop_turned", "turn_and_river_turned"]
            assert w.checked >= 10
        assert "hole_cards_dealt" not in wc.types and "settlement" not in wc.types
        assert "hand_shown" not in wa.types  # a folded hand is never shown
        assert wa.types.count("hand_folded") == 1 and wb.types.count("hand_shown") == 1
        # Decisions go to their owner only.
        assert "decision" not in wc.types

        # After the round: a player's history shows their cards, the board and the
        # dealer's hand, never another player's hole cards or the deck.
        mine = set(board) | set(dealer)
        assert cards_in(srv.round_detail(alice, gn)) == mine | set(holes["alice"])
        assert cards_in(srv.round_detail(bob, gn)) == mine | set(holes["bob"])
        assert srv.client.get(f"/api/history/{gn}", headers=carol.headers).status_code == 404
