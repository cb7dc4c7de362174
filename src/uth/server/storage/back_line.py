"""Back-line hands in a player's round detail (``GET /api/history/{game_number}``).

At a card-room table a bet behind a seat follows that seat's decisions (issue 13,
RULES.md "A round"): a player without a seat has only such a hand (their own hand
id, ``"7"``), and a seated player may have a second one (``"7@3"``: behind seat 3)
whose ledger entries carry its hand id. The round's kept record (canonical JSON,
:mod:`uth.engine.history`) names the hand each back-line bet rides on (the
``behind`` of its ``place_wagers`` action) and each hand's result; the seat
holder's stored part gives the cards and the decisions the bet followed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal

from sqlalchemy.orm import Session

from uth.engine.wagers import LAYOUT_ORDER
from uth.server.records import BackLineDetail
from uth.server.storage._helpers import _wagers_from_ledger
from uth.server.storage.models import LedgerEntry as LedgerRow
from uth.server.storage.models import Round, RoundPlayer


def followed(record: str | None) -> dict[str, tuple[str, int | None]]:
    """Per hand id that bets behind another in the kept ``record`` (canonical JSON,
    None while the round is open): the hand it follows and that hand's seat.
    """
    if record is None:
        return {}
    seats: dict[str, int | None] = {}
    behind: dict[str, str] = {}
    for action in json.loads(record)["actions"]:
        if action["kind"] != "place_wagers":
            continue
        payload = action["payload"]
        seats[action["player"]] = payload.get("seat")
        if payload.get("behind") is None:
            behind.pop(action["player"], None)
        else:
            behind[action["player"]] = payload["behind"]
    return {hand: (seat_hand, seats.get(seat_hand)) for hand, seat_hand in behind.items()}


def followed_part(
    s: Session, round_id: int, lines: dict[str, tuple[str, int | None]], hand: str
) -> tuple[RoundPlayer | None, int | None]:
    """The stored part of the seat ``hand`` bets behind, and that seat's number
    ((None, None) when the hand bets behind no seat or the round is not settled).
    """
    line = lines.get(hand)
    if line is None:
        return None, None
    seat_hand, seat = line
    return s.get(RoundPlayer, (round_id, int(seat_hand.partition("@")[0]))), seat


def back_line(s: Session, rnd: Round, entries: Sequence[LedgerRow]) -> BackLineDetail | None:
    """The player's second (back-line) hand in ``rnd`` from their ledger
    ``entries`` (those with a hand id) and the kept record; None when they had none.
    """
    hand = next((e.hand for e in entries if e.hand is not None), None)
    if hand is None:
        return None
    part, _ = followed_part(s, rnd.id, followed(rnd.record), hand)
    result = None if rnd.record is None else json.loads(rnd.record)["result"].get(hand)
    if result is None:
        wagers = _wagers_from_ledger([e for e in entries if e.hand == hand], rnd.status)
        outcome = None
    else:
        wagers = {
            kind: {
                "stake": Decimal(result[kind]["stake"]),
                "result": result[kind]["result"],
                "net": Decimal(result[kind]["net"]),
            }
            for kind in LAYOUT_ORDER
        }
        outcome = result["outcome"]
    return BackLineDetail(
        hand=hand,
        behind=int(hand.partition("@")[2]),
        hole=list(part.hole) if part else [],
        decisions=list(part.decisions) if part else [],
        wagers=wagers,
        category=part.category if part else None,
        best_five=list(part.best_five) if part else [],
        outcome=outcome,
    )
