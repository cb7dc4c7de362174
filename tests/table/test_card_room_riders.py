"""Back-line bettors see the seat they ride on (issue 13, item 4: "the bet follows
that seat's decisions"; issue 8, item 2: one definition of who sees what,
engine.views): a player without a seat and a seated player, both behind seat 3,
are sent seat 3's hole cards, its hand shown at the showdown and its fold, as its
owner is (the message's ``player`` stays seat 3's hand id, each player receives it
once); nobody else is. Plain calls, no event loop (machine_host). California rules,
player 2 banks at seat 2, player 1 sits at seat 1, player 3 at seat 3, player 4
has no seat.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from machine_host import Host, deck

from uth.engine.table import AnswerOffer, Decide, PlaceBet, PlayerDealerBank, Sit
from uth.rules import preset

D = Decimal
#: Seat 1 gets 2c 3d, seat 3 As Ks, the dealer 5c 6d (no qualifier), the board
#: Ah Kh Qs 7c 8d: seat 3 wins with two pair, seat 1 ties the dealer.
CARDS = "2c 3d As Ks 5c 6d Ah Kh Qs 7c 8d"
#: The messages that show a hand: its cards, its showdown, its fold.
HAND_TYPES = ("hole_cards_dealt", "hand_shown", "hand_folded")


def riders_behind_seat_3() -> Host:
    """Players 1..4 with 1000 each; seats 1, 2, 3; player 2 banks 500; player 1
    bets at seat 1 and behind seat 3, player 3 at seat 3, player 4 (no seat)
    behind seat 3; the round is dealt (seat 1 to decide).
    """
    room = PlayerDealerBank(preset("california"), offer_seconds=5)
    h = Host(
        "california",
        {pid: D(1000) for pid in (1, 2, 3, 4)},
        decks=[deck(CARDS)] * 2,
        banking=room,
    )
    for pid in (1, 2, 3, 4):
        h.join(pid)
    for pid in (1, 2, 3):
        assert h.send(pid, Sit(f"sit{pid}", pid))["type"] == "accepted"
    h.advance_until("offer")
    h.send(1, AnswerOffer("o1", False))
    assert h.send(2, AnswerOffer("o2", True, 500))["type"] == "accepted"
    for pid, behind, amount in ((1, None, 10), (1, 3, 5), (3, None, 10), (4, 3, 5)):
        assert h.send(pid, PlaceBet(f"b{pid}{behind}", "ante", amount, behind=behind))["type"] == (
            "accepted"
        )
    for pid in (1, 2, 3, 4):
        h.take(pid)
    h.advance_until("pre_flop")
    return h


def hand_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] in HAND_TYPES]


SEAT_1_CARDS = {"type": "hole_cards_dealt", "player": "1", "cards": ["2c", "3d"]}
SEAT_3_CARDS = {"type": "hole_cards_dealt", "player": "3", "cards": ["As", "Ks"]}


def test_riders_are_sent_the_seats_cards_and_its_hand_at_the_showdown() -> None:
    h = riders_behind_seat_3()
    dealt = {pid: h.take(pid) for pid in (1, 2, 3, 4)}
    assert {pid: hand_messages(out) for pid, out in dealt.items()} == {
        1: [SEAT_1_CARDS, SEAT_3_CARDS],  # their seat's, then seat 3's for their bet behind it
        2: [],  # the player-dealer: no hand
        3: [SEAT_3_CARDS],
        4: [SEAT_3_CARDS],  # no seat: the cards of the seat the bet rides on
    }
    # In the deal's order, right after betting closes, as the owner's.
    assert (
        [m["type"] for m in dealt[4]]
        == [m["type"] for m in dealt[3]]
        == [
            "table_bets",
            "light",
            "light",
            "betting_closed",
            "hole_cards_dealt",
            "state",
        ]
    )
    # The snapshot (a reload) shows the same cards.
    assert h.machine.snapshot(4)["hole_cards"] == ["As", "Ks"]
    assert h.send(1, Decide("d1", "play_4x"))["type"] == "accepted"
    assert h.send(3, Decide("d3", "play_4x"))["type"] == "accepted"
    h.advance_until("pause")
    shown = {
        "type": "hand_shown",
        "player": "3",
        "cards": ["As", "Ks"],
        "category": "two_pair",
        "best_five": ["As", "Ah", "Ks", "Kh", "Qs"],
        "outcome": "win",
    }
    out = {pid: hand_messages(h.take(pid)) for pid in (1, 2, 3, 4)}
    assert out[3] == [shown]
    assert out[4] == [shown]
    assert out[2] == []
    # Player 1: their own hand and seat 3's, in the settlement order (seat 1 first).
    assert [(m["player"], m["outcome"]) for m in out[1]] == [("1", "tie"), ("3", "win")]
    assert out[1][1] == shown
    h.check_money()
    h.check_replays()


def test_riders_are_sent_the_seats_fold_once() -> None:
    h = riders_behind_seat_3()
    for pid in (1, 2, 3, 4):
        h.take(pid)
    for street in ("pre_flop", "flop"):
        h.advance_until(street)
        h.send(1, Decide(f"{street}1", "check"))
        h.send(3, Decide(f"{street}3", "check"))
    h.advance_until("river")
    h.send(1, Decide("river1", "play_1x"))
    assert h.send(3, Decide("river3", "fold"))["type"] == "accepted"
    h.advance_until("pause")
    out = {pid: hand_messages(h.take(pid)) for pid in (1, 2, 3, 4)}
    folded = {"type": "hand_folded", "player": "3"}
    # Decisions are public at a card room: everyone sees the fold, each player once.
    assert out[2] == [folded]
    assert out[3] == [folded]
    assert out[4] == [folded]  # seat 3's cards are never shown: folded face down
    assert out[1][0] == folded and [m["player"] for m in out[1]] == ["3", "1"]
    h.check_money()
    h.check_replays()


def test_a_back_line_bettor_without_a_seat_is_told_the_seat_followed() -> None:
    """``state.behind``: the seat a player without a seat bets behind (their page maps
    it through the seats taken to the hand id of seat 3's messages); a seated player's
    state has none (their second hand is ``back_line``), nor has anyone without bets.
    """
    h = riders_behind_seat_3()
    states = {pid: h.machine.snapshot(pid)["state"] for pid in (1, 2, 3, 4)}
    assert states[4]["behind"] == 3
    assert (states[4]["bets"]["ante"], states[4]["bets"]["blind"]) == (D(5), D(5))
    assert [pid for pid in (1, 2, 3) if "behind" in states[pid]] == []
    assert states[1]["back_line"]["behind"] == 3
    # Kept through the round's showdown (the hand is shown until the next window).
    for street in ("pre_flop", "flop", "river"):
        h.advance_until(street)
        for pid in (1, 3):
            action = "play_1x" if street == "river" else "check"
            assert h.send(pid, Decide(f"{street}{pid}", action))["type"] == "accepted"
    h.advance_until("pause")
    assert h.machine.snapshot(4)["state"]["behind"] == 3
    assert h.machine.snapshot(4)["state"]["bets"]["play"] == D(5)
