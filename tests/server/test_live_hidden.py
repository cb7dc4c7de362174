"""No card reaches a player before its time, by the one definition of who sees what
(:mod:`uth.engine.views`).

Every message each connection receives during a round is kept; once the round is
stored, its kept record is replayed through the engine and each connection's
messages are checked against the events its viewer may see
(:func:`~uth.engine.views.visible_events` of the stored round): a card may appear
in a message only once the message that shows it (``hole_cards_dealt``,
``flop_turned``, ``turn_and_river_turned``, ``dealer_revealed``, ...) has arrived
with that card among the events the viewer may see. Snapshots on reconnecting hold
exactly the cards of the viewer's :func:`~uth.engine.views.seat_view` of the round
at that moment, and a player's history (``GET /api/history/{game_number}``) those
of their seat view of the stored round.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers import LIVE_TABLE, Conn, cards_in, live_server

from uth.engine import history
from uth.engine.round import Phase, Round
from uth.engine.views import seat_view, visible_events
from uth.server.storage import SqlStore, make_engine

SEED = 6
CASINO_TABLE = {**LIVE_TABLE, "rules": "casino", "name": "Casino table, private hole cards"}


class Watcher:
    """Keeps every message one connection receives."""

    def __init__(self, conn: Conn) -> None:
        self.conn = conn
        self.messages: list[dict[str, Any]] = [conn.snapshot]

    @property
    def types(self) -> list[str]:
        return [m["type"] for m in self.messages]

    def read_until(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.conn.recv()
            self.messages.append(message)
            if message["type"] == kind:
                return message

    def send(self, type_: str, **fields: Any) -> dict[str, Any]:
        reply = self.conn.cmd(type_, **fields)
        assert reply["type"] == "accepted", reply
        self.messages.append(reply)
        while self.conn.pending:  # messages read while waiting for the reply
            self.messages.append(self.conn.pending.popleft())
        return reply


def stored_record(store_url: str, game_number: str) -> history.RoundRecord:
    """The round's record as the server kept it."""
    engine = make_engine(store_url)
    try:
        kept = SqlStore(engine).stored_round(game_number).record
    finally:
        engine.dispose()
    assert kept is not None
    return history.decode(kept)


def round_at(record: history.RoundRecord, phase: Phase) -> Round:
    """The stored round replayed up to the first moment it is in ``phase``."""
    for n in range(len(record.actions) + 1):
        rnd = history.rebuild(replace(record, actions=record.actions[:n]))
        if rnd.phase == phase:
            return rnd
    raise AssertionError(f"the round is never in {phase}")


def check_against_views(messages: list[dict[str, Any]], rnd: Round, viewer: str) -> set[str]:
    """Check a viewer's messages, in order, against the events of the stored round
    ``rnd`` they may see; returns every card they were shown.
    """
    shows: dict[str, set[str]] = {}  # message type -> the cards its events show the viewer
    for event in visible_events(rnd.events, viewer, rules=rnd.rules):
        shows.setdefault(event.type, set()).update(cards_in(event.to_dict()))
    allowed: set[str] = set()
    seen: set[str] = set()
    for message in messages:
        allowed |= shows.get(message["type"], set())
        shown = cards_in(message)
        assert shown <= allowed, (viewer, message["type"], sorted(shown - allowed), message)
        seen |= shown
    return seen


def view_cards(rnd: Round, viewer: str) -> set[str]:
    return cards_in(seat_view(rnd, viewer).to_json())


@pytest.mark.parametrize("table", [CASINO_TABLE, LIVE_TABLE], ids=["private", "shared"])
def test_no_card_before_its_time(store_url: str, tmp_path: Path, table: dict[str, Any]) -> None:
    with live_server(store_url, tmp_path, seed=SEED, tables=[table]) as srv:
        alice, bob, carol = srv.sign_in("alice"), srv.sign_in("bob"), srv.sign_in("carol")
        with srv.connect(alice) as a, srv.connect(bob) as b, srv.connect(carol) as c:
            # Carol watches without betting: she has no hole cards.
            wa, wb, wc = Watcher(a), Watcher(b), Watcher(c)
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

            # A second connection of alice's, and carol reconnecting (checked below
            # against their seat views at the flop).
            with srv.connect(alice) as a2:
                snap_alice, reply_alice = a2.snapshot, a2.ok("snapshot")
            with srv.connect(carol) as c2:
                snap_carol = c2.snapshot

            wa.send("decide", action="check")
            wb.send("decide", action="play_2x")
            wa.read_until("decision_required")
            wa.send("decide", action="fold")  # alice's hand is folded face down
            revealed = [w.read_until("dealer_revealed") for w in (wa, wb, wc)]
            for w in (wa, wb):
                w.read_until("settlement")
            for w in (wa, wb, wc):
                w.read_until("pause")
        details = {p.name: srv.round_detail(p, gn) for p in (alice, bob)}
        assert srv.client.get(f"/api/history/{gn}", headers=carol.headers).status_code == 404

    record = stored_record(store_url, gn)
    final = history.rebuild(record)
    assert final.phase == Phase.SETTLED
    ids = {p.name: str(p.id) for p in (alice, bob, carol)}
    # Every message each connection received, in order, against what its viewer may see.
    shown = {
        name: check_against_views(w.messages, final, ids[name])
        for name, w in (("alice", wa), ("bob", wb), ("carol", wc))
    }
    # What each saw is what their seat view of the settled round holds, no more: on
    # the private table no one sees another's hole cards (alice folded face down).
    for name in ("alice", "bob", "carol"):
        assert shown[name] == view_cards(final, ids[name]), name
    holes = {name: set(map(str, final.hole_cards(ids[name]))) for name in ("alice", "bob")}
    if table["rules"] == "casino":
        assert holes["alice"].isdisjoint(shown["bob"]) and holes["bob"].isdisjoint(shown["alice"])
    dealer = [str(card) for card in final.dealer_hole]
    assert [r["cards"] for r in revealed] == [dealer] * 3
    assert len(shown["carol"]) == (9 if table["rules"] == "live" else 7)  # board, dealer
    # The snapshots at the flop: exactly the seat view of the round at that moment.
    at_flop = round_at(record, Phase.FLOP)
    assert snap_alice["hole_cards"] == [str(c) for c in at_flop.hole_cards(ids["alice"])]
    for snap in (snap_alice, reply_alice):
        assert cards_in(snap) == view_cards(at_flop, ids["alice"])
    assert snap_carol["hole_cards"] == []
    assert cards_in(snap_carol) == view_cards(at_flop, ids["carol"])

    # Every message was read; each saw the cards in order.
    for w in (wa, wb):
        order = [t for t in w.types if t in ("flop_turned", "turn_and_river_turned")]
        assert order == ["flop_turned", "turn_and_river_turned"]
        assert len(w.messages) >= 10
    assert "hole_cards_dealt" not in wc.types and "settlement" not in wc.types
    assert "hand_shown" not in wa.types  # a folded hand is never shown
    assert wa.types.count("hand_folded") == 1 and wb.types.count("hand_shown") == 1
    # Decisions go to their owner only.
    assert "decision" not in wc.types

    # After the round: a player's history shows their seat view of the stored round:
    # their cards, the board and the dealer's hand, never another's hole cards.
    for name in ("alice", "bob"):
        assert cards_in(details[name]) == view_cards(final, ids[name]), name
