"""A California card-room table over the real WebSocket endpoint, on SQLite and
PostgreSQL (issue 13): players take seats, the position of player-dealer is offered
and taken with a bank, a back-line bet rides behind a seat, decisions are taken in
turn, and the ledger moves to the cent: the bank is reserved at the offer, debited
when the round opens and credited back with its result.

Seed 6 deals the blue deck first: seat 1 gets 8s Qs, the dealer 3c Js, the board
Jh Qc 7h 9c Tc (a queen-high straight against the dealer's pair of jacks): the
seat and the bet behind it win Ante, Blind (a straight pays 1:1) and Play 4x.
"""

from __future__ import annotations

from pathlib import Path

from helpers import CARD_ROOM_TABLE, decks, entries_of, live_server

from uth.server.replay import check_all
from uth.server.storage import SqlStore, make_engine

TABLE = CARD_ROOM_TABLE


def test_a_california_round_with_a_banker_and_a_back_line_bet(
    store_url: str, tmp_path: Path
) -> None:
    assert decks(6, 1)[0][:9] == ("8s", "Qs", "3c", "Js", "Jh", "Qc", "7h", "9c", "Tc")
    with live_server(store_url, tmp_path, seed=6, tables=[TABLE]) as srv:
        alice, bob, carol = srv.sign_in("alice"), srv.sign_in("bob"), srv.sign_in("carol")
        with srv.connect(alice) as a, srv.connect(bob) as b, srv.connect(carol) as c:
            assert a.snapshot["phase"] == "pause"
            assert (a.snapshot["player_dealer"], a.snapshot["turn"]) == (None, None)
            assert a.snapshot["player"]["seat"] is None  # a card room: sit to take a seat
            assert a.ok("sit", seat=1)["state"]["phase"] == "pause"
            b.ok("sit", seat=2)
            assert c.cmd("sit", seat=2)["code"] == "seat_taken"
            # Everyone is told who sits where (carol has not sat: she sees both seats taken).
            rows = [
                {"seat": 1, "player_id": alice.id, "name": "alice"},
                {"seat": 2, "player_id": bob.id, "name": "bob"},
            ]
            assert c.recv_until("seats") == {"type": "seats", "seats": rows[:1]}
            assert c.recv_until("seats") == {"type": "seats", "seats": rows}
            srv.advance_to(a.snapshot)  # the pause ends: the offer starts at seat 1
            offered = a.recv_until("offer")
            assert offered == {
                "type": "offer",
                "player_id": alice.id,
                "name": "alice",
                "seat": 1,
                "deadline": "2026-11-29T23:30:22+00:00",
                "min_bank": 100,
                "max_bank": 100000,
                "to_you": True,
            }
            assert c.recv_until("offer")["to_you"] is False
            assert b.recv_until("offer")["to_you"] is False
            a.ok("answer_offer", accept=False)
            assert b.recv_until("offer")["to_you"] is True
            assert b.cmd("answer_offer", accept=True)["code"] == "invalid_amount"
            assert b.ok("answer_offer", accept=True, bank=500)["state"]["balance"] == 500
            assert srv.me(bob) == 500  # the bank is reserved
            banker = {
                "type": "banker",
                "player_id": bob.id,
                "name": "bob",
                "seat": 2,
                "bank": 500,
                "declined": ["alice"],
            }
            for conn in (a, b, c):
                assert conn.recv_until("banker") == banker
            opened = a.recv_until("betting_open")
            a.ok("place_bet", spot="ante", amount=10)
            assert c.cmd("place_bet", spot="ante", amount=5)["code"] == "not_seated"
            c.ok("place_bet", spot="ante", amount=5, behind=1)
            assert b.cmd("place_bet", spot="ante", amount=5)["code"] == "wrong_phase"
            srv.advance_to(opened)
            asked = a.recv_until("decision_required")
            assert asked["street"] == "pre_flop"
            state = c.recv_until("state")
            while state["turn"] is None:  # the state sent when the banker was taken
                state = c.recv_until("state")
            assert state["turn"] == {
                "seat": 1,
                "player_id": alice.id,
                "deadline": "2026-11-29T23:30:37+00:00",
            }
            assert state["player_dealer"] == {
                "player_id": bob.id,
                "name": "bob",
                "seat": 2,
                "bank": 500,
                "bank_left": 500,
            }
            assert c.cmd("decide", action="play_4x")["code"] == "wrong_phase"
            a.ok("decide", action="play_4x")
            settled = a.recv_until("settlement")
            assert (settled["outcome"], settled["net"], settled["balance"]) == ("win", 60, 1060)
            assert settled["wagers"]["blind"] == {
                "stake": 10,
                "result": "win",
                "net": 10,
                "bank_left": 480,
                "coverage": "action",
            }
            behind = c.recv_until("settlement")
            assert (behind["net"], behind["balance"]) == (30, 1030)
            assert behind["wagers"]["play"]["bank_left"] == 410
            # The bank going down hand by hand, to everyone: alice's seat, then the bet behind it.
            note = {"type": "bank_left", "game_number": opened["game_number"], "seat": 1}
            assert [b.recv_until("bank_left"), b.recv_until("bank_left")] == [
                {**note, "player_id": alice.id, "bank_left": 440},
                {**note, "player_id": carol.id, "bank_left": 410},
            ]
            own = b.recv_until("settlement")
            assert own["wagers"] == {
                "bank": {
                    "stake": 500,
                    "result": "lose",
                    "net": -90,
                    "bank_left": 410,
                    "coverage": "action",
                }
            }
            assert (own["net"], own["balance"]) == (-90, 910)
            b.recv_until("pause")
        # The ledger to the cent, and every balance is the sum of its entries.
        assert entries_of(srv.assert_consistent(alice)) == [
            ("signup", None, 1000, 1000),
            ("wager", "ante", -10, 990),
            ("wager", "blind", -10, 980),
            ("wager", "play", -40, 940),
            ("payout", "ante", 20, 960),
            ("payout", "blind", 20, 980),
            ("payout", "play", 80, 1060),
        ]
        assert entries_of(srv.assert_consistent(bob)) == [
            ("signup", None, 1000, 1000),
            ("wager", "bank", -500, 500),
            ("payout", "bank", 410, 910),
        ]
        assert entries_of(srv.assert_consistent(carol)) == [
            ("signup", None, 1000, 1000),
            ("wager", "ante", -5, 995),
            ("wager", "blind", -5, 990),
            ("wager", "play", -20, 970),
            ("payout", "ante", 10, 980),
            ("payout", "blind", 10, 990),
            ("payout", "play", 40, 1030),
        ]
        assert (srv.me(alice), srv.me(bob), srv.me(carol)) == (1060, 910, 1030)
        (row,) = srv.history(bob)  # the player-dealer's round, in their history
        assert (row["status"], row["net"]) == ("settled", -90)
        detail = srv.round_detail(bob, row["game_number"])
        assert (detail["balance_before"], detail["balance_after"]) == (1000, 910)
        assert detail["wagers"] == {"bank": {"stake": 500, "result": "lose", "net": -90}}
        # Carol has no seat: her hand followed seat 1's cards and decisions.
        detail = srv.round_detail(carol, row["game_number"])
        assert (detail["behind"], detail["decisions"], detail["back_line"]) == (
            1,
            ["play_4x"],
            None,
        )
        assert (detail["hole"], detail["outcome"]) == (["8s", "Qs"], "win")
        assert (detail["balance_before"], detail["balance_after"]) == (1000, 1030)
        assert srv.round_detail(alice, row["game_number"])["behind"] is None


def test_a_seated_player_also_bets_behind_another_seat(store_url: str, tmp_path: Path) -> None:
    """Bob banks at seat 2; alice sits at seat 1; carol sits at seat 3 and also bets
    behind seat 1 (her back-line hand ``<carol>@1``). Seed 6: seat 1 gets 8s Qs, seat
    3 3c Js, the dealer Jh Qc, the board 7h 9c Tc 3s Ad: the dealer does not qualify,
    beats seat 1 (ace-queen-jack high against ace-queen-ten) and loses to seat 3 (a
    pair of threes). The settlement: seat 1, the bet behind it, then seat 3.
    """
    with live_server(store_url, tmp_path, seed=6, tables=[TABLE]) as srv:
        alice, bob, carol = srv.sign_in("alice"), srv.sign_in("bob"), srv.sign_in("carol")
        with srv.connect(alice) as a, srv.connect(bob) as b, srv.connect(carol) as c:
            a.ok("sit", seat=1)
            b.ok("sit", seat=2)
            c.ok("sit", seat=3)
            srv.advance_to(a.snapshot)
            a.recv_until("offer")
            a.ok("answer_offer", accept=False)
            b.recv_until("offer")
            b.recv_until("offer")
            b.ok("answer_offer", accept=True, bank=500)
            opened = a.recv_until("betting_open")
            a.ok("place_bet", spot="ante", amount=10)
            c.ok("place_bet", spot="ante", amount=10)
            state = c.ok("place_bet", spot="ante", amount=5, behind=1)["state"]
            # Her own 20, the back-line 10 and its largest Play (20) reserved.
            assert state["balance"] == 950
            assert state["back_line"]["behind"] == 1
            assert state["back_line"]["total_bet"] == 10
            assert c.cmd("place_bet", spot="ante", amount=5, behind=3)["code"] == "wrong_phase"
            assert c.cmd("undo", behind=2)["code"] == "wrong_phase"
            srv.advance_to(opened)
            a.recv_until("decision_required")
            a.ok("decide", action="play_4x")
            c.recv_until("decision_required")
            c.ok("decide", action="play_4x")
            note = {"type": "bank_left", "game_number": opened["game_number"]}
            got = [b.recv_until("bank_left") for _ in range(3)]
            assert got == [
                {**note, "player_id": alice.id, "seat": 1, "bank_left": 550},
                {**note, "player_id": carol.id, "seat": 1, "bank_left": 575},
                {**note, "player_id": carol.id, "seat": 3, "bank_left": 535},
            ]
            line, own = c.recv_until("settlement"), c.recv_until("settlement")
            assert (line["behind"], line["outcome"], line["net"]) == (1, "lose", -25)
            assert ("behind" in own, own["outcome"], own["net"]) == (False, "win", 40)
            assert own["balance"] == 1015
            b.recv_until("pause")
        carol_entries = srv.assert_consistent(carol)
        hand = f"{carol.id}@1"
        rows = [
            (*e, x.get("hand"))
            for e, x in zip(entries_of(carol_entries), carol_entries, strict=True)
        ]
        assert rows == [
            ("signup", None, 1000, 1000, None),
            ("wager", "ante", -10, 990, None),
            ("wager", "blind", -10, 980, None),
            ("wager", "ante", -5, 975, hand),
            ("wager", "blind", -5, 970, hand),
            ("wager", "play", -20, 950, hand),
            ("wager", "play", -40, 910, None),
            ("payout", "ante", 10, 920, None),
            ("payout", "blind", 10, 930, None),
            ("payout", "play", 80, 1010, None),
            ("payout", "ante", 5, 1015, hand),
        ]
        assert entries_of(srv.assert_consistent(alice)) == [
            ("signup", None, 1000, 1000),
            ("wager", "ante", -10, 990),
            ("wager", "blind", -10, 980),
            ("wager", "play", -40, 940),
            ("payout", "ante", 10, 950),
        ]
        assert entries_of(srv.assert_consistent(bob)) == [
            ("signup", None, 1000, 1000),
            ("wager", "bank", -500, 500),
            ("payout", "bank", 535, 1035),
        ]
        assert (srv.me(alice), srv.me(bob), srv.me(carol)) == (950, 1035, 1015)
        (row,) = srv.history(carol)  # the round's net over both her hands
        assert (row["status"], row["net"]) == ("settled", 15)
        # The detail shows both hands: their wagers add up to the balance change.
        detail = srv.round_detail(carol, row["game_number"])
        assert (detail["balance_before"], detail["balance_after"]) == (1000, 1015)
        assert (detail["behind"], detail["decisions"], detail["outcome"]) == (
            None,
            ["play_4x"],
            "win",
        )
        assert [(k, w["stake"], w["net"]) for k, w in detail["wagers"].items()] == [
            ("ante", 10, 0),
            ("blind", 10, 0),
            ("play", 40, 40),
            ("trips", 0, 0),
            ("bad_beat", 0, 0),
        ]
        line = detail["back_line"]
        assert (line["hand"], line["behind"], line["outcome"]) == (hand, 1, "lose")
        assert (line["hole"], line["decisions"]) == (["8s", "Qs"], ["play_4x"])
        assert [(k, w["stake"], w["result"], w["net"]) for k, w in line["wagers"].items()] == [
            ("ante", 5, "push", 0),
            ("blind", 5, "lose", -5),
            ("play", 20, "lose", -20),
            ("trips", 0, "no_action", 0),
            ("bad_beat", 0, "no_action", 0),
        ]
        assert srv.round_detail(alice, row["game_number"])["back_line"] is None
    # `uth replay` confirms the round, the back-line hand's entries by its hand id.
    engine = make_engine(store_url)
    try:
        store = SqlStore(engine)
        checks = check_all(store, store)
        assert [(x.outcome, x.entries) for x in checks] == [("match", 16)]
    finally:
        engine.dispose()
