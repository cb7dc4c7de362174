"""Back-line hands in a player's round detail (``GET /api/history/{game_number}``).

At a card-room table a bet behind a seat follows that seat's decisions (issue 13,
RULES.md "A round"): a player without a seat has only such a hand (their own hand
id, ``"7"``), and a seated player may have a second one (``"7@3"``: behind seat 3)
whose ledger entries carry its hand id. The round's kept record (canonical JSON,
:mod:`uth.engine.history`) gives each hand's result; the cards and decisions the
bet followed are the hand's seat view of the round replayed from that record
(:mod:`uth.server.storage.seen`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal

from uth.engine.round import Round as EngineRound
from uth.engine.wagers import LAYOUT_ORDER
from uth.server.records import BackLineDetail
from uth.server.storage._helpers import _wagers_from_ledger
from uth.server.storage.models import LedgerEntry as LedgerRow
from uth.server.storage.models import Round
from uth.server.storage.seen import seen


def back_line(
    rnd: Round, entries: Sequence[LedgerRow], replayed: EngineRound | None
) -> BackLineDetail | None:
    """The player's second (back-line) hand in ``rnd`` from their ledger
    ``entries`` (those with a hand id), the kept record and the round ``replayed``
    from it; None when they had none.

    Without a kept record (an open round) the wagers come from the ledger, with no
    cards, decisions or outcome.
    """
    hand = next((e.hand for e in entries if e.hand is not None), None)
    if hand is None:
        return None
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
    shown = None if replayed is None else seen(replayed, hand)
    return BackLineDetail(
        hand=hand,
        behind=int(hand.partition("@")[2]),
        hole=shown.hole if shown else [],
        decisions=shown.decisions if shown else [],
        wagers=wagers,
        category=shown.category if shown else None,
        best_five=shown.best_five if shown else [],
        outcome=outcome,
    )
