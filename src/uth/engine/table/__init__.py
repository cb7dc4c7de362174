"""The table machine: a table's life as a pure state machine (Sans-I/O).

Commands and the current time go in; messages for the players and calls for
storage come out (:mod:`uth.engine.table.effects`). The server's shell runs it
on its clock, WebSockets and store; tests drive it with plain calls. See
docs/architecture.md.
"""

from uth.engine.table.commands import (
    AnswerOffer,
    Command,
    CommandError,
    Decide,
    Double,
    Leave,
    PlaceBet,
    Repeat,
    Sit,
    Snapshot,
    Trainer,
    Undo,
)
from uth.engine.table.machine import (
    REQUEST_IDS_PER_ROUND,
    RoundCancelledError,
    TableMachine,
    TableSettings,
)
from uth.engine.table.policy import (
    AllAtOnce,
    Banking,
    Coach,
    DecisionOrder,
    Funds,
    HouseBank,
    InTurn,
    NoCoach,
    PlayerDealer,
    PlayerDealerBank,
)
from uth.engine.table.seats import SPOTS, GameNumbers, Seat

__all__ = [
    "REQUEST_IDS_PER_ROUND",
    "SPOTS",
    "AllAtOnce",
    "AnswerOffer",
    "Banking",
    "Coach",
    "Command",
    "CommandError",
    "Decide",
    "DecisionOrder",
    "Double",
    "Funds",
    "GameNumbers",
    "HouseBank",
    "InTurn",
    "Leave",
    "NoCoach",
    "PlaceBet",
    "PlayerDealer",
    "PlayerDealerBank",
    "Repeat",
    "RoundCancelledError",
    "Seat",
    "Sit",
    "Snapshot",
    "TableMachine",
    "TableSettings",
    "Trainer",
    "Undo",
]
