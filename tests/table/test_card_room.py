"""The card-room configuration of the table machine (issue 13; seeds 000, 002;
RULES.md "Who banks", "A round", "Order of decisions"): the offer of the
player-dealer position, decisions in turn, back-line bets, the bank in the ledger.
Plain calls, no event loop (machine_host). California rules, 10 s betting (3 s
yellow), 10 s decisions, a 2 s pause, 5 s per offer.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest
from machine_host import Host, deck

from uth.cards import PreparedDeck, stacked_deck
from uth.engine import Round, history
from uth.engine.banking import OfferStep, RotationState
from uth.engine.table import AnswerOffer, Decide, Leave, PlaceBet, PlayerDealerBank, Sit
from uth.engine.table.cardroom import RoomResume, resumed
from uth.errors import InvalidDealError
from uth.rules import preset

D = Decimal
#: Seat 1 gets As Ks, the dealer 5c 6d, the board Ah Kh Qs 7c 8d (no qualifier).
ONE_SEAT = "As Ks 5c 6d Ah Kh Qs 7c 8d"
GAME = "20261130-120002-0001"


def at(second: int) -> str:
    return f"2026-11-30T12:00:{second:02d}+00:00"


def room(
    players: int, decks: list[str], *, backer: tuple[int, str] | None = None
) -> tuple[Host, PlayerDealerBank]:
    """A California table with ``players`` accounts of 1000 (and the backer's)."""
    bank = PlayerDealerBank(preset("california"), backer=backer, offer_seconds=5)
    balances = {pid: D(1000) for pid in range(1, players + 1)}
    if backer is not None:
        balances[backer[0]] = D(5000)
    h = Host("california", balances, decks=[deck(d) for d in decks], banking=bank)
    return h, bank


def seated(h: Host, seats: dict[int, int]) -> None:
    """Players join (and take ``seats``) in the first pause; then the offer opens."""
    assert h.machine.phase == "pause"  # nobody was seated at the first offer
    for pid in range(1, len(h.initial) + 1):
        if pid in h.initial:
            h.join(pid)
    for pid, number in seats.items():
        assert h.send(pid, Sit(f"sit{pid}", number))["type"] == "accepted"
    h.advance_until("offer")


def offer(to: int, name: str, seat: int | None, deadline: int, you: bool) -> dict[str, Any]:
    return {
        "type": "offer",
        "player_id": to,
        "name": name,
        "seat": seat,
        "deadline": at(deadline),
        "min_bank": 100,
        "max_bank": 100000,
        "to_you": you,
    }


def dealer(bank: int, left: int, pid: int = 2, seat: int | None = 2) -> dict[str, Any]:
    return {"player_id": pid, "name": f"p{pid}", "seat": seat, "bank": bank, "bank_left": left}


def test_a_card_room_round_one_banking_one_behind_a_seat() -> None:
    h, bank = room(3, [ONE_SEAT, ONE_SEAT])
    seated(h, {1: 1, 2: 2})
    # Everyone is told who sits where as the seats are taken (issue 13, who sits where).
    one = {"seat": 1, "player_id": 1, "name": "p1"}
    two = {"seat": 2, "player_id": 2, "name": "p2"}
    sits = [{"type": "seats", "seats": [one]}, {"type": "seats", "seats": [one, two]}]
    # The offer starts at seat 1: player 1 declines, player 2 banks 500.
    assert [h.take(p) for p in (1, 2, 3)] == [
        [*sits, offer(1, "p1", 1, 7, True)],
        [*sits, offer(1, "p1", 1, 7, False)],
        [*sits, offer(1, "p1", 1, 7, False)],
    ]
    # A reload during the offer: the snapshot has the seats and the offer's form.
    snap = h.machine.snapshot(1)
    assert (snap["seats"], snap["offer"]) == (
        [one, two],
        {k: v for k, v in offer(1, "p1", 1, 7, True).items() if k != "type"},
    )
    assert h.machine.snapshot(3)["offer"]["to_you"] is False
    assert h.send(2, AnswerOffer("o0", False))["code"] == "not_offered"
    assert h.send(1, AnswerOffer("o1", False))["type"] == "accepted"
    assert h.send(2, AnswerOffer("o2", True, 100001))["code"] == "over_limit"
    assert h.send(2, AnswerOffer("o3", True, 1001))["code"] == "insufficient_funds"
    reply = h.send(2, AnswerOffer("o4", True, 500))
    assert reply["state"]["balance"] == 500  # the bank is reserved at once
    banker = {"type": "banker", "player_id": 2, "name": "p2", "seat": 2, "bank": 500}
    for pid in (1, 2, 3):
        got = h.take(pid)
        assert got[0] == offer(2, "p2", 2, 7, pid == 2)
        assert got[1] == {**banker, "declined": ["p1"]}
        assert got[2]["type"] == "state" and got[2]["player_dealer"] == dealer(500, 500)
        assert got[2]["turn"] is None
        assert got[3]["type"] == "betting_open" and got[3]["game_number"] == GAME
    # Betting: the seat bets, the back-line bettor bets behind seat 1, the banker cannot.
    assert h.send(1, PlaceBet("b1", "ante", 10))["type"] == "accepted"
    assert h.send(3, PlaceBet("b2", "ante", 5))["code"] == "not_seated"
    assert h.send(3, PlaceBet("b3", "ante", 5, behind=2))["code"] == "not_seated"
    assert h.send(3, PlaceBet("b6", "ante", 300, behind=1))["message"] == (
        "behind: a back-line bet needs funds for the largest Play it may follow (1200.00) "
        "besides its wagers"
    )
    assert h.send(3, PlaceBet("b4", "ante", 5, behind=1))["type"] == "accepted"
    assert h.send(2, PlaceBet("b5", "ante", 5))["message"] == (
        "place_bet: the player-dealer does not bet"
    )
    assert h.send(1, Sit("s9", 4))["code"] == "wrong_phase"  # seats change between rounds
    h.advance_until("pre_flop")
    turn = {"seat": 1, "player_id": 1, "deadline": at(22)}
    for pid in (1, 2, 3):
        last = h.take(pid)[-1]
        assert (last["type"], last["turn"], last["player_dealer"]) == (
            "state",
            turn,
            dealer(500, 500),
        )
    # Only seat 1 decides; the back-line bet follows it.
    assert h.send(3, Decide("d3", "play_4x"))["message"] == (
        "decide: it is not your turn on the pre_flop"
    )
    assert h.send(1, Decide("d1", "play_4x"))["type"] == "accepted"
    h.advance_until("pause")
    out = {pid: h.take(pid) for pid in (1, 2, 3)}
    settlement = {m["type"]: m for m in out[1]}["settlement"]
    assert settlement["wagers"]["play"] == {
        "stake": 40,
        "result": "win",
        "net": 40,
        "bank_left": 460,
        "coverage": "action",
    }
    assert (settlement["net"], settlement["balance"]) == (40, 1040)
    behind = {m["type"]: m for m in out[3]}["settlement"]
    assert behind["wagers"]["play"] == {
        "stake": 20,
        "result": "win",
        "net": 20,
        "bank_left": 440,
        "coverage": "action",
    }
    assert {m["type"]: m for m in out[2]}["settlement"] == {
        "type": "settlement",
        "game_number": GAME,
        "outcome": "lose",
        "category": "high_card",
        "best_five": ["Ah", "Kh", "Qs", "8d", "7c"],
        "wagers": {
            "bank": {
                "stake": 500,
                "result": "lose",
                "net": -60,
                "bank_left": 440,
                "coverage": "action",
            }
        },
        "net": -60,
        "balance": 940,
    }
    assert [m["player_dealer"] for m in out[2] if m["type"] == "state"] == [dealer(500, 440)]
    # The ledger to the cent: the bank debited at the open, 440 back at settlement.
    assert h.books.entries == [
        ("debit", 1, 1, "ante", D("-10")),
        ("debit", 1, 1, "blind", D("-10")),
        ("debit", 1, 3, "ante", D("-5")),
        ("debit", 1, 3, "blind", D("-5")),
        ("debit", 1, 2, "bank", D("-500")),
        ("debit", 1, 1, "play", D("-40")),
        ("debit", 1, 3, "play", D("-20")),
        ("credit", 1, 1, "ante", D("10")),
        ("credit", 1, 1, "blind", D("10")),
        ("credit", 1, 1, "play", D("80")),
        ("credit", 1, 3, "ante", D("5")),
        ("credit", 1, 3, "blind", D("5")),
        ("credit", 1, 3, "play", D("40")),
        ("credit", 1, 2, "bank", D("440")),
    ]
    assert h.books.balances == {1: D(1040), 2: D(940), 3: D(1020)}
    h.check_money()
    h.check_replays()
    record = history.decode(h.books.kept[1])
    assert (record.player_dealer, record.bank, record.deck_colour) == ("2", D(500), "blue")
    assert [(o.player, o.seat, o.outcome, o.bank) for o in record.offers] == [
        ("1", 1, "declined", None),
        ("2", 2, "accepted", D(500)),
    ]
    assert bank.banker is None and bank.rotation.streak == ("2", 1)


def test_decisions_in_turn_each_with_its_timer() -> None:
    # Seat 1: As Ks, seat 3: 2c 3d; the dealer 5c 6d.
    h, _ = room(3, ["As Ks 2c 3d 5c 6d Ah Kh Qs 7c 8d"] * 2)
    seated(h, {1: 1, 2: 2, 3: 3})
    h.send(1, AnswerOffer("o1", False))
    h.send(2, AnswerOffer("o2", True, 100))
    h.send(1, PlaceBet("b1", "ante", 10))
    h.send(3, PlaceBet("b3", "ante", 10))
    h.advance_until("pre_flop")
    h.take(3)
    assert h.send(3, Decide("d3", "check"))["code"] == "wrong_phase"
    h.advance(10)  # seat 1's timer: AUTO CHECKED; seat 3's window opens
    msgs = h.take(3)
    assert [m["type"] for m in msgs] == ["decision", "decision_required", "state"]
    assert msgs[2]["turn"] == {"seat": 3, "player_id": 3, "deadline": at(32)}
    assert h.machine.seats[1].decisions == ["auto:check"]
    assert h.send(1, Decide("d1", "check"))["code"] == "wrong_phase"
    assert h.send(3, Decide("d3b", "check"))["type"] == "accepted"
    assert h.machine.phase == "flop"
    h.advance_until("pause")  # flop checks, river folds by the timers
    assert h.machine.seats[1].decisions == ["auto:check", "auto:check", "auto:fold"]
    h.check_money()
    h.check_replays()
    # Two folds: 40 collected for the bank (100 + 40 back).
    assert h.books.balances == {1: D(980), 2: D(1040), 3: D(980)}


def test_nobody_banks_no_round_is_dealt() -> None:
    h, bank = room(2, [])
    h.join(1)  # watching, not seated: nobody to offer the position to
    h.advance(2)
    assert [m.get("code") for m in h.take(1)] == ["no_players", None]  # no_banker, pause
    # A reload says so too: nobody seated, nobody declined.
    assert {k: h.machine.snapshot(1)[k] for k in ("declined", "no_banker", "offer")} == {
        "declined": [],
        "no_banker": "no_players",
        "offer": None,
    }
    seated(h, {1: 1, 2: 2})
    h.take(1)
    fields = ("declined", "no_banker")
    assert {k: h.machine.snapshot(1)[k] for k in fields} == {"declined": [], "no_banker": None}
    h.send(1, AnswerOffer("o1", False))
    # While the offer is open, a reload names who declined so far.
    assert {k: h.machine.snapshot(2)[k] for k in fields} == {"declined": ["p1"], "no_banker": None}
    h.advance(5)  # player 2 does not answer in time: declined
    assert h.take(1)[-3:] == [
        offer(2, "p2", 2, 9, False),
        {
            "type": "no_banker",
            "code": "all_declined",
            "message": "Nobody accepted the bank: no round is dealt.",
            "declined": ["p1", "p2"],
        },
        {
            "type": "pause",
            "now": at(9),
            "deadline": at(11),
            "seconds_left": 2.0,
        },
    ]
    assert h.books.status == {} and bank.rotation.in_round is False
    # Until the next offer a reload says nobody banks, and who declined.
    assert {k: h.machine.snapshot(1)[k] for k in fields} == {
        "declined": ["p1", "p2"],
        "no_banker": "all_declined",
    }
    h.advance(2)  # the next offer starts afresh
    assert h.machine.phase == "offer"
    assert {k: h.machine.snapshot(1)[k] for k in fields} == {"declined": [], "no_banker": None}


def test_the_backer_banks_when_every_player_declines() -> None:
    h, _ = room(2, [ONE_SEAT, ONE_SEAT], backer=(9, "backer"))
    h.advance_until("pause")  # the backer banked the first round; nobody bet
    seated(h, {1: 1, 2: 2})
    # After a round of the backer's the offer starts one seat further: seat 2.
    assert h.send(2, AnswerOffer("o2", False))["type"] == "accepted"
    assert h.send(1, AnswerOffer("o1", False))["type"] == "accepted"
    got = [m for m in h.take(1) if m["type"] in ("offer", "banker")][-2:]
    assert got == [
        {
            "type": "offer",
            "player_id": 9,
            "name": "backer",
            "seat": None,
            "deadline": at(12),
            "min_bank": 100,
            "max_bank": 100000,
            "to_you": False,
        },
        {
            "type": "banker",
            "player_id": 9,
            "name": "backer",
            "seat": None,
            "bank": 5000,
            "declined": ["p2", "p1"],
        },
    ]
    h.send(1, PlaceBet("b1", "ante", 10))
    h.advance_until("pause")  # timers: check, check, fold at the river
    assert h.books.balances[9] == D(5020) and h.books.balances[1] == D(980)


def test_the_banker_is_passed_over_after_two_rounds() -> None:
    h, _ = room(2, [ONE_SEAT] * 4)
    seated(h, {1: 1, 2: 2})
    for n in range(3):
        if n < 2:
            h.send(1, AnswerOffer(f"o{n}", True, 100))
        h.send(2, AnswerOffer(f"q{n}", True, 100))
        bankers = [m for m in h.take(2) if m["type"] == "banker"]
        if n == 2:  # player 1 banked two rounds: the offer starts at seat 2 now
            assert bankers == [
                {
                    "type": "banker",
                    "player_id": 2,
                    "name": "p2",
                    "seat": 2,
                    "bank": 100,
                    "declined": [],
                }
            ]
            break
        assert [b["player_id"] for b in bankers] == [1]
        h.send(2, PlaceBet(f"b{n}", "ante", 10))
        h.advance_until("pause")
        h.advance_until("offer")
    h.check_money()
    h.check_replays()


def test_a_void_mid_round_refunds_the_bank_and_an_empty_round_releases_it() -> None:
    h, bank = room(2, [ONE_SEAT, ONE_SEAT])
    seated(h, {1: 1, 2: 2})
    h.send(1, AnswerOffer("o1", True, 300))
    assert h.purse.available(1) == D(700)
    h.advance_until("pause")  # nobody bet: no round, the reservation is given back
    assert h.purse.available(1) == D(1000) and h.books.entries == []
    assert bank.rotation.streak == (None, 0)  # a round not dealt does not count
    h.advance_until("offer")
    h.send(1, AnswerOffer("o2", True, 300))
    h.send(2, PlaceBet("b2", "ante", 10))
    h.advance_until("pre_flop")
    assert h.machine.request_void(h.machine.game_number or "", "test", "operator") == "voiding"
    h.run()
    h.advance_until("pause")
    rid = max(h.books.status)
    assert h.books.status[rid] == "voided"
    assert [e for e in h.books.entries if e[2] == 1] == [
        ("debit", rid, 1, "bank", D(-300)),
        ("refund", rid, 1, "bank", D(300)),
    ]
    assert h.books.balances == {1: D(1000), 2: D(1000)}
    h.check_money()
    h.check_replays()
    assert history.decode(h.books.kept[rid]).player_dealer == "1"


def test_the_bank_goes_down_seat_by_seat_and_the_seats_are_told() -> None:
    # Seat 1 As Ks, seat 3 2c 3d, seat 4 Qd Jd; the dealer 5c 6d (no qualifier).
    h, _ = room(4, ["As Ks 2c 3d Qd Jd 5c 6d Ah Kh Qs 7c 8d"] * 2)
    seated(h, {1: 1, 2: 2, 3: 3, 4: 4})
    h.send(1, AnswerOffer("o1", False))
    h.send(2, AnswerOffer("o2", True, 500))
    for pid in (1, 3, 4):
        h.send(pid, PlaceBet(f"b{pid}", "ante", 10))
    h.advance_until("pre_flop")
    assert h.send(1, Decide("d1", "play_4x"))["type"] == "accepted"
    h.advance(10)  # seat 3 is checked by its timer
    assert h.send(4, Decide("d4", "play_4x"))["type"] == "accepted"
    game = h.machine.game_number
    h.advance_until("pause")  # seat 3 checks on the flop and folds at the river
    # Seat 3's fold is collected first (+20), then the showdown seat by seat in the
    # engine's settlement order: seat 1's Play wins 40, seat 4's Play wins 40.
    note = {"type": "bank_left", "game_number": game}
    for pid in (1, 2, 3, 4):
        assert [m for m in h.take(pid) if m["type"] == "bank_left"] == [
            {**note, "player_id": 3, "seat": 3, "bank_left": 520},
            {**note, "player_id": 1, "seat": 1, "bank_left": 480},
            {**note, "player_id": 4, "seat": 4, "bank_left": 440},
        ]
    assert h.books.balances == {1: D(1040), 2: D(940), 3: D(980), 4: D(1040)}
    h.check_money()
    # The offer is over: the snapshot has no offer; a player who leaves frees the seat.
    assert h.machine.snapshot(1)["offer"] is None
    h.disconnect(3)
    seats = [
        {"seat": 1, "player_id": 1, "name": "p1"},
        {"seat": 2, "player_id": 2, "name": "p2"},
        {"seat": 4, "player_id": 4, "name": "p4"},
    ]
    assert h.take(1) == [{"type": "seats", "seats": seats}]
    assert h.machine.snapshot(4)["seats"] == seats


def test_a_restored_rotation_passes_over_who_banked_twice_before_the_restart() -> None:
    # Before the restart player 1 banked two settled rounds in a row at seat 1 and
    # the last round dealt took the blue deck (RoomResume from the kept rounds).
    restored = RotationState("1", 2, 2)
    bank = PlayerDealerBank(preset("california"), offer_seconds=5, rotation=restored)
    balances = {1: D(1000), 2: D(1000)}
    h = Host("california", balances, decks=[deck(ONE_SEAT)] * 2, banking=bank, first_colour="red")
    # Player 1 sits again at seat 2, where the offer starts: passed over (000).
    seated(h, {1: 2, 2: 3})
    sits = [m for m in h.take(1) if m["type"] != "seats"]
    assert sits == [offer(2, "p2", 3, 7, False)]
    assert h.machine.snapshot(1)["declined"] == ["p1"]
    assert h.send(1, AnswerOffer("o1", True, 100))["code"] == "not_offered"
    assert h.send(2, AnswerOffer("o2", True, 100))["type"] == "accepted"
    banker = [m for m in h.take(1) if m["type"] == "banker"]
    assert banker == [
        {"type": "banker", "player_id": 2, "name": "p2", "seat": 3, "bank": 100, "declined": ["p1"]}
    ]
    assert h.send(1, PlaceBet("b1", "ante", 10))["type"] == "accepted"
    h.advance_until("pause")
    record = history.decode(h.books.kept[1])
    # The colours go on alternating: red after the blue deck before the restart.
    assert record.deck_colour == "red"
    assert [(o.player, o.seat, o.outcome) for o in record.offers] == [
        ("1", 2, "passed_over"),
        ("2", 3, "accepted"),
    ]
    assert bank.rotation.state == RotationState("2", 1, 3)


def test_a_player_dealer_who_disconnects_mid_round_banks_it_to_the_end() -> None:
    # Seat 1 (As Ks) against the dealer's 5c 6d, board Ah Kh Qs 7c 8d: no qualifier.
    h, bank = room(3, [ONE_SEAT, ONE_SEAT])
    seated(h, {1: 1, 2: 2})
    h.join(3)  # watching
    h.send(1, AnswerOffer("o1", False))
    h.send(2, AnswerOffer("o2", True, 500))
    h.send(1, PlaceBet("b1", "ante", 10))
    h.advance_until("pre_flop")
    for pid in (1, 2, 3):
        h.take(pid)
    h.disconnect(2)  # the player-dealer's last connection closes
    # The seat and the bank stay: nobody is told of a seat change, the round goes on.
    both = [{"seat": 1, "player_id": 1, "name": "p1"}, {"seat": 2, "player_id": 2, "name": "p2"}]
    assert (h.take(1), h.take(3)) == ([], [])
    assert (h.machine.seats[2].number, h.machine.seats[2].connections) == (2, 0)
    assert bank.rotation.seats == {1: "1", 2: "2"}
    assert bank.banker is not None and (bank.banker.player_id, bank.banker.bank) == (2, D(500))
    snap = h.machine.snapshot(3)
    assert (snap["seats"], snap["player_dealer"]) == (both, dealer(500, 500))
    assert h.send(1, Decide("d1", "check"))["type"] == "accepted"
    assert h.machine.phase == "flop"  # mid-round still: the seat is kept
    assert [m["player_dealer"] for m in h.take(3) if m["type"] == "state"] == [dealer(500, 500)]
    assert h.machine.snapshot(1)["seats"] == both and bank.rotation.seats == {1: "1", 2: "2"}
    # Play 2x wins 20 against the bank (Ante and Blind push): 480 of the bank comes
    # back; the seat is freed as the round ends, right before the pause.
    assert h.send(1, Decide("d2", "play_2x"))["type"] == "accepted"
    got = h.take(3)
    assert [m["type"] for m in got] == [
        "decision",
        "turn_and_river_turned",
        "dealer_revealed",
        "antes_returned",
        "bank_left",
        "state",
        "seats",
        "pause",
    ]
    assert got[4]["bank_left"] == 480 and got[5]["player_dealer"] == dealer(500, 480)
    assert got[6] == {"type": "seats", "seats": [{"seat": 1, "player_id": 1, "name": "p1"}]}
    assert 2 not in h.machine.seats and bank.rotation.seats == {1: "1"} and bank.banker is None
    assert h.books.entries == [
        ("debit", 1, 1, "ante", D(-10)),
        ("debit", 1, 1, "blind", D(-10)),
        ("debit", 1, 2, "bank", D(-500)),
        ("debit", 1, 1, "play", D(-20)),
        ("credit", 1, 1, "ante", D(10)),
        ("credit", 1, 1, "blind", D(10)),
        ("credit", 1, 1, "play", D(40)),
        ("credit", 1, 2, "bank", D(480)),
    ]
    assert h.books.balances == {1: D(1020), 2: D(980), 3: D(1000)}
    assert h.purse.reserved.get(2, D(0)) == 0
    h.check_money()
    h.check_replays()
    assert history.decode(h.books.kept[1]).player_dealer == "2"


def test_a_player_dealer_cannot_leave_the_seat_mid_round() -> None:
    h, bank = room(2, [ONE_SEAT, ONE_SEAT])
    seated(h, {1: 1, 2: 2})
    h.send(1, AnswerOffer("o1", False))
    h.send(2, AnswerOffer("o2", True, 500))
    # Moving to another seat (the protocol's only way to leave a seat besides closing
    # the last connection) is refused from the offer to the end of the round.
    assert h.send(2, Sit("s1", 5)) == {
        "type": "error",
        "id": "s1",
        "code": "wrong_phase",
        "message": "sit: seats are taken between rounds only (phase betting)",
    }
    h.send(1, PlaceBet("b1", "ante", 10))
    h.advance_until("pre_flop")
    assert h.send(2, Sit("s2", 5)) == {
        "type": "error",
        "id": "s2",
        "code": "wrong_phase",
        "message": "sit: seats are taken between rounds only (phase pre_flop)",
    }
    # `leave` (the page hidden) declines only bets in the betting window: the
    # player-dealer has none; the position and the bank stay.
    reply = h.send(2, Leave("l1", "hidden"))
    assert (reply["type"], reply["declined"], reply["state"]["balance"]) == ("accepted", False, 500)
    assert bank.banker is not None and (bank.banker.player_id, bank.banker.seat) == (2, 2)
    assert bank.rotation.seats == {1: "1", 2: "2"} and h.machine.seats[2].number == 2
    h.advance_until("pause")  # the timers: check, check, fold; the bank collects 20
    assert h.books.balances == {1: D(980), 2: D(1020)}
    # Between rounds the seat may change.
    assert h.send(2, Sit("s3", 5))["type"] == "accepted"
    assert bank.rotation.seats == {1: "1", 5: "2"}
    h.check_money()
    h.check_replays()


def kept(banker: str, seat: int | None, colour: str | None) -> history.RoundRecord:
    """A card-room round's record banked by ``banker`` and dealt from ``colour``."""
    rnd = Round(preset("california"), game_id=GAME, bank=D(500))
    rnd.place_wagers("9", ante=10, seat=5)
    if colour is not None:
        rnd.close_betting(PreparedDeck(stacked_deck(()), colour))
    step = OfferStep(banker, seat, "accepted", D(500))
    return replace(history.record_of(rnd), player_dealer=banker, offers=(step,))


def test_resumed_from_the_kept_rounds() -> None:
    rules = preset("california")
    assert resumed(rules, []) == RoomResume(RotationState(None, 0, 1), None)
    rounds = [
        (kept("1", 1, "blue"), True),
        (kept("1", 1, "red"), True),
        (kept("2", 2, "blue"), False),  # voided after the deal: a deck, no streak
        (kept("2", 2, None), False),  # voided before the deal: no deck
    ]
    # Player 1 banked the last two settled rounds; the voided ones moved the start
    # to player 2's seat; blue was dealt last.
    assert resumed(rules, rounds[::-1]) == RoomResume(RotationState("1", 2, 2), "red")
    # An offer nobody accepted tells nothing; the backer moves it one seat on.
    declined = replace(kept("1", 1, None), offers=(OfferStep("1", 1, "declined"),))
    backer = kept("7", None, "red")
    more = [*rounds, (declined, True), (backer, True)]
    assert resumed(rules, more[::-1]) == RoomResume(RotationState("7", 1, 3), "blue")
    # A seat beyond the table's seats now (its rule set changed): seat 1.
    assert resumed(rules, [(kept("1", 9, "blue"), True)]).rotation.start == 1


def test_resumed_reads_back_only_as_far_as_it_needs() -> None:
    rules = preset("california")

    def newest_first() -> Iterator[tuple[history.RoundRecord, bool]]:
        yield kept("2", 2, "red"), True  # player 2 banked the last round...
        yield kept("1", 1, "blue"), True  # ...after player 1: nothing older matters
        raise AssertionError("read too far back")

    assert resumed(rules, newest_first()) == RoomResume(RotationState("2", 1, 2), "blue")


def test_resumed_is_the_rotation_after_every_kept_round() -> None:
    # Random tables of up to 12 kept rounds (three players, the backer; settled or
    # voided; dealt or not): reading back only as far as needed gives the state of
    # the rotation moved through every round in order (RotationState.after), and
    # the other colour than the last round dealt.
    rules = preset("california")
    bankers = [("1", 1), ("2", 2), ("3", 3), ("7", None)]
    pool = {(b, c): kept(b[0], b[1], c) for b in bankers for c in ("blue", "red", None)}
    rng = random.Random(13)
    for _ in range(500):
        rounds = [
            (pool[rng.choice(bankers), rng.choice(("blue", "red", None))], rng.random() < 0.8)
            for _ in range(rng.randrange(13))
        ]
        state, colour = RotationState(), None
        for record, was_settled in rounds:
            step = record.offers[-1]
            state = state.after(rules, step.player, step.seat, dealt=was_settled)
            colour = record.deck_colour or colour
        first = {"blue": "red", "red": "blue", None: None}[colour]
        assert resumed(rules, rounds[::-1]) == RoomResume(state, first), rounds


def test_a_first_colour_that_is_not_a_deck_colour_is_refused() -> None:
    with pytest.raises(InvalidDealError) as err:
        Host("california", {1: D(1000)}, first_colour="green")
    assert str(err.value) == "first_colour: must be one of blue, red, got 'green'"


def test_a_fold_that_meets_the_win_limit_is_partly_collected_and_returned() -> None:
    # RULES.md "A round" step 7 and "Who banks": folds are collected first, within the
    # player-dealer's win limit. Bank 100; the timers check twice and fold at the
    # river, seat 1 then seat 3. Seat 1's 80 is collected in full; of seat 3's Ante 30
    # only 20 is left to win, and its Blind finds no cover at all.
    h, _ = room(3, ["As Ks 2c 3d 5c 6d Ah Kh Qs 7c 8d"] * 2)
    seated(h, {1: 1, 2: 2, 3: 3})
    h.send(1, AnswerOffer("o1", False))
    h.send(2, AnswerOffer("o2", True, 100))
    h.send(1, PlaceBet("b1", "ante", 40))
    h.send(3, PlaceBet("b3", "ante", 30))
    game = h.machine.game_number
    h.advance_until("pause")
    assert h.machine.seats[3].decisions == ["auto:check", "auto:check", "auto:fold"]
    out = {pid: {m["type"]: m for m in h.take(pid)} for pid in (1, 3)}

    def line(stake: int, result: str, net: int, left: int, coverage: str) -> dict[str, Any]:
        return {
            "stake": stake,
            "result": result,
            "net": net,
            "bank_left": left,
            "coverage": coverage,
        }

    def folded(
        ante: dict[str, Any], blind: dict[str, Any], net: int, balance: int, **hand: Any
    ) -> dict[str, Any]:
        empty = line(0, "no_action", 0, blind["bank_left"], "no_wager")
        wagers = {"ante": ante, "blind": blind, "play": empty, "trips": empty, "bad_beat": empty}
        return {
            "type": "settlement",
            "game_number": game,
            "outcome": "fold",
            **hand,
            "wagers": wagers,
            "net": net,
            "balance": balance,
        }

    assert out[1]["settlement"] == folded(
        line(40, "lose", -40, 140, "collected_at_fold"),
        line(40, "lose", -40, 180, "collected_at_fold"),
        -80,
        920,
        category="two_pair",
        best_five=["As", "Ah", "Ks", "Kh", "Qs"],
    )
    assert out[3]["settlement"] == folded(
        line(30, "lose", -20, 200, "partial"),
        line(30, "no_action", 0, 200, "returned_uncovered"),
        -20,
        980,
        category="high_card",
        best_five=["Ah", "Kh", "Qs", "8d", "7c"],
    )
    assert [e for e in h.books.entries if e[0] == "credit"] == [
        ("credit", 1, 3, "ante", D(10)),
        ("credit", 1, 3, "blind", D(30)),
        ("credit", 1, 2, "bank", D(200)),
    ]
    assert h.books.balances == {1: D(920), 2: D(1100), 3: D(980)}
    h.check_money()
    h.check_replays()
