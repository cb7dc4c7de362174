"""What a player's round detail (``GET /api/history/{game_number}``) shows of the
cards and decisions: the seat view (:func:`uth.engine.views.seat_view`) of the round
replayed from its kept record, the one definition of who sees what.

A round with a kept record (canonical JSON, :mod:`uth.engine.history`) is decoded
and re-run through the engine (:func:`uth.engine.history.rebuild`); the player's
hand is then seen as the table showed it: their own hole cards (a back-line bet:
the seat's it followed), the board as turned, the dealer's hand once revealed (never
in a voided round), never another seat's hole cards. Only the detail replays; the
history list does not. The last few rounds replayed are kept, so a player joining
after a restart (Repeat's recall, ``LiveTable.load_player``) or a page reloaded
does not replay a large round again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache

from uth.engine import history
from uth.engine.round import Round
from uth.engine.views import seat_view
from uth.errors import UthError
from uth.server.storage.models import Round as RoundRow
from uth.server.storage.models import RoundPlayer

log = logging.getLogger("uth.storage")


@lru_cache(maxsize=8)
def replayed(record: str) -> Round:
    """The round of a kept ``record`` re-run through the engine (read it, never
    change it: the same object answers the next call with the same record).

    Raises:
        InvalidRecordError, InvalidRulesError, UthError: the record does not decode
            or the engine refuses one of its actions (see :func:`history.rebuild`).
    """
    return history.rebuild(history.decode(record))


def kept_round(row: RoundRow) -> Round | None:
    """The stored round ``row`` replayed from its kept record, or None where the
    detail falls back on the stored columns (:func:`from_columns`): a round without
    a record (still open, voided before a record was kept, or stored before
    migration 0004), a round voided after the engine settled it (a storage
    failure at settlement, then the operator's void or the recovery: its record is
    the settled round's, whose showdown no player was shown; the columns hold no
    card of it), and a record that no longer replays (altered in the database:
    logged as an error, for ``uth replay`` to report; the player still sees the
    round's wagers and balances).
    """
    if row.record is None:
        return None
    try:
        rnd = replayed(row.record)
    except UthError as exc:
        log.error("round %s: its kept record does not replay (%s)", row.game_number, exc)
        return None
    return rnd if str(rnd.phase) == row.status else None


@dataclass(frozen=True, slots=True)
class Seen:
    """The card and decision parts of one hand in a round detail.

    Attributes:
        hole: the hand's hole cards as its owner saw them (empty before the deal,
            in a voided round, or without a hand).
        board: the community cards turned (empty in a voided round).
        dealer, dealer_category, dealer_qualifies: the dealer's hand once revealed
            (empty and None otherwise).
        decisions: the hand's decisions (a back-line bet: its seat's).
        category, best_five, outcome: the hand's settlement (None and empty before
            it, in a voided round, or without a hand).
        behind: the seat number a back-line bet followed, else None.
    """

    hole: list[str]
    board: list[str]
    dealer: list[str]
    dealer_category: str | None
    dealer_qualifies: bool | None
    decisions: list[str]
    category: str | None
    best_five: list[str]
    outcome: str | None
    behind: int | None


def seen(rnd: Round, hand: str) -> Seen:
    """What the owner of ``hand`` (an engine hand id, ``"7"`` or ``"7@3"``; one
    without a hand in the round sees the shared parts only) may see of ``rnd``.
    """
    view = seat_view(rnd, hand)
    dealer, result = view.dealer, view.result
    return Seen(
        hole=[str(c) for c in view.hole_cards],
        board=[str(c) for c in view.board],
        dealer=[str(c) for c in dealer.cards] if dealer else [],
        dealer_category=dealer.category if dealer else None,
        dealer_qualifies=dealer.qualifies if dealer else None,
        decisions=list(view.decisions),
        category=result.category if result else None,
        best_five=[str(c) for c in result.best_five] if result else [],
        outcome=result.outcome if result else None,
        behind=rnd.seat_of(view.behind) if view.behind is not None else None,
    )


def from_columns(row: RoundRow, part: RoundPlayer | None) -> Seen:
    """The fallback of :func:`kept_round`: the board and the dealer's hand stored at
    settlement, the player's stored ``part`` (None: no card, no decision), no
    ``behind``.
    """
    return Seen(
        hole=list(part.hole) if part else [],
        board=list(row.board or []),
        dealer=list(row.dealer or []),
        dealer_category=row.dealer_category,
        dealer_qualifies=row.dealer_qualifies,
        decisions=list(part.decisions) if part else [],
        category=part.category if part else None,
        best_five=list(part.best_five) if part else [],
        outcome=part.outcome if part else None,
        behind=None,
    )
