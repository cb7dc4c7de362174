"""Which window a command answers (issue 7, items 6 and 7; issue 14, item 4).

- A request id is never applied twice within a round, whatever comes between:
  the table remembers every id of this round and the last, 256 new ids a round.
- A command names its window (``street``, ``game_number``) or is refused once the
  window closed: a late decision never lands on the next street.

Seed 6, round 1 (as in test_live_rounds): player hand 8s Qs, board Jh Qc 7h 9c Tc.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import Conn, LiveServer, live_server

from uth.server.table import REQUEST_IDS_PER_ROUND


def _play_out(srv: LiveServer, conn: Conn) -> dict[str, Any]:
    """Let the timer decide every street of the round; the next ``betting_open``."""
    while True:
        message = conn.recv()
        if message["type"] == "decision_required" or message["type"] == "pause":
            srv.advance_to(message)
        elif message["type"] == "betting_open":
            return message


def test_the_request_id_window_holds_at_its_edge(store_url: str, tmp_path: Path) -> None:
    """The probe of issue 7: ``orig`` Ante 5, then other commands, then ``orig``
    again. At 256 ids (the edge) it is still answered, not applied; the 257th new
    id is refused and not applied. A window of 1 (or 32, as before) fails here.
    """
    assert REQUEST_IDS_PER_ROUND == 256
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            bet = {"type": "place_bet", "id": "orig", "spot": "ante", "amount": 5}
            first = a.send(bet)
            assert (first["type"], first["state"]["bets"]["ante"]) == ("accepted", 5)
            for i in range(254):  # 255 ids used
                a.send({"type": "snapshot", "id": f"s-{i}"})
            assert a.send(bet) == first
            last = a.send({"type": "undo", "id": "u-1"})  # the 256th id: applied
            assert last["state"]["bets"]["ante"] == 0
            assert a.send(bet) == first  # not applied again: the Ante stays 0
            refused = a.send({**bet, "id": "id-257"})
            assert refused == {
                "type": "error",
                "id": "id-257",
                "code": "too_many_requests",
                "message": "id: at most 256 request ids per round; this one is not applied",
            }
            assert a.send(bet) == first
            state = a.send({"type": "snapshot", "id": "s-0"})["state"]  # seen: answered
            assert (state["bets"]["ante"], state["balance"]) == (0, 1000)
        assert srv.me(alice) == 1000
        assert [e["kind"] for e in srv.ledger(alice)] == ["signup"]


def test_a_request_id_is_not_applied_again_after_a_reconnect_or_in_the_next_round(
    store_url: str, tmp_path: Path
) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        bet = {"type": "place_bet", "id": "orig", "spot": "ante", "amount": 5}
        with srv.connect(alice) as a:
            first = a.send(bet)
            assert first["state"]["balance"] == 990
        # The last connection closed while betting: the bets were declined and the
        # seat freed; the id is still remembered.
        with srv.connect(alice) as a:
            declined = a.recv_until("bets_declined")
            assert declined["reason"].startswith("left: your last connection closed")
            assert a.send(bet) == first
            assert a.ok("snapshot")["state"]["bets"]["ante"] == 0
            placed = a.ok("place_bet", spot="ante", amount=10)
            assert placed["state"]["balance"] == 980
            srv.advance_to(a.snapshot)
            opened = _play_out(srv, a)  # round 1 played (timer: check, check, fold)
            # Round 2: the ids of round 1 are still remembered.
            assert a.send(bet) == first
            assert a.ok("snapshot")["state"]["bets"]["ante"] == 0
            srv.advance_to(opened)  # nobody bet: round 3 opens at once
            a.recv_until("betting_open")
            # Round 3: round 1's ids are forgotten; "orig" is a new command.
            again = a.send(bet)
            assert (again["type"], again["state"]["bets"]["ante"]) == ("accepted", 5)
        ledger = srv.assert_consistent(alice)
        assert [(e["kind"], e["wager"], e["amount"]) for e in ledger] == [
            ("signup", None, 1000),
            ("wager", "ante", -10),
            ("wager", "blind", -10),
        ]  # round 1 folded by the timer: nothing paid back


def test_a_late_decision_never_lands_on_the_next_street(store_url: str, tmp_path: Path) -> None:
    """Issue 7's probe: no pre-flop decision, the timer checks, then a ``check``
    sent just after the deadline must not become the flop decision.
    """
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            a.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(a.snapshot)
            pre = a.recv_until("decision_required")
            game = pre["game_number"]
            assert (pre["street"], pre["hand"]) == (
                "pre_flop",
                {"category": "high_card", "cards": ["Qs", "8s"]},
            )
            srv.advance_to(pre)  # the timer checks
            auto = a.recv_until("decision")
            assert (auto["action"], auto["auto"]) == ("check", True)
            flop = a.recv_until("decision_required")
            assert flop["street"] == "flop"
            # Naming its street: refused, it answers a closed window.
            late = a.send(
                {"type": "decide", "id": "late-1", "action": "check", "street": "pre_flop"}
            )
            assert (late["code"], late["message"]) == (
                "wrong_phase",
                "decide: the pre_flop decision is closed; the open decision is flop",
            )
            # Without a street, in the flop's first second: refused as ambiguous.
            srv.clock.advance(0.9)
            vague = a.send({"type": "decide", "id": "late-2", "action": "check"})
            assert (vague["code"], vague["message"]) == (
                "wrong_phase",
                "decide: say which street (the flop decision opened just after the timer "
                "decided the last one)",
            )
            # Naming another round: refused.
            other = a.send(
                {
                    "type": "decide",
                    "id": "late-3",
                    "action": "check",
                    "street": "flop",
                    "game_number": "20261129-000000-0009",
                }
            )
            assert (other["code"], other["message"]) == (
                "wrong_phase",
                f"game_number: round 20261129-000000-0009 is not open; the table is at round {game}",
            )
            state = a.ok("snapshot")["state"]
            assert (state["phase"], state["decisions"], state["bets"]["play"]) == (
                "flop",
                ["auto:check"],
                0,
            )
            # A second after the flop opened, a decision without street is taken.
            srv.clock.advance(0.1)
            taken = a.send({"type": "decide", "id": "flop-1", "action": "play_2x"})
            assert taken["type"] == "accepted", taken
            assert (taken["state"]["decisions"], taken["state"]["bets"]["play"]) == (
                ["auto:check", "play_2x"],
                20,
            )
            settled = a.recv_until("settlement")
            assert settled["wagers"]["play"]["stake"] == 20
            # After the round, a decision naming the round is refused.
            after = a.send(
                {"type": "decide", "id": "late-4", "action": "fold", "game_number": game}
            )
            assert after["code"] == "wrong_phase"


def test_a_bet_naming_a_closed_round_is_refused(store_url: str, tmp_path: Path) -> None:
    """When nobody bet, the next window opens at once: a chip meant for the last
    window names it and is refused instead of landing in the new one.
    """
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            old = a.snapshot["game_number"]
            srv.advance_to(a.snapshot)
            opened = a.recv_until("betting_open")
            assert opened["game_number"] != old
            late = a.send(
                {"type": "place_bet", "id": "b1", "spot": "ante", "amount": 10, "game_number": old}
            )
            assert (late["code"], late["message"]) == (
                "wrong_phase",
                f"game_number: round {old} is not open; the table is at round "
                f"{opened['game_number']}",
            )
            fresh = a.ok("place_bet", spot="ante", amount=10, game_number=opened["game_number"])
            assert fresh["state"]["bets"]["ante"] == 10
