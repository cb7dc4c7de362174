"""The table machine's data: its settings, fields and constants (the state the
mixins :mod:`uth.engine.table.messages`, :mod:`uth.engine.table.handlers` and the
loop in :mod:`uth.engine.table.machine` share).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any, TypeVar

from uth.engine.round import Phase, Round
from uth.engine.table.effects import Call, Debit, Effect
from uth.engine.table.policy import Banking, Coach, DecisionOrder, Funds, PlayerDealerBank
from uth.engine.table.seats import GameNumbers, Seat
from uth.rules import RuleSet

STREETS = (Phase.PRE_FLOP, Phase.FLOP, Phase.RIVER)
STREET_NAMES = frozenset(str(p) for p in STREETS)
#: Request ids a player may use in one round; every one is remembered until the
#: end of the next round, so an id is never applied twice within a round
#: (docs/protocol.md, "Repeated request ids").
REQUEST_IDS_PER_ROUND = 256
#: A ``decide`` without ``street`` this soon after a street opened, from a player
#: whose previous street the timer decided, may answer that earlier street.
LATE_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table's timers (seconds) and display settings the machine needs.

    Attributes:
        id: the table id (stored with each round).
        betting_seconds: the betting window; green, then yellow for the last
            ``yellow_seconds``, then red (004).
        decision_seconds: the time for each decision window.
        pause_seconds: the pause after a round before the next betting window.
        listed_bets: at most this many players' bets are listed in ``table_bets``.
    """

    id: str
    betting_seconds: float = 15
    yellow_seconds: float = 5
    decision_seconds: float = 10
    pause_seconds: float = 4
    listed_bets: int = 20


class TableState:
    """The fields of a table machine (set by :class:`~uth.engine.table.TableMachine`)."""

    settings: TableSettings
    rules: RuleSet
    funds: Funds
    coach: Coach
    decisions: DecisionOrder
    banking: Banking
    _table_info: Callable[[], dict[str, Any]]
    _game_numbers: GameNumbers
    now: datetime
    seats: dict[int, Seat]
    #: Seated players' back-line hands (a second hand each, behind another seat).
    lines: dict[int, Seat]
    phase: str
    light: str
    game_number: str | None
    deadline: datetime | None
    round: Round | None
    round_id: int | None
    _published: int
    _board_shown: int
    _hand_names: dict[tuple[tuple[Any, ...], int], dict[str, Any]]
    _pending_debits: list[Debit]
    _void_request: tuple[str, str] | None
    _voidable: bool
    _round_voided: bool
    _bets_dirty: bool
    _ids_now: dict[int, dict[str, dict[str, Any]]]
    _ids_before: dict[int, dict[str, dict[str, Any]]]
    _last_bets: dict[int, dict[str, Decimal]]
    _last_result: dict[int, dict[str, Any]]
    _line_last_bets: dict[int, dict[str, Decimal]]
    _line_result: dict[int, dict[str, Any]]
    _away_notices: dict[int, list[dict[str, Any]]]
    _street_opened: datetime | None
    paused: dict[str, Any] | None
    _paused_by: str
    _resume_requested: bool
    _outbox: list[tuple[int | None, dict[str, Any]]]
    _effects: list[Effect]
    _woken: bool
    _handlers: dict[type[Any], Callable[[Seat, Any], dict[str, Any] | None]]
    _room: PlayerDealerBank | None


@dataclass(frozen=True, slots=True)
class Wait:
    """The round loop waits until ``until`` (None: no time) or a command wakes it."""

    until: datetime | None
    wakeable: bool


_T = TypeVar("_T")
#: What the round loop yields: a wait, or a call for the host to run.
Step = Wait | Call
#: The round loop and its parts: generators of :data:`Step`, resumed by the driver
#: (:class:`~uth.engine.table.TableMachine`) with the call's result.
Loop = Generator[Step, Any, _T]


class RoundCancelledError(Exception):
    """A paused round was cancelled by the operator (void and refund)."""

    def __init__(self, reason: str, actor: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.actor = actor
