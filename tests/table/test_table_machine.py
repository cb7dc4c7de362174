"""The table machine driven by plain calls: no event loop, no database, no clock.

Each scenario asserts the exact messages each seat is sent and the exact ledger
entries (debits, credits, refunds) the machine asks for. Casino rules (seed 001:
seven seats, own hole cards), 10 s betting with 3 s yellow, 10 s decisions, a 2 s
pause (machine_host.SETTINGS). Deck: player 1 gets As Ks, player 2 gets 2c 3d, the
dealer 5c 6d, the board Ah Kh Qs 7c 8d (the dealer does not qualify).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from machine_host import Host, StorageDown, deck

from uth.engine.round import Round
from uth.engine.settlement import Settlement
from uth.engine.table import (
    REQUEST_IDS_PER_ROUND,
    Decide,
    Double,
    HouseBank,
    PlaceBet,
    Repeat,
    Undo,
)
from uth.engine.table import effects as fx
from uth.errors import InvalidDealError, UthError

GAME = "20261130-120000-0001"
DECK = "As Ks 2c 3d 5c 6d Ah Kh Qs 7c 8d"
D = Decimal


def at(second: int) -> str:
    return f"2026-11-30T12:00:{second:02d}+00:00"


def timer(now: int, deadline: int | None) -> dict[str, Any]:
    if deadline is None:
        return {"now": at(now), "deadline": None, "seconds_left": None}
    return {"now": at(now), "deadline": at(deadline), "seconds_left": float(deadline - now)}


def wagers(**results: tuple[int, str, int]) -> dict[str, Any]:
    """The settlement's wagers: ``kind=(stake, result, net)``; others no action."""
    out = {
        k: {"stake": 0, "result": "no_action", "net": 0}
        for k in ("ante", "blind", "trips", "bad_beat", "play")
    }
    for kind, (stake, result, net) in results.items():
        out[kind] = {"stake": stake, "result": result, "net": net}
    return out


def bets_placed(h: Host) -> None:
    """Players 1 (Ante 10) and 2 (Ante 5, Trips 5) bet; player 3 watches."""
    for pid in (1, 2, 3):
        h.join(pid)
    assert h.send(1, PlaceBet("a1", "ante", 10))["type"] == "accepted"
    assert h.send(2, PlaceBet("b1", "ante", 5))["type"] == "accepted"
    assert h.send(2, PlaceBet("b2", "trips", 5))["type"] == "accepted"


TABLE_BETS = {
    "type": "table_bets",
    "players": 2,
    "total": 35,
    "listed": [
        {"id": 1, "name": "p1", "seat": 1, "ante": 10, "trips": 0, "bad_beat": 0, "total": 20},
        {"id": 2, "name": "p2", "seat": 2, "ante": 5, "trips": 5, "bad_beat": 0, "total": 15},
    ],
}
BETTING_END = [
    TABLE_BETS,
    {"type": "light", "light": "yellow", **timer(7, 10)},
    {"type": "light", "light": "red", **timer(10, 10)},
]
DEBITS = [
    ("debit", 1, 1, "ante", D(-10)),
    ("debit", 1, 1, "blind", D(-10)),
    ("debit", 1, 2, "ante", D(-5)),
    ("debit", 1, 2, "blind", D(-5)),
    ("debit", 1, 2, "trips", D(-5)),
]


def closed(in_round: bool) -> dict[str, Any]:
    return {"type": "betting_closed", "game_number": GAME, "hands": 2, "in_round": in_round}


def asked(street: str, legal: list[str], hand: dict[str, Any], now: int) -> dict[str, Any]:
    return {
        "type": "decision_required",
        "street": street,
        "game_number": GAME,
        "legal_actions": legal,
        "hand": hand,
        **timer(now, now + 10),
    }


def decision(
    pid: int, street: str, action: str, *, auto: bool = False, play: int = 0
) -> dict[str, Any]:
    multiple = int(action.removeprefix("play_").removesuffix("x")) if play else 0
    return {
        "type": "decision",
        "player": str(pid),
        "street": street,
        "action": action,
        "multiple": multiple,
        "play": play,
        "auto": auto,
    }


FLOP = {"type": "flop_turned", "cards": ["Ah", "Kh", "Qs"]}
TURN_RIVER = {"type": "turn_and_river_turned", "cards": ["7c", "8d"]}
REVEAL = {
    "type": "dealer_revealed",
    "cards": ["5c", "6d"],
    "category": "high_card",
    "best_five": ["Ah", "Kh", "Qs", "8d", "7c"],
    "qualifies": False,
    "announcement": "Dealer has high card, does not qualify",
}
HIGH_2 = {"category": "high_card", "cards": ["3d", "2c"]}
HOLE = {1: ["As", "Ks"], 2: ["2c", "3d"]}
PRE_FLOP_HAND = {1: {"category": "high_card", "cards": ["As", "Ks"]}, 2: HIGH_2}
FLOP_HAND = {
    1: {"category": "two_pair", "cards": ["As", "Ah", "Ks", "Kh", "Qs"]},
    2: {"category": "high_card", "cards": ["Ah", "Kh", "Qs", "3d", "2c"]},
}
RIVER_HAND = {
    1: FLOP_HAND[1],
    2: {"category": "high_card", "cards": ["Ah", "Kh", "Qs", "8d", "7c"]},
}
ANTES_RETURNED = {"type": "antes_returned", "hands": 1}
SHOWN_1 = {
    "type": "hand_shown",
    "player": "1",
    "cards": ["As", "Ks"],
    "category": "two_pair",
    "best_five": ["As", "Ah", "Ks", "Kh", "Qs"],
    "outcome": "win",
}
#: Player 2's settlement after folding at the river (Ante, Blind, Trips lost).
SETTLED_2 = {
    "type": "settlement",
    "game_number": GAME,
    "outcome": "fold",
    "category": "high_card",
    "best_five": ["Ah", "Kh", "Qs", "8d", "7c"],
    "wagers": wagers(ante=(5, "lose", -5), blind=(5, "lose", -5), trips=(5, "lose", -5)),
    "net": -15,
    "balance": 985,
}
PAUSED_MESSAGE = "The round is paused: the issue is being investigated."


def settled_1(play: int) -> dict[str, Any]:
    """Player 1's settlement: two pair against a dealer who does not qualify, the
    Ante and Blind pushed, a Play of ``play`` won even money.
    """
    return {
        "type": "settlement",
        "game_number": GAME,
        "outcome": "win",
        "category": "two_pair",
        "best_five": ["As", "Ah", "Ks", "Kh", "Qs"],
        "wagers": wagers(ante=(10, "push", 0), blind=(10, "push", 0), play=(play, "win", play)),
        "net": play,
        "balance": 1000 + play,
    }


def dealt(pid: int) -> list[dict[str, Any]]:
    """What each seat is sent from the end of betting to the pre-flop question (at
    12:00:10): players 1 and 2 their own cards and the question, player 3 neither.
    """
    if pid == 3:
        return [*BETTING_END, closed(False)]
    return [
        *BETTING_END,
        closed(True),
        {"type": "hole_cards_dealt", "player": str(pid), "cards": HOLE[pid]},
        asked("pre_flop", ["play_4x", "play_3x", "check"], PRE_FLOP_HAND[pid], 10),
    ]


def pause(now: int) -> dict[str, Any]:
    """The 2 s pause after a round."""
    return {"type": "pause", **timer(now, now + 2)}


def paused(reason: str) -> dict[str, Any]:
    return {
        "type": "round_paused",
        "game_number": GAME,
        "reason": reason,
        "message": PAUSED_MESSAGE,
    }


def resumed(now: int) -> dict[str, Any]:
    return {"type": "round_resumed", "game_number": GAME, **timer(now, None)}


def voided(reason: str) -> dict[str, Any]:
    """``round_voided``: every wager refunded, so each balance is back to 1000."""
    return {"type": "round_voided", "game_number": GAME, "reason": reason, "balance": 1000}


REFUNDS = [
    ("refund", 1, 1, "ante", D(10)),
    ("refund", 1, 1, "blind", D(10)),
    ("refund", 1, 2, "ante", D(5)),
    ("refund", 1, 2, "blind", D(5)),
    ("refund", 1, 2, "trips", D(5)),
]


def test_a_whole_round_with_three_players_a_play_two_timeouts_and_a_watcher() -> None:
    h = Host("casino", decks=[deck(DECK)])
    bets_placed(h)
    assert [h.take(p) for p in (1, 2, 3)] == [[], [], []]  # the bets go out once a second
    h.advance_until("pre_flop")
    assert h.take(1) == [
        *BETTING_END,
        closed(True),
        {"type": "hole_cards_dealt", "player": "1", "cards": ["As", "Ks"]},
        asked(
            "pre_flop",
            ["play_4x", "play_3x", "check"],
            {"category": "high_card", "cards": ["As", "Ks"]},
            10,
        ),
    ]
    assert h.take(2) == [
        *BETTING_END,
        closed(True),
        {"type": "hole_cards_dealt", "player": "2", "cards": ["2c", "3d"]},
        asked("pre_flop", ["play_4x", "play_3x", "check"], HIGH_2, 10),
    ]
    assert h.take(3) == [*BETTING_END, closed(False)]
    assert h.books.entries == DEBITS

    reply = h.send(1, Decide("d1", "play_4x", "pre_flop"))
    assert reply["state"]["bets"] == {
        "ante": 10,
        "blind": 10,
        "trips": 0,
        "bad_beat": 0,
        "play": 40,
    }
    assert reply["state"]["balance"] == 940  # the Play is reserved at once
    assert h.take(1) == [decision(1, "pre_flop", "play_4x", play=40)]
    assert h.take(2) == h.take(3) == []
    h.advance(10)  # player 2's pre-flop time is up: AUTO CHECKED
    assert h.take(1) == [FLOP]
    assert h.take(2) == [
        decision(2, "pre_flop", "check", auto=True),
        FLOP,
        asked(
            "flop",
            ["play_2x", "check"],
            {"category": "high_card", "cards": ["Ah", "Kh", "Qs", "3d", "2c"]},
            20,
        ),
    ]
    assert h.take(3) == [FLOP]
    assert h.books.entries == [*DEBITS, ("debit", 1, 1, "play", D(-40))]

    assert h.send(2, Decide("d2", "check", "flop"))["type"] == "accepted"
    assert h.take(2) == [
        decision(2, "flop", "check"),
        TURN_RIVER,
        asked(
            "river",
            ["play_1x", "fold"],
            {"category": "high_card", "cards": ["Ah", "Kh", "Qs", "8d", "7c"]},
            20,
        ),
    ]
    assert h.take(1) == h.take(3) == [TURN_RIVER]
    assert h.machine.snapshot(3)["dealer"] is None
    assert h.machine.snapshot(1)["hole_cards"] == ["As", "Ks"]
    assert h.machine.snapshot(3)["board"] == ["Ah", "Kh", "Qs", "7c", "8d"]
    h.advance(10)  # the river's time is up: AUTO FOLDED
    assert h.take(1) == [REVEAL, ANTES_RETURNED, SHOWN_1, settled_1(40), pause(30)]
    assert h.take(2) == [
        decision(2, "river", "fold", auto=True),
        {"type": "hand_folded", "player": "2"},
        REVEAL,
        ANTES_RETURNED,
        SETTLED_2,
        pause(30),
    ]
    assert h.take(3) == [REVEAL, ANTES_RETURNED, pause(30)]
    # a reload at the showdown still shows the dealer's hand (before: never sent)
    assert h.machine.snapshot(3)["dealer"] == {
        "cards": ["5c", "6d"],
        "category": "high_card",
        "best_five": ["Ah", "Kh", "Qs", "8d", "7c"],
        "qualifies": False,
    }
    assert h.books.entries == [
        *DEBITS,
        ("debit", 1, 1, "play", D(-40)),
        ("credit", 1, 1, "ante", D(10)),
        ("credit", 1, 1, "blind", D(10)),
        ("credit", 1, 1, "play", D(80)),
    ]
    assert h.books.balances == {1: D(1040), 2: D(985), 3: D(1000)}
    record = h.books.records[1]
    assert [(p.player_id, p.decisions) for p in record.players] == [  # right to left (001)
        (2, ["auto:check", "check", "auto:fold"]),
        (1, ["play_4x"]),
    ]
    assert record.deck[:11] == DECK.split()
    assert isinstance(h.calls[-1], fx.Review)
    h.check_money()
    h.check_replays()

    h.advance(2)  # the next betting window; Repeat places the last bets again
    assert h.take(3) == [
        {
            "type": "betting_open",
            "game_number": "20261130-120032-0002",
            "light": "green",
            **timer(32, 42),
        }
    ]
    reply = h.send(1, Repeat("r1"))
    assert reply["state"]["bets"] == {"ante": 10, "trips": 0, "bad_beat": 0, "blind": 10, "play": 0}
    assert reply["state"]["balance"] == 1020
    h.check_money()
    h.check_replays()


def test_a_player_whose_last_connection_closes_while_betting_is_refunded_and_told_later() -> None:
    h = Host("casino", decks=[deck(DECK)])
    bets_placed(h)
    h.take(1)
    h.disconnect(1)
    assert 1 not in h.machine.seats
    assert h.purse.available(1) == 1000  # the reservation is released
    h.advance_until("pre_flop")
    assert h.take(2)[:3] == [
        {**TABLE_BETS, "players": 1, "total": 15, "listed": TABLE_BETS["listed"][1:]},
        {"type": "light", "light": "yellow", **timer(7, 10)},
        {"type": "light", "light": "red", **timer(10, 10)},
    ]
    assert h.books.entries == DEBITS[2:]
    snapshot = h.join(1)
    assert snapshot["state"]["bets"] == {
        "ante": 0,
        "trips": 0,
        "bad_beat": 0,
        "blind": 0,
        "play": 0,
    }
    assert snapshot["hole_cards"] == []
    assert h.machine.notices(1) == [
        {
            "type": "bets_declined",
            "game_number": GAME,
            "code": "left",
            "reason": "left: your last connection closed while betting was open; "
            "the bets were declined and refunded (004)",
        }
    ]
    assert h.machine.notices(1) == []  # given once
    h.check_money()
    h.check_replays()


def test_a_player_who_disconnects_in_the_round_stays_in_it_and_the_timer_decides() -> None:
    h = Host("casino", decks=[deck(DECK)])
    bets_placed(h)
    h.advance_until("pre_flop")
    h.disconnect(2)
    assert 2 in h.machine.seats  # a hand in play keeps its seat
    h.send(1, Decide("d1", "check", "pre_flop"))
    h.advance_until("flop")
    h.send(1, Decide("d2", "check", "flop"))
    h.advance_until("river")
    h.send(1, Decide("d3", "play_1x", "river"))
    h.advance_until("pause")
    assert h.take(1) == [
        *dealt(1),
        decision(1, "pre_flop", "check"),
        FLOP,
        asked("flop", ["play_2x", "check"], FLOP_HAND[1], 20),
        decision(1, "flop", "check"),
        TURN_RIVER,
        asked("river", ["play_1x", "fold"], RIVER_HAND[1], 30),
        decision(1, "river", "play_1x", play=10),
        REVEAL,
        ANTES_RETURNED,
        SHOWN_1,
        settled_1(10),
        pause(40),
    ]
    # The seat of player 2 (no connection left) is still sent its hand's messages;
    # the timer decides each street; gone before the pause, it is not sent that.
    assert h.take(2) == [
        *dealt(2),
        decision(2, "pre_flop", "check", auto=True),
        FLOP,
        asked("flop", ["play_2x", "check"], FLOP_HAND[2], 20),
        decision(2, "flop", "check", auto=True),
        TURN_RIVER,
        asked("river", ["play_1x", "fold"], RIVER_HAND[2], 30),
        decision(2, "river", "fold", auto=True),
        {"type": "hand_folded", "player": "2"},
        REVEAL,
        ANTES_RETURNED,
        SETTLED_2,
    ]
    assert h.take(3) == [*dealt(3), FLOP, TURN_RIVER, REVEAL, ANTES_RETURNED, pause(40)]
    record = h.books.records[1]
    assert [(p.player_id, p.decisions, p.outcome) for p in record.players] == [
        (2, ["auto:check", "auto:check", "auto:fold"], "fold"),
        (1, ["check", "check", "play_1x"], "win"),
    ]
    assert 2 not in h.machine.seats  # gone once the round is over
    assert h.books.entries == [
        *DEBITS,
        ("debit", 1, 1, "play", D(-10)),
        ("credit", 1, 1, "ante", D(10)),
        ("credit", 1, 1, "blind", D(10)),
        ("credit", 1, 1, "play", D(20)),
    ]
    assert h.books.status == {1: "settled"}
    assert h.books.balances == {1: D(1010), 2: D(985), 3: D(1000)}
    h.advance(2)  # the next window is opened to those still here
    opened = {
        "type": "betting_open",
        "game_number": "20261130-120042-0002",
        "light": "green",
        **timer(42, 52),
    }
    assert [h.take(p) for p in (1, 2, 3)] == [[opened], [], [opened]]
    h.check_money()
    h.check_replays()


def test_an_operator_void_on_the_flop_refunds_every_wager_and_shows_no_dealer_card() -> None:
    h = Host("casino", decks=[deck(DECK)])
    bets_placed(h)
    h.advance_until("pre_flop")
    h.send(1, Decide("d1", "play_4x", "pre_flop"))
    h.advance(10)
    for pid in (1, 2, 3):
        h.take(pid)
    assert h.machine.request_void(GAME, "dealer error", "operator") == "voiding"
    h.run()
    assert h.machine.phase == "pause"  # voided, then the pause before the next window
    for pid, balance in ((1, 1000), (2, 1000), (3, 1000)):
        assert h.take(pid) == [
            {
                "type": "round_voided",
                "game_number": GAME,
                "reason": "dealer error",
                "balance": balance,
            },
            {"type": "pause", **timer(20, 22)},
        ]
    assert h.books.entries == [
        *DEBITS,
        ("debit", 1, 1, "play", D(-40)),
        ("refund", 1, 1, "ante", D(10)),
        ("refund", 1, 1, "blind", D(10)),
        ("refund", 1, 2, "ante", D(5)),
        ("refund", 1, 2, "blind", D(5)),
        ("refund", 1, 2, "trips", D(5)),
        ("refund", 1, 1, "play", D(40)),
    ]
    assert h.books.status == {1: "voided"}
    assert h.send(2, Decide("late", "check", "flop"))["code"] == "wrong_phase"  # late: refused
    h.check_money()
    h.check_replays()


def test_a_storage_failure_pauses_the_round_until_the_operator_resumes_it() -> None:
    h = Host("casino", decks=[deck(DECK)])
    bets_placed(h)
    h.advance_until("pre_flop")
    assert [h.take(p) for p in (1, 2, 3)] == [dealt(1), dealt(2), dealt(3)]
    h.fail_next(fx.DebitWagers, StorageDown("disk full"))  # the Play's debit
    h.send(1, Decide("d1", "play_4x", "pre_flop"))
    h.send(2, Decide("d2", "check", "pre_flop"))
    stopped = paused("storage error: StorageDown")
    # the flop was turned; the Play's debit, made before the flop's question, failed
    assert h.take(1) == [decision(1, "pre_flop", "play_4x", play=40), FLOP, stopped]
    assert h.take(2) == [decision(2, "pre_flop", "check"), FLOP, stopped]
    assert h.take(3) == [FLOP, stopped]
    assert h.books.entries == DEBITS
    assert h.books.status == {1: "open"}
    assert h.machine.paused == {"reason": "storage error: StorageDown", "since": at(10)}
    assert h.books.audits == [("pause_round", "system", "storage error: StorageDown")]
    h.advance(30)  # no timer runs while paused
    assert h.machine.phase == "pre_flop" and h.machine.deadline is None
    reply = h.send(2, Decide("d3", "check", "flop"))
    assert (reply["code"], reply["message"]) == (
        "round_paused",
        "decide: the round is paused (storage error: StorageDown)",
    )
    assert [h.take(p) for p in (1, 2, 3)] == [[], [], []]
    assert h.machine.request_resume(GAME) == "resumed"
    h.run()
    assert h.books.audits == [
        ("pause_round", "system", "storage error: StorageDown"),
        ("resume_round", "operator", "resumed by the operator"),
    ]
    # player 1 made its Play: only player 2 is asked on the flop, with a new 10 s
    assert h.take(1) == h.take(3) == [resumed(40)]
    assert h.take(2) == [resumed(40), asked("flop", ["play_2x", "check"], FLOP_HAND[2], 40)]
    assert h.books.entries == [*DEBITS, ("debit", 1, 1, "play", D(-40))]  # written once
    assert h.machine.request_resume(GAME) == "not_paused"
    h.send(2, Decide("d4", "check", "flop"))
    h.send(2, Decide("d5", "fold", "river"))
    assert h.machine.phase == "pause"
    assert h.take(1) == [TURN_RIVER, REVEAL, ANTES_RETURNED, SHOWN_1, settled_1(40), pause(40)]
    assert h.take(2) == [
        decision(2, "flop", "check"),
        TURN_RIVER,
        asked("river", ["play_1x", "fold"], RIVER_HAND[2], 40),
        decision(2, "river", "fold"),
        {"type": "hand_folded", "player": "2"},
        REVEAL,
        ANTES_RETURNED,
        SETTLED_2,
        pause(40),
    ]
    assert h.take(3) == [TURN_RIVER, REVEAL, ANTES_RETURNED, pause(40)]
    assert h.books.entries == [
        *DEBITS,
        ("debit", 1, 1, "play", D(-40)),
        ("credit", 1, 1, "ante", D(10)),
        ("credit", 1, 1, "blind", D(10)),
        ("credit", 1, 1, "play", D(80)),
    ]
    assert h.books.status == {1: "settled"}
    assert h.books.balances == {1: D(1040), 2: D(985), 3: D(1000)}
    h.check_money()
    h.check_replays()


def test_a_deck_that_fails_its_check_pauses_the_round_and_a_resume_shuffles_again() -> None:
    h = Host("casino", decks=[InvalidDealError("deck: card 7 repeated"), deck(DECK)])
    bets_placed(h)
    h.advance_until("closed")
    h.advance(0)
    stopped = paused("deck integrity check failed: deck: card 7 repeated")
    # the wagers were debited before the shuffle; no card is dealt from a bad deck
    assert [h.take(p) for p in (1, 2, 3)] == [[*BETTING_END, stopped]] * 3
    assert h.books.entries == DEBITS
    assert h.books.status == {1: "open"}
    assert h.books.audits == [
        ("pause_round", "system", "deck integrity check failed: deck: card 7 repeated")
    ]
    assert h.machine.request_pause(GAME, "again", "operator") == "paused"  # already paused
    h.run()
    assert [h.take(p) for p in (1, 2, 3)] == [[], [], []]
    assert h.machine.request_resume(GAME) == "resumed"
    h.run()
    assert h.machine.phase == "pre_flop"
    # the second deck (checked) is dealt: the round goes on from the close of betting
    assert h.take(1) == [resumed(10), *dealt(1)[3:]]
    assert h.take(2) == [resumed(10), *dealt(2)[3:]]
    assert h.take(3) == [resumed(10), closed(False)]
    assert [type(c).__name__ for c in h.calls] == [
        "OpenRound",
        "DebitWagers",
        "Shuffle",
        "Audit",
        "Audit",
        "Shuffle",
    ]
    assert h.books.entries == DEBITS  # debited once
    assert h.books.status == {1: "open"}
    assert h.books.audits[1:] == [("resume_round", "operator", "resumed by the operator")]
    h.check_money()
    h.check_replays()


def test_a_round_the_operator_voids_while_paused_is_refunded() -> None:
    h = Host("casino", decks=[deck(DECK)])
    bets_placed(h)
    h.advance_until("pre_flop")
    assert [h.take(p) for p in (1, 2, 3)] == [dealt(1), dealt(2), dealt(3)]
    assert h.machine.request_pause(GAME, "camera down", "operator") == "paused"
    h.run()
    assert [h.take(p) for p in (1, 2, 3)] == [[paused("camera down")]] * 3
    reply = h.send(1, Decide("d1", "play_4x", "pre_flop"))
    assert (reply["code"], reply["message"]) == (
        "round_paused",
        "decide: the round is paused (camera down)",
    )
    assert [h.take(p) for p in (1, 2, 3)] == [[], [], []]
    assert h.machine.request_void(GAME, "camera down", "operator") == "voiding"
    h.run()
    assert h.machine.phase == "pause"
    # the showdown is never sent: no dealer card, no settlement
    assert [h.take(p) for p in (1, 2, 3)] == [[voided("camera down"), pause(10)]] * 3
    assert h.books.entries == [*DEBITS, *REFUNDS]
    assert h.books.status == {1: "voided"}
    void = [(c.round_id, c.reason, c.actor) for c in h.calls if isinstance(c, fx.VoidRound)]
    assert void == [(1, "camera down", "operator")]
    assert h.books.audits == [("pause_round", "operator", "camera down")]
    assert h.books.balances == {1: D(1000), 2: D(1000), 3: D(1000)}
    h.check_money()
    h.check_replays()


def test_a_round_that_fails_in_storage_is_voided_and_the_balances_reloaded() -> None:
    h = Host("casino", decks=[deck(DECK)])
    bets_placed(h)
    h.advance_until("pre_flop")
    h.send(1, Decide("d1", "check", "pre_flop"))
    h.send(2, Decide("d2", "check", "pre_flop"))
    h.send(1, Decide("d3", "check", "flop"))
    h.fail_next(fx.SettleRound, StorageDown("gone"))
    h.send(2, Decide("d4", "check", "flop"))
    h.send(1, Decide("d5", "fold", "river"))
    h.send(2, Decide("d6", "fold", "river"))
    assert h.machine.paused is not None  # a storage error pauses first
    stopped = paused("storage error: StorageDown")
    assert h.take(1) == [
        *dealt(1),
        decision(1, "pre_flop", "check"),
        FLOP,
        asked("flop", ["play_2x", "check"], FLOP_HAND[1], 10),
        decision(1, "flop", "check"),
        TURN_RIVER,
        asked("river", ["play_1x", "fold"], RIVER_HAND[1], 10),
        decision(1, "river", "fold"),
        {"type": "hand_folded", "player": "1"},
        stopped,
    ]
    assert h.take(2) == [
        *dealt(2),
        decision(2, "pre_flop", "check"),
        FLOP,
        asked("flop", ["play_2x", "check"], FLOP_HAND[2], 10),
        decision(2, "flop", "check"),
        TURN_RIVER,
        asked("river", ["play_1x", "fold"], RIVER_HAND[2], 10),
        decision(2, "river", "fold"),
        {"type": "hand_folded", "player": "2"},
        stopped,
    ]
    assert h.take(3) == [*dealt(3), FLOP, TURN_RIVER, stopped]
    assert h.books.entries == DEBITS  # the settlement was not written
    assert h.books.status == {1: "open"}
    # ... the store's refusal after resuming fails the round: it is voided
    h.fail_next(fx.SettleRound, UthError("record: refused"))
    assert h.machine.request_resume(GAME) == "resumed"
    h.run()
    assert h.machine.phase == "pause"
    malfunction = "malfunction: the round could not be completed"
    # the showdown is never sent: no dealer card, no settlement
    assert [h.take(p) for p in (1, 2, 3)] == [[resumed(10), voided(malfunction), pause(10)]] * 3
    assert h.books.entries == [*DEBITS, *REFUNDS]
    assert h.books.status == {1: "voided"}
    assert h.books.audits == [
        ("pause_round", "system", "storage error: StorageDown"),
        ("resume_round", "operator", "resumed by the operator"),
    ]
    settles = [c for c in h.calls if isinstance(c, fx.SettleRound)]
    assert len(settles) == 2  # tried, paused, tried again, refused
    void = [(c.round_id, c.reason, c.actor) for c in h.calls if isinstance(c, fx.VoidRound)]
    assert void == [(1, f"{malfunction} (UthError)", "system")]
    reloads = [c.player_id for c in h.calls if isinstance(c, fx.ReloadBalance)]
    assert reloads == [1, 2, 3]  # every seat's balance, from the ledger
    assert h.books.balances == {1: D(1000), 2: D(1000), 3: D(1000)}
    h.check_money()
    h.check_replays()


def test_undo_double_dedupe_and_the_request_id_limit() -> None:
    h = Host("casino", balances={1: D(5000)})
    h.join(1)
    assert h.send(1, PlaceBet("x1", "ante", 10))["state"]["total_bet"] == 20
    assert h.send(1, PlaceBet("x1", "ante", 10))["state"]["total_bet"] == 20  # same id: same reply
    assert h.send(1, Double("x2"))["state"]["bets"]["ante"] == 20
    assert h.send(1, Double("x3"))["code"] == "wrong_phase"  # once per round
    assert h.send(1, Undo("x4"))["state"]["bets"]["ante"] == 10
    assert h.send(1, Undo("x5"))["state"]["bets"]["ante"] == 0
    assert h.send(1, Undo("x6"))["code"] == "wrong_phase"
    assert h.send(1, PlaceBet("x7", "trips", 5))["code"] == "wrong_phase"  # the Ante first
    assert h.send(1, PlaceBet("x8", "ante", 5000))["notice"] == "maximum"
    assert h.purse.reserved == {1: D(2000)}
    for n in range(REQUEST_IDS_PER_ROUND - 8):
        h.send(1, Undo(f"u{n}"))
    assert h.send(1, Undo("one-too-many"))["code"] == "too_many_requests"
    h.check_money()
    h.check_replays()


@pytest.mark.parametrize("rules", ["live", "casino"])
def test_an_empty_table_deals_no_round(rules: str) -> None:
    h = Host(rules)
    h.join(1)
    h.advance(10)
    assert h.machine.phase == "betting"  # a new window at once, no pause
    assert h.calls == []


class _InTurn:
    """A card room's decision order (000): one hand at a time, each with its own timer."""

    def asked(self, rnd: Round) -> tuple[str, ...]:
        return rnd.awaiting()[:1]

    def seconds(self, configured: float) -> float:
        return configured / 2

    def may_decide(self, rnd: Round, hand: str) -> bool:
        return rnd.awaiting()[:1] == (hand,)


def test_a_decision_order_that_asks_one_seat_at_a_time_is_a_configuration() -> None:
    h = Host("casino", decks=[deck(DECK)])
    h.machine.decisions = _InTurn()
    bets_placed(h)
    h.advance_until("pre_flop")
    first = [m for m in h.take(1) if m["type"] == "decision_required"]
    assert [m["deadline"] for m in first] == [at(15)]  # its own 5 s timer
    assert [m for m in h.take(2) if m["type"] == "decision_required"] == []
    assert h.send(2, Decide("early", "check", "pre_flop"))["message"] == (
        "decide: it is not your turn on the pre_flop"
    )
    h.advance(5)  # player 1's time is up: checked; player 2's turn, with 5 s
    assert h.take(1) == [decision(1, "pre_flop", "check", auto=True)]
    assert h.take(2) == [
        asked("pre_flop", ["play_4x", "play_3x", "check"], HIGH_2, 15)
        | {"deadline": at(20), "seconds_left": 5.0}
    ]
    h.send(2, Decide("d2", "check", "pre_flop"))
    assert [m["type"] for m in h.take(1)] == ["flop_turned", "decision_required"]
    assert [m["type"] for m in h.take(2)] == ["decision", "flop_turned"]
    h.check_money()


class _BankWithACommission:
    """A banking policy of a test: the house keeps 1 of every winning player's credits."""

    def credits(self, settlement: Settlement) -> dict[int, dict[str, Decimal]]:
        out = HouseBank().credits(settlement)
        for kinds in out.values():
            if "play" in kinds:
                kinds["play"] -= 1
        return out


def test_the_banking_policy_decides_the_credits_of_a_settlement() -> None:
    h = Host("casino", decks=[deck(DECK)])
    h.machine.banking = _BankWithACommission()
    bets_placed(h)
    h.advance_until("pre_flop")
    h.send(1, Decide("d1", "play_4x", "pre_flop"))
    h.send(2, Decide("d2", "fold", "pre_flop"))
    h.advance_until("pause")
    settle = next(c for c in h.calls if isinstance(c, fx.SettleRound))
    assert settle.credits == {2: {}, 1: {"ante": D(10), "blind": D(10), "play": D(79)}}
    assert h.books.balances[1] == D(1039)


def test_repeat_of_bets_the_rules_no_longer_allow_is_refused_by_the_engine_s_limits() -> None:
    h = Host("casino", balances={1: D(5000)})
    h.machine.recall_last_bets(1, {"ante": D(2000), "trips": D(0), "bad_beat": D(0)})
    h.join(1)
    reply = h.send(1, Repeat("r1"))
    assert (reply["code"], reply["message"]) == (
        "over_limit",
        "repeat: wagers.ante: the Ante must be between 5.00 and 1000.00, got 2000.00",
    )
    assert h.purse.reserved.get(1, D(0)) == 0
