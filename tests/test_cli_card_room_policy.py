"""The computer players' decisions in ``uth play --rules california`` (module docstring
of :mod:`uth.cli.card_room`): on the flop, Play 2x only with a pair or better that
uses a hole card; a pair on the board alone is not one.
"""

from __future__ import annotations

import pytest

from uth.cards import parse_cards
from uth.cli.card_room import computer_decision
from uth.engine import Action

FLOP = (Action.play(2), Action.parse("check"))
RIVER = (Action.play(1), Action.parse("fold"))


@pytest.mark.parametrize(
    ("hole", "flop", "action"),
    [
        ("4s 6h", "Ad Jc Ah", "check"),  # the board's pair of aces alone
        ("4s 6h", "Ad Ac Ah", "check"),  # the board's three aces alone
        ("4s 4h", "Ad Jc Ah", "play_2x"),  # two pair: the fours are the hole cards
        ("Js 6h", "Ad Jc Ah", "play_2x"),  # two pair with the jack in the hole
        ("As 6h", "Ad Jc Ah", "play_2x"),  # three aces with one in the hole
        ("4s 6h", "Ad Jc 4h", "play_2x"),  # pair of fours
        ("4s 6h", "Ad Jc 9h", "check"),  # high card
    ],
)
def test_flop_play_needs_a_hand_above_the_board_alone(hole: str, flop: str, action: str) -> None:
    chosen = computer_decision(tuple(parse_cards(hole)), tuple(parse_cards(flop)), FLOP)
    assert chosen == Action.parse(action)


def test_river_play_needs_a_hand_above_the_board_alone() -> None:
    board = tuple(parse_cards("Ad Jc Ah 9s 2c"))
    assert computer_decision(tuple(parse_cards("4s 6h")), board, RIVER) == Action.parse("fold")
    assert computer_decision(tuple(parse_cards("9d 6h")), board, RIVER) == Action.play(1)
