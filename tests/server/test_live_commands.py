"""Commands the table must refuse, each with its error code and no change to any
balance or round; repeated request ids; the WebSocket handshake.

Seed 6, round 1 on the live table: player hand 8s Qs, board Jh Qc 7h 9c Tc (a
straight: Trips pays 4:1 even on a folded hand), dealer 3c Js (a pair of jacks).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from helpers import OPERATOR_TOKEN, Conn, entries_of, live_server


def test_malformed_messages_are_refused(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            a.ok("place_bet", spot="ante", amount=10)

            def refused(reply: dict[str, object], code: str, rid: str | None) -> None:
                assert reply["type"] == "error", reply
                assert (reply["code"], reply["id"]) == (code, rid), reply
                assert isinstance(reply["message"], str) and reply["message"]

            refused(a.send_raw("not json"), "malformed", None)
            refused(a.send_raw("[1, 2]"), "malformed", None)
            refused(a.send_raw("null"), "malformed", None)
            refused(a.send_raw("[" * 100_000), "malformed", None)  # too deep to parse
            refused(a.send({"type": "undo"}), "malformed", None)  # no id
            refused(a.send({"type": "undo", "id": ""}), "malformed", None)
            refused(a.send({"type": "undo", "id": "x" * 65}), "malformed", None)
            refused(a.send({"type": "undo", "id": 7}), "malformed", None)
            refused(a.send({"id": "m1"}), "malformed", "m1")  # no type
            refused(a.send({"type": "hello", "id": "m2"}), "unknown_command", "m2")
            r = a.send({"type": "place_bet", "id": "m3", "spot": "blind", "amount": 5})
            refused(r, "malformed", "m3")
            assert str(r["message"]).startswith("spot:")
            refused(a.send({"type": "place_bet", "id": "m4", "spot": "ante"}), "malformed", "m4")
            r = a.send({"type": "place_bet", "id": "m5", "spot": "ante", "amount": None})
            refused(r, "malformed", "m5")
            r = a.send({"type": "place_bet", "id": "m6", "spot": "ante", "amount": [5]})
            refused(r, "malformed", "m6")
            assert r["message"] == "amount: expected a number or a decimal string, got [5]"
            for i, flag in enumerate((True, False)):  # a boolean is not an amount
                r = a.send({"type": "place_bet", "id": f"mb{i}", "spot": "ante", "amount": flag})
                refused(r, "malformed", f"mb{i}")
                assert r["message"].startswith("amount: expected a number")
            # There is no way to name another player's hand: extra fields are refused.
            r = a.send({"type": "decide", "id": "m7", "action": "check", "player": "2"})
            refused(r, "malformed", "m7")
            a.ws.send_bytes(json.dumps({"type": "undo", "id": "m8"}).encode())
            refused(a._reply(None), "malformed", None)  # binary frames are not accepted

            snap = a.ok("snapshot")["snapshot"]
            assert snap["state"]["bets"]["ante"] == 10 and snap["state"]["balance"] == 980
            assert snap["state"]["can_undo"] is True
        assert srv.me(alice) == 1000  # left while betting: declined, refunded
        assert entries_of(srv.assert_consistent(alice)) == [("signup", None, 1000, 1000)]


def test_out_of_phase_and_foreign_commands(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice, bob, dave = srv.sign_in("alice"), srv.sign_in("bob"), srv.sign_in("dave")
        with srv.connect(alice) as a, srv.connect(bob) as b:
            # Betting: no decision is open; nothing to undo, double or repeat.
            assert a.cmd("decide", action="check")["code"] == "wrong_phase"
            assert a.cmd("undo")["code"] == "wrong_phase"
            assert a.cmd("double")["code"] == "wrong_phase"
            assert a.cmd("repeat")["code"] == "wrong_phase"
            assert a.cmd("place_bet", spot="trips", amount=5)["code"] == "wrong_phase"
            a.ok("place_bet", spot="ante", amount=10)
            a.ok("place_bet", spot="trips", amount=5)
            b.ok("place_bet", spot="ante", amount=20)
            srv.advance_to(a.snapshot)
            a.recv_until("decision_required")
            b.recv_until("decision_required")

            # Decisions: betting is closed.
            for reply in (
                a.cmd("place_bet", spot="ante", amount=10),
                a.cmd("undo"),
                a.cmd("double"),
                a.cmd("repeat"),
            ):
                assert reply["code"] == "wrong_phase", reply
            assert a.cmd("decide", action="banana")["code"] == "illegal_action"
            assert a.cmd("decide", action="play_2x")["code"] == "illegal_action"
            assert a.cmd("decide", action="fold")["code"] == "illegal_action"
            a.ok("decide", action="check")
            assert a.cmd("decide", action="check")["code"] == "illegal_action"  # decided

            # Dave sits down during the decisions: he has no hand in this round.
            with srv.connect(dave) as d:
                assert d.snapshot["hole_cards"] == []
                assert d.snapshot["player_hand"] == ["8s", "Qs"]  # face up for all (004)
                assert d.cmd("decide", action="check")["code"] == "wrong_phase"
                assert d.cmd("decide", action="play_4x")["code"] == "wrong_phase"
                assert d.cmd("place_bet", spot="ante", amount=10)["code"] == "wrong_phase"
                assert srv.me(dave) == 1000

            b.ok("decide", action="play_4x")
            for _ in ("flop", "river"):
                srv.advance_to(a.recv_until("decision_required"))  # alice times out
            sa, sb = a.recv_until("settlement"), b.recv_until("settlement")
            assert (sa["net"], sa["balance"]) == (0, 1000)  # -10 -10 +20 (Trips 4:1)
            assert (sb["net"], sb["balance"]) == (120, 1120)  # Ante 20, Blind 20 (1:1), Play 80
            # After the showdown, before the next betting window.
            assert a.cmd("decide", action="check")["code"] == "wrong_phase"
            assert a.cmd("place_bet", spot="ante", amount=10)["code"] == "wrong_phase"
        assert (srv.me(alice), srv.me(bob), srv.me(dave)) == (1000, 1120, 1000)
        assert entries_of(srv.assert_consistent(alice))[1:] == [
            ("wager", "ante", -10, 990),
            ("wager", "blind", -10, 980),
            ("wager", "trips", -5, 975),
            ("payout", "trips", 25, 1000),
        ]
        assert entries_of(srv.assert_consistent(dave)) == [("signup", None, 1000, 1000)]
        srv.assert_consistent(bob)


def test_limits_amounts_and_funds(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path, starting_balance=5000) as srv:
        alice, bob, carol = srv.sign_in("alice"), srv.sign_in("bob"), srv.sign_in("carol")
        r = srv.client.post(
            f"/api/operator/players/{bob.id}/adjust",
            json={"amount": -4900, "reason": "test: leave bob 100"},
            headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
        )
        assert r.status_code == 200 and r.json()["balance"] == 100
        with srv.connect(alice) as a, srv.connect(bob) as b, srv.connect(carol) as c:
            # The live table clamps a chip to the spot's maximum and says so.
            r = a.ok("place_bet", spot="ante", amount=1001)
            assert r["notice"] == "maximum"
            assert r["state"]["bets"]["ante"] == 1000 and r["state"]["balance"] == 3000
            r = a.cmd("place_bet", spot="ante", amount=5)
            assert r["code"] == "over_limit" and "maximum" in r["message"]
            r = a.ok("place_bet", spot="trips", amount=995)
            assert "notice" not in r
            r = a.ok("place_bet", spot="trips", amount=25)
            assert r["notice"] == "maximum" and r["state"]["bets"]["trips"] == 1000
            assert a.cmd("place_bet", spot="bad_beat", amount=5)["code"] == "over_limit"
            r = a.ok("double")  # every spot is at its maximum already
            assert r["notice"] == "maximum"
            assert (r["state"]["bets"]["ante"], r["state"]["bets"]["trips"]) == (1000, 1000)
            assert r["state"]["balance"] == 2000
            for amount in (-5, 0, 5.001, "5.001", "abc", 1e30, "NaN", "-0.01"):
                r = a.cmd("place_bet", spot="trips", amount=amount)
                assert r["code"] == "invalid_amount", (amount, r)
            # issue 7, item 5: one parser, plain decimals only (uth.money.parse_amount)
            for n, (text, shown) in enumerate(
                (
                    ('"1e2"', "'1e2'"),
                    ('" 5 "', "' 5 '"),
                    ('"5.000"', "'5.000'"),
                    # a JSON number with an exponent is echoed as written (issue 8)
                    ("1e2", "1e2"),
                    ("1E+2", "1E+2"),
                    ("5.000", "5.000"),
                    ('"Infinity"', "'Infinity'"),
                )
            ):
                a.ws.send_text(
                    f'{{"type": "place_bet", "id": "plain-{n}", "spot": "trips", "amount": {text}}}'
                )
                r = a._reply(f"plain-{n}")
                assert r["code"] == "invalid_amount", (text, r)
                assert r["message"].startswith("amount: ") and r["message"].endswith(shown), r
            assert srv.me(alice) == 2000

            # Bob has 100: Ante 60 needs 120 with its Blind.
            assert b.cmd("place_bet", spot="ante", amount=60)["code"] == "insufficient_funds"
            r = b.ok("place_bet", spot="ante", amount=50)
            assert r["state"]["balance"] == 0
            assert r["state"]["warning"] == "balance_low_for_play"  # cannot cover a 1x Play
            assert b.cmd("place_bet", spot="trips", amount=5)["code"] == "insufficient_funds"
            assert b.cmd("double")["code"] == "insufficient_funds"
            assert b.ok("snapshot")["state"]["bets"]["ante"] == 50

            # Carol's chips add up; the minimum (5) is checked when betting closes.
            assert c.ok("place_bet", spot="ante", amount=1)["state"]["balance"] == 4998

            srv.advance_to(a.snapshot)
            declined = c.recv_until("bets_declined")
            assert declined["reason"].startswith("wagers.ante:")
            assert (declined["code"], declined["field"]) == ("outside_limits", "wagers.ante")
            assert srv.me(carol) == 5000
            # Bob can afford no Play: check only, then fold only (our choice, 004).
            assert b.recv_until("decision_required")["legal_actions"] == ["check"]
            assert b.cmd("decide", action="play_4x")["code"] == "illegal_action"
            # Alice has 2000 left: no 4x (4000) nor 3x (3000) before the flop.
            pre = a.recv_until("decision_required")
            assert pre["legal_actions"] == ["check"]
            srv.advance_to(pre)
            for street in ("flop", "river"):
                m = a.recv_until("decision_required")
                legal = b.recv_until("decision_required")["legal_actions"]
                assert legal == (["check"] if street == "flop" else ["fold"])
                srv.advance_to(m)
            sa, sb = a.recv_until("settlement"), b.recv_until("settlement")
            # Alice folded by time-out: -1000 -1000, Trips +4000 on the straight.
            assert (sa["outcome"], sa["net"], sa["balance"]) == ("fold", 2000, 7000)
            assert (sb["outcome"], sb["net"], sb["balance"]) == ("fold", -100, 0)
            assert c.recv_until("pause")
        assert (srv.me(alice), srv.me(bob), srv.me(carol)) == (7000, 0, 5000)
        assert entries_of(srv.assert_consistent(carol)) == [("signup", None, 5000, 5000)]
        assert entries_of(srv.assert_consistent(bob))[1:] == [
            ("adjustment", None, -4900, 100),
            ("wager", "ante", -50, 50),
            ("wager", "blind", -50, 0),
        ]
        assert entries_of(srv.assert_consistent(alice))[1:] == [
            ("wager", "ante", -1000, 4000),
            ("wager", "blind", -1000, 3000),
            ("wager", "trips", -1000, 2000),
            ("payout", "trips", 5000, 7000),
        ]


def test_a_repeated_request_id_is_answered_again_and_not_applied(
    store_url: str, tmp_path: Path
) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            bet = {"type": "place_bet", "id": "bet-1", "spot": "ante", "amount": 10}
            first = a.send(bet)
            assert first["type"] == "accepted" and first["state"]["balance"] == 980
            assert a.send(bet) == first
            # Another command under the same id: the first reply, nothing applied.
            assert a.send({**bet, "amount": 50}) == first
            assert a.send({"type": "undo", "id": "bet-1"}) == first
            # Ids are remembered per player: a client that reconnects and sends the
            # request again gets the same reply.
            with srv.connect(alice) as again:
                assert again.send(bet) == first
            assert srv.me(alice) == 980
            # An error is remembered too: the same id is not tried again later.
            early = a.send({"type": "decide", "id": "dec-1", "action": "check"})
            assert early["code"] == "wrong_phase"
            srv.advance_to(a.snapshot)
            a.recv_until("decision_required")
            assert a.send({"type": "decide", "id": "dec-1", "action": "check"}) == early
            checked = a.send({"type": "decide", "id": "dec-2", "action": "check"})
            assert checked["type"] == "accepted"
            flop = a.recv_until("decision_required")
            assert flop["street"] == "flop"
            # The decision is not applied twice (it would be illegal now anyway).
            assert a.send({"type": "decide", "id": "dec-2", "action": "check"}) == checked
            play = a.send({"type": "decide", "id": "dec-3", "action": "play_2x"})
            assert play["state"]["bets"]["play"] == 20
            assert a.send({"type": "decide", "id": "dec-3", "action": "play_2x"}) == play
            settled = a.recv_until("settlement")
            assert settled["wagers"]["play"]["stake"] == 20
        ledger = srv.assert_consistent(alice)
        assert [e["wager"] for e in ledger if e["kind"] == "wager"] == ["ante", "blind", "play"]


def test_handshake_errors(store_url: str, tmp_path: Path) -> None:
    casino = {"id": "c1", "rules": "casino", "betting_seconds": 10, "yellow_seconds": 3}
    with live_server(store_url, tmp_path, tables=[casino]) as srv:
        alice = srv.sign_in("alice")

        def first_and_close(path: str, first: object) -> tuple[dict[str, object], int]:
            with srv.client.websocket_connect(path) as ws:
                conn = Conn(ws, "anon")
                if first is not None:
                    ws.send_text(first if isinstance(first, str) else json.dumps(first))
                message = conn.recv()
                closed = conn.recv()
                assert closed["type"] == "websocket.close"
                return message, int(str(closed["code"]))

        message, code = first_and_close("/ws/tables/nope", None)
        assert (message["code"], code) == ("not_found", 4404)
        message, code = first_and_close("/ws/tables/c1", {"type": "auth", "token": "bad"})
        assert (message["type"], message["code"], code) == ("error", "unauthorized", 4401)
        message, code = first_and_close(
            "/ws/tables/c1", {"type": "place_bet", "id": "1", "spot": "ante", "amount": 5}
        )
        assert (message["code"], code) == ("unauthorized", 4401)
        message, code = first_and_close("/ws/tables/c1", "not json")
        assert (message["code"], code) == ("unauthorized", 4401)

        # The casino table has 7 seats: the 8th player is turned away.
        players = [srv.sign_in(f"p{i}") for i in range(7)]
        with contextlib.ExitStack() as stack:
            for p in players:
                conn = stack.enter_context(srv.connect(p, "c1"))
                assert conn.snapshot["player"]["seat"] == players.index(p) + 1
            message, code = first_and_close("/ws/tables/c1", {"type": "auth", "token": alice.token})
            assert (message["code"], code) == ("table_full", 4409)

        for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic x"}):
            for path in ("/api/me", "/api/ledger", "/api/history"):
                assert srv.client.get(path, headers=headers).status_code == 401


@pytest.mark.parametrize("name", ["", "x" * 41, "tab\there"])
def test_sign_in_refuses_bad_names(name: str, tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'uth.db'}", tmp_path) as srv:
        assert srv.client.post("/api/players", json={"name": name}).status_code == 422


def test_double_is_offered_only_when_the_balance_covers_it(store_url: str, tmp_path: Path) -> None:
    with live_server(store_url, tmp_path) as srv:
        alice = srv.sign_in("alice")  # 1,000 to start
        with srv.connect(alice) as a:
            state = a.ok("place_bet", spot="ante", amount=250)["state"]
            assert (state["balance"], state["can_double"]) == (500, True)  # +500 needed
            state = a.ok("place_bet", spot="ante", amount=250)["state"]
            assert (state["balance"], state["can_double"]) == (0, False)
            r = a.send({"type": "double", "id": "d1"})
            assert (r["type"], r["code"]) == ("error", "insufficient_funds")
            state = a.ok("undo")["state"]
            assert (state["balance"], state["can_double"]) == (500, True)
            state = a.ok("double")["state"]
            assert (state["balance"], state["bets"]["ante"], state["can_double"]) == (0, 500, False)
