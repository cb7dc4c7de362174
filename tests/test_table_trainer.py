"""uth.server.trainer.TableTrainer: who is advised, what a round's review says."""

from __future__ import annotations

import asyncio
from fractions import Fraction

import pytest

from uth.analysis.advisor import flop_advice, river_advice
from uth.cards import parse_cards
from uth.rules import preset
from uth.server.trainer import Spot, TableTrainer, advisor_action, protocol_action

LIVE = preset("live")
HOLE = parse_cards("6d Js")
FLOP = parse_cards("Qc 4s 2c")
BOARD = parse_cards("Qc 4s 2c 6s 5h")


def test_action_names_round_trip() -> None:
    assert protocol_action("raise_4x") == "play_4x"
    assert protocol_action("fold") == "fold"
    assert advisor_action("play_2x") == "raise_2x"
    assert advisor_action("auto:check") == "check"


def test_not_allowed_off_play_money() -> None:
    trainer = TableTrainer(LIVE, allowed=False)
    with pytest.raises(PermissionError, match="play-money"):
        trainer.switch(1, True)
    assert not trainer.is_on(1)
    trainer.switch(1, False)  # switching off is always fine


def test_only_players_with_the_trainer_on_are_advised_and_reviewed() -> None:
    trainer = TableTrainer(LIVE, allowed=True)
    trainer.switch(1, True)
    spots = [
        Spot(1, HOLE, FLOP, ("play_2x", "check")),
        Spot(2, HOLE, FLOP, ("play_2x", "check")),
    ]
    messages = asyncio.run(trainer.advise("g1", spots))
    assert set(messages) == {1}
    flop = flop_advice(LIVE, HOLE, FLOP)
    assert messages[1] == {
        "type": "trainer_advice",
        "game_number": "g1",
        "street": "flop",
        "actions": {
            "play_2x": float(flop.actions["raise_2x"]),
            "check": float(flop.actions["check"]),
        },
        "best": "play_2x" if flop.best == "raise_2x" else "check",
    }
    river = asyncio.run(trainer.advise("g1", [Spot(1, HOLE, BOARD, ("play_1x", "fold"))]))
    assert river[1]["best"] == "play_1x"
    # No pre-flop advice was asked for: that decision is not scored.
    review = trainer.review(1, "g1", ["check", "check", "auto:fold"])
    assert trainer.review(2, "g1", ["check", "check", "fold"]) is None
    river_cost = river_advice(LIVE, HOLE, BOARD).cost("fold")
    assert review is not None
    assert review["decisions"] == [
        {
            "street": "flop",
            "action": "check",
            "best": protocol_action(flop.best),
            "cost": float(flop.cost("check")),
            "auto": False,
        },
        {
            "street": "river",
            "action": "fold",
            "best": "play_1x",
            "cost": float(river_cost),
            "auto": True,
        },
    ]
    total = flop.cost("check") + river_cost
    assert review["round_cost"] == float(total)
    assert review["session_cost"] == float(total)
    assert review["rounds"] == 1
    snap = trainer.snapshot(1, None, "g2")
    assert snap == {"on": True, "session_cost": float(total), "rounds": 1, "advice": None}
    assert trainer.snapshot(2, None, "g2") is None


def test_a_short_balance_limits_the_advice() -> None:
    trainer = TableTrainer(LIVE, allowed=True)
    trainer.switch(7, True)
    messages = asyncio.run(trainer.advise("g", [Spot(7, HOLE, BOARD, ("fold",))]))
    assert messages[7]["actions"] == {"fold": -2.0}
    assert messages[7]["best"] == "fold"
    review = trainer.review(7, "g", ["check", "check", "fold"])
    assert review is not None and review["round_cost"] == 0
    assert Fraction(review["session_cost"]) == 0


def test_ask_sends_when_ready_and_flush_waits() -> None:
    trainer = TableTrainer(LIVE, allowed=True)
    trainer.switch(1, True)
    sent: list[tuple[int, str]] = []

    async def play() -> None:
        trainer.ask(
            "g",
            [Spot(1, HOLE, FLOP, ("play_2x", "check")), Spot(2, HOLE, FLOP, ("check",))],
            lambda pid, m: sent.append((pid, m["street"])),
        )
        trainer.ask("g", [Spot(2, HOLE, BOARD, ("fold",))], lambda pid, m: sent.append((pid, "x")))
        await trainer.flush()

    asyncio.run(play())
    assert sent == [(1, "flop")]
