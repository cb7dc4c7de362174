"""Trainer mode at the live table (issue 11), through the real WebSocket endpoint.

Seed 6, round 1 on the live table: player hand 8s Qs, board Jh Qc 7h 9c Tc (a
queen-high straight at the river). Alice has the trainer on and plays badly on
purpose (she checks pre-flop and on the flop, where a Play is best); Bob, beside
her, has it off and must receive nothing of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import LIVE_TABLE, Conn, decks, live_server

from uth.analysis.advisor import advise
from uth.cards import parse_cards
from uth.rules import preset

LIVE = preset("live")
HOLE = parse_cards("8s Qs")
FLOP = parse_cards("Jh Qc 7h")
BOARD = parse_cards("Jh Qc 7h 9c Tc")
TRAINER_KEYS = {"trainer", "session_cost", "round_cost", "cost", "best", "actions"}


def _expected(board: tuple[Any, ...], street: str) -> dict[str, Any]:
    advice = advise(LIVE, HOLE, board)
    name = {
        "raise_4x": "play_4x",
        "raise_3x": "play_3x",
        "raise_2x": "play_2x",
        "raise_1x": "play_1x",
    }
    return {
        "type": "trainer_advice",
        "game_number": "20261129-233015-0001",
        "street": street,
        "actions": {name.get(k, k): float(v) for k, v in advice.actions.items()},
        "best": name.get(advice.best, advice.best),
    }


def _trainer_in(value: Any, *, top: bool = True) -> list[str]:
    """Where a message carries trainer figures (keys of TRAINER_KEYS, trainer_* types).

    The lobby's ``table.trainer`` (whether the table allows it: a boolean) is not one.
    """
    found = []
    if isinstance(value, dict):
        if str(value.get("type", "")).startswith("trainer"):
            found.append(value["type"])
        for k, v in value.items():
            if k in TRAINER_KEYS and not (k == "trainer" and isinstance(v, bool)):
                found.append(k)
            found += _trainer_in(v, top=False)
    elif isinstance(value, list):
        for v in value:
            found += _trainer_in(v, top=False)
    return found


def _index(conn: Conn, type_: str, **match: Any) -> int:
    return next(
        i
        for i, m in enumerate(conn.log)
        if m["type"] == type_ and all(m.get(k) == v for k, v in match.items())
    )


def test_trainer_advises_one_player_after_the_cards_and_reviews_the_round(
    store_url: str, tmp_path: Path
) -> None:
    assert decks(6, 1)[0][:9] == ("8s", "Qs", "3c", "Js", "Jh", "Qc", "7h", "9c", "Tc")
    with live_server(store_url, tmp_path, seed=6) as srv:
        alice, bob = srv.sign_in("alice"), srv.sign_in("bob")
        with srv.connect(alice) as a, srv.connect(bob) as b:
            assert a.snapshot["table"]["trainer"] is True  # a play-money table
            assert "trainer" not in a.snapshot
            on = a.ok("trainer", on=True)
            assert on["trainer"] == {"on": True, "session_cost": 0.0, "rounds": 0, "advice": None}
            for conn in (a, b):
                conn.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(a.snapshot)
            a.recv_until("decision_required")
            assert a.recv_until("trainer_advice") == _expected((), "pre_flop")
            b.recv_until("decision_required")
            a.ok("decide", action="check")  # a mistake: Play 4x is best
            b.ok("decide", action="check")  # both decided: the flop opens at once
            a.recv_until("decision_required")
            flop_advice = a.recv_until("trainer_advice")
            assert flop_advice == _expected(FLOP, "flop")
            assert flop_advice["best"] == "play_2x"
            assert _index(a, "flop_turned") < _index(a, "trainer_advice", street="flop")
            # A reload during the decision shows the advice again (snapshot).
            snap = a.cmd("snapshot")["snapshot"]
            assert snap["trainer"]["advice"] == flop_advice
            b.recv_until("decision_required")
            a.ok("decide", action="check")  # a mistake again
            b.ok("decide", action="check")
            a.recv_until("decision_required")
            river_advice = a.recv_until("trainer_advice")
            assert river_advice == _expected(BOARD, "river")
            assert _index(a, "turn_and_river_turned") < _index(a, "trainer_advice", street="river")
            b.recv_until("decision_required")
            a.ok("decide", action="play_1x")
            b.ok("decide", action="fold")
            settlement = a.recv_until("settlement")
            review = a.recv_until("trainer_review")
            costs = [
                advise(LIVE, HOLE).cost("check"),
                advise(LIVE, HOLE, FLOP).cost("check"),
                advise(LIVE, HOLE, BOARD).cost("raise_1x"),
            ]
            assert costs[0] > 0 and costs[1] > 0 and costs[2] == 0
            assert review == {
                "type": "trainer_review",
                "game_number": settlement["game_number"],
                "decisions": [
                    {
                        "street": "pre_flop",
                        "action": "check",
                        "best": "play_4x",
                        "cost": float(costs[0]),
                        "auto": False,
                    },
                    {
                        "street": "flop",
                        "action": "check",
                        "best": "play_2x",
                        "cost": float(costs[1]),
                        "auto": False,
                    },
                    {
                        "street": "river",
                        "action": "play_1x",
                        "best": "play_1x",
                        "cost": 0.0,
                        "auto": False,
                    },
                ],
                "round_cost": float(sum(costs)),
                "session_cost": float(sum(costs)),
                "rounds": 1,
            }
            assert _index(a, "settlement") < _index(a, "trainer_review")
            b.recv_until("settlement")
            # Next round: Alice switches it off; from then on nothing of it for her either.
            off = a.ok("trainer", on=False)
            assert off["trainer"] is None
            srv.advance_to(a.recv_until("pause"))
            opened = a.recv_until("betting_open")
            mark = len(a.log)
            a.ok("place_bet", spot="ante", amount=10)
            srv.advance_to(opened)
            a.recv_until("decision_required")
            a.ok("decide", action="play_4x")
            a.recv_until("settlement")
            assert _trainer_in(a.log[mark:]) == []
            assert "trainer" not in a.cmd("snapshot")["snapshot"]
        # Bob, with the trainer off all along, was sent nothing of it.
        assert b.log, "bob received messages"
        assert _trainer_in([b.snapshot, *b.log]) == []


def test_trainer_refused_at_a_real_money_table(store_url: str, tmp_path: Path) -> None:
    tables = [{**LIVE_TABLE, "play_money": False}]
    with live_server(store_url, tmp_path, tables=tables) as srv:
        alice = srv.sign_in("alice")
        with srv.connect(alice) as a:
            assert a.snapshot["table"]["trainer"] is False
            reply = a.cmd("trainer", on=True)
            assert reply["type"] == "error"
            assert reply["code"] == "trainer_not_allowed"
            assert "play-money" in reply["message"]
            assert "trainer" not in a.cmd("snapshot")["snapshot"]
            bad = a.cmd("trainer", on="yes")
            assert (bad["type"], bad["code"]) == ("error", "malformed")
