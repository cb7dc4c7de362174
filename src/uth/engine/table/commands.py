"""The commands a player sends to a table machine (docs/protocol.md, "Commands").

The machine's own vocabulary, free of any wire format: the server parses a
WebSocket message (``uth.server.protocol``) and hands the machine one of these.
Every command carries the client's request ``id`` and, optionally, the
``game_number`` of the round it answers (a command naming another round is
refused with ``wrong_phase``).
"""

from __future__ import annotations

from dataclasses import dataclass

from uth.errors import UthError


class CommandError(UthError):
    """A command refused by the table, with a protocol error ``code``
    (``wrong_phase``, ``over_limit``, ``invalid_amount``, ``table_full``,
    ``round_paused``, ``trainer_not_allowed``).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class PlaceBet:
    """Add ``amount`` (currency units, read by :func:`uth.money.parse_amount`) to a
    spot: ``ante``, ``trips`` or ``bad_beat``; the Blind follows the Ante (004).
    ``behind``: at a card-room table, a back-line bet behind that seat number.
    """

    id: str
    spot: str
    amount: object
    game_number: str | None = None
    behind: int | None = None


@dataclass(frozen=True, slots=True)
class Undo:
    """Remove the last placement (repeatable, in reverse order).

    ``behind``: at a card-room table, a seated player's back-line hand behind that
    seat number (Repeat: places the last back-line bets behind it); None: the
    player's own hand (a player without a seat has only their back-line hand).
    """

    id: str
    game_number: str | None = None
    behind: int | None = None


@dataclass(frozen=True, slots=True)
class Double:
    """Double every bet, each up to its spot's maximum; once per round.

    ``behind``: at a card-room table, a seated player's back-line hand behind that
    seat number (Repeat: places the last back-line bets behind it); None: the
    player's own hand (a player without a seat has only their back-line hand).
    """

    id: str
    game_number: str | None = None
    behind: int | None = None


@dataclass(frozen=True, slots=True)
class Repeat:
    """Place the player's previous round's bets again.

    ``behind``: at a card-room table, a seated player's back-line hand behind that
    seat number (Repeat: places the last back-line bets behind it); None: the
    player's own hand (a player without a seat has only their back-line hand).
    """

    id: str
    game_number: str | None = None
    behind: int | None = None


@dataclass(frozen=True, slots=True)
class Decide:
    """A decision (``play_4x`` ... ``check``, ``fold``) on ``street`` (the open
    one when None).
    """

    id: str
    action: str
    street: str | None = None
    game_number: str | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    """The page was ``hidden`` or ``closed``: open bets are declined (004)."""

    id: str
    reason: str
    game_number: str | None = None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Ask for the whole table state again."""

    id: str
    game_number: str | None = None


@dataclass(frozen=True, slots=True)
class Trainer:
    """Switch the player's trainer mode on or off (issue 11)."""

    id: str
    on: bool
    game_number: str | None = None


@dataclass(frozen=True, slots=True)
class Sit:
    """Card-room tables: take seat ``seat`` between rounds (RULES.md, "Who banks")."""

    id: str
    seat: int
    game_number: str | None = None


@dataclass(frozen=True, slots=True)
class AnswerOffer:
    """Card-room tables: accept the player-dealer position with ``bank`` (currency
    units, read by :func:`uth.money.parse_amount`), or decline (``accept`` false).
    """

    id: str
    accept: bool
    bank: object = None
    game_number: str | None = None


Command = (
    PlaceBet | Undo | Double | Repeat | Decide | Leave | Snapshot | Trainer | Sit | AnswerOffer
)
