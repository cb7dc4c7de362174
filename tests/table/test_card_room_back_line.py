"""A seated player who also bets behind another seat (issue 13, item 4: "a player
without a seat, or seated elsewhere, may bet behind a seat"): a second hand in the
round, with its own bets, Undo, Double, Repeat and Play, following the seat it is
behind; its largest Play reserved when it is placed (item 2); its ledger entries
keyed by its hand id (``"1@3"``). Plain calls, no event loop (machine_host);
California rules, player 2 banks at seat 2, player 1 sits at seat 1 and player 3
at seat 3; decisions and the settlement go clockwise from the player-dealer's
left: seat 1, then seat 3 and the bets behind it.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from machine_host import Host, StorageDown, deck

from uth.engine import history
from uth.engine.table import (
    AnswerOffer,
    Decide,
    Double,
    PlaceBet,
    PlayerDealerBank,
    Repeat,
    Sit,
    Undo,
)
from uth.engine.table import effects as fx
from uth.rules import preset

D = Decimal
#: Seat 1 gets 2c 3d, seat 3 As Ks, the dealer 5c 6d (no qualifier), the board
#: Ah Kh Qs 7c 8d: seat 3 wins, seat 1 ties the dealer.
SEAT_3_WINS = "2c 3d As Ks 5c 6d Ah Kh Qs 7c 8d"
#: Seat 1 As Ks, seat 3 2c 3d: seat 1 wins, seat 3 ties.
SEAT_1_WINS = "As Ks 2c 3d 5c 6d Ah Kh Qs 7c 8d"


def table(decks: list[str], bank: int) -> Host:
    """Players 1..3 with 1000 each; seats 1, 2, 3; player 2 banks ``bank``."""
    room = PlayerDealerBank(preset("california"), offer_seconds=5)
    h = Host(
        "california",
        {pid: D(1000) for pid in (1, 2, 3)},
        decks=[deck(d) for d in decks],
        banking=room,
    )
    for pid in (1, 2, 3):
        h.join(pid)
        assert h.send(pid, Sit(f"sit{pid}", pid))["type"] == "accepted"
    h.advance_until("offer")
    h.send(1, AnswerOffer("o1", False))
    assert h.send(2, AnswerOffer("o2", True, bank))["type"] == "accepted"
    for pid in (1, 2, 3):
        h.take(pid)
    return h


def by_type(messages: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] == kind]


def wager(stake: int, result: str, net: int, left: int, coverage: str = "action") -> dict[str, Any]:
    return {"stake": stake, "result": result, "net": net, "bank_left": left, "coverage": coverage}


def test_a_seated_player_bets_behind_another_seat_that_raises_4x() -> None:
    h = table([SEAT_3_WINS] * 2, 500)
    assert h.send(1, PlaceBet("b1", "ante", 10))["type"] == "accepted"
    reply = h.send(1, PlaceBet("b2", "ante", 5, behind=3))
    # Own bets 20, the back-line bets 10 and their largest Play (4 x 5) reserved.
    assert reply["state"]["balance"] == 950
    assert reply["state"]["bets"]["ante"] == 10
    assert reply["state"]["back_line"] == {
        "behind": 3,
        "bets": {"ante": 5, "trips": 0, "bad_beat": 0, "blind": 5, "play": 0},
        "total_bet": 10,
        "can_undo": True,
        "can_double": True,
        "can_repeat": False,
    }
    assert h.send(3, PlaceBet("b3", "ante", 10))["type"] == "accepted"
    bets = h.machine.table_bets()
    # Two players have bets (player 1's two hands are one player), 50 in all.
    assert (bets["players"], bets["total"]) == (2, 50)
    listed = bets["listed"]
    assert [(r["id"], r["seat"], r.get("behind"), r["total"]) for r in listed] == [
        (1, 1, None, 20),
        (3, 3, None, 20),
        (1, None, 3, 10),
    ]
    h.advance_until("pre_flop")
    game = h.machine.game_number
    # Seat 1 decides first (the player-dealer's left), then seat 3; the back-line
    # hand follows seat 3, its Play moved from what was held: nothing more reserved.
    assert h.send(3, Decide("d0", "play_4x"))["code"] == "wrong_phase"
    assert h.send(1, Decide("d1", "play_4x"))["type"] == "accepted"
    assert h.send(3, Decide("d3", "play_4x"))["type"] == "accepted"
    assert h.purse.reserved[1] == D(0)  # the Play held (20) is debited: all used
    h.advance_until("pause")
    out = h.take(1)
    note = {"type": "bank_left", "game_number": game}
    assert by_type(out, "bank_left") == [
        {**note, "player_id": 1, "seat": 1, "bank_left": 500},
        {**note, "player_id": 3, "seat": 3, "bank_left": 460},
        {**note, "player_id": 1, "seat": 3, "bank_left": 440},
    ]
    own, line = by_type(out, "settlement")
    assert line == {
        "type": "settlement",
        "game_number": game,
        "outcome": "win",
        "category": "two_pair",
        "best_five": ["As", "Ah", "Ks", "Kh", "Qs"],
        "wagers": {
            "ante": wager(5, "push", 0, 460),
            "blind": wager(5, "push", 0, 460),
            "trips": wager(0, "no_action", 0, 440, "no_wager"),
            "play": wager(20, "win", 20, 440),
            "bad_beat": wager(0, "no_action", 0, 440, "no_wager"),
        },
        "net": 20,
        "balance": 1020,
        "behind": 3,
    }
    assert (own["outcome"], own["net"], "behind" in own) == ("tie", 0, False)
    assert h.machine.snapshot(1)["last_back_line_result"] == line
    assert h.machine.snapshot(1)["last_result"] == own
    rid = max(h.books.status)
    assert h.books.entries == [
        ("debit", rid, 1, "ante", D(-10)),
        ("debit", rid, 1, "blind", D(-10)),
        ("debit", rid, 3, "ante", D(-10)),
        ("debit", rid, 3, "blind", D(-10)),
        ("debit", rid, 1, "ante", D(-5), "1@3"),
        ("debit", rid, 1, "blind", D(-5), "1@3"),
        ("debit", rid, 2, "bank", D(-500)),
        ("debit", rid, 1, "play", D(-40)),
        ("debit", rid, 3, "play", D(-40)),
        ("debit", rid, 1, "play", D(-20), "1@3"),
        ("credit", rid, 1, "ante", D(10)),
        ("credit", rid, 1, "blind", D(10)),
        ("credit", rid, 1, "play", D(40)),
        ("credit", rid, 3, "ante", D(10)),
        ("credit", rid, 3, "blind", D(10)),
        ("credit", rid, 3, "play", D(80)),
        ("credit", rid, 2, "bank", D(440)),
        ("credit", rid, 1, "ante", D(5), "1@3"),
        ("credit", rid, 1, "blind", D(5), "1@3"),
        ("credit", rid, 1, "play", D(40), "1@3"),
    ]
    assert h.books.balances == {1: D(1020), 2: D(940), 3: D(1040)}
    assert h.purse.reserved.get(1, D(0)) == 0  # the Play not needed is released
    h.check_money()
    h.check_replays()
    record = history.decode(h.books.kept[rid])
    assert (record.result["1@3"].net, record.result["1"].net) == (D(20), D(0))
    # The round's part of player 1 is their own hand's (the record has both).
    assert [p.player_id for p in h.books.records[rid].players] == [1, 3]


def test_the_seat_folds_and_the_back_line_hand_folds_with_it() -> None:
    h = table([SEAT_1_WINS] * 2, 500)
    h.send(1, PlaceBet("b1", "ante", 10))
    h.send(1, PlaceBet("b2", "ante", 10, behind=3))
    h.send(3, PlaceBet("b3", "ante", 10))
    h.advance_until("pre_flop")
    h.send(1, Decide("d1", "play_4x"))
    h.send(3, Decide("d3", "check"))
    h.advance_until("flop")
    h.send(3, Decide("d4", "check"))
    h.advance_until("river")
    assert h.send(3, Decide("d5", "fold"))["type"] == "accepted"
    h.advance_until("pause")
    line, own = sorted(by_type(h.take(1), "settlement"), key=lambda m: "behind" not in m)
    assert (line["outcome"], line["net"], line["behind"]) == ("fold", -20, 3)
    assert line["wagers"]["ante"]["coverage"] == "collected_at_fold"
    assert (own["outcome"], own["net"]) == ("win", 40)
    rid = max(h.books.status)
    assert [e for e in h.books.entries if e[2] == 1] == [
        ("debit", rid, 1, "ante", D(-10)),
        ("debit", rid, 1, "blind", D(-10)),
        ("debit", rid, 1, "ante", D(-10), "1@3"),
        ("debit", rid, 1, "blind", D(-10), "1@3"),
        ("debit", rid, 1, "play", D(-40)),
        ("credit", rid, 1, "ante", D(10)),
        ("credit", rid, 1, "blind", D(10)),
        ("credit", rid, 1, "play", D(80)),
    ]
    assert h.books.balances == {1: D(1020), 2: D(1000), 3: D(980)}
    h.check_money()
    h.check_replays()


def test_the_bank_exhausted_before_the_back_line_hand_returns_it_uncovered() -> None:
    h = table([SEAT_3_WINS] * 2, 100)
    h.send(1, PlaceBet("b1", "ante", 10))
    h.send(1, PlaceBet("b2", "ante", 5, behind=3))
    h.send(3, PlaceBet("b3", "ante", 25))
    h.advance_until("pre_flop")
    h.send(1, Decide("d1", "play_4x"))  # a tie: all pushed
    h.send(3, Decide("d3", "play_4x"))  # 100: the whole bank
    h.advance_until("pause")
    out = h.take(1)
    assert [m["bank_left"] for m in by_type(out, "bank_left")] == [100, 0, 0]
    _, line = by_type(out, "settlement")
    assert line["wagers"]["play"] == wager(20, "no_action", 0, 0, "returned_uncovered")
    assert line["net"] == 0
    assert h.books.balances == {1: D(1000), 2: D(900), 3: D(1100)}
    h.check_money()
    h.check_replays()


def test_the_bank_exhausted_after_the_back_line_hand_covers_it_and_not_the_next_seat() -> None:
    # Seat 1 Ac Kc and seat 3 As Ks: both two pair, both win. Player 3 bets behind
    # seat 1: settled right after it, before player 3's own seat.
    h = table(["Ac Kc As Ks 5c 6d Ah Kh Qs 7c 8d"] * 2, 100)
    h.send(1, PlaceBet("b1", "ante", 10))
    h.send(3, PlaceBet("b2", "ante", 10, behind=1))
    h.send(3, PlaceBet("b3", "ante", 10))
    h.advance_until("pre_flop")
    h.send(1, Decide("d1", "play_4x"))
    h.send(3, Decide("d3", "play_4x"))
    h.advance_until("pause")
    out = h.take(3)
    assert [(m["player_id"], m["seat"], m["bank_left"]) for m in by_type(out, "bank_left")] == [
        (1, 1, 60),
        (3, 1, 20),
        (3, 3, 0),
    ]
    line, own = by_type(out, "settlement")
    assert line["behind"] == 1
    assert line["wagers"]["play"] == wager(40, "win", 40, 20)
    assert own["wagers"]["play"] == wager(40, "win", 20, 0, "partial")
    assert (own["net"], line["net"]) == (20, 40)
    assert h.books.balances == {1: D(1040), 2: D(900), 3: D(1060)}
    h.check_money()
    h.check_replays()


def test_undo_double_and_repeat_act_on_the_hand_they_name() -> None:
    h = table([SEAT_3_WINS] * 4, 500)
    h.send(1, PlaceBet("b1", "ante", 10))
    h.send(1, PlaceBet("b2", "ante", 5, behind=3))
    h.send(3, PlaceBet("b3", "ante", 10))
    # Refused: behind the player's own seat, behind the player-dealer, behind a
    # second seat while bets stand behind seat 3, Undo/Double behind a seat the
    # player has no bet behind.
    assert h.send(1, PlaceBet("x1", "ante", 5, behind=1))["message"] == (
        "behind: you sit at seat 1; bet there without behind"
    )
    assert h.send(1, PlaceBet("x2", "ante", 5, behind=1 + 1))["message"] == (
        "behind: your bets this round are behind seat 3"
    )
    assert h.send(3, PlaceBet("x6", "ante", 5, behind=2))["message"] == (
        "behind: seat 2 is the player-dealer's, it has no hand"
    )
    assert h.send(3, PlaceBet("x3", "ante", 5, behind=1))["type"] == "accepted"
    assert h.send(3, Undo("x4", None, 1))["type"] == "accepted"
    assert h.send(1, Undo("x5", None, 2))["message"] == "behind: you have no bet behind seat 2"
    reply = h.send(1, Double("d1", None, 3))
    assert (reply["state"]["bets"]["ante"], reply["state"]["back_line"]["bets"]["ante"]) == (
        10,
        10,
    )
    assert reply["state"]["balance"] == 1000 - 20 - 20 - 40
    reply = h.send(1, Double("d2"))
    assert (reply["state"]["bets"]["ante"], reply["state"]["back_line"]["bets"]["ante"]) == (
        20,
        10,
    )
    reply = h.send(1, Undo("u1", None, 3))
    assert (reply["state"]["bets"]["ante"], reply["state"]["back_line"]["bets"]["ante"]) == (
        20,
        5,
    )
    assert reply["state"]["balance"] == 1000 - 40 - 10 - 20
    reply = h.send(1, Undo("u2"))
    assert (reply["state"]["bets"]["ante"], reply["state"]["back_line"]["bets"]["ante"]) == (
        10,
        5,
    )
    h.advance_until("pre_flop")
    h.send(1, Decide("d4", "check"))
    h.send(3, Decide("d3", "check"))
    h.advance_until("pause")
    h.advance_until("offer")
    h.send(1, AnswerOffer("o3", False))
    h.send(2, AnswerOffer("o4", True, 500))
    assert h.machine.phase == "betting"
    reply = h.send(1, Repeat("r1", None, 3))  # the back-line hand's last bets
    assert reply["state"]["back_line"]["bets"]["ante"] == 5
    assert reply["state"]["bets"]["ante"] == 0
    reply = h.send(1, Repeat("r2"))  # the own hand's
    assert (reply["state"]["bets"]["ante"], reply["state"]["balance"]) == (10, 970 - 20 - 30)
    assert h.send(1, Repeat("r3", None, 3))["message"] == (
        "repeat: bets are already placed this round"
    )
    h.check_money()


def test_a_void_refunds_both_hands_of_the_player() -> None:
    h = table([SEAT_3_WINS] * 2, 500)
    h.send(1, PlaceBet("b1", "ante", 10))
    h.send(1, PlaceBet("b2", "ante", 5, behind=3))
    h.send(3, PlaceBet("b3", "ante", 10))
    h.advance_until("pre_flop")
    h.fail_next(fx.SettleRound, StorageDown("unreachable"))  # the round pauses
    h.send(1, Decide("d1", "play_3x"))
    h.send(3, Decide("d3", "play_4x"))
    assert h.machine.paused is not None  # every Play debited, the settlement not stored
    assert h.machine.request_void(h.machine.game_number or "", "test", "operator") == "voiding"
    h.run()
    rid = max(h.books.status)
    assert h.books.status[rid] == "voided"
    assert sorted(e for e in h.books.entries if e[2] == 1 and e[0] == "refund") == [
        ("refund", rid, 1, "ante", D(5), "1@3"),
        ("refund", rid, 1, "ante", D(10)),
        ("refund", rid, 1, "blind", D(5), "1@3"),
        ("refund", rid, 1, "blind", D(10)),
        ("refund", rid, 1, "play", D(20), "1@3"),
        ("refund", rid, 1, "play", D(30)),
    ]
    assert h.books.balances == {1: D(1000), 2: D(1000), 3: D(1000)}
    assert h.purse.reserved.get(1, D(0)) == 0
    assert "round_voided" in [m["type"] for m in h.take(1)]
    h.check_money()
    h.check_replays()


def test_the_back_line_play_is_held_so_another_table_cannot_spend_it() -> None:
    h = table(["As Ks 5c 6d Ah Kh Qs 7c 8d"] * 2, 500)  # seat 3 alone: As Ks
    h.send(1, PlaceBet("b1", "ante", 50, behind=3))  # 100 and the largest Play, 200
    h.send(3, PlaceBet("b3", "ante", 10))
    assert h.purse.available(1) == D(700)
    h.advance_until("pre_flop")
    # Player 1 bets the rest of their balance at another table; then seat 3 raises
    # 4x (the round has no other decision: it is settled at once).
    h.purse.reserve(1, D(700), field="amount")
    assert h.send(3, Decide("d3", "play_4x"))["type"] == "accepted"
    h.advance_until("pause")
    rid = max(h.books.status)
    assert [e for e in h.books.entries if e[2] == 1] == [
        ("debit", rid, 1, "ante", D(-50), "1@3"),
        ("debit", rid, 1, "blind", D(-50), "1@3"),
        ("debit", rid, 1, "play", D(-200), "1@3"),
        ("credit", rid, 1, "ante", D(50), "1@3"),
        ("credit", rid, 1, "blind", D(50), "1@3"),
        ("credit", rid, 1, "play", D(400), "1@3"),
    ]
    assert h.books.balances[1] == D(1200)
    assert h.purse.available(1) == D(500)  # only the other table's 700 reserved
    h.purse.release(1, D(700))
    h.check_money()
    h.check_replays()


def test_a_bet_behind_a_seat_without_a_hand_is_declined_naming_the_seat() -> None:
    """Player 1 bets at seat 1 and behind seat 3; player 3 (seat 3) does not bet:
    when betting closes the back-line bet is declined, its stake and the Play held
    for it given back; the reason names seat 3, not player 3's hand id.
    """
    h = table([SEAT_3_WINS] * 2, 500)
    assert h.send(1, PlaceBet("b1", "ante", 10))["type"] == "accepted"
    assert h.send(1, PlaceBet("b2", "ante", 5, behind=3))["state"]["balance"] == 950
    h.advance_until("pre_flop")
    game = h.machine.game_number
    assert by_type(h.take(1), "bets_declined") == [
        {
            "type": "bets_declined",
            "game_number": game,
            "code": "outside_limits",
            "reason": "behind: seat 3 has no hand in this round",
            "field": "behind",
        }
    ]
    assert h.machine.funds.available(1) == D(980)  # only the seat's 20 stay in play


def test_the_player_dealer_cannot_repeat_last_rounds_bets() -> None:
    """Player 3 bets at seat 3 in the first round, then banks the second: Repeat
    is refused as a bet is (the player-dealer does not bet), and nothing is placed.
    """
    h = table([SEAT_3_WINS] * 3, 500)
    assert h.send(3, PlaceBet("b1", "ante", 10))["type"] == "accepted"
    h.advance_until("offer")  # seat 3's hand checked to the river, then folded by the timer
    h.send(2, AnswerOffer("o3", False))
    assert h.send(3, AnswerOffer("o4", True, 200))["type"] == "accepted"
    h.advance_until("betting")
    reply = h.send(3, Repeat("r1"))
    assert (reply["type"], reply["code"]) == ("error", "wrong_phase")
    assert reply["message"] == "repeat: the player-dealer does not bet"
    assert h.machine.table_bets()["players"] == 0


def test_a_player_without_a_seat_undoes_and_doubles_only_behind_their_seat() -> None:
    """Player 4 has no seat and bets behind seat 3: Undo and Double naming another
    seat are refused naming the seat their bets are behind, and change nothing;
    naming seat 3, or no seat, they act on that one hand.
    """
    room = PlayerDealerBank(preset("california"), offer_seconds=5)
    balances = {pid: D(1000) for pid in (1, 2, 3, 4)}
    h = Host("california", balances, decks=[deck(SEAT_3_WINS)] * 2, banking=room)
    for pid in (1, 2, 3, 4):
        h.join(pid)
    for pid in (1, 2, 3):
        assert h.send(pid, Sit(f"sit{pid}", pid))["type"] == "accepted"
    h.advance_until("offer")
    h.send(1, AnswerOffer("o1", False))
    assert h.send(2, AnswerOffer("o2", True, 500))["type"] == "accepted"
    reply = h.send(4, PlaceBet("b1", "ante", 10, behind=3))
    # Ante and Blind 10 each, and the largest Play it may follow (4 x 10) held.
    assert (reply["state"]["balance"], reply["state"]["behind"]) == (D(940), 3)
    for command in (Double("d1", None, 1), Undo("u1", None, 1)):
        refused = h.send(4, command)
        assert (refused["code"], refused["message"]) == (
            "wrong_phase",
            "behind: your bets this round are behind seat 3",
        )
    state = h.machine.state(4)
    assert (state["balance"], state["bets"]["ante"], state["behind"]) == (D(940), D(10), 3)
    doubled = h.send(4, Double("d2", None, 3))["state"]
    assert (doubled["balance"], doubled["bets"]["ante"]) == (D(880), D(20))
    undone = h.send(4, Undo("u2"))["state"]
    assert (undone["balance"], undone["bets"]["ante"]) == (D(940), D(10))
