"""A round's money and its record, kept together across the two storage ports.

The :class:`~uth.server.ports.Ledger` moves the money and the
:class:`~uth.server.ports.RoundLog` records the round; they may be two systems (a
remote operator wallet and the local database), so a round's settlement or void is
two calls. They are made in an order that a restart can always finish: the money
first, then the round's status. A round whose status was not written stays
``open``, and :func:`recover` voids it at the next start: :meth:`Ledger.reverse`
gives back exactly what the round's entries still hold (stakes less any payouts
already made), and posts nothing for a round already reversed.

The round's record (:mod:`uth.engine.history`: the full rule set, the deck, the
actions and the result), when given, is kept with the round's status, in the same
transaction, so that every round that ends can be replayed (``uth replay``).

Each function is synchronous; the server runs it on the storage worker
(:class:`uth.server.storage.worker.StorageWorker`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal

from uth.engine import history
from uth.errors import UthError
from uth.server.ports import KeptRecord, Ledger, RoundLog, RoundRecord

#: The reason and actor of a round voided at start-up (:func:`recover`).
RECOVER_REASON = "server restarted during the round"
RECOVER_ACTOR = "system"
#: The audit action a server's start writes when it runs card-room tables
#: (:func:`mark_start`): where one server run's rounds end (``uth replay``).
START_ACTION = "server_started"


def settle_round(
    ledger: Ledger,
    rounds: RoundLog,
    round_id: int,
    record: RoundRecord,
    credits: Mapping[int, Mapping[str, Decimal]],
    kept: history.RoundRecord | None = None,
    hands: Mapping[tuple[int, str], Mapping[str, Decimal]] | None = None,
) -> dict[int, Decimal]:
    """Pay the round's credits (:meth:`Ledger.credit`; ``hands``: those of players'
    second hands), then store it as settled with its record ``kept``.

    Returns the new balance of every player credited.

    Raises:
        RoundNotOpenError: the round is settled or voided; nothing is paid.
    """
    encoded = _encoded(kept)
    rounds.check_open(round_id, "settled")
    # ``hands`` only when the round has second hands: a ledger of before them is called as then.
    if hands:
        balances = ledger.credit(round_id, credits, record.settled_at, hands)
    else:
        balances = ledger.credit(round_id, credits, record.settled_at)
    rounds.settle_round(round_id, record, encoded)
    return balances


def void_round(
    ledger: Ledger,
    rounds: RoundLog,
    round_id: int,
    reason: str,
    actor: str,
    now: datetime,
    kept: history.RoundRecord | None = None,
) -> dict[int, Decimal]:
    """Refund what the open round took (:meth:`Ledger.reverse`), then mark it voided with
    its record ``kept`` (None when there is none: it never started) and an audit line
    naming the refunds. Returns the new balance of every player refunded.

    Raises:
        RoundNotOpenError: the round is settled or voided; nothing is refunded.
        UthError: a blank reason or actor.
    """
    for field, value in (("reason", reason), ("actor", actor)):
        if not value.strip():
            raise UthError(f"{field}: must not be empty", field=field)
    encoded = _encoded(kept)
    rounds.check_open(round_id, "voided")
    refunds = ledger.reverse(round_id, reason, now)
    rounds.void_round(round_id, reason, actor, now, refunds.amounts, encoded)
    return dict(refunds.balances)


def recover(ledger: Ledger, rounds: RoundLog, now: datetime) -> list[str]:
    """Void every round left ``open`` (the server stopped mid-round), oldest first;
    returns their game numbers.
    """
    voided = rounds.open_rounds()
    for game_number in voided:
        void_round(ledger, rounds, rounds.round_id(game_number), RECOVER_REASON, RECOVER_ACTOR, now)
    return voided


def mark_start(
    rounds: RoundLog, card_rooms: Mapping[str, Mapping[str, object]], now: datetime
) -> None:
    """Write the audit line of a server's start (:data:`START_ACTION`, actor
    ``system``), after :func:`recover`: ``details`` ``{"last_round_id": the newest
    round's id (0: none), "card_rooms": {table id: the rotation and first colour it
    goes on from}}``. Every round this run opens gets a larger id, so ``uth replay``
    knows which rounds came before the start, whatever their game numbers.
    """
    details = {"last_round_id": rounds.last_round_id(), "card_rooms": dict(card_rooms)}
    rounds.audit(RECOVER_ACTOR, START_ACTION, "server started", details, now)


def _encoded(kept: history.RoundRecord | None) -> KeptRecord | None:
    return None if kept is None else KeptRecord(history.encode(kept), kept.rules_fingerprint)
